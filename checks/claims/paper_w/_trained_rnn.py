"""W.theorem: the trained-RNN evidence (W Thm 3.9; App. D, Fig. 2–3), beside the constructed
approximants.

σ-RNNs (the claim's activation, direct recurrent weights) of every width m of the claim are
trained with Adam on both targets — App. D's optimiser settings (learning rate 0.005, mean squared
error, batch 128, stop at validation loss 1e-8) and training grid {Δt, …, 3.2}, with a budget sized
for ``recmem verify`` (:data:`VERIFY_TRAINING`) — as the Euler-discretised RNN of
:mod:`recmem.numerics.rnn_training`; all widths of both targets train at once as one stack,
each model on its own data, start, batches and gradient, as it would alone (``train_stack``) —
then measured on the claim's evaluation grid, β list, samples, Heaviside magnitudes and norm:
E_m(β), the perturbed models' memories, and the stability
radius β₀(m) of each trained model (the smallest weight perturbation after which its memory stops
decaying: :func:`recmem.numerics.rnn_training.euler_stability_radius`, exact up to a 1-D
minimisation).

The training and the measurements do not depend on the statement: computed once per parameter
set, seed and device (:func:`recmem.checks.claims.paper_w._stability.data`) and judged afresh for
the statement and each control (``ctx.law(InverseApproximation)``):

1. exponential-role target, hypotheses: the perturbed trained models' memories (β < β₀(m)) decay
   uniformly (a trend in t); the radius β₀(m) does not fall significantly with m;
2. exponential-role target, conclusion (15) on the target's exact memory at β = fraction·β₀, with
   β₀ = min_m β₀(m) of the trained models (SymPy limits,
   :func:`recmem.theory.stability.theorem_instances_proof`; the polynomial-role target's memory
   must not decay exponentially): tested only when the hypotheses were observed;
3. polynomial-role target, contrapositive: β₀(m) moves with m in the stated direction.

What a trained sequence can say: it is one sequence, found by gradient descent at finite m. The
theorem is an implication, so a trained sequence that misses a hypothesis (a radius falling with
m on the exponential target) makes the conclusion untestable (INCONCLUSIVE), not false; on the
polynomial target the opposite trend FAILS only where the approximation improves with m
(E_m(0) falls significantly), the situation the contrapositive excludes.
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
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.training import LossCheck
from recmem.theory.stability import InverseApproximation


@dataclass(frozen=True)
class TrainSettings:
    """The training budget (App. D's optimiser; sizes for ``recmem verify``)."""

    train_steps: int = 32  # App. D's training grid {0.1, …, 3.2} at Δt = 0.1
    train_size: int = 256
    test_size: int = 256
    epochs: int = 30
    batch: int = 128
    lr: float = 0.005
    target_loss: float = 1e-8
    rate_lo: float = 1.0  # initial rates log-uniform on [rate_lo, 1/Δt] (W-nonlinear-stability's choice)


VERIFY_TRAINING = TrainSettings()
CHECK = "trained σ-RNNs (Adam, App. D's optimiser)"


@dataclass
class TrainedCell:
    """One trained model and what was measured on it."""

    target: str
    m: int
    val_loss: float
    epochs: int
    stopped: str
    beta0: float  # stability radius of the linearisation I + ΔtW
    theta_norm: float
    E: list[float]  # E_m(β) per β of the claim (running max)
    memory: np.ndarray  # (points, T): the perturbed models' memories
    point_beta: np.ndarray  # β index of each point
    # the oracle of the training (issue 19): the final model's training loss, evaluated afresh on
    # the training set after training (not read from the history), and its untrained start's
    train_loss: float = math.nan
    initial_loss: float = math.nan

    def loss_check(self) -> LossCheck:
        """Did width m train? Its final training loss against half of its untrained start's."""
        return LossCheck(f"{self.target} m={self.m}", self.train_loss, self.initial_loss,
                         "the untrained start's loss", self.epochs, self.stopped)


@dataclass
class TrainedStudy:
    cells: dict[tuple[str, int], TrainedCell]
    betas: tuple[Fraction, ...]
    lags: np.ndarray


def trained_study(ctx: Context, device: str = "cpu",
                  settings: TrainSettings = VERIFY_TRAINING) -> tuple[TrainedStudy, float]:
    """Train and measure every (target, m) once per parameter set, seed, device and budget."""
    key = (tuple(sorted((k, str(v)) for k, v in ctx.params.items())), ctx.seed, device, settings,
           "trained-rnn")
    return data(key, lambda: _compute(ctx, device, settings))


def _compute(ctx: Context, device: str, settings: TrainSettings) -> TrainedStudy:
    import torch

    from recmem.checks.claims.paper_w.theorem import TARGETS, _betas, _kernel
    from recmem.numerics import rnn_training as rt
    from recmem.numerics.training import one_cpu_thread

    dt = float(ctx["t_step"])
    betas = _betas(ctx)
    T = int(ctx["n_t"])
    spec = rt.Spec(str(ctx["activation"]), "direct", dt)
    cells = {}
    with one_cpu_thread():
        # every (target, width) model with its own start, data, batches and seed (the draws of
        # training it alone), trained at once as one stack (rt.train_stack: the same gradients and
        # Adam steps, one step for all 14 models instead of one per model)
        jobs = []
        for ti, tg in enumerate(TARGETS):
            target = rt.MemoryTarget(_kernel(ctx, tg), dt)
            rng = np.random.default_rng([ctx.seed, 29, ti])
            xt, yt = rt.regression_data(target, settings.train_size, settings.train_steps, rng, device=device)
            xv, yv = rt.regression_data(target, settings.test_size, settings.train_steps, rng, device=device)
            for m in ctx["ms"]:
                W0 = rt.stable_init(m, settings.rate_lo, 1 / dt, np.random.default_rng([ctx.seed, 31, m]))
                gen = torch.Generator().manual_seed(int(np.random.default_rng([ctx.seed, 37, m])
                                                        .integers(2**62)))
                model = rt.EulerRNN(spec, W0, gen).to(device)
                jobs.append((ti, tg, m, target, model, (xt, yt, xv, yv), _mse(model, xt, yt)))
        hist = rt.train_stack([j[4] for j in jobs], [j[5] for j in jobs], epochs=settings.epochs,
                              batch_size=settings.batch, lr=settings.lr,
                              seeds=[ctx.seed * 1000 + 41 * m + ti for ti, _, m, *_ in jobs],
                              target_loss=settings.target_loss)
        for ti, tg, m, target, model, (xt, yt, xv, yv), start in jobs:
            theta = model.theta()
            pert = rt.perturb(spec, theta, target, betas, int(ctx["samples"]), (ctx.seed, 43, ti, m), T,
                              list(ctx["magnitudes"]), str(ctx["norm"]), device)
            W = theta["W"]
            # the final validation loss of this model (the stack's history holds the sum)
            val = _mse(model, xv, yv) if hist.val else float("nan")
            cells[(tg, m)] = TrainedCell(
                tg, m, val, hist.epochs, hist.stopped, rt.euler_stability_radius(W, dt),
                float(max(np.linalg.norm(W, 2), *(np.linalg.norm(theta[k]) for k in "Ubc"))),
                [float(v) for v in pert.estimate.values], pert.study.memory,
                np.asarray(pert.estimate.points.beta_index), _mse(model, xt, yt), start)
    return TrainedStudy(cells, betas, np.arange(T) * dt)


def _mse(model: Any, x: Any, y: Any) -> float:
    """The model's mean squared error on (x, y), evaluated without gradients (the loss of App. D)."""
    import torch

    with torch.no_grad():
        return float(torch.nn.functional.mse_loss(model(x), y))


def _ev(backend: AbstractBackend, check: str, outcome: Outcome, message: str, t0: float,
        kind: str = "numeric", **kw: Any) -> Evidence:
    return Evidence(check=check, kind=kind, backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, message=message,
                    seconds=time.perf_counter() - t0, **kw)


def _summary(backend: AbstractBackend, ctx: Context, study: TrainedStudy, secs: float,
             settings: TrainSettings) -> Evidence:
    diverged = [f"{c.target} m={c.m}" for c in study.cells.values() if c.stopped == "diverged"]
    rows = " | ".join(
        f"{tg}: " + "; ".join(f"m={c.m}: val {fmt(c.val_loss)}, E_m(0) {fmt(c.E[0])}, β₀ {fmt(c.beta0)}, "
                              f"|θ|₂ {fmt(c.theta_norm)}"
                              for (t, _), c in study.cells.items() if t == tg)
        for tg in dict.fromkeys(t for t, _ in study.cells))
    return Evidence(
        check=f"{CHECK}: approximation, weights (eq. (14)), stability radii", kind="numeric",
        backend=backend.name, outcome=Outcome.INCONCLUSIVE if diverged else Outcome.PASS,
        precision_bits=backend.precision_bits, instances=len(study.cells), seconds=secs,
        message=(f"training diverged at {', '.join(diverged)}; " if diverged else "")
        + f"{ctx['activation']} RNNs (Euler, Δt = {ctx['t_step']}), {settings.train_size} sequences, "
          f"≤ {settings.epochs} epochs, Adam lr {settings.lr}, batch {settings.batch}; E_m(0) on the "
          f"claim's grid and norm — {rows}",
        data={"cells": [{"target": c.target, "m": c.m, "val_loss": c.val_loss, "epochs": c.epochs,
                         "beta0": c.beta0, "theta_norm": c.theta_norm, "E": c.E}
                        for c in study.cells.values()]})


def _memory_rows(study: TrainedStudy, target: str) -> list[dict[str, Any]]:
    """sup over widths and perturbed points with β < β₀(m) of the memory at each late lag."""
    late = study.lags >= study.lags[-1] / 2
    sup = np.zeros(int(late.sum()))
    for c in study.cells.values():
        if c.target != target:
            continue
        below = np.array([study.betas[i] < c.beta0 for i in c.point_beta])
        mem = c.memory[below][:, late]
        mem = mem[np.isfinite(mem).all(axis=1)]
        if len(mem):
            sup = np.maximum(sup, mem.max(axis=0))
    return [{"t": float(t), "memory": float(v)} for t, v in zip(study.lags[late], sup, strict=True)]


def judge(backend: AbstractBackend, ctx: Context, study: TrainedStudy) -> list[Evidence]:
    """The tests of the module docstring, for the roles, β and trend of ``ctx.law(InverseApproximation)``."""
    import sympy as sp

    from recmem.checks.claims.paper_w.theorem import TARGETS, _kernel, _memory_sympy
    from recmem.theory.stability import theorem_instances_proof

    law = ctx.law(InverseApproximation)
    ex, po = law.exponential, law.polynomial
    ms = list(ctx["ms"])
    out = []
    ev = trend_evidence(backend, _memory_rows(study, ex), f"{CHECK}, exponential-role target: perturbed "
                        "memories (β < β₀(m), all widths) decay uniformly", "t", "memory", "decreasing", [],
                        ("t",))
    ev.message = f"target {ex}: " + ev.message
    out.append(ev)
    rad = [{"m": m, "beta0": study.cells[(ex, m)].beta0} for m in ms]
    ev = trend_evidence(backend, rad, f"{CHECK}, exponential-role target: stability radius β₀(m) "
                        "uniform in m", "m", "beta0", "decreasing", [], ("m",))
    falls = ev.data["test"]["outcome"] == "pass"
    ev.outcome = Outcome.INCONCLUSIVE if falls else Outcome.PASS
    ev.message = (f"target {ex}: " + ("β₀(m) falls significantly with m: the trained sequence does not "
                                       "show the hypothesis of a uniform radius — "
                                       if falls else "no significant fall of β₀(m) with m — ")
                  + ev.data["test"]["reason"] + "; β₀(m) = " + ", ".join(fmt(r["beta0"]) for r in rad))
    ev.tolerance = "passes unless the fall is significant (one-sided α = 0.01)"
    out.append(ev)
    # the conclusion (15) at the trained radius
    t0 = time.perf_counter()
    b0 = min(r["beta0"] for r in rad)
    check = f"{CHECK}: conclusion (15) on the exponential-role target's exact memory at fraction·min_m β₀(m)"
    if falls or b0 <= 0:
        out.append(_ev(backend, check, Outcome.INCONCLUSIVE, f"target {ex}: the trained sequence has no "
                       f"uniform stability radius (min_m β₀(m) = {fmt(b0)}), so Thm 3.9 says nothing here",
                       t0))
    else:
        kernels = {tg: _kernel(ctx, tg) for tg in TARGETS}
        radius = {ex: sp.Rational(Fraction(b0).numerator, Fraction(b0).denominator), po: None}
        proof = theorem_instances_proof(law, {tg: _memory_sympy(k) for tg, k in kernels.items()}, radius)
        outcome = {True: Outcome.PASS, False: Outcome.FAIL, None: Outcome.INCONCLUSIVE}[proof.holds]
        out.append(_ev(backend, check, outcome,
                       f"target {ex}, β = {law.beta_fraction}·{fmt(b0)} (min_m β₀(m) of the trained "
                       f"models, taken exactly): {proof.method}; "
                       + "; ".join(f"{k}: {v}" for k, v in proof.details.items()), t0,
                       counterexample=proof.counterexample))
    # the contrapositive on the polynomial-role target
    rad = [{"m": m, "beta0": study.cells[(po, m)].beta0} for m in ms]
    ev = trend_evidence(backend, rad, f"{CHECK}, polynomial-role target: trend of β₀(m) in m", "m", "beta0",
                        law.radius_trend, [], ("m",))
    if ev.outcome is Outcome.FAIL:
        e0 = [{"m": m, "E0": study.cells[(po, m)].E[0]} for m in ms]
        approx = trend_evidence(backend, e0, "E_m(0)", "m", "E0", "decreasing", [], ("m",))
        if approx.outcome is not Outcome.PASS:
            ev.outcome = Outcome.INCONCLUSIVE
            ev.message += ("; the opposite trend is no evidence against the statement: E_m(0) does not "
                           "fall significantly with m (" + approx.message + ")")
    ev.message = f"target {po}: " + ev.message + "; β₀(m) = " + ", ".join(fmt(r["beta0"]) for r in rad)
    out.append(ev)
    return out


def trained_evidence(backend: AbstractBackend, ctx: Context,
                     settings: TrainSettings = VERIFY_TRAINING) -> list[Evidence]:
    """W.theorem's trained-RNN evidence on ``backend``'s torch device (float64): the study's summary
    and the tests of the module docstring, read from ``ctx.law(InverseApproximation)`` (so the
    negative controls are judged on the same trained models)."""
    import torch

    if backend.spec.kind != "torch":
        raise BackendUnavailable(f"{backend.name}: the trained RNNs run in torch")
    if backend.spec.dtype != "float64":
        raise BackendUnavailable("the trained RNNs and their perturbations run in float64")
    device = backend.spec.device or "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise BackendUnavailable("torch:cuda: no CUDA device")
    ctx.law(InverseApproximation)
    study, secs = trained_study(ctx, device, settings)
    tests = judge(backend, ctx, study)
    oracle = training_oracle(backend, study)
    not_judged(tests, [oracle])  # the tests rest on the trained models
    # supplementary at verify's budget (about 60 Adam steps: too short for the trained radii to
    # separate the memory classes): kind "numeric", outside the claim's deciding kinds
    # ("statistical"), so a pass or an inconclusive test does not decide the verdict while a FAIL
    # still fails the claim. `recmem reproduce W-nonlinear-stability` trains at App. D's budget.
    for ev in tests:
        ev.kind = "numeric"
    return [_summary(backend, ctx, study, secs, settings), oracle, *tests]


TRAINED_CHECK = f"{CHECK}: oracle — every model trained (final training loss)"


def training_oracle(backend: AbstractBackend, study: TrainedStudy) -> Evidence:
    """The run-time oracle of the trained models (issue 19): each model's final training loss at
    most half its untrained start's (a loss not finite or a diverged training: ERROR; a model that
    did not train: FAIL), the losses in the evidence."""
    from recmem.checks.oracle_evidence import training_evidence

    cells = sorted(study.cells.values(), key=lambda c: (c.target, c.m))
    return training_evidence(TRAINED_CHECK, backend.name, [c.loss_check() for c in cells],
                             "final training MSE (recomputed on the final parameters) ≤ ½ × the "
                             "untrained start's, on App. D's training set", backend.precision_bits)


__all__ = ["CHECK", "TRAINED_CHECK", "VERIFY_TRAINING", "TrainSettings", "TrainedCell", "TrainedStudy",
           "judge", "trained_evidence", "trained_study", "training_oracle"]
