"""Throughput of the routes of recmem.numerics.linear_recurrence (paper O eq. (2)–(4)), as ratios to
the vectorised loop measured in the same run, and a check of the automatic route choice.

    python benchmarks/bench_recurrence.py                  # full grid on CPU (N = 256)
    python benchmarks/bench_recurrence.py --quick          # small grid (smoke test, seconds)
    python benchmarks/bench_recurrence.py --device cuda    # adds achieved memory bandwidth

Grid: N = 256 channels, L ∈ {1024, 4096, 16384, 65536}, batch B ∈ {1, 10, 100, 1000}; λ uniform on
the ring 0.9 ≤ |λ| ≤ 0.999 (paper O's initialisation near the unit circle). The input is a real
scalar sequence per batch row through an input vector b (u_k = b s_k, paper O eq. (2) with M = 1)
unless ``--input dense``, which passes u (B, L, N) itself. Three computations are timed:
``states`` (all x_1 … x_L; skipped, with a note, where they exceed ``--max-state-gib``), ``final``
(x_L) and ``readout`` (y_k = Re(c x_k) and x_L).

Times are the minimum over ``--repeats`` runs (more for short runs, see ``--min-time``), the routes
of one cell interleaved round-robin so that a change of machine load hits all of them alike. Where
the loop or the scan would take longer than ``--budget`` seconds (predicted from the same route at
L/4), it is timed on the first L/2^j steps and scaled by 2^j (both are linear in L; marked ``~``).
The run fails (exit 1) if the route ``choose_route`` picks is more than 10 % slower than the best
route of some cell, or if reading out without the states is less than 20× faster than making
every state at B ≥ ``--gate-batch``. Below it the ratio is printed, not enforced: at B = 1 and
L ≤ 4096 both routes take about a millisecond or less and are bound by torch's per-operation cost
(≈ 5 µs; the readout makes power tables, a GEMM, three FFTs and a weighted sum: ≈ 100 operations),
so the ratio is that of fixed costs (measured 2–5× at L ≤ 4096, 20–30× at L ≥ 16384).
On CUDA the readout ratio is printed, not enforced: the fused kernel makes all states within the
``--max-state-gib`` cap in 0.5–4.4 ms (one H200, 2026-11-29), while the readout's ≈ 100
operations cost 1.6–2 ms of launches however small the problem, so the ratio measured 0.4–2.2×
(it is a statement about CPU work, where making the states dominates).
``--quick`` runs a small grid (N = 32) and reports the checks without enforcing them unless
``--strict``: its millisecond timings are at the mercy of the machine's load.

On CUDA, each route's achieved bandwidth (minimal bytes: inputs read once, outputs written once)
is printed as a fraction of the bandwidth of ``copy_`` of a 1 GiB tensor measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from recmem.numerics import linear_recurrence as lr

AUTO_TOLERANCE = 1.10  # auto may be at most 10 % slower than the best route
READOUT_SPEEDUP = 20.0  # readout-only must be this much faster than all states
MAX_ROUNDS = 40  # repeats of short runs (see --min-time)


@dataclass
class Timing:
    seconds: float
    extrapolated: bool  # timed on a prefix of the sequence and scaled up
    same_as: str | None = None  # this route performs exactly the operations of that one here


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def copy_bandwidth(device: torch.device, repeats: int) -> float:
    """Bytes/s of ``dst.copy_(src)`` for a 1 GiB tensor (read + write counted): the reference peak."""
    src = torch.empty(2**27, dtype=torch.float64, device=device).fill_(1.0)
    dst = torch.empty_like(src)
    best = math.inf
    for _ in range(repeats + 1):
        _sync(device)
        t0 = time.perf_counter()
        dst.copy_(src)
        _sync(device)
        best = min(best, time.perf_counter() - t0)
    return 2 * src.numel() * src.element_size() / best


@dataclass
class Cell:
    """One shape of the grid with its inputs."""

    batch: int
    length: int
    n: int
    dense: bool
    lam: torch.Tensor
    s: torch.Tensor  # (B, L) real, or (B, L, N) complex when dense
    b: torch.Tensor | None
    c: torch.Tensor

    def call(self, what: str, route: str, steps: int) -> Callable[[], Any]:
        """The computation ``what`` by ``route`` on the first ``steps`` time steps."""
        s = self.s[:, :steps]
        if what == "states":
            return lambda: lr.states(self.lam, s, route=route, b=self.b)
        if what == "final":
            return lambda: lr.final_state(self.lam, s, route=route, b=self.b)
        return lambda: lr.readout(self.lam, s, self.c, route=route, b=self.b)

    def bytes_moved(self, what: str) -> int:
        """Minimal memory traffic: the input read once, the outputs written once."""
        cells = self.batch * self.length
        inputs = cells * (self.n * 16 if self.dense else 8)
        outputs = {"states": cells * self.n * 16, "final": self.batch * self.n * 16,
                   "readout": cells * 8 + self.batch * self.n * 16}[what]
        return inputs + outputs


def make_cell(batch: int, length: int, n: int, dense: bool, device: torch.device, seed: int) -> Cell:
    g = torch.Generator().manual_seed(seed)
    radius = 0.9 + 0.099 * torch.rand(n, generator=g, dtype=torch.float64)
    lam = torch.polar(radius, 2 * math.pi * torch.rand(n, generator=g, dtype=torch.float64))
    b = torch.randn(n, generator=g, dtype=torch.complex128)
    c = torch.randn(n, generator=g, dtype=torch.complex128)
    s = torch.randn(batch, length, generator=g, dtype=torch.float64)
    if dense:
        u = (s.to(device)[:, :, None] * b.to(device)).contiguous()
        return Cell(batch, length, n, True, lam.to(device), u, None, c.to(device))
    return Cell(batch, length, n, False, lam.to(device), s.to(device), b.to(device), c.to(device))


def time_routes(cell: Cell, what: str, routes: tuple[str, ...], repeats: int, budget: float,
                previous: dict[str, float], device: torch.device, min_time: float) -> dict[str, Timing]:
    """Minimum wall time of every route, interleaved; slow sequential routes on a prefix.

    Where the scan would cut time into one chunk it runs the loop's operations exactly
    (``scan_chunks``): it is then not timed again, so that noise cannot tell the two apart.
    """
    same = {"scan": "loop"} if lr.scan_chunks(cell.batch, cell.length, cell.n, device) == 1 else {}
    timed = tuple(r for r in routes if r not in same)
    steps: dict[str, int] = {}
    for route in timed:
        steps[route] = cell.length
        per_step = previous.get(route)  # seconds per time step at this batch, from a shorter L
        if route in ("loop", "scan") and per_step is not None:
            while steps[route] > 1024 and per_step * steps[route] > budget:
                steps[route] //= 2
    best = {route: math.inf for route in timed}
    spent = {route: 0.0 for route in timed}
    rounds = 0
    # at least `repeats` rounds; short runs are repeated until each route has run for min_time:
    # on a loaded 2-core machine a parallel region sometimes waits a scheduler tick (3–10 ms) for
    # its second thread, so the minimum of many short runs is needed to see the route itself
    done: set[str] = set()  # a run longer than the budget is not repeated (keeps the grid < 10 min)
    while rounds < repeats or (rounds < MAX_ROUNDS and min(spent.values()) < min_time):
        for route in timed:
            if route in done:
                continue
            fn = cell.call(what, route, steps[route])
            _sync(device)
            t0 = time.perf_counter()
            fn()
            _sync(device)
            elapsed = time.perf_counter() - t0
            best[route] = min(best[route], elapsed)
            spent[route] += elapsed
            if elapsed > budget:
                done.add(route)
        rounds += 1
    out = {route: Timing(best[route] * cell.length / steps[route], steps[route] < cell.length)
           for route in timed}
    for route, twin in same.items():
        out[route] = Timing(out[twin].seconds, out[twin].extrapolated, same_as=twin)
    return {route: out[route] for route in routes}


def _load() -> str:
    """The 1-minute load average (timings on a shared machine are only as good as its quiet)."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover - not on every platform
        return "n/a"


def fmt_time(t: Timing) -> str:
    return ("~" if t.extrapolated else " ") + f"{t.seconds:9.4f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--quick", action="store_true", help="small grid for smoke tests")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--input", choices=("factored", "dense"), default="factored")
    ap.add_argument("--n", type=int, default=None, help="channels (default 256; 32 with --quick)")
    ap.add_argument("--lengths", type=int, nargs="+", default=None)
    ap.add_argument("--batches", type=int, nargs="+", default=None)
    ap.add_argument("--min-time", type=float, default=None,
                    help="repeat short runs (up to 40 rounds) until each route has run this many "
                         "seconds (default 0.3; 0.02 with --quick)")
    ap.add_argument("--max-state-gib", type=float, default=4.0,
                    help="skip 'states' (and dense inputs) beyond this many GiB")
    ap.add_argument("--budget", type=float, default=6.0,
                    help="seconds per run above which loop/scan are timed on a prefix")
    ap.add_argument("--gate-batch", type=int, default=100,
                    help="smallest batch at which the 20x readout speed-up is required")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strict", action="store_true",
                    help="enforce the checks in --quick mode too (milliseconds-long timings of the "
                         "quick grid are at the mercy of the machine's load, so by default it reports)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if args.device == "cuda" and not torch.cuda.is_available():
        print("CUDA is not available (torch.cuda.is_available() is False)", file=sys.stderr)
        return 2
    device = torch.device(args.device)
    n = args.n or (32 if args.quick else 256)
    lengths = args.lengths or ([256, 2048] if args.quick else [1024, 4096, 16384, 65536])
    batches = args.batches or ([1, 64] if args.quick else [1, 10, 100, 1000])
    dense = args.input == "dense"
    min_time = args.min_time if args.min_time is not None else (0.02 if args.quick else 0.3)
    max_bytes = args.max_state_gib * 2**30
    peak = copy_bandwidth(device, args.repeats) if device.type == "cuda" else None
    print(f"device {device} ({torch.get_num_threads()} threads), N = {n}, input {args.input}, "
          f"repeats {args.repeats}, torch {torch.__version__}, load average {_load()}")
    if peak is not None:
        print(f"reference bandwidth (copy_ of 1 GiB): {peak / 1e9:.0f} GB/s")
    print("time in s (~ = timed on a prefix and scaled), speed-up = loop time / route time, "
          "throughput in state updates per second")
    failures: list[str] = []
    per_step: dict[tuple[str, int, str], float] = {}
    t_start = time.perf_counter()
    for batch in batches:
        for length in lengths:
            state_bytes = batch * length * n * 16
            if dense and state_bytes > max_bytes:
                print(f"\nB={batch} L={length}: skipped, dense input of {state_bytes / 1e9:.1f} GB")
                continue
            cell = make_cell(batch, length, n, dense, device, args.seed)
            updates = batch * length * n
            times: dict[str, dict[str, Timing]] = {}
            for what in lr.ROUTES:
                routes = lr.routes(what, device)
                if what == "states" and state_bytes > max_bytes:
                    print(f"\nB={batch} L={length} states: skipped, {state_bytes / 1e9:.1f} GB of states")
                    continue
                prev = {r: v for (w, bb, r), v in per_step.items() if w == what and bb == batch}
                t = time_routes(cell, what, routes, args.repeats, args.budget, prev, device,
                                min_time)
                times[what] = t
                for route, timing in t.items():
                    per_step[(what, batch, route)] = timing.seconds / length
                auto = lr.choose_route(what, batch, length, n, device, inputs=None if dense else 1)
                best = min(t, key=lambda r: t[r].seconds)
                ratio = t[auto].seconds / t[best].seconds
                print(f"\nB={batch} L={length} {what}: auto = {auto}, best = {best}, "
                      f"auto/best = {ratio:.2f}")
                for route, timing in t.items():
                    if timing.same_as:
                        print(f"  {route:5s} = {timing.same_as} (one chunk: the same operations)")
                        continue
                    line = (f"  {route:5s} {fmt_time(timing)} s  {updates / timing.seconds:10.3e} upd/s"
                            f"  speed-up {t['loop'].seconds / timing.seconds:7.2f}")
                    if peak is not None:
                        bw = cell.bytes_moved(what) / timing.seconds
                        line += f"  {bw / 1e9:7.1f} GB/s = {bw / peak:5.1%} of copy_"
                    print(line)
                if ratio > AUTO_TOLERANCE:
                    failures.append(f"B={batch} L={length} {what}: auto ({auto}) is {ratio:.2f}x the "
                                    f"best ({best})")
            if "states" in times:
                st = min(x.seconds for x in times["states"].values())
                auto_r = lr.choose_route("readout", batch, length, n, device, inputs=None if dense else 1)
                speedup = st / times["readout"][auto_r].seconds
                gated = batch >= args.gate_batch and not dense and device.type == "cpu"
                print(f"  readout-only ({auto_r}) vs best states: {speedup:.1f}x faster"
                      + ("" if gated else "  (not gated on CUDA)" if device.type == "cuda"
                         else "  (not gated at this batch)"))
                if gated and speedup < READOUT_SPEEDUP:
                    failures.append(f"B={batch} L={length}: readout only {speedup:.1f}x faster than states")
            del cell
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s, load average {_load()}")
    if failures and args.quick and not args.strict:
        print("quick grid, checks not enforced (use --strict):\n  " + "\n  ".join(failures))
        return 0
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"OK: auto within {AUTO_TOLERANCE - 1:.0%} of the best route everywhere"
          + ("" if dense else f"; readout-only ≥ {READOUT_SPEEDUP:.0f}x faster than states at "
             f"B ≥ {args.gate_batch}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
