"""Fuzzing campaigns: Hypothesis searches claims' domains under budgets, with replay and controls.

``recmem fuzz`` runs one campaign per selected claim (:func:`fuzz_claim`, picklable work items
for the execution layer, so claims run in parallel with ``--jobs``/``--cluster``):

1. **Replay** — counterexamples stored by earlier campaigns (an example database under
   ``$RECMEM_HOME/fuzz-examples``: Hypothesis's ``DirectoryBasedExampleDatabase`` as storage,
   keyed by the claim and the text of its statement) are judged again first; ``--replay`` runs
   only them.
2. **Search** — Hypothesis draws instances from the claim's strategy (its stated domain) and
   the claim's exact or certified ``holds`` judges each; the first counterexample is shrunk. The
   budget is a number of examples and optionally seconds; every judged instance is counted, so
   the report never repeats the budget where Hypothesis stopped early or exhausted a small
   domain. A shrunk counterexample is judged once more (its certificate) and stored.
3. **Controls** (``--controls``) — each negative control (a nearby false statement) is searched
   the same way without shrinking, and the number of examples to its first counterexample is
   reported: a measure of the search's power on that claim.

Determinism: the same seed and example budget give the same report (times aside); a seconds
budget can stop a search earlier on a slower machine.
"""

from __future__ import annotations

import hashlib
import pickle
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from recmem.checks.claim import Claim, Context

STATUS_REFUTED = "refuted"
STATUS_SURVIVED = "survived"
STATUS_UNDECIDED = "undecided"
STATUS_NO_STRATEGY = "no strategy"
STATUS_ERROR = "error"


class _OutOfTime(Exception):
    """Raised inside a search when its seconds budget is spent."""


@dataclass
class Search:
    """One Hypothesis search of one statement: what it judged and what it found."""

    examples: int = 0
    undecided: int = 0
    seconds: float = 0.0
    to_first: int | None = None  # examples judged up to and including the first counterexample
    instance: Any = None  # the (shrunk) counterexample, when one was found
    out_of_time: bool = False


def search(claim: Claim, ctx: Context, *, max_examples: int, seconds: float | None,
           shrink: bool) -> Search:
    """Search ``claim``'s domain for ``ctx.statement`` (Hypothesis ``find`` with the claim's
    strategy and ``holds``), counting every judged instance; stop at the first counterexample
    when not ``shrink``. A spent seconds budget keeps what was found (a counterexample found
    while shrinking is kept, shrunk as far as the time allowed)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    from recmem.checks.runner import hypothesis_files_in_home

    assert claim.strategy is not None and claim.holds is not None
    holds = claim.holds
    out = Search()
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds

    def refutes(instance: Any) -> bool:
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime
        r = holds(instance, ctx)
        out.examples += 1
        out.undecided += r.holds is None
        if r.holds is False:
            if out.to_first is None:
                out.to_first = out.examples
            out.instance = instance  # the latest failing one: shrinking only makes it smaller
        return r.holds is False

    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    cfg = settings(max_examples=max_examples, database=None, deadline=None, derandomize=False,
                   suppress_health_check=list(HealthCheck), phases=phases)
    import random

    try:
        with hypothesis_files_in_home():
            out.instance = find(claim.strategy(ctx), refutes, settings=cfg,
                                random=random.Random(ctx.seed))
    except NoSuchExample:
        pass
    except _OutOfTime:
        out.out_of_time = True
    out.seconds = time.perf_counter() - t0
    return out


# ---- the example database --------------------------------------------------------------------
def _database() -> Any:
    from hypothesis.database import DirectoryBasedExampleDatabase

    from recmem.checks.store import home

    return DirectoryBasedExampleDatabase(str(home() / "fuzz-examples"))


def database_key(claim: Claim) -> bytes:
    """The key of a claim's stored counterexamples: its ID and its statement's text (a changed
    statement starts afresh)."""
    text = claim.statement.text if claim.statement is not None else ""
    return f"recmem-fuzz:{claim.id}:{hashlib.sha256(text.encode()).hexdigest()[:16]}".encode()


def stored_instances(claim: Claim) -> list[Any]:
    """The counterexamples stored for ``claim`` (those that no longer unpickle are skipped; none
    when no campaign has stored any, or the folder cannot be read)."""
    from recmem.checks.store import home

    if not (home() / "fuzz-examples").is_dir():
        return []
    out = []
    try:
        blobs = sorted(_database().fetch(database_key(claim)))
    except OSError:
        return []
    for blob in blobs:
        try:
            out.append(pickle.loads(blob))
        except Exception:  # written by another version of recmem: not ours to judge
            continue
    return out


def store_instance(claim: Claim, instance: Any) -> None:
    """Keep a confirmed counterexample for replay (silently not, where it cannot be pickled or
    ``$RECMEM_HOME`` cannot be written: it is still in the report)."""
    try:
        blob = pickle.dumps(instance)
        _database().save(database_key(claim), blob)
    except Exception:
        return


REPLAY_CHECK = "counterexample stored by recmem fuzz, judged again"


def replay_evidence(claim: Claim, ctx: Context) -> list[Any]:
    """What ``recmem verify`` learns from earlier campaigns: a stored counterexample of the
    claim's own statement that its ``holds`` still judges false is a certified refutation (one
    REFUTE evidence, the first such instance); nothing otherwise."""
    from recmem.checks.search import SEARCH_BACKEND
    from recmem.checks.verdict import Evidence, Outcome

    if claim.holds is None or ctx.statement is not claim.statement:
        return []
    for instance in stored_instances(claim):
        r = claim.holds(instance, ctx)
        if r.holds is False:
            return [Evidence(check=REPLAY_CHECK, kind="search", backend=SEARCH_BACKEND,
                             outcome=Outcome.REFUTE, instances=1,
                             counterexample={**r.values, "detail": r.detail,
                                             "instance": python_literal(instance)},
                             certified_by=r.certified_by,
                             message="found by an earlier fuzzing campaign "
                                     "($RECMEM_HOME/fuzz-examples) and judged again")]
    return []


# ---- one claim's campaign ---------------------------------------------------------------------
@dataclass(frozen=True)
class FuzzJob:
    """A picklable work item: one claim's campaign (the claim travels by ID)."""

    claim_id: str
    params: dict[str, Any]
    seed: int
    max_examples: int
    seconds: float | None
    replay_only: bool
    controls: bool


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

    def to_dict(self) -> dict[str, Any]:
        from recmem.checks.report import _jsonable

        return _jsonable(asdict(self))


def python_literal(instance: Any) -> str:
    """The instance as Python a user can paste (after ``from fractions import Fraction`` and
    ``from recmem.numerics.exact import QQi``)."""
    return repr(instance)


def _counterexample(claim: Claim, ctx: Context, instance: Any, how: str) -> dict[str, Any]:
    assert claim.holds is not None
    r = claim.holds(instance, ctx)
    return {"instance": python_literal(instance), "found_by": how, "holds": r.holds,
            "certified_by": r.certified_by, "values": r.values, "detail": r.detail}


def fuzz_claim(job: FuzzJob) -> ClaimCampaign:
    """One claim's campaign (module docstring): replay, search, controls."""
    from recmem.checks.registry import get

    claim = get(job.claim_id)
    t0 = time.perf_counter()
    if claim.strategy is None or claim.holds is None:
        return ClaimCampaign(claim.id, STATUS_NO_STRATEGY,
                             note="no searchable domain yet (a study or an experiment)")
    ctx = Context(job.params, seed=job.seed, statement=claim.statement)
    camp = ClaimCampaign(claim.id, STATUS_SURVIVED)
    for instance in stored_instances(claim):
        camp.replayed += 1
        cx = _counterexample(claim, ctx, instance, "replay of a stored counterexample")
        if cx["holds"] is False:
            camp.counterexamples.append(cx)
    if not job.replay_only and not camp.counterexamples:
        s = search(claim, ctx, max_examples=job.max_examples, seconds=job.seconds, shrink=True)
        camp.examples, camp.undecided = s.examples, s.undecided
        if s.instance is not None:
            cx = _counterexample(claim, ctx, s.instance, "search, shrunk" if not s.out_of_time
                                 else "search (time ran out while shrinking)")
            if cx["holds"] is False:
                camp.counterexamples.append(cx)
                store_instance(claim, s.instance)
            else:  # a candidate that does not survive being judged again
                camp.dissolved += 1
        if s.out_of_time and not camp.counterexamples:
            camp.note = f"seconds budget spent after {s.examples} examples"
    if camp.counterexamples:
        camp.status = STATUS_REFUTED
    elif camp.examples and camp.undecided == camp.examples:
        camp.status = STATUS_UNDECIDED
    if job.controls:
        camp.controls = [_fuzz_control(claim, ctx, c, job) for c in claim.controls]
    camp.seconds = round(time.perf_counter() - t0, 3)
    return camp


def _fuzz_control(claim: Claim, ctx: Context, control: Any, job: FuzzJob) -> dict[str, Any]:
    from dataclasses import replace

    cctx = replace(ctx, statement=control.statement, cache={})
    s = search(claim, cctx, max_examples=job.max_examples, seconds=job.seconds, shrink=False)
    found = s.instance is not None
    return {"change": control.change, "refuted": found,
            "examples_to_first_counterexample": s.to_first, "examples": s.examples,
            "undecided": s.undecided, "seconds": round(s.seconds, 3),
            "counterexample": python_literal(s.instance) if found else None}
