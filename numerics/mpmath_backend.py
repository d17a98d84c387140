"""mpmath at any precision (gmpy2 is used automatically when installed).

Each backend owns a private ``MPContext``, so its precision never leaks into global state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, to_mpc


@dataclass
class MpmathBackend(AbstractBackend):
    """Point arithmetic at ``spec.bits`` bits."""

    def __post_init__(self) -> None:
        self.ctx = mpmath.MPContext()
        self.ctx.prec = int(self.spec.bits or 53)

    @property
    def precision_bits(self) -> int:
        return int(self.ctx.prec)

    def vector(self, values: Sequence[QQi]) -> mpmath.matrix:
        values = self._check_values(values, "vector")
        return self.ctx.matrix([[to_mpc(v, self.ctx)] for v in values])

    def matrix(self, rows: Sequence[Sequence[QQi]]) -> mpmath.matrix:
        rows = self._check_rows(rows, "matrix")
        return self.ctx.matrix([[to_mpc(v, self.ctx) for v in row] for row in rows])

    def cis_turns(self, turns: Sequence[Fraction]) -> mpmath.matrix:
        ctx = self.ctx
        # exp(2πi t) through cospi/sinpi: exact at t = 0, 1/4, 1/2, … and no 2π rounding.
        return ctx.matrix(
            [[ctx.mpc(ctx.cospi(2 * ctx.mpf(t.numerator) / t.denominator),
                      ctx.sinpi(2 * ctx.mpf(t.numerator) / t.denominator))] for t in turns]
        )

    def to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        return ctx.matrix([[ctx.mpc(x[i, j]) for j in range(x.cols)] for i in range(x.rows)])

    def scalar_to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
        return ctx.mpc(x)

    def shape(self, a: Any) -> tuple[int, int]:
        return (a.rows, a.cols)

    def entries(self, v: Any) -> list[Any]:
        return [v[i, 0] for i in range(v.rows)]

    def vector_of(self, scalars: Sequence[Any]) -> mpmath.matrix:
        return self.ctx.matrix([[x] for x in scalars])

    def matrix_of_scalar(self, x: Any) -> mpmath.matrix:
        return self.ctx.matrix([[x]])

    def transpose(self, a: Any) -> mpmath.matrix:
        return a.T

    def hadamard(self, a: Any, b: Any) -> mpmath.matrix:
        return self.ctx.matrix([[a[i, j] * b[i, j] for j in range(a.cols)] for i in range(a.rows)])

    def row_sums(self, a: Any) -> mpmath.matrix:
        return self.ctx.matrix([[self.ctx.fsum(a[i, j] for j in range(a.cols))]
                                for i in range(a.rows)])

    def columns(self, a: Any, start: int, stop: int) -> mpmath.matrix:
        return self.ctx.matrix([[a[i, j] for j in range(start, stop)] for i in range(a.rows)])

    def log(self, x: Any) -> Any:
        return self.ctx.log(x)

    def exp(self, x: Any) -> Any:
        return self.ctx.exp(x)

    def vandermonde(self, nodes: Any, k: int) -> mpmath.matrix:
        self._check_k(nodes, k, "vandermonde")
        n = nodes.rows
        v = self.ctx.matrix(n, k)
        for i in range(n):
            p = self.ctx.mpc(1)
            for j in range(k - 1, -1, -1):
                v[i, j] = p
                p *= nodes[i, 0]
        return v

    def recurrence(self, nodes: Any, drive: Any) -> mpmath.matrix:
        n, steps = drive.rows, drive.cols
        out = self.ctx.matrix(n, steps)
        for i in range(n):
            x = self.ctx.mpc(0)
            lam = nodes[i, 0]
            for k in range(steps):
                x = lam * x + drive[i, k]
                out[i, k] = x
        return out

    def matmul(self, a: Any, b: Any) -> mpmath.matrix:
        return a * b

    def det(self, a: Any) -> mpmath.mpc:
        self._check_matrix(a, "det", square=True)
        try:
            return self.ctx.det(a)
        except (TypeError, ZeroDivisionError):
            # mpmath 1.3's LU raises on an exactly zero pivot column instead of returning 0; a
            # column that is exactly zero below the diagonal makes the determinant exactly 0.
            return self.ctx.mpc(0)

    def svdvals(self, a: Any) -> list[mpmath.mpf]:
        self._check_matrix(a, "svdvals")
        # values stay in this backend's context: converting through mpmath.mpf would round them
        # to the global (53-bit) precision
        s = self.ctx.svd_c(a, compute_uv=False)
        return sorted((s[i] for i in range(len(s))), reverse=True)

    def pinv_apply(self, a: Any, b: Any) -> mpmath.matrix:
        self._check_matrix(a, "pinv_apply")
        ctx = self.ctx
        u, s, vh = ctx.svd_c(a, full_matrices=False)
        cut = max(a.rows, a.cols) * max(s[i] for i in range(len(s))) * ctx.eps
        coeff = u.H * b
        for i in range(len(s)):
            inv = 0 if s[i] <= cut else 1 / s[i]
            for j in range(coeff.cols):
                coeff[i, j] *= inv
        return vh.H * coeff
