"""``recmem report --html``: a static site of a verification run (issue 23), a "blueprint" of each
paper. It opens from the file system (no server, nothing fetched at view time):

- ``index.html``: the run (ID, seed, arithmetics) and each paper's verdict counts, with the
  condition sweeps and reproductions included from other folders;
- ``<PAPER>/index.html``: the paper's citation, every claim of the run with its verdict badge,
  one-line summary, controls told apart and time (filtered by verdict), and the dependency graph
  (:mod:`recmem.checks.html.graph`) beside the paper's coverage ledger;
- ``<PAPER>/claims/<CLAIM_ID>.html``: the statement and page quote with their mathematics
  rendered (:mod:`recmem.checks.html.mathtext`), each piece of evidence, each negative control
  with its counterexample as Python, the claim's stored history and links to the claims it uses;
- ``sweeps/…`` and ``reproductions/…`` (:mod:`recmem.checks.html.included`).

Every page is generated from the report's JSON (:mod:`recmem.checks.html.sources`), never
retyped. The site is built in a temporary folder beside its target and moved into place whole
(:func:`recmem.checks.outputs.replace_folder`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from recmem.checks.html.render import render
from recmem.checks.html.sources import RunData, paper_of

# the file that marks a folder as a site recmem wrote (only such a folder is replaced by --force)
MARKER = ".recmem-site"
ASSETS = ("site.css", "site.js")
HISTORY_LIMIT = 50


@dataclass(frozen=True)
class SiteSummary:
    """What a build wrote: the folder, its pages, the claims and papers shown, and the time."""

    folder: Path
    pages: int
    claims: int
    papers: tuple[str, ...]
    included: int
    seconds: float


def check_output(folder: str | os.PathLike[str], *, force: bool,
                 inputs: Iterable[tuple[str, str | os.PathLike[str]]] = ()) -> Path:
    """``folder`` when the site can be written there (:func:`recmem.checks.outputs.
    check_output_folder`), and neither recmem's own state nor an input of the command (``inputs``:
    (option, path) pairs: the report, the included folders) lies inside it, since the folder is
    replaced whole; :class:`recmem.checks.outputs.OutputPathError` otherwise."""
    from recmem.checks.outputs import OutputPathError, check_output_folder, recmem_state

    real = Path(os.path.realpath(folder))
    kept = [(k.what, k.path) for k in recmem_state()]
    kept += [(f"the input of {option}", Path(p)) for option, p in inputs]
    for what, path in kept:
        inner = Path(os.path.realpath(path))
        if inner == real or inner.is_relative_to(real) or real.is_relative_to(inner):
            raise OutputPathError(f"--html {os.fspath(folder)}: holds or is inside {what} "
                                  f"({os.fspath(path)}); give another folder")
    return check_output_folder(folder, "--html", marker=MARKER, force=force)


# ---- the data of the pages -----------------------------------------------------------------------

def _paper_info(key: str, claims: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The paper's citation as the run's reports give it (the first claim's source)."""
    source = claims[0]["source"] if claims else {}
    return {"key": key, "citation": str(source.get("paper", key)),
            "version": str(source.get("version", "")), "url": str(source.get("text", ""))}


def _history(claim_id: str) -> list[dict[str, Any]]:
    """The claim's stored runs, newest first (none when the store cannot be read)."""
    from recmem.checks import store

    return [{"stored_at": r.stored_at, "run_id": r.run.get("run_id", ""), "verdict": r.verdict,
             "seed": r.run.get("seed", ""), "backends": ", ".join(r.run.get("backends") or ()),
             "recmem": r.run.get("recmem", "")}
            for r in store.history(claim_id, HISTORY_LIMIT)]


def _graph(key: str, claims: Sequence[dict[str, Any]], href: dict[str, str]) -> Any:
    """The paper's dependency graph: the run's claims (coloured by verdict, linked) and the
    paper's registered claims the run did not include (grey, unlinked)."""
    from recmem.checks.html.graph import GraphNode, dependency_svg
    from recmem.checks.registry import all_claims

    nodes = [GraphNode(c["id"], c["id"], c["verdict"], href[c["id"]],
                       c.get("summary") or c.get("title", ""), tuple(c.get("uses", ())),
                       c.get("corrects"), c["source"].get("location", ""), bool(c.get("reading")))
             for c in claims]
    shown = {n.id for n in nodes}
    nodes += [GraphNode(c.id, c.id, None, None, (c.summary or c.title) + " (not in this run)",
                        c.uses, c.corrects, c.provenance.location, bool(c.reading))
              for c in all_claims().values() if c.paper == key and c.id not in shown]
    return dependency_svg(nodes)


def _ledger(key: str, verdicts: dict[str, str]) -> dict[str, Any] | None:
    """The paper's coverage ledger with the run's verdicts (None: the paper has none)."""
    from recmem.checks.coverage import LedgerError, coverage

    try:
        cov = coverage(key, verdicts=verdicts, read_text=False)
    except LedgerError as exc:
        return {"error": str(exc), "rows": [], "summary": ""}
    if cov.ledger is None:
        return None
    return {"error": "", "summary": cov.summary(), "rows": [r.to_dict() for r in cov.rows]}


def _links(ids: Iterable[str], href: dict[str, str], prefix: str) -> list[dict[str, str | None]]:
    return [{"id": i, "href": (prefix + href[i]) if i in href else None} for i in ids]


# ---- writing -------------------------------------------------------------------------------------

def _common(run: RunData, papers: Sequence[str], root: str) -> dict[str, Any]:
    from importlib.metadata import version

    return {"root": root, "run": run.meta, "origin": run.origin, "complete": run.complete,
            "nav_papers": papers, "recmem_version": version("recmem"),
            "generated": time.strftime("%Y-%m-%d %H:%M:%S %z")}


def build_site(run: RunData, folder: str | os.PathLike[str], *,
               included: Sequence[Any] = ()) -> SiteSummary:
    """Write the site of ``run`` (and of the ``included`` sweeps and reproductions, read by
    :func:`recmem.checks.html.included.check_includes`) into ``folder``, replacing it whole
    (check it first with :func:`check_output`)."""
    from recmem.checks.outputs import replace_folder

    t0 = time.perf_counter()
    papers = run.papers()
    by_paper = {p: [c for c in run.claims if paper_of(c["id"]) == p] for p in papers}
    href = {c["id"]: f"{paper_of(c['id'])}/claims/{c['id']}.html" for c in run.claims}
    used_by: dict[str, list[str]] = {}
    corrected_by: dict[str, list[str]] = {}
    for c in run.claims:
        for u in c.get("uses", ()):
            used_by.setdefault(u, []).append(c["id"])
        if c.get("corrects"):
            corrected_by.setdefault(c["corrects"], []).append(c["id"])
    pages = 0
    with replace_folder(folder) as site:
        (site / MARKER).write_text(f"a site written by `recmem report --html` from "
                                   f"{run.origin}\n", encoding="utf-8")
        (site / "assets").mkdir()
        for name in ASSETS:
            data = resources.files("recmem.checks.html").joinpath("assets", name).read_bytes()
            (site / "assets" / name).write_bytes(data)
        pages_of_includes = []
        if included:
            from recmem.checks.html.included import write_include_pages
            from recmem.checks.html.render import environment

            pages_of_includes = write_include_pages(included, environment(), site,
                                                    _common(run, papers, "../../"))
            pages += len(pages_of_includes)
        papers_info = []
        for key, claims in by_paper.items():
            info = _paper_info(key, claims)
            verdicts = {c["id"]: c["verdict"] for c in claims}
            counts = run.only(key).counts()
            papers_info.append({**info, "counts": counts, "claims": len(claims)})
            # links from the paper's index: its own claims' pages, and other papers' one level up
            rel = {i: ("claims/" + i + ".html" if paper_of(i) == key else "../" + h)
                   for i, h in href.items()}
            local = {i: h for i, h in rel.items() if paper_of(i) == key}
            (site / key / "claims").mkdir(parents=True)
            _write(site / key / "index.html", render(
                "paper.html", **_common(run, papers, "../"), paper=info, claims=claims,
                counts=counts, graph=_graph(key, claims, rel), ledger=_ledger(key, verdicts),
                claim_href=local))
            pages += 1
            for c in claims:
                cid = c["id"]
                _write(site / key / "claims" / f"{cid}.html", render(
                    "claim.html", **_common(run, papers, "../../"), paper=info, c=c,
                    uses=_links(c.get("uses", ()), href, "../../"),
                    used_by=_links(used_by.get(cid, ()), href, "../../"),
                    corrects=_links([c["corrects"]] if c.get("corrects") else [], href, "../../"),
                    corrected_by=_links(corrected_by.get(cid, ()), href, "../../"),
                    history=_history(cid)))
                pages += 1
        _write(site / "index.html", render("index.html", **_common(run, papers, ""),
                                           papers=papers_info, included=pages_of_includes,
                                           not_run=run.not_run()))
        pages += 1
    return SiteSummary(Path(folder), pages, len(run.claims), tuple(papers),
                       len(pages_of_includes), time.perf_counter() - t0)


def _write(path: Path, html: str) -> None:
    # inside the temporary folder of replace_folder: a plain write (the folder moves in whole)
    path.write_text(html, encoding="utf-8")


def site_for_report(report: Any, folder: str | os.PathLike[str]) -> SiteSummary:
    """The site of a :class:`recmem.checks.report.Report` (``recmem verify --html``)."""
    from recmem.checks.html.sources import from_results

    return build_site(from_results(report.meta, report.claims, report.complete), folder)
