"""W Lemma A.7 (ICLR camera-ready App. A.10, eqs. (73)–(74)): a hyperbolic W for which the system
dv/dt = Diag(σ′(v)) W v, v₀ = σ(U x₀ + b) (73) is asymptotically stable over every bounded Heaviside
input |x₀|₁ < B is Hurwitz. The proof takes σ = hardtanh (σ′(z) = 1 for |z| ≤ 1, so (73) is
v′ = W v near 0), claims the inclusion B(0, δ) ⊆ {σ(Ux₀ + b) : |x₀|₁ < B} (74) for large B, and
concludes by Hartman–Grobman.

One statement, :class:`StableHurwitz`, read by every side. Its fields are what a nearby statement
changes: whether (74) is assumed (``contains_ball``; the lemma as printed assumes nothing of U, b),
whether W must be hyperbolic, the radius r of the step σ′(z) = 1 for |z| ≤ r, and the conclusion
"sign·W is Hurwitz with max Re λ(sign·W) < −margin".

Findings (decided exactly here):

- as printed the lemma is false: (74) needs U of rank m (an open set of ℝᵐ inside the image of the
  ℓ₁-ball), which fails whenever the input dimension d < m (Theorem 3.9's setting, m → ∞). With
  m = 2, d = 1, U = (1, 0)ᵀ, b = 0, W = diag(−1, 1) (hyperbolic, not Hurwitz) every input state
  (σ(x₀), 0) flows as (σ(x₀)e^{−t}, 0) → 0 with |v_t| ≤ |v₀|;
- with (74) assumed (the origin then attracts a ball and is stable) it holds for hardtanh, and
  hyperbolicity is not needed: an eigenpair W(p + iq) = (a + iω)(p + iq) with a ≥ 0 gives the exact
  solution ε e^{at}(p cos ωt − q sin ωt) inside the cube |v|∞ ≤ 1, which does not tend to 0 (a = 0)
  or leaves every small ball (a > 0).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zeros, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

Rows = tuple[tuple[Fraction, ...], ...]
STEP_POINTS = 8  # the step σ′(z) = 1 is checked at z = r·k/8, k = −8 … 8 (both ends included)


@dataclass(frozen=True)
class StableHurwitz(Statement):
    """Lemma A.7 for σ = hardtanh with its proof's step σ′(z) = 1 for |z| ≤ ``radius``."""

    contains_ball: bool = False  # (74) assumed: the input states contain a ball B(0, δ) (rank U = m)
    hyperbolic: bool = True  # hypothesis: no eigenvalue of W on the imaginary axis
    radius: Fraction = Fraction(1)  # the step: σ′(z) = 1 for |z| ≤ radius (hardtanh: 1)
    sign: int = 1  # conclusion: sign·W is Hurwitz …
    margin: Fraction = Fraction(0)  # … with max Re λ(sign·W) < −margin

    def __post_init__(self) -> None:
        if self.sign not in (1, -1) or self.radius <= 0 or self.margin < 0:
            raise ValueError("sign must be ±1, radius > 0 and margin ≥ 0")

    @property
    def text(self) -> str:
        hyp = "hyperbolic W ∈ ℝ^{m×m}" if self.hyperbolic else "any W ∈ ℝ^{m×m}"
        ball = ("with (74) B(0, δ) ⊆ {σ(Ux₀ + b) : |x₀|₁ < B} (U of rank m)" if self.contains_ball
                else "for any U ∈ ℝ^{m×d}, b")
        w = "W" if self.sign == 1 else "−W"
        concl = f"{w} is Hurwitz" + (f" with max Re λ({w}) < −{self.margin}" if self.margin else "")
        return (f"σ = hardtanh: σ′(z) = 1 for |z| ≤ {self.radius}; for {hyp}, {ball}: if "
                f"dv/dt = Diag(σ′(v))Wv, v₀ = σ(Ux₀ + b) (73) is asymptotically stable over every "
                f"bounded Heaviside input |x₀|₁ < B, then {concl}")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("conclusion for −W (sign flipped)", replace(self, sign=-self.sign)),
               Control("conclusion with margin 1/8: max Re λ(W) < −1/8",
                       replace(self, margin=self.margin + Fraction(1, 8))),
               Control("linear region |z| ≤ 9/8 (radius widened by 1/8)",
                       replace(self, radius=self.radius + Fraction(1, 8)))]
        if self.contains_ball:
            out.append(Control("inclusion (74) dropped (U of any rank)",
                               replace(self, contains_ball=False)))
        return tuple(out)

    def gap(self, alpha_signed: Any) -> Any:
        """α(sign·W) + margin: the conclusion holds iff this is < 0 (α = max Re λ)."""
        return alpha_signed + self.margin

    def signed(self, w: Rows) -> Rows:
        """sign·W."""
        return tuple(tuple(self.sign * x for x in row) for row in w)

    def shifted(self, w: Rows) -> Rows:
        """sign·W + margin·I: Hurwitz iff the conclusion holds."""
        s = self.signed(w)
        return tuple(tuple(x + (self.margin if i == j else 0) for j, x in enumerate(row))
                     for i, row in enumerate(s))

    def step_points(self) -> list[Fraction]:
        """Where the step σ′(z) = 1 is asserted and checked: z = r·k/8, k = −8 … 8."""
        return [self.radius * k / STEP_POINTS for k in range(-STEP_POINTS, STEP_POINTS + 1)]


# ---- hardtanh, exactly ---------------------------------------------------------------------------

def hardtanh(z: Fraction) -> Fraction:
    """σ(z) = max(−1, min(1, z)) (W Def. 3.8's hardtanh), exactly."""
    return max(Fraction(-1), min(Fraction(1), z))


def slope(z: Fraction) -> Fraction:
    """σ′(z) exactly: the difference quotient (σ(z) − σ(z − h·sgn z))/h over a step h that crosses
    no kink (h ≤ the distance to ±1 when it is positive): the derivative off the kinks, and at
    z = ±1 the one-sided derivative from inside, 1 — the value (73) and the proof give σ′(±1)."""
    h = min(Fraction(1, 2), (abs(abs(z) - 1) or Fraction(1)) / 2)
    if z == 0:
        return (hardtanh(h) - hardtanh(-h)) / (2 * h)
    s = 1 if z > 0 else -1
    return (hardtanh(z) - hardtanh(z - s * h)) / (s * h)


def step_violation(law: StableHurwitz) -> tuple[Fraction, Fraction] | None:
    """The first z = r·k/8 where σ′(z) ≠ 1, with σ′(z); None when the step holds at every point."""
    for z in law.step_points():
        if slope(z) != 1:
            return z, slope(z)
    return None


# ---- exact spectral decisions (ℚ) -------------------------------------------------------------

def charpoly(w: Rows) -> list[Fraction]:
    """det(sI − W) as coefficients c₀ … c_m (monic), exactly (flint fmpq_mat)."""
    import flint

    m = flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in row] for row in w])
    return [Fraction(int(c.p), int(c.q)) for c in m.charpoly().coeffs()]


def routh_hurwitz(coeffs: Sequence[Fraction]) -> bool:
    """Whether every root of the real polynomial Σ c_k s^k (c_m > 0) has negative real part: the
    first column of its Routh array is positive (a zero there means a root on or right of the
    imaginary axis; Gantmacher, *Theory of Matrices* II, ch. XV)."""
    c = [Fraction(x) for x in coeffs][::-1]  # highest degree first
    n = len(c) - 1
    width = n // 2 + 2
    rows = [c[0::2] + [Fraction(0)] * (width - len(c[0::2])),
            c[1::2] + [Fraction(0)] * (width - len(c[1::2]))]
    while len(rows) < n + 1:
        a, b = rows[-2], rows[-1]
        if b[0] <= 0:
            return False
        rows.append([(b[0] * a[k + 1] - a[0] * b[k + 1]) / b[0] for k in range(width - 1)]
                    + [Fraction(0)])
    return all(r[0] > 0 for r in rows[:n + 1])


def hurwitz(w: Rows) -> bool:
    """Whether W is Hurwitz (every eigenvalue in the open left half-plane), exactly."""
    return routh_hurwitz(charpoly(w))


def on_axis(w: Rows) -> bool:
    """Whether W has an eigenvalue iω (ω real), exactly: with p(s) = det(sI − W), p(iω) = A(ω) + iB(ω)
    with A, B ∈ ℚ[ω], so an eigenvalue on the axis is a real common root: a real root of gcd(A, B)
    (counted by Sturm's theorem over ℚ, flint)."""
    import flint

    c = charpoly(w)
    re_c = [F0] * len(c)
    im_c = [F0] * len(c)
    for k, x in enumerate(c):  # (iω)^k = i^k ω^k, i^k = 1, i, −1, −i
        (re_c if k % 2 == 0 else im_c)[k] = x * (1 if k % 4 in (0, 1) else -1)
    a = flint.fmpq_poly([flint.fmpq(x.numerator, x.denominator) for x in re_c])
    b = flint.fmpq_poly([flint.fmpq(x.numerator, x.denominator) for x in im_c])
    g = a.gcd(b) if b != 0 else a
    return g == 0 or real_roots(g) > 0


F0 = Fraction(0)


def real_roots(g: Any) -> int:
    """The number of distinct real roots of a nonzero flint ``fmpq_poly`` (Sturm's theorem: sign
    changes of the Sturm chain at −∞ minus those at +∞)."""
    if g.degree() < 1:
        return 0
    chain = [g, g.derivative()]
    while chain[-1].degree() > 0:
        r = -(chain[-2] % chain[-1])
        if r == 0:
            break
        chain.append(r)

    def changes(at_plus: bool) -> int:
        signs = []
        for q in chain:
            lead = Fraction(str(q.coeffs()[-1]))
            s = 1 if lead > 0 else -1
            if not at_plus and q.degree() % 2 == 1:
                s = -s
            signs.append(s)
        return sum(1 for x, y in itertools.pairwise(signs) if x != y)

    return changes(False) - changes(True)


def rank(rows: Rows) -> int:
    """Exact rank of a rational matrix."""
    import flint

    if not rows or not rows[0]:
        return 0
    return int(flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in r]
                               for r in rows]).rref()[1])


def lyapunov_p(a: Rows) -> Rows | None:
    """The solution P of AᵀP + PA = −I (exact, via the Kronecker system), or None when singular."""
    import flint

    n = len(a)
    big = flint.fmpq_mat(n * n, n * n)
    for i in range(n):
        for j in range(n):
            r = i * n + j  # equation (i, j): Σ_k A_ki P_kj + Σ_k P_ik A_kj = −δ_ij
            for k in range(n):
                big[r, k * n + j] += flint.fmpq(a[k][i].numerator, a[k][i].denominator)
                big[r, i * n + k] += flint.fmpq(a[k][j].numerator, a[k][j].denominator)
    rhs = flint.fmpq_mat(n * n, 1, [-1 if i == j else 0 for i in range(n) for j in range(n)])
    if big.det() == 0:
        return None
    x = big.solve(rhs)
    return tuple(tuple(Fraction(int(x[i * n + j, 0].p), int(x[i * n + j, 0].q)) for j in range(n))
                 for i in range(n))


def _minor(m: Rows, k: int) -> Fraction:
    import flint

    return Fraction(str(flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in r[:k]]
                                        for r in m[:k]]).det()))


def positive_definite(p: Rows) -> bool:
    """Sylvester's criterion: every leading principal minor of the symmetric P is positive."""
    return all(_minor(p, k) > 0 for k in range(1, len(p) + 1))


def _quad(p: Rows, v: Sequence[Fraction]) -> Fraction:
    return sum((v[i] * p[i][j] * v[j] for i in range(len(v)) for j in range(len(v))), Fraction(0))


def _inverse_diagonal(p: Rows) -> list[Fraction]:
    import flint

    inv = flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in r] for r in p]).inv()
    return [Fraction(str(inv[i, i])) for i in range(len(p))]


# ---- one instance, decided exactly ---------------------------------------------------------------

def invariant_split(w: Rows, u: Rows) -> int:
    """The least k with U[k:] = 0 and W[k:, :k] = 0: the input states lie in {v_k = … = v_m = 0},
    which (73) leaves invariant (there Diag(σ′(0))·(W v)_J = W[J, :k] v[:k] = 0)."""
    m = len(w)
    for k in range(m + 1):
        if all(x == 0 for r in u[k:] for x in r) and all(
                w[i][j] == 0 for i in range(k, m) for j in range(k)):
            return k
    return m  # pragma: no cover - k = m always qualifies


def stable_certificate(w: Rows, u: Rows, bound: Fraction) -> dict[str, str] | None:
    """A Lyapunov certificate that every input state σ(Ux₀), |x₀|₁ < B, flows to 0 and the origin is
    stable: on the invariant block A = W[:k, :k] (:func:`invariant_split`), P ≻ 0 with AᵀP + PA = −I,
    and the vertices ±B·U_j of the image of the ℓ₁-ball inside the ellipsoid {vᵀPv ≤ c},
    c = 1/max_i (P⁻¹)_ii, which lies in the cube |v|∞ ≤ 1 where σ = id and σ′ = 1 (so (73) is
    v′ = Av there and vᵀPv decreases). None when no such certificate is found."""
    k = invariant_split(w, u)
    if k == 0:
        return {"input states": "{0} (U = 0): the equilibrium"}
    a = tuple(r[:k] for r in w[:k])
    p = lyapunov_p(a)
    if p is None or not positive_definite(p):
        return None
    c = 1 / max(_inverse_diagonal(p))
    worst = max(bound * bound * _quad(p, [u[i][j] for i in range(k)]) for j in range(len(u[0])))
    if worst > c:
        return None
    return {"invariant block": f"v[{k}:] = 0", "P (AᵀP + PA = −I)": fmt(p),
            "max vᵀPv over the input states": str(worst), "ellipsoid level in the cube": str(c)}


def unstable_witness(w: Rows, u: Rows, eigs: Sequence[tuple[Fraction, Fraction]]
                     ) -> dict[str, str] | None:
    """An eigenpair W z = λ z (λ = a + iω, a ≥ 0, checked exactly over ℚ(i)) whose Re z or Im z lies
    in the range of U: the input state ε·Re z (x₀ = εU⁺Re z, any B > 0 for small ε) starts the
    exact solution ε Re(e^{λt} z) of v′ = Wv in the cube, which does not tend to 0 (a = 0) or leaves
    every small ball (a > 0): (73) is not asymptotically stable over the inputs."""
    from recmem.numerics.exact import QQi
    from recmem.theory import exact_linalg as el

    m = len(w)
    r_u = rank(u)
    for a, om in eigs:
        if a < 0:
            continue
        lam = el.element(QQi(a, om))
        mat = el.matrix([[QQi(w[i][j]) for j in range(m)] for i in range(m)])
        shifted = mat - lam * el.matrix([[QQi(Fraction(int(i == j))) for j in range(m)]
                                         for i in range(m)])
        null = shifted.nullspace()
        if null.shape[0] == 0:
            continue
        z = [el.to_qqi(x) for x in null.to_list()[0]]  # the rows of ``null`` span the kernel
        for part, name in (([q.re for q in z], "Re z"), ([q.im for q in z], "Im z")):
            if not any(part):
                continue
            aug = tuple((*u[i], part[i]) for i in range(m))
            if rank(aug) == r_u:
                return {"eigenvalue": f"{a} + {om}i", name: "(" + ", ".join(map(str, part)) + ")",
                        "solution": f"ε Re(e^(λt) z), Re λ = {a} ≥ 0: no decay to 0"}
    return None


def decide(law: StableHurwitz, w: Rows, u: Rows, bound: Fraction, z: Fraction,
           eigs: Sequence[tuple[Fraction, Fraction]]) -> tuple[bool | None, dict[str, str], str]:
    """The statement on one instance (W, U, b = 0, B, a point z of the step), exactly: (holds,
    values, why). False: the step fails at z, or the hypotheses hold (certified: Lyapunov) and the
    conclusion fails. True: the step holds and a hypothesis fails (certified) or the conclusion
    holds. None: the hypothesis over the inputs could not be decided."""
    m = len(w)
    values = {"W": fmt(w), "U": fmt(u), "B": str(bound), "z": str(z)}
    if abs(z) <= law.radius and slope(z) != 1:
        return False, {**values, "σ′(z)": str(slope(z))}, f"the step σ′(z) = 1 fails at z = {z}"
    if law.hyperbolic and on_axis(w):
        return True, values, "W is not hyperbolic (hypothesis fails)"
    if law.contains_ball and rank(u) < m:
        return True, values, "rank U < m: (74) fails (hypothesis)"
    if hurwitz(law.shifted(w)):
        return True, values, "the conclusion holds (Routh–Hurwitz)"
    values["conclusion"] = "fails (Routh–Hurwitz)"
    cert = stable_certificate(w, u, bound)
    if cert is not None:
        return False, {**values, **cert}, "(73) is asymptotically stable over the inputs, the " \
            "conclusion fails"
    wit = unstable_witness(w, u, eigs)
    if wit is not None:
        return True, {**values, **wit}, "(73) is not asymptotically stable over the inputs"
    return None, values, "the hypothesis over the inputs is undecided"


def fmt(m: Rows) -> str:
    """A rational matrix as text."""
    return "[" + ", ".join("[" + ", ".join(str(x) for x in r) + "]" for r in m) + "]"


# ---- the symbolic side ---------------------------------------------------------------------------

PRINTED_W: Rows = ((Fraction(-1), Fraction(0)), (Fraction(0), Fraction(1)))
PRINTED_U: Rows = ((Fraction(1),), (Fraction(0),))


@functools.cache
def _witness_steps() -> tuple[tuple[str, Any], ...]:
    """The general part of the proof, decided by SymPy (no statement field changes it)."""
    import sympy as sp

    t, om, eps = sp.symbols("t omega epsilon", real=True)
    a = sp.Symbol("a", nonnegative=True)
    p, q, wp, wq = sp.symbols("p q Wp Wq", real=True)  # one coordinate of p, q, Wp, Wq
    v = eps * sp.exp(a * t) * (p * sp.cos(om * t) - q * sp.sin(om * t))
    wv = eps * sp.exp(a * t) * (wp * sp.cos(om * t) - wq * sp.sin(om * t))
    eig = {wp: a * p - om * q, wq: om * p + a * q}  # W(p + iq) = (a + iω)(p + iq), real and imag
    z = sp.Symbol("z", real=True)
    h = sp.Piecewise((-1, z < -1), (1, z > 1), (z, True))
    slope_1 = sp.Piecewise((0, z < -1), (0, z > 1), (1, True))
    k = sp.Symbol("k", integer=True, nonnegative=True)
    y = sp.Symbol("y", real=True)  # y = at ≥ 0
    return (
        ("hardtanh′ = 1 on the open cube (−1, 1) (pieces: slopes 0, 1, 0)",
         decide_zeros([sp.diff(h, z) - slope_1], simplify=sp.piecewise_fold,
                      points=[{z: sp.Rational(1, 2)}, {z: sp.Rational(-1, 3)}])),
        ("ε e^{at}(p cos ωt − q sin ωt) solves v′ = Wv, given W(p + iq) = (a + iω)(p + iq)",
         decide_zeros([sp.diff(v, t) - wv.subs(eig)], simplify=sp.expand,
                      points=[{t: 1, a: 1, om: 2}])),
        ("at t_k = 2πk/ω the solution is ε e^{a t_k} p: no decay to 0 for a ≥ 0",
         decide_zeros([v.subs(t, 2 * sp.pi * k / om) - eps * sp.exp(2 * sp.pi * a * k / om) * p],
                      simplify=sp.expand, points=[{k: 1, a: 1, om: 2}])),
        ("e^{at} ≥ 1 for at ≥ 0 (a = 0: bounded by ε(|p|∞ + |q|∞), in the cube for small ε;"
         " a > 0: leaves every small ball)",
         fact(_increasing_from_one(sp, y), "e^y increasing on y ≥ 0, e^0 = 1")),
    )


def stable_instances(margin: Fraction) -> list[Rows]:
    """Exact W for which (73) is certified asymptotically stable (P ≻ 0 with WᵀP + PW = −I): −I, the
    slow −I/16, the non-normal [[−1, 4], [0, −1]], and −margin·I when margin > 0."""
    def diag(c: Fraction) -> Rows:
        return ((-c, F0), (F0, -c))

    out = [diag(Fraction(1)), diag(Fraction(1, 16)), ((Fraction(-1), Fraction(4)), (F0, Fraction(-1)))]
    if margin:
        out.append(diag(margin))
    return [w for w in out if (p := lyapunov_p(w)) is not None and positive_definite(p)]


def _increasing_from_one(sp: Any, y: Any) -> bool | None:
    """Whether e^y is increasing on [0, ∞) with e^0 = 1 (None: SymPy cannot tell)."""
    inc = sp.is_increasing(sp.exp(y), sp.Interval(0, sp.oo))
    return None if inc is None else bool(inc) and sp.exp(0) == 1


def proof(law: StableHurwitz) -> Proof:
    """The statement decided: the step σ′(z) = 1 on |z| ≤ r (false for r > 1: counterexample z);
    without (74) the printed counterexample (W = diag(−1, 1), U = (1, 0)ᵀ); with (74) the general
    contrapositive (every m, every real W, hardtanh), then the conclusion read with the statement's
    sign and margin (W = −cI: asymptotically stable, refutes any sign −1 or margin > 0)."""
    import sympy as sp

    bad = step_violation(law)
    if bad is not None:
        return Proof(False, "hardtanh", "exact difference quotient of hardtanh",
                     counterexample={"z": str(bad[0]), "σ′(z)": str(bad[1]),
                                     "asserted": f"σ′(z) = 1 for |z| ≤ {law.radius}"})
    if not law.contains_ball:
        t = sp.Symbol("t", real=True)
        s0 = sp.Symbol("s0", real=True)  # σ(x₀) ∈ [−1, 1]
        v1 = s0 * sp.exp(-t)
        v = sp.Matrix([v1, 0])
        w = sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in r] for r in PRINTED_W])
        # |v_t|∞ = |σ(x₀)|e^{−t} ≤ 1: in the closed cube, where Diag(σ′(v)) = I (the step, r ≥ 1)
        printed = {
            "v = (σ(x₀)e^{−t}, 0) solves (73): dv/dt − Wv = 0 (σ′ = 1 on the cube)":
                decide_zeros(list(sp.diff(v, t) - w * v)),
            "v_t → 0 and |v_t| ≤ |v₀|": fact(sp.limit(v1, t, sp.oo) == 0, "lim v_t = 0"),
        }
        ok = all(val[0] is True for val in printed.values())
        hyper = not on_axis(PRINTED_W)
        concl = hurwitz(law.shifted(PRINTED_W))
        if ok and hyper and not concl:
            return Proof(False, "m = 2, d = 1, σ = hardtanh", "exact solution of (73) from every "
                         "input state; W hyperbolic (eigenvalues ±1), conclusion false "
                         "(Routh–Hurwitz)",
                         counterexample={"W": fmt(PRINTED_W), "U": fmt(PRINTED_U), "b": "0",
                                         "B": "any", "v_t": "(σ(x₀)e^(−t), 0) → 0",
                                         "eigenvalues of W": "−1, 1", "(74)": "fails: rank U = 1 < m"},
                         details={k: str(v) for k, v in printed.items()})
        return Proof(None, "m = 2, d = 1", "the counterexample was not confirmed")
    steps: dict[str, Any] = dict(_witness_steps())
    # the conclusion in the statement's reading, from "every eigenvalue has Re < 0": decided on
    # certified asymptotically stable instances (P ≻ 0 with WᵀP + PW = −I; (73) is v′ = Wv in the
    # cube), where it must hold
    for w in stable_instances(law.margin):
        if not hurwitz(law.shifted(w)):
            return Proof(False, "σ = hardtanh, m = 2", "a Lyapunov certificate makes (73) "
                         "asymptotically stable (P ≻ 0, WᵀP + PW = −I, v′ = Wv in the cube); the "
                         "conclusion fails (Routh–Hurwitz)",
                         counterexample={"W": fmt(w), "U": "I", "P": fmt(lyapunov_p(w) or ()),
                                         "asserted": law.text.split("then ")[-1]},
                         details={k: str(v) for k, v in steps.items()})
    return proof_from_steps(steps, "every m ≥ 1, every real W" + (" (hyperbolic)" if law.hyperbolic
                                                                  else "") + ", σ = hardtanh",
                            "contrapositive: an eigenvalue with Re ≥ 0 gives an exact solution of "
                            "(73) in the cube from a state of the ball (74) that does not decay",
                            general=True)
