"""The command line's contract: names, exit codes, one-line errors, reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import one_error_line, run_cli

from recmem.checks.cli import main


@pytest.mark.parametrize("args", [
    ["verify", "O.nope"],
    ["verify", "O.det", "--backend", "mpmath@x"],
    ["verify", "O.det", "--backend", "numpy:float16"],
    ["verify", "O.det", "--backend", "flint@1"],
    ["verify", "O.det", "--precision", "1"],
    ["verify", "O.det", "--param", "N=0"],
    ["verify", "O.det", "--param", "N"],
    ["verify", "O.det", "--param", "nosuch=3"],
    ["verify", "O.det", "--param", "nodes=hexagonal"],
    ["verify", "--paper", "Q"],
    ["show", "O.dett"],
    ["fuzz", "O.nope"],
    ["bogus"],
])
def test_bad_usage_exits_2_with_one_line_and_no_traceback(args: list[str]) -> None:
    one_error_line(run_cli(*args))


def test_list_is_complete_and_light(tmp_path: Path) -> None:
    out = run_cli("list", "--paper", "O", "--json", str(tmp_path / "c.json"))
    assert out.returncode == 0
    rows = json.loads((tmp_path / "c.json").read_text())
    ids = {r["id"] for r in rows}
    assert "O.det" in ids
    assert all(r["source"]["location"] and r["statement"] for r in rows)
    # the 1 s target is measured by benchmarks/bench_cli.py; this guards its main cause: the
    # listing must not import torch
    probe = subprocess.run([sys.executable, "-c", "import sys; from recmem.checks.cli import main; "
                            "main(['list']); print('torch' in sys.modules, file=sys.stderr)"],
                           capture_output=True, text=True)
    assert probe.returncode == 0 and probe.stderr.strip().splitlines()[-1] == "False", probe.stderr


def test_verify_writes_reports_and_show_prints_the_last_evidence(tmp_path: Path) -> None:
    rep, md = tmp_path / "r.json", tmp_path / "r.md"
    code = main(["verify", "O.unroll", "--backend", "mpmath@128", "--backend", "numpy",
                 "--param", "N=4", "--json", str(rep), "--markdown", str(md), "--quiet"])
    assert code == 0
    data = json.loads(rep.read_text())
    assert data["complete"] is True and data["controls"] is True
    (claim,) = data["claims"]
    assert claim["id"] == "O.unroll" and claim["verdict"] == "CORROBORATED"
    assert claim["source"]["location"].startswith("§2")
    # the exact search runs whatever --backend selects; the arithmetics are the ones asked for
    assert {e["backend"] for e in claim["evidence"]} == {"mpmath@128", "numpy",
                                                         "exact (Hypothesis search)"}
    for e in claim["evidence"]:
        if e["kind"] == "numeric":
            assert e["tolerance_source"].startswith("c·n·κ·u")
            assert "condition_number" in e
    controls = claim["controls"]
    assert [c["change"] for c in controls] == ["sign of the sum flipped",
                                               "power of Λ shifted by one",
                                               "upper limit lowered by one"]
    assert all(c["verdict"] == "REFUTED" and c["told_apart"] and c["counterexample"]
               for c in controls)
    text = md.read_text()
    assert "O.unroll" in text and "Negative controls" in text and "| 3/3 |" in text
    shown = run_cli("show", "O.unroll")
    assert shown.returncode == 0
    assert "CORROBORATED" in shown.stdout and "mpmath@128" in shown.stdout
    assert "negative controls" in shown.stdout and "power of Λ shifted by one" in shown.stdout


def test_no_controls_skips_them_and_says_so(tmp_path: Path) -> None:
    rep = tmp_path / "r.json"
    code = main(["verify", "O.unroll", "--backend", "numpy", "--no-controls", "--json", str(rep),
                 "--quiet"])
    assert code == 0
    data = json.loads(rep.read_text())
    assert data["controls"] is False
    (claim,) = data["claims"]
    assert claim["controls"] is None and claim["verdict"] == "CORROBORATED"


def test_python_api_matches_cli() -> None:
    import recmem.checks as rc

    report = rc.verify(["O.unroll"], backends=["flint@128"], params={"N": "3"})
    assert report.ok and report.claims[0].verdict is rc.Verdict.CORROBORATED
    assert report.claims[0].controls_summary() == "3/3"
    assert all(c.id.startswith("O.") for c in rc.list_claims("O"))
