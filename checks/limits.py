"""Bounded work: the memory budget of one run and the estimates that sizes are checked against.

Every parameter that sets the size of work (a claim's ``--param``, ``recmem memory``'s RNN file,
``--jobs``) is refused before any allocation when its estimated memory exceeds what it may use;
the refusal gives the estimate in words (:func:`human_bytes`). :func:`over_budget` is the one
check (``recmem.checks.claim.Param`` and ``Claim.cost`` use it, as any command may).
"""

from __future__ import annotations

import math
from collections.abc import Callable

# What one run may be estimated to need at most (bytes): what a laptop has. Every claim
# parameter that sets the size of work has an upper limit (``Param.max``) whose estimated memory
# stays below this (tests/test_limits.py checks each declaration).
MEMORY_BUDGET = 4 * 10**9


def byte_size(n: float) -> str:
    """A number of bytes with its unit: '3.2 GB' (decimal units), '512 bytes'."""
    for unit, size in (("EB", 1e18), ("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6),
                       ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} bytes"


def human_bytes(n: float) -> str:
    """An estimated memory in words: 'about 3.2 GB of memory', or 'more memory than any computer
    has' (an exabyte or more, or beyond float's range)."""
    if not math.isfinite(n) or n >= 1e18:
        return "more memory than any computer has"
    return f"about {byte_size(n)} of memory"


def memory_estimate(cost: Callable[[int], float], value: int) -> float:
    """``cost(value)`` in bytes, inf when the value is too large to estimate in floats."""
    try:
        return float(cost(value))
    except (OverflowError, ValueError):  # a value beyond float's range: beyond any memory too
        return math.inf


def grows(per: float, power: int = 1) -> Callable[[int], float]:
    """A memory estimate ``per`` · v^``power`` bytes (``per``: bytes of one unit of work)."""
    def cost(v: int) -> float:
        return per * float(v) ** power
    return cost


def grows_factorial(per: float) -> Callable[[int], float]:
    """A memory estimate ``per`` · v! bytes: a symbolic expansion with v! terms (Leibniz's
    determinant formula), ``per`` bytes a term."""
    def cost(v: int) -> float:
        return per * math.gamma(float(v) + 1)  # OverflowError past 170!: memory_estimate → inf
    return cost


def over_budget(need: float, what: str, budget: float = MEMORY_BUDGET) -> str | None:
    """None when ``need`` bytes fit ``budget``, else the refusal in words: "WHAT would need
    about X of memory; the limit keeps a run under about Y"."""
    if need <= budget:
        return None
    return (f"{what} would need {human_bytes(need)}; the limit keeps a run under about "
            f"{byte_size(budget)}")
