"""``recmem reproduce NAME``: run one of the papers' experiments and write its figures (PNG), data
(CSV) and ``summary.json`` to ``--out``; ``recmem reproduce --list`` names them with their settings.

Exit status: 0 when the run finished and every finding agrees with the paper (or is partial or
undetermined, as its statement says), 1 when it finished and a finding disagrees, 2 for bad usage
(unknown name, unusable --out or --data, a malformed data file), 130 when interrupted (the
finished parts are kept: re-run the same command to continue).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recmem.checks.argtypes import seed

EXIT_OK, EXIT_NOT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
RUN_FILE = "run.json"


def add_parser(sub: Any) -> None:
    """Register ``recmem reproduce``."""
    r = sub.add_parser(
        "reproduce", help="reproduce a paper's figure or table (`recmem reproduce --list`)",
        description="Run one of the papers' experiments (CLAIMS.md, \"Experiments\") and write "
                    "its figures (PNG), data (CSV) and summary.json, which sets each measured "
                    "result beside the paper's and says where they agree and where not. "
                    "Interrupted runs continue from their last checkpoint when the same command "
                    "is run again. Exit status 0 when every finding agrees with the paper, 1 "
                    "when one disagrees, 2 for bad usage, 130 when interrupted.")
    r.add_argument("name", nargs="?", metavar="NAME",
                   help="the experiment (`recmem reproduce --list`)")
    r.add_argument("--list", action="store_true", help="list the experiments with their settings")
    r.add_argument("--scale", choices=("ci", "paper"), default="ci",
                   help="ci: a CPU-sized version that runs in minutes on 2 cores (default); "
                        "paper: the paper's settings, meant for a GPU")
    r.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                   help="torch device (default auto: cuda when one is present, else cpu)")
    r.add_argument("--seed", type=seed, default=0,
                   help="seed of every random draw, a non-negative integer (default 0)")
    r.add_argument("--out", metavar="DIR", default=None,
                   help="output folder (default ./recmem-reproduce/NAME-SCALE-seedN); a folder "
                        "holding an interrupted run of the same command is continued")
    r.add_argument("--fresh", action="store_true",
                   help="discard the checkpoints and finished cells in --out and start over")
    r.add_argument("--data", metavar="PATH", default=None,
                   help="data the experiment reads instead of its embedded default (see --list)")
    r.add_argument("--quiet", action="store_true", help="no progress display")


def _settings_text(settings: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items())


def _list() -> int:
    from rich.console import Console
    from rich.table import Table

    from recmem.checks.reproduce import all_experiments

    table = Table(show_lines=True)
    for col in ("name", "reproduces", "ci scale", "paper scale"):
        table.add_column(col, overflow="fold")
    for exp in all_experiments().values():
        what = f"{exp.title}\n[dim]{exp.source}[/dim]"
        if exp.data_help:
            what += f"\n--data: {exp.data_help}"
        table.add_row(exp.name, what, _settings_text(exp.settings["ci"]),
                      _settings_text(exp.settings["paper"]))
    Console(highlight=False).print(table)
    return EXIT_OK


def _device(choice: str) -> str:
    import torch

    if choice == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if choice == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: no CUDA device is available (use --device cpu or auto)")
    return choice


def _prepare_out(out: Path, fp: str, fresh: bool, describe: dict[str, Any]) -> None:
    """Check that ``out`` is empty, or holds a run of the same command (continued); write run.json."""
    from recmem.checks.outputs import OutputPathError, check_output_path, write_atomic

    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out}: is a file, not a folder")
    check_output_path(out / RUN_FILE, "--out") if not out.exists() or out.is_dir() else None
    run_file = out / RUN_FILE
    if run_file.exists() and not fresh:
        try:
            previous = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            previous = {}
        if previous.get("fingerprint") != fp:
            raise ValueError(f"--out {out}: holds a run with other settings "
                             f"({previous.get('experiment')}, scale {previous.get('scale')}, seed "
                             f"{previous.get('seed')}); choose another --out or add --fresh")
    elif out.is_dir() and any(out.iterdir()) and not run_file.exists():
        raise ValueError(f"--out {out}: is a non-empty folder that holds no recmem run")
    if fresh:
        for part in ("checkpoints", "results"):
            shutil.rmtree(out / part, ignore_errors=True)
    try:
        write_atomic(run_file, json.dumps({**describe, "fingerprint": fp}, indent=2) + "\n")
    except OSError as exc:
        raise OutputPathError(f"--out {out}: cannot write ({exc.strerror or exc})") from None


def _summary(ctx: Any, complete: bool, seconds: float, started: str) -> dict[str, Any]:
    import numpy
    import torch

    from recmem.checks.cli import _version
    from recmem.checks.reproduce.experiment import _jsonable

    exp = ctx.experiment
    return {
        "experiment": exp.name, "title": exp.title, "source": exp.source, "scale": ctx.scale,
        "settings": _jsonable(dict(ctx.settings)), "seed": ctx.seed, "device": ctx.device,
        "data": None if ctx.data is None else str(ctx.data), "complete": complete,
        "started": started, "seconds": round(seconds, 3),
        "findings": [f.to_dict() for f in ctx.findings],
        "measured": ctx.measured, "choices": {**exp.choices, **ctx.choices},
        "files": sorted(ctx.files),
        "versions": {"recmem": _version(), "torch": torch.__version__, "numpy": numpy.__version__,
                     "python": sys.version.split()[0]},
    }


def _print_findings(ctx: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(title=f"{ctx.experiment.name} ({ctx.scale} scale): the paper beside recmem",
                  show_lines=True)
    for col in ("figure", "quantity", "paper", "measured", "agreement"):
        table.add_column(col, overflow="fold")
    colour = {"agrees": "green", "disagrees": "red", "partial": "yellow", "undetermined": "yellow"}
    for f in ctx.findings:
        table.add_row(f.figure, f.quantity, str(f.paper), str(f.measured),
                      f"[{colour[f.agreement]}]{f.agreement}[/]")
    console.print(table)
    for f in ctx.findings:
        console.print(f"- {f.figure}: {f.statement}")


def run(args: argparse.Namespace, usage: Any) -> int:
    """Carry out ``recmem reproduce`` (``usage(message)`` reports a usage error: exit 2)."""
    from recmem.checks.outputs import OutputPathError, write_atomic
    from recmem.checks.reproduce import UnknownExperiment, get
    from recmem.checks.reproduce.experiment import ReproduceUsageError, RunContext, fingerprint

    if args.list:
        if args.name:
            return usage("--list takes no experiment name")
        return _list()
    if not args.name:
        return usage("name an experiment (`recmem reproduce --list` lists them)")
    try:
        exp = get(args.name)
    except UnknownExperiment as exc:
        return usage(str(exc.args[0]))
    data = None
    if args.data is not None:
        if exp.data_help is None:
            return usage(f"--data: {exp.name} reads no data")
        data = Path(args.data)
        if not data.exists():
            return usage(f"--data {args.data}: no such file or folder")
    try:
        device = _device(args.device)
    except ValueError as exc:
        return usage(str(exc))
    settings = exp.settings[args.scale]
    default_out = Path("recmem-reproduce") / f"{exp.name}-{args.scale}-seed{args.seed}"
    out = Path(args.out) if args.out else default_out
    fp = fingerprint(exp.name, args.scale, settings, args.seed,
                     None if data is None else str(data.resolve()))
    try:
        _prepare_out(out, fp, args.fresh, {"experiment": exp.name, "scale": args.scale,
                                            "seed": args.seed, "data": args.data})
    except (ValueError, OutputPathError) as exc:
        return usage(str(exc))
    ctx = RunContext(experiment=exp, scale=args.scale, settings=settings, seed=args.seed,
                     device=device, out=out, data=data, quiet=args.quiet)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()

    def write_summary(complete: bool) -> None:
        summary = _summary(ctx, complete, time.perf_counter() - t0, started)
        write_atomic(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")

    try:
        exp.run(ctx)
    except ReproduceUsageError as exc:
        return usage(str(exc))
    except KeyboardInterrupt:
        write_summary(False)
        sys.stderr.write(f"recmem: interrupted; what was finished is kept in {out} (run the same "
                         "command again to continue)\n")
        return EXIT_INTERRUPTED
    write_summary(True)
    _print_findings(ctx)
    sys.stdout.write(f"wrote {out / 'summary.json'} and {len(ctx.files)} file(s) to {out}\n")
    return EXIT_NOT_OK if any(f.agreement == "disagrees" for f in ctx.findings) else EXIT_OK


__all__ = ["add_parser", "run"]
