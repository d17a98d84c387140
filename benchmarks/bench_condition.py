"""Benchmark: certified κ of paper O's Vandermonde matrix, structured O(N²) route vs. the dense ones.

Run on demand (not part of the test suite)::

    python3 benchmarks/bench_condition.py            # N = 64 comparison, 784, growth 64 … 2048
    python3 benchmarks/bench_condition.py --full     # also N = 128 for the dense routes
    python3 benchmarks/bench_condition.py --check    # only: the cost of the run-time cross-check

Prints, for ``ring:0.9:1`` nodes (``nodes.ring(N, 9/10, 1, seed 0)``):

1. at a size where every route finishes (N = 64; N = 128 with ``--full``): seconds for κ₂ by
   the structured route (``numerics.condition``), by today's Gram route (certified eigenvalues of
   VᴴV, ``numerics.certified.kappa2``) and by mpmath's dense SVD (``svd_c`` at 256 bits, not
   certified), with the ratios measured in this run and a check that the values agree;
2. the 784×784 case of the issue: certified κ_F, κ_∞ and κ₂ (seconds, bracket width);
3. the growth of the structured route's time with N (κ₂ and κ_F), with the fitted exponent.

``--check`` prints instead the seconds of one point with and without the second route (the dense
cross-check of ``numerics.condition.cross_checks``) for ring and real nodes, κ₂ and κ₁: the
figures behind ``numerics.condition.CHECK_AUTO_N``.
"""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction
from typing import Any

import mpmath


def _point(n: int, norm: str, digits: int = 3) -> dict[str, Any]:
    from recmem.numerics.condition import Point, compute

    return compute(Point("ring:0.9:1", n, n, 0, None, norm, "kappa", digits))


def _timed(fn: Any) -> Any:
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def compare(n: int) -> None:
    from recmem.numerics import nodes as nd
    from recmem.numerics.certified import kappa2, vandermonde_builder

    nodes = nd.ring(n, Fraction(9, 10), Fraction(1), 0)
    row, t_s = _timed(lambda: _point(n, "2"))
    gram, t_g = _timed(lambda: kappa2(vandermonde_builder(nodes, n)))

    def dense() -> mpmath.mpf:
        ctx = mpmath.MPContext()
        ctx.prec = 256
        lam = nodes.mp(ctx)
        v = ctx.matrix([[x ** (n - 1 - j) for j in range(n)] for x in lam])
        s = ctx.svd_c(v, compute_uv=False)
        return max(s) / min(s)

    mp_k, t_m = _timed(dense)
    lo, hi = mpmath.mpf(row["lower"]), mpmath.mpf(row["upper"])
    agree = lo <= gram.hi and gram.lo <= hi and lo * (1 - 1e-9) <= mp_k <= hi * (1 + 1e-9)
    print(f"N = {n}: κ₂ ∈ [{row['lower']}, {row['upper']}]  (Gram: {gram}; mpmath svd_c: "
          f"{mpmath.nstr(mp_k, 8)}) agree: {agree}")
    print(f"  structured {t_s:8.3f} s | Gram route {t_g:8.3f} s ({t_g / t_s:6.1f}×) | "
          f"mpmath svd_c@256 {t_m:8.3f} s ({t_m / t_s:6.1f}×)")


def paper_size() -> None:
    print("N = 784 (paper O's MNIST setting), ring:0.9:1, seed 0:")
    for norm in ("fro", "inf", "2"):
        row, t = _timed(lambda norm=norm: _point(784, norm))
        width = (mpmath.mpf(row["upper"]) - mpmath.mpf(row["lower"])) / mpmath.mpf(row["lower"])
        print(f"  κ_{norm:<3} ∈ [{row['lower']}, {row['upper']}]  relative width "
              f"{mpmath.nstr(width, 2)}  {t:6.2f} s  ({row['precision_used']} bits; float64 says "
              f"{row['float64']:.3g})")


def growth(sizes: list[int]) -> None:
    print("growth of the structured route (seconds):")
    times: dict[str, list[float]] = {"2": [], "fro": []}
    for n in sizes:
        line = f"  N = {n:5d}"
        for norm in times:
            row, t = _timed(lambda n=n, norm=norm: _point(n, norm))
            times[norm].append(t)
            line += f" | κ_{norm}: {t:7.2f} s ({row['precision_used']} bits, " \
                    f"{row['digits_certified']} digits)"
        print(line)
    for norm, ts in times.items():
        k = (math.log(ts[-1]) - math.log(ts[0])) / (math.log(sizes[-1]) - math.log(sizes[0]))
        print(f"  κ_{norm}: time ∝ N^{k:.2f} between N = {sizes[0]} and {sizes[-1]}")


def check_cost(sizes: list[int]) -> None:
    from recmem.numerics.condition import CHECK_AUTO_N, Point, compute

    print(f"cost of the second route (default: κ₂ up to N = {CHECK_AUTO_N['gram']}, κ₁ up to "
          f"N = {CHECK_AUTO_N['inverse']}); seconds without → with:")
    for spec in ("ring:9/10:1", "real-uniform:-1:1"):
        for norm in ("2", "1"):
            line = f"  {spec:18s} κ_{norm:<2}"
            for n in sizes:
                t = {}
                for check in (False, True):
                    _, t[check] = _timed(lambda n=n, norm=norm, check=check, spec=spec: compute(
                        Point(spec, n, n, 0, None, norm, "kappa", check=check)))
                line += f" | N = {n}: {t[False]:.2f} → {t[True]:.2f}"
            print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="also compare at N = 128 (minutes)")
    ap.add_argument("--check", action="store_true",
                    help="only the cost of the run-time cross-check (second route), N = 8 … 32")
    args = ap.parse_args()
    if args.check:
        check_cost([8, 16, 24, 32])
        return
    compare(64)
    if args.full:
        compare(128)
    paper_size()
    growth([64, 128, 256, 512, 1024, 2048])


if __name__ == "__main__":
    main()
