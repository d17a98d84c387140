"""Papers as plugins (issue 22): recmem's papers come from the entry points ``recmem.papers``,
an outside package adds its paper to every command, and a broken plugin is left out with one
line while every other paper works.

The outside package is ``tests/paper_plugin/recmem_demo_paper`` (its own statement, claim with
controls and strategy, and test), made discoverable by a ``.dist-info`` folder with its entry
point on the path, as an installed distribution would be.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_main
from demo_paper import PACKAGE, add_distribution, install_demo

from recmem.checks import plugins, registry

ROOT = Path(__file__).resolve().parents[1]




@pytest.fixture
def demo_site(tmp_path: Path) -> Path:
    """A folder holding the demo paper and its distribution's metadata, with the entry points
    its ``pyproject.toml`` declares (what ``pip install`` of the package would write)."""
    return install_demo(tmp_path / "site")


def _recmem(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "RECMEM_HOME": str(site.parent / "home"),
           "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "recmem.checks", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or site.parent, timeout=300)


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch):
    """Put a site folder on sys.path for this process (discovery and registry rebuilt)."""
    def add(site: Path) -> None:
        monkeypatch.syspath_prepend(str(site))
        importlib.invalidate_caches()
        plugins.clear()

    yield add
    plugins.clear()


def test_recmem_registers_its_papers_as_entry_points() -> None:
    found = {ep.name: ep.value for ep in metadata.entry_points(group=plugins.GROUP)}
    assert {k: found[k] for k in "LOW"} == {k: f"recmem.checks.claims.paper_{k.lower()}:PAPER"
                                            for k in "LOW"}
    assert plugins.paper_keys() == ["L", "O", "W"]
    assert {c.paper for c in registry.all_claims().values()} <= {"L", "O", "W"}
    assert plugins.problems() == ()


def test_no_paper_is_named_in_recmem_code_outside_its_plugin() -> None:
    """No import of a paper's package, and no string naming one, in recmem's code outside the
    papers' own packages and experiments (the plugins say where their parts are)."""
    own = ("checks/claims/", "checks/reproduce/experiments/")
    for path in sorted([*ROOT.glob("checks/**/*.py"), *ROOT.glob("theory/*.py"),
                        *ROOT.glob("numerics/*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(own):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
                      and n.body and isinstance(n.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                    a.name for a in node.names]
                assert not any(".claims.paper_" in n for n in names), (rel, node.lineno)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings:
                assert "claims.paper_" not in node.value, (rel, node.lineno)


def test_an_outside_paper_joins_every_command(demo_site: Path, on_path: Any,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # discovery as an installed distribution is found: in a fresh interpreter
    papers = _recmem(demo_site, "list", "--papers", "--json", "papers.json")
    assert papers.returncode == 0, papers.stderr
    listed = json.loads((demo_site.parent / "papers.json").read_text())
    (demo,) = [p for p in listed["papers"] if p["key"] == "D"]
    assert demo["claims"] == 1 and demo["origin"].startswith("recmem_demo_paper 0.1")
    assert listed["left_out"] == []
    assert {p["key"] for p in listed["papers"]} == {"D", "L", "O", "W"}

    # every command, run by recmem's main in this process with the same site on its path
    on_path(demo_site)
    monkeypatch.chdir(demo_site.parent)
    monkeypatch.setenv("RECMEM_HOME", str(demo_site.parent / "home"))
    monkeypatch.setenv("COLUMNS", "120")

    ls = run_main(capsys, "list", "--paper", "D")
    assert ls.returncode == 0 and "D.impulse" in ls.stdout, ls.stderr

    ver = run_main(capsys, "verify", "--paper", "D", "--backend", "sympy", "--backend", "numpy",
                   "--backend", "mpmath@128", "--json", "d.json")
    assert ver.returncode == 0, ver.stdout + ver.stderr
    (claim,) = json.loads((demo_site.parent / "d.json").read_text())["claims"]
    assert claim["id"] == "D.impulse" and claim["verdict"] == "VERIFIED"
    assert [c["verdict"] for c in claim["controls"]] == ["REFUTED", "REFUTED"]

    fz = run_main(capsys, "fuzz", "D.impulse", "--max-examples", "40", "--controls")
    assert fz.returncode == 0, fz.stdout + fz.stderr
    assert "survived" in fz.stdout

    show = run_main(capsys, "show", "D.impulse")
    assert show.returncode == 0 and "A Demonstration Paper" in show.stdout

    listed = run_main(capsys, "reproduce", "--list")
    assert listed.returncode == 0 and "D-impulse" in listed.stdout, listed.stderr
    assert "D Table 1: needs the paper's data set" in listed.stdout
    rep = run_main(capsys, "reproduce", "D-impulse", "--out", "rep", "--quiet")
    assert rep.returncode == 0, rep.stdout + rep.stderr
    summary = json.loads((demo_site.parent / "rep" / "summary.json").read_text())
    assert [f["agreement"] for f in summary["findings"]] == ["agrees"]

    bad = run_main(capsys, "verify", "--paper", "Q")
    assert bad.returncode == 2 and "invalid choice: 'Q'" in bad.stderr

    # the package's own test, run as its authors would, against the installed recmem
    own = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(demo_site / PACKAGE.name / "test_demo_paper.py")],
                         capture_output=True, text=True, cwd=demo_site, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(demo_site),
                              "RECMEM_HOME": str(demo_site.parent / "home")})
    assert own.returncode == 0, own.stdout + own.stderr


BROKEN = {
    # plugin name → (entry point value, files of its package)
    "Bimport": ("broken_import:PAPER", {"broken_import/__init__.py": "import no_such_module\n"}),
    "Bnotpaper": ("broken_type:PAPER", {"broken_type/__init__.py": "PAPER = 'a paper'\n"}),
    "Bkey": ("broken_key:PAPER", {"broken_key/__init__.py": (
        "from recmem_demo_paper import PAPER as _D\nfrom dataclasses import replace\n"
        "PAPER = replace(_D, key='Bother')\n")}),
    "Bctl": ("broken_controls:PAPER", {
        "broken_controls/__init__.py": (
            "from dataclasses import replace\nfrom recmem_demo_paper import PAPER as _D\n"
            "PAPER = replace(_D, key='Bctl', claims=('broken_controls.claims',))\n"),
        "broken_controls/claims.py": (
            "from dataclasses import dataclass, replace\n"
            "from recmem_demo_paper.claims import CLAIMS as _C\n"
            "from recmem_demo_paper.statement import StepResponse\n"
            "from recmem.checks.claim import Provenance\n"
            "@dataclass(frozen=True)\nclass NoControls(StepResponse):\n"
            "    def controls(self):\n        return ()\n"
            "CLAIMS = [replace(_C[0], id='Bctl.impulse', statement=NoControls(),\n"
            "                  provenance=Provenance('Bctl', '§1', 'x'))]\n")}),
    "Bdup": ("broken_dup:PAPER", {
        "broken_dup/__init__.py": (
            "from dataclasses import replace\nfrom recmem_demo_paper import PAPER as _D\n"
            "PAPER = replace(_D, key='Bdup', claims=('broken_dup.claims',))\n"),
        "broken_dup/claims.py": (
            "from dataclasses import replace\nfrom recmem_demo_paper.claims import CLAIMS as _C\n"
            "from recmem.checks.claim import Provenance\n"
            "_c = replace(_C[0], id='Bdup.impulse', provenance=Provenance('Bdup', '§1', 'x'))\n"
            "CLAIMS = [_c, _c]\n")}),
    "Bclaims": ("broken_claims:PAPER", {"broken_claims/__init__.py": (
        "from dataclasses import replace\nfrom recmem_demo_paper import PAPER as _D\n"
        "PAPER = replace(_D, key='Bclaims', claims=('broken_claims.missing',))\n")}),
}
WHY = {"Bimport": "cannot be loaded (ModuleNotFoundError: No module named 'no_such_module')",
       "Bnotpaper": "not a recmem.checks.plugins.Paper",
       "Bkey": "the entry point is called 'Bkey' but the paper's key is 'Bother'",
       "Bctl": "claim Bctl.impulse has no negative controls",
       "Bdup": "claim ID Bdup.impulse is defined twice",
       "Bclaims": "its claims module broken_claims.missing cannot be imported"}


@pytest.fixture
def broken_site(demo_site: Path) -> Path:
    for plugin, (value, files) in BROKEN.items():
        for name, text in files.items():
            (demo_site / name).parent.mkdir(exist_ok=True)
            (demo_site / name).write_text(text)
        add_distribution(demo_site, f"dist_{plugin.lower()}", f"{plugin} = {value}\n")
    return demo_site


def test_broken_plugins_are_left_out_with_one_line_each(broken_site: Path, on_path) -> None:
    on_path(broken_site)
    found = {p.plugin: p for p in plugins.problems()}
    assert set(found) == set(BROKEN)
    for plugin, why in WHY.items():
        line = found[plugin].line()
        assert why in line and f"'{plugin}'" in line and "\n" not in line, line
    assert set(plugins.paper_keys()) == {"D", "L", "O", "W", "Bctl", "Bdup", "Bclaims"}
    registered = {c.paper for c in registry.all_claims().values()}
    assert {"D", "O", "W"} <= registered and not any(p.startswith("B") for p in registered)


def test_a_broken_plugin_does_not_stop_the_others_on_the_command_line(broken_site: Path) -> None:
    ls = _recmem(broken_site, "list")
    assert ls.returncode == 0, ls.stderr
    assert "O.det" in ls.stdout and "W.theorem" in ls.stdout and "D.impulse" in ls.stdout
    warnings = [line for line in ls.stderr.splitlines() if "paper plugin" in line]
    assert len(warnings) == len(BROKEN), ls.stderr
    assert all(line.startswith("recmem: warning: paper plugin ") for line in warnings)
    assert "Traceback" not in ls.stderr

    papers = _recmem(broken_site, "list", "--papers")
    assert papers.returncode == 0 and papers.stdout.count("left out: ") == len(BROKEN)
