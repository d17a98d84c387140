"""W.theorem.rnn-step: the step of Thm 3.9's proof that the stable RNN approximants have uniformly
exponentially decaying memory (W App. A.8, A.9 — eqs. (47), (53)–(54), (64), (67)–(68) of the ICLR 2024
camera-ready), with the hypotheses the proof uses and its normalisation |x|_∞ + 1 (eq. (67)); and its
reading with Def. 3.1's normalisation |x|_∞ (eq. (5), the M of Thm 3.9's conclusion (15)).

One statement, :class:`~recmem.theory.memory.StableStep`. Both readings are REFUTED by the constant
sequence Ĥ_m = the scalar hardtanh RNN h' = hardtanh(x − h), ŷ = h (w = −1, u = c = 1, b = 0; padded
to width m with decoupled units): hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1), max Re λ = −1 ≤ −β₀ for β₀ ≤ 1
(47), bounded weights (14), and the readout-perturbed memories are ≤ (1 + β₀)/(t + 1) → 0 uniformly
(53) — yet the input x = t + 1 keeps h saturated up to time t, so M(t) = 1/(t + 1 + o) exactly
(o = 1: eq. (67); o = 0: Def. 3.1), which is not O(e^{−βt}) for any β > 0. The proof's local Lyapunov
argument (Lemma A.9, |v|₂ ≤ Υ) covers small states only; the sup over x in M also ranges over inputs
large enough to saturate σ for a time that grows with |x|.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Provenance, by_arithmetic
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.memory import StableStep

QUOTE_47 = (r"By Lemma A.7, we know each hyperbolic matrix $\tilde{W}_{m,k}$ is Hurwitz as the target "
            r"functional sequence has a stable approximation. Similarly, we have the following uniform bound "
            r"on eigenvalues of $\{W_m\}$ : $$\sup _ {m} \max _ {i \in [ m ]} (\operatorname{Re} (\lambda_ "
            r"{i} (W _ {m}))) \leq - \beta_ {0}. \tag {47}$$")
QUOTE_53 = (r"As the memory functions of the perturbed models are uniformly decaying, we consider a subclass "
            r"of perturbed models where only the linear readout map $c_{m}$ are perturbed. Since the limit "
            r"of "
            r"perturbed model memory functions are decaying: $$\lim _ {t \rightarrow \infty} \sup _ {m} "
            r"\left| \frac {d}{d t} \tilde {y} _ {m, t} \right| = 0. \tag {53}$$ For any $\epsilon > 0$ , "
            r"there exists a $T_{\epsilon} > 0$ such that for all $t > T_{\epsilon}$ $$\sup _ {| \tilde "
            r"{c} _ "
            r"{m} - c _ {m} | _ {2} \leq \beta_ {0}} \left| \frac {d}{d t} \tilde {y} _ {m, t} \right| = "
            r"\sup "
            r"_ {| \tilde {c} _ {m} - c _ {m} | _ {2} \leq \beta_ {0}} \left| \tilde {c} _ {m} ^ {\top} v "
            r"_ {m, "
            r"t} \right| <   \epsilon . \tag {54}$$")
QUOTE_67 = (r"Since the model weights $c_{m}$ are uniformly (in $m$ ) bounded $C_1 := \sup_m |c_m|_2 < "
            r"\infty$ . Therefore the model memories are uniformly (in $m$ ) exponentially decaying $$\sup _ "
            r"{m} \mathcal {M} (\widehat {\mathbf {H}} _ {m}) (t) = \sup _ {m} \sup _ {x \neq 0} \frac "
            r"{\left| "
            r"\frac {d}{d t} \widehat {H} _ {m , t} \left(\mathbf {u} ^ {x}\right) \right|}{| x | _ "
            r"{\infty} + "
            r"1} \leq C _ {0} C _ {1} e ^ {- (1 - L) \beta_ {0} (t - T _ {\epsilon})}. \tag {67}$$ Notice "
            r"that "
            r"$T_{\epsilon}$ is independent of $m$ , it only depends on $\epsilon$ . Take $L \to 0$ , for "
            r"any "
            r"$\beta < \beta_0$ there exists a constant $C^*$ which depends on $\beta$ such that $$\sup _ "
            r"{m} "
            r"\mathcal {M} (\widehat {\mathbf {H}} _ {m}) (t) \leq C ^ {*} e ^ {- \beta t}. \tag {68}$$ "
            r"Last, "
            r"by Lemma A.10, the target has exponentially decaying memory as it is approximated by a "
            r"sequence "
            r"of models with uniformly exponentially decaying memory.")
QUOTE_5 = (r"$$\mathcal {M} (\mathbf {H}) (t) := \sup _ {x \neq 0} \frac {1}{| x | _ {\infty}} \left| \frac "
           r"{d}{d t} H _ {t} \left(\mathbf {u} ^ {x}\right) \right|. \tag {5}$$ … Then the memory function "
           r"$\mathcal{M}(\mathbf{H})(t)$ of the target decays exponentially: $$\lim _ {t \to \infty} e ^ "
           r"{\beta t} \mathcal {M} (\mathbf {H}) (t) = 0, \quad \beta <   \beta_ {0}. \tag {15}$$")
TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
RK4_DT = 2e-2
BETA = 0.5  # a β < β₀ = 1/2… any β > 0 shows it; e^{βt}/(t + 2) grows from t = 1/β − 2 on


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided with the scalar hardtanh RNN (theory.memory.step_proof)."""
    from recmem.theory.memory import step_proof

    t0 = time.perf_counter()
    return [from_proof(step_proof(ctx.law(StableStep)), time.perf_counter() - t0)]


def searched_exact(t: np.ndarray, offset: float) -> np.ndarray:
    """The exact max over the searched magnitudes x of |d/dt H_t(u^x)|/(x + offset) for the scalar RNN:
    saturated (rate 1) until s = x − 1, then e^{−(s − x + 1)}; x ≤ 1 never saturates (rate x e^{−s})."""
    vals = []
    for x in mm.SCALAR_MAGS:
        onset = max(x - 1.0, 0.0)
        rate = np.where(t <= onset, 1.0, np.exp(-(t - onset)) * min(x, 1.0))
        vals.append(rate / (x + offset))
    return np.max(np.array(vals), axis=0)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The scalar hardtanh RNN's queried memory with the statement's normalisation (the package's
    memory_function over SCALAR_MAGS; RK4 over the same candidates) against its exact value over the
    searched inputs, and e^{βt}·M(t) along t = 1 … 16: it grows, where the statement says it falls."""
    law = ctx.law(StableStep)
    kind = backend.spec.kind
    if kind not in ("numpy", "torch"):
        raise mm.unavailable(backend, "hardtanh is not analytic (no Taylor integration) and there is no ODE "
                                      "solver in ball arithmetic; the memory is exact (symbolic side)")
    if backend.spec.dtype != "float64":
        raise mm.unavailable(backend, "DOP853 and the RK4 error estimates run in float64 only")
    t0 = time.perf_counter()
    offset = float(law.offset)
    rnn = mm.scalar_hardtanh_rnn()
    if kind == "numpy":
        lower, err = mm.searched_curve_numpy(rnn, mm.SCALAR_MAGS, ctx.seed, TIMES, offset=offset)
        src = mm.DOP853_ERROR
    else:
        lower, err = mm.searched_curve_torch(rnn, mm.SCALAR_MAGS, ctx.seed, TIMES, mm.torch_device(backend),
                                             RK4_DT, offset=offset)
        src = "RK4: max over candidates of |rate(Δt) − rate(2Δt)|/(|x|∞ + offset)"
    scaled = np.exp(BETA * TIMES) * (lower - err)
    exact = searched_exact(TIMES, offset)
    shortfall = float(np.max(np.abs(exact - lower) / (err + 4 * mm.U64)))
    agrees = shortfall <= 1
    grows = bool(scaled[-1] > 10 * np.max(scaled[:-1]))
    return [Evidence(check="scalar hardtanh RNN (w = −1): searched M(t) vs its exact value over the searched "
                           "inputs, and e^(βt)·M(t) on t = 1 … 16", kind="numeric", backend=backend.name,
                     outcome=Outcome.FAIL if agrees and grows else Outcome.INCONCLUSIVE, precision_bits=53,
                     residual=mm._s(shortfall), tolerance="1",
                     tolerance_source=src + " (residual: |M − exact| / error bound)",
                     seconds=time.perf_counter() - t0,
                     message=("the searched memory equals the exact one and e^(βt)M(t) grows "
                              f"{scaled[-1] / scaled[0]:.3g}-fold: not exponentially decaying")
                     if agrees and grows else "the numerics do not reproduce the exact counterexample",
                     data={"t": TIMES.tolist(), "searched M(t)": lower.tolist(),
                           "exact over the searched inputs": exact.tolist(),
                           f"e^({BETA}t)·M(t)": scaled.tolist()})]


def strategy(ctx: Context) -> Any:
    """Scalar hardtanh RNNs (constant sequences Ĥ_m) with w ∈ [−2, −1/4], u, c ∈ [1/4, 2] and
    β₀ ∈ {|w|, |w|/2, 1/4} (the boundary of (47) included)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    pos = fractions_in(Fraction(1, 4), 2, 4)

    def build(v: tuple[Fraction, Fraction, Fraction, int]) -> tuple[Fraction, ...]:
        return -v[0], v[1], v[2], [v[0], v[0] / 2, Fraction(1, 4)][v[3]]
    return st.tuples(pos, pos, pos, st.integers(0, 2)).map(build)


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact judge of one scalar hardtanh instance (theory.memory.step_decide)."""
    from recmem.theory.memory import step_decide

    w, u, c, beta0 = instance
    ok, values = step_decide(ctx.law(StableStep), w, u, c, beta0)
    return Instance(ok, "exact rational arithmetic: the hypotheses of the step for the scalar hardtanh RNN "
                    "and its exact memory M_o(t) = |cu|/(|w|t + 1 + o|u|) (theory.memory_defs)", values,
                    "" if ok else "the memory decays like 1/t, not exponentially")


TOL = "exact (SymPy: saturated solution, maximisation over x, limits); numerics: searched memory vs exact"
NUMERIC = by_arithmetic({"numpy": numeric, "torch": numeric},
                        "hardtanh RNNs run on DOP853 (numpy) and RK4 (torch); the memory is exact")
NOTES = ("The proof states its step for sequences (uniform in m); a constant sequence, padded to width m "
         "with "
         "decoupled units (W_m = −I_m, U_m = e₁, c_m = e₁), meets every hypothesis the proof uses: (47), the "
         "uniformly bounded weights (14)/(64), and (53) for the readout perturbations |c̃_m − c_m|₂ ≤ β₀ "
         "that "
         "(54) takes (the perturbed rate is c̃₁σ(z)). Thm 3.9 assumes more — uniform decay over every "
         "perturbation of θ_m in the β₀-ball — which the padded units' couplings make harder to certify; "
         "recmem does not claim the counterexample for Thm 3.9 itself (W.theorem). With inputs bounded by "
         "B the same RNN saturates for at most B − 1 and its memory is O(e^{−t}).")

CLAIMS = [
    Claim(
        id="W.theorem.rnn-step",
        summary="the proof step \"stable approximants decay uniformly exponentially\", with (67)'s "
                "|x|∞ + 1: the constant scalar hardtanh sequence has M(t) = 1/(t + 2)",
        title="Stable RNN approximants have uniformly exponentially decaying memory (A.8–A.9, "
              "eqs. (67)–(68))",
        statement=StableStep(offset=Fraction(1)),
        provenance=Provenance("W", "App. A.9 (proof of Thm 3.9) eqs. (47), (53)–(54), (64), (67)–(68); "
                              "App. A.8 "
                              "(same step for 𝒜₀: eqs. (32)–(33), (43))",
                              f"{QUOTE_47} … {QUOTE_53} … {QUOTE_67}"),
        tolerance=TOL,
        uses=("W.theorem", "W.memory-def.normalisation", "W.activations", "W.lyapunov-local"),
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        notes=NOTES,
    ),
    Claim(
        id="W.theorem.rnn-step.def31",
        summary="the same step with Def. 3.1's |x|∞: M(t) = 1/(t + 1)",
        title="The step of Thm 3.9's proof with Def. 3.1's normalisation |x|_∞",
        statement=StableStep(offset=Fraction(0)),
        provenance=Provenance("W", "App. A.9 eqs. (47), (53)–(54), (67)–(68); Def. 3.1 eq. (5); "
                              "Thm 3.9 eq. (15)",
                              f"{QUOTE_47} … {QUOTE_53} … {QUOTE_67} … {QUOTE_5}"),
        tolerance=TOL,
        uses=("W.theorem", "W.memory-def.normalisation"),
        symbolic=symbolic,
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        reading="M as in Def. 3.1 eq. (5) — the memory function of Thm 3.9's conclusion (15) — instead of "
                "(67)'s |x|_∞ + 1 (see W.memory-def.normalisation)",
        notes=NOTES,
    ),
]
