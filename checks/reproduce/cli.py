"""``recmem reproduce NAME``: run one of the papers' experiments and write its figures (PNG), data
(CSV) and ``summary.json`` to ``--out``; ``recmem reproduce --list`` names them with their settings.

Exit status: 0 when the run finished and every finding agrees with the paper (or is partial or
undetermined, as its statement says), 1 when it finished and a finding disagrees, 2 for bad usage
(unknown name, unusable --out or --data, a malformed data file), 130 when interrupted by
Ctrl-C or SIGTERM (the finished parts are kept: re-run the same command to continue).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recmem.checks.argtypes import seed

EXIT_OK, EXIT_NOT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"


def add_parser(sub: Any) -> None:
    """Register ``recmem reproduce``."""
    r = sub.add_parser(
        "reproduce", help="reproduce a paper's figure or table (`recmem reproduce --list`)",
        description="Run one of the papers' experiments (CLAIMS.md, \"Experiments\") and write "
                    "its figures (PNG), data (CSV) and summary.json, which sets each measured "
                    "result beside the paper's and says where they agree and where not. "
                    "Interrupted runs continue from their last checkpoint when the same command "
                    "is run again. Exit status 0 when every finding agrees with the paper, 1 "
                    "when one disagrees, 2 for bad usage, 130 when interrupted (Ctrl-C or SIGTERM).")
    r.add_argument("name", nargs="?", metavar="NAME",
                   help="the experiment (`recmem reproduce --list`)")
    r.add_argument("--list", action="store_true", help="list the experiments with their settings")
    r.add_argument("--scale", choices=("ci", "paper"), default="ci",
                   help="ci: a CPU-sized version that runs in seconds to a minute on 2 cores "
                        "(default); "
                        "paper: the paper's settings, meant for a GPU")
    r.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                   help="torch device (default auto: cuda when one is present, else cpu)")
    r.add_argument("--seed", type=seed, default=0,
                   help="seed of every random draw, 0 … 2^32 − 1 (default 0)")
    r.add_argument("--out", metavar="DIR", default=None,
                   help="output folder (default ./recmem-reproduce/NAME-SCALE-seedN); a folder "
                        "holding an interrupted run of the same command is continued")
    r.add_argument("--fresh", action="store_true",
                   help="start over in --out: remove the files an earlier run wrote there "
                        "(figures, data, summary, checkpoints, finished cells; a user's other "
                        "files stay)")
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
    con = Console(highlight=False)
    con.print(table)
    from rich.markup import escape

    from recmem.checks import plugins

    skipped = [(p.key, what, why) for p in plugins.usable().values() for what, why in p.not_reproduced]
    if skipped:
        con.print("not reproduced here:")
        for key, what, why in skipped:
            con.print(escape(f"  {key} {what}: {why}"))
    return EXIT_OK


def _device(choice: str) -> str:
    import torch

    if choice == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if choice == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: no CUDA device is available (use --device cpu or auto)")
    return choice


class _Folder:
    """The output folder of a run and ``run.json``, which records what the folder holds: the
    run's identity (:func:`~recmem.checks.reproduce.experiment.identity`) and every file recmem
    wrote there (named before it is first written), so that ``--fresh`` removes exactly those."""

    def __init__(self, out: Path, ident: dict[str, Any], describe: dict[str, Any]) -> None:
        self.out = out
        self.ident = ident
        self.describe = describe
        self.previous: dict[str, Any] | None = None  # the run.json found, if any
        self.created = not out.exists()
        self.files: list[str] = []

    def check(self, fresh: bool) -> None:
        """Refuse (ValueError) a folder this run cannot use; nothing is written."""
        from recmem.checks.outputs import check_output_path

        out = self.out
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out}: is a file, not a folder")
        check_output_path(out / RUN_FILE, "--out")
        run_file = out / RUN_FILE
        if run_file.exists():
            try:
                previous = json.loads(run_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                previous = None
            if not isinstance(previous, dict):
                raise ValueError(f"--out {out}: {RUN_FILE} is not readable as a recmem run; "
                                 "choose another --out")
            self.previous = previous
            if not fresh and previous.get("fingerprint") != self._fingerprint():
                raise ValueError(f"--out {out}: holds a run with other settings ("
                                 + "; ".join(self._differences()) + "); choose another --out "
                                 "or add --fresh")
        elif out.is_dir() and any(out.iterdir()):
            raise ValueError(f"--out {out}: is a non-empty folder that holds no recmem run")

    def _fingerprint(self) -> str:
        from recmem.checks.reproduce.experiment import fingerprint

        return fingerprint(self.ident)

    def _differences(self) -> list[str]:
        from recmem.checks.reproduce.experiment import differences

        before = (self.previous or {}).get("identity")
        if not isinstance(before, dict):
            return ["its run.json was written by an earlier recmem, which recorded no settings"]
        return differences(before, self.ident) or ["the same identity under another digest"]

    def _recorded(self) -> list[str]:
        """The files the previous run.json names as recmem's (an earlier recmem's run.json lists
        none: then the fixed names of a run)."""
        prev = self.previous or {}
        files = prev.get("files")
        if isinstance(files, list):
            return [f for f in files if isinstance(f, str)]
        names = [RUN_FILE, SUMMARY_FILE]
        with contextlib.suppress(OSError, ValueError, AttributeError):
            listed = json.loads((self.out / SUMMARY_FILE).read_text(encoding="utf-8"))["files"]
            names += [f for f in listed if isinstance(f, str)]
        names += [f"checkpoints/{p.name}" for p in (self.out / "checkpoints").glob("*.pt")]
        names += [f"results/{p.name}" for p in (self.out / "results").glob("*.jsonl")]
        return names

    def _inside(self, name: str) -> Path | None:
        p = self.out / name
        root = self.out.resolve()
        return p if p.resolve().is_relative_to(root) and p.resolve() != root else None

    def start(self, fresh: bool) -> None:
        """Take the folder: with ``fresh``, remove the files an earlier run wrote there (only
        those: a user's other files stay); remove temporary files left by killed writes; write
        run.json."""
        from recmem.checks.outputs import remove_stale_temps

        recorded = self._recorded() if self.previous is not None else []
        for name in recorded:
            p = self._inside(name)
            if p is None:
                continue
            remove_stale_temps(p)
            if fresh and name != RUN_FILE:
                with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                    p.unlink()
        if fresh:
            for name in recorded:  # folders the run made, when now empty
                p = self._inside(name)
                while p is not None and p.parent.resolve() != self.out.resolve():
                    p = p.parent
                    with contextlib.suppress(OSError):
                        p.rmdir()
        else:
            self.files = [n for n in recorded if n != RUN_FILE]
        self.files = list(dict.fromkeys([RUN_FILE, *self.files]))
        self._write()

    def record(self, name: str) -> None:
        """Note ``name`` (relative to the folder) as written by recmem, before it is written."""
        if name not in self.files:
            self.files.append(name)
            self._write()

    def _write(self) -> None:
        from recmem.checks.outputs import write_atomic

        write_atomic(self.out / RUN_FILE, json.dumps(
            {**self.describe, "fingerprint": self._fingerprint(), "identity": self.ident,
             "files": self.files}, indent=2, ensure_ascii=False) + "\n")

    def abandon(self) -> None:
        """Remove what this run wrote into a folder that held no run before (a run refused for
        bad input leaves nothing behind)."""
        if self.previous is not None:
            return
        for name in reversed(self.files):
            p = self._inside(name)
            if p is None:
                continue
            with contextlib.suppress(OSError):
                p.unlink()
            while p.parent.resolve() != self.out.resolve():
                p = p.parent
                with contextlib.suppress(OSError):
                    p.rmdir()
        if self.created:
            with contextlib.suppress(OSError):
                self.out.rmdir()


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
    """Carry out ``recmem reproduce`` (``usage(message)`` reports a usage error: exit 2). Every
    check of the input (the folder, ``--data``, the experiment's own reading of its data) comes
    before anything is written."""
    from recmem.checks.cli import _version
    from recmem.checks.outputs import Kept, OutputPathError, refuse_clashes, write_atomic
    from recmem.checks.reproduce import UnknownExperiment, get
    from recmem.checks.reproduce.experiment import (
        ReproduceUsageError,
        RunContext,
        data_digest,
        identity,
    )

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
    try:
        digest = None if data is None else data_digest(data, skip=out)
    except OSError as exc:
        return usage(f"--data {args.data}: cannot read ({exc.strerror or exc})")
    ident = identity(exp.name, args.scale, settings, args.seed, digest, _version())
    folder = _Folder(out, ident, {"experiment": exp.name, "scale": args.scale,
                                  "seed": args.seed, "data": args.data})
    ctx = RunContext(experiment=exp, scale=args.scale, settings=settings, seed=args.seed,
                     device=device, out=out, data=data, quiet=args.quiet, record=folder.record)
    try:
        refuse_clashes([("--out", out / RUN_FILE), ("--out", out / SUMMARY_FILE)],
                       [] if data is None else [Kept("the input of --data", data)])
        folder.check(args.fresh)
    except (ValueError, OutputPathError) as exc:
        return usage(str(exc))
    try:
        ctx.load_data()  # the experiment reads and checks its data: bad data writes nothing
    except ReproduceUsageError as exc:  # only the loader's refusals: its bugs keep a traceback
        return usage(str(exc))
    try:
        folder.start(args.fresh)
    except OSError as exc:
        return usage(f"--out {out}: cannot write ({exc.strerror or exc})")
    started = datetime.now(UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()

    def write_summary(complete: bool) -> None:
        summary = _summary(ctx, complete, time.perf_counter() - t0, started)
        folder.record(SUMMARY_FILE)
        write_atomic(out / SUMMARY_FILE, json.dumps(summary, indent=2, ensure_ascii=False) + "\n")

    try:
        exp.run(ctx)
    except ReproduceUsageError as exc:
        folder.abandon()
        return usage(str(exc))
    except KeyboardInterrupt:
        write_summary(False)
        sys.stderr.write(f"recmem: interrupted; what was finished is kept in {out} (run the same "
                         "command again to continue)\n")
        return EXIT_INTERRUPTED
    write_summary(True)
    _print_findings(ctx)
    sys.stdout.write(f"wrote {out / SUMMARY_FILE} and {len(ctx.files)} file(s) to {out}\n")
    return EXIT_NOT_OK if any(f.agreement == "disagrees" for f in ctx.findings) else EXIT_OK


__all__ = ["add_parser", "run"]
