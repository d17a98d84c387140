"""W-nonlinear-stability and W-reparam (W Fig. 2–4, 8, 9, Table 1, App. D) and the trained-RNN
evidence of W.theorem: one ci-scale run of each experiment checked through its summary.json, CSV
and PNG files (and a re-run that resumes every model from its checkpoint); the model, the
parameterisations, the targets and the measurements of numerics/rnn_training on tiny inputs;
checkpoint resume against an uninterrupted run; the trained evidence judged for the statement and
each negative control, on real training and on constructed data."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from recmem.checks.claim import Context
from recmem.checks.claims.paper_w._trained_rnn import (
    TrainedCell,
    TrainedStudy,
    TrainSettings,
    judge,
    trained_evidence,
)
from recmem.checks.registry import get
from recmem.checks.reproduce.experiment import Checkpoint
from recmem.checks.runner import resolve_params
from recmem.checks.verdict import Outcome
from recmem.numerics import rnn_training as rt
from recmem.numerics.backend import make_backend
from recmem.numerics.kernels import parse_kernel
from recmem.numerics.perturbation import draw
from recmem.numerics.rnn import reparameterise
from tests.cli_helpers import one_error_line, run_main

PNG = b"\x89PNG\r\n\x1a\n"


def _run(name: str, out: Path) -> tuple[int, dict[str, Any]]:
    from recmem.checks.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["reproduce", name, "--scale", "ci", "--out", str(out), "--quiet"])
    return code, json.loads((out / "summary.json").read_text())


@pytest.fixture(scope="module")
def nonlinear(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("w_nonlinear") / "run"
    code, summary = _run("W-nonlinear-stability", out)
    return code, out, summary


@pytest.fixture(scope="module")
def reparam(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("w_reparam") / "run"
    code, summary = _run("W-reparam", out)
    return code, out, summary


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _check_common(code: int, out: Path, summary: dict[str, Any]) -> None:
    assert summary["complete"] and summary["scale"] == "ci"
    # exit status 1 exactly when a finding disagrees with the paper
    assert code == (1 if any(f["agreement"] == "disagrees" for f in summary["findings"]) else 0)
    for f in summary["findings"]:
        # each statement states its criterion and the outcome it gives
        assert f"→ {f['agreement']}" in f["statement"] or f["agreement"] == "undetermined"
    for name in summary["files"]:
        assert (out / name).stat().st_size > 0
        if name.endswith(".png"):
            assert (out / name).read_bytes()[:8] == PNG
    ckpts = sorted(p.name for p in (out / "checkpoints").iterdir())
    assert len(ckpts) == len(set(ckpts)) > 0


# ---- the ci-scale runs ---------------------------------------------------------------------------
def test_nonlinear_ci_run(nonlinear) -> None:
    code, out, summary = nonlinear
    _check_common(code, out, summary)
    s = summary["settings"]
    assert set(summary["files"]) == {"memory.csv", "memory.png", "models.csv", "perturbation.csv",
                                     "perturbation_error.png", "training.csv", "training.png"}
    assert {"exponential target", "inputs", "model", "initialisation", "stability radius",
            "training data size"} <= set(summary["choices"])
    assert [f["figure"] for f in summary["findings"]] == [
        "Fig. 3 (right)", "App. D, Thm 3.9 (polynomial target)", "Fig. 2–3, App. D",
        "Fig. 2 (polynomial target)", "Fig. 3 (left, exponential target)"]
    n_models = len(s["targets"]) * len(s["activations"]) * len(s["widths"])
    assert len(list((out / "checkpoints").iterdir())) == n_models
    models = _csv(out / "models.csv")
    assert len(models) == n_models
    # the radii in the findings are the models' own
    radii = {(r["target"], r["activation"], int(r["m"])): float(r["beta0"]) for r in models}
    fig2 = next(f for f in summary["findings"] if f["figure"] == "Fig. 2 (polynomial target)")
    for act, vals in fig2["measured"].items():
        assert [float(v) for v in vals] == pytest.approx(
            [radii[("poly", act, m)] for m in s["widths"]], rel=1e-2)
    # training lowered the validation loss of every model
    curves: dict[tuple[str, str, str], list[float]] = {}
    for r in _csv(out / "training.csv"):
        curves.setdefault((r["target"], r["activation"], r["m"]), []).append(float(r["val_loss"]))
    assert len(curves) == n_models and all(c[-1] < c[0] for c in curves.values())
    # E_m(β) is a running max over nested balls: non-decreasing in β, one row per listed β
    rows = _csv(out / "perturbation.csv")
    assert len(rows) == n_models * (1 + len(s["beta_exponents"]))
    by: dict[tuple[str, str, str], list[float]] = {}
    for r in rows:
        by.setdefault((r["target"], r["activation"], r["m"]), []).append(float(r["E"]))
    assert all(np.all(np.diff(v) >= 0) for v in by.values())
    # the target's memory on the grid is ρ at the lags kΔt (eq. (4))
    mem = _csv(out / "memory.csv")
    assert len(mem) == n_models * s["eval_steps"]
    for r in mem[:: 37]:
        t = float(r["t"])
        rho = math.exp(-t) if r["target"] == "exp" else (t + 1) ** -1.5
        assert float(r["target_memory"]) == pytest.approx(rho, rel=1e-12)


def test_nonlinear_rerun_resumes_every_model(nonlinear, tmp_path: Path) -> None:
    """The same command again: every model is restored from its checkpoint (no epoch retrained)
    and the measured numbers are the same."""
    code, out, summary = nonlinear
    code2, again = _run("W-nonlinear-stability", out)
    assert code2 == code
    assert again["measured"] == summary["measured"]
    assert [f["measured"] for f in again["findings"]] == [f["measured"] for f in summary["findings"]]


def test_reparam_ci_run(reparam) -> None:
    code, out, summary = reparam
    _check_common(code, out, summary)
    s = summary["settings"]
    assert set(summary["files"]) == {"memory.csv", "models.csv", "perturbation.csv",
                                     "perturbation_error.png", "training.csv", "training.png",
                                     "table1.csv", "table1_runs.csv", "table1_training.png"}
    assert {"inverse", "perturbed parameters", "classifier", "Table 1 data"} <= set(summary["choices"])
    assert "not MNIST" in summary["choices"]["Table 1 data"]
    table = _csv(out / "table1.csv")
    assert [r["parameterisation"] for r in table] == list(rt.PARAMETERISATIONS)
    for r in table:
        assert 0 <= float(r["test_accuracy"]) <= 100 and float(r["test_loss"]) > 0
    # 8×8 digits are not MNIST: the values are not compared, only the ordering
    values = next(f for f in summary["findings"] if f["figure"] == "Table 1 (values)")
    assert values["agreement"] == "undetermined" and "not MNIST" in values["statement"]
    order = next(f for f in summary["findings"] if f["figure"] == "Table 1 (ordering)")
    worst_loss = max(table, key=lambda r: float(r["test_loss"]))["parameterisation"] == "direct"
    worst_acc = min(table, key=lambda r: float(r["test_accuracy"]))["parameterisation"] == "direct"
    assert order["agreement"] == {2: "agrees", 1: "partial", 0: "disagrees"}[worst_loss + worst_acc]
    rows = _csv(out / "perturbation.csv")
    n_models = len(s["activations"]) * len(s["parameterisations"]) * len(s["widths"])
    assert len(rows) == n_models * (1 + len(s["beta_exponents"]))
    for r in rows:
        assert 0 <= float(r["stable_fraction"]) <= 1
        if r["beta"] == "0":
            assert float(r["stable_fraction"]) == 1.0  # the trained models themselves are stable


def test_reparam_bad_data_is_usage_error(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "t10k-images-idx3-ubyte"
    bad.write_bytes(b"\x00\x00\x08\x01" + b"\x00" * 8)
    line = one_error_line(run_main(capsys, "reproduce", "W-reparam", "--data", str(bad), "--out",
                                   str(tmp_path / "o"), "--quiet"))
    assert "magic" in line
    line = one_error_line(run_main(capsys, "reproduce", "W-reparam", "--scale", "paper", "--out",
                                   str(tmp_path / "p"), "--quiet"))
    assert "--data" in line


# ---- numerics: parameterisations, model, targets, measurements ---------------------------------
@pytest.mark.parametrize("kind", ["direct", "exp", "softplus"])
@pytest.mark.parametrize("scale", [0.3, 1.0, 4.0])
def test_recurrent_weight_matches_numerics_rnn(kind: str, scale: float) -> None:
    rng = np.random.default_rng(7)
    for m in (1, 3, 6):
        M = rng.standard_normal((m, m)) * scale / math.sqrt(m)
        W = rt.recurrent_weight(torch.tensor(M), kind, 0.05).numpy()
        ref = reparameterise(M, kind)
        assert np.abs(W - ref).max() <= 1e-11 * max(1.0, np.abs(ref).max())


def test_inverse_parameterisation_and_preimages() -> None:
    rng = np.random.default_rng(3)
    M = rng.standard_normal((4, 4))
    W = rt.recurrent_weight(torch.tensor(M), "inverse", 0.05).numpy()
    assert np.allclose(W, -np.linalg.inv(M @ M + 0.05 * np.eye(4)), rtol=1e-13, atol=1e-14)
    W0 = rt.stable_init(5, 1.0, 10.0, rng)
    assert np.allclose(W0, W0.T) and np.linalg.eigvalsh(W0).max() == pytest.approx(-1.0)
    for kind in rt.PARAMETERISATIONS:
        back = rt.recurrent_weight(torch.tensor(rt.preimage(W0, kind, 0.05)), kind, 0.05).numpy()
        assert np.abs(back - W0).max() <= 1e-10 * np.abs(W0).max(), kind
    with pytest.raises(ValueError, match="below 1/ε"):
        rt.preimage(-25.0 * np.eye(2), "inverse", 0.05)


@pytest.mark.parametrize("kind", rt.PARAMETERISATIONS)
def test_recurrent_weight_gradients(kind: str) -> None:
    M = torch.tensor(np.random.default_rng(1).standard_normal((3, 3)) * 0.5, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: rt.recurrent_weight(a, kind, 0.3), (M,))


def test_euler_model_in_the_linear_regime_is_the_discrete_convolution() -> None:
    """hardtanh with |Wh + Ux| < 1 throughout: ŷ_k = Δt Σ_j cᵀ(I + ΔtW)^{k−j} U x_j exactly."""
    rng = np.random.default_rng(5)
    m, T, dt = 3, 12, 0.1
    W = -np.eye(m) + 0.2 * rng.standard_normal((m, m))
    U, c = 0.1 * rng.standard_normal(m), rng.standard_normal(m)
    x = 0.5 * rng.standard_normal((2, T))
    t = lambda v: torch.tensor(v)[None]  # noqa: E731
    y = rt.respond(rt.Spec("hardtanh", "direct", dt), t(W), t(U), t(np.zeros(m)), t(c),
                   torch.tensor(x)[None])[0].numpy()
    A = np.eye(m) + dt * W
    kernel = np.array([c @ np.linalg.matrix_power(A, i) @ U for i in range(T)])
    ref = np.array([[dt * sum(kernel[k - j] * x[b, j] for j in range(k + 1)) for k in range(T)]
                    for b in range(2)])
    assert np.abs(y - ref).max() < 1e-15
    # its memory (Def. 3.1 on the grid) is |kernel| at the lags kΔt
    theta = {"M": W, "U": U, "b": np.zeros(m), "c": c}
    st = rt.heaviside_study(rt.Spec("hardtanh", "direct", dt), theta, draw(m, [Fraction(0)], 1, 0), None,
                            T, [Fraction(1, 4), Fraction(-1, 2)])
    assert np.allclose(st.memory[0], np.abs(kernel), rtol=1e-10, atol=1e-15)
    assert np.allclose(st.lags, np.arange(T) * dt)


def test_memory_target_outputs_and_heaviside() -> None:
    tg = rt.MemoryTarget(parse_kernel("poly:3/2"), 0.1)
    x = torch.tensor(np.random.default_rng(2).standard_normal((3, 9)))
    y = tg.outputs(x).numpy()
    r = tg.rho(9)
    ref = [[0.1 * sum(r[k - j] * x[b, j].item() for j in range(k + 1)) for k in range(9)] for b in range(3)]
    assert np.allclose(y, ref, rtol=1e-13)
    out, rate = tg.heaviside(9)
    assert np.allclose(rate, (np.arange(9) * 0.1 + 1) ** -1.5)
    assert np.allclose(out, tg.outputs(torch.ones(1, 9, dtype=torch.float64)).numpy()[0])


def test_heaviside_errors_vanish_for_an_exact_model() -> None:
    """A 1-unit linear-regime hardtanh model whose discrete kernel is (1 − Δt)^k is the target
    with ρ(kΔt) = (1 − Δt)^k exactly: error 0 at β = 0, positive once perturbed."""
    dt = 0.1
    tg = rt.MemoryTarget(parse_kernel(f"exp:{Fraction(9, 10) ** 10}"), dt)
    theta = {"M": np.array([[-1.0]]), "U": np.array([0.5]), "b": np.zeros(1), "c": np.array([2.0])}
    pm = rt.perturb(rt.Spec("hardtanh", "direct", dt), theta, tg, [Fraction(0), Fraction(1, 100)], 3, 0, 40,
                    [Fraction(1, 2)], "sobolev")
    assert pm.estimate.values[0] < 1e-13 and pm.estimate.values[1] > 1e-4
    assert pm.stable_fraction() == [1.0, 1.0]


def test_stability_radius_of_a_normal_matrix_is_its_decay_rate() -> None:
    for r in (0.3, 1.0, 4.0):
        W = -r * np.eye(3)
        assert rt.euler_stability_radius(W, 0.1) == pytest.approx(r, rel=1e-9)
        assert rt.spectral_decay_rate(W, 0.1) == pytest.approx(-math.log(1 - 0.1 * r) / 0.1)
        # tight: a perturbation of size just above the radius breaks the Euler model's stability
        A = np.eye(3) + 0.1 * (W + 1.001 * r * np.eye(3))
        assert np.abs(np.linalg.eigvals(A)).max() >= 1
    assert rt.euler_stability_radius(np.eye(2), 0.1) == 0.0
    assert rt.jump_radius([Fraction(0), Fraction(1), Fraction(2)], [1.0, 1.5, 2.5]) == 2.0
    assert rt.jump_radius([Fraction(0), Fraction(1)], [1.0, 1.5]) == math.inf


def test_training_resumes_from_its_checkpoint_to_the_uninterrupted_result(tmp_path: Path) -> None:
    tg = rt.MemoryTarget(parse_kernel("poly:3/2"), 0.1)
    rng = np.random.default_rng(0)
    data = (*rt.regression_data(tg, 64, 16, rng), *rt.regression_data(tg, 32, 16, rng))
    W0 = rt.stable_init(3, 1.0, 10.0, np.random.default_rng(1))

    def model() -> Any:
        return rt.EulerRNN(rt.Spec("tanh", "softplus", 0.1), W0, torch.Generator().manual_seed(2))

    def train(module: Any, epochs: int, name: str) -> Any:
        return rt.train(module, data, epochs=epochs, batch_size=16, lr=0.005, seed=4,
                        saver=Checkpoint(tmp_path / name))

    full = model()
    h_full = train(full, 6, "a.pt")
    h1 = train(model(), 2, "b.pt")
    assert h1.epochs == 2 and h1.stopped == "epochs exhausted"
    again = model()
    h2 = train(again, 6, "b.pt")
    assert h2.resumed_at == 2 and h2.val == h_full.val
    for k, v in full.state_dict().items():
        assert torch.equal(v, again.state_dict()[k]), k


def test_sequence_classifier_learns_something() -> None:
    """Two classes told apart by the mean of the sequence: a few epochs beat chance clearly."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 256)
    x = torch.tensor(rng.uniform(0, 0.5, (256, 8)) + 0.5 * y[:, None])
    yt = torch.tensor(y)
    W0 = rt.stable_init(4, 1 / 8, 1.0, rng)
    model = rt.SequenceClassifier(rt.Spec("tanh", "exp", 1.0), W0, 2, torch.Generator().manual_seed(0))
    loss0, _ = rt.classifier_scores(model, x, yt)
    rt.train(model, (x, yt, x, yt), epochs=15, batch_size=64, lr=0.05, seed=0,
             loss=torch.nn.functional.cross_entropy)
    loss, acc = rt.classifier_scores(model, x, yt)
    assert loss < loss0 and acc > 0.9


# ---- the trained evidence of W.theorem -----------------------------------------------------------
def _contexts(**over: str) -> list[tuple[str, Context]]:
    claim = get("W.theorem")
    values = resolve_params([claim], over)[claim.id]
    return [("statement", Context(values, seed=0, statement=claim.statement))] + [
        (c.change, Context(values, seed=0, statement=c.statement)) for c in claim.statement.controls()]


def _by_check(evidence: list[Any], part: str) -> Any:
    (e,) = [e for e in evidence if part in e.check]
    return e


def test_trained_evidence_on_real_training() -> None:
    """Tiny training: the summary passes; the statement is never failed; the role swap is (the
    polynomial-role target's memory then decays exponentially: SymPy limit)."""
    backend = make_backend("torch:cpu")
    small = TrainSettings(train_size=64, test_size=64, epochs=60)
    results = {name: trained_evidence(backend, ctx, small)
               for name, ctx in _contexts(ms="2,3,4", beta_exponents="0,20,35")}
    statement = results.pop("statement")
    assert not any(e.outcome in (Outcome.FAIL, Outcome.REFUTE) for e in statement)
    assert _by_check(statement, "approximation, weights").outcome is Outcome.PASS
    swapped = next(v for k, v in results.items() if "swapped" in k)
    conclusion = _by_check(swapped, "conclusion (15)")
    assert conclusion.outcome in (Outcome.FAIL, Outcome.INCONCLUSIVE)
    if conclusion.outcome is Outcome.FAIL:
        assert conclusion.counterexample is not None
    with pytest.raises(Exception, match="torch"):
        trained_evidence(make_backend("numpy"), _contexts()[0][1], small)


def _study(exp_radii: list[float], poly_radii: list[float], poly_e0: list[float]) -> TrainedStudy:
    ms = [1, 2, 3, 4, 5, 6, 8]
    T = 100
    lags = np.arange(T) * 0.1
    cells = {}
    for tg, radii, e0 in (("exp", exp_radii, [0.1] * 7), ("poly", poly_radii, poly_e0)):
        for m, r, e in zip(ms, radii, e0, strict=True):
            mem = np.exp(-lags)[None].repeat(2, axis=0)  # two points, β index 0 and 1
            cells[(tg, m)] = TrainedCell(tg, m, 1e-3, 10, "epochs exhausted", r, 1.0, [e, e], mem,
                                         np.array([0, 1]))
    return TrainedStudy(cells, (Fraction(0), Fraction(1, 10**6)), lags)


def test_trained_evidence_judges_statement_and_controls_on_constructed_data() -> None:
    """The judge on a constructed study: an exponential target with a uniform radius 1 and a
    polynomial one whose radius falls with m while E_m(0) falls."""
    backend = make_backend("torch:cpu")
    falling = [1.0, 0.8, 0.6, 0.45, 0.3, 0.2, 0.1]
    study = _study([1.0] * 7, falling, [0.5, 0.4, 0.3, 0.2, 0.15, 0.1, 0.05])
    got = {name: judge(backend, ctx, study) for name, ctx in _contexts()}
    outcome = lambda name, part: _by_check(got[name], part).outcome  # noqa: E731
    assert all(e.outcome is Outcome.PASS for e in got["statement"])
    names = list(got)
    swapped, widened, reversed_ = (next(n for n in names if k in n) for k in ("swapped", "9/8", "reversed"))
    # roles swapped: the 'exponential-role' target (poly) has a falling radius, the conclusion is
    # then untestable — but the polynomial-role trend (exp: flat radius) is not shown either
    assert outcome(swapped, "uniform in m") is Outcome.INCONCLUSIVE
    # β = 9/8·β₀ with β₀ = 1 = the target's rate: lim e^{(9/8)t}e^{−t} = ∞ → FAIL
    assert outcome(widened, "conclusion (15)") is Outcome.FAIL
    # reversed trend: the radius falls significantly while E_m(0) falls → FAIL
    assert outcome(reversed_, "polynomial-role target") is Outcome.FAIL
    # the same falling radius without approximation is no evidence against the reversed trend
    flat = _study([1.0] * 7, falling, [0.5] * 7)
    assert _by_check(judge(backend, _contexts()[3][1], flat), "polynomial-role target").outcome \
        is Outcome.INCONCLUSIVE
    # an exponential target whose radius falls: the conclusion cannot be tested
    broken = judge(backend, _contexts()[0][1], _study(falling, falling, [0.1] * 7))
    assert _by_check(broken, "conclusion (15)").outcome is Outcome.INCONCLUSIVE
