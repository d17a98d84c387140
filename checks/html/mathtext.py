"""Mathematics of claim texts as HTML with MathML (made by latex2mathml, nothing hand-written).

Two notations meet in recmem's texts:

* The papers' LaTeX, in page quotes (paper L, some of O and W): ``$…$`` inline and ``$$…$$``
  display. A span is converted whole. A ``$`` pairs as in Pandoc: the opening one is followed by
  a non-space, the closing one follows a non-space and is not followed by a digit, so a dollar in
  prose ("$5") stays text.
* recmem's Unicode plain text, in statements (docs/CLAIMS.md) and most O/W quotes: Unicode
  letters and operators with scripts ``x_(k−1)``, ``λ_i^(k−j)``, ``Σ_(j=0)^(k − 1)``,
  ``ℂ^{N×N}``, ``u_k``, ``r_max``. A "math token" is a base (a run of letters/digits, or a closing
  ``)``, ``]``, ``|``, ``‖``) followed by at most one ``_`` and one ``^`` script, each ``(…)``
  or ``{…}`` (balanced, nested scripts allowed) or a bare run. Only tokens become TeX
  (``_(…)`` → ``_{…}``) and MathML; the prose around them stays escaped text, since a sentence
  inside ``<math>`` would render every word as italic identifiers.

A span latex2mathml cannot convert becomes ``<code class="math-error">`` with the message as
its title, and is counted in :attr:`Rendered.errors`; rendering never raises on bad TeX.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from latex2mathml.converter import convert
from markupsafe import Markup, escape

__all__ = ["Rendered", "math_html", "render", "tex_html"]

# Display first, so ``$$`` is never read as two empty inline spans; ``\$`` never delimits.
_TEX_SPAN = re.compile(
    r"\$\$(?P<display>(?:\\.|[^$\\])+?)\$\$"
    r"|\$(?=\S)(?P<inline>(?:\\.|[^$\\])+?)(?<=\S)\$(?!\d)",
    re.DOTALL,
)
_OPERATOR_WORDS = frozenset(("sup", "inf", "max", "min", "lim", "liminf", "limsup", "log", "exp", "sin",
                             "cos", "tanh", "det", "arg", "ln", "diag", "vec", "rank", "span", "Re", "Im"))
# Plain text to TeX: operators so latex2mathml marks them <mo> (spacing), not <mi>; specials escaped.
_UNICODE_TEX = {"−": "-", "×": r"\times ", "·": r"\cdot ", "≤": r"\leq ", "≥": r"\geq ",
                "≠": r"\neq ", "∈": r"\in ", "→": r"\to ", "∞": r"\infty ", "‖": r"\| ",
                "~": r"\sim ", "\\": r"\backslash ", "{": r"\{", "}": r"\}", "^": r"\text{^}",
                **{special: "\\" + special for special in "%#&$_"}}
_ACCENTS = {"\u0304": "bar", "\u0303": "tilde", "\u0302": "hat", "\u0307": "dot"}
_CLOSERS = ")]|‖"
_NOT_INITIAL = ("No", "Lm", "Mn")
_BARE_SINGLE = set("*+′⊤∞")
_BRACKETS = {"(": ")", "{": "}"}
# ASCII words (for operator names), each letter not carrying a combining accent.
_WORD = re.compile("(?:[A-Za-z](?![" + "".join(_ACCENTS) + "]))+")
# A bare script: digits, ASCII letters, or one other letter with its accents ("c_σz" is c_σ z).
_BARE_RUN = re.compile(r"[0-9]+|[A-Za-z]+|[^\W\d_][\u0300-\u036f]*")
# Macros of the papers that latex2mathml does not know (it would print them verbatim).
_MACROS = {"diag": r"\operatorname{diag}"}
_UNKNOWN_MACROS = re.compile(r"\\(" + "|".join(_MACROS) + r")(?![A-Za-z])")
# "r_{\min}": a quote's LaTeX operator name outside $…$ (then read as the plain-text word).
_LATEX_OPERATOR = re.compile(r"\\(?=(?:" + "|".join(_OPERATOR_WORDS) + r")(?![A-Za-z]))")
_BRACE = re.compile(r"(?<!\\)[{}]")


@dataclass(frozen=True)
class Rendered:
    """HTML of one text, the latex2mathml errors met (one message per failed span), and the
    number of math spans (converted or failed)."""

    html: Markup
    errors: tuple[str, ...]
    spans: int


@functools.lru_cache(maxsize=4096)
def _convert(tex: str, display: bool) -> tuple[str, str | None]:
    depth = 0
    for brace in _BRACE.findall(tex):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            break
    # latex2mathml silently drops unclosed groups ("\frac{a"), which would hide a bad quote.
    error = "unbalanced braces" if depth else None
    if error is None:
        try:
            known = _UNKNOWN_MACROS.sub(lambda m: _MACROS[m.group(1)], tex)
            return convert(known, display="block" if display else "inline"), None
        except Exception as exc:  # a third-party parser: any failure is the span's, not ours
            error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    title = escape(f"latex2mathml: {error}")
    return f'<code class="math-error" title="{title}">{escape(tex)}</code>', error


def tex_html(tex: str, display: bool = False) -> Markup:
    """MathML of one TeX string (block when ``display``), or a ``math-error`` code span."""
    return Markup(_convert(tex, display)[0])


def _is_base(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch).startswith("M") or ch in "∂∫∇∏∑⁺⁻"


def _script_end(text: str, i: int) -> int | None:
    """End of the script whose ``_``/``^`` is at ``i``, or None when none follows."""
    j = i + 1
    if j < len(text) and text[j] in _BRACKETS:
        # "(…)" may hold intervals, "sup_(s∈(0,1])", so it counts [ ] as well as ( ).
        opens, closes = ("([", ")]") if text[j] == "(" else ("{", "}")
        depth = 0
        for k in range(j, len(text)):
            depth += (text[k] in opens) - (text[k] in closes)
            if depth == 0:
                return k + 1 if text[k] == _BRACKETS[text[j]] else None
        return None
    if j < len(text) and text[j] in _BARE_SINGLE:
        return j + 1
    sign = 1 if text[j:j + 1] in ("−", "-") else 0
    run = _BARE_RUN.match(text, j + sign)
    if run is None:
        return None
    end = run.end()
    # "P_mW_m" is P_m W_m: a letter run followed by a script gives its last letter away.
    if end - run.start() > 1 and run.group().isalpha() and text[end:end + 1] in ("_", "^"):
        end -= 1
    return end


def _tokens(text: str) -> list[tuple[int, int]]:
    """Spans (start, end) of the plain-text math tokens of ``text``."""
    spans: list[tuple[int, int]] = []
    i, last = 0, 0
    while i < len(text):
        if text[i] not in "_^":
            i += 1
            continue
        start = i
        while start > last and _is_base(text[start - 1]):
            start -= 1
        # A base starts with a letter or digit: "|v|₂^3" keeps ₂, "Wᵀu_t" drops ᵀ.
        while start < i - 1 and (unicodedata.category(text[start]) in _NOT_INITIAL
                                 or text[start] in "⁺⁻"):
            start += 1
        if start == i and i > last and text[i - 1] in _CLOSERS:
            start = i - 1
        end, kinds = i, ""
        while end < len(text) and text[end] in "_^" and text[end] not in kinds and start < i:
            stop = _script_end(text, end)
            if stop is None:
                break
            kinds, end = kinds + text[end], stop
        if kinds:
            spans.append((start, end))
            i = last = end
        else:
            i += 1
    return spans


def _to_tex(token: str) -> str:
    """TeX of a plain-text token: ``_(…)``/``^(…)`` → ``_{…}``, specials escaped."""
    out: list[str] = []
    i = 0
    while i < len(token):
        ch = token[i]
        stop = _script_end(token, i) if ch in "_^" else None
        if stop is not None:
            grouped = token[i + 1] in _BRACKETS
            inner = token[i + 2:stop - 1] if grouped else token[i + 1:stop]
            out.append(f"{ch}{{{_to_tex(inner)}}}")
            i = stop
            continue
        word = _WORD.match(token, i)
        if i + 1 < len(token) and token[i + 1] in _ACCENTS:
            out.append(rf"\{_ACCENTS[token[i + 1]]}{{{_to_tex(ch)}}}")
            i += 2
        elif word:
            name = word.group()
            out.append(rf"\operatorname{{{name}}}" if name in _OPERATOR_WORDS else name)
            i += len(name)
        else:
            out.append(_UNICODE_TEX.get(ch, ch))
            i += 1
    return "".join(out)


def render(text: str) -> Rendered:
    """HTML of a claim text: its ``$``-delimited LaTeX and its plain-text math tokens as
    MathML, everything else escaped; with the conversion errors and the number of spans."""
    parts: list[str] = []
    errors: list[str] = []
    spans = 0

    def math(tex: str, display: bool) -> None:
        nonlocal spans
        html, error = _convert(tex, display)
        parts.append(html)
        spans += 1
        if error is not None:
            errors.append(error)

    def prose(chunk: str) -> None:
        pos = 0
        for start, end in _tokens(chunk):
            parts.append(str(escape(chunk[pos:start])))
            math(_to_tex(_LATEX_OPERATOR.sub("", chunk[start:end])), False)
            pos = end
        parts.append(str(escape(chunk[pos:])))

    # "…" joins excerpts of a quote: a "$" pairs only within its excerpt, so one cut inside a
    # display (its opening "$$" elided) leaves that "$$" as text instead of swallowing the rest.
    for piece in re.split("(…)", text):
        pos = 0
        for match in _TEX_SPAN.finditer(piece):
            prose(piece[pos:match.start()])
            display = match.group("display") is not None
            math((match.group("display") if display else match.group("inline")).strip(), display)
            pos = match.end()
        prose(piece[pos:])
    return Rendered(Markup("".join(parts)), tuple(errors), spans)


def math_html(text: str) -> Markup:
    """Safe HTML of a claim text with its mathematics as MathML (see :func:`render`)."""
    return render(text).html
