"""The claim registry: every module under ``recmem.checks.claims.<paper>`` that defines ``CLAIMS``.

Importing the registry imports the claim modules but nothing heavy: claim modules import SymPy,
SciPy and torch only inside their checks.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from recmem.checks.claim import Claim


class UnknownClaim(KeyError):
    """An ID that no claim has (a usage error)."""


@cache
def all_claims() -> dict[str, Claim]:
    """Every registered claim by ID, in paper then module order."""
    import recmem.checks.claims as root

    found: dict[str, Claim] = {}
    for pkg in sorted(pkgutil.iter_modules(root.__path__, root.__name__ + "."), key=lambda m: m.name):
        sub = importlib.import_module(pkg.name)
        for mod in sorted(pkgutil.iter_modules(sub.__path__, sub.__name__ + "."),
                          key=lambda m: m.name):
            module = importlib.import_module(mod.name)
            for claim in getattr(module, "CLAIMS", ()):
                if claim.id in found:
                    raise RuntimeError(f"duplicate claim ID {claim.id} in {mod.name}")
                found[claim.id] = claim
    return dict(sorted(found.items(), key=lambda kv: _order(kv[1])))


def dangling_references() -> list[str]:
    """``uses``/``corrects`` edges that name no registered claim (the test suite keeps this empty)."""
    claims = all_claims()
    return [f"{c.id} -> {dep}" for c in claims.values()
            for dep in (*c.uses, *([c.corrects] if c.corrects else [])) if dep not in claims]


def _order(claim: Claim) -> tuple[str, int, str]:
    return (claim.paper, _MODULE_ORDER.get(claim.id.split(".")[1], 99), claim.id)


# Order of the paper-O and paper-W tables in CLAIMS.md; later claims and readings sort after their parent.
_MODULE_ORDER = {name: i for i, name in enumerate(
    ["unroll", "vandermonde-form", "det", "invertible", "reconstruct", "ring", "timestamp",
     "roots-of-unity", "real-illcond", "ring-conditioning", "sparse", "sparse-conditioning",
     "block", "relaxation", "causal-fill", "universality", "pinkus", "rnn-universality",
     "linear-functional-conv", "linear-rnn-conv",
     # paper W
     "memory-linear", "memory-def", "memory-impulse", "rnn-linear-memory", "rnn-decaying",
     "perturbation", "stable-exp", "activations", "theorem", "lyapunov", "lyapunov-bound",
     "lyapunov-local", "semigroup-bound", "limit-decay", "reparam", "rescaling"])}


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
