"""Counterexample search: Hypothesis explores a claim's stated domain and shrinks what it finds.

A claim supplies ``strategy(ctx)`` (its domain, with exact values) and ``holds(instance, ctx)``,
which decides one instance exactly or with certified arithmetic and says how. The shrunk
instance is re-judged, so the reported counterexample always comes with its certificate.
"""

from __future__ import annotations

import random
import time
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


SEARCH_BACKEND = "exact (Hypothesis search)"


def search(claim: Claim, ctx: Context, max_examples: int | None = None,
           backend: str = SEARCH_BACKEND, shrink: bool = True) -> Evidence:
    """Search ``claim``'s domain (for ``ctx.statement``) for a certified counterexample; with
    ``shrink`` (the default) Hypothesis shrinks it to a minimal one."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

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

    cfg = settings(max_examples=n, database=None, deadline=None, derandomize=False,
                   suppress_health_check=list(HealthCheck),
                   phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate])
    try:
        found = find(claim.strategy(ctx), refutes, settings=cfg, random=random.Random(ctx.seed))
    except NoSuchExample:
        decided = judged - undecided
        # a search that decided no instance has confirmed nothing: it cannot pass
        return Evidence(check="counterexample search over the stated domain", kind="search",
                        backend=backend,
                        outcome=Outcome.PASS if decided else Outcome.INCONCLUSIVE,
                        instances=decided,
                        message=f"no counterexample in {judged} examples (seed {ctx.seed}); "
                                f"{undecided} undecided",
                        seconds=time.perf_counter() - t0)
    r = holds(found, ctx)
    kind = "statistical counterexample" if r.statistical else "counterexample"
    return Evidence(check="counterexample search over the stated domain", kind="search",
                    backend=backend, outcome=outcome_of_counterexample(r), instances=n,
                    counterexample={**r.values, "detail": r.detail}, certified_by=r.certified_by,
                    message=f"{'shrunk' if shrink else 'first'} {kind} (seed {ctx.seed})",
                    seconds=time.perf_counter() - t0)
