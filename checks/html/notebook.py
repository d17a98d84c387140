"""Rich displays in Jupyter (``_repr_html_``) of the objects the Python API returns: a
verification report and a claim result. They use the site's own templates
(:mod:`recmem.checks.html.render`), with a small style sheet scoped to the display, so a notebook
shows the same tables, badges and evidence as the pages of ``recmem report --html``."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from markupsafe import Markup

from recmem.checks.html.render import render


@functools.cache
def style() -> str:
    """The display's style sheet (``assets/notebook.css``: every rule under ``.recmem-nb``, so
    the notebook's own styles are left alone)."""
    return resources.files("recmem.checks.html").joinpath("assets", "notebook.css").read_text(
        encoding="utf-8")


def report_html(report: Any) -> str:
    """A :class:`recmem.checks.report.Report` as HTML: the summary, the table of verdicts and
    each claim's evidence in an expandable section."""
    from recmem.checks.html.sources import from_results

    run = from_results(report.meta, report.claims, report.complete)
    return str(render("notebook_report.html", css=Markup(style()), run=run.meta, counts=run.counts(),
                      complete=run.complete, claims=run.claims, claim_href=None))


def claim_html(result: Any) -> str:
    """A :class:`recmem.checks.report.ClaimResult` as HTML: the site's claim page body."""
    return str(render("notebook_claim.html", css=Markup(style()), c=result.to_dict()))
