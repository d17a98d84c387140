"""The one Jinja2 environment of recmem's pages (site and notebook displays): templates from
``recmem.checks.html``'s ``templates/`` folder, autoescaping on, and the filters every template
shares (mathematics through :mod:`recmem.checks.html.mathtext`, verdict classes, numbers)."""

from __future__ import annotations

import functools
import pprint
from typing import Any

from markupsafe import Markup


def verdict_class(verdict: Any) -> str:
    """The CSS classes of a verdict badge: ``verdict verdict-refuted`` (``verdict-none`` for a
    claim that did not run)."""
    name = str(verdict).lower() if verdict else "none"
    return f"verdict verdict-{name}"


def python_literal(value: Any) -> str:
    """``value`` (decoded JSON: dicts, lists, strings, numbers, None, booleans) as a Python
    expression to copy into a session: ``pprint``'s repr, which evaluates to the same value."""
    return pprint.pformat(value, width=96, sort_dicts=False)


def seconds(value: Any) -> str:
    """A duration in seconds as the tables print it (two decimals; blank when missing)."""
    try:
        return f"{float(value):.2f}"
    except (TypeError, ValueError):
        return ""


@functools.cache
def environment() -> Any:
    """The shared :class:`jinja2.Environment` (autoescaped; ``StrictUndefined``, so a template
    that names a field the data lacks fails loudly instead of printing nothing)."""
    import jinja2

    from recmem.checks.html import mathtext

    env = jinja2.Environment(loader=jinja2.PackageLoader("recmem.checks.html", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["math"] = mathtext.math_html
    env.filters["tex"] = mathtext.tex_html
    env.filters["verdict_class"] = verdict_class
    env.filters["python"] = python_literal
    env.filters["seconds"] = seconds
    return env


def render(template: str, **context: Any) -> Markup:
    """``template`` rendered with ``context`` (safe HTML)."""
    return Markup(environment().get_template(template).render(**context))
