"""Every quote of the papers whose claims quote their text verbatim is found in that text, up to
whitespace (issue 22: paper L's quotes; each part of a quote joined with " … " on its own).

The text is the one the paper's coverage ledger names, read from the papers folder
(``$RECMEM_PAPERS``); the test skips where it is absent. Papers O and W predate the rule: their
older claims quote the page with its formulas retyped, and the claims written since check their
own quotes in their test modules.
"""

from __future__ import annotations

import re

import pytest

from recmem.checks import coverage as cv
from recmem.checks.registry import all_claims

VERBATIM = ("L",)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _page(paper: str) -> str:
    ledger = cv.load_ledger(paper)
    assert ledger is not None, f"paper {paper} has no coverage ledger naming its text"
    path = cv.text_path(ledger)
    if path is None:
        pytest.skip(f"the text of paper {paper} ({ledger.text}) is not in {cv.papers_folder()}")
    return _norm(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("paper", VERBATIM)
def test_every_quote_is_the_page_text(paper: str) -> None:
    page = _page(paper)
    claims = [c for c in all_claims().values() if c.paper == paper]
    assert claims
    missing = [(c.id, part[:80]) for c in claims for part in c.provenance.quote.split(" … ")
               if _norm(part) not in page]
    assert not missing, missing


def test_a_retyped_quote_is_caught() -> None:
    page = _page("L")
    part = next(c for c in all_claims().values() if c.paper == "L").provenance.quote.split(" … ")[0]
    assert _norm(part) in page
    assert _norm(part.replace("\\", "", 1)) not in page  # one backslash dropped
