"""The documentation's examples are tests, so that they cannot drift from the tool.

- Every ```python block of README.md and docs/*.md runs (in a fresh interpreter, in a temporary
  folder, with its own RECMEM_HOME) and must exit 0.
- Every ``recmem …`` command line in them (inline code and shell blocks) names a subcommand and
  options that exist; a concrete one (no synopsis brackets or placeholders) parses with
  ``build_parser().parse_args`` exactly as written, and the claims it names are registered.
  Nothing is run by that check; ``--help`` of every documented subcommand, ``recmem list`` and
  ``recmem reproduce --list`` are run and must exit 0.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_main
from demo_paper import install_demo

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# python blocks that take longer than a few seconds (each runs real verification work)
SLOW_BLOCKS = {("README.md", 1)}


def _python_blocks() -> list[tuple[str, int, str]]:
    out = []
    for doc in DOCS:
        blocks = re.findall(r"^```python\n(.*?)^```", doc.read_text(encoding="utf-8"),
                            re.S | re.M)
        out += [(doc.name, k + 1, code) for k, code in enumerate(blocks)]
    return out


def _param(name: str, k: int, code: str) -> object:
    marks = [pytest.mark.slow] if (name, k) in SLOW_BLOCKS else []
    return pytest.param(code, id=f"{name}#{k}", marks=marks)


def test_the_docs_have_python_examples() -> None:
    names = {name for name, _, _ in _python_blocks()}
    assert {"README.md", "MEMORY.md"} <= names, names


@pytest.mark.parametrize("code", [_param(*b) for b in _python_blocks()])
def test_python_example_runs(code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "RECMEM_HOME": str(tmp_path / "home"), "CI": "true"}
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600, env=env)
    assert out.returncode == 0, f"the example fails:\n{code}\n{out.stderr[-3000:]}"


# ---- command lines ----------------------------------------------------------------------------

_INLINE = re.compile(r"`(recmem [^`]+)`")
_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
# marks of a synopsis, not a command line: optional parts, alternatives, ellipses, placeholders
_SYNOPSIS = re.compile(r"[\[\]|…<>]|\.\.\.|(?<![\w.:/-])[A-Z][A-Z_]+(?![\w.])")


def _command_lines() -> list[tuple[str, str]]:
    """(document, command) for every ``recmem …`` command line in the docs."""
    found: list[tuple[str, str]] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        commands: list[str] = []
        lines = [m.group(1) for m in _INLINE.finditer(text)]
        for block in _FENCE.findall(text):  # continuation lines joined, comments left out
            lines += [line.split(" # ")[0] for line in block.replace("\\\n", " ").splitlines()]
        for line in lines:
            commands += [part.strip() for part in re.split(r"\s*(?:;|&&|&)\s*", line)
                         if part.strip().startswith("recmem ")]
        found += [(doc.name, " ".join(cmd.split())) for cmd in commands]
    return list(dict.fromkeys(found))


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    from recmem.checks.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_docs_have_command_lines() -> None:
    assert len(_command_lines()) > 30


# documents whose commands run with the outside demo paper installed (they show how to add one)
WITH_DEMO_PAPER = {"ADDING_A_PAPER.md"}


@pytest.fixture
def demo_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The demo paper (tests/paper_plugin/) installed on sys.path for this test."""
    from recmem.checks import plugins

    monkeypatch.syspath_prepend(str(install_demo(tmp_path / "site")))
    importlib.invalidate_caches()
    plugins.clear()
    yield
    monkeypatch.undo()
    plugins.clear()


@pytest.mark.parametrize("doc, command", _command_lines(),
                         ids=[f"{d}:{c[:60]}" for d, c in _command_lines()])
def test_documented_command_line_exists(doc: str, command: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        request: pytest.FixtureRequest) -> None:
    from recmem.checks.registry import all_claims

    if doc in WITH_DEMO_PAPER:
        request.getfixturevalue("demo_installed")
    words = command.split()
    subs = _subcommands()
    if words[1].startswith("-"):  # `recmem --version`, `recmem --help`
        assert words[1] in ("--version", "--help", "-h"), f"{doc}: {command}"
        return
    if words[1] == "COMMAND":  # `recmem COMMAND --help`: any subcommand
        return
    assert words[1] in subs, f"{doc}: `{command}`: no subcommand {words[1]!r}"
    sub = subs[words[1]]
    options = {o for a in sub._actions for o in a.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", " ".join(words[2:])))
    assert named <= options, f"{doc}: `{command}`: no option(s) {sorted(named - options)}"
    if len(words) == 2 or _SYNOPSIS.search(" ".join(words[1:])):
        return  # the command named in prose, or a synopsis: its values are placeholders
    from recmem.checks.cli import build_parser

    monkeypatch.chdir(tmp_path)  # output paths are probed where the command would write
    try:
        args = build_parser().parse_args(shlex.split(command)[1:])
    except SystemExit as exc:
        pytest.fail(f"{doc}: `{command}` does not parse (exit status {exc.code})")
    ids = getattr(args, "claim_ids", None) or (
        [args.claim_id] if getattr(args, "claim_id", None) else [])
    unknown = [i for i in ids if i not in all_claims()]
    assert not unknown, f"{doc}: `{command}` names unregistered claims {unknown}"


def test_every_documented_subcommand_has_help_and_the_cheap_ones_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    documented = {c.split()[1] for _, c in _command_lines()
                  if not c.split()[1].startswith("-") and c.split()[1] != "COMMAND"}
    assert documented == set(_subcommands()), (
        f"subcommands never shown in the docs: {sorted(set(_subcommands()) - documented)}")
    for sub in sorted(documented):
        out = run_main(capsys, sub, "--help")
        assert out.returncode == 0 and "usage: recmem" in out.stdout, (sub, out.stderr)
    assert run_main(capsys, "list").returncode == 0
    listed = run_main(capsys, "reproduce", "--list")
    assert listed.returncode == 0, listed.stderr


def test_every_claim_id_the_docs_name_is_registered() -> None:
    from recmem.checks.registry import all_claims

    for doc in DOCS:
        named = set(re.findall(r"`([OW]\.[a-z][\w.-]*)`", doc.read_text(encoding="utf-8")))
        unknown = sorted(named - set(all_claims()))
        assert not unknown, f"{doc.name} names claims that are not registered: {unknown}"
