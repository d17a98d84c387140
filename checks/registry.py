"""The claim registry: the claims of every installed paper plugin (``checks/plugins.py``).

Each paper names the modules (or packages, walked) that define ``CLAIMS``; the registry imports
them, checks every claim's shape (ID under the paper's key, a statement with negative controls,
provenance with a location and a quote) and orders them by the paper's table order. A paper
whose claims cannot be imported or are malformed is left out whole, with one problem line naming
its plugin; the others are unaffected. Importing the registry imports the claim modules but
nothing heavy: claim modules import SymPy, SciPy and torch only inside their checks.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from functools import cache
from types import ModuleType

from recmem.checks.claim import Claim
from recmem.checks.plugins import Paper, PluginProblem, papers


class UnknownClaim(KeyError):
    """An ID that no claim has (a usage error)."""


class _Malformed(Exception):
    """A plugin's claims cannot be registered (the message says why, in one line)."""


def _modules(name: str) -> Iterator[ModuleType]:
    """The module ``name`` and, when it is a package, every module under it in name order."""
    module = importlib.import_module(name)
    yield module
    if hasattr(module, "__path__"):
        for info in sorted(pkgutil.iter_modules(module.__path__, module.__name__ + "."),
                           key=lambda m: m.name):
            yield from _modules(info.name)


def _paper_claims(paper: Paper) -> list[Claim]:
    """The claims of one paper, checked (:class:`_Malformed` on the first fault)."""
    claims: dict[str, Claim] = {}
    for name in paper.claims:
        try:
            modules = list(_modules(name))
        except Exception as exc:  # the plugin's import error, not ours
            first = (str(exc).strip().splitlines() or ["no message"])[0][:200]
            raise _Malformed(f"its claims module {name} cannot be imported "
                             f"({type(exc).__name__}: {first})") from None
        for module in modules:
            for claim in getattr(module, "CLAIMS", ()):
                _check_claim(claim, paper, module.__name__)
                if claim.id in claims:
                    raise _Malformed(f"claim ID {claim.id} is defined twice (in {module.__name__})")
                claims[claim.id] = claim
    return list(claims.values())


def _check_claim(claim: object, paper: Paper, where: str) -> None:
    if not isinstance(claim, Claim):
        raise _Malformed(f"{where}.CLAIMS holds a {type(claim).__name__}, not a Claim")
    if not claim.id.startswith(paper.key + ".") or claim.id == paper.key + ".":
        raise _Malformed(f"claim {claim.id!r} ({where}) is not named '{paper.key}.<name>'")
    if claim.provenance.paper != paper.key:
        raise _Malformed(f"claim {claim.id} cites paper {claim.provenance.paper!r}, "
                         f"not {paper.key!r}")
    if not claim.provenance.location.strip() or not claim.provenance.quote.strip():
        raise _Malformed(f"claim {claim.id} has no provenance (a location and the page's quote)")
    if not claim.controls:
        raise _Malformed(f"claim {claim.id} has no negative controls (a claim that cannot be "
                         "told from its controls cannot pass)")


@cache
def _load() -> tuple[dict[str, Claim], tuple[PluginProblem, ...]]:
    found: dict[str, Claim] = {}
    problems: list[PluginProblem] = []
    for paper in papers().values():
        try:
            claims = _paper_claims(paper)
        except _Malformed as exc:
            problems.append(PluginProblem(paper.key, paper.origin, str(exc)))
            continue
        found.update((c.id, c) for c in claims)
    rank = {key: i for i, key in enumerate(papers())}
    order = {key: {stem: i for i, stem in enumerate(p.order)} for key, p in papers().items()}

    def position(claim: Claim) -> tuple[int, int, str]:
        stems = order[claim.paper]
        return (rank[claim.paper], stems.get(claim.id.split(".")[1], len(stems)), claim.id)

    return dict(sorted(found.items(), key=lambda kv: position(kv[1]))), tuple(problems)


def all_claims() -> dict[str, Claim]:
    """Every registered claim by ID, in paper then table order."""
    return _load()[0]


def problems() -> tuple[PluginProblem, ...]:
    """The papers whose claims could not be registered, and why."""
    return _load()[1]


def clear() -> None:
    """Forget the registered claims (after a plugin is installed or removed)."""
    _load.cache_clear()


def dangling_references() -> list[str]:
    """``uses``/``corrects`` edges that name no registered claim (the test suite keeps this empty)."""
    claims = all_claims()
    return [f"{c.id} -> {dep}" for c in claims.values()
            for dep in (*c.uses, *([c.corrects] if c.corrects else [])) if dep not in claims]


def get(claim_id: str) -> Claim:
    """The claim with this ID; :class:`UnknownClaim` with close matches otherwise."""
    claims = all_claims()
    if claim_id in claims:
        return claims[claim_id]
    import difflib

    close = difflib.get_close_matches(claim_id, list(claims), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise UnknownClaim(f"unknown claim ID {claim_id!r}{hint}; `recmem list` shows them all")


def select(ids: list[str] | None = None, paper: str | None = None) -> list[Claim]:
    """Claims by ID (in the order given; an ID named twice counts once) or by paper; all claims
    when neither is given."""
    if ids:
        chosen = [get(i) for i in dict.fromkeys(ids)]
        return [c for c in chosen if paper is None or c.paper == paper]
    return [c for c in all_claims().values() if paper is None or c.paper == paper]
