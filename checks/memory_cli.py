"""``recmem memory TARGET``: query the memory function of paper W (Def. 3.1, App. F, G) and fit its
decay class (exponential or polynomial, W §3.2 / App. D).

The command is :func:`query` (Python API) plus presentation: a rich table, a JSON file and a
log-scale plot. numpy, SciPy and matplotlib are imported inside the functions, so that registering
the subcommand costs ``recmem list`` nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recmem.checks.argtypes import finite, int_between, output_path, seed

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

Every value comes with its accuracy: the integrator's error estimate (DOP853 at rtol 1e-12 against
a run at 100× looser tolerances) and the noise of the finite search (the spread of the candidates'
error intervals), or float64 rounding for closed forms. Values not above 10× their accuracy are
left out. The decay class is fitted on the tail (the later half of the resolved window) in log
space, as e^(-rt), as (t + τ)^(-p) with τ ≥ 0 fitted, and through the curvature κ of log M that
separates them (κ = 0: exponential). A class is reported only when κ's uncertainty separates the
two; otherwise the class is "undetermined" with the reason. Rates and exponents are printed with
their uncertainty (3 standard errors, inflated for correlated residuals, plus the data's accuracy
propagated through the fit).

Exit status: 0 when a class was determined (exponential, polynomial or not decaying), 1 when it is
undetermined (too few resolved points, or classes not separated), 2 for bad usage (one line on
stderr, checked before any work: bad TARGET, missing or bad file, a number out of range, an output
path that cannot be written)."""


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


PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")


MIN_GRID = 12  # 2 × decay_fit.MIN_POINTS: the tail fit needs 6 points
MAX_GRID = 1_000_000


def add_parser(sub: Any) -> None:
    """Register ``recmem memory`` on the subparsers ``sub`` of the ``recmem`` parser."""
    p = sub.add_parser("memory", help="query a target's memory function (W Def. 3.1) and fit its decay",
                       description="Query the memory function M(t) of paper W (Def. 3.1; App. F, G "
                                   "with --inputs), print it with the accuracy of each value, and fit "
                                   "its decay class (exponential or polynomial, W §3.2 / App. D).",
                       epilog=TARGET_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", metavar="TARGET", help="exp:A, poly:P, expsum:C..;R.., FILE.npz or "
                   "MODULE:FUNCTION (see below; MODULE is imported from the current folder too)")
    p.add_argument("--t-min", type=finite("time", lambda v: v >= 0, "a finite time ≥ 0"), default=1.0,
                   metavar="T", help="first time of the uniform grid (default 1)")
    p.add_argument("--t-max", type=finite("time", lambda v: v > 0, "a finite time > 0"), default=None,
                   metavar="T",
                   help=f"last time, larger than --t-min (default {ANALYTIC_WINDOW[0]:g} for linear "
                        f"targets, {SIMULATED_WINDOW[0]:g} otherwise, {REVERSED_WINDOW[0]:g} with "
                        "reversed inputs)")
    p.add_argument("--grid", type=int_between(MIN_GRID, MAX_GRID), default=None, metavar="N",
                   help=f"number of uniformly spaced times, {MIN_GRID} … {MAX_GRID} (default "
                        f"{ANALYTIC_WINDOW[1]} for linear targets, {SIMULATED_WINDOW[1]} otherwise, "
                        f"{REVERSED_WINDOW[1]} with reversed inputs)")
    p.add_argument("--inputs", choices=INPUTS, default="heaviside",
                   help="test inputs: heaviside (Def. 3.1, the default), impulse (App. F, Dirac "
                        "reading: a pulse of mass x and width --width), reversed (x on [−t, 0) read "
                        "at time 0: the Heaviside query by time invariance, not App. G's printed "
                        "input; one simulation per time and input: slow)")
    p.add_argument("--width", type=finite("width", lambda v: v > 0, "a positive number"), default=1e-3,
                   metavar="δ", help="pulse width δ for --inputs impulse (default 1e-3; > 0)")
    p.add_argument("--max-input", type=finite("bound", lambda v: v > 0, "a positive number"),
                   default=None, metavar="X",
                   help="search only inputs with 0 < |x|∞ ≤ X (the default magnitudes 2^-10 … 2^6 below "
                        "X, X itself, refinement kept below X); default: no bound")
    p.add_argument("--tail", type=finite("fraction", lambda v: 0 <= v < 1, "in [0, 1)"), default=0.5,
                   metavar="F",
                   help="fit the decay on the last (1 − F) of the span of resolved values "
                        "(F in [0, 1), default 0.5)")
    p.add_argument("--seed", type=seed, default=0, metavar="N",
                   help="seed (0 … 2^32 − 1) of the random search directions for inputs of dimension d > 1 "
                        "(default 0)")
    p.add_argument("--json", type=output_path("--json"), metavar="PATH",
                   help="write the query as JSON here (atomically): t, M(t), accuracy, method, "
                        "lower-bound flag, fits, class or reason")
    p.add_argument("--plot", type=output_path("--plot", PLOT_FORMATS), metavar="PATH",
                   help="draw M(t) with both fits on log scales; the format follows the suffix "
                        f"({', '.join(PLOT_FORMATS[:3])}, …; png without one); needs matplotlib")
    p.add_argument("--quiet", action="store_true", help="no progress display on stderr")


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
    if not 2 * MIN_POINTS <= grid <= MAX_GRID:
        raise MemoryUsageError(f"--grid must be between {2 * MIN_POINTS} (the tail fit needs "
                               f"{MIN_POINTS} points) and {MAX_GRID}, got {grid}")
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


# An RNN file is read whole: its arrays may hold at most this many bytes once uncompressed (a
# compressed .npz of zeros can stand for far more memory than its size on disk), and W at most
# MAX_HIDDEN hidden units (every simulation integrates m states with an m×m W).
MAX_NPZ_BYTES = 2 * 10**9
MAX_HIDDEN = 4096
RNN_ARRAYS = ("W", "U", "b", "c")


def _check_npz(target: str) -> None:
    """MemoryUsageError, in the user's terms, for a FILE.npz that cannot be an RNN: a folder, not
    a .npz archive, arrays too large to load, arrays that are not real numbers, an empty W."""
    import zipfile

    import numpy as np

    from recmem.checks.limits import byte_size

    path = Path(target)
    if path.is_dir():
        raise MemoryUsageError(f"{target} is a folder, not a .npz file")
    if not path.is_file():
        return  # load_target says "no such file"
    if not zipfile.is_zipfile(target):
        raise MemoryUsageError(f"{target} is not a .npz archive (write one with numpy.savez)")
    with zipfile.ZipFile(target) as z:
        size = sum(info.file_size for info in z.infolist())
    if size > MAX_NPZ_BYTES:
        raise MemoryUsageError(f"{target} holds {byte_size(size)} of arrays once uncompressed; "
                               f"at most {byte_size(MAX_NPZ_BYTES)} are read")
    try:
        with np.load(target, allow_pickle=False) as data:
            arrays = {k: data[k] for k in RNN_ARRAYS if k in data}
    except ValueError as exc:
        if "allow_pickle" in str(exc):  # object arrays need pickle: nothing from disk runs code
            raise MemoryUsageError(f"{target} holds Python objects: W, U, b, c must be arrays "
                                   "of real numbers") from None
        raise MemoryUsageError(f"{target} is not readable as numpy arrays ({exc})") from None
    except (OSError, EOFError, zipfile.BadZipFile) as exc:
        raise MemoryUsageError(f"{target} is not readable as numpy arrays "
                               f"({type(exc).__name__}: {exc})") from None
    for name, a in arrays.items():
        if not isinstance(a, np.ndarray):  # a member that is not a .npy array: its raw bytes
            raise MemoryUsageError(f"{target}: {name} is not a numpy array (write the file with "
                                   "numpy.savez)")
        if a.dtype.kind == "c":
            raise MemoryUsageError(f"{target}: {name} is complex ({a.dtype}); the RNN's arrays "
                                   "must be real")
        if a.dtype.kind not in "biuf":
            raise MemoryUsageError(f"{target}: {name} must hold real numbers, got dtype {a.dtype}")
    w = arrays.get("W")
    if w is not None and (w.ndim != 2 or w.shape[0] != w.shape[1] or w.shape[0] == 0):
        raise MemoryUsageError(f"{target}: W must be a square matrix with at least one row, got "
                               f"shape {w.shape}")
    if w is not None and w.shape[0] > MAX_HIDDEN:
        raise MemoryUsageError(f"{target}: W has {w.shape[0]} hidden units; at most {MAX_HIDDEN}")
    u = arrays.get("U")
    if u is not None and 0 in u.shape:
        raise MemoryUsageError(f"{target}: U must have at least one column (input), got shape "
                               f"{u.shape}")


def load(target: str) -> Any:
    """The functional named by TARGET; MemoryUsageError with one line when it cannot be loaded."""
    import zipfile

    from recmem.checks.argtypes import brief
    from recmem.numerics.functionals import load_target

    if target.endswith(".npz"):
        _check_npz(target)
    # what bad input raises: a refusal (ValueError), an unreadable or corrupt file; a user's
    # module may fail in any way, so every error while importing it is reported (one line)
    expected: tuple[type[BaseException], ...] = (
        (Exception,) if _module_target(target) else
        (ValueError, OSError, EOFError, zipfile.BadZipFile))
    try:
        with _quiet_numerics():
            return load_target(target)
    except MemoryUsageError:
        raise
    except expected as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if not isinstance(exc, ValueError):
            msg = f"cannot load {target}: {type(exc).__name__}: {msg}"
        raise MemoryUsageError(brief(msg, 300, quote=False)) from None


@contextlib.contextmanager
def _quiet_numerics(caught: list[str] | None = None) -> Iterator[None]:
    """numpy's and SciPy's RuntimeWarnings (overflow, invalid value) kept off stderr, so that a
    refusal is one line; the messages go to ``caught`` (notes of a finished query)."""
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", RuntimeWarning)
        try:
            yield
        finally:
            if caught is not None:
                caught.extend(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in seen
                                            if issubclass(w.category, RuntimeWarning)))


def query(target: str, *, t_min: float = 1.0, t_max: float | None = None, grid: int | None = None,
          inputs: str = "heaviside", width: float = 1e-3, max_input: float | None = None,
          tail: float = 0.5, seed: int = 0, tick: Callable[[], None] | None = None) -> MemoryQuery:
    """M(t) of TARGET on a uniform grid (W Def. 3.1; App. F/G with ``inputs``) and its decay class
    (:func:`recmem.numerics.decay_fit.fit_decay`). MemoryUsageError for a bad target or option."""
    import numpy as np

    from recmem.numerics.decay_fit import RESOLVE_FACTOR, fit_decay
    from recmem.numerics.memory import DEFAULT_MAGNITUDES, memory_function

    started = time.perf_counter()
    if inputs not in INPUTS:
        raise MemoryUsageError(f"unknown inputs {inputs!r}: expected one of {', '.join(INPUTS)}")
    if not (math.isfinite(width) and width > 0):
        raise MemoryUsageError(f"--width must be positive, got {width}")
    if not 0 <= tail < 1:
        raise MemoryUsageError(f"--tail must lie in [0, 1), got {tail}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise MemoryUsageError(f"--seed must be a non-negative integer, got {seed}")
    _check_max_input(max_input)
    if not (math.isfinite(t_min) and t_min >= 0):
        raise MemoryUsageError(f"--t-min must be a finite time ≥ 0, got {t_min}")
    if t_max is not None and not (math.isfinite(t_max) and t_max > t_min):
        raise MemoryUsageError(f"--t-max must be finite and larger than --t-min ({t_min}), got {t_max}")
    if grid is not None and not MIN_GRID <= grid <= MAX_GRID:
        raise MemoryUsageError(f"--grid must be between {MIN_GRID} (the tail fit needs 6 points) and "
                               f"{MAX_GRID}, got {grid}")
    f = load(target)
    t_min, t_max, grid = _window(f, inputs, t_min, t_max, grid)
    t = np.linspace(t_min, t_max, grid)
    # a refusal of the target (an RNN without a rest state, a failed integration: ValueError,
    # ArithmeticError) is bad input; so is any error of a user's own callable; any other
    # exception is recmem's own and keeps its traceback
    expected: tuple[type[BaseException], ...] = (
        (Exception,) if _module_target(target) else (ValueError, ArithmeticError))
    warned: list[str] = []
    try:
        with _quiet_numerics(warned):
            curve = memory_function(f, t, inputs=inputs, width=width, seed=seed,
                                    max_input=max_input, accuracy=True, progress=tick)
    except expected as exc:
        what = str(exc).splitlines()[0] if str(exc) else ""
        kind = "" if isinstance(exc, ValueError | ArithmeticError) else f"{type(exc).__name__}: "
        raise MemoryUsageError(f"cannot compute the memory of {target}: {kind}{what}") from None
    notes = [f"numerical warning during the computation: {w}" for w in warned[:3]]
    if curve.lower_bound:
        span = (f"|x|∞ = {min(DEFAULT_MAGNITUDES):.3g} … {max(DEFAULT_MAGNITUDES):g} and refinements"
                + ("" if max_input is None else f", capped at |x|∞ ≤ {max_input:g}"))
        notes.append(f"lower bound: the sup over x ≠ 0 was searched over {curve.candidates} inputs "
                     f"({span}); more inputs can only raise it")
    if curve.accuracy is not None:
        notes.append(f"accuracy of each value: {curve.accuracy_method}")
    else:
        notes.append(f"this target offers no error estimate: values below {SEARCHED_REL_FLOOR:g}·max M "
                     "are taken as unresolved")
    rel_floor = SEARCHED_REL_FLOOR if curve.lower_bound and curve.accuracy is None else 0.0
    fit, fit_error = None, None
    try:
        fit = fit_decay(t, curve.values, tail_fraction=tail, rel_floor=rel_floor, accuracy=curve.accuracy)
        floor = fit.floor
    except ValueError as exc:
        fit_error = str(exc)
        peak = float(np.max(curve.values)) if len(curve.values) else 0.0
        floor = max(float(np.finfo(float).tiny), rel_floor * peak)
    options = {"t_min": t_min, "t_max": t_max, "grid": grid, "spacing": "uniform", "inputs": inputs,
               "resolve_factor": RESOLVE_FACTOR,
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


def _resolved(q: MemoryQuery) -> Any:
    """The mask of values the fit could use (above the floor and above the resolve factor × their
    accuracy)."""
    import numpy as np

    from recmem.numerics.decay_fit import RESOLVE_FACTOR

    v = q.curve.values
    ok = v > q.floor
    if q.curve.accuracy is not None:
        factor = q.fit.resolve_factor if q.fit is not None else RESOLVE_FACTOR
        ok &= v > factor * np.asarray(q.curve.accuracy)
    return ok


def write_plot(q: MemoryQuery, path: Path) -> None:
    """M(t) on semi-log (exponential decay is a line) and log-log (polynomial decay is a line)
    axes, unresolved values drawn apart (clipped at the floor), the accuracy as a dotted line, with
    both tail fits; written atomically."""
    import numpy as np
    from matplotlib.figure import Figure

    t, m = q.curve.t, np.maximum(q.curve.values, q.floor)
    ok = _resolved(q)
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    label = "M(t) (lower bound)" if q.curve.lower_bound else "M(t)"
    for ax, scale in zip(axes, ("semilog", "loglog"), strict=True):
        ax.plot(t[ok], m[ok], "k.", ms=3, label=label)
        if (~ok).any():
            ax.plot(t[~ok], m[~ok], "x", color="grey", ms=3, label="unresolved (not fitted)")
        if q.curve.accuracy is not None:
            acc = np.maximum(np.asarray(q.curve.accuracy), q.floor)
            ax.plot(t, acc, ":", color="tab:red", lw=0.8, label="accuracy of M(t)")
        fit = q.fit
        if fit is not None and fit.exponential is not None and fit.polynomial is not None:
            tt = t[(t >= fit.tail_start) & (t <= fit.tail_end)]
            e, p = fit.exponential, fit.polynomial
            for cls, y, txt in (
                    ("exponential", np.exp(e.log_amplitude - e.rate * tt), f"e^(−{e.rate:.4g} t)"),
                    ("polynomial", np.exp(p.log_amplitude - p.exponent * np.log(tt + p.shift)),
                     f"(t + {p.shift:.3g})^(−{p.exponent:.4g})")):
                chosen = cls == fit.decay_class
                ax.plot(tt, y, "-" if chosen else "--", lw=2 if chosen else 1,
                        label=f"{cls} fit {txt}" + (" (chosen)" if chosen else ""))
        ax.set_yscale("log")
        if scale == "loglog" and t[0] > 0:
            ax.set_xscale("log")
        ax.set_xlabel("t")
        ax.set_title("log M vs t" if scale == "semilog" else "log M vs log t")
    axes[0].legend(fontsize=7)
    verdict = q.fit.summary() if q.fit is not None else f"no fit: {q.fit_error}"
    title = f"recmem memory {q.target} ({q.curve.inputs}): {verdict}"
    fig.suptitle(title if len(title) < 160 else title[:157] + "…", fontsize=9)
    from recmem.checks.outputs import write_figure

    write_figure(fig, path)


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
    ok = _resolved(q)
    table = Table(title="memory function M(t)")
    table.add_column("t", justify="right")
    table.add_column("M(t)" + (" ≥" if c.lower_bound else ""), justify="right")
    if c.accuracy is not None:
        table.add_column("accuracy", justify="right")
    table.add_column("fitted", justify="center")
    if c.lower_bound:
        table.add_column("attained at x", justify="left")
    for i in rows:
        cells = [f"{c.t[i]:.6g}", f"{c.values[i]:.6e}"]
        if c.accuracy is not None:
            cells.append(f"{c.accuracy[i]:.1e}")
        cells.append("yes" if ok[i] else "[dim]unresolved[/]")
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
    e, p = fit.exponential, fit.polynomial
    if e is not None and p is not None:
        ft = Table(title=f"decay fits on t ∈ [{fit.tail_start:.6g}, {fit.tail_end:.6g}] "
                         f"({fit.points} points, log space)")
        for col in ("model", "parameter ± uncertainty", "shift τ", "R²", "RMS", ""):
            ft.add_column(col, justify="left" if col in ("model", "") else "right")
        ft.add_row("e^(−rt)", f"r = {e.rate:.8g} ± {e.rate_uncertainty:.2g}", "", _r2(e.r2), f"{e.rms:.2g}",
                   "chosen" if fit.decay_class == "exponential" else "")
        bound = f" ({p.shift_at_bound} bound)" if p.shift_at_bound else f" ± {p.shift_stderr:.2g}"
        ft.add_row("(t+τ)^(−p)", f"p = {p.exponent:.8g} ± {p.exponent_uncertainty:.2g}",
                   f"{p.shift:.6g}{bound}", _r2(p.r2), f"{p.rms:.2g}",
                   "chosen" if fit.decay_class == "polynomial" else "")
        con.print(ft)
    if fit.curvature is not None:
        k = fit.curvature
        con.print(f"curvature of log M: κ = {k.kappa:.3g} ± {k.kappa_uncertainty:.2g} (exponential: κ = 0; "
                  f"polynomial: κ ≥ {k.threshold:.3g})")
    style = "bold" if fit.decay_class in ("exponential", "polynomial") else "bold red"
    con.print(f"decay class: [{style}]{escape(fit.summary())}[/]")
    for note in fit.notes:
        con.print("note: " + escape(note))
    if q.reference is not None:
        err = relative_error(q)
        if err is not None:
            unc = fit.uncertainty
            inside = unc is not None and abs(fit.value - q.reference["value"]) <= unc
            tail = (f"; fit's relative error {err:.2e}, "
                    + ("within its uncertainty" if inside else "[red]outside its uncertainty[/]"))
        else:
            tail = "; the fitted class differs" if fit.decay_class != "undetermined" else ""
        con.print(f"known: {q.reference['class']} {q.reference['value']:.8g} "
                  f"({escape(q.reference['source'])}){tail}")


def _module_target(target: str) -> bool:
    kind, sep, _ = target.partition(":")
    return bool(sep) and kind not in ("exp", "poly", "expsum") and not target.endswith(".npz")


def _inputs(target: str) -> list[Any]:
    """The files a target reads (``recmem.checks.outputs.Kept``): a FILE.npz, or MODULE's source
    in the current folder; an output must not overwrite them."""
    from recmem.checks.outputs import Kept

    if target.endswith(".npz"):
        return [Kept(f"the input {target}", Path(target))]
    if _module_target(target):
        module = Path(*target.partition(":")[0].split("."))
        return [Kept(f"the source of {target}", p)
                for p in (module.with_suffix(".py"), module / "__init__.py")]
    return []


def run(args: argparse.Namespace) -> int:
    """``recmem memory``: 0 when a decay class was determined, 1 when it is undetermined;
    MemoryUsageError (exit 2) for usage, raised before any work."""
    import sys

    from recmem.checks.outputs import OutputPathError, refuse_clashes
    from recmem.checks.terminal import progress_bar, stderr_console

    try:
        refuse_clashes([("--json", args.json), ("--plot", args.plot)], _inputs(args.target))
    except OutputPathError as exc:
        raise MemoryUsageError(str(exc)) from None
    if args.plot:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise MemoryUsageError("--plot needs matplotlib (pip install 'recmem[plot]')")
    # The console script's sys.path lacks the current folder: MODULE:FUNCTION targets are imported
    # from it too, as `python -m` would (docs/MEMORY.md).
    if _module_target(args.target) and os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    err = stderr_console()
    progress = progress_bar(err.is_terminal and not args.quiet, err, count="simulations")
    task = progress.add_task("memory query", total=None)
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
    determined = q.fit is not None and q.fit.decay_class != "undetermined"
    return 0 if determined else 1


__all__ = ["MemoryQuery", "MemoryUsageError", "add_parser", "load", "query", "relative_error",
           "run", "write_plot"]
