"""End to end: `recmem verify --paper W` gives every claim of CLAIMS.md's paper-W table a verdict.

The expected verdicts are the findings of the checks (regressions would show here); each one is
computed by the run, and a REFUTED verdict must carry a certified counterexample.
"""

from __future__ import annotations

import pytest
import suite_checks as sc

from recmem.checks.report import Report
from recmem.checks.verdict import Outcome, Verdict

# CLAIMS.md's paper-W table
PAPER_W = ["W.memory-linear", "W.memory-def", "W.memory-impulse", "W.rnn-linear-memory",
           "W.rnn-decaying", "W.perturbation", "W.stable-exp", "W.activations", "W.theorem",
           "W.lyapunov", "W.lyapunov-bound", "W.lyapunov-local", "W.limit-decay", "W.reparam",
           "W.rescaling"]

V, C, R, INC = Verdict.VERIFIED, Verdict.CORROBORATED, Verdict.REFUTED, Verdict.INCONCLUSIVE
EXPECTED = {
    "W.memory-linear": V, "W.memory-def": V, "W.memory-def.normalisation": R,
    "W.memory-def.pointwise": R, "W.memory-impulse": V, "W.memory-impulse.literal": R,
    "W.memory-impulse.sketch": R, "W.memory-impulse.sketch.corrected": V, "W.rnn-linear-memory": R,
    "W.rnn-linear-memory.bound": R, "W.rnn-linear-memory.corrected": V, "W.rnn-decaying": R,
    "W.rnn-decaying.app-i1": R, "W.rnn-decaying.corrected": V, "W.perturbation": V,
    "W.perturbation.lemma-a6": R, "W.perturbation.lemma-a6.corrected": V, "W.stable-exp": INC,
    "W.stable-exp.l1": INC, "W.activations": V, "W.theorem": C, "W.theorem.horizon": R,
    "W.theorem.horizon.corrected": V, "W.theorem.rnn-step": R, "W.theorem.rnn-step.def31": R,
    "W.theorem.slope": R, "W.theorem.slope.a1": R, "W.theorem.slope.a1.corrected": V,
    "W.theorem.slope.corrected": V, "W.lyapunov": V, "W.lyapunov.any-q": R, "W.lyapunov-bound": R,
    "W.lyapunov-bound.corrected": V, "W.lyapunov-bound.uniform": R, "W.lyapunov-bound.weak": V,
    "W.lyapunov-local": R, "W.lyapunov-local.eq92": R, "W.lyapunov-local.eq92.corrected": V,
    "W.lyapunov-local.explicit": R, "W.lyapunov-local.explicit.corrected": V,
    "W.lyapunov-local.weak": V, "W.semigroup-bound": R, "W.semigroup-bound.corrected": V,
    "W.limit-decay": V, "W.limit-decay.proof-transform": R,
    "W.limit-decay.proof-transform.corrected": V, "W.reparam": R, "W.reparam.corrected": V,
    "W.reparam.elementwise": R, "W.reparam.lru": V, "W.reparam.lru.real-part": R, "W.rescaling": R,
    "W.rescaling.corrected": V, "W.rescaling.integrable": R,
    # issue 21: the items the coverage ledger found unchecked
    "W.gru": V, "W.gru.update": V, "W.gru.bias-shift": R, "W.gru.bias-shift.corrected": V,
    "W.gru.equilibrium": V, "W.memory-equivalence": R, "W.memory-equivalence.linear": V,
    "W.memory-equivalence.identity": V, "W.well-defined": R, "W.well-defined.rnn": V,
    "W.memory-query": V, "W.theorem.step-30": R, "W.theorem.step-30.corrected": V,
    "W.theorem.step-35-57": V, "W.theorem.step-40-42": V, "W.theorem.step-42.constant": R,
    "W.theorem.step-42.constant.corrected": V, "W.theorem.step-51": V, "W.theorem.step-63-66": V,
    "W.lemma-a7": R, "W.lemma-a7.corrected": V, "W.lemma-a7.any-w": V,
    "W.limit-decay.proof-steps": V, "W.limit-decay.proof-estimate": V,
    "W.limit-decay.proof-limit": V, "W.remark-a5": V, "W.remark-a5.peak-hold": V,
    "W.remark-a5.peak-hold.in-class": R, "W.remark-a5.peak-hold.in-class.corrected": V,
    "W.remark-a5.fading-not-decaying": V,
}
NUMERIC = set(sc.SUITE_BACKENDS["W"]) - {"sympy"}


pytestmark = sc.on_paper("W")


@pytest.fixture(scope="module")
def report(paper_report) -> Report:
    return paper_report("W")


def test_every_paper_w_claim_has_a_verdict(report) -> None:
    sc.assert_every_claim_has_a_verdict(report, PAPER_W)


def test_every_claim_rests_on_two_arithmetics(report) -> None:
    """The issue's bar: evidence from at least two arithmetics for every claim."""
    for c in report.claims:
        ran = {e.backend for e in c.evidence
               if e.outcome not in (Outcome.SKIPPED, Outcome.ERROR) and e.backend in NUMERIC}
        assert len(ran) >= 2, (c.id, ran)


def test_readme_findings_table_shows_these_verdicts(report) -> None:
    sc.assert_readme_table_matches(report, "W")


def test_expected_findings(report) -> None:
    sc.assert_expected_findings(report, EXPECTED)
    assert {c.id for c in report.claims} == set(EXPECTED)  # a new claim needs its expected verdict


def test_every_control_is_told_apart(report) -> None:
    sc.assert_every_control_told_apart(report)


def test_refutations_carry_certified_counterexamples(report) -> None:
    sc.assert_refutations_are_certified(report)


def test_corrected_claims_point_at_their_parent(report) -> None:
    sc.assert_corrections_point_at_their_parent(report)


def test_the_tests_of_this_run_share_a_worker(request: pytest.FixtureRequest) -> None:
    """Under pytest-xdist, every test that reads this run carries the paper's group in its node ID
    (``--dist loadgroup``), so one worker runs them all and makes the run once (tests/conftest.py,
    ``paper_report``); pytest 9.2 silently lost the grouping (pyproject.toml's test extra)."""
    if not hasattr(request.config, "workerinput"):
        pytest.skip("not under pytest-xdist")
    assert request.node.nodeid.endswith("@paper-W"), request.node.nodeid
