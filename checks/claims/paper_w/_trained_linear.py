"""W.stable-exp: the trained-RNN evidence (W Fig. 1, §3.2; App. D), beside App. D's least-squares
fits.

App. D fits Fig. 1's linear RNNs by least squares ("So we did not use gradient-based
optimisation"). Here linear RNNs of every width m of the claim are also *trained*: Adam on each
target's memory ρ on t ∈ [1, T] (:mod:`recmem.numerics.linear_rnn_training`: diagonal W, App. D's
optimiser settings for its nonlinear RNNs — learning rate 0.005, mean squared error, batch 128,
stop at validation loss 1e-8 — with a budget sized for ``recmem verify``: VERIFY_TRAINING), and
E_m(β) of the trained sequence is estimated at β = 0 and at the claim's smallest β's with the
claim's estimator (samples and first-order points in Def. 3.4's ball of (W, U, c), float64).

The training and the estimates do not depend on the statement: computed once per parameter set,
seed, norm and device (:func:`recmem.checks.claims.paper_w._stability.data`) and shared by the
statement and its negative controls, which :func:`judge` then reads afresh from
``ctx.law(StableApproximation)`` — the same three tests as App. D's fits, on the trained sequence:

1. each unstable-role target: E_m(0) falls as m grows (approximation);
2. each unstable-role target: E_m(β) − E_m(0) moves with m in the stated direction at each small β;
3. each stable-role target: E_m(β) − E_m(0) does not grow with m (significant growth FAILS, or is
   INCONCLUSIVE for a finite exponential sum, which provably has a stable approximation: then the
   training, not the memory, made the sequence unstable).

The tests are supplementary (kind ``numeric``: a pass does not decide the study claim; a FAIL
still fails it). What a trained sequence can say: it is one approximant sequence, found by
gradient descent, at finite m. A stable trained sequence supports the existence half at these widths; for the
non-existence half (a statement about every sequence) growth along it supports the statement and
its absence is no evidence against it — test 2 is then INCONCLUSIVE, not FAIL, unless the
opposite trend is significant.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o._studies import trend_evidence
from recmem.checks.claims.paper_w._stability import data, fmt
from recmem.checks.oracle_evidence import not_judged
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.linear_rnn_training import TrainSettings
from recmem.numerics.training import LossCheck
from recmem.theory.stability import StableApproximation

# verify-sized training: one full batch of 128 training times per epoch (App. D's batch), Adam at
# App. D's learning rate; 1500 steps of both targets' banks (one stack) take about 2 s on one core
VERIFY_TRAINING = TrainSettings(epochs=1500, batch_size=128, train_size=128, every=10**9)
BY = ("target", "m")
CHECK = "trained linear RNNs (Adam)"


@dataclass(frozen=True)
class TrainedCell:
    """One trained width: E_m(β) at β = 0 and the small β's, and how the training ended."""

    target: str
    m: int
    errors: tuple[float, ...]  # E_m(β) for β in the study's β's (β = 0 first)
    rates: tuple[float, ...]  # the trained decay rates −w_i
    stopped: str
    epochs: int
    # the oracle of the training (issue 19): the mean squared fitting error of ρ on the evaluation
    # grid of the trained θ_m and of its untrained start, both evaluated afresh in float64 numpy
    # (recmem.numerics.linear_rnn_training.fitting_errors), not read from the history
    loss: float = math.nan
    initial_loss: float = math.nan

    def loss_check(self) -> LossCheck:
        """Did width m train? Its final loss against half of its untrained start's."""
        return LossCheck(f"{self.target} m={self.m}", self.loss, self.initial_loss,
                         "the untrained start's loss", self.epochs, self.stopped)

    @property
    def excess(self) -> tuple[float, ...]:
        return tuple(e - self.errors[0] for e in self.errors[1:])


@dataclass(frozen=True)
class TrainedStudy:
    """The trained sequence of both targets: cells by (target, m), the β's, the seconds spent."""

    cells: dict[tuple[str, int], TrainedCell]
    betas: tuple[Fraction, ...]
    seconds: float


def _seeds(seed: int, target: str, ms: Any) -> tuple[int, list[int]]:
    """The training seed (times and mini-batches) of a target and the initial seed of each width
    (independent of the other widths), from the claim's seed."""
    from recmem.checks.claims.paper_w.stable_exp import TARGETS

    i = TARGETS.index(target)
    train = int(np.random.default_rng([seed, 11, i]).integers(0, 2**62))
    return train, [int(np.random.default_rng([seed, 12, i, int(m)]).integers(0, 2**62)) for m in ms]


def trained_study(ctx: Context, device: str = "cpu",
                  settings: TrainSettings = VERIFY_TRAINING) -> TrainedStudy:
    """Train both targets' linear RNNs at every width of the claim and estimate their E_m(β) at
    β = 0 and the claim's smallest β's (statement-independent: shared by the controls; the
    trained models are shared by the norms' readings too)."""
    from recmem.checks.claims.paper_w.stable_exp import _hp, _key

    key = _key(ctx, "trained", device, repr(settings))
    study, _ = data(key, lambda: _compute(ctx, device, settings, _hp(ctx)))
    return study


def _banks(ctx: Context, device: str, settings: TrainSettings) -> tuple[dict[str, Any], float]:
    """Per target: (its trained θ_m in the order of the widths, how training stopped, epochs);
    and the seconds spent. Keyed without the norm: training reads none."""
    from recmem.checks.claims.paper_w.stable_exp import TARGETS, _grid, _kernel
    from recmem.numerics.linear_rnn_training import linear_rnn_bank, train_banks

    def make() -> dict[str, Any]:
        seeds = [_seeds(ctx.seed, tg, ctx["ms"]) for tg in TARGETS]
        # both targets' banks in one stack: each trains as train_bank would train it alone (its
        # times, batches, starts and gradients), one Adam step for both instead of one per bank
        banks, hist = train_banks([_kernel(ctx, tg) for tg in TARGETS], _grid(ctx),
                                  tuple(ctx["ms"]), settings, seeds=[s for s, _ in seeds],
                                  init_seeds=[init for _, init in seeds], device=device)
        out = {}
        for tg, bank, (_, init) in zip(TARGETS, banks, seeds, strict=True):
            # the untrained start (the same seeds): the reference of the training oracle
            start = linear_rnn_bank(tuple(ctx["ms"]), init, settings.rates).thetas()
            out[tg] = (bank.thetas(), hist.stopped, hist.epochs, start)
        return out

    params = tuple(sorted((k, str(v)) for k, v in ctx.params.items()))
    return data((params, ctx.seed, "trained-banks", device, repr(settings)), make)


def _compute(ctx: Context, device: str, settings: TrainSettings,
             betas: tuple[Fraction, ...]) -> TrainedStudy:
    from recmem.checks.claims.paper_w.stable_exp import KEEP, PREDICTED, TARGETS, _grid, _kernel
    from recmem.numerics.linear_rnn_training import fitting_errors, perturbation_estimate

    t0 = time.perf_counter()
    banks, seconds = _banks(ctx, device, settings)
    grid, norm, ms = _grid(ctx), ctx.law(StableApproximation).norm, tuple(ctx["ms"])
    cells = {}
    for i, tg in enumerate(TARGETS):
        kernel = _kernel(ctx, tg)
        thetas, stopped, epochs, start = banks[tg]
        for m, theta, theta0 in zip(ms, thetas, start, strict=True):
            est = perturbation_estimate(theta, kernel, grid, betas, int(ctx["samples"]),
                                        (ctx.seed, 13 + i, m), norm, PREDICTED, KEEP)
            cells[(tg, m)] = TrainedCell(tg, m, tuple(float(v) for v in est.values),
                                         tuple(float(-w) for w in np.diag(theta.W)), stopped,
                                         epochs, fitting_errors(theta, kernel, grid)[1],
                                         fitting_errors(theta0, kernel, grid)[1])
    return TrainedStudy(cells, betas, seconds + time.perf_counter() - t0)


# ---- judging (reads the statement) -------------------------------------------------------------
def _rows(study: TrainedStudy, target: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """E_m(0) rows and excess rows (per m and small β) of one target."""
    cells = sorted((c for c in study.cells.values() if c.target == target), key=lambda c: c.m)
    e0 = [{"target": target, "m": c.m, "E0": c.errors[0]} for c in cells]
    excess = [{"target": target, "m": c.m, "beta": str(b), "excess": x}
              for c in cells for b, x in zip(study.betas[1:], c.excess, strict=True)]
    return e0, excess


def judge(backend: AbstractBackend, law: StableApproximation, study: TrainedStudy,
          realisable: dict[str, str], describe: dict[str, str]) -> list[Evidence]:
    """The three tests (module docstring) on the trained sequence, in the directions and for the
    roles ``law`` states. ``realisable``: targets with a finite exponential-sum kernel (→ their
    description); ``describe``: every target's kernel description."""
    out = []
    for tg in law.unstable:
        e0, excess = _rows(study, tg)
        for ev in (trend_evidence(backend, e0, f"{CHECK}, unstable-role target: trend of E_m(0) in "
                                  "m (approximation)", "m", "E0", "decreasing", [], BY),
                   trend_evidence(backend, excess, f"{CHECK}, unstable-role target: trend of "
                                  "E_m(β) − E_m(0) in m at each small β", "m", "excess",
                                  law.excess_trend, ["beta"], BY)):
            ev.message = f"target {describe[tg]}: " + ev.message
            out.append(ev)
    for tg in law.stable:
        _, excess = _rows(study, tg)
        ev = trend_evidence(backend, excess, f"{CHECK}, stable-role target: E_m(β) − E_m(0) not "
                            "increasing in m", "m", "excess", "increasing", ["beta"], BY)
        growth = ev.data["test"]
        if growth["outcome"] == "pass" and tg in realisable:
            ev.outcome = Outcome.INCONCLUSIVE
            ev.message = (f"the trained sequence for {describe[tg]} grows ({growth['reason']}), yet "
                          "the target provably admits a stable approximation (its exact "
                          "realisation): the training, not the memory, is unstable here")
        elif growth["outcome"] == "pass":
            ev.outcome = Outcome.FAIL
            ev.message = (f"E_m(β) − E_m(0) of the trained sequence for {describe[tg]} grows "
                          f"significantly with m ({growth['reason']})")
        else:
            ev.outcome = Outcome.PASS
            ev.message = f"no growth with m for {describe[tg]} ({growth['reason']})"
        ev.tolerance = "passes unless the growth is significant (one-sided α = 0.01 per stratum)"
        out.append(ev)
    return out


def _summary(backend: AbstractBackend, study: TrainedStudy, describe: dict[str, str],
             settings: TrainSettings) -> Evidence:
    """The trained sequence itself (statement-independent): E_m(0), the excess per unit β at the
    smallest β, the slowest trained rate; PASS when every width trained to finite parameters."""
    rows = []
    for tg in sorted({c.target for c in study.cells.values()}):
        cells = sorted((c for c in study.cells.values() if c.target == tg), key=lambda c: c.m)
        rows.append(f"{describe[tg]} ({cells[0].stopped} after {cells[0].epochs} epochs): "
                    + "; ".join(f"m={c.m} E(0)={fmt(c.errors[0])} (E(β₁)−E(0))/β₁="
                                f"{fmt(c.excess[0] / float(study.betas[1]))} min rate "
                                f"{fmt(min(c.rates))}" for c in cells))
    diverged = [f"{c.target} m={c.m}" for c in study.cells.values()
                if c.stopped == "diverged" or not all(np.isfinite(c.errors))]
    return Evidence(
        check=f"{CHECK}: fits and E_m(β) at the smallest β's", kind="numeric",
        backend=backend.name, outcome=Outcome.INCONCLUSIVE if diverged else Outcome.PASS,
        precision_bits=53, instances=len(study.cells), seconds=study.seconds,
        message=(f"diverged: {', '.join(diverged)}; " if diverged else "")
        + f"Adam lr {settings.lr}, MSE on ρ at {settings.train_size} times, batch "
          f"{settings.batch_size}, up to {settings.epochs} epochs or validation loss "
          f"{settings.target_loss:g}; β ∈ {{{', '.join(map(str, study.betas))}}} — "
        + " | ".join(rows))


TRAINED_CHECK = f"{CHECK}: oracle — every width trained (final fitting loss)"


def training_oracle(backend: AbstractBackend, study: TrainedStudy) -> Evidence:
    """The run-time oracle of the trained sequence (issue 19): each width's final mean squared
    fitting error on the grid at most half its untrained start's (a loss not finite or a diverged
    training: ERROR; a width that did not train: FAIL), the losses in the evidence."""
    from recmem.checks.oracle_evidence import training_evidence

    cells = sorted(study.cells.values(), key=lambda c: (c.target, c.m))
    return training_evidence(TRAINED_CHECK, backend.name, [c.loss_check() for c in cells],
                             "final MSE of ρ on the grid (float64, from the trained θ) ≤ ½ × the "
                             "untrained start's", 53)


def trained_evidence(backend: AbstractBackend, ctx: Context,
                     settings: TrainSettings = VERIFY_TRAINING) -> list[Evidence]:
    """W.stable-exp's trained-RNN evidence in ``backend``'s torch device (CPU for other float64
    arithmetics): the trained sequence's summary and the three tests of the module docstring,
    read from ``ctx.law(StableApproximation)`` (so the negative controls are judged on it too)."""
    from recmem.checks.claims.paper_w.stable_exp import TARGETS, _kernel, _realisable

    law = ctx.law(StableApproximation)
    device = (backend.spec.device or "cpu") if backend.spec.kind == "torch" else "cpu"
    study = trained_study(ctx, device, settings)
    describe = {tg: _kernel(ctx, tg).description for tg in TARGETS}
    tests = judge(backend, law, study, _realisable(ctx), describe)
    # App. D does not train linear RNNs (it fits them), so the trained tests are supplementary:
    # kind "numeric", outside the claim's deciding kinds ("statistical"). Their passes and
    # inconclusive results do not decide the verdict; a FAIL (significant growth for a
    # stable-role target) still fails the claim, as every FAIL does.
    for ev in tests:
        ev.kind = "numeric"
    oracle = training_oracle(backend, study)
    not_judged(tests, [oracle])  # the tests rest on the trained sequence
    return [_summary(backend, study, describe, settings), oracle, *tests]


__all__ = ["CHECK", "TRAINED_CHECK", "VERIFY_TRAINING", "TrainedCell", "TrainedStudy", "judge",
           "trained_evidence", "trained_study", "training_oracle"]
