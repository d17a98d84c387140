"""W.memory-def: the memory function of Def. 3.1 and the decay notions of Def. 3.2, as a query that works
for any functional given as a simulator, checked against W.memory-linear.

One linear functional, ρ(t) = w·Σ c_i e^{−r_i t}, is queried through four wrappings:
:class:`LinearFunctional` (analytic |ρ|₁), a diagonal linear RNN realising ρ, the same ρ through a
non-normal similar RNN (W' = PWP⁻¹), and a user :class:`CallableFunctional` (an exact zero-order-hold
simulator on a Δt grid). For the simulators the query returns a *searched lower bound* (a max over
finitely many inputs): every arithmetic checks that it never exceeds |ρ(t)|₁ beyond the integration
error of the candidates, and that it attains |ρ(t)|₁ within that error (x = sign ρ(t) is a candidate).

Arithmetics: numpy (memory_function, DOP853), torch (the same candidate set by batched RK4, both RNNs
in one batch), mpmath (Taylor integration at the vertices). Def. 3.2 is checked symbolically on
closed-form memories (decaying, exponentially decaying, uniformly decaying families).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.kernels import ExpSumKernel

QUOTE = ("Definition 3.1 (Memory function of nonlinear functional sequences). For continuous, causal, "
         "regular and time-homogeneous functional sequences on , define the following function as the memory "
         "function of over bounded Heaviside input : | (7) | … If the oracle of the target functional is "
         "available, the memory function can be evaluated and the result is named queried memory. … "
         "Definition 3.2 (Decaying memory). … we say it has a decaying memory if: | (8) | We say that has "
         "an exponential decaying memory if for some , | (9) | Furthermore, the family has a uniformly "
         "decaying memory if | (10) |")
# Grid step of the user-supplied simulator (CallableFunctional.dt).
CALLABLE_DT = 1e-2
RK4_DT = 1e-2


def kernel_of_ctx(ctx: Context) -> ExpSumKernel:
    """The claim's exponential-sum kernel (exp-sum so that a finite linear RNN realises it)."""
    k = mm.kernels_of(ctx)[0]
    if not isinstance(k, ExpSumKernel):
        raise ValueError("W.memory-def needs an expsum:… kernel (realisable by a linear RNN)")
    return k


def realisations(ctx: Context) -> dict[str, Any]:
    """name → exact (W, U, c) of the diagonal and the similar (non-normal) realisation."""
    k = kernel_of_ctx(ctx)
    return {"diagonal RNN": mm.realisation(k, similarity=False),
            "non-normal similar RNN": mm.realisation(k, similarity=True)}


def symbolic(ctx: Context) -> list[Evidence]:
    from recmem.theory.memory import decaying_notions_proof, realisation_proof

    t0 = time.perf_counter()
    k = kernel_of_ctx(ctx)
    real = realisation_proof(realisations(ctx), k.coeffs, k.rates, k.weights)
    t1 = time.perf_counter()
    return [from_proof(real, t1 - t0, "symbolic: the RNN wrappings realise ρ"),
            from_proof(decaying_notions_proof(), time.perf_counter() - t1, "symbolic: Def. 3.2 notions")]


class ZeroOrderHoldRNN:
    """A user-style simulator f(t, x) → y: the diagonal linear RNN advanced exactly over each grid step
    for inputs held constant on the step (exact for step inputs whose breakpoints are grid points)."""

    def __init__(self, W: np.ndarray, U: np.ndarray, c: np.ndarray, dt: float) -> None:
        lam = np.diag(W)
        self.phi = np.exp(lam * dt)
        self.gamma = ((self.phi - 1.0) / lam)[:, None] * U
        self.c, self.dt, self.input_dim = c, dt, U.shape[1]

    def __call__(self, t: np.ndarray, x: np.ndarray) -> np.ndarray:
        h = np.zeros(len(self.c))
        y = np.empty(len(t))
        for k in range(len(t)):
            y[k] = self.c @ h
            h = self.phi * h + self.gamma @ x[k]
        return y


def _sup_bound(kernel: ExpSumKernel, n: int, lo: float) -> float:
    """sup_{s ≥ lo} |ρ⁽ⁿ⁾(s)|₁."""
    bound = mm.derivative_bound(kernel, n, max(lo, 0.0), mm.mp_context(64))
    return float(mm.l1_weights(kernel)) * float(bound)


def _compare(name: str, backend: AbstractBackend, lower: np.ndarray, exact: np.ndarray, err: np.ndarray,
             source: str, t0: float, bits: int, data: dict[str, Any]) -> list[Evidence]:
    """Two evidences: the searched value never exceeds |ρ|₁ beyond the error, and attains it."""
    over = float(np.max((lower - exact) / err))
    gap = float(np.max(np.abs(lower - exact) / err))
    return [mm.judged(f"{name}: searched memory ≤ |ρ(t)|₁ + integration error (a lower bound)", backend,
                      over, 1.0, source + " (residual (M_searched − |ρ|₁)/tolerance)", t0, bits=bits,
                      data=data),
            mm.judged(f"{name}: searched memory attains |ρ(t)|₁ (x = sign ρ among the candidates)", backend,
                      gap, 1.0, source + " (residual |M_searched − |ρ|₁|/tolerance)", t0, bits=bits)]


def _numpy(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics.functionals import CallableFunctional, LinearFunctional, RNNFunctional
    from recmem.numerics.memory import memory_function

    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    exact = kernel.l1_norm(times)
    mags = tuple(float(q) for q in ctx["magnitudes"])
    out: list[Evidence] = []
    t0 = time.perf_counter()
    lin = memory_function(LinearFunctional(kernel), times)
    out.append(mm.judged("LinearFunctional: memory_function = |ρ(t)|₁ exactly (analytic, not a search)",
                         backend, float(np.max(np.abs(lin.values - exact))) if not lin.lower_bound else 1.0,
                         0.0, "exact (the analytic path of memory_function)", t0, bits=53,
                         data={"method": lin.method}))
    for name, wuc in realisations(ctx).items():
        t0 = time.perf_counter()
        rnn = mm.rnn_of(*wuc)
        curve = memory_function(RNNFunctional(rnn), times, magnitudes=mags, seed=ctx.seed)
        xs = mm.candidates(rnn.input_dim, mags, ctx.seed)
        _, errs = mm.scipy_rates(rnn, xs, times)
        err = np.max(errs / np.max(np.abs(xs), axis=1)[:, None], axis=0) + 4 * mm.U64 * exact
        out += _compare(f"{name} (DOP853)", backend, curve.values, exact, err,
                        "max over the unrefined candidates of |rate(rtol 1e-12) − rate(rtol 1e-10)|/|x|∞ "
                        "+ 4u|ρ|₁", t0, 53, {"searched": curve.values.tolist(), "|rho|_1": exact.tolist(),
                                             "candidates": curve.candidates, "method": curve.method})
    t0 = time.perf_counter()
    W, U, c = (np.array(a, dtype=float) for a in (
        [[float(v) for v in r] for r in realisations(ctx)["diagonal RNN"][0]],
        [[float(v) for v in r] for r in realisations(ctx)["diagonal RNN"][1]],
        [float(v) for v in realisations(ctx)["diagonal RNN"][2]]))
    sim = ZeroOrderHoldRNN(W, U, c, CALLABLE_DT)
    user = CallableFunctional(sim, "zero-order-hold linear RNN", sim.input_dim, CALLABLE_DT)
    curve = memory_function(user, times, magnitudes=mags, seed=ctx.seed)
    steps = float(times.max()) / CALLABLE_DT + 8
    pairs = zip(kernel.coeffs, kernel.rates, strict=True)
    mass = float(mm.l1_weights(kernel)) * sum(float(abs(ci) / ri) for ci, ri in pairs)
    err = (CALLABLE_DT**6 / 140 * np.array([_sup_bound(kernel, 6, t - 3 * CALLABLE_DT) for t in times])
           + 11 / 6 * steps * 8 * mm.U64 * mass / CALLABLE_DT + 4 * mm.U64 * exact)
    out += _compare("CallableFunctional (user simulator)", backend, curve.values, exact, err,
                    "degree-6 derivative: Δt⁶/140·sup|ρ⁽⁶⁾|₁ + 11/6·(n·8u·∫|ρ|₁)/Δt (simulator rounding) + "
                    "4u|ρ|₁", t0, 53, {"searched": curve.values.tolist(), "method": curve.method})
    return out


def _torch(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    device = mm.torch_device(backend)
    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    exact = kernel.l1_norm(times)
    mags = tuple(float(q) for q in ctx["magnitudes"])
    rnns = [mm.rnn_of(*wuc) for wuc in realisations(ctx).values()]
    xs = mm.candidates(rnns[0].input_dim, mags, ctx.seed)
    rates, errs = mm.torch_rates(rnns, xs, times, RK4_DT, device)
    scale = np.max(np.abs(xs), axis=1)[None, :, None]
    ratio, err_ratio = np.abs(rates) / scale, errs / scale
    out = []
    for i, name in enumerate(realisations(ctx)):
        lower = ratio[i].max(axis=0)
        err = err_ratio[i].max(axis=0) + 4 * mm.U64 * exact
        out += _compare(f"{name} (batched RK4, Δt = {RK4_DT}, {len(xs)} candidates)", backend, lower, exact,
                        err, "max over candidates of |rate(Δt) − rate(2Δt)|/|x|∞ + 4u|ρ|₁", t0, 53,
                        {"searched": lower.tolist(), "device": device})
    return out


def _mpmath(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    bits = min(backend.precision_bits, int(ctx["ode_bits"]))
    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    mp = mm.mp_context(bits)
    exact = [mp.fsum(abs(r) for r in kernel.rho_mp(t, mp)) for t in times]
    d = kernel.input_dim
    # vertices of the cube up to sign (x and −x give the same ratio for a linear functional)
    from recmem.theory.memory import vertices

    verts = np.array([v for v in vertices(d) if v[0] == 1], dtype=float)
    out = []
    # The non-normal realisation only: the diagonal one is the same computation on a simpler W.
    for name, wuc in list(realisations(ctx).items())[1:]:
        rnn = mm.rnn_of(*wuc)
        rates, errs, _ = mm.mp_rates(rnn, verts, times, bits)
        lower = [max(abs(r[i]) for r in rates) for i in range(len(times))]
        err = [max(e[i] for e in errs) + 4 * mp.mpf(2) ** -bits * exact[i] for i in range(len(times))]
        over = max((lo - ex) / er for lo, ex, er in zip(lower, exact, err, strict=True))
        gap = max(abs(lo - ex) / er for lo, ex, er in zip(lower, exact, err, strict=True))
        src = (f"|rate({bits} bits) − rate({bits + mm.MP_EXTRA_BITS} bits)| + 4·2^-{bits}|ρ|₁ "
               "(Taylor series integration)")
        out += [mm.judged(f"{name} (mpmath Taylor, {len(verts)} vertices): memory ≤ |ρ(t)|₁ + error", backend,
                          over, 1, src, t0, bits=bits, data={"memory": mm.fmt_list(lower, 20)}),
                mm.judged(f"{name} (mpmath Taylor): memory attains |ρ(t)|₁", backend, gap, 1, src, t0,
                          bits=bits)]
    return out


def _validate(values: Any) -> str | None:
    import dataclasses

    from recmem.numerics.kernels import parse_kernel

    k = parse_kernel(values["kernels"][0])
    if not isinstance(k, ExpSumKernel):
        return "kernels: the first kernel must be expsum:C…;R… (realisable by a finite linear RNN)"
    k = dataclasses.replace(k, weights=tuple(values["weights"]))
    try:
        for q in (*k.coeffs, *k.rates, *k.weights):
            mm.exact_float(q)
    except ValueError as exc:
        return str(exc)
    return None


CLAIMS = [
    Claim(
        id="W.memory-def",
        title="Memory function query (Def. 3.1) and decaying memory (Def. 3.2)",
        statement="Memory function M(H)(t) := sup_{x≠0} |d/dt H_t(u^x)| / |x|_∞; decaying: lim M = 0; "
                  "exponentially decaying: ∃β>0, lim e^{βt} M = 0; uniformly decaying family: "
                  "lim_t sup_m M(H_m)(t) = 0",
        provenance=Provenance("W", "Def. 3.1 (eq. 7 arXiv), Def. 3.2 (eq. 8–10 arXiv)", QUOTE),
        tolerance="symbolic (realisations, limits); simulators: searched value within the candidates' "
                  "a-posteriori integration error of |ρ(t)|₁ (DOP853 rtol 1e-12 vs 1e-10; RK4 Δt vs 2Δt; "
                  "Taylor P vs P+16 bits); callable: Δt⁶/140·sup|ρ⁽⁶⁾|₁ + rounding/Δt",
        uses=("W.memory-linear",),
        params=(mm.p_kernels("expsum:1,-1/2;1,3"), mm.p_weights("1"), mm.p_times("1/2,1,2,4"),
                mm.p_magnitudes(), mm.p_ode_bits(128)),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": _numpy, "torch": _torch, "mpmath": _mpmath},
                              "no ODE integrator in ball arithmetic (numpy, torch, mpmath run this claim)"),
        validate=_validate,
        notes="For a simulator the query is a lower bound (max over directions × magnitudes with "
              "refinement); the evidence checks it never exceeds the analytic |ρ(t)|₁ beyond the "
              "integration error and that it attains it. A linear functional makes the query exact, "
              "which is what makes this a check of the query itself.",
    ),
]
