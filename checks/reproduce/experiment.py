"""What a reproduction is: an :class:`Experiment` (a paper's figure or table, its settings at each
scale, and the function that runs it) and the :class:`RunContext` that function receives.

The context owns everything around the computation, so that every experiment behaves the same
way for the user: its output folder (PNG figures, CSV data, ``summary.json``), progress display,
resumable state (:meth:`RunContext.checkpoint` for training, :meth:`RunContext.results` for grids
of independent cells), the random seed, the torch device, and the *findings*: each figure's
measured quantity beside the paper's, with a plain statement of agreement or disagreement.

An experiment module (``checks/reproduce/experiments/<name>.py``) defines ``EXPERIMENT``; the
registry (:mod:`recmem.checks.reproduce`) finds it. See docs/REPRODUCE.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

SCALES = ("ci", "paper")
Agreement = Literal["agrees", "disagrees", "partial", "undetermined"]
AGREEMENTS: tuple[str, ...] = ("agrees", "disagrees", "partial", "undetermined")


class ReproduceUsageError(ValueError):
    """A problem with the user's input (a malformed data file, an unusable --out): exit status 2,
    one line."""


@dataclass(frozen=True)
class Experiment:
    """One reproduction: a paper's figure(s) or table, with its settings at each scale.

    ``settings[scale]`` holds every number the run uses at that scale (``ci``: seconds to a minute
    on 2 CPU cores, exercised by the test suite; ``paper``: the paper's own settings, meant for a
    GPU). ``choices`` records what the paper leaves open and how recmem chose it; both go into
    ``summary.json``. ``run`` does the work through a :class:`RunContext`.
    """

    name: str
    title: str
    source: str  # where in the paper: "O Fig. 2–5, App. E.1"
    settings: Mapping[str, Mapping[str, Any]]
    run: Callable[[RunContext], None]
    choices: Mapping[str, str] = field(default_factory=dict)
    data_help: str | None = None  # what --data reads, or None when the experiment reads no data
    # reads and checks the run's data (--data or the embedded default), raising
    # ReproduceUsageError for bad data; the CLI calls it (RunContext.load_data) before it writes
    # anything, so a refused run leaves no file behind
    load_data: Callable[[RunContext], Any] | None = None

    def __post_init__(self) -> None:
        missing = [s for s in SCALES if s not in self.settings]
        if missing:
            raise ValueError(f"experiment {self.name}: no settings for scale(s) {missing}")


@dataclass(frozen=True)
class Finding:
    """One figure's (or table's) measured result beside the paper's, and whether they agree."""

    figure: str  # "Fig. 6 (r_min = 0.95)"
    quantity: str  # what is compared: "smallest N with exact reconstruction"
    measured: Any
    paper: Any
    agreement: str  # one of AGREEMENTS (checked)
    statement: str  # one or two sentences: where they agree, or precisely where not

    def __post_init__(self) -> None:
        if self.agreement not in AGREEMENTS:
            raise ValueError(f"agreement must be one of {AGREEMENTS}, got {self.agreement!r}")
        if not self.statement:
            raise ValueError("a finding must say in words where it agrees or not")

    def to_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "quantity": self.quantity, "measured": _jsonable(self.measured),
                "paper": _jsonable(self.paper), "agreement": self.agreement,
                "statement": self.statement}


def _jsonable(value: Any) -> Any:
    """Plain JSON values (numpy scalars and arrays, tuples, Fractions, Paths made plain)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy / torch
        return _jsonable(value.tolist())
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def data_digest(path: Path, skip: Path | None = None) -> str:
    """SHA-256 of the content of ``path``: a file's bytes, or, for a folder, the relative names,
    sizes and contents of its regular files (hidden ones and those under ``skip``, the run's own
    output folder, left out). A copy of the same data elsewhere has the same digest; any change
    of content changes it."""
    def file_hash(p: Path) -> str:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()

    if not path.is_dir():
        return file_hash(path)
    skipped = None if skip is None else skip.resolve()
    total = hashlib.sha256()
    for p in sorted(path.rglob("*")):
        rel = p.relative_to(path)
        if any(part.startswith(".") for part in rel.parts) or not p.is_file():
            continue
        if skipped is not None and p.resolve().is_relative_to(skipped):
            continue
        total.update(f"{rel.as_posix()}\0{p.stat().st_size}\0{file_hash(p)}\n".encode())
    return total.hexdigest()


def identity(experiment: str, scale: str, settings: Mapping[str, Any], seed: int,
             data_sha256: str | None, version: str) -> dict[str, Any]:
    """Everything a run's results depend on, as recorded in ``run.json``: a folder is continued
    only by a command with the same identity (the device excluded: a run interrupted on a GPU may
    continue on the CPU; the data by content, not by path)."""
    return {"experiment": experiment, "scale": scale, "seed": seed,
            "settings": _jsonable(dict(settings)), "data_sha256": data_sha256, "recmem": version}


def fingerprint(ident: Mapping[str, Any]) -> str:
    """A short digest of an :func:`identity`."""
    text = json.dumps(_jsonable(dict(ident)), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def differences(before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What differs between two identities, each as "NAME: BEFORE there, NOW here" (settings one
    by one)."""
    def show(key: str, value: Any) -> str:
        if key == "data_sha256":
            return "the embedded data" if value is None else f"data sha256 {str(value)[:12]}…"
        return "(not recorded)" if value is None else str(value)

    out: list[str] = []
    for key in ("experiment", "scale", "seed", "settings", "data_sha256", "recmem"):
        a, b = before.get(key), now.get(key)
        if a == b:
            continue
        if key == "settings" and isinstance(a, dict) and isinstance(b, dict):
            out += [f"setting {k}: {a.get(k, '(none)')} there, {b.get(k, '(none)')} here"
                    for k in sorted(set(a) | set(b), key=str) if a.get(k) != b.get(k)]
            continue
        name = {"data_sha256": "--data", "recmem": "recmem version"}.get(key, key)
        out.append(f"{name}: {show(key, a)} there, {show(key, b)} here")
    return out


class Checkpoint:
    """A training state kept in ``OUT/checkpoints/NAME.pt`` (``torch.save``, written through a
    temporary file and a rename, so a kill leaves the previous checkpoint whole).

    ``load()`` is None until a first ``save(state)``; ``state`` is any dict of tensors, numbers and
    nested dicts (model and optimiser ``state_dict()``, the epoch, the loss history).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, Any] | None:
        """The last saved state, or None."""
        if not self.path.exists():
            return None
        import torch

        state = torch.load(self.path, map_location="cpu", weights_only=True)
        if not isinstance(state, dict):
            raise ReproduceUsageError(f"{self.path}: not a recmem checkpoint; remove it")
        return state

    def save(self, state: dict[str, Any]) -> None:
        """Replace the checkpoint by ``state`` atomically."""
        import torch

        from recmem.checks.outputs import atomic_path

        with atomic_path(self.path) as tmp:
            torch.save(state, tmp)


class Results:
    """Finished cells of a grid, kept in ``OUT/results/NAME.jsonl`` one JSON line each as soon as
    they are done (flushed and fsynced), so a re-run skips them.

    ``get(key)`` is None for a cell not yet done; ``put(key, value)`` stores a JSON-able value.
    Keys are JSON-able tuples or strings; a torn last line (a kill mid-write) is ignored.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._done: dict[str, Any] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(rec, dict) and "key" in rec:
                    self._done[json.dumps(rec["key"])] = rec.get("value")

    def _k(self, key: Any) -> str:
        return json.dumps(_jsonable(key))

    def __contains__(self, key: Any) -> bool:
        return self._k(key) in self._done

    def __len__(self) -> int:
        return len(self._done)

    def get(self, key: Any) -> Any:
        """The stored value of ``key``, or None."""
        return self._done.get(self._k(key))

    def put(self, key: Any, value: Any) -> None:
        """Store ``value`` for ``key`` (appended and synced to disk at once)."""
        value = _jsonable(value)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": _jsonable(key), "value": value}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._done[self._k(key)] = value


@dataclass
class RunContext:
    """What an experiment's ``run`` gets: settings, seed, device, output folder and helpers.

    ``settings`` are the experiment's settings at the chosen scale; ``device`` is a torch device
    string (``cpu`` or ``cuda``); ``data`` is the user's ``--data`` path or None (the embedded
    default). The run reports through :meth:`finding`, :meth:`measure`, :meth:`choose`,
    :meth:`write_csv` and :meth:`save_figure`; the CLI writes ``summary.json`` from them.
    """

    experiment: Experiment
    scale: str
    settings: Mapping[str, Any]
    seed: int
    device: str
    out: Path
    data: Path | None = None
    quiet: bool = False
    findings: list[Finding] = field(default_factory=list)
    measured: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    log: Callable[[str], None] = field(default=lambda line: _stderr_line(line))
    # told each file's name (relative to out) before it is first written: the CLI keeps the list
    # in run.json, so that --fresh removes exactly the files recmem wrote
    record: Callable[[str], None] = field(default=lambda name: None)
    _data: Any = field(default=None, init=False, repr=False)
    _data_loaded: bool = field(default=False, init=False, repr=False)

    def __getitem__(self, name: str) -> Any:
        return self.settings[name]

    def load_data(self) -> Any:
        """The run's data from the experiment's ``load_data`` (read once; None when it has none);
        ReproduceUsageError for bad data."""
        if not self._data_loaded and self.experiment.load_data is not None:
            self._data = self.experiment.load_data(self)
            self._data_loaded = True
        return self._data

    # ---- what the run reports ----------------------------------------------------------------
    def finding(self, figure: str, quantity: str, measured: Any, paper: Any,
                agreement: str, statement: str) -> Finding:
        """Record one figure's comparison with the paper (see :class:`Finding`; ``agreement`` is
        one of AGREEMENTS, ValueError otherwise)."""
        f = Finding(figure, quantity, measured, paper, agreement, statement)
        self.findings.append(f)
        return f

    def measure(self, name: str, value: Any) -> None:
        """Record a measured figure for ``summary.json`` (``measured``)."""
        self.measured[name] = _jsonable(value)

    def choose(self, name: str, why: str) -> None:
        """Record a choice the paper leaves open (``summary.json``: ``choices``)."""
        self.choices[name] = why

    # ---- files -------------------------------------------------------------------------------
    def path(self, name: str) -> Path:
        """``OUT/name`` (its folder created)."""
        self.record(name)
        p = self.out / name
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def write_csv(self, name: str, rows: Sequence[Mapping[str, Any]],
                  columns: Sequence[str] | None = None) -> Path:
        """Write ``rows`` (dicts) to ``OUT/name`` as CSV, atomically; returns the path."""
        import csv
        import io

        from recmem.checks.outputs import write_atomic

        cols = list(columns) if columns is not None else _columns(rows)
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for row in rows:
            w.writerow({k: _cell(row.get(k)) for k in cols})
        p = self.path(name)
        write_atomic(p, buf.getvalue())
        self._file(name)
        return p

    def save_figure(self, fig: Any, name: str) -> Path:
        """Save a matplotlib figure to ``OUT/name`` (PNG) atomically
        (:func:`recmem.checks.outputs.write_figure`) and close it."""
        import matplotlib.pyplot as plt

        from recmem.checks.outputs import write_figure

        p = self.path(name)
        try:
            write_figure(fig, p, format="png", bbox_inches="tight")
        finally:
            plt.close(fig)
        self._file(name)
        return p

    def _file(self, name: str) -> None:
        if name not in self.files:
            self.files.append(name)

    # ---- resumable state ---------------------------------------------------------------------
    def checkpoint(self, name: str) -> Checkpoint:
        """The training checkpoint ``name`` of this run (resumed by a re-run of the same command)."""
        self.record(f"checkpoints/{name}.pt")
        return Checkpoint(self.out / "checkpoints" / f"{name}.pt")

    def results(self, name: str) -> Results:
        """The finished cells ``name`` of this run (skipped by a re-run of the same command)."""
        self.record(f"results/{name}.jsonl")
        return Results(self.out / "results" / f"{name}.jsonl")

    # ---- progress ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def progress(self, description: str, total: int | None) -> Iterator[Callable[..., None]]:
        """A progress bar on a terminal (a start and an end line otherwise); yields
        ``advance(n=1, description=None)``. ``n`` may count steps already done by an earlier,
        interrupted run (so the bar starts where the run resumes)."""
        from recmem.checks.terminal import progress_bar, stderr_console

        console = stderr_console()
        live = console.is_terminal and not self.quiet
        bar = progress_bar(live, console)
        if not live and not self.quiet:
            self.log(f"{self.experiment.name}: {description}"
                     f"{'' if total is None else f' ({total} steps)'}")
        task = bar.add_task(f"{self.experiment.name}: {description}", total=total)

        def advance(n: int = 1, description: str | None = None) -> None:
            from recmem.checks import interrupt

            if interrupt.requested():
                raise KeyboardInterrupt
            if description is not None:
                bar.update(task, description=f"{self.experiment.name}: {description}")
            bar.update(task, advance=n)

        with bar:
            yield advance

    # ---- reproducibility ---------------------------------------------------------------------
    def generator(self, *stream: int | str) -> Any:
        """A numpy Generator seeded from the run's seed and ``stream`` (independent streams for
        independent parts: data, RNN draws, perturbations)."""
        import numpy as np

        return np.random.default_rng([self.seed, *(_stream_int(s) for s in stream)])

    def torch_generator(self, *stream: int | str) -> Any:
        """A torch Generator on the CPU seeded like :meth:`generator`."""
        import torch

        g = torch.Generator(device="cpu")
        g.manual_seed(int(self.generator(*stream).integers(0, 2**62)))
        return g


def _stderr_line(line: str) -> None:
    sys.stderr.write(line + "\n")


def _stream_int(s: int | str) -> int:
    if isinstance(s, int):
        return s
    return int.from_bytes(hashlib.sha256(s.encode()).digest()[:8], "little")


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    cols: list[str] = []
    for row in rows:
        cols.extend(k for k in row if k not in cols)
    return cols


def _cell(value: Any) -> Any:
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "item"):
        return repr(value.item())
    return "" if value is None else value


__all__ = ["AGREEMENTS", "SCALES", "Checkpoint", "Experiment", "Finding", "ReproduceUsageError",
           "Results", "RunContext", "data_digest", "differences", "fingerprint", "identity"]
