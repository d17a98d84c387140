"""ruff and mypy stay clean (the project's quality bar), checked in CI with the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ["theory", "numerics", "checks", "tests", "benchmarks"]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    out = subprocess.run(["ruff", "check", "--output-format", "concise", *TARGETS], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_mypy_is_clean() -> None:
    """mypy sees the package as installed: ``recmem.theory`` etc. laid out as a non-editable
    install would (links into the source folders), so imports across modules are followed and
    typed, which the editable install's import hook hides from mypy.

    The layout and mypy's own incremental cache live in the checkout's ``.mypy_cache/`` (git
    ignores it), at a fixed path so that the cache stays valid between runs: mypy checks again
    every module whose source, or whose dependencies' interface, changed (its default mode). A
    fresh clone checks everything (55 s on the 2-core machine); a second run only what changed."""
    pytest.importorskip("mypy")
    layout = ROOT / ".mypy_cache" / "layout"
    (layout / "recmem").mkdir(parents=True, exist_ok=True)
    for folder in ("theory", "numerics", "checks"):
        link = layout / "recmem" / folder
        if not link.is_symlink() or link.resolve() != ROOT / folder:
            link.unlink(missing_ok=True)
            link.symlink_to(ROOT / folder, target_is_directory=True)
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                          str(ROOT / ".mypy_cache" / "tests"), "--config-file",
                          str(ROOT / "pyproject.toml"), "-p", "recmem.theory",
                          "-p", "recmem.numerics", "-p", "recmem.checks"],
                         cwd=layout, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]
    # every module was seen (the editable layout hides them from mypy)
    assert int(out.stdout.split(" in ")[-1].split()[0]) > 80, out.stdout
