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


def test_mypy_is_clean(tmp_path: Path) -> None:
    """mypy sees the package as installed: ``recmem.theory`` etc. laid out as a non-editable
    install would (links into the source folders), so imports across modules are followed and
    typed, which the editable install's import hook hides from mypy."""
    pytest.importorskip("mypy")
    (tmp_path / "recmem").mkdir()
    for folder in ("theory", "numerics", "checks"):
        (tmp_path / "recmem" / folder).symlink_to(ROOT / folder, target_is_directory=True)
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file",
                          str(ROOT / "pyproject.toml"), "-p", "recmem.theory",
                          "-p", "recmem.numerics", "-p", "recmem.checks"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]
    # every module was seen (the editable layout hides them from mypy)
    assert int(out.stdout.split(" in ")[-1].split()[0]) > 80, out.stdout
