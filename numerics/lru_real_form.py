"""Real 2×2 matrices with a conjugate eigenpair, in every backend (paper L App. E.3 checks).

An instance is a real matrix A = [[p, q], [r, s]] with (p − s)² + 4qr < 0; its eigenpair is
λ = (p + s)/2 + i·√(−disc)/2 and v = (q, λ − p), computed in the backend's own arithmetic
(√ as exp(½ log)); A·v = λv holds since λ solves the characteristic polynomial.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.lru_discretisation import seeded_fractions
from recmem.numerics.native import conj, scalars


def complex_pair_matrices(seed: int, count: int) -> list[tuple[Fraction, ...]]:
    """``count`` reproducible real 2×2 matrices (p, q, r, s) with complex eigenvalues."""
    out: list[tuple[Fraction, ...]] = []
    k = 0
    while len(out) < count:
        p, q, r, s = seeded_fractions(seed + k, 4, -8, 8, 4)
        k += 1
        if (p - s) ** 2 + 4 * q * r < 0:
            out.append((p, q, r, s))
    return out


def eigenpair(bk: AbstractBackend, m: Sequence[Fraction]) -> tuple[list[list[Any]], Any, list[Any]]:
    """(A, λ, v) as native scalars of ``bk`` for A = [[p, q], [r, s]] with complex eigenvalues."""
    p, q, r, s = m
    disc = (p - s) ** 2 + 4 * q * r
    pp, qq, rr, ss, quarter = scalars(bk, [p, q, r, s, -disc / 4])
    i_unit = imag_unit(bk)
    root = bk.exp(bk.log(quarter) / 2)  # √(−disc)/2 = √(−disc/4)
    lam = (pp + ss) / 2 + i_unit * root
    return [[pp, qq], [rr, ss]], lam, [qq, lam - pp]


def imag_unit(bk: AbstractBackend) -> Any:
    """The native scalar i of ``bk``."""
    return bk.entries(bk.vector([QQi(Fraction(0), Fraction(1))]))[0]


def matvec(a: Sequence[Sequence[Any]], v: Sequence[Any]) -> list[Any]:
    """A·v for a list-of-rows matrix and a list vector of native scalars."""
    return [sum((a[i][j] * v[j] for j in range(1, len(v))), a[i][0] * v[0]) for i in range(len(a))]


def parts(v: Sequence[Any], i_unit: Any) -> tuple[list[Any], list[Any]]:
    """(Re v, Im v) as native complex-typed scalars."""
    return [(c + conj(c)) / 2 for c in v], [(c - conj(c)) / (2 * i_unit) for c in v]
