"""The command line's contract: names, exit codes, one-line errors, reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import one_error_line, run_cli, run_main
from rich.cells import cell_len

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
def test_bad_usage_exits_2_with_one_line_and_no_traceback(capsys: pytest.CaptureFixture[str],
                                                          args: list[str]) -> None:
    one_error_line(run_main(capsys, *args))


@pytest.mark.parametrize("args", [["verify", "O.nope"], ["bogus"]])
def test_bad_usage_through_the_installed_entry_point(args: list[str]) -> None:
    """The same contract from a fresh interpreter (``python -m recmem.checks``): the cases above
    run in this process, where nothing but ``main`` differs."""
    one_error_line(run_cli(*args))


def test_list_is_complete_and_light(tmp_path: Path) -> None:
    out = run_cli("list", "--paper", "O", "--json", str(tmp_path / "c.json"))
    assert out.returncode == 0
    rows = json.loads((tmp_path / "c.json").read_text())
    ids = {r["id"] for r in rows}
    assert "O.det" in ids
    assert all(r["source"]["location"] and r["statement"] for r in rows)
    # the 1 s target is measured by benchmarks/bench_cli.py; this guards its main causes: the
    # listing imports neither torch (about 2.5 s) nor Hypothesis (about 0.17 s: the claims build
    # their search strategies on first use)
    probe = subprocess.run([sys.executable, "-c", "import sys; from recmem.checks.cli import main; "
                            "main(['list']); print([m for m in ('torch', 'hypothesis') "
                            "if m in sys.modules], file=sys.stderr)"],
                           capture_output=True, text=True)
    assert probe.returncode == 0 and probe.stderr.strip().splitlines()[-1] == "[]", probe.stderr


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


# ---- display: one progress bar, whole IDs, what did not run, what would resolve -------------

ROOT = Path(__file__).resolve().parents[1]


def test_only_checks_terminal_builds_a_progress_display() -> None:
    """One progress bar (checks/terminal.py ``progress_bar``): no other module of recmem builds
    a ``rich.progress.Progress`` or imports its columns."""
    builders = []
    for folder in ("checks", "numerics", "theory", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "checks" / "terminal.py":
                continue
            text = path.read_text(encoding="utf-8")
            if "rich.progress" in text or "Progress(" in text:
                builders.append(str(path.relative_to(ROOT)))
    assert not builders, f"progress displays built outside checks/terminal.py: {builders}"


def test_the_progress_bar_counts_work_of_unknown_size() -> None:
    from rich.console import Console

    from recmem.checks.terminal import progress_bar

    con = Console(width=80, record=True, color_system=None, force_terminal=True)
    bar = progress_bar(True, con, count="simulations")
    task = bar.add_task("memory query", total=None)
    bar.advance(task, 7)
    text = "".join(str(c.render(bar.tasks[0])) for c in bar.columns[1:3])
    assert "memory query" in text and "7 simulations" in text


def _ids() -> list[str]:
    from recmem.checks.registry import all_claims

    return list(all_claims())


def _whole(text: str, claim_id: str) -> bool:
    """``claim_id`` appears as a whole cell of a rendered table (not a prefix of a longer ID)."""
    return any(f"│ {claim_id} " in line and (line.split("│")[1].strip() == claim_id)
               for line in text.splitlines())


def test_list_keeps_every_claim_id_whole_at_80_columns() -> None:
    out = run_cli("list", env={"COLUMNS": "80"})
    assert out.returncode == 0, out.stderr
    assert max(cell_len(line) for line in out.stdout.splitlines()) <= 80
    cut = [i for i in _ids() if not _whole(out.stdout, i)]
    assert not cut, f"IDs not shown whole at 80 columns: {cut}"
    assert "…" not in out.stdout


@pytest.mark.parametrize("width", [80, 100, 140])
def test_the_verify_table_keeps_every_claim_id_whole(width: int) -> None:
    from rich.console import Console

    from recmem.checks.cli import _verdict_table
    from recmem.checks.report import ClaimResult, Report
    from recmem.checks.verdict import Verdict

    report = Report(meta={"backends": ["numpy"]}, complete=True)
    report.claims = [ClaimResult(i, "t", "s", Verdict.CORROBORATED,
                                 {"location": "§1 eq. (2), App. B Lemma 6 and its proof"}, [], {},
                                 None, 1.0) for i in _ids()]
    con = Console(width=width, record=True, color_system=None)
    con.print(_verdict_table(report, con.width))
    text = con.export_text()
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert [i for i in _ids() if not _whole(text, i)] == []


@pytest.mark.parametrize("width", [80, 100, 140])
def test_the_fuzz_table_keeps_every_claim_id_whole(width: int, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks.campaign import STATUS_NOT_TOLD_APART, ClaimCampaign
    from recmem.checks.fuzz_cli import _print

    monkeypatch.setenv("COLUMNS", str(width))
    control = {"refuted": True, "examples_to_first_counterexample": 4, "change": "c",
               "examples": 5, "undecided": 0}
    _print({k: ClaimCampaign(i, STATUS_NOT_TOLD_APART, examples=500, undecided=3, seconds=12.5,
                             replayed=2, controls=[control]) for k, i in enumerate(_ids())})
    text = capsys.readouterr().out
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert [i for i in _ids() if not _whole(text, i)] == []
    assert text.count("500") == len(_ids()) and "…" not in text
    assert text.count("│ survived,") == len(_ids())  # the status: it decides the exit status


def _cuda_skipped_result(verdict: str = "CORROBORATED") -> Any:
    from recmem.checks.report import ClaimResult
    from recmem.checks.verdict import Evidence, Outcome, Verdict

    evidence = [Evidence("x_k", "numeric", "numpy", Outcome.PASS, precision_bits=53),
                Evidence("numeric", "numeric", "torch:cuda", Outcome.SKIPPED,
                         message="CUDA is not available (torch.cuda.is_available() is False)")]
    return ClaimResult("O.unroll", "t", "s", Verdict(verdict), {"location": "§2", "version": "v1"},
                       evidence, {}, None, 1.0)


def test_a_requested_backend_that_cannot_run_is_said_in_the_table_and_summary(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks.cli import _print_report
    from recmem.checks.report import Report

    monkeypatch.setenv("COLUMNS", "100")
    report = Report(meta={"backends": ["numpy", "torch:cuda"]}, complete=True)
    report.claims = [_cuda_skipped_result()]
    _print_report(report)
    out = capsys.readouterr().out
    table, summary = out.split("summary:")
    assert "not run: torch:cuda: CUDA is not available" in " ".join(table.split())
    assert "not run: torch:cuda" in summary
    assert "CORROBORATED" in table and "numpy" in table
    report.meta.update(recmem="0", started="now", seed=0, conventions=[])
    assert "Not run: `torch:cuda` (CUDA is not available" in report.to_markdown()
    report.meta["backends"] = ["numpy"]  # nothing requested failed to run: nothing said
    _print_report(report)
    assert "not run" not in capsys.readouterr().out


def test_show_history_lists_the_arithmetics_that_ran(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks import store

    monkeypatch.setenv("COLUMNS", "120")
    store.save(_cuda_skipped_result(), {"seed": 0, "precision": 256,
                                        "backends": ["numpy", "torch:cuda"]})
    assert main(["show", "O.unroll", "--history"]) == 0
    out = capsys.readouterr().out
    assert "numpy" in out and "torch:cuda" not in out


def test_show_prints_the_bits_that_would_resolve_an_inconclusive_check(
        capsys: pytest.CaptureFixture[str]) -> None:
    from recmem.checks import store
    from recmem.checks.report import ClaimResult
    from recmem.checks.verdict import Evidence, Outcome, Verdict

    evidence = [Evidence("x_k", "numeric", "numpy", Outcome.INCONCLUSIVE, precision_bits=53,
                         needed_bits=90, residual="1e-3", tolerance="1e-5"),
                Evidence("x_k", "numeric", "mpmath@64", Outcome.INCONCLUSIVE, precision_bits=64,
                         needed_bits=90)]
    store.save(ClaimResult("O.unroll", "t", "s", Verdict.INCONCLUSIVE, {"location": "§2"},
                           evidence, {}, None, 1.0), {"seed": 0, "backends": ["numpy"]})
    assert main(["show", "O.unroll"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "to resolve: numpy, mpmath@64 cannot resolve it: about 90 bits would" in out
    assert "--backend mpmath@90" in out
    assert "needed_bits=90" in out and "precision_bits=53" in out
