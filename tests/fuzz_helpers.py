"""Shared by the tests of claims' fuzz strategies: run one claim's campaign, check that it earns
the claim's status and refutes every control, and judge a hand-made instance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from recmem.checks.campaign import ClaimCampaign, FuzzJob, fuzz_claim
from recmem.checks.registry import get


def campaign(claim_id: str, examples: int, controls: bool, seed: int = 0) -> ClaimCampaign:
    """``recmem fuzz CLAIM_ID --max-examples N [--controls]`` in this process (no stored
    counterexamples are read: the tests' RECMEM_HOME is empty)."""
    claim = get(claim_id)
    return fuzz_claim(FuzzJob(claim_id, dict(claim.context().params), seed, examples, None,
                              False, controls))


def assert_earns(claim_id: str, status: str, budget: int, *, undecided_ok: bool = False,
                 certified_prefix: str = "") -> ClaimCampaign:
    """The campaign reaches ``status`` within ``budget`` examples (a refutation with a certified
    counterexample; a survival with every instance decided unless ``undecided_ok``), every
    counterexample it found (the claim's, the controls') is refuted again when judged again, and
    every negative control is refuted with its examples to the first counterexample reported."""
    camp = campaign(claim_id, budget, controls=True)
    assert camp.status == status, camp.note
    assert camp.not_reproduced == []  # every counterexample found was refuted again
    if not undecided_ok:
        assert camp.undecided == 0
    if status == "refuted":
        cx = camp.counterexamples[0]
        assert cx["holds"] is False and cx["certified_by"]
        assert str(cx["certified_by"]).startswith(certified_prefix)
    else:
        assert not camp.counterexamples and camp.examples > 0
    assert len(camp.controls) == len(get(claim_id).controls) >= 2
    for ctl in camp.controls:
        assert ctl["refuted"], (claim_id, ctl["change"])
        assert 1 <= ctl["examples_to_first_counterexample"] <= ctl["examples"]
    return camp


def judge(claim_id: str, instance: Any, statement: Any = None) -> Any:
    """The claim's ``holds`` on one instance, for its own statement or ``statement``."""
    claim = get(claim_id)
    assert claim.holds is not None
    ctx = replace(claim.context(), statement=statement or claim.statement)
    return claim.holds(instance, ctx)
