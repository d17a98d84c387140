"""The ``recmem`` command line. Every command is also a Python call in :mod:`recmem.checks`.

Exit status: 0 when every selected claim is VERIFIED or CORROBORATED, 1 otherwise, 2 for bad usage
(one line on stderr, no traceback, before any work), 130 when interrupted (Ctrl-C, or SIGTERM
from ``kill``, ``timeout`` or a batch scheduler: the same partial results and exports).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from recmem.checks import plugins
from recmem.checks.argtypes import MAX_EXAMPLES, brief, finite, int_between, output_path, seed
from recmem.checks.terminal import NARROW_COLUMNS

EXIT_OK, EXIT_NOT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

VERDICT_STYLE = {"VERIFIED": "bold green", "CORROBORATED": "green", "REFUTED": "bold red",
                 "INCONCLUSIVE": "yellow", "FAILED": "red", "ERROR": "magenta",
                 "SKIPPED": "dim"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"recmem: error: {message} (see `recmem --help`)\n")
        raise SystemExit(EXIT_USAGE)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("recmem")
    except PackageNotFoundError:  # pragma: no cover (running from a bare checkout)
        return "unknown"


def _usage(message: str) -> int:
    sys.stderr.write(f"recmem: error: {message}\n")
    return EXIT_USAGE


def _clash(outputs: list[tuple[str, Any]]) -> int | None:
    """Exit status 2 (said in one line) when an output is recmem's state or another output
    (``recmem.checks.outputs.refuse_clashes``); None when they are fine."""
    from recmem.checks.outputs import OutputPathError, refuse_clashes

    try:
        refuse_clashes(outputs)
    except OutputPathError as exc:
        return _usage(str(exc))
    return None


def _bits(text: str) -> int:
    from recmem.numerics.backend import MAX_BITS, MIN_BITS

    return int_between(MIN_BITS, MAX_BITS, "a number of bits")(text)


# a local worker process holds recmem, numpy, torch and SymPy (~400 MB): at most this many per CPU
JOBS_PER_CPU, WORKER_BYTES = 4, 400 * 10**6


def _jobs(text: str) -> int:
    from recmem.checks.execution import available_cpus, parse_jobs
    from recmem.checks.limits import human_bytes

    try:
        jobs = parse_jobs(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    most = JOBS_PER_CPU * max(1, available_cpus())
    if jobs > most:
        raise argparse.ArgumentTypeError(
            f"{brief(jobs)} worker processes would need {human_bytes(jobs * WORKER_BYTES)} "
            f"(~{WORKER_BYTES // 10**6} MB each); at most {most} ({JOBS_PER_CPU} per CPU here)")
    return jobs


#: ``--timeout`` of verify and fuzz: a positive, finite number of seconds
claim_timeout = finite("seconds", lambda x: x > 0, "a positive number of seconds")


def _param_pairs(items: Sequence[str]) -> dict[str, str]:
    """``--param NAME=VALUE`` items as a dict; UsageError for a malformed item or a NAME given
    twice with different values."""
    from recmem.checks.runner import UsageError

    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UsageError(f"--param expects NAME=VALUE, got {brief(item)}")
        if out.get(name, value) != value:
            raise UsageError(f"--param {name} is given twice ({brief(out[name])} and "
                             f"{brief(value)})")
        out[name] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    from recmem.checks.execution import CLUSTER_TRUST

    p = _Parser(prog="recmem", description="Verify the claims of papers on memory in recurrent "
                "networks: symbolically, at any precision, and by fuzzing.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="list the registered claims (or, with --papers, the papers)")
    ls.add_argument("--paper", choices=plugins.paper_keys(), help="only this paper's claims")
    ls.add_argument("--papers", action="store_true",
                    help="list the installed papers instead: each paper plugin (entry points "
                         "'recmem.papers'), where it was found, its claims and experiments, and "
                         "any plugin left out with the reason")
    ls.add_argument("--json", metavar="PATH", type=output_path("--json"),
                    help="also write the list as JSON")

    sh = sub.add_parser("show", help="a claim's statement, source, parameters and last evidence")
    sh.add_argument("claim_id", metavar="CLAIM_ID", help="a registered claim (`recmem list`)")
    sh.add_argument("--history", action="store_true",
                    help="list every stored run of the claim (newest first) instead of the "
                         "latest evidence")

    v = sub.add_parser("verify", help="run the checks and print a table of verdicts")
    v.add_argument("claim_ids", nargs="*", metavar="CLAIM_ID",
                   help="claims to verify (default: every claim, or every claim of --paper); a "
                        "claim named twice runs once")
    v.add_argument("--paper", choices=plugins.paper_keys(), help="only this paper's claims")
    v.add_argument("--backend", action="append", metavar="SPEC", default=None,
                   help="sympy, mpmath@BITS, flint@BITS, numpy[:float32], torch[:cpu|:cuda]; "
                        "repeat for several (default: all)")
    v.add_argument("--precision", type=_bits, default=256, metavar="BITS",
                   help="working precision of mpmath/flint backends given without @BITS, "
                        "2 to 65536 bits (default 256)")
    v.add_argument("--seed", type=seed, default=0,
                   help="seed of every random draw, 0 … 2^32 − 1 (default 0)")
    v.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="override a claim parameter (see `recmem show CLAIM_ID`)")
    v.add_argument("--examples", type=int_between(1, MAX_EXAMPLES), default=60, metavar="N",
                   help=f"examples for each counterexample search, 1 … {MAX_EXAMPLES} (default 60)")
    v.add_argument("--no-controls", action="store_true",
                   help="skip the negative controls (nearby false statements that every claim's "
                        "checks must refute); verdicts then rest on the checks alone")
    v.add_argument("--json", metavar="PATH", type=output_path("--json"),
                   help="write the JSON report here (rewritten after every claim, so an "
                        "interrupted run leaves a valid report with \"complete\": false)")
    v.add_argument("--markdown", metavar="PATH", type=output_path("--markdown"),
                   help="write a Markdown report here")
    v.add_argument("--html", metavar="DIR", default=None,
                   help="also write the run's static site here, as `recmem report --html DIR` "
                        "would from the stored run (an existing non-empty folder needs --force)")
    v.add_argument("--force", action="store_true",
                   help="with --html: replace an existing site in DIR")
    v.add_argument("--quiet", action="store_true", help="no progress display")
    v.add_argument("--timeout", type=claim_timeout, default=None, metavar="SECONDS",
                   help="time limit per claim: a claim still running after SECONDS is "
                        "INCONCLUSIVE (\"timed out\") and the run goes on; each claim then "
                        "runs in a worker process, which can be stopped (default: none)")
    where = v.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                       help="run N claims at once on local processes, or 'auto' (one per CPU); "
                            "the report is a serial run's apart from timings (default 1: one "
                            "claim after the other, in this process)")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="run the claims on the workers of a dask cluster, given its "
                            "scheduler's address (tcp://HOST:PORT or tls://HOST:PORT; start it "
                            "with `dask scheduler`, workers with `dask worker ADDRESS "
                            "--nthreads 1`). " + CLUSTER_TRUST)

    from recmem.checks import fuzz_cli

    fuzz_cli.add_parser(sub, _jobs)

    from recmem.checks import condition_cli, memory_cli

    memory_cli.add_parser(sub)
    condition_cli.add_parser(sub)

    from recmem.checks import coverage_cli

    coverage_cli.add_parser(sub)

    from recmem.checks.reproduce import cli as reproduce_cli

    reproduce_cli.add_parser(sub)

    from recmem.checks import report_cli

    report_cli.add_parser(sub)
    return p


def _console() -> Any:
    """A rich Console on standard output, no highlighting (claim IDs and formulas keep their
    text)."""
    from rich.console import Console

    return Console(highlight=False)


def _list_papers(args: argparse.Namespace) -> int:
    """``recmem list --papers``: the installed paper plugins and those left out."""
    from rich.markup import escape
    from rich.table import Table

    from recmem.checks import reproduce
    from recmem.checks.registry import all_claims

    experiments = reproduce.all_experiments()  # imports the declared modules
    rows: list[dict[str, Any]] = []
    for p in plugins.usable().values():
        if args.paper in (None, p.key):
            declared = (getattr(sys.modules.get(m), "EXPERIMENT", None) for m in p.experiments)
            exps = [e.name for e in declared if e is not None and e.name in experiments]
            rows.append({"key": p.key, "citation": p.citation, "source": p.source,
                         "origin": p.origin, "ledger": p.ledger,
                         "claims": sum(c.paper == p.key for c in all_claims().values()),
                         "experiments": exps})
    left_out = [{"plugin": q.plugin, "origin": q.origin, "why": q.why, "whole": q.whole}
                for q in (*plugins.problems(), *reproduce.problems())]
    table = Table(title=f"{len(rows)} papers installed")
    table.add_column("paper", no_wrap=True)
    table.add_column("claims", justify="right")
    table.add_column("experiments", justify="right")
    table.add_column("citation / found in", overflow="fold")
    for r in rows:
        table.add_row(r["key"], str(r["claims"]), str(len(r["experiments"])),
                      escape(r["citation"]) + f"\n[dim]{escape(r['origin'])}[/]")
    con = _console()
    con.print(table)
    for q in left_out:
        part = "left out" if q["whole"] else "part left out"
        con.print(escape(f"{part}: {q['plugin']} ({q['origin']}): {q['why']}"))
    if args.json:
        from recmem.checks.outputs import write_atomic

        write_atomic(args.json, json.dumps({"papers": rows, "left_out": left_out}, indent=2) + "\n")
    return EXIT_OK


def _warn_plugin_problems(command: str) -> None:
    """One line on stderr per paper plugin left out (once per command that reads claims or
    experiments); the other papers work as usual."""
    if command in ("memory", "condition"):
        return
    found = list(plugins.problems())
    if command == "reproduce":
        from recmem.checks import reproduce

        found += reproduce.problems()
    for q in found:
        sys.stderr.write(f"recmem: warning: {q.line()}\n")


def cmd_list(args: argparse.Namespace) -> int:
    from rich.markup import escape
    from rich.table import Table

    from recmem.checks.registry import all_claims
    from recmem.checks.terminal import add_id_column

    if (clash := _clash([("--json", args.json)])) is not None:
        return clash
    if args.papers:
        return _list_papers(args)
    claims = [c for c in all_claims().values() if args.paper in (None, c.paper)]
    con = _console()
    with_source = con.width >= NARROW_COLUMNS  # narrower: `recmem show` prints the source
    table = Table(title=f"{len(claims)} claims", show_lines=False,
                  caption=None if with_source else "source: `recmem show CLAIM_ID`")
    add_id_column(table, "ID", [c.id for c in claims])
    if with_source:
        table.add_column("source", overflow="fold")
    # the claims a claim uses go under its title, one line wrapped at ", ": the column is as
    # wide as the longest used ID, so those IDs stay whole too
    table.add_column("title / uses", overflow="fold",
                     min_width=max((len(u) for c in claims for u in c.uses), default=5))
    for c in claims:
        about = escape(c.title) + (f"\n[dim]uses {', '.join(c.uses)}[/]" if c.uses else "")
        table.add_row(c.id, *([escape(c.provenance.short())] if with_source else []), about)
    con.print(table)
    from recmem.checks.coverage_cli import summary_lines

    for line in summary_lines([args.paper] if args.paper else plugins.paper_keys()):  # `recmem coverage`
        con.print(escape(line))
    if args.json:
        from recmem.checks.outputs import write_atomic

        rows = [{"id": c.id, "paper": c.paper, "title": c.title, "statement": c.text,
                 "controls": [{"change": k.change, "statement": k.statement.text}
                              for k in c.controls],
                 "source": c.provenance.to_dict(), "uses": list(c.uses), "corrects": c.corrects,
                 "params": {p.name: str(p.default) for p in c.params}} for c in claims]
        write_atomic(args.json, json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
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
    if args.history:
        return _show_history(con, c.id)
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
            limit = "" if p.max is None else f" (at most {p.max})"
            con.print(f"  {p.name} = {p.default}   {escape(p.help)}{limit}")
    if c.notes:
        con.print(f"notes: {escape(c.notes)}")
    con.print("negative controls (nearby false statements; the checks must refute each, or the "
              "claim cannot pass):")
    for k in c.controls:
        con.print(f"  - {escape(k.change)}: {escape(k.statement.text)}")
    con.print("conventions: " + escape("; ".join(CONVENTIONS)))
    last = store.latest(c.id)
    if last is None:
        con.print("last run: none (run `recmem verify " + c.id + "`)")
        return EXIT_OK
    r = last.result
    con.print(f"last run: {last.run.get('started')} seed {last.run.get('seed')}: "
              f"[{VERDICT_STYLE.get(r['verdict'], '')}]{r['verdict']}[/]"
              + (f" ({n - 1} earlier, see --history)" if (n := len(store.history(c.id))) > 1
                 else ""))
    if r.get("reason"):
        con.print(f"why: {escape(r['reason'])}")
    if r["verdict"] == "INCONCLUSIVE":  # what would resolve it, by the stored evidence itself
        from recmem.checks.hints import resolution_hint
        from recmem.checks.report import ClaimResult

        hint = resolution_hint(ClaimResult.from_dict(r), c.decided_by, [p.name for p in c.params])
        con.print("to resolve: " + escape(hint))
    if "counterexample" in r:
        con.print("counterexample: " + escape(json.dumps(r["counterexample"], ensure_ascii=False)))
    if r.get("controls") is not None:
        for k in r["controls"]:
            con.print(f"  control “{escape(k['change'])}”: {k['verdict']}")
    for e in r["evidence"]:
        parts = [f"{e['check']} [{e['backend']}] {e['outcome']}"]
        for key in ("precision_bits", "needed_bits", "residual", "tolerance",
                    "condition_number", "scope", "certified_by", "message"):
            if key in e:  # needed_bits: the precision that would resolve the check
                parts.append(f"{key}={e[key]}")
        con.print("  - " + escape("; ".join(parts)))
    return EXIT_OK


def _show_history(con: Any, claim_id: str) -> int:
    from rich.markup import escape
    from rich.table import Table

    from recmem.checks import store
    from recmem.checks.report import arithmetics_of

    runs = store.history(claim_id)
    if not runs:
        con.print(f"no stored runs of {claim_id} (run `recmem verify {claim_id}`)")
        return EXIT_OK
    t = Table(title=f"{claim_id}: {len(runs)} stored run(s), newest first")
    for col in ("stored", "seed", "bits", "controls", "verdict", "arithmetics"):
        t.add_column(col, no_wrap=col != "arithmetics",
                     overflow="fold" if col == "arithmetics" else "ellipsis",
                     justify="right" if col in ("seed", "bits") else "left")
    for r in runs:
        # the arithmetics whose checks ran and resolved something, as in `recmem verify`'s
        # table (not the ones requested: a requested torch:cuda without CUDA ran nothing)
        ran = arithmetics_of((e.get("backend", ""), e.get("outcome", ""))
                             for e in r.result.get("evidence") or [])
        t.add_row(r.stored_at[:19].replace("T", " "), str(r.run.get("seed")),
                  str(r.run.get("precision")), "off" if r.run.get("controls") is False else "on",
                  f"[{VERDICT_STYLE.get(r.verdict, '')}]{r.verdict}[/]",
                  escape(" ".join(_short(a) for a in ran)))
    con.print(t)
    return EXIT_OK


def _verdict_table(report: Any, width: int) -> Any:
    from rich.markup import escape
    from rich.table import Table

    from recmem.checks.hints import shorten
    from recmem.checks.terminal import add_id_column

    not_run = report.not_run()
    t = Table(title="recmem verify" + ("" if report.complete else " (interrupted)"),
              show_lines=False, caption="\n".join(
                  escape(f"not run: {b}: {shorten(why, 120)}") for b, why in not_run.items())
              or None, caption_justify="left")
    with_source = width >= NARROW_COLUMNS
    # nothing is cut: IDs, verdicts and counts keep their width; source and arithmetics wrap
    # at spaces (or, for a word longer than the column, anywhere)
    add_id_column(t, "claim", [c.id for c in report.claims])
    t.add_column("verdict", no_wrap=True)
    if with_source:
        t.add_column("source", overflow="fold")
    t.add_column("arithmetics", min_width=10, overflow="fold")
    t.add_column("controls", justify="right", no_wrap=True)
    t.add_column("s", justify="right", no_wrap=True)
    for c in report.claims:
        verdict = str(c.verdict)
        used = " ".join(_short(a) for a in c.arithmetics())
        if verdict == "SKIPPED":  # why nothing ran, in the table itself
            used = escape(shorten("; ".join(dict.fromkeys(
                e.message or "" for e in c.evidence)), 120))
        row = [c.id, f"[{VERDICT_STYLE.get(verdict, '')}]{verdict}[/]"]
        if with_source:
            row.append(escape(c.source["location"]))
        t.add_row(*row, used, c.controls_summary(), f"{c.seconds:.1f}")
    return t


def _short(backend: str) -> str:
    """A compact backend name for the verdict table."""
    return "search" if backend.startswith("exact (Hypothesis") else backend


def _print_report(report: Any) -> None:
    from rich.markup import escape

    from recmem.checks.hints import resolution_hint
    from recmem.checks.registry import all_claims

    claims = all_claims()
    con = _console()
    con.print(_verdict_table(report, con.width))
    not_run = report.not_run()
    con.print("summary: " + ", ".join(f"{n} {v}" for v, n in report.counts().items())
              + (f"; not run: {', '.join(not_run)}" if not_run else ""))
    for c in report.claims:
        if str(c.verdict) == "INCONCLUSIVE":
            claim = claims.get(c.id)
            hint = resolution_hint(c, claim.decided_by if claim else None,
                                   [p.name for p in claim.params] if claim else ())
            con.print(f"[yellow]{c.id}[/] inconclusive: " + escape(hint))
        if c.counterexample:
            con.print(f"[red]{c.id}[/] counterexample: " + escape(json.dumps(
                c.counterexample, default=str, ensure_ascii=False)))


def _write_reports(args: argparse.Namespace, report: Any) -> None:
    from recmem.checks.outputs import write_atomic

    if args.json:
        report.write_json(args.json)
    if args.markdown:
        write_atomic(args.markdown, report.to_markdown())
    if args.html:
        from recmem.checks.html.site import site_for_report

        summary = site_for_report(report, args.html)
        sys.stderr.write(f"recmem: wrote the site ({summary.pages} pages) to {args.html}; open "
                         f"{summary.folder / 'index.html'}\n")


def cmd_verify(args: argparse.Namespace) -> int:
    from recmem.checks import registry, store
    from recmem.checks.runner import Interrupted, UsageError, verify
    from recmem.checks.terminal import progress_bar, stderr_console

    if (clash := _clash([("--json", args.json), ("--markdown", args.markdown)])) is not None:
        return clash
    if args.html:
        from recmem.checks.html.site import check_output
        from recmem.checks.outputs import OutputPathError

        try:
            check_output(args.html, force=args.force,
                         inputs=[(o, p) for o, p in (("--json", args.json),
                                                     ("--markdown", args.markdown)) if p])
        except OutputPathError as exc:
            return _usage(str(exc))
    elif args.force:
        return _usage("--force replaces an existing site: it needs --html DIR")
    try:
        params = _param_pairs(args.param)
        n_claims = len(registry.select(args.claim_ids or None, args.paper))
    except (UsageError, registry.UnknownClaim) as exc:
        return _usage(exc.args[0] if isinstance(exc, KeyError) else str(exc))
    err = stderr_console()
    progress = progress_bar(err.is_terminal and not args.quiet, err)
    task = progress.add_task("verifying", total=n_claims)
    store_problem: list[str] = []
    running: list[str] = []  # claims handed to a worker and not finished (one when serial)

    def show_running() -> None:
        shown = ", ".join(running[:3]) + (f" (+{len(running) - 3})" if len(running) > 3 else "")
        progress.update(task, description=f"verifying {shown}" if shown else "verifying")

    def started(claim: Any) -> None:
        if claim.id not in running:
            running.append(claim.id)
        show_running()

    def done(result: Any, report: Any) -> None:
        if result.id in running:
            running.remove(result.id)
        show_running()
        progress.advance(task)
        if not store_problem:
            try:
                store.save(result, report.meta)
            except store.StoreUnavailable as exc:  # reported once; the run goes on
                store_problem.append(str(exc))
                sys.stderr.write(f"recmem: warning: {exc}; this run's results are not kept "
                                 "for `recmem show` (set RECMEM_HOME to a writable folder)\n")
        if args.json:  # keep a partial report on disk: an interrupted run loses one claim at most
            report.write_json(args.json)
        if not err.is_terminal and not args.quiet:
            err.print(f"{result.id}: {result.verdict} ({result.seconds:.1f} s)")

    try:
        with progress:
            report = verify(args.claim_ids or None, paper=args.paper, backends=args.backend,
                            precision=args.precision, seed=args.seed, params=params,
                            search_examples=args.examples, controls=not args.no_controls,
                            jobs=args.jobs, cluster=args.cluster, timeout=args.timeout,
                            on_claim_start=started,
                            on_claim_done=done)
    except UsageError as exc:
        return _usage(str(exc))
    except Interrupted as stop:
        _print_report(stop.report)
        _write_reports(args, stop.report)
        during = stop.report.meta["interrupted"]["during"]
        sys.stderr.write(f"recmem: interrupted{_by_signal()}"
                         f"{f' during {during}' if during else ''}; "
                         f"{len(stop.report.claims)} finished claim(s) kept"
                         f"{'' if store_problem else ' (`recmem show`)'}"
                         f"{' and in ' + str(args.json) if args.json else ''} "
                         "with \"complete\": false\n")
        return EXIT_INTERRUPTED
    _print_report(report)
    _write_reports(args, report)
    return EXIT_OK if report.ok else EXIT_NOT_OK


def cmd_fuzz(args: argparse.Namespace) -> int:
    from recmem.checks import fuzz_cli

    return fuzz_cli.run(args, _usage, _param_pairs)


def cmd_memory(args: argparse.Namespace) -> int:
    from recmem.checks.memory_cli import MemoryUsageError, run

    try:
        return run(args)
    except MemoryUsageError as exc:
        return _usage(str(exc))


def cmd_condition(args: argparse.Namespace) -> int:
    from recmem.checks.condition_cli import ConditionUsageError, run

    try:
        return run(args)
    except ConditionUsageError as exc:
        return _usage(str(exc))


def cmd_coverage(args: argparse.Namespace) -> int:
    from recmem.checks.coverage_cli import CoverageUsageError, run

    try:
        return run(args)
    except CoverageUsageError as exc:
        return _usage(str(exc))


def cmd_reproduce(args: argparse.Namespace) -> int:
    from recmem.checks.reproduce import cli as reproduce_cli

    return reproduce_cli.run(args, _usage)


def cmd_report(args: argparse.Namespace) -> int:
    from recmem.checks.report_cli import ReportUsageError, run

    try:
        return run(args)
    except ReportUsageError as exc:
        return _usage(str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recmem`` console script."""
    from recmem.checks import interrupt

    args = build_parser().parse_args(argv)
    handler = {"list": cmd_list, "show": cmd_show, "verify": cmd_verify, "fuzz": cmd_fuzz,
               "memory": cmd_memory, "condition": cmd_condition, "reproduce": cmd_reproduce,
               "coverage": cmd_coverage, "report": cmd_report}
    try:
        with interrupt.stops_promptly(), _hypothesis_files_out_of_cwd(args.command):
            if not (args.command == "list" and args.papers):  # that lists them itself
                _warn_plugin_problems(args.command)
            code = handler[args.command](args)
    except KeyboardInterrupt:
        sys.stderr.write(f"recmem: interrupted{_by_signal()}\n")
        code = EXIT_INTERRUPTED
    return code


def _by_signal() -> str:
    """" by SIGTERM" when that (not Ctrl-C) interrupted the command, else nothing."""
    from recmem.checks import interrupt

    return " by SIGTERM" if interrupt.received() == "SIGTERM" else ""


def entry() -> NoReturn:
    """The ``recmem`` console script and ``python -m recmem.checks``: :func:`main`, then exit.

    After an interrupt the process ends with ``os._exit(130)`` once its output is flushed: a
    KeyboardInterrupt that passed through a C extension's ``PyRun_*`` call leaves CPython's
    "unhandled KeyboardInterrupt" flag set even though recmem caught it, and the interpreter
    would then end by killing itself with SIGINT (status −2) instead of returning 130."""
    import os

    code = main()
    if code == EXIT_INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)
    raise SystemExit(code)


@contextlib.contextmanager
def _hypothesis_files_out_of_cwd(command: str) -> Iterator[None]:
    """Hypothesis's files go to recmem's home while ``verify`` or ``fuzz`` runs (see
    ``runner.hypothesis_files_in_home``); other commands leave Hypothesis alone."""
    if command not in ("verify", "fuzz"):
        yield
        return
    from recmem.checks.runner import hypothesis_files_in_home

    with hypothesis_files_in_home():
        yield
