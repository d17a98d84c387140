"""The claim registry, the runner, verdicts, reports and the command line.

Python API (everything the CLI does)::

    import recmem.checks as rc
    rc.list_claims(paper="O")            # registered claims
    report = rc.verify(["O.det"], backends=["mpmath@256", "numpy"], seed=0)
    report.claims[0].verdict             # Verdict.VERIFIED
    report.write_json("report.json")
    rc.fuzz("O.timestamp", examples=500) # Evidence of a counterexample search
    rc.describe("O.det")                 # what `recmem show O.det` prints, as a dict
    q = rc.query_memory("poly:1.1")      # what `recmem memory poly:1.1` computes
    q.fit.decay_class                    # 'polynomial' (q.fit.polynomial.exponent ≈ 1.1)
    rc.load_sweep("recmem-condition")    # a condition sweep's points (a table in a notebook)
"""

from __future__ import annotations

from typing import Any

from recmem.checks.claim import Claim, Context, Param, Provenance
from recmem.checks.registry import all_claims, get
from recmem.checks.runner import UsageError, verify
from recmem.checks.verdict import Evidence, Outcome, Verdict


def list_claims(paper: str | None = None) -> list[Claim]:
    """Registered claims, optionally of one paper (its key: ``"O"``; ``recmem list --papers``)."""
    return [c for c in all_claims().values() if paper is None or c.paper == paper]


def describe(claim_id: str) -> dict[str, Any]:
    """What ``recmem show`` prints: statement, provenance, parameters and the last stored result."""
    from recmem.checks import store
    from recmem.checks.claim import CONVENTIONS

    c = get(claim_id)
    return {"id": c.id, "title": c.title, "statement": c.text,
            "controls": [{"change": k.change, "statement": k.statement.text} for k in c.controls],
            "source": c.provenance.to_dict(), "uses": list(c.uses), "corrects": c.corrects,
            "reading": c.reading, "tolerance_policy": c.tolerance,
            "params": {p.name: p.default for p in c.params}, "conventions": list(CONVENTIONS),
            "last_run": store.load().get(c.id)}


def query_memory(target: str, **options: Any) -> Any:
    """The memory function of TARGET (W Def. 3.1) and its fitted decay class: what ``recmem memory``
    computes; options as :func:`recmem.checks.memory_cli.query`."""
    from recmem.checks.memory_cli import query

    return query(target, **options)


def load_sweep(folder: Any) -> Any:
    """A condition sweep's folder (``recmem condition --out FOLDER``) as an object: its points,
    certified brackets and plot, shown as HTML in a notebook
    (:func:`recmem.checks.html.sweep_view.load_sweep`; O §3.2's conditioning studies)."""
    from recmem.checks.html.sweep_view import load_sweep as load

    return load(folder)


def fuzz(claim_id: str, *, examples: int = 500, seed: int = 0,
         params: dict[str, str] | None = None) -> Evidence:
    """Search a claim's domain for a certified, shrunk counterexample (``recmem fuzz``)."""
    from recmem.checks.runner import check_seed, resolve_params
    from recmem.checks.search import search

    check_seed(seed)
    if examples < 1:
        raise UsageError(f"examples must be at least 1, got {examples}")
    claim = get(claim_id)
    if claim.strategy is None or claim.holds is None:
        raise UsageError(f"{claim_id} has no fuzzable domain (it is a study or an experiment)")
    values = resolve_params([claim], params or {})[claim.id]
    return search(claim, Context(values, seed=seed, statement=claim.statement),
                  max_examples=examples)


__all__ = [
    "Claim",
    "Context",
    "Evidence",
    "Outcome",
    "Param",
    "Provenance",
    "UsageError",
    "Verdict",
    "describe",
    "fuzz",
    "get",
    "list_claims",
    "query_memory",
    "verify",
]
