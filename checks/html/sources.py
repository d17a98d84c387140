"""The run a site shows: the latest stored run (``$RECMEM_HOME/results.sqlite``), a stored run by
its ID, a JSON report written by ``recmem verify --json``, or a report object in memory. Every
source gives the same data, the report's own JSON (``recmem.checks.report``), so a page can show
only what the report says."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recmem.checks.verdict import Verdict

REPORT_SCHEMA_PREFIX = "recmem.report/"
# the fields of one claim's JSON a page reads; a report whose claims lack them is refused
_CLAIM_FIELDS = ("id", "verdict", "statement", "source", "evidence")


class SiteInputError(ValueError):
    """A run that cannot be shown (a usage error: exit status 2, one line)."""


@dataclass
class RunData:
    """A verification run as pages show it: the report's metadata (run ID, seed, arithmetics,
    …) and each claim's result as the report stores it; ``origin`` says where it was read."""

    meta: dict[str, Any]
    claims: list[dict[str, Any]]
    origin: str
    complete: bool = True

    def counts(self) -> dict[str, int]:
        """Claims per verdict, in order of first appearance (the report's "summary")."""
        return dict(Counter(c["verdict"] for c in self.claims))

    def not_run(self) -> dict[str, str]:
        """The requested arithmetics that ran no check, each with why
        (:meth:`recmem.checks.report.Report.not_run` on this run's claims)."""
        from recmem.checks.report import ClaimResult, Report

        return Report(self.meta, [ClaimResult.from_dict(c) for c in self.claims]).not_run()

    def papers(self) -> list[str]:
        """The keys of the papers the run has claims of, in order of first appearance."""
        return list(dict.fromkeys(paper_of(c["id"]) for c in self.claims))

    def only(self, paper: str | None) -> RunData:
        """The run restricted to ``paper``'s claims (all of them for None);
        :class:`SiteInputError` when it has none."""
        if paper is None:
            return self
        mine = [c for c in self.claims if paper_of(c["id"]) == paper]
        if not mine:
            raise SiteInputError(f"{self.origin} has no claim of paper {paper} (its papers: "
                                 f"{', '.join(self.papers()) or 'none'})")
        return RunData(self.meta, mine, self.origin, self.complete)


def paper_of(claim_id: str) -> str:
    """The paper key of a claim ID (``O.det`` → ``O``)."""
    return claim_id.split(".", 1)[0]


def _checked_claims(claims: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(claims, list):
        raise SiteInputError(f"{where}: \"claims\" is not a list")
    verdicts = {str(v) for v in Verdict}
    for n, c in enumerate(claims):
        if not isinstance(c, dict) or any(k not in c for k in _CLAIM_FIELDS):
            raise SiteInputError(f"{where}: claim {n + 1} lacks one of "
                                 f"{', '.join(_CLAIM_FIELDS)}")
        if c["verdict"] not in verdicts or not isinstance(c["id"], str):
            raise SiteInputError(f"{where}: claim {n + 1} has no valid ID and verdict")
        if not isinstance(c["evidence"], list) or not isinstance(c["source"], dict):
            raise SiteInputError(f"{where}: claim {c['id']} has malformed evidence or source")
    return claims


def from_report(path: str | os.PathLike[str]) -> RunData:
    """A JSON report of ``recmem verify --json`` (read as data: JSON only);
    :class:`SiteInputError` when it cannot be read or is not such a report."""
    where = f"--json {os.fspath(path)}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise SiteInputError(f"{where}: is a folder; give a report file") from None
    except FileNotFoundError:
        raise SiteInputError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SiteInputError(f"{where}: cannot be read ({getattr(exc, 'strerror', None) or exc})"
                             ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SiteInputError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict) or not str(data.get("schema", "")).startswith(
            REPORT_SCHEMA_PREFIX):
        raise SiteInputError(f"{where}: not a recmem report (no \"schema\": "
                             f"\"{REPORT_SCHEMA_PREFIX}…\")")
    claims = _checked_claims(data.get("claims"), where)
    meta = {k: v for k, v in data.items() if k not in ("claims", "summary", "complete")}
    return RunData(meta, claims, f"report {os.fspath(path)}", bool(data.get("complete")))


def from_store(run_id: str | None = None, paper: str | None = None) -> RunData:
    """A stored run: ``run_id``'s claims, or those of the latest stored run (the latest run with
    a claim of ``paper``, when given); :class:`SiteInputError` when there is none."""
    from recmem.checks import store

    if run_id is None:
        run_id = store.latest_run_id("" if paper is None else paper + ".")
        if run_id is None:
            which = "" if paper is None else f" of paper {paper}"
            raise SiteInputError(f"no run{which} stored in {store.home()}: run `recmem verify` "
                                 "first, or give --json REPORT")
    rows = store.run(run_id)
    if not rows:
        raise SiteInputError(f"--run {run_id}: no such run stored in {store.home()} "
                             "(`recmem show --history CLAIM_ID` lists stored runs)")
    claims = _checked_claims([r.result for r in rows], f"stored run {run_id}")
    meta = dict(rows[0].run)
    meta["finished"] = rows[-1].stored_at
    return RunData(meta, claims, f"stored run {run_id}")


def from_results(meta: dict[str, Any], results: Sequence[Any], complete: bool) -> RunData:
    """A report object in memory (:class:`recmem.checks.report.Report`'s ``meta`` and claim
    results), as its JSON would read."""
    return RunData(dict(meta), [r.to_dict() for r in results], f"run {meta.get('run_id', '')}",
                   complete)
