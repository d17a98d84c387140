"""Mathematics of claim texts as HTML + MathML (issue 23): recmem.checks.html.mathtext."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

import recmem.checks as rc
from recmem.checks.html.mathtext import Rendered, math_html, render, tex_html

MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
# What a TeX delimiter pair looks like if one survived outside <math>.
DOLLAR_PAIR = re.compile(r"\$[^$\s][^$]*\$")


def _prose(html: str) -> str:
    return MATH.sub("", html)


def test_paren_subscript_is_the_tex_subscript() -> None:
    # Compared with latex2mathml's own output for the TeX, so the group's parentheses must go.
    rendered = render("x_(k−1)")
    assert rendered == Rendered(tex_html("x_{k-1}"), (), 1)
    assert "<msub><mi>x</mi>" in rendered.html and "(" not in rendered.html


def test_sub_and_superscript_chain_gives_msubsup() -> None:
    html = math_html("λ_i^(k−j) and Σ_(j=0)^(k − 1)")
    assert html.count("<msubsup>") == 2
    assert html == tex_html("λ_{i}^{k-j}") + Markup(" and ") + tex_html("Σ_{j=0}^{k - 1}")


def test_only_tokens_become_math_prose_stays_text() -> None:
    rendered = render("the state x_k grows, and r_max < 1 & u_(k−1) ≥ 0")
    assert rendered.spans == 3
    prose = _prose(rendered.html)
    assert prose == "the state  grows, and  &lt; 1 &amp;  ≥ 0"
    assert "<mo>max</mo>" in rendered.html  # r_max: the operator name, as the papers' r_{\max}


def test_dollar_tex_inline_and_display() -> None:
    inline = render(r"so $\frac{a}{b}$ holds")
    assert inline.spans == 1 and "<mfrac>" in inline.html
    assert _prose(inline.html) == "so  holds"
    display = math_html(r"by $$ x_{k}=\sum_{j=0}^{k-1}A^{j}Bu_{k-j}. $$ done")
    assert display.count('display="block"') == 1 and "$" not in display


def test_escapes_and_literal_dollars() -> None:
    assert math_html("a < b & c > d") == "a &lt; b &amp; c &gt; d"
    for text in ("costs $5 today", "from $5 to $6", "at $5/$6 each", "a lone $ sign", "x = $ y $"):
        rendered = render(text)
        assert rendered.spans == 0 and rendered.html == text, text
    assert render(r"pay \$ $x$").spans == 1


def test_unbalanced_groups_stay_text() -> None:
    rendered = render("x_(k−1 is open, y^{ too, z_ alone")
    assert rendered == Rendered(Markup("x_(k−1 is open, y^{ too, z_ alone"), (), 0)


def test_tex_specials_in_tokens_are_escaped() -> None:
    rendered = render("a_(50% & #1) and r_{\\min}")
    assert rendered.errors == () and rendered.spans == 2
    assert "&#x00025;" in rendered.html and "&#x00026;" in rendered.html
    assert rendered.html.count("<mo>min</mo>") == 1  # LaTeX of a quote's r_{\min} outside $…$


@pytest.mark.parametrize("tex", [r"\frac{a", "x_a_b", r"\left( x"])
def test_malformed_tex_is_one_error_span(tex: str) -> None:
    rendered = render(f"before ${tex}$ after x_k")
    assert rendered.spans == 2 and len(rendered.errors) == 1
    assert rendered.html.count('class="math-error"') == 1
    code = f'<code class="math-error" title="latex2mathml: {rendered.errors[0]}">{Markup.escape(tex)}</code>'
    assert rendered.html.startswith(f"before {code} after <math")
    assert tex_html(tex) == Markup(code)


def _papers() -> list[str]:
    return sorted({claim.paper for claim in rc.list_claims()})


@pytest.mark.parametrize("paper", _papers())
def test_every_claim_text_renders(paper: str) -> None:
    with_math = 0
    for claim in rc.list_claims(paper):
        quote = claim.provenance.quote or ""
        texts = [claim.text, quote, *(k.statement.text for k in claim.controls)]
        for text in texts:
            rendered = render(text)
            assert rendered.errors == (), (claim.id, text, rendered.errors)
            prose = _prose(rendered.html)
            assert not DOLLAR_PAIR.search(prose), (claim.id, DOLLAR_PAIR.search(prose))
            assert not re.search(r"[_^]\((?=[^()]*\))", prose), (claim.id, prose)
        if DOLLAR_PAIR.search(quote):
            with_math += 1
            assert MATH.search(render(quote).html), claim.id
        assert MATH.search(render(claim.text).html) or "_" not in claim.text, claim.id
    assert paper != "L" or with_math > 0
