"""W-nonlinear-stability: tanh/hardtanh RNNs trained on targets with exponential and polynomial
memory, their memory functions and perturbation errors (paper W Fig. 2–3, App. D).

Protocol (App. D, "Nonlinear functionals approximated by nonlinear RNNs"): one-dimensional inputs
and outputs; train on the time grid t ∈ {0.1, …, 3.2} and evaluate on {0.1, …, 10.0}; Adam with
learning rate 0.005, mean squared error, batch 128, 12800 training and 12800 test sequences, up to
1000 epochs, stopped once the validation loss reaches 1e-8; perturbation radii
β ∈ {0} ∪ {10⁻¹¹·2^i : i = 0…35}, 3 perturbations per β, the maximum. The polynomial target has
memory ρ(t) = (t + 1)^{−1.5}; the exponential one is not printed (recmem: e^{−t}, which "equals 1
at t = 0", the only difference being "the decaying speed").

The model, targets, memory function and perturbation error are those of
:mod:`recmem.numerics.rnn_training` (the Euler-discretised RNN of W eq. (1) on the grid of step
0.1; the discretised linear functional with memory ρ; Def. 3.1 and Def. 3.4 on Heaviside inputs
in the Sobolev-type norm of eq. (11)). Measured per target, activation and width m: the training
curves, E_m(β), the memory function M̂(t) with its decay class (:func:`recmem.numerics.decay_fit.
fit_decay`), and the stability radius β₀(m) of the trained model's linearisation I + Δt·W (the
smallest weight perturbation that stops its memory from decaying).
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.reproduce.experiment import Experiment, ReproduceUsageError, RunContext
from recmem.numerics import rnn_training as rt
from recmem.numerics.kernels import parse_kernel

EPS = float(np.finfo(np.float64).eps)
APP_D = "W App. D"
# Fig. 2's "the intersections shift left as m increases" and Fig. 3's stable curves, as criteria
# on the trained models' stability radius β₀(m): a fall by more than FALL_STABLE from the smallest
# to the largest width is not "uniform"; a fall by more than FALL_BROKEN is a clear shrinkage.
FALL_STABLE, FALL_BROKEN = 0.2, 0.5
# a memory "tracks" the polynomial target on the training window when its log-log slope against
# (t + 1) is within this distance of the target's exponent
TRACK_SLOPE = 0.3
# Adam moves a weight by about lr per step: a short training leaves the recurrent weights, and so
# β₀(m), near their initial values; below this relative change β₀ says nothing about training
MOVED = 0.1

_COMMON: dict[str, Any] = {
    "targets": {"exp": "expsum:1;1", "poly": "poly:3/2"},
    "activations": ["tanh", "hardtanh"], "dt": "1/10", "train_steps": 32, "eval_steps": 100,
    "batch": 128, "lr": 0.005, "target_loss": 1e-8, "samples": 3,
    "magnitudes": ["-1", "-1/2", "-1/8", "1/8", "1/2", "1"], "init_rates": [1, 10], "norm": "sobolev",
}
SETTINGS: dict[str, dict[str, Any]] = {
    "ci": {**_COMMON, "widths": [2, 4, 8], "train_size": 512, "test_size": 512, "epochs": 30,
           "beta_exponents": [0, 5, 10, 15, 20, 25, 30, 35]},
    "paper": {**_COMMON, "widths": [4, 8, 16, 32, 64], "train_size": 12800, "test_size": 12800,
              "epochs": 1000, "beta_exponents": list(range(36))},
}
CHOICES = {
    "exponential target": "ρ(t) = e^{−t} (App. D prints only the polynomial target and says the two "
                          "differ only in their decaying speed, both equal to 1 at t = 0)",
    "targets": "linear functionals y_t = ∫ρ(s)x_{t−s}ds (W eq. (3)) by the left-point rule on the "
               "grid (App. D does not print how targets are generated; Fig. 8's caption calls them "
               "linear functionals)",
    "inputs": "i.i.d. standard normal x_k on the grid (App. D does not print its inputs)",
    "model": "explicit Euler of dh/dt = σ(Wh + Ux + b), ŷ = cᵀh (W eq. (1)) with Δt = 0.1, the "
             "training grid's step; h_{−1} = 0",
    "initialisation": "W₀ = −Q diag(r) Qᵀ, r geometrically spaced over init_rates, Q Haar-orthogonal; "
                      "U, c uniform ±1/√m; b = 0 (not printed). Rates from unit time to one step, the "
                      "slowest the same at every width: slower modes must be learned, and β₀(m) at "
                      "initialisation does not depend on m (the smallest of m random rates would fall "
                      "with m whatever the target, and so would β₀(m))",
    "perturbation": "App. D's protocol on θ = (W, U, b, c): uniform samples in the Frobenius / "
                    "Euclidean ball of each block (recmem.numerics.perturbation.draw), max over "
                    "samples, running max over β' ≤ β (nested balls)",
    "error norm": "Def. 3.7's Sobolev-type norm (output + rate) over Heaviside inputs of the "
                  "magnitudes listed, sup over the evaluation grid t ≤ 10",
    "stability radius": "β₀(m) = min over |z| = 1 of σ_min(zI − (I + ΔtW))/Δt: the smallest (complex) "
                        "‖ΔW‖₂ after which the perturbed model's memory stops decaying (with σ(0) = 0 "
                        "and σ'(0) = 1 the rest state's linearisation is I + ΔtW); the β list of App. D "
                        "(≤ 0.34) does not reach it, so it is computed, not sampled",
    "memory function": "Def. 3.1 on the grid: max over the listed Heaviside magnitudes of the "
                       "output's increment per step over |x| (zero-input response removed)",
}


# ---- settings ------------------------------------------------------------------------------------
def betas_of(ctx: RunContext) -> tuple[Fraction, ...]:
    """(0, 10⁻¹¹·2^i for the listed i): App. D's perturbation list."""
    base = Fraction(1, 10**11)
    return (Fraction(0), *(base * 2 ** int(i) for i in ctx["beta_exponents"]))


def magnitudes_of(ctx: RunContext) -> list[Fraction]:
    return [Fraction(v) for v in ctx["magnitudes"]]


def target_of(ctx: RunContext, name: str) -> rt.MemoryTarget:
    return rt.MemoryTarget(parse_kernel(ctx["targets"][name]), float(Fraction(ctx["dt"])))


def seed_of(ctx: RunContext, *stream: int | str) -> int:
    """An integer seed from the run's seed and ``stream`` (mini-batch order, perturbations)."""
    return int(ctx.generator(*stream).integers(0, 2**62))


# ---- training ------------------------------------------------------------------------------------
@dataclass
class Trained:
    """One trained model of the study."""

    name: str
    target: str
    spec: rt.Spec
    m: int
    theta: dict[str, np.ndarray]
    train: list[float]
    val: list[float]
    stopped: str
    resumed_at: int
    extra: dict[str, Any] = field(default_factory=dict)


def regression_data(ctx: RunContext, target: str) -> tuple[Any, Any, Any, Any]:
    """The training and test sets of ``target`` (the same inputs for every model of the target)."""
    tg = target_of(ctx, target)
    rng = ctx.generator("data", target)
    T = int(ctx["train_steps"])
    xt, yt = rt.regression_data(tg, int(ctx["train_size"]), T, rng, device=ctx.device)
    xv, yv = rt.regression_data(tg, int(ctx["test_size"]), T, rng, device=ctx.device)
    return xt, yt, xv, yv


def initial_weights(ctx: RunContext, m: int) -> np.ndarray:
    """W₀ of width m, the same for every target, activation and parameterisation."""
    lo, hi = (float(v) for v in ctx["init_rates"])
    return rt.stable_init(m, lo, hi, ctx.generator("init", m))


def train_model(ctx: RunContext, name: str, target: str, spec: rt.Spec, m: int, data: tuple[Any, ...],
                advance: Callable[[int], None]) -> Trained:
    """Train one model with App. D's optimiser settings, resumable from ``ctx.checkpoint(name)``."""
    model = rt.EulerRNN(spec, initial_weights(ctx, m), ctx.torch_generator("init", m)).to(ctx.device)
    hist = rt.train(model, (data[0], data[1], data[2], data[3]), epochs=int(ctx["epochs"]),
                    batch_size=int(ctx["batch"]), lr=float(ctx["lr"]), seed=seed_of(ctx, "batches", name),
                    target_loss=float(ctx["target_loss"]), saver=ctx.checkpoint(name), advance=advance)
    return Trained(name, target, spec, m, model.theta(), hist.train, hist.val, hist.stopped,
                   hist.resumed_at)


def train_all(ctx: RunContext, cells: Sequence[tuple[str, rt.Spec, int]]) -> list[Trained]:
    """Every (target, spec, m) cell trained in turn, one progress bar over all epochs."""
    data = {tg: regression_data(ctx, tg) for tg in dict.fromkeys(tg for tg, _, _ in cells)}
    out = []
    with ctx.progress("training", len(cells) * int(ctx["epochs"])) as advance:
        for tg, spec, m in cells:
            name = f"{tg}-{spec.activation}-{spec.parameterisation}-m{m}"
            trained = train_model(ctx, name, tg, spec, m, data[tg], advance)
            # a model stopped early (target loss, divergence) leaves its epochs unspent on the bar
            spent = len(trained.train)
            if spent < int(ctx["epochs"]):
                advance(int(ctx["epochs"]) - spent)
            out.append(trained)
    return out


# ---- measurements --------------------------------------------------------------------------------
def measure(ctx: RunContext, model: Trained) -> None:
    """E_m(β), the stability radius, the memory function and its decay fits of one trained model
    (into ``model.extra``)."""
    tg = target_of(ctx, model.target)
    T_eval, T_train = int(ctx["eval_steps"]), int(ctx["train_steps"])
    pert = rt.perturb(model.spec, model.theta, tg, betas_of(ctx), int(ctx["samples"]),
                      seed_of(ctx, "perturb", model.name), T_eval, magnitudes_of(ctx),
                      str(ctx["norm"]), ctx.device)
    est = pert.estimate
    memory = pert.study.memory[0]  # β = 0: the trained model itself
    lags = pert.study.lags
    W = model.theta["W"]
    model.extra.update({
        "betas": list(est.betas), "E": [float(v) for v in est.values],
        "sampled": [float(v) for v in est.sampled], "stable_fraction": pert.stable_fraction(),
        "E0": float(est.values[0]), "memory": memory, "lags": lags,
        "beta0": rt.euler_stability_radius(W, model.spec.dt),
        "beta0_init": rt.euler_stability_radius(initial_weights(ctx, model.m), model.spec.dt),
        "decay_rate": rt.spectral_decay_rate(W, model.spec.dt),
        "knee": rt.jump_radius(est.betas, est.values),
        "theta_norm": float(max(np.linalg.norm(W, 2), *(np.linalg.norm(model.theta[k]) for k in "Ubc"))),
        "fit_all": _decay(lags, memory, model), "fit_beyond": _decay(lags[T_train:], memory[T_train:], model),
        "fit_train": _decay(lags[:T_train], memory[:T_train], model),
        "slope_train": _loglog_slope(lags[:T_train], memory[:T_train]),
    })


def _accuracy(memory: np.ndarray, model: Trained) -> np.ndarray:
    """float64 rounding of the memory values: each is a difference of outputs of size ≤ max|ŷ|,
    divided by Δt·|x| (|x| ≥ the smallest magnitude): a few ε·max|ŷ|/(Δt·|x|) per point."""
    scale = float(np.max(np.abs(memory))) * model.spec.dt
    return np.full_like(memory, 16 * EPS * max(scale, 1.0) / model.spec.dt)


def _decay(lags: np.ndarray, memory: np.ndarray, model: Trained) -> dict[str, Any]:
    from recmem.numerics.decay_fit import fit_decay

    if not np.all(np.isfinite(memory)):
        return {"class": "undetermined", "summary": "non-finite memory", "value": None}
    return fit_decay(lags, memory, accuracy=_accuracy(memory, model)).to_dict()


def _loglog_slope(lags: np.ndarray, memory: np.ndarray) -> float:
    """−(slope of log M̂ against log(t + 1)): the target (t + 1)^{−p} gives exactly p."""
    from recmem.numerics.studies import loglinear_fit

    ok = np.isfinite(memory) & (memory > 0)
    if ok.sum() < 2:
        return math.nan
    return -loglinear_fit(list(np.log(lags[ok] + 1)), list(np.log(memory[ok]))).slope


# ---- outputs -------------------------------------------------------------------------------------
def write_tables(ctx: RunContext, models: Sequence[Trained], key: Callable[[Trained], dict[str, Any]],
                 prefix: str = "") -> None:
    """training.csv, perturbation.csv, memory.csv, models.csv (``key`` names a model's cell)."""
    rows = [{**key(md), "epoch": i + 1, "train_loss": a, "val_loss": b}
            for md in models for i, (a, b) in enumerate(zip(md.train, md.val, strict=True))]
    ctx.write_csv(f"{prefix}training.csv", rows)
    rows = [{**key(md), "beta": str(b), "beta_float": float(b), "E": e, "sampled_max": s,
             "stable_fraction": f}
            for md in models for b, e, s, f in zip(md.extra["betas"], md.extra["E"], md.extra["sampled"],
                                                   md.extra["stable_fraction"], strict=True)]
    ctx.write_csv(f"{prefix}perturbation.csv", rows)
    rows = []
    for md in models:
        target = target_of(ctx, md.target).rho(len(md.extra["lags"]))
        rows += [{**key(md), "t": float(s), "memory": float(v), "target_memory": float(r)}
                 for s, v, r in zip(md.extra["lags"], md.extra["memory"], target, strict=True)]
    ctx.write_csv(f"{prefix}memory.csv", rows)
    ctx.write_csv(f"{prefix}models.csv", [summary_row(md, key) for md in models])


def summary_row(md: Trained, key: Callable[[Trained], dict[str, Any]]) -> dict[str, Any]:
    """One model's numbers (models.csv and summary.json)."""
    x = md.extra
    return {**key(md), "epochs": len(md.train), "stopped": md.stopped,
            "final_val_loss": md.val[-1] if md.val else math.nan, "E0": x["E0"], "knee": x["knee"],
            "beta0": x["beta0"], "beta0_init": x["beta0_init"], "decay_rate": x["decay_rate"],
            "theta_norm": x["theta_norm"],
            "memory_class_all": x["fit_all"]["class"], "memory_value_all": x["fit_all"].get("value"),
            "memory_class_beyond": x["fit_beyond"]["class"],
            "memory_value_beyond": x["fit_beyond"].get("value"),
            "memory_class_train": x["fit_train"]["class"], "slope_train": x["slope_train"]}


def plot_perturbation(ctx: RunContext, panels: dict[str, list[Trained]], label: Callable[[Trained], str],
                      name: str, title: str) -> None:
    """E_m(β) against β (log-log) per panel; E_m(0) as a dotted line, and for direct models (whose
    perturbations act on W itself) the stability radius β₀(m) as a dashed one."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.6 * len(panels), 3.8), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (panel, models) in zip(axes, panels.items(), strict=True):
        for i, md in enumerate(models):
            b = np.array([float(v) for v in md.extra["betas"]])
            e = np.array(md.extra["E"], dtype=float)
            colour = f"C{i}"
            ax.plot(b[1:], np.where(np.isfinite(e[1:]), e[1:], np.nan), "o-", ms=3, color=colour,
                    label=label(md))
            ax.axhline(e[0], color=colour, ls=":", lw=0.8)
            if md.spec.parameterisation == "direct" and md.extra.get("beta0", 0) > 0:
                ax.axvline(md.extra["beta0"], color=colour, ls="--", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("perturbation β")
        ax.set_ylabel("E_m(β) (Sobolev-type norm)")
        ax.set_title(panel, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(title + " — dotted: E_m(0); dashed (direct W): stability radius β₀(m)", fontsize=9)
    ctx.save_figure(fig, name)


def plot_memory(ctx: RunContext, panels: dict[str, list[Trained]], label: Callable[[Trained], str],
                name: str, title: str) -> None:
    """M̂(t) of the trained models (log scale) beside the target's ρ; the training horizon marked."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.6 * len(panels), 3.8), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    horizon = int(ctx["train_steps"]) * float(Fraction(ctx["dt"]))
    for ax, (panel, models) in zip(axes, panels.items(), strict=True):
        for i, md in enumerate(models):
            ax.plot(md.extra["lags"], np.maximum(md.extra["memory"], 1e-300), color=f"C{i}", lw=1,
                    label=label(md))
        if models:
            md = models[0]
            ax.plot(md.extra["lags"], target_of(ctx, md.target).rho(len(md.extra["lags"])), "k--", lw=1,
                    label="target ρ")
        ax.axvline(horizon, color="grey", ls=":", lw=1)
        ax.set_yscale("log")
        ax.set_xlabel("t (dotted: end of the training horizon)")
        ax.set_ylabel("memory function M̂(t)")
        ax.set_title(panel, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    ctx.save_figure(fig, name)


def plot_training(ctx: RunContext, panels: dict[str, list[Trained]], label: Callable[[Trained], str],
                  name: str, title: str) -> None:
    """Validation loss per epoch (log scale)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.6 * len(panels), 3.6), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (panel, models) in zip(axes, panels.items(), strict=True):
        for i, md in enumerate(models):
            ax.plot(np.arange(1, len(md.val) + 1), md.val, color=f"C{i}", lw=1, label=label(md))
        ax.set_yscale("log")
        ax.set_xlabel("epoch")
        ax.set_ylabel("validation MSE")
        ax.set_title(panel, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    ctx.save_figure(fig, name)


# ---- the run -------------------------------------------------------------------------------------
def run(ctx: RunContext) -> None:
    from recmem.numerics.training import one_cpu_thread

    dt = float(Fraction(ctx["dt"]))
    widths = [int(m) for m in ctx["widths"]]
    cells = [(tg, rt.Spec(act, "direct", dt), m) for tg in ctx["targets"] for act in ctx["activations"]
             for m in widths]
    ctx.choose("training data size", f"{ctx['train_size']} training and {ctx['test_size']} test "
               f"sequences, {ctx['epochs']} epochs ({APP_D}: 12800, 12800, up to 1000)")
    with one_cpu_thread() if ctx.device == "cpu" else contextlib.nullcontext():
        models = train_all(ctx, cells)
        for md in models:
            measure(ctx, md)

    def key(md: Trained) -> dict[str, Any]:
        return {"target": md.target, "activation": md.spec.activation, "m": md.m}

    write_tables(ctx, models, key)
    ctx.measure("models", [summary_row(md, key) for md in models])
    panels = {f"{tg} target, {act}": [md for md in models if md.target == tg and md.spec.activation == act]
              for tg in ctx["targets"] for act in ctx["activations"]}
    label = lambda md: f"m = {md.m}"  # noqa: E731
    plot_perturbation(ctx, panels, label, "perturbation_error.png",
                      "Perturbation error of trained RNNs (cf. W Fig. 2, Fig. 3 left)")
    plot_memory(ctx, panels, label, "memory.png", "Memory functions of the trained RNNs (cf. W Fig. 3 right)")
    plot_training(ctx, panels, label, "training.png", "Training (Adam, App. D settings)")
    _findings(ctx, models, widths)


def _by(models: Sequence[Trained], target: str, act: str) -> list[Trained]:
    return sorted((md for md in models if md.target == target and md.spec.activation == act),
                  key=lambda md: md.m)


def _short(fit: dict[str, Any]) -> str:
    """A decay fit in a few words: "exponential, rate 0.945", "undetermined"."""
    value = fit.get("value")
    what = {"exponential": "rate", "polynomial": "exponent"}.get(fit["class"])
    return fit["class"] if what is None or value is None else f"{fit['class']}, {what} {value:.3g}"


def _findings(ctx: RunContext, models: Sequence[Trained], widths: list[int]) -> None:
    acts = list(ctx["activations"])
    cell = lambda md: f"{md.spec.activation} m={md.m}"  # noqa: E731
    # Fig. 3 (right): exponential target → exponential memory
    exp_models = [md for md in models if md.target == "exp"]
    classes = {cell(md): _short(md.extra["fit_all"]) for md in exp_models}
    kinds = [md.extra["fit_all"]["class"] for md in exp_models]
    agreement = ("agrees" if all(k == "exponential" for k in kinds) else
                 "disagrees" if any(k == "polynomial" for k in kinds) else "partial")
    ctx.finding("Fig. 3 (right)", "decay class of the trained models' memory M̂(t), t ≤ 10 "
                "(exponential target)", classes, "exponentially decaying memory", agreement,
                "criterion: recmem.numerics.decay_fit on the tail of M̂ (t ∈ [5, 10]); every model "
                "classified exponential → agrees, any polynomial → disagrees, else partial. "
                f"Classes: {', '.join(kinds)} → {agreement}.")
    # polynomial target: memory on and beyond the training window
    poly_models = [md for md in models if md.target == "poly"]
    known = parse_kernel(ctx["targets"]["poly"]).decay()
    if known is None or known[0] != "polynomial":
        raise ReproduceUsageError(f"the polynomial target {ctx['targets']['poly']!r} has no known "
                                  "polynomial decay")
    p = float(known[1])
    beyond = [md.extra["fit_beyond"]["class"] for md in poly_models]
    slopes = [md.extra["slope_train"] for md in poly_models]
    track = all(abs(s - p) <= TRACK_SLOPE for s in slopes)
    exp_beyond = all(k == "exponential" for k in beyond)
    agreement = ("agrees" if track and exp_beyond else
                 "disagrees" if any(k == "polynomial" for k in beyond) else "partial")
    horizon = int(ctx["train_steps"]) * float(Fraction(ctx["dt"]))
    ctx.finding("App. D, Thm 3.9 (polynomial target)",
                f"log-log slope of M̂ against t + 1 on the training window t < {horizon:g}, and the "
                f"decay class of M̂ beyond it",
                {cell(md): f"slope {s:.3g}; beyond: {_short(md.extra['fit_beyond'])}"
                 for md, s in zip(poly_models, slopes, strict=True)},
                f"the models follow ρ = (t + 1)^−{p:g} where they are trained; an RNN's own memory "
                "decays exponentially (Thm 3.9)", agreement,
                f"criterion: every slope within {TRACK_SLOPE} of {p:g} (tracks the target) and every "
                "class beyond the window exponential → agrees; a polynomial class beyond the window "
                f"→ disagrees; else partial. Slopes {', '.join(f'{s:.3g}' for s in slopes)}; beyond: "
                f"{', '.join(beyond)} → {agreement}.")
    # App. D: approximation on the evaluation horizon
    e0 = {(md.target, md.spec.activation, md.m): md.extra["E0"] for md in models}
    worse = [e0[("poly", a, m)] > e0[("exp", a, m)] for a in acts for m in widths]
    agreement = "agrees" if all(worse) else ("partial" if any(worse) else "disagrees")
    ctx.finding("Fig. 2–3, App. D", "E_m(0) on the evaluation horizon t ≤ 10 (trained on t ≤ 3.2)",
                {f"{tg} {a} m={m}": f"{e0[(tg, a, m)]:.3g}" for tg in ("exp", "poly") for a in acts
                 for m in widths},
                "the polynomial target is hard to approximate (Fig. 2 reaches its approximation at "
                "1000 epochs, exponential targets at about 10)", agreement,
                "criterion: E_m(0)(poly) > E_m(0)(exp) at every activation and width → agrees, at "
                f"some → partial, at none → disagrees. Holds at {sum(worse)} of {len(worse)} → "
                f"{agreement}.")
    # Fig. 2 / Fig. 3 (left): the stability radius against m
    for tg, figure, paper in (
            ("poly", "Fig. 2 (polynomial target)",
             "no stable approximation: the radius where the error stays small shrinks as m grows "
             "(the curves' intersections shift left)"),
            ("exp", "Fig. 3 (left, exponential target)",
             "stable approximation: a stability radius that does not shrink as m grows")):
        radii = {a: [md.extra["beta0"] for md in _by(models, tg, a)] for a in acts}
        init = {a: [md.extra["beta0_init"] for md in _by(models, tg, a)] for a in acts}
        moved = max(abs(r / i - 1) for a in acts for r, i in zip(radii[a], init[a], strict=True))
        falls = {a: 1 - r[-1] / r[0] if r[0] > 0 else math.nan for a, r in radii.items()}
        if tg == "poly":
            dec = [all(x > y for x, y in itertools.pairwise(r)) for r in radii.values()]
            agreement = "agrees" if all(dec) else (
                "partial" if any(dec) or any(f > 0 for f in falls.values()) else "disagrees")
            crit = ("β₀(m) strictly decreasing over the widths for every activation → agrees; for "
                    "some, or falling overall → partial; not falling at all → disagrees")
        else:
            agreement = ("agrees" if all(f <= FALL_STABLE for f in falls.values()) else
                         "disagrees" if any(f > FALL_BROKEN for f in falls.values()) else "partial")
            crit = (f"β₀(m_max) ≥ (1 − {FALL_STABLE})·β₀(m_min) for every activation → agrees; a fall "
                    f"by more than {FALL_BROKEN:.0%} → disagrees; else partial")
        crit += (f"; undetermined when training moved no β₀ by more than {MOVED:.0%} from its value "
                 "at initialisation (the radius then describes the initialisation, not the training)")
        if moved <= MOVED:
            agreement = "undetermined"
        ctx.finding(figure, "stability radius β₀(m) of the trained models (m = "
                    f"{', '.join(map(str, widths))})",
                    {a: [f"{v:.3g}" for v in r] for a, r in radii.items()}, paper, agreement,
                    f"criterion: {crit}. Relative fall from the smallest to the largest width: "
                    + ", ".join(f"{a} {f:+.0%}" for a, f in falls.items()) + "; at initialisation β₀ = "
                    + "; ".join(f"{a}: {', '.join(f'{v:.3g}' for v in init[a])}" for a in acts)
                    + f" (training moved it by up to {moved:.0%}) → {agreement}.")


EXPERIMENT = Experiment(
    name="W-nonlinear-stability",
    title="tanh/hardtanh RNNs trained on exponential- and polynomial-memory targets: memory functions "
          "and perturbation errors",
    source="W Fig. 2–3, App. D",
    settings=SETTINGS,
    run=run,
    choices=CHOICES,
)
