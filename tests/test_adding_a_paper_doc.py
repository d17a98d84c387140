"""docs/ADDING_A_PAPER.md shows, character for character, the files of the outside package that
tests/test_paper_plugins.py installs and runs (so the document's code is the code that runs)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ADDING_A_PAPER.md"
PACKAGE = ROOT / "tests" / "paper_plugin"
BLOCK = re.compile(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```\n", re.S)


def test_every_file_of_the_package_is_in_the_document_as_it_is() -> None:
    blocks = dict(BLOCK.findall(DOC.read_text(encoding="utf-8")))
    files = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*")
             if p.is_file() and p.suffix in (".py", ".toml")}
    assert set(blocks) == files
    for name, text in blocks.items():
        assert text == (PACKAGE / name).read_text(encoding="utf-8"), name


def test_the_documented_commands_name_the_demo_paper() -> None:
    text = DOC.read_text(encoding="utf-8")
    for command in ("recmem list --papers", "recmem verify --paper D", "recmem fuzz D.impulse",
                    "recmem show D.impulse"):
        assert command in text
