"""The installed layout: one namespace, every subpackage listed for the wheel, no bare modules."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_subpackage_on_disk_is_listed_for_the_wheel() -> None:
    tool = _pyproject()["tool"]["setuptools"]
    listed = set(tool["packages"])
    on_disk = set()
    for name, folder in tool["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            on_disk.add(".".join([name, *rel.parts]))
    assert on_disk == listed, f"on disk but not listed: {on_disk - listed}; stale: {listed - on_disk}"


def test_namespace_maps_the_three_top_level_folders() -> None:
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert mapping == {"recmem.theory": "theory", "recmem.numerics": "numerics",
                       "recmem.checks": "checks"}


def test_no_bare_module_is_importable_from_outside_the_repository(tmp_path: Path) -> None:
    code = ("import importlib.util, sys\n"
            "bare = [m for m in ('theory', 'numerics', 'checks') if importlib.util.find_spec(m)]\n"
            "import recmem.theory, recmem.numerics, recmem.checks\n"
            "print(','.join(bare))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "", f"bare modules importable: {out.stdout}"


def test_importing_recmem_and_listing_claims_does_not_import_torch(tmp_path: Path) -> None:
    code = ("import sys\n"
            "import recmem.checks, recmem.numerics, recmem.theory\n"
            "from recmem.checks.cli import main\n"
            "main(['list'])\n"
            "heavy = [m for m in ('torch', 'sympy', 'scipy', 'flint') if m in sys.modules]\n"
            "print('HEAVY=' + ','.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    assert "HEAVY=\n" in out.stdout + "\n", out.stdout[-300:]
