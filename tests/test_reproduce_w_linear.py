"""W-linear-stability (W Fig. 1, App. D) and the trained-linear-RNN evidence of W.stable-exp: one
ci-scale run checked through its summary.json, CSV and PNG files; the trained evidence judged for
the statement and each negative control (on real training and on constructed data); the linear-RNN
training in numerics on tiny inputs; determinism with the same seed."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from recmem.checks.claim import Context
from recmem.checks.claims.paper_w._trained_linear import (
    TrainedCell,
    TrainedStudy,
    judge,
    trained_evidence,
)
from recmem.checks.registry import get
from recmem.checks.runner import run_claim
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import make_backend, parse_spec
from recmem.numerics.kernels import parse_kernel
from recmem.numerics.linear_rnn_training import (
    TrainSettings,
    fitting_errors,
    linear_rnn_bank,
    perturbation_estimate,
    train_bank,
)
from recmem.numerics.perturbation import Grid, Theta, linear_response_numpy
from recmem.numerics.training import one_cpu_thread

NAME = "W-linear-stability"
SMALL = TrainSettings(epochs=300, batch_size=128, train_size=128, every=10**9)
GRID = Grid(Fraction(1), Fraction(1), 20)


# ---- the ci-scale run ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ci_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path, dict[str, Any]]:
    """``recmem reproduce W-linear-stability --scale ci`` once, in this process (warnings from
    recmem are errors here)."""
    from recmem.checks.cli import main

    out = tmp_path_factory.mktemp("w_linear") / "run"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["reproduce", NAME, "--scale", "ci", "--out", str(out), "--quiet"])
    return code, out, json.loads((out / "summary.json").read_text())


def _finding(summary: dict[str, Any], figure: str) -> dict[str, Any]:
    (f,) = [f for f in summary["findings"] if f["figure"] == figure]
    return f


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_ci_run_is_complete_and_reports_disagreement_by_exit_status(ci_run) -> None:
    code, _, summary = ci_run
    assert summary["complete"] and summary["scale"] == "ci" and summary["experiment"] == NAME
    # App. D's protocol with ρ = 0.9^t grows with m (Fig. 1(a) not reproduced): exit status 1
    assert code == 1
    assert any(f["agreement"] == "disagrees" for f in summary["findings"])
    assert set(summary["files"]) == {"curves.csv", "fig1_least_squares.png", "fig1_trained.png",
                                     "perturbation_errors.csv", "training.csv"}
    assert {"least-squares basis", "trained model", "training data", "widths"} <= set(
        summary["choices"])
    for f in summary["findings"]:
        assert f["statement"].rstrip(".").endswith(f["agreement"]), f["figure"]


def test_least_squares_findings_separate_rounding_from_instability(ci_run) -> None:
    _, _, summary = ci_run
    exp = _finding(summary, "Fig. 1(a) — App. D least squares")
    poly = _finding(summary, "Fig. 1(b) — App. D least squares")
    # certified growth for both targets: for 0.9^t it contradicts Fig. 1(a), for the polynomial
    # target it is Fig. 1(b)
    assert exp["measured"]["growth test"] == "pass" and exp["agreement"] == "disagrees"
    assert poly["measured"]["growth test"] == "pass" and poly["agreement"] == "agrees"
    lip = {int(m): float(v) for m, v in
           exp["measured"]["(E_m(β)−E_m(0))/β max over certified β"].items()}
    assert lip[8] > 1e10 * lip[1]
    # float64 follows the exact fits at the certified β's: the growth is not rounding
    rounding = _finding(summary, "Fig. 1 (float64 vs exact fits)")
    assert rounding["agreement"] == "agrees"
    assert max(float(v) for v in rounding["measured"].values()) <= 0.01
    # E_m(0) of the exact fits beside the figure's digitised values (0.9^t: orders apart)
    e0 = _finding(summary, "Fig. 1 at β = 0 (App. D least squares)")
    assert e0["agreement"] == "disagrees" and "exp m=2" in e0["statement"]


def test_trained_findings_are_judged_from_their_own_data(ci_run) -> None:
    from recmem.numerics.studies import trend_test

    _, _, summary = ci_run
    exp = _finding(summary, "Fig. 1(a) — trained linear RNNs")
    poly = _finding(summary, "Fig. 1(b) — trained linear RNNs")
    # the trained sequence is stable for the exponential target: E_m(β) ≤ E_m(0) + L·β, L = O(1)
    lip = [float(v) for v in exp["measured"]["(E_m(β)−E_m(0))/β max over certified β"].values()]
    assert max(lip) < 100 and exp["agreement"] == "agrees"
    # recompute the polynomial target's tests from the trained cells in the results file
    cells = {}
    for line in (ci_run[1] / "results" / "trained.jsonl").read_text().splitlines():
        rec = json.loads(line)
        cells[rec["key"]] = rec["value"]
    betas = ["0", "1/2000", "1/1000"]
    rows = [{"m": int(k.split("/")[1]), "beta": b, "excess": v["ball"]["mid"][i] - v["ball"]["mid"][0]}
            for k, v in cells.items() if k.startswith("poly/") for i, b in enumerate(betas) if i]
    e0 = [{"m": int(k.split("/")[1]), "E0": v["ball"]["mid"][0]} for k, v in cells.items()
          if k.startswith("poly/")]
    growth = trend_test(rows, "m", "excess", "increasing", ["beta"], 0.01)
    approx = trend_test(e0, "m", "E0", "decreasing", [], 0.01)
    assert poly["measured"]["growth test"] == growth.outcome
    assert poly["measured"]["approximation test"] == approx.outcome
    expected = ("agrees" if (growth.outcome, approx.outcome) == ("pass", "pass") else
                "disagrees" if "fail" in (growth.outcome, approx.outcome) else "partial")
    assert poly["agreement"] == expected
    # every trained width was certified: float64 within 1e-9 of the ball midpoints
    for v in cells.values():
        lo, mid, hi = (np.array(v["ball"][k]) for k in ("lo", "mid", "hi"))
        assert np.all(lo <= mid) and np.all(mid <= hi)
        assert np.allclose(v["values"][: len(mid)], mid, rtol=1e-9, atol=1e-14)


def test_csv_holds_every_point_and_the_curves_are_their_running_max(ci_run) -> None:
    _, out, summary = ci_run
    points = _csv(out / "perturbation_errors.csv")
    curves = _csv(out / "curves.csv")
    settings = summary["settings"]
    n_beta = 22  # β = 0 and 5·10⁻⁴·2^i, i = 0…20
    assert {r["source"] for r in points} == {"least squares", "trained"}
    assert {r["arithmetic"] for r in points} >= {"float64", f"flint@{settings['precision_bits']}"}
    random = [r for r in points if r["kind"] == "random" and r["beta"] != "0"]
    per_cell = {(r["source"], r["target"], r["m"], r["beta"]) for r in random}
    assert len(random) == len(per_cell) * settings["samples"]  # 10 samples per β > 0
    assert len({r["beta"] for r in random}) == n_beta - 1
    # E_m(β) = running max over β' ≤ β of every point's error (nested balls)
    best: dict[tuple[str, str, str], list[float]] = {}
    for r in points:
        if r["arithmetic"] == "float64":
            key = (r["source"], r["target"], r["m"])
            best.setdefault(key, [-np.inf] * n_beta)
            i = int(r["beta_index"])
            best[key][i] = max(best[key][i], float(r["error"]))
    positive = [str(Fraction(1, 2000) * 2**k) for k in range(21)]
    for r in curves:
        run = np.maximum.accumulate(best[(r["source"], r["target"], r["m"])])
        idx = 0 if r["beta"] == "0" else 1 + positive.index(r["beta"])
        assert float(r["E"]) == run[idx] or (np.isinf(run[idx]) and np.isinf(float(r["E"])))
    training = _csv(out / "training.csv")
    assert {r["target"] for r in training} == {"exp", "poly"}
    assert max(int(r["epoch"]) for r in training) <= settings["epochs"]


def test_figures_are_pngs(ci_run) -> None:
    from PIL import Image

    _, out, _ = ci_run
    for name in ("fig1_least_squares.png", "fig1_trained.png"):
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
        w, h = Image.open(out / name).size
        assert w > 2 * h  # side-by-side panels (exponential, polynomial[, training])


def test_rerun_continues_from_the_saved_cells(ci_run, capsys) -> None:
    from recmem.checks.cli import main

    _, out, summary = ci_run
    code = main(["reproduce", NAME, "--scale", "ci", "--out", str(out), "--quiet"])
    capsys.readouterr()
    again = json.loads((out / "summary.json").read_text())
    assert code == 1 and again["findings"] == summary["findings"]
    assert again["measured"] == summary["measured"]


# ---- the trained evidence of W.stable-exp ----------------------------------------------------------
def _ctx(statement: Any, **params: Any) -> Context:
    claim = get("W.stable-exp")
    ctx = claim.context(params, seed=0, precision_bits=128)
    return replace(ctx, statement=statement)


def _study(exp_excess: list[float], poly_excess: list[float], poly_e0: list[float]) -> TrainedStudy:
    """Constructed trained data: per width m = 1…6, E_m(β) = E_m(0) + excess·(β/β₁)."""
    betas = (Fraction(0), Fraction(1, 2000), Fraction(1, 1000))
    cells = {}
    for m in range(1, 7):
        cells[("exp", m)] = TrainedCell("exp", m, (1e-3, 1e-3 + exp_excess[m - 1],
                                                   1e-3 + 2 * exp_excess[m - 1]), (0.1,), "", 1)
        cells[("poly", m)] = TrainedCell("poly", m, (poly_e0[m - 1], poly_e0[m - 1] + poly_excess[m - 1],
                                                     poly_e0[m - 1] + 2 * poly_excess[m - 1]),
                                         (0.01,), "", 1)
    return TrainedStudy(cells, betas, 0.0)


DESCRIBE = {"exp": "ρ(t) = 9/10^t", "poly": "ρ(t) = (t + 1)^-11/10"}
REALISABLE = {"exp": DESCRIBE["exp"]}


def test_judge_tells_every_control_apart_when_the_trained_data_show_the_papers_picture() -> None:
    """Growth for the polynomial target, none for the exponential one: the statement passes and
    each control is failed by a check (a reversed trend never passes)."""
    backend = make_backend("torch:cpu")
    study = _study([0.002] * 6, [10.0**m for m in range(6)], [0.1 / m for m in range(1, 7)])
    law = get("W.stable-exp").statement
    own = judge(backend, law, study, REALISABLE, DESCRIBE)
    assert [e.outcome for e in own] == [Outcome.PASS] * 3
    for control in get("W.stable-exp").controls:
        ev = judge(backend, control.statement, study, REALISABLE, DESCRIBE)
        assert Outcome.FAIL in [e.outcome for e in ev], control.change
    reversed_ = next(c for c in get("W.stable-exp").controls if "reversed" in c.change)
    (excess,) = [e for e in judge(backend, reversed_.statement, study, REALISABLE, DESCRIBE)
                 if "E_m(β) − E_m(0) in m" in e.check]
    assert excess.outcome is Outcome.FAIL


def test_judge_is_inconclusive_when_a_provably_stable_target_grows_and_fails_otherwise() -> None:
    backend = make_backend("torch:cpu")
    growth = [10.0**m for m in range(6)]
    study = _study(growth, growth, [0.1 / m for m in range(1, 7)])
    law = get("W.stable-exp").statement
    (stable,) = [e for e in judge(backend, law, study, REALISABLE, DESCRIBE)
                 if "stable-role" in e.check and "unstable" not in e.check]
    assert stable.outcome is Outcome.INCONCLUSIVE and "provably" in stable.message
    (stable,) = [e for e in judge(backend, law, study, {}, DESCRIBE)
                 if "stable-role" in e.check and "unstable" not in e.check]
    assert stable.outcome is Outcome.FAIL


def test_trained_evidence_for_the_statement_and_each_control_through_the_runner() -> None:
    """Real training (small budget) through the verdict rules: the trained sequence is stable for
    both targets at these widths, so it shows no growth for the polynomial target; no check may
    pass a control whose trend it did not show, and none refutes anything."""
    claim = replace(get("W.stable-exp"), symbolic=None, strategy=None, holds=None,
                    numeric=lambda b, c: trained_evidence(b, c, SMALL))
    ctx = claim.context({"ms": (1, 2, 3, 4, 5, 6)}, seed=0, precision_bits=128)
    result = run_claim(claim, ctx, [parse_spec("torch:cpu")])
    stat = [e for e in result.evidence if "test" in e.data]
    assert len(stat) == 3
    # supplementary: App. D fits, it does not train, so these tests never decide the study
    assert all(e.kind == "numeric" for e in stat)
    growth = next(e for e in stat if "unstable-role" in e.check and "E_m(β)" in e.check)
    assert growth.outcome is not Outcome.PASS  # trained RNNs: no significant growth here
    assert growth.data["test"]["outcome"] == "inconclusive"
    for run in result.controls or ():
        assert run.verdict is not Verdict.REFUTED, run.change
        for e in run.evidence:
            test = e.data.get("test")
            if e.outcome is Outcome.PASS and test is not None and "not increasing" not in e.check:
                # a passing trend check of a control shows its own (control's) trend significantly
                assert test["outcome"] == "pass" and float(test["p_claimed"]) < 0.01, (run.change,
                                                                                     e.check)
    reversed_ = next(r for r in result.controls or () if "reversed" in r.change)
    (rev,) = [e for e in reversed_.evidence if "unstable-role" in e.check and "E_m(β)" in e.check]
    assert rev.outcome is not Outcome.PASS and rev.data["test"]["claimed"] == "decreasing"
    # no deciding (statistical) check ran: alone, this evidence decides nothing
    assert result.verdict is Verdict.SKIPPED


def test_trained_study_is_shared_by_the_controls_and_deterministic() -> None:
    from recmem.checks.claims.paper_w import _trained_linear as tl

    law = get("W.stable-exp").statement
    ctx = _ctx(law, ms=(1, 2, 3), T=30)
    a = tl.trained_study(ctx, "cpu", SMALL)
    assert tl.trained_study(_ctx(replace(law, excess_trend="decreasing"), ms=(1, 2, 3), T=30),
                            "cpu", SMALL) is a  # statement-independent data, computed once
    fresh = tl._compute(ctx, "cpu", SMALL, a.betas)
    assert fresh.cells == a.cells  # the same seed gives the same numbers
    other = tl._compute(replace(ctx, seed=1), "cpu", SMALL, a.betas)
    assert other.cells != a.cells


# ---- numerics: the linear-RNN bank ---------------------------------------------------------------
def test_bank_memory_is_the_linear_rnn_response() -> None:
    bank = linear_rnn_bank([1, 3], [5, 6], (0.01, 1.0))
    t = torch.tensor(GRID.values, dtype=torch.float64).reshape(-1, 1)
    with torch.no_grad():
        pred = bank(t).numpy()
    for k, theta in enumerate(bank.thetas()):
        rate, _ = linear_response_numpy(theta.W[None], theta.U[None], theta.c[None], GRID)
        assert np.allclose(pred[:, k], rate[0], rtol=1e-12, atol=1e-15)
        assert np.all(np.diag(theta.W) < 0) and np.all(np.abs(theta.U) <= 1 / np.sqrt(theta.m))
    # a width's start depends on its own seed only
    alone = linear_rnn_bank([3], [6], (0.01, 1.0)).thetas()[0]
    assert np.array_equal(alone.W, bank.thetas()[1].W) and np.array_equal(alone.c, bank.thetas()[1].c)


def test_bank_training_equals_training_each_width_alone() -> None:
    """Adam on the summed MSE moves each width exactly as its own Adam run would."""
    kernel = parse_kernel("poly:11/10")
    s = TrainSettings(epochs=60, batch_size=16, train_size=48, target_loss=0.0, every=10**9)
    both, _ = train_bank(kernel, GRID, [2, 3], s, seed=3, init_seeds=[10, 11])
    alone, _ = train_bank(kernel, GRID, [3], s, seed=3, init_seeds=[11])
    a, b = both.thetas()[1], alone.thetas()[0]
    for x, y in ((a.W, b.W), (a.U, b.U), (a.c, b.c)):
        assert np.allclose(x, y, rtol=1e-12, atol=1e-15)


def test_training_fits_the_exponential_memory_and_is_deterministic() -> None:
    kernel = parse_kernel("exp:9/10")
    s = TrainSettings(epochs=400, batch_size=128, train_size=128, every=10**9)
    bank, hist = train_bank(kernel, GRID, [1, 2], s, seed=0, init_seeds=[1, 2])
    again, _ = train_bank(kernel, GRID, [1, 2], s, seed=0, init_seeds=[1, 2])
    assert hist.val[-1] < hist.val[0] / 100 and hist.epochs <= 400
    for x, y in zip(bank.thetas(), again.thetas(), strict=True):
        assert np.array_equal(x.W, y.W) and np.array_equal(x.c, y.c)
    sup, mse = fitting_errors(bank.thetas()[0], kernel, GRID)
    assert sup < 0.05 and mse <= sup**2


def test_fitting_errors_and_estimate_of_the_exact_realisation() -> None:
    """ρ = 0.9^t is realised exactly by w = ln 0.9, U = c = 1: E_m(0) ≈ 0, and E_m(β) grows
    linearly in β from 0 (a stable approximation)."""
    kernel = parse_kernel("exp:9/10")
    theta = Theta.linear([[np.log(0.9)]], [1.0], [1.0])
    sup, _ = fitting_errors(theta, kernel, GRID)
    assert sup < 1e-14
    betas = (Fraction(0), Fraction(1, 2000), Fraction(1, 1000))
    est = perturbation_estimate(theta, kernel, GRID, betas, 10, (0, 1))
    again = perturbation_estimate(theta, kernel, GRID, betas, 10, (0, 1))
    assert np.array_equal(est.values, again.values)
    assert est.values[0] < 1e-14 and 0 < est.values[1] < est.values[2] < 1e-2
    assert est.values[2] / est.values[1] == pytest.approx(2, rel=0.05)


def test_train_settings_and_thread_guard() -> None:
    with pytest.raises(ValueError, match="rates"):
        TrainSettings(rates=(0.0, 1.0))
    with pytest.raises(ValueError, match="epochs"):
        TrainSettings(epochs=0)
    before = torch.get_num_threads()
    with one_cpu_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
