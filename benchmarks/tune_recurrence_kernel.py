"""Tile shapes of the fused recurrence kernel (recmem.numerics.recurrence_kernels), swept on a GPU:
the achieved fraction of memory bandwidth for each shape, against ``copy_`` measured in the same run.

    python benchmarks/tune_recurrence_kernel.py                 # default sweep (a few minutes)
    python benchmarks/tune_recurrence_kernel.py --quick         # three shapes, four configurations

For every configuration (steps per tile TT, channels per program BN, warps, programs per
multiprocessor) and problem (B, L, N = 256; dense u or factored u_k = b·s_k) it times
``states(route="fused")`` (minimum of ``--repeats``), checks the result against the torch loop
(relative error printed) and prints bandwidth as minimal bytes (dense: u read once and x written
once, 32 B per state; factored: x written, 16 B per state) over time, and that as a fraction of
``copy_`` of 1 GiB. It ends with the configuration of best geometric-mean fraction: put it in
recurrence_kernels (TILE_STEPS, TILE_CHANNELS, NUM_WARPS, PROGRAMS_PER_SM). Exit 2 without CUDA.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable

import torch

from recmem.numerics import linear_recurrence as lr
from recmem.numerics import recurrence_kernels as rk

CONFIGS = [(16, 64, 4, 8), (8, 128, 4, 8), (32, 32, 4, 8), (16, 64, 4, 16), (16, 32, 2, 16),
           (8, 64, 2, 16), (4, 128, 4, 16), (32, 64, 8, 4)]
SHAPES = [(1, 65536), (10, 65536), (100, 16384), (1000, 1024), (1, 4096), (10, 4096)]


def best_time(fn: Callable[[], object], repeats: int) -> float:
    fn()
    torch.cuda.synchronize()
    best = math.inf
    for _ in range(repeats):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best


def copy_bandwidth(dev: torch.device) -> float:
    """Bytes/s of ``copy_`` of 1 GiB, read and write counted: the reference peak."""
    src = torch.ones(2**27, dtype=torch.float64, device=dev)
    dst = torch.empty_like(src)
    return 2 * src.numel() * 8 / best_time(lambda: dst.copy_(src), 10)


def run_fused(lam: torch.Tensor, inputs: torch.Tensor, b: torch.Tensor | None) -> Callable[[], torch.Tensor]:
    return lambda: lr.states(lam, inputs, route="fused", b=b)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="three shapes, four configurations")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--n", type=int, default=256)
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        print("CUDA is not available (torch.cuda.is_available() is False)", file=sys.stderr)
        return 2
    dev = torch.device("cuda")
    if not rk.available(dev):
        print("the fused kernel is not available here (Triton missing, or its self-test failed: "
              "see the warning above)", file=sys.stderr)
        return 2
    configs = CONFIGS[:4] if args.quick else CONFIGS
    shapes = SHAPES[:3] if args.quick else SHAPES
    peak = copy_bandwidth(dev)
    print(f"{torch.cuda.get_device_name(dev)}, torch {torch.__version__}, N = {args.n}, "
          f"copy_ {peak / 1e9:.0f} GB/s")
    saved = (rk.TILE_STEPS, rk.TILE_CHANNELS, rk.NUM_WARPS, rk.PROGRAMS_PER_SM)
    fractions: dict[tuple[int, int, int, int], list[float]] = {c: [] for c in configs}
    g = torch.Generator(device=dev).manual_seed(0)
    try:
        for batch, length in shapes:
            radius = 0.9 + 0.099 * torch.rand(args.n, device=dev, dtype=torch.float64, generator=g)
            lam = torch.polar(radius, 6.28 * torch.rand(args.n, device=dev, dtype=torch.float64, generator=g))
            s = torch.randn(batch, length, device=dev, dtype=torch.float64, generator=g)
            b = torch.randn(args.n, device=dev, dtype=torch.complex128, generator=g)
            want = lr.states(lam, s, route="scan", b=b)
            dense = want.clone()  # any dense input of this shape: its states are timed, then checked
            want_dense = lr.states(lam, dense, route="scan")
            for config in configs:
                rk.TILE_STEPS, rk.TILE_CHANNELS, rk.NUM_WARPS, rk.PROGRAMS_PER_SM = config
                for kind, fn, ref, per_state in (("factored", run_fused(lam, s, b), want, 16),
                                                 ("dense", run_fused(lam, dense, None), want_dense, 32)):
                    t = best_time(fn, args.repeats)
                    err = float((fn() - ref).abs().max() / ref.abs().max())
                    bw = batch * length * args.n * per_state / t
                    fractions[config].append(bw / peak)
                    print(f"B={batch:4d} L={length:5d} {kind:8s} TT={config[0]:2d} BN={config[1]:3d} "
                          f"warps={config[2]} per-SM={config[3]:2d}: {t * 1e3:8.3f} ms "
                          f"{bw / 1e9:6.0f} GB/s = {bw / peak:6.1%} of copy_  rel. err {err:.1e}",
                          flush=True)
            del want, dense, want_dense
            torch.cuda.empty_cache()
    finally:
        rk.TILE_STEPS, rk.TILE_CHANNELS, rk.NUM_WARPS, rk.PROGRAMS_PER_SM = saved
    score = {c: math.exp(sum(math.log(f) for f in v) / len(v)) for c, v in fractions.items() if v}
    best = max(score, key=lambda c: score[c])
    print(f"best (geometric mean {score[best]:.1%} of copy_): TILE_STEPS={best[0]}, "
          f"TILE_CHANNELS={best[1]}, NUM_WARPS={best[2]}, PROGRAMS_PER_SM={best[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
