"""End to end: `recmem verify --paper O` gives every claim of CLAIMS.md's paper-O table a verdict.

The expected verdicts are the findings of the checks (regressions would show here); each one is
computed by the run, and a REFUTED verdict must carry a certified counterexample.
"""

from __future__ import annotations

import pytest
import suite_checks as sc

import recmem.checks as rc
from recmem.checks.report import Report
from recmem.checks.verdict import Verdict

# CLAIMS.md's paper-O table, less O.universality: an experiment in torch (no numpy side, and
# trainings that would double this suite's time), verified end to end in
# tests/test_claim_o_universality.py
PAPER_O = ["O.unroll", "O.vandermonde-form", "O.det", "O.invertible", "O.reconstruct", "O.ring",
           "O.timestamp", "O.roots-of-unity", "O.real-illcond", "O.ring-conditioning",
           "O.sparse", "O.sparse-conditioning", "O.block", "O.relaxation", "O.causal-fill"]

V, C, R, INC = Verdict.VERIFIED, Verdict.CORROBORATED, Verdict.REFUTED, Verdict.INCONCLUSIVE
EXPECTED = {
    "O.unroll": V, "O.unroll.zero-based": R, "O.unroll.zero-based.corrected": V,
    "O.vandermonde-form": V, "O.det": V, "O.invertible": R, "O.invertible.corrected": V,
    "O.reconstruct": V, "O.ring": V, "O.timestamp": R, "O.timestamp.corrected": V,
    "O.roots-of-unity": V, "O.real-illcond": V, "O.ring-conditioning": INC, "O.sparse": V,
    "O.sparse-conditioning": INC, "O.sparse-conditioning.hermitian": INC, "O.block": R,
    "O.block.corrected": V, "O.block.literal-vtilde": R, "O.relaxation": R,
    "O.relaxation.corrected": V, "O.causal-fill": V,
    # App. A's cited theorems, checked on instances (issue 21): never more than CORROBORATED
    "O.pinkus": C, "O.rnn-universality": C, "O.linear-functional-conv": C,
    "O.linear-functional-conv.intended": C, "O.linear-rnn-conv": C,
}


pytestmark = sc.on_paper("O")


@pytest.fixture(scope="module")
def report(paper_report) -> Report:
    return paper_report("O")


def test_every_paper_o_claim_has_a_verdict(report) -> None:
    sc.assert_every_claim_has_a_verdict(report, PAPER_O)


def test_every_claim_rests_on_two_arithmetics(report) -> None:
    for c in report.claims:
        backends = {e.backend for e in c.evidence if str(e.outcome) != "skipped"}
        exact_or_high = backends & {"sympy", "exact (Hypothesis search)", "mpmath@256",
                                    "flint@256"}
        assert exact_or_high and "numpy" in backends, (c.id, backends)


def test_readme_findings_table_shows_these_verdicts(report) -> None:
    sc.assert_readme_table_matches(report, "O")


def test_expected_findings(report) -> None:
    sc.assert_expected_findings(report, EXPECTED)
    # a new claim needs its expected verdict
    assert {c.id for c in report.claims} | {"O.universality"} == {
        c.id for c in rc.list_claims(paper="O")} == set(EXPECTED) | {"O.universality"}


def test_every_control_is_told_apart(report) -> None:
    sc.assert_every_control_told_apart(report)


def test_refutations_carry_certified_counterexamples(report) -> None:
    sc.assert_refutations_are_certified(report)


def test_corrected_claims_point_at_their_parent(report) -> None:
    sc.assert_corrections_point_at_their_parent(report)
