"""``recmem coverage``: each paper's coverage ledger with the latest verdict of every claim it names.

Exit status 0 when no item of the selected papers is uncovered, 1 while any is (or a paper has no
ledger), 2 for bad usage or a malformed ledger (one line). The ledger format and the rules are in
``checks/coverage.py`` and docs/ADDING_CLAIMS.md ("The coverage ledger").
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from recmem.checks import plugins
from recmem.checks.argtypes import output_path

STATUS_STYLE = {"checked": "green", "definition": "cyan", "not-checkable": "yellow",
                "uncovered": "bold red"}


class CoverageUsageError(ValueError):
    """Bad usage or an unreadable ledger: the CLI prints the message on one line, exit status 2."""


def add_parser(sub: Any) -> None:
    """Register ``recmem coverage`` on the subparsers ``sub`` of the ``recmem`` parser."""
    p = sub.add_parser(
        "coverage", help="every numbered item of a paper: the claims that check it, or why none",
        description="Print each paper's coverage ledger: every numbered equation, statement, "
                    "appendix section, figure and table, with the claims that check it and "
                    "their latest verdicts (`recmem verify` stores them), or the reason it is "
                    "not checked; then the counts. Items the paper's text numbers but the ledger "
                    "lacks count as uncovered when the text can be read here (folder "
                    "$RECMEM_PAPERS). Exit status 1 while anything is uncovered.")
    p.add_argument("--paper", choices=plugins.paper_keys(), help="only this paper (default: all)")
    p.add_argument("--json", metavar="PATH", type=output_path("--json"),
                   help="also write the coverage as JSON")


def compute(papers: list[str]) -> list[Any]:
    """The coverage of each of ``papers`` with the stored verdicts; :class:`CoverageUsageError`
    for a malformed ledger."""
    from recmem.checks.coverage import LedgerError, coverage, latest_verdicts

    verdicts = latest_verdicts()
    try:
        return [coverage(p, verdicts=verdicts) for p in papers]
    except LedgerError as exc:
        raise CoverageUsageError(str(exc)) from None


def _claims_cell(row: Any) -> str:
    from rich.markup import escape

    from recmem.checks.cli import VERDICT_STYLE

    cells = []
    for c in row.claims:
        if not c.registered:
            cells.append(f"{escape(c.id)} [bold red]unknown[/]")
        elif c.verdict is None:
            cells.append(f"{escape(c.id)} [dim]not run[/]")
        else:
            cells.append(f"{escape(c.id)} [{VERDICT_STYLE.get(c.verdict, '')}]{c.verdict}[/]")
    prefix = "used by " if row.status == "definition" and row.claims else ""
    return prefix + "\n".join(cells)


def table(cov: Any) -> Any:
    """The rich table of one paper's coverage (rows the ledger lacks say so in their reason)."""
    from rich.markup import escape
    from rich.table import Table

    title = f"paper {cov.paper}: coverage" + ("" if cov.text_read else
                                             " (paper text not read: ledger only)")
    t = Table(title=title)
    t.add_column("item · where", overflow="fold", max_width=16)
    t.add_column("status", no_wrap=True)
    # one column for the claims (with their verdicts) and the reason, so that the table fits a
    # terminal of 80 columns; claim IDs are never cut (as in `recmem list`): the column is as
    # wide as the longest, and a verdict that does not fit goes to the next line
    t.add_column("claims (latest verdict) · reason", overflow="fold",
                 min_width=max((len(c.id) for r in cov.rows for c in r.claims), default=6))
    for r in cov.rows:
        cell = "\n".join(part for part in (_claims_cell(r), escape(r.reason)) if part)
        t.add_row(f"{escape(r.ref)}\n[dim]{escape(r.where)}[/]",
                  f"[{STATUS_STYLE[r.status]}]{r.status}[/]", cell)
    return t


def run(args: argparse.Namespace) -> int:
    """``recmem coverage``: print the tables and counts, write ``--json``; the exit status (module
    docstring). :class:`CoverageUsageError` for bad usage or a malformed ledger, before any
    output."""
    from rich.console import Console
    from rich.markup import escape

    from recmem.checks.outputs import Kept, OutputPathError, refuse_clashes, write_atomic

    result = compute([args.paper] if args.paper else plugins.paper_keys())  # reads; writes nothing
    kept = [Kept(f"the coverage ledger of paper {c.paper}", Path(c.ledger.source))
            for c in result if c.ledger is not None]
    kept += [Kept(f"the text of paper {c.paper}", Path(c.text_read))
             for c in result if c.text_read is not None]
    try:
        refuse_clashes([("--json", args.json)], kept)
    except OutputPathError as exc:
        raise CoverageUsageError(str(exc)) from None
    con = Console(highlight=False)
    for cov in result:
        if cov.ledger is None:
            con.print(f"paper {cov.paper}: no coverage ledger (add "
                      f"checks/claims/paper_{cov.paper.lower()}/ledger.toml: docs/ADDING_CLAIMS.md)")
            continue
        con.print(table(cov))
        con.print(escape(cov.summary()))
        if missing := [r.ref for r in cov.rows if not r.in_ledger]:
            con.print(escape(f"paper {cov.paper}: numbered in the text, missing from the ledger: "
                             + ", ".join(missing)))
        if cov.not_in_text:
            con.print(escape(f"paper {cov.paper}: in the ledger but not numbered in the text: "
                             + ", ".join(cov.not_in_text)))
    ok = all(c.ok for c in result)
    if args.json:
        data = {"ok": ok, "papers": [c.to_dict() for c in result]}
        write_atomic(args.json, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0 if ok else 1


def summary_lines(papers: list[str]) -> list[str]:
    """One line per paper with its coverage counts, for ``recmem list`` (a ledger that cannot be
    read says so in its line: the listing goes on)."""
    from recmem.checks.coverage import LedgerError, coverage

    lines = []
    for p in papers:
        try:
            lines.append(coverage(p).summary())
        except LedgerError as exc:
            lines.append(f"paper {p}: coverage ledger unreadable ({exc}); `recmem coverage` says "
                         "more")
    return lines


__all__ = ["CoverageUsageError", "add_parser", "compute", "run", "summary_lines", "table"]
