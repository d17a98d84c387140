"""The numbered items of a paper's text: equations, statements, appendix sections, figures, tables.

``recmem coverage`` (``checks/coverage.py``) compares them with the paper's coverage ledger, so
that an item printed in the paper but absent from the ledger counts as uncovered. Items are
returned in the ledger's ``"<kind> <number>"`` form (``"eq 17"``, ``"theorem 3.9"``,
``"lemma A.7"``, ``"assumption A"``, ``"section A.7"``, ``"figure 3"``, ``"table 1"``).

Two layouts of text are read, both by the same rules:

- markdown with LaTeX (paper W's camera-ready): display math between ``$$``, equation numbers
  as ``\\tag{N}`` or as ``(N)`` ending a line of an array (``… (58) \\\\``), headings ``# A.7 TITLE``;
- plain text from a PDF extraction (paper O's workshop text): display math between ``$$`` with the
  number as ``\\quad (N)`` at its end, headings as lines ``Appendix A. Title`` and ``E.1. Title``.

Figures and equations that the prose cites ("Fig. 3", "Eq.(4)") are items even where the text
lost their captions or display numbers (paper L's markdown prints no equation numbers).

Numbered statements are recognised where they begin, never where prose cites them: the kind and
number start a line (or follow a sentence's end, as paper W's "… . Remark 3.6. It can be seen")
and are followed by a period, a parenthesised name, an italic statement or a capitalised word
("Theorem 2 (Universality …)", "Lemma 6 *Let …", "Assumption A Consider …"). "see Theorem 3.9",
"by Lemma A.7, we know" and "Assumption A implies" are citations and are not counted.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

#: the statement kinds, as printed (capitalised) → their ledger kind
STATEMENT_KINDS = ("Theorem", "Lemma", "Proposition", "Corollary", "Definition", "Remark",
                   "Assumption")

# a statement's number: "3.9", "A.7", "2", or a single letter ("Assumption A" of paper O)
_NUMBER = r"(?:[A-Z](?:\.\d+)+|\d+(?:\.\d+)*|[A-Z](?![\w.]))"
# a statement begins: at a line's start (after a markdown heading's #s or emphasis) or after a
# sentence's end (_STATEMENT_START, matched against what precedes it on its line); then kind and
# number, then a period, a parenthesised name, an italic statement or a capital letter. (No \b
# in front: Python's re then tries every position, ~30 times slower on a paper.)
_STATEMENT = re.compile(
    r"(" + "|".join(STATEMENT_KINDS) + r")\s+(" + _NUMBER + r")"
    r"[*_]{0,2}(?=\s*\.(?!\d)|\s*\(|\s+[*_]|\s+[A-Z])")
_STATEMENT_START = re.compile(r"(?:^\s*(?:#+[ \t]+)?|[.!?]\s+)[*_]{0,2}$", re.M)
_DISPLAY = re.compile(r"\$\$(.*?)\$\$", re.S)
_TAG = re.compile(r"\\tag\s*\{\s*(\d+)\s*\}")
# "(N)" ending a display or a line of an array, after a space or \quad: "f(2)$$" is not a number
_PAREN_NUMBER = re.compile(r"(?:(?<=\s)|(?<=\\quad)|(?<=\\qquad))\((\d+)\)[.,]?\s*(?=\\\\|$)")
# headings: markdown ("# A.7 TITLE", "## B TITLE") or plain lines ("Appendix A. Title",
# "E.1. Title", "3.1. Warm-up")
_MD_HEADING = re.compile(r"^#+\s+(.*\S)\s*$")
_MD_SECTION = re.compile(r"^(?:Appendix\s+)?([A-Z](?:\.\d+)*|\d+(?:\.\d+)*)\.?\s+\S")
_PLAIN_APPENDIX = re.compile(r"^Appendix\s+([A-Z])\.?\s+\S")
_PLAIN_SUBSECTION = re.compile(r"^([A-Z]\.\d+(?:\.\d+)*)\.\s+[A-Z]")
_PLAIN_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.\s+[A-Z][^.:]*$")
# a plain line is a heading only when short (footnotes and list items are longer sentences)
_PLAIN_HEADING_CHARS = 80
# figures and tables: by their captions at a line's start, and by the figures the prose cites
_CAPTION = re.compile(r"^[*_]{0,2}(Figure|Fig\.|Table)\s+(\d+)\s*[*_]{0,2}\s*[:.]", re.M)
_FIGURE_CITED = re.compile(r"Fig(?:ures?|s?\.)\s+(\d+)(?:\s*(?:&|and|,)\s*(\d+))?")
# equations the prose cites ("Eq.(4)", "Eq. (26)", "Eqs.(1) and (3)", "Eq.1"): items of a text
# whose displays lost their numbers (paper L's markdown), as cited figures are
_EQUATION_CITED = re.compile(r"Eqs?\.\s*\(?(\d+)\)?(?:\s*(?:&|and|,)\s*\((\d+)\))?")


@dataclass(frozen=True)
class PaperItem:
    """A numbered item found in a paper's text: its ledger ref, the section it is in and the line
    (1-based) where it is printed (a figure's caption, else the first line citing it)."""

    ref: str
    where: str
    line: int




class _Heading(NamedTuple):
    line: int
    label: str  # the location it starts: "§3.1", "App. A.7", or the heading's title
    ref: str | None  # "section A.7" for an appendix section, "section 3.1" for one of the text
    appendix: bool


def _sections(lines: list[str]) -> list[_Heading]:
    """Every heading of the text, in order."""
    out: list[_Heading] = []
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if (md := _MD_HEADING.match(line)) is not None:
            head = md.group(1)
            if (sec := _MD_SECTION.match(head)) is not None:
                number = sec.group(1)
                appendix = not number[0].isdigit()
                out.append(_Heading(n, f"App. {number}" if appendix else f"§{number}",
                                    f"section {number}", appendix))
            elif not head.startswith(STATEMENT_KINDS):  # "###### Theorem 1 (…)" is no section
                out.append(_Heading(n, head.title(), None, False))
            continue
        if len(line) > _PLAIN_HEADING_CHARS:
            continue
        if (m := _PLAIN_APPENDIX.match(line) or _PLAIN_SUBSECTION.match(line)) is not None:
            out.append(_Heading(n, f"App. {m.group(1)}", f"section {m.group(1)}", True))
        elif (m := _PLAIN_NUMBERED.match(line)) is not None and not line.endswith(":"):
            out.append(_Heading(n, f"§{m.group(1)}", f"section {m.group(1)}", False))
    return out


def extract_items(text: str, body_sections: bool = False) -> list[PaperItem]:
    """The numbered items of ``text`` in the ledger's ``"<kind> <number>"`` form, each once (its
    first occurrence), ordered by kind (equations, statements, sections, figures, tables) then by
    position. See the module docstring for what counts as an item. Sections of the main text
    ("section 3.1") are items of a ledger that lists them, not required ones: they are returned
    only with ``body_sections``."""
    lines = text.splitlines()
    heads = _sections(lines)
    starts = [0, *(m.end() for m in re.finditer("\n", text))]  # offset of each line's start

    def _line_of(_: str, offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    def where(line: int) -> str:
        label = "front matter"
        for head in heads:
            if head.line > line:
                break
            label = head.label
        return label

    found: dict[str, PaperItem] = {}

    def add(ref: str, line: int) -> None:
        if ref not in found:
            found[ref] = PaperItem(ref, where(line), line)

    for block in _DISPLAY.finditer(text):
        body = block.group(1)
        numbers = [(m.start(), m.group(1)) for m in _TAG.finditer(body)]
        numbers += [(m.start(), m.group(1)) for m in _PAREN_NUMBER.finditer(body)]
        for start, number in sorted(numbers):
            add(f"eq {int(number)}", _line_of(text, block.start(1) + start))
    for m in _STATEMENT.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if not _STATEMENT_START.search(text, line_start, m.start()):
            continue  # a citation ("see Theorem 3.9"), or part of a word
        add(f"{m.group(1).lower()} {m.group(2)}", _line_of(text, m.start(1)))
    for head in heads:
        if head.ref is not None and (head.appendix or body_sections):
            add(head.ref, head.line)
    for m in _CAPTION.finditer(text):
        kind = "table" if m.group(1) == "Table" else "figure"
        add(f"{kind} {int(m.group(2))}", _line_of(text, m.start(1)))
    # a figure the prose cites but whose caption the text lacks (lost in a PDF extraction) is an
    # item of the paper all the same
    for m in _FIGURE_CITED.finditer(text):
        if m.start() > 0 and text[m.start() - 1].isalnum():
            continue
        for number in filter(None, (m.group(1), m.group(2))):
            add(f"figure {int(number)}", _line_of(text, m.start()))
    for m in _EQUATION_CITED.finditer(text):
        if m.start() > 0 and text[m.start() - 1].isalnum():
            continue
        for number in filter(None, (m.group(1), m.group(2))):
            add(f"eq {int(number)}", _line_of(text, m.start()))
    order = {"eq": 0, "section": 2, "figure": 3, "table": 4}
    return sorted(found.values(), key=lambda i: (order.get(i.ref.split()[0], 1), i.line))


def read_items(path: str | Path) -> list[PaperItem]:
    """:func:`extract_items` of the UTF-8 text file ``path``."""
    return extract_items(Path(path).read_text(encoding="utf-8"))


__all__ = ["STATEMENT_KINDS", "PaperItem", "extract_items", "read_items"]
