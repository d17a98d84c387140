"""The site of ``recmem report --html`` (issue 23) in a real headless Chromium, from the file system.

One run of a handful of fast claims from the three papers (VERIFIED ones, printed slips REFUTED
with a counterexample) is stored in a temporary ``RECMEM_HOME``; ``recmem report --html`` writes
its site; every page is opened once (``file://``, network cut off) and checked: no console error
or warning, no page error, no failed or network request, links and fragments resolve, every claim
of the run has a page and a node in its paper's graph, the mathematics is rendered (MathML, no
renderer error, no ``$…$`` left), the verdict filter hides the other verdicts, and screenshots of
the site's index and a paper's index are kept under the test's temporary folder.

The whole module skips, with the reason, where Chromium cannot be launched (tests/browser.py). The
first test checks the harness itself on a hand-written folder: it must catch a console error, a
page error, a broken link, a missing fragment, a missing image and a request to the network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser import browser_or_skip, check_links, close_browser, open_page, screenshot

if TYPE_CHECKING:  # playwright may be missing: the module then skips (browser_or_skip)
    from playwright.sync_api import Browser

# Fast claims (about 1 s each) from the three papers: verified statements, and printed slips that
# are refuted with a certified counterexample (L.phase: no i in the exponent; W.lyapunov-bound).
CLAIMS = ("O.vandermonde-form", "O.roots-of-unity", "L.phase", "L.e2.real-part.corrected",
          "W.lyapunov-bound", "W.reparam.corrected")
# Two dollar signs with something between them on one line: LaTeX left unrendered.
_RAW_TEX = re.compile(r"\$[^$\n]+\$")
_PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module", autouse=True)
def browser() -> Iterator[Browser]:
    """The module's Chromium (autouse: without one, every test skips before the site is built)."""
    launched = browser_or_skip()
    yield launched
    close_browser(launched)


@dataclass(frozen=True)
class Site:
    """The built site and the run it shows."""

    folder: Path
    report: dict[str, Any]

    def claim_ids(self) -> list[str]:
        """The run's claim IDs, as the stored report lists them."""
        return [c["id"] for c in self.report["claims"]]

    def verdicts(self) -> dict[str, str]:
        """Each claim's verdict in the report."""
        return {c["id"]: c["verdict"] for c in self.report["claims"]}


def _paper(claim_id: str) -> str:
    return claim_id.split(".", 1)[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """One stored run of :data:`CLAIMS` in a fresh ``RECMEM_HOME`` and its site."""
    from recmem.checks.cli import main

    tmp = tmp_path_factory.mktemp("site")
    report = tmp / "R.json"
    with pytest.MonkeyPatch.context() as mp:  # the commands, in this process
        mp.setenv("RECMEM_HOME", str(tmp / "home"))
        assert main(["verify", "--quiet", "--json", str(report), *CLAIMS]) in (0, 1)  # 1: REFUTED
        assert main(["report", "--html", str(tmp / "site")]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {c["id"] for c in data["claims"]} == set(CLAIMS)
    # the run must exercise both kinds of page the tests look at
    assert {"VERIFIED", "REFUTED"} <= {c["verdict"] for c in data["claims"]}, data["summary"]
    return Site(folder=tmp / "site", report=data)


@dataclass(frozen=True)
class Visit:
    """What one page showed: its problems, its links, and its mathematics."""

    problems: list[str]
    links_checked: int
    link_problems: list[str]
    math: int
    math_errors: int
    raw_tex: list[str]


@pytest.fixture(scope="module")
def visits(browser: Browser, site: Site) -> dict[Path, Visit]:
    """Every HTML page of the site, opened once (relative path → :class:`Visit`)."""
    pages = sorted(site.folder.rglob("*.html"))
    assert pages, f"no HTML page in {site.folder}"
    out = {}
    for path in pages:
        with open_page(browser, path) as opened:
            page = opened.page
            links = check_links(page)
            out[path.relative_to(site.folder)] = Visit(
                problems=opened.problems(), links_checked=links.checked,
                link_problems=links.problems, math=page.locator("math").count(),
                math_errors=page.locator(".math-error").count(),
                raw_tex=_RAW_TEX.findall(page.inner_text("body")))
    return out


def test_the_harness_catches_errors_broken_links_and_network(browser: Browser,
                                                             tmp_path: Path) -> None:
    """On a hand-written folder, tests/browser.py reports each planted fault and nothing on a
    clean page (so a clean site page is clean for a reason)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "ok.js").write_text("document.body.dataset.ran = 'yes';\n")
    (tmp_path / "sub" / "target.html").write_text(
        '<!doctype html><html><head><title>t</title></head><body><h1 id="there">t</h1>'
        '<a href="../ok.html#top-of-ok">back</a></body></html>\n')
    (tmp_path / "ok.html").write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>ok</title></head><body>'
        '<p id="top-of-ok">fine</p><a href="sub/target.html#there">t</a> <a href="#top-of-ok">up</a>'
        ' <a href="https://example.org/paper">the paper</a>'
        '<svg width="10" height="10"><a href="sub/target.html"><circle r="4" cx="5" cy="5"/></a></svg>'
        '<script src="ok.js"></script></body></html>\n')
    (tmp_path / "bad.html").write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>bad</title></head><body>'
        "<script>console.error('x')</script>"
        "<script>throw new Error('planted page error')</script>"
        '<a href="missing.html">gone</a> <a href="sub/target.html#nowhere">no id</a>'
        ' <a href="#absent">no id here</a> <a href="sub/">a folder</a>'
        '<img src="no-such.png" alt="">'
        '<img src="http://example.invalid/" alt=""></body></html>\n')

    with open_page(browser, tmp_path / "ok.html") as ok:
        assert ok.problems() == []
        assert ok.page.evaluate("document.body.dataset.ran") == "yes"
        links = check_links(ok.page)
        assert links.problems == [] and links.checked == 5
        assert links.external == ["https://example.org/paper"]
    with open_page(browser, tmp_path / "sub" / "target.html") as target:
        assert check_links(target.page).problems == []

    with open_page(browser, tmp_path / "bad.html") as bad:
        assert any("error: x" in c for c in bad.console), bad.console
        assert any("planted page error" in e for e in bad.page_errors), bad.page_errors
        assert any("no-such.png" in r for r in bad.failed_requests), bad.failed_requests
        assert bad.network_requests == ["http://example.invalid/"]
        problems = "\n".join(check_links(bad.page).problems)
    for fault in ("missing.html", "'nowhere'", "'absent'", "is a folder", "no-such.png"):
        assert fault in problems, (fault, problems)
    assert "example.invalid" not in problems  # absolute URLs are external links, not files


def test_every_page_loads_cleanly(visits: dict[Path, Visit]) -> None:
    """No console error or warning, no page error, no failed request, nothing from the network."""
    bad = {str(p): v.problems for p, v in visits.items() if v.problems}
    assert bad == {}


def test_every_claim_has_a_page_and_a_graph_node(browser: Browser, site: Site) -> None:
    """Each claim of the stored report: ``<paper>/claims/<ID>.html`` with its verdict's badge, and
    a node ``[data-claim=ID]`` in the SVG graph of ``<paper>/index.html``."""
    verdicts = site.verdicts()
    for paper in sorted({_paper(c) for c in verdicts}):
        with open_page(browser, site.folder / paper / "index.html") as index:
            for claim_id in (c for c in verdicts if _paper(c) == paper):
                # the node: coloured by the run's verdict and a link to the claim's page
                node = index.page.locator(f'svg g.node.verdict-{verdicts[claim_id].lower()}'
                                          f'[data-claim="{claim_id}"] a')
                assert node.count() == 1, claim_id
                assert node.get_attribute("href") == f"claims/{claim_id}.html", claim_id
    for claim_id, verdict in verdicts.items():
        page = site.folder / _paper(claim_id) / "claims" / f"{claim_id}.html"
        assert page.is_file(), page
        # the badge of the report's verdict (class verdict-<lowercase>), from the same data
        assert f"verdict-{verdict.lower()}" in page.read_text(encoding="utf-8"), (claim_id, verdict)


def test_mathematics_is_rendered_on_every_claim_page(site: Site, visits: dict[Path, Visit]) -> None:
    """MathML present, no renderer error, no ``$…$`` left in the visible text."""
    claim_pages = {p: v for p, v in visits.items() if p.parent.name == "claims"}
    assert {p.stem for p in claim_pages} >= set(site.claim_ids())
    for path, visit in claim_pages.items():
        assert visit.math >= 1, path
        assert visit.math_errors == 0, path
        assert visit.raw_tex == [], path
    # the rest of the site renders its mathematics too (no page shows a renderer error)
    assert {str(p): v.math_errors for p, v in visits.items() if v.math_errors} == {}


def test_all_links_resolve(visits: dict[Path, Visit]) -> None:
    """Every relative reference of every page names an existing file (and element id)."""
    assert {str(p): v.link_problems for p, v in visits.items() if v.link_problems} == {}
    assert all(v.links_checked > 0 for v in visits.values())  # every page links somewhere


def test_verdict_filter_hides_the_other_verdicts(browser: Browser, site: Site) -> None:
    """On a paper index with several verdicts, choosing REFUTED in ``select#verdict-filter`` leaves
    only the REFUTED rows of ``table#claims`` visible; "all" shows every row again."""
    verdicts = site.verdicts()
    mixed = [p for p in sorted({_paper(c) for c in verdicts})
             if {"REFUTED"} < {v for c, v in verdicts.items() if _paper(c) == p}]
    assert mixed, verdicts
    with open_page(browser, site.folder / mixed[0] / "index.html") as index:
        rows = index.page.locator("table#claims tr[data-verdict]")
        shown = [str(rows.nth(i).get_attribute("data-verdict")) for i in range(rows.count())]
        assert sorted(shown) == sorted(v for c, v in verdicts.items() if _paper(c) == mixed[0])

        def visible() -> list[str]:
            return [str(rows.nth(i).get_attribute("data-verdict")) for i in range(rows.count())
                    if rows.nth(i).is_visible()]

        assert sorted(visible()) == sorted(shown)
        index.page.select_option("select#verdict-filter", "REFUTED")
        assert visible() == [v for v in shown if v == "REFUTED"]
        index.page.select_option("select#verdict-filter", "all")
        assert sorted(visible()) == sorted(shown)
        assert index.problems() == []


def test_screenshots_of_the_index_and_a_paper(browser: Browser, site: Site, tmp_path: Path) -> None:
    """PNGs of ``index.html`` and of a paper's index, kept under the test's temporary folder."""
    paper = _paper(site.claim_ids()[0])
    for name, page in (("index", site.folder / "index.html"),
                       (f"paper-{paper}", site.folder / paper / "index.html")):
        with open_page(browser, page) as opened:
            shot = screenshot(opened.page, tmp_path / f"{name}.png")
        data = shot.read_bytes()
        assert data.startswith(_PNG) and len(data) > 5_000, (shot, len(data))
