"""Wall-clock targets of the command line, measured against a baseline taken in the same run.

    python benchmarks/bench_cli.py            # list; verify --paper P for every paper; the suite --jobs 2
    python benchmarks/bench_cli.py --repeat 5

Targets (issues 2, 3, 20, 22 and 23): `recmem list` under 1 s; `recmem verify --paper O` and
`recmem verify --paper W` each under 45 s serial on the 2-core machine, `--paper L` under 60 s;
the full suite with `--jobs 2` under 50 s (issue 20's target, set when the suite was O and W),
with its speed-up over the serial runs printed (when every installed paper ran serially);
`recmem report --html` of the latest stored run (every paper's claims) under 10 s. The
serial runs go first into one fresh `RECMEM_HOME`, so the parallel run schedules the claims
longest first from their stored durations, as a user's second run would.
The baseline is the interpreter's own start-up (`python -c pass`), so the ratios separate
recmem's cost from the machine's speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def wall(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of ``cmd`` over ``repeat`` runs (its exit status is not judged here)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# seconds, serial, on the 2-core machine (issue 20: O and W; issue 22: L)
TARGETS = {"O": 45, "W": 45, "L": 60}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-verify", action="store_true")
    from recmem.checks import plugins

    ap.add_argument("--papers", nargs="+", default=plugins.paper_keys(),
                    choices=plugins.paper_keys(),
                    help="the papers whose serial suites are timed (default: every installed one)")
    args = ap.parse_args()
    py = sys.executable
    base = wall([py, "-c", "pass"], args.repeat)
    lst = wall([py, "-m", "recmem.checks", "list"], args.repeat)
    print(f"baseline python start-up      {base:7.3f} s")
    print(f"recmem list                   {lst:7.3f} s  ratio {lst / base:6.1f}×  target < 1 s: "
          f"{'met' if lst < 1 else 'MISSED'}")
    if args.skip_verify:
        return
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "RECMEM_HOME": home}
        serial = 0.0
        for paper in args.papers:
            cmd = [py, "-m", "recmem.checks", "verify", "--paper", paper, "--quiet",
                   "--json", f"{home}/report-{paper}.json"]
            ver = wall(cmd, 1, env)
            serial += ver
            target = TARGETS.get(paper)
            verdict = "" if target is None else (
                f"  target < {target} s: {'met' if ver < target else 'MISSED'}")
            print(f"recmem verify --paper {paper}       {ver:7.3f} s  ratio {ver / base:6.1f}×"
                  + verdict)
        if set(args.papers) == set(plugins.paper_keys()):
            cmd = [py, "-m", "recmem.checks", "verify", "--jobs", "2", "--quiet",
                   "--json", f"{home}/report-jobs2.json"]
            par = wall(cmd, 1, env)
            print(f"recmem verify --jobs 2        {par:7.3f} s  speed-up over serial "
                  f"{serial / par:4.2f}×  target < 50 s: {'met' if par < 50 else 'MISSED'}")
        # the site of the latest stored run: every installed paper after the --jobs 2 run, else
        # the last paper timed (issue 23: under 10 s for every installed paper)
        cmd = [py, "-m", "recmem.checks", "report", "--html", f"{home}/site", "--force"]
        site = wall(cmd, args.repeat, env)
        which = ("every paper" if set(args.papers) == set(plugins.paper_keys())
                 else f"paper {args.papers[-1]}")
        print(f"recmem report --html          {site:7.3f} s  ratio {site / base:6.1f}×  target "
              f"< 10 s ({which}): {'met' if site < 10 else 'MISSED'}")


if __name__ == "__main__":
    main()
