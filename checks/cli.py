"""The ``recmem`` command line. Every command is also a Python call in :mod:`recmem.checks`.

Exit status: 0 when every selected claim is VERIFIED or CORROBORATED, 1 otherwise, 2 for bad usage
(one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from recmem.checks.claim import PAPERS

EXIT_OK, EXIT_NOT_OK, EXIT_USAGE = 0, 1, 2

VERDICT_STYLE = {"VERIFIED": "bold green", "CORROBORATED": "green", "REFUTED": "bold red",
                 "INCONCLUSIVE": "yellow", "FAILED": "red", "ERROR": "magenta",
                 "SKIPPED": "dim"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"recmem: error: {message} (see `recmem --help`)\n")
        raise SystemExit(EXIT_USAGE)


def _usage(message: str) -> int:
    sys.stderr.write(f"recmem: error: {message}\n")
    return EXIT_USAGE


def _param_pairs(items: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"--param expects NAME=VALUE, got {item!r}")
        out[name.strip()] = value.strip()
    return out


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="recmem", description="Verify the claims of papers on memory in recurrent "
                "networks: symbolically, at any precision, and by fuzzing.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="list the registered claims")
    ls.add_argument("--paper", choices=sorted(PAPERS), help="only this paper's claims")
    ls.add_argument("--json", metavar="PATH", help="also write the list as JSON")

    sh = sub.add_parser("show", help="a claim's statement, source, parameters and last evidence")
    sh.add_argument("claim_id", metavar="CLAIM_ID")

    v = sub.add_parser("verify", help="run the checks and print a table of verdicts")
    v.add_argument("claim_ids", nargs="*", metavar="CLAIM_ID")
    v.add_argument("--paper", choices=sorted(PAPERS))
    v.add_argument("--backend", action="append", metavar="SPEC", default=None,
                   help="sympy, mpmath@BITS, flint@BITS, numpy[:float32], torch[:cpu|:cuda]; "
                        "repeat for several (default: all)")
    v.add_argument("--precision", type=int, default=256, metavar="BITS",
                   help="working precision of mpmath/flint backends given without @BITS "
                        "(default 256)")
    v.add_argument("--seed", type=int, default=0, help="seed of every random draw (default 0)")
    v.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="override a claim parameter (see `recmem show CLAIM_ID`)")
    v.add_argument("--examples", type=int, default=60, metavar="N",
                   help="examples for each counterexample search (default 60)")
    v.add_argument("--no-controls", action="store_true",
                   help="skip the negative controls (nearby false statements that every claim's "
                        "checks must refute); verdicts then rest on the checks alone")
    v.add_argument("--json", metavar="PATH", help="write the JSON report here")
    v.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    v.add_argument("--quiet", action="store_true", help="no progress display")

    f = sub.add_parser("fuzz", help="search a claim's domain for a shrunk, certified counterexample")
    f.add_argument("claim_id", metavar="CLAIM_ID")
    f.add_argument("--examples", type=int, default=500, metavar="N")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    f.add_argument("--json", metavar="PATH")

    from recmem.checks import memory_cli  # light at import: numpy/scipy load inside the command

    memory_cli.add_parser(sub)
    return p


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def cmd_list(args: argparse.Namespace) -> int:
    from rich.table import Table

    from recmem.checks.registry import all_claims

    claims = [c for c in all_claims().values() if args.paper in (None, c.paper)]
    table = Table(title=f"{len(claims)} claims", show_lines=False)
    for col in ("ID", "source", "title", "uses"):
        table.add_column(col)
    for c in claims:
        table.add_row(c.id, c.provenance.short(), c.title, ", ".join(c.uses))
    _console().print(table)
    if args.json:
        from pathlib import Path

        from recmem.checks.report import write_atomic

        rows = [{"id": c.id, "paper": c.paper, "title": c.title, "statement": c.text,
                 "controls": [{"change": k.change, "statement": k.statement.text}
                              for k in c.controls],
                 "source": c.provenance.to_dict(), "uses": list(c.uses), "corrects": c.corrects,
                 "params": {p.name: str(p.default) for p in c.params}} for c in claims]
        write_atomic(Path(args.json), json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from recmem.checks import store
    from recmem.checks.claim import CONVENTIONS
    from recmem.checks.registry import UnknownClaim, get

    try:
        c = get(args.claim_id)
    except UnknownClaim as exc:
        return _usage(exc.args[0])
    con = _console()
    src = c.provenance.to_dict()
    con.print(f"[bold]{c.id}[/]: {escape(c.title)}")
    con.print(f"statement: {escape(c.text)}")
    con.print(f"source: {escape(src['paper'])}, {src['version']}, {escape(src['location'])}")
    con.print(f"page text: “{escape(src['quote'])}”")
    if c.reading:
        con.print(f"reading: {escape(c.reading)}")
    if c.corrects:
        con.print(f"corrects: {c.corrects}")
    if c.uses:
        con.print(f"uses: {', '.join(c.uses)}")
    con.print(f"tolerance policy: {escape(c.tolerance)}")
    if c.params:
        con.print("parameters (--param NAME=VALUE):")
        for p in c.params:
            con.print(f"  {p.name} = {p.default}   {escape(p.help)}")
    if c.notes:
        con.print(f"notes: {escape(c.notes)}")
    con.print("negative controls (nearby false statements; the checks must refute each, or the "
              "claim cannot pass):")
    for k in c.controls:
        con.print(f"  - {escape(k.change)}: {escape(k.statement.text)}")
    con.print("conventions: " + escape("; ".join(CONVENTIONS)))
    last = store.load().get(c.id)
    if not last:
        con.print("last run: none (run `recmem verify " + c.id + "`)")
        return EXIT_OK
    r = last["result"]
    con.print(f"last run: {last['run'].get('started')} seed {last['run'].get('seed')}: "
              f"[{VERDICT_STYLE.get(r['verdict'], '')}]{r['verdict']}[/]")
    if r.get("reason"):
        con.print(f"why: {escape(r['reason'])}")
    if "counterexample" in r:
        con.print("counterexample: " + escape(json.dumps(r["counterexample"], ensure_ascii=False)))
    if r.get("controls") is not None:
        for k in r["controls"]:
            con.print(f"  control “{escape(k['change'])}”: {k['verdict']}")
    for e in r["evidence"]:
        parts = [f"{e['check']} [{e['backend']}] {e['outcome']}"]
        for key in ("residual", "tolerance", "condition_number", "scope", "certified_by",
                    "message"):
            if key in e:
                parts.append(f"{key}={e[key]}")
        con.print("  - " + escape("; ".join(parts)))
    return EXIT_OK


def _verdict_table(report: Any) -> Any:
    from rich.table import Table

    t = Table(title="recmem verify", show_lines=False)
    for col in ("claim", "verdict", "source", "arithmetics", "controls", "s"):
        t.add_column(col, justify="right" if col in ("s", "controls") else "left")
    for c in report.claims:
        style = VERDICT_STYLE.get(str(c.verdict), "")
        t.add_row(c.id, f"[{style}]{c.verdict}[/]", c.source["location"],
                  " ".join(_short(a) for a in c.arithmetics()), c.controls_summary(),
                  f"{c.seconds:.1f}")
    return t


def _short(backend: str) -> str:
    """A compact backend name for the verdict table."""
    return "search" if backend.startswith("exact (Hypothesis") else backend


def cmd_verify(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from recmem.checks import registry, store
    from recmem.checks.runner import UsageError, verify

    try:
        params = _param_pairs(args.param)
        n_claims = len(registry.select(args.claim_ids or None, args.paper))
    except (ValueError, registry.UnknownClaim) as exc:
        return _usage(exc.args[0] if isinstance(exc, KeyError) else str(exc))
    if args.examples < 1:
        return _usage(f"--examples must be at least 1, got {args.examples}")
    err = _console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn(
        "{task.completed}/{task.total}"), TimeElapsedColumn(), console=err, transient=True,
        disable=args.quiet or not err.is_terminal)
    task = progress.add_task("verifying", total=n_claims)

    def started(claim: Any) -> None:
        progress.update(task, description=f"verifying {claim.id}")

    def done(result: Any, report: Any) -> None:
        progress.advance(task)
        store.save(result, report.meta)
        if args.json:  # keep a partial report on disk: an interrupted run loses one claim at most
            report.write_json(args.json)
        if not err.is_terminal and not args.quiet:
            err.print(f"{result.id}: {result.verdict} ({result.seconds:.1f} s)")

    try:
        with progress:
            report = verify(args.claim_ids or None, paper=args.paper, backends=args.backend,
                            precision=args.precision, seed=args.seed, params=params,
                            search_examples=args.examples, controls=not args.no_controls,
                            on_claim_start=started,
                            on_claim_done=done)
    except UsageError as exc:
        return _usage(str(exc))
    con = _console()
    con.print(_verdict_table(report))
    con.print("summary: " + ", ".join(f"{n} {v}" for v, n in report.counts().items()))
    for c in report.claims:
        if str(c.verdict) == "INCONCLUSIVE" and c.reason:
            from rich.markup import escape

            con.print(f"[yellow]{c.id}[/] inconclusive: " + escape(c.reason))
        elif str(c.verdict) == "INCONCLUSIVE":
            from rich.markup import escape

            open_checks = [e for e in c.evidence if str(e.outcome) == "inconclusive"]
            need = [e.needed_bits for e in open_checks if e.needed_bits and e.needed_bits > 0
                    and e.kind != "statistical"]
            why = (f"about {max(need)} bits would resolve it (try --backend mpmath@{max(need)})"
                   if need else "; ".join(dict.fromkeys(
                       f"{e.check}: {e.message}"[:300] for e in open_checks))[:700])
            con.print(f"[yellow]{c.id}[/] inconclusive: " + escape(why))
        if c.counterexample:
            from rich.markup import escape

            con.print(f"[red]{c.id}[/] counterexample: " + escape(json.dumps(
                {k: v for k, v in c.counterexample.items()}, default=str, ensure_ascii=False)))
    if args.json:
        report.write_json(args.json)
    if args.markdown:
        from pathlib import Path

        from recmem.checks.report import write_atomic

        write_atomic(Path(args.markdown), report.to_markdown())
    return EXIT_OK if report.ok else EXIT_NOT_OK


def cmd_fuzz(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from recmem.checks import fuzz
    from recmem.checks.registry import UnknownClaim
    from recmem.checks.runner import UsageError

    if args.examples < 1:
        return _usage(f"--examples must be at least 1, got {args.examples}")
    try:
        ev = fuzz(args.claim_id, examples=args.examples, seed=args.seed,
                  params=_param_pairs(args.param))
    except UnknownClaim as exc:
        return _usage(exc.args[0])
    except (UsageError, ValueError) as exc:
        return _usage(str(exc))
    con = _console()
    con.print(f"{args.claim_id}: {ev.outcome} after {ev.instances} examples "
              f"({ev.seconds:.1f} s): {escape(ev.message)}")
    if ev.counterexample:
        con.print("counterexample: " + escape(json.dumps(ev.counterexample, default=str,
                                                          ensure_ascii=False)))
        con.print(f"certified by: {escape(ev.certified_by or '')}")
    if args.json:
        from pathlib import Path

        from recmem.checks.report import _jsonable, write_atomic

        write_atomic(Path(args.json), json.dumps(_jsonable(ev.to_dict()), indent=2,
                                                 ensure_ascii=False) + "\n")
    return EXIT_NOT_OK if ev.counterexample else EXIT_OK


def cmd_memory(args: argparse.Namespace) -> int:
    from recmem.checks.memory_cli import MemoryUsageError, run

    try:
        return run(args)
    except MemoryUsageError as exc:
        return _usage(str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recmem`` console script."""
    args = build_parser().parse_args(argv)
    handler = {"list": cmd_list, "show": cmd_show, "verify": cmd_verify, "fuzz": cmd_fuzz,
               "memory": cmd_memory}
    try:
        return handler[args.command](args)
    except KeyboardInterrupt:
        sys.stderr.write("recmem: interrupted; finished claims are kept (see --json and "
                         "`recmem show`)\n")
        return 130
