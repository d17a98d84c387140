"""Exact inputs shared by every backend (CLAIMS.md ground rule 4).

Problems are drawn once as exact Gaussian rationals and converted inside each backend, so every
arithmetic sees the same problem. Random quantities that are not rational (Lemma 6's ring nodes)
are computed at high precision and rounded once to dyadic rationals with a fixed number of
fractional bits: the rounded values *are* the problem from then on.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath

Rational = Fraction | int


class QQi(NamedTuple):
    """An exact Gaussian rational ``re + i·im``."""

    re: Fraction
    im: Fraction = Fraction(0)

    def __str__(self) -> str:
        if self.im == 0:
            return str(self.re)
        sign = "+" if self.im >= 0 else "-"
        return f"{self.re}{sign}{abs(self.im)}i"

    @property
    def is_real(self) -> bool:
        return self.im == 0


def qqi(value: QQi | Rational | complex | float) -> QQi:
    """Convert an exactly representable value into a :class:`QQi` (floats are taken exactly).

    Domain: QQi, int, Fraction, finite float or finite complex (complex is in the domain: QQi is a
    Gaussian rational). NaN/inf raise ValueError, other types TypeError.
    """
    if isinstance(value, QQi):
        return value
    if isinstance(value, Fraction | int):
        return QQi(Fraction(value))
    if isinstance(value, float | complex) and not cmath.isfinite(value):
        raise ValueError(f"qqi needs a finite value, got {value!r}")
    if isinstance(value, float):
        return QQi(Fraction(value))
    if isinstance(value, complex):
        return QQi(Fraction(value.real), Fraction(value.imag))
    raise TypeError(f"cannot make an exact Gaussian rational from {value!r}")


def dyadic(x: mpmath.mpf | float | Fraction, frac_bits: int) -> Fraction:
    """Round ``x`` to the nearest multiple of ``2**-frac_bits`` (an exactly representable value).

    Domain: a finite real ``x`` (complex, NaN, inf: ValueError), ``frac_bits`` ≥ 0."""
    if frac_bits < 0:
        raise ValueError(f"dyadic needs frac_bits ≥ 0, got {frac_bits}")
    if isinstance(x, complex | mpmath.mpc):
        raise ValueError(f"complex entries are not supported: dyadic rounds a real x, got {x!r} "
                         "(use dyadic_complex)")
    if not isinstance(x, Fraction | int) and not mpmath.isfinite(x):
        raise ValueError(f"dyadic needs a finite x, got {x!r}")
    if isinstance(x, Fraction | int):
        return Fraction(round(Fraction(x) * 2**frac_bits), 2**frac_bits)
    # multiplying by a power of two is exact in binary floating point
    scaled = mpmath.nint(mpmath.ldexp(mpmath.mpf(x), frac_bits))
    return Fraction(int(scaled), 2**frac_bits)


def dyadic_complex(z: mpmath.mpc | complex, frac_bits: int) -> QQi:
    """Round both parts of ``z`` to dyadic rationals with ``frac_bits`` fractional bits."""
    z = mpmath.mpc(z)
    return QQi(dyadic(z.real, frac_bits), dyadic(z.imag, frac_bits))


def to_mpc(q: QQi, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
    """``q`` in the mpmath context ``ctx`` (rounded once to that context's precision)."""
    re = ctx.mpf(q.re.numerator) / q.re.denominator
    im = ctx.mpf(q.im.numerator) / q.im.denominator
    return ctx.mpc(re, im)


def to_complex(q: QQi) -> complex:
    """``q`` rounded to the nearest complex128 (correctly rounded per part)."""
    return complex(float(q.re), float(q.im))


def to_sympy(q: QQi) -> Any:
    """``q`` as an exact SymPy number."""
    import sympy

    return sympy.Rational(q.re.numerator, q.re.denominator) + sympy.I * sympy.Rational(
        q.im.numerator, q.im.denominator
    )


def abs2(q: QQi) -> Fraction:
    """Exact ``|q|²``."""
    return q.re * q.re + q.im * q.im


def all_distinct(values: Iterable[QQi]) -> bool:
    """Whether the exact values are pairwise distinct."""
    vals = list(values)
    return len(set(vals)) == len(vals)


def uniform_dyadic(rng_bits: int, bits: int = 53) -> Fraction:
    """The dyadic rational ``rng_bits / 2**bits`` in [0, 1) for an integer draw ``rng_bits``."""
    if not 0 <= rng_bits < 2**bits:
        raise ValueError("draw out of range")
    return Fraction(rng_bits, 2**bits)


def bits_for(value: float) -> int:
    """Number of bits needed to resolve a relative size ``value`` (values below 1 count as 1).
    Domain: a finite real value (NaN and inf raise ValueError)."""
    if not math.isfinite(value):
        raise ValueError(f"bits_for needs a finite value, got {value!r}")
    return max(1, math.ceil(math.log2(max(value, 1.0))))
