"""Node families (the eigenvalues λ of the diagonal recurrence), drawn exactly and reproducibly.

- ``ring``: Lemma 6 of paper O (App. B): ν = −½ log(u₁(r_max² − r_min²) + r_min²), θ = 2πu₂,
  λ = exp(−ν + iθ), with u₁, u₂ exact dyadic uniforms; λ is computed at 128 bits and rounded once
  to 52 fractional bits, which makes it exactly representable in float64. The formula and its
  hypothesis are read from the statement ``recmem.theory.ring.RingSampling`` (the printed one by
  default; a negative control's sampler when one is passed as ``law``).
- ``real``: uniform dyadic reals in [−r_max, r_max] (stable real recurrences).
- ``roots``: the N-th roots of unity, given exactly as turns j/N and evaluated by each backend at
  its own precision.

More families (circle, equispaced, Chebyshev, Van der Corput, files, …) are parsed from spec
strings by :mod:`recmem.numerics.node_families`; they build the same :class:`Nodes`.

A :class:`Nodes` holds one of three exact descriptions:

- ``values``: Gaussian rationals (:class:`~recmem.numerics.exact.QQi`);
- ``turns``: points exp(2πi·t) of the unit circle, t rational (roots of unity);
- ``points``: :class:`Polar` (radius·exp(2πi·t), radius ≥ 0 and t rational) or :class:`CosPi`
  (the real center + half_width·cos(π·angle), all rational: Chebyshev points).

Every description can be evaluated at any precision: :meth:`Nodes.acb` (certified balls),
:meth:`Nodes.rounded` (each real part correctly rounded to p bits), :meth:`Nodes.complex128`,
:meth:`Nodes.mp`, :meth:`Nodes.sympy` (exact) and :meth:`Nodes.to` (a backend's native vector).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar

import mpmath
import numpy as np

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, dyadic, dyadic_complex, to_sympy
from recmem.theory.ring import LEMMA6, RingSampling

FAMILIES = ("ring", "real", "roots")
NODE_FRAC_BITS = 52
# Ziv's loop (correct rounding of an irrational part) doubles the working precision up to this;
# an irrational algebraic number is never a rounding boundary, so the loop ends long before.
_MAX_ROUNDING_BITS = 1 << 16
_T = TypeVar("_T")


class Polar(NamedTuple):
    """The node radius·exp(2πi·turn), exactly: a rational radius ≥ 0 and a rational turn."""

    radius: Fraction
    turn: Fraction


class CosPi(NamedTuple):
    """The real node center + half_width·cos(π·angle), exactly (three rationals)."""

    center: Fraction
    half_width: Fraction
    angle: Fraction


# cos(πq) for the q (mod 2) where it is rational; by Niven's theorem there are no others.
_NIVEN = {Fraction(0): Fraction(1), Fraction(1, 3): Fraction(1, 2), Fraction(1, 2): Fraction(0),
          Fraction(2, 3): Fraction(-1, 2), Fraction(1): Fraction(-1),
          Fraction(4, 3): Fraction(-1, 2), Fraction(3, 2): Fraction(0),
          Fraction(5, 3): Fraction(1, 2)}


def cos_pi_rational(q: Fraction) -> Fraction | None:
    """cos(πq) exactly where it is rational (q ≡ 0, ±1/3, ±1/2, ±2/3 or 1 mod 2, Niven's
    theorem), else None (then cos(πq) is an irrational algebraic number)."""
    return _NIVEN.get(Fraction(q) % 2)


def _fmpq(q: Fraction) -> Any:
    import flint

    return flint.fmpq(q.numerator, q.denominator)


class _Trig(NamedTuple):
    """The irrational real offset + scale·cos(π·angle) (scale ≠ 0, cos(π·angle) irrational,
    angle in [0, 1/2) after :func:`_part`'s normalisation: one key per value and offset)."""

    offset: Fraction
    scale: Fraction
    angle: Fraction

    def arb(self) -> Any:
        """A ball containing the value, at flint's current precision."""
        import flint

        return (flint.arb(_fmpq(self.offset))
                + flint.arb(_fmpq(self.scale)) * flint.arb.cos_pi_fmpq(_fmpq(self.angle)))

    def sympy(self) -> Any:
        import sympy

        q = lambda f: sympy.Rational(f.numerator, f.denominator)  # noqa: E731
        return q(self.offset) + q(self.scale) * sympy.cos(sympy.pi * q(self.angle))


def _part(offset: Fraction, scale: Fraction, angle: Fraction) -> Fraction | _Trig:
    """offset + scale·cos(π·angle): a Fraction where it is rational, else a normalised _Trig."""
    c = cos_pi_rational(angle)
    if scale == 0 or c is not None:
        return offset + scale * (c if c is not None else 0)
    a = Fraction(angle) % 2
    if a > 1:  # cos(π(2 − a)) = cos(πa)
        a = 2 - a
    if a > Fraction(1, 2):  # cos(π(1 − a)) = −cos(πa)
        a, scale = 1 - a, -scale
    return _Trig(Fraction(offset), Fraction(scale), a)


def arb_endpoints(x: Any) -> tuple[Fraction, Fraction]:
    """The exact ends (mid − rad, mid + rad) of a finite python-flint ``arb`` ball, as Fractions.
    Domain: a finite ball (NaN or infinite: ValueError)."""
    mid, rad = x.mid(), x.rad()
    if not (mid.is_finite() and rad.is_finite()):
        raise ValueError(f"arb_endpoints needs a finite ball, got {x}")
    (m, me), (r, re_) = mid.man_exp(), rad.man_exp()
    m_q = Fraction(int(m)) * Fraction(2) ** int(me)
    r_q = Fraction(int(r)) * Fraction(2) ** int(re_)
    return m_q - r_q, m_q + r_q


def round_to_bits(x: Fraction, bits: int) -> Fraction:
    """``x`` rounded to the nearest binary number with a ``bits``-bit significand (ties to even;
    unbounded exponent range). Domain: a rational ``x``, ``bits`` ≥ 1."""
    if bits < 1:
        raise ValueError(f"round_to_bits needs bits ≥ 1, got {bits}")
    x = Fraction(x)
    if x == 0:
        return x
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2^(e−1) ≤ a < 2^(e+1)
    if a >= Fraction(2) ** e:
        e += 1  # now 2^(e−1) ≤ a < 2^e
    q = round(a * Fraction(2) ** (bits - e))  # in [2^(bits−1), 2^bits]; Fraction rounds half-even
    r = Fraction(q) * Fraction(2) ** (e - bits)
    return r if x > 0 else -r


def _float(x: Fraction) -> float:
    """The float64 nearest to ``x`` (Python rounds int/int correctly); ±inf past the range."""
    try:
        return x.numerator / x.denominator
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def _round_part(part: Fraction | _Trig, rnd: Callable[[Fraction], _T], bits: int) -> _T:
    """``rnd`` (a rounding function of the exact value) applied to ``part``: directly for a
    rational, by Ziv's loop for an irrational one (evaluate a ball at rising precision until both
    ends round alike: then the value rounds like them)."""
    if isinstance(part, Fraction):
        return rnd(part)
    import flint

    work = bits + 32
    while work <= _MAX_ROUNDING_BITS:
        with flint.ctx.workprec(work):
            lo, hi = arb_endpoints(part.arb())
        a, b = rnd(lo), rnd(hi)
        if a == b:
            return a
        work *= 2
    raise ArithmeticError(f"could not round {part} correctly within {_MAX_ROUNDING_BITS} bits")


@dataclass(frozen=True)
class Nodes:
    """An exact set of nodes: Gaussian rationals (``values``), points exp(2πi·t) of the unit
    circle (``turns``, e.g. roots of unity) or :class:`Polar` / :class:`CosPi` ``points``
    (circles of any rational radius, Chebyshev points). At most one of the three is set.

    Every kind evaluates at any precision: :meth:`acb` (certified balls), :meth:`rounded`
    (correct rounding), :meth:`complex128`, :meth:`mp`, :meth:`sympy` (exact), :meth:`to`.
    """

    family: str
    values: tuple[QQi, ...] | None = None
    turns: tuple[Fraction, ...] | None = None
    description: str = ""
    points: tuple[Polar | CosPi, ...] | None = None

    def __post_init__(self) -> None:
        given = [k for k in ("values", "turns", "points") if getattr(self, k) is not None]
        if len(given) > 1:
            raise ValueError(f"Nodes takes one exact description, got {' and '.join(given)}")
        for p in self.points or ():
            if not isinstance(p, Polar | CosPi):
                raise TypeError(f"Nodes.points holds Polar or CosPi entries, got {p!r}")
            if isinstance(p, Polar) and p.radius < 0:
                raise ValueError(f"a Polar node needs a radius ≥ 0, got {p.radius}")

    def __len__(self) -> int:
        for seq in (self.values, self.turns, self.points):
            if seq is not None:
                return len(seq)
        return 0

    @property
    def kind(self) -> str:
        """Which exact description is held: ``values``, ``turns`` or ``points``."""
        if self.turns is not None:
            return "turns"
        return "points" if self.points is not None else "values"

    def first(self, m: int) -> Nodes:
        """The first ``m`` nodes (same description). Domain: 1 ≤ m ≤ N (ValueError otherwise)."""
        if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= len(self):
            raise ValueError(f"first(m) needs 1 ≤ m ≤ {len(self)}, got {m!r}")
        if m == len(self):
            return self
        cut = lambda seq: seq[:m] if seq is not None else None  # noqa: E731
        return Nodes(self.family, values=cut(self.values), turns=cut(self.turns),
                     points=cut(self.points), description=f"the first {m} of {self.description}")

    # ---- exact structure ------------------------------------------------------------------
    def _parts(self) -> list[tuple[Fraction | _Trig, Fraction | _Trig]]:
        """(real part, imaginary part) of every node, each rational or a normalised _Trig."""
        if self.values is not None:
            return [(v.re, v.im) for v in self.values]
        if self.turns is not None:
            return [(_part(Fraction(0), Fraction(1), 2 * t),
                     _part(Fraction(0), Fraction(1), 2 * t - Fraction(1, 2))) for t in self.turns]
        out: list[tuple[Fraction | _Trig, Fraction | _Trig]] = []
        for p in self.points or ():
            if isinstance(p, Polar):
                out.append((_part(Fraction(0), p.radius, 2 * p.turn),
                            _part(Fraction(0), p.radius, 2 * p.turn - Fraction(1, 2))))
            else:
                out.append((_part(p.center, p.half_width, p.angle), Fraction(0)))
        return out

    @property
    def is_real(self) -> bool:
        """Whether every node is real (decided exactly)."""
        return all(im == 0 for _, im in self._parts())

    @property
    def on_unit_circle(self) -> bool:
        """Whether every node has modulus exactly 1 (decided exactly; rounded draws such as
        Lemma 6's ring nodes are generally not on the circle even for r_min = r_max = 1)."""
        if self.turns is not None:
            return True
        if self.values is not None:
            return all(v.re * v.re + v.im * v.im == 1 for v in self.values)
        for p in self.points or ():
            if isinstance(p, Polar):
                if p.radius != 1:
                    return False
            else:
                c = cos_pi_rational(p.angle)
                if c is None or abs(p.center + p.half_width * c) != 1:
                    return False
        return True

    def within_radius(self, radius: Fraction) -> bool:
        """Whether every node has modulus ≤ ``radius`` (a rational ≥ 0), decided exactly: in
        rational arithmetic where the node is rational or polar, and for an irrational real
        Chebyshev node (never equal to ±radius) by balls at rising precision."""
        r = Fraction(radius)
        if self.values is not None:
            return all(v.re * v.re + v.im * v.im <= r * r for v in self.values)
        if self.turns is not None:
            return len(self.turns) == 0 or r >= 1
        for p in self.points or ():
            if isinstance(p, Polar):
                if p.radius > r:
                    return False
                continue
            x = _part(p.center, p.half_width, p.angle)
            if isinstance(x, Fraction):
                if abs(x) > r:
                    return False
                continue
            if not _irrational_abs_below(x, r):
                return False
        return True

    def circle_turns(self) -> tuple[Fraction, ...] | None:
        """The exact turns t in [0, 1) with node = exp(2πi·t), where every node is such a point
        with a rational t (``turns``, :class:`Polar` of radius 1, and the values ±1, ±i);
        None otherwise (e.g. 3/5 + 4/5·i lies on the circle at an irrational turn)."""
        if self.turns is not None:
            return tuple(Fraction(t) % 1 for t in self.turns)
        quarter = {QQi(Fraction(1)): Fraction(0), QQi(Fraction(0), Fraction(1)): Fraction(1, 4),
                   QQi(Fraction(-1)): Fraction(1, 2),
                   QQi(Fraction(0), Fraction(-1)): Fraction(3, 4)}
        out = []
        if self.values is not None:
            for v in self.values:
                if v not in quarter:
                    return None
                out.append(quarter[v])
            return tuple(out)
        for p in self.points or ():
            if not (isinstance(p, Polar) and p.radius == 1):
                return None
            out.append(Fraction(p.turn) % 1)
        return tuple(out)

    def distinct(self) -> bool:
        """Whether the nodes are pairwise distinct, decided exactly.

        Equal numbers have equal correctly rounded float64 values, so only nodes that share
        their :meth:`complex128` value are compared: rationals exactly, a rational never equals
        an irrational part, two normalised cosine parts with the same offset and scale are equal
        iff their angles are, and any other pair is separated by balls at rising precision (up
        to 4096 bits) or, failing that, by SymPy's minimal polynomial of the difference.
        """
        groups: dict[complex, list[int]] = {}
        for i, z in enumerate(self.complex128()):
            groups.setdefault(complex(z), []).append(i)
        parts = self._parts()
        for members in groups.values():
            for a_i, a in enumerate(members):
                for b in members[a_i + 1:]:
                    if all(_parts_equal(x, y) for x, y in zip(parts[a], parts[b], strict=True)):
                        return False
        return True

    # ---- evaluation at any precision ------------------------------------------------------
    def acb(self, bits: int) -> list[Any]:
        """Certified complex balls (python-flint ``acb``) containing the nodes, computed at
        ``bits`` bits (radii of a few units in the last place, 0 where exact).
        Domain: 2 ≤ bits ≤ 65536 (ValueError otherwise)."""
        import flint

        bits = _check_bits(bits, "Nodes.acb")
        with flint.ctx.workprec(bits):
            ball = lambda p: p.arb() if isinstance(p, _Trig) else flint.arb(_fmpq(p))  # noqa: E731
            return [flint.acb(ball(re), ball(im)) for re, im in self._parts()]

    def rounded(self, bits: int) -> list[QQi]:
        """Every node with each real part correctly rounded (to nearest, ties to even) to a
        ``bits``-bit binary significand, as exact dyadic Gaussian rationals (unbounded exponent
        range). Domain: 2 ≤ bits ≤ 65536."""
        bits = _check_bits(bits, "Nodes.rounded")
        rnd = lambda x: round_to_bits(x, bits)  # noqa: E731
        return [QQi(_round_part(re, rnd, bits), _round_part(im, rnd, bits))
                for re, im in self._parts()]

    def complex128(self) -> np.ndarray:
        """The nodes as float64 complex numbers, each part correctly rounded (to nearest, ties
        to even, subnormals and overflow as IEEE 754 binary64 does) from its exact value."""
        return np.array([complex(_round_part(re, _float, 53), _round_part(im, _float, 53))
                         for re, im in self._parts()], dtype=np.complex128)

    def to(self, backend: AbstractBackend) -> Any:
        """The nodes as a native vector of ``backend``.

        ``values`` go through ``backend.vector`` and ``turns`` through ``backend.cis_turns``
        (each backend's own evaluation at its precision, unchanged). ``points`` become certified
        balls at the backend's precision on a ball backend (``vector_of`` of :meth:`acb`), and
        elsewhere the values :meth:`rounded` to the backend's ``precision_bits`` (each part
        correctly rounded, then handed to ``backend.vector``, which converts such dyadics
        exactly; float32 and float64 exponent ranges are not applied, which only matters for
        parts below 2^-126 or 2^-1022).
        """
        if self.values is not None:
            return backend.vector(self.values)
        if self.turns is not None:
            return backend.cis_turns(self.turns)
        if backend.encloses:
            with backend.activate():
                return backend.vector_of(self.acb(backend.precision_bits))
        return backend.vector(self.rounded(backend.precision_bits))

    def sympy(self) -> list[Any]:
        """Exact SymPy numbers (algebraic for roots of unity, polar and Chebyshev points)."""
        import sympy

        if self.values is not None:
            return [to_sympy(v) for v in self.values]
        q = lambda f: sympy.Rational(f.numerator, f.denominator)  # noqa: E731
        if self.turns is not None:
            return [sympy.exp(2 * sympy.pi * sympy.I * q(t)) for t in self.turns]
        return [q(p.radius) * sympy.exp(2 * sympy.pi * sympy.I * q(p.turn)) if isinstance(p, Polar)
                else q(p.center) + q(p.half_width) * sympy.cos(sympy.pi * q(p.angle))
                for p in self.points or ()]

    def mp(self, ctx: mpmath.ctx_mp.MPContext) -> list[mpmath.mpc]:
        """The nodes in an mpmath context (``points``: correctly rounded to ``ctx.prec``)."""
        if self.values is not None:
            from recmem.numerics.exact import to_mpc

            return [to_mpc(v, ctx) for v in self.values]
        if self.turns is not None:
            return [ctx.mpc(ctx.cospi(2 * ctx.mpf(t.numerator) / t.denominator),
                            ctx.sinpi(2 * ctx.mpf(t.numerator) / t.denominator))
                    for t in self.turns]
        from recmem.numerics.exact import to_mpc

        return [to_mpc(v, ctx) for v in self.rounded(int(ctx.prec))]


def _check_bits(bits: int, fn: str) -> int:
    from recmem.numerics.backend import MAX_BITS, MIN_BITS

    if isinstance(bits, bool) or not isinstance(bits, int) or not MIN_BITS <= bits <= MAX_BITS:
        raise ValueError(f"{fn} needs a precision of {MIN_BITS} to {MAX_BITS} bits, got {bits!r}")
    return bits


def _irrational_abs_below(x: _Trig, r: Fraction) -> bool:
    """|x| < r for an irrational x and a rational r (never equal), by balls at rising precision."""
    import flint

    bits = 64
    while bits <= _MAX_ROUNDING_BITS:
        with flint.ctx.workprec(bits):
            a = abs(x.arb())
            rb = flint.arb(_fmpq(r))
            if a < rb:
                return True
            if a > rb:
                return False
        bits *= 2
    raise ArithmeticError(f"could not compare |{x}| with {r} within {_MAX_ROUNDING_BITS} bits")


def _parts_equal(x: Fraction | _Trig, y: Fraction | _Trig) -> bool:
    """Exact equality of two parts (see :meth:`Nodes.distinct`)."""
    if isinstance(x, Fraction) or isinstance(y, Fraction):
        return x == y  # a rational never equals an irrational _Trig
    if (x.offset, x.scale) == (y.offset, y.scale):
        return x.angle == y.angle  # cos is injective on [0, 1/2]
    import flint

    bits = 128
    while bits <= 4096:
        with flint.ctx.workprec(bits):
            if not x.arb().overlaps(y.arb()):
                return False
        bits *= 2
    import sympy

    t = sympy.Symbol("t")
    return bool(sympy.minimal_polynomial(x.sympy() - y.sympy(), t) == t)


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
    from recmem.numerics.certified import fixed_context  # (certified imports this module)

    ctx = fixed_context(128)
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
