"""Paper L §3.2 (Orvieto et al., ICML 2023): the diagonalised linear RNN and the circular law.

Two statements, each written once here and read by every check of its claims:

- :class:`Diagonalised` — §3.2.1 "Linear RNN eigendecomposition": for A = PΛP⁻¹, x̄_k := P⁻¹x_k
  and B̄ := P⁻¹B give x̄_k = Σ_{j=0}^{k−1} Λ^j B̄ u_{k−j}, and y_k = Re[C̄x̄_k] + Du_k with
  C̄ = CP⁻¹ as printed. Since x_k = P x̄_k, C x_k = (CP) x̄_k: the printed C̄ = CP⁻¹ is wrong
  (the correction is C̄ = CP). Its fields are the parts a nearby false statement changes.
- :class:`CircularLaw` — Theorem 1 (cited, Girko/Tao–Vu): the empirical spectral measure of a
  real N×N matrix with i.i.d. N(0, 1/N) entries converges to the uniform law on the unit disk.
  Decided at finite N by ground rule 2 (CLAIMS.md): extrapolated moments and a trend.

Conventions (CLAIMS.md): 1-based time, x_0 = 0, x_k = A x_{k−1} + B u_k (so Eq. (4)'s sum up to
j = k − 1 is the state; the 0-based reading is L.unroll.zero-based, see theory.recurrence).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero
from recmem.theory.statement import Control, Statement

_POW = {-1: "P⁻¹", 1: "P"}
HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Diagonalised(Statement):
    """L §3.2.1: the linear RNN x_k = Ax_{k−1} + Bu_k, y_k = Cx_k + Du_k (A real, A = PΛP⁻¹) in
    diagonal coordinates: x̄_k = Σ_{j=0}^{k−1} Λ^(j+``shift``) B̄ u_{k−j} with
    B̄ = P^``b_power`` B, and y_k = ``part``[C̄ x̄_k] + Du_k with C̄ = C P^``c_power``.
    As printed: b_power −1, c_power −1, shift 0, part "re"; corrected: c_power +1."""

    c_power: int = -1
    b_power: int = -1
    shift: int = 0
    part: str = "re"

    @property
    def text(self) -> str:
        power = "j" if self.shift == 0 else f"(j+{self.shift})"
        part = "Re" if self.part == "re" else "Im"
        return (f"A = PΛP⁻¹ (A real, x_0 = 0): x̄_k = Σ_(j=0)^(k−1) Λ^{power} B̄ u_(k−j) with "
                f"B̄ = {_POW[self.b_power]}B, and y_k = Cx_k + Du_k = {part}[C̄x̄_k] + Du_k with "
                f"C̄ = C{_POW[self.c_power]}")

    def controls(self) -> tuple[Control, ...]:
        return (Control("B̄ = PB instead of P⁻¹B", replace(self, b_power=-self.b_power)),
                Control("power of Λ shifted by one", replace(self, shift=self.shift + 1)),
                Control("imaginary part instead of the real part",
                        replace(self, part="im" if self.part == "re" else "re")))

    # ---- the statement's formulas over any matrix arithmetic -------------------------------
    def b_bar(self, p: Any, p_inv: Any, b: Any, mul: Callable[[Any, Any], Any]) -> Any:
        """B̄ = P^b_power B."""
        return mul(p_inv if self.b_power == -1 else p, b)

    def c_bar(self, c: Any, p: Any, p_inv: Any, mul: Callable[[Any, Any], Any]) -> Any:
        """C̄ = C P^c_power."""
        return mul(c, p_inv if self.c_power == -1 else p)

    def state(self, lam: Sequence[Any], b_bar: Sequence[Any], u: Sequence[Any], k: int,
              zero: Any) -> list[Any]:
        """x̄_k = Σ_{j=0}^{k−1} Λ^(j+shift) B̄ u_{k−j} for one input channel: ``lam`` the diagonal,
        ``b_bar`` the column B̄, ``u[t − 1]`` = u_t (1-based)."""
        out = []
        for li, bi in zip(lam, b_bar, strict=True):
            acc = zero
            for j in range(k):
                acc = acc + li ** (j + self.shift) * bi * u[k - j - 1]
            out.append(acc)
        return out

    def output(self, z: Any, re: Callable[[Any], Any], im: Callable[[Any], Any]) -> Any:
        """The part of C̄x̄_k the statement keeps."""
        return re(z) if self.part == "re" else im(z)


DIAGONALISED = Diagonalised()
DIAGONALISED_CORRECTED = Diagonalised(c_power=1)


# ---- exact instances (SymPy, ℚ(i)) ---------------------------------------------------------------

def _mul(a: list[list[Any]], b: list[list[Any]], zero: Any) -> list[list[Any]]:
    return [[sum((a[i][t] * b[t][j] for t in range(len(b))), zero) for j in range(len(b[0]))]
            for i in range(len(a))]


def _inv(p: list[list[Any]]) -> list[list[Any]]:
    """The inverse of a 1×1 or 2×2 matrix over a field (the exact instances' sizes)."""
    if len(p) == 1:
        return [[1 / p[0][0]]]
    (a, b), (c, d) = p
    det = a * d - b * c
    return [[d / det, -b / det], [-c / det, a / det]]


def exact_outputs(law: Diagonalised, inst: dict[str, Any]) -> tuple[Any, Any]:
    """(y_k by the recurrence with A = PΛP⁻¹, y_k by the statement's diagonal route), exactly
    over ℚ(i) (SymPy's ``QQ_I``), returned as SymPy numbers.

    ``inst``: P (N×N invertible, N ≤ 2), lam (N), B and C (N reals), D and u_1 … u_k (reals), k
    — each entry an int, a Fraction or a complex number as the pair (re, im). A = PΛP⁻¹ must
    be real (rational P and Λ, or conjugate columns and a conjugate pair)."""
    from sympy import QQ, QQ_I

    def q(v: Any) -> Any:
        f = Fraction(v)
        return QQ(f.numerator, f.denominator)

    def e(v: Any) -> Any:  # a real (int, Fraction) or a complex (re, im)
        return QQ_I(q(v[0]), q(v[1])) if isinstance(v, tuple | list) else QQ_I(q(v), QQ.zero)

    zero = QQ_I.zero
    p = [[e(v) for v in row] for row in inst["P"]]
    lam = [e(v) for v in inst["lam"]]
    n = len(lam)
    p_inv = _inv(p)
    a = _mul(_mul(p, [[lam[i] if i == j else zero for j in range(n)] for i in range(n)], zero),
             p_inv, zero)
    b, c = [[e(v)] for v in inst["B"]], [[e(v) for v in inst["C"]]]
    u, k, d = [e(v) for v in inst["u"]], int(inst["k"]), e(inst["D"])
    x = [[zero] for _ in range(n)]
    for t in range(1, k + 1):
        ax = _mul(a, x, zero)
        x = [[ax[i][0] + b[i][0] * u[t - 1]] for i in range(n)]
    y = _mul(c, x, zero)[0][0] + d * u[k - 1]

    def mul(m1: Any, m2: Any) -> Any:
        return _mul(m1, m2, zero)

    b_bar = [r[0] for r in law.b_bar(p, p_inv, b, mul)]
    xbar = law.state(lam, b_bar, u, k, zero)
    c_bar = law.c_bar(c, p, p_inv, mul)[0]
    z = sum((ci * xi for ci, xi in zip(c_bar, xbar, strict=True)), zero)
    y_stmt = law.output(z, lambda w: QQ_I(w.x, 0), lambda w: QQ_I(w.y, 0)) + d * u[k - 1]
    return QQ_I.to_sympy(y), QQ_I.to_sympy(y_stmt)


# the minimal counterexample instances tried by the symbolic side (N = 1, then N = 2 with a
# a non-normal P, N = 2 with a complex-conjugate pair): P = 2 separates C̄ = CP⁻¹ from CP at k = 1
PROBES: tuple[dict[str, Any], ...] = (
    {"P": [[2]], "lam": [Fraction(1, 2)], "B": [1], "C": [1], "D": 0, "u": [1, 1], "k": 1},
    {"P": [[2]], "lam": [Fraction(1, 2)], "B": [1], "C": [1], "D": 0, "u": [1, 1], "k": 2},
    {"P": [[1, 1], [0, 1]], "lam": [Fraction(1, 2), Fraction(1, 3)], "B": [0, 1], "C": [1, 0],
     "D": 0, "u": [1, 1], "k": 2},
    {"P": [[1, 1], [(0, 1), (0, -1)]], "lam": [(HALF, HALF), (HALF, -HALF)], "B": [1, 2], "C": [1, 0],
     "D": 1, "u": [1, -1, 2], "k": 3},
)


def diagonalised_proof(law: Diagonalised) -> Proof:
    """Decide §3.2.1's diagonal form for ``law`` (SymPy).

    General part, with noncommutative symbols P, Λ, B, C (any N, any input width): P·B̄ = B,
    P⁻¹A = ΛP⁻¹ carried through the statement's powers (Λ^(j+shift) P^b_power · A =
    Λ^(j+1+shift) P^b_power and the base j = 0 term Λ^shift P^b_power = P⁻¹, so x̄_k = P⁻¹x_k by
    induction on j), C̄P⁻¹ = C (so C̄x̄_k = Cx_k), and the kept part of the real number Cx_k is
    itself. Any part SymPy does not reduce to 0 is decided at the exact probes (:data:`PROBES`):
    the statement's y_k against the recurrence's; a difference there is the counterexample.
    """
    import sympy as sp

    t0 = time.perf_counter()
    p, lam, b, c = sp.symbols("P Lambda B C", commutative=False)
    j = sp.Symbol("j", integer=True, nonnegative=True)
    pb = p ** law.b_power
    a = p * lam * p**-1
    parts = {
        "base term Λ^shift B̄ = P⁻¹B": lam**law.shift * pb * b - p**-1 * b,
        "induction Λ^(j+s)P^b·A = Λ^(j+1+s)P^b": lam ** (j + law.shift) * pb * a
        - lam ** (j + 1 + law.shift) * pb,
        "C̄P⁻¹ = C": c * p**law.c_power * p**-1 - c,
    }
    details: dict[str, Any] = {}
    ok_all = True
    for name, diff in parts.items():
        ok, _ = decide_zero(sp.expand(diff), simplify=lambda e: sp.expand(sp.simplify(e)))
        details[name] = "reduced to 0" if ok else "not reduced to 0"
        ok_all = ok_all and ok is True
    details["Re[Cx_k] = Cx_k (C, x_k real)"] = law.part == "re"
    ok_all = ok_all and law.part == "re"
    for inst in PROBES:
        y, y_stmt = exact_outputs(law, inst)
        if y != y_stmt:
            details["seconds"] = round(time.perf_counter() - t0, 3)
            return Proof(False, "exact probe instances", "SymPy: the recurrence's y_k against the "
                         "statement's Re[C̄x̄_k] + Du_k at an exact instance",
                         counterexample={**{key: str(v) for key, v in inst.items()},
                                         "y_k (recurrence)": str(y),
                                         "y_k (statement)": str(y_stmt)}, details=details)
    details["seconds"] = round(time.perf_counter() - t0, 3)
    if not ok_all:
        return Proof(None, "probes only", "SymPy could not reduce every part; the probes agree",
                     details=details)
    return Proof(True, "every N, every k ≥ 1, any invertible P (complex), any B, C, D; A real",
                 "SymPy noncommutative algebra (P, Λ, B, C) + induction on j; probes agree",
                 details=details, general=True)


# ---- Theorem 1: the strong circular law ------------------------------------------------------------

@dataclass(frozen=True)
class CircularLaw(Statement):
    """L §3.2.2, Theorem 1 (cited): A_N real N×N with i.i.d. N(0, ``variance``/N) entries; μ_N its
    empirical spectral measure converges weakly a.s. to the uniform law on the disk |z| ≤
    ``radius`` (``limit`` "disk"; "circle": the uniform law on |z| = radius; "radial": |z| uniform
    on [0, radius]). As printed: variance 1, radius 1, disk."""

    variance: Fraction = Fraction(1)
    radius: Fraction = Fraction(1)
    limit: str = "disk"

    @property
    def text(self) -> str:
        var = "1/N" if self.variance == 1 else f"({self.variance})/N"
        law = {"disk": f"the uniform probability measure on {{|z| ≤ {self.radius}}}",
               "circle": f"the uniform probability measure on {{|z| = {self.radius}}}",
               "radial": f"the law with |z| uniform on [0, {self.radius}] and uniform phase"}
        return (f"A_N real N×N, i.i.d. Gaussian entries of mean 0 and variance {var}: the "
                f"empirical spectral measure μ_N converges weakly a.s. to {law[self.limit]}")

    def controls(self) -> tuple[Control, ...]:
        return (Control("variance 2/N instead of 1/N", replace(self, variance=2 * self.variance)),
                Control("limit the uniform law on the circle |z| = 1",
                        replace(self, limit="circle")),
                # the nearest: the disk of radius 5/4 (E|z|² = 25/32 instead of 1/2)
                Control("limit the uniform law on the disk |z| ≤ 5/4",
                        replace(self, radius=self.radius * Fraction(5, 4))))

    def limit_moment(self, k: int) -> Fraction:
        """∫|z|^(2k) dμ of the statement's limit law μ (exact): disk R^(2k)/(k+1), circle R^(2k),
        radial R^(2k)/(2k+1). The phase is uniform in all three, so ∫z^m dμ = 0 for m ≥ 1."""
        r2k = self.radius ** (2 * k)
        return {"disk": r2k / (k + 1), "circle": r2k, "radial": r2k / (2 * k + 1)}[self.limit]

    def radial_cdf(self, s: float) -> float:
        """P(|z|² ≤ s) under the limit law (the KS distance's reference)."""
        r2 = float(self.radius) ** 2
        if self.limit == "circle":
            return 1.0 if s >= r2 else 0.0
        if self.limit == "radial":
            return min(1.0, max(0.0, s / r2) ** 0.5)
        return min(1.0, max(0.0, s / r2))


CIRCULAR_LAW = CircularLaw()


def limit_moment_proof(law: CircularLaw, k_max: int = 3) -> Proof:
    """The statement's limit moments ∫|z|^(2k) dμ against the integrals of its density (SymPy,
    polar coordinates): a check of recmem's own reference values, not of the theorem."""
    import sympy as sp

    r, th = sp.symbols("r theta", nonnegative=True)
    big_r = sp.nsimplify(law.radius)
    steps = {}
    for k in range(1, k_max + 1):
        if law.limit == "disk":
            val = sp.integrate(r ** (2 * k) * r / (sp.pi * big_r**2), (r, 0, big_r), (th, 0, 2 * sp.pi))
        elif law.limit == "radial":
            val = sp.integrate(r ** (2 * k) / big_r, (r, 0, big_r))
        else:
            val = big_r ** (2 * k)
        steps[k] = sp.simplify(val - sp.Rational(law.limit_moment(k)))
    details = {f"k={k}": str(v) for k, v in steps.items()}
    method = "SymPy integrals of the limit law's density in polar coordinates"
    wrong = {f"k={k}": str(v) for k, v in steps.items() if v != 0 and v.is_number}
    if wrong:  # a reference moment that its own density contradicts
        return Proof(False, f"k = 1 … {k_max}", method, counterexample=wrong, details=details)
    if any(v != 0 for v in steps.values()):
        return Proof(None, f"k = 1 … {k_max}", method + " (a difference SymPy did not reduce)",
                     details=details)
    return Proof(True, f"k = 1 … {k_max}", method, details=details)


# ---- App. F.1: the proof of Lemma 2, line by line -------------------------------------------------

@dataclass(frozen=True)
class RingProofF1(Statement):
    """L App. F.1, the proof of Lemma 2: each displayed line holds, for 0 ≤ r_min < r_max ≤ 1.

    Lines: (1) the ring's area is π(r_max^``area_power`` − r_min^``area_power``); (2) the CDF of
    the radius is F(r) = (r^p − r_min^p)/(r_max^p − r_min^p), p = ``cdf_power``, with F(r_min) = 0,
    F(r_max) = 1; (3) with r = e^{−ν}: F = (e^{−``exp_factor``·ν} − r_min^p)/(r_max^p − r_min^p);
    (4) u = F gives e^{−2ν} = (r_max² − r_min²)u + r_min²; (5) ν = −``nu_coeff``·log((r_max² −
    r_min²)u + r_min²), which is Lemma 2's ν; (6) sampling ν = F^{-1}(u) with this decreasing F of
    ν gives ν the law of −log|λ| for λ area-uniform on the ring. As printed: 2, 2, 2, ½.
    """

    area_power: int = 2
    cdf_power: int = 2
    exp_factor: int = 2
    nu_coeff: Fraction = Fraction(1, 2)

    @property
    def text(self) -> str:
        p, a, e = self.cdf_power, self.area_power, self.exp_factor
        return (f"App. F.1: area π(r_max^{a} − r_min^{a}); F(r) = (r^{p} − r_min^{p})/(r_max^{p} − "
                f"r_min^{p}); r = e^(−ν) ⇒ F = (e^(−{e}ν) − r_min^{p})/(r_max^{p} − r_min^{p}); "
                f"u = F ⇒ e^(−2ν) = (r_max² − r_min²)u + r_min² ⇒ ν = −({self.nu_coeff})·"
                "log((r_max² − r_min²)u + r_min²), Lemma 2's ν; ν = F⁻¹(u) samples −log|λ|")

    def controls(self) -> tuple[Control, ...]:
        return (Control("area π(r_max − r_min) (power 1)", replace(self, area_power=1)),
                Control("F(r) linear in r (power 1)", replace(self, cdf_power=1)),
                Control("e^(−ν) instead of e^(−2ν) in F", replace(self, exp_factor=1)),
                Control("ν = −log(…) (½ dropped)", replace(self, nu_coeff=Fraction(1))))

    def area(self, r_min: Any, r_max: Any, pi: Any) -> Any:
        """Line (1): the ring's area as printed."""
        return pi * (r_max**self.area_power - r_min**self.area_power)

    def lines(self, r: Any, nu: Any, u: Any, r_min: Any, r_max: Any, *, pi: Any,
              integral: Callable[[Any, Any], Any], exp: Callable[[Any], Any],
              log: Callable[[Any], Any]) -> dict[str, tuple[Any, Any]]:
        """Lines (1)–(5) as (definition, printed) pairs at one point, over any arithmetic:
        ``integral(a, b)`` is ∫_a^b 2πs ds computed by the caller (the definition)."""
        area = integral(r_min, r_max)
        return {
            "(1) area": (area, self.area(r_min, r_max, pi)),
            "(2) F(r)": (integral(r_min, r) / area, self.f_of_r(r, r_min, r_max)),
            "(3) F(e^{−ν})": (self.f_of_r(exp(-nu), r_min, r_max),
                             self.f_of_nu(nu, r_min, r_max, exp)),
            "(5) F(ν(u)) = u": (u, self.f_of_nu(self.nu(u, r_min, r_max, log), r_min, r_max, exp)),
        }

    def f_of_r(self, r: Any, r_min: Any, r_max: Any) -> Any:
        """Line (2): F(r)."""
        p = self.cdf_power
        return (r**p - r_min**p) / (r_max**p - r_min**p)

    def f_of_nu(self, nu: Any, r_min: Any, r_max: Any, exp: Callable[[Any], Any]) -> Any:
        """Line (3): F as printed in ν."""
        p = self.cdf_power
        return (exp(-self.exp_factor * nu) - r_min**p) / (r_max**p - r_min**p)

    def nu(self, u: Any, r_min: Any, r_max: Any, log: Callable[[Any], Any]) -> Any:
        """Line (5): ν(u)."""
        return -(log((r_max**2 - r_min**2) * u + r_min**2) / self.nu_coeff.denominator) \
            * self.nu_coeff.numerator


RING_PROOF = RingProofF1()


def ring_proof_f1(law: RingProofF1) -> Proof:
    """Decide every displayed line of App. F.1 (SymPy, symbolic 0 ≤ r_min < r_max, u ∈ [0, 1]).

    A line SymPy reduces to a nonzero difference, or that is nonzero at the exact point
    r_min = 1/2, r_max = 1, u = 1/3 (r = 3/4), is a counterexample to "each line holds"."""
    import sympy as sp

    from recmem.theory.ring import LEMMA6

    t0 = time.perf_counter()
    r_min = sp.Symbol("r_min", nonnegative=True)
    e = sp.Symbol("e", positive=True)
    r, s, t, u, nu = sp.symbols("r s t u nu", positive=True)
    r_max = r_min + e
    area = sp.integrate(2 * sp.pi * s, (s, r_min, r_max))
    big_f = law.f_of_r(r, r_min, r_max)
    w = sp.Symbol("w", positive=True)  # e^{−2ν}
    sol = sp.solve(sp.Eq(law.f_of_nu(nu, r_min, r_max, sp.exp), u), nu)
    lines: dict[str, Any] = {
        "(1) area": area - sp.pi * (r_max**law.area_power - r_min**law.area_power),
        "(2) F = ∫_{r_min}^r 2πs ds / area": big_f - sp.integrate(2 * sp.pi * s, (s, r_min, r))
        / area,
        "(2) F(r_min) = 0": big_f.subs(r, r_min),
        "(2) F(r_max) = 1": big_f.subs(r, r_max) - 1,
        "(3) F(e^{−ν}) = printed F in ν": big_f.subs(r, sp.exp(-nu))
        - law.f_of_nu(nu, r_min, r_max, sp.exp),
        "(4) u = F ⇒ e^{−2ν} = (r_max² − r_min²)u + r_min²":
            (sp.exp(-2 * sol[0]) if len(sol) == 1 else w) - ((r_max**2 - r_min**2) * u + r_min**2),
        "(5) ν(u) solves u = F": law.f_of_nu(law.nu(u, r_min, r_max, sp.log), r_min, r_max,
                                             sp.exp) - u,
        "(5) ν(u) is Lemma 2's ν": law.nu(u, r_min, r_max, sp.log)
        - LEMMA6.nu(LEMMA6.log_argument(u, r_min, r_max, sp.Rational), sp.log),
        # (6) P(ν(U) ≤ t) = P(U ≥ F(e^{−t})) = 1 − F(e^{−t}) (ν(u) decreasing) against the law of
        # −log|λ| for λ area-uniform: P(|λ| ≥ e^{−t}) = 1 − (e^{−2t} − r_min²)/(r_max² − r_min²)
        "(6) ν = F⁻¹(u) samples −log|λ|": (1 - law.f_of_nu(t, r_min, r_max, sp.exp))
        - (1 - (sp.exp(-2 * t) - r_min**2) / (r_max**2 - r_min**2)),
    }
    half = sp.Rational(1, 2)
    points = [{r_min: half, e: half, r: sp.Rational(3, 4), u: sp.Rational(1, 3),
               nu: sp.log(2), t: sp.log(sp.Rational(4, 3)), w: sp.Rational(1, 2)}]
    details: dict[str, Any] = {}
    for name, diff in lines.items():
        ok, witness = decide_zero(sp.expand(diff), points)
        details[name] = "confirmed" if ok else "undecided" if ok is None else "false"
        if ok is False:
            details["seconds"] = round(time.perf_counter() - t0, 3)
            return Proof(False, "0 ≤ r_min < r_max, u ∈ [0, 1]", "SymPy, line by line",
                         counterexample={"line": name, **witness}, details=details)
        if ok is None:
            return Proof(None, "0 ≤ r_min < r_max", f"SymPy could not decide line {name}",
                         details=details)
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return Proof(True, "all 0 ≤ r_min < r_max, u ∈ [0, 1] (symbolic)", "SymPy: each displayed "
                 "line of App. F.1 as an identity in r_min, r_max, r, ν, u", details=details,
                 general=True)


# ---- §3.2.1 "Stability." -----------------------------------------------------------------------------

# directions of the sampled eigenvalues (exact unit complex numbers: 1, the Pythagorean 3/5 + 4i/5, −1)
DIRECTIONS: tuple[tuple[Fraction, Fraction], ...] = (
    (Fraction(1), Fraction(0)), (Fraction(3, 5), Fraction(4, 5)), (Fraction(-1), Fraction(0)))


@dataclass(frozen=True)
class Stability(Statement):
    """L §3.2.1 "Stability.": if every eigenvalue has |λ_j| < ``radius`` (``closed``: ≤), x_k does
    not explode: sup_k ‖x_k‖ < ∞ for every input with |u_k| ≤ 1 (a sufficient condition). As
    printed: radius 1, open. Diagonal coordinates suffice: x_k = P x̄_k with P fixed."""

    radius: Fraction = Fraction(1)
    closed: bool = False

    @property
    def text(self) -> str:
        rel = "≤" if self.closed else "<"
        return (f"|λ_j| {rel} {self.radius} for all j ⇒ x_k does not explode: sup_k ‖x_k‖ < ∞ "
                "for every input with |u_k| ≤ 1")

    def controls(self) -> tuple[Control, ...]:
        return (Control("hypothesis widened to |λ_j| ≤ 1", replace(self, closed=True)),
                Control("hypothesis widened to |λ_j| < 9/8",
                        replace(self, radius=self.radius * Fraction(9, 8))))

    def admits(self, abs2: Fraction) -> bool:
        """The hypothesis at an eigenvalue with |λ|² = ``abs2`` (exact)."""
        r2 = self.radius**2
        return abs2 <= r2 if self.closed else abs2 < r2

    def boundary_moduli(self) -> tuple[Fraction, ...]:
        """Moduli at the edge of the hypothesis the numeric side runs: radius·(1 − 2⁻⁶) and, when
        closed, the radius itself."""
        inner = self.radius * Fraction(63, 64)
        return (inner, self.radius) if self.closed else (inner,)


def stability_proof(law: Stability) -> Proof:
    """Decide "Stability." (SymPy): the state's worst case over |u| ≤ 1 is
    S_k = Σ_{j<k}|λ|^j (|x̄_k| ≤ |B̄|·S_k; attained up to the factor ½ by u_{k−j} = sign Re λ^j);
    sup_k S_k = 1/(1 − ρ) for ρ = |λ| < 1 and ∞ for ρ ≥ 1 (limits in SymPy). The statement holds
    iff its hypothesis admits no ρ ≥ 1: the counterexample is ρ at the edge with u ≡ 1, λ = ρ."""
    import sympy as sp

    t0 = time.perf_counter()
    rho = sp.Symbol("rho", positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    j = sp.Symbol("j", integer=True, nonnegative=True)
    s_k = sp.summation(rho**j, (j, 0, k - 1))
    below = sp.limit(s_k.subs(rho, sp.Rational(1, 2)), k, sp.oo)
    details: dict[str, Any] = {"S_k": str(sp.simplify(s_k)), "sup S_k (ρ = 1/2)": str(below),
               "S_k at ρ = 1": str(sp.summation(1, (j, 0, k - 1)))}
    edge = law.radius
    bad = edge if law.admits(edge**2) else (edge * Fraction(63, 64) if edge > 1 else None)
    if bad is not None and bad >= 1:
        r = sp.Rational(bad.numerator, bad.denominator)
        state = sp.summation(r**j, (j, 0, k - 1))  # x̄_k for λ = ρ, B̄ = 1, u ≡ 1
        return Proof(False, "exact eigenvalue at the hypothesis' edge", "SymPy: x̄_k for λ = ρ, "
                     "B̄ = 1, u ≡ 1", counterexample={"λ": str(r), "u": "1 for all k",
                                                     "x̄_k": str(sp.simplify(state)),
                                                     "lim_k x̄_k": str(sp.limit(state, k, sp.oo))},
                     details={**details, "seconds": round(time.perf_counter() - t0, 3)})
    details["seconds"] = round(time.perf_counter() - t0, 3)
    scope = "every diagonalisable A, every input with |u_k| ≤ 1"
    if below != 2 or law.radius > 1:  # SymPy's limit not confirmed, or a hypothesis it cannot judge
        return Proof(None, scope, "SymPy could not confirm sup S_k = 1/(1 − ρ) for this "
                     "hypothesis", details=details)
    return Proof(True, scope, "SymPy: S_k = (1 − ρ^k)/(1 − ρ) ≤ 1/(1 − ρ) for ρ < 1",
                 details=details, general=True)


RATES = {"power": "|λ|^k", "sum": "Σ_(i<k) |λ|^i", "one": "1", "k-power": "k·|λ|^k",
         "sum-short": "Σ_(i<k−1) |λ|^i"}


@dataclass(frozen=True)
class GrowthRate(Statement):
    """L §3.2.1 "Stability.": the component x̄_{k,j} = Σ_{i<k} λ_j^i B̄_j u_{k−i} satisfies
    |x̄_{k,j}| = O(rate(k)) as k → ∞ for every λ_j ∈ ℂ and every input with |u_k| ≤ 1 (B̄_j = 1):
    ∃C ∀k ≥ 1 |x̄_{k,j}| ≤ C·rate(k). As printed: rate |λ_j|^k; corrected: Σ_{i<k}|λ_j|^i."""

    rate: str = "power"

    @property
    def text(self) -> str:
        return (f"for every λ ∈ ℂ and every input with |u_k| ≤ 1: |x̄_k| = O({RATES[self.rate]}) "
                "as k → ∞, x̄_k = Σ_(i<k) λ^i u_(k−i)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("O(1): bounded for every λ", replace(self, rate="one")),
                Control("O(k|λ|^k)", replace(self, rate="k-power")),
                Control("sum one term short: Σ_(i<k−1)|λ|^i", replace(self, rate="sum-short")))

    def rate_of(self, rho: Any, k: Any) -> Any:
        """rate(k) at |λ| = ρ in any arithmetic (ρ ≠ 1 for the sums' closed forms: the caller
        passes ρ = 1 exactly as 1, where the sums are k and k − 1)."""
        if self.rate == "power":
            return rho**k
        if self.rate == "one":
            return rho * 0 + 1
        if self.rate == "k-power":
            return k * rho**k
        m = k if self.rate == "sum" else k - 1
        return m if rho == 1 else (1 - rho**m) / (1 - rho)


# exact probe eigenvalues (re, im): inside, on and outside the unit circle
GROWTH_PROBES: tuple[tuple[Fraction, Fraction], ...] = (
    (HALF, Fraction(0)), (Fraction(1), Fraction(0)), (Fraction(2), Fraction(0)),
    (Fraction(27, 50), Fraction(18, 25)), (Fraction(0), Fraction(0)))


def growth_instance(law: GrowthRate, lam: tuple[Fraction, Fraction]) -> tuple[bool | None,
                                                                               dict[str, str]]:
    """Exact: with u ≡ 1, is sup_k |x̄_k|/rate(k) < ∞ at λ? x̄_k = (1 − λ^k)/(1 − λ) (k if λ = 1),
    so (|1 − ρ^k|)/|1 − λ| ≤ |x̄_k| ≤ (1 + ρ^k)/|1 − λ|; SymPy limits of these over rate(k), and
    rate(k) = 0 at some k ≥ 1 with x̄_k ≠ 0 (x̄_1 = 1) is unbounded."""
    import sympy as sp

    k = sp.Symbol("k", integer=True, positive=True)
    re, im = (sp.Rational(v.numerator, v.denominator) for v in lam)
    rho = sp.sqrt(re**2 + im**2)
    rate = law.rate_of(rho if rho != 1 else 1, k)
    info = {"λ": f"{lam[0]} + {lam[1]}i", "u": "1 for all k", "rate(k)": str(rate)}
    if sp.simplify(rate.subs(k, 1)) == 0 if isinstance(rate, sp.Expr) else rate == 0:
        return False, {**info, "at k = 1": "x̄_1 = 1 but rate(1) = 0"}
    if (re, im) == (1, 0):
        lim = sp.limit(k / rate, k, sp.oo)
        return bool(lim.is_finite), {**info, "x̄_k": "k", "lim x̄_k/rate(k)": str(lim)}
    upper = sp.limit((1 + rho**k) / rate, k, sp.oo)
    lower = sp.limit(sp.Abs(1 - rho**k) / rate, k, sp.oo)
    info |= {"lim (1 + ρ^k)/rate(k)": str(upper), "lim |1 − ρ^k|/rate(k)": str(lower)}
    if upper.is_finite:
        return True, info
    if lower is sp.oo:
        return False, info
    return None, info


def growth_proof(law: GrowthRate) -> Proof:
    """Decide the O-bound (SymPy): by the triangle inequality |x̄_k| ≤ S_k = Σ_{i<k}ρ^i, so it
    holds for every λ when S_k/rate(k) stays bounded in each regime ρ < 1, ρ = 1, ρ > 1 (limits
    with symbolic ρ); otherwise the exact probes (:data:`GROWTH_PROBES`, u ≡ 1) give the
    counterexample."""
    import sympy as sp

    t0 = time.perf_counter()
    for lam in GROWTH_PROBES:
        ok, info = growth_instance(law, lam)
        if ok is False:
            return Proof(False, "exact probe eigenvalues, u ≡ 1", "SymPy limits of |x̄_k|/rate(k)",
                         counterexample=info, details={"seconds": round(time.perf_counter() - t0,
                                                                         3)})
    k = sp.Symbol("k", integer=True, positive=True)
    lims = {}
    for name in ("ρ < 1", "ρ > 1", "ρ = 1"):
        if name == "ρ = 1":
            s_k, r_k = k, law.rate_of(1, k)
        else:
            r = sp.Symbol("r", positive=True)
            val = 1 / (1 + r) if name == "ρ < 1" else 1 + r  # ρ = 1/(1 + r) or 1 + r, r > 0
            s_k, r_k = (1 - val**k) / (1 - val), law.rate_of(val, k)
        lims[name] = sp.limit(sp.simplify(s_k / r_k), k, sp.oo)
    ok_all = all(v.is_finite for v in lims.values())
    details = {f"lim S_k/rate(k), {n}": str(v) for n, v in lims.items()}
    details["seconds"] = str(round(time.perf_counter() - t0, 3))
    if ok_all:
        return Proof(True, "every λ ∈ ℂ, every input with |u_k| ≤ 1", "triangle inequality "
                     "|x̄_k| ≤ Σ_{i<k}|λ|^i and SymPy limits of S_k/rate(k) in each regime of |λ|",
                     details=details, general=True)
    return Proof(None, "probes only", "SymPy could not bound S_k/rate(k) in every regime",
                 details=details)
