"""Timings of the Lyapunov solvers of recmem.numerics.lyapunov (paper W, ICLR camera-ready App. A.9
eq. (48)), as ratios to SciPy's Bartels–Stewart measured in the same run.

    python benchmarks/bench_lyapunov.py                  # n ∈ {2, 8, 32, 64}, torch batch 256
    python benchmarks/bench_lyapunov.py --sizes 2 8 --repeat 5 --bits 256

Each solver gets the same exact non-normal Hurwitz W (seeded draw, Q = I); the float solvers get it
rounded to float64 once, outside the timing. Times are medians per matrix; the torch sign-function
Newton solves a batch of ``--batch`` different W's in one call and its time is divided by the batch
size (CPU, and CUDA when available). Kronecker solves are O(n⁶) and
offered up to n = 12 only; the certified condition number up to n = 8. Also timed: the integral
∫₀^∞ e^{Wᵀt}e^{Wt}dt itself (what W.lyapunov checks instead of a solver): Taylor + Gauss–Legendre
on a short interval, then doubling, in float64, float32 and mpmath, and its certified ball
enclosure in flint.

Every call includes the answer's run-time oracle (numerics.lyapunov.residual_oracle: its residual
against the equation it claims to solve), so the times are what a verified answer costs; the last
column shows that residual over its tolerance ("ball ok"/"exact ok" for certified answers; "FAIL"
marks an answer that failed its oracle).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from recmem.checks.claims.paper_w._lyapunov import hurwitz
from recmem.numerics import lyapunov as ly

BASE = "scipy Bartels–Stewart (float64)"


def _cong(e: Any, x: Any, mul: Callable[[Any, Any], Any], tr: Callable[[Any], Any]) -> Any:
    """e ↦ eᵀxe: the integrand of W App. A.9 eq. (49)."""
    return mul(mul(tr(e), x), e)


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """(median wall time of ``fn()`` over ``repeat`` runs after one warm-up call, its result)."""
    out = fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def oracle_column(result: Any) -> str:
    """The answer's residual over its tolerance (solvers and integrals carry it), or '—'."""
    r = getattr(result, "residual", None)
    if r is None:
        return "—"
    if r.tolerance == 0:
        return f"{r.kind} {'ok' if r.ok else 'FAIL'}"
    return f"{float(r.value / r.tolerance):.2g}" + ("" if r.ok else " FAIL")


def solvers(n: int, bits: int, batch: int) -> dict[str, Callable[[], Any] | None]:
    """The solvers that apply at size n (None: not offered at this n)."""
    w = hurwitz(n, 0, "nonnormal").W
    ws = [hurwitz(n, s, "nonnormal").W for s in range(batch)]
    small = n <= ly.KRONECKER_MAX_N
    import numpy as np
    import torch

    wf = ly.to_float64(w)  # float solvers get W rounded once: the timings exclude the conversion
    eye = ly.identity(n)
    f64, f32 = ly.PointArithmetic("numpy"), ly.PointArithmetic("numpy", dtype="float32")
    mp = ly.PointArithmetic("mpmath", bits=bits)
    out: dict[str, Callable[[], Any] | None] = {
        BASE: lambda: ly.bartels_stewart(wf),
        "exact Kronecker (ℚ)": (lambda: ly.exact(w)) if small else None,
        f"mpmath Kronecker @{bits}": (lambda: ly.kronecker_mpmath(w, bits=bits)) if n <= 8 else None,
        f"flint Kronecker @{bits} (ball)": (lambda: ly.kronecker_flint(w, bits=bits)) if small else None,
        f"refinement @{bits} (flint residual)": lambda: ly.refine(w, bits=bits),
        f"refinement @{bits} (mpmath residual)": (lambda: ly.refine(w, bits=bits, residual="mpmath"))
        if n <= 32 else None,
        "κ(L) certified (flint)": (lambda: ly.condition_certified(w)) if n <= 8 else None,
        "κ(L) estimate (float64)": lambda: ly.condition_estimate(w),
        "scipy Bartels–Stewart (float32)": lambda: ly.bartels_stewart(wf, dtype=np.float32),
        "integral by doubling (float64)": lambda: ly.integral_doubling(w, eye, _cong, f64),
        "integral by doubling (float32)": lambda: ly.integral_doubling(w, eye, _cong, f32),
        f"integral by doubling (mpmath @{bits})": (lambda: ly.integral_doubling(w, eye, _cong, mp))
        if n <= 8 else None,
        f"integral enclosure (flint @{bits})": (lambda: ly.integral_enclosure(w, eye, _cong, bits=bits))
        if n <= 32 else None,
    }
    wt = torch.as_tensor(np.stack([ly.to_float64(m) for m in ws]))
    out[f"torch sign-Newton cpu (per matrix, batch {batch})"] = lambda: ly.sign_newton(wt)
    if torch.cuda.is_available():
        def cuda() -> Any:
            sol = ly.sign_newton(wt, device="cuda")
            torch.cuda.synchronize()
            return sol

        out[f"torch sign-Newton cuda (per matrix, batch {batch})"] = cuda
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 8, 32, 64])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bits", type=int, default=128)
    ap.add_argument("--batch", type=int, default=256)
    args = ap.parse_args()
    print(f"{'n':>3}  {'solver':<48} {'seconds':>10} {'× scipy':>10} {'residual/tol':>13}")
    for n in args.sizes:
        table = solvers(n, args.bits, args.batch)
        base_fn = table[BASE]
        assert base_fn is not None
        base, base_out = median_time(base_fn, args.repeat)
        for name, fn in table.items():
            if fn is None:
                print(f"{n:>3}  {name:<48} {'—':>10} {'(not offered)':>10}")
                continue
            sec, out = (base, base_out) if name == BASE else median_time(fn, args.repeat)
            if "per matrix" in name:
                sec /= args.batch
            print(f"{n:>3}  {name:<48} {sec:>10.2e} {sec / base:>10.1f} {oracle_column(out):>13}")


if __name__ == "__main__":
    main()
