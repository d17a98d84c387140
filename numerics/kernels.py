"""Memory kernels ρ of linear functionals H_t(x) = ∫₀^∞ ρ(s)ᵀ x_{t−s} ds (paper W §2.2, eq. (3) of the
ICLR 2024 camera-ready).

A kernel gives ρ(t) ∈ ℝ^d in float64 (numpy), at any precision (mpmath) and, for closed forms,
as a SymPy expression. Parameters are exact rationals so that every arithmetic sees the same kernel
(CLAIMS.md ground rule 4). The built-in closed forms are the targets of W's experiments: exponential
ρ(t) = a^t (App. D, Fig. 1), polynomial ρ(t) = (t + 1)^{−p} (App. D), and sums of exponentials (the
memory of a diagonal linear RNN, and App. C's Σ k^{−2} e^{−t/k}).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np


class Kernel(ABC):
    """ρ: [0, ∞) → ℝ^d, as ``weights · k(t)`` for a scalar profile k (d = len(weights)).

    Domain of the evaluations (:meth:`rho`, :meth:`rho_mp`, :meth:`l1_norm`): real times t ≥ 0
    (+∞ allowed in float64); complex, NaN and negative times raise ValueError. Parameters are
    exact rationals, checked when a kernel is built (each class states its own range).
    """

    weights: tuple[Fraction, ...] = (Fraction(1),)

    @property
    def input_dim(self) -> int:
        return len(self.weights)

    @property
    @abstractmethod
    def description(self) -> str:
        """A short human-readable form, e.g. ``ρ(t) = 0.9^t``."""

    @abstractmethod
    def profile(self, t: np.ndarray) -> np.ndarray:
        """The scalar profile k(t) in float64."""

    @abstractmethod
    def profile_mp(self, t: Any, ctx: Any) -> Any:
        """The scalar profile k(t) in the mpmath context ``ctx``."""

    def profile_sympy(self, t: Any) -> Any:
        """k(t) as a SymPy expression in the symbol ``t`` (closed forms only)."""
        raise NotImplementedError(f"{self.description} has no closed form")

    def rho(self, t: np.ndarray) -> np.ndarray:
        """ρ(t) with shape (len(t), d); t real, ≥ 0 (ValueError otherwise)."""
        from recmem.numerics.validate import real_vector

        t = real_vector(t, "ρ's argument t", nonnegative=True, allow_inf=True)
        w = np.array([float(v) for v in self.weights])
        return np.outer(self.profile(t), w)

    def rho_mp(self, t: Any, ctx: Any) -> list[Any]:
        """ρ(t) ∈ ℝ^d at the precision of ``ctx``; t real, ≥ 0 (ValueError otherwise)."""
        if isinstance(t, complex) or (hasattr(t, "imag") and t.imag != 0):
            raise ValueError(f"complex entries are not supported: ρ's argument t = {t!r}")
        tt = ctx.mpf(t)
        if ctx.isnan(tt) or tt < 0:
            raise ValueError(f"ρ is defined for real t ≥ 0, got t = {t!r}")
        k = self.profile_mp(tt, ctx)
        return [ctx.mpf(w.numerator) / w.denominator * k for w in self.weights]

    def l1_norm(self, t: np.ndarray) -> np.ndarray:
        """|ρ(t)|₁: the memory function of the linear functional (W §3.1, eq. (4))."""
        return np.abs(self.rho(t)).sum(axis=1)

    def decay(self) -> tuple[str, float] | None:
        """The known decay class (``exponential``, rate) or (``polynomial``, exponent), if any."""
        return None


@dataclass(frozen=True)
class ExponentialKernel(Kernel):
    """k(t) = a^t with 0 < a < 1: exponential decay at rate ln(1/a) (W App. D, `exp:0.9`).

    Domain: 0 < a < 1 (ValueError otherwise).
    """

    base: Fraction
    weights: tuple[Fraction, ...] = (Fraction(1),)

    def __post_init__(self) -> None:
        if not 0 < self.base < 1:
            raise ValueError(f"ExponentialKernel needs 0 < a < 1 (a decaying kernel), got {self.base}")

    @property
    def description(self) -> str:
        return f"ρ(t) = {self.base}^t"

    def profile(self, t: np.ndarray) -> np.ndarray:
        return np.power(float(self.base), t)

    def profile_mp(self, t: Any, ctx: Any) -> Any:
        return ctx.power(ctx.mpf(self.base.numerator) / self.base.denominator, t)

    def profile_sympy(self, t: Any) -> Any:
        import sympy

        return sympy.Rational(self.base.numerator, self.base.denominator) ** t

    def decay(self) -> tuple[str, float]:
        return ("exponential", float(mpmath.log(mpmath.mpf(self.base.denominator) / self.base.numerator)))


@dataclass(frozen=True)
class PolynomialKernel(Kernel):
    """k(t) = (t + 1)^{−p}: polynomial decay with exponent p (W App. D, `poly:1.1`).

    Domain: p > 0 (ValueError otherwise; integrable for p > 1, the range :func:`parse_kernel` asks).
    """

    exponent: Fraction
    weights: tuple[Fraction, ...] = (Fraction(1),)

    def __post_init__(self) -> None:
        if not self.exponent > 0:
            raise ValueError(f"PolynomialKernel needs p > 0 (a decaying kernel), got {self.exponent}")

    @property
    def description(self) -> str:
        return f"ρ(t) = (t + 1)^-{self.exponent}"

    def profile(self, t: np.ndarray) -> np.ndarray:
        return np.power(t + 1.0, -float(self.exponent))

    def profile_mp(self, t: Any, ctx: Any) -> Any:
        return ctx.power(t + 1, -ctx.mpf(self.exponent.numerator) / self.exponent.denominator)

    def profile_sympy(self, t: Any) -> Any:
        import sympy

        return (t + 1) ** (-sympy.Rational(self.exponent.numerator, self.exponent.denominator))

    def decay(self) -> tuple[str, float]:
        return ("polynomial", float(self.exponent))


@dataclass(frozen=True)
class ExpSumKernel(Kernel):
    """k(t) = Σ_i c_i e^{−r_i t}: the memory of a diagonal linear RNN (W §2, App. C).

    Domain: as many rational coefficients as rates, at least one (ValueError otherwise); any real
    rates (a negative rate is a growing term). :meth:`decay` is None when every c_i = 0.
    """

    coeffs: tuple[Fraction, ...]
    rates: tuple[Fraction, ...]
    weights: tuple[Fraction, ...] = (Fraction(1),)

    def __post_init__(self) -> None:
        if len(self.coeffs) != len(self.rates) or not self.coeffs:
            raise ValueError("an exponential sum needs as many coefficients as rates (at least one)")

    @property
    def description(self) -> str:
        terms = " + ".join(f"{c}·e^(-{r}t)" for c, r in zip(self.coeffs, self.rates, strict=True))
        return f"ρ(t) = {terms}"

    def profile(self, t: np.ndarray) -> np.ndarray:
        c = np.array([float(v) for v in self.coeffs])
        r = np.array([float(v) for v in self.rates])
        return np.exp(-np.outer(t, r)) @ c

    def profile_mp(self, t: Any, ctx: Any) -> Any:
        return ctx.fsum(ctx.mpf(c.numerator) / c.denominator
                        * ctx.exp(-ctx.mpf(r.numerator) / r.denominator * t)
                        for c, r in zip(self.coeffs, self.rates, strict=True))

    def profile_sympy(self, t: Any) -> Any:
        import sympy

        return sum((sympy.Rational(c.numerator, c.denominator)
                    * sympy.exp(-sympy.Rational(r.numerator, r.denominator) * t)
                    for c, r in zip(self.coeffs, self.rates, strict=True)), sympy.Integer(0))

    def decay(self) -> tuple[str, float] | None:
        live = [r for r, c in zip(self.rates, self.coeffs, strict=True) if c != 0]
        return ("exponential", float(min(live))) if live else None


@dataclass(frozen=True)
class SampledKernel(Kernel):
    """k given by samples on a grid, linearly interpolated (no closed form, no symbolic side).

    Domain: ≥ 2 finite real samples at strictly increasing finite times (ValueError otherwise).
    """

    t_samples: tuple[float, ...]
    values: tuple[float, ...]
    weights: tuple[Fraction, ...] = (Fraction(1),)

    def __post_init__(self) -> None:
        if len(self.t_samples) != len(self.values) or len(self.values) < 2:
            raise ValueError("a sampled kernel needs matching time and value arrays of length ≥ 2")
        if not (np.all(np.isfinite(self.t_samples)) and np.all(np.isfinite(self.values))):
            raise ValueError("a sampled kernel needs finite sample times and values")
        if np.any(np.diff(self.t_samples) <= 0):
            raise ValueError("sample times must increase")

    @property
    def description(self) -> str:
        return f"ρ sampled at {len(self.values)} points on [{self.t_samples[0]}, {self.t_samples[-1]}]"

    def profile(self, t: np.ndarray) -> np.ndarray:
        return np.interp(t, self.t_samples, self.values)

    def profile_mp(self, t: Any, ctx: Any) -> Any:
        return ctx.mpf(float(np.interp(float(t), self.t_samples, self.values)))


def parse_rational_list(text: str) -> tuple[Fraction, ...]:
    """``'1,1/2,3'`` → (1, 1/2, 3)."""
    try:
        return tuple(Fraction(v) for v in text.split(",") if v.strip())
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not a comma-separated list of rationals: {text!r}") from exc


def parse_kernel(text: str) -> Kernel:
    """A kernel from ``exp:A`` (0 < A < 1), ``poly:P`` (P > 1), ``expsum:C1,…;R1,…`` (R_i > 0).

    ValueError with a one-line reason for anything else.
    """
    kind, _, arg = text.partition(":")
    if kind == "exp":
        (a,) = _one(arg, text)
        if not 0 < a < 1:
            raise ValueError(f"exp:A needs 0 < A < 1 (a decaying kernel), got {a}")
        return ExponentialKernel(a)
    if kind == "poly":
        (p,) = _one(arg, text)
        if p <= 1:
            raise ValueError(f"poly:P needs P > 1 (an integrable kernel, W App. D), got {p}")
        return PolynomialKernel(p)
    if kind == "expsum":
        coeffs, _, rates = arg.partition(";")
        c, r = parse_rational_list(coeffs), parse_rational_list(rates)
        if any(v <= 0 for v in r):
            raise ValueError(f"expsum rates must be positive, got {', '.join(map(str, r))}")
        return ExpSumKernel(c, r)
    raise ValueError(f"unknown kernel {text!r}: expected exp:A, poly:P or expsum:C1,…;R1,…")


def _one(arg: str, text: str) -> Sequence[Fraction]:
    vals = parse_rational_list(arg)
    if len(vals) != 1:
        raise ValueError(f"{text!r}: expected exactly one number after the colon")
    return vals
