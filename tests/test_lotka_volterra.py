"""The controlled Lotka–Volterra task of paper O App. E.3 (recmem.numerics.lotka_volterra) on tiny
inputs, and `recmem reproduce O-lotka-volterra`: one ci-scale run (module-scoped) checked through
its summary.json, CSVs and PNGs, and a training interrupted and resumed."""

from __future__ import annotations

import csv
import itertools
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
import torch

from recmem.checks.reproduce.experiment import AGREEMENTS, Experiment, RunContext
from recmem.checks.reproduce.experiments import o_lotka_volterra as exp
from recmem.numerics import lotka_volterra as lv
from recmem.numerics.training import torch_threads

pytest.importorskip("matplotlib")

TINY = lv.TaskSize(length=48, trajectories=20, nodes=8, hidden=16, amplitude=0.5, epochs=3,
                   batch=64, lr=0.01)


# ---- the simulator ---------------------------------------------------------------------------------
def _reference_euler(u: list[list[float]], system: lv.LotkaVolterra) -> list[list[tuple[Any, Any]]]:
    """O eq. 37–38 by explicit Euler in mpmath at 200 bits (the same steps, no float rounding)."""
    ctx = mpmath.MPContext()
    ctx.prec = 200
    a, b, c, d, h = (ctx.mpf(v) for v in (system.a, system.b, system.c, system.d, system.step))
    out = []
    for row in u:
        z1, z2 = ctx.mpf(system.z0[0]), ctx.mpf(system.z0[1])
        traj = []
        for uk in row:
            z1, z2 = z1 + h * z1 * (a - b * z2), z2 + h * (-z2 * (c - d * z1) + ctx.mpf(uk))
            traj.append((z1, z2))
        out.append(traj)
    return out


def test_simulation_matches_a_high_precision_euler() -> None:
    rng = np.random.default_rng(3)
    u = rng.uniform(-1, 1, size=(3, 40))
    z = lv.simulate(u)
    ref = _reference_euler(u.tolist(), lv.PAPER_SYSTEM)
    err = max(abs(float(ref[i][k][j]) - z[i, k, j]) for i in range(3) for k in range(40)
              for j in range(2))
    # 40 steps of a few float64 operations each on numbers of size ≤ 2: ≲ 40·10·2⁻⁵³·2 ≈ 1e-13
    assert err < 1e-13
    assert z.shape == (3, 40, 2) and z.dtype == np.float64
    # step 1 is one Euler step from z(0) with u_1 (the causal convention)
    z1, z2 = lv.PAPER_SYSTEM.z0
    f1, f2 = lv.PAPER_SYSTEM.field(z1, z2, u[0, 0])
    assert z[0, 0, 0] == z1 + 0.0075 * f1 and z[0, 0, 1] == z2 + 0.0075 * f2


def test_torch_simulation_agrees_with_numpy() -> None:
    u = np.random.default_rng(4).uniform(-0.3, 0.3, size=(5, 300))
    zt = lv.simulate(torch.tensor(u))
    assert isinstance(zt, torch.Tensor) and zt.shape == (5, 300, 2)
    np.testing.assert_allclose(zt.numpy(), lv.simulate(u), rtol=1e-13, atol=0)
    with pytest.raises(ValueError, match="batch, length"):
        lv.simulate(u[0])


def test_causality_future_inputs_do_not_change_the_past() -> None:
    u = np.random.default_rng(5).uniform(-0.3, 0.3, size=(1, 100))
    v = u.copy()
    v[0, 60:] += 1.0
    z, w = lv.simulate(u), lv.simulate(v)
    assert np.array_equal(z[0, :60], w[0, :60]) and not np.allclose(z[0, 60:], w[0, 60:])


def test_first_integral_drifts_at_first_order_without_input() -> None:
    """u = 0: V = d z₁ − c ln z₁ + b z₂ − a ln z₂ is conserved by the flow; explicit Euler drifts
    O(h) over a fixed horizon (App. E.3's T = 2048·0.0075), halving with the step."""
    drift = []
    for k in (1, 2, 4):
        s = replace(lv.PAPER_SYSTEM, step=0.0075 / k)
        z = lv.simulate(np.zeros((1, 2048 * k)), s)
        v = s.first_integral(z[0, :, 0], z[0, :, 1])
        drift.append(float(np.abs(v - s.first_integral(*s.z0)).max()))
    assert drift[0] < 0.2
    for coarse, fine in itertools.pairwise(drift):
        assert 1.8 < coarse / fine < 2.2
    # and the uncontrolled orbit stays in the positive quadrant around (c/d, a/b)
    z = lv.simulate(np.zeros((1, 2048)))
    assert z.min() > 0.2 and z[0, :, 0].max() > lv.PAPER_SYSTEM.equilibrium[0]


def test_fourier_inputs() -> None:
    psi = lv.fourier_basis(64)
    np.testing.assert_allclose(psi @ psi.T, 32 * np.eye(2), atol=1e-12)  # orthogonal, |ψ|² = L/2
    assert psi[0, 0] == 1 and psi[1, 0] == 0
    alpha, u = lv.fourier_inputs(np.random.default_rng(1), 50, 64, 0.25)
    assert alpha.shape == (50, 2) and u.shape == (50, 64) and np.abs(alpha).max() <= 0.25
    np.testing.assert_allclose(u, alpha @ psi, rtol=0, atol=1e-15)
    again = lv.fourier_inputs(np.random.default_rng(1), 50, 64, 0.25)[1]
    assert np.array_equal(u, again)
    with pytest.raises(ValueError):
        lv.fourier_basis(0)


# ---- the frozen RNN ---------------------------------------------------------------------------------
def test_input_matrix_is_eq_15() -> None:
    b = lv.input_matrix(5)
    assert b.shape == (5, 2)
    assert b[0].tolist() == [1, 0] and all(row.tolist() == [0, 1] for row in b[1:])
    with pytest.raises(ValueError):
        lv.input_matrix(1)


def test_frozen_rnn_nodes() -> None:
    lam = lv.frozen_rnn(40, Fraction(99, 100), Fraction(1), seed=7)
    assert lam.dtype == np.complex128 and lam.shape == (40,)
    assert lam[0].imag == 0 and 0.99 <= lam[0].real <= 1  # the real timestamp node
    assert np.all((np.abs(lam) >= 0.99 - 1e-15) & (np.abs(lam) <= 1))
    assert np.abs(lam[1:].imag).max() > 0.1  # the others are spread on the annulus


def test_rnn_states_follow_the_recurrence() -> None:
    """(Re x_k, Im x_k) against the definition x_k = λ ⊙ x_{k−1} + B(1, u_k)ᵀ run in numpy."""
    lam = lv.frozen_rnn(6, Fraction(9, 10), Fraction(1), seed=2)
    u = np.random.default_rng(0).uniform(-1, 1, size=(3, 30))
    feats = lv.rnn_states(lam, u, chunk=2).numpy()
    b = lv.input_matrix(6)
    x = np.zeros((3, 6), dtype=np.complex128)
    for k in range(30):
        x = lam * x + np.stack([np.ones(3), u[:, k]], axis=1) @ b.T
        np.testing.assert_allclose(feats[:, k, :6] + 1j * feats[:, k, 6:], x, rtol=1e-13,
                                   atol=1e-13)
    # the timestamp node: x_{k,0} = (1 − λ₀^k)/(1 − λ₀), the same for every input
    steps = np.arange(1, 31)
    np.testing.assert_allclose(feats[1, :, 0], (1 - lam[0].real ** steps) / (1 - lam[0].real),
                               rtol=1e-12)
    assert lv.rnn_states(lam, u, dtype=torch.float32).dtype == torch.float32


# ---- the task -----------------------------------------------------------------------------------------
def test_task_and_features() -> None:
    data = lv.make_task(TINY, np.random.default_rng(0), 5, Fraction(99, 100), Fraction(1))
    assert data.states.shape == (20, 48, 16) and TINY.n_train == 14
    inp = data.features("input")
    assert inp.shape == (20, 48, 3)
    assert torch.equal(inp[..., 0], torch.as_tensor(data.u))
    assert torch.equal(inp[..., 1], data.states[..., 0]) and torch.equal(inp[..., 2], data.states[..., 8])
    np.testing.assert_array_equal(data.z, lv.simulate(data.u))
    with pytest.raises(ValueError, match="features"):
        data.features("past")
    with pytest.raises(ValueError, match="positive quadrant"):
        lv.make_task(replace(TINY, length=2048, amplitude=0.5), np.random.default_rng(0), 5,
                     Fraction(99, 100), Fraction(1))


def test_fit_affine_recovers_an_affine_map() -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(200, 5, generator=g, dtype=torch.float64)
    w, c = torch.randn(5, 2, generator=g, dtype=torch.float64), torch.tensor([0.5, -2.0],
                                                                               dtype=torch.float64)
    model = lv.readout_model("linear", 5, TINY, seed=0)
    lv.fit_affine(model, x, x @ w + c)
    np.testing.assert_allclose(model.weight.detach().T.numpy(), w.numpy(), atol=1e-8)
    np.testing.assert_allclose(model.bias.detach().numpy(), c.numpy(), atol=1e-8)
    with pytest.raises(ValueError):
        lv.readout_model("tree", 5, TINY, seed=0)


def test_train_readout_scores_and_is_seeded() -> None:
    data = lv.make_task(TINY, np.random.default_rng(1), 9, Fraction(99, 100), Fraction(1))
    s = lv.train_readout(data, "state", "mlp", seed=3, keep_predictions=True, threads=1)
    again = lv.train_readout(data, "state", "mlp", seed=3)
    assert s.per_trajectory.shape == (6,) and s.error == pytest.approx(s.per_trajectory.mean())
    assert s.history.epochs == 3 and s.error == again.error  # seeded: the same training
    assert s.predictions is not None and s.predictions.shape == (6, 48, 2)
    # the reported z-unit MSE is that of the predictions against the validation outputs
    assert s.mse == pytest.approx(float(((s.predictions - data.z[14:]) ** 2).mean()), rel=1e-9)
    lin = lv.train_readout(data, "state", "linear", seed=3)
    assert lin.history is None and np.isfinite(lin.error)


def test_torch_threads_restores_the_setting() -> None:
    before = torch.get_num_threads()
    with torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


# ---- the experiment at ci scale -----------------------------------------------------------------------
def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def ci_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, Any]]:
    from recmem.checks.cli import main

    out = tmp_path_factory.mktemp("o-lotka-volterra")
    code = main(["reproduce", "O-lotka-volterra", "--scale", "ci", "--out", str(out), "--quiet",
                 "--device", "cpu"])
    return out, code, json.loads((out / "summary.json").read_text(encoding="utf-8"))


def test_ci_summary(ci_run: tuple[Path, int, dict[str, Any]]) -> None:
    _, code, summary = ci_run
    assert summary["complete"] is True and summary["scale"] == "ci"
    assert code == (1 if any(f["agreement"] == "disagrees" for f in summary["findings"]) else 0)
    assert [f["figure"] for f in summary["findings"]] == ["Fig. 9 (right)", "§4, Thm. 1 (memory)",
                                                          "§4 (role of the MLP)"]
    for f in summary["findings"]:
        assert f["agreement"] in AGREEMENTS and "criterion" in f["statement"]
        assert f["statement"].endswith(f"→ {f['agreement']}.")
    m = summary["measured"]
    err, ratio = m["validation_error"], m["ratio_to_baseline"]
    assert set(err) == {"rnn_mlp", "baseline", "linear"} and ratio["baseline"] == 1
    assert m["epochs"] == {"rnn_mlp": 20, "baseline": 20}
    assert m["resumed_at_epoch"] == {"rnn_mlp": 0, "baseline": 0}
    assert 0 < m["z_range"][0] < m["z_range"][1]
    # the findings' numbers are the run's own
    assert summary["findings"][0]["measured"] == err["rnn_mlp"]
    assert summary["findings"][1]["measured"] == ratio["rnn_mlp"]
    for key in ("inputs", "RNN", "error", "training", "baseline", "arithmetic", "scale"):
        assert key in summary["choices"]


def test_ci_csvs(ci_run: tuple[Path, int, dict[str, Any]]) -> None:
    out, _, summary = ci_run
    rows = {r["model"]: r for r in _csv(out / "validation_error.csv")}
    assert set(rows) == {"rnn_mlp", "baseline", "linear"}
    base = float(rows["baseline"]["validation_error"])
    for r in rows.values():
        assert float(r["ratio_to_baseline"]) == pytest.approx(float(r["validation_error"]) / base)
    per = _csv(out / "validation_error_per_trajectory.csv")
    assert len(per) == 256 - 179
    for name in ("rnn_mlp", "baseline", "linear"):
        mean = np.mean([float(r[name]) for r in per])
        assert mean == pytest.approx(float(rows[name]["validation_error"]), rel=1e-6)
    curves = _csv(out / "loss_curves.csv")
    assert {r["model"] for r in curves} == {"rnn_mlp", "baseline"} and len(curves) == 40
    last = [r for r in curves if r["model"] == "rnn_mlp"][-1]
    # the last validation loss is the reported validation error (the same standardised MSE)
    assert float(last["val_loss"]) == pytest.approx(float(rows["rnn_mlp"]["validation_error"]),
                                                    rel=1e-4)
    plotted = _csv(out / "plotted_trajectories.csv")
    assert len(plotted) == 3 * 512 and {"z1", "z2", "z1_rnn_mlp", "z2_linear"} <= set(plotted[0])
    assert set(summary["files"]) >= {"validation_error.csv", "loss_curves.csv",
                                     "plotted_trajectories.csv", "trajectories.png",
                                     "loss_curves.png"}
    for png in ("trajectories.png", "loss_curves.png"):
        data = (out / png).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


# ---- resume -----------------------------------------------------------------------------------------
SMALL = {**exp.SETTINGS["ci"], "L": 64, "trajectories": 24, "N": 8, "hidden": 16,
         "amplitude": "1/2", "epochs": 4, "batch": 128, "plotted": 2}


def _small_run(out: Path, epochs: int) -> RunContext:
    e = Experiment(exp.EXPERIMENT.name, exp.EXPERIMENT.title, exp.EXPERIMENT.source,
                   {"ci": {**SMALL, "epochs": epochs}, "paper": exp.SETTINGS["paper"]}, exp.run)
    ctx = RunContext(experiment=e, scale="ci", settings={**SMALL, "epochs": epochs}, seed=3,
                     device="cpu", out=out, quiet=True)
    exp.run(ctx)
    return ctx


def test_training_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    """Interrupted after 2 of 4 epochs (a run with a budget of 2), the next run continues from the
    checkpoint and ends exactly where an uninterrupted run does."""
    whole = _small_run(tmp_path / "whole", 4)
    part = _small_run(tmp_path / "part", 2)
    assert part.measured["epochs"] == {"rnn_mlp": 2, "baseline": 2}
    resumed = _small_run(tmp_path / "part", 4)
    assert resumed.measured["resumed_at_epoch"] == {"rnn_mlp": 2, "baseline": 2}
    assert whole.measured["resumed_at_epoch"] == {"rnn_mlp": 0, "baseline": 0}
    assert resumed.measured["validation_error"] == whole.measured["validation_error"]
    curves = {p: _csv(tmp_path / p / "loss_curves.csv") for p in ("whole", "part")}
    assert curves["whole"] == curves["part"]
