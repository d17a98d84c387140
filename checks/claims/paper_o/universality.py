"""O.universality: a frozen random linear RNN followed by a trained position-wise MLP reproduces a
causal nonlinear sequence-to-sequence map (O §4, Thm. 1, App. E.3).

The statement (:class:`recmem.theory.universality.Universality`) makes "reproduces" checkable: on
App. E.3's controlled Lotka–Volterra map u_{1:k} ↦ z_k, the readout's validation error is at most
1/factor (default 10) of that of the same MLP trained on what a model without memory sees, the
current input u_k and the timestamp node x_{k,0} (the baseline). The controls change what the
readout sees (current input and timestamp only: no memory) or the readout (affine: no MLP); a near
control claims the no-memory model only 5/4× better than the baseline (false for every factor > 1:
it is the baseline's own model class), so the claim shows that its test separates a 25 % gain
from none, not only the 10× of the far controls.

Numeric side (torch arithmetics; the training is torch's, so numpy, mpmath and flint are SKIPPED):
a small version of the App. E.3 experiment (recmem.numerics.lotka_volterra), run in the backend's
dtype on its device — by default L = 256 steps, 64 trajectories (70 % train), N = 64 nodes on
T(0.99, 1), inputs with |α_i| ≤ 3/10, an MLP with 2 hidden layers of 64, 40 Adam epochs — repeated
over 5 independent replicates (each its own RNN draw, inputs and initialisation). Per replicate
the statement's readout and the baseline are trained on the same data; the deciding evidence is a one-sided
t-test on the replicates' log error ratios log(error/baseline error) against log(1/factor) at
α = 0.01: PASS when the upper confidence bound is below it, FAIL (a statistical failure, never a
certified refutation) when the lower bound is above it, INCONCLUSIVE otherwise. The data and the
baseline do not depend on the statement: they are computed once per run and shared with the
controls (``ctx.shared``); each statement's readout is trained once per (features, readout) pair
(the near control reuses the no-memory control's models: it differs from it only in the factor).
The replicates' models train together, one stack per (features, readout)
(recmem.numerics.lotka_volterra.train_readouts: each model exactly as it would train alone — its
own data, initialisation, batches and gradient — in one step per batch for all; the per-epoch
validation losses, which nothing here reads, are not computed).

Counterexample search (``strategy``/``holds``): a small grid of designs (replicate draws at the
claim's amplitude and sizes; other amplitudes by ``--param amplitude``), each judged by one
trained pair with a paired one-sided t-test over its validation trajectories of
factor·e(j) − e_baseline(j): True when the statement's inequality holds at α, False when the
opposite holds at the search level α/500 (recmem.numerics.designs.search_level), None otherwise.
Statistical, not exact: a False makes the claim FAILED, never REFUTED (CLAIMS.md ground rule 2).
Hypothesis exhausts the grid. The search trains on torch:cpu in float64 whatever arithmetics are
selected; its designs are the first replicates of the numeric side, whose trainings they share
(``ctx.shared``): when the run selects torch:cpu, the first design trains every replicate, one
stack per (features, readout), and the numeric side then trains nothing; otherwise (another
arithmetic only, ``recmem fuzz``) the search trains only its own draws.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import (
    Claim,
    Context,
    Param,
    Provenance,
    at_least,
    by_arithmetic,
    grows,
    parse_fraction,
)
from recmem.checks.oracle_evidence import not_judged
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.theory.universality import BASELINE, Universality

# Declared level of the replicate test (fixed in code: changing α after seeing data defeats it).
ALPHA = 0.01
CHECK = "validation error vs the no-memory baseline (replicates)"
# The search grid: the first replicate draws, and amplitudes as multiples of the claim's.
SEARCH_DRAWS = 2
# the search's amplitudes, as fractions of the claim's A: only A itself, so that every design is one
# of the numeric side's replicates and its training is shared (A/2 as well cost `recmem verify`
# about 15 s of new training per statement; `recmem fuzz --param amplitude=…` reaches other A)
SEARCH_AMPLITUDE_FACTORS = (Fraction(1),)
# Random streams (independent draws for data, RNN and initialisation, per replicate or design).
_DATA, _RNN, _INIT_READOUT, _INIT_BASELINE = 11, 12, 13, 14


def _size(ctx: Context, nodes: int | None = None, amplitude: Fraction | None = None) -> Any:
    from recmem.numerics.lotka_volterra import TaskSize

    return TaskSize(length=int(ctx["L"]), trajectories=int(ctx["trajectories"]),
                    nodes=int(ctx["N"] if nodes is None else nodes), hidden=int(ctx["hidden"]),
                    amplitude=float(ctx["amplitude"] if amplitude is None else amplitude),
                    epochs=int(ctx["epochs"]), batch=int(ctx["batch"]), lr=float(ctx["lr"]))


def _device_dtype(backend: AbstractBackend) -> tuple[str, Any]:
    """The torch device and dtype of a torch backend (BackendUnavailable for an absent GPU)."""
    import torch

    device = backend.spec.device or "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise BackendUnavailable("torch:cuda: no CUDA device")
    return device, torch.float32 if backend.spec.dtype == "float32" else torch.float64


def _stream(*parts: int) -> int:
    """A pinned 62-bit seed from integers (numpy's SeedSequence: distinct parts, unrelated seeds)."""
    return int(np.random.default_rng(list(parts)).integers(0, 2**62))


@dataclass(frozen=True)
class Pair:
    """One data draw judged: per-trajectory validation errors of the readout and the baseline."""

    readout: np.ndarray
    baseline: np.ndarray
    seconds: float
    # run-time oracles (issue 19): did each readout train (recmem.numerics.training.LossCheck),
    # and do two routes of the recurrence agree on the draw's states (linear_recurrence.RouteCheck)
    losses: tuple[Any, ...] = ()
    routes: tuple[Any, ...] = ()

    @property
    def ratio(self) -> float:
        return float(self.readout.mean() / self.baseline.mean())


def _pairs(ctx: Context, size: Any, data_seeds: list[int], device: str, dtype: Any) -> list[Pair]:
    """Train the statement's readout and the baseline on the draws of the task seeded by
    ``data_seeds`` (the draws and the baselines do not depend on the statement: kept in
    ``ctx.shared`` for its controls; the statement's own readouts too, keyed by the two fields
    they depend on, so that the numeric side and the search share them, and so do statements
    that differ only in the factor). The models not yet trained train together, one stack per
    (features, readout) (:func:`recmem.numerics.lotka_volterra.train_readouts`: each model as it
    would alone, its own data, initialisation and batches; one step for all)."""
    from recmem.numerics.lotka_volterra import make_task, train_readouts

    law = ctx.law(Universality)
    threads = 1 if device == "cpu" else None
    t0 = time.perf_counter()
    dkeys = [("O.universality", seed, size, law.r_min, law.r_max, device, str(dtype))
             for seed in data_seeds]
    for seed, dkey in zip(data_seeds, dkeys, strict=True):
        if dkey not in ctx.shared:
            # strict=False: a disagreement of the recurrence's routes is reported by _torch (ERROR)
            ctx.shared[dkey] = make_task(size, np.random.default_rng([seed, _DATA]),
                                         _stream(seed, _RNN), law.r_min, law.r_max, device, dtype,
                                         strict=False)

    def trained(suffix: tuple[str, ...], features: str, readout: str, stream: int) -> list[Any]:
        keys = [(*dkey, *suffix) for dkey in dkeys]
        todo = [i for i, key in enumerate(keys) if key not in ctx.shared]
        scores = train_readouts([ctx.shared[dkeys[i]] for i in todo], features, readout,
                                [_stream(data_seeds[i], stream) for i in todo], threads=threads)
        for i, score in zip(todo, scores, strict=True):
            ctx.shared[keys[i]] = score
        return [ctx.shared[key] for key in keys]

    base = trained(("baseline",), BASELINE[0], BASELINE[1], _INIT_BASELINE)
    # the readout depends on the statement only through (features, readout), both in the key
    # (its initialisation stream is a function of the draw): a control that changes only the
    # factor — the near control — is judged on the same trained models, retraining nothing
    mine = trained((law.features, law.readout), law.features, law.readout, _INIT_READOUT)
    seconds = (time.perf_counter() - t0) / max(1, len(data_seeds))
    return [Pair(m.per_trajectory, b.per_trajectory, seconds,
                 (m.loss_check(f"readout ({law.features}, {law.readout})"),
                  b.loss_check(f"baseline ({', '.join(BASELINE)})")),
                 tuple(ctx.shared[dkey].route_checks))
            for m, b, dkey in zip(mine, base, dkeys, strict=True)]


def t_bounds(values: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """The mean of ``values`` and its one-sided (1 − α) lower and upper Student-t confidence
    bounds (each at level α; ±inf for fewer than two values)."""
    from scipy import stats

    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return mean, -math.inf, math.inf
    half = float(stats.t.ppf(1 - alpha, n - 1)) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _torch(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The replicate study: per replicate the statement's readout and the baseline on the same
    draw; a one-sided t-test on the log error ratios against log(1/factor) (module docstring)."""
    law = ctx.law(Universality)
    device, dtype = _device_dtype(backend)
    size = _size(ctx)
    t0 = time.perf_counter()
    pairs = _pairs(ctx, size, [_stream(ctx.seed, r) for r in range(int(ctx["replicates"]))],
                   device, dtype)
    logs = np.log([p.ratio for p in pairs])
    mean, lower, upper = t_bounds(logs, ALPHA)
    threshold = law.log_threshold
    if upper <= threshold:
        outcome, says = Outcome.PASS, "below"
    elif lower > threshold:
        outcome, says = Outcome.FAIL, "above"
    else:
        outcome, says = Outcome.INCONCLUSIVE, "not resolved against"
    g = math.exp(mean)
    msg = (f"{len(pairs)} replicates: error ratio (readout / no-memory baseline) geometric mean "
           f"{g:.3g}, one-sided {100 * (1 - ALPHA):g} % bounds [{math.exp(lower):.3g}, "
           f"{math.exp(upper):.3g}], {says} {law.threshold_text} = {1 / float(law.factor):.3g}; per "
           "replicate " + ", ".join(f"{p.ratio:.3g}" for p in pairs)
           + f". Setting: L = {size.length}, {size.trajectories} trajectories "
           f"({size.n_train} train), N = {size.nodes}, λ ~ T({law.r_min}, {law.r_max}), MLP 2×"
           f"{size.hidden}, {size.epochs} epochs (batch {size.batch}, lr {size.lr}), inputs "
           f"α₁cos + α₂sin with |α_i| ≤ {size.amplitude}; {backend.name}")
    oracles = _oracles(backend, pairs)
    ev = Evidence(
        check=CHECK, kind="statistical", backend=backend.name, outcome=outcome,
        instances=len(pairs), residual=f"{math.exp(upper):.4g}",
        tolerance=f"{1 / float(law.factor):.4g}",
        tolerance_source=f"upper one-sided {100 * (1 - ALPHA):g} % Student-t bound of the "
                         "geometric-mean error ratio over independent replicates; the statement "
                         f"asks ≤ {law.threshold_text}",
        message=msg, seconds=time.perf_counter() - t0,
        data={"ratios": [round(p.ratio, 6) for p in pairs],
              "readout_errors": [round(float(p.readout.mean()), 7) for p in pairs],
              "baseline_errors": [round(float(p.baseline.mean()), 7) for p in pairs],
              "alpha": ALPHA, "settings": {**size.__dict__, "replicates": len(pairs)}})
    # the test rests on the states and the readouts: not judged when they failed their oracle
    not_judged([ev], oracles)
    return [*oracles, ev]


ROUTES_CHECK = "oracle: recurrence routes agree on the states (first trajectory of each replicate)"
TRAINED_CHECK = "oracle: every trained readout trained (final training loss)"


def _oracles(backend: AbstractBackend, pairs: list[Pair]) -> list[Evidence]:
    """The run-time oracles under the replicate study (issue 19; recmem.checks.oracle_evidence):
    the states' route against the FFT readout and the weighted-sum final state on each
    replicate's first trajectory (a disagreement beyond both error bounds: ERROR, naming both
    values), and each Adam-trained readout's final training loss against half the constant
    predictor's (not finite: ERROR; not below: FAIL — a readout that did not train says nothing
    about the statement)."""
    from recmem.checks.oracle_evidence import routes_evidence, training_evidence

    return [routes_evidence(ROUTES_CHECK, backend.name, [c for p in pairs for c in p.routes], 53),
            training_evidence(TRAINED_CHECK, backend.name, [c for p in pairs for c in p.losses],
                              "final training loss (recomputed on the final parameters) ≤ ½ × "
                              "the constant predictor's loss on the same standardised targets")]


def validate(params: Mapping[str, Any]) -> str | None:
    """The amplitude must keep the Euler trajectories in the positive quadrant at this L: checked
    on 256 inputs with α on the boundary of [−A, A]² (the largest inputs; a drawn interior input
    that still leaves the quadrant is reported by the run itself)."""
    from recmem.numerics.lotka_volterra import fourier_basis, simulate

    a, length = float(params["amplitude"]), int(params["L"])
    t = np.linspace(-1, 1, 64, endpoint=False)
    one = np.ones_like(t)
    edge = a * np.concatenate([np.stack(p, axis=1) for p in
                               ((one, t), (-one, -t), (t, -one), (-t, one))])
    z = simulate(edge @ fourier_basis(length))
    if not (np.all(np.isfinite(z)) and np.all(z > 0)):
        return (f"amplitude {params['amplitude']} drives a trajectory out of the positive quadrant "
                f"at L = {length} (z₂ < 0, then z₁ blows up): choose a smaller amplitude")
    return None


NUMERIC = by_arithmetic({"torch": _torch}, "the readouts are trained with torch: run a torch "
                                           "arithmetic (torch:cpu, torch:cuda)")


# ---- the counterexample search ------------------------------------------------------------------
@dataclass(frozen=True)
class Design:
    """One search instance: replicate ``draw`` of the run's seed (its RNN, inputs and
    initialisation), the RNN size N and the input amplitude A (the claim's other sizes)."""

    draw: int
    nodes: int
    amplitude: Fraction

    def describe(self) -> str:
        return f"draw {self.draw}, N = {self.nodes}, |α_i| ≤ {self.amplitude}"


def strategy(ctx: Context) -> Any:
    """The search grid: the first SEARCH_DRAWS replicate draws × the amplitudes
    SEARCH_AMPLITUDE_FACTORS·A at the claim's N. Small and finite, so Hypothesis judges every design
    once and stops; the designs at A are the numeric side's first replicates (their trainings are
    reused)."""
    from hypothesis import strategies as st

    a = Fraction(ctx["amplitude"])
    return st.builds(Design, st.integers(0, SEARCH_DRAWS - 1), st.just(int(ctx["N"])),
                     st.sampled_from([f * a for f in SEARCH_AMPLITUDE_FACTORS]))


def holds(design: Design, ctx: Context) -> Any:
    """One design judged by one trained pair (torch:cpu, float64): the paired one-sided t-test over
    validation trajectories of d_j = factor·e(j) − e_baseline(j) (the statement: mean d ≤ 0).
    True when the upper bound at α is below 0, False when the lower bound at the search level
    α/SEARCH_DESIGNS is above 0, None otherwise; statistical."""
    import torch

    from recmem.checks.search import Instance
    from recmem.numerics.designs import search_level

    law = ctx.law(Universality)
    size = _size(ctx, design.nodes, design.amplitude)
    # the designs of the grid train together; at the claim's own sizes they are the numeric
    # side's first replicates, so when that side runs on torch:cpu (float64) every replicate
    # trains here, in the same stack (the numeric side reuses them all and trains nothing: one
    # stack per (features, readout) instead of one for the search and one for the other
    # replicates); elsewhere (another arithmetic, `recmem fuzz`, a design of other sizes) only
    # the grid's draws
    grid = range(SEARCH_DRAWS)
    if size == _size(ctx) and "torch:cpu" in ctx.arithmetics:
        grid = range(max(SEARCH_DRAWS, int(ctx["replicates"])))
    draws = sorted({design.draw, *grid})
    pairs = _pairs(ctx, size, [_stream(ctx.seed, d) for d in draws], "cpu", torch.float64)
    pair = pairs[draws.index(design.draw)]
    d = float(law.factor) * pair.readout - pair.baseline
    upper = t_bounds(d, ALPHA)[2]
    lower = t_bounds(d, search_level(ALPHA))[1]
    values = {"design": design.describe(), "seed": ctx.seed, "error ratio": f"{pair.ratio:.4g}",
              "claimed": f"≤ {law.threshold_text}", "validation trajectories": len(d)}
    ratio = pair.ratio * float(law.factor)
    how = (f"statistical: paired one-sided t-test over validation trajectories (α = {ALPHA} for "
           f"True, α/500 = {search_level(ALPHA):.0e} for False) of factor·error − baseline error, "
           "for one trained pair")
    if upper < 0:
        return Instance(True, how, values, ratio=ratio, statistical=True)
    if lower > 0:
        return Instance(False, how, values, f"error ratio {pair.ratio:.3g} > {law.threshold_text}",
                        ratio=ratio, statistical=True)
    return Instance(None, "undecided: " + how, values, ratio=ratio, statistical=True)


CLAIMS = [
    Claim(
        id="O.universality",
        summary="RNN + MLP beats the no-memory baseline by ≥ 10× on Lotka–Volterra (small "
                "version); an affine readout does not",
        decided_by=("statistical",),
        title="A frozen random linear RNN + a trained position-wise MLP reproduces a causal "
              "nonlinear seq-to-seq map",
        statement=Universality(),
        provenance=Provenance(
            "O", "§4, Thm. 1, eq. (7), App. E.3 (eq. 37–38, Fig. 9)",
            "Theorem 1 (Informal) Assume finite-length sequence data is generated from a "
            "sequence-to-sequence model such that Assumption (B) holds. Consider a randomly "
            "initialized linear recurrent network of size N, with N large enough depending on "
            "the sparseness of the input set [...]. Then, there exists a wide enough MLP which, "
            "if applied pointwise to the RNN hidden states, leads to perfect reconstruction of "
            "the system's output. — App. E.3: we consider inputs sampled from a 2-dimensional "
            "Fourier basis, and compute the outputs as Euler discretizations of the following "
            "Lotka-Volterra non-linear controlled ODE: ż₁ = z₁(a − bz₂) (37), ż₂ = −z₂(c − dz₁) "
            "+ u(t) (38). We set the input length to 2048 and use hyperparameters a = 1, b = 0.6, "
            "c = 1, d = 0.3, z₁(0) = 1, z₂(0) = 0.5 [...] stepsize 0.0075. [...] RNN hidden "
            "state of dimension 128. We fix the linear RNN to random initialization following "
            "Lemma 6 with r_min = 0.99, r_max = 1. For the MLP (which we train), we define this "
            "to have 3 layers (2 hidden layers) with 512 neurons each. [...] we sample 1024 "
            "input-output trajectories and use 70% for training and 30% for validation. [...] "
            "the MLP was able to translate the input tokens representations into the correct "
            "values of the output sequence."),
        tolerance=f"statistical: one-sided Student-t test at α = {ALPHA} on log(error ratio) over "
                  "independent replicates against log(1/factor) (torch arithmetics, in the "
                  "backend's dtype); search: paired t-test over validation trajectories per "
                  "design (α for True, α/500 for False)",
        uses=("O.ring", "O.timestamp"),
        params=(
            # float64 states: trajectories × L × N × 8 bytes (×2: features and gradients), each
            # estimated at the other parameters' defaults (the claim's cost bounds them jointly)
            Param("L", 256, "sequence length (Euler steps of 0.0075); paper: 2048", int,
                  check=at_least(2), max=4096, cost=grows(16 * 64 * 64)),
            Param("trajectories", 64, "input-output trajectories, 70 % train; paper: 1024", int,
                  check=at_least(4), max=2048, cost=grows(16 * 256 * 64)),
            Param("N", 64, "RNN state size (timestamp node + N − 1 input nodes); paper: 128", int,
                  check=at_least(2), max=1024, cost=grows(16 * 64 * 256)),
            Param("hidden", 64, "MLP width (2 hidden layers); paper: 512", int,
                  check=at_least(1), max=4096, cost=grows(8 * 4, 2)),  # h² weights, grads, Adam
            Param("amplitude", Fraction(3, 10), "inputs α₁cos + α₂sin with |α_i| ≤ amplitude "
                  "(keep trajectories positive: ≤ 2/5 at L = 256, 1/10 at 512, 1/20 at 2048)",
                  parse_fraction, check=lambda v: None if v > 0 else "must be > 0"),
            Param("epochs", 40, "Adam epochs of the MLP", int, check=at_least(1), max=10**4),
            Param("batch", 256, "Adam batch (rows = trajectory positions; ≥ 8: smaller ones make "
                  "an epoch thousands of steps)", int, check=at_least(8), max=65536,
                  cost=grows(8 * 512 * 4)),  # activations of a batch (at the paper's width 512)
            Param("lr", Fraction(1, 200), "Adam learning rate", parse_fraction,
                  check=lambda v: None if v > 0 else "must be > 0"),
            Param("replicates", 5, "independent replicates of the study (RNN, data, init)", int,
                  check=at_least(2), max=100),
        ),
        validate=validate,
        # float64 states and their gradients: trajectories × L × N × 16 bytes
        cost=lambda v: 16 * int(v["trajectories"]) * int(v["L"]) * int(v["N"]),
        numeric=NUMERIC,
        strategy=strategy,
        holds=holds,
        notes="A CPU-sized version of App. E.3; the paper's sizes are `recmem reproduce "
              "O-lotka-volterra --scale paper`. The paper gives no number (Fig. 9 shows "
              "trajectories); the factor 10 against the no-memory baseline is recmem's reading "
              "of 'reproduces'. The timestamp node's λ₀ is real (|λ| of a Lemma 6 draw).",
    ),
]
