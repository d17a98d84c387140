"""The outside demo paper of tests/paper_plugin/ made discoverable as an installed distribution
would be: the package copied into a site folder beside a ``.dist-info`` holding the entry points
its own ``pyproject.toml`` declares (tests/test_paper_plugins.py, tests/test_docs_examples.py)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).parent / "paper_plugin" / "recmem_demo_paper"
GROUP = "recmem.papers"


def add_distribution(site: Path, name: str, entry_points: str) -> None:
    """A ``NAME-0.1.dist-info`` in ``site`` with ``entry_points`` under [recmem.papers]."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n" + entry_points)


def install_demo(site: Path) -> Path:
    """The demo paper installed into ``site`` (created); returns ``site``."""
    shutil.copytree(PACKAGE, site / PACKAGE.name, ignore=shutil.ignore_patterns("__pycache__"))
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    points = project["entry-points"][GROUP]
    add_distribution(site, project["name"], "".join(f"{k} = {v}\n" for k, v in points.items()))
    return site
