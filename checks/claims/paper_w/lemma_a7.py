"""W.lemma-a7: Lemma A.7 of paper W (ICLR camera-ready App. A.10, eqs. (73)–(74)), used by Theorem
3.9's proof (App. A.8 and A.9: "by Lemma A.7 … each hyperbolic matrix … is Hurwitz"), with its
proof's step σ′(z) = 1 for |z| ≤ 1 (σ = hardtanh).

One statement class, :class:`recmem.theory.lemma_a7.StableHurwitz`, read by every side:

- ``W.lemma-a7`` — as printed (nothing assumed of U, b): REFUTED by m = 2, d = 1, U = (1, 0)ᵀ,
  b = 0, W = diag(−1, 1): every input state (σ(x₀), 0) flows to 0, W is hyperbolic and not Hurwitz.
  The inclusion (74) needs rank U = m, impossible when the input dimension d < m;
- ``.corrected`` — with (74) assumed (the input states contain a ball around 0): VERIFIED;
- ``.any-w`` — the same without "hyperbolic": for hardtanh the hypothesis is not needed (VERIFIED).

Numeric sides (every arithmetic): (73) with hardtanh integrated (RK4) from input states σ(Ux₀) of a
few exact (W, U, B), against the conclusion read from the eigenvalues of W computed in the same
arithmetic; and hardtanh's difference quotients at z = r·k/8 against the step σ′(z) = 1.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.lemma_a7 import Rows, StableHurwitz

F = Fraction
QUOTE = (r"Lemma A.7. Consider a dynamical system with the following dynamics: $$ \frac {d v _ "
         r"{t}}{d t} = \operatorname{Diag} \left(\sigma^ {\prime} \left(v _ {t}\right)\right) W v _ "
         r"{t}, \tag {73} $$ $$ v _ {0} = \sigma (U x _ {0} + b). $$ If $W \in \mathbb{R}^{m \times "
         r"m}$ is hyperbolic and the system in Equation (73) is asymptotically stable over any "
         r"bounded Heaviside input $|x_0|_1 < B$ , then the matrix $W$ is Hurwitz. Proof. When "
         r"$\sigma$ is the hardtanh activation, $\sigma'(z) = 1$ for $|z| \leq 1$ , "
         r"$\mathrm{Diag}(\sigma'(v_{m,t})) = I_m$ . Also, $\sigma^{-1}$ is continuous at 0, "
         r"therefore $\sigma$ is an open mapping around 0. For sufficiently large $B$ , there "
         r"exists $\delta_m > 0$ such that a small ball centered at 0 is contained in the "
         r"initializations that are stable for the system in Equation (73). $$ v _ {0} \in B (0, "
         r"\delta_ {m}) \subseteq \{\sigma (U x _ {0} + b): | x _ {0} | _ {1} < B \}. \tag {74} $$ "
         r"Since $\lim_{t\to \infty}v_t = 0$ for any $v_{0}\in B(0,\delta_{m})$ , it implies the "
         r"local asymptotic stability at the origin. If $W$ has an eigenvalue with a positive real "
         r"part, according to Hartman-Grobman theorem, $\tilde{v}_t$ has an unstable manifold "
         r"locally at the origin. However, this contradicts the asymptotic stability around the "
         r"origin with the initialization $v_{0}$ in $B(0,\delta_m)\subset \mathbb{R}^m$ .")
WHERE = "App. A.10, Lemma A.7, eqs. (73)–(74) (ICLR camera-ready)"
STEP_H = F(1, 64)  # the difference quotient's step (exact in every arithmetic offered)
RK4_H = F(1)  # RK4 step: the cases' |λ| ≤ 1.2, inside RK4's stability region (|λh| < 2.78); the
# per-step growth factor is exact to ≲ |λh|⁵/120 < 0.03 relatively, far from the factor 4 judged
HORIZON = 32  # time integrated: e^{−32/16} < 1/4 for the slowest decaying case (W = −I/16)
DECAY = F(1, 4)  # "flows to 0": |v_T|∞ ≤ |v₀|∞/4 for every simulated input state


def _m(rows: list[list[Any]]) -> Rows:
    return tuple(tuple(F(x) for x in r) for r in rows)


@dataclass(frozen=True)
class Case:
    """An exact (W, U, B) of the numeric sides; input states σ(Ux₀), x₀ = (7/8)B e_j, −(3/8)B e_j."""

    label: str
    W: Rows
    U: Rows
    B: Fraction

    @property
    def full_rank(self) -> bool:
        from recmem.theory.lemma_a7 import rank

        return rank(self.U) == len(self.W)

    def inputs(self) -> list[list[Fraction]]:
        d = len(self.U[0])
        out = []
        for j in range(d):
            for s in (F(7, 8), F(-3, 8)):
                out.append([s * self.B if i == j else F(0) for i in range(d)])
        return out

    def states(self) -> list[list[Fraction]]:
        """The pre-activations U x₀ (σ is applied in the arithmetic)."""
        return [[sum((self.U[i][j] * x[j] for j in range(len(x))), F(0)) for i in range(len(self.W))]
                for x in self.inputs()]


I2 = _m([[1, 0], [0, 1]])
CASES = (
    Case("printed counterexample: W = diag(−1, 1), U = (1, 0)ᵀ", _m([[-1, 0], [0, 1]]),
         _m([[1], [0]]), F(2)),
    Case("saddle W = diag(−1, 1), U = I", _m([[-1, 0], [0, 1]]), I2, F(1, 4)),
    Case("non-normal Hurwitz W = [[−1, 4], [0, −1]], U = I", _m([[-1, 4], [0, -1]]), I2, F(1, 4)),
    Case("slow W = −I/16, U = I", _m([[F(-1, 16), 0], [0, F(-1, 16)]]), I2, F(1, 4)),
    Case("rotation W = [[0, 1], [−1, 0]] (not hyperbolic), U = I", _m([[0, 1], [-1, 0]]), I2,
         F(1, 4)),
    Case("3×3 W (eigenvalues −1/2 ± i, −1), U = I", _m([[F(-1, 2), 1, 0], [-1, F(-1, 2), 0],
                                                         [0, 1, -1]]),
         _m([[1, 0, 0], [0, 1, 0], [0, 0, 1]]), F(1, 4)),
)


# ---- arithmetics ------------------------------------------------------------------------------

class _Straddle(ArithmeticError):
    """A ball straddles a kink of hardtanh (±1): σ′ is not decided there."""


class _Arith:
    """hardtanh, (73) and the eigenvalues of W in one arithmetic. numpy/torch: m×k arrays of k
    states; mpmath/flint: lists of k states (lists of m scalars; flint: balls)."""

    def __init__(self, backend: AbstractBackend) -> None:
        self.kind = backend.spec.kind
        self.bits = backend.precision_bits
        if self.kind == "numpy":
            import numpy as np

            self.dt: Any = np.float32 if backend.spec.dtype == "float32" else np.float64
        elif self.kind == "torch":
            import torch

            self.dt = torch.float32 if backend.spec.dtype == "float32" else torch.float64
            self.device = backend.spec.device or "cpu"
        elif self.kind == "mpmath":
            from recmem.numerics.certified import fixed_context

            self.ctx = fixed_context(self.bits)

    @property
    def vectorised(self) -> bool:
        return self.kind in ("numpy", "torch")

    def scalar(self, q: Fraction) -> Any:
        """An exact rational in this arithmetic (dyadic ones exactly in floats)."""
        if self.kind == "mpmath":
            return self.ctx.mpf(q.numerator) / q.denominator
        if self.kind == "flint":
            import flint

            return flint.arb(flint.fmpq(q.numerator, q.denominator))
        return float(q)

    def mat(self, rows: Any) -> Any:
        """A native matrix (numpy/torch) or list of rows of scalars (mpmath/flint)."""
        if self.kind == "numpy":
            import numpy as np

            return np.array([[float(x) for x in r] for r in rows], dtype=self.dt)
        if self.kind == "torch":
            import torch

            return torch.tensor([[float(x) for x in r] for r in rows], dtype=self.dt,
                                device=self.device)
        return [[self.scalar(F(x)) for x in r] for r in rows]

    def clip(self, e: Any) -> Any:
        """hardtanh of one scalar (the definition: clip to [−1, 1])."""
        if self.kind == "mpmath":
            return max(-1, min(1, e))
        import flint

        if e >= -1 and e <= 1:
            return e
        if e > 1:
            return flint.arb(1)
        if e < -1:
            return flint.arb(-1)
        raise _Straddle

    def hardtanh(self, x: Any) -> Any:
        if self.kind == "numpy":
            import numpy as np

            return np.clip(x, -1, 1).astype(self.dt)
        if self.kind == "torch":
            return x.clamp(-1, 1)
        return [[self.clip(e) for e in r] for r in x]

    def slope1(self, e: Any) -> Any:
        """σ′ of one scalar: 1 on |e| ≤ 1 (at ±1 the inner one-sided value, as (73) uses), else 0."""
        if abs(e) <= 1:
            return 1
        if abs(e) > 1:
            return 0
        raise _Straddle  # a ball across ±1

    def field(self, w: Any, v: Any) -> Any:
        """(73)'s right side Diag(σ′(v)) W v for every state of v."""
        if self.kind == "numpy":
            import numpy as np

            return (np.abs(v) <= 1).astype(self.dt) * (w @ v)
        if self.kind == "torch":
            return (v.abs() <= 1).to(self.dt) * (w @ v)
        m = len(w)
        out = []
        for x in v:
            out.append([sum((w[i][j] * x[j] for j in range(1, m)), w[i][0] * x[0])
                        if self.slope1(x[i]) else 0 * x[i] for i in range(m)])
        return out

    def axpy(self, v: Any, k: Any, q: Fraction) -> Any:
        """v + q·k."""
        if self.vectorised:
            return v + k * float(q)
        c = self.scalar(q)
        return [[a + c * b for a, b in zip(x, y, strict=True)] for x, y in zip(v, k, strict=True)]

    def rk4(self, w: Any, v: Any, h: Fraction, steps: int) -> Any:
        """``steps`` classical RK4 steps of (73) (h dyadic: its multiples are exact)."""
        for _ in range(steps):
            k1 = self.field(w, v)
            k2 = self.field(w, self.axpy(v, k1, h / 2))
            k3 = self.field(w, self.axpy(v, k2, h / 2))
            k4 = self.field(w, self.axpy(v, k3, h))
            if self.vectorised:
                v = v + (k1 + 2 * k2 + 2 * k3 + k4) * float(h / 6)
            else:
                v = self.axpy(self.axpy(self.axpy(self.axpy(v, k1, h / 6), k2, h / 3), k3, h / 3),
                              k4, h / 6)
            if self.kind == "flint":
                # RK4 is not enclosed anyway (no bound on its truncation error); ball radii would
                # grow like e^{|λ|t} (the wrapping effect) while the states decay: go on from the
                # midpoints, i.e. RK4 rounded at flint's precision, like mpmath
                v = [[e.mid() for e in x] for x in v]
        return v

    def sup(self, v: Any, lower: bool = False) -> list[mpmath.mpf]:
        """|x|∞ of every state (balls: the upper end, or the lower end with ``lower``)."""
        if self.kind == "numpy":
            return [mpmath.mpf(float(y)) for y in abs(v).max(axis=0)]
        if self.kind == "torch":
            return [mpmath.mpf(float(y)) for y in v.abs().amax(dim=0).cpu()]
        if self.kind == "mpmath":
            return [max(abs(e) for e in x) for x in v]
        from recmem.numerics.certified import arb_ends

        def end(e: Any) -> mpmath.mpf:
            lo, hi = arb_ends(e, self.bits)
            if not lower:
                return max(abs(lo), abs(hi))
            return mpmath.mpf(0) if lo <= 0 <= hi else min(abs(lo), abs(hi))

        return [max(end(e) for e in x) for x in v]

    def real_parts(self, rows: Rows) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
        """Re λ for the eigenvalues of W as [lo, hi] (point arithmetics: lo = hi)."""
        if self.kind == "numpy":
            import numpy as np

            return [(mpmath.mpf(float(e.real)),) * 2 for e in np.linalg.eigvals(self.mat(rows))]
        if self.kind == "torch":
            import torch

            ev = torch.linalg.eigvals(self.mat(rows)).cpu()
            return [(mpmath.mpf(float(e.real)),) * 2 for e in ev]
        if self.kind == "mpmath":
            ev = self.ctx.eig(self.ctx.matrix(self.mat(rows)), left=False, right=False)
            return [(mpmath.mpf(self.ctx.re(e)),) * 2 for e in ev]
        import flint

        from recmem.numerics.certified import arb_ends
        from recmem.theory.lemma_a7 import charpoly

        # certified: the roots of det(sI − W) (exact over ℚ, scaled to ℤ), isolated with their
        # multiplicities (flint), so a defective eigenvalue is enclosed as tightly as a simple one
        c = charpoly(rows)
        den = math.lcm(*(x.denominator for x in c))
        with flint.ctx.workprec(self.bits):
            roots: Any = flint.fmpz_poly([int(x * den) for x in c]).complex_roots()
            return [arb_ends(r.real, self.bits) for r, _ in roots]


@dataclass(frozen=True)
class Flow:
    """The simulated input states of one case: whether every one flowed to 0 (None: undecided)."""

    converged: bool | None
    worst: float  # max over states of |v_T|∞/|v₀|∞


def simulate(ar: _Arith, case: Case) -> Flow:
    """RK4 on (73) with hardtanh from the case's input states σ(Ux₀), up to t = HORIZON."""
    pre = case.states()
    v = ar.hardtanh(ar.mat(list(zip(*pre, strict=True)) if ar.vectorised else pre))
    start = ar.sup(v)
    try:
        v = ar.rk4(ar.mat(case.W), v, RK4_H, int(HORIZON / RK4_H))
    except _Straddle:
        return Flow(None, float("nan"))
    hi = [float(a / s) for a, s in zip(ar.sup(v), start, strict=True)]
    lo = [float(a / s) for a, s in zip(ar.sup(v, lower=True), start, strict=True)]
    if max(hi) <= DECAY:
        return Flow(True, max(hi))
    if max(lo) > DECAY:
        return Flow(False, max(lo))
    return Flow(None, max(hi))


def _shared(ctx: Context, backend: AbstractBackend, case: Case, what: str, make: Any) -> Any:
    """Statement-independent data of one exact case in one arithmetic (the simulated flow, the
    eigenvalues), computed once per run for the statement and its controls."""
    key = ("lemma-a7", what, backend.name, backend.precision_bits, case.label)
    if key not in ctx.shared:
        ctx.shared[key] = make()
    return ctx.shared[key]


def _eig_tol(backend: AbstractBackend, case: Case) -> mpmath.mpf:
    """Error allowed on a computed Re λ: 4·√u·‖W‖_F (a defective eigenvalue moves by O(√u‖W‖))."""
    if backend.spec.kind == "flint":
        return mpmath.mpf(0)
    fro = mpmath.sqrt(sum(float(x) ** 2 for r in case.W for x in r))
    return 4 * mpmath.sqrt(backend.unit_roundoff) * fro


def conclusion_check(backend: AbstractBackend, ctx: Context, ar: _Arith) -> Evidence:
    """Over the cases the statement admits (hyperbolic W, computed; (74): rank U = m) whose simulated
    input states all flow to 0: max(0, α(sign·W) + margin), α from the eigenvalues computed here."""
    law = ctx.law(StableHurwitz)
    t0 = time.perf_counter()
    residual, tol = mpmath.mpf(0), mpmath.mpf(0)
    table: dict[str, str] = {}
    undecided = []
    for case in CASES:
        flow = _shared(ctx, backend, case, "flow", lambda case=case: simulate(ar, case))
        re = _shared(ctx, backend, case, "eig", lambda case=case: ar.real_parts(case.W))
        etol = _eig_tol(backend, case)
        if law.hyperbolic and any(lo - etol <= 0 <= hi + etol for lo, hi in re):
            table[case.label] = "not hyperbolic (computed): not admitted"
            continue
        if law.contains_ball and not case.full_rank:
            table[case.label] = "rank U < m, (74) fails: not admitted"
            continue
        if flow.converged is None:
            undecided.append(case.label)
            continue
        if not flow.converged:
            table[case.label] = f"input states do not flow to 0 (|v_T|/|v₀| = {flow.worst:.3g})"
            continue
        # α(sign·W): the largest Re(sign·λ), upper end
        alpha = max(hi if law.sign == 1 else -lo for lo, hi in re)
        gap = law.gap(alpha)
        table[case.label] = f"flows to 0 (|v_T|/|v₀| = {flow.worst:.3g}); α(sign·W) + margin = " \
                            f"{mpmath.nstr(gap, 6)}"
        if gap > residual:
            residual = gap
        tol = max(tol, etol)
    ok = residual <= tol
    kind = backend.spec.kind
    return Evidence(
        check="(73) from input states (RK4) vs the conclusion from the eigenvalues of W",
        kind="numeric", backend=backend.name,
        outcome=Outcome.PASS if ok and not undecided else (
            Outcome.INCONCLUSIVE if ok else Outcome.FAIL),
        precision_bits=backend.precision_bits, instances=len(CASES),
        residual=mpmath.nstr(residual, 8), tolerance=mpmath.nstr(tol, 8),
        tolerance_source=("ball arithmetic (eigenvalue enclosures; RK4 itself is not enclosed)"
                          if kind == "flint" else "4·√u·‖W‖_F (eigenvalues, defective included)"),
        seconds=time.perf_counter() - t0,
        message=("every admitted case whose input states flow to 0 meets the conclusion" if ok
                 else "an admitted case flows to 0 but the conclusion fails") + (
            f"; undecided (a ball straddles ±1): {', '.join(undecided)}" if undecided else ""),
        data=table)


def step_check(backend: AbstractBackend, ctx: Context, ar: _Arith) -> Evidence:
    """hardtanh's inner difference quotient (σ(z) − σ(z − h·sgn z))/(h·sgn z), h = 1/64, computed in
    this arithmetic at z = r·k/8 (central at 0), against the step σ′(z) = 1 for |z| ≤ r."""
    law = ctx.law(StableHurwitz)
    t0 = time.perf_counter()
    zs = law.step_points()
    hi_pts = list(zs)
    lo_pts = [z - (STEP_H if z > 0 else -STEP_H if z < 0 else 0) for z in zs]
    lo_pts = [p if z != 0 else -STEP_H / 2 for p, z in zip(lo_pts, zs, strict=True)]
    hi_pts = [p if p != 0 else STEP_H / 2 for p in hi_pts]
    a = ar.hardtanh(ar.mat([hi_pts]))
    b = ar.hardtanh(ar.mat([lo_pts]))
    den = ar.mat([[x - y for x, y in zip(hi_pts, lo_pts, strict=True)]])  # ±h or h: exact
    worst, at = mpmath.mpf(0), zs[0]
    for k, z in enumerate(zs):
        q = (a[0][k] - b[0][k]) / den[0][k]  # computed in the arithmetic
        err = _upper(abs(q - 1), ar)
        if err > worst:
            worst, at = err, z
    tol = 0 if ar.kind == "flint" else 4 * backend.unit_roundoff / STEP_H
    return Evidence(check="hardtanh's difference quotients at z = r·k/8 vs the step σ′(z) = 1",
                    kind="numeric", backend=backend.name,
                    outcome=Outcome.PASS if worst <= tol else Outcome.FAIL,
                    precision_bits=backend.precision_bits, instances=len(zs),
                    residual=mpmath.nstr(worst, 8), tolerance=mpmath.nstr(mpmath.mpf(tol), 8),
                    tolerance_source="ball arithmetic" if ar.kind == "flint" else "4u/h (h = 1/64)",
                    seconds=time.perf_counter() - t0,
                    message=f"largest |quotient − 1| at z = {at}")


def _upper(x: Any, ar: _Arith) -> mpmath.mpf:
    if ar.kind == "flint":
        from recmem.numerics.certified import arb_ends

        return mpmath.mpf(arb_ends(x, ar.bits)[1])
    return mpmath.mpf(float(x)) if ar.kind in ("numpy", "torch") else mpmath.mpf(x)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The two numeric checks in ``backend``'s arithmetic."""
    ar = _Arith(backend)
    return [conclusion_check(backend, ctx, ar), step_check(backend, ctx, ar)]


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided exactly (theory.lemma_a7.proof)."""
    from recmem.theory.lemma_a7 import proof

    t0 = time.perf_counter()
    return [from_proof(proof(ctx.law(StableHurwitz)), time.perf_counter() - t0)]


# ---- the exact search ---------------------------------------------------------------------------

SIMILARITIES = {  # rational unimodular S (S⁻¹ exact, integer): W = S T S⁻¹ mixes the coordinates
    2: (((1, 0), (0, 1)), ((1, 1), (0, 1)), ((1, 0), (-2, 1)), ((2, 1), (1, 1))),
    3: (((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((1, 1, 0), (0, 1, 1), (0, 0, 1)),
        ((1, 0, 0), (-1, 1, 0), (2, -1, 1)), ((1, 1, 1), (0, 1, 1), (1, 0, 1))),
}


def strategy(ctx: Context) -> Any:
    """Instances {W, U, B, z, eigs} (b = 0): W = S T S⁻¹ with T real quasi-upper-triangular (blocks a
    or [[a, ω], [−ω, a]], a ∈ [−2, 2] with 0 and −1/16: unstable, non-hyperbolic and slowly stable W
    too; ``eigs`` its spectrum, which the judge checks exactly) and S one of a few unimodular
    matrices; half of the draws (the simplest one among them) are the invariant-block family
    (S = I, U's rows from a block boundary on vanish, stable leading blocks, half of them an unstable
    tail), where a condition on U matters; U ∈ ℚ^{m×d} (square when the statement assumes (74)),
    U ≠ 0; B; a point z ∈ [−r, r] of the step, its ends included."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(StableHurwitz)
    zs = st.one_of(st.sampled_from([law.radius, -law.radius]), fractions_in(-law.radius, law.radius))
    return _build()(zs, bool(law.contains_ball))


@functools.cache
def _build() -> Any:
    """The composite strategy of :func:`strategy` (the statement's points z and whether U is square
    as its arguments), defined once per process: ``st.composite`` parses this module's source on
    every definition (~80 ms), which each search of the claim and its controls paid when it was
    defined inside :func:`strategy`; the body, and so every draw, is the same."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    re_part = st.one_of(fractions_in(F(-2), F(2)), st.just(F(-1, 16)))
    om_part = fractions_in(F(1, 4), F(2))
    off = fractions_in(F(-2), F(2))

    @st.composite
    def build(draw: Any, zs: Any, contains_ball: bool) -> dict[str, Any]:
        import flint

        m = draw(st.sampled_from([2, 3, 1]))
        blocks: list[tuple[Fraction, ...]] = []
        heads, i = [], 0
        while i < m:
            heads.append(i)
            if i + 1 < m and draw(st.booleans()):
                blocks.append((draw(re_part), draw(om_part)))
                i += 2
            else:
                blocks.append((draw(re_part),))
                i += 1
        # the invariant-block family (S = I, U's rows from a block boundary on vanish, the leading
        # blocks stable: a ↦ −1 − a for a ≥ 0) is where a condition on U matters: drawn half the time
        invariant = len(heads) > 1 and not draw(st.booleans())  # the simplest draw: invariant
        keep = draw(st.sampled_from(heads[1:])) if invariant else m
        if invariant:
            # … and, half of these, an unstable tail (a ↦ 1 − a for a ≤ 0): W is then not Hurwitz
            tail = not draw(st.booleans())
            blocks = [(-1 - b[0] if b[0] >= 0 else b[0], *b[1:]) if h < keep else
                      (1 - b[0] if b[0] <= 0 else b[0], *b[1:]) if tail else b
                      for h, b in zip(heads, blocks, strict=True)]
        t = [[F(0)] * m for _ in range(m)]
        eigs: list[tuple[Fraction, Fraction]] = []
        for h, b in zip(heads, blocks, strict=True):
            t[h][h] = b[0]
            if len(b) == 2:
                t[h + 1][h + 1], t[h][h + 1], t[h + 1][h] = b[0], b[1], -b[1]
                eigs += [(b[0], b[1]), (b[0], -b[1])]
            else:
                eigs.append((b[0], F(0)))
        if len(blocks) > 1:  # one coupling above the diagonal blocks
            t[0][m - 1] = draw(off)
        sims = SIMILARITIES.get(m, (((1,),),))
        sim = sims[0] if invariant else draw(st.sampled_from(sims))
        s = flint.fmpq_mat([list(row) for row in sim])
        tm = flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in row] for row in t])
        wm = s * tm * s.inv()
        w = tuple(tuple(F(str(wm[r, c])) for c in range(m)) for r in range(m))
        d = m if contains_ball else draw(st.integers(1, m))
        u = [[draw(off) if r < keep else F(0) for _ in range(d)] for r in range(m)]
        if not any(any(r) for r in u):  # U ≠ 0 (no filter: the simplest draw stays valid)
            u[0][0] = F(1)
        bound = draw(st.sampled_from([F(1, 8), F(1, 4), F(1), F(2)]))
        return {"W": w, "U": tuple(map(tuple, u)), "B": bound, "z": draw(zs), "eigs": tuple(eigs)}

    return build


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact judge of one instance (theory.lemma_a7.decide)."""
    from recmem.theory.lemma_a7 import decide

    ok, values, why = decide(ctx.law(StableHurwitz), instance["W"], instance["U"], instance["B"],
                             instance["z"], instance["eigs"])
    return Instance(ok, "exact: hardtanh's difference quotient, Routh–Hurwitz and Sturm on det(sI − W) "
                    "over ℚ, a Lyapunov certificate (AᵀP + PA = −I, P ≻ 0, input states inside an "
                    "ellipsoid in the cube) or an exact eigenvector over ℚ(i)", values, why)


TOL = ("exact (SymPy, ℚ, ℚ(i)); flint: eigenvalue enclosures (RK4 not enclosed); point arithmetics "
       "4·√u·‖W‖_F on Re λ and 4u/h on the difference quotients")
USES = ("W.activations", "W.theorem")

CLAIMS = [
    Claim(
        id="W.lemma-a7",
        summary="as printed (no condition on U): W = diag(−1, 1), U = (1, 0)ᵀ is stable over every "
                "input yet not Hurwitz; (74) needs rank U = m",
        title="Lemma A.7: (73) asymptotically stable over bounded Heaviside inputs ⇒ hyperbolic W "
              "is Hurwitz",
        statement=StableHurwitz(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=USES,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="The input states σ(Ux₀ + b) fill at most a d-dimensional set, so the ball of (74) "
              "exists only when rank U = m; in Theorem 3.9's setting (input dimension d fixed, "
              "width m → ∞) it fails for every m > d. The counterexample's trajectories stay in "
              "the cube, where σ′ = 1, so no reading of σ′ at the kinks ±1 changes it.",
    ),
    Claim(
        id="W.lemma-a7.corrected",
        summary="with (74) assumed (input states contain a ball at 0) the lemma holds for hardtanh",
        title="Lemma A.7 with the inclusion (74) as a hypothesis (rank U = m)",
        statement=StableHurwitz(contains_ball=True),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=(*USES, "W.lemma-a7"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.lemma-a7",
        notes="Asymptotic stability over a ball around 0 (stable and attracting) contradicts an "
              "eigenvalue with Re λ ≥ 0: its eigenvector gives an exact solution of v′ = Wv inside "
              "the cube, where (73) is v′ = Wv, that does not decay. σ′(±1) = 1 (the proof's value) "
              "is the one-sided derivative from inside; hardtanh is not differentiable there.",
    ),
    Claim(
        id="W.lemma-a7.any-w",
        summary="for hardtanh the hypothesis \"W hyperbolic\" is not needed",
        title="Lemma A.7 with (74), for every real W (hyperbolic or not)",
        statement=StableHurwitz(contains_ball=True, hyperbolic=False),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=(*USES, "W.lemma-a7.corrected"),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="the hypothesis \"W is hyperbolic\" dropped (hardtanh: (73) is linear in the cube, "
                "so no Hartman–Grobman argument is needed)",
        notes="An eigenvalue on the imaginary axis gives a bounded non-decaying solution inside "
              "the cube (a line of equilibria for λ = 0): not asymptotically stable either.",
    ),
]
