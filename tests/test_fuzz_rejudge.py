"""Counterexamples count only when judged again (issue 19), and a control that `recmem fuzz
--controls` does not refute changes the campaign's status and exit status.

Stand-in claims: paper O's ``O.det`` (its statement and controls) with a small integer domain and
a judge of our own, as in tests/test_fuzz_campaign.py. The judges plant the slips: one that
refutes inside Hypothesis's search and clears (or raises on) the same instance when recmem judges
it again, one that answers differently on its second call, one that cannot tell the statement
from a control.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from cli_helpers import run_main
from hypothesis import currently_in_test_context

from recmem.checks import registry
from recmem.checks.campaign import (
    REPLAY_CHECK,
    STATUS_ERROR,
    STATUS_NOT_TOLD_APART,
    STATUS_SURVIVED,
    ClaimCampaign,
    FuzzJob,
    fuzz_claim,
    merge,
    store_instance,
    stored_instances,
)
from recmem.checks.claim import Claim, Context
from recmem.checks.runner import run_claim
from recmem.checks.search import Instance, rejudge, search
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import parse_spec

BASE = registry.get("O.det")


def stand_in(holds: Any) -> Claim:
    """``O.det``'s statement and controls over the integers 0…7, judged by ``holds``; no
    symbolic or numeric side (the search and the stored counterexamples decide)."""
    return replace(BASE, strategy=lambda ctx: st.integers(0, 7), holds=holds, symbolic=None,
                   numeric=None, screen=None)


def only_inside_the_search(i: int, ctx: Context) -> Instance:
    """Refutes every instance while Hypothesis searches, and clears it when judged again."""
    return Instance(not currently_in_test_context(), "stand-in judge")


def raises_when_judged_again(i: int, ctx: Context) -> Instance:
    if not currently_in_test_context():
        raise RuntimeError("planted: the judge fails outside the search")
    return Instance(False, "stand-in judge")


def first_call_only() -> Any:
    """Refutes on its first call only (Hypothesis then reports the judge Flaky)."""
    calls: list[int] = []

    def holds(i: int, ctx: Context) -> Instance:
        calls.append(i)
        return Instance(len(calls) > 1, "stand-in judge")
    return holds


def blind_to(*statements: Any) -> Any:
    """A judge that refutes every statement except those given (it cannot tell them apart
    from the truth), on every instance."""
    return lambda i, ctx: Instance(ctx.statement in statements, "stand-in judge")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    return tmp_path


def use(monkeypatch: pytest.MonkeyPatch, claim: Claim) -> None:
    """Make the registry hand out ``claim`` (as ``O.det``) to the command and the campaign."""
    monkeypatch.setattr(registry, "get", lambda claim_id: claim)
    monkeypatch.setattr(registry, "select", lambda ids, paper: [claim])


def job(controls: bool = False, examples: int = 30, replay: bool = False) -> FuzzJob:
    return FuzzJob("O.det", dict(BASE.context().params), 0, examples, None, replay, controls)


# ---- re-judgement: the search of `recmem verify` (checks/search.py) ----------------------------

@pytest.mark.parametrize("holds", [only_inside_the_search, raises_when_judged_again],
                         ids=["clears", "raises"])
def test_verify_search_never_refutes_with_a_counterexample_not_reproduced(holds: Any) -> None:
    claim = stand_in(holds)
    ev = search(claim, claim.context(), max_examples=20)
    assert ev.outcome is Outcome.ERROR and "internal inconsistency" in ev.message
    assert ev.certified_by is None
    result = run_claim(claim, claim.context(), [parse_spec("sympy")], controls=False)
    assert result.verdict is Verdict.ERROR and result.counterexample is None


def test_verify_search_reports_a_flaky_judge_as_an_internal_inconsistency() -> None:
    claim = stand_in(first_call_only())
    ev = search(claim, claim.context(), max_examples=20)
    assert ev.outcome is Outcome.ERROR and "internal inconsistency" in ev.message


def test_verify_search_counts_what_it_judged() -> None:
    """The evidence records the instances judged, undecided and decided, on every outcome."""
    claim = stand_in(lambda i, ctx: Instance(None if i % 2 else True, "stand-in judge"))
    ev = search(claim, claim.context(), max_examples=40, shrink=False)
    assert ev.outcome is Outcome.PASS
    assert ev.data["judged"] == ev.data["undecided"] + ev.data["decided"]
    assert ev.instances == ev.data["decided"] > 0 and ev.data["undecided"] > 0
    refuting = stand_in(lambda i, ctx: Instance(i < 3, "stand-in judge"))
    found = search(refuting, refuting.context(), max_examples=40)
    assert found.outcome is Outcome.REFUTE and 1 <= found.instances <= found.data["judged"]


def test_rejudge_keeps_an_exception() -> None:
    again = rejudge(raises_when_judged_again, 1, BASE.context())
    assert not again.reproduced and again.result is None and "planted" in again.judged


# ---- re-judgement: `recmem fuzz` ---------------------------------------------------------------

@pytest.mark.parametrize("holds", [only_inside_the_search, raises_when_judged_again,
                                   first_call_only()], ids=["clears", "raises", "flaky"])
def test_a_campaign_counterexample_not_reproduced_is_an_error_not_a_refutation(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        holds: Any) -> None:
    use(monkeypatch, stand_in(holds))
    out = run_main(capsys, "fuzz", "O.det", "--max-examples", "20", "--quiet",
                   "--json", str(home / "r.json"))
    camp = json.loads((home / "r.json").read_text())["claims"][0]
    assert camp["status"] == STATUS_ERROR and camp["counterexamples"] == []
    assert camp["not_reproduced"] and camp["not_reproduced"][0]["inconsistent"] is True
    assert "internal inconsistency" in camp["note"]
    assert out.returncode == 1 and "not reproduced" in out.stdout
    assert stored_instances(BASE) == []  # nothing unconfirmed is kept for replay


def test_a_control_counterexample_not_reproduced_does_not_refute_the_control(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the claim's own statement holds everywhere; every control "refutes" only inside the search
    def holds(i: int, ctx: Context) -> Instance:
        return Instance(ctx.statement == BASE.statement or not currently_in_test_context(),
                        "stand-in judge")
    use(monkeypatch, stand_in(holds))
    camp = fuzz_claim(job(controls=True))
    assert camp.controls and not any(c["refuted"] for c in camp.controls)
    assert camp.status == STATUS_ERROR and len(camp.inconsistent) == len(camp.controls)


def test_a_stored_counterexample_no_longer_refuted_is_listed_not_counted(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store_instance(BASE, 5)
    use(monkeypatch, stand_in(lambda i, ctx: Instance(True, "stand-in judge")))
    camp = fuzz_claim(job(replay=True))
    assert camp.replayed == 1 and camp.counterexamples == []
    assert camp.not_reproduced == [{"instance": "5", "found_by": "replay of a stored "
                                    "counterexample", "judged_again": "holds",
                                    "inconsistent": False}]
    assert camp.status == STATUS_SURVIVED


@pytest.mark.parametrize("judge, outcome", [
    (lambda i, ctx: Instance(True, "stand-in judge"), Outcome.INCONCLUSIVE),
    (lambda i, ctx: Instance(None, "stand-in judge"), Outcome.INCONCLUSIVE),
    (raises_when_judged_again, Outcome.ERROR),
], ids=["holds", "undecided", "raises"])
def test_verify_does_not_refute_with_a_stored_counterexample_not_reproduced(
        home: Path, judge: Any, outcome: Outcome) -> None:
    """A counterexample a campaign stored that the claim's judge no longer refutes: reported as
    not reproduced (or ERROR when the judge raises), never REFUTE evidence."""
    store_instance(BASE, 5)
    claim = replace(stand_in(judge), strategy=lambda ctx: st.just(0),
                    holds=lambda i, ctx, j=judge: (Instance(True, "stand-in judge") if i == 0
                                                   else j(i, ctx)))
    result = run_claim(claim, claim.context(), [parse_spec("sympy")], controls=False)
    replayed = [e for e in result.evidence if e.check == REPLAY_CHECK]
    assert [e.outcome for e in replayed] == [outcome]
    assert result.verdict is not Verdict.REFUTED and result.counterexample is None
    assert "5" in json.dumps(replayed[0].to_dict(), default=str)


def test_verify_refutes_with_a_stored_counterexample_that_still_refutes(home: Path) -> None:
    store_instance(BASE, 5)
    claim = replace(stand_in(lambda i, ctx: Instance(i != 5, "stand-in judge")),
                    strategy=lambda ctx: st.just(0))
    result = run_claim(claim, claim.context(), [parse_spec("sympy")], controls=False)
    replayed = [e for e in result.evidence if e.check == REPLAY_CHECK]
    assert [e.outcome for e in replayed] == [Outcome.REFUTE]
    assert result.verdict is Verdict.REFUTED


# ---- controls not told apart -------------------------------------------------------------------

def test_a_control_never_refuted_changes_the_status_and_the_exit_status(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    missed = BASE.controls[1]
    use(monkeypatch, stand_in(blind_to(BASE.statement, missed.statement)))
    out = run_main(capsys, "fuzz", "O.det", "--max-examples", "20", "--controls", "--quiet",
                   "--json", str(home / "r.json"))
    camp = json.loads((home / "r.json").read_text())["claims"][0]
    assert camp["status"] == STATUS_NOT_TOLD_APART
    assert [c["change"] for c in camp["controls"] if not c["refuted"]] == [missed.change]
    assert out.returncode == 1
    assert STATUS_NOT_TOLD_APART in out.stdout and missed.change in out.stdout
    assert "cannot tell the claim" in out.stdout and "Summary: 1 " in out.stdout
    # the same claim and judge without --controls: it survives, exit 0
    assert run_main(capsys, "fuzz", "O.det", "--max-examples", "20", "--quiet").returncode == 0


def test_every_control_refuted_keeps_survived(monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, stand_in(blind_to(BASE.statement)))
    camp = fuzz_claim(job(controls=True))
    assert camp.status == STATUS_SURVIVED and all(c["refuted"] for c in camp.controls)


def test_merged_shards_tell_a_control_apart_if_any_shard_refuted_it() -> None:
    def shard(refuted: bool) -> ClaimCampaign:
        return ClaimCampaign("X", STATUS_NOT_TOLD_APART if not refuted else STATUS_SURVIVED,
                             examples=5, controls=[{
                                 "change": "c", "refuted": refuted,
                                 "examples_to_first_counterexample": 2 if refuted else None,
                                 "examples": 5, "undecided": 0, "dissolved": 0, "seconds": 0.0,
                                 "counterexample": "x" if refuted else None}])

    assert merge([shard(False), shard(True)]).status == STATUS_SURVIVED
    assert merge([shard(False), shard(False)]).status == STATUS_NOT_TOLD_APART


def test_fuzz_help_documents_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_main(capsys, "fuzz", "--help")
    text = " ".join(out.stdout.split())
    assert out.returncode == 0
    assert "controls not told apart" in text and "not reproduced" in text
