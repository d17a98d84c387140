"""W.theorem.rnn-step: the step of Thm 3.9's proof that stable RNN approximants have exponentially
decaying memory (W App. A.9, eqs. 91–104 and the closing appeal to Lemma A.10), under Def. 3.1 as
CLAIMS.md prints it (the sup over every x ≠ 0).

A saturating activation caps |dh/dt| while the input may be arbitrarily large: for the scalar
hardtanh RNN h′ = hardtanh(−h + x), ŷ = h, the input x = t + 1 keeps h(s) = s on [0, t], so
d/dt H_t(u^x)/|x| = 1/(t + 1). Its weight w = −1 stays Hurwitz under every perturbation of size
< 1, σ = hardtanh ∈ 𝒜₀, yet its memory decays like 1/t, not exponentially. With inputs bounded by 1
the same RNN stays in hardtanh's linear range and M(t) = e^{−t}.
"""

from __future__ import annotations

import time

import numpy as np

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.proof import Proof

QUOTE = ("By Lemma A.9, for any positive , there is an such that the following inequality holds for "
         "any , … The Lyapunov function is decaying exponentially for , … Last, by Lemma A.10, the "
         "target has exponentially decaying memory as it is approximated by a sequence of models with "
         "uniformly exponentially decaying memory.")
TIMES = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
RK4_DT = 2e-2
BETA = 0.5  # any β > 0 shows it; e^{βt}/(t + 1) grows from t = 1/β − 1 on


def saturation_proof() -> Proof:
    """Exact: h(s) = s solves h′ = hardtanh(x − h) on [0, t] when x ≥ t + 1, so M(t) ≥ 1/(t + 1),
    and e^{βt}/(t + 1) → ∞ for every β > 0; with |x| ≤ 1, h = x(1 − e^{−s}) stays linear, M = e^{−t}."""
    import sympy as sp

    s, t, x, beta = sp.symbols("s t x beta", positive=True)
    # On 0 ≤ s ≤ t ≤ x − 1 the argument x − h(s) = x − s ≥ 1: hardtanh gives 1 = d/ds s.
    arg_min = sp.simplify((x - s).subs(s, t).subs(x, t + 1))
    saturated = bool(arg_min >= 1)
    lower = sp.Integer(1) / (t + 1)  # rate 1 divided by |x| = t + 1
    grows = sp.limit(sp.exp(beta * t) * lower, t, sp.oo) == sp.oo
    # Bounded inputs |x| ≤ 1: h = x(1 − e^{−s}) has |x − h| = |x|e^{−s} ≤ 1 (linear range), h′ = x e^{−s}.
    xb = sp.Symbol("xb", real=True)
    hb = xb * (1 - sp.exp(-s))
    linear = sp.simplify(sp.diff(hb, s) - (xb - hb)) == 0
    holds = not (saturated and grows)
    return Proof(holds=holds, scope="the scalar hardtanh RNN w = −1, u = c = 1, b = 0 (a counterexample)",
                 method="exact solution h(s) = s in the saturated range (SymPy), limit of e^{βt}/(t + 1)",
                 counterexample=None if holds else {
                     "RNN": "h′ = hardtanh(−h + x), ŷ = h (w = −1, u = c = 1, b = 0)",
                     "hypotheses": "σ = hardtanh ∈ 𝒜₀ (c_σ = 1, Z₀ = 1); w + δ < 0 for every |δ| < 1 "
                                   "(Hurwitz under all perturbations of size < 1); weights bounded",
                     "input": "x = t + 1: h(s) = s on [0, t] (argument x − s ≥ 1, saturated)",
                     "M(t)": "≥ 1/(t + 1) for every t > 0",
                     "e^{βt} M(t)": "→ ∞ for every β > 0: not exponentially decaying",
                     "bounded inputs |x| ≤ 1": "h = x(1 − e^{−t}) stays linear, M(t) = e^{−t}"},
                 details={"min argument on [0, t]": arg_min, "e^{βt}/(t+1) → ∞": grows,
                          "bounded-input solution checks": linear})


def searched_exact(t: np.ndarray) -> np.ndarray:
    """The exact max over the searched magnitudes x of |d/dt H_t(u^x)|/x for the scalar RNN: saturated
    (rate 1) until s = x − 1, then linear (rate e^{−(s − x + 1)}); x ≤ 1 never saturates (rate x e^{−s})."""
    vals = []
    for x in mm.SCALAR_MAGS:
        onset = max(x - 1.0, 0.0)
        rate = np.where(t <= onset, 1.0, np.exp(-(t - onset)) * min(x, 1.0))
        vals.append(rate / x)
    return np.max(np.array(vals), axis=0)


def symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(saturation_proof(), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    kind = backend.spec.kind
    if kind not in ("numpy", "torch"):
        raise mm.unavailable(backend, "hardtanh is not analytic (no Taylor integration) and there is no ODE "
                             "solver in ball arithmetic; the lower bound is exact (symbolic side)")
    t0 = time.perf_counter()
    if kind == "numpy":
        lower, err = mm.searched_curve_numpy(mm.scalar_hardtanh_rnn(), mm.SCALAR_MAGS, ctx.seed, TIMES)
        src = mm.DOP853_ERROR
    else:
        lower, err = mm.searched_curve_torch(mm.scalar_hardtanh_rnn(), mm.SCALAR_MAGS, ctx.seed, TIMES,
                                             mm.torch_device(backend), RK4_DT)
        src = "RK4: max over candidates of |rate(Δt) − rate(2Δt)|/|x|∞"
    # The claim says e^{βt}M(t) → 0; the searched memory times e^{βt} grows along the grid instead.
    scaled = np.exp(BETA * TIMES) * (lower - err)
    exact = searched_exact(TIMES)
    shortfall = float(np.max(np.abs(exact - lower) / (err + 4 * mm.U64)))
    agrees = shortfall <= 1
    grows = bool(scaled[-1] > 10 * np.max(scaled[:-1]))
    # Numerics that reproduce the counterexample contradict the claim without certifying it: FAIL
    # (the certificate is the exact symbolic side); anything else leaves the numerics undecided.
    return [Evidence(check=f"scalar hardtanh RNN (w = −1): searched M(t) vs its exact value over the "
                           f"searched inputs (≥ 1/(2(t + 1))), and e^{{{BETA}t}}·M(t) on t = 1 … 16",
                     kind="numeric", backend=backend.name,
                     outcome=Outcome.FAIL if agrees and grows else Outcome.INCONCLUSIVE, precision_bits=53,
                     residual=mm._s(shortfall), tolerance="1",
                     tolerance_source=src + " (residual: |M − exact| / error bound)",
                     seconds=time.perf_counter() - t0,
                     message=("the searched memory equals the exact one and e^{βt}M(t) grows "
                              f"{scaled[-1] / scaled[0]:.3g}-fold: not exponentially decaying")
                     if agrees and grows else "the numerics do not reproduce the exact counterexample",
                     data={"t": TIMES.tolist(), "searched M(t)": lower.tolist(),
                           "exact over the searched inputs": exact.tolist(),
                           "1/(t+1)": (1 / (TIMES + 1)).tolist(), f"e^({BETA}t)·M(t)": scaled.tolist()})]


CLAIMS = [
    Claim(
        id="W.theorem.rnn-step",
        title="Stable RNN approximants have exponentially decaying memory (step of Thm 3.9's proof)",
        statement="An RNN with σ ∈ 𝒜₀ ∪ 𝒜₁ whose recurrent weights stay Hurwitz under every perturbation of "
                  "size ≤ β₀ (and bounded weights, eq. 16) has exponentially decaying memory "
                  "lim e^{βt} M(t) = 0 (Def. 3.1 with the sup over every x ≠ 0)",
        provenance=Provenance("W", "App. A.9 (proof of Thm 3.9), eqs. 91–104 and its last sentence", QUOTE),
        tolerance="exact (SymPy: saturated solution and limit); numerics: searched memory ≥ 1/(t + 1) − "
                  "integration error",
        uses=("W.theorem", "W.memory-def", "W.activations", "W.lyapunov-local"),
        symbolic=symbolic,
        numeric=numeric,
        reading="Def. 3.1 as CLAIMS.md prints it: the sup over every x ≠ 0, inputs of any size",
        notes="Why the proof does not cover it: eqs. 91–104 bound a Lyapunov function only while the state "
              "stays in the ball |v|₂ ≤ Υ of Lemma A.9, i.e. for small inputs; Def. 3.1's sup also ranges "
              "over large inputs, which saturate σ and keep dh/dt at its cap for a time that grows with |x|. "
              "Consequence for Thm 3.9 itself: this RNN, taken as its own approximant sequence, would make "
              "Thm 3.9 conclude exponential decay; recmem cannot certify the β₀-stability hypothesis in the "
              "Sobolev norm of eq. 13 for it, so W.theorem is not refuted on this basis, only flagged. With "
              "inputs bounded by 1 the same RNN has M(t) = e^{−t} (symbolic side), but bounded inputs do not "
              "rescue the step in general: App. I.1's W with hardtanh keeps M(t) ≥ 1 for |x|∞ = 1 "
              "(W.rnn-decaying).",
    ),
]
