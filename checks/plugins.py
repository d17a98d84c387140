"""Papers as plugins: every paper recmem checks is found through the entry-point group
``recmem.papers`` (PEP 621 ``[project.entry-points."recmem.papers"]``, read with
:mod:`importlib.metadata`).

An entry point names a :class:`Paper` object (``KEY = "package:PAPER"``): what the paper is (key,
citation, source), where its claims, coverage ledger and
experiments live, the order of its tables, and the value types its fuzz counterexamples may hold.
recmem's own papers O, W and L register themselves in recmem's ``pyproject.toml`` exactly as an
outside package would; no paper is special-cased anywhere else (docs/ADDING_A_PAPER.md).

A plugin that cannot be used (its object does not import or is not a :class:`Paper`, its key is
taken, its claims do not import or are malformed) is left out with one :class:`PluginProblem`
naming it; every other paper still works. The command line prints the problems once, on stderr.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from typing import Any

#: the entry-point group papers register under
GROUP = "recmem.papers"

# a paper key: a capital letter, then letters, digits or '-' (claim IDs are "<key>.<stem>…")
_KEY = re.compile(r"[A-Z][A-Za-z0-9-]*")


@dataclass(frozen=True)
class Paper:
    """A paper that recmem checks, as its plugin declares it.

    ``claims``: importable modules or packages whose modules define ``CLAIMS`` (a package is
    walked, its modules in name order). ``order``: the table order, by the first part of the
    claim ID after the key (``"det"`` for ``O.det`` and ``O.det.corrected``); stems not listed
    sort after, by ID. ``ledger``: the coverage ledger as ``"package:resource"`` (data, read with
    ``tomllib``; ``checks/coverage.py``). ``experiments``: modules each defining ``EXPERIMENT``
    for ``recmem reproduce``. ``record_types``: ``module.Name`` of every value type the claims'
    search instances hold, so their counterexamples can be stored as data
    (``checks/fuzz_store.py``). The ledger names the file of the paper's text that the quotes
    and the numbering follow.
    """

    key: str
    authors: str
    title: str
    version: str
    source: str
    claims: tuple[str, ...]
    order: tuple[str, ...] = ()
    ledger: str | None = None
    experiments: tuple[str, ...] = ()
    # the paper's experiments recmem does not reproduce: (what, why), listed by
    # `recmem reproduce --list`
    not_reproduced: tuple[tuple[str, str], ...] = ()
    record_types: tuple[str, ...] = ()
    # where the plugin was found (set at discovery): the distribution and the entry point
    origin: str = field(default="", compare=False)

    @property
    def citation(self) -> str:
        """Authors, title, version (one line)."""
        return f"{self.authors}, {self.title}, {self.version}"


@dataclass(frozen=True)
class PluginProblem:
    """Why a plugin was left out (one line, naming it)."""

    plugin: str
    origin: str
    why: str
    # False: only a part was left out (an experiment module); the paper itself works
    whole: bool = True

    def line(self) -> str:
        if self.whole:
            return f"paper plugin {self.plugin!r} ({self.origin}) left out: {self.why}"
        return f"paper plugin {self.plugin!r} ({self.origin}): {self.why}; the rest of it works"


class UnknownPaper(KeyError):
    """A paper key that no installed plugin has (a usage error)."""


def _origin(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    where = f"{dist.name} {dist.version}" if dist is not None else "no distribution"
    return f"{where}: {ep.value}"


def _check(obj: Any, name: str) -> str | None:
    """Why ``obj`` (entry point ``name``) is not a usable :class:`Paper`, or None."""
    if not isinstance(obj, Paper):
        return f"the entry point names a {type(obj).__name__}, not a recmem.checks.plugins.Paper"
    if not _KEY.fullmatch(obj.key):
        return f"key {obj.key!r} is not a capital letter followed by letters, digits or '-'"
    if obj.key != name:
        return f"the entry point is called {name!r} but the paper's key is {obj.key!r}"
    if not obj.claims or not all(isinstance(m, str) and m for m in obj.claims):
        return "claims must name at least one importable module or package"
    if not all(isinstance(n, tuple) and len(n) == 2 and all(isinstance(s, str) and s for s in n)
               for n in obj.not_reproduced):
        return "not_reproduced must hold (what, why) pairs of non-empty strings"
    if obj.ledger is not None and ":" not in obj.ledger:
        return f"ledger must be 'package:resource', got {obj.ledger!r}"
    return None


@cache
def _discover() -> tuple[dict[str, Paper], tuple[PluginProblem, ...]]:
    found: dict[str, Paper] = {}
    problems: list[PluginProblem] = []
    # one entry point per name: a distribution installed twice (an editable and a built copy)
    # lists the same entry twice
    seen: dict[tuple[str, str], metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=GROUP):
        seen.setdefault((ep.name, ep.value), ep)
    for ep in sorted(seen.values(), key=lambda e: (e.name, e.value)):
        origin = _origin(ep)
        try:
            obj = ep.load()
        except Exception as exc:  # a plugin's own bug must not stop the other papers
            problems.append(PluginProblem(ep.name, origin, f"cannot be loaded "
                                          f"({type(exc).__name__}: {_first_line(exc)})"))
            continue
        if (why := _check(obj, ep.name)) is not None:
            problems.append(PluginProblem(ep.name, origin, why))
            continue
        if obj.key in found:
            problems.append(PluginProblem(ep.name, origin, f"key {obj.key!r} is already taken by "
                                          f"{found[obj.key].origin}"))
            continue
        found[obj.key] = replace(obj, origin=origin)
    return dict(sorted(found.items())), tuple(problems)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else "no message"


def papers() -> dict[str, Paper]:
    """The installed papers that passed discovery, by key, in key order."""
    return _discover()[0]


def paper_keys() -> list[str]:
    """The installed papers' keys, in order."""
    return list(papers())


def get(key: str) -> Paper:
    """The installed paper with this key (:class:`UnknownPaper` otherwise)."""
    found = papers()
    if key not in found:
        known = ", ".join(found) or "none"
        raise UnknownPaper(f"unknown paper {key!r}: installed papers are {known} "
                           "(`recmem list --papers`)")
    return found[key]


def usable() -> dict[str, Paper]:
    """The installed papers whose claims the registry took (a paper left out for its claims is
    left out whole: its experiments too)."""
    from recmem.checks import registry

    dropped = {p.plugin for p in registry.problems()}
    return {k: p for k, p in papers().items() if k not in dropped}


def problems() -> tuple[PluginProblem, ...]:
    """Why plugins were left out: discovery's problems, then those found loading their claims."""
    from recmem.checks import registry

    return _discover()[1] + registry.problems()


def clear() -> None:
    """Forget what discovery found and everything read from the plugins: claims, experiments,
    fuzz record types (tests that install a plugin call this)."""
    from recmem.checks import fuzz_store, registry, reproduce

    _discover.cache_clear()
    registry.clear()
    reproduce._experiments.cache_clear()
    fuzz_store.record_types.cache_clear()


__all__ = ["GROUP", "Paper", "PluginProblem", "UnknownPaper", "clear", "get", "paper_keys", "papers",
           "problems", "usable"]
