"""``recmem condition``: certified condition numbers of paper O's Vandermonde matrices, swept over
node families, sizes, seeds and precisions, with every finished point kept at once.

The numbers come from the engine :mod:`recmem.numerics.condition` (one :func:`compute` call per
point); this module is the sweep around it: the grid of points from the command line, the store
(:mod:`recmem.checks.sweep_store`) that makes a sweep resumable, the parallel execution
(:mod:`recmem.checks.execution`), the progress display, the results table, the exports and the
plot (:mod:`recmem.checks.condition_plot`). docs/CONDITION.md is the user's guide.

Testing hook: ``RECMEM_CONDITION_ENGINE=MODULE`` replaces the engine by any importable module
with the same ``Point`` / ``compute`` (and optional ``validate``) surface. The tests use it to
exercise storing, resuming and exporting with a fast, controllable engine; the name travels with
each task, so worker processes resolve the same module.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import os
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Context, Decimal, InvalidOperation
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from recmem.checks.argtypes import brief, int_between, output_path
from recmem.checks.execution import ItemResult
from recmem.checks.sweep_store import STORE_NAME, PointKey, StoreError
from recmem.checks.terminal import progress_bar

ENGINE_ENV = "RECMEM_CONDITION_ENGINE"
DEFAULT_ENGINE = "recmem.numerics.condition"
DEFAULT_OUT = "recmem-condition"
QUANTITIES = ("kappa", "sigma", "reconstruct", "timestamp")
NORMS = ("2", "1", "inf", "fro")
# the engine's routes (recmem.numerics.condition.BACKENDS) and the one alias the issue names
BACKENDS = ("auto", "dense", "float64")
BACKEND_ALIASES = {"numpy": "float64"}
MIN_BITS, MAX_BITS = 2, 65536
MAX_DIGITS = 30
MAX_SEEDS = 1_000_000
MAX_POINTS = 1_000_000  # a grid larger than this is a typo more likely than a plan
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")
EXIT_OK, EXIT_NOT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
# a run-time oracle of a point failed: a bug of recmem, not a finding about V (issue 19)
EXIT_INCONSISTENT = 3
# the width of the results table's console when stdout is not a terminal
TABLE_WIDTH = 160

FAMILY_HELP = """\
FAMILY forms (--nodes; repeat --nodes for several families in one sweep):
  ring:RMIN:RMAX      random nodes of paper O's Lemma 6, RMIN ≤ |λ| ≤ RMAX (random: --seeds)
  roots-of-unity      the N-th roots of unity (κ₂ = 1 for L ≤ N)
  circle:R            N equispaced nodes on the circle |λ| = R
  equispaced:A:B      N equispaced real nodes in [A, B]
  chebyshev:A:B       N Chebyshev nodes in [A, B]
  real-uniform:A:B    random uniform real nodes in [A, B] (random: --seeds)
  vandercorput        van der Corput points on the unit circle
  file:PATH           nodes read from PATH (docs/CONDITION.md gives the format)

Sizes (--rows, --cols): N, a list N1,N2,..., a range A..B or a stepped range A..B:S.
Without --cols every size N gives an N×N matrix; with --cols the sweep is every rows × cols pair.

Every finished point is stored at once in --out (condition.sqlite); the same command run again
skips the stored points, so an interrupted or killed sweep resumes where it stopped (--redo
recomputes; points stored by another recmem version, or from another content of a file: family,
are computed again). Every point runs with one BLAS thread, so the float64 column is the same
serially, with --jobs and on a cluster (column float64_blas). --csv, --json and --plot are
written from the store, so on a finished sweep they only redraw.

Run-time checks: every certified bracket is compared with numpy's float64 value where float64
resolves κ (δ = 16·N·κ·u < 1/2; the bracket widened by 2δ must contain it), and with the second
route (dense ↔ structured brackets must overlap) at every point with --check, by default only at
N ≤ 16 (κ₂, σ) or N ≤ 64 (κ₁, κ_∞, κ_F); --no-check skips the second route. A disagreement, or a
certified routine failing its self-test on a matrix known exactly, is an internal inconsistency:
the point is marked INCONSISTENT (table, CSV, JSON: inconsistent = true), never certified.

Exit status: 0 every point done, certified to --digits, no overlay bound violated; 1 a bound
violated (VIOLATED, printed loudly), a point not certified to --digits, or a point without a
result (refused by the engine or failed); 2 bad usage (one line, before any work; also when the
engine refuses every point of the sweep, or a size would need more than 4 GB of memory); 3 an
internal inconsistency at some point (INCONSISTENT: a bug of recmem, please report it; it takes
precedence over 1); 130 interrupted by Ctrl-C or SIGTERM (the finished points are kept)."""


class ConditionUsageError(ValueError):
    """A bad option or sweep: the command prints its message on one line and exits with 2."""


# -- argument types ---------------------------------------------------------------------------------

class Sizes(NamedTuple):
    """A parsed size option: the text as given and the sizes it names."""

    text: str
    values: tuple[int, ...]


def _type_error(exc: Exception) -> argparse.ArgumentTypeError:
    text = str(exc).strip().splitlines()
    return argparse.ArgumentTypeError(text[0] if text else type(exc).__name__)


def family(text: str) -> Any:
    """A node family (``recmem.numerics.node_families.parse_family``)."""
    from recmem.numerics.node_families import parse_family

    try:
        return parse_family(text)
    except ValueError as exc:
        raise _type_error(exc) from None


def sizes(text: str) -> Sizes:
    """Sizes (``recmem.numerics.node_families.parse_sizes``): ``8``, ``8,16``, ``8..64``,
    ``8..64:8``."""
    from recmem.numerics.node_families import parse_sizes

    try:
        values = parse_sizes(text)
    except ValueError as exc:
        raise _type_error(exc) from None
    if not values:
        raise argparse.ArgumentTypeError(f"{text!r} names no size")
    return Sizes(text, tuple(values))


def precisions(text: str) -> tuple[int | None, ...]:
    """A comma-separated list of working precisions: ``auto`` (escalation) or bits in
    2 … 65536."""
    out: list[int | None] = []
    for item in (part.strip() for part in text.split(",")):
        if item.lower() == "auto":
            out.append(None)
            continue
        try:
            bits = int(item)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected bits ({MIN_BITS} … {MAX_BITS}) or auto, got {item!r}") from None
        if not MIN_BITS <= bits <= MAX_BITS:
            raise argparse.ArgumentTypeError(
                f"precision must be between {MIN_BITS} and {MAX_BITS} bits, got {bits}")
        out.append(bits)
    return tuple(dict.fromkeys(out))


def backend(text: str) -> str:
    """An engine route: auto, dense, float64 (alias numpy)."""
    name = BACKEND_ALIASES.get(text.lower(), text.lower())
    if name not in BACKENDS:
        raise argparse.ArgumentTypeError(
            f"expected one of {', '.join((*BACKENDS, *BACKEND_ALIASES))}, got {text!r}")
    return name


def jobs(text: str) -> int:
    """A number of parallel jobs (``recmem.checks.execution.parse_jobs``: ≥ 1, or ``auto``)."""
    from recmem.checks.execution import parse_jobs

    try:
        return parse_jobs(text)
    except ValueError as exc:
        raise _type_error(exc) from None


def out_dir(text: str) -> Path:
    """The sweep's folder: an existing writable folder, or one that can be created."""
    from recmem.checks.outputs import OutputPathError, check_output_path

    p = Path(text)
    if p.exists() and not p.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: exists and is not a directory")
    try:
        check_output_path(p / STORE_NAME, "--out")
    except OutputPathError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--out ")) from None
    return p


def add_parser(sub: Any) -> None:
    """Register ``recmem condition`` on the subparsers ``sub`` of the ``recmem`` parser."""
    from recmem.checks.execution import CLUSTER_TRUST

    p = sub.add_parser(
        "condition", help="certified condition numbers of Vandermonde matrices over node families",
        description="Sweep node families, sizes, seeds and precisions and compute, for each point, "
                    "a certified bracket of the condition number (or singular values) of paper O's "
                    "Vandermonde matrix V, with numpy's float64 value beside it and the proved "
                    "bounds that apply. Every point is stored as it finishes (--out), so a sweep "
                    "resumes where it stopped.",
        epilog=FAMILY_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", type=family, action="append", required=True, metavar="FAMILY",
                   help="node family (see below); repeat for several")
    p.add_argument("--rows", type=sizes, required=True, metavar="N[,N...]",
                   help="numbers of nodes N (rows of V): 8, 8,16,32, 8..64 or 8..64:8")
    p.add_argument("--cols", type=sizes, default=None, metavar="L[,L...]",
                   help="numbers of columns L (powers λ⁰ … λ^(L−1)); default: L = N for each N; "
                        "given, the sweep is every rows × cols pair")
    p.add_argument("--precision", type=precisions, default=(None,), metavar="BITS[,BITS...]",
                   help=f"working precision in bits, {MIN_BITS} … {MAX_BITS}, or auto; a list "
                        "sweeps them (default auto: escalate until --digits are certified)")
    p.add_argument("--norm", choices=NORMS, default="2", help="norm of κ (default 2)")
    p.add_argument("--seeds", type=int_between(1, MAX_SEEDS, "a number of seeds"), default=1,
                   metavar="K", help="seeds 0 … K−1 of each random family (default 1); "
                                     "deterministic families have one point per size")
    p.add_argument("--quantity", choices=QUANTITIES, default="kappa",
                   help="kappa (the condition number, default), sigma (σ_max and σ_min too), "
                        "reconstruct, timestamp")
    p.add_argument("--digits", type=int_between(1, MAX_DIGITS, "a number of digits"), default=3,
                   metavar="D", help=f"significant digits to certify, 1 … {MAX_DIGITS} (default 3)")
    p.add_argument("--backend", type=backend, default="auto", metavar="SPEC",
                   help="auto (structured O(N²) route for square V, default), dense (O(N³) "
                        "cross-check, small N), float64 or numpy (numpy only: values, never "
                        "certified)")
    p.add_argument("--check", action=argparse.BooleanOptionalAction, default=None,
                   help="run the second route (dense for the structured one, and back) at every "
                        "point and require the brackets to overlap; --no-check: never (default: "
                        "only at N ≤ 16 for κ₂ and σ, N ≤ 64 for κ₁, κ_∞, κ_F). A disagreement "
                        "exits 3")
    p.add_argument("--jobs", type=jobs, default=1, metavar="J",
                   help="points computed at once in J local worker processes, or auto (one per "
                        "CPU) (default 1: in this process)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="run the points on a Dask cluster (scheduler address, e.g. "
                        "tcp://host:8786 or tls://host:8786); see docs/CONDITION.md. "
                        + CLUSTER_TRUST)
    p.add_argument("--out", type=out_dir, default=Path(DEFAULT_OUT), metavar="DIR",
                   help=f"the sweep's folder: its store condition.sqlite (default ./{DEFAULT_OUT})")
    p.add_argument("--redo", action="store_true",
                   help="recompute every point of the sweep, replacing stored ones")
    p.add_argument("--json", type=output_path("--json"), default=None, metavar="PATH",
                   help="write this sweep's points (from the store) as JSON")
    p.add_argument("--csv", type=output_path("--csv"), default=None, metavar="PATH",
                   help="write this sweep's points (from the store) as CSV")
    p.add_argument("--plot", type=output_path("--plot", PLOT_FORMATS), default=None,
                   metavar="PATH", help="draw log₁₀ of the quantity against N (PNG, or the format "
                                        "of the suffix); needs matplotlib")
    p.add_argument("--quiet", action="store_true", help="no progress display or per-point lines")


# -- the sweep --------------------------------------------------------------------------------------

@dataclass
class Sweep:
    """The points a command names, in the order they run, and what was said about them."""

    keys: list[PointKey]
    settings: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def plan(args: argparse.Namespace) -> Sweep:
    """The sweep of ``args``: families × precisions × sizes × seeds, duplicates removed;
    :class:`ConditionUsageError` beyond :data:`MAX_POINTS` points."""
    families = list({f.spec: f for f in args.nodes}.values())  # 0.9 and 9/10: one family
    specs = [f.spec for f in families]
    rows = sorted(set(args.rows.values))
    if args.cols is None:
        shapes = [(n, n) for n in rows]
    else:
        shapes = [(n, m) for n in rows for m in sorted(set(args.cols.values))]
    notes = []
    if args.seeds > 1:
        fixed = [f.spec for f in families if not f.random]
        if fixed:
            notes.append(f"{', '.join(fixed)}: deterministic, so one point per size (seed 0); "
                         f"--seeds {args.seeds} applies to random families only")
    count = sum(args.seeds if f.random else 1 for f in families) * len(args.precision) * len(shapes)
    if count > MAX_POINTS:
        raise ConditionUsageError(f"the sweep has {count} points, more than {MAX_POINTS}: split it "
                                  "(same --out) or use fewer sizes, seeds or precisions")
    keys: dict[PointKey, None] = {}
    for fam in families:
        seeds = range(args.seeds) if fam.random else range(1)
        for bits in args.precision:
            for n, m in shapes:
                for s in seeds:
                    keys[PointKey(family=fam.spec, quantity=args.quantity, norm=args.norm,
                                  digits=args.digits, backend=args.backend, precision=bits,
                                  rows=n, cols=m, seed=s)] = None
    settings = {"families": specs, "rows": args.rows.text,
                "cols": None if args.cols is None else args.cols.text,
                "pairing": "N×N" if args.cols is None else "rows × cols",
                "precision": list(args.precision), "norm": args.norm, "quantity": args.quantity,
                "digits": args.digits, "seeds": args.seeds, "backend": args.backend,
                "check": getattr(args, "check", None), "points": len(keys)}
    return Sweep(list(keys), settings, notes)


def engine_name() -> str:
    """The engine module's name (``RECMEM_CONDITION_ENGINE`` or the numeric engine)."""
    return os.environ.get(ENGINE_ENV) or DEFAULT_ENGINE


def load_engine(name: str) -> ModuleType:
    """The engine module; :class:`ConditionUsageError` when it cannot be imported or lacks
    ``Point`` and ``compute``."""
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        raise ConditionUsageError(f"cannot import the engine {name}: {exc}") from None
    missing = [a for a in ("Point", "compute") if not hasattr(module, a)]
    if missing:
        raise ConditionUsageError(f"the engine {name} lacks {', '.join(missing)}")
    return module


def engine_point(module: ModuleType, key: PointKey, check: bool | None = None) -> Any:
    """The engine's ``Point`` for ``key`` (``backend`` and ``check`` only when the engine's point
    has them)."""
    import dataclasses

    kwargs: dict[str, Any] = {"family": key.family, "rows": key.rows, "cols": key.cols,
                              "seed": key.seed, "precision": key.precision, "norm": key.norm,
                              "quantity": key.quantity, "digits": key.digits}
    names = {f.name for f in dataclasses.fields(module.Point)}
    if "backend" in names:
        kwargs["backend"] = key.backend
    elif key.backend != "auto":
        raise ConditionUsageError(f"the engine {module.__name__} has no --backend choice")
    if "check" in names:
        kwargs["check"] = check
    elif check is not None:
        raise ConditionUsageError(f"the engine {module.__name__} has no --check choice")
    return module.Point(**kwargs)


def has_checks(module: ModuleType) -> bool:
    """Whether the engine runs the run-time cross-checks (its ``Point`` has ``check``)."""
    import dataclasses

    return "check" in {f.name for f in dataclasses.fields(module.Point)}


def fingerprint(key: PointKey, hashes: dict[str, str]) -> dict[str, str]:
    """What a stored row must carry to be reused for ``key``, stored with it: the recmem version
    that computed it and, for a ``file:`` family, the SHA-256 of the file's content as it is now
    (``hashes``, from :func:`node_file_hashes`), so a changed file is never answered by points of
    its old content."""
    from recmem.checks.cli import _version

    out = {"recmem": _version()}
    if key.family in hashes:
        out["nodes_sha256"] = hashes[key.family]
    return out


def node_file_hashes(families: list[Any]) -> dict[str, str]:
    """Family spec → SHA-256 of the content of its nodes file, for the ``file:`` families;
    :class:`ConditionUsageError` when a file cannot be read (it was read while parsing)."""
    import hashlib

    out = {}
    for fam in families:
        if getattr(fam, "path", None):
            try:
                out[fam.spec] = hashlib.sha256(Path(fam.path).read_bytes()).hexdigest()
            except OSError as exc:
                raise ConditionUsageError(f"cannot read node file {fam.path!r}: "
                                          f"{exc.strerror or exc}") from None
    return out


def stale(row: dict[str, Any], check: bool | None, checks: bool,
          expected: dict[str, str] | None = None) -> bool:
    """Whether a stored row must be computed again: it is marked inconsistent (a bug since
    fixed, or not: the next run says), or it does not carry the ``expected`` fingerprint
    (:func:`fingerprint`: another recmem version, another content of its nodes file, or a row
    older than fingerprints), or the engine runs cross-checks (``checks``) and the row predates
    them, or ``--check`` asks for the second route that the row skipped."""
    if row.get("inconsistent"):
        return True
    if expected and any(row.get(name) != value for name, value in expected.items()):
        return True
    if not checks or row.get("quantity") in ("reconstruct", "timestamp"):
        return False
    return "inconsistent" not in row or (check is True and row.get("route_check") == "not run")


@dataclass(frozen=True)
class PointTask:
    """The function each worker runs: one point through the engine, as an outcome dict that
    never raises (``status`` ok with ``row``, refused with ``message`` for the engine's
    ValueError, error with ``message`` and ``traceback``). Picklable: the engine travels by name."""

    engine: str
    check: bool | None = None

    def __call__(self, key: PointKey) -> dict[str, Any]:
        from recmem.numerics.certified_oracles import InternalInconsistency

        started = time.perf_counter()
        try:
            module = importlib.import_module(self.engine)
            row = module.compute(engine_point(module, key, self.check))
        except ValueError as exc:
            return {"status": "refused", "message": _one_line(exc)}
        except Exception as exc:  # an engine bug or a resource limit: reported, the sweep goes on
            return {"status": "error", "message": f"{type(exc).__name__}: {_one_line(exc)}",
                    "traceback": traceback.format_exc(),
                    "inconsistent": isinstance(exc, InternalInconsistency),
                    "seconds": time.perf_counter() - started}
        return {"status": "ok", "row": row}


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def check_executor(jobs: int, cluster: str | None) -> None:
    """Refuse a bad ``--jobs`` / ``--cluster`` pair or address before any work (nothing starts)."""
    from recmem.checks.execution import make_executor

    try:
        make_executor(jobs, cluster)
    except ImportError as exc:
        raise ConditionUsageError(f"--cluster needs dask.distributed ({_one_line(exc)}); "
                                  "pip install 'dask[distributed]'") from None
    except ValueError as exc:
        raise ConditionUsageError(_one_line(exc)) from None


def _start_executor(jobs: int, cluster: str | None, stack: contextlib.ExitStack) -> Any:
    """The executor of :func:`recmem.checks.execution.make_executor`, started and entered on
    ``stack`` (so that however the sweep ends, pending points are cancelled and workers stop);
    :class:`ConditionUsageError` when a cluster cannot be reached."""
    from recmem.checks.execution import make_executor

    try:
        return stack.enter_context(make_executor(jobs, cluster))
    except ImportError as exc:
        raise ConditionUsageError(f"--cluster needs dask.distributed ({_one_line(exc)})") from None
    except (OSError, ValueError) as exc:  # ClusterUnavailable is a ValueError
        raise ConditionUsageError(_one_line(exc)) from None


# -- presentation -----------------------------------------------------------------------------------

def symbol(quantity: str, norm: str) -> str:
    """How a row's ``value`` is written: κ₂, κ₁, κ∞ or κ_F (also for ``sigma``, whose rows carry
    κ as the value and σ_max, σ_min beside it), or the quantity's name."""
    if quantity in ("kappa", "sigma"):
        return "κ" + {"2": "₂", "1": "₁", "inf": "∞", "fro": "_F"}[norm]
    return {"reconstruct": "reconstruction error", "timestamp": "timestamp error"}.get(
        quantity, quantity)


def significant(text: Any, digits: int, rounding: str = ROUND_HALF_EVEN) -> str:
    """A decimal string with ``digits`` significant digits (``rounding`` ROUND_FLOOR /
    ROUND_CEILING keep a bracket outward); values beyond the float range stay exact."""
    if text is None:
        return "—"
    try:
        d = Decimal(str(text))
    except InvalidOperation:
        return str(text)
    if d.is_nan():
        return "nan"
    if d.is_infinite():
        return "∞" if d > 0 else "−∞"
    if d == 0:
        return "0"
    ctx = Context(prec=digits, rounding=rounding, Emax=999_999_999, Emin=-999_999_999)
    r = ctx.plus(d)
    exp = r.adjusted()
    if -3 <= exp < digits:  # plain notation when it shows exactly the significant digits
        return str(r.quantize(Decimal(1).scaleb(exp - digits + 1), context=ctx))
    mantissa = r.scaleb(-exp, ctx).quantize(Decimal(1).scaleb(1 - digits), context=ctx)
    return f"{mantissa}e{exp:+d}"


def where(key: PointKey, random: bool | None = None) -> str:
    """A point in words: family, sizes, seed (for random families) and precision."""
    seed = "" if random is False else f" seed {key.seed}"
    bits = "" if key.precision is None else f" @{key.precision} bits"
    return f"{key.family} N={key.rows} L={key.cols}{seed}{bits}"


def bracket(row: dict[str, Any], digits: int, prefix: str = "") -> str:
    """``[lower, upper]`` (of ``prefix``, e.g. ``sigma_min_``) rounded outward to ``digits`` + 1
    significant digits."""
    lo, hi = row.get(f"{prefix}lower"), row.get(f"{prefix}upper")
    if lo is None and hi is None:
        return "—"
    return (f"[{significant(lo, digits + 1, ROUND_FLOOR)}, "
            f"{significant(hi, digits + 1, ROUND_CEILING)}]")


def uncertified(key: PointKey, row: dict[str, Any]) -> bool:
    """Whether a point misses its requested digits: the engine's ``certified`` is false (it
    compares the digits it certified with the point's ``digits``). float64 points certify
    nothing by design and are never counted; an inconsistent point is counted as such
    (:func:`inconsistent`), not here."""
    if key.backend == "float64" or inconsistent(row):
        return False
    return not row.get("certified")


def inconsistent(row: dict[str, Any]) -> bool:
    """Whether a run-time oracle of the point failed (the engine's ``inconsistent``): its
    bracket disagrees with float64 where float64 resolves κ, or with the second route, or a
    certified routine failed its self-test. Never certified; exit status 3."""
    return bool(row.get("inconsistent"))


def violations(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The overlay bounds the measured bracket contradicts."""
    return [o for o in row.get("overlays") or [] if o.get("holds") is False]


def remedy(key: PointKey) -> str:
    """What may certify a point that missed its digits: more bits when the precision was fixed;
    with automatic precision (which already escalated to the engine's ceiling, or met the
    float64 stage's limit of the structured route) another route or a smaller request."""
    fewer = f"fewer --digits (below {key.digits})"
    if key.precision is not None:
        return f"raise --precision (above {key.precision} bits) or leave it automatic, or ask " + fewer
    if key.backend == "dense":
        return f"ask {fewer} or a smaller N (--rows)"
    return f"try --backend dense (N ≤ 256), ask {fewer}, or a smaller N (--rows)"


def or_dash(value: Any) -> str:
    return "—" if value is None else str(value)


def float64_text(row: dict[str, Any], digits: int) -> str:
    v = row.get("float64")
    if v is None:
        return "inf/nan"
    return significant(repr(float(v)), digits)


TABLE_COLUMNS = ("family", "N", "L", "seed", "bits", "value", "bracket", "certified", "float64",
                 "digits")
RIGHT_ALIGNED = ("N", "L", "seed", "bits", "value", "float64", "digits")
# brackets of --quantity sigma, shown when the rows have them
SIGMA_COLUMNS = {"sigma_max": "σ_max", "sigma_min": "σ_min"}


# the "certified" column: each state's text and its style in the terminal
CERT_TEXT = {"inconsistent": "INCONSISTENT", "float64": "float64 only", "no": "NO", "yes": "yes"}
CERT_STYLE = {"inconsistent": "bold red", "float64": "dim", "no": "bold yellow", "yes": "green"}


def certification(key: PointKey, row: dict[str, Any]) -> str:
    """A point's certification state (a key of :data:`CERT_TEXT`): its two routes disagree,
    float64 only, not certified to the digits asked, or certified."""
    if inconsistent(row):
        return "inconsistent"
    if key.backend == "float64":
        return "float64"
    return "no" if uncertified(key, row) else "yes"


def point_cells(key: PointKey, row: dict[str, Any], random: bool, sigmas: list[str]) -> list[str]:
    """One point's row of the results table as plain text, cell for cell (``TABLE_COLUMNS``,
    then the σ columns ``sigmas``): the terminal table and the site's sweep page both print it."""
    bits = row.get("precision_used")
    return [key.family, str(key.rows), str(key.cols), str(key.seed) if random else "—",
            "—" if bits is None else str(bits), significant(row.get("value"), key.digits),
            bracket(row, key.digits),
            CERT_TEXT[certification(key, row)] + (" VIOLATED" if violations(row) else ""),
            float64_text(row, key.digits), f"{or_dash(row.get('digits_certified'))}/{key.digits}",
            *(bracket(row, key.digits, f"{s}_") for s in sigmas)]


def _table(keys: list[PointKey], rows: dict[PointKey, dict[str, Any]], random: dict[str, bool],
           title: str) -> Any:
    """The results table. Nothing is cut: every column keeps the width of its widest cell,
    except the bracket and certified columns, which may wrap at their spaces on a narrow
    terminal (a table wider than the terminal wraps as text)."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    sigmas = [s for s in SIGMA_COLUMNS if any(f"{s}_lower" in r for r in rows.values())]
    cells: list[list[str]] = []
    for key in keys:
        row = rows.get(key)
        if row is None:
            seed = str(key.seed) if random.get(key.family, True) else "—"
            cells.append([escape(key.family), str(key.rows), str(key.cols), seed, "",
                          "[dim]no result[/]", "", "", "", ""] + ["" for _ in sigmas])
            continue
        state = certification(key, row)
        cert = f"[{CERT_STYLE[state]}]{CERT_TEXT[state]}[/]"
        if violations(row):
            cert += " [bold red]VIOLATED[/]"
        plain = point_cells(key, row, random.get(key.family, True), sigmas)
        cells.append([escape(plain[0]), *plain[1:7], cert, *plain[8:]])
    t = Table(title=title)
    for i, col in enumerate((*TABLE_COLUMNS, *(SIGMA_COLUMNS[s] for s in sigmas))):
        wraps = col in ("bracket", "certified", *SIGMA_COLUMNS.values())
        texts = [Text.from_markup(c[i]).plain for c in cells]
        words = [w for text in texts for w in text.split()] if wraps else texts
        width = max([len(col), *(len(w) for w in words)])
        t.add_column(col, justify="right" if col in RIGHT_ALIGNED else "left",
                     no_wrap=not wraps, min_width=width)
    for c in cells:
        t.add_row(*c)
    return t


def _point_line(done: int, total: int, key: PointKey, outcome: dict[str, Any], random: bool,
                sym: str) -> str:
    head = f"[{done}/{total}] {where(key, random)}: "
    if outcome["status"] == "refused":
        return head + f"refused: {outcome['message']}"
    if outcome["status"] == "error":
        return head + f"failed: {outcome['message']}"
    row = outcome["row"]
    cert = ("INCONSISTENT: " + str(row.get("inconsistency")) if inconsistent(row) else
            "float64 only" if key.backend == "float64" else
            "certified" if not uncertified(key, row) else
            f"NOT certified to {key.digits} digits ({or_dash(row.get('digits_certified'))})")
    bits = row.get("precision_used")
    return (head + f"{sym} = {significant(row.get('value'), key.digits)} ∈ "
            f"{bracket(row, key.digits)} {cert}" + (f", {bits} bits" if bits else "")
            + f" ({float(row.get('seconds') or 0):.2f} s)")


# -- the command ------------------------------------------------------------------------------------

@dataclass
class _Outcomes:
    refused: dict[PointKey, str] = field(default_factory=dict)
    failed: dict[PointKey, dict[str, Any]] = field(default_factory=dict)


def run(args: argparse.Namespace) -> int:
    """``recmem condition``: the exit status (docs/CONDITION.md); :class:`ConditionUsageError`
    for bad usage, raised before any work."""
    from recmem.checks.outputs import Kept, OutputPathError, refuse_clashes
    from recmem.checks.sweep_store import SweepStore

    kept = [Kept("the sweep's store", args.out / STORE_NAME, sqlite=True),
            *(Kept(f"the input of --nodes {f.spec}", Path(f.path)) for f in args.nodes if f.path)]
    try:
        refuse_clashes([("--csv", args.csv), ("--json", args.json), ("--plot", args.plot)], kept)
    except OutputPathError as exc:
        raise ConditionUsageError(str(exc)) from None
    if args.plot:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise ConditionUsageError("--plot needs matplotlib (pip install 'recmem[plot]')")
    check_executor(args.jobs, args.cluster)
    sweep = plan(args)
    engine = load_engine(engine_name())
    check_memory(engine, sweep.keys, args.check)
    refused = _validate(engine, sweep.keys, args.check)
    if refused and len(refused) == len(sweep.keys):
        raise ConditionUsageError(_refusal_summary(refused, len(sweep.keys)))
    fresh = not (args.out / STORE_NAME).exists()
    try:
        store = SweepStore(args.out)
    except StoreError as exc:
        raise ConditionUsageError(str(exc)) from None
    unused = False
    try:
        with store:
            try:
                return _sweep(args, sweep, store, engine, refused)
            except ConditionUsageError:
                unused = fresh and not store.sweeps()
                raise
    finally:
        if unused:  # bad usage found late (a cluster that does not answer) leaves no store
            _remove_store(args.out)


def check_memory(engine: ModuleType, keys: list[PointKey], check: bool | None = None) -> None:
    """Refuse, before any allocation, a sweep whose largest point the engine estimates (its
    ``memory_estimate``, when it has one) to need more than ``checks.limits.MEMORY_BUDGET``
    (``checks.limits.over_budget``): :class:`ConditionUsageError` naming the size, the estimate
    and the largest N that fits."""
    from recmem.checks.limits import MEMORY_BUDGET, over_budget

    estimate = getattr(engine, "memory_estimate", None)
    if estimate is None or not keys:
        return
    shapes = {(k.rows, k.cols, k.quantity, k.precision): k for k in keys}
    need, key = max(((float(estimate(engine_point(engine, k, check))), k)
                     for k in shapes.values()), key=lambda t: t[0])
    size = f"N = {key.rows}" + ("" if key.rows == key.cols else f", L = {key.cols}")
    refusal = over_budget(need, f"a point at {brief(size, 80, quote=False)}")
    if refusal is None:
        return
    fits = ""
    if key.rows == key.cols:  # the largest square size within the budget (estimates grow with N)
        lo, hi = 1, key.rows
        while lo < hi:
            mid = (lo + hi + 1) // 2
            probe = dataclasses.replace(key, rows=mid, cols=mid)
            lo, hi = ((mid, hi) if estimate(engine_point(engine, probe, check)) <= MEMORY_BUDGET
                      else (lo, mid - 1))
        fits = f"; N ≤ {lo} fits"
    option = "--rows" if key.rows == key.cols else "--rows/--cols"
    raise ConditionUsageError(f"{option} too large: {refusal}{fits}")


def _remove_store(folder: Path) -> None:
    """Remove a store this run created and never used (and its folder when left empty)."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            (folder / f"{STORE_NAME}{suffix}").unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def _validate(engine: ModuleType, keys: list[PointKey],
              check: bool | None = None) -> dict[PointKey, str]:
    """The points the engine refuses up front (its ``validate``, when it has one), with why."""
    validate = getattr(engine, "validate", None)
    refused: dict[PointKey, str] = {}
    for key in keys:
        point = engine_point(engine, key, check)
        if validate is None:
            continue
        try:
            validate(point)
        except ValueError as exc:
            refused[key] = _one_line(exc)
    return refused


def _refusal_summary(refused: dict[PointKey, str], total: int) -> str:
    reasons = Counter(refused.values())
    reason = reasons.most_common(1)[0][0]
    scope = "every point" if len(refused) == total else f"{len(refused)} of {total} points"
    more = f" (and {len(reasons) - 1} other reason(s))" if len(reasons) > 1 else ""
    return f"the engine refuses {scope} of the sweep: {reason}{more}"


def _sweep(args: argparse.Namespace, sweep: Sweep, store: Any, module: ModuleType,
           refused: dict[PointKey, str]) -> int:
    from recmem.checks import interrupt
    random = {f.spec: bool(f.random) for f in args.nodes}
    total = len(sweep.keys)
    runnable = [k for k in sweep.keys if k not in refused]
    stored = set() if args.redo else store.stored_keys() & set(runnable)
    # stored rows marked inconsistent, computed by another recmem or from another content of
    # their nodes file, or without the run-time checks this run asks for, run again
    checks = has_checks(module)
    hashes = node_file_hashes(args.nodes)
    again = {k for k, row in store.get(stored).items()
             if stale(row, args.check, checks, fingerprint(k, hashes))}
    stored -= again
    todo = [k for k in runnable if k not in stored]
    outcomes = _Outcomes(refused=dict(refused))
    sym = symbol(args.quantity, args.norm)
    live = sys.stderr.isatty() and not args.quiet
    lines = not live and not args.quiet
    done = 0
    sweep_id: int | None = None
    try:
        # leaving this block on an exception (Ctrl-C) cancels the pending points and stops the
        # workers; on success it waits for them
        with contextlib.ExitStack() as stack:
            executor = _start_executor(args.jobs, args.cluster, stack) if todo else None
            if not args.quiet:
                for note in sweep.notes:
                    sys.stderr.write(f"note: {note}\n")
                if stored:
                    sys.stderr.write(f"{len(stored)} of {total} points already done, running "
                                     f"{len(todo)}" + ("" if todo else "; redrawing from the store")
                                     + "\n")
                elif args.redo and todo:
                    sys.stderr.write(f"--redo: recomputing all {len(todo)} points\n")
                if again:
                    sys.stderr.write(f"{len(again)} stored point(s) marked inconsistent or "
                                     "without the run-time checks asked for, or computed by "
                                     "another recmem version or from another content of their "
                                     "nodes file: computing them again\n")
            if refused:
                sys.stderr.write(f"recmem: warning: {_refusal_summary(refused, total)}; running "
                                 "the others\n")
            sweep_id = store.begin_sweep(sweep.settings, _command_line(sweep.settings))
            progress = stack.enter_context(progress_bar(live))
            task = progress.add_task(sym, total=len(todo))
            results = (executor.map_unordered(PointTask(module.__name__, args.check), todo)
                       if executor else iter(()))
            for index, result in results:
                key = todo[index]
                done += 1
                outcome = _outcome(result)
                if outcome["status"] == "ok":
                    with interrupt.deferred():
                        store.put(key, outcome["row"] | fingerprint(key, hashes), sweep_id)
                elif outcome["status"] == "refused":
                    outcomes.refused[key] = outcome["message"]
                else:
                    outcomes.failed[key] = outcome
                progress.update(task, advance=1,
                                description=f"{sym} {where(key, random.get(key.family))}")
                if lines and outcome["status"] != "refused":
                    sys.stderr.write(_point_line(done, len(todo), key, outcome,
                                                 random.get(key.family, True), sym) + "\n")
    except KeyboardInterrupt:
        interrupt.settle()
        if sweep_id is not None:
            store.end_sweep(sweep_id, "interrupted")
        rows = store.get(sweep.keys)
        _finish(args, sweep, rows, random, outcomes, complete=False)
        sys.stderr.write(f"recmem: interrupted: {len(rows)} of {total} points of this sweep are "
                         f"stored in {store.path}; run the same command again to compute the "
                         f"other {total - len(rows)} (stored points are skipped)\n")
        return EXIT_INTERRUPTED
    except StoreError as exc:
        sys.stderr.write(f"recmem: error: {exc}; {done} point(s) of this run were computed\n")
        return EXIT_NOT_OK
    assert sweep_id is not None
    rows = store.get(sweep.keys)
    if not rows and outcomes.refused and not outcomes.failed:
        store.end_sweep(sweep_id, "refused")
        raise ConditionUsageError(_refusal_summary(outcomes.refused, total))
    store.end_sweep(sweep_id, "complete")
    return _finish(args, sweep, rows, random, outcomes, complete=True)


def _outcome(result: ItemResult[dict[str, Any]]) -> dict[str, Any]:
    """A :class:`PointTask` outcome from the executor's result (an error there is a worker that
    died, or a result that could not travel back)."""
    if result.ok and result.value is not None:
        return result.value
    return {"status": "error", "message": str(result.error),
            "traceback": getattr(result.error, "traceback", "")}


def _command_line(settings: dict[str, Any]) -> list[str]:
    """The canonical command of a sweep (stored with it)."""
    argv = ["recmem", "condition"]
    for spec in settings["families"]:
        argv += ["--nodes", spec]
    argv += ["--rows", settings["rows"]]
    if settings["cols"] is not None:
        argv += ["--cols", settings["cols"]]
    argv += ["--precision", ",".join("auto" if b is None else str(b) for b in settings["precision"]),
             "--norm", settings["norm"], "--quantity", settings["quantity"],
             "--digits", str(settings["digits"]), "--seeds", str(settings["seeds"]),
             "--backend", settings["backend"]]
    if settings.get("check") is not None:
        argv.append("--check" if settings["check"] else "--no-check")
    return argv


def _finish(args: argparse.Namespace, sweep: Sweep, rows: dict[PointKey, dict[str, Any]],
            random: dict[str, bool], outcomes: _Outcomes, *, complete: bool) -> int:
    """The table, the findings, the exports; the exit status of a finished sweep."""
    from rich.console import Console
    from rich.markup import escape

    keys = sorted(sweep.keys, key=PointKey.sort_key)
    sym = symbol(args.quantity, args.norm)
    con = Console(highlight=False, emoji=False)  # emoji: chebyshev:-1:1 is no thumbs-down
    if not con.is_terminal:  # a file or a pipe: no terminal width to fit, nothing cut
        con.width = max(con.width, TABLE_WIDTH)
    title = (f"recmem condition: {sym} of V (N×L)" + ("" if args.quantity != "kappa" else
                                                      f", {args.digits} digits")
             + ("" if complete else " (interrupted)"))
    table = _table(keys, rows, random, title)
    from rich.measure import Measurement

    # never cut a cell: on a terminal narrower than the table's minimum, the terminal wraps lines
    con.width = max(con.width, Measurement.get(con, con.options.update_width(10**5), table).minimum)
    con.print(table)
    n_ok = sum(1 for k in keys if k in rows and not uncertified(k, rows[k])
               and not inconsistent(rows[k]))
    bugs = [k for k in keys if k in rows and inconsistent(rows[k])]
    bugs += [k for k, o in outcomes.failed.items() if o.get("inconsistent") and k not in rows]
    violated = [(k, o) for k in keys if k in rows for o in violations(rows[k])]
    not_cert = [k for k in keys if k in rows and uncertified(k, rows[k])]
    missing = [k for k in keys if k not in rows]
    certified = ("float64 only: values, not certified" if args.backend == "float64" else
                 f"{n_ok} certified to {args.digits} digits")
    con.print(f"{len(rows)} of {len(keys)} points done, {certified}"
              + (f", {len(violated)} bound(s) VIOLATED" if violated else "")
              + (f", {len(bugs)} INCONSISTENT" if bugs else "")
              + f" (store: {escape(str(args.out))})")
    for key in bugs:
        why = (rows[key].get("inconsistency") if key in rows
               else outcomes.failed[key].get("message"))
        con.print(f"[bold red]INCONSISTENT[/]: {escape(where(key, random.get(key.family)))}: "
                  f"{escape(str(why))} — an internal inconsistency of recmem (a bug, not a fact "
                  "about V: please report it); the point is not certified and is computed again "
                  "by the next run")
    for key, o in violated:
        row = rows[key]
        rel = "≤" if o.get("side") == "upper" else "≥"
        what, prefix = sym, ""
        if o.get("quantity") and f"{o['quantity']}_lower" in row:  # e.g. a bound on σ_min
            what, prefix = str(o["quantity"]), f"{o['quantity']}_"
        con.print(f"[bold red]VIOLATED[/]: {escape(where(key, random.get(key.family)))}: measured "
                  f"{escape(what)} ∈ [{escape(str(row.get(prefix + 'lower')))}, "
                  f"{escape(str(row.get(prefix + 'upper')))}] but {escape(str(o.get('name')))} "
                  f"says {rel} {escape(str(o.get('bound')))} — one of the two is wrong")
    for key in not_cert:
        row = rows[key]
        note = row.get("note") or ""
        con.print(f"[yellow]not certified[/] to {key.digits} digits: "
                  f"{escape(where(key, random.get(key.family)))}: "
                  f"{or_dash(row.get('digits_certified'))} digit(s) at "
                  f"{or_dash(row.get('precision_used'))} bits"
                  + (f" ({escape(note)})" if note else "")
                  + " — a limit of the arithmetic at this precision, not an error in the tool; "
                  + escape(remedy(key)))
    for key in missing:
        if key in outcomes.refused:
            con.print(f"[yellow]refused[/] by the engine: {escape(where(key, random.get(key.family)))}: "
                      f"{escape(outcomes.refused[key])}")
        elif key in outcomes.failed:
            con.print(f"[red]failed[/]: {escape(where(key, random.get(key.family)))}: "
                      f"{escape(outcomes.failed[key]['message'])}")
    if outcomes.failed:
        last = list(outcomes.failed.values())[-1]
        sys.stderr.write("recmem: the engine failed on "
                         f"{len(outcomes.failed)} point(s) (a bug: please report it); the last "
                         "traceback:\n" + last.get("traceback", ""))
    exported = _export(args, sweep, keys, rows, complete=complete and not missing)
    if not complete:
        return EXIT_INTERRUPTED
    if bugs:
        return EXIT_INCONSISTENT
    return EXIT_NOT_OK if violated or not_cert or missing or not exported else EXIT_OK


def _export(args: argparse.Namespace, sweep: Sweep, keys: list[PointKey],
            rows: dict[PointKey, dict[str, Any]], *, complete: bool) -> bool:
    """Write --csv, --json and --plot from the stored rows; False (said on stderr) when one
    cannot be written (the paths were checked before any work, so this is a full disk or a
    folder removed meanwhile: the points stay in the store)."""
    from recmem.checks import sweep_store
    from recmem.checks.outputs import write_atomic

    records = [sweep_store.record(k, rows[k]) for k in keys if k in rows]
    try:
        if args.csv:
            write_atomic(args.csv, sweep_store.csv_text(records))
        if args.json:
            from recmem.checks.cli import _version

            doc = {"command": "condition", "recmem": _version(), "settings": sweep.settings,
                   "complete": complete, "points_total": len(keys), "points_done": len(records),
                   "points": records}
            write_atomic(args.json, sweep_store.json_text(doc))
        if args.plot:
            from recmem.checks.condition_plot import write_plot

            write_plot(records, args.plot, symbol(args.quantity, args.norm),
                       incomplete=None if complete else (len(records), len(keys)))
    except OSError as exc:
        sys.stderr.write(f"recmem: error: cannot write an export: {exc.strerror or exc} "
                         f"({exc.filename or ''}); the points are in the store\n")
        return False
    return True


__all__ = ["ConditionUsageError", "PointTask", "Sweep", "add_parser", "engine_point", "load_engine",
           "plan", "run", "significant", "symbol"]
