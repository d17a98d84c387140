"""`recmem reproduce L-fig9-blowup` (paper L App. F.2, Fig. 9): one ci-scale run checked through its
summary.json, CSV and PNG; a planted slip in the statement's gain (Proposition 3) turns a finding
into a disagreement; the sampler below the experiment follows Lemma 2; determinism."""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from reproduce_runs import run_ci

from recmem.checks.reproduce.experiment import AGREEMENTS
from recmem.checks.reproduce.experiments import l_fig9_blowup as fig9

pytest.importorskip("matplotlib")
NAME = "L-fig9-blowup"




def _run(out: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    return run_ci(out, NAME, *extra)


@pytest.fixture(scope="module")
def ci_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, Any]]:
    out = tmp_path_factory.mktemp("l-fig9")
    return (out, *_run(out))


def test_ci_run_agrees_with_fig9(ci_run) -> None:
    out, code, summary = ci_run
    assert code == 0 and summary["complete"]
    assert summary["seconds"] < 60
    findings = {f["figure"]: f for f in summary["findings"]}
    assert set(findings) == {"Fig. 9 (constant input)", "Fig. 9 (white-noise input)", "Fig. 9 (remark)"}
    assert all(f["agreement"] in AGREEMENTS for f in findings.values())
    assert findings["Fig. 9 (white-noise input)"]["agreement"] == "agrees"
    assert (out / "fig9_gain.png").stat().st_size > 0
    rows = list(csv.DictReader((out / "fig9_gains.csv").open(encoding="utf-8")))
    settings = fig9.SETTINGS["ci"]
    assert len(rows) == 2 * len(settings["rings"]) * settings["runs"]
    for row in rows:  # the prediction column is Proposition 3's formula
        a, b = Fraction(row["r_min"]) ** 2, Fraction(row["r_max"]) ** 2
        assert float(row["prediction"]) == pytest.approx(np.log(float((1 - a) / (1 - b))) / float(b - a),
                                                         rel=1e-12)


def test_planted_slip_in_the_gain_disagrees(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(fig9, "prediction", lambda r_min, r_max: 3.0 * np.log(
        (1 - float(r_min) ** 2) / (1 - float(r_max) ** 2)) / float(r_max**2 - r_min**2))
    code, summary = _run(tmp_path)
    assert code == 1
    assert any(f["agreement"] == "disagrees" for f in summary["findings"])


def test_sampler_is_lemma2() -> None:
    lam, b = fig9.draw(np.random.default_rng(0), 20000, 3, Fraction(1, 2), Fraction(3, 4))
    r2 = np.abs(lam) ** 2
    assert r2.min() >= 0.25 - 1e-12 and r2.max() <= 0.5625 + 1e-12
    assert abs(r2.mean() - (0.25 + 0.5625) / 2) < 0.01  # |λ|² uniform on [r_min², r_max²]
    assert b.shape == (20000, 3)


def test_deterministic(tmp_path, ci_run) -> None:
    _, _, first = ci_run
    _, again = _run(tmp_path)
    assert again["measured"] == first["measured"]
