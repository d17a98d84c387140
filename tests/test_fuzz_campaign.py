"""`recmem fuzz` campaigns (checks/campaign.py, checks/fuzz_cli.py): several claims or a paper,
counted examples, replay of stored counterexamples, controls, budgets, determinism, bad usage."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import one_error_line, run_cli, run_main

from recmem.checks.campaign import FuzzJob, fuzz_claim, stored_instances
from recmem.checks.registry import get

FAST = ["O.det", "O.relaxation", "O.timestamp"]
# a `recmem fuzz` run: ARGS [, home=…, fresh=…] → (exit status, JSON report, output)
Campaign = Callable[..., tuple[int, dict, str]]


@pytest.fixture
def campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> Campaign:
    """``recmem fuzz ARGS --json … --quiet`` with ``RECMEM_HOME`` = ``tmp_path/home``: by recmem's
    ``main`` in this process (no interpreter to start; ``--jobs 2`` still spawns its workers), or
    with ``fresh=True`` in a fresh interpreter, where what is tested is two separate processes."""
    def run(*args: str, home: str = "home", fresh: bool = False) -> tuple[int, dict, str]:
        rep = tmp_path / "r.json"
        argv = ("fuzz", *args, "--json", str(rep), "--quiet")
        if fresh:
            out = run_cli(*argv, env={"RECMEM_HOME": str(tmp_path / home)})
        else:
            monkeypatch.setenv("RECMEM_HOME", str(tmp_path / home))
            out = run_main(capsys, *argv)
        return out.returncode, json.loads(rep.read_text()), out.stdout + out.stderr
    return run


def without_times(report: dict) -> list[dict]:
    """The claims of a report without their times (and their controls' times)."""
    return [{k: ([{**x, "seconds": None} for x in v] if k == "controls" else v)
             for k, v in c.items() if k != "seconds"} for c in report["claims"]]


def by_id(report: dict) -> dict[str, dict]:
    return {c["id"]: c for c in report["claims"]}


def test_a_campaign_over_several_claims_reports_each(campaign: Campaign) -> None:
    code, rep, text = campaign(*FAST, "--max-examples", "80")
    assert code == 1 and rep["complete"] is True
    claims = by_id(rep)
    assert list(claims) == FAST  # in the order selected, whatever finished first
    assert claims["O.det"]["status"] == "survived" and claims["O.det"]["examples"] == 80
    for refuted in ("O.relaxation", "O.timestamp"):
        c = claims[refuted]
        assert c["status"] == "refuted" and c["counterexamples"]
        assert 0 < c["examples"] < 80  # counted where holds ran, not the budget repeated
        cx = c["counterexamples"][0]
        assert cx["holds"] is False and cx["certified_by"] and cx["instance"]
    assert "Fraction(" in text  # the instance is printed as Python a user can paste
    for c in claims.values():
        assert set(c) >= {"id", "examples", "undecided", "seconds", "counterexamples",
                          "dissolved", "max_ratio", "status", "controls"}


def test_the_same_seed_gives_the_same_report(campaign: Campaign) -> None:
    a = campaign(*FAST, "--max-examples", "40", "--seed", "7", home="h1", fresh=True)[1]
    b = campaign(*FAST, "--max-examples", "40", "--seed", "7", home="h2", fresh=True)[1]
    assert without_times(a) == without_times(b)


def test_a_stored_counterexample_is_replayed_first_and_replay_runs_only_them(
        campaign: Campaign) -> None:
    campaign("O.relaxation", "--max-examples", "50")
    code, rep, _ = campaign("O.relaxation", "--replay")
    c = by_id(rep)["O.relaxation"]
    assert code == 1 and c["replayed"] == 1 and c["examples"] == 0 and c["status"] == "refuted"
    assert c["counterexamples"][0]["found_by"].startswith("replay")
    # a claim with nothing stored: replay judges nothing and finds nothing
    code, rep, _ = campaign("O.det", "--replay")
    assert code == 0 and by_id(rep)["O.det"]["replayed"] == 0


def test_every_control_is_refuted_with_examples_to_first(campaign: Campaign) -> None:
    code, rep, _ = campaign("O.det", "O.timestamp.corrected", "--max-examples", "60",
                            "--controls")
    for c in rep["claims"]:
        assert c["controls"], c["id"]
        for ctl in c["controls"]:
            assert ctl["refuted"], (c["id"], ctl["change"])
            assert 1 <= ctl["examples_to_first_counterexample"] <= ctl["examples"]
    assert code == 0  # the claims themselves survive


def test_a_claim_without_a_domain_is_reported_not_fuzzed(monkeypatch: pytest.MonkeyPatch) -> None:
    # every registered claim has a strategy (test_every_claim_has_a_strategy); a claim added
    # without one is reported as such, not searched
    from dataclasses import replace

    from recmem.checks import registry

    bare = replace(get("O.det"), strategy=None)
    monkeypatch.setattr(registry, "get", lambda claim_id: bare)
    camp = fuzz_claim(FuzzJob("O.det", {}, 0, 10, None, False, False))
    assert camp.status == "no strategy" and camp.examples == 0


def test_a_seconds_budget_stops_the_search(tmp_path: Path) -> None:
    # 5 s: the first instance comes after Hypothesis's setup, which takes seconds on a loaded
    # machine; O.det judges thousands of instances in the rest, never a million
    camp = fuzz_claim(FuzzJob("O.det", dict(get("O.det").context().params), 0, 10**6, 5.0,
                              False, False))
    assert camp.status == "survived" and 0 < camp.examples < 10**6
    assert "seconds budget" in camp.note


def test_a_search_that_judged_nothing_in_its_time_has_not_survived() -> None:
    """A seconds budget spent before the first instance: nothing was decided, so the claim is
    undecided (exit status 1), not "survived"."""
    from recmem.checks.fuzz_cli import EXIT_NOT_OK, exit_status

    camp = fuzz_claim(FuzzJob("O.det", dict(get("O.det").context().params), 0, 10**6, 1e-9,
                              False, False))
    assert camp.examples == 0 and camp.searched and "after 0 examples" in camp.note
    assert camp.status == "undecided" and exit_status([camp]) == EXIT_NOT_OK


def test_jobs_2_gives_the_serial_report(campaign: Campaign) -> None:
    a = campaign(*FAST, "--max-examples", "30", home="s")[1]
    b = campaign(*FAST, "--max-examples", "30", "--jobs", "2", home="p")[1]
    assert without_times(a) == without_times(b)


@pytest.mark.parametrize("args", [
    ["O.nope"],
    ["O.det", "--max-examples", "0"],
    ["O.det", "--examples", "-3"],
    ["O.det", "--seconds", "0"],
    ["O.det", "--seconds", "nan"],
    ["O.det", "--seed", "-1"],
    ["O.det", "--jobs", "0"],
    ["O.det", "--param", "nope=1"],
    ["--paper", "Q"],
])
def test_bad_usage_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                          args: list[str]) -> None:
    one_error_line(run_main(capsys, "fuzz", *args))


def test_stored_instances_are_keyed_by_the_statement(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    fuzz_claim(FuzzJob("O.relaxation", dict(get("O.relaxation").context().params), 0, 50, None,
                       False, False))
    assert len(stored_instances(get("O.relaxation"))) == 1
    assert stored_instances(get("O.relaxation.corrected")) == []


def test_verify_judges_the_counterexamples_a_campaign_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim refuted in a campaign is REFUTED by `recmem verify`, with the stored instance
    judged again — even when verify's own search is given no chance to find it."""
    import recmem.checks.runner as runner
    from recmem.checks import verify
    from recmem.checks.campaign import REPLAY_CHECK
    from recmem.checks.verdict import Outcome, Verdict

    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    claim = get("O.relaxation")
    fuzz_claim(FuzzJob(claim.id, dict(claim.context().params), 0, 50, None, False, False))

    def blind(claim: object, ctx: object, **kw: object) -> object:  # a search that finds nothing
        from recmem.checks.verdict import Evidence

        return Evidence(check="counterexample search over the stated domain", kind="search",
                        backend=runner.SEARCH_BACKEND, outcome=Outcome.INCONCLUSIVE, instances=0,
                        message="disabled in this test")

    monkeypatch.setattr(runner, "search", blind)
    result = verify([claim.id], backends=["sympy"], controls=False).claims[0]
    replayed = [e for e in result.evidence if e.check == REPLAY_CHECK]
    assert replayed and replayed[0].outcome is Outcome.REFUTE and replayed[0].certified_by
    assert result.verdict is Verdict.REFUTED
    # and a statement with nothing stored gets no such evidence
    other = verify(["O.relaxation.corrected"], backends=["sympy"], controls=False).claims[0]
    assert not [e for e in other.evidence if e.check == REPLAY_CHECK]


def test_ctrl_c_stops_a_campaign_with_130_and_keeps_the_finished_claims(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    rep = tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks", "fuzz", "--paper", "O",
                             "--max-examples", "300", "--json", str(rep), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RECMEM_HOME": str(tmp_path / "home")})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if json.loads(rep.read_text())["claims"]:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    data = json.loads(rep.read_text())
    assert data["complete"] is False and data["claims"]


# ---- shards, the screen tier, targeting ------------------------------------------------------


def test_shards_split_the_budget_and_jobs_do_not_change_the_report(campaign: Campaign) -> None:
    args = ("O.det", "O.relaxation", "--max-examples", "40", "--shards", "3", "--controls")
    a = campaign(*args, home="a")[1]
    b = campaign(*args, "--jobs", "2", home="b")[1]
    assert without_times(a) == without_times(b)
    claims = by_id(a)
    assert claims["O.det"]["examples"] == 40 and claims["O.det"]["shards"] == 3
    assert claims["O.relaxation"]["status"] == "refuted"
    for control in claims["O.det"]["controls"]:
        assert control["refuted"] and control["examples_to_first_counterexample"] >= 1


def test_merged_controls_count_the_examples_of_earlier_shards() -> None:
    from recmem.checks.campaign import ClaimCampaign, merge

    def shard(refuted: bool, to_first: int | None, examples: int) -> ClaimCampaign:
        return ClaimCampaign("X", "survived", examples=examples, controls=[{
            "change": "c", "refuted": refuted, "examples_to_first_counterexample": to_first,
            "examples": examples, "undecided": 0, "dissolved": 0, "seconds": 0.0,
            "counterexample": "x" if refuted else None}])

    merged = merge([shard(False, None, 10), shard(True, 4, 4), shard(True, 1, 1)])
    assert merged.examples == 15
    assert merged.controls[0]["refuted"] is True
    assert merged.controls[0]["examples_to_first_counterexample"] == 14


def test_the_screen_tier_only_proposes_and_its_cleared_candidates_are_dissolved(
        campaign: Campaign) -> None:
    # at 24 bits the product over coincident nodes is an indeterminate ball: such instances are
    # candidates, and the exact judge clears every one (the statement is true)
    _, rep, text = campaign("O.det", "--backend", "flint@24", "--max-examples", "200",
                            "--controls")
    c = by_id(rep)["O.det"]
    assert c["status"] == "survived" and c["screen"] == "flint@24"
    assert c["examples"] == 200 and c["dissolved"] > 0
    assert c["screened"] + c["dissolved"] == 200
    assert "dissolved" in text  # a column of the printed table
    assert c["max_ratio"] is not None and c["max_ratio"] <= 1
    assert all(x["refuted"] for x in c["controls"])  # the controls' violations are confirmed
    _, plain, _ = campaign("O.det", "--max-examples", "200", home="exact")
    assert by_id(plain)["O.det"]["screened"] == 0 and by_id(plain)["O.det"]["screen"] is None


def test_a_claim_with_no_screen_is_judged_exactly_under_backend(campaign: Campaign) -> None:
    _, rep, _ = campaign("O.relaxation", "--backend", "numpy", "--max-examples", "50")
    c = by_id(rep)["O.relaxation"]
    assert c["screen"] is None and c["status"] == "refuted" and c["counterexamples"]


@pytest.mark.parametrize("args", [["--backend", "sympy"], ["--backend", "numpy:int8"],
                                  ["--shards", "0"], ["--backend", "flint@1"]])
def test_bad_screens_and_shards_exit_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                                     args: list[str]) -> None:
    one_error_line(run_main(capsys, "fuzz", "O.det", *args))


def test_every_claim_has_a_strategy() -> None:
    from recmem.checks.registry import all_claims

    missing = [c.id for c in all_claims().values() if c.strategy is None or c.holds is None]
    assert missing == []


def test_a_statistical_counterexample_fails_and_never_refutes() -> None:
    """Ground rule 2: a counterexample found by a statistical test (a study design) makes the
    search evidence FAIL, never a certified REFUTE; an exact one refutes."""
    from dataclasses import replace

    import hypothesis.strategies as st

    from recmem.checks.claim import Context
    from recmem.checks.registry import get
    from recmem.checks.search import Instance, search
    from recmem.checks.verdict import Outcome

    base = get("O.det")
    for statistical, expected in ((True, Outcome.FAIL), (False, Outcome.REFUTE)):
        claim = replace(base, strategy=lambda ctx: st.integers(0, 3),
                        holds=lambda i, ctx, s=statistical: Instance(i < 2, "test", statistical=s))
        ev = search(claim, Context({}, statement=claim.statement), max_examples=20)
        assert ev.outcome is expected and ev.counterexample is not None
