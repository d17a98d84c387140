"""What paper W's stability claims share (W.perturbation, W.stable-exp, W.theorem and their
readings and findings); the statements themselves are in :mod:`recmem.theory.stability`.

- parameters (kernels, β lists, norms);
- the closed-form cases of Def. 3.4's supremum (eq. (9)): the 1-unit linear RNN ρ̂(t) = c·u·e^{wt}
  under box perturbations (:class:`ScalarCase`, sup at a corner) and readout perturbations of a
  diagonal linear RNN (:class:`ReadoutCase`, A.8 eqs. (33)–(34));
- the exact approximant sequence of an exponential-sum kernel and its proven perturbation bound
  (:func:`exact_sequence`, :func:`stability_bound`);
- ball-arithmetic helpers (sup of |differences| as a ball) and the memo of statement-independent
  study data (:func:`data`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import mpmath
import numpy as np

from recmem.checks.argtypes import brief
from recmem.checks.claim import Param, parse_int
from recmem.checks.claims.paper_o._studies import Listed, parse_fractions, shared
from recmem.numerics.certified import fixed_context
from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel, Kernel, parse_kernel
from recmem.numerics.perturbation import Grid, LinearTarget, Theta
from recmem.theory.stability import PerturbationSup

T = TypeVar("T")

# c of the c·n·κ·u policy (the project's default in checks.numeric.identity_check).
C_TOL = 4.0


# ---- parameters ----------------------------------------------------------------------------------
def _kernel_text(text: str) -> str:
    parse_kernel(str(text))  # validates; the claim keeps the text (it prints as given)
    return str(text)


def kernel_param(name: str, default: str, help: str) -> Param:
    """A kernel spec (exp:A, poly:P, expsum:C…;R…), validated by :func:`parse_kernel`."""
    return Param(name, default, help, _kernel_text)


def fractions_param(name: str, default: Sequence[Fraction], help: str, nonneg: bool = True) -> Param:
    return Param(name, Listed(Fraction(v) for v in default), help, parse_fractions,
                 check=(lambda v: None if all(x >= 0 for x in v) else "entries must be ≥ 0")
                 if nonneg else None)


# the exponents i of β = β₀·2^i stay at most this (β₀·2^64 is far past every perturbation studied)
MAX_EXPONENT = 64


def parse_exponents(text: str) -> tuple[int, ...]:
    """'0-20' → 0, 1, …, 20; '0,2,5' → 0, 2, 5 (increasing, distinct)."""
    text = str(text).replace(" ", "")
    if "-" in text and "," not in text:
        lo, hi = (parse_int(v) for v in text.split("-"))
        if not 0 <= lo <= hi <= MAX_EXPONENT:  # checked before the range is built
            raise ValueError(f"expected a range within 0-{MAX_EXPONENT}, got {brief(text)}")
        vals = list(range(lo, hi + 1))
    else:
        vals = [parse_int(v) for v in text.split(",") if v]
    if not vals or vals != sorted(set(vals)):
        raise ValueError(f"expected increasing exponents like '0-20' or '0,2,4', got {text!r}")
    return Listed(vals)


def exponents_param(name: str, default: str, help: str) -> Param:
    return Param(name, parse_exponents(default), help, parse_exponents, max=MAX_EXPONENT)


def norm_param(default: str) -> Param:
    return Param("norm", default, "error norm: memory (sup_t |Δ rate|), output (sup_t |Δ output|) or "
                 "sobolev (both, Def. 3.7 eq. (11)), over Heaviside inputs on the grid", str,
                 choices=("memory", "output", "sobolev"))


def beta_list(base: Fraction, exponents: Sequence[int]) -> tuple[Fraction, ...]:
    """(0, base·2^i for i in exponents): the paper's β lists (App. D)."""
    return (Fraction(0), *(base * Fraction(2) ** i for i in exponents))


def dyadic_check(v: Fraction) -> str | None:
    """Parameters of a float64 model must be exactly representable (dyadic, ≤ 53 bits)."""
    return None if float(v) == v else f"{v} is not exactly representable in float64 (use a dyadic)"


def fmt(x: Any) -> str:
    """A short decimal for floats, mpf and arb midpoints."""
    if hasattr(x, "mid") and hasattr(x, "rad"):
        return x.mid().str(4, radius=False)
    v = float(x)
    return "inf" if math.isinf(v) else ("nan" if math.isnan(v) else f"{v:.4g}")


# ---- balls ---------------------------------------------------------------------------------------
def sup_ball(values: Sequence[Any]) -> Any:
    """A ball containing max_i values_i (arb)."""
    out = values[0]
    for v in values[1:]:
        out = out.max(v)
    return out


_CTX64 = mpmath.MPContext()
_CTX64.prec = 64  # one context: creating one costs ~0.3 ms, more than the conversion


def ball_upper(x: Any) -> mpmath.mpf:
    """The upper end of an arb ball as an mpf (outward by one unit in the last place)."""
    from recmem.numerics.flint_backend import arb_upper

    return mpmath.mpf(arb_upper(x, _CTX64))


def ball_lower(x: Any) -> mpmath.mpf:
    return -ball_upper(-x)


# ---- the closed-form cases of eq. (9)'s supremum (W.perturbation) --------------------------------
class _KernelOnUnitGrid:
    """The target kernel ρ on the unit-step grid 1, 2, …, T that both cases are compared on."""

    kernel: Kernel
    T: int

    @property
    def grid(self) -> Grid:
        return Grid(Fraction(1), Fraction(1), self.T)

    @property
    def target(self) -> LinearTarget:
        return LinearTarget(self.kernel)


@dataclass(frozen=True)
class ScalarCase(_KernelOnUnitGrid):
    """Target ρ (one-input kernel) against the 1-unit linear RNN ρ̂(t) = c·u·e^{wt} (b = 0, not
    perturbed: the linear-RNN hypothesis space); grid t = 1, …, T.

    Every block is 1×1, so every norm's β-ball is the box |δw|, |δu|, |δc| ≤ β. φ =
    (c+δc)(u+δu)e^{(w+δw)t} is bilinear in (δc, δu) and monotone in δw, and so is ∫₀ᵗφ, so
    sup_box |ρ(t) − φ(t)| is attained at one of the 8 corners (:func:`theory.stability.corner_proof`).
    The ``corner_sup_*`` methods evaluate that max over the corners of a box of half-width h — the
    statement's closed form with h = coefficient·β — in each arithmetic, by direct exponentials.
    """

    kernel: Kernel
    w: Fraction
    u: Fraction
    c: Fraction
    T: int
    norm: str = "memory"

    def __post_init__(self) -> None:
        if self.norm not in ("memory", "output"):
            raise ValueError("the scalar closed form is exact for the memory and output norms only")


    @property
    def theta(self) -> Theta:
        return Theta.linear([[float(self.w)]], [float(self.u)], [float(self.c)])

    def corners(self, h: Fraction) -> list[tuple[Fraction, Fraction, Fraction]]:
        return [(self.w + sw * h, self.u + su * h, self.c + sc * h)
                for sw in (-1, 1) for su in (-1, 1) for sc in (-1, 1)]

    def corner_sup_numpy(self, h: Fraction) -> float:
        t = self.grid.values
        ref = (self.target.rate_numpy(t) if self.norm == "memory" else self.target.out_numpy(t))
        best = 0.0
        for w, u, c in self.corners(h):
            e = np.exp(float(w) * t)
            val = e if self.norm == "memory" else (np.expm1(float(w) * t) / float(w) if w else t)
            best = max(best, float(np.max(np.abs(ref - float(c) * float(u) * val))))
        return best

    def corner_sup_mp(self, h: Fraction, ctx: Any) -> Any:
        q = lambda v: ctx.mpf(v.numerator) / v.denominator  # noqa: E731
        best = ctx.zero
        for k in self.grid.exact:
            tt = q(k)
            ref = self.target.rate_mp(k, ctx) if self.norm == "memory" else self.target.out_mp(k, ctx)
            for w, u, c in self.corners(h):
                val = (ctx.exp(q(w) * tt) if self.norm == "memory"
                       else (ctx.expm1(q(w) * tt) / q(w) if w else tt))
                best = max(best, abs(ref - q(c) * q(u) * val))
        return best

    def corner_sup_arb(self, h: Fraction) -> Any:
        """A ball containing the corner max (current flint precision)."""
        import flint

        q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))  # noqa: E731
        vals = []
        for k in self.grid.exact:
            tt = q(k)
            ref = self.target.rate_arb(k) if self.norm == "memory" else self.target.out_arb(k)
            for w, u, c in self.corners(h):
                val = ((q(w) * tt).exp() if self.norm == "memory"
                       else ((q(w) * tt).expm1() / q(w) if w else tt))
                vals.append(abs(ref - q(c) * q(u) * val))
        return sup_ball(vals)

    def scale(self, h: Fraction) -> float:
        """sup_t (|ρ(t)| + max over the box of |φ(t)|): the size of the numbers whose difference
        is the error (rounding is relative to it)."""
        t = self.grid.values
        ref = self.target.rate_numpy(t) if self.norm == "memory" else self.target.out_numpy(t)
        big = max(abs(float(c) * float(u)) * float(np.exp(float(w) * t).max())
                  * (float(t.max()) if self.norm == "output" else 1.0) for w, u, c in self.corners(h))
        return float(np.abs(ref).max() + big)

    def describe(self) -> str:
        return (f"target {self.kernel.description} vs ρ̂(t) = c·u·e^(wt) with w = {self.w}, "
                f"u = {self.u}, c = {self.c}; t = 1…{self.T}; {self.norm} norm")


# The readout case: a diagonal linear RNN with distinct rates, all units driven and read (dyadic).
READOUT_RATES = (Fraction(1, 8), Fraction(1, 2), Fraction(1))
READOUT_C = (Fraction(3, 4), Fraction(1, 4), Fraction(-1, 8))


@dataclass(frozen=True)
class ReadoutCase(_KernelOnUnitGrid):
    """A width-m diagonal linear RNN W = −diag(r), U = 1, readout c, against a target kernel on
    t = 1, …, T, with only c perturbed (A.8 eq. (33), A.9 eq. (54)). The error e(t) = ρ̂(t) − ρ(t)
    is linear in Δc with gradient g(t) = e^{Wt}U (memory norm; ∫₀ᵗe^{Ws}ds U for the output
    norm), so the statement's closed form sup_t (|e(t)| + coefficient·β·|g(t)|_q) is evaluated
    here by direct exponentials, independently of the estimator's matrix exponentials."""

    kernel: Kernel
    T: int
    norm: str = "memory"
    rates: tuple[Fraction, ...] = READOUT_RATES
    c: tuple[Fraction, ...] = READOUT_C


    @property
    def theta(self) -> Theta:
        return Theta.linear(-np.diag([float(r) for r in self.rates]), [1.0] * len(self.rates),
                            [float(v) for v in self.c])

    def _terms(self, k: Fraction, exp: Any, expm1: Any, q: Any) -> list[Any]:
        tt = q(k)
        if self.norm == "memory":
            return [exp(-q(r) * tt) for r in self.rates]
        return [-expm1(-q(r) * tt) / q(r) for r in self.rates]

    def bound_numpy(self, law: PerturbationSup, beta: Fraction) -> float:
        t = self.grid.values
        ref = self.target.rate_numpy(t) if self.norm == "memory" else self.target.out_numpy(t)
        best = 0.0
        for i, k in enumerate(self.grid.exact):
            g = self._terms(k, math.exp, math.expm1, float)
            e = sum(float(c) * v for c, v in zip(self.c, g, strict=True)) - float(ref[i])
            best = max(best, float(law.readout_bound(e, g, float(beta), math.sqrt)))
        return best

    def bound_mp(self, law: PerturbationSup, beta: Fraction, ctx: Any) -> Any:
        q = lambda v: ctx.mpf(v.numerator) / v.denominator  # noqa: E731
        best = ctx.zero
        for k in self.grid.exact:
            g = self._terms(k, ctx.exp, ctx.expm1, q)
            ref = self.target.rate_mp(k, ctx) if self.norm == "memory" else self.target.out_mp(k, ctx)
            e = ctx.fsum(q(c) * v for c, v in zip(self.c, g, strict=True)) - ref
            best = max(best, law.readout_bound(e, g, q(beta), ctx.sqrt,
                                               coef=q(law.coefficient)))
        return best

    def bound_arb(self, law: PerturbationSup, beta: Fraction) -> Any:
        import flint

        q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))  # noqa: E731
        vals = []
        for k in self.grid.exact:
            g = self._terms(k, lambda x: x.exp(), lambda x: x.expm1(), q)
            ref = self.target.rate_arb(k) if self.norm == "memory" else self.target.out_arb(k)
            e = sum((q(c) * v for c, v in zip(self.c, g, strict=True)), flint.arb(0)) - ref
            vals.append(law.readout_bound(e, g, q(beta), lambda x: x.sqrt(),
                                          lambda x, y: x.max(y), coef=q(law.coefficient)))
        return sup_ball(vals)

    def scale(self) -> float:
        """sup_t (|ρ(t)| + Σ|c_i g_i(t)|) + Σ|g|: the size of the cancelling terms."""
        t = self.grid.values
        ref = self.target.rate_numpy(t) if self.norm == "memory" else self.target.out_numpy(t)
        g = np.array([self._terms(k, math.exp, math.expm1, float) for k in self.grid.exact])
        return float(np.max(np.abs(ref) + np.abs(g) @ np.abs([float(c) for c in self.c])
                            + np.abs(g).sum(axis=1)))

    def grad_size(self) -> float:
        """max_t |g(t)|₂ (the attainment tolerance scales with β times it)."""
        g = np.array([self._terms(k, math.exp, math.expm1, float) for k in self.grid.exact])
        return float(np.max(np.linalg.norm(g, axis=1)))

    def describe(self) -> str:
        return (f"target {self.kernel.description} vs W = −diag({', '.join(map(str, self.rates))}), "
                f"U = 1, c = ({', '.join(map(str, self.c))}), only c perturbed; t = 1…{self.T}; "
                f"{self.norm} norm")


# ---- the exact (stable) approximant sequence of an exponential-sum kernel --------------------
def realisation(kernel: Kernel) -> tuple[list[float], list[float]]:
    """(rates r_i, coefficients c_i) with ρ(t) = Σ c_i e^{−r_i t}: the kernels a linear RNN realises
    exactly (a^t has r = ln(1/a), rounded to float64). ValueError for other kernels."""
    w = float(kernel.weights[0])
    if isinstance(kernel, ExponentialKernel):
        return [math.log(1 / float(kernel.base))], [w]
    if isinstance(kernel, ExpSumKernel):
        return [float(r) for r in kernel.rates], [w * float(c) for c in kernel.coeffs]
    raise ValueError(f"{kernel.description} is not a finite exponential sum: no exact linear RNN")


def realisation_offset(kernel: Kernel) -> float:
    """|θ_float − θ_exact|₂ of the float64 realisation (rates like ln(1/a) are rounded): the
    float64 model lies in this ball around the exact one, so its errors obey B(β + offset)."""
    ctx = fixed_context(128)
    rates, coeffs = realisation(kernel)
    w = ctx.mpf(kernel.weights[0].numerator) / kernel.weights[0].denominator
    if isinstance(kernel, ExponentialKernel):
        exact_r = [ctx.log(ctx.mpf(kernel.base.denominator) / kernel.base.numerator)]
        exact_c = [w]
    else:
        assert isinstance(kernel, ExpSumKernel)
        exact_r = [ctx.mpf(r.numerator) / r.denominator for r in kernel.rates]
        exact_c = [w * ctx.mpf(c.numerator) / c.denominator for c in kernel.coeffs]
    d_w = max(abs(ctx.mpf(a) - b) for a, b in zip(rates, exact_r, strict=True))  # diagonal: ‖·‖₂
    d_c = ctx.sqrt(ctx.fsum((ctx.mpf(a) - b) ** 2 for a, b in zip(coeffs, exact_c, strict=True)))
    return float(max(d_w, d_c)) * (1 + 2.0**-50)


def exact_sequence(kernel: Kernel, m: int) -> Theta:
    """Width-m exact approximant: W = diag(−r_1, …, −r_K, α, …, α) with α = −min r_i (padding
    units idle: U = c = 0 there), U = 1, c = coefficients. ρ̂ = ρ for every m ≥ K."""
    rates, coeffs = realisation(kernel)
    k = len(rates)
    if m < k:
        raise ValueError(f"width {m} < {k} exponentials of the kernel")
    alpha = -min(rates)
    W = np.diag([-r for r in rates] + [alpha] * (m - k))
    return Theta.linear(W, [1.0] * k + [0.0] * (m - k), coeffs + [0.0] * (m - k))


def stability_bound(C: float, V: float, a: float, beta: float, norm: str, step: float = 1.0) -> float:
    """The proven bound B(β) ≥ E_m(β) of the exact sequence (any m; see
    :func:`recmem.theory.stability.exp_half_proof`): C = ‖c‖₂, V = ‖U‖₂, a = −max eig W > β; inf
    for β ≥ a (outside the stability radius). The pointwise bound is g(t) = (β(C+V) + β²)e^{−dt} +
    CV(e^{−dt} − e^{−at}), d = a − β: its sup (memory), its integral (output, and the L¹ norm), and
    for ``l1`` on the grid t_k = kΔ (k ≥ 1) its Riemann sum, ≤ the integral plus Δ·max of the
    unimodal second term (the first term decreases: its sum is ≤ its integral)."""
    if beta >= a:
        return math.inf
    d = a - beta
    sup_part = beta * (C + V) + beta**2 + C * V * beta / d
    int_part = (beta * (C + V) + beta**2) / d + C * V * (1 / d - 1 / a)
    return {"memory": sup_part, "output": int_part, "sobolev": sup_part + int_part,
            "l1": int_part + step * C * V * beta / d}[norm]


# ---- statement-independent study data, shared by a statement and its controls -----------------
def data(key: Hashable, make: Callable[[], T]) -> tuple[T, float]:
    """``make()`` computed once per ``key`` (:func:`paper_o._studies.shared`, an LRU memo): only
    for data that do not depend on the statement under test (fits, perturbation samples, RK4
    errors); ``key`` holds every parameter, the seed, the arithmetic and the norm. The statement
    and each of its controls are judged afresh on the same data."""
    return shared(("paper_w.stability", key), make)


# ---- evidence that is not about the statement ------------------------------------------------------

