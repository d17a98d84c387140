"""Paper O's coverage ledger (checks/claims/paper_o/ledger.toml, issue 21): it parses with tomllib,
every item has claims or a status with its reason, no ref is given twice, every claim it names is
registered, and it lists every item the workshop text (arXiv 2307.11888 v1) numbers.

The text is not part of the repository; the numbering it prints is (item numbers only):
equations (1)–(38), Theorems 1–5, Lemma 6, Proposition 7, Lemma 8, Assumptions A and B, sections
1–4 with 3.1 and 3.2, appendices A–E with E.1–E.3, Figures 1–9, no table."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from typing import Any

import pytest

from recmem.checks.registry import all_claims

LEDGER = resources.files("recmem.checks.claims.paper_o") / "ledger.toml"
TEXT = "002_bf4ada9b96c0e831.txt"
KINDS = ("eq", "theorem", "lemma", "proposition", "corollary", "definition", "remark",
         "assumption", "section", "figure", "table")
REF = re.compile(r"(" + "|".join(KINDS) + r") ((?:[A-Z]|[1-9]\d*)(?:\.\d+)*)")
STATUSES = ("definition", "not-checkable")
ITEM_KEYS = {"ref", "where", "claims", "status", "reason", "used_by"}

# What the text numbers (see the module docstring).
PRINTED = (
    {f"eq {n}" for n in range(1, 39)}
    | {f"theorem {n}" for n in range(1, 6)}
    | {"lemma 6", "proposition 7", "lemma 8", "assumption A", "assumption B"}
    | {f"section {s}" for s in ("1", "2", "3", "3.1", "3.2", "4", "A", "B", "C", "D", "E",
                                "E.1", "E.2", "E.3")}
    | {f"figure {n}" for n in range(1, 10)}
)


@pytest.fixture(scope="module")
def ledger() -> dict[str, Any]:
    return tomllib.loads(LEDGER.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def items(ledger: dict[str, Any]) -> list[dict[str, Any]]:
    return list(ledger["item"])


def _named(item: dict[str, Any]) -> list[str]:
    return list(item.get("claims", [])) + list(item.get("used_by", []))


def _one_line(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and "\n" not in value


def test_ledger_ships_with_the_claims_and_names_its_paper(ledger: dict[str, Any]) -> None:
    assert LEDGER.is_file()
    assert set(ledger) == {"paper", "item"}
    assert ledger["paper"] == {"id": "O", "text": TEXT}


def test_every_item_is_well_formed(items: list[dict[str, Any]]) -> None:
    for item in items:
        ref = item.get("ref")
        assert isinstance(ref, str) and REF.fullmatch(ref), item
        assert set(item) <= ITEM_KEYS, (ref, set(item) - ITEM_KEYS)
        assert _one_line(item.get("where")), ref
        if "claims" in item:
            claims = item["claims"]
            assert "status" not in item and "used_by" not in item, ref
            assert isinstance(claims, list) and claims, ref
            assert len(set(claims)) == len(claims), ref
            assert "reason" not in item or _one_line(item["reason"]), ref
        else:
            assert item.get("status") in STATUSES, ref
            assert _one_line(item.get("reason")), ref
            if item["status"] == "definition":
                used_by = item.get("used_by")
                assert isinstance(used_by, list) and used_by, ref
                assert len(set(used_by)) == len(used_by), ref


def test_no_ref_is_given_twice(items: list[dict[str, Any]]) -> None:
    refs = [i["ref"] for i in items]
    assert sorted(r for r in set(refs) if refs.count(r) > 1) == []


def test_every_numbered_item_of_the_text_is_listed(items: list[dict[str, Any]]) -> None:
    refs = {i["ref"] for i in items}
    assert sorted(PRINTED - refs) == []
    assert sorted(refs - PRINTED) == []  # nothing the text does not number


def test_every_claim_named_is_registered(items: list[dict[str, Any]]) -> None:
    known = set(all_claims())
    unknown = {(i["ref"], c) for i in items for c in _named(i) if c not in known}
    assert sorted(unknown) == []
    assert all(c.startswith("O.") for i in items for c in _named(i))


def test_every_registered_claim_of_paper_o_is_placed(items: list[dict[str, Any]]) -> None:
    """A claim of paper O checks some numbered item (or rests on a definition): the ledger names
    it, or the claim it refines (``<base>.<reading>``)."""
    named = {c for i in items for c in _named(i)}
    claims = [c for c, claim in all_claims().items() if claim.paper == "O"]
    assert claims
    unplaced = [c for c in claims
                if not any(c == n or c.startswith(n + ".") for n in named)]
    assert unplaced == []
