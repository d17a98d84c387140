"""Counterexample search: Hypothesis explores a claim's stated domain and shrinks what it finds.

A claim supplies ``strategy(ctx)`` (its domain, with exact values) and ``holds(instance, ctx)``,
which decides one instance exactly or with certified arithmetic and says how. The shrunk
instance is judged again (:func:`rejudge`), so a reported counterexample always comes with its
certificate; one that the judge does not refute again is *not reproduced*: never a refutation,
and, where the same judge found it false on the same instance, an internal inconsistency
(ERROR: a bug of recmem, CLAIMS.md ground rule 2).
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from recmem.checks.claim import Claim, Context
from recmem.checks.verdict import Evidence, Outcome


@dataclass(frozen=True)
class Instance:
    """One instance judged: ``holds`` is None when it could not be decided (then not a refutation)."""

    holds: bool | None
    certified_by: str
    values: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    # how near the instance comes to refuting, for guidance only (never a verdict): the ratio of
    # an inequality's two sides, or of an error to what the statement allows, oriented so that a
    # value above 1 is on the refuting side; None where the statement has no such measure (an
    # identity). ``recmem fuzz`` steers its search towards large ratios (hypothesis.target) and
    # reports the largest seen
    ratio: float | None = None
    # judged by a statistical test (a study's trend test on a small design), not exactly: a False
    # is then a statistical failure (FAIL, the claim FAILED), never a certified refutation
    # (CLAIMS.md ground rule 2)
    statistical: bool = False


def outcome_of_counterexample(instance: Instance) -> Outcome:
    """REFUTE for a counterexample judged exactly or in certified arithmetic, FAIL for one that
    a statistical test found (ground rule 2: a statistical failure is not a certified refutation)."""
    return Outcome.FAIL if instance.statistical else Outcome.REFUTE


@dataclass(frozen=True)
class Rejudged:
    """A counterexample judged again by the claim's ``holds``: ``result`` is the judgement
    (None when the judge raised, ``error`` then says what)."""

    result: Instance | None
    error: str = ""

    @property
    def reproduced(self) -> bool:
        """Whether the judge found the instance false again: only then is it a counterexample."""
        return self.result is not None and self.result.holds is False

    @property
    def judged(self) -> str:
        """What the judge said this time, in words (for reports)."""
        if self.result is None:
            return f"raised {self.error}"
        return {True: "holds", False: "refutes", None: "undecided"}[self.result.holds]


def rejudge(holds: Callable[[Any, Context], Instance], instance: Any, ctx: Context) -> Rejudged:
    """Judge a counterexample once more (its certificate). An exception is caught and kept in
    ``error``: the caller reports the instance as not reproduced, never as a refutation."""
    try:
        return Rejudged(holds(instance, ctx))
    except Exception as exc:  # a judge that raises has certified nothing
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        return Rejudged(None, f"{type(exc).__name__}: {exc} (at {tb.filename}:{tb.lineno})")


def not_reproduced_message(again: Rejudged, found: str) -> str:
    """Why a counterexample ``found`` (how it was found) is no refutation: the judge, asked
    again on the same instance, did not refute it; an internal inconsistency of recmem."""
    return (f"internal inconsistency: the claim's judge refuted an instance {found} but, judged "
            f"again on the same instance, {again.judged}: not reproduced, so no refutation (a "
            "bug of recmem, not of the paper)")


SEARCH_BACKEND = "exact (Hypothesis search)"
SEARCH_CHECK = "counterexample search over the stated domain"


def search(claim: Claim, ctx: Context, max_examples: int | None = None,
           backend: str = SEARCH_BACKEND, shrink: bool = True) -> Evidence:
    """Search ``claim``'s domain (for ``ctx.statement``) for a certified counterexample; with
    ``shrink`` (the default) Hypothesis shrinks it to a minimal one.

    Outcomes: REFUTE (FAIL for a statistical judge) for a counterexample that the judge refutes
    again; PASS when no counterexample was found among instances the judge *decided* (at least
    one: a search that decided none confirms nothing and is INCONCLUSIVE); ERROR when the judge
    contradicts itself on one instance (Hypothesis's ``Flaky``, or a found counterexample that
    judged again holds, is undecided or raises)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import Flaky, NoSuchExample

    assert claim.strategy is not None and claim.holds is not None
    holds = claim.holds
    n = max_examples if max_examples is not None else ctx.search_examples
    t0 = time.perf_counter()
    undecided = judged = 0

    def refutes(instance: Any) -> bool:
        nonlocal undecided, judged
        r = holds(instance, ctx)
        judged += 1
        undecided += r.holds is None
        return r.holds is False

    def evidence(outcome: Outcome, message: str, **kw: Any) -> Evidence:
        return Evidence(check=SEARCH_CHECK, kind="search", backend=backend, outcome=outcome,
                        message=message, seconds=time.perf_counter() - t0,
                        data={"judged": judged, "undecided": undecided,
                              "decided": judged - undecided}, **kw)

    cfg = settings(max_examples=n, database=None, deadline=None, derandomize=False,
                   suppress_health_check=list(HealthCheck),
                   phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate])
    try:
        found = find(claim.strategy(ctx), refutes, settings=cfg, random=random.Random(ctx.seed))
    except NoSuchExample:
        decided = judged - undecided
        # a search that decided no instance has confirmed nothing: it cannot pass
        return evidence(Outcome.PASS if decided else Outcome.INCONCLUSIVE,
                        f"no counterexample in {judged} examples (seed {ctx.seed}); "
                        f"{undecided} undecided", instances=decided)
    except Flaky as exc:  # the judge refuted an instance, then cleared it when Hypothesis replayed it
        return evidence(Outcome.ERROR, "internal inconsistency: the claim's judge gave different "
                        f"answers on the same instance during the search (seed {ctx.seed}; "
                        f"Hypothesis: {str(exc).splitlines()[0]}); no refutation (a bug of "
                        "recmem, not of the paper)", instances=judged)
    again = rejudge(holds, found, ctx)
    how = f"{'shrunk' if shrink else 'first'} counterexample (seed {ctx.seed})"
    if not again.reproduced:
        return evidence(Outcome.ERROR, not_reproduced_message(again, f"by the search ({how})"),
                        instances=judged, counterexample={"instance": repr(found),
                                                          "judged again": again.judged})
    r = again.result
    assert r is not None
    kind = "statistical counterexample" if r.statistical else "counterexample"
    return evidence(outcome_of_counterexample(r),
                    f"{'shrunk' if shrink else 'first'} {kind} (seed {ctx.seed})",
                    instances=judged, counterexample={**r.values, "detail": r.detail},
                    certified_by=r.certified_by)
