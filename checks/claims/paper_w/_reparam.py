"""Helpers shared by W.activations, W.limit-decay, W.reparam and W.rescaling.

1. Point judgements (CLAIMS.md ground rules 2–3) for checks that are not matrix identities:
   a residual that must vanish or a quantity that must be negative. Point arithmetics are judged
   against an error bound derived from the problem; ball arithmetic by enclosure. A failure in
   mpmath becomes a certified refutation only when the caller's recomputation of the failing
   points in ball arithmetic (python-flint, :func:`flint_for`) excludes the claimed value; a
   residual that merely stays put when the precision doubles is a heuristic and stays FAIL. The
   evidence reports the largest value/error-bound ratio as its residual with
   tolerance 1, which rule C2 compares with the controls'.
2. Exact inputs: rational matrices parsed from ``--param`` strings and seeded random draws;
   access to the mpmath context and the torch module of a backend.
3. The matrix functions of W.reparam (§3.4, eq. (16) of the ICLR camera-ready): the statement's
   g(M) as matrix functions and entrywise, with the eigenvalues of g(M), in every arithmetic.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.theory.reparam import StableReparam, certified_eigenvalues

Matrix = list[list[Fraction]]

# Below this many bits no point arithmetic of the project resolves anything (float32 has 24).
MIN_BITS = 8


# ---- 1. point and ball judgements ------------------------------------------------------------------

@dataclass(frozen=True)
class Judged:
    """One judged point: a label, its outcome and the numbers behind it."""

    label: str
    outcome: Outcome
    value: mpmath.mpf | None = None
    bound: mpmath.mpf | None = None
    detail: str = ""


def hp_context(backend: AbstractBackend) -> mpmath.ctx_mp.MPContext:
    """A private mpmath context 32 bits above the backend's precision, for judging its values
    (converting an mpmath value through the global ``mpmath.mpf`` would round it to 53 bits);
    shared per precision (:func:`recmem.numerics.certified.fixed_context`), never changed."""
    return fixed_context(max(backend.precision_bits, 53) + 32)


def real_of(ctx: mpmath.ctx_mp.MPContext, x: Any) -> mpmath.mpf:
    """The real part of a backend scalar (mpmath number, Python/numpy float or complex) in ``ctx``."""
    # every MPContext makes its own mpf/mpc classes; they share these private bases
    if isinstance(x, mpmath.ctx_mp_python._mpc):
        return ctx.mpf(x.real)
    if isinstance(x, mpmath.ctx_mp_python._mpf):
        return ctx.mpf(x)
    return ctx.mpf(complex(x).real)


def mp_ctx(backend: AbstractBackend) -> mpmath.ctx_mp.MPContext:
    """The mpmath context of an mpmath backend (its working precision)."""
    from recmem.numerics.mpmath_backend import MpmathBackend

    if not isinstance(backend, MpmathBackend):
        raise TypeError(f"{backend.name} is not an mpmath backend")
    return backend.ctx


def torch_of(backend: AbstractBackend) -> tuple[Any, Any, Any]:
    """(the torch module, the device, the real dtype) of a torch backend."""
    from recmem.numerics.torch_backend import TorchBackend

    if not isinstance(backend, TorchBackend):
        raise TypeError(f"{backend.name} is not a torch backend")
    return backend.torch, backend.device, backend.rdtype


def require_float64(backend: AbstractBackend) -> None:
    """These checks are written for float64 in numpy/torch (tolerances use the backend's u)."""
    from recmem.numerics.backend import BackendUnavailable

    if backend.spec.kind in ("numpy", "torch") and backend.spec.dtype != "float64":
        raise BackendUnavailable(f"{backend.name}: this check runs in float64 only")


def max_width(bits: int) -> mpmath.mpf:
    """The narrowness demanded of a ball at ``bits`` bits (as in checks.numeric.identity_check)."""
    return tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(bits // 4))


def point_zero(label: str, residual: mpmath.mpf, bound: mpmath.mpf,
               scale: mpmath.mpf | None = None) -> Judged:
    """|residual| ≤ bound passes; a bound ≥ scale/2 (default scale 1) resolves nothing."""
    r = abs(residual)
    scale = mpmath.mpf(1) if scale is None else scale
    if not mpmath.isfinite(bound) or bound >= tol.RESOLVE_LIMIT * scale:
        return Judged(label, Outcome.INCONCLUSIVE, r, bound, "error bound ≥ half the scale")
    return Judged(label, Outcome.PASS if r <= bound else Outcome.FAIL, r, bound)


def point_negative(label: str, value: mpmath.mpf, bound: mpmath.mpf) -> Judged:
    """value < 0 resolved when |value| exceeds its error bound; value > bound is a violation."""
    if value + bound < 0:
        return Judged(label, Outcome.PASS, value, bound)
    if value - bound > 0:
        return Judged(label, Outcome.FAIL, value, bound, "positive beyond its error bound")
    return Judged(label, Outcome.INCONCLUSIVE, value, bound, "within its error bound of 0")


_TINY = mpmath.mpf(2) ** -1000  # floor of an error bound (an exact ball has radius 0)
_BOUNDS_CTX = mpmath.MPContext()
_BOUNDS_CTX.prec = 64  # bounds of balls need few bits; rounding is absorbed by the outward ulps


def arb_bounds(x: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(lower, upper) of an arb as mpmath numbers (outward by a few ulps of the conversion)."""
    from recmem.numerics.flint_backend import arb_to_mpf

    ctx = _BOUNDS_CTX
    mid, rad = arb_to_mpf(x.mid(), ctx), arb_to_mpf(x.rad(), ctx)
    lo, hi = mid - rad, mid + rad
    return lo - abs(lo) * 4 * ctx.eps, hi + abs(hi) * 4 * ctx.eps


def _rad(x: Any) -> mpmath.mpf:
    """An upper bound of an arb's radius (radii need few bits)."""
    from recmem.numerics.flint_backend import arb_to_mpf

    return arb_to_mpf(x.rad(), _BOUNDS_CTX) * (1 + 4 * _BOUNDS_CTX.eps)


def ball_zero(label: str, ball: Any, scale: mpmath.mpf, bits: int) -> Judged:
    """A ball (arb or acb) of a residual: excludes 0 → certified refutation; narrow ∋ 0 → pass."""
    import flint

    b = flint.acb(ball)
    contains = bool(b.contains(0))
    rad = max(_rad(b.real), _rad(b.imag))
    j = tol.enclosure(contains, rad / (scale if scale > 0 else 1), max_width(bits), bits)
    # value: the distance of the midpoint from 0 (what separates a statement from its controls);
    # the radius decides narrowness above
    dist = _mid_abs(b)
    return Judged(label, j.outcome, dist, max_width(bits) * scale,
                  "" if contains else "enclosure excludes 0")


def _mid_abs(b: Any) -> mpmath.mpf:
    """|midpoint| of an acb ball (few bits suffice)."""
    from recmem.numerics.flint_backend import arb_to_mpf

    re, im = arb_to_mpf(b.real.mid(), _BOUNDS_CTX), arb_to_mpf(b.imag.mid(), _BOUNDS_CTX)
    return _BOUNDS_CTX.sqrt(re * re + im * im)


def ball_negative(label: str, ball: Any) -> Judged:
    """A real ball that must be negative: upper < 0 passes, lower > 0 refutes, else undecided."""
    from recmem.numerics.flint_backend import arb_to_mpf

    mid, width = arb_to_mpf(ball.mid(), _BOUNDS_CTX), 2 * _rad(ball)
    if ball < 0:
        return Judged(label, Outcome.PASS, mid, width)
    if ball > 0:
        return Judged(label, Outcome.REFUTE, mid, width, "enclosure lies in (0, ∞)")
    return Judged(label, Outcome.INCONCLUSIVE, mid, width, "enclosure contains 0")


NORMALISED = ("; residual = the largest value/error bound over the points (a zero test passes "
              "when ≤ 1, a sign test when ≤ −1 and fails when > 1), tolerance 1 (one error bound)")


def normalised(j: Judged) -> mpmath.mpf | None:
    """A point's value in units of its error bound: what rule C2 compares between a statement and
    its controls (a control is told apart when it moves this by more than one bound)."""
    if j.value is None or j.bound is None or not mpmath.isfinite(j.bound):
        return None
    return j.value / max(j.bound, _TINY)


def evidence(check: str, backend: AbstractBackend, judged: Sequence[Judged], t0: float, *,
             tolerance_source: str, certify: Callable[[list[str]], str | None] | None = None,
             data: dict[str, Any] | None = None, kind: str = "numeric") -> Evidence:
    """One Evidence summarising judged points (worst outcome wins; see checks.verdict.combine).

    ``certify`` (mpmath only) recomputes the failing points in ball arithmetic and returns a
    certificate text when an enclosure excludes the claimed value, which turns FAIL into a
    certified REFUTE; otherwise (no enclosure excludes it, or python-flint cannot run) the
    outcome stays FAIL, said to be uncertified in the message.
    """
    outcomes = [j.outcome for j in judged]
    # certified failures first: the reported counterexample is then a certified one
    failing = ([j for j in judged if j.outcome is Outcome.REFUTE]
               + [j for j in judged if j.outcome is Outcome.FAIL])
    certified_by = None
    if Outcome.REFUTE in outcomes:
        outcome = Outcome.REFUTE
        certified_by = f"ball arithmetic at {backend.precision_bits} bits: " + failing[0].detail
    elif Outcome.FAIL in outcomes:
        outcome = Outcome.FAIL
        if certify is not None and backend.spec.kind == "mpmath":
            certified_by = certify([j.label for j in failing])
            if certified_by:
                outcome = Outcome.REFUTE
    elif Outcome.INCONCLUSIVE in outcomes:
        outcome = Outcome.INCONCLUSIVE
    elif not judged:
        outcome = Outcome.SKIPPED
    else:
        outcome = Outcome.PASS
    uncertified = outcome is Outcome.FAIL and certify is not None and backend.spec.kind == "mpmath"
    counts = {str(o): outcomes.count(o) for o in set(outcomes)}
    msg = ", ".join(f"{n} {o}" for o, n in sorted(counts.items()))
    worst = failing[0] if failing else next(
        (j for j in judged if j.outcome is Outcome.INCONCLUSIVE), None)
    if worst is not None and outcome is not Outcome.PASS:
        msg += f"; first at {worst.label}" + (f" ({worst.detail})" if worst.detail else "")
    if uncertified:
        msg += "; not certified: no ball enclosure of the failing points excludes the claimed value"
    ce = None
    if failing:
        ce = {"point": failing[0].label, "value": tol.fmt(failing[0].value, 8),
              "error bound": tol.fmt(failing[0].bound), "detail": failing[0].detail}
    ratios = [normalised(j) for j in judged]
    known = [r for r in ratios if r is not None]
    residual = tol.fmt(max(known)) if known else None
    return Evidence(check=check, kind=kind, backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, instances=len(judged),
                    residual=residual, tolerance="1" if residual is not None else None,
                    tolerance_source=tolerance_source + NORMALISED, counterexample=ce,
                    certified_by=certified_by, message=msg, data=data or {},
                    seconds=time.perf_counter() - t0)


def flint_for(bits: int) -> AbstractBackend | None:
    """A python-flint backend at ``bits`` (at least 64) for certifying an mpmath failure in ball
    arithmetic, or None where python-flint cannot run (the failure then stays uncertified)."""
    from recmem.numerics.backend import BackendSpec, BackendUnavailable, make_backend

    try:
        return make_backend(BackendSpec("flint", bits=max(bits, 64)))
    except BackendUnavailable:
        return None


def ball_certificate(backend: AbstractBackend, j: Judged) -> str | None:
    """The certificate text of a point re-judged in ball arithmetic: its enclosure excludes the
    claimed value (outcome REFUTE), or None."""
    if j.outcome is not Outcome.REFUTE:
        return None
    return (f"ball arithmetic (python-flint) at {backend.precision_bits} bits: {j.detail} "
            f"({j.label})")


# ---- 2. exact inputs -----------------------------------------------------------------------------

def parse_matrix(text: str) -> Matrix:
    """A rational matrix from 'a,b;c,d' (rows separated by ';', entries by ',')."""
    rows = [[Fraction(x.strip()) for x in row.split(",")] for row in text.split(";") if row.strip()]
    if not rows or any(len(r) != len(rows) for r in rows):
        raise ValueError(f"need a square matrix 'a,b;c,d', got {text!r}")
    return rows


def show_matrix(m: Matrix) -> str:
    """The inverse of :func:`parse_matrix`."""
    return ";".join(",".join(str(x) for x in row) for row in m)


def random_matrix(rng: random.Random, n: int, bound: int, den: int) -> Matrix:
    """An n×n matrix of rationals p/den in [−bound, bound] (exact, reproducible from ``rng``)."""
    return [[Fraction(rng.randint(-bound * den, bound * den), den) for _ in range(n)]
            for _ in range(n)]


def mp_matrix(ctx: mpmath.ctx_mp.MPContext, m: Matrix) -> Any:
    """An mpmath matrix from exact rationals (each entry correctly rounded)."""
    return ctx.matrix([[ctx.mpf(x.numerator) / x.denominator for x in row] for row in m])


# ---- 3. W.reparam: g(M) and its eigenvalues in every arithmetic ----------------------------------

def eigenvalues(backend: AbstractBackend, law: StableReparam, m: Matrix, which: str) -> list[Any]:
    """Eigenvalues of the statement's g(M) computed in ``backend`` (mpmath mpc, or acb balls for
    flint): the definition the statement's conclusion is judged on.

    matrix reading: g(M) from the backend's matrix exponential (mpmath expm, scipy expm,
    torch.linalg.matrix_exp, flint acb_mat.exp) and the principal logarithm of I + e^M as the
    primary matrix function V·diag(Log μ)·V⁻¹ from the backend's eigen-decomposition of I + e^M
    (a defective M has κ = ∞ and is not judged); flint has no such route, so there softplus, and
    exp when flint cannot isolate the eigenvalues of e^M, go by the spectral mapping theorem on
    certified eigenvalues of M. Entrywise reading: g applied to every entry. Eigenvalues by each
    backend's eigensolver.
    """
    kind = backend.spec.kind
    if kind == "mpmath":
        return _eig_mpmath(backend, law, m, which)
    if kind == "numpy":
        return _eig_numpy(law, m, which)
    if kind == "torch":
        return _eig_torch(backend, law, m, which)
    if kind == "flint":
        return _eig_flint(backend, law, m, which)
    raise ValueError(f"no eigenvalue route for {backend.name}")


def _eig_mpmath(backend: AbstractBackend, law: StableReparam, m: Matrix, which: str) -> list[Any]:
    ctx = mp_ctx(backend)
    a = mp_matrix(ctx, m)
    n = a.rows
    if law.reading == "entrywise":
        g = ctx.matrix(n, n)
        for i in range(n):
            for j in range(n):
                g[i, j] = law.g_scalar(which, a[i, j], ctx.exp, ctx.log)
    else:
        def logm(b: Any) -> Any:
            # V diag(Log μ) V⁻¹ from the eigen-decomposition of the diagonalisable I + e^M
            # (mpmath's logm, inverse scaling and squaring, costs ~50 ms per 3×3 at 256 bits)
            mu, v = ctx.eig(b)
            return v * ctx.diag([ctx.log(x) for x in mu]) * ctx.inverse(v)

        g = law.g_matrix(which, ctx.expm(a), logm, ctx.eye(n))
    return [ctx.mpc(v) for v in ctx.eig(g, left=False, right=False)]


def _eig_numpy(law: StableReparam, m: Matrix, which: str) -> list[Any]:
    import numpy as np
    import scipy.linalg as sl

    a = np.array([[x.numerator / x.denominator for x in row] for row in m], dtype=np.float64)
    if law.reading == "entrywise":
        # log(1 + e^z) as logaddexp(0, z): the same function without overflow of e^z
        g = law.g_scalar(which, a, np.exp, lambda one_plus_e: np.logaddexp(0.0, a))
    else:
        def logm(b: Any) -> Any:
            # V diag(Log μ) V⁻¹ for the diagonalisable I + e^M (scipy's logm costs ~20 ms)
            mu, v = np.linalg.eig(b)
            return v @ np.diag(np.log(mu.astype(complex))) @ np.linalg.inv(v)

        g = law.g_matrix(which, sl.expm(a), logm, np.eye(len(m)))
    return [complex(v) for v in np.linalg.eigvals(g)]


def _eig_torch(backend: AbstractBackend, law: StableReparam, m: Matrix, which: str) -> list[Any]:
    torch, dev, rd = torch_of(backend)
    a = torch.tensor([[x.numerator / x.denominator for x in row] for row in m], dtype=rd, device=dev)
    if law.reading == "entrywise":
        g = law.g_scalar(which, a, torch.exp,
                         lambda one_plus_e: torch.nn.functional.softplus(a))
    else:
        def logm(b: Any) -> Any:
            # no matrix logarithm in torch: V diag(Log μ) V⁻¹ for the diagonalisable I + e^M
            mu, v = torch.linalg.eig(b)
            return v @ torch.diag(torch.log(mu)) @ torch.linalg.inv(v)

        eye = torch.eye(len(m), dtype=rd, device=dev)
        g = law.g_matrix(which, torch.linalg.matrix_exp(a), logm, eye)
    return [complex(x) for x in torch.linalg.eigvals(g).cpu().tolist()]


def _eig_flint(backend: AbstractBackend, law: StableReparam, m: Matrix, which: str) -> list[Any]:
    import flint

    bits = backend.precision_bits
    with flint.ctx.workprec(bits):
        a = flint.acb_mat([[flint.acb(flint.fmpq(x.numerator, x.denominator)) for x in row]
                           for row in m])
        n = len(m)

        def exp(z: Any) -> Any:
            return z.exp()

        def log(z: Any) -> Any:
            return z.log()

        if law.reading == "entrywise":
            g = flint.acb_mat([[law.g_scalar(which, a[i, j], exp, log) for j in range(n)]
                               for i in range(n)])
            return _acb_eig(g)
        if which == "exp":
            out = _acb_eig(law.g_matrix(which, a.exp(), log, None))
            if out:
                return out
        # spectral mapping theorem on certified eigenvalues of M
        roots = certified_eigenvalues(m, bits)
        return [law.g_scalar(which, r, exp, log) for r, mult in roots for _ in range(mult)]


def _acb_eig(g: Any) -> list[Any]:
    """Certified eigenvalue enclosures of a ball matrix, or [] when flint cannot isolate them."""
    try:
        return list(g.eig(multiple=True))
    except ValueError:
        return []


def kappa_data(law: StableReparam, m: Matrix, which: str,
               bits: int = 128) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(κ₂(V), S) at high precision for the error bound of eigenvalues of g(M) in floats.

    V: unit-column eigenvector matrix of g(M) (that of M for the matrix reading: g(M) shares M's
    eigenvectors). S bounds ‖δg(M)‖/u for a backward-stable evaluation: ‖g(M)‖ for entrywise g;
    for matrix functions ‖g(M)‖₂ + ‖M‖₂·κ₂(V)²·max|g[λ_i, λ_j]| (Daleckiĭ–Kreĭn bound on the
    Fréchet derivative of a diagonalisable M, divided differences through g′ on segments).
    Eigenvalues of g(M) then move by at most c·n·u·κ₂(V)·S (Bauer–Fike). Defective M: κ = ∞.
    """
    ctx = fixed_context(bits)
    a = mp_matrix(ctx, m)
    n = a.rows
    if law.reading == "entrywise":
        g = ctx.matrix(n, n)
        for i in range(n):
            for j in range(n):
                g[i, j] = law.g_scalar(which, a[i, j], ctx.exp, ctx.log)
        lam, v = ctx.eig(g)
    else:
        lam, v = ctx.eig(a)
        g = None
    for j in range(n):
        col = ctx.sqrt(ctx.fsum(abs(v[i, j]) ** 2 for i in range(n)))
        for i in range(n):
            v[i, j] /= col
    s = ctx.svd_c(v, compute_uv=False)
    kappa = s[0] / s[n - 1] if s[n - 1] > ctx.mpf(2) ** (-bits // 2) else ctx.inf
    if law.reading == "entrywise":
        return kappa, ctx.mnorm(g, "f")
    if not ctx.isfinite(kappa):
        return kappa, ctx.inf
    gl = [law.g_scalar(which, x, ctx.exp, ctx.log) for x in lam]
    g_norm = max(abs(x) for x in gl) * kappa
    dd = mpmath.mpf(0)
    for x in lam:
        for y in lam:
            for k in range(9):
                w = x + (y - x) * ctx.mpf(k) / 8
                # |g′(w)|: e^w (exp), or e^w/(1 + e^w) (softplus), whatever the sign of g
                d = ctx.exp(w) if which == "exp" else ctx.exp(w) / (1 + ctx.exp(w))
                dd = max(dd, abs(d))
    m_norm = ctx.mnorm(a, "f")  # Frobenius ≥ ‖M‖₂
    return kappa, g_norm + m_norm * kappa**2 * dd
