"""Check outcomes, evidence records, negative controls, and how they decide a claim's verdict.

The rules (R1–R7 and C below) implement CLAIMS.md's ground rules 2, 3 and 7: a certified
counterexample refutes; an uncertified disagreement fails; a pass needs narrow evidence;
conditioning beyond the working precision is inconclusive; checks that cannot tell the statement
from its negative controls decide nothing; VERIFIED needs a general symbolic proof *and*
agreement of every numeric check that ran.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from recmem.theory.proof import Proof


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
    "residual beyond its condition-scaled tolerance, a statistical test rejecting at its "
    "declared level, or a step of a symbolic derivation that SymPy decided false): read the "
    "evidence",
    Verdict.ERROR: "a check raised an exception, or recmem's own machinery failed a sanity "
    "check (a bug of recmem, not a finding about the paper); read the evidence's message",
    Verdict.SKIPPED: "no selected arithmetic could run this claim here",
}


@dataclass
class Evidence:
    """What one check did and found. Numbers are kept as short strings to survive JSON exactly."""

    check: str
    kind: str  # symbolic | exact | numeric | statistical | search | harness (see HARNESS)
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


# ---- the verdict rules -------------------------------------------------------------------------
#
# Written once, here; the README's "What a verdict means" states the same rules in words.
#
#   R1  a certified counterexample (any REFUTE) ............................ REFUTED
#   R2  otherwise an uncertified disagreement (any FAIL; a derivation step SymPy decided
#       false is one) ........................................................ FAILED
#   R3  otherwise an exception or a failed harness check (any ERROR) ......... ERROR
#   R4  a study (``decided_by``): no deciding check ran → SKIPPED; one deciding check
#       INCONCLUSIVE → INCONCLUSIVE
#   R5  no check passed (harness checks do not count): INCONCLUSIVE if one was inconclusive,
#       else SKIPPED
#   R6  a negative control that the checks did not tell apart from the statement (its verdict
#       is neither REFUTED nor FAILED), or a claim with no control at all → INCONCLUSIVE
#   R7  a general symbolic proof passed → VERIFIED; otherwise → CORROBORATED
#
#   C   (before R1–R7) a passing check that cannot tell the statement from one of its controls
#       becomes INCONCLUSIVE, for its pass then says nothing about the statement:
#   C1  per arithmetic: none of that arithmetic's checks refuted or failed the control;
#   C2  per check with a numeric residual (a violation measure: the check passes when
#       residual ≤ tolerance): the control changed the check's residual, but its residual
#       exceeds the statement's by no more than the tolerance, so the tolerance does not resolve
#       the distance between the statement and the control. (A control that leaves the residual
#       unchanged concerns another part of the statement; C1 covers it.)

TOLD_APART = frozenset({Verdict.REFUTED, Verdict.FAILED})

# Evidence of this kind checks recmem's own machinery (a simulator realises the kernel it is
# given, …), not the statement: its PASS is never evidence for the claim (R5, R7 ignore it, and
# rule C leaves it alone, for it reads nothing of the statement); its failure is ERROR (a bug of
# recmem, rule R3), never a refutation or failure of the paper.
HARNESS = "harness"


@dataclass
class ControlRun:
    """A negative control run through the claim's checks: its verdict and the evidence."""

    change: str
    statement: str
    verdict: Verdict
    evidence: list[Evidence]
    counterexample: dict[str, Any] | None = None

    @property
    def told_apart(self) -> bool:
        """Whether the checks distinguished the control from the statement (rule R6)."""
        return self.verdict in TOLD_APART

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"change": self.change, "statement": self.statement,
                             "verdict": str(self.verdict), "told_apart": self.told_apart,
                             "counterexample": self.counterexample}
        decisive = [e.to_dict() for e in [e for e in self.evidence
                                          if e.outcome in (Outcome.REFUTE, Outcome.FAIL)][:3]]
        if decisive:
            d["decided_by"] = decisive
        return d


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _keyed(evidence: Iterable[Evidence]) -> dict[tuple[str, str, int], Evidence]:
    """Evidence by (arithmetic, check, ordinal among checks of that name): a control's
    counterpart of each check."""
    seen: Counter[tuple[str, str]] = Counter()
    out = {}
    for e in evidence:
        out[(e.backend, e.check, seen[(e.backend, e.check)])] = e
        seen[(e.backend, e.check)] += 1
    return out


def apply_controls(evidence: Iterable[Evidence], controls: Iterable[ControlRun]) -> list[Evidence]:
    """Rule C (C1 and C2): a passing check that cannot tell the statement from a control becomes
    INCONCLUSIVE (the evidence is returned changed; the input is left alone)."""
    out = list(evidence)
    keys = list(_keyed(out))
    for run in controls:
        told = {e.backend for e in run.evidence if e.outcome in (Outcome.REFUTE, Outcome.FAIL)}
        counterpart = _keyed(run.evidence)
        for i, e in enumerate(out):
            if e.outcome is not Outcome.PASS or e.kind == HARNESS:
                continue
            note = None
            if e.backend not in told:  # C1
                note = f"{e.backend} cannot tell the statement from control “{run.change}”"
            else:  # C2
                c = counterpart.get(keys[i])
                r_s, tau = _number(e.residual), _number(e.tolerance)
                r_c = _number(c.residual) if c is not None else None
                # a control that leaves this check's residual unchanged is about another part
                # of the statement: C1 asks the arithmetic's other checks to tell it apart
                changed = c is not None and c.residual != e.residual
                if (changed and r_s is not None and tau is not None and r_c is not None
                        and r_c - r_s <= tau):
                    note = (f"tolerance {e.tolerance} cannot separate the statement (residual "
                            f"{e.residual}) from control “{run.change}” (residual {r_c:.3g})")
            if note:
                out[i] = replace(e, outcome=Outcome.INCONCLUSIVE,
                                 message=f"{e.message}; {note}" if e.message else note)
    return out


def combine(evidence: Iterable[Evidence], decided_by: Iterable[str] | None = None) -> Verdict:
    """The verdict that the evidence alone earns (rules R1–R5 and R7; see :func:`decide`)."""
    return _combine(list(evidence), decided_by)


def _combine(ev: list[Evidence], decided_by: Iterable[str] | None) -> Verdict:
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
    passed = [e for e in ev if e.outcome is Outcome.PASS and e.kind != HARNESS]
    if not passed:
        return Verdict.INCONCLUSIVE if any(e.outcome is Outcome.INCONCLUSIVE and e.kind != HARNESS
                                           for e in ev) else Verdict.SKIPPED
    if any(e.kind == "symbolic" for e in passed):
        return Verdict.VERIFIED
    return Verdict.CORROBORATED


@dataclass(frozen=True)
class Decision:
    """A claim's verdict and, when the controls decided it, why."""

    verdict: Verdict
    reason: str = ""


def decide(evidence: Iterable[Evidence], decided_by: Iterable[str] | None = None,
           controls: Iterable[ControlRun] | None = None) -> Decision:
    """The claim's verdict under rules R1–R7 (``controls=None``: controls were not run, so R6
    does not apply). ``evidence`` must already have had rule C applied (:func:`apply_controls`)."""
    verdict = _combine(list(evidence), decided_by)
    if controls is None or not verdict.ok:
        return Decision(verdict)
    runs = list(controls)
    if not runs:
        return Decision(Verdict.INCONCLUSIVE, "the claim declares no negative control, so no "
                        "check has shown that it can fail")
    missed = [r for r in runs if not r.told_apart]
    if missed:
        return Decision(Verdict.INCONCLUSIVE, "checks cannot tell the statement from " + "; ".join(
            f"“{r.change}” ({r.verdict})" for r in missed))
    return Decision(verdict)


def from_proof(proof: Proof, seconds: float, check: str = "symbolic") -> Evidence:
    """Evidence from a symbolic derivation: proved → PASS (kind ``symbolic`` for a general proof,
    ``exact`` for exact instances only), disproved → REFUTE with its counterexample, a step of the
    derivation that SymPy decided false → FAIL (a failed derivation: the step and the value it
    computed are in the message; no counterexample to the statement), undecided → INCONCLUSIVE."""
    if proof.failed_step is not None:
        step = proof.failed_step
        return Evidence(check=check, kind="symbolic", backend="sympy", outcome=Outcome.FAIL,
                        scope=proof.scope, seconds=seconds,
                        message=(f"failed derivation: SymPy decided step “{step['step']}” false "
                                 f"({step['value']}) — {proof.method}"),
                        data={**{k: str(v) for k, v in proof.details.items()},
                              "failed step": str(step)})
    outcome = {True: Outcome.PASS, False: Outcome.REFUTE, None: Outcome.INCONCLUSIVE}[proof.holds]
    kind = "symbolic" if proof.general or proof.holds is not True else "exact"
    return Evidence(check=check, kind=kind, backend="sympy", outcome=outcome,
                    scope=proof.scope, message=proof.method, seconds=seconds,
                    counterexample=proof.counterexample,
                    certified_by="exact symbolic computation" if proof.holds is False else None,
                    data={k: str(v) for k, v in proof.details.items()})


INTERNAL = "internal inconsistency: "
DESCRIPTIVE = "descriptive, decides nothing: "


def consistency(ok: bool, message: str) -> tuple[Outcome, str]:
    """The outcome and message of a check of recmem's own machinery (a sampler's ball membership,
    two routes to one statement-independent value, an invariant of the estimator): PASS, or ERROR
    with the message marked as an internal inconsistency — a bug of recmem, never a finding about
    the paper (CLAIMS.md: REFUTE and FAIL are reserved for disagreements with the statement)."""
    return (Outcome.PASS, message) if ok else (Outcome.ERROR, INTERNAL + message)


def harness(check: str, backend: str, ok: bool, message: str, **kw: Any) -> Evidence:
    """Evidence of a check of recmem's own machinery (:func:`consistency`), of kind
    :data:`HARNESS`: its PASS is no evidence for the statement (rules R5,
    R7 and C ignore it), its failure is ERROR (rule R3)."""
    outcome, text = consistency(ok, message)
    return Evidence(check=check, kind=HARNESS, backend=backend, outcome=outcome, message=text,
                    **kw)


def descriptive(check: str, backend: str, message: str, **kw: Any) -> Evidence:
    """A descriptive table (E_m(β) per width and β, ...) kept in the report but out of the verdict:
    outcome SKIPPED, which no verdict rule counts as a pass (checks.verdict: R4, R5 and rule C read
    PASS, FAIL, REFUTE, INCONCLUSIVE and ERROR only), so a table that checks nothing cannot lift a
    claim to CORROBORATED; its message says so."""
    return Evidence(check=check, kind="numeric", backend=backend, outcome=Outcome.SKIPPED,
                    message=DESCRIPTIVE + message, **kw)


def from_harness_proof(proof: Proof, seconds: float, check: str) -> Evidence:
    """Evidence from a symbolic check of recmem's own machinery (kind :data:`HARNESS`): proved →
    PASS (which says nothing about the statement), disproved → ERROR (a bug of recmem: the message
    shows what SymPy found), undecided or a failed derivation → INCONCLUSIVE (the harness is
    unchecked; the claim's verdict does not rest on it)."""
    if proof.holds is False:
        outcome, message = Outcome.ERROR, (f"bug of recmem, not a refutation of the paper: "
                                           f"{proof.method}: {proof.counterexample}")
    elif proof.holds is True:
        outcome, message = Outcome.PASS, proof.method
    else:
        outcome, message = Outcome.INCONCLUSIVE, f"harness not confirmed: {proof.method}"
    return Evidence(check=check, kind=HARNESS, backend="sympy", outcome=outcome,
                    scope=proof.scope, message=message, seconds=seconds,
                    data={k: str(v) for k, v in proof.details.items()})


def counterexample_of(evidence: Iterable[Evidence]) -> dict[str, Any] | None:
    """The first certified counterexample among the evidence, with how it was certified."""
    for e in evidence:
        if e.outcome is Outcome.REFUTE and e.counterexample is not None:
            return {**e.counterexample, "certified_by": e.certified_by, "check": e.check,
                    "backend": e.backend}
    return None
