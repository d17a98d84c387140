"""Registry-wide invariants of statements and negative controls (issue 7, CLAIMS.md rule 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recmem.checks.registry import all_claims
from recmem.theory.statement import Statement

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = list(all_claims().values())


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_statement_is_written_once_in_theory(claim) -> None:
    assert isinstance(claim.statement, Statement), claim.id
    assert type(claim.statement).__module__.startswith("recmem.theory."), claim.id
    assert claim.text == claim.statement.text and claim.text


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_claim_has_distinct_controls_built_from_its_statement(claim) -> None:
    controls = claim.controls
    assert len(controls) >= 2, claim.id
    changes = [c.change for c in controls]
    assert len(set(changes)) == len(changes), changes
    texts = {c.statement.text for c in controls}
    assert len(texts) == len(controls) and claim.text not in texts, claim.id
    for c in controls:
        assert type(c.statement) is type(claim.statement), (claim.id, c.change)
        assert c.statement != claim.statement, (claim.id, c.change)


def test_no_symbolic_side_turns_a_disproof_into_undecided() -> None:
    """Defect 1 of issue 7: `Proof(holds if holds else None)` and the like hid refutations."""
    pattern = re.compile(r"(\w+) if \1 else None|True if \w+ else None|False if \w+ else None")
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in [*ROOT.glob("theory/*.py"),
                                                         *ROOT.glob("checks/**/*.py")]
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if pattern.search(line)]
    assert not offenders, offenders
