"""``recmem report --html DIR``: the static site of a verification run (issue 23;
:mod:`recmem.checks.html.site`).

The run is the latest one stored by ``recmem verify`` (of ``--paper``, when given), a stored run
named by ``--run``, or a JSON report (``--json``). Condition sweeps (``recmem condition --out``)
and reproductions (``recmem reproduce --out``) given with ``--include`` get pages too. Everything
is checked before anything is written: an unknown run, an unreadable report or include, or an
output folder that is not empty (without ``--force``) is one line on stderr and exit status 2,
and nothing is written. The site is built beside the folder and moved into place whole.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from recmem.checks import plugins


class ReportUsageError(ValueError):
    """Bad input to ``recmem report``: one line on stderr, exit status 2."""


def add_parser(sub: Any) -> None:
    """Register ``recmem report`` on the subparsers ``sub`` of the ``recmem`` parser."""
    p = sub.add_parser(
        "report", help="write a static HTML site of a verification run (a blueprint per paper)",
        description="Write a static site (open DIR/index.html in a browser; no server, nothing "
                    "fetched) of a verification run: per paper, every claim with its verdict, a "
                    "dependency graph beside the coverage ledger, and a page per claim with its "
                    "statement, evidence, negative controls, counterexamples as Python and "
                    "stored history. Default: the latest run `recmem verify` stored in "
                    "$RECMEM_HOME.")
    p.add_argument("--html", metavar="DIR", required=True,
                   help="the site's folder (created; an existing non-empty one needs --force, "
                        "and only a folder recmem wrote is replaced)")
    p.add_argument("--paper", choices=plugins.paper_keys(),
                   help="only this paper's claims (and, without --run/--json, the latest run "
                        "that checked it)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--run", metavar="RUN_ID",
                     help="a stored run by its ID (`recmem show --history CLAIM_ID` lists them)")
    src.add_argument("--json", metavar="REPORT",
                     help="a JSON report written by `recmem verify --json`")
    p.add_argument("--include", action="append", default=[], metavar="DIR",
                   help="a condition sweep folder (`recmem condition --out`) or a reproduction "
                        "folder (`recmem reproduce --out`) to add pages for; repeatable")
    p.add_argument("--force", action="store_true",
                   help="replace an existing site in --html DIR")


def prepare(args: argparse.Namespace) -> tuple[Any, list[Any], Any]:
    """Everything the site needs, read and checked before anything is written: the run (from the
    store or --json), the included folders and the output folder; :class:`ReportUsageError`
    with one line otherwise."""
    from recmem.checks.html.included import IncludeError, check_includes
    from recmem.checks.html.site import check_output
    from recmem.checks.html.sources import SiteInputError, from_report, from_store
    from recmem.checks.outputs import OutputPathError

    inputs = [("--include", d) for d in args.include]
    if args.json:
        inputs.append(("--json", args.json))
    try:
        out = check_output(args.html, force=args.force, inputs=inputs)
        run = from_report(args.json) if args.json else from_store(args.run, args.paper)
        run = run.only(args.paper)
        included = check_includes([Path(d) for d in args.include])
    except (SiteInputError, IncludeError, OutputPathError) as exc:
        raise ReportUsageError(str(exc)) from None
    return run, included, out


def _included(n: int) -> str:
    return f", {n} included folder{'' if n == 1 else 's'}" if n else ""


def run(args: argparse.Namespace) -> int:
    """``recmem report``: exit status 0 when the site is written (2 is raised as
    :class:`ReportUsageError` by :func:`prepare`)."""
    from recmem.checks.html.site import build_site

    data, included, out = prepare(args)
    summary = build_site(data, out, included=included)
    sys.stdout.write(f"wrote {summary.pages} pages ({summary.claims} claims of paper"
                     f"{'s' if len(summary.papers) != 1 else ''} {', '.join(summary.papers)}"
                     f"{_included(summary.included)}) "
                     f"to {os.fspath(out)} in {summary.seconds:.1f} s; open "
                     f"{os.fspath(out / 'index.html')}\n")
    return 0
