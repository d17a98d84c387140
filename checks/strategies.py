"""Hypothesis strategies over the claims' stated domains, with exact values.

``st.fractions`` shrinks towards small denominators, so shrunk counterexamples are short exact
numbers that every backend (and SymPy) sees identically.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st
from recmem.numerics.exact import QQi

MAX_DEN = 64


def fractions_in(lo: Fraction | int, hi: Fraction | int, max_den: int = MAX_DEN) -> Any:
    """Exact rationals in [lo, hi]."""
    return st.fractions(min_value=Fraction(lo), max_value=Fraction(hi), max_denominator=max_den)


def disk(radius: Fraction = Fraction(1), max_den: int = MAX_DEN) -> Any:
    """Exact Gaussian rationals in the closed disk |z| ≤ radius."""
    part = fractions_in(-radius, radius, max_den)
    return st.builds(QQi, part, part).filter(lambda z: z.re**2 + z.im**2 <= radius**2)


def node_lists(min_size: int = 1, max_size: int = 6, distinct: bool = False) -> Any:
    """Lists of exact nodes in the closed unit disk."""
    return st.lists(disk(), min_size=min_size, max_size=max_size, unique=distinct)
