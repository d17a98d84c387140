"""Data sanity of paper W's coverage ledger (``checks/claims/paper_w/ledger.toml``, issue 21).

The general machinery (reading, counting, the ``recmem coverage`` command) is tested in
tests/test_coverage.py; this file only checks the data of W's ledger: it parses, every item is
either checked by named claims or carries a status with its reason, no ref twice, every claim it
names is registered, and every equation number the camera-ready text prints is in it.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from typing import Any

import pytest

from recmem.checks.coverage import papers_folder
from recmem.checks.registry import all_claims

TEXT = "W-iclr2024-camera-ready.md"

# equation numbers as the camera-ready prints them: \tag{N}, or "(N)" ending a line of an array
# (eqs. (58)–(61) of App. A.9)
_TAG = re.compile(r"\\tag\s*\{\s*(\d+)\s*\}")
_ARRAY_NUMBER = re.compile(r"\s\((\d+)\)\s*\\\\")


def _ledger() -> dict[str, Any]:
    text = (resources.files("recmem.checks.claims.paper_w") / "ledger.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _items() -> list[dict[str, Any]]:
    items = _ledger()["item"]
    assert isinstance(items, list) and items
    return items


def test_ledger_parses_and_names_its_paper_and_text() -> None:
    data = _ledger()
    assert data["paper"] == {"id": "W", "text": TEXT}


def test_every_item_is_checked_or_carries_a_status_and_reason() -> None:
    for item in _items():
        ref = item["ref"]
        assert isinstance(item.get("where"), str) and item["where"].strip(), ref
        if "claims" in item:
            assert "status" not in item and "used_by" not in item, ref
            assert item["claims"] and len(set(item["claims"])) == len(item["claims"]), ref
            continue
        assert item.get("status") in ("definition", "not-checkable"), ref
        reason = item.get("reason")
        assert isinstance(reason, str) and reason.strip() and "\n" not in reason, ref
        if item["status"] == "definition":
            assert item.get("used_by"), f"{ref}: a definition names the claims that use it"


def test_no_ref_twice() -> None:
    refs = [item["ref"] for item in _items()]
    assert len(refs) == len(set(refs)), sorted(r for r in refs if refs.count(r) > 1)


def test_every_named_claim_is_registered() -> None:
    registered = set(all_claims())
    named = {c for item in _items() for c in (*item.get("claims", ()), *item.get("used_by", ()))}
    assert named, "the ledger names no claim"
    unknown = sorted(named - registered)
    assert not unknown, unknown


def test_every_registered_w_claim_checks_or_uses_some_item() -> None:
    """A registered W claim that no item names, itself or through the claim it refines
    (``W.gru.x`` through ``W.gru``), would check nothing the paper numbers."""
    named = {c for item in _items() for c in (*item.get("claims", ()), *item.get("used_by", ()))}

    def covered(claim_id: str) -> bool:
        parts = claim_id.split(".")
        return any(".".join(parts[:k]) in named for k in range(2, len(parts) + 1))

    orphans = sorted(c for c in all_claims() if c.startswith("W.") and not covered(c))
    assert not orphans, orphans


def test_every_printed_equation_number_is_in_the_ledger() -> None:
    path = papers_folder() / TEXT
    if not path.is_file():
        pytest.skip(f"paper W's text {TEXT} is not here ({papers_folder()})")
    text = path.read_text(encoding="utf-8")
    printed = {int(n) for n in _TAG.findall(text)} | {int(n) for n in _ARRAY_NUMBER.findall(text)}
    assert len(printed) >= 138  # the camera-ready numbers 142 equations, 138 of them with \tag
    refs = {item["ref"] for item in _items()}
    missing = sorted(n for n in printed if f"eq {n}" not in refs)
    assert not missing, missing
    # and the ledger numbers no equation the text lacks
    extra = sorted(r for r in refs if r.startswith("eq ") and int(r.split()[1]) not in printed)
    assert not extra, extra
