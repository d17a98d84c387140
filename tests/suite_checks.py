"""Each paper's default run, made once per pytest process, and what every paper's end-to-end
suite asserts of it (tests/test_suite_paper_*.py; the claims' tests read their claims' default
verdicts and controls from the same run)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

import recmem.checks as rc
from recmem.checks import readme_tables
from recmem.checks.report import ClaimResult, Report
from recmem.checks.verdict import Verdict

# The arithmetics of each paper's run: every one at its default precision (torch for paper W,
# whose trained and integrated claims run there too); O.universality, whose run trains models
# for half a minute, has its own tests (tests/test_claim_o_universality.py)
SUITE_BACKENDS = {
    "O": ("sympy", "mpmath@256", "flint@256", "numpy"),
    "W": ("sympy", "mpmath@256", "flint@256", "numpy", "torch:cpu"),
    "L": ("sympy", "mpmath@256", "flint@256", "numpy"),
}
NOT_IN_SUITE = {"O.universality"}
SUITE_EXAMPLES = 30


def run_paper(paper: str, claim_ids: Iterable[str] | None = None) -> Report:
    """``recmem verify --paper PAPER`` as the suites run it (:data:`SUITE_BACKENDS`, 30 search
    examples, every control), through the Python API; ``claim_ids``: only these claims."""
    ids = (list(claim_ids) if claim_ids is not None
           else [c.id for c in rc.list_claims(paper=paper) if c.id not in NOT_IN_SUITE])
    return rc.verify(ids, backends=list(SUITE_BACKENDS[paper]), search_examples=SUITE_EXAMPLES)


def on_paper(paper: str) -> Any:
    """The mark of a test that reads ``paper``'s run (the ``paper_report`` and
    ``default_result`` fixtures of tests/conftest.py): pytest-xdist (``--dist loadgroup``) runs
    all of them on one worker, which makes the run once."""
    return pytest.mark.xdist_group(f"paper-{paper}")


def paper_of(item: pytest.Item) -> str | None:
    """The paper whose run a test reads (its :func:`on_paper` mark), or None."""
    mark = item.get_closest_marker("xdist_group")
    name = str(mark.args[0]) if mark is not None and mark.args else ""
    return name.removeprefix("paper-") if name.startswith("paper-") else None


def result_of(report: Report, claim_id: str) -> ClaimResult:
    """The claim's result in a paper's run."""
    return next(c for c in report.claims if c.id == claim_id)


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
