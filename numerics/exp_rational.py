"""Exact exponential-rational functions of t ≥ 0: f(t) = Σ_ν e^{−νt}·L_ν(1 + t), ν rational and each
L_ν a Laurent polynomial over ℚ in u = 1 + t (so t^p e^{−νt}/(1 + t)^q and their sums are members).

The ring is closed under +, −, ×, d/dt and division by monomials c·e^{−νt}u^k, and carries the
operations a statement's formula applies to a time variable (``exp`` of a linear function of t,
``log`` of a pure exponential): :class:`ExpRationalArith` is such an arithmetic, so a statement of
paper W written for mpmath, flint or SymPy (e.g. the transform (106) of W's proof of Lemma A.10)
can be evaluated on these functions exactly.

Exact facts used by the deciders (all for t ∈ [0, ∞)):

- asymptotics: f(t) = lc·t^e·e^{−ν*t}(1 + o(1)) with ν* the smallest exponent whose L_ν ≠ 0 and
  e = deg L_ν* (a Laurent degree, possibly negative);
- zero tests at a rational t > 0: the numbers −νt are distinct rationals for distinct ν, so by the
  Lindemann–Weierstrass theorem (Baker's form: e^{α₁}, …, e^{α_n} are linearly independent over
  the algebraic numbers for distinct algebraic α_i) f(t) = 0 iff every L_ν(1 + t) = 0;
- a nonzero f has at most Σ_ν (deg P_ν + 1) − 1 real zeros, P_ν = u^Q·L_ν the polynomial
  numerators (Pólya–Szegő, *Problems and Theorems in Analysis II*, Part V, Problem 75).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Laurent = tuple[tuple[int, Fraction], ...]  # ((power of u, coefficient), …), sorted, no zeros


def _laurent(d: Mapping[int, Fraction]) -> Laurent:
    return tuple(sorted((k, Fraction(c)) for k, c in d.items() if c != 0))


def _lmul(a: Laurent, b: Laurent) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for i, x in a:
        for j, y in b:
            out[i + j] = out.get(i + j, Fraction(0)) + x * y
    return out


def _lval(a: Laurent, u: Fraction) -> Fraction:
    return sum((c * u ** k for k, c in a), Fraction(0))


@dataclass(frozen=True)
class ExpRational:
    """f(t) = Σ_ν e^{−νt}·L_ν(1 + t) (module docstring; the functions of paper W's Lemma A.10,
    App. A.10 (103)–(117), in the exact search); ``parts`` = ((ν, L_ν), …) sorted by ν,
    without zero L_ν. Immutable and hashable; equality is equality of functions (the
    representation is canonical: distinct exponentials with Laurent coefficients are linearly
    independent functions)."""

    parts: tuple[tuple[Fraction, Laurent], ...] = ()

    # ---- construction ----------------------------------------------------------------------
    @staticmethod
    def of(parts: Mapping[Fraction, Mapping[int, Fraction]]) -> ExpRational:
        """From {ν: {power of u: coefficient}} (zeros dropped)."""
        out = []
        for nu in sorted(parts):
            lau = _laurent(parts[nu])
            if lau:
                out.append((Fraction(nu), lau))
        return ExpRational(tuple(out))

    @staticmethod
    def const(c: Fraction | int) -> ExpRational:
        """The constant function c."""
        return ExpRational.of({Fraction(0): {0: Fraction(c)}})

    @staticmethod
    def t() -> ExpRational:
        """The identity t = u − 1."""
        return ExpRational.of({Fraction(0): {1: Fraction(1), 0: Fraction(-1)}})

    @staticmethod
    def exp(nu: Fraction | int) -> ExpRational:
        """e^{−νt}."""
        return ExpRational.of({Fraction(nu): {0: Fraction(1)}})

    @staticmethod
    def term(c: Fraction | int, p: int, q: int, nu: Fraction | int) -> ExpRational:
        """c·t^p·e^{−νt}/(1 + t)^q."""
        poly: dict[int, Fraction] = {0: Fraction(c)}
        for _ in range(p):  # × (u − 1)
            nxt: dict[int, Fraction] = {}
            for k, x in poly.items():
                nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + x
                nxt[k] = nxt.get(k, Fraction(0)) - x
            poly = nxt
        return ExpRational.of({Fraction(nu): {k - q: x for k, x in poly.items()}})

    # ---- ring operations ---------------------------------------------------------------------
    def _dict(self) -> dict[Fraction, dict[int, Fraction]]:
        return {nu: dict(lau) for nu, lau in self.parts}

    @staticmethod
    def _lift(x: Any) -> ExpRational:
        if isinstance(x, ExpRational):
            return x
        if isinstance(x, int | Fraction):
            return ExpRational.const(Fraction(x))
        raise TypeError(f"not an exact exponential-rational function: {x!r}")

    def __add__(self, other: Any) -> ExpRational:
        o = self._lift(other)
        out = self._dict()
        for nu, lau in o.parts:
            d = out.setdefault(nu, {})
            for k, c in lau:
                d[k] = d.get(k, Fraction(0)) + c
        return ExpRational.of(out)

    __radd__ = __add__

    def __neg__(self) -> ExpRational:
        return ExpRational(tuple((nu, tuple((k, -c) for k, c in lau)) for nu, lau in self.parts))

    def __sub__(self, other: Any) -> ExpRational:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> ExpRational:
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> ExpRational:
        o = self._lift(other)
        out: dict[Fraction, dict[int, Fraction]] = {}
        for nu, a in self.parts:
            for mu, b in o.parts:
                d = out.setdefault(nu + mu, {})
                for k, c in _lmul(a, b).items():
                    d[k] = d.get(k, Fraction(0)) + c
        return ExpRational.of(out)

    __rmul__ = __mul__

    def monomial(self) -> tuple[Fraction, Fraction, int] | None:
        """(c, ν, k) when self = c·e^{−νt}u^k, else None."""
        if len(self.parts) == 1 and len(self.parts[0][1]) == 1:
            nu, ((k, c),) = self.parts[0]
            return c, nu, k
        return None

    def __truediv__(self, other: Any) -> ExpRational:
        o = self._lift(other)
        mono = o.monomial()
        if mono is None:
            raise ValueError(f"division by {o} leaves the exponential-rational functions")
        c, nu, k = mono
        return ExpRational.of({n - nu: {j - k: x / c for j, x in lau} for n, lau in self.parts})

    def __pow__(self, n: int) -> ExpRational:
        if n < 0:
            return ExpRational.const(1) / (self ** -n)
        out = ExpRational.const(1)
        for _ in range(n):
            out = out * self
        return out

    # ---- analysis ----------------------------------------------------------------------------
    @property
    def is_zero(self) -> bool:
        """f ≡ 0."""
        return not self.parts

    def asymptotic(self) -> tuple[Fraction, int, Fraction] | None:
        """(ν*, e, lc): f(t) = lc·t^e·e^{−ν*t}(1 + o(1)) as t → ∞; None for f ≡ 0."""
        if not self.parts:
            return None
        nu, lau = self.parts[0]
        k, c = lau[-1]
        return nu, k, c

    def decays_at(self, beta: Fraction) -> bool:
        """Whether e^{βt}f(t) → 0 as t → ∞ (exact: ν* > β, or ν* = β and e < 0)."""
        a = self.asymptotic()
        if a is None:
            return True
        nu, e, _ = a
        return nu > beta or (nu == beta and e < 0)

    def bounded(self) -> bool:
        """Whether sup_{t≥0} |f(t)| < ∞ (f is continuous on [0, ∞): decided by its asymptotics)."""
        a = self.asymptotic()
        if a is None:
            return True
        nu, e, _ = a
        return nu > 0 or (nu == 0 and e <= 0)

    def bounded_weighted(self, rate: Fraction) -> bool:
        """Whether sup_{t≥0} e^{rate·t}|f(t)| < ∞."""
        return self.times_exp(rate).bounded()

    def times_exp(self, c: Fraction) -> ExpRational:
        """e^{ct}·f."""
        return ExpRational(tuple((nu - c, lau) for nu, lau in self.parts))

    def exp_factor_over(self, other: ExpRational) -> Fraction | None:
        """The rational c with self = e^{ct}·other exactly, or None (both nonzero)."""
        if self.is_zero or other.is_zero or len(self.parts) != len(other.parts):
            return None
        c = other.parts[0][0] - self.parts[0][0]
        return c if other.times_exp(c) == self else None

    def at_zero(self) -> Fraction:
        """f(0), exactly."""
        return sum((_lval(lau, Fraction(1)) for _, lau in self.parts), Fraction(0))

    def derivative(self) -> ExpRational:
        """df/dt (du/dt = 1)."""
        out: dict[Fraction, dict[int, Fraction]] = {}
        for nu, lau in self.parts:
            d = out.setdefault(nu, {})
            for k, c in lau:
                d[k] = d.get(k, Fraction(0)) - nu * c
                if k:
                    d[k - 1] = d.get(k - 1, Fraction(0)) + k * c
        return ExpRational.of(out)

    def coefficients_at(self, t: Fraction) -> dict[Fraction, Fraction]:
        """{exponent −νt: L_ν(1 + t)} at a rational t ≥ 0: f(t) = Σ e^{exponent}·coefficient, the
        exponents distinct rationals for t > 0 (at t = 0 everything is the one exponent 0)."""
        out: dict[Fraction, Fraction] = {}
        for nu, lau in self.parts:
            e = -nu * t
            out[e] = out.get(e, Fraction(0)) + _lval(lau, 1 + t)
        return {e: c for e, c in out.items() if c != 0}

    def is_zero_at(self, t: Fraction) -> bool:
        """Whether f(t) = 0 at a rational t ≥ 0, exactly (Lindemann–Weierstrass, module
        docstring)."""
        return not self.coefficients_at(Fraction(t))

    def zero_bound(self) -> int:
        """An upper bound on the number of real zeros of a nonzero f (Pólya–Szegő V.75)."""
        lo = min((lau[0][0] for _, lau in self.parts), default=0)
        return sum(lau[-1][0] - min(lo, 0) + 1 for _, lau in self.parts) - 1

    def nonpositive_termwise(self) -> bool:
        """A sufficient condition for f ≤ 0 on [0, ∞): every coefficient of every L_ν is ≤ 0
        (then each term c·e^{−νt}u^k with u ≥ 1 is ≤ 0)."""
        return all(c <= 0 for _, lau in self.parts for _, c in lau)

    def evaluate(self, t: Any, exp: Callable[[Any], Any], one: Any) -> Any:
        """f(t) in another arithmetic (``exp`` its exponential, ``one`` its 1): arb balls, mpmath."""
        u = one + t
        total = one * 0
        for nu, lau in self.parts:
            lsum = one * 0
            for k, c in lau:
                lsum = lsum + (one * c.numerator / c.denominator) * (u ** k if k >= 0 else
                                                                     one / u ** (-k))
            total = total + exp(-(one * nu.numerator / nu.denominator) * t) * lsum
        return total

    def __str__(self) -> str:
        """Σ e^(−νt)·N_ν(t)/(1+t)^Q, N_ν a polynomial in t."""
        if not self.parts:
            return "0"
        out = []
        for nu, lau in self.parts:
            q = max(0, -lau[0][0])
            num: dict[int, Fraction] = {}
            for k, c in lau:  # c·u^(k+q), u = 1 + t, expanded in t
                for j in range(k + q + 1):
                    num[j] = num.get(j, Fraction(0)) + c * math.comb(k + q, j)
            poly = " + ".join(f"{c}" + (f"·t^{j}" if j > 1 else "·t" if j else "")
                              for j, c in sorted(num.items()) if c).replace("+ -", "− ")
            poly = poly or "0"
            body = poly if q == 0 and len([c for c in num.values() if c]) == 1 else f"({poly})"
            if q:
                body += f"/(1+t)^{q}" if q > 1 else "/(1+t)"
            out.append(f"e^(−{nu}t)·{body}" if nu else body)
        return " + ".join(out)


ONE = ExpRational.const(1)


@dataclass(frozen=True)
class ExpRationalArith:
    """The exponential-rational functions as an arithmetic for formulas written once for every
    arithmetic (e.g. 𝒯 of W's proof of Lemma A.10, App. A.10 eq. (106)) (``x.exp``, ``x.log``,
    ``x.one``): ``exp`` of a linear function βt of t (a constant term other than 0 would leave the
    ring: ValueError) and ``log`` of a pure exponential e^{−νt}."""

    one: ExpRational = ONE

    @staticmethod
    def exp(arg: Any) -> ExpRational:
        """e^{arg} for arg = βt (an exact linear function of t without constant term)."""
        a = ExpRational._lift(arg)
        if a.is_zero:
            return ExpRational.const(1)
        if len(a.parts) != 1 or a.parts[0][0] != 0:
            raise ValueError(f"exp({a}) leaves the exponential-rational functions")
        lau = dict(a.parts[0][1])
        if set(lau) - {0, 1}:
            raise ValueError(f"exp({a}) leaves the exponential-rational functions")
        slope = lau.get(1, Fraction(0))
        if lau.get(0, Fraction(0)) + slope != 0:  # c₀ + c₁u = (c₀ + c₁) + c₁t
            raise ValueError(f"exp({a}): a constant term e^c is not exactly representable")
        return ExpRational.exp(-slope)

    @staticmethod
    def log(arg: Any) -> ExpRational:
        """log(e^{−νt}) = −νt."""
        mono = ExpRational._lift(arg).monomial()
        if mono is None or mono[0] != 1 or mono[2] != 0:
            raise ValueError(f"log({arg}) leaves the exponential-rational functions")
        return -mono[1] * ExpRational.t()


def sum_terms(terms: Iterable[tuple[Fraction, int, int, Fraction]]) -> ExpRational:
    """Σ c·t^p·e^{−νt}/(1 + t)^q over (c, p, q, ν) (the terms the W Lemma A.10 search draws)."""
    out = ExpRational()
    for c, p, q, nu in terms:
        out = out + ExpRational.term(c, p, q, nu)
    return out
