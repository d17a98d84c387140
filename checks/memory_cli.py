"""``recmem memory TARGET``: query the memory function of paper W (Def. 3.1, App. F, G) and fit its
decay class (exponential or polynomial, W §3.2 / App. D).

The command is :func:`query` (Python API) plus presentation: a rich table, a JSON file and a
log-scale plot. numpy, SciPy and matplotlib are imported inside the functions, so that registering
the subcommand costs ``recmem list`` nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INPUTS = ("heaviside", "impulse", "reversed")
# Default windows: analytic memories (linear kernels) cost nothing per point, so their window is
# long enough to separate the classes clearly; simulated targets (RNN, callable) integrate every
# candidate input over the window, and their searched values meet float64's noise sooner.
ANALYTIC_WINDOW = (1000.0, 1000)
SIMULATED_WINDOW = (100.0, 200)
# Reversed inputs (W App. G) need one simulation per time and per input: a coarser default grid.
REVERSED_WINDOW = (50.0, 50)
# Searched memories come from DOP853 at rtol 1e-12 / atol 1e-14 (or a degree-6 derivative of a
# user's samples) divided by |x|∞ ≥ 2^-10: relative noise ~1e-11, so values below 1e-9·max M are
# not resolved. Analytic memories are accurate to float64's relative precision at any size.
SEARCHED_REL_FLOOR = 1e-9
TABLE_ROWS = 16

TARGET_HELP = """\
TARGET forms:
  exp:A              linear functional with ρ(t) = A^t, 0 < A < 1 (exponential memory, rate ln(1/A))
  poly:P             linear functional with ρ(t) = (t + 1)^-P, P > 1 (polynomial memory, exponent P)
  expsum:C1,..;R1,.. linear functional with ρ(t) = Σ C_i e^(-R_i t), R_i > 0
  FILE.npz           RNN dh/dt = σ(W h + U x + b), y = cᵀh: arrays W, U, c, optional b, and
                     optional strings activation (identity, tanh, hardtanh, relu, softplus) and
                     parameterisation (direct, exp, softplus, lru)
  MODULE:FUNCTION    a Functional, Kernel or RNN object, or a callable f(t, x) -> y on a uniform
                     grid t (x has shape (len(t), d); attributes input_dim, dt are read if present)

Linear targets have exact memory |ρ(t)|₁ (W eq. (4)). For any other target the supremum over inputs x
is searched over a finite set of inputs, so the values are a LOWER BOUND on M(t); the output says
how many inputs were tried. --max-input X restricts the search to 0 < |x|∞ ≤ X ("bounded Heaviside
inputs"): for saturating activations (tanh) the unrestricted memory decays only like 1/t, because a
large input keeps the state saturated for a time proportional to its size (docs/MEMORY.md).

The decay class is fitted on the tail (the later half of the resolved window) in log space, both as
e^(-rt) and as (t + τ)^(-p) with τ ≥ 0 fitted; the class with the smaller residual is reported.
Exit status: 0 when a class was fitted, 1 when the fit was impossible (too few resolved points),
2 for bad usage."""


class MemoryUsageError(ValueError):
    """A bad TARGET or option: the CLI prints its message on one line and exits with status 2."""


@dataclass
class MemoryQuery:
    """Everything ``recmem memory`` computed: the curve, the fit (or why there is none)."""

    target: str
    description: str
    curve: Any  # recmem.numerics.memory.MemoryCurve
    fit: Any  # recmem.numerics.decay_fit.DecayFit | None
    fit_error: str | None
    reference: dict[str, Any] | None
    options: dict[str, Any]
    seconds: float
    floor: float
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``--json``."""
        from importlib.metadata import version

        curve = self.curve.to_dict()
        fit = self.fit.to_dict() if self.fit is not None else {"error": self.fit_error}
        return {"command": "memory", "recmem": version("recmem"), "target": self.target,
                "description": self.description, "options": self.options, **curve,
                "floor": self.floor, "fit": fit, "reference": self.reference,
                "notes": list(self.notes), "seconds": round(self.seconds, 3)}


def add_parser(sub: Any) -> None:
    """Register ``recmem memory`` on the subparsers ``sub`` of the ``recmem`` parser."""
    p = sub.add_parser("memory", help="query a target's memory function (W Def. 3.1) and fit its decay",
                       description="Query the memory function M(t) of paper W (Def. 3.1; App. F, G "
                                   "with --inputs), print it, and fit its decay class.",
                       epilog=TARGET_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", metavar="TARGET", help="exp:A, poly:P, expsum:C..;R.., FILE.npz or "
                   "MODULE:FUNCTION (see below)")
    p.add_argument("--t-min", type=float, default=1.0, metavar="T", help="first time (default 1)")
    p.add_argument("--t-max", type=float, default=None, metavar="T",
                   help=f"last time (default {ANALYTIC_WINDOW[0]:g} for linear targets, "
                        f"{SIMULATED_WINDOW[0]:g} otherwise, {REVERSED_WINDOW[0]:g} with reversed inputs)")
    p.add_argument("--grid", type=int, default=None, metavar="N",
                   help=f"number of uniformly spaced times (default {ANALYTIC_WINDOW[1]} for linear "
                        f"targets, {SIMULATED_WINDOW[1]} otherwise, {REVERSED_WINDOW[1]} with reversed "
                        "inputs)")
    p.add_argument("--inputs", choices=INPUTS, default="heaviside",
                   help="test inputs: heaviside (Def. 3.1), impulse (App. F, Dirac reading), reversed "
                        "(x on [−t, 0) read at time 0: the Heaviside query by time invariance, not "
                        "App. G's printed input; one simulation per time and input: slow)")
    p.add_argument("--width", type=float, default=1e-3, metavar="δ",
                   help="impulse width for --inputs impulse (default 1e-3)")
    p.add_argument("--max-input", type=float, default=None, metavar="X",
                   help="search only inputs with |x|∞ ≤ X (the default magnitudes 2^-10 … 2^6 below X, X "
                        "itself, refinement kept below X); default: no bound")
    p.add_argument("--tail", type=float, default=0.5, metavar="F",
                   help="fit the decay on the last (1 − F) of the resolved window (default 0.5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random input directions (d > 1)")
    p.add_argument("--json", metavar="PATH", help="write t, M(t), method, lower-bound flag and fits here")
    p.add_argument("--plot", metavar="PATH", help="draw M(t) with both fits on log scales (PNG, PDF, SVG)")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def _window(f: Any, inputs: str, t_min: float, t_max: float | None,
            grid: int | None) -> tuple[float, float, int]:
    from recmem.numerics.decay_fit import MIN_POINTS

    default_t, default_n = (ANALYTIC_WINDOW if _is_linear(f) else
                            REVERSED_WINDOW if inputs == "reversed" else SIMULATED_WINDOW)
    t_max = default_t if t_max is None else t_max
    grid = default_n if grid is None else grid
    if not (math.isfinite(t_min) and t_min >= 0):
        raise MemoryUsageError(f"--t-min must be a finite time ≥ 0, got {t_min}")
    if not (math.isfinite(t_max) and t_max > t_min):
        raise MemoryUsageError(f"--t-max must be finite and larger than --t-min ({t_min}), got {t_max}")
    if grid < 2 * MIN_POINTS:
        raise MemoryUsageError(f"--grid must be at least {2 * MIN_POINTS} (the tail fit needs "
                               f"{MIN_POINTS} points), got {grid}")
    return t_min, t_max, grid


def _check_max_input(max_input: float | None) -> None:
    if max_input is not None and not (math.isfinite(max_input) and max_input > 0):
        raise MemoryUsageError(f"--max-input must be a positive number, got {max_input}")


def _reference(f: Any) -> dict[str, Any] | None:
    """The decay the target is known to have, if any: a kernel's closed form, or the linearisation
    of an RNN at rest (b = 0, σ(0) = 0, σ'(0) = 1, Hurwitz W: rate −max Re λ(W))."""
    import numpy as np

    from recmem.numerics.functionals import LinearFunctional, RNNFunctional

    if isinstance(f, LinearFunctional):
        known = f.kernel.decay()
        if known is None:
            return None
        return {"class": known[0], "value": known[1], "source": f"closed form, {f.kernel.description}"}
    if isinstance(f, RNNFunctional) and f.rnn.sigma.name in ("identity", "tanh", "hardtanh") \
            and not np.any(f.rnn.b) and f.rnn.spectral_abscissa() < 0:
        return {"class": "exponential", "value": -f.rnn.spectral_abscissa(),
                "source": "linearisation at the rest state h = 0 (b = 0, σ'(0) = 1): −max Re λ(W); "
                          "the memory decays at this rate for bounded inputs when c and U see the "
                          "slowest mode"}
    return None


def _counting(f: Any, tick: Callable[[], None]) -> Any:
    """``f`` with every simulation reported to ``tick`` (for the progress display)."""
    from recmem.numerics.functionals import Functional

    class Counted(Functional):
        input_dim = f.input_dim

        @property
        def description(self) -> str:
            return str(f.description)

        @property
        def rate_method(self) -> str:
            return str(f.rate_method)

        def output(self, signal: Any, t: Any) -> Any:
            tick()
            return f.output(signal, t)

        def rate(self, signal: Any, t: Any) -> Any:
            tick()
            return f.rate(signal, t)

    return Counted()


def load(target: str) -> Any:
    """The functional named by TARGET; MemoryUsageError with one line when it cannot be loaded."""
    import zipfile

    from recmem.numerics.functionals import load_target

    if target.endswith(".npz") and Path(target).is_file() and not zipfile.is_zipfile(target):
        raise MemoryUsageError(f"{target} is not a .npz archive (write one with numpy.savez)")
    try:
        return load_target(target)
    except MemoryUsageError:
        raise
    except Exception as exc:  # a user's file or module may fail in any way: report it, one line
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if not isinstance(exc, ValueError):
            msg = f"cannot load {target}: {type(exc).__name__}: {msg}"
        raise MemoryUsageError(msg) from None


def query(target: str, *, t_min: float = 1.0, t_max: float | None = None, grid: int | None = None,
          inputs: str = "heaviside", width: float = 1e-3, max_input: float | None = None,
          tail: float = 0.5, seed: int = 0, tick: Callable[[], None] | None = None) -> MemoryQuery:
    """M(t) of TARGET on a uniform grid (W Def. 3.1; App. F/G with ``inputs``) and its decay class
    (:func:`recmem.numerics.decay_fit.fit_decay`). MemoryUsageError for a bad target or option."""
    import numpy as np

    from recmem.numerics.decay_fit import fit_decay
    from recmem.numerics.memory import DEFAULT_MAGNITUDES, memory_function

    started = time.perf_counter()
    if inputs not in INPUTS:
        raise MemoryUsageError(f"unknown inputs {inputs!r}: expected one of {', '.join(INPUTS)}")
    if not (math.isfinite(width) and width > 0):
        raise MemoryUsageError(f"--width must be positive, got {width}")
    if not 0 <= tail < 1:
        raise MemoryUsageError(f"--tail must lie in [0, 1), got {tail}")
    _check_max_input(max_input)
    f = load(target)
    t_min, t_max, grid = _window(f, inputs, t_min, t_max, grid)
    t = np.linspace(t_min, t_max, grid)
    g = _counting(f, tick) if tick is not None and not _is_linear(f) else f
    try:
        curve = memory_function(g, t, inputs=inputs, width=width, seed=seed, max_input=max_input)
    except Exception as exc:  # an RNN without a rest state, a user's callable that fails, …
        what = str(exc).splitlines()[0] if str(exc) else ""
        kind = "" if isinstance(exc, ValueError | ArithmeticError) else f"{type(exc).__name__}: "
        raise MemoryUsageError(f"cannot compute the memory of {target}: {kind}{what}") from None
    notes = []
    if curve.lower_bound:
        span = (f"|x|∞ = {min(DEFAULT_MAGNITUDES):.3g} … {max(DEFAULT_MAGNITUDES):g} and refinements"
                + ("" if max_input is None else f", capped at |x|∞ ≤ {max_input:g}"))
        notes.append(f"lower bound: the sup over x ≠ 0 was searched over {curve.candidates} inputs "
                     f"({span}); more inputs can only raise it")
    rel_floor = SEARCHED_REL_FLOOR if curve.lower_bound else 0.0
    fit, fit_error = None, None
    try:
        fit = fit_decay(t, curve.values, tail_fraction=tail, rel_floor=rel_floor)
        floor = fit.floor
    except ValueError as exc:
        fit_error = str(exc)
        peak = float(np.max(curve.values)) if len(curve.values) else 0.0
        floor = max(float(np.finfo(float).tiny), rel_floor * peak)
    options = {"t_min": t_min, "t_max": t_max, "grid": grid, "spacing": "uniform", "inputs": inputs,
               "width": width if inputs == "impulse" else None, "max_input": max_input,
               "magnitudes": list(DEFAULT_MAGNITUDES), "tail": tail, "seed": seed}
    return MemoryQuery(target, str(f.description), curve, fit, fit_error, _reference(f), options,
                       time.perf_counter() - started, floor, notes)


def _is_linear(f: Any) -> bool:
    from recmem.numerics.functionals import LinearFunctional

    return isinstance(f, LinearFunctional)


def relative_error(q: MemoryQuery) -> float | None:
    """|fitted − known| / known when the fitted class is the known one."""
    if q.fit is None or q.reference is None or q.fit.decay_class != q.reference["class"]:
        return None
    return abs(q.fit.value - q.reference["value"]) / abs(q.reference["value"])


def _write_json(q: MemoryQuery, path: Path) -> None:
    from recmem.checks.report import _jsonable, write_atomic

    write_atomic(path, json.dumps(_jsonable(q.to_dict()), indent=2, ensure_ascii=False) + "\n")


def write_plot(q: MemoryQuery, path: Path) -> None:
    """M(t) on semi-log (exponential decay is a line) and log-log (polynomial decay is a line)
    axes, values below the floor clipped to it, with both tail fits; written atomically."""
    import numpy as np
    from matplotlib.figure import Figure

    t, m = q.curve.t, np.maximum(q.curve.values, q.floor)
    low = q.curve.values <= q.floor
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    label = "M(t) (lower bound)" if q.curve.lower_bound else "M(t)"
    for ax, scale in zip(axes, ("semilog", "loglog"), strict=True):
        ax.plot(t[~low], m[~low], "k.", ms=3, label=label)
        if low.any():
            ax.plot(t[low], m[low], "x", color="grey", ms=3, label="≤ floor (clipped, not fitted)")
        if q.fit is not None:
            tt = t[(t >= q.fit.tail_start) & (t <= q.fit.tail_end)]
            e, p = q.fit.exponential, q.fit.polynomial
            for cls, y, txt in (
                    ("exponential", np.exp(e.log_amplitude - e.rate * tt), f"e^(−{e.rate:.4g} t)"),
                    ("polynomial", np.exp(p.log_amplitude - p.exponent * np.log(tt + p.shift)),
                     f"(t + {p.shift:.3g})^(−{p.exponent:.4g})")):
                chosen = cls == q.fit.decay_class
                ax.plot(tt, y, "-" if chosen else "--", lw=2 if chosen else 1,
                        label=f"{cls} fit {txt}" + (" (chosen)" if chosen else ""))
        if low.any():
            ax.axhline(q.floor, color="grey", lw=0.8, ls=":", label="floor")
        ax.set_yscale("log")
        if scale == "loglog" and t[0] > 0:
            ax.set_xscale("log")
        ax.set_xlabel("t")
        ax.set_title("log M vs t" if scale == "semilog" else "log M vs log t")
    axes[0].legend(fontsize=7)
    verdict = q.fit.summary() if q.fit is not None else f"no fit: {q.fit_error}"
    fig.suptitle(f"recmem memory {q.target} ({q.curve.inputs}): {verdict}", fontsize=9)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix or ".png")
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110, format=(path.suffix[1:] or "png").lower())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _r2(v: float | None) -> str:
    return "—" if v is None else f"{v:.6f}"


def _print(q: MemoryQuery) -> None:
    import numpy as np
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    con = Console(highlight=False)
    c = q.curve
    con.print(f"[bold]recmem memory {escape(q.target)}[/]: {escape(q.description)}")
    con.print(f"inputs: {c.inputs}; t ∈ [{q.options['t_min']:g}, {q.options['t_max']:g}], "
              f"{q.options['grid']} uniform points; {q.seconds:.2f} s")
    kind = "[yellow]LOWER BOUND[/] (searched sup)" if c.lower_bound else "[green]exact sup[/]"
    con.print(f"values: {kind}; method: {escape(c.method)}")
    rows = np.unique(np.linspace(0, len(c.t) - 1, min(TABLE_ROWS, len(c.t))).round().astype(int))
    table = Table(title="memory function M(t)")
    table.add_column("t", justify="right")
    table.add_column("M(t)" + (" ≥" if c.lower_bound else ""), justify="right")
    if c.lower_bound:
        table.add_column("attained at x", justify="left")
    for i in rows:
        cells = [f"{c.t[i]:.6g}", f"{c.values[i]:.6e}"]
        if c.lower_bound:
            cells.append(", ".join(f"{v:.4g}" for v in c.argmax[i]))
        table.add_row(*cells)
    con.print(table)
    for note in q.notes:
        con.print("note: " + escape(note))
    if q.fit is None:
        con.print(f"[red]no decay fit[/]: {escape(str(q.fit_error))}")
        return
    fit = q.fit
    ft = Table(title=f"decay fits on t ∈ [{fit.tail_start:.6g}, {fit.tail_end:.6g}] "
                     f"({fit.points} points, log space)")
    for col in ("model", "parameter ± s.e.", "shift τ", "R²", "RMS", ""):
        ft.add_column(col, justify="left" if col in ("model", "") else "right")
    e, p = fit.exponential, fit.polynomial
    ft.add_row("e^(−rt)", f"r = {e.rate:.8g} ± {e.rate_stderr:.2g}", "", _r2(e.r2), f"{e.rms:.2g}",
               "chosen" if fit.decay_class == "exponential" else "")
    bound = f" ({p.shift_at_bound} bound)" if p.shift_at_bound else f" ± {p.shift_stderr:.2g}"
    ft.add_row("(t+τ)^(−p)", f"p = {p.exponent:.8g} ± {p.exponent_stderr:.2g}", f"{p.shift:.6g}{bound}",
               _r2(p.r2), f"{p.rms:.2g}", "chosen" if fit.decay_class == "polynomial" else "")
    con.print(ft)
    style = "bold red" if fit.decay_class == "not decaying" else "bold"
    con.print(f"decay class: [{style}]{escape(fit.summary())}[/]")
    for note in fit.notes:
        con.print("note: " + escape(note))
    if q.reference is not None:
        err = relative_error(q)
        tail = (f"; fit's relative error {err:.2e}" if err is not None else
                "; the fitted class differs")
        con.print(f"known: {q.reference['class']} {q.reference['value']:.8g} "
                  f"({escape(q.reference['source'])}){tail}")


def run(args: argparse.Namespace) -> int:
    """``recmem memory``: 0 when a decay class was fitted, 1 when not; MemoryUsageError for usage."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    if args.plot:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise MemoryUsageError("--plot needs matplotlib (pip install 'recmem[plot]')")
    err = Console(stderr=True)
    progress = Progress(SpinnerColumn(), TextColumn("memory query: {task.completed} simulations"),
                        TimeElapsedColumn(), console=err, transient=True,
                        disable=args.quiet or not err.is_terminal)
    task = progress.add_task("memory", total=None)
    with progress:
        q = query(args.target, t_min=args.t_min, t_max=args.t_max, grid=args.grid, inputs=args.inputs,
                  width=args.width, max_input=args.max_input, tail=args.tail, seed=args.seed,
                  tick=lambda: progress.advance(task))
    _print(q)
    for path, write in ((args.json, _write_json), (args.plot, write_plot)):
        if path:
            try:
                write(q, Path(path))
            except OSError as exc:
                raise MemoryUsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return 0 if q.fit is not None else 1


__all__ = ["MemoryQuery", "MemoryUsageError", "add_parser", "load", "query", "relative_error",
           "run", "write_plot"]
