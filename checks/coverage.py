"""Coverage of a paper: every numbered item of its text mapped to the claims that check it.

Each paper ships a *coverage ledger* where its plugin says (``Paper.ledger``; recmem's own papers:
``checks/claims/paper_<key>/ledger.toml``; data only, read with ``tomllib``; format in
docs/ADDING_CLAIMS.md, "The coverage ledger"): every
numbered equation, statement, appendix section, figure and table of the paper's text, each with
the claims that check it or, when none does, a status (``definition``: a definition the claims
``used_by`` rest on; ``not-checkable``: a cited result, data not available here, prose without a
checkable assertion) and a one-line reason.

An item is *checked* when it names claims and every one of them is registered; *definition* or
*not-checkable* with its reason (and, for a definition, registered ``used_by`` claims);
*uncovered* otherwise: a claim ID the registry does not know, or an item numbered in the paper's
text (``checks/paper_items.py``, when the text can be read here) that the ledger lacks.
``recmem coverage`` prints the ledger with each claim's latest verdict (the results store,
``checks/store.py``) and exits 1 while anything is uncovered.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

#: the kinds of item a ledger ref may name ("<kind> <number>")
KINDS = ("eq", "theorem", "lemma", "proposition", "corollary", "definition", "remark",
         "assumption", "section", "figure", "table")
#: what an item without claims may be
STATUSES = ("definition", "not-checkable")
#: the statuses of an item's coverage, in the order the counts are printed
COVERAGE_STATUSES = ("checked", "definition", "not-checkable", "uncovered")

# a number as printed: "17", "3.9", "A.7", "E.1.1", or a letter ("assumption A", "section B")
_REF = re.compile(r"(" + "|".join(KINDS) + r") ((?:[A-Z]|[1-9]\d*)(?:\.\d+)*)")
_ITEM_KEYS = {"ref", "where", "claims", "status", "reason", "used_by"}
_PAPER_KEYS = {"id", "text"}
#: the reason of an item the text numbers and the ledger lacks
MISSING_FROM_LEDGER = "in the text, not in the ledger"
# where the paper texts may be read (they are not part of the package): this variable, else the
# project's folder of papers beside the checkout, when there is one
PAPERS_ENV = "RECMEM_PAPERS"


class LedgerError(ValueError):
    """A ledger that cannot be read or has the wrong shape; the message names the file and item."""


@dataclass(frozen=True)
class LedgerItem:
    """One numbered item of the paper, as the ledger gives it."""

    ref: str
    where: str
    claims: tuple[str, ...] = ()
    status: str | None = None
    reason: str = ""
    used_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ledger:
    """A paper's coverage ledger: the paper's key, the file name of the text its numbering
    follows, its items in order, and where it was read from."""

    paper: str
    text: str
    items: tuple[LedgerItem, ...]
    source: str


# ---- where ledgers and texts are ------------------------------------------------------------------

def ledger_resource(paper: str) -> Traversable | None:
    """The ledger its plugin declares for ``paper`` (``Paper.ledger``, ``"package:resource"``),
    or None when the paper is not installed, declares none or its package cannot be found."""
    from recmem.checks import plugins

    found = plugins.papers().get(paper)
    if found is None or found.ledger is None:
        return None
    package, _, name = found.ledger.partition(":")
    try:
        return resources.files(package) / name
    except ModuleNotFoundError:
        return None


def papers_folder() -> Path:
    """Where paper texts are read: ``$RECMEM_PAPERS``, else the project's folder of paper texts
    beside the repository checkout (absent from an installed package: then no text is read)."""
    if given := os.environ.get(PAPERS_ENV):
        return Path(given)
    return Path(__file__).resolve().parents[2] / "shared" / "papers"


def text_path(ledger: Ledger) -> Path | None:
    """The paper text ``ledger.text`` in :func:`papers_folder`, or None when it is not there."""
    path = papers_folder() / ledger.text
    return path if path.is_file() else None


# ---- reading a ledger -----------------------------------------------------------------------------

def _strings(value: Any, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise LedgerError(f"{where}: {key} must be a non-empty list of claim IDs")
    if not all(isinstance(v, str) and v.strip() == v and v for v in value):
        raise LedgerError(f"{where}: {key} must hold claim IDs (non-empty strings), got {value!r}")
    if len(set(value)) != len(value):
        raise LedgerError(f"{where}: {key} names a claim twice")
    return tuple(value)


def _line(value: Any, where: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise LedgerError(f"{where}: {key} must be one non-empty line of text")
    return value.strip()


def _item(raw: Any, n: int, source: str) -> LedgerItem:
    where = f"{source}: item {n}"
    if not isinstance(raw, dict):
        raise LedgerError(f"{where}: must be a table ([[item]])")
    ref = raw.get("ref")
    if isinstance(ref, str):
        where = f"{source}: item {n} ({ref!r})"
    if unknown := sorted(set(raw) - _ITEM_KEYS):
        raise LedgerError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: "
                          f"{', '.join(sorted(_ITEM_KEYS))})")
    if not isinstance(ref, str) or not _REF.fullmatch(ref):
        raise LedgerError(f"{where}: ref must be \"<kind> <number>\" with a kind among "
                          f"{', '.join(KINDS)} (e.g. \"eq 17\", \"lemma A.7\"), got {ref!r}")
    place = _line(raw.get("where"), where, "where")
    has_claims, status = "claims" in raw, raw.get("status")
    if has_claims and "status" in raw:
        raise LedgerError(f"{where}: give either claims or status, not both")
    if has_claims:
        claims = _strings(raw["claims"], where, "claims")
        if "used_by" in raw:
            raise LedgerError(f"{where}: used_by goes with status = \"definition\"; an item with "
                              "claims lists them in claims")
        reason = _line(raw["reason"], where, "reason") if "reason" in raw else ""
        return LedgerItem(ref, place, claims=claims, reason=reason)
    if status is None:
        raise LedgerError(f"{where}: give claims (the claims that check it) or status "
                          f"({' or '.join(STATUSES)}) with a reason")
    if status not in STATUSES:
        raise LedgerError(f"{where}: status must be {' or '.join(map(repr, STATUSES))}, "
                          f"got {status!r}")
    if "reason" not in raw:
        raise LedgerError(f"{where}: status {status!r} needs a reason (one line)")
    reason = _line(raw["reason"], where, "reason")
    used_by: tuple[str, ...] = ()
    if status == "definition":
        if "used_by" not in raw:
            raise LedgerError(f"{where}: status \"definition\" needs used_by (the claims that use "
                              "it)")
        used_by = _strings(raw["used_by"], where, "used_by")
    elif "used_by" in raw:
        used_by = _strings(raw["used_by"], where, "used_by")
    return LedgerItem(ref, place, status=status, reason=reason, used_by=used_by)


def parse_ledger(text: str, source: str, paper: str | None = None) -> Ledger:
    """The ledger in the TOML ``text`` read from ``source`` (named in every error), checked
    strictly: known keys only, every ref well formed and given once, claims or a status with its
    reason, used_by for a definition, and ``[paper] id`` equal to ``paper`` when given.
    :class:`LedgerError` otherwise."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LedgerError(f"{source}: not valid TOML: {exc}") from None
    if unknown := sorted(set(data) - {"paper", "item"}):
        raise LedgerError(f"{source}: unknown top-level key(s) {', '.join(unknown)} (allowed: "
                          "[paper] and [[item]])")
    head = data.get("paper")
    if not isinstance(head, dict):
        raise LedgerError(f"{source}: missing [paper] table (id and text)")
    if unknown := sorted(set(head) - _PAPER_KEYS):
        raise LedgerError(f"{source}: [paper]: unknown key(s) {', '.join(unknown)} (allowed: "
                          "id, text)")
    key, text_file = head.get("id"), head.get("text")
    if not isinstance(key, str) or not key:
        raise LedgerError(f"{source}: [paper] id must be the paper's key (\"O\", \"W\")")
    if paper is not None and key != paper:
        raise LedgerError(f"{source}: [paper] id is {key!r}, but this is the ledger of paper "
                          f"{paper!r}")
    if not isinstance(text_file, str) or not text_file or Path(text_file).name != text_file:
        raise LedgerError(f"{source}: [paper] text must be the file name of the paper's text "
                          f"(no folder), got {text_file!r}")
    raw_items = data.get("item", [])
    if not isinstance(raw_items, list):
        raise LedgerError(f"{source}: item must be an array of tables ([[item]])")
    items: list[LedgerItem] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(raw_items, 1):
        item = _item(raw, n, source)
        if item.ref in seen:
            raise LedgerError(f"{source}: item {n} ({item.ref!r}): the same ref as item "
                              f"{seen[item.ref]}; give each item once")
        seen[item.ref] = n
        items.append(item)
    return Ledger(key, text_file, tuple(items), source)


def load_ledger(paper: str) -> Ledger | None:
    """The ledger of ``paper`` (:func:`ledger_resource`), or None when the paper has none;
    :class:`LedgerError` when it cannot be read or has the wrong shape."""
    resource = ledger_resource(paper)
    if resource is None or not resource.is_file():
        return None
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"{resource}: cannot be read: {exc}") from None
    return parse_ledger(text, str(resource), paper)


# ---- coverage -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClaimState:
    """A claim an item names: whether the registry has it, and its latest stored verdict (None:
    never run here)."""

    id: str
    registered: bool
    verdict: str | None = None


@dataclass(frozen=True)
class Row:
    """An item's coverage: its status (one of :data:`COVERAGE_STATUSES`), the claims it names
    (``claims``, or ``used_by`` for a definition), the reason, and whether the ledger has it and
    the text prints it (None: the text was not read)."""

    ref: str
    where: str
    status: str
    claims: tuple[ClaimState, ...]
    reason: str
    in_ledger: bool = True
    in_text: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "where": self.where, "status": self.status,
                "claims": [{"id": c.id, "registered": c.registered, "verdict": c.verdict}
                           for c in self.claims],
                "reason": self.reason, "in_ledger": self.in_ledger, "in_text": self.in_text}


@dataclass(frozen=True)
class Coverage:
    """A paper's coverage: one row per ledger item, then one per item of the text the ledger
    lacks; ``text_read`` names the paper text compared (None when it is not available here);
    ``not_in_text`` lists the ledger's refs the text does not number (reported, not counted)."""

    paper: str
    ledger: Ledger | None
    rows: tuple[Row, ...]
    text_read: str | None
    not_in_text: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        """Items per status, in :data:`COVERAGE_STATUSES` order."""
        return {s: sum(r.status == s for r in self.rows) for s in COVERAGE_STATUSES}

    @property
    def ok(self) -> bool:
        """Whether the paper has a ledger and nothing is uncovered."""
        return self.ledger is not None and self.counts()["uncovered"] == 0

    def summary(self) -> str:
        """One line: "paper W: 120 checked, 20 definitions, 8 not checkable, 0 uncovered"."""
        if self.ledger is None:
            return f"paper {self.paper}: no coverage ledger"
        n = self.counts()
        return (f"paper {self.paper}: {n['checked']} checked, {n['definition']} "
                f"definition{'' if n['definition'] == 1 else 's'}, {n['not-checkable']} not "
                f"checkable, {n['uncovered']} uncovered")

    def to_dict(self) -> dict[str, Any]:
        return {"paper": self.paper, "has_ledger": self.ledger is not None,
                "text": None if self.ledger is None else self.ledger.text,
                "text_read": self.text_read is not None, "counts": self.counts(), "ok": self.ok,
                "items": [r.to_dict() for r in self.rows], "not_in_text": list(self.not_in_text)}


def _states(ids: Iterable[str], known: Mapping[str, Any],
            verdicts: Mapping[str, str]) -> tuple[ClaimState, ...]:
    return tuple(ClaimState(i, i in known, verdicts.get(i)) for i in ids)


def _row(item: LedgerItem, known: Mapping[str, Any], verdicts: Mapping[str, str]) -> Row:
    named = item.claims or item.used_by
    states = _states(named, known, verdicts)
    unknown = [c.id for c in states if not c.registered]
    if unknown:
        why = "; ".join(f"unknown claim {i}" for i in unknown)
        return Row(item.ref, item.where, "uncovered", states, why)
    status = "checked" if item.claims else str(item.status)
    return Row(item.ref, item.where, status, states, item.reason)


def latest_verdicts() -> dict[str, str]:
    """Claim ID → the verdict of its latest stored run (``recmem show``'s "last run")."""
    from recmem.checks import store

    return {i: run["result"]["verdict"] for i, run in store.load().items()}


def coverage(paper: str, *, verdicts: Mapping[str, str] | None = None,
             ledger: Ledger | None = None, text: str | None = None,
             read_text: bool = True) -> Coverage:
    """The coverage of ``paper``: its ledger (:func:`load_ledger` unless ``ledger`` is given)
    checked against the registry, each claim's verdict from ``verdicts`` (claim ID → verdict;
    none when not given), and, when the paper's text is given as ``text`` or can be read
    (``read_text``: :func:`text_path`), the items it numbers (``checks/paper_items.py``) that the
    ledger lacks as uncovered rows. :class:`LedgerError` for a malformed ledger."""
    from recmem.checks.paper_items import extract_items
    from recmem.checks.registry import all_claims

    if ledger is None:
        ledger = load_ledger(paper)
    known, verdicts = all_claims(), verdicts or {}
    rows = [] if ledger is None else [_row(i, known, verdicts) for i in ledger.items]
    source = None if text is None else "the given text"
    path = text_path(ledger) if ledger is not None and text is None and read_text else None
    if path is not None:
        try:
            text, source = path.read_text(encoding="utf-8"), str(path)
        except (OSError, UnicodeDecodeError):  # unreadable here: compared where it can be read
            text = None
    if text is None:
        return Coverage(paper, ledger, tuple(rows), None)
    # a ledger may list sections of the main text ("section 3.1"); only appendix sections are
    # required items (paper_items.extract_items)
    numbered = extract_items(text, body_sections=True)
    in_text = {i.ref for i in numbered}
    printed = [i for i in numbered if not re.fullmatch(r"section \d.*", i.ref)]
    rows = [Row(r.ref, r.where, r.status, r.claims, r.reason, True, r.ref in in_text)
            for r in rows]
    listed = {r.ref for r in rows}
    rows += [Row(i.ref, i.where, "uncovered", (), MISSING_FROM_LEDGER,
                 False, True) for i in printed if i.ref not in listed]
    return Coverage(paper, ledger, tuple(rows), source,
                    tuple(r.ref for r in rows if r.in_text is False))


__all__ = ["COVERAGE_STATUSES", "KINDS", "MISSING_FROM_LEDGER", "PAPERS_ENV", "STATUSES",
           "ClaimState", "Coverage", "Ledger", "LedgerError", "LedgerItem", "Row", "coverage",
           "latest_verdicts", "ledger_resource", "load_ledger", "papers_folder", "parse_ledger",
           "text_path"]
