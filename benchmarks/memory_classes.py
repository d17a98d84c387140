"""Seed sweep of ``recmem memory``'s decay class on the RNN examples of docs/MEMORY.md (paper W
Def. 3.1 and App. F; the decay classes of W §3.2 / App. D).

For every example RNN, both input kinds (heaviside, impulse) and every seed, the query runs with
``--max-input 1`` and its fit is compared with the truth computed independently here: a Hurwitz W
with b = 0 and σ ∈ {identity, tanh} (σ(0) = 0, σ'(0) = 1, and σ(z) = 0 only at z = 0, so that the
Jacobian at every rest state is W) has memory decaying exponentially at the rate −max Re λ(W) over
bounded inputs. A row is wrong when the class differs, or when the rate misses the truth by more
than the uncertainty the fit reports. "undetermined" is counted apart (not wrong, not right).

    python3 benchmarks/memory_classes.py [--seeds 0-19] [--examples rnn,rnn2,lin,lin2]

prints a table and exits 1 on any wrong row (2 for bad usage).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

W = [[-0.5, 1.0], [0.0, -2.0]]
C = [1.0, 1.0]
# name: (U, activation). rnn is docs/MEMORY.md's rnn.npz; rnn2 its 2-input variant (U = I).
EXAMPLES = {
    "rnn": ([[1.0], [1.0]], "tanh"),
    "rnn2": (np.eye(2).tolist(), "tanh"),
    "lin": ([[1.0], [1.0]], "identity"),
    "lin2": (np.eye(2).tolist(), "identity"),
    # complex eigenvalues −0.3 ± i: an oscillating memory, fitted on its envelope
    "osc": ([[1.0], [0.0]], "tanh"),
}
W_OSC = [[-0.3, 1.0], [-1.0, -0.3]]


def write_example(folder: Path, name: str) -> tuple[Path, float]:
    """The example's .npz and its true rate −max Re λ(W)."""
    u, act = EXAMPLES[name]
    w = W_OSC if name == "osc" else W
    path = folder / f"{name}.npz"
    np.savez(path, W=np.array(w), U=np.array(u), c=np.array(C), activation=act)
    return path, -float(np.max(np.linalg.eigvals(np.array(w)).real))


def _seeds(text: str) -> list[int]:
    lo, sep, hi = text.partition("-")
    try:
        return list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or N-M, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=_seeds, default=_seeds("0-19"), help="N or N-M (default 0-19)")
    ap.add_argument("--examples", default="rnn,rnn2,lin,lin2",
                    help=f"comma-separated, from {', '.join(EXAMPLES)} (default rnn,rnn2,lin,lin2)")
    ap.add_argument("--inputs", default="heaviside,impulse")
    args = ap.parse_args(argv)
    names = args.examples.split(",")
    if any(n not in EXAMPLES for n in names):
        ap.error(f"unknown example in {args.examples!r}")
    from recmem.checks.memory_cli import query

    wrong = undetermined = total = 0
    started = time.perf_counter()
    header = (f"{'example':8s} {'inputs':9s} {'seed':>4s}  {'class':12s} {'rate ± uncertainty':>26s} "
              f"{'|err|/unc':>9s} {'tail':>15s} {'pts':>4s}  verdict")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path, truth = write_example(Path(tmp), name)
            for inputs in args.inputs.split(","):
                for seed in args.seeds:
                    q = query(str(path), inputs=inputs, max_input=1.0, seed=seed)
                    f = q.fit
                    total += 1
                    cls, val, unc = f.decay_class, f.value, f.uncertainty
                    if cls == "undetermined":
                        undetermined += 1
                        verdict, rate, ratio = f"undetermined: {f.reason}", "—", "—"
                    else:
                        ok = cls == "exponential" and val is not None and abs(val - truth) <= unc
                        wrong += not ok
                        verdict = "ok" if ok else f"WRONG (truth: exponential {truth:g})"
                        rate = "—" if val is None else f"{val:.9f} ± {unc:.2g}"
                        ratio = "—" if val is None else f"{abs(val - truth) / unc:.3f}"
                    print(f"{name:8s} {inputs:9s} {seed:4d}  {cls:12s} {rate:>26s} {ratio:>9s} "
                          f"{f'[{f.tail_start:.1f}, {f.tail_end:.1f}]':>15s} {f.points:4d}  {verdict}",
                          flush=True)
    print(f"{total} queries, {total - wrong - undetermined} right, {undetermined} undetermined, "
          f"{wrong} wrong; {time.perf_counter() - started:.0f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
