"""End to end: `recmem verify --paper L` gives every claim of paper L a verdict, with every
control told apart (issue 22).

The expected verdicts are the findings of the checks (regressions would show here); each one is
computed by the run, and a REFUTED verdict must carry a certified counterexample.
"""

from __future__ import annotations

import pytest
import suite_checks as sc

import recmem.checks as rc
from recmem.checks.report import Report
from recmem.checks.verdict import Verdict

V, C, R = Verdict.VERIFIED, Verdict.CORROBORATED, Verdict.REFUTED
EXPECTED = {
    # §2.1, §3.2.1: the recurrence unrolled, its eigendecomposition and stability
    "L.unroll": V, "L.unroll.zero-based": R, "L.unroll.zero-based.corrected": V,
    "L.eigen": R, "L.eigen.corrected": V, "L.stability": V, "L.stability.growth": R,
    "L.stability.growth.corrected": V,
    # §2 and §4: discretisation
    "L.zoh": R, "L.zoh.corrected": V, "L.s4d-lin.spectrum": V, "L.s4.delta-order": V,
    "L.s4.euler-recurrence": R, "L.s4.euler-recurrence.corrected": V, "L.s4.first-order": V,
    "L.s4.unroll-bound": R, "L.s4.unroll-bound.corrected": V, "L.s4.unroll-bound.one-based": R,
    # §3.2.2, App. F.1: Theorem 1 (cited, statistical), Lemma 2 (= O's Lemma 6) and its proof
    "L.theorem1": C, "L.lemma2": V, "L.lemma2.proof": V,
    # §3.3, §3.4: parameterisation, Proposition 3, normalisation, App. F.2
    "L.exp-param": V, "L.phase": R, "L.phase.corrected": V, "L.prop3.constant": V,
    "L.prop3.white-noise": V, "L.prop3.rho-limit": V, "L.prop3.finite-n.constant": V,
    "L.prop3.finite-n.white-noise": V, "L.white-noise-1d": R, "L.white-noise-1d.corrected": V,
    "L.eq7.gamma": V, "L.proof-f2": R, "L.proof-f2.corrected": V,
    # App. E.1, E.2
    "L.e11.same-frequency": V, "L.prop4": R, "L.prop4.corrected": C,
    "L.e12.koopman-expansion": R, "L.e12.koopman-expansion.corrected": V,
    "L.e2.phase-gradient": R, "L.e2.phase-gradient.corrected": V, "L.e2.real-part": R,
    "L.e2.real-part.corrected": V, "L.e2.standard-coupling": V,
    # App. E.3: the real canonical form
    "L.e3.action": R, "L.e3.action.corrected": V, "L.e3.real-eigenvector": R,
    "L.e3.real-eigenvector.corrected": V, "L.e3.real-form": R, "L.e3.real-form.corrected": V,
}


pytestmark = sc.on_paper("L")


@pytest.fixture(scope="module")
def report(paper_report) -> Report:
    return paper_report("L")


def test_expected_findings(report) -> None:
    sc.assert_expected_findings(report, EXPECTED)
    # a new claim needs its expected verdict
    assert {c.id for c in report.claims} == {c.id for c in rc.list_claims(paper="L")} == set(
        EXPECTED)


def test_every_claim_has_a_verdict(report) -> None:
    sc.assert_every_claim_has_a_verdict(report, EXPECTED)


def test_every_control_is_told_apart(report) -> None:
    sc.assert_every_control_told_apart(report)


def test_refutations_carry_certified_counterexamples(report) -> None:
    sc.assert_refutations_are_certified(report)


def test_corrected_claims_point_at_their_parent(report) -> None:
    sc.assert_corrections_point_at_their_parent(report)


def test_lemma2_is_paper_os_lemma6(report) -> None:
    lemma2, ring = rc.get("L.lemma2"), rc.get("O.ring")
    assert lemma2.statement is ring.statement and "O.ring" in lemma2.uses


def test_readme_findings_table_shows_these_verdicts(report) -> None:
    sc.assert_readme_table_matches(report, "L")
