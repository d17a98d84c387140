"""``recmem fuzz``: fuzzing campaigns over claims or whole papers (``checks/campaign.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from recmem.checks.argtypes import MAX_EXAMPLES, finite, int_between, output_path, seed

EXIT_OK, EXIT_NOT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_parser(sub: Any, jobs_type: Any) -> None:
    """Register ``recmem fuzz`` (``jobs_type`` parses --jobs as ``recmem verify`` does)."""
    from recmem.checks import plugins
    from recmem.checks.execution import CLUSTER_TRUST

    f = sub.add_parser(
        "fuzz", help="search claims' domains for shrunk, certified counterexamples",
        description="Search each selected claim's stated domain with Hypothesis for an instance "
                    "where the statement fails, judged exactly or with certified arithmetic, "
                    "and shrink it to a minimal one. Every counterexample is judged again and "
                    "counts only if it is refuted again (one that is not is listed as not "
                    "reproduced; status 'error' where the judge contradicted itself). "
                    "Counterexamples are stored under $RECMEM_HOME/fuzz-examples (data only: "
                    "exact values as text) and replayed first on the next run, reported apart "
                    "(found by 'replay of a stored counterexample'); the search runs all the "
                    "same. Exit status 0 when every claim survived (or has no "
                    "searchable domain); 1 when a claim is refuted or failed (a "
                    "counterexample), 'error' (an exception or an internal inconsistency), "
                    "'undecided' (no instance decided), or, with "
                    "--controls, 'survived, controls not told apart' (a negative control was "
                    "not refuted within the budget, so the search cannot tell the claim from a "
                    "nearby false statement: its survival says nothing, as such a control makes "
                    "a claim INCONCLUSIVE in `recmem verify`); 2 for bad usage; 130 when "
                    "interrupted by Ctrl-C or SIGTERM (finished claims are kept).")
    f.add_argument("claim_ids", nargs="*", metavar="CLAIM_ID",
                   help="claims to fuzz (default: every claim, or every claim of --paper)")
    f.add_argument("--paper", choices=plugins.paper_keys(), help="only this paper's claims")
    f.add_argument("--max-examples", "--examples", dest="examples", type=int_between(1, MAX_EXAMPLES),
                   default=500, metavar="N",
                   help="instances to judge per claim (and per control) before giving up "
                        "(default 500; --examples is the same)")
    f.add_argument("--seconds", type=finite("seconds", lambda x: x > 0, "a positive number"),
                   default=None, metavar="S",
                   help="time budget per claim's search (and per control), in seconds "
                        "(default: none, only --max-examples)")
    f.add_argument("--seed", type=seed, default=0,
                   help="seed of the search, a non-negative integer (default 0); the same seed "
                        "and --max-examples give the same search report (replays of stored "
                        "counterexamples are reported apart)")
    f.add_argument("--backend", metavar="SPEC", default=None, type=_screen_spec,
                   help="a cheap first tier: judge each instance first in this arithmetic "
                        "(numpy, torch[:cpu|:cuda], mpmath@BITS, flint@BITS) and only its "
                        "candidates exactly; a candidate the exact or certified judge clears is "
                        "counted as dissolved, and only a confirmed one is reported. Claims with "
                        "no judge in a float arithmetic are judged exactly only (default: every "
                        "instance exactly)")
    f.add_argument("--shards", type=int_between(1), default=1, metavar="K",
                   help="split each claim's search into K shards, each with its own derived "
                        "seed and 1/K of the examples, run in parallel with --jobs/--cluster "
                        "(default 1); the report depends on K, not on --jobs")
    f.add_argument("--timeout", type=finite("seconds", lambda x: x > 0,
                                            "a positive number of seconds"),
                   default=None, metavar="SECONDS",
                   help="time limit per claim (per shard with --shards): one still running "
                        "after SECONDS is stopped and reported 'undecided' (\"timed out\"), "
                        "and the campaign goes on; each claim then runs in a worker process, "
                        "which can be stopped (default: none; --seconds, by contrast, ends the "
                        "search itself when its time is up)")
    f.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="override a claim parameter (see `recmem show CLAIM_ID`)")
    f.add_argument("--replay", action="store_true",
                   help="only judge the counterexamples stored by earlier campaigns")
    f.add_argument("--controls", action="store_true",
                   help="also fuzz each claim's negative controls (nearby false statements) and "
                        "report the examples to each one's first counterexample; a control not "
                        "refuted within the budget makes a surviving claim 'survived, controls "
                        "not told apart' (exit status 1)")
    where = f.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=jobs_type, default=1, metavar="J",
                       help="fuzz J claims at once on local processes, or 'auto' (one per CPU; "
                            "default 1: one claim after the other, in this process)")
    where.add_argument("--cluster", metavar="ADDRESS", default=None,
                       help="fuzz the claims on the workers of a dask cluster, given its "
                            "scheduler's address (tcp://HOST:PORT or tls://HOST:PORT). "
                            + CLUSTER_TRUST)
    f.add_argument("--json", metavar="PATH", type=output_path("--json"),
                   help="write the campaign report as JSON (rewritten after every claim)")
    f.add_argument("--quiet", action="store_true", help="no progress display")


def _screen_spec(text: str) -> str:
    """``--backend``: a float or fixed-precision arithmetic (sympy is exact: no screen)."""
    from recmem.numerics.backend import parse_spec

    try:
        spec = parse_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if spec.kind == "sympy":
        raise argparse.ArgumentTypeError(
            "sympy is exact: the screen is a float or fixed-precision arithmetic (numpy, torch, "
            "mpmath@BITS, flint@BITS)")
    return str(spec)


def _report(campaigns: list[Any], meta: dict[str, Any], complete: bool) -> dict[str, Any]:
    return {"meta": meta, "complete": complete, "claims": [c.to_dict() for c in campaigns]}


def run(args: argparse.Namespace, usage: Any, param_pairs: Any) -> int:
    """The ``recmem fuzz`` command (``usage(message)`` returns exit status 2 after printing)."""
    from recmem.checks import registry
    from recmem.checks.campaign import (
        STATUS_ERROR,
        STATUS_REFUTED,
        STATUS_UNDECIDED,
        ClaimCampaign,
        FuzzJob,
        fuzz_claim,
        merge,
        shard_jobs,
    )
    from recmem.checks.execution import make_executor
    from recmem.checks.outputs import OutputPathError, refuse_clashes, write_atomic
    from recmem.checks.runner import UsageError, resolve_params, warm_worker

    try:
        refuse_clashes([("--json", args.json)])
    except OutputPathError as exc:
        return usage(str(exc))
    try:
        claims = registry.select(args.claim_ids or None, args.paper)
        params = resolve_params(claims, param_pairs(args.param))
    except registry.UnknownClaim as exc:
        return usage(exc.args[0])
    except UsageError as exc:
        return usage(str(exc))
    try:
        executor = make_executor(jobs=args.jobs, cluster=args.cluster, timeout=args.timeout,
                                 warmup=warm_worker if args.timeout is not None else None)
    except ValueError as exc:  # a cluster that cannot be used (ClusterUnavailable), a bad address
        return usage(str(exc))
    fuzzable = [c for c in claims if c.strategy is not None and c.holds is not None]
    if args.claim_ids and not fuzzable:
        return usage(f"{', '.join(c.id for c in claims)}: no fuzzable domain (a study or an "
                     "experiment)")
    jobs_list = [shard for c in claims for shard in shard_jobs(
        FuzzJob(c.id, dict(params[c.id]), args.seed, args.examples, args.seconds, args.replay,
                args.controls, backend=args.backend), args.shards)]
    owner = [[c.id for c in claims].index(j.claim_id) for j in jobs_list]
    expected = {i: owner.count(i) for i in set(owner)}
    meta = {"seed": args.seed, "max_examples": args.examples, "seconds": args.seconds,
            "replay": args.replay, "controls": args.controls, "backend": args.backend,
            "shards": args.shards, "executor": None}
    parts: dict[int, dict[int, Any]] = {}  # claim index → shard → its report
    timed_out: dict[int, str] = {}  # claim index → why a shard of it was stopped (--timeout)
    results: dict[int, Any] = {}  # claim index → its merged report, once every shard is in
    err = sys.stderr

    def write_json(complete: bool) -> None:
        if args.json:
            done = [results[i] for i in sorted(results)]
            write_atomic(args.json, json.dumps(_report(done, meta, complete), indent=2,
                                               ensure_ascii=False) + "\n")

    # on a cluster the workers store in their own RECMEM_HOME: what fails there is said after
    unwritable = None if args.replay or args.cluster else _say_unwritable_home()
    try:
        ex = executor.__enter__()
    except ValueError as exc:  # an unreachable or empty cluster
        return usage(str(exc))
    from recmem.checks.terminal import progress_bar, stderr_console

    console = stderr_console()
    live = console.is_terminal and not args.quiet
    progress = progress_bar(live, console)
    task = progress.add_task("fuzzing", total=len(jobs_list))
    try:
        with executor, progress:
            meta["executor"] = ex.describe()
            started = lambda i: progress.update(  # noqa: E731
                task, description=f"fuzzing {jobs_list[i].claim_id}")
            for index, result in ex.map_unordered(fuzz_claim, jobs_list, on_start=started):
                claim_index = owner[index]
                camp: Any
                if result.error is not None and result.error.kind == "TimedOut":
                    why = f"timed out: {result.error.message} (--timeout {args.timeout:g})"
                    timed_out[claim_index] = why
                    camp = ClaimCampaign(jobs_list[index].claim_id, STATUS_UNDECIDED, note=why)
                else:
                    camp = result.value if result.ok else ClaimCampaign(
                        jobs_list[index].claim_id, STATUS_ERROR, note=str(result.error))
                parts.setdefault(claim_index, {})[jobs_list[index].shard] = camp
                progress.advance(task)
                if len(parts[claim_index]) < expected[claim_index]:
                    continue
                done = parts[claim_index]
                results[claim_index] = merged = merge([done[k] for k in sorted(done)])
                if claim_index in timed_out:  # a search cut short decides nothing but its finds
                    if merged.status not in (STATUS_REFUTED, STATUS_ERROR) \
                            and not merged.counterexamples:
                        merged.status = STATUS_UNDECIDED
                    if timed_out[claim_index] not in merged.note:
                        merged.note = "; ".join(filter(None, [merged.note,
                                                              timed_out[claim_index]]))
                write_json(False)
                if not args.quiet and not live:
                    err.write(_line(results[claim_index], len(results), len(claims)) + "\n")
    except KeyboardInterrupt:
        write_json(False)
        _print(results)
        _say_store_problems(list(results.values()), unwritable)
        err.write(f"recmem: interrupted; {len(results)} of {len(claims)} claim(s) finished "
                  f"and kept{' in ' + str(args.json) if args.json else ''} with \"complete\": "
                  "false\n")
        return EXIT_INTERRUPTED
    write_json(True)
    _print(results)
    _say_store_problems(list(results.values()), unwritable)
    return exit_status(list(results.values()))


def _say_unwritable_home() -> str | None:
    """Say in one line (stderr) when ``$RECMEM_HOME`` cannot keep counterexamples; the reason,
    or None when it can. Not an error: the campaign runs and reports them all the same."""
    from recmem.checks.fuzz_store import folder, storage_problem

    problem = storage_problem()
    if problem is not None:
        sys.stderr.write(f"recmem: warning: counterexamples found cannot be stored for replay "
                         f"in {folder()} ({problem}): they are reported only; set RECMEM_HOME "
                         "to a writable folder to keep them\n")
    return problem


def _say_store_problems(campaigns: list[Any], unwritable: str | None) -> None:
    """One line each (stderr) for stored entries skipped unread and, unless already said up
    front, counterexamples that could not be stored."""
    from recmem.checks.fuzz_store import folder, skipped_warning

    skipped = [c for c in campaigns if c.stored_skipped]
    if skipped:
        sys.stderr.write(skipped_warning(sum(c.stored_skipped for c in skipped),
                                         f"of {len(skipped)} claim(s)") + "\n")
    lost = [c for c in campaigns if c.not_stored]
    if lost and unwritable is None:
        sys.stderr.write(f"recmem: warning: {len(lost)} counterexample(s) could not be stored "
                         f"for replay in {folder()} ({lost[0].not_stored}): they are reported "
                         "only\n")


def exit_status(campaigns: list[Any]) -> int:
    """0 when every finished campaign survived (or had nothing to search), 1 otherwise: a
    counterexample (refuted, failed), an error or internal inconsistency, nothing decided, or a
    control not told apart (the survival then says nothing, rule R6 of checks/verdict.py)."""
    from recmem.checks.campaign import STATUS_NO_STRATEGY, STATUS_SURVIVED

    fine = (STATUS_SURVIVED, STATUS_NO_STRATEGY)
    return EXIT_OK if all(c.status in fine for c in campaigns) else EXIT_NOT_OK


def _line(camp: Any, done: int, total: int) -> str:
    extra = (f", {len(camp.counterexamples)} counterexample(s)" if camp.counterexamples else "")
    if camp.dissolved:
        extra += f", dissolved: {camp.dissolved}"
    return (f"[{done}/{total}] {camp.id}: {camp.status} after {camp.examples} examples "
            f"({camp.seconds:.1f} s){extra}")


def _print(results: dict[int, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from recmem.checks.terminal import NARROW_COLUMNS, add_id_column

    con = Console(highlight=False)
    table = Table(title="recmem fuzz")
    camps = [results[i] for i in sorted(results)]
    add_id_column(table, "claim", [c.id for c in camps])  # whole IDs; the other columns wrap
    # never cropped (it decides the exit status); wraps at spaces, its words kept whole
    table.add_column("status", overflow="fold", min_width=len("undecided"))
    screened = any(c.screen for c in camps)
    ratios = any(c.max_ratio is not None for c in camps)
    numbers = ["examples", "undecided", *(["dissolved"] if screened else []),
               *(["max ratio"] if ratios else []), "replayed", "seconds"]
    # a narrow terminal gets the numbers as one cell ("500 examples, 3 undecided, …") that
    # wraps, for a column each would leave the IDs no room
    narrow = con.width < NARROW_COLUMNS
    if narrow:
        table.add_column("counts", overflow="fold")
    else:
        for col in numbers:
            table.add_column(col, justify="right", no_wrap=True)
    table.add_column("controls refuted (examples to first)", overflow="fold")
    for c in camps:
        ctl = ""
        if c.controls:
            refuted = sum(1 for x in c.controls if x["refuted"])
            firsts = [x["examples_to_first_counterexample"] for x in c.controls if x["refuted"]]
            ctl = f"{refuted}/{len(c.controls)}" + (
                f" ({min(firsts)}–{max(firsts)})" if firsts else "")
        ratio = "" if c.max_ratio is None else f"{c.max_ratio:.3g}"
        row = [str(c.examples), str(c.undecided), *([str(c.dissolved)] if screened else []),
               *([ratio] if ratios else []), str(c.replayed), f"{c.seconds:.1f}"]
        if narrow:
            row = [", ".join(f"{v} {k}" for k, v in zip(numbers, row, strict=True))]
        table.add_row(c.id, c.status, *row, ctl)
    con.print(table)
    for i in sorted(results):
        c = results[i]
        for cx in c.counterexamples:
            con.print(f"[red]{c.id}[/] counterexample ({escape(cx['found_by'])}; certified by "
                      f"{escape(str(cx['certified_by']))}):")
            con.print("    " + escape(cx["instance"]), soft_wrap=True)
        if c.dissolved:
            con.print(f"{c.id}: dissolved: {c.dissolved} (candidates of the {c.screen} screen "
                      "that the exact judge cleared)")
        for ctl in c.controls_missed:
            con.print(f"[yellow]{c.id}[/]: control “{escape(ctl['change'])}” not refuted in "
                      f"{ctl['examples']} examples ({ctl['undecided']} undecided): the campaign "
                      "cannot tell the claim from this nearby false statement")
        for x in c.not_reproduced:
            con.print(f"[red]{c.id}[/] counterexample not reproduced ({escape(x['found_by'])}; "
                      f"judged again: {escape(x['judged_again'])}"
                      f"{', an internal inconsistency' if x['inconsistent'] else ''}):")
            con.print("    " + escape(str(x["instance"])), soft_wrap=True)
        if c.note:
            con.print(f"{c.id}: {escape(c.note)}")
    counts = Counter(results[i].status for i in sorted(results))
    if counts:
        con.print("Summary: " + ", ".join(f"{n} {status}" for status, n in counts.items()))
