"""`recmem reproduce L-fig6-relu-spectrum`, `L-fig7-nonlinearity`, `L-fig8-exp-param` (paper L
App. E.1.1 Fig. 6, App. E.2 Fig. 7–8): one ci-scale run of each through its summary.json, CSV and
PNG, with every finding decided by its stated criterion; a planted slip (ReLU replaced by the
identity) turns Fig. 6's finding into a disagreement."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from reproduce_runs import run_ci

from recmem.checks.reproduce.experiment import AGREEMENTS
from recmem.checks.reproduce.experiments import l_fig6_relu_spectrum, l_fig7_nonlinearity, l_fig8_exp_param

pytest.importorskip("matplotlib")

MODULES = {"L-fig6-relu-spectrum": l_fig6_relu_spectrum, "L-fig7-nonlinearity": l_fig7_nonlinearity,
           "L-fig8-exp-param": l_fig8_exp_param}



_run = run_ci


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_ci_run_writes_its_files_and_decided_findings(name: str, tmp_path: Path) -> None:
    code, summary = _run(tmp_path / name, name)
    assert summary["complete"] is True
    assert code in (0, 1)
    assert summary["findings"]
    for f in summary["findings"]:
        assert f["agreement"] in AGREEMENTS and f["statement"]
    for file in summary["files"]:
        assert (tmp_path / name / file).stat().st_size > 0
    assert any(f.endswith(".png") for f in summary["files"])
    assert any(f.endswith(".csv") for f in summary["files"])


def test_fig6_agrees_and_a_planted_identity_disagrees(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, summary = _run(tmp_path / "ok", "L-fig6-relu-spectrum")
    assert code == 0 and all(f["agreement"] == "agrees" for f in summary["findings"])
    monkeypatch.setattr(l_fig6_relu_spectrum, "relu", lambda u: np.asarray(u) * 1.0)
    code, summary = _run(tmp_path / "slip", "L-fig6-relu-spectrum")
    assert code == 1
    assert summary["findings"][0]["agreement"] == "disagrees"
