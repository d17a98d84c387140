"""Run-time oracles as evidence (issue 19: every computed object a verdict rests on carries an
independent check at run time, recorded in the evidence).

- :func:`training_evidence`: trained models and their final losses
  (:class:`recmem.numerics.training.LossCheck`): a loss not finite or a diverged training is an
  ERROR of the run; a model that did not train FAILS (its check says nothing about the statement);
- :func:`routes_evidence`: one object computed by two routes
  (:class:`recmem.numerics.linear_recurrence.RouteCheck`): a disagreement beyond both error bounds
  is an internal inconsistency, ERROR, naming both values;
- :func:`not_judged`: checks that rest on an object whose oracle did not pass are turned
  INCONCLUSIVE ("not judged"), so that the oracle's own FAIL or ERROR decides the verdict and
  nothing computed from a broken object is read as a finding about the paper.

Neither evidence carries a residual that differs between a statement and its negative controls
(rule C2 of recmem.checks.verdict would read such a difference as the check's own separation).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from recmem.checks.verdict import Evidence, Outcome


def training_evidence(check: str, backend: str, checks: Sequence[Any], tolerance_source: str,
                      precision_bits: int | None = None) -> Evidence:
    """One evidence for the trained models' :class:`~recmem.numerics.training.LossCheck` results:
    ERROR when one diverged (or none was checked), FAIL when one did not train, else PASS; every
    loss and threshold in ``data``, the offending ones in the message."""
    status = [c.status for c in checks]
    outcome = (Outcome.ERROR if "diverged" in status or not checks
               else Outcome.FAIL if "untrained" in status else Outcome.PASS)
    odd = [c.describe() for c in checks if c.status != "trained"]
    worst = max((c.loss / c.threshold if c.threshold > 0 else math.inf for c in checks), default=0.0)
    message = ("; ".join(odd) if odd else "no trained model was checked" if not checks else
               f"{len(checks)} models trained; largest final loss / threshold {worst:.3g}")
    return Evidence(check=check, kind="numeric", backend=backend, outcome=outcome,
                    precision_bits=precision_bits, instances=len(checks),
                    tolerance_source=tolerance_source, message=message,
                    data={"losses": [c.to_dict() for c in checks]})


def routes_evidence(check: str, backend: str, checks: Sequence[Any],
                    precision_bits: int | None = None) -> Evidence:
    """One evidence for :class:`~recmem.numerics.linear_recurrence.RouteCheck` results: ERROR
    (internal inconsistency, both values named) when two routes disagree beyond both error bounds
    or when no comparison ran, else PASS; residual = the largest difference / bound."""
    from recmem.numerics.linear_recurrence import ROUTE_C

    bad = [c for c in checks if not c.agree]
    worst = max((c.difference / c.bound if c.bound > 0 else math.inf for c in checks), default=0.0)
    if bad:
        message = ("internal inconsistency (a bug of recmem, not of the paper): "
                   + "; ".join(c.describe() for c in bad))
    elif not checks:
        message = "no route comparison ran"
    else:
        message = f"{len(checks)} comparisons agree; largest difference / bound {worst:.3g}"
    return Evidence(check=check, kind="numeric", backend=backend,
                    outcome=Outcome.ERROR if bad or not checks else Outcome.PASS,
                    precision_bits=precision_bits, instances=len(checks), residual=f"{worst:.3g}",
                    tolerance="1",
                    tolerance_source=f"|route A − route B| / (the sum of both routes' bounds "
                                     f"{ROUTE_C:g}·(L + 16)·u·scale), u of the dtype that ran",
                    message=message, data={"comparisons": [c.to_dict() for c in checks]})


def not_judged(evidence: Iterable[Evidence], oracles: Iterable[Evidence]) -> None:
    """Turn every decided check (PASS, FAIL, REFUTE) of ``evidence`` INCONCLUSIVE, in place, when
    one of ``oracles`` did not pass: it rests on an object that failed its run-time oracle."""
    failed = [o.check for o in oracles if o.outcome is not Outcome.PASS]
    if not failed:
        return
    for ev in evidence:
        if ev.outcome in (Outcome.PASS, Outcome.FAIL, Outcome.REFUTE):
            ev.message = (f"not judged ({ev.outcome}): rests on computations that failed their "
                          f"run-time oracle ({'; '.join(failed)})" + (f". {ev.message}"
                                                                       if ev.message else ""))
            ev.outcome = Outcome.INCONCLUSIVE
            ev.counterexample = None
            ev.certified_by = None


__all__ = ["not_judged", "routes_evidence", "training_evidence"]
