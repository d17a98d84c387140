"""What the paper-W memory claims share: parameters, exact instances, the arithmetic → engine mapping,
derivative bounds of the kernels, the step of finite differences, RNN integrations with a posteriori
error estimates, and a memo table for the pure simulations that a statement and its negative
controls both need (:func:`memo`).

Arithmetic → engine (W.memory-*, W.rnn-*): ``numpy`` → SciPy (quad, DOP853, expm); ``mpmath@P`` →
mpmath quad/odefun/expm in a private context at P bits; ``torch:cpu``/``torch:cuda`` → batched RK4
(:func:`recmem.numerics.ode.response_torch`) and ``torch.linalg.matrix_exp`` in float64; ``flint@P``
→ ball arithmetic (``acb.integral``, ``arb_mat.exp``) where a check has a certified form.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

import mpmath
import numpy as np

from recmem.checks.claim import Context, Param, parse_fraction
from recmem.checks.tolerance import RESOLVE_LIMIT
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.certified import fixed_context
from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel, Kernel, PolynomialKernel, parse_kernel
from recmem.numerics.rnn import RNN

ENGINES = {"numpy": "scipy", "mpmath": "mpmath", "torch": "torch", "flint": "flint"}
# Magnitudes |x|_∞ searched by the claims' memory queries (the package default spans 2^-10…2^6;
# three magnitudes keep a claim within its time budget; --param magnitudes=… widens the search).
MAGNITUDES = (2.0**-3, 1.0, 2.0**3)
# Float64 unit roundoff.
U64 = 2.0**-53


# ---- parameters --------------------------------------------------------------------------------

class Rationals(tuple[Fraction, ...]):
    """A parameter value: exact rationals, shown as they are typed (``1/2,1,2``)."""

    def __repr__(self) -> str:
        return ",".join(str(q) for q in self)


class Specs(tuple[str, ...]):
    """A parameter value: kernel specs, shown as they are typed (space-separated)."""

    def __repr__(self) -> str:
        return " ".join(self)


def parse_rationals(text: str) -> Rationals:
    """``'1/2,1,2'`` → (1/2, 1, 2)."""
    vals = Rationals(parse_fraction(v.strip()) for v in text.split(",") if v.strip())
    if not vals:
        raise ValueError("expected a comma-separated list of rationals")
    return vals


def parse_kernels(text: str) -> Specs:
    """Kernel specs separated by spaces or '|' (each checked by :func:`parse_kernel`)."""
    specs = Specs(v for v in text.replace("|", " ").split() if v)
    for spec in specs:
        parse_kernel(spec)
    if not specs:
        raise ValueError("expected at least one kernel (exp:A, poly:P, expsum:C…;R…)")
    return specs


def positive_times(v: tuple[Fraction, ...]) -> str | None:
    return None if all(q > 0 for q in v) else "times must be positive"


def p_times(default: str, help: str = "times t at which the memory is checked") -> Param:
    return Param("times", parse_rationals(default), help, parse_rationals, check=positive_times)


def p_kernels(default: str) -> Param:
    return Param("kernels", parse_kernels(default), "memory kernels ρ = w·k (exp:A, poly:P, expsum:C…;R…)",
                 parse_kernels)


def p_weights(default: str) -> Param:
    return Param("weights", parse_rationals(default), "weight vector w of ρ = w·k (d = its length)",
                 parse_rationals, check=lambda w: None if any(w) else "weights must not all vanish")


def p_magnitudes() -> Param:
    return Param("magnitudes", Rationals(Fraction(m) for m in MAGNITUDES),
                 "input magnitudes |x|_∞ of the memory search", parse_rationals,
                 check=lambda v: None if all(q > 0 for q in v) else "magnitudes must be positive")


def p_ode_bits(default: int = 128) -> Param:
    return Param("ode_bits", default, "cap on the precision of mpmath's Taylor integrator (bits)", int,
                 check=lambda v: None if v >= 53 else "need at least 53 bits", max=65536)


def kernels_of(ctx: Context) -> list[Kernel]:
    """The claim's kernels with the weight vector applied."""
    w = tuple(ctx["weights"])
    # every concrete Kernel is a dataclass (the abstract base is not, hence the cast)
    return [dataclasses.replace(cast(Any, parse_kernel(s)), weights=w) for s in ctx["kernels"]]


def times_of(ctx: Context) -> np.ndarray:
    return np.array([float(q) for q in ctx["times"]])


def engine(backend: AbstractBackend) -> str:
    """The numerical engine that stands for ``backend``'s arithmetic in these claims."""
    return ENGINES[backend.spec.kind]


def unavailable(backend: AbstractBackend, reason: str) -> BackendUnavailable:
    return BackendUnavailable(f"{backend.name}: {reason}")


def mp_context(bits: int) -> Any:
    """A private mpmath context (the global precision is never touched), shared per precision
    (:func:`recmem.numerics.certified.fixed_context`): never change its precision."""
    return fixed_context(bits)


def torch_device(backend: AbstractBackend) -> str:
    """The torch device of a torch backend; BackendUnavailable for CUDA without a GPU."""
    import torch

    dev = backend.spec.device or "cpu"
    if dev == "cuda" and not torch.cuda.is_available():
        raise BackendUnavailable("torch:cuda: no CUDA device")
    return dev


NumericSide = Callable[[AbstractBackend, Context], list[Evidence]]


def small_torch(side: NumericSide) -> NumericSide:
    """``side`` (a numeric side) run on one torch intra-op thread when its arithmetic is torch on a
    CPU (:func:`recmem.checks.claims.paper_o._common.small_matrices`; other arithmetics as they
    are). Paper W's torch work is batches of tiny matrices (widths ≤ 8, grids of ≤ 400 steps) and
    small trainings: a second thread only adds synchronisation, which made W.theorem's batched
    RK4 study 3–10× slower in CPU time on a loaded 2-core machine (measured)."""
    from functools import wraps

    from recmem.checks.claims.paper_o._common import small_matrices

    @wraps(side)
    def run(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        with small_matrices(backend):
            return side(backend, ctx)

    return run


# ---- kernel derivatives ------------------------------------------------------------------------

def _q(ctx: Any, q: Fraction) -> Any:
    return ctx.mpf(q.numerator) / q.denominator


def profile_derivative(kernel: Kernel, n: int, t: Any, ctx: Any) -> Any:
    """k^{(n)}(t) of the scalar profile, in closed form at ``ctx``'s precision."""
    t = ctx.mpf(t)
    if isinstance(kernel, ExponentialKernel):
        la = ctx.log(_q(ctx, kernel.base))
        return la**n * ctx.exp(la * t)
    if isinstance(kernel, PolynomialKernel):
        p = _q(ctx, kernel.exponent)
        fall = ctx.fprod(-p - j for j in range(n)) if n else ctx.one
        return fall * (t + 1) ** (-p - n)
    if isinstance(kernel, ExpSumKernel):
        return ctx.fsum(_q(ctx, c) * (-_q(ctx, r)) ** n * ctx.exp(-_q(ctx, r) * t)
                        for c, r in zip(kernel.coeffs, kernel.rates, strict=True))
    raise ValueError(f"no closed-form derivatives for {kernel.description}")


def derivative_bound(kernel: Kernel, n: int, lo: float, ctx: Any) -> Any:
    """An upper bound of sup_{s ≥ lo} |k^{(n)}(s)| (every term of these profiles decreases in |·|)."""
    lo = ctx.mpf(lo)
    if isinstance(kernel, ExpSumKernel):
        return ctx.fsum(abs(_q(ctx, c)) * _q(ctx, r) ** n * ctx.exp(-_q(ctx, r) * lo)
                        for c, r in zip(kernel.coeffs, kernel.rates, strict=True))
    return abs(profile_derivative(kernel, n, lo, ctx))


def l1_weights(kernel: Kernel) -> Fraction:
    """|w|₁ of the kernel's weight vector (ρ = w·k)."""
    return sum((abs(w) for w in kernel.weights), Fraction(0))


def abs_integral_bound(kernel: Kernel, a: Any, b: Any, ctx: Any) -> Any:
    """An upper bound of ∫_a^b |k(s)| ds (b may be ``ctx.inf``), from the closed forms; used only to
    scale rounding-error bounds of quadratures (never as a check's result)."""
    a = ctx.mpf(a)
    if isinstance(kernel, ExponentialKernel):
        base = _q(ctx, kernel.base)
        top = 0 if b == ctx.inf else ctx.power(base, b)
        return (ctx.power(base, a) - top) / ctx.log(1 / base)
    if isinstance(kernel, PolynomialKernel):
        p = _q(ctx, kernel.exponent)
        top = 0 if b == ctx.inf else ctx.power(b + 1, 1 - p)
        return (ctx.power(a + 1, 1 - p) - top) / (p - 1)
    if isinstance(kernel, ExpSumKernel):
        return ctx.fsum(abs(_q(ctx, c)) / _q(ctx, r) * (ctx.exp(-_q(ctx, r) * a)
                                                         - (0 if b == ctx.inf else ctx.exp(-_q(ctx, r) * b)))
                        for c, r in zip(kernel.coeffs, kernel.rates, strict=True))
    raise ValueError(f"no closed-form L¹ bound for {kernel.description}")


# ---- kernels in ball arithmetic (python-flint) --------------------------------------------------

def _fq(q: Fraction) -> Any:
    import flint

    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def flint_integrand(kernel: Kernel) -> Callable[[Any, bool], Any]:
    """k as an ``acb.integral`` integrand (the polynomial profile checks its branch cut)."""
    if isinstance(kernel, ExponentialKernel):
        la = _fq(kernel.base).log()
        return lambda x, analytic: (x * la).exp()
    if isinstance(kernel, PolynomialKernel):
        import flint

        p = flint.acb(_fq(kernel.exponent))
        return lambda x, analytic: (x + 1).pow(-p, analytic=analytic)
    if isinstance(kernel, ExpSumKernel):
        terms = [(_fq(c), _fq(r)) for c, r in zip(kernel.coeffs, kernel.rates, strict=True)]

        def f(x: Any, analytic: bool) -> Any:
            out = 0 * x
            for c, r in terms:
                out += c * (-r * x).exp()
            return out
        return f
    raise ValueError(f"no ball-arithmetic form for {kernel.description}")


def flint_derivative(kernel: Kernel, n: int, t: Any) -> Any:
    """k^{(n)}(t) as an ``arb`` (t an arb, possibly a wide ball: then an enclosure of the range)."""
    if isinstance(kernel, ExponentialKernel):
        la = _fq(kernel.base).log()
        return la**n * (la * t).exp()
    if isinstance(kernel, PolynomialKernel):
        p = _fq(kernel.exponent)
        fall = _fq(Fraction(1))
        for j in range(n):
            fall *= -p - j
        return fall * (t + 1) ** (-p - n)
    if isinstance(kernel, ExpSumKernel):
        out = 0 * t
        for c, r in zip(kernel.coeffs, kernel.rates, strict=True):
            out += _fq(c) * (-_fq(r)) ** n * (-_fq(r) * t).exp()
        return out
    raise ValueError(f"no closed-form derivatives for {kernel.description}")


# ---- finite differences ------------------------------------------------------------------------

def power_of_two_step(noise: float, bound: float, order: int, noise_gain: float, trunc: float) -> float:
    """The step 2^k minimising trunc·h^order·bound + noise_gain·noise/h (nearest power of two)."""
    if bound <= 0 or noise <= 0:
        return 2.0**-6
    h = (noise_gain * noise / (order * trunc * bound)) ** (1.0 / (order + 1))
    return 2.0 ** round(math.log2(h))


# ---- exact instances ---------------------------------------------------------------------------

def realisation(kernel: ExpSumKernel, similarity: bool) -> tuple[list[list[Fraction]], list[list[Fraction]],
                                                                  list[Fraction]]:
    """An exact linear RNN with cᵀe^{Wt}U = ρ(t)ᵀ for ρ = w·Σ c_i e^{−r_i t} (W §2).

    Diagonal: W = −diag(r), U = 1wᵀ, c = (c_i). With ``similarity`` the same functional through
    W' = PWP⁻¹, U' = PU, c' = P⁻ᵀc for the unit bidiagonal P with ½ above the diagonal (non-normal W').
    """
    m = len(kernel.rates)
    w = list(kernel.weights)
    W = [[-kernel.rates[i] if i == j else Fraction(0) for j in range(m)] for i in range(m)]
    U = [[wj for wj in w] for _ in range(m)]
    c = list(kernel.coeffs)
    if not similarity:
        return W, U, c
    P = [[Fraction(1) if i == j else (Fraction(1, 2) if j == i + 1 else Fraction(0)) for j in range(m)]
         for i in range(m)]
    Pinv = _unit_upper_inverse(P)
    W2 = _mm(_mm(P, W), Pinv)
    U2 = _mm(P, U)
    c2 = [sum((Pinv[j][i] * c[j] for j in range(m)), Fraction(0)) for i in range(m)]  # P⁻ᵀ c
    return W2, U2, c2


def _mm(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    return [[sum((a[i][k] * b[k][j] for k in range(len(b))), Fraction(0)) for j in range(len(b[0]))]
            for i in range(len(a))]


def _unit_upper_inverse(p: list[list[Fraction]]) -> list[list[Fraction]]:
    m = len(p)
    inv = [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]
    for col in range(m):
        for i in range(m - 1, -1, -1):
            inv[i][col] = Fraction(int(i == col)) - sum((p[i][k] * inv[k][col] for k in range(i + 1, m)),
                                                        Fraction(0))
    return inv


def exact_float(q: Fraction) -> float:
    """q as a float64, which must be exact (dyadic with a short significand)."""
    f = float(q)
    if Fraction(f) != q:
        raise ValueError(f"{q} is not exactly representable in float64; choose dyadic parameters")
    return f


def rnn_of(W: Sequence[Sequence[Fraction]], U: Sequence[Sequence[Fraction]], c: Sequence[Fraction],
           sigma: str = "identity") -> RNN:
    """The float64 RNN of exact parameters (b = 0); every entry converts exactly."""
    return RNN.build([[exact_float(v) for v in r] for r in W], [[exact_float(v) for v in r] for r in U],
                     None, [exact_float(v) for v in c], sigma)


def charpoly(w: Sequence[Sequence[Fraction]]) -> list[Fraction]:
    """Monic characteristic polynomial coefficients (highest first) by Faddeev–LeVerrier, exactly."""
    m = len(w)
    coeffs = [Fraction(1)]
    M = [[Fraction(0)] * m for _ in range(m)]
    for k in range(1, m + 1):
        prev = coeffs[-1]
        M = [[sum((w[i][j2] * M[j2][j] for j2 in range(m)), Fraction(0)) + (prev if i == j else 0)
              for j in range(m)] for i in range(m)]
        AM = [[sum((w[i][j2] * M[j2][j] for j2 in range(m)), Fraction(0)) for j in range(m)]
              for i in range(m)]
        coeffs.append(-sum((AM[i][i] for i in range(m)), Fraction(0)) / k)
    return coeffs


def routh_hurwitz(p: Sequence[Fraction]) -> bool:
    """All roots of the monic real polynomial p (degree ≤ 3) in the open left half-plane."""
    if len(p) == 2:
        return p[1] > 0
    if len(p) == 3:
        return p[1] > 0 and p[2] > 0
    if len(p) == 4:
        return p[1] > 0 and p[3] > 0 and p[1] * p[2] > p[3]
    raise ValueError("Routh–Hurwitz implemented for degree ≤ 3")


def hurwitz_draw(seed: int, m: int = 3, d: int = 2, den: int = 4, bound: int = 2
                 ) -> tuple[list[list[Fraction]], list[list[Fraction]], list[Fraction]]:
    """A seeded exact non-normal Hurwitz (W, U, c): W = −I + N with N's entries in (1/den)ℤ ∩
    [−bound, bound], redrawn until Routh–Hurwitz holds and W is not normal (W Wᵀ ≠ WᵀW)."""
    rng = np.random.default_rng(seed)

    def q() -> Fraction:
        return Fraction(int(rng.integers(-bound * den, bound * den + 1)), den)

    while True:
        W = [[q() - (1 if i == j else 0) for j in range(m)] for i in range(m)]
        WWt = _mm(W, [list(r) for r in zip(*W, strict=True)])
        WtW = _mm([list(r) for r in zip(*W, strict=True)], W)
        if routh_hurwitz(charpoly(W)) and WWt != WtW:
            U = [[q() for _ in range(d)] for _ in range(m)]
            c = [q() for _ in range(m)]
            if any(any(r) for r in U) and any(c):
                return W, U, c


# ---- RNN responses with a posteriori error estimates -------------------------------------------

def scipy_rates(rnn: RNN, xs: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rates dŷ/dt for each input height in ``xs`` (B, d) at DOP853 rtol 1e-12, and an error estimate:
    the distance to a run at rtol 1e-10 (atol 100× larger), which bounds the tight run's error when
    the loose run is at least twice as wrong (tolerance proportionality of error-controlled RK)."""
    from recmem.numerics.signals import heaviside

    tight = np.array([dop853_rate(rnn, heaviside(x), t) for x in xs])
    loose = np.array([dop853_rate(rnn, heaviside(x), t, 1e-10, 1e-12) for x in xs])
    return tight, np.abs(tight - loose)


def dop853_rate(rnn: RNN, signal: Any, t: np.ndarray, rtol: float = 1e-12, atol: float = 1e-14) -> np.ndarray:
    """dŷ/dt of :func:`recmem.numerics.ode.response_scipy`, memoised (a pure function of the RNN, the
    step input, the times and the tolerances): the package's memory query and the error estimate of
    the same candidates share one integration."""
    from recmem.numerics.ode import response_scipy

    key = ("dop853", rnn_key(rnn), signal, tuple(np.asarray(t, dtype=float)), rtol, atol)
    return memo(key, lambda: response_scipy(rnn, signal, t, rtol=rtol, atol=atol)[1])


def memo_functional(rnn: RNN) -> Any:
    """The package's :class:`RNNFunctional` with its rate served by :func:`dop853_rate` (the same
    DOP853 integration at rtol 1e-12, memoised)."""
    from recmem.numerics.functionals import RNNFunctional

    class _Memoised(RNNFunctional):
        def rate(self, signal: Any, t: np.ndarray) -> np.ndarray:
            return dop853_rate(self.rnn, signal, t)

    return _Memoised(rnn)


def torch_rates(rnns: Sequence[RNN], xs: np.ndarray, t: np.ndarray, dt: float, device: str
                ) -> tuple[np.ndarray, np.ndarray]:
    """Rates (len(rnns), B, len(t)) by batched RK4 over parameter sets × inputs, and an error estimate
    |y_Δt − y_2Δt| (bounds the error at Δt for any method of order ≥ 1 once err(2Δt) ≥ 2 err(Δt))."""
    import torch

    from recmem.numerics.ode import response_torch

    sig = rnns[0].sigma.torch
    m = rnns[0].hidden
    if any(r.hidden != m or r.sigma.name != rnns[0].sigma.name for r in rnns):
        raise ValueError("batched RK4 needs RNNs of one width and one activation")
    B = len(xs)
    W = torch.tensor(np.repeat(np.stack([r.W for r in rnns]), B, axis=0), dtype=torch.float64, device=device)
    U = torch.tensor(np.repeat(np.stack([r.U for r in rnns]), B, axis=0), dtype=torch.float64, device=device)
    b = torch.tensor(np.repeat(np.stack([r.b for r in rnns]), B, axis=0), dtype=torch.float64, device=device)
    c = torch.tensor(np.repeat(np.stack([r.c for r in rnns]), B, axis=0), dtype=torch.float64, device=device)
    X = torch.tensor(np.tile(xs, (len(rnns), 1)), dtype=torch.float64, device=device)
    fine = response_torch(W, U, b, c, sig, X, t, dt=dt)[1].cpu().numpy()
    coarse = response_torch(W, U, b, c, sig, X, t, dt=2 * dt)[1].cpu().numpy()
    shape = (len(rnns), B, len(t))
    return fine.reshape(shape), np.abs(fine - coarse).reshape(shape)


# Extra bits of the second Taylor run whose distance estimates the first run's error.
MP_EXTRA_BITS = 16


def mp_rates_pair(rnn: RNN, xs: np.ndarray, t: np.ndarray, bits: int
                  ) -> tuple[list[list[Any]], list[list[Any]]]:
    """Rates by mpmath's Taylor integrator at ``bits`` and at bits + 16 (MP_EXTRA_BITS), each a list
    per input of a list per time."""
    from recmem.numerics.ode import response_mpmath
    from recmem.numerics.signals import heaviside

    def compute() -> tuple[list[list[Any]], list[list[Any]]]:
        lo, hi = mp_context(bits), mp_context(bits + MP_EXTRA_BITS)
        return ([response_mpmath(rnn, heaviside(x), t, lo)[1] for x in xs],
                [response_mpmath(rnn, heaviside(x), t, hi)[1] for x in xs])

    return memo(("mp_rates_pair", rnn_key(rnn), xs.tobytes(), tuple(t), bits), compute)


def candidates(d: int, magnitudes: Sequence[float], seed: int, norm: str = "inf") -> np.ndarray:
    """The memory search's inputs: the directions of :func:`recmem.numerics.memory.directions` on
    the unit sphere of ``norm`` × ``magnitudes`` (unrefined)."""
    from recmem.numerics.memory import directions

    return np.array([r * v for v in directions(d, seed, norm=norm) for r in magnitudes])


def x_norms(xs: np.ndarray, norm: str = "inf") -> np.ndarray:
    """|x|_p of each row (p = ∞ or 1)."""
    return np.max(np.abs(xs), axis=1) if norm == "inf" else np.sum(np.abs(xs), axis=1)


# Inputs of the scalar saturation example: powers of two around the maximisers x = t + 1.
SCALAR_MAGS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)


def scalar_hardtanh_rnn() -> RNN:
    """h′ = hardtanh(−h + x), ŷ = h (w = −1, u = c = 1, b = 0): the saturation example of
    W.rnn-decaying.corrected and W.theorem.rnn-step, whose memory is ≥ 1/(t + 1)."""
    return rnn_of([[Fraction(-1)]], [[Fraction(1)]], [Fraction(1)], "hardtanh")


# How searched_curve_numpy bounds its integration error (for tolerance_source).
DOP853_ERROR = "DOP853: max over candidates of |rate(rtol 1e-12) − rate(rtol 1e-10)|/|x|∞"


def searched_curve_numpy(rnn: RNN, mags: tuple[float, ...], seed: int, times: np.ndarray,
                         norm: str = "inf", offset: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(searched memory sup_x |d/dt H_t(u^x)|/(|x|_p + offset) by the package's memory_function,
    error bound over the candidates) by DOP853 (memoised: a pure function of its arguments)."""
    from recmem.numerics.memory import memory_function

    def compute() -> tuple[np.ndarray, np.ndarray]:
        curve = memory_function(memo_functional(rnn), times, magnitudes=mags, refine_rounds=0, seed=seed,
                                norm=norm, offset=offset)
        xs = candidates(rnn.input_dim, mags, seed, norm)
        _, errs = scipy_rates(rnn, xs, times)
        return curve.values, np.max(errs / (x_norms(xs, norm) + offset)[:, None], axis=0)

    return memo(("searched_curve_numpy", rnn_key(rnn), mags, seed, tuple(times), norm, offset),
                compute)


def searched_curve_torch(rnn: RNN, mags: tuple[float, ...], seed: int, times: np.ndarray, device: str,
                         dt: float, norm: str = "inf", offset: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(max over candidates of the ratio, error bound) by batched RK4 (Δt vs 2Δt)."""
    xs = candidates(rnn.input_dim, mags, seed, norm)
    rates, errs = memo(("torch_rates", rnn_key(rnn), xs.tobytes(), tuple(times), dt, device),
                       lambda: torch_rates([rnn], xs, times, dt, device))
    scale = (x_norms(xs, norm) + offset)[:, None]
    return np.max(np.abs(rates[0]) / scale, axis=0), np.max(errs[0] / scale, axis=0)


# ---- memoised simulations -----------------------------------------------------------------------

_MEMO: dict[Any, Any] = {}
MEMO_SIZE = 4096


def memo(key: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, remembered under ``key`` (a bounded process-wide table).

    Only for pure functions of the key — simulations of a given RNN on given inputs at a given
    tolerance — never for anything that reads the statement under test: a negative control that asks
    for the same simulation gets the same numbers it would compute again, and its own comparison
    with its own right-hand side."""
    if key not in _MEMO:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.pop(next(iter(_MEMO)))
        _MEMO[key] = compute()
    return _MEMO[key]


def rnn_key(rnn: RNN) -> tuple[Any, ...]:
    """A hashable identity of an RNN's parameters and activation."""
    return (rnn.W.tobytes(), rnn.W.shape, rnn.U.tobytes(), rnn.U.shape, rnn.b.tobytes(), rnn.c.tobytes(),
            rnn.sigma.name)


# ---- evidence ----------------------------------------------------------------------------------

def unresolved_points(errors: Any, scale: Any) -> int:
    """How many points' error bounds (an integrator's error estimate and the rounding added to it)
    exceed half the quantity they measure (``scale``, e.g. |rhs|): there the integration does not
    resolve the answer, so agreement within the bound says nothing (issue 19)."""
    return int(np.sum(~(np.asarray(errors, dtype=float)
                        <= float(RESOLVE_LIMIT) * np.abs(np.asarray(scale, dtype=float)))))


def judged(check: str, backend: AbstractBackend, residual: float | Any, tolerance: float | Any,
           source: str, t0: float, *, bits: int | None = None, message: str = "",
           data: dict[str, Any] | None = None, instances: int = 1,
           fail_outcome: Outcome = Outcome.FAIL, unresolved: int = 0) -> Evidence:
    """PASS when residual ≤ tolerance, else ``fail_outcome`` (FAIL: not certified); a pass with
    ``unresolved`` > 0 points (:func:`unresolved_points`: integration error bounds that do not
    resolve the right-hand side) is INCONCLUSIVE."""
    ok = bool(residual <= tolerance)
    outcome = Outcome.PASS if ok else fail_outcome
    if ok and unresolved:
        outcome = Outcome.INCONCLUSIVE
        note = (f"{unresolved} point(s) unresolved: the integration error bound exceeds half the "
                "right-hand side")
        message = f"{message}; {note}" if message else note
    return Evidence(check=check, kind="numeric", backend=backend.name,
                    outcome=outcome,
                    precision_bits=bits if bits is not None else backend.precision_bits,
                    instances=instances, residual=_s(residual), tolerance=_s(tolerance),
                    tolerance_source=source, message=message, seconds=time.perf_counter() - t0,
                    data=data or {})


def _s(x: Any) -> str:
    return mpmath.nstr(mpmath.mpf(x), 3) if not isinstance(x, str) else x


def fmt_list(values: Sequence[Any], digits: int = 6) -> list[str]:
    return [mpmath.nstr(mpmath.mpf(v), digits) for v in values]



# ---- matrix exponentials in each arithmetic ----------------------------------------------------

def _wt(w: Sequence[Sequence[Fraction]], t: Fraction) -> list[list[Fraction]]:
    return [[v * t for v in row] for row in w]


def expm_point(backend: AbstractBackend, w: Sequence[Sequence[Fraction]], t: Fraction, mp: Any) -> Any:
    """e^{Wt} computed in ``backend``'s arithmetic (scipy / torch float64 / mpmath at P bits), returned
    as an mpmath matrix in ``mp`` (exact conversion of the computed entries; memoised per arithmetic,
    W and t: a pure function)."""
    key = ("expm_point", backend.name, tuple(map(tuple, w)), t, mp.prec)
    return memo(key, lambda: _expm_point(backend, w, t, mp))


def _expm_point(backend: AbstractBackend, w: Sequence[Sequence[Fraction]], t: Fraction, mp: Any) -> Any:
    a = _wt(w, t)
    kind = backend.spec.kind
    if kind == "numpy":
        import scipy.linalg

        e = scipy.linalg.expm(np.array([[exact_float(v) for v in r] for r in a]))
        return mp.matrix([[mp.mpf(float(v)) for v in r] for r in e])
    if kind == "torch":
        import torch

        x = torch.tensor([[exact_float(v) for v in r] for r in a], dtype=torch.float64,
                         device=torch_device(backend))
        e = torch.linalg.matrix_exp(x).cpu().numpy()
        return mp.matrix([[mp.mpf(float(v)) for v in r] for r in e])
    if kind == "mpmath":
        ctx = mp_context(backend.precision_bits)
        e = ctx.expm(ctx.matrix([[ctx.mpf(v.numerator) / v.denominator for v in r] for r in a]))
        return mp.matrix([[mp.mpf(e[i, j]) for j in range(e.cols)] for i in range(e.rows)])
    raise BackendUnavailable(f"{backend.name}: no point matrix exponential")


def expm_reference(w: Sequence[Sequence[Fraction]], t: Fraction, bits: int) -> Any:
    """e^{Wt} at ``bits`` (a reference for lower-precision computations)."""
    ctx = mp_context(bits)
    return ctx.expm(ctx.matrix([[ctx.mpf(v.numerator) / v.denominator for v in r] for r in _wt(w, t)]))


def expm_ball(w: Sequence[Sequence[Fraction]], t: Fraction) -> Any:
    """e^{Wt} as an ``arb_mat`` enclosure at the current flint precision."""
    import flint

    return flint.arb_mat([[flint.fmpq(v.numerator, v.denominator) for v in r] for r in _wt(w, t)]).exp()


def expm_kappa(w: Sequence[Sequence[Fraction]], t: Fraction) -> Any:
    """An error-amplification factor for a computed e^A, A = Wt, in floating point:
    (‖A‖₂ + 2^s)·e^{‖A‖₂}/‖e^A‖₂. The first term bounds κ_exp(A) = ‖L(A)‖‖A‖/‖e^A‖ through
    ‖L(A)‖ ≤ e^{‖A‖} (Higham, Functions of Matrices, Lemma 10.15); the second covers rounding in s
    squarings (s = ⌈log₂(‖A‖₁/θ₁₃)⌉⁺, θ₁₃ = 5.37, the scaling of Higham 2005), whose forward error grows
    like 2^s·e^{‖A‖} (§10.3). An a-priori bound: loose for non-normal W and large t, never optimistic.
    Evaluated at 64 bits (it needs few correct bits); memoised."""
    return memo(("expm_kappa", tuple(map(tuple, w)), t), lambda: _expm_kappa(w, t))


def _expm_kappa(w: Sequence[Sequence[Fraction]], t: Fraction) -> Any:
    ctx = mp_context(64)
    a = ctx.matrix([[ctx.mpf(v.numerator) / v.denominator for v in r] for r in _wt(w, t)])
    n2 = max(ctx.svd_r(a, compute_uv=False))
    e2 = max(ctx.svd_r(ctx.expm(a), compute_uv=False))
    n1 = ctx.mnorm(a, 1)
    s = max(0, int(ctx.ceil(ctx.log(n1 / ctx.mpf("5.37"), 2)))) if n1 > 0 else 0
    return (n2 + 2**s) * ctx.exp(n2) / e2


def kernel_l1(e: Any, u: Sequence[Sequence[Fraction]], c: Sequence[Fraction], mp: Any) -> Any:
    """|cᵀ E U|₁ in ``mp`` for an mpmath matrix E."""
    m, d = len(c), len(u[0])
    row = [mp.fsum(mq(mp, c[i]) * e[i, k] for i in range(m)) for k in range(m)]
    return mp.fsum(abs(mp.fsum(row[k] * mq(mp, u[k][j]) for k in range(m))) for j in range(d))


def mq(mp: Any, q: Fraction) -> Any:
    """The rational q in the mpmath context ``mp`` (correctly rounded)."""
    return mp.mpf(q.numerator) / q.denominator
