"""Helpers for claim tests: run one claim on chosen arithmetics with small parameters."""

from __future__ import annotations

from typing import Any

from recmem.checks.claim import Context
from recmem.checks.registry import get
from recmem.checks.report import ClaimResult
from recmem.checks.runner import resolve_params, run_claim
from recmem.numerics.backend import parse_spec

FAST_BACKENDS = ("sympy", "mpmath@128", "flint@128", "numpy")


def run(claim_id: str, backends: tuple[str, ...] = FAST_BACKENDS, seed: int = 0,
        examples: int = 20, **params: Any) -> ClaimResult:
    """Run ``claim_id`` with parameter overrides given as strings or values."""
    claim = get(claim_id)
    values = resolve_params([claim], {k: str(v) for k, v in params.items()})[claim.id]
    ctx = Context(values, seed=seed, precision_bits=128, search_examples=examples)
    return run_claim(claim, ctx, [parse_spec(b) for b in backends])


def outcomes(result: ClaimResult) -> dict[str, str]:
    """backend → outcome of its (last) check."""
    return {e.backend: str(e.outcome) for e in result.evidence}


def count_mp_contexts(monkeypatch: Any) -> list[int]:
    """From here on, one entry per ``mpmath.MPContext`` made (the per-precision context cache
    of ``certified.fixed_context`` must make none for a precision it has seen)."""
    import mpmath

    made: list[int] = []
    init = mpmath.MPContext.__init__

    def counting(self: Any, *args: Any, **kw: Any) -> None:
        made.append(1)
        init(self, *args, **kw)

    monkeypatch.setattr(mpmath.MPContext, "__init__", counting)
    return made
