"""W.rnn-decaying: "RNNs have decaying memory" (W Remark 3.3 with App. A.5–A.6, ICLR 2024
camera-ready) — REFUTED by the paper's own App. I.1 matrix — its correction, and the finding that
Remark 3.3 and App. I.1 contradict each other. One statement,
:class:`~recmem.theory.memory.DecayingRNN` (activation class, recurrent-weight class, conclusion):

- ``W.rnn-decaying`` — Remark 3.3 ("for all RNNs") with A.6's hypothesis (Lipschitz continuous σ):
  decaying memory, eq. (6). App. I.1's W = [[1, 1], [−4, −3]] (λ = −1 twice: Hurwitz, defective) with
  hardtanh, b = 0, U = I, c = e₁, x = (1, −1): z = (1, −1 − t) exactly, dŷ/dt ≡ 1, M(t) ≥ 1.
- ``W.rnn-decaying.app-i1`` (finding) — Remark 3.3 applied to App. I.1's own RNN (Fig. 11(b)), which
  App. I.1 prints as a "nonlinear RNN with non-decaying memory": the printed text disagrees with
  itself. REFUTED (hardtanh exactly; tanh, as printed, is reported, not certified).
- ``W.rnn-decaying.corrected`` — σ ∈ {tanh, hardtanh} and W diagonally stable ⇒ decaying memory
  (Persidskii Lyapunov function), not necessarily exponential (the scalar hardtanh RNN:
  M(t) = 1/(t + 1)).

Checks: symbolic (exact witnesses / the Persidskii argument, read from the statement's classes); an
exact search over 2×2 RNNs drawn from the statement's weight class (hardtanh corner certificates,
saturation lower bounds, diagonal-stability certificates); numerics (float64 DOP853 through the
package's memory query, and batched RK4) on RNNs chosen from the statement's classes: App. I.1's
hardtanh RNN whenever the class admits it (non-decay), diagonally stable tanh/hardtanh RNNs (decay),
and the scalar hardtanh RNN (exact memory 1/(t + 1): decaying, not exponentially).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Param, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.rnn import RNN
from recmem.theory.memory import APP_I1_W, DecayingRNN

QUOTE_REMARK = (r"Remark 3.3. The requirement of decaying memory on time-homogeneous functionals is mild "
                r"since it is satisfied if $\frac{dH_{t}}{dt}$ is continuous at Heaviside input, under the "
                r"topology of point-wise convergence (see Appendix A.5). We show that $\frac{dH_{t}}{dt}$ "
                r"are "
                r"point-wise continuous over Heaviside inputs for all RNNs, thus RNNs have decaying memory "
                r"(see Appendix A.6).")
QUOTE_DEF32 = (r"we say it has a decaying memory if: $$\lim _ {t \rightarrow \infty} \mathcal {M} "
               r"(\mathbf {H}) "
               r"(t) = 0. \tag {6}$$")
QUOTE_A5 = (r"Here we give the proof of decaying memory based on the point-wise continuity of "
            r"$\frac{dH_{t}}{dt}$ and boundedness and time-homogeneity of H: Proof. $$\lim _ {t "
            r"\rightarrow \infty} "
            r"\left| \frac {d H _ {t}}{d t} (\mathbf {u} ^ {x}) \right| = \lim _ {t \rightarrow \infty} "
            r"\left| \frac {d H _ {0}}{d t} (x \cdot \mathbf {1} _ {\{s \geq - t \}}) \right| = \left| "
            r"\frac {d H _ {0}}{d t} (\mathbf {x}) \right| = 0.$$")
QUOTE_A6 = (r"We prove that nonlinear RNNs with Lipschitz continuous activations are point-wise continuous "
            r"over bounded, piece-wise constant input sequences, including the Heaviside inputs. … For any "
            r"bounded interval $[-B,B]$ , we can see the outputs are well-defined and the point-wise (in t) "
            r"convergence holds … $$| h _ {k, t} - h _ {t} | \leq \int_ {0} ^ {t} e ^ {L | W | (t - s)} L | "
            r"U | | x _ {k, s} - x _ {s} | d s$$")
QUOTE_I1 = (r"In this section, we first show the existence of nonlinewar RNNs with non-decaying memory. … "
            r"I.1 EXISTENCE OF NONLINEAR RNNs WITHOUT DECAYING MEMORY … (b) Example of 2D RNN with periodic "
            r"memory $W = \begin{bmatrix} 1 & 1 \\ -4 & -3 \end{bmatrix}$ . Figure 11: In the left panel, we "
            r"show the existence of tanh RNNs with non-decaying memory. In the right panel, we use a "
            r"specific "
            r"2D tanh RNN to show the existence of a periodic trajectory.")
# Times of the memory curves (non-decay must persist; decay must show).
CURVE_TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
# Long enough for the largest searched input (|x|_∞ = 4) to leave saturation and decay.
DECAY_TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 24.0])
RK4_DT = 2e-2
BETA = 0.5  # exponential decay would make e^{βt}M(t) fall; the saturated memory makes it grow
# Diagonally stable, non-normal W of the numerics (D = diag(1, 11/2), exact).
STABLE_W = [[Fraction(-1), Fraction(3)], [Fraction(0), Fraction(-1)]]
STABLE_U = [[Fraction(1)], [Fraction(1, 2)]]
STABLE_C = [Fraction(1), Fraction(-1)]


def i1_rnn(sigma: str) -> RNN:
    """App. I.1's W with U = I, b = 0, c = e₁ (exact in float64)."""
    from recmem.theory.memory import APP_I1_C, APP_I1_U

    return mm.rnn_of(APP_I1_W, APP_I1_U, APP_I1_C, sigma)


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by theory.memory.decaying_rnn_proof (witnesses or the Persidskii argument)."""
    from recmem.theory.memory import decaying_rnn_proof

    t0 = time.perf_counter()
    return [from_proof(decaying_rnn_proof(ctx.law(DecayingRNN)), time.perf_counter() - t0)]


# ---- the counterexample search -----------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """(σ, W, c) with σ ∈ {hardtanh, tanh, identity} in the statement's activation class, 2×2 W in
    ½ℤ ∩ [−4, 4] in its weight class (most draws with w₁₁ > 0 or w₂₂ > 0, or both diagonal entries
    negative: the regions around diagonal stability where App. I.1's W lies, which is drawn too;
    App. I.1's class: that W only), U = I, b = 0, c ∈ (½ℤ ∩ [−1, 1])² nonzero."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(DecayingRNN)
    sigmas = [s for s in ("hardtanh", "tanh", "identity") if law.admits_activation(s)]
    c = st.lists(fractions_in(-1, 1, 2), min_size=2, max_size=2).filter(any)
    if law.recurrence == "app-i1":
        w = st.just(APP_I1_W)
    else:
        q4, pos = fractions_in(-4, 4, 2), fractions_in(Fraction(1, 2), 4, 2)
        general = st.lists(q4, min_size=4, max_size=4)
        # App. I.1's W itself is one of the draws whenever the class admits it (a printed instance)
        w = st.one_of(st.just(APP_I1_W), general.map(_square), st.tuples(pos, q4, q4, q4).map(_square),
                      st.tuples(q4, q4, q4, pos).map(_square),
                      st.tuples(pos.map(lambda v: -v), q4, q4, pos.map(lambda v: -v)).map(_square)
                      ).filter(law.admits_matrix)
    return st.tuples(st.sampled_from(sigmas), w, c)


def _square(v: Any) -> list[list[Fraction]]:
    return [[v[0], v[1]], [v[2], v[3]]]


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact: hardtanh corner certificates (non-decay), the saturation lower bound (not exponential),
    diagonal stability (decay, the corrected claim's theorem), Hurwitz linear RNNs (decay)."""
    from recmem.theory.memory import decaying_rnn_decide

    sigma, w, c = instance
    ok, how, values = decaying_rnn_decide(ctx.law(DecayingRNN), sigma, w, c)
    return Instance(ok, how, values, "" if ok is not False else "the memory does not decay as claimed")


# ---- numerics ----------------------------------------------------------------------------------

def _stable(sigma: str) -> RNN:
    return mm.rnn_of(STABLE_W, STABLE_U, STABLE_C, sigma)


def _curve(backend: AbstractBackend, rnn: RNN, mags: tuple[float, ...], seed: int, times: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, str]:
    if backend.spec.kind == "numpy":
        lower, err = mm.searched_curve_numpy(rnn, mags, seed, times)
        return lower, err, mm.DOP853_ERROR
    lower, err = mm.searched_curve_torch(rnn, mags, seed, times, mm.torch_device(backend), RK4_DT)
    return lower, err, f"RK4: max over candidates of |rate(Δt) − rate(2Δt)|/|x|∞, Δt = {RK4_DT}"


def _non_decay(backend: AbstractBackend, ctx: Context) -> Evidence:
    """App. I.1's hardtanh RNN: the searched memory (a lower bound) stays ≥ 1 − error on t = 1 … 16."""
    t0 = time.perf_counter()
    lower, err, src = _curve(backend, i1_rnn("hardtanh"), (1.0,), ctx.seed, CURVE_TIMES)
    stuck = bool(np.all(lower >= 1 - err))
    return Evidence(check="App. I.1 hardtanh RNN (W = [[1, 1], [−4, −3]], U = I, c = e₁, b = 0): searched "
                          "memory "
                          "along t = 1 … 16", kind="numeric", backend=backend.name,
                    outcome=Outcome.FAIL if stuck else Outcome.INCONCLUSIVE, precision_bits=53,
                    residual=mm._s(float(np.min(lower))), tolerance=mm._s(float(np.max(err))),
                    tolerance_source=src + "; residual: the smallest searched value",
                    message=f"searched M(t) ≥ {float(np.min(lower)):.6g} at every t = "
                            f"{CURVE_TIMES.tolist()}: "
                            "the memory does not decay" if stuck else "non-decay not resolved on the grid",
                    seconds=time.perf_counter() - t0,
                    data={"t": CURVE_TIMES.tolist(), "hardtanh memory (lower bound)": lower.tolist()})


def _decay(backend: AbstractBackend, ctx: Context, sigma: str) -> Evidence:
    """A diagonally stable RNN of the class: the searched memory falls to ≤ 1% of its maximum."""
    t0 = time.perf_counter()
    mags = tuple(float(q) for q in ctx["magnitudes"])
    lower, err, src = _curve(backend, _stable(sigma), mags, ctx.seed, DECAY_TIMES)
    ratio = float((lower[-1] + err[-1]) / np.max(lower))
    return Evidence(check=f"{sigma} RNN, W = [[−1, 3], [0, −1]] (diagonally stable, non-normal): searched "
                          "memory "
                          f"along t = {DECAY_TIMES.tolist()} falls to ≤ 1% of its maximum", kind="numeric",
                    backend=backend.name, outcome=Outcome.PASS if ratio <= 0.01 else Outcome.FAIL,
                    precision_bits=53, residual=mm._s(ratio), tolerance="0.01",
                    tolerance_source=src + "; residual (M(T) + error)/max M",
                    message="" if ratio <= 0.01 else "the memory has not decayed by t = 24",
                    seconds=time.perf_counter() - t0,
                    data={"t": DECAY_TIMES.tolist(), "memory": lower.tolist()})


def _scalar(backend: AbstractBackend, ctx: Context) -> Evidence:
    """The scalar hardtanh RNN (w = −1), whose exact memory is 1/(t + 1): the searched value must stay
    below it (a lower bound of a decaying memory); an exponential conclusion is contradicted when
    e^{βt}·(searched − error) grows along the grid."""
    law = ctx.law(DecayingRNN)
    t0 = time.perf_counter()
    lower, err, src = _curve(backend, mm.scalar_hardtanh_rnn(), mm.SCALAR_MAGS, ctx.seed, CURVE_TIMES)
    exact = 1 / (CURVE_TIMES + 1)
    over = float(np.max((lower - exact) / (err + 4 * mm.U64)))
    if law.conclusion == "decaying":
        return mm.judged("scalar hardtanh RNN (w = −1): searched memory ≤ its exact value 1/(t + 1) "
                         "(decaying)",
                         backend, over, 1.0, src + " (residual (M − 1/(t+1))/error)", t0, bits=53,
                         data={"searched": lower.tolist(), "exact": exact.tolist()})
    scaled = np.exp(BETA * CURVE_TIMES) * (lower - err)
    grows = bool(scaled[-1] > 10 * np.max(scaled[:-1]))
    return Evidence(check="scalar hardtanh RNN (w = −1): e^(βt)·searched memory along t = 1 … 16",
                    kind="numeric",
                    backend=backend.name, outcome=Outcome.FAIL if grows else Outcome.INCONCLUSIVE,
                    precision_bits=53, residual=mm._s(float(scaled[-1] / scaled[0])), tolerance="1",
                    tolerance_source=src + f" (β = {BETA}); residual: growth factor of e^(βt)·(M − error)",
                    message=f"e^({BETA}t)M(t) grows {scaled[-1] / scaled[0]:.3g}-fold: not exponentially "
                            "decaying"
                    if grows else "growth not resolved", seconds=time.perf_counter() - t0,
                    data={"t": CURVE_TIMES.tolist(), "searched": lower.tolist()})


@mm.small_torch
def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The RNNs of the statement's classes: App. I.1's hardtanh RNN when admitted (non-decay); the
    diagonally stable tanh/hardtanh RNNs and the scalar hardtanh RNN when admitted."""
    law = ctx.law(DecayingRNN)
    if backend.spec.kind not in ("numpy", "torch"):
        raise mm.unavailable(backend, "hardtanh is not analytic (no Taylor integration) and there is no ODE "
                                      "solver in ball arithmetic; the witnesses are exact (symbolic side)")
    if backend.spec.dtype != "float64":
        raise mm.unavailable(backend, "DOP853 and the RK4 error estimates run in float64 only")
    out = []
    if law.admits_matrix(APP_I1_W) and law.admits_activation("hardtanh"):
        out.append(_non_decay(backend, ctx))
    if law.recurrence != "app-i1":
        out += [_decay(backend, ctx, sigma) for sigma in ("tanh", "hardtanh") if law.admits_activation(sigma)]
        if law.admits_activation("hardtanh"):
            out.append(_scalar(backend, ctx))
    return out


MAGNITUDES = (Param("magnitudes", mm.parse_rationals("1/4,1,4"),
                    "input magnitudes |x|_∞ of the memory search", mm.parse_rationals),)
TOL = ("exact (invariant saturated corner, saturation bound, Persidskii identities; SymPy and ℚ); numerics: "
       "searched memory against its a-posteriori integration error")
NUMERIC = by_arithmetic({"numpy": numeric, "torch": numeric},
                        "hardtanh RNNs run on DOP853 (numpy) and RK4 (torch); the witnesses are exact")

CLAIMS = [
    Claim(
        id="W.rnn-decaying",
        summary="Remark 3.3: App. I.1's Hurwitz W with hardtanh keeps M(t) ≥ 1 (exact saturated "
                "solution)",
        title="RNNs (with Lipschitz activations) have decaying memory (Remark 3.3)",
        statement=DecayingRNN(activation="lipschitz", recurrence="any", conclusion="decaying"),
        provenance=Provenance("W", "Remark 3.3; App. A.5; App. A.6; Def. 3.2 eq. (6)",
                              f"{QUOTE_REMARK} … {QUOTE_DEF32} … {QUOTE_A5} … {QUOTE_A6}"),
        tolerance=TOL,
        uses=("W.memory-def",),
        params=MAGNITUDES,
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        notes="Remark 3.3 says 'for all RNNs'; A.6 assumes a Lipschitz continuous activation (the "
              "statement's "
              "class). A.5 turns point-wise continuity of dH_t/dt into decaying memory for bounded H, and "
              "its limit step needs continuity at the constant input x for inputs that differ on (−∞, −t), "
              "while A.6's Grönwall bound e^(L|W|(t−s)) covers bounded intervals [−B, B] only. App. I.1's "
              "W = [[1, 1], [−4, −3]] (λ = −1 twice: Hurwitz, defective, not diagonally stable) with "
              "hardtanh: "
              "z = (1, −1 − t) exactly, dŷ/dt ≡ 1, h = (t, −t) unbounded. Without Hurwitz W even W = 0 is a "
              "counterexample; App. I.1's is Hurwitz. In Def. 3.2's sup form and in the 'for each "
              "Heaviside input' form alike (the input x = (1, −1) alone does not decay).",
    ),
    Claim(
        id="W.rnn-decaying.app-i1",
        summary="finding: Remark 3.3 against App. I.1's own RNN",
        title="Remark 3.3 vs App. I.1: App. I.1's RNN has decaying memory",
        statement=DecayingRNN(activation="tanh-hardtanh", recurrence="app-i1", conclusion="decaying"),
        provenance=Provenance("W", "Remark 3.3; App. I.1, Fig. 11(b)", f"{QUOTE_REMARK} … {QUOTE_I1}"),
        tolerance=TOL,
        uses=("W.rnn-decaying",),
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        params=MAGNITUDES,
        notes="A finding: Remark 3.3 asserts decaying memory for all RNNs, App. I.1 prints 'the existence of "
              "nonlinear RNNs with non-decaying memory' with this W. With hardtanh the RNN provably does not "
              "decay (the statement is REFUTED, App. I.1's assertion holds). App. I.1 prints tanh and a "
              "'periodic memory' with attractors [0,0], [1,1], [−1,−1] for v = dh/dt; recmem does not "
              "certify "
              "the tanh trajectory (tanh never saturates exactly) and does not check the periodicity.",
    ),
    Claim(
        id="W.rnn-decaying.corrected",
        summary="diagonally stable W (DW + WᵀD ≺ 0) gives decaying memory — not necessarily "
                "exponential",
        title="Diagonally stable tanh/hardtanh RNNs have decaying (not necessarily exponentially) memory",
        statement=DecayingRNN(activation="tanh-hardtanh", recurrence="diagonally-stable",
                              conclusion="decaying"),
        provenance=Provenance("W", "Remark 3.3; App. A.5–A.6; Def. 3.2 eq. (6)",
                              f"{QUOTE_REMARK} … {QUOTE_DEF32} … {QUOTE_A6}"),
        tolerance=TOL,
        uses=("W.memory-def",),
        params=MAGNITUDES,
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        corrects="W.rnn-decaying",
        notes="z = Wh + Ux + b obeys z' = Wσ(z) with z(0) = Ux (the rest state has Wh + b = 0), so b plays "
              "no "
              "role. V(z) = Σ d_iΦ(z_i), Φ' = σ, gives V' = ½σᵀ(DW + WᵀD)σ < 0 off z = 0: global asymptotic "
              "stability. Memory: |x|_∞ > R gives ratio ≤ |c|₁/R (|σ| ≤ 1); r ≤ |x|_∞ ≤ R converges "
              "uniformly (compact set of initial states); |x|_∞ < r decays exponentially (linearisation W). "
              "Saturation makes large inputs forget slowly: the scalar hardtanh RNN's M(t) = 1/(t + 1) is "
              "exact, so the decay is not exponential (the control).",
    ),
]
