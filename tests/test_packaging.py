"""The installed layout: one namespace, every subpackage listed for the wheel, no bare modules."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


def test_every_data_file_of_a_package_is_listed_for_the_wheel() -> None:
    """The site's templates and assets (and the ledgers) are package data: a file the globs miss
    would be absent from a wheel install, and `recmem report --html` would fail there."""
    from fnmatch import fnmatch

    tool = _pyproject()["tool"]["setuptools"]
    globs = tool["package-data"]
    missing = []
    for package, folder in tool["package-dir"].items():
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".html", ".css", ".js", ".toml") and "__pycache__" not in path.parts:
                owner = ".".join([package, *path.relative_to(ROOT / folder).parts[:-1]])
                while owner not in tool["packages"]:  # the data's package: the nearest listed
                    owner = owner.rpartition(".")[0]
                inner = path.relative_to(ROOT / folder / Path(*owner.split(".")[2:]))
                patterns = [*globs.get("*", ()), *globs.get(owner, ())]
                if not any(fnmatch(str(inner), g) for g in patterns):
                    missing.append(str(path.relative_to(ROOT)))
    assert missing == []


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


def _quick_start() -> list[str]:
    """The README quick start's set-up commands (its bash blocks), in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.S)]


def test_quick_start_is_two_commands_each_starting_from_a_virtual_environment() -> None:
    """Issue 8: a fresh Debian machine's system Python refuses `pip install` (PEP 668), so each
    command makes (or reuses) .venv first; torch==2.13.0 goes in before the package (a bare torch
    requirement would pull the CUDA wheels)."""
    commands = _quick_start()
    assert len(commands) == 2, commands
    for command in commands:
        assert "\n" not in command, command
        steps = [step.strip() for step in command.split("&&")]
        assert steps[:3] == ["python3 -m venv .venv", ". .venv/bin/activate",
                             "python -m pip install torch==2.13.0"], command
        assert steps[3].startswith("python -m pip install -e "), command
        assert not any(s.startswith(("pip ", "python3 -m pip", "sudo")) for s in steps), command
    # recmem's own modules compiled once (an editable install leaves them as sources, and with
    # PYTHONDONTWRITEBYTECODE set every process would compile them again: issue 20)
    compiled = "python -m compileall -q theory numerics checks"
    assert commands[0].endswith(f"&& python -m pip install -e . && {compiled} && recmem verify")
    # the tests run on every core (pytest-xdist) and hold the branch coverage of the certified
    # routines, the solvers and the verdict machinery (pyproject's [tool.coverage.*], issue 19)
    assert commands[1].endswith(
        f"&& python -m pip install -e '.[test]' && {compiled} && python -m pytest -n auto --cov")


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    lines = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[-1] == _quick_start()[1]
    assert "set -euo pipefail" in lines and 'cd "$(dirname "$0")/.."' in lines


# paths outside the repository (the project's shared notes and paper texts)
_UNREACHABLE = re.compile(r"\.\./shared|shared/(papers|CLAIMS\.md|NUMERICS\.md|STYLE\.md)")


@pytest.mark.parametrize("where", ["README.md", "pyproject.toml", "docs", "checks", "theory", "numerics",
                                   "tests", "benchmarks", ".ci"])
def test_no_reference_to_files_outside_the_repository(where: str) -> None:
    """What a user needs (citations, the catalogue: docs/CLAIMS.md) is inside the repository."""
    base = ROOT / where
    files = [base] if base.is_file() else [f for f in base.rglob("*") if f.is_file()
                                            and f.suffix in (".md", ".py", ".toml", ".json", "")]
    found = [f"{f.relative_to(ROOT)}:{n}" for f in files
             for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if _UNREACHABLE.search(line)]
    assert not found, found
