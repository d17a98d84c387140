"""The conditioning engine: certified condition numbers and singular values of paper O's V.

One *point* of a conditioning study (:class:`Point`) is a node family, a size N×L, a seed, a norm,
a quantity and a precision policy; :func:`compute` returns one flat, JSON-able result row. The
engine serves ``recmem condition`` and the study claims (O.real-illcond, O.ring-conditioning,
O.sparse-conditioning), so that there is one way to condition a Vandermonde matrix in recmem.

Routes (``Point.backend``):

- ``auto``: square V by the O(N²) structured route (``numerics.vandermonde_enclosure``: V⁻¹ from
  the master polynomial in ball arithmetic, then certified float64 norms and σ_max from
  ``numerics.float_enclosure``); a tall V (N > L) by the dense route; a wide V (N < L) has
  rank ≤ N < L, so κ = ∞ (certified from the shape, as in ``numerics.certified``).
- ``dense``: the O(N³) cross-check: κ₂ and σ from certified eigenvalues of the Gram matrix VᴴV
  (``numerics.certified.sigma_bracket``), κ_F/κ₁/κ_∞ of a square V from flint's certified
  ``acb_mat.inv``; practical up to N ≈ 128.
- ``float64``: numpy only; a value, never certified.

Every row carries the float64 value (numpy) beside the certified bracket, so a reader sees where
float64 stops meaning anything. Precision (``Point.precision`` None) escalates from a size-based
start, doubling, until the bracket certifies ``digits`` significant digits or :data:`MAX_BITS` is
reached; the row states the bits that did it. Certified digits are ⌊−log₁₀((hi − lo)/lo)⌋.

Run-time oracles (issue 19; :func:`cross_checks`): every bracket is compared with the float64 value
where float64 resolves κ (:func:`float64_agrees`) and with the second route (dense ↔ structured)
where it runs (:func:`check_runs`); each certified routine checks itself on a matrix known exactly
(``numerics.certified_oracles``). A failure marks the row ``inconsistent`` (never certified).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.numerics.certified import mpf_to_fraction as _q  # the one exact mpf → Fraction

QUANTITIES = ("kappa", "sigma", "reconstruct", "timestamp")
NORMS = ("2", "1", "inf", "fro")
BACKENDS = ("auto", "dense", "float64")
MAX_BITS = 16384  # the ceiling of automatic escalation (a stated, documented limit)
DENSE_MAX_N = 256  # the dense route's O(N³) ball work is impractical beyond this
# the second route runs at every point up to this N unless ``Point.check`` says otherwise
# (benchmarks/bench_condition.py --check measures its cost; docs/CONDITION.md): the dense Gram
# route (κ₂, σ) costs about a second at N = 16 for real nodes and 10 s at N = 32; the dense
# inverse (κ₁, κ_∞, κ_F) well under 0.1 s at N = 32
CHECK_AUTO_N = {"gram": 16, "inverse": 64}
# the float64 route's κ has a relative error ≤ δ/(1 − δ), δ = FLOAT64_C·N·κ·u (a backward stable
# SVD: |σ̂_i − σ_i| ≤ p(N)·u·σ_max, Higham §20 / LAPACK Users' Guide §4.9; LU inversion: the same
# form with a modest growth factor); a generous constant, so that only a gross disagreement counts
FLOAT64_C = 16
FLOAT64_RESOLVED = Fraction(1, 2)  # δ below this: float64 resolves κ, and must agree
FLOAT_STAGE_DIGITS = {"2": 9, "fro": 11, "1": 11, "inf": 11}  # what the float64 stage can certify
# Every point computes with this many BLAS threads, whatever runs it (this process, a --jobs
# worker, a Dask worker): a LAPACK SVD splits its sums by thread, so numpy's float64 κ of an
# ill-conditioned V depends on the thread count (ring N = 128: 8.1941024e10 with one thread,
# 8.1940983e10 with two), and a sweep's exports would depend on --jobs. The certified brackets
# do not (they are brackets whatever the rounding), but their float64 stage is pinned too.
BLAS_THREADS = 1
# Bytes per entry of the N×max(N, L) matrix that one point holds at its peak (V and V⁻¹ as float
# enclosures, numpy's float64 copy and its SVD's workspace): measured 157–178 B per entry for κ₂
# by the structured route at N = 400, 800, 1600 (peak RSS over the interpreter's); see
# :func:`memory_estimate`
ENTRY_BYTES = 192


@dataclass(frozen=True)
class Point:
    """One point of a conditioning sweep (picklable; ``family`` is a canonical family spec of
    ``numerics.node_families``)."""

    family: str
    rows: int
    cols: int
    seed: int
    precision: int | None
    norm: str
    quantity: str
    digits: int = 3
    backend: str = "auto"
    # the second route (dense ↔ structured) as a cross-check: True at every point, False never,
    # None (default) when N ≤ CHECK_AUTO_N
    check: bool | None = None


def validate(point: Point) -> None:
    """Refuse a point outside the engine's domain with a one-line ValueError."""
    from recmem.numerics.validate import positive_int

    positive_int(point.rows, "rows N")
    positive_int(point.cols, "columns L")
    if point.norm not in NORMS:
        raise ValueError(f"unknown norm {point.norm!r}; expected one of {', '.join(NORMS)}")
    if point.quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {point.quantity!r}; expected one of "
                         f"{', '.join(QUANTITIES)}")
    if point.backend not in BACKENDS:
        raise ValueError(f"unknown backend {point.backend!r}; expected one of {', '.join(BACKENDS)}")
    if not 1 <= point.digits <= 30:
        raise ValueError(f"digits must be between 1 and 30, got {point.digits}")
    if point.precision is not None and not 2 <= point.precision <= 65536:
        raise ValueError(f"precision must be between 2 and 65536 bits, got {point.precision}")
    if point.norm in ("1", "inf") and point.rows != point.cols and point.quantity in ("kappa",
                                                                                     "sigma"):
        raise ValueError(f"κ in the {point.norm}-norm needs a square V (N = L); got "
                         f"{point.rows}×{point.cols} (use --norm 2 or fro)")


def memory_estimate(point: Point) -> float:
    """An estimate of the peak memory (bytes) of :func:`compute` at ``point``, known before any
    allocation: :data:`ENTRY_BYTES` per entry of N×max(N, L), and for ``reconstruct`` and
    ``timestamp`` an acb ball per entry besides (two arbs of the working precision, about 48 bytes
    of structure each). inf for sizes beyond the float range."""
    try:
        entries = float(point.rows) * float(max(point.rows, point.cols))
        per = float(ENTRY_BYTES)
        if point.quantity in ("reconstruct", "timestamp"):
            bits = point.precision or max(256, default_start_bits(point.rows))
            per += 2 * (48 + bits / 8)
        return entries * per
    except OverflowError:
        return math.inf


# ---- decimal output -------------------------------------------------------------------------------
def decimal(x: Fraction, *, up: bool, sig: int = 12) -> str:
    """``x`` ≥ 0 as a decimal string with ``sig`` significant digits, rounded down (or ``up``)."""
    if x == 0:
        return "0"
    e = _floor_log10(x) - sig + 1
    scaled = x / Fraction(10) ** e
    m = math.ceil(scaled) if up else math.floor(scaled)
    if m >= 10**sig:  # rounding up carried a digit
        m //= 10
        e += 1
        m += 1 if up else 0
    s = str(m)
    exp = e + len(s) - 1
    return f"{s[0]}.{s[1:]}e{exp:+d}" if len(s) > 1 else f"{s}e{exp:+d}"


def _floor_log10(x: Fraction) -> int:
    e = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e


def log10(x: Fraction) -> float:
    """log₁₀ of a positive rational beyond the float range (−inf for 0)."""
    if x <= 0:
        return -math.inf
    return (math.log10(x.numerator) - math.log10(x.denominator))


def certified_digits(lo: Fraction, hi: Fraction) -> int:
    """⌊−log₁₀((hi − lo)/lo)⌋ (0 when the bracket is wider than its lower end; 17 when exact)."""
    if lo <= 0:
        return 0
    if hi == lo:
        return 17
    return max(0, math.floor(-log10((hi - lo) / lo)))


def _bracket(prefix: str, lo: Fraction, hi: Fraction) -> dict[str, Any]:
    p = f"{prefix}_" if prefix else ""
    return {f"{p}lower": decimal(lo, up=False), f"{p}upper": decimal(hi, up=True),
            f"{p}log10_lower": log10(lo), f"{p}log10_upper": log10(hi)}


# ---- the routes -----------------------------------------------------------------------------------
@dataclass
class _Result:
    lo: Fraction
    hi: Fraction
    bits: int
    method: str
    extra: dict[str, Any]
    note: str = ""
    infinite: bool = False
    measured: dict[str, tuple[Fraction, Fraction]] | None = None


def default_start_bits(n: int) -> int:
    """A first precision for the ball stage of N nodes: ring nodes lose about 0.6·N bits to the
    master polynomial (measured, N = 784: 478 bits), real nodes up to about 1.5·N; the
    escalation doubles from here, so this only saves failed attempts."""
    return 64 * math.ceil((0.75 * n + 96) / 64)


def _structured(nodes: Any, point: Point) -> _Result:
    from recmem.numerics.float_enclosure import FloatRangeError
    from recmem.numerics.vandermonde_enclosure import (
        RADIUS_TARGET,
        NotSeparated,
        inverse_enclosure,
        vandermonde_enclosure,
    )

    target = 10.0 ** -(point.digits + 1)
    bits = point.precision or default_start_bits(point.rows)
    fixed = point.precision is not None
    while True:
        try:
            vinv, worst = inverse_enclosure(nodes, bits)
            good = worst <= RADIUS_TARGET
        except NotSeparated:
            vinv, good = None, False
        if good or fixed or 2 * bits > MAX_BITS:
            break
        bits *= 2
    if vinv is None:
        return _Result(Fraction(0), Fraction(0), bits, "structured", {},
                       note=f"nodes not separated at {bits} bits", infinite=False)
    try:
        # powers beyond the float64 range: no bracket (they used to escape as a ValueError, so
        # that the command reported the point as refused)
        v = vandermonde_enclosure(nodes, point.cols)
        a = v.norm_bounds(point.norm, target=target / 2)
        b = vinv.norm_bounds(point.norm, target=target / 2)
    except FloatRangeError as exc:
        return _Result(Fraction(0), Fraction(0), bits, "structured", {}, note=str(exc))
    _norm_oracles(a, b, point.norm, bits)
    extra: dict[str, Any] = {}
    if point.quantity == "sigma":
        smax = v.norm_bounds("2", target=target) if point.norm != "2" else a
        imax = vinv.norm_bounds("2", target=target) if point.norm != "2" else b
        _norm_oracles(smax, imax, "2", bits)
        extra |= _bracket("sigma_max", *smax)
        if imax[0] > 0:
            extra |= _bracket("sigma_min", 1 / imax[1], 1 / imax[0])
    measured = {f"kappa{point.norm}" if point.norm in ("1", "2") else "kappa_inf":
                (a[0] * b[0], a[1] * b[1])}
    if point.norm == "1":
        measured["inv_norm1"] = b
    if point.norm == "2":
        measured["kappa2_nonzero"] = measured["kappa2"]
    note = ""
    if certified_digits(a[0] * b[0], a[1] * b[1]) < point.digits:
        cap = FLOAT_STAGE_DIGITS[point.norm]
        note = (f"the float64 stage certifies about {cap} digits; use --backend dense (small N) "
                "for more" if point.digits > cap else
                f"not certified to {point.digits} digits at {bits} bits")
    return _Result(a[0] * b[0], a[1] * b[1], bits, "structured", extra, note, measured=measured)


def _norm_oracles(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction], norm: str,
                  bits: int) -> None:
    """Run-time oracles of the structured route: ‖V‖ and ‖V⁻¹‖ are brackets, and the route
    brackets the sentinel V known exactly (``numerics.certified_oracles``) in this norm at these
    bits. InternalInconsistency otherwise."""
    from recmem.numerics import certified_oracles as oracles

    oracles.check_interval(*a, f"‖V‖_{norm} bracket")
    oracles.check_interval(*b, f"‖V⁻¹‖_{norm} bracket")
    oracles.sentinel(f"structured:{norm}", bits)


def _dense(nodes: Any, point: Point) -> _Result:
    from recmem.numerics.certified import sigma_bracket, vandermonde_builder

    n, cols = point.rows, point.cols
    bits = point.precision or 128
    if point.norm in ("2", "fro") or point.quantity == "sigma" or n != cols:
        sb = sigma_bracket(vandermonde_builder(nodes, cols), start_bits=bits,
                           max_bits=point.precision or MAX_BITS)
        extra = _bracket("sigma_max", _q(sb.smax[0]), _q(sb.smax[1]))
        if sb.certified and sb.smin[0] > 0:
            extra |= _bracket("sigma_min", _q(sb.smin[0]), _q(sb.smin[1]))
        if point.norm == "2":
            k = sb.kappa
            if not k.certified:
                return _Result(_q(k.lo), Fraction(0), k.bits, "dense-gram", extra,
                               note=f"σ_min not separated from 0 at {k.bits} bits")
            kb = (_q(k.lo), _q(k.hi))
            return _Result(*kb, k.bits, "dense-gram", extra,
                           measured={"kappa2": kb, "kappa2_nonzero": kb})
        # σ asked in another norm: the value is κ in that norm (as on the structured route; it
        # used to be κ₂ here, under the label of the norm asked — found by the cross-check)
        res = dense_inverse(nodes, point, bits)
        res.extra = extra | res.extra
        return res
    return dense_inverse(nodes, point, bits)


def dense_inverse(nodes: Any, point: Point, bits: int) -> _Result:
    """κ_F, κ₁, κ_∞ of a square V from flint's certified inverse (ball sums of moduli), from
    ``bits`` on (doubling unless ``point.precision`` is fixed); checked at run time against the
    sentinel V known exactly (``numerics.certified_oracles``)."""
    import flint

    from recmem.numerics import certified_oracles as oracles
    from recmem.numerics.certified import vandermonde_builder
    from recmem.numerics.flint_backend import arb_to_mpf

    build = vandermonde_builder(nodes, point.cols)
    fixed = point.precision is not None
    while True:
        with flint.ctx.workprec(bits):
            v = build(bits)
            try:
                vi = v.inv()
                ok = True
            except ZeroDivisionError:
                ok = False
            if ok:
                kv, ki = _ball_norm(v, point.norm), _ball_norm(vi, point.norm)
                k = kv * ki
                import mpmath

                ctx = mpmath.MPContext()
                ctx.prec = bits + 16
                mid, rad = arb_to_mpf(k.mid(), ctx), arb_to_mpf(k.rad(), ctx)
                lo, hi = _q(mid) - _q(rad), _q(mid) + _q(rad)
                if certified_digits(lo, hi) >= point.digits or fixed or 2 * bits > MAX_BITS:
                    lo = max(lo, Fraction(0))
                    oracles.check_interval(lo, hi, f"κ_{point.norm} bracket", floor=1)
                    oracles.sentinel(f"dense-inverse:{point.norm}", bits)
                    return _Result(lo, hi, bits, "dense-inverse", {})
        if fixed or 2 * bits > MAX_BITS:
            return _Result(Fraction(0), Fraction(0), bits, "dense-inverse", {},
                           note=f"the inverse is not certified at {bits} bits")
        bits *= 2


def _ball_norm(a: Any, norm: str) -> Any:
    import flint

    n, m = a.nrows(), a.ncols()
    if norm == "fro":
        # x*x, not x**2: arb's power is NaN on a ball that contains 0 (NUMERICS.md)
        return sum((abs(a[i, j]) * abs(a[i, j]) for i in range(n) for j in range(m)),
                   flint.arb(0)).sqrt()
    lines = ([[a[i, j] for j in range(m)] for i in range(n)] if norm == "inf" else
             [[a[i, j] for i in range(n)] for j in range(m)])
    sums = [sum((abs(x) for x in line), flint.arb(0)) for line in lines]
    best = sums[0]
    for s in sums[1:]:
        best = best.max(s)
    return best


def float64_kappa(nodes: Any, point: Point) -> float | None:
    """numpy's float64 κ of V in the point's norm (None when numpy gives inf or nan)."""
    from recmem.numerics.numpy_backend import vander

    v = vander(nodes.complex128(), point.cols)
    with np.errstate(all="ignore"):
        if not np.all(np.isfinite(v)):
            return None  # powers beyond the float64 range: numpy has no κ
        if point.rows == point.cols:
            p: Any = {"2": 2, "1": 1, "inf": np.inf, "fro": "fro"}[point.norm]
            k = float(np.linalg.cond(v, p))
        elif point.rows < point.cols:
            k = math.inf
        else:
            s = np.linalg.svd(v, compute_uv=False)
            k = float(s[0] / s[-1]) if point.norm == "2" else float(
                np.linalg.norm(v) * np.sqrt(np.sum(1 / s**2)))
    return k if math.isfinite(k) else None


def _versions() -> dict[str, str]:
    import flint
    import mpmath

    return {"python-flint": flint.__version__, "mpmath": mpmath.__version__,
            "numpy": np.__version__}


_BLAS: list[Any] = []  # the process's threadpoolctl controller, made at the first point


@contextlib.contextmanager
def pinned_blas() -> Iterator[str]:
    """Run the block with :data:`BLAS_THREADS` BLAS/OpenMP threads (``threadpoolctl``); yields
    what computes the float64 values, e.g. ``openblas 0.3.31 Haswell, 1 thread`` (the BLAS and
    its kernel decide the last bits of the float64 column), or says that the thread count is
    not pinned when threadpoolctl is missing."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        yield "threads not pinned (threadpoolctl is not installed)"
        return
    if not _BLAS:
        _BLAS.append(ThreadpoolController())  # numpy's BLAS is loaded: this module imports numpy
    controller = _BLAS[0]
    blas = [m for m in controller.info() if m.get("user_api") == "blas"]
    # the float64 values come from numpy's BLAS; another one (SciPy's, loaded in some processes
    # and not in others) must not make rows computed alike read differently
    blas = [m for m in blas if "numpy" in str(m.get("filepath", ""))] or blas
    what = "; ".join(f"{m.get('internal_api')} {m.get('version')} {m.get('architecture') or ''}"
                     .replace("  ", " ").strip() for m in blas) or "no BLAS found"
    with controller.limit(limits=BLAS_THREADS):
        yield f"{what}, {BLAS_THREADS} thread" + ("" if BLAS_THREADS == 1 else "s")


def compute(point: Point) -> dict[str, Any]:
    """One result row for ``point`` (module docstring); a ValueError for a point outside the
    engine's domain (e.g. κ₁ of a rectangular V). Runs with :data:`BLAS_THREADS` BLAS threads
    (:func:`pinned_blas`), so that the row does not depend on the process computing it; the
    row's ``float64_blas`` says what computed its float64 values."""
    validate(point)
    with pinned_blas() as blas:
        return _compute(point) | {"float64_blas": blas}


def _compute(point: Point) -> dict[str, Any]:
    from recmem.numerics.node_families import parse_family

    t0 = time.perf_counter()
    family = parse_family(point.family)
    nodes = family.nodes(point.rows, point.seed)
    row: dict[str, Any] = asdict(point)
    row["precision_requested"] = row.pop("precision")
    f64 = float64_kappa(nodes, point)
    row["float64"] = f64
    row["float64_log10"] = math.log10(f64) if f64 else None
    if point.quantity in ("reconstruct", "timestamp"):
        row |= _recovery(nodes, point)
        row |= {"seconds": round(time.perf_counter() - t0, 4), "versions": _versions(),
                "overlays": []}
        return row
    from recmem.numerics.certified_oracles import InternalInconsistency

    try:
        res = _route(nodes, point)
    except InternalInconsistency as exc:  # a run-time oracle failed: a bug of recmem, marked
        return row | _inconsistent_row(point, str(exc), time.perf_counter() - t0)
    row |= res.extra
    if res.infinite:
        row |= {"value": "inf", "lower": "inf", "upper": "inf", "log10_value": math.inf,
                "log10_lower": math.inf, "log10_upper": math.inf, "certified": True,
                "digits_certified": 17}
    elif res.hi > 0:
        if res.hi < 1 or res.lo > res.hi:
            # κ ≥ 1 in every norm considered here: an upper end below 1 excludes every possible
            # value (it used to be raised to 1 here and reported certified)
            return row | _inconsistent_row(point, f"{res.method}: the bracket [{float(res.lo):.6g}, "
                                           f"{float(res.hi):.6g}] of κ is not a bracket of a "
                                           "κ ≥ 1", time.perf_counter() - t0)
        lo = max(res.lo, Fraction(1))  # κ ≥ 1: a lower end below 1 is weak, not wrong
        hi = res.hi
        mid = sqrt_mid(lo, hi)
        digits = certified_digits(lo, hi)
        row |= _bracket("", lo, hi) | {
            "value": decimal(mid, up=False, sig=max(4, min(digits + 1, 12))),
            "log10_value": log10(mid), "certified": digits >= point.digits,
            "digits_certified": digits}
    else:
        row |= {"value": None, "lower": decimal(res.lo, up=False) if res.lo else None,
                "upper": None, "log10_value": None, "log10_lower": log10(res.lo) if res.lo
                else None, "log10_upper": None, "certified": False, "digits_certified": 0}
    # the names for the bracket of κ (kept beside lower/upper, which every quantity has)
    row["kappa_lower"], row["kappa_upper"] = row["lower"], row["upper"]
    row |= {"precision_used": res.bits, "method": res.method, "note": res.note}
    row |= cross_checks(nodes, point, res, f64)
    if row["inconsistent"]:
        row["certified"] = False
    row |= {"seconds": round(time.perf_counter() - t0, 4), "versions": _versions()}
    row["overlays"] = overlay_rows(nodes, point, res)
    return row


def _inconsistent_row(point: Point, message: str, seconds: float) -> dict[str, Any]:
    """The row of a point whose run-time oracle failed: no value, never certified, marked."""
    return {"value": None, "lower": None, "upper": None, "kappa_lower": None, "kappa_upper": None,
            "log10_value": None, "log10_lower": None, "log10_upper": None, "certified": False,
            "digits_certified": 0, "precision_used": None, "method": "—", "note": message,
            "float64_check": "not run", "route_check": "not run", "inconsistent": True,
            "inconsistency": message, "seconds": round(seconds, 4), "versions": _versions(),
            "overlays": []}


# ---- run-time cross-checks (issue 19) ---------------------------------------------------------------
def float64_agrees(f64: float | None, lo: Fraction, hi: Fraction | None,
                   n: int) -> tuple[str, str]:
    """Whether numpy's float64 κ agrees with the certified bracket [lo, hi] of κ (hi None: not
    bounded above), as (status, why): ``agrees``; ``DISAGREES`` when float64 resolves κ
    (δ = FLOAT64_C·N·hi·u < 1/2, the float64 route's relative error being ≤ δ/(1 − δ) ≤ 2δ) and
    its value lies outside [lo·(1 − 2δ), hi·(1 + 2δ)]; ``unresolved`` when δ ≥ 1/2 (float64 has no
    digit of κ left: no comparison); ``none`` without a float64 value."""
    if f64 is None or not math.isfinite(f64):
        return "none", "numpy gave no finite κ"
    if hi is None:
        return "unresolved", "the certified bracket has no upper end"
    delta = FLOAT64_C * n * hi * Fraction(1, 2**53)
    if delta >= FLOAT64_RESOLVED:
        return "unresolved", f"float64 resolves no digit of κ here (δ = {float(delta):.3g} ≥ 1/2)"
    low, high = lo * (1 - 2 * delta), hi * (1 + 2 * delta)
    if low <= Fraction(f64) <= high:
        return "agrees", f"float64 {f64:.6g} ∈ the bracket widened by 2δ = {float(2 * delta):.3g}"
    return "DISAGREES", (f"float64 κ = {f64:.6g} lies outside the certified bracket [{float(lo):.6g},"
                         f" {float(hi):.6g}] widened by its error bound 2δ = {float(2 * delta):.3g} "
                         f"(δ = {FLOAT64_C}·N·κ·u): one of the two routes is wrong")


def _second_route(point: Point, method: str) -> str | None:
    """The route that can cross-check ``method`` at ``point``: ``dense`` for the structured route
    (N ≤ DENSE_MAX_N), ``auto`` (structured) for the dense route of a square V; None when there
    is none (a tall V, float64)."""
    if point.rows != point.cols or point.backend == "float64":
        return None
    if method == "structured" and point.rows <= DENSE_MAX_N:
        return "dense"
    if method.startswith("dense"):
        return "auto"  # the structured route (square V, distinct nodes)
    return None


def check_runs(point: Point) -> bool:
    """Whether the second route runs at ``point`` when one exists: ``Point.check``, or by default
    N ≤ CHECK_AUTO_N (for the dense Gram route of κ₂ and σ, or the dense inverse of κ₁, κ_∞,
    κ_F)."""
    if point.check is not None:
        return point.check
    gram = point.norm == "2" or point.quantity == "sigma"
    return point.rows <= CHECK_AUTO_N["gram" if gram else "inverse"]


def _overlap(a: tuple[Fraction, Fraction | None], b: tuple[Fraction, Fraction | None]) -> bool:
    """Whether two brackets (upper end None: unbounded) intersect."""
    return (a[1] is None or b[0] <= a[1]) and (b[1] is None or a[0] <= b[1])


def cross_checks(nodes: Any, point: Point, res: _Result, f64: float | None) -> dict[str, Any]:
    """Run-time cross-checks of one point's certified bracket (issue 19): against numpy's float64
    value where float64 resolves κ (:func:`float64_agrees`), and against the second route (dense
    ↔ structured, :func:`_second_route`) where it runs (:func:`check_runs`) — brackets of one
    number must overlap. Either disagreement is an internal inconsistency: ``inconsistent`` True
    with the reason. ``route_check``: agrees, DISAGREES, no bracket (the second route certified
    nothing), ERROR (its oracle failed), not run (skipped: N above the cutoff, or ``check``
    False), none (no second route: a tall or wide V, float64, equal nodes)."""
    out: dict[str, Any] = {"float64_check": "none", "route_check": "none",
                           "inconsistent": False, "inconsistency": ""}
    if point.backend == "float64" or res.infinite or res.hi <= 0:
        return out
    problems = []
    status, why = float64_agrees(f64, max(res.lo, Fraction(1)), res.hi, point.rows)
    out["float64_check"] = status
    if status == "DISAGREES":
        problems.append(why)
    second = _second_route(point, res.method)
    if second is not None and not check_runs(point):
        out["route_check"] = "not run"
    elif second is not None:
        from recmem.numerics.certified_oracles import InternalInconsistency

        try:
            other = _route(nodes, Point(**{**asdict(point), "backend": second, "check": False}))
        except InternalInconsistency as exc:
            return out | {"route_check": "ERROR", "inconsistent": True,
                          "inconsistency": "; ".join([*problems, f"{second} route: {exc}"])}
        out |= {"route_check_method": other.method,
                "route_check_lower": decimal(other.lo, up=False) if other.lo > 0 else "0",
                "route_check_upper": decimal(other.hi, up=True) if other.hi > 0 else None}
        if other.lo <= 0 and other.hi <= 0:
            out["route_check"] = "no bracket"
        elif _overlap((res.lo, res.hi), (other.lo, other.hi if other.hi > 0 else None)):
            out["route_check"] = "agrees"
        else:
            out["route_check"] = "DISAGREES"
            problems.append(f"the {res.method} bracket [{float(res.lo):.6g}, {float(res.hi):.6g}] "
                            f"and the {other.method} bracket [{float(other.lo):.6g}, "
                            f"{float(other.hi):.6g}] of κ do not overlap: one route is wrong")
    if problems:
        out |= {"inconsistent": True, "inconsistency": "; ".join(problems)}
    return out


def sqrt_mid(lo: Fraction, hi: Fraction) -> Fraction:
    """The midpoint of a bracket, geometric when it spans more than a factor 2."""
    if hi > 2 * lo and lo > 0:
        from recmem.numerics.float_enclosure import sqrt_down

        return sqrt_down(lo * hi)
    return (lo + hi) / 2


def _recovery(nodes: Any, point: Point) -> dict[str, Any]:
    """The ``reconstruct`` and ``timestamp`` quantities (``numerics.recovery``)."""
    from recmem.numerics import recovery

    bits = point.precision or max(256, default_start_bits(point.rows))
    if point.quantity == "reconstruct":
        r = recovery.reconstruction_errors(nodes, point.cols, point.seed, bits)
        top = Fraction(r["max_error_highprec"])
        return r | {"value": decimal(top, up=True, sig=4), "lower": "0",
                    "upper": decimal(top, up=True, sig=4), "log10_value": log10(top),
                    "log10_lower": None, "log10_upper": log10(top), "certified": True,
                    "digits_certified": None, "float64": r["max_error_float64"],
                    "float64_log10": log10(Fraction(r["max_error_float64"])),
                    "precision_used": bits, "method": "interpolation" if point.rows ==
                    point.cols else "normal-equations",
                    "note": "largest error over the timestamps: certified upper bound at "
                            f"{bits} bits; float64 by least squares"}
    r = recovery.timestamp_horizons(nodes, point.cols, bits)
    hp, f = r["min_horizon_highprec"], r["min_horizon_float64"]
    return r | {"value": None if hp is None else str(hp), "lower": None, "upper": None,
                "log10_value": None if not hp else math.log10(hp), "log10_lower": None,
                "log10_upper": None, "certified": False, "digits_certified": None,
                "float64": f, "float64_log10": None if not f else math.log10(f),
                "precision_used": bits, "method": "corrected-inversion",
                "note": f"smallest horizon over the nodes with 0 < |λ₀| < 1 (measured at {bits} "
                        f"bits and in float64, up to k = {point.cols}); {r['skipped']} node(s) "
                        "outside the hypothesis skipped"}


def _route(nodes: Any, point: Point) -> _Result:
    if point.backend == "float64":
        return _Result(Fraction(0), Fraction(0), 53, "float64", {},
                       note="float64 only: a value, not certified")
    if point.rows < point.cols:
        extra, note, measured = _wide_nonzero(nodes, point)
        return _Result(Fraction(0), Fraction(0), 0, "shape", extra, note, infinite=True,
                       measured=measured)
    if not nodes.distinct():
        return _Result(Fraction(0), Fraction(0), 0, "exact", {}, infinite=True,
                       note="two nodes are equal (exactly): V is singular, κ = ∞")
    if point.backend == "dense" or point.rows != point.cols:
        if point.rows > DENSE_MAX_N:
            raise ValueError(f"the dense route is limited to N ≤ {DENSE_MAX_N} (got N = "
                             f"{point.rows}); a tall V has no structured route yet")
        return _dense(nodes, point)
    return _structured(nodes, point)


def to_mpf(x: Fraction, up: bool, bits: int = 128) -> Any:
    """A rational as an mpmath number rounded down (or ``up``) to ``bits`` bits."""
    import mpmath
    from mpmath.libmp import from_rational

    return mpmath.mpf(from_rational(x.numerator, x.denominator, bits, "u" if up else "d"))


def vandermonde_sigma(nodes: Any, cols: int, *, target: float = 1e-6,
                      start_bits: int = 128) -> Any:
    """Certified σ_max, σ_min and ‖V‖_F of O's N×L V as a ``numerics.certified.SigmaBracket``:
    by the structured route for a square V with distinct nodes (σ_min = 1/σ_max(V⁻¹)), by the
    Gram route (``certified.sigma_bracket``) otherwise. The one entry point that the conditioning
    studies (O.real-illcond, O.ring-conditioning) and ``recmem condition`` share.

    ``target`` is the relative width aimed at for the σ brackets; ``start_bits`` the first
    precision of the Gram route.
    """
    from recmem.numerics.certified import SigmaBracket, sigma_bracket, vandermonde_builder

    n = len(nodes)
    if n != cols or not nodes.distinct():
        return sigma_bracket(vandermonde_builder(nodes, cols), start_bits=start_bits)
    from recmem.numerics.vandermonde_enclosure import (
        RADIUS_TARGET,
        NotSeparated,
        inverse_enclosure,
        vandermonde_enclosure,
    )

    bits = max(start_bits, default_start_bits(n))
    while True:
        try:
            vinv, worst = inverse_enclosure(nodes, bits)
            if worst <= RADIUS_TARGET or 2 * bits > MAX_BITS:
                break
        except NotSeparated:
            if 2 * bits > MAX_BITS:
                return sigma_bracket(vandermonde_builder(nodes, cols), start_bits=start_bits)
        bits *= 2
    from recmem.numerics import certified_oracles as oracles

    v = vandermonde_enclosure(nodes, cols)
    smax = v.norm_bounds("2", target=target)
    imax = vinv.norm_bounds("2", target=target)
    fro = v.norm_bounds("fro")
    _norm_oracles(smax, imax, "2", bits)
    oracles.sentinel("structured:fro", bits)
    certified = imax[0] > 0
    if not certified:  # σ_min not bounded below: (0, ∞), never a wrong value
        smin = (to_mpf(Fraction(0), False), _mpf_inf())
    else:
        smin = (to_mpf(1 / imax[1], False), to_mpf(1 / imax[0], True))
    sb = SigmaBracket((to_mpf(smax[0], False), to_mpf(smax[1], True)), smin,
                      (to_mpf(fro[0], False), to_mpf(fro[1], True)), bits, certified)
    oracles.check_sigma(sb, n)
    return sb


def _mpf_inf() -> Any:
    import mpmath

    return mpmath.inf


def _wide_nonzero(nodes: Any, point: Point) -> tuple[dict[str, Any], str,
                                                       dict[str, tuple[Fraction, Fraction]]]:
    """For a wide V (N < L): κ = ∞, and for the 2-norm the ratio σ_1/σ_N of its N nonzero
    singular values (what Moitra's theorem bounds), from the Gram route on Vᵀ (dense, N ≤
    :data:`DENSE_MAX_N`)."""
    note = "rank V ≤ N < L: κ = ∞ (certified by the shape)"
    if point.norm != "2" or point.rows > DENSE_MAX_N or point.backend == "float64":
        return {}, note, {}
    from recmem.numerics.certified import sigma_bracket, vandermonde_builder

    build = vandermonde_builder(nodes, point.cols)
    sb = sigma_bracket(lambda bits: build(bits).transpose(),
                       start_bits=point.precision or 128, max_bits=point.precision or MAX_BITS)
    if not sb.certified:
        return {}, note, {}
    k = sb.kappa
    kb = (_q(k.lo), _q(k.hi))
    return (_bracket("kappa2_nonzero", *kb),
            note + "; kappa2_nonzero = σ_1/σ_N of the N nonzero singular values",
            {"kappa2_nonzero": kb})


def overlay_rows(nodes: Any, point: Point, res: _Result) -> list[dict[str, Any]]:
    """The proved bounds of ``theory.vandermonde_bounds`` that apply to this point, each held
    against the certified bracket of the quantity it bounds: ``holds`` False means a measured
    value contradicts a proved bound (one of the two is wrong), None that the brackets overlap.
    """
    from recmem.theory.vandermonde_bounds import overlays

    if point.norm == "fro" or point.backend == "float64" or not res.measured:
        return []
    out = []
    for ov in overlays(nodes, point.cols, point.norm, include_inapplicable=False):
        measured = res.measured.get(ov.quantity)
        lo, hi = ov.interval(64)
        end = hi if ov.side == "upper" else lo
        out.append({"name": ov.name, "quantity": ov.quantity, "side": ov.side,
                    "bound": str(end), "log10_bound": float(mpmath_log10(end)),
                    "holds": None if measured is None else ov.holds_for(measured),
                    "measured": measured is not None, "source": ov.source})
    return out


def mpmath_log10(x: Any) -> Any:
    """log₁₀ of a positive mpmath number (−inf for 0)."""
    import mpmath

    return mpmath.log10(x) if x > 0 else -mpmath.inf
