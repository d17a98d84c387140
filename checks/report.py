"""Reports: per-claim verdicts with evidence and provenance, as JSON, Markdown and a terminal table."""

from __future__ import annotations

import json
import os
import platform
import time
import uuid
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from recmem.checks.claim import CONVENTIONS, Claim
from recmem.checks.outputs import write_atomic
from recmem.checks.verdict import ControlRun, Decision, Evidence, Outcome, Verdict

SCHEMA = "recmem.report/2"


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def arithmetics_of(checks: Iterable[tuple[str, str]]) -> list[str]:
    """The arithmetics whose checks resolved something (an outcome "pass" or "refute"), in
    order of first appearance, from (backend, outcome) pairs: of a run's evidence, or of the
    stored JSON of one (``recmem show --history``)."""
    return list(dict.fromkeys(b for b, outcome in checks if outcome in ("pass", "refute")))


def evidence_from_dict(d: dict[str, Any]) -> Evidence:
    """One check's stored JSON (:meth:`Evidence.to_dict`) as :class:`Evidence` again (numbers
    stay the strings they were stored as; keys it does not know are left out)."""
    from dataclasses import fields

    known = {f.name for f in fields(Evidence)} - {"outcome"}
    return Evidence(**{k: v for k, v in d.items() if k in known}, outcome=Outcome(d["outcome"]))


@dataclass
class ClaimResult:
    """One claim's verdict with everything that backs it."""

    id: str
    title: str
    statement: str
    verdict: Verdict
    source: dict[str, str]
    evidence: list[Evidence]
    params: dict[str, Any]
    counterexample: dict[str, Any] | None
    seconds: float
    uses: tuple[str, ...] = ()
    corrects: str | None = None
    reading: str | None = None
    tolerance: str = ""
    controls: list[ControlRun] | None = None  # None: controls were not run (--no-controls)
    reason: str = ""  # why the controls decided the verdict, when they did
    summary: str = ""  # the claim's finding in one line (``Claim.summary``)

    @classmethod
    def from_claim(cls, claim: Claim, decision: Decision, evidence: list[Evidence],
                   params: Any, counterexample: dict[str, Any] | None,
                   seconds: float, controls: list[ControlRun] | None = None) -> ClaimResult:
        return cls(claim.id, claim.title, claim.text, decision.verdict,
                   claim.provenance.to_dict(), evidence, dict(params), counterexample, seconds,
                   claim.uses, claim.corrects, claim.reading, claim.tolerance, controls,
                   decision.reason, claim.summary)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClaimResult:
        """A stored result (:meth:`to_dict`, as ``recmem show`` reads it) back as a ClaimResult:
        its verdict, reason and evidence; the controls' own evidence is not kept there."""
        return cls(d["id"], d.get("title", ""), d.get("statement", ""), Verdict(d["verdict"]),
                   d.get("source") or {}, [evidence_from_dict(e) for e in d.get("evidence", [])],
                   d.get("params") or {}, d.get("counterexample"), float(d.get("seconds", 0.0)),
                   tuple(d.get("uses", ())), d.get("corrects"), d.get("reading"),
                   d.get("tolerance_policy", ""), None, d.get("reason", ""),
                   d.get("summary", ""))

    def controls_summary(self) -> str:
        """"told apart/total" of the negative controls ("—" when they were not run)."""
        if self.controls is None:
            return "—"
        return f"{sum(r.told_apart for r in self.controls)}/{len(self.controls)}"

    def arithmetics(self) -> list[str]:
        """The arithmetics whose checks resolved something (passed or refuted)."""
        return arithmetics_of((e.backend, e.outcome.value) for e in self.evidence)

    def _repr_html_(self) -> str:
        """The claim's verdict, statement and evidence as HTML (a notebook's rich display; the
        site's claim page, :mod:`recmem.checks.html`)."""
        from recmem.checks.html.notebook import claim_html

        return claim_html(self)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id, "title": self.title, "statement": self.statement,
            "verdict": str(self.verdict), "meaning": self.verdict.meaning, "source": self.source,
            "params": _jsonable(self.params), "uses": list(self.uses),
            "tolerance_policy": self.tolerance,
            "evidence": [_jsonable(e.to_dict()) for e in self.evidence],
            "controls": (None if self.controls is None
                         else [_jsonable(r.to_dict()) for r in self.controls]),
            "seconds": round(self.seconds, 4),
        }
        if self.reason:
            d["reason"] = self.reason
        if self.summary:
            d["summary"] = self.summary
        if self.counterexample is not None:
            d["counterexample"] = _jsonable(self.counterexample)
        if self.corrects:
            d["corrects"] = self.corrects
        if self.reading:
            d["reading"] = self.reading
        return d


@dataclass
class Report:
    """A verification run."""

    meta: dict[str, Any]
    claims: list[ClaimResult] = field(default_factory=list)
    # the encoded JSON of each finished claim, by identity (write_json)
    _encoded: dict[int, tuple[ClaimResult, str]] = field(default_factory=dict, init=False,
                                                          repr=False, compare=False)
    complete: bool = False

    @classmethod
    def start(cls, **meta: Any) -> Report:
        from importlib.metadata import version

        return cls(meta={
            "schema": SCHEMA, "recmem": version("recmem"), "run_id": uuid.uuid4().hex[:12],
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": platform.python_version(),
            "platform": platform.platform(), "conventions": list(CONVENTIONS), **meta})

    def finish(self) -> None:
        self.complete = True
        self.meta["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")

    def interrupt(self, during: str | None) -> None:
        """Mark the report as cut short (``complete`` stays false) while ``during`` ran."""
        self.meta["interrupted"] = {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                    "during": during}

    @property
    def ok(self) -> bool:
        return all(c.verdict.ok for c in self.claims)

    def counts(self) -> dict[str, int]:
        return dict(Counter(str(c.verdict) for c in self.claims))

    def not_run(self) -> dict[str, str]:
        """The requested arithmetics (``meta["backends"]``) that ran no check of any finished
        claim, each with why: the first message of a SKIPPED check in it ("CUDA is not
        available …"), or that no selected claim has a check in it."""
        ran: set[str] = set()
        why: dict[str, str] = {}
        for c in self.claims:
            for e in c.evidence:
                if e.outcome is Outcome.SKIPPED:
                    why.setdefault(e.backend, e.message or "skipped")
                else:
                    ran.add(e.backend)
        if not self.claims:
            return {}
        return {b: why.get(b, "no selected claim has a check in this arithmetic")
                for b in self.meta.get("backends") or () if b not in ran}

    def _repr_html_(self) -> str:
        """The run's table of verdicts with badges and each claim's evidence expandable, as HTML
        (a notebook's rich display; the site's tables, :mod:`recmem.checks.html`)."""
        from recmem.checks.html.notebook import report_html

        return report_html(self)

    def to_dict(self) -> dict[str, Any]:
        return {**self.meta, "complete": self.complete, "summary": self.counts(),
                "claims": [c.to_dict() for c in self.claims]}

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write atomically, so an interrupted run leaves the last complete file behind.

        The file is rewritten after every claim of a run: each claim's part is encoded once and
        kept (a finished claim's result does not change), so a run of n claims encodes n parts,
        not n²/2; the text is the same as ``json.dumps(self.to_dict(), indent=2)``."""
        head = json.dumps({**self.meta, "complete": self.complete, "summary": self.counts(),
                           "claims": []}, indent=2, ensure_ascii=False)
        if self.claims:
            parts = []
            for c in self.claims:
                kept = self._encoded.get(id(c))
                if kept is None or kept[0] is not c:
                    text = json.dumps(c.to_dict(), indent=2, ensure_ascii=False)
                    # one level deeper than the top-level object: two more indents of 2
                    kept = (c, "\n".join("    " + line for line in text.splitlines()))
                    self._encoded[id(c)] = kept
                parts.append(kept[1])
            assert head.endswith('"claims": []\n}')
            head = head[:-len("[]\n}")] + "[\n" + ",\n".join(parts) + "\n  ]\n}"
        write_atomic(Path(path), head + "\n")

    def to_markdown(self) -> str:
        lines = ["# recmem verification report", "",
                 f"recmem {self.meta['recmem']}, started {self.meta['started']}, "
                 f"seed {self.meta['seed']}, backends {', '.join(self.meta['backends'])}", "",
                 "Conventions: " + "; ".join(self.meta["conventions"]) + ".", "",
                 *([] if self.complete else [
                     f"**Incomplete run**: {len(self.claims)} claim(s) finished"
                     + (f"; interrupted during `{self.meta['interrupted']['during']}`"
                        if self.meta.get("interrupted", {}).get("during") else "") + ".", ""]),
                 "| claim | verdict | source | arithmetics | controls told apart | time (s) |",
                 "|---|---|---|---|---|---|"]
        for c in self.claims:
            lines.append(f"| `{c.id}` | {c.verdict} | {c.source['location']} | "
                         f"{', '.join(c.arithmetics())} | {c.controls_summary()} | "
                         f"{c.seconds:.2f} |")
        lines += ["", "Summary: " + ", ".join(f"{v} {k}" for k, v in self.counts().items()), ""]
        if not_run := self.not_run():
            lines += [*(f"Not run: `{b}` ({why})." for b, why in not_run.items()), ""]
        for c in self.claims:
            lines += [f"## `{c.id}`: {c.title}", "", f"**{c.verdict}**: {c.verdict.meaning}.", "",
                      f"> {c.statement}", "", f"Source: {c.source['version']}, {c.source['location']}.",
                      ""]
            if c.reason:
                lines += [f"Why: {c.reason}.", ""]
            if c.counterexample:
                lines += ["Counterexample: `" + json.dumps(_jsonable(c.counterexample),
                                                          ensure_ascii=False) + "`", ""]
            if c.controls is not None:
                lines += ["Negative controls (nearby false statements run through the same "
                          "checks):", "", "| control | statement | verdict |", "|---|---|---|"]
                lines += [f"| {r.change} | {r.statement} | {r.verdict} |".replace("\n", " ")
                          for r in c.controls]
                lines.append("")
            lines += ["| check | backend | bits | outcome | residual | tolerance | κ | note |",
                      "|---|---|---|---|---|---|---|---|"]
            for e in c.evidence:
                note = (e.scope or e.certified_by or e.message or "").replace("|", "\\|")
                lines.append(f"| {e.check} | {e.backend} | {e.precision_bits or ''} | {e.outcome} "
                             f"| {e.residual or ''} | {e.tolerance or ''} | "
                             f"{e.condition_number or ''} | {note} |")
            lines.append("")
        return "\n".join(lines)
