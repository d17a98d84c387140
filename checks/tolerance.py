"""Tolerance policies (CLAIMS.md ground rule 3): tolerances come from the problem.

- :func:`condition_scaled`: |error| ≤ c·n·κ·u with κ computed at high precision (certified where
  flint computed it). When c·n·κ·u ≥ 1/2 the working precision cannot resolve the answer at all,
  and the outcome is INCONCLUSIVE with the number of bits that would be needed.
- :func:`enclosure`: a ball that excludes the claimed value refutes; one that contains it passes
  only when its radius is below a maximum width; a wider ball is inconclusive.
- :func:`exact`: an exact residual is zero or it is a certified counterexample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath

from recmem.checks.verdict import Outcome

# Beyond a relative error bound of 1/2 the computed result carries no correct bit.
RESOLVE_LIMIT = mpmath.mpf(1) / 2
# Extra bits asked for when an inconclusive check names the precision it would need.
MARGIN_BITS = 16


def fmt(x: mpmath.mpf | float | int | None, digits: int = 3) -> str | None:
    """A short string for a real number (exact for integers)."""
    if x is None:
        return None
    if isinstance(x, int):
        return str(x)
    return mpmath.nstr(mpmath.mpf(x), digits)


@dataclass(frozen=True)
class Judgement:
    """An outcome with the tolerance that produced it."""

    outcome: Outcome
    tolerance: str | None
    source: str
    needed_bits: int | None = None


def needed_bits(c: float, n: int, kappa: mpmath.mpf) -> int:
    """Bits for which c·n·κ·2^-p ≤ 2^-MARGIN: the precision an inconclusive check would need."""
    if not mpmath.isfinite(kappa):
        return -1
    return math.ceil(float(mpmath.log(c * n * kappa, 2))) + MARGIN_BITS


def condition_scaled(residual: mpmath.mpf, *, c: float, n: int, kappa: mpmath.mpf,
                     unit_roundoff: mpmath.mpf, kappa_text: str) -> Judgement:
    """Judge a relative error against c·n·κ·u."""
    bound = c * n * kappa * unit_roundoff
    p = -int(mpmath.log(unit_roundoff, 2))
    source = f"c·n·κ·u with c={c}, n={n}, κ={kappa_text}, u=2^-{p}"
    if not mpmath.isfinite(bound) or bound >= RESOLVE_LIMIT:
        return Judgement(Outcome.INCONCLUSIVE, fmt(bound), source + " (≥ 1/2: not resolvable)",
                         needed_bits(c, n, kappa))
    if residual <= bound:
        return Judgement(Outcome.PASS, fmt(bound), source)
    return Judgement(Outcome.FAIL, fmt(bound), source)


def enclosure(contains: bool, radius: mpmath.mpf, max_width: mpmath.mpf, bits: int) -> Judgement:
    """Judge a ball: exclusion refutes, narrow containment passes, wide containment is unknown."""
    source = f"enclosure radius ≤ {fmt(max_width)} (ball arithmetic at {bits} bits)"
    if not contains:
        return Judgement(Outcome.REFUTE, fmt(max_width), "enclosure excludes the claimed value")
    if radius <= max_width:
        return Judgement(Outcome.PASS, fmt(max_width), source)
    return Judgement(Outcome.INCONCLUSIVE, fmt(max_width), source + ": ball too wide", 2 * bits)


def exact(residual_is_zero: bool) -> Judgement:
    """Exact arithmetic: zero residual passes, anything else is a certified counterexample."""
    if residual_is_zero:
        return Judgement(Outcome.PASS, "0", "exact arithmetic")
    return Judgement(Outcome.REFUTE, "0", "exact arithmetic: nonzero residual")
