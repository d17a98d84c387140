"""Check outcomes, evidence records and how they combine into a claim's verdict.

The rules are CLAIMS.md's ground rules 2–3: a certified counterexample refutes; an uncertified
disagreement fails; a pass needs narrow evidence; conditioning beyond the working precision is
inconclusive; VERIFIED needs a symbolic proof in a stated scope *and* agreement of every numeric
check that ran.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    """The result of one check."""

    PASS = "pass"
    REFUTE = "refute"  # certified counterexample
    FAIL = "fail"  # disagreement that is not certified
    INCONCLUSIVE = "inconclusive"
    SKIPPED = "skipped"
    ERROR = "error"


class Verdict(StrEnum):
    """A claim's verdict; each value's :attr:`meaning` says what it means and what to do."""

    VERIFIED = "VERIFIED"
    CORROBORATED = "CORROBORATED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"
    FAILED = "FAILED"
    ERROR = "ERROR"
    SKIPPED = "SKIPPED"

    @property
    def meaning(self) -> str:
        return _MEANINGS[self]

    @property
    def ok(self) -> bool:
        """Whether the verdict counts as a pass for the exit status."""
        return self in (Verdict.VERIFIED, Verdict.CORROBORATED)


_MEANINGS = {
    Verdict.VERIFIED: "a symbolic proof in the stated scope and every numeric check that ran agree",
    Verdict.CORROBORATED: "every numeric check that resolved the question agrees; no symbolic proof",
    Verdict.REFUTED: "a certified counterexample to the statement as printed (see counterexample)",
    Verdict.INCONCLUSIVE: "the evidence does not resolve the claim: the problem's conditioning "
    "exceeds what the working precision resolves (rerun with the precision named in the "
    "evidence), or a deciding statistical test lacks the power to tell",
    Verdict.FAILED: "a check disagreed with the claim without a certified counterexample (a float "
    "residual beyond its condition-scaled tolerance, or a statistical test rejecting at its "
    "declared level): read the evidence",
    Verdict.ERROR: "a check raised an exception; read the evidence's message",
    Verdict.SKIPPED: "no selected arithmetic could run this claim here",
}


@dataclass
class Evidence:
    """What one check did and found. Numbers are kept as short strings to survive JSON exactly."""

    check: str
    kind: str  # symbolic | numeric | statistical | search
    backend: str
    outcome: Outcome
    precision_bits: int | None = None
    instances: int = 1
    residual: str | None = None
    tolerance: str | None = None
    tolerance_source: str | None = None
    condition_number: str | None = None
    enclosure: str | None = None
    scope: str | None = None
    needed_bits: int | None = None
    counterexample: dict[str, Any] | None = None
    certified_by: str | None = None
    message: str = ""
    seconds: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["outcome"] = str(self.outcome)
        return {k: v for k, v in d.items() if v not in (None, {}, "")}


def combine(evidence: Iterable[Evidence], decided_by: Iterable[str] | None = None) -> Verdict:
    """The claim's verdict from its checks' outcomes (ground rule 2).

    ``decided_by`` names the evidence kinds that decide a claim whose statement is a conjunction
    of observable trends (a study): then every deciding check must pass, and one inconclusive
    deciding check leaves the claim INCONCLUSIVE whatever the supporting checks say.
    """
    ev = list(evidence)
    outcomes = [e.outcome for e in ev]
    if Outcome.REFUTE in outcomes:
        return Verdict.REFUTED
    if Outcome.FAIL in outcomes:
        return Verdict.FAILED
    if Outcome.ERROR in outcomes:
        return Verdict.ERROR
    if decided_by is not None:
        kinds = set(decided_by)
        deciding = [e for e in ev if e.kind in kinds and e.outcome is not Outcome.SKIPPED]
        if not deciding:
            return Verdict.SKIPPED
        if any(e.outcome is Outcome.INCONCLUSIVE for e in deciding):
            return Verdict.INCONCLUSIVE
    passed = [e for e in ev if e.outcome is Outcome.PASS]
    if not passed:
        return Verdict.INCONCLUSIVE if Outcome.INCONCLUSIVE in outcomes else Verdict.SKIPPED
    if any(e.kind == "symbolic" for e in passed):
        return Verdict.VERIFIED
    return Verdict.CORROBORATED


def counterexample_of(evidence: Iterable[Evidence]) -> dict[str, Any] | None:
    """The first certified counterexample among the evidence, with how it was certified."""
    for e in evidence:
        if e.outcome is Outcome.REFUTE and e.counterexample is not None:
            return {**e.counterexample, "certified_by": e.certified_by, "check": e.check,
                    "backend": e.backend}
    return None
