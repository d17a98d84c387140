"""Hypothesis strategies over the claims' stated domains, with exact values.

Values are sampled from fixed, sorted pools of simple exact numbers rather than composed with
``st.fractions(max_denominator=…)``, which builds a fresh strategy on every draw and dominated
search time. Hypothesis shrinks a sampled value towards the front of its pool, so shrunk
counterexamples use the simplest numbers (0, 1, −1, 1/2, …) and every backend, SymPy included,
sees them identically.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from recmem.numerics.exact import QQi

SEARCH_DEN = 8


def _simplicity(q: Fraction) -> tuple[int, Fraction, bool]:
    return (q.denominator, abs(q), q < 0)


@functools.cache
def simple_rationals(max_den: int = SEARCH_DEN, bound: int = 1) -> list[Fraction]:
    """The rationals p/q in [−bound, bound] with q | max_den, simplest first (0, 1, −1, 1/2, …)."""
    vals = {Fraction(p, max_den) for p in range(-bound * max_den, bound * max_den + 1)}
    return sorted(vals, key=_simplicity)


@functools.cache
def simple_gaussians(max_den: int = SEARCH_DEN) -> list[QQi]:
    """Gaussian rationals a + bi in the closed unit disk with a, b from :func:`simple_rationals`,
    simplest first (0, 1, −1, i, −i, …)."""
    reals = simple_rationals(max_den)
    vals = [QQi(a, b) for a in reals for b in reals if a * a + b * b <= 1]
    return sorted(vals, key=lambda z: (max(z.re.denominator, z.im.denominator), z.im != 0,
                                       _simplicity(z.re), _simplicity(z.im)))


def fractions_in(lo: Fraction | int, hi: Fraction | int, max_den: int = SEARCH_DEN) -> Any:
    """Exact rationals in [lo, hi] with denominators dividing ``max_den`` (and lo, hi themselves)."""
    lo, hi = Fraction(lo), Fraction(hi)
    bound = max(1, int(max(abs(lo), abs(hi))) + 1)
    pool = [q for q in simple_rationals(max_den, bound) if lo <= q <= hi]
    pool += [q for q in (lo, hi) if q not in pool]
    from hypothesis import strategies as st  # imported on first use: `recmem list` needs none

    return st.sampled_from(sorted(pool, key=_simplicity))


def disk(max_den: int = SEARCH_DEN) -> Any:
    """Exact Gaussian rationals in the closed unit disk |z| ≤ 1."""
    from hypothesis import strategies as st

    return st.sampled_from(simple_gaussians(max_den))


def node_lists(min_size: int = 1, max_size: int = 6, distinct: bool = False) -> Any:
    """Lists of exact nodes in the closed unit disk."""
    from hypothesis import strategies as st

    return st.lists(disk(), min_size=min_size, max_size=max_size, unique=distinct)
