"""Node families (the eigenvalues λ of the diagonal recurrence), drawn exactly and reproducibly.

- ``ring``: Lemma 6 of paper O (App. B): ν = −½ log(u₁(r_max² − r_min²) + r_min²), θ = 2πu₂,
  λ = exp(−ν + iθ), with u₁, u₂ exact dyadic uniforms; λ is computed at 128 bits and rounded once
  to 52 fractional bits, which makes it exactly representable in float64. The formula and its
  hypothesis are read from the statement ``recmem.theory.ring.RingSampling`` (the printed one by
  default; a negative control's sampler when one is passed as ``law``).
- ``real``: uniform dyadic reals in [−r_max, r_max] (stable real recurrences).
- ``roots``: the N-th roots of unity, given exactly as turns j/N and evaluated by each backend at
  its own precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, dyadic, dyadic_complex, to_sympy
from recmem.theory.ring import LEMMA6, RingSampling

FAMILIES = ("ring", "real", "roots")
NODE_FRAC_BITS = 52


@dataclass(frozen=True)
class Nodes:
    """An exact set of nodes: either Gaussian rationals or roots of unity given by their turns."""

    family: str
    values: tuple[QQi, ...] | None = None
    turns: tuple[Fraction, ...] | None = None
    description: str = ""

    def __len__(self) -> int:
        return len(self.values if self.values is not None else self.turns or ())

    def to(self, backend: AbstractBackend) -> Any:
        """The nodes as a native vector of ``backend``."""
        if self.values is not None:
            return backend.vector(self.values)
        assert self.turns is not None
        return backend.cis_turns(self.turns)

    def sympy(self) -> list[Any]:
        """Exact SymPy numbers (algebraic for roots of unity)."""
        import sympy

        if self.values is not None:
            return [to_sympy(v) for v in self.values]
        assert self.turns is not None
        return [sympy.exp(2 * sympy.pi * sympy.I * sympy.Rational(t.numerator, t.denominator))
                for t in self.turns]

    def mp(self, ctx: mpmath.ctx_mp.MPContext) -> list[mpmath.mpc]:
        """The nodes in an mpmath context."""
        if self.values is not None:
            from recmem.numerics.exact import to_mpc

            return [to_mpc(v, ctx) for v in self.values]
        assert self.turns is not None
        return [ctx.mpc(ctx.cospi(2 * ctx.mpf(t.numerator) / t.denominator),
                        ctx.sinpi(2 * ctx.mpf(t.numerator) / t.denominator)) for t in self.turns]


def lemma6_node(u1: Fraction, u2: Fraction, r_min: Fraction, r_max: Fraction,
                ctx: mpmath.ctx_mp.MPContext, law: RingSampling | None = None) -> mpmath.mpc:
    """λ = exp(−ν + iθ) exactly as Lemma 6 prints it, in the context ``ctx`` (paper O, App. B).

    The formula is the statement's (``law``, default the printed Lemma 6); exp(−ν + iθ) is one
    complex exponential, θ = 2π times the statement's angle in turns (formed in ``ctx``), and
    λ = 0 where ν = +∞.
    """
    law = LEMMA6 if law is None else law
    q = lambda f: ctx.mpf(f.numerator) / f.denominator  # noqa: E731
    return law.node(q(u1), u2, q(r_min), q(r_max), log=ctx.log,
                    exp_i=lambda x, t: ctx.exp(ctx.mpc(x, 2 * ctx.pi * q(t))), const=q,
                    zero=ctx.mpc(0))


def _check_n(n: int, fn: str) -> None:
    from recmem.numerics.validate import positive_int

    positive_int(n, f"{fn}: the number of nodes N")


def uniform_draws(seed: int, count: int) -> list[Fraction]:
    """``count`` exact dyadic uniforms on [0, 1) with 53 random bits each, from a pinned seed."""
    rng = np.random.default_rng(seed)
    hi = rng.integers(0, 2**26, size=count, dtype=np.int64)
    lo = rng.integers(0, 2**27, size=count, dtype=np.int64)
    return [Fraction(int(h) * 2**27 + int(lo_), 2**53) for h, lo_ in zip(hi, lo, strict=True)]


def ring(n: int, r_min: Fraction, r_max: Fraction, seed: int,
         law: RingSampling | None = None) -> Nodes:
    """N nodes from 𝕋(r_min, r_max) (Lemma 6), rounded to exact dyadic Gaussian rationals.

    Domain: N ≥ 1 and the statement's hypothesis on (r_min, r_max) (ValueError otherwise).

    ``law`` replaces Lemma 6's sampler (a negative control's, see theory.ring); the draws
    (u₁, u₂) are the same for every law.
    """
    _check_n(n, "ring")
    statement = LEMMA6 if law is None else law
    if not statement.admits(r_min, r_max):
        raise ValueError(f"need 0 ≤ r_min ≤ r_max ≤ 1, got r_min={r_min}, r_max={r_max}")
    ctx = mpmath.MPContext()
    ctx.prec = 128
    draws = uniform_draws(seed, 2 * n)
    vals = tuple(
        dyadic_complex(lemma6_node(draws[2 * i], draws[2 * i + 1], r_min, r_max, ctx, statement),
                       NODE_FRAC_BITS)
        for i in range(n)
    )
    how = "(Lemma 6)" if statement == LEMMA6 else f"by {statement.sampler_text}"
    return Nodes("ring", values=vals,
                 description=f"{n} nodes ~ T({r_min}, {r_max}) {how}, seed {seed}")


def real(n: int, r_max: Fraction, seed: int) -> Nodes:
    """N uniform dyadic real nodes in [−r_max, r_max]. Domain: N ≥ 1, r_max ≥ 0 rational."""
    _check_n(n, "real")
    if Fraction(r_max) < 0:
        raise ValueError(f"real nodes need r_max ≥ 0, got {r_max}")
    draws = uniform_draws(seed, n)
    vals = tuple(QQi(dyadic((2 * d - 1) * r_max, NODE_FRAC_BITS)) for d in draws)
    return Nodes("real", values=vals, description=f"{n} real nodes ~ U[-{r_max}, {r_max}], seed {seed}")


def roots(n: int) -> Nodes:
    """The N-th roots of unity exp(2πi j/N), j = 0…N−1. Domain: N ≥ 1."""
    _check_n(n, "roots")
    return Nodes("roots", turns=tuple(Fraction(j, n) for j in range(n)),
                 description=f"the {n}-th roots of unity")


def make(family: str, n: int, *, r_min: Fraction = Fraction(9, 10), r_max: Fraction = Fraction(1),
         seed: int = 0) -> Nodes:
    """Nodes of a named family (see :data:`FAMILIES`); domain: that of the family's function
    (N ≥ 1), ValueError for an unknown family."""
    if family == "ring":
        return ring(n, r_min, r_max, seed)
    if family == "real":
        return real(n, r_max, seed)
    if family == "roots":
        return roots(n)
    raise ValueError(f"unknown node family {family!r}; expected one of {', '.join(FAMILIES)}")
