"""What every paper's end-to-end suite asserts of its report (used by tests/test_suite_paper_*.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from recmem.checks import readme_tables
from recmem.checks.report import Report
from recmem.checks.verdict import Verdict


def assert_every_claim_has_a_verdict(report: Report, table: Iterable[str]) -> None:
    """Each ID of the paper's CLAIMS.md table ran and ended neither in ERROR nor SKIPPED."""
    got = {c.id: c for c in report.claims}
    table = list(table)
    assert set(table) <= set(got), sorted(set(table) - set(got))
    for cid in table:
        assert got[cid].verdict in set(Verdict) - {Verdict.ERROR, Verdict.SKIPPED}, cid


def assert_expected_findings(report: Report, expected: Mapping[str, Verdict]) -> None:
    got = {c.id: c.verdict for c in report.claims}
    assert {k: got.get(k) for k in expected} == dict(expected)


def assert_refutations_are_certified(report: Report) -> None:
    for c in report.claims:
        if c.verdict is Verdict.REFUTED:
            assert c.counterexample and c.counterexample.get("certified_by"), c.id


def assert_corrections_point_at_their_parent(report: Report) -> None:
    ids = {c.id for c in report.claims}
    for c in report.claims:
        if c.id.endswith((".corrected", ".weak")):
            assert c.corrects in ids, c.id


def assert_every_control_told_apart(report: Report) -> None:
    """Issue 7's bar: every claim has controls, and the default run tells each apart."""
    for c in report.claims:
        assert c.controls, c.id
        missed = [r.change for r in c.controls if not r.told_apart]
        assert not missed, (c.id, missed)


def assert_readme_table_matches(report: Report, paper: str) -> None:
    """The README's findings table for ``paper`` shows the verdicts this run computed (its IDs and
    one-liners are checked against the registry in tests/test_readme.py)."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    shown = {r.id: r.verdict for r in readme_tables.parse_table(readme.read_text(encoding="utf-8"),
                                                                 paper)}
    got = {c.id: str(c.verdict) for c in report.claims}
    # the claims this run verified (every registered claim's row: tests/test_readme.py)
    differ = {i: (shown.get(i), got[i]) for i in got if shown.get(i) != got[i]}
    assert not differ, ("README verdict vs this run's (regenerate the tables: "
                        f"`python -m recmem.checks.readme_tables --report REPORT.json`): {differ}")
