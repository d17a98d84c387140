"""An inequality check for paper L's §4 claims (residual ≤ tolerance), in any arithmetic.

``compute(bk)`` returns the residual as a native real-valued scalar (a violation measure: the
statement passes iff residual ≤ tolerance). Points (floats, mpmath): PASS when residual + err ≤
tol, FAIL when residual − err > tol (mpmath recomputes in python-flint balls and REFUTEs only when
the ball lies above tol), INCONCLUSIVE in between; ``err`` is the caller's a-priori rounding bound
as a multiple of the unit roundoff. Balls (flint): the enclosure decides (above tol → REFUTE,
below → PASS).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import mpmath

from recmem.checks import tolerance as tl
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend, BackendSpec, BackendUnavailable, make_backend


def _ball(bk: AbstractBackend, compute: Callable[[AbstractBackend], Any]) -> tuple[Any, Any]:
    import flint

    with bk.activate():
        r = flint.acb(compute(bk))
    ctx = mpmath.MPContext()
    ctx.prec = 64
    mid, rad = ctx.mpf(float(r.real.mid())), ctx.mpf(float(r.real.rad())) + abs(
        ctx.mpf(float(r.imag.mid()))) + ctx.mpf(float(r.imag.rad()))
    return mid - rad, mid + rad


def inequality_check(check: str, backend: AbstractBackend, compute: Callable[[AbstractBackend], Any],
                     *, tolerance: float, err_units: float,
                     instance: Mapping[str, Any]) -> Evidence:
    """Judge residual ≤ tolerance in ``backend`` (module docstring)."""
    t0 = time.perf_counter()
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=backend.precision_bits, tolerance=tl.fmt(tolerance),
                    tolerance_source=f"stated bound; rounding allowance {err_units:g}·u")
    if backend.encloses:
        lo, hi = _ball(backend, compute)
        out = (Outcome.REFUTE if lo > tolerance else Outcome.PASS if hi <= tolerance
               else Outcome.INCONCLUSIVE)
        refuted = out is Outcome.REFUTE
        return replace(base, outcome=out, residual=tl.fmt(hi),
                       enclosure=f"[{tl.fmt(lo)}, {tl.fmt(hi)}]",
                       certified_by="ball arithmetic: residual > tolerance" if refuted else None,
                       counterexample=({**instance, "residual enclosure":
                                        f"[{tl.fmt(lo)}, {tl.fmt(hi)}]"} if refuted else None),
                       seconds=time.perf_counter() - t0)
    with backend.activate():
        r = compute(backend)
    ctx = mpmath.MPContext()
    ctx.prec = 64
    res = abs(backend.scalar_to_mp(r, ctx))
    err = err_units * backend.unit_roundoff
    out = (Outcome.PASS if res + err <= tolerance else Outcome.FAIL if res - err > tolerance
           else Outcome.INCONCLUSIVE)
    ev = replace(base, outcome=out, residual=tl.fmt(res), seconds=time.perf_counter() - t0)
    if out is Outcome.FAIL and backend.spec.kind == "mpmath":
        try:
            lo, hi = _ball(make_backend(BackendSpec("flint", bits=backend.precision_bits)), compute)
        except BackendUnavailable:
            return ev
        if lo > tolerance:
            ev = replace(ev, outcome=Outcome.REFUTE,
                         certified_by=f"python-flint ball [{tl.fmt(lo)}, {tl.fmt(hi)}] above the "
                                      "tolerance",
                         counterexample={**instance, "residual": tl.fmt(res)})
    return ev


def _real(z: Any) -> float:
    """A float of a native scalar's real part, for choosing the worst of several residuals."""
    try:
        return complex(z.item() if hasattr(z, "item") else z).real
    except TypeError:
        return float(z.real.mid()) if hasattr(z.real, "mid") else float(z.real)


def worst(values: list[Any], zero: Any | None = None) -> Any:
    """The value with the largest real part; with ``zero``, max(that, zero) (a violation
    measure that is 0 when every value is ≤ 0)."""
    top = max(values, key=_real)
    return top if zero is None or _real(top) > 0 else zero
