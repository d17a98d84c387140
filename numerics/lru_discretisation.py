"""Scalar arithmetic of every backend for paper L's discretisation and real-form checks (L §2, §4,
App. E.3): native scalars from exact values, conjugate and real part, and each arithmetic's own
matrix exponential (the definition of the flow of a linear ODE).

The exact flow of x' = Ãx + B̃u over one interval of length Δ on which u is held constant is the
top block row of exp(Δ·[[Ã, B̃], [0, 0]]) (the augmented-matrix construction); every arithmetic
computes it with its own matrix exponential (scipy's ``expm``, ``torch.linalg.matrix_exp``,
mpmath's ``expm``, python-flint's certified ``acb_mat.exp``), never with (e^{Δa} − 1)/a.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.exact import QQi


def expm(bk: AbstractBackend, rows: Sequence[Sequence[QQi]]) -> Any:
    """exp of the exact matrix ``rows`` in ``bk``'s own arithmetic (entries read with m[i, j])."""
    kind, native = bk.spec.kind, cast(Any, bk)  # each backend's own library object
    m = bk.matrix(rows)
    if kind == "numpy":
        from scipy.linalg import expm as sexpm

        return sexpm(m)  # keeps complex64 for float32
    if kind == "torch":
        return native.torch.linalg.matrix_exp(m)
    if kind == "mpmath":
        return native.ctx.expm(m)
    if kind == "flint":
        with native.workprec():
            return m.exp()
    raise BackendUnavailable(f"{bk.name}: no matrix exponential")


def held_flow(bk: AbstractBackend, a: Sequence[QQi], b: Sequence[Sequence[QQi]],
              delta: Fraction) -> tuple[list[list[Any]], list[list[Any]]]:
    """(Φ, Γ) with x(t + Δ) = Φ x(t) + Γ w for x' = diag(a) x + b w, w held constant: the blocks
    of exp(Δ·[[diag(a), b], [0, 0]]) in ``bk`` (L §2, the ODE (2) on one held interval)."""
    n, h = len(a), len(b[0])
    zero = QQi(Fraction(0))
    d = QQi(delta)

    def mul(p: QQi, q: QQi) -> QQi:
        return QQi(p.re * q.re - p.im * q.im, p.re * q.im + p.im * q.re)

    rows = [[mul(a[i], d) if j == i else zero for j in range(n)] + [mul(b[i][c], d)
                                                                  for c in range(h)]
            for i in range(n)] + [[zero] * (n + h) for _ in range(h)]
    e = expm(bk, rows)
    return ([[e[i, j] for j in range(n)] for i in range(n)],
            [[e[i, n + c] for c in range(h)] for i in range(n)])


def seeded_fractions(seed: int, count: int, lo: int, hi: int, den: int) -> list[Fraction]:
    """``count`` reproducible rationals p/den with lo ≤ p ≤ hi (exact draws of an instance)."""
    rng = random.Random(seed)
    return [Fraction(rng.randint(lo, hi), den) for _ in range(count)]


def seeded_gaussians(seed: int, count: int, bound: int = 8, den: int = 4) -> list[QQi]:
    """``count`` reproducible Gaussian rationals with |re|, |im| ≤ bound/den."""
    f = seeded_fractions(seed, 2 * count, -bound, bound, den)
    return [QQi(f[2 * i], f[2 * i + 1]) for i in range(count)]


def ball_eval(expr: Any, values: dict[Any, Any]) -> Any:
    """A python-flint acb enclosure of the SymPy expression ``expr`` (rationals, i, +, ×, powers
    with rational exponents, and the symbols of ``values`` given as acb balls); raises TypeError
    on anything else. Call inside ``flint.ctx.workprec``."""
    import flint
    import sympy as sp

    if expr in values:
        return values[expr]
    if expr.is_Rational:
        return flint.acb(flint.arb(int(expr.p)) / int(expr.q))
    if expr == sp.I:
        return flint.acb(0, 1)
    if expr.is_Add or expr.is_Mul:
        parts = [ball_eval(t, values) for t in expr.args]
        out = parts[0]
        for p in parts[1:]:
            out = out + p if expr.is_Add else out * p
        return out
    if expr.is_Pow and expr.exp.is_Rational:
        base = ball_eval(expr.base, values)
        if expr.exp.is_Integer:
            return base ** int(expr.exp)
        return base ** (flint.arb(int(expr.exp.p)) / int(expr.exp.q))
    raise TypeError(f"no ball evaluation for {expr}")
