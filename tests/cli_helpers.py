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
