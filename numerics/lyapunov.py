"""Solvers of the Lyapunov equation Wᵀ P + P W = −Q (paper W, ICLR camera-ready App. A.9 eq. (48)),
in every arithmetic; and the integral ∫₀^∞ e^{Wᵀt} Q e^{Wt} dt of eq. (49) computed from its definition.

One interface, :func:`solve` (``solve(W, Q, backend)``), over per-method functions, each returning a
:class:`Solution`: the computed P in the arithmetic's native type and an :class:`Accuracy` statement.

- :func:`exact` — Kronecker solve over ℚ (flint ``fmpq_mat``), n ≲ 12: the exact P.
- :func:`kronecker_mpmath` — Kronecker solve at any precision in a private mpmath context.
- :func:`kronecker_flint` — Kronecker solve in ball arithmetic: a certified enclosure of P.
- :func:`bartels_stewart` — SciPy's ``solve_continuous_lyapunov`` (float64).
- :func:`sign_newton` — batched matrix-sign Newton iteration in torch (CPU/CUDA, float64).
- :func:`refine` — the high-precision reference for n up to 64 and beyond: mixed-precision
  iterative refinement (residual in ball arithmetic or mpmath, correction by float64
  Bartels–Stewart on a reused Schur factor).
- :func:`integral_doubling` / :func:`integral_enclosure` — the integral ∫₀^∞ e^{Wᵀt} Q e^{Wt} dt
  itself (Taylor + Gauss–Legendre on a short interval, then doubling), in any point arithmetic /
  as a certified ball enclosure; they never use the Lyapunov equation.
- :func:`condition` — κ(L) of the operator L(P) = WᵀP + PW (‖L⁻¹‖₂ = 1/sep): certified for small n,
  a float64 power-iteration estimate (stated as such) for large n.

Every answer carries its run-time oracle (:func:`residual_oracle`, a :class:`Residual` in
``Solution.residual`` / ``IntegralResult.residual``): its residual against the equation it claims to
solve, formed from the exact W and Q, judged with the unit roundoff of the arithmetic that ran
(exact: R = 0; balls: 0 ∈ R; points: ρ ≤ c·m·u). Callers that read a P recompute it from the P they
read (checks/claims/paper_w/_lyapunov.py) rather than trust the route's own statement.

Conventions: vec is row-major (unknown P_ij has index i·n + j); the operator's matrix is
K = I⊗Wᵀ + Wᵀ⊗I in the column-major convention, the same matrix up to a permutation, so its
singular values (and κ₂(L) = σ_max(K)/σ_min(K)) do not depend on the convention. Norms are
Frobenius on matrices P (the operator norm of L is then σ_max(K)). Inputs are exact rationals and
are converted inside each arithmetic.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from mpmath.matrices.matrices import _matrix as _mp_matrix

from recmem.numerics.backend import AbstractBackend, BackendSpec, BackendUnavailable, parse_spec
from recmem.numerics.certified import fixed_context
from recmem.numerics.validate import (
    DomainError,
    NotConvergedError,
    complex_refusal,
    exact_entry,
    is_symmetric,
    positive_int,
    real_matrix,
    require_lyapunov_nonsingular,
)

ExactMatrix = Any  # flint.fmpq_mat or a sequence of rows of Fraction/int/fmpq

# The Kronecker system has n² unknowns and costs O(n⁶): beyond this n it is not offered.
KRONECKER_MAX_N = 12
# Certified κ(L) from the n²×n² Gram matrix: beyond this n only the float64 estimate is offered.
CERTIFIED_CONDITION_MAX_N = 8


# ---- exact inputs ---------------------------------------------------------------------------

def fmpq_matrix(m: ExactMatrix) -> Any:
    """``m`` as a flint ``fmpq_mat`` (exact).

    Domain: a rectangular matrix (any shape, 0×0 included) of exact reals: ints, Fractions, fmpq,
    or finite floats (taken exactly), as rows or a real numpy array. Refused with a ValueError
    (:class:`~recmem.numerics.validate.DomainError`): complex entries or dtype, NaN/inf, ragged rows.
    """
    import flint

    if isinstance(m, flint.fmpq_mat):
        return m
    if isinstance(m, flint.fmpz_mat):
        return flint.fmpq_mat(m)
    if isinstance(m, np.ndarray):
        if np.iscomplexobj(m):
            raise complex_refusal("the matrix", f"has dtype {m.dtype}")
        if m.ndim != 2:
            raise DomainError(f"expected a 2-D matrix, got an array of shape {m.shape}")
    rows = [list(r) for r in m]
    ncols = len(rows[0]) if rows else 0
    if any(len(r) != ncols for r in rows):
        raise DomainError(f"ragged rows: lengths {[len(r) for r in rows]}")
    out = flint.fmpq_mat(len(rows), ncols)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            out[i, j] = _fmpq(v)
    return out


def _fmpq(v: Any) -> Any:
    import flint

    if isinstance(v, flint.fmpq):
        return v
    f = exact_entry(v, "the matrix")
    return flint.fmpq(f.numerator, f.denominator)


def fraction(v: Any) -> Fraction:
    """An exact ``Fraction`` from an ``fmpq``, ``Fraction``, int or finite float (taken exactly);
    ValueError for complex, NaN/inf and non-numbers."""
    return exact_entry(v, "the value")


def fractions(m: ExactMatrix) -> list[list[Fraction]]:
    """An exact matrix as rows of ``Fraction`` (domain of :func:`fmpq_matrix`)."""
    fm = fmpq_matrix(m)
    return [[fraction(fm[i, j]) for j in range(fm.ncols())] for i in range(fm.nrows())]


def identity(n: int) -> Any:
    """The n×n identity as an ``fmpq_mat`` (n ≥ 0; ValueError otherwise)."""
    import flint

    n = positive_int(n, "n", 0)
    return flint.fmpq_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])


def to_float64(m: ExactMatrix | np.ndarray) -> np.ndarray:
    """An exact matrix rounded entrywise to float64 (correctly rounded: int/int division); a real
    numpy array passes through as float64.

    Domain: that of :func:`fmpq_matrix`, or a real numpy array; complex arrays are refused with a
    ValueError (never silently cut to their real part). NaN/inf in a float array pass through: the
    solvers check finiteness themselves.
    """
    if isinstance(m, np.ndarray):
        if np.iscomplexobj(m):
            raise complex_refusal("the matrix", f"has dtype {m.dtype}")
        return np.asarray(m, dtype=np.float64)
    return np.array([[f.numerator / f.denominator for f in row] for row in fractions(m)],
                    dtype=np.float64)


def residual_exact(w: ExactMatrix, q: ExactMatrix, p: ExactMatrix) -> Any:
    """Wᵀ P + P W + Q over ℚ (zero iff P solves eq. (48) exactly).

    Domain: W, Q, P exact real n×n matrices, n ≥ 1 (any W, any Q); ValueError otherwise.
    """
    w, q = _lyapunov_inputs(w, q, "residual_exact")[:2]
    p = fmpq_matrix(p)
    if (p.nrows(), p.ncols()) != (w.nrows(), w.nrows()):
        raise DomainError(f"residual_exact: P is {p.nrows()}×{p.ncols()}, W is "
                          f"{w.nrows()}×{w.nrows()}")
    return w.transpose() * p + p * w + q


# ---- results --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Accuracy:
    """What a solver can say about its answer.

    ``kind``: ``exact``; ``enclosure`` (a certified ball: ``forward`` is the largest radius
    relative to ‖P‖_F); ``certified bound`` (``forward`` bounds ‖P̂ − P‖_F/‖P‖_F rigorously);
    ``estimate`` (``forward`` estimates it, e.g. κ(L) × relative residual; None when no κ was
    given). ``backward`` is the relative residual ‖WᵀP̂ + P̂W + Q‖_F / (2‖W‖_F‖P̂‖_F + ‖Q‖_F).
    """

    kind: str
    forward: mpmath.mpf | None
    backward: mpmath.mpf | None
    text: str


@dataclass(frozen=True)
class Solution:
    """A computed P (native type of the arithmetic), how accurate it is, and its oracle: the
    residual against eq. (48) that every route attaches (:func:`residual_oracle`)."""

    P: Any
    method: str
    arithmetic: str
    accuracy: Accuracy
    seconds: float
    residual: Residual | None = None

    def to_mp(self, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        """The midpoint/value of P as an mpmath matrix in ``ctx`` (one matrix; batch item 0)."""
        return to_mp(self.P, ctx)


def to_mp(p: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
    """A native real matrix (fmpq_mat, arb_mat, mpmath, numpy, torch; a 3-D batch gives item 0) as
    an mpmath matrix in ``ctx``. Complex numpy/torch arrays are refused (ValueError)."""
    import flint

    from recmem.numerics.flint_backend import arb_to_mpf

    if isinstance(p, flint.fmpq_mat):
        return ctx.matrix([[ctx.mpf(int(p[i, j].p)) / int(p[i, j].q) for j in range(p.ncols())]
                           for i in range(p.nrows())])
    if isinstance(p, flint.arb_mat):
        return ctx.matrix([[arb_to_mpf(p[i, j], ctx) for j in range(p.ncols())]
                           for i in range(p.nrows())])
    if isinstance(p, _mp_matrix):  # any context's matrix class
        return ctx.matrix([[ctx.mpf(p[i, j]) for j in range(p.cols)] for i in range(p.rows)])
    a = p.detach().cpu().numpy() if hasattr(p, "detach") else p
    if np.iscomplexobj(a):
        raise complex_refusal("the matrix", f"has dtype {np.asarray(a).dtype}")
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 3:
        a = a[0]
    return ctx.matrix([[ctx.mpf(float(v)) for v in row] for row in a])


# ---- the oracle: every answer's residual against the equation it claims to solve --------------
#
# A computed P is worth what its residual says. The residual R = WᵀP̂ + P̂W + X is formed from the
# *exact* W and X (never from a solver's rounded copies, so a slip in the rounding or the
# transposition shows) in ball arithmetic: P̂'s entries enter exactly (binary floats and mpmath
# numbers are dyadic), so the ball of R encloses the true residual and its upper end is a
# rigorous bound — the evaluation adds no error of its own. The relative residual
# ρ = ‖R‖_F / (2‖W‖_F‖P̂‖_F + ‖X‖_F) is judged by the arithmetic that produced P̂:
#   exact (ℚ): R = 0 exactly;   ball (a certified enclosure of P): 0 ∈ R entrywise;
#   point (precision u): ρ ≤ c·m·u, m the dimension of the solved system (n for Bartels–Stewart
#   and sign-Newton, whose relative residual is O(n·u) (Higham, Accuracy and Stability, §16.2);
#   n² for LU on the n²×n² Kronecker system; n + the doubling's error growth for the integral).
# For the integral ∫₀^∞ C(e^{Wt}, X) dt of a congruence C quadratic in e (eᵀxe or exeᵀ) the
# equation is L_C(P) = −X with L_C(P) = d/ds C(e^{Ws}, P)|₀ = (C(I + W, P) − C(I − W, P))/2 (the
# s² terms cancel exactly in the central difference), so one routine serves every integrand.

RESIDUAL_C = 8  # the c of the point oracle's tolerance c·m·u


@dataclass(frozen=True)
class Residual:
    """The oracle of one computed P: its relative residual against the equation it claims to solve.

    ``value``: ρ = ‖R‖_F/(2‖W‖_F‖P̂‖_F + ‖X‖_F) (a rigorous upper bound; for an exact P its value);
    ``tolerance``: c·m·u of the arithmetic that ran (0 for exact and ball answers, judged by
    R = 0 / 0 ∈ R instead); ``kind``: "exact", "ball" or "point"; ``ok``: whether P passes.
    A failed exact or ball oracle is certain (an internal inconsistency of recmem); a failed
    point oracle is a float residual beyond its tolerance.
    """

    value: mpmath.mpf
    tolerance: mpmath.mpf
    kind: str
    ok: bool
    text: str

    @property
    def certified(self) -> bool:
        """Whether the oracle's verdict on P is certain (exact or ball arithmetic)."""
        return self.kind in ("exact", "ball")

    def record(self) -> dict[str, str]:
        """The oracle as evidence data (strings)."""
        return {"P's residual": mpmath.nstr(self.value, 3),
                "P's residual tolerance": ("R = 0 exactly" if self.kind == "exact" else
                                           "0 ∈ ball of R" if self.kind == "ball"
                                           else mpmath.nstr(self.tolerance, 3)),
                "P's residual oracle": ("passed: " if self.ok else "FAILED: ") + self.text}


def worst_residual(residuals: Sequence[Residual]) -> Residual:
    """The worst of several oracles (a failed one first, then the largest residual/tolerance)."""
    def badness(r: Residual) -> tuple[int, mpmath.mpf]:
        return (0 if r.ok else 1, r.value / r.tolerance if r.tolerance > 0 else r.value)
    return max(residuals, key=badness)


def _fro_upper(m: Any) -> mpmath.mpf:
    """A rigorous upper bound of ‖m‖_F for an ``arb_mat`` (sum of squares in balls, upper end)."""
    import flint

    from recmem.numerics.flint_backend import arb_upper

    ctx = fixed_context(64)
    with flint.ctx.workprec(64):
        ss = sum((e * e for e in m.entries()), flint.arb(0))
    return mpmath.mpf(ctx.sqrt(arb_upper(ss, ctx)) * (1 + 4 * ctx.eps))  # sqrt rounded, then up


def _arb_exact(v: Any) -> Any:
    """A point real (float, numpy/torch scalar, mpmath number) as an exact ``arb`` (dyadic)."""
    import flint

    if not isinstance(v, mpmath.ctx_mp_python.mpnumeric):
        f = float(v)
        return flint.arb(f) if math.isfinite(f) else flint.arb("nan")  # a double is exact
    if not mpmath.isfinite(v):
        return flint.arb("nan")
    sign, man, exp, bc = v._mpf_  # arf((man, exp)) takes |man|: the sign is applied here
    with flint.ctx.workprec(max(int(bc), 2) + 8):  # arf rounds to the working precision
        a = flint.arb(flint.arf((int(man), int(exp))))
        return -a if sign else a


def _point_to_arb(p: Any) -> Any:
    """A point matrix (numpy, torch, mpmath, or an ``arb_mat`` of points) as an exact ``arb_mat``."""
    import flint

    if isinstance(p, flint.arb_mat):
        return p
    if isinstance(p, _mp_matrix):
        return flint.arb_mat([[_arb_exact(p[i, j]) for j in range(p.cols)] for i in range(p.rows)])
    a = p.detach().cpu().numpy() if hasattr(p, "detach") else np.asarray(p)
    if np.iscomplexobj(a):
        raise complex_refusal("the matrix", f"has dtype {a.dtype}")
    a = np.asarray(a, dtype=np.float64)  # float32 → float64 is exact
    if a.ndim != 2:
        raise DomainError(f"residual_oracle: P must be one n×n matrix, got shape {a.shape}")
    return flint.arb_mat(a.tolist())  # a double converts to arb exactly (NaN/inf included)


def _generator(congruence: Any | None) -> Any:
    """(W, P) ↦ L(P) for the congruence's integral: WᵀP + PW by default, else the central
    difference (C(I + W, P) − C(I − W, P))/2 (exact for congruences quadratic in e)."""
    mul = lambda a, b: a * b  # noqa: E731
    tr = lambda a: a.transpose()  # noqa: E731
    if congruence is None:
        return lambda w, p, eye: w.transpose() * p + p * w
    return lambda w, p, eye: (congruence(eye + w, p, mul, tr) - congruence(eye - w, p, mul, tr)) / 2


def residual_oracle(w: ExactMatrix, x: ExactMatrix | None, p: Any, *,
                    unit_roundoff: mpmath.mpf | None = None, scale: Any = 1,
                    congruence: Any | None = None, bits: int = 64,
                    what: str = "WᵀP + PW + Q") -> Residual:
    """The oracle of a computed P for Wᵀ P + P W = −X (W App. A.9 eq. (48)), or for the equation
    L_C(P) = −X that ∫₀^∞ ``congruence``(e^{Wt}, X) dt solves (eq. (49); see the comment above).

    ``p``: an exact ``fmpq_mat`` (judged R = 0 over ℚ); an ``arb_mat`` enclosure with
    ``unit_roundoff`` None (judged 0 ∈ R); or a point matrix (numpy/torch 2-D, mpmath, or an
    ``arb_mat`` of points) computed with unit roundoff ``unit_roundoff``, judged
    ρ ≤ RESIDUAL_C·``scale``·u. ``bits``: the working precision of the ball evaluation (at least
    the answer's precision + 64 for point answers). ``what`` names the equation in the text.

    Domain: W, X exact real n×n (or finite float arrays, taken exactly; X None is I), P n×n real
    (NaN/inf give a failed oracle); ValueError otherwise.
    """
    import flint

    if (unit_roundoff is not None and unit_roundoff >= mpmath.mpf(2) ** -53
            and not isinstance(p, flint.arb_mat | _mp_matrix)):
        return _float_oracle(w, x, p, mpmath.mpf(unit_roundoff), scale, congruence, what)
    wq = _square_exact(w, "residual_oracle")
    n = wq.nrows()
    xq = identity(n) if x is None else _square_exact(x, "residual_oracle", "X")
    gen = _generator(congruence)
    if isinstance(p, flint.fmpq_mat):
        if (p.nrows(), p.ncols()) != (n, n):
            raise DomainError(f"residual_oracle: P is {p.nrows()}×{p.ncols()}, W is {n}×{n}")
        r = gen(wq, p, identity(n)) + xq
        zero = r == flint.fmpq_mat(n, n)
        val = mpmath.mpf(0)
        if not zero:
            val = _relative(flint.arb_mat(r), flint.arb_mat(wq), flint.arb_mat(p), flint.arb_mat(xq))
        return Residual(val, mpmath.mpf(0), "exact", bool(zero),
                        f"{what} over ℚ is {'exactly 0' if zero else 'nonzero'}")
    ball = unit_roundoff is None
    if ball and not isinstance(p, flint.arb_mat):
        raise DomainError("residual_oracle: a point P needs the unit roundoff of its arithmetic")
    prec = bits if ball else max(bits, int(-mpmath.log(unit_roundoff, 2)) + 64)
    with flint.ctx.workprec(prec):
        pa = _point_to_arb(p)
        if (pa.nrows(), pa.ncols()) != (n, n):
            raise DomainError(f"residual_oracle: P is {pa.nrows()}×{pa.ncols()}, W is {n}×{n}")
        wa, xa = flint.arb_mat(wq), flint.arb_mat(xq)
        r = gen(wa, pa, flint.arb_mat(identity(n))) + xa
        contains = bool(r.contains(flint.arb_mat(n, n)))
    val = _relative(r, wa, pa, xa)
    if ball:
        return Residual(val, mpmath.mpf(0), "ball", contains,
                        f"ball of {what} {'contains' if contains else 'excludes'} 0 "
                        f"(relative size ≤ {mpmath.nstr(val, 3)}, {prec} bits)")
    return _point_residual(val, scale, mpmath.mpf(unit_roundoff), congruence, what,
                           "rigorous, ball evaluation from the exact W, Q")


def _point_residual(val: Any, scale: Any, u: Any, congruence: Any | None, what: str,
                    how: str) -> Residual:
    """The verdict of a point answer's oracle: the residual bound ``val`` against c·m·u."""
    tol = RESIDUAL_C * mpmath.mpf(scale) * u
    ok = bool(val <= tol)
    rhs = "Q" if congruence is None else "X"
    bits_u = -int(mpmath.log(u, 2))
    return Residual(val, tol, "point", ok,
                    f"relative residual ‖{what}‖_F/(2‖W‖_F‖P‖_F + ‖{rhs}‖_F) ≤ {mpmath.nstr(val, 3)} "
                    f"({how}) {'≤' if ok else '>'} c·m·u = {RESIDUAL_C}·{mpmath.nstr(scale, 4)}·"
                    f"2^-{bits_u} = {mpmath.nstr(tol, 3)}")


def _float64_of(m: Any, n: int | None, fn: str, name: str) -> tuple[np.ndarray, bool]:
    """(``m`` as float64, whether it was rounded): float arrays are taken as they are (exact),
    exact matrices rounded correctly (|ΔM| ≤ u₆₄|M| entrywise); None is I."""
    if m is None:
        assert n is not None
        return np.eye(n), False
    if isinstance(m, np.ndarray) and m.dtype != object:
        return _float_input(m, fn, name), False
    return _float_input(m, fn, name), True


def _float_oracle(w: Any, x: Any, p: Any, u: mpmath.mpf, scale: Any, congruence: Any | None,
                  what: str) -> Residual:
    """The point oracle of a float answer (u ≥ 2⁻⁵³), evaluated in float64 with an a priori bound
    of its own error, so that it is fast for large n and batches: with E = WᵀP + PW + X
    (or the congruence's central difference), fl(E) − E is bounded entrywise by γ·M, M the same
    expression in |W|, |P|, |X| (|C(e, x)| ≤ C(|e|, |x|) for the quadratic congruences), and
    γ = k·u₆₄/(1 − k·u₆₄) with k = 2n + 4 (n-term dot products, twice for a congruence, the sums,
    and the correct rounding of an exact W or X into float64: Higham, Accuracy and Stability,
    §3.5). The bound ‖fl(E)‖_F + γ·‖M‖_F (rounded up by (1 + γ)) is the residual reported."""
    fn = "residual_oracle"
    wf, w_rounded = _float64_of(w, None, fn, "W")
    n = wf.shape[0]
    xf, _ = _float64_of(x, n, fn, "X")
    a = p.detach().cpu().numpy() if hasattr(p, "detach") else np.asarray(p)
    if np.iscomplexobj(a):
        raise complex_refusal("the matrix", f"has dtype {a.dtype}")
    pf = np.asarray(a, dtype=np.float64)  # float32 → float64 is exact
    if pf.shape != (n, n) or xf.shape != (n, n):
        raise DomainError(f"residual_oracle: P is {pf.shape}, X is {xf.shape}, W is {n}×{n}")
    u64 = 2.0 ** -53
    k = 2 * n + 4
    gamma = k * u64 / (1 - k * u64)
    mul = lambda a_, b_: a_ @ b_  # noqa: E731
    tr = lambda a_: a_.T  # noqa: E731
    with np.errstate(all="ignore"):  # NaN/inf in P give an infinite residual below
        if congruence is None:
            r = wf.T @ pf + pf @ wf + xf
            m = np.abs(wf).T @ np.abs(pf) + np.abs(pf) @ np.abs(wf) + np.abs(xf)
        else:
            eye = np.eye(n)
            r = (congruence(eye + wf, pf, mul, tr) - congruence(eye - wf, pf, mul, tr)) / 2 + xf
            m = (congruence(np.abs(eye + wf), np.abs(pf), mul, tr)
                 + congruence(np.abs(eye - wf), np.abs(pf), mul, tr)) / 2 + np.abs(xf)
        num = (float(np.linalg.norm(r)) + gamma * float(np.linalg.norm(m))) * (1 + gamma)
        den = (2 * float(np.linalg.norm(wf)) * float(np.linalg.norm(pf))
               + float(np.linalg.norm(xf)))
    val = mpmath.mpf(num / den) if math.isfinite(num) and den > 0 else mpmath.inf
    return _point_residual(val, scale, u, congruence, what,
                           f"float64 evaluation from the {'exact W rounded once' if w_rounded else 'given W'}"
                           " + its a priori error bound")


def _relative(r: Any, wa: Any, pa: Any, xa: Any) -> mpmath.mpf:
    """‖R‖_F upper bound / (2‖W‖_F‖P‖_F + ‖X‖_F) (the denominator from the balls' upper ends:
    a scale, not a certificate)."""
    den = 2 * _fro_upper(wa) * _fro_upper(pa) + _fro_upper(xa)
    num = _fro_upper(r)
    if not mpmath.isfinite(num):
        return mpmath.inf
    return num / den if den > 0 else num


# ---- the Kronecker form ---------------------------------------------------------------------

def _kron_entries(n: int) -> list[tuple[int, int, int, int]]:
    """(row, col, k, l): K[row, col] += W[k, l], for K vec(P) = vec(WᵀP + PW) (row-major vec)."""
    out = []
    for i in range(n):
        for j in range(n):
            r = i * n + j
            for k in range(n):
                out.append((r, k * n + j, k, i))  # (WᵀP)_ij = Σ_k W_ki P_kj
                out.append((r, i * n + k, k, j))  # (PW)_ij = Σ_k P_ik W_kj
    return out


def kronecker_exact(w: ExactMatrix) -> Any:
    """The n²×n² matrix K of L(P) = WᵀP + PW over ℚ (``fmpq_mat``).

    Domain: W an exact real n×n matrix, n ≥ 1 (ValueError otherwise).
    """
    import flint

    w = _square_exact(w, "kronecker_exact")
    n = w.nrows()
    k = flint.fmpq_mat(n * n, n * n)
    for r, c, a, b in _kron_entries(n):
        k[r, c] += w[a, b]
    return k


def _vec(q: Any) -> Any:
    import flint

    n = q.nrows()
    return flint.fmpq_mat(n * n, 1, [q[i, j] for i in range(n) for j in range(n)])


def _check_kron(n: int) -> None:
    if n > KRONECKER_MAX_N:
        raise ValueError(f"Kronecker solve offered for n ≤ {KRONECKER_MAX_N} (O(n⁶)), got n={n}; "
                         "use refine() or bartels_stewart()")


def _default_q(w: ExactMatrix, q: ExactMatrix | None) -> Any:
    return identity(fmpq_matrix(w).nrows()) if q is None else fmpq_matrix(q)


def _square_exact(w: ExactMatrix, fn: str, name: str = "W") -> Any:
    """``w`` as an exact square ``fmpq_mat`` with n ≥ 1, or a DomainError naming ``fn``."""
    try:
        wq = fmpq_matrix(w)
    except DomainError as exc:
        raise DomainError(f"{fn}: {name}: {exc}") from None
    if wq.nrows() != wq.ncols():
        raise DomainError(f"{fn} needs a square {name}, got {wq.nrows()}×{wq.ncols()}")
    if wq.nrows() < 1:
        raise DomainError(f"{fn} needs n ≥ 1, got an empty {name}")
    return wq


def _lyapunov_inputs(w: ExactMatrix, q: ExactMatrix | None, fn: str) -> tuple[Any, Any, int]:
    """(W, Q, n) exact and checked: W square real n×n, n ≥ 1; Q real n×n (default I), any Q
    (symmetric or not)."""
    wq = _square_exact(w, fn)
    n = wq.nrows()
    qq = identity(n) if q is None else _square_exact(q, fn, "Q")
    if qq.nrows() != n:
        raise DomainError(f"{fn}: Q is {qq.nrows()}×{qq.ncols()} but W is {n}×{n}")
    return wq, qq, n


def _singular_operator(fn: str) -> DomainError:
    return DomainError(f"{fn}: L(P) = WᵀP + PW is singular (λ_i(W) + λ_j(W) = 0 for some i, j): "
                       "eq. (48) has no unique solution")


def exact(w: ExactMatrix, q: ExactMatrix | None = None) -> Solution:
    """The exact solution of Wᵀ P + P W = −Q (W App. A.9 eq. (48)) over ℚ by the Kronecker system.

    Domain: W, Q exact real n×n (ints, Fractions, fmpq, finite floats taken exactly), 1 ≤ n ≤ 12;
    any Q (symmetric or not) and any W with λ_i(W) + λ_j(W) ≠ 0 for all i, j (W need not be
    Hurwitz; Hurwitz suffices). Outside it: ValueError (complex/non-finite/non-square/empty input,
    n > 12, or a singular operator — decided exactly).
    """
    import flint

    t0 = time.perf_counter()
    w, q, n = _lyapunov_inputs(w, q, "exact")
    _check_kron(n)
    try:
        x = kronecker_exact(w).solve(-_vec(q))
    except ZeroDivisionError:
        raise _singular_operator("exact") from None

    p = flint.fmpq_mat(n, n, [x[i * n + j, 0] for i in range(n) for j in range(n)])
    return Solution(p, "Kronecker (exact, ℚ)", "exact", Accuracy("exact", mpmath.mpf(0),
                                                                   mpmath.mpf(0), "exact over ℚ"),
                    time.perf_counter() - t0, residual_oracle(w, q, p))


def kronecker_mpmath(w: ExactMatrix, q: ExactMatrix | None = None, *, bits: int = 256) -> Solution:
    """Wᵀ P + P W = −Q (W App. A.9 eq. (48)) by LU on the n² × n² Kronecker system in mpmath at ``bits``.

    A private ``MPContext`` holds the precision. LU with partial pivoting is backward stable on K,
    so the forward error is ≲ c·n²·κ₂(K)·u (the system has dimension n²); no certificate.

    Domain: as :func:`exact` (any Q, any W with L nonsingular, 1 ≤ n ≤ 12), ``bits`` ≥ 2; a singular
    or numerically singular K raises ValueError.
    """
    t0 = time.perf_counter()
    w, q, n = _lyapunov_inputs(w, q, "kronecker_mpmath")
    bits = positive_int(bits, "bits", 2)
    _check_kron(n)
    ctx = fixed_context(bits)
    wm = to_mp(w, ctx)
    k = ctx.matrix(n * n, n * n)
    for r, c, a, b in _kron_entries(n):
        k[r, c] += wm[a, b]
    qm = to_mp(q, ctx)
    try:
        x = ctx.lu_solve(k, ctx.matrix([[-qm[i, j]] for i in range(n) for j in range(n)]))
    except ZeroDivisionError:
        if kronecker_exact(w).rank() < n * n:
            raise _singular_operator("kronecker_mpmath") from None
        raise DomainError(f"kronecker_mpmath: K is numerically singular at {bits} bits "
                          "(κ(L) ≳ 2^bits); raise bits or use exact") from None
    p = ctx.matrix(n, n)
    for i in range(n):
        for j in range(n):
            p[i, j] = x[i * n + j]
    back = _relative_residual_mp(wm, qm, p, ctx)
    acc = Accuracy("estimate", None, back,
                   f"LU on the n²×n² Kronecker system at {bits} bits: forward error ≲ c·n²·κ(L)·u, "
                   "u = 2^-" + str(bits))
    # LU with partial pivoting on the n²×n² system: residual O(n²·u) relative (m = n²)
    orc = residual_oracle(w, q, p, unit_roundoff=mpmath.mpf(2) ** -bits, scale=n * n, bits=bits + 64)
    return Solution(p, "Kronecker (LU)", f"mpmath@{bits}", acc, time.perf_counter() - t0, orc)


def kronecker_flint(w: ExactMatrix, q: ExactMatrix | None = None, *, bits: int = 256,
                    escalate: int = 4) -> Solution:
    """A certified enclosure of the solution of Wᵀ P + P W = −Q (W App. A.9 eq. (48)): ``arb_mat.solve``
    (preconditioned elimination in ball arithmetic) on the Kronecker system.

    If the relative radius exceeds 2^(−bits/2), the precision doubles up to ``escalate``×bits
    (flint's ``good()`` idiom); the accuracy states the radius actually reached.

    Domain: as :func:`exact` (any Q, any W with L nonsingular, 1 ≤ n ≤ 12), ``bits`` ≥ 2. A singular
    K (decided exactly) raises ValueError; so does a K that ball elimination cannot invert even at
    ``escalate``×bits (:class:`~recmem.numerics.validate.NotConvergedError`).
    """
    import flint

    t0 = time.perf_counter()
    w, q, n = _lyapunov_inputs(w, q, "kronecker_flint")
    bits = positive_int(bits, "bits", 2)
    _check_kron(n)
    kq, rhs = kronecker_exact(w), -_vec(q)
    if kq.rank() < n * n:
        raise _singular_operator("kronecker_flint")
    prec = bits
    while True:
        try:
            with flint.ctx.workprec(prec):
                x = flint.arb_mat(kq).solve(flint.arb_mat(rhs), algorithm="precond")
                p = flint.arb_mat(n, n, [x[i * n + j, 0] for i in range(n) for j in range(n)])
        except ZeroDivisionError:
            if 2 * prec > escalate * bits:
                raise NotConvergedError(f"kronecker_flint: ball elimination could not invert K at "
                                        f"{prec} bits (κ(L) ≳ 2^{prec}); raise bits or escalate"
                                        ) from None
            prec *= 2
            continue
        rel = _relative_radius(p)
        if rel <= mpmath.mpf(2) ** (-(bits // 2)) or 2 * prec > escalate * bits:
            break
        prec *= 2
    acc = Accuracy("enclosure", rel, None,
                   f"certified ball (arb, {prec} bits): max radius / ‖P‖_F = {mpmath.nstr(rel, 3)}")
    return Solution(p, "Kronecker (ball arithmetic)", f"flint@{prec}", acc, time.perf_counter() - t0,
                    residual_oracle(w, q, p, bits=prec + 64))


def _relative_radius(p: Any) -> mpmath.mpf:
    from recmem.numerics.flint_backend import arb_to_mpf

    ctx = fixed_context(64)
    n = p.nrows()
    entries = [p[i, j] for i in range(n) for j in range(p.ncols())]
    rad = max(arb_to_mpf(e.rad(), ctx) for e in entries)
    nrm = ctx.sqrt(ctx.fsum(arb_to_mpf(e.mid(), ctx) ** 2 for e in entries))
    return rad / nrm if nrm > 0 else mpmath.inf


def _relative_residual_mp(wm: mpmath.matrix, qm: mpmath.matrix, p: mpmath.matrix,
                          ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpf:
    r = wm.T * p + p * wm + qm
    den = 2 * ctx.mnorm(wm, "f") * ctx.mnorm(p, "f") + ctx.mnorm(qm, "f")
    return mpmath.mpf(ctx.mnorm(r, "f") / den)


# ---- float64 ----------------------------------------------------------------------------------

def _relative_residual_np(w: np.ndarray, q: np.ndarray, p: np.ndarray) -> float:
    r = w.T @ p + p @ w + q
    return float(np.linalg.norm(r) / (2 * np.linalg.norm(w) * np.linalg.norm(p) + np.linalg.norm(q)))


def bartels_stewart(w: ExactMatrix, q: ExactMatrix | None = None, *,
                    kappa: mpmath.mpf | None = None, dtype: Any = np.float64) -> Solution:
    """Wᵀ P + P W = −Q (W App. A.9 eq. (48)) by SciPy's Bartels–Stewart
    ``solve_continuous_lyapunov`` in ``dtype`` (float64, or float32: SciPy then runs LAPACK's
    single-precision Schur decomposition and ``strsyl``).

    SciPy solves A X + X Aᴴ = Q', so A = Wᵀ and Q' = −Q. The residual is small (backward error
    ~ n·u); the forward error is ≲ c·n·κ(L)·u. With ``kappa`` the accuracy carries κ × residual.
    W and Q may also be float arrays (already rounded; used by the benchmark).

    Domain: W, Q real n×n (exact or float), n ≥ 1, finite in ``dtype``; any Q (a symmetric Q gives
    the symmetrised P, a non-symmetric Q the unsymmetrised one: both solve eq. (48)); any W with
    λ_i(W) + λ_j(W) ≠ 0 (Hurwitz not needed). Outside it, ValueError: complex, NaN/inf,
    non-square or empty input, and a W whose operator L is singular to working precision
    (float64 eigenvalues; :func:`exact` decides exactly).
    """
    from scipy.linalg import solve_continuous_lyapunov

    t0 = time.perf_counter()
    if np.dtype(dtype) not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise DomainError(f"bartels_stewart: dtype must be float64 or float32, got {dtype}")
    # rounded once from the exact W (float64 → float32 is exact rounding of the float64 value: a
    # double rounding that moves the input by ≤ u₃₂(1 + 2⁻²⁹))
    with np.errstate(over="ignore"):  # an overflow to inf is refused just below
        wf = _float_input(w, "bartels_stewart", "W").astype(dtype)
        n = wf.shape[0]
        qf = (np.eye(n, dtype=dtype) if q is None
              else _float_input(q, "bartels_stewart", "Q").astype(dtype))
    wf = real_matrix(wf, "bartels_stewart: W (rounded)", square=True, dtype=dtype)
    qf = real_matrix(qf, "bartels_stewart: Q (rounded)", square=True, dtype=dtype)
    if qf.shape != wf.shape:
        raise DomainError(f"bartels_stewart: Q is {qf.shape[0]}×{qf.shape[1]} but W is {n}×{n}")
    require_lyapunov_nonsingular(wf, "bartels_stewart", float(np.finfo(dtype).eps) / 2)
    p = solve_continuous_lyapunov(wf.T, -qf)
    if is_symmetric(qf):
        p = (p + p.T) / 2  # the exact P is symmetric; symmetrising never increases the error
    if not np.all(np.isfinite(p)):
        raise DomainError("bartels_stewart: the solution overflowed (L nearly singular?)")
    name = "numpy" if np.dtype(dtype) == np.float64 else f"numpy:{np.dtype(dtype).name}"
    # the oracle against the caller's W and Q (exact, or the float arrays given), not wf/qf
    orc = residual_oracle(w if not isinstance(w, np.ndarray) else _float_input(w, "bartels_stewart",
                                                                               "W"),
                          q if not isinstance(q, np.ndarray) else _float_input(q, "bartels_stewart",
                                                                               "Q"),
                          p, unit_roundoff=mpmath.mpf(float(np.finfo(dtype).eps)) / 2, scale=n)
    return Solution(p, "Bartels–Stewart (scipy)", name, _float_accuracy(wf, qf, p, kappa),
                    time.perf_counter() - t0, orc)


def _float_input(m: ExactMatrix | np.ndarray, fn: str, name: str) -> np.ndarray:
    """A finite real square float64 matrix with n ≥ 1 from exact or float input; every refusal is a
    DomainError whose message starts with ``fn``."""
    try:
        return real_matrix(to_float64(m), f"{fn}: {name}", square=True)
    except DomainError as exc:
        msg = str(exc)
        raise DomainError(msg if msg.startswith(fn) else f"{fn}: {name}: {msg}") from None


def _float_accuracy(wf: np.ndarray, qf: np.ndarray, p: np.ndarray,
                    kappa: mpmath.mpf | None) -> Accuracy:
    back = mpmath.mpf(_relative_residual_np(wf, qf, p))
    fwd = None if kappa is None else kappa * back
    return Accuracy("estimate", fwd, back,
                    f"{p.dtype}: relative residual (evaluated in {p.dtype})"
                    + ("" if kappa is None else " × κ(L) estimates the forward error"))


class SchurLyapunov:
    """Bartels–Stewart with a reusable real Schur factor W = U T Uᵀ (float64, LAPACK trsyl).

    ``solve(C)`` returns X with Wᵀ X + X W = C; ``solve_adjoint(C)`` returns X with W X + X Wᵀ = C
    (the adjoint operator L* for the Frobenius inner product). Reusing the O(n³) Schur step makes
    iterative refinement and condition estimation cost O(n³) per solve instead of a fresh Schur
    decomposition each time.


    Domain: ``wf`` a finite real n×n float matrix, n ≥ 1 (ValueError otherwise). A singular operator
    (λ_i + λ_j = 0) is tolerated: LAPACK then perturbs the solution (see ``_trsyl``); the callers
    (refinement, condition estimate) detect that themselves.
    """

    def __init__(self, wf: np.ndarray) -> None:
        from scipy.linalg import schur

        self.t, self.u = schur(real_matrix(wf, "W", square=True), output="real")

    def _trsyl(self, c: np.ndarray, trana: str, tranb: str) -> np.ndarray:
        from scipy.linalg.lapack import dtrsyl

        ct = self.u.T @ c @ self.u
        x, scale, info = dtrsyl(self.t, self.t, ct, trana=trana, tranb=tranb)
        if info < 0:
            raise ValueError(f"dtrsyl: illegal argument {-info}")
        # info = 1: eigenvalues of W and −W (nearly) collide; the solution is perturbed, which the
        # refinement and the estimator tolerate (it only slows convergence or lowers the estimate).
        return self.u @ (x / scale) @ self.u.T

    def solve(self, c: np.ndarray) -> np.ndarray:
        """X with Wᵀ X + X W = C."""
        return self._trsyl(c, "T", "N")

    def solve_adjoint(self, c: np.ndarray) -> np.ndarray:
        """X with W X + X Wᵀ = C."""
        return self._trsyl(c, "N", "T")


# ---- torch: batched matrix-sign Newton ---------------------------------------------------------

def sign_newton(ws: Sequence[ExactMatrix] | Any, qs: Sequence[ExactMatrix] | Any | None = None, *,
                device: str = "cpu", max_iter: int = 100, kappas: Sequence[mpmath.mpf] | None = None,
                dtype: str = "float64") -> Solution:
    """Wᵀ P + P W = −Q (W App. A.9 eq. (48)) for a batch of W's (same n) in torch float64 on CPU or CUDA.

    Method: Roberts' matrix-sign Newton iteration with Byers' determinantal scaling. For Hurwitz W,
    H = [[W, 0], [−Q, −Wᵀ]] = T diag(W, −Wᵀ) T⁻¹ with T = [[I, 0], [P, I]], so
    sign(H) = [[−I, 0], [−2P, I]]. Newton Z ← (μZ + Z⁻¹/μ)/2 keeps the block-triangular form:
    A ← (μA + A⁻¹/μ)/2, C ← (μC + A⁻ᵀ C A⁻¹/μ)/2 from A₀ = W, C₀ = −Q, and P = −C_∞/2.
    Why this method: it needs only batched inverses and matrix products, which torch runs
    efficiently on a GPU for a whole batch; the batched Kronecker solve costs O(n⁶) time and
    O(n⁴) memory per matrix (64 GB for a batch of 64 at n = 64), and Bartels–Stewart needs a real
    Schur decomposition, which torch does not provide. Its rounding errors are analysed by Byers
    (1987) and Bai & Demmel (1998); the forward errors measured here stay within c·n·κ(L)·u
    (tests/test_lyapunov_solvers.py), but unlike Bartels–Stewart it has no backward-stability proof.

    ``ws``/``qs`` are exact matrices or float tensors/arrays of shape (B, n, n); Q defaults to I.
    ``dtype`` "float64" or "float32" (the whole iteration then runs in float32). Returns P of shape
    (B, n, n) on ``device``.

    Domain: a nonempty batch of real n×n W's (n ≥ 1), finite, each **Hurwitz** (every Re λ < 0:
    the iteration computes sign(W) = −I only then), and Q's of the same shape, symmetric or not
    (P is symmetrised only when every Q is symmetric). Outside it, ValueError: complex, NaN/inf,
    non-square, empty or mismatched input (:class:`~recmem.numerics.validate.DomainError`), and a
    non-Hurwitz W — the iteration then converges to sign(W) ≠ −I or not at all, which is detected
    (A never reaches −I within ``max_iter`` steps, or an inverse fails) and raised as
    :class:`~recmem.numerics.validate.NotConvergedError`. Use :func:`exact`, :func:`kronecker_flint`
    or :func:`bartels_stewart` for a non-Hurwitz W.
    """
    try:
        import torch
    except ImportError as exc:  # pragma: no cover
        raise BackendUnavailable("torch is not installed") from exc
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise BackendUnavailable("CUDA is not available (torch.cuda.is_available() is False)")
    t0 = time.perf_counter()
    if dtype not in ("float64", "float32"):
        raise DomainError(f"sign_newton: dtype must be 'float64' or 'float32', got {dtype!r}")
    max_iter = positive_int(max_iter, "max_iter")
    tdt = torch.float32 if dtype == "float32" else torch.float64
    w = _batch(ws, torch, device, "W").to(tdt)
    b, n, _ = w.shape
    eye = torch.eye(n, dtype=tdt, device=device).expand(b, n, n)
    q = eye.clone() if qs is None else _batch(qs, torch, device, "Q").to(tdt)
    if q.shape != w.shape:
        raise DomainError(f"sign_newton: Q has shape {tuple(q.shape)} but W has {tuple(w.shape)}")
    if not (bool(torch.isfinite(w).all()) and bool(torch.isfinite(q).all())):
        raise DomainError(f"sign_newton: W or Q has non-finite entries (NaN or inf in {dtype})")
    symmetric_q = bool((q == q.transpose(-1, -2)).all())
    a, c = w.clone(), -q
    u = float(np.finfo(np.float32 if dtype == "float32" else np.float64).eps) / 2
    it = 0
    done = torch.zeros(b, dtype=torch.bool, device=device)
    for it in range(1, max_iter + 1):
        ainv = _inv_or_raise(torch, a, it)
        # Determinantal scaling μ = |det A|^(-1/n) speeds up the early phase; once A is near −I it
        # is switched off so the final steps converge quadratically.
        near = torch.linalg.matrix_norm(a + eye) < 0.5
        mu = torch.where(near, torch.ones_like(near, dtype=tdt),
                         torch.exp(-torch.linalg.slogdet(a)[1] / n))[:, None, None]
        a_new = (mu * a + ainv / mu) / 2
        c_new = (mu * c + ainv.transpose(-1, -2) @ c @ ainv / mu) / 2
        done = torch.linalg.matrix_norm(a_new + eye) <= math.sqrt(u) * n
        a, c = a_new, c_new
        if bool(done.all()):
            break
    if not bool(done.all()):
        bad = [int(i) for i in torch.nonzero(~done).flatten()]
        dist = float(torch.linalg.matrix_norm(a + eye).max())
        raise NotConvergedError(
            f"sign_newton did not converge in {max_iter} iterations for batch item(s) {bad[:8]}"
            f"{'…' if len(bad) > 8 else ''} (‖A + I‖_F = {dist:.3g}): W is not Hurwitz? (the "
            "iteration reaches sign(W) = −I only for a Hurwitz W); use exact, kronecker_flint or "
            "bartels_stewart for a non-Hurwitz W")
    # one more unscaled step after A is within √u of −I: quadratic convergence reaches u.
    ainv = _inv_or_raise(torch, a, it + 1)
    c = (c + ainv.transpose(-1, -2) @ c @ ainv) / 2
    # C_∞ = −2P: symmetrised when Q (hence P) is symmetric, which never increases the error
    p = -(c + c.transpose(-1, -2)) / 4 if symmetric_q else -c / 2
    r = w.transpose(-1, -2) @ p + p @ w + q
    back = (torch.linalg.matrix_norm(r) / (2 * torch.linalg.matrix_norm(w) * torch.linalg.matrix_norm(p)
                                           + torch.linalg.matrix_norm(q))).cpu().numpy()
    worst = mpmath.mpf(float(back.max()))
    fwd = None if kappas is None else max(k * mpmath.mpf(float(r_)) for k, r_ in zip(kappas, back,
                                                                                     strict=True))
    acc = Accuracy("estimate", fwd, worst,
                   f"{dtype} sign-function Newton, {it + 1} iterations; worst relative residual "
                   f"{mpmath.nstr(worst, 3)} over the batch"
                   + ("" if kappas is None else "; × κ(L) estimates the forward error"))
    # the oracle of every batch item against the caller's W and Q (worst shown). m = n: the
    # relative residual measured ≤ 0.33·c·n·u for n ≤ 32 (tests/test_lyapunov_oracles.py); the
    # iteration is not backward stable, so for an ill-conditioned L (n = 64 non-normal) it can
    # exceed that: with ``kappas`` given, m = n·κ(L) (what a forward error c·n·κ(L)·u implies).
    w_items, q_items = _oracle_items(ws, b), (None if qs is None else _oracle_items(qs, b))
    orc = worst_residual([residual_oracle(
        w_items[k], None if q_items is None else q_items[k], p[k], unit_roundoff=mpmath.mpf(u),
        scale=n if kappas is None else n * max(mpmath.mpf(1), kappas[k])) for k in range(b)])
    return Solution(p, "matrix-sign Newton (batched)",
                    f"torch:{device}" + ("" if dtype == "float64" else f":{dtype}"), acc,
                    time.perf_counter() - t0, orc)


def _oracle_items(ms: Any, b: int) -> list[Any]:
    """The batch's matrices as the oracle takes them: exact ones as given, float tensors/arrays
    as float64 arrays (their values taken exactly)."""
    if hasattr(ms, "detach") or (isinstance(ms, np.ndarray) and ms.dtype != object):
        a = ms.detach().cpu().numpy() if hasattr(ms, "detach") else ms
        a = np.asarray(a, dtype=np.float64)
        return [a] * b if a.ndim == 2 else [a[k] for k in range(b)]
    items = list(ms) if not (isinstance(ms, np.ndarray) and ms.ndim == 2) else [ms]
    return items * b if len(items) == 1 and b > 1 else items


def _inv_or_raise(torch: Any, a: Any, it: int) -> Any:
    """A⁻¹ for the Newton step, or NotConvergedError when A is singular (an eigenvalue of W on the
    imaginary axis, or a non-finite iterate)."""
    if not bool(torch.isfinite(a).all()):
        raise NotConvergedError(f"sign_newton: the iterate became non-finite at step {it}: W is not "
                                "Hurwitz? (eigenvalues on or near the imaginary axis)")
    try:
        return torch.linalg.inv(a)
    except RuntimeError as exc:  # torch.linalg.LinAlgError
        raise NotConvergedError(f"sign_newton: singular iterate at step {it} ({exc}): W has an "
                                "eigenvalue on the imaginary axis (not Hurwitz)?") from None


def _batch(ms: Any, torch: Any, device: str, name: str = "W") -> Any:
    """A (B, n, n) float64 tensor from a tensor/array of shape (n, n) or (B, n, n), or a sequence of
    exact matrices; ValueError for complex, empty, non-square or mismatched shapes."""
    if isinstance(ms, np.ndarray) and ms.dtype == object:  # exact entries in an object array
        ms = list(ms) if ms.ndim == 3 else [ms]
    if hasattr(ms, "detach") or isinstance(ms, np.ndarray):
        if (ms.is_complex() if hasattr(ms, "is_complex") else np.iscomplexobj(ms)):
            raise complex_refusal(f"sign_newton: {name}", f"has dtype {ms.dtype}")
        t = torch.as_tensor(ms, dtype=torch.float64, device=device)
        t = t if t.ndim == 3 else t[None]
    else:
        mats = [real_matrix(to_float64(m), f"sign_newton: {name}", square=True) for m in ms]
        if not mats:
            raise DomainError(f"sign_newton: the batch of {name}'s is empty")
        if len({m.shape for m in mats}) > 1:
            raise DomainError(f"sign_newton: the {name}'s differ in size: {[m.shape for m in mats]}")
        t = torch.as_tensor(np.stack(mats), dtype=torch.float64, device=device)
    if t.ndim != 3 or t.shape[0] < 1 or t.shape[1] != t.shape[2] or t.shape[1] < 1:
        raise DomainError(f"sign_newton: {name} must be a nonempty batch of square n×n matrices, n ≥ 1; "
                          f"got shape {tuple(t.shape)}")
    return t


# ---- condition of the problem ----------------------------------------------------------------

@dataclass(frozen=True)
class OperatorCondition:
    """κ(L) = ‖L‖₂‖L⁻¹‖₂ of L(P) = WᵀP + PW on (ℝ^{n×n}, Frobenius), ‖L⁻¹‖₂ = 1/sep.

    ``value`` is the conservative number to scale tolerances with (the upper end when certified).
    """

    value: mpmath.mpf
    norm: mpmath.mpf  # ‖L‖₂ = σ_max(K)
    inverse_norm: mpmath.mpf  # ‖L⁻¹‖₂ = 1/σ_min(K) = 1/sep(Wᵀ, −W)
    certified: bool
    method: str

    def __str__(self) -> str:
        tag = "certified" if self.certified else "estimate"
        return f"{mpmath.nstr(self.value, 4)} ({tag}: {self.method})"


def condition_certified(w: ExactMatrix, *, start_bits: int = 128, max_bits: int = 256
                        ) -> OperatorCondition:
    """Certified κ₂(L) for the operator of W's eq. (48) (n ≤ 8).

    First a tight bracket from ball eigenvalues of KᵀK (flint, Rump). KᵀK of a normal W has exactly
    repeated eigenvalues (|λ_i + λ_j| = |λ_j + λ_i|), which the ball eigensolver may fail to
    isolate (for W normal, decided exactly, it is not tried); then a certified *upper bound* is used:
    ‖K‖₂ ≤ √(‖K‖₁‖K‖_∞) and ‖K⁻¹‖₂ ≤ √(‖K⁻¹‖₁‖K⁻¹‖_∞), K⁻¹ enclosed by ball inversion. Both are
    conservative, which is the safe side for a tolerance.

    Domain: W exact real n×n, 1 ≤ n ≤ 8, with L nonsingular (λ_i + λ_j ≠ 0, decided exactly; W
    need not be Hurwitz). A singular L (κ = ∞) and anything else raise ValueError.
    """
    import flint

    from recmem.numerics.certified import enclose, sigma_bracket

    wq = _square_exact(w, "condition_certified")
    if wq.nrows() > CERTIFIED_CONDITION_MAX_N:
        raise ValueError(f"certified κ(L) offered for n ≤ {CERTIFIED_CONDITION_MAX_N}, got "
                         f"n={wq.nrows()}; use condition_estimate")
    kq = kronecker_exact(wq)
    if kq.rank() < kq.nrows():
        raise _singular_operator("condition_certified")
    if wq * wq.transpose() == wq.transpose() * wq:
        # normal W (decided exactly): the Gram eigenvalues come in exact clusters; skip to the bound
        return _condition_norm_bound(kq, start_bits)
    sb = sigma_bracket(lambda bits: flint.acb_mat(flint.arb_mat(kq)), start_bits=start_bits,
                       max_bits=max_bits)
    kb = sb.kappa
    if kb.certified:
        # ‖L⁻¹‖₂ ≤ 1/σ_min's lower end, rounded up (to nearest it could fall below the bound)
        inv = enclose(lambda s: 1 / s, sb.smin[0], bits=sb.bits)[1]
        return OperatorCondition(kb.hi, sb.smax[1], inv, True,
                                 f"ball eigenvalues of KᵀK, {kb.bits} bits")
    return _condition_norm_bound(kq, start_bits)


def _condition_norm_bound(kq: Any, bits: int) -> OperatorCondition:
    import flint

    from recmem.numerics.flint_backend import arb_upper

    ctx = fixed_context(64)
    m = kq.nrows()

    def one_inf(absval: Any) -> mpmath.mpf:
        cols = max(ctx.fsum(absval(i, j) for i in range(m)) for j in range(m))
        rows = max(ctx.fsum(absval(i, j) for j in range(m)) for i in range(m))
        return mpmath.mpf(ctx.sqrt(cols * rows) * (1 + 8 * ctx.eps))  # rounded upwards

    exact_abs = [[abs(fraction(kq[i, j])) for j in range(m)] for i in range(m)]
    norm = one_inf(lambda i, j: ctx.mpf(exact_abs[i][j].numerator) / exact_abs[i][j].denominator
                   * (1 + 2 * ctx.eps))
    with flint.ctx.workprec(bits):
        kinv = flint.arb_mat(kq).inv()
    inv_abs = [[arb_upper(abs(kinv[i, j]), ctx) for j in range(m)] for i in range(m)]
    inv_norm = one_inf(lambda i, j: inv_abs[i][j])
    return OperatorCondition(norm * inv_norm, norm, inv_norm, True,
                             f"certified upper bound √(‖K‖₁‖K‖_∞‖K⁻¹‖₁‖K⁻¹‖_∞), K⁻¹ by ball "
                             f"inversion at {bits} bits")


def condition_estimate(w: ExactMatrix, *, iterations: int = 30, seed: int = 0) -> OperatorCondition:
    """A float64 estimate of κ₂(L) (eq. (48)'s operator) for any n, O(n³) per iteration.

    Power iteration on L*L and on L⁻¹L⁻* (L⁻¹ by Bartels–Stewart on a reused Schur factor; L* is
    the operator of Wᵀ). Power iteration approaches σ_max from below, so this is an estimate, not
    a bound: it is what LAPACK-style sep estimators provide, and it is labelled as such.

    Domain: W real n×n (exact or float), n ≥ 1, finite, with L nonsingular to float64 precision
    (any W with λ_i + λ_j ≠ 0; Hurwitz not needed); ``iterations`` ≥ 1. Outside it, ValueError.
    """
    wf = _float_input(w, "condition_estimate", "W")
    iterations = positive_int(iterations, "iterations")
    n = wf.shape[0]
    require_lyapunov_nonsingular(wf, "condition_estimate", 2.0 ** -53,
                                 "κ(L) = ∞; use condition_certified to decide exactly")
    rng = np.random.default_rng(seed)
    sl = SchurLyapunov(wf)

    def power(apply: Any) -> float:
        x = rng.standard_normal((n, n))
        x /= np.linalg.norm(x)
        lam = 0.0
        for _ in range(iterations):
            y = apply(x)
            lam = float(np.linalg.norm(y))
            if lam == 0 or not np.isfinite(lam):
                break
            x = y / lam
        return lam

    op = lambda x: wf @ (wf.T @ x + x @ wf) + (wf.T @ x + x @ wf) @ wf.T  # noqa: E731 (L*L)
    inv = lambda x: sl.solve(sl.solve_adjoint(x))  # noqa: E731 (L⁻¹L⁻*)
    norm = math.sqrt(power(op))
    inv_norm = math.sqrt(power(inv))
    if not (math.isfinite(norm) and math.isfinite(inv_norm) and inv_norm > 0):
        raise NotConvergedError(f"condition_estimate: power iteration gave ‖L‖ = {norm:.3g}, "
                                f"‖L⁻¹‖ = {inv_norm:.3g} (L singular to float64 precision?)")
    return OperatorCondition(mpmath.mpf(norm * inv_norm), mpmath.mpf(norm), mpmath.mpf(inv_norm),
                             False, f"float64 power iteration ({iterations} steps)")


def condition(w: ExactMatrix) -> OperatorCondition:
    """κ(L) of eq. (48)'s operator: certified for n ≤ 8, the float64 estimate beyond.

    Domain: that of :func:`condition_certified` (n ≤ 8) / :func:`condition_estimate` (n > 8).
    """
    n = _square_exact(w, "condition").nrows()
    return condition_certified(w) if n <= CERTIFIED_CONDITION_MAX_N else condition_estimate(w)


# ---- high-precision reference: mixed-precision iterative refinement ---------------------------

def refine(w: ExactMatrix, q: ExactMatrix | None = None, *, bits: int = 256, residual: str = "flint",
           max_iter: int = 60, inverse_norm: mpmath.mpf | None = None) -> Solution:
    """A high-precision solution of Wᵀ P + P W = −Q (W App. A.9 eq. (48)) for n up to 64 and beyond, O(n³)
    per step: mixed-precision iterative refinement.

    P₀ = 0; R_k = −Q − (WᵀP_k + P_kW) is evaluated at ``bits`` + 32 bits with the exact W and Q
    (``residual="flint"``: arb matrices, C speed; ``"mpmath"``: a private MPContext), the
    correction D_k solves L(D_k) = R_k in float64 (Bartels–Stewart on one reused Schur factor), and
    P_{k+1} = P_k + D_k is accumulated at high precision. Each step multiplies the error by about
    c·κ(L)·u₆₄, so it converges while κ(L)·u₆₄ ≪ 1; it stops at ‖R‖ ≤ 2^-bits·scale or on stagnation.

    The accuracy: ‖P − P_k‖_F ≤ ‖L⁻¹‖₂‖R_k‖_F (reported relative to ‖P_k‖_F). With a certified
    ``inverse_norm`` (from
    :func:`condition_certified`) and the ball residual, that is a certified bound; otherwise an
    estimate (‖L⁻¹‖ from :func:`condition_estimate`).

    Domain: W, Q exact real n×n, n ≥ 1, any Q, any W with L nonsingular (Hurwitz not needed) and
    κ(L)·u₆₄ ≪ 1 so that the float64 correction contracts. Outside it, ValueError: bad input or a
    singular L (:class:`~recmem.numerics.validate.DomainError`), and a refinement that stops
    (stagnation or ``max_iter``) before its relative residual reaches 2^(−bits/2)
    (:class:`~recmem.numerics.validate.NotConvergedError`: κ(L)·u₆₄ ≳ 1).
    """
    import flint

    t0 = time.perf_counter()
    wq, qq, n = _lyapunov_inputs(w, q, "refine")
    bits = positive_int(bits, "bits", 2)
    max_iter = positive_int(max_iter, "max_iter")
    wf = to_float64(wq)
    require_lyapunov_nonsingular(wf, "refine", 2.0 ** -53)
    sl = SchurLyapunov(wf)
    hp = bits + 32
    certified = inverse_norm is not None
    if inverse_norm is None:
        inverse_norm = condition_estimate(wq).inverse_norm
    if residual == "flint":
        res_fn, acc_fn, to_np, state = _flint_refinement(wq, qq, hp)
    elif residual == "mpmath":
        res_fn, acc_fn, to_np, state = _mpmath_refinement(wq, qq, hp)
    else:
        raise ValueError(f"residual must be 'flint' or 'mpmath', got {residual!r}")
    scale = None
    prev = math.inf
    steps = 0
    while True:
        r, rnorm = res_fn(state)  # the residual of the current iterate (the one returned)
        steps += 1
        if scale is None:
            scale = rnorm  # ‖Q‖_F: the residual of P₀ = 0
        if (rnorm <= scale * mpmath.mpf(2) ** (-bits) or rnorm >= prev / 2
                or steps > max_iter):
            break
        prev = rnorm
        # Scale R to O(1) by a power of two (exact) so the float64 solve never underflows.
        e = int(mpmath.floor(mpmath.log(rnorm, 2))) if rnorm > 0 else 0
        rf = np.ldexp(to_np(r), -e)
        d = np.ldexp(sl.solve(rf), e)
        state = acc_fn(state, d)
    assert scale is not None
    if scale > 0 and rnorm > scale * mpmath.mpf(2) ** (-(bits // 2)):
        raise NotConvergedError(
            f"refine did not converge: relative residual {mpmath.nstr(rnorm / scale, 3)} after "
            f"{steps} residual evaluations (target 2^-{bits}): κ(L)·u₆₄ ≳ 1? (the float64 "
            "correction does not contract); use exact or kronecker_flint for n ≤ 12")
    p = state
    pn = _norm_f(p)
    fwd = inverse_norm * rnorm / pn if pn > 0 else mpmath.inf
    kind = "certified bound" if certified and residual == "flint" else "estimate"
    acc = Accuracy(kind, fwd, None,
                   f"iterative refinement, {steps} residual evaluations at {hp} bits "
                   f"({residual}); ‖P − P̂‖_F/‖P̂‖_F ≤ ‖L⁻¹‖₂·‖R‖_F/‖P̂‖_F = {mpmath.nstr(fwd, 3)}"
                   + ("" if kind != "estimate" else " (‖L⁻¹‖ estimated or residual not certified)"))
    if residual == "flint":
        with flint.ctx.workprec(hp):
            p = flint.arb_mat(n, n, [p[i, j].mid() for i in range(n) for j in range(n)])
    # a point answer accumulated at hp bits whose residual was driven to ≲ 2^-bits·‖Q‖ (m = n)
    orc = residual_oracle(wq, qq, p, unit_roundoff=mpmath.mpf(2) ** -bits, scale=n, bits=hp + 64)
    return Solution(p, "iterative refinement (float64 Bartels–Stewart + high-precision residual)",
                    f"{residual}@{bits}", acc, time.perf_counter() - t0, orc)


def _flint_refinement(wq: Any, qq: Any, hp: int) -> tuple[Any, Any, Any, Any]:
    import flint

    from recmem.numerics.flint_backend import arb_upper

    with flint.ctx.workprec(hp):
        wa, qa = flint.arb_mat(wq), flint.arb_mat(qq)
        wt = wa.transpose()
        n = wq.nrows()
        p0 = flint.arb_mat(n, n)
    mctx = fixed_context(64)

    def res(p: Any) -> tuple[Any, mpmath.mpf]:
        with flint.ctx.workprec(hp):
            r = -qa - (wt * p + p * wa)
        with flint.ctx.workprec(64):
            # a rigorous upper bound of ‖R‖_F: the sum of squares in ball arithmetic, upper end
            ss = sum((e * e for e in r.entries()), flint.arb(0))
        up = mctx.sqrt(arb_upper(ss, mctx)) * (1 + 2 * mctx.eps)  # sqrt rounded, then upwards
        return r, mpmath.mpf(up)

    def acc(p: Any, d: np.ndarray) -> Any:
        with flint.ctx.workprec(hp):
            # float64 values are exact dyadics: the update is exact up to the ball's rounding
            return p + flint.arb_mat(d.tolist())

    def to_np(r: Any) -> np.ndarray:
        return np.array([float(e) for e in r.mid().entries()]).reshape(n, n)

    return res, acc, to_np, p0


def _mpmath_refinement(wq: Any, qq: Any, hp: int) -> tuple[Any, Any, Any, Any]:
    ctx = fixed_context(hp)
    wm, qm = to_mp(wq, ctx), to_mp(qq, ctx)
    wt = wm.T
    n = wq.nrows()

    def res(p: mpmath.matrix) -> tuple[mpmath.matrix, mpmath.mpf]:
        r = -qm - (wt * p + p * wm)
        return r, mpmath.mpf(ctx.mnorm(r, "f"))

    def acc(p: mpmath.matrix, d: np.ndarray) -> mpmath.matrix:
        return p + ctx.matrix(d.tolist())

    def to_np(r: mpmath.matrix) -> np.ndarray:
        return np.array([[float(r[i, j]) for j in range(n)] for i in range(n)])

    return res, acc, to_np, ctx.matrix(n, n)


def _norm_f(p: Any) -> mpmath.mpf:
    ctx = fixed_context(64)
    return mpmath.mpf(ctx.mnorm(to_mp(p, ctx), "f"))


# ---- the integral ∫₀^∞ e^{Wᵀt} X e^{Wt} dt itself (W App. A.9 eq. (49)) ------------------------
#
# Computed from its definition, never through the Lyapunov equation: on [0, h] the integrand is
# formed from the Taylor polynomial T_K(t) of e^{Wt} (θ = ‖W‖_F·h ≤ 1/64, so the truncation is below
# the unit roundoff) and integrated by (K+1)-point Gauss–Legendre, which is exact for that
# polynomial of degree 2K; then the intervals double: the integrand at t + s is the same
# congruence applied by e^{Ws} to the integrand at t (e^{Ws} commutes with e^{Wt}), so
# S_{j+1} = S_j + C(A_j, S_j), A_{j+1} = A_j², with S_j = ∫₀^{2^j h} and A_j = e^{W 2^j h}. The
# loop stops when ‖A_j‖_F² ≤ u/64 (the tail ∫_{2^j h}^∞ = C(A_j, P) is below u·‖P‖), or declares
# the integral divergent when ‖A_j‖_F exceeds 1/u (it never shrinks again). The congruence C (and
# so which integral) is the caller's: C(e, x) = eᵀxe or e x eᵀ.

THETA = Fraction(1, 64)


@dataclass(frozen=True)
class IntegralResult:
    """∫₀^∞ C(e^{Wt}, X) dt computed in one arithmetic.

    ``status``: "converged" (``P`` holds the integral), "diverged" (‖e^{W 2^j h}‖ grew past 1/u;
    ``certified`` when ball eigenvalues prove max Re λ(W) ≥ 0, which with X ≻ 0 makes the
    integral diverge), or "undecided". ``growth`` is the largest ‖e^{W 2^j h}‖_F met (≥ 1).
    ``amplification`` is n + nodes + Σ_j 2^j‖A_j‖_F²: the computed integral's relative error is
    ≲ c·amplification·u to first order (squaring doubles A_j's relative error each step).
    """

    P: Any
    status: str
    doublings: int
    nodes: int
    growth: mpmath.mpf
    amplification: mpmath.mpf
    arithmetic: str
    certified: bool = False
    text: str = ""
    residual: Residual | None = None  # the oracle of a converged P (the worst over a batch)


def _step(w: ExactMatrix) -> tuple[Fraction, Fraction]:
    """(h, θ-bound): h = 2^-e with ‖W‖_F·h ≤ THETA (exact, from the rational W)."""
    fw = fractions(w)
    f2 = sum((x * x for row in fw for x in row), Fraction(0))  # ‖W‖_F²
    h = Fraction(1)
    while f2 * h * h > THETA * THETA:
        h /= 2
    while f2 * (2 * h) ** 2 <= THETA * THETA and h < 2 ** 10:
        h *= 2
    return h, THETA


def taylor_terms(unit_roundoff: mpmath.mpf, theta: Fraction = THETA) -> int:
    """The smallest K with θ^{K+1}/((K+1)!(1 − θ)) ≤ u/64 (the Taylor remainder of e^{Wt}, t ≤ h).

    Domain: 0 < u < 1 and 0 < θ < 1 (ValueError otherwise: the series bound needs θ < 1).
    """
    if not 0 < unit_roundoff < 1 or not 0 < theta < 1:
        raise DomainError(f"taylor_terms needs 0 < u < 1 and 0 < θ < 1, got u={unit_roundoff}, "
                          f"θ={theta}")
    th = mpmath.mpf(theta.numerator) / theta.denominator
    k, term = 0, th
    while term / (1 - th) > unit_roundoff / 64:
        k += 1
        term = term * th / (k + 1)
    return max(k, 1)


def gauss_legendre(nodes: int, bits: int) -> list[tuple[Any, Any]]:
    """Gauss–Legendre nodes and weights on [0, 1] as arb balls at ``bits`` (flint's certified
    Legendre roots). Domain: ``nodes`` ≥ 1, ``bits`` ≥ 2 (ValueError otherwise)."""
    import flint

    nodes, bits = positive_int(nodes, "nodes"), positive_int(bits, "bits", 2)
    out = []
    with flint.ctx.workprec(bits):
        for k in range(nodes):
            x, wt = flint.arb.legendre_p_root(nodes, k, weight=True)
            out.append(((1 + x) / 2, wt / 2))
    return out


class PointArithmetic:
    """Matrix operations of one point arithmetic (mpmath at ``bits``, numpy or torch in ``dtype``)
    for :func:`integral_doubling`; values are rounded from exact inputs once.

    Domain: ``kind`` mpmath (``bits`` ≥ 2), numpy or torch (``dtype`` float64 or float32); ValueError
    otherwise. :meth:`matrix` takes exact real matrices (the domain of :func:`fmpq_matrix`).
    """

    def __init__(self, kind: str, *, bits: int = 53, dtype: str = "float64", device: str = "cpu"):
        if dtype not in ("float64", "float32"):
            raise DomainError(f"PointArithmetic: dtype must be float64 or float32, got {dtype!r}")
        if kind == "mpmath":
            bits = positive_int(bits, "bits", 2)
        self.kind, self.dtype, self.device = kind, dtype, device
        # converts ball midpoints (nodes, weights) exactly; contexts are shared per precision
        self._conv = fixed_context(max(bits, 53) + 64)
        if kind == "mpmath":
            self.ctx = fixed_context(bits)
            self.bits = bits
        elif kind in ("numpy", "torch"):
            self.bits = 24 if dtype == "float32" else 53
            self.np_dtype = np.float32 if dtype == "float32" else np.float64
            if kind == "torch":
                import torch

                if device.startswith("cuda") and not torch.cuda.is_available():
                    raise BackendUnavailable("CUDA is not available")
                self.torch = torch
                self.t_dtype = torch.float32 if dtype == "float32" else torch.float64
        else:
            raise ValueError(f"not a point arithmetic: {kind}")

    @property
    def name(self) -> str:
        if self.kind == "mpmath":
            return f"mpmath@{self.bits}"
        suffix = "" if self.dtype == "float64" else f":{self.dtype}"
        return ("numpy" if self.kind == "numpy" else f"torch:{self.device}") + suffix

    @property
    def unit_roundoff(self) -> mpmath.mpf:
        return mpmath.mpf(2) ** (-self.bits)

    def scalar(self, x: Fraction | Any) -> Any:
        """A scalar of this arithmetic from an exact rational or an arb ball's midpoint."""
        if not isinstance(x, Fraction | int):
            from recmem.numerics.flint_backend import arb_to_mpf

            v = arb_to_mpf(x.mid(), self._conv)
            return self.ctx.mpf(v) if self.kind == "mpmath" else self.np_dtype(float(v))
        f = Fraction(x)
        if self.kind == "mpmath":
            return self.ctx.mpf(f.numerator) / f.denominator
        return self.np_dtype(f.numerator / f.denominator)

    def matrix(self, m: ExactMatrix | Sequence[ExactMatrix], batch: bool = False) -> Any:
        """An exact matrix (or, with ``batch``, a list of them: torch only) in this arithmetic."""
        if self.kind == "mpmath":
            return to_mp(fmpq_matrix(m), self.ctx)
        if batch:
            arr = np.stack([to_float64(x) for x in m]).astype(self.np_dtype)
        else:
            arr = to_float64(m).astype(self.np_dtype)
        if self.kind == "numpy":
            return arr
        return self.torch.as_tensor(arr, dtype=self.t_dtype, device=self.device)

    def eye_like(self, a: Any) -> Any:
        if self.kind == "mpmath":
            return self.ctx.eye(a.rows)
        if self.kind == "numpy":
            return np.eye(a.shape[-1], dtype=self.np_dtype)
        return self.torch.eye(a.shape[-1], dtype=self.t_dtype, device=self.device).expand(a.shape)

    def mul(self, a: Any, b: Any) -> Any:
        return a * b if self.kind == "mpmath" else a @ b

    def tr(self, a: Any) -> Any:
        if self.kind == "mpmath":
            return a.T
        return a.T if self.kind == "numpy" else a.transpose(-1, -2)

    def fro(self, a: Any) -> mpmath.mpf:
        """‖a‖_F (the largest over a torch batch), as an mpmath number (inf when not finite)."""
        if self.kind == "mpmath":
            return mpmath.mpf(self.ctx.mnorm(a, "f"))
        if self.kind == "numpy":
            v = float(np.linalg.norm(a.astype(np.float64)))
        else:
            v = float(self.torch.linalg.matrix_norm(a.to(self.torch.float64)).max())
        return mpmath.mpf(v) if math.isfinite(v) else mpmath.inf


def integral_doubling(w: ExactMatrix | Sequence[ExactMatrix], x: ExactMatrix | Sequence[ExactMatrix],
                      congruence: Any, arith: PointArithmetic, *, batch: bool = False,
                      max_doublings: int = 80) -> IntegralResult:
    """∫₀^∞ ``congruence``(e^{Wt}, X) dt in a point arithmetic, from the definition (see the
    comment above: Taylor polynomial + Gauss–Legendre on [0, h], then doubling).

    ``congruence(e, x, mul, tr)`` is the statement's integrand map (W App. A.9 eq. (49):
    e ↦ eᵀxe); ``batch`` (torch) integrates a list of W's of one size at once (h from the largest
    ‖W‖_F). Every operation runs in ``arith``.

    Domain: W and X exact real n×n (n ≥ 1; a nonempty list of them with ``batch``), any W: a
    non-Hurwitz W is handled, not refused — the integral diverges (for X ≻ 0), and the result says
    so with ``status`` "diverged" (‖e^{W 2^j h}‖ passed 1/u) or "undecided" (``max_doublings``
    reached) and ``P`` None; a value is returned only with status "converged". Complex, non-finite,
    non-square, empty or mismatched inputs raise ValueError.
    """
    t0 = time.perf_counter()
    if batch and arith.kind != "torch":
        raise DomainError("integral_doubling: batch=True needs a torch PointArithmetic")
    max_doublings = positive_int(max_doublings, "max_doublings")
    ws = [_square_exact(m, "integral_doubling") for m in (list(w) if batch else [w])]
    xs = [_square_exact(m, "integral_doubling", "X") for m in (list(x) if batch else [x])]
    if not ws or len(xs) != len(ws):
        raise DomainError(f"integral_doubling: {len(ws)} W's and {len(xs)} X's (need as many, ≥ 1)")
    if len({m.nrows() for m in ws + xs}) > 1:
        raise DomainError("integral_doubling: W and X must all be n×n with one n, got sizes "
                          f"{sorted({m.nrows() for m in ws + xs})}")
    w, x = (ws, xs) if batch else (ws[0], xs[0])
    hs = [_step(m)[0] for m in ws]
    h = min(hs)
    u = arith.unit_roundoff
    k_terms = taylor_terms(u)
    nodes = gauss_legendre(k_terms + 1, max(arith.bits, 53) + 32)
    wm = arith.matrix(ws if batch else w, batch=batch)
    xm = arith.matrix(x if not batch else list(x), batch=batch)
    eye = arith.eye_like(wm)
    hs_ = arith.scalar(h)

    def cong(e: Any, y: Any) -> Any:
        return congruence(e, y, arith.mul, arith.tr)

    # C_k = (Wh)^k/k! once; T_K(W·xh) = Σ_k x^k C_k by Horner in the scalar x ∈ [0, 1]
    coeffs = [eye]
    for k in range(1, k_terms + 1):
        coeffs.append(arith.mul(coeffs[-1], wm) * (hs_ / k))

    if arith.kind == "mpmath":
        # The Horner steps below on the entries as mpf numbers: mpmath's matrix·scalar and
        # matrix + matrix compute x·e_ij and c_ij + (x·e)_ij entry by entry, so the values are
        # the same to the last bit; the matrix objects' per-entry indexing cost several times
        # the arithmetic (most of this routine's time at 256 bits)
        size = wm.rows
        flat = [[c[i, j] for i in range(size) for j in range(size)] for c in coeffs]

        def taylor(x: Any) -> Any:
            e = flat[-1]
            for c in reversed(flat[:-1]):
                e = [ci + x * ei for ci, ei in zip(c, e, strict=True)]
            out = arith.ctx.matrix(size, size)
            for k, v in enumerate(e):
                out[k // size, k % size] = v
            return out
    else:
        def taylor(x: Any) -> Any:
            e = coeffs[-1]
            for c in reversed(coeffs[:-1]):
                e = c + e * x
            return e

    s = None
    for node, weight in nodes:
        term = cong(taylor(arith.scalar(node)), xm) * (arith.scalar(weight) * hs_)
        s = term if s is None else s + term
    a = taylor(arith.scalar(Fraction(1)))
    growth = max(mpmath.mpf(1), arith.fro(a))
    # Squaring doubles the relative error of A_j each step, and A_j enters S through C(A_j, S_j):
    # the accumulated relative error is ≲ u·(n + nodes + Σ_j 2^j‖A_j‖_F²) (first order).
    amplification = mpmath.mpf(0)
    status, j = "undecided", 0
    for j in range(1, max_doublings + 1):
        amplification += 2 ** (j - 1) * arith.fro(a) ** 2
        s = s + cong(a, s)
        a = arith.mul(a, a)
        na = arith.fro(a)
        growth = max(growth, na)
        if not mpmath.isfinite(na) or na > 1 / u:
            status = "diverged"
            break
        if na * na <= u / 64:
            status = "converged"
            break
    n = wm.rows if arith.kind == "mpmath" else wm.shape[-1]
    text = (f"Taylor degree {k_terms} + {len(nodes)}-point Gauss–Legendre on [0, {h}], "
            f"{j} doublings, ‖e^(Wt)‖_F ≤ {mpmath.nstr(growth, 3)} met, in {arith.name}")
    amp = n + len(nodes) + amplification
    orc = None
    if status == "converged" and s is not None:
        # the integral solves L_C(P) = −X; its computed value errs by ≲ c·amp·u relatively, so
        # its relative residual is ≲ c·(amp + n)·u (m = amp + n)
        items = list(zip(ws, xs, [s[k] for k in range(len(ws))] if batch else [s], strict=True))
        orc = worst_residual([residual_oracle(wi, xi, pi, unit_roundoff=u, scale=amp + n,
                                              congruence=congruence, what="L_C(P) + X")
                              for wi, xi, pi in items])
    return IntegralResult(s if status == "converged" else None, status, j, len(nodes), growth,
                          amp, arith.name, text=text + f" ({time.perf_counter() - t0:.3f} s)",
                          residual=orc)


def integral_enclosure(w: ExactMatrix, x: ExactMatrix, congruence: Any, *, bits: int = 128,
                       max_doublings: int = 80) -> IntegralResult:
    """A certified enclosure (flint balls) of ∫₀^∞ ``congruence``(e^{Wt}, X) dt, by the algorithm of
    :func:`integral_doubling` with every truncation bounded and added to the balls:

    - Taylor remainder on [0, h]: ‖e^{Wt} − T_K(t)‖_F ≤ δ = θ^{K+1}/((K+1)!(1 − θ)), so the
      integrand differs from the polynomial one by ≤ η = ‖X‖_F·δ·(2√n·e^θ + δ) (the rule is exact
      for the polynomial; its nodes and weights are certified balls);
    - A₀ = e^{Wh} by ball matrix exponential (certified);
    - the tail ∫_T^∞ = C(A_J, P): ‖·‖_F ≤ ‖A_J‖_F²‖S_J‖_F/(1 − ‖A_J‖_F²).
    Divergence is certified when ball eigenvalues prove max Re λ(W) ≥ 0 (with X ≻ 0 the integrand
    along an eigenvector is ≥ λ_min(X)·e^{2 Re λ t}|v|²).

    Domain: W, X exact real n×n, n ≥ 1, ``bits`` ≥ 2, any W: for a non-Hurwitz W the result has
    status "diverged" (certified when ball eigenvalues prove max Re λ ≥ 0) or "undecided", and
    ``P`` None — never a value. Complex, non-finite, non-square, empty or mismatched inputs raise
    ValueError.
    """
    import flint

    t0 = time.perf_counter()
    wq = _square_exact(w, "integral_enclosure")
    xq = _square_exact(x, "integral_enclosure", "X")
    n = wq.nrows()
    if xq.nrows() != n:
        raise DomainError(f"integral_enclosure: X is {xq.nrows()}×{xq.nrows()} but W is {n}×{n}")
    bits = positive_int(bits, "bits", 2)
    max_doublings = positive_int(max_doublings, "max_doublings")
    h, theta = _step(wq)
    u = mpmath.mpf(2) ** (-bits)
    k_terms = taylor_terms(u, theta)
    nodes = gauss_legendre(k_terms + 1, bits + 32)
    fro_up = _fro_upper

    mul = lambda a, b: a * b  # noqa: E731
    tr = lambda a: a.transpose()  # noqa: E731
    with flint.ctx.workprec(bits):
        wa, xa = flint.arb_mat(wq), flint.arb_mat(xq)
        eye = flint.arb_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])
        ha = flint.arb(h.numerator) / h.denominator

        def taylor(tau: Any) -> Any:
            e = eye
            for k in range(k_terms, 0, -1):
                e = eye + (wa * e) * (tau / k)
            return e

        s = flint.arb_mat(n, n)
        for node, weight in nodes:
            s = s + congruence(taylor(node * ha), xa, mul, tr) * (weight * ha)
        th = mpmath.mpf(theta.numerator) / theta.denominator
        delta = th ** (k_terms + 1) / (mpmath.factorial(k_terms + 1) * (1 - th))
        eta = fro_up(xa) * delta * (2 * mpmath.sqrt(n) * mpmath.exp(th) + delta) * \
            mpmath.mpf(h.numerator) / h.denominator
        s = s + _ball_matrix(n, eta)
        a = (wa * ha).exp()
        growth = fro_up(a)
        status, j = "undecided", 0
        for j in range(1, max_doublings + 1):  # noqa: B007
            s = s + congruence(a, s, mul, tr)
            a = a * a
            na = fro_up(a)
            growth = max(growth, na)
            if not mpmath.isfinite(na) or na > 1 / u:
                status = "diverged"
                break
            if na * na <= u / 64:
                status = "converged"
                break
    certified = False
    orc = None
    if status == "converged":
        na2 = na * na
        tail = na2 * fro_up(s) / (1 - na2)
        with flint.ctx.workprec(bits):
            s = s + _ball_matrix(n, tail)
        # a certified enclosure of the integral: L_C of it must contain −X
        orc = residual_oracle(wq, xq, s, congruence=congruence, bits=bits + 64, what="L_C(P) + X")
    else:
        certified = _unstable_certified(wq, bits)
        if certified:
            status = "diverged"
    text = (f"ball arithmetic at {bits} bits: Taylor degree {k_terms} (remainder bounded) + "
            f"{len(nodes)}-point Gauss–Legendre on [0, {h}], {j} doublings, tail bounded"
            + ("; divergence certified by ball eigenvalues (max Re λ(W) ≥ 0)" if certified else ""))
    return IntegralResult(s if status == "converged" else None, status, j, len(nodes), growth,
                          mpmath.mpf(n + len(nodes) + j), f"flint@{bits}", certified,
                          text + f" ({time.perf_counter() - t0:.3f} s)", orc)


def _ball_matrix(n: int, radius: mpmath.mpf) -> Any:
    """The n×n matrix of balls [0 ± radius] (radius rounded upwards)."""
    import flint

    man, exp = (mpmath.mpf(radius) * (1 + mpmath.mpf(2) ** -40)).man_exp  # upwards: mag rounds up
    r = flint.arb(0, flint.arf((int(man), int(exp))))
    return flint.arb_mat(n, n, [r] * (n * n))


def _unstable_certified(wq: Any, bits: int) -> bool:
    """Whether ball eigenvalues prove max Re λ(W) ≥ 0."""
    import flint

    try:
        with flint.ctx.workprec(bits):
            eigs = flint.acb_mat(flint.arb_mat(wq)).eig(multiple=True)
    except ValueError:
        return False
    return any(e.real >= 0 for e in eigs)  # arb comparisons hold for every point of the balls


# ---- one interface ---------------------------------------------------------------------------

def solve(w: ExactMatrix, q: ExactMatrix | None = None,
          backend: AbstractBackend | BackendSpec | str = "numpy") -> Solution:
    """Wᵀ P + P W = −Q (W App. A.9 eq. (48)) in the arithmetic ``backend`` names.

    ``sympy``: exact (ℚ); ``mpmath@B``: Kronecker LU for n ≤ 12, else iterative refinement with an
    mpmath residual; ``flint@B``: certified Kronecker enclosure for n ≤ 12, else refinement with a
    ball residual; ``numpy[:float32]``: SciPy Bartels–Stewart in that precision;
    ``torch:cpu|cuda[:float32]``: sign-function Newton in that precision.

    Domain: that of the solver the backend selects — W, Q exact real n×n, n ≥ 1, any Q, L
    nonsingular; the torch solver also needs W Hurwitz (a non-Hurwitz W raises there: use another
    backend). Every refusal is a ValueError.
    """
    spec = backend.spec if isinstance(backend, AbstractBackend) else (
        parse_spec(backend) if isinstance(backend, str) else backend)
    n = _square_exact(w, "solve").nrows()
    if spec.kind == "sympy":
        return exact(w, q)
    if spec.kind == "mpmath":
        bits = int(spec.bits or 256)
        return (kronecker_mpmath(w, q, bits=bits) if n <= KRONECKER_MAX_N
                else refine(w, q, bits=bits, residual="mpmath"))
    if spec.kind == "flint":
        bits = int(spec.bits or 256)
        return (kronecker_flint(w, q, bits=bits) if n <= KRONECKER_MAX_N
                else refine(w, q, bits=bits, residual="flint"))
    if spec.kind == "numpy":
        return bartels_stewart(w, q, dtype=np.float32 if spec.dtype == "float32" else np.float64)
    if spec.kind == "torch":
        return sign_newton([w], None if q is None else [q], device=spec.device or "cpu",
                           dtype=spec.dtype)
    raise BackendUnavailable(f"no Lyapunov solver for {spec}")
