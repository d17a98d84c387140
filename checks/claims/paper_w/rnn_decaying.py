"""W.rnn-decaying: "RNNs with Lipschitz activations are point-wise continuous at Heaviside inputs, hence
have decaying memory" (W Remark 3.3, App. A.5–A.6) — REFUTED, by the paper's own App. I.1 matrix.

Remark 3.3 says "for all RNNs"; App. A.6 assumes only a Lipschitz activation. App. A.5 turns point-wise
continuity into decaying memory for *bounded* functionals, and A.6's Grönwall argument controls the
state on bounded time intervals only, so nothing rules out states that never settle. They need not:
App. I.1's W = [[1, 1], [−4, −3]] has the double eigenvalue −1 (Hurwitz, defective), yet with
hardtanh, b = 0, U = I, c = e₁ and x = (1, −1) the state z = Wh + Ux starts in the saturated corner
{z₁ ≥ 1, z₂ ≤ −1}, where z' = W(1, −1)ᵀ = (0, −1)ᵀ keeps it forever: dŷ/dt ≡ 1, M(t) ≥ 1 for all t
(exact, recmem.theory.memory.app_i1_counterexample). So neither Hurwitz W nor b = 0 saves the remark.

``W.rnn-decaying.corrected``: with σ ∈ {tanh, hardtanh} and a diagonally stable W (DW + WᵀD ≺ 0 for a
positive diagonal D) the memory decays for every U, b, c — by a Persidskii Lyapunov function and a
three-regime argument — but not necessarily exponentially: ż = −hardtanh(z) has M(t) = 1/(t + 1).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Param, Provenance
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.rnn import RNN

QUOTE_REMARK = ("Remark 3.3. The requirement of decaying memory on time-homogeneous functionals is mild "
                "since it is satisfied if is continuous at Heaviside input, under the topology of point-wise "
                "convergence (see Section A.5). We show that are point-wise continuous over Heaviside inputs "
                "for all RNNs, thus RNNs have decaying memory (see Section A.6).")
QUOTE_A6 = ("We prove that nonlinear RNNs with Lipschitz continuous activations are point-wise continuous "
            "over bounded, piece-wise constant input sequences, including the Heaviside inputs.")
QUOTE_I1 = ("I.1 Existence of nonlinear RNNs without decaying memory … Here we present in Figure 11 that "
            "nonlinear RNNs with randomly initialized weights have diverse memory patterns. Moreover, "
            "consider the following examples.")
# Times of the memory curves (non-decay must persist; decay must show).
CURVE_TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
# Long enough for the largest searched input (|x|_∞ = 4) to leave saturation and decay.
DECAY_TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 24.0])
RK4_DT = 2e-2
# Diagonally stable, non-normal W of the corrected claim's numerics (D = diag(1, 11/2), exact).
STABLE_W = [[Fraction(-1), Fraction(3)], [Fraction(0), Fraction(-1)]]
STABLE_U = [[Fraction(1)], [Fraction(1, 2)]]
STABLE_C = [Fraction(1), Fraction(-1)]


def i1_rnn(sigma: str) -> RNN:
    """App. I.1's W with U = I, b = 0, c = e₁ (exact in float64)."""
    from recmem.theory.memory import APP_I1_C, APP_I1_U, APP_I1_W

    return mm.rnn_of(APP_I1_W, APP_I1_U, APP_I1_C, sigma)


# ---- printed claim -----------------------------------------------------------------------------

def symbolic_printed(ctx: Context) -> list[Evidence]:
    from recmem.theory.memory import app_i1_counterexample

    t0 = time.perf_counter()
    return [from_proof(app_i1_counterexample(), time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """hardtanh RNNs (the activation with exact saturation) with Hurwitz 2×2 W in ½ℤ ∩ [−4, 4] — two thirds
    of the draws with w₁₁ > 0 or w₂₂ > 0, the non-diagonally-stable region where App. I.1's W lies —
    U = I (as in App. I.1), b = 0, c ∈ (½ℤ ∩ [−1, 1])²: the strongest reading (Hurwitz W, zero bias)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in
    from recmem.theory.memory import hurwitz_2x2

    q4, q1 = fractions_in(-4, 4, 2), fractions_in(-1, 1, 2)
    pos = fractions_in(Fraction(1, 2), 4, 2)
    general = st.lists(q4, min_size=4, max_size=4)
    unstable_11 = st.tuples(pos, q4, q4, q4).map(list)
    unstable_22 = st.tuples(q4, q4, q4, pos).map(list)
    w = st.one_of(general, unstable_11, unstable_22).map(
        lambda v: [[v[0], v[1]], [v[2], v[3]]]).filter(hurwitz_2x2)
    return st.tuples(st.just("hardtanh"), w, st.lists(q1, min_size=2, max_size=2))


IDENTITY = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]


def holds_printed(instance: Any, ctx: Context) -> Instance:
    """Decaying (diagonal stability: the corrected claim's theorem), not decaying (an exact saturated
    invariant corner reached by an input x ∈ {±1}², hardtanh), or undecided."""
    from recmem.theory.memory import diagonal_certificate_2x2, hardtanh_corner

    sigma, w, c = instance
    values = {"activation": sigma, "W": [[str(v) for v in r] for r in w], "U": "I", "c": [str(v) for v in c],
              "b": "0"}
    d = diagonal_certificate_2x2(w)
    if d is not None:
        return Instance(True, f"diagonal stability, D = diag({d[0]}, {d[1]}) (exact)", values)
    if sigma == "hardtanh":
        for x in ([1, 1], [1, -1], [-1, 1], [-1, -1]):
            xs = [Fraction(v) for v in x]
            if (cert := hardtanh_corner(w, IDENTITY, c, xs)) is not None:
                return Instance(False, "exact rational arithmetic: z(0) = Ux lies in a saturated corner that "
                                "z' = Ws keeps invariant, so dŷ/dt ≡ cᵀs ≠ 0",
                                {**values, "x": [str(v) for v in xs], **cert},
                                "the memory does not decay: M(t) ≥ |cᵀs| for every t")
    return Instance(None, "undecided (neither certificate applies)", values)


def numeric_printed(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    kind = backend.spec.kind
    if kind not in ("numpy", "torch"):
        raise mm.unavailable(backend, "hardtanh is not analytic (no Taylor integration) and there is no ODE "
                             "solver in ball arithmetic; the non-decay is certified exactly (symbolic side)")
    t0 = time.perf_counter()
    mags = (1.0,)  # x = (1, −1) is a vertex of magnitude 1: the certified non-decaying input
    if kind == "numpy":
        lower, err = mm.searched_curve_numpy(i1_rnn("hardtanh"), mags, ctx.seed, CURVE_TIMES)
        src = mm.DOP853_ERROR
    else:
        lower, err = mm.searched_curve_torch(i1_rnn("hardtanh"), mags, ctx.seed, CURVE_TIMES,
                                             mm.torch_device(backend), RK4_DT)
        src = f"RK4: max over candidates of |rate(Δt) − rate(2Δt)|/|x|∞, Δt = {RK4_DT}"
    # decaying memory needs M(t) → 0; the searched lower bound staying ≥ 1 − err contradicts it
    stuck = bool(np.all(lower >= 1 - err))
    out = [Evidence(check="App. I.1 hardtanh RNN (W = [[1, 1], [−4, −3]], U = I, c = e₁, b = 0): searched "
                          "memory along t = 1 … 16", kind="numeric", backend=backend.name,
                    outcome=Outcome.FAIL if stuck else Outcome.INCONCLUSIVE, precision_bits=53,
                    residual=mm._s(float(np.min(lower))), tolerance=mm._s(float(np.max(err))),
                    tolerance_source=src,
                    message="M(t) ≥ 1 at every t (x = (1, −1) keeps dŷ/dt = 1): the memory does not decay"
                    if stuck else "non-decay not resolved on the grid",
                    seconds=time.perf_counter() - t0,
                    data={"t": CURVE_TIMES.tolist(), "hardtanh memory (lower bound)": lower.tolist()})]
    if kind == "numpy":
        t1 = time.perf_counter()
        from recmem.numerics.functionals import RNNFunctional
        from recmem.numerics.memory import memory_function

        tanh_lower = memory_function(RNNFunctional(i1_rnn("tanh")), CURVE_TIMES, magnitudes=(4.0,),
                                     refine_rounds=0, seed=ctx.seed).values
        out.append(Evidence(check="App. I.1 tanh RNN: searched memory (reported, not decided: tanh never "
                                  "saturates exactly, so no finite horizon certifies non-decay)",
                            kind="numeric", backend=backend.name, outcome=Outcome.INCONCLUSIVE,
                            precision_bits=53, seconds=time.perf_counter() - t1,
                            message="the state runs off along a saturated direction for large inputs; "
                                    f"memory lower bound {np.round(tanh_lower, 4).tolist()} on t = "
                                    f"{CURVE_TIMES.tolist()}",
                            data={"tanh memory (lower bound, |x|_∞ = 4)": tanh_lower.tolist()}))
    return out


# ---- corrected claim ---------------------------------------------------------------------------

def symbolic_corrected(ctx: Context) -> list[Evidence]:
    from recmem.theory.memory import diagonal_stability_proof

    t0 = time.perf_counter()
    return [from_proof(diagonal_stability_proof(), time.perf_counter() - t0)]


def _stable(sigma: str) -> RNN:
    return mm.rnn_of(STABLE_W, STABLE_U, STABLE_C, sigma)


def _decay_evidence(name: str, backend: AbstractBackend, lower: np.ndarray, err: np.ndarray, src: str,
                    t0: float) -> Evidence:
    """Decay observed: by the last time the searched memory has fallen to ≤ 1% of its maximum."""
    ratio = float((lower[-1] + err[-1]) / np.max(lower))
    return Evidence(check=f"{name}: searched memory along t = {DECAY_TIMES.tolist()} falls to ≤ 1% of its "
                          "maximum", kind="numeric", backend=backend.name,
                    outcome=Outcome.PASS if ratio <= 0.01 else Outcome.FAIL, precision_bits=53,
                    residual=mm._s(ratio), tolerance="0.01",
                    tolerance_source=src + "; residual (M(T) + error)/max M",
                    message="a falling lower bound corroborates the decay (the proof is symbolic); large "
                            "inputs forget slowly (saturation), so the fall comes late",
                    seconds=time.perf_counter() - t0,
                    data={"t": DECAY_TIMES.tolist(), "memory": lower.tolist()})


def _scalar_evidence(backend: AbstractBackend, lower: np.ndarray, err: np.ndarray, src: str,
                     t0: float) -> Evidence:
    """ż = −hardtanh(z): the searched memory never exceeds the exact 1/(t + 1)."""
    exact = 1 / (CURVE_TIMES + 1)
    over = float(np.max((lower - exact) / (err + 4 * mm.U64)))
    return mm.judged("scalar hardtanh RNN (w = −1): searched memory ≤ exact M(t) = 1/(t + 1) (polynomial, "
                     "not exponential, decay)", backend, over, 1.0,
                     src + " (residual (M − 1/(t+1))/error)", t0, bits=53,
                     data={"searched": lower.tolist(), "exact": exact.tolist(),
                                    "searched·(t+1)": (lower * (CURVE_TIMES + 1)).tolist()})


def numeric_corrected(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    kind = backend.spec.kind
    scalar = mm.scalar_hardtanh_rnn()
    mags = tuple(float(q) for q in ctx["magnitudes"])
    out = []
    if kind == "numpy":
        src = mm.DOP853_ERROR
        for sigma in ("tanh", "hardtanh"):
            t0 = time.perf_counter()
            lower, err = mm.searched_curve_numpy(_stable(sigma), mags, ctx.seed, DECAY_TIMES)
            out.append(_decay_evidence(f"{sigma} RNN, W = [[−1, 3], [0, −1]] (diagonally stable, non-normal)",
                                       backend, lower, err, src, t0))
        t0 = time.perf_counter()
        lower, err = mm.searched_curve_numpy(scalar, mm.SCALAR_MAGS, ctx.seed, CURVE_TIMES)
        out.append(_scalar_evidence(backend, lower, err, src, t0))
        return out
    if kind == "torch":
        device = mm.torch_device(backend)
        src = f"RK4: max over candidates of |rate(Δt) − rate(2Δt)|/|x|∞, Δt = {RK4_DT}"
        t0 = time.perf_counter()
        lower, err = mm.searched_curve_torch(_stable("tanh"), mags, ctx.seed, DECAY_TIMES, device, RK4_DT)
        out.append(_decay_evidence("tanh RNN, W = [[−1, 3], [0, −1]]", backend, lower, err, src, t0))
        t0 = time.perf_counter()
        lower, err = mm.searched_curve_torch(scalar, mm.SCALAR_MAGS, ctx.seed, CURVE_TIMES, device, RK4_DT)
        out.append(_scalar_evidence(backend, lower, err, src, t0))
        return out
    if kind == "mpmath":
        return [_mpmath_corrected(backend, ctx)]
    raise mm.unavailable(backend, "no ODE solver in ball arithmetic")


def _mpmath_corrected(backend: AbstractBackend, ctx: Context) -> Evidence:
    """The tanh RNN at a few inputs by Taylor integration: the ratios fall, and agree with DOP853."""
    t0 = time.perf_counter()
    bits = min(backend.precision_bits, int(ctx["ode_bits"]))
    times = np.array([1.0, 2.0, 3.0])
    rnn = _stable("tanh")
    xs = np.array([[1.0]])
    rates, errs, _ = mm.mp_rates(rnn, xs, times, bits)
    ratios = [[abs(r) / float(x[0]) for r in row] for row, x in zip(rates, xs, strict=True)]
    ref, ref_err = mm.scipy_rates(rnn, xs, times)
    agree = max(abs(float(rates[i][k]) - ref[i, k]) / (ref_err[i, k] + float(errs[i][k]) + 4 * mm.U64)
                for i in range(len(xs)) for k in range(len(times)))
    falls = all(row[k + 1] < row[k] for row in ratios for k in range(len(times) - 1))
    return Evidence(check="tanh RNN, W = [[−1, 3], [0, −1]]: Taylor-series rate at x = 1 falls with t and "
                          "agree with DOP853", kind="numeric", backend=backend.name,
                    outcome=Outcome.PASS if falls and agree <= 1 else Outcome.FAIL, precision_bits=bits,
                    residual=mm._s(agree), tolerance="1",
                    tolerance_source=f"|rate_mp − rate_DOP853| over (DOP853 error estimate + |rate({bits}) − "
                                     f"rate({bits + mm.MP_EXTRA_BITS})| + 4u)",
                    seconds=time.perf_counter() - t0,
                    data={"ratios": [[mm._s(v) for v in row] for row in ratios]})


CLAIMS = [
    Claim(
        id="W.rnn-decaying",
        title="RNNs with Lipschitz activations have decaying memory",
        statement="RNNs with Lipschitz activations are point-wise continuous at Heaviside inputs, hence have "
                  "decaying memory",
        provenance=Provenance("W", "Remark 3.3, App. A.5–A.6; App. I.1",
                              f"{QUOTE_REMARK} … {QUOTE_A6} … {QUOTE_I1}"),
        tolerance="exact (invariant saturated corner, SymPy and ℚ); numerics: searched memory ≥ 1 − "
                  "integration error on the grid",
        uses=("W.memory-def",),
        params=(),
        symbolic=symbolic_printed,
        numeric=numeric_printed,
        strategy=strategy,
        holds=holds_printed,
        notes="App. I.1's W = [[1, 1], [−4, −3]] (λ = −1 twice: Hurwitz, defective, not diagonally stable). "
              "hardtanh: z = (1, −1 − t) exactly, dŷ/dt ≡ 1, h = (t, −t) unbounded — a functional that is "
              "not bounded, which App. A.5's argument presupposes but Remark 3.3 does not. tanh: for large "
              "inputs the state runs off along the same saturated direction (reported numerically, not "
              "certified). The search covers Hurwitz W, b = 0 (the strongest reading).",
    ),
    Claim(
        id="W.rnn-decaying.corrected",
        title="Diagonally stable tanh/hardtanh RNNs have decaying (not necessarily exponentially) memory",
        statement="An RNN dh/dt = σ(Wh + Ux + b) with σ ∈ {tanh, hardtanh} and W diagonally stable "
                  "(DW + WᵀD ≺ 0 for a positive diagonal D) has decaying memory, lim_{t→∞} M(t) = 0, for all "
                  "U, b, c; the "
                  "decay need not be exponential (ż = −hardtanh(z): M(t) = 1/(t + 1))",
        provenance=Provenance("W", "Remark 3.3, App. A.5–A.6", f"{QUOTE_REMARK} … {QUOTE_A6}"),
        tolerance="symbolic (Lyapunov identity, exact scalar memory); numerics: a-posteriori integration "
                  "error (DOP853 rtol 1e-12 vs 1e-10; RK4 Δt vs 2Δt; Taylor P vs P+16 bits)",
        uses=("W.memory-def",),
        params=(Param("magnitudes", mm.parse_rationals("1/4,1,4"),
                      "input magnitudes |x|_∞ of the memory search", mm.parse_rationals),
                mm.p_ode_bits(64)),
        symbolic=symbolic_corrected,
        numeric=numeric_corrected,
        corrects="W.rnn-decaying",
        notes="z = Wh + Ux + b obeys z' = Wσ(z) with z(0) = Ux (the rest state has Wh + b = 0), so b plays "
              "no role. V(z) = Σ d_iΦ(z_i), Φ' = σ, gives V' = ½σᵀ(DW + WᵀD)σ < 0 off z = 0: global "
              "asymptotic stability. Memory: |x|_∞ > R gives ratio ≤ |c|₁/R (|σ| ≤ 1); r ≤ |x|_∞ ≤ R "
              "converges uniformly (compact set of initial states); |x|_∞ < r decays exponentially "
              "(linearisation W). Saturation "
              "makes large inputs forget slowly: the scalar hardtanh RNN's M(t) = 1/(t + 1) is exact.",
    ),
]
