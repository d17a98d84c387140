"""Running the ``recmem`` command line from tests, and its contract for bad usage."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# Paper W's claims that take about a tenth of a second each (measured by `recmem verify --paper
# W --json`), run first by the tests that stop a run after its first claims: the interrupt is
# what they test, and it comes after seconds, not after W's memory claims (5 s each)
QUICK_W = ("W.theorem.rnn-step.def31", "W.rnn-decaying.app-i1", "W.remark-a5.peak-hold",
           "W.theorem.step-30", "W.remark-a5.fading-not-decaying", "W.perturbation.lemma-a6",
           "W.theorem.step-30.corrected", "W.lyapunov-local")


def w_claims_quick_first() -> list[str]:
    """Paper W's claims, :data:`QUICK_W` first, without the slowest ones (``COST_HINT_S``), which
    a parallel run would start first: a run that tests stop after a few claims."""
    from recmem.checks import runner

    rest = [c.id for c in runner.registry.select(paper="W")
            if c.id not in runner.COST_HINT_S and c.id not in QUICK_W]
    return [*QUICK_W, *rest]


def run_cli(*args: str, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m recmem.checks ARGS`` in a fresh process (``env`` added to the environment)."""
    return subprocess.run([sys.executable, "-m", "recmem.checks", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=300)


def run_main(capsys: Any, *args: str) -> subprocess.CompletedProcess[str]:
    """``recmem ARGS`` in this process (``recmem.checks.cli.main``), its exit status and output
    captured like :func:`run_cli`'s (argparse's exit included): for tests of bad usage that need
    no fresh interpreter."""
    from recmem.checks.cli import main

    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


def one_error_line(out: subprocess.CompletedProcess[str]) -> str:
    """Bad usage: exit status 2, exactly one line on stderr starting "recmem: error:", no
    traceback. Returns that line."""
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("recmem: error:")
    return lines[0]


def interrupt_verify(argv: list[str], report: Path, home: Path, after_claims: int,
                     ) -> tuple[subprocess.Popen[str], str, float]:
    """Start ``recmem verify *argv --json report``, send SIGINT once ``after_claims`` claims
    are in the report, and return (process, stderr, seconds from SIGINT to exit)."""
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks", "verify", *argv,
                             "--json", str(report)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RECMEM_HOME": str(home)})
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        try:
            if len(json.loads(report.read_text())["claims"]) >= after_claims:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=60)
    return proc, err, time.monotonic() - t0
