"""Running the ``recmem`` command line from tests, and its contract for bad usage."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m recmem.checks ARGS`` in a fresh process (``env`` added to the environment)."""
    return subprocess.run([sys.executable, "-m", "recmem.checks", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=300)


def one_error_line(out: subprocess.CompletedProcess[str]) -> str:
    """Bad usage: exit status 2, exactly one line on stderr starting "recmem: error:", no
    traceback. Returns that line."""
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("recmem: error:")
    return lines[0]
