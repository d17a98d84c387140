"""Exponential polynomials Σ_j c_j e^{q_j} with rational c_j and q_j: exact zero test, certified sign.

The memories of paper W's linear RNNs with diagonal W (§2, eq. (5): ρ̂(t) = cᵀe^{Wt}U), App. C's
exponential sums Σ c_k e^{w_k t} and the closed-form solutions of A.9's scalar Lyapunov
comparison (eq. (62)) are all such expressions at a rational time t, so one decision serves them:

- **zero** (exact): Lindemann–Weierstrass — for distinct algebraic q_j the numbers e^{q_j} are
  linearly independent over the algebraic numbers, so Σ_j c_j e^{q_j} with rational c_j and
  distinct rational q_j (terms collected by exponent, exactly) is 0 iff every collected c_j is 0;
- **sign** (certified): a nonzero value is enclosed in ball arithmetic (python-flint ``arb``) at
  doubling precision until its ball excludes 0, which it must at some precision (the value is not
  0); only a precision ceiling leaves it undecided.

Products of such sums are such sums (e^{q}e^{r} = e^{q+r}), so a comparison of quotients with
positive denominators is decided by the sign of one cross-multiplied exponential polynomial.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

START_BITS = 64
MAX_BITS = 4096


@dataclass(frozen=True)
class ExpPoly:
    """Σ_j c_j e^{q_j}: ``terms`` are (q_j, c_j), exponents distinct and sorted, no c_j = 0."""

    terms: tuple[tuple[Fraction, Fraction], ...] = ()

    @staticmethod
    def of(pairs: Iterable[tuple[Any, Any]]) -> ExpPoly:
        """The exponential polynomial Σ c·e^q of (c, q) pairs (rationals), collected by exponent
        exactly (the form Lindemann–Weierstrass speaks about)."""
        acc: dict[Fraction, Fraction] = {}
        for c, q in pairs:
            q = q if isinstance(q, Fraction) else Fraction(q)
            acc[q] = acc[q] + c if q in acc else c
        return ExpPoly(tuple(sorted((q, Fraction(c)) for q, c in acc.items() if c != 0)))

    @staticmethod
    def constant(c: Any) -> ExpPoly:
        """The constant c = c·e^0."""
        return ExpPoly.of([(c, 0)])

    @staticmethod
    def exp(q: Any) -> ExpPoly:
        """e^q for a rational q."""
        return ExpPoly.of([(1, q)])

    def __add__(self, other: ExpPoly) -> ExpPoly:
        return ExpPoly.of([(c, q) for q, c in (*self.terms, *other.terms)])

    def __neg__(self) -> ExpPoly:
        return ExpPoly(tuple((q, -c) for q, c in self.terms))

    def __sub__(self, other: ExpPoly) -> ExpPoly:
        return self + (-other)

    def __mul__(self, other: ExpPoly | Fraction | int) -> ExpPoly:
        if not isinstance(other, ExpPoly):
            return ExpPoly.of([(c * other, q) for q, c in self.terms])
        return ExpPoly.of([(c * d, q + r) for q, c in self.terms for r, d in other.terms])

    __rmul__ = __mul__

    def is_zero(self) -> bool:
        """Exact (Lindemann–Weierstrass): zero iff no collected coefficient is left."""
        return not self.terms

    def enclose(self, bits: int) -> Any:
        """A ball (python-flint ``arb``) containing the value, computed at ``bits`` bits."""
        import flint

        with flint.ctx.workprec(bits):
            total = flint.arb(0)
            for q, c in self.terms:
                total += flint.arb(flint.fmpq(c.numerator, c.denominator)) * flint.arb(
                    flint.fmpq(q.numerator, q.denominator)).exp()
            return total

    def sign(self, max_bits: int = MAX_BITS) -> tuple[int | None, int]:
        """The sign (−1, 0, 1) and the precision that certified it: 0 exactly by
        :meth:`is_zero`, otherwise the first ball from ``START_BITS`` bits, doubling, that
        excludes 0; (None, bits) when ``max_bits`` is reached first."""
        if self.is_zero():
            return 0, 0
        bits = START_BITS
        while bits <= max_bits:
            x = self.enclose(bits)
            if x > 0:
                return 1, bits
            if x < 0:
                return -1, bits
            bits *= 2
        return None, max_bits

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        return " + ".join(f"{c}" if q == 0 else f"{c}·e^({q})" for q, c in self.terms)


def ball_text(x: Any, digits: int = 12) -> str:
    """A ball's decimal text (python-flint), for a counterexample's record (W App. C's memories,
    A.9's Lyapunov values)."""
    return str(x.str(digits, radius=False))
