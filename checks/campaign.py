"""Fuzzing campaigns: Hypothesis searches claims' domains under budgets, with replay and controls.

``recmem fuzz`` runs one campaign per selected claim (:func:`fuzz_claim`, picklable work items
for the execution layer, so claims run in parallel with ``--jobs``/``--cluster``):

1. **Replay** — counterexamples stored by earlier campaigns (under
   ``$RECMEM_HOME/fuzz-examples``, keyed by the claim and the text of its statement, in the
   data-only format of :mod:`recmem.checks.fuzz_store`: nothing read there runs code) are judged
   again first; ``--replay`` runs only them.
2. **Search** — Hypothesis draws instances from the claim's strategy (its stated domain) and
   the claim's exact or certified ``holds`` judges each; the first counterexample is shrunk. The
   search runs whatever the replay found, so that its part of the report depends on the seed
   and the budget only (below). The
   budget is a number of examples and optionally seconds; every judged instance is counted, so
   the report never repeats the budget where Hypothesis stopped early or exhausted a small
   domain. A shrunk counterexample is judged once more (its certificate) and stored.
3. **Controls** (``--controls``) — each negative control (a nearby false statement) is searched
   the same way without shrinking, and the number of examples to its first counterexample is
   reported: a measure of the search's power on that claim. A control not refuted within the
   budget means the campaign cannot tell the claim from a nearby false statement, so the
   claim's survival says nothing: its status is ``survived, controls not told apart`` (exit
   status 1), as such a control makes a claim INCONCLUSIVE in ``recmem verify`` (rule R6).

Every counterexample, whether found by the search, replayed or found for a control, is judged
again (:func:`recmem.checks.search.rejudge`) and counts only when the judge refutes it again.
One that it does not (holds, undecided, or the judge raises) is listed under ``not_reproduced``
and never reported as a refutation; where the same judge had refuted that very instance in this
run (the search's or a control's counterexample, or Hypothesis reporting the judge ``Flaky``),
or the judge raised, it is an internal inconsistency, a bug of recmem: status ``error``. A
stored counterexample that the judge now clears is only listed (the judge or the parameters may
have changed since a campaign stored it).

Determinism: the same seed and example budget give the same search report (times aside),
whether or not counterexamples were stored: what the replay adds is reported apart (the
``replayed`` count, the entries whose ``found_by`` is :data:`FOUND_BY_REPLAY`, listed first, and
``stored_skipped``), and the status counts both. A seconds budget can stop a search earlier on a
slower machine.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from recmem.checks.claim import Claim, Context
from recmem.checks.fuzz_store import read, store_instance, stored_instances
from recmem.checks.verdict import Outcome
from recmem.numerics.backend import AbstractBackend

STATUS_REFUTED = "refuted"
# every counterexample found was judged by a statistical test (a study's trend test on a small
# design), none exactly: a statistical failure, not a certified refutation (ground rule 2)
STATUS_FAILED = "failed (statistical)"
STATUS_SURVIVED = "survived"
# survived, but a negative control was not refuted within the same budget: the campaign cannot
# tell the claim from a nearby false statement, so the survival says nothing (rule R6 of
# checks/verdict.py, which makes such a claim INCONCLUSIVE in ``recmem verify``)
STATUS_NOT_TOLD_APART = "survived, controls not told apart"
STATUS_UNDECIDED = "undecided"
STATUS_NO_STRATEGY = "no strategy"
STATUS_ERROR = "error"


class _OutOfTime(Exception):
    """Raised inside a search when its seconds budget is spent."""


@dataclass
class Search:
    """One Hypothesis search of one statement: what it judged and what it found."""

    examples: int = 0  # instances judged, by either tier
    undecided: int = 0
    screened: int = 0  # judged only by the screen (its arithmetic found no violation)
    dissolved: int = 0  # candidates of the screen that the exact or certified judge cleared
    seconds: float = 0.0
    to_first: int | None = None  # examples judged up to and including the first counterexample
    instance: Any = None  # the (shrunk) counterexample, when one was found
    out_of_time: bool = False
    max_ratio: float | None = None
    flaky: str = ""  # the judge answered differently on one instance (Hypothesis's Flaky)


def search(claim: Claim, ctx: Context, *, max_examples: int, seconds: float | None,
           shrink: bool, screen: AbstractBackend | None = None) -> Search:
    """Search ``claim``'s domain for ``ctx.statement`` (Hypothesis ``find`` with the claim's
    strategy and ``holds``), counting every judged instance; stop at the first counterexample
    when not ``shrink``. A spent seconds budget keeps what was found (a counterexample found
    while shrinking is kept, shrunk as far as the time allowed).

    Targeting: where ``holds`` gives a ratio (how near the instance comes to refuting),
    ``hypothesis.target`` steers the search towards large ones; the largest is reported.

    Two tiers: with a ``screen`` arithmetic (and a claim that has a ``screen`` judge), each
    instance is judged first in it; only an instance the screen does not clear (a candidate)
    is judged by ``holds``, and a candidate that ``holds`` clears is counted as dissolved. Only
    what ``holds`` finds false is ever a counterexample."""
    from hypothesis import HealthCheck, Phase, find, settings, target
    from hypothesis.errors import Flaky, NoSuchExample

    from recmem.checks.runner import hypothesis_files_in_home

    assert claim.strategy is not None and claim.holds is not None
    holds = claim.holds
    screen_judge = claim.screen if screen is not None else None
    out = Search()
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds

    def steer(ratio: float | None) -> None:
        if ratio is None or not math.isfinite(ratio):
            return
        out.max_ratio = ratio if out.max_ratio is None else max(out.max_ratio, ratio)
        target(ratio, label="ratio")

    def refutes(instance: Any) -> bool:
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime
        if screen_judge is not None and screen is not None:
            first = screen_judge(instance, screen, ctx)
            if first.holds is True:  # cleared; what the screen cannot tell is a candidate too
                out.examples += 1
                out.screened += 1
                steer(first.ratio)
                return False
        r = holds(instance, ctx)
        out.examples += 1
        out.undecided += r.holds is None
        steer(r.ratio)
        if screen_judge is not None and r.holds is not False:
            out.dissolved += 1
        if r.holds is False:
            if out.to_first is None:
                out.to_first = out.examples
            out.instance = instance  # the latest failing one: shrinking only makes it smaller
        return r.holds is False

    phases = [Phase.generate, Phase.target, Phase.shrink] if shrink else [Phase.generate,
                                                                          Phase.target]
    cfg = settings(max_examples=max_examples, database=None, deadline=None, derandomize=False,
                   suppress_health_check=list(HealthCheck), phases=phases)
    import random

    context = screen.activate() if screen_judge is not None and screen is not None \
        else contextlib.nullcontext()
    try:
        with hypothesis_files_in_home(), context:
            out.instance = find(claim.strategy(ctx), refutes, settings=cfg,
                                random=random.Random(ctx.seed))
    except NoSuchExample:
        pass
    except _OutOfTime:
        out.out_of_time = True
    except Flaky as exc:  # the judge refuted an instance, then did not when Hypothesis replayed it
        out.flaky = str(exc).splitlines()[0]
    out.seconds = time.perf_counter() - t0
    return out


# ---- stored counterexamples (checks/fuzz_store.py) -------------------------------------------
FOUND_BY_REPLAY = "replay of a stored counterexample"
REPLAY_CHECK = "counterexample stored by recmem fuzz, judged again"


def replay_evidence(claim: Claim, ctx: Context) -> list[Any]:
    """What ``recmem verify`` learns from earlier campaigns: each counterexample stored for the
    claim's own statement is judged again by its ``holds``. The first that it still refutes is
    a certified refutation (one REFUTE evidence; FAIL for a statistical judge). One that it does
    not refute is no refutation: those the judge now clears or leaves undecided are reported as
    not reproduced (one INCONCLUSIVE evidence: the judge or the parameters changed since a
    campaign stored them, or the judge is not deterministic), and one on which the judge raises
    is an ERROR (an exception, rule R3). Nothing when none is stored."""
    from recmem.checks.search import SEARCH_BACKEND, outcome_of_counterexample, rejudge
    from recmem.checks.verdict import Evidence

    if claim.holds is None or ctx.statement is not claim.statement:
        return []
    out: list[Evidence] = []
    cleared: list[dict[str, str]] = []
    for instance in stored_instances(claim):
        again = rejudge(claim.holds, instance, ctx)
        r = again.result
        if again.reproduced and r is not None:
            if not any(e.outcome in (Outcome.REFUTE, Outcome.FAIL) for e in out):
                out.append(Evidence(
                    check=REPLAY_CHECK, kind="search", backend=SEARCH_BACKEND,
                    outcome=outcome_of_counterexample(r), instances=1,
                    counterexample={**r.values, "detail": r.detail,
                                    "instance": python_literal(instance)},
                    certified_by=r.certified_by,
                    message="found by an earlier fuzzing campaign ($RECMEM_HOME/fuzz-examples) "
                            "and judged again"))
        elif r is None:
            out.append(Evidence(
                check=REPLAY_CHECK, kind="search", backend=SEARCH_BACKEND, outcome=Outcome.ERROR,
                counterexample={"instance": python_literal(instance)},
                message=f"a counterexample stored by an earlier fuzzing campaign could not be "
                        f"judged again: the claim's judge {again.judged}; not a refutation"))
        else:
            cleared.append({"instance": python_literal(instance), "judged again": again.judged})
    if cleared:
        out.append(Evidence(
            check=REPLAY_CHECK, kind="search", backend=SEARCH_BACKEND,
            outcome=Outcome.INCONCLUSIVE, instances=len(cleared),
            message=f"{len(cleared)} counterexample(s) stored by earlier fuzzing campaigns not "
                    "reproduced: the claim's judge, asked again, no longer refutes them (it "
                    "changed, or the parameters did, since they were stored), so they refute "
                    "nothing", data={"not_reproduced": cleared}))
    return out


# ---- one claim's campaign ---------------------------------------------------------------------
@dataclass(frozen=True)
class FuzzJob:
    """A picklable work item: one shard of one claim's campaign (the claim travels by ID).

    A campaign of ``shards`` shards splits the example budget among them; shard ``k`` searches
    with its own seed derived from (seed, claim, k), so the shards explore different parts of
    the domain and can run on different workers; :func:`merge` puts them back together in
    shard order, so the report depends on the seed, the budget and the number of shards, never
    on where or in which order the shards ran."""

    claim_id: str
    params: dict[str, Any]
    seed: int
    max_examples: int
    seconds: float | None
    replay_only: bool
    controls: bool
    shard: int = 0
    shards: int = 1
    backend: str | None = None  # the screen's arithmetic (``--backend``), if any

    @property
    def search_seed(self) -> int:
        """The seed of this shard's search: the campaign's own for a single shard."""
        if self.shards == 1:
            return self.seed
        digest = hashlib.sha256(f"{self.seed}:{self.claim_id}:{self.shard}".encode()).digest()
        return int.from_bytes(digest[:4], "big")

    @property
    def shard_examples(self) -> int:
        """This shard's part of the example budget (the parts add up to ``max_examples``)."""
        base, extra = divmod(self.max_examples, self.shards)
        return base + (self.shard < extra)


def shard_jobs(job: FuzzJob, shards: int) -> list[FuzzJob]:
    """The ``shards`` shards of one claim's campaign (at most one per example)."""
    n = max(1, min(shards, job.max_examples))
    return [replace(job, shard=k, shards=n) for k in range(n)]


@dataclass
class ClaimCampaign:
    """The report of one claim's campaign (``recmem fuzz --json``: one entry of ``claims``)."""

    id: str
    status: str
    examples: int = 0
    undecided: int = 0
    seconds: float = 0.0
    counterexamples: list[dict[str, Any]] = field(default_factory=list)
    dissolved: int = 0
    max_ratio: float | None = None
    replayed: int = 0
    controls: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""
    screened: int = 0
    screen: str | None = None
    shards: int = 1
    # counterexamples that the judge did not refute when judged again (never counted above):
    # {instance, found_by, judged_again, inconsistent}; ``inconsistent`` when the same judge
    # had refuted that very instance in this run, or raised (an internal inconsistency)
    not_reproduced: list[dict[str, Any]] = field(default_factory=list)
    searched: bool = False  # whether the search ran (not with --replay)
    # stored entries skipped unread (not in the data-only format: a pickle of an older recmem)
    stored_skipped: int = 0
    # why the search's counterexample could not be stored for replay ("" when it was, or none)
    not_stored: str = ""

    @property
    def inconsistent(self) -> list[dict[str, Any]]:
        """The not-reproduced counterexamples that show a bug of recmem (status ``error``)."""
        return [x for x in self.not_reproduced if x["inconsistent"]]

    @property
    def controls_missed(self) -> list[dict[str, Any]]:
        """The controls that were run and not refuted within the budget."""
        return [x for x in self.controls if not x["refuted"]]

    def to_dict(self) -> dict[str, Any]:
        from recmem.checks.report import _jsonable

        return _jsonable(asdict(self))


def python_literal(instance: Any) -> str:
    """The instance as Python a user can paste (after ``from fractions import Fraction`` and
    ``from recmem.numerics.exact import QQi``)."""
    return repr(instance)


def _judged_again(claim: Claim, ctx: Context, instance: Any, how: str, camp: ClaimCampaign,
                  *, same_run: bool) -> dict[str, Any] | None:
    """Judge a counterexample again (:func:`recmem.checks.search.rejudge`): the report's entry
    when the judge refutes it again; None otherwise, with the instance listed in
    ``camp.not_reproduced`` (``same_run``: the judge refuted this very instance earlier in this
    run, so not refuting it now is an internal inconsistency; a raising judge always is)."""
    from recmem.checks.search import rejudge

    assert claim.holds is not None
    again = rejudge(claim.holds, instance, ctx)
    r = again.result
    if again.reproduced and r is not None:
        return {"instance": python_literal(instance), "found_by": how, "holds": r.holds,
                "certified_by": r.certified_by, "statistical": r.statistical,
                "values": r.values, "detail": r.detail}
    camp.not_reproduced.append({"instance": python_literal(instance), "found_by": how,
                                "judged_again": again.judged,
                                "inconsistent": same_run or r is None})
    return None


def _flaky(s: Search, how: str, camp: ClaimCampaign) -> None:
    """A search in which Hypothesis found the judge answering differently on one instance: an
    internal inconsistency, listed (with the instance it last refuted, if any)."""
    camp.not_reproduced.append({
        "instance": None if s.instance is None else python_literal(s.instance), "found_by": how,
        "judged_again": f"not reliably: Hypothesis reports {s.flaky}", "inconsistent": True})


def _screen_backend(claim: Claim, job: FuzzJob) -> AbstractBackend | None:
    """The screen's arithmetic for this claim: none without ``--backend`` or a screen judge."""
    if job.backend is None or claim.screen is None:
        return None
    from recmem.numerics.backend import make_backend

    return make_backend(job.backend)


def fuzz_claim(job: FuzzJob) -> ClaimCampaign:
    """One shard of one claim's campaign (module docstring): replay (first shard only),
    search, controls; every counterexample judged again before it counts."""
    from recmem.checks.registry import get

    claim = get(job.claim_id)
    t0 = time.perf_counter()
    if claim.strategy is None or claim.holds is None:
        return ClaimCampaign(claim.id, STATUS_NO_STRATEGY,
                             note="no searchable domain yet (a study or an experiment)")
    ctx = Context(job.params, seed=job.search_seed, statement=claim.statement)
    screen = _screen_backend(claim, job)
    camp = ClaimCampaign(claim.id, STATUS_SURVIVED, shards=job.shards,
                         screen=None if screen is None else screen.name)
    if job.shard == 0:
        stored = read(claim)  # skipped entries: said once by the command (`stored_skipped`)
        camp.stored_skipped = stored.skipped
        for instance in stored.instances:
            camp.replayed += 1
            # stored by an earlier run, perhaps of another recmem or other parameters: a judge
            # that now clears it is not inconsistent with itself
            cx = _judged_again(claim, ctx, instance, FOUND_BY_REPLAY, camp, same_run=False)
            if cx is not None:
                camp.counterexamples.append(cx)
    # the search runs even after a replayed counterexample: its report is then the one the same
    # seed gives without stored counterexamples (module docstring, Determinism)
    if not job.replay_only:
        s = search(claim, ctx, max_examples=job.shard_examples, seconds=job.seconds,
                   shrink=True, screen=screen)
        camp.searched = True
        camp.examples, camp.undecided, camp.max_ratio = s.examples, s.undecided, s.max_ratio
        camp.screened, camp.dissolved = s.screened, s.dissolved
        how = ("search, shrunk" if not s.out_of_time
               else "search (time ran out while shrinking)")
        if s.flaky:
            _flaky(s, how, camp)
        elif s.instance is not None:
            # the judge refuted this instance during the search: judged again, it must again
            cx = _judged_again(claim, ctx, s.instance, how, camp, same_run=True)
            if cx is not None:
                camp.counterexamples.append(cx)
                camp.not_stored = store_instance(claim, s.instance) or ""
        if s.out_of_time and not camp.counterexamples:
            camp.note = f"seconds budget spent after {s.examples} examples"
    if job.controls:
        camp.controls = [_fuzz_control(claim, ctx, c, job, screen, camp)
                         for c in claim.controls]
    _settle(camp)
    camp.seconds = round(time.perf_counter() - t0, 3)
    return camp


def _settle(camp: ClaimCampaign) -> None:
    """The campaign's status from what it found: a counterexample judged again refutes (a
    statistical one fails); otherwise an internal inconsistency is an error; a search that
    decided no instance (every one undecided, or none judged in its time) is undecided; a
    survival with a control not refuted cannot tell the claim from a nearby false statement
    (rule R6 of :mod:`recmem.checks.verdict`)."""
    if camp.counterexamples:
        statistical = all(cx.get("statistical") for cx in camp.counterexamples)
        camp.status = STATUS_FAILED if statistical else STATUS_REFUTED
    elif camp.inconsistent:
        camp.status = STATUS_ERROR
        first = camp.inconsistent[0]
        why = (f"internal inconsistency: the claim's judge refuted an instance ({first['found_by']}) "
               f"but, judged again, {first['judged_again']}: not reproduced, so no refutation "
               "(a bug of recmem, not of the paper)")
        camp.note = f"{camp.note}; {why}" if camp.note and why not in camp.note else why
    elif camp.searched and camp.undecided == camp.examples:  # none decided (or none judged)
        camp.status = STATUS_UNDECIDED
    elif camp.controls_missed:
        camp.status = STATUS_NOT_TOLD_APART
    else:
        camp.status = STATUS_SURVIVED


def _fuzz_control(claim: Claim, ctx: Context, control: Any, job: FuzzJob,
                  screen: AbstractBackend | None, camp: ClaimCampaign) -> dict[str, Any]:
    """Search one negative control (no shrinking); its first counterexample, judged again,
    refutes it (one the judge does not refute again is an internal inconsistency, listed in
    ``camp.not_reproduced``, and the control counts as not refuted)."""
    cctx = replace(ctx, statement=control.statement, cache={})
    s = search(claim, cctx, max_examples=job.shard_examples, seconds=job.seconds, shrink=False,
               screen=screen)
    how = f"search of control “{control.change}”"
    found = None
    if s.flaky:
        _flaky(s, how, camp)
    elif s.instance is not None and _judged_again(claim, cctx, s.instance, how, camp,
                                                  same_run=True) is not None:
        found = s.instance
    return {"change": control.change, "refuted": found is not None,
            "examples_to_first_counterexample": s.to_first if found is not None else None,
            "examples": s.examples, "undecided": s.undecided, "dissolved": s.dissolved,
            "seconds": round(s.seconds, 3),
            "counterexample": python_literal(found) if found is not None else None}


def merge(shards: list[ClaimCampaign]) -> ClaimCampaign:
    """One claim's report from its shards' reports, given in shard order: counts add up, the
    counterexamples are the replayed ones (first shard) and then the search's of the first shard
    whose search found any (a counterexample the shards found alike is listed once), and a
    control's examples to its first counterexample count every example of the shards before the
    first one that refuted it."""
    if len(shards) == 1:
        return shards[0]
    first = shards[0]
    if first.status == STATUS_NO_STRATEGY:
        return first
    out = ClaimCampaign(first.id, STATUS_SURVIVED, replayed=first.replayed, screen=first.screen,
                        shards=len(shards), stored_skipped=first.stored_skipped)
    out.counterexamples = [cx for cx in first.counterexamples
                           if cx["found_by"] == FOUND_BY_REPLAY]
    found: list[dict[str, Any]] = []
    ratios = [c.max_ratio for c in shards if c.max_ratio is not None]
    out.max_ratio = max(ratios) if ratios else None
    for c in shards:
        out.examples += c.examples
        out.undecided += c.undecided
        out.screened += c.screened
        out.dissolved += c.dissolved
        out.seconds = round(out.seconds + c.seconds, 3)
        searched = [cx for cx in c.counterexamples if cx["found_by"] != FOUND_BY_REPLAY]
        if searched and not found:
            found = searched
        out.not_stored = out.not_stored or c.not_stored
        out.not_reproduced += c.not_reproduced
        out.searched |= c.searched
    out.counterexamples += found
    notes = sorted({c.note for c in shards if c.note})
    out.note = "; ".join(notes)
    ran = [c.controls for c in shards if c.controls]  # a shard that failed ran none
    out.controls = [_merge_control([c[i] for c in ran]) for i in range(len(ran[0]))] if ran \
        else []
    _settle(out)
    if any(c.status == STATUS_ERROR for c in shards):  # a shard's error stands
        out.status = STATUS_ERROR
    return out


def _merge_control(parts: list[dict[str, Any]]) -> dict[str, Any]:
    out = dict(parts[0])
    out.update(refuted=False, examples_to_first_counterexample=None, counterexample=None,
               examples=0, undecided=0, dissolved=0, seconds=0.0)
    for part in parts:
        if part["refuted"] and not out["refuted"]:
            out.update(refuted=True, counterexample=part["counterexample"],
                       examples_to_first_counterexample=out["examples"]
                       + part["examples_to_first_counterexample"])
        for key in ("examples", "undecided", "dissolved"):
            out[key] += part[key]
        out["seconds"] = round(out["seconds"] + part["seconds"], 3)
    return out
