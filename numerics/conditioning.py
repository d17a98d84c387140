"""Condition numbers at high precision, certified where possible.

κ₂(A) = σ_max/σ_min is bracketed from certified eigenvalue enclosures of the Hermitian Gram matrix
AᴴA (python-flint, Rump's algorithm). Forming AᴴA squares κ, so the working precision must exceed
2·log₂κ plus a margin; the precision is doubled until the smallest eigenvalue's ball excludes 0
or a ceiling is reached (then κ is reported as a lower bound only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath

from recmem.numerics.exact import QQi
from recmem.numerics.nodes import Nodes

MAX_BITS = 8192


@dataclass(frozen=True)
class KappaBracket:
    """lo ≤ κ₂ ≤ hi (hi = inf when σ_min could not be separated from 0), with the bits used."""

    lo: mpmath.mpf
    hi: mpmath.mpf
    bits: int
    certified: bool

    @property
    def value(self) -> mpmath.mpf:
        """The upper end: the conservative value to scale tolerances with."""
        return self.hi

    @property
    def log2(self) -> float:
        return float(mpmath.log(self.hi if mpmath.isfinite(self.hi) else self.lo, 2))

    def __str__(self) -> str:
        if not mpmath.isfinite(self.hi):
            return f">= {mpmath.nstr(self.lo, 3)} (σ_min not separated from 0 at {self.bits} bits)"
        if self.hi / self.lo < 1 + mpmath.mpf(10) ** -3:
            return f"{mpmath.nstr(self.hi, 4)} (certified, {self.bits} bits)"
        return f"[{mpmath.nstr(self.lo, 3)}, {mpmath.nstr(self.hi, 3)}] (certified, {self.bits} bits)"


def _gram_eigs(a: Any, bits: int) -> list[Any]:
    import flint

    with flint.ctx.workprec(bits):
        g = a.conjugate().transpose() * a
        return [e.real for e in g.eig(multiple=True)]


def exact_matrix_builder(rows: Sequence[Sequence[QQi]]) -> Callable[[int], Any]:
    """A builder of the flint matrix of exact ``rows`` at any precision."""

    def build(bits: int) -> Any:
        from recmem.numerics.backend import BackendSpec
        from recmem.numerics.flint_backend import FlintBackend

        return FlintBackend(BackendSpec("flint", bits=bits)).matrix(rows)

    return build


def vandermonde_builder(nodes: Nodes, k: int) -> Callable[[int], Any]:
    """A builder of V_k (O's orientation) for exact nodes at any precision."""

    def build(bits: int) -> Any:
        from recmem.numerics.backend import BackendSpec
        from recmem.numerics.flint_backend import FlintBackend

        fb = FlintBackend(BackendSpec("flint", bits=bits))
        return fb.vandermonde(nodes.to(fb), k)

    return build


def kappa2(build: Callable[[int], Any], *, start_bits: int = 128,
           max_bits: int = MAX_BITS) -> KappaBracket:
    """Certified bracket of κ₂ of the matrix that ``build(bits)`` returns as a flint ``acb_mat``.

    The matrix is rebuilt from its exact description at every precision tried.
    """
    from recmem.numerics.flint_backend import arb_to_mpf

    bits = start_bits
    while True:
        ctx = mpmath.MPContext()
        ctx.prec = bits  # the bracket keeps the eigenvalue balls' accuracy
        try:
            eigs = _gram_eigs(build(bits), bits)
        except (ValueError, ZeroDivisionError):
            eigs = []
        if eigs:
            mid = lambda e, c=ctx: arb_to_mpf(e.mid(), c)  # noqa: E731
            rad = lambda e, c=ctx: arb_to_mpf(e.rad(), c)  # noqa: E731
            smin_lo = min(mid(e) - rad(e) for e in eigs)
            smin_hi = min(mid(e) + rad(e) for e in eigs)
            smax_lo = max(mid(e) - rad(e) for e in eigs)
            smax_hi = max(mid(e) + rad(e) for e in eigs)
            if smin_lo > 0:
                # outward rounding: the bracket stays valid after the context's own rounding
                down, up = 1 - 4 * ctx.eps, 1 + 4 * ctx.eps
                return KappaBracket(ctx.sqrt(smax_lo / smin_hi) * down,
                                    ctx.sqrt(smax_hi / smin_lo) * up, bits, True)
            if bits * 2 > max_bits:
                lo = mpmath.sqrt(smax_lo / smin_hi) if smin_hi > 0 else mpmath.mpf(1)
                return KappaBracket(max(lo, mpmath.mpf(1)), mpmath.inf, bits, False)
        elif bits * 2 > max_bits:
            return KappaBracket(mpmath.mpf(1), mpmath.inf, bits, False)
        bits *= 2
