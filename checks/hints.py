"""What would resolve an INCONCLUSIVE verdict: a hint built only from what the run itself showed.

A hint may only promise what the evidence supports. More bits help a check whose residual the
working precision could not resolve, and only if no arithmetic with that many bits already ran
(and was not SKIPPED); a statistical test that did not reach significance needs more data, not
more bits; otherwise the hint is the open checks' own messages.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from recmem.checks.report import ClaimResult
from recmem.checks.verdict import Evidence, Outcome

HIGH_PRECISION = ("mpmath", "flint")
# how much of one check's message a hint quotes (cut at a word, with a visible ellipsis)
MESSAGE_WIDTH = 160


def shorten(text: str, width: int = MESSAGE_WIDTH) -> str:
    """``text`` on one line, cut at a word boundary with a visible " …" when longer than
    ``width``."""
    return textwrap.shorten(" ".join(text.split()), width=width, placeholder=" …")


def _decisive(result: ClaimResult, decided_by: Sequence[str] | None) -> list[Evidence]:
    open_checks = [e for e in result.evidence if e.outcome is Outcome.INCONCLUSIVE]
    if decided_by is None:
        return open_checks
    return [e for e in open_checks if e.kind in decided_by] or open_checks


def _ran_at_least(result: ClaimResult, bits: int) -> list[str]:
    return [e.backend for e in result.evidence
            if e.backend.startswith(HIGH_PRECISION) and e.outcome is not Outcome.SKIPPED
            and e.precision_bits is not None and e.precision_bits >= bits]


def _usable_high_precision(result: ClaimResult) -> str | None:
    """A high-precision kind this claim's checks ran in (not SKIPPED), so a hint naming it
    cannot end in SKIPPED."""
    for e in result.evidence:
        kind = e.backend.split("@")[0]
        if kind in HIGH_PRECISION and e.outcome is not Outcome.SKIPPED:
            return kind
    return None


def resolution_hint(result: ClaimResult, decided_by: Sequence[str] | None = None,
                    params: Sequence[str] = ()) -> str:
    """Why ``result`` (INCONCLUSIVE) is open and what, by the run's own evidence, would resolve
    it. ``decided_by`` are the evidence kinds that decide the claim (a study), ``params`` the
    claim's parameter names (to name the one that adds data)."""
    if result.reason:  # the negative controls decided it
        return result.reason
    decisive = _decisive(result, decided_by)
    statistical = [e for e in decisive if e.kind == "statistical"]
    if statistical:
        more = ("more draws per cell (--param draws=…)" if "draws" in params
                else "more samples")
        return (f"{len(statistical)} statistical test(s) did not reach significance: "
                f"{shorten(statistical[0].check + ': ' + (statistical[0].message or ''))}; "
                f"{more} or a wider range of the varied parameters may resolve it "
                "(more bits will not)")
    short = [e for e in decisive if e.needed_bits and e.precision_bits
             and e.needed_bits > e.precision_bits]
    if short:
        need = max(e.needed_bits or 0 for e in short)
        if not _ran_at_least(result, need):
            kind = _usable_high_precision(result)
            where = ", ".join(dict.fromkeys(e.backend for e in short))
            if kind is not None:
                return (f"{where} cannot resolve it: about {need} bits would "
                        f"(try --backend {kind}@{need})")
            return (f"{where} cannot resolve it: about {need} bits would, in an arithmetic "
                    "this claim's checks support")
    return "; ".join(dict.fromkeys(shorten(f"{e.check} [{e.backend}]: {e.message or ''}")
                                   for e in decisive[:3]))
