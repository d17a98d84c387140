"""The README's findings tables are the registry's (checks/readme_tables.py): every registered claim
once, nothing else, and the IDs and one-liners as the claims define them. The verdict column is
compared with a real run in tests/test_suite_paper_*.py, which already run each paper's suite."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from recmem.checks import plugins, registry
from recmem.checks import readme_tables as rt
from recmem.checks.verdict import Verdict

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _text() -> str:
    return README.read_text(encoding="utf-8")


def test_the_readme_has_one_findings_table_per_paper() -> None:
    assert rt.papers_in(_text()) == plugins.paper_keys()


def test_every_registered_claim_appears_exactly_once_and_nothing_else() -> None:
    text = _text()
    for paper in plugins.paper_keys():
        listed = Counter(r.id for r in rt.parse_table(text, paper))
        twice = sorted(i for i, n in listed.items() if n > 1)
        registered = {c.id for c in registry.select(paper=paper)}
        assert not twice, f"listed more than once in the paper-{paper} table: {twice}"
        assert set(listed) == registered, (
            f"paper {paper}: missing {sorted(registered - set(listed))}, "
            f"not registered {sorted(set(listed) - registered)}")


def test_every_verdict_cell_is_a_verdict() -> None:
    names = {str(v) for v in Verdict}
    rows = [r for p in plugins.paper_keys() for r in rt.parse_table(_text(), p)]
    assert {r.verdict for r in rows} <= names, sorted({r.verdict for r in rows} - names)


def test_the_tables_are_what_the_registry_renders() -> None:
    """IDs, order and one-liners come from the registry (verdicts as the README has them)."""
    text = _text()
    assert rt.render(text, rt.readme_verdicts(text)) == text, (
        "the README's findings tables differ from the registry: run "
        "`python -m recmem.checks.readme_tables --report REPORT.json` (see the README)")


def test_a_claim_without_summary_shows_its_title() -> None:
    import dataclasses

    claim = dataclasses.replace(registry.get("O.det"), summary="")
    assert rt.one_line(claim) == claim.title
    assert rt.render_row(claim, "VERIFIED") == f"| `O.det` | VERIFIED | {claim.title} |"


def test_check_mode_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(_text(), encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--check"]) == 0
    drifted = _text().replace("| `O.det` | VERIFIED | ", "| `O.det` | VERIFIED | (edited by hand) ", 1)
    assert drifted != _text()
    readme.write_text(drifted, encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--check"]) == 1
    assert readme.read_text(encoding="utf-8") == drifted  # --check changes nothing
    assert "(edited by hand)" in capsys.readouterr().out  # the difference is shown
    assert rt.main(["--readme", str(readme)]) == 0  # regenerating restores the registry's text
    assert readme.read_text(encoding="utf-8") == _text()


def test_a_dropped_row_is_restored_only_with_a_verdict(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    row = next(line for line in _text().splitlines() if line.startswith("| `O.causal-fill` |"))
    readme.write_text(_text().replace(row + "\n", ""), encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--check"]) == 2  # no verdict for O.causal-fill
    report = tmp_path / "report.json"
    report.write_text('{"schema": "recmem.report/2", "complete": true, "seed": 0, "params": {}, '
                      '"controls": true, "claims": [{"id": "O.causal-fill", "verdict": "VERIFIED"}]}',
                      encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--report", str(report)]) == 0
    assert readme.read_text(encoding="utf-8") == _text()


@pytest.mark.parametrize("doc, why", [
    ('{"schema": "recmem.report/2", "complete": false, "claims": []}', "partial"),
    ('{"schema": "recmem.report/2", "complete": true, "seed": 3, "claims": []}', "seed 3"),
    ('{"schema": "recmem.report/2", "complete": true, "controls": false, "claims": []}',
     "--no-controls"),
    ('{"schema": "other", "claims": []}', "not a recmem report"),
])
def test_reports_of_other_runs_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           doc: str, why: str) -> None:
    readme, report = tmp_path / "README.md", tmp_path / "report.json"
    readme.write_text(_text(), encoding="utf-8")
    report.write_text(doc, encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--report", str(report)]) == 2
    assert why in capsys.readouterr().err
    assert readme.read_text(encoding="utf-8") == _text()


def test_missing_markers_are_a_usage_error(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(_text().replace(rt.end_marker("W"), ""), encoding="utf-8")
    assert rt.main(["--readme", str(readme), "--check"]) == 2


def test_cells_with_pipes_round_trip() -> None:
    claim = registry.get("W.memory-linear")
    assert "|" in rt.one_line(claim)
    row = rt.render_row(claim, "VERIFIED")
    text = f"{rt.begin_marker('W')}\n{rt.HEADER[0]}\n{rt.HEADER[1]}\n{row}\n{rt.end_marker('W')}\n"
    assert rt.parse_table(text, "W") == [rt.Row(claim.id, "VERIFIED", rt.one_line(claim))]


def test_the_coverage_counts_are_the_ledgers() -> None:
    """The README's coverage table states each paper's counts as `recmem coverage` computes them
    (issue 21); with the paper texts present, the items they number are counted as well."""
    from recmem.checks.coverage import coverage

    for paper in plugins.paper_keys():
        counts = coverage(paper, verdicts={}).counts()
        row = (f"| {sum(counts.values())} | {counts['checked']} | {counts['definition']} | "
               f"{counts['not-checkable']} | {counts['uncovered']} |")
        assert any(line.startswith(f"| {paper} (") and line.endswith(row)
                   for line in _text().splitlines()), (paper, row)
