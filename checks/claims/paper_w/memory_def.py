"""W.memory-def: Def. 3.1's memory function (W §3.1, eq. (5) of the ICLR 2024 camera-ready), queried
from a black box, is "compatible with the memory definition in the linear functionals" (§3): for a
linear functional realised by a simulator, sup_{x≠0} |d/dt H_t(u^x)|/|x|_∞ = |ρ(t)|₁ — and two
findings where the printed definitions disagree with themselves.

``W.memory-def``: :class:`~recmem.theory.memory_linear.LinearMemory` with ``realisation='simulator'``.
One linear functional ρ(t) = w·Σ c_i e^{−r_i t} (d = 2) is queried through three black boxes: a
diagonal linear RNN realising ρ, the same ρ through a non-normal similar RNN (W' = PWP⁻¹), and a
user :class:`CallableFunctional` (an exact zero-order-hold simulator on a Δt grid). The query is the
package's :func:`~recmem.numerics.memory.memory_function` (directions on the unit sphere of the
statement's norm × magnitudes, a lower bound of the sup) — the code under test — and its value is
compared with the statement's norm of ρ(t) from the closed form. That the simulators realise ρ
exactly is checked symbolically (cᵀe^{Wt}U = ρ(t)ᵀ) as a harness check: it tests recmem's
realisations, not the statement, so its failure is ERROR and its pass no evidence. Arithmetics:
numpy (DOP853 through memory_function), torch (the same candidates by batched RK4), mpmath (Taylor
integration at the extreme points of the unit ball).

``W.memory-def.normalisation`` (finding): Def. 3.1 divides by |x|_∞, the proofs of Thm 3.9 by
|x|_∞ + 1 (App. A.8 eq. (43), A.9 eq. (67)); for the scalar hardtanh RNN these memories are
1/(t + 1) and 1/(t + 2).

``W.memory-def.pointwise`` (finding): "decaying for all Heaviside inputs" (§3.1, after Def. 3.1)
vs Def. 3.2's lim_t sup_x (eq. (6)); the scalar sin RNN decays exponentially for every input while
M(T) ≥ 1/π for every T.
"""

from __future__ import annotations

import functools
import math
import time
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _linear_memory as lm
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_harness_proof, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.numerics.kernels import ExpSumKernel
from recmem.theory.memory_defs import DecayReading, Normalisation
from recmem.theory.memory_linear import LinearMemory

QUOTE = (r"Definition 3.1 (Memory function of nonlinear functional sequences). For continuous, causal, "
         r"regular and time-homogeneous functional sequences $\mathbf{H} = \{H_t(\mathbf{x}) : t \in "
         r"\mathbb{R}\}$ on $\mathcal{X}$ , define the following function as the memory function of "
         r"$\mathbf{H}$ over bounded Heaviside input $\mathbf{u}^x$ : $$\mathcal {M} (\mathbf {H}) (t) "
         r":= \sup _ {x \neq 0} \frac {1}{| x | _ {\infty}} \left| \frac {d}{d t} H _ {t} \left("
         r"\mathbf {u} ^ {x}\right) \right|. \tag {5}$$ In particular, in this paper we consider "
         r"nonlinear functionals whose memory function is finite for all t. … If the oracle of the "
         r"target functional is available, the memory function can be evaluated and the result is "
         r"named queried memory.")
QUOTE_COMPAT = (r"We first give a definition of memory function for nonlinear functionals. It is "
                r"compatible with the memory definition in the linear functionals and it can be "
                r"queried and verified in applications.")
QUOTE_DEF32 = (r"If the queried memory are decaying for all Heaviside inputs, then we say the "
               r"corresponding nonlinear functional sequence has a decaying memory. … Definition 3.2 "
               r"(Decaying memory). For continuous, causal, regular and time-homogeneous functional "
               r"sequences $\mathbf{H} = \{H_t(\mathbf{x}) : t \in \mathbb{R}\}$ on $\mathcal{X}$ , we "
               r"say it has a decaying memory if: $$\lim _ {t \rightarrow \infty} \mathcal {M} "
               r"(\mathbf {H}) (t) = 0. \tag {6}$$ We say that H has an exponential decaying memory if "
               r"for some $\beta > 0$ , $$\lim _ {t \to \infty} e ^ {\beta t} \mathcal {M} (\mathbf {H}) "
               r"(t) = 0. \tag {7}$$ Furthermore, the family $\{\mathbf{H}_m\}$ has a uniformly "
               r"decaying memory if $$\lim _ {t \to \infty} \sup _ {m} \mathcal {M} (\mathbf {H} _ {m}) "
               r"(t) = 0. \tag {8}$$")
QUOTE_43 = (r"Therefore, there exists constants $C_{0} := \max(\sup_{m} |c_{m}|_{2} \cdot "
            r"Z_{0}e^{\beta_{0}T_{\epsilon}}, C')$ such that for any m, $$\mathcal {M} (\widehat "
            r"{\mathbf {H}} _ {m}) (t) = \sup _ {x \neq 0} \frac {1}{| x | _ {\infty} + 1} \left| "
            r"\frac {d}{d t} y _ {m, t} \right| = \left| c _ {m} ^ {\top} v _ {m, t} \right| \leq C _ "
            r"{0} e ^ {- \beta_ {0} t}, \quad t \geq 0. \tag {43}$$")
QUOTE_67 = (r"$$\sup _ {m} \mathcal {M} (\widehat {\mathbf {H}} _ {m}) (t) = \sup _ {m} \sup _ {x \neq "
            r"0} \frac {\left| \frac {d}{d t} \widehat {H} _ {m , t} \left(\mathbf {u} ^ {x}\right) "
            r"\right|}{| x | _ {\infty} + 1} \leq C _ {0} C _ {1} e ^ {- (1 - L) \beta_ {0} (t - T _ "
            r"{\epsilon})}. \tag {67}$$")
# Grid step of the user-supplied simulator (CallableFunctional.dt), and of torch's RK4.
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
    """The statement decided symbolically, and a harness check of the simulators' exactness
    (cᵀe^{Wt}U = ρ(t)ᵀ): that one checks recmem's realisations, not the statement, so it is kind
    ``harness`` (its failure is ERROR, its pass no evidence for the claim)."""
    from recmem.theory.memory import realisation_proof
    from recmem.theory.memory_linear import linear_memory_proof

    t0 = time.perf_counter()
    k = kernel_of_ctx(ctx)
    # a pure function of the kernel (not of the statement under test): memoised
    real = mm.memo(("realisation proof", k), lambda: realisation_proof(realisations(ctx), k.coeffs, k.rates,
                                                                        k.weights))
    t1 = time.perf_counter()
    return [from_harness_proof(real, t1 - t0, "harness: the RNN simulators realise ρ"),
            from_proof(linear_memory_proof(ctx.law(LinearMemory)), time.perf_counter() - t1)]


class ZeroOrderHoldRNN:
    """A user-style simulator f(t, x) → y: the diagonal linear RNN advanced exactly over each grid step
    for inputs held constant on the step (exact for step inputs whose breakpoints are grid points)."""

    def __init__(self, W: np.ndarray, U: np.ndarray, c: np.ndarray, dt: float) -> None:
        lam = np.diag(W)
        self.phi = np.exp(lam * dt)
        self.gamma = ((self.phi - 1.0) / lam)[:, None] * U
        self.c, self.dt, self.input_dim = c, dt, U.shape[1]

    def __call__(self, t: np.ndarray, x: np.ndarray) -> np.ndarray:
        from scipy.signal import lfilter

        # h_{k+1} = φ⊙h_k + Γx_k from h_0 = 0, one first-order filter per state, y_k = cᵀh_k
        drive = x @ self.gamma.T  # (len(t), m)
        states = [lfilter([1.0], [1.0, -p], drive[:-1, i]) for i, p in enumerate(self.phi)]
        h = np.vstack([np.zeros(len(self.c)), np.column_stack(states)])
        return np.asarray(h @ self.c)


def _rhs(law: LinearMemory, kernel: ExpSumKernel, times: np.ndarray) -> np.ndarray:
    """The statement's right-hand side at each time, in float64 from the kernel's closed form."""
    return np.array([law.rhs(list(kernel.rho(np.array([t]))[0]), absolute=abs, maximum=max,
                             number=float) for t in times])


def _sup_bound(kernel: ExpSumKernel, n: int, lo: float) -> float:
    """sup_{s ≥ lo} |ρ⁽ⁿ⁾(s)|₁."""
    bound = mm.derivative_bound(kernel, n, max(lo, 0.0), mm.mp_context(64))
    return float(mm.l1_weights(kernel)) * float(bound)


def _compare(name: str, backend: AbstractBackend, searched: np.ndarray, rhs: np.ndarray, err: np.ndarray,
             source: str, t0: float, data: dict[str, Any]) -> Evidence:
    """The searched memory (a lower bound, attained at an extreme point among the candidates)
    against the right-hand side; residual max |searched − rhs|/error."""
    ratio = np.abs(searched - rhs) / err
    worst = float(np.max(ratio))
    # the integrators' error estimates are the run-time oracle of the searched values: a point
    # whose bound exceeds half the right-hand side is unresolved, and a pass there says nothing
    return mm.judged(f"{name}: queried memory (package memory_function) vs the right-hand side", backend,
                     worst, 1.0, source + " (residual |M_searched − rhs|/error)", t0, bits=53,
                     data={**data, "searched": searched.tolist(), "rhs": rhs.tolist()},
                     unresolved=mm.unresolved_points(err, rhs),
                     message="" if worst <= 1 else
                     f"at t = {data['t'][int(np.argmax(ratio))]} the queried memory "
                     f"{searched[int(np.argmax(ratio))]:.6g} ≠ {rhs[int(np.argmax(ratio))]:.6g}")


def _float64_only(backend: AbstractBackend) -> None:
    if backend.spec.dtype != "float64":
        raise mm.unavailable(backend, "the simulators (DOP853, RK4 error estimates) run in float64 only")


def _numpy(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics.functionals import CallableFunctional
    from recmem.numerics.memory import memory_function

    _float64_only(backend)
    law = ctx.law(LinearMemory)
    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    rhs = _rhs(law, kernel, times)
    mags = tuple(float(q) for q in ctx["magnitudes"])
    out: list[Evidence] = []
    for name, wuc in realisations(ctx).items():
        t0 = time.perf_counter()
        rnn = mm.rnn_of(*wuc)
        searched, err = mm.searched_curve_numpy(rnn, mags, ctx.seed, times, law.x_norm)
        out.append(_compare(f"{name} (DOP853)", backend, searched, rhs, err + 16 * mm.U64 * np.abs(rhs),
                            "max over the candidates of |rate(rtol 1e-12) − rate(rtol 1e-10)|/|x|_p + "
                            "16u|rhs|", t0, {"t": times.tolist()}))
    t0 = time.perf_counter()
    W, U, c = (np.array(a, dtype=float) for a in realisations(ctx)["diagonal RNN"])
    sim = ZeroOrderHoldRNN(W, U, c, CALLABLE_DT)
    user = CallableFunctional(sim, "zero-order-hold linear RNN", sim.input_dim, CALLABLE_DT)
    key = ("zoh", W.tobytes(), U.tobytes(), c.tobytes(), tuple(times), mags, ctx.seed, law.x_norm)
    curve = mm.memo(key, lambda: memory_function(user, times, magnitudes=mags, seed=ctx.seed,
                                                 refine_rounds=0, norm=law.x_norm))
    steps = float(times.max()) / CALLABLE_DT + 8
    mass = float(mm.l1_weights(kernel)) * sum(float(abs(ci) / ri) for ci, ri in
                                              zip(kernel.coeffs, kernel.rates, strict=True))
    # degree-6 interpolating derivative: Δt⁶/140·sup|ρ⁽⁶⁾|₁ truncation, 11/6·(simulator rounding)/Δt
    err = (CALLABLE_DT**6 / 140 * np.array([_sup_bound(kernel, 6, t - 3 * CALLABLE_DT) for t in times])
           + 11 / 6 * steps * 8 * mm.U64 * mass / CALLABLE_DT + 16 * mm.U64 * np.abs(rhs))
    out.append(_compare("CallableFunctional (user simulator)", backend, curve.values, rhs, err,
                        "degree-6 derivative: Δt⁶/140·sup|ρ⁽⁶⁾|₁ + 11/6·(n·8u·∫|ρ|₁)/Δt (simulator rounding) "
                        "+ 16u|rhs|", t0, {"t": times.tolist(), "method": curve.method}))
    return out


@mm.small_torch
def _torch(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    _float64_only(backend)
    t0 = time.perf_counter()
    law = ctx.law(LinearMemory)
    device = mm.torch_device(backend)
    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    rhs = _rhs(law, kernel, times)
    mags = tuple(float(q) for q in ctx["magnitudes"])
    rnns = [mm.rnn_of(*wuc) for wuc in realisations(ctx).values()]
    xs = mm.candidates(rnns[0].input_dim, mags, ctx.seed, law.x_norm)
    rates, errs = mm.memo(("memory-def torch", tuple(mm.rnn_key(r) for r in rnns), xs.tobytes(), tuple(times),
                           device), lambda: mm.torch_rates(rnns, xs, times, RK4_DT, device))
    scale = mm.x_norms(xs, law.x_norm)[None, :, None]
    ratio, err_ratio = np.abs(rates) / scale, errs / scale
    out = []
    for i, name in enumerate(realisations(ctx)):
        searched = ratio[i].max(axis=0)
        err = err_ratio[i].max(axis=0) + 16 * mm.U64 * np.abs(rhs)
        out.append(_compare(f"{name} (batched RK4, Δt = {RK4_DT}, {len(xs)} candidates)", backend, searched,
                            rhs, err, "max over candidates of |rate(Δt) − rate(2Δt)|/|x|_p + 16u|rhs|", t0,
                            {"t": times.tolist(), "device": device}))
    return out


def _mpmath(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Taylor-series integration of the non-normal RNN at the extreme points of the unit ball (the
    candidates where a linear query attains its sup), at min(P, ode_bits) and 16 more bits."""
    t0 = time.perf_counter()
    law = ctx.law(LinearMemory)
    bits = min(backend.precision_bits, int(ctx["ode_bits"]))
    times = mm.times_of(ctx)
    kernel = kernel_of_ctx(ctx)
    lo_ctx, hi_ctx = mm.mp_context(bits), mm.mp_context(bits + mm.MP_EXTRA_BITS)
    points = law.extreme_points(kernel.input_dim)
    rnn = mm.rnn_of(*realisations(ctx)["non-normal similar RNN"])
    rates, rates_hi = mm.mp_rates_pair(rnn, np.array(points, dtype=float), times, bits)

    def sides(mp: Any, rs: list[list[Any]], i: int) -> tuple[Any, Any]:
        lhs = law.lhs([r[i] for r in rs], points, absolute=abs, maximum=max)
        rhs = law.rhs(kernel.rho_mp(times[i], mp), absolute=abs, maximum=max,
                      number=lambda q: mm.mq(mp, q))
        return lhs, rhs

    worst, outcome, rows, message = 0.0, Outcome.PASS, [], ""
    for i, t in enumerate(times):
        lhs, rhs = sides(lo_ctx, rates, i)
        lhs_hi, rhs_hi = sides(hi_ctx, rates_hi, i)
        err = abs(lhs - lhs_hi) + 16 * lo_ctx.mpf(2) ** -bits * abs(rhs)
        res = abs(lhs - rhs)
        rows.append({"t": float(t), "lhs": lo_ctx.nstr(lhs, 15), "rhs": lo_ctx.nstr(rhs, 15),
                     "error": lo_ctx.nstr(err, 3)})
        worst = max(worst, float(res / err))
        if res <= err:
            continue
        outcome = Outcome.FAIL
        res_hi = abs(lhs_hi - rhs_hi)
        # a discrepancy that stays put as the precision rises (an artifact of the working precision
        # would shrink by ~2^16) is a heuristic, not an enclosure: the outcome stays an
        # uncertified FAIL, and the message says which it is
        stays = res_hi > res / 2
        message = (f"at t = {float(t)}: queried memory {rows[-1]['lhs']} vs right-hand side "
                   f"{rows[-1]['rhs']}; " + (
                       f"heuristic, not certified: the discrepancy stays put as precision rises "
                       f"({lo_ctx.nstr(res, 3)} at {bits} bits, {hi_ctx.nstr(res_hi, 3)} at "
                       f"{bits + mm.MP_EXTRA_BITS} bits)" if stays else
                       "the discrepancy shrinks as precision rises (working-precision artifact?)"))
        break
    src = (f"|M({bits} bits) − M({bits + mm.MP_EXTRA_BITS} bits)| + 16·2^-{bits}|rhs| (Taylor series "
           "integration); residual |lhs − rhs|/error")
    return [Evidence(check="non-normal similar RNN (mpmath Taylor at the extreme points): queried memory vs "
                           "the right-hand side", kind="numeric", backend=backend.name, outcome=outcome,
                     precision_bits=bits, instances=len(rows), residual=lo_ctx.nstr(worst, 3), tolerance="1",
                     tolerance_source=src, message=message,
                     seconds=time.perf_counter() - t0, data={"points": rows})]


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


# ---- W.memory-def.normalisation ----------------------------------------------------------------

NORM_TIMES = np.array([0.0, 1.0, 3.0, 7.0, 15.0, 31.0])


def normalisation_symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided on the scalar hardtanh RNN (theory.memory_defs.normalisation_proof)."""
    from recmem.theory.memory_defs import normalisation_proof

    t0 = time.perf_counter()
    return [from_proof(normalisation_proof(ctx.law(Normalisation)), time.perf_counter() - t0)]


@mm.small_torch
def normalisation_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The package's query of the scalar hardtanh RNN with each normalisation (searched lower bounds,
    DOP853 or RK4), compared with each other: the statement says they coincide."""
    law = ctx.law(Normalisation)
    kind = backend.spec.kind
    if kind not in ("numpy", "torch"):
        raise mm.unavailable(backend, "hardtanh is not analytic (no Taylor integration) and there is no "
                                      "ODE solver in ball arithmetic; the difference is exact (symbolic "
                                      "side)")
    _float64_only(backend)
    t0 = time.perf_counter()
    rnn = mm.scalar_hardtanh_rnn()
    curves = []
    for offset in (law.a, law.b):
        if kind == "numpy":
            curves.append(mm.searched_curve_numpy(rnn, mm.SCALAR_MAGS, ctx.seed, NORM_TIMES,
                                                  offset=float(offset)))
        else:
            curves.append(mm.searched_curve_torch(rnn, mm.SCALAR_MAGS, ctx.seed, NORM_TIMES,
                                                  mm.torch_device(backend), RK4_DT, offset=float(offset)))
    (m_a, e_a), (m_b, e_b) = curves
    err = e_a + e_b + 16 * mm.U64
    worst = float(np.max(np.abs(m_a - m_b) / err))
    return [mm.judged("scalar hardtanh RNN (w = −1): the queried memory with each normalisation", backend,
                      worst, 1.0, ("DOP853" if kind == "numpy" else "RK4") + " a-posteriori errors of both "
                      "searched curves + 16u (residual |M_a − M_b|/error)", t0, bits=53,
                      data={"t": NORM_TIMES.tolist(), f"offset {law.a}": m_a.tolist(),
                            f"offset {law.b}": m_b.tolist()},
                      message="" if worst <= 1 else "the two normalisations give different memories")]


def normalisation_strategy(ctx: Context) -> Any:
    """Scalar hardtanh RNNs h' = hardtanh(wh + ux), ŷ = ch (hardtanh ∈ 𝒜₀): w ∈ [−2, −1/4], u, c ∈
    [1/4, 2] (nonzero), t ∈ {0, 1/2, …, 4}."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    pos = fractions_in(Fraction(1, 4), 2, 4)
    return st.tuples(pos.map(lambda v: -v), pos, pos, st.sampled_from([Fraction(k, 2) for k in range(9)]))


def normalisation_holds(instance: Any, ctx: Context) -> Instance:
    """Exact judge: the closed-form memories of one scalar hardtanh RNN under both normalisations."""
    from recmem.theory.memory_defs import hardtanh_memory

    law = ctx.law(Normalisation)
    w, u, c, t = instance
    m_a, m_b = (hardtanh_memory(w, u, c, o, t) for o in (law.a, law.b))
    return Instance(m_a == m_b, "exact rational arithmetic: M_o(t) = |cu|/(|w|t + 1 + o|u|) (the exact "
                    "memory of the scalar hardtanh RNN, theory.memory_defs)",
                    {"w": str(w), "u": str(u), "c": str(c), "t": str(t),
                     f"M with |x| + {law.a}": str(m_a), f"M with |x| + {law.b}": str(m_b)},
                    "" if m_a == m_b else "the two normalisations differ")


# ---- W.memory-def.pointwise --------------------------------------------------------------------

SIN_TIMES = (1.0, 2.0, 4.0, 8.0)
SIN_GRID = (*SIN_TIMES, 16.0, 24.0)
SIN_BITS = 53  # most bits the mpmath side integrates the sin RNN with (its cost grows fast)


def pointwise_symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided with the exact sin witness (theory.memory_defs.decay_reading_proof)."""
    from recmem.theory.memory_defs import decay_reading_proof

    t0 = time.perf_counter()
    return [from_proof(decay_reading_proof(ctx.law(DecayReading)), time.perf_counter() - t0)]


@functools.lru_cache(maxsize=64)
def _sin_rates(kind: str, bits: int, x: float) -> tuple[tuple[float, ...], float]:
    """d/dt ŷ = sin(x − h) on SIN_GRID for h' = sin(x − h), ŷ = h, from rest (the definition),
    integrated in the arithmetic ``kind``, and a bound on its error: DOP853 (SciPy, float64) at
    rtol 1e-12 vs 1e-10, or mpmath's Taylor-series ODE solver at ``bits`` vs 10 bits more. A
    pure function of its arguments, so the statement and its controls share the integrations."""
    times = np.array(SIN_GRID)
    if kind == "numpy":
        from scipy.integrate import solve_ivp

        def rate(rtol: float) -> np.ndarray:
            sol = solve_ivp(lambda _, h: np.sin(x - h), (0.0, float(times.max())), [0.0],
                            method="DOP853", t_eval=times, rtol=rtol, atol=rtol * 1e-2)
            return np.asarray(np.sin(x - sol.y[0]))

        tight, loose = rate(1e-12), rate(1e-10)
        return tuple(tight), float(np.max(np.abs(tight - loose))) + 16 * mm.U64

    def rate_mp(prec: int) -> np.ndarray:
        ctx = fixed_context(prec)
        xm = ctx.mpf(x)
        h = ctx.odefun(lambda _, y: ctx.sin(xm - y), 0, ctx.mpf(0))
        return np.array([float(ctx.sin(xm - h(float(t)))) for t in times])

    coarse, fine = rate_mp(bits), rate_mp(bits + 10)
    return tuple(fine), float(np.max(np.abs(coarse - fine))) + 4 * 2.0 ** -bits


def pointwise_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The sin RNN integrated in ``backend`` (SciPy DOP853 or mpmath's Taylor solver): every tested
    input's rate falls like e^{−t} (the premise, for inputs of every size), while the input
    x_T = 2 atan(e^T) has |rate(T)|/|x_T| ≥ 1/π at every T (so sup_x does not decay: neither (6)
    nor (7))."""
    law = ctx.law(DecayReading)
    if backend.spec.kind not in ("numpy", "mpmath"):
        raise mm.unavailable(backend, "the sin RNN is integrated by SciPy or mpmath (its exact "
                                      "solution is the symbolic side)")
    if backend.spec.kind == "numpy":
        _float64_only(backend)
    t0 = time.perf_counter()
    # the comparison with 1/π needs a few digits: the Taylor solver runs at ≤ 53 bits (its cost
    # grows fast with precision) and its error is measured against 10 bits more
    kind, bits = backend.spec.kind, min(backend.precision_bits, SIN_BITS)
    peaks, decays = [], []
    for big_t in SIN_TIMES:
        x = 2 * math.atan(math.exp(big_t))
        tight, err = _sin_rates(kind, bits, x)
        i = SIN_GRID.index(big_t)
        peaks.append((float(abs(tight[i]) / x), err / x))
        # premise, on the inputs it concerns (|x| ≤ x_max when the statement bounds them): the rate
        # at t = 24 is below e^(−7) times its value at t = 16 (exponential decay at rate ≈ 1)
        x_p = x if law.x_max is None else min(x, float(law.x_max))
        p_tight = tight if x_p == x else _sin_rates(kind, bits, x_p)[0]
        decays.append(bool(abs(p_tight[-1]) <= abs(p_tight[-2]) * math.exp(-7) + err))
    floor = 1 / math.pi
    low = min(p - e for p, e in peaks)
    stays = bool(low >= floor - 1e-12 and all(decays))
    method = "DOP853" if backend.spec.kind == "numpy" else "mpmath Taylor"
    return [Evidence(check="sin RNN: each input decays like e^(−t), yet |d/dt H_T(u^(x_T))|/|x_T| "
                           "at t = T for x_T = 2 atan(e^T)", kind="numeric", backend=backend.name,
                     outcome=Outcome.FAIL if stays else Outcome.INCONCLUSIVE,
                     precision_bits=(53 if backend.spec.kind == "numpy"
                                     else min(backend.precision_bits, SIN_BITS)),
                     residual=f"{low:.6g}", tolerance=f"{floor:.6g}",
                     tolerance_source=f"{method}, error from two accuracies; the implication fails "
                     "when every tested input decays while min_T |rate(T)|/|x_T| − error stays ≥ 1/π "
                     "(residual: that minimum)",
                     message=f"M(T) ≥ {low:.4f} ≥ 1/π at T = {list(SIN_TIMES)} while every tested input "
                             "decays" if stays else "the witness was not reproduced",
                     seconds=time.perf_counter() - t0,
                     data={"T": list(SIN_TIMES), "|rate(T)|/|x_T| (value, error)": peaks,
                           "each input decays": decays})]


def pointwise_strategy(ctx: Context) -> Any:
    """Scalar RNNs h' = σ(wh + ux), ŷ = ch with σ ∈ {sin, hardtanh}, w ∈ [−2, −1/4], u, c ∈ [1/4, 2]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    pos = fractions_in(Fraction(1, 4), 2, 4)
    return st.tuples(st.sampled_from(["hardtanh", "sin"]), pos.map(lambda v: -v), pos, pos)


def pointwise_holds(instance: Any, ctx: Context) -> Instance:
    """Exact: both witnesses satisfy the premise for every input (each input's rate decays
    exponentially: after saturation e^{−|w|(t−t₀)} for hardtanh; tan(z/2) = tan(z₀/2)e^{−|w|t} for
    sin). hardtanh: M(t) = cu/(|w|t + 1) → 0, not exponentially; sin: M(T) ≥ cu/π at every T."""
    law = ctx.law(DecayReading)
    sigma, w, u, c = instance
    values = {"σ": sigma, "w": str(w), "u": str(u), "c": str(c)}
    if sigma == "sin":
        return Instance(False, "exact: the input with tan(ux/2) = e^(|w|T) has |cσ(z(T))|/|x| = "
                        "cu/(ux) > cu/π",
                        {**values, "M(T)": f"≥ {c * u}/π for every T"},
                        "every input decays exponentially, the sup over x does not decay")
    ok = law.notion == "decaying"
    return Instance(ok, "exact: M(t) = cu/(|w|t + 1) (theory.memory_defs.hardtanh_memory)",
                    {**values, "M(t)": f"{c * u}/({-w}t + 1)"},
                    "" if ok else "every input decays exponentially, M(t) only like 1/t")


# ---- claims ------------------------------------------------------------------------------------

CLAIMS = [
    Claim(
        id="W.memory-def",
        summary="the memory query of a functional given as a black box agrees with eq. (4)",
        title="Memory function query (Def. 3.1) of a linear functional given as a black box",
        statement=LinearMemory(inputs=("heaviside",), realisation="simulator"),
        provenance=Provenance("W", "§3 (introduction); Def. 3.1, eq. (5); §3.1 eq. (4)",
                              QUOTE_COMPAT + " … " + QUOTE),
        tolerance="symbolic (realisations, SymPy derivation); simulators: the searched value within the "
                  "candidates' a-posteriori integration error of the right-hand side (DOP853 rtol 1e-12 vs "
                  "1e-10; RK4 Δt vs 2Δt; Taylor P vs P+16 bits); callable: Δt⁶/140·sup|ρ⁽⁶⁾|₁ + rounding/Δt",
        uses=("W.memory-linear",),
        params=(mm.p_kernels("expsum:1,-1/2;1,3"), mm.p_weights("1,-1/2"), mm.p_times("1/2,1,2,4"),
                mm.p_magnitudes(), mm.p_ode_bits(64)),
        symbolic=symbolic,
        numeric=by_arithmetic({"numpy": _numpy, "torch": _torch, "mpmath": _mpmath},
                              "no ODE integrator in ball arithmetic (numpy, torch, mpmath run this claim)"),
        strategy=lm.strategy,
        holds=lm.holds,
        validate=_validate,
        notes="The query is recmem's memory_function (directions × magnitudes, refined), a lower bound "
              "for a black box; for a linear functional the sup is attained at an extreme point of the "
              "unit ball, which the candidates contain, so the query must reach the right-hand side. "
              "The weights default to (1, −1/2) (d = 2; with d = 1 the norms of x and of ρ(t) coincide "
              "and the negative controls would be true). Def. 3.1's 'over bounded Heaviside input' is "
              "read as every x ≠ 0 (every Heaviside input is bounded; the formula bounds no x); for a linear "
              "functional the reading |x|_∞ ≤ B gives the same sup (the ratio is scale-invariant), so it "
              "is no separate claim; recmem memory --max-input gives the bounded-input reading. Def. 3.2's "
              "notions enter "
              "W.memory-def.pointwise and the RNN claims. Def. 3.1 also assumes memory functions that "
              "are finite for all t.",
    ),
    Claim(
        id="W.memory-def.normalisation",
        summary="finding: Def. 3.1 divides by |x|∞, the proofs (43), (67) by |x|∞ + 1; the scalar "
                "hardtanh RNN has 1/(t+1) vs 1/(t+2)",
        title="Def. 3.1's |x|_∞ and the proofs' |x|_∞ + 1 give the same memory function",
        statement=Normalisation(),
        provenance=Provenance("W", "Def. 3.1 eq. (5); App. A.8 eq. (43); App. A.9 eq. (67)",
                              QUOTE + " … " + QUOTE_43 + " … " + QUOTE_67),
        tolerance="exact (SymPy: the scalar hardtanh RNN's memory for each offset); numerics: the two "
                  "searched memories within their a-posteriori integration errors",
        uses=("W.memory-def",),
        symbolic=normalisation_symbolic,
        numeric=by_arithmetic({"numpy": normalisation_numeric, "torch": normalisation_numeric},
                              "hardtanh RNNs are integrated by DOP853 and RK4 only"),
        strategy=normalisation_strategy,
        holds=normalisation_holds,
        notes="A finding: the printed text uses one symbol M for both normalisations. For linear "
              "functionals they agree (sup_r r|ρ|₁/(r + 1) = |ρ|₁, approached as |x| → ∞); for the "
              "scalar hardtanh RNN, M(t) = 1/(t + 1) with |x|_∞ and 1/(t + 2) with |x|_∞ + 1. (43) also "
              "equates a sup over x with |c_mᵀv_(m,t)|, which depends on the input x through v_(m,t). "
              "W.theorem.rnn-step registers the proof step under both normalisations.",
    ),
    Claim(
        id="W.memory-def.pointwise",
        summary="finding: \"decaying for all Heaviside inputs\" is not Def. 3.2: h′ = sin(x − h) "
                "decays for every x, yet M(T) ≥ 1/π",
        title="'Decaying for all Heaviside inputs' (§3.1) and Def. 3.2's decaying memory agree",
        statement=DecayReading(),
        provenance=Provenance("W", "§3.1 (after Def. 3.1); Def. 3.2 eqs. (6)–(7)", QUOTE_DEF32),
        tolerance="exact (SymPy: the sin RNN's solution tan(z/2) = tan(x/2)e^(−t)); numerics: DOP853",
        uses=("W.memory-def",),
        symbolic=pointwise_symbolic,
        numeric=pointwise_numeric,
        strategy=pointwise_strategy,
        holds=pointwise_holds,
        notes="A finding: the sentence after Def. 3.1 defines decaying memory for each Heaviside input "
              "(the limit inside, x fixed), Def. 3.2 through M(H)(t) = sup_x (the sup inside the limit). "
              "h' = sin(x − h), ŷ = h decays like e^(−t) for every input, yet M(T) ≥ 1/π for every T. "
              "For exponential decay (7) the scalar hardtanh RNN separates them too: every input decays "
              "exponentially, M(t) = 1/(t + 1). Remark 3.3 and Thm 3.9 use Def. 3.2's (sup) form.",
    ),
]
