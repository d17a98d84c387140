"""L App. E.2, "Benefits of exponential parameterization": the learning-powers problem (k = 100).

Statements in :mod:`recmem.theory.lru_toy_opt`. Sides: SymPy (general in ν, θ, and in k for the
gradient); numerics in numpy/torch (float64, float32) and mpmath: λ^k and the gradient of
L = ½|λ^k − (λ*)^k|² by repeated multiplication with forward-mode derivatives
(:mod:`recmem.numerics.lru_powers`, the definition) against the statement's formula; search:
exact SymPy judges at ν rational, θ a rational multiple of π.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.lru_powers import loss_gradient, power_with_derivatives, standard_power_derivatives
from recmem.numerics.scalars import Scalars
from recmem.theory.lru_toy_opt import (
    PhaseGradient,
    PowerReal,
    StandardCoupling,
    coupling_proof,
    phase_gradient_instance,
    phase_gradient_proof,
    power_real_instance,
    power_real_proof,
)

WHERE = "App. E.2, Benefits of exponential parameterization"
Q_LOSS = (r"we consider the problem of minimizing the loss $L(\hat{\lambda})=\frac{1}{2}|\hat{\lambda}^{k}"
          r"-(\lambda^{*})^{k}|^{2}$, where $k=100$ and $\hat{\lambda}$ is generated from two real "
          r"parameters following standard ( real + imaginary) or exponential parameterization.")
Q_REAL = (r"for example, while the real part of $\lambda^{k}$ is simply $\exp(-k\nu)$ using exponential "
          r"parameterization, if standard parameterization is used, $\text{Re}\left[\lambda^{k}\right]$ "
          r"is a function of both $\lambda_{r}$ and $\lambda_{i}$.")
Q_TURN = (r"i.e. the initialization magnitude is correct, but the position on the complex plane is not "
          r"(this is the precise setting for Figure 8): while for standard parameterization changing "
          r"the phase $\theta^{*}$ requires a careful balance between real and imaginary components, "
          r"for exponential parameterization gradients are fully aligned with the phase parameter.")

# (ν, θ) instances of the numeric check: |cos(100θ)| ≥ 0.14 at each, so Re λ^k is not a
# cancellation (κ below is computed from them in high precision)
POWER_POINTS = ((Fraction(0), Fraction(1, 7)), (Fraction(1, 1000), Fraction(3, 2)),
                (Fraction(1, 200), Fraction(1, 3)))
# (ν* = ν, θ*, kΔ) instances of the gradient check
GRAD_POINTS = ((Fraction(0), Fraction(0), Fraction(1, 2)), (Fraction(1, 200), Fraction(3, 2), Fraction(1)),
               (Fraction(1, 100), Fraction(1, 3), Fraction(5, 2)))
STD_POINT = (Fraction(9, 10), Fraction(1, 5))  # (λ_r, λ_i) where both derivatives are probed


def _scalars(backend: AbstractBackend) -> Scalars:
    if backend.spec.kind not in ("numpy", "torch", "mpmath"):
        raise BackendUnavailable(f"{backend.name}: these checks run in numpy, torch and mpmath")
    return Scalars(backend)


def _fns(s: Scalars) -> tuple[Any, Any, Any]:
    return (lambda v: s.fn("exp", v)), (lambda v: s.fn("cos", v)), (lambda v: s.fn("sin", v))


def power_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Re λ^k by 99 multiplications (the definition) against the statement's Re λ^k."""
    law, s = ctx.law(PowerReal), _scalars(backend)
    exp, cos, sin = _fns(s)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        sc = _scalars(bk)
        e, c, si = _fns(sc)
        pts = [(sc.num(n), sc.num(t)) for n, t in POWER_POINTS]
        lhs = [power_with_derivatives(n, t, law.k, e, c, si)[0][0] for n, t in pts]
        return bk.vector_of(lhs), bk.vector_of([law.formula(n, t, e, c) for n, t in pts])

    del exp, cos, sin
    # κ: |λ^k| / |Re λ^k| (the rounding of the product is relative to the modulus), from mpmath
    kappa = max(1 / abs(mpmath.cos(law.k * mpmath.mpf(t.numerator) / t.denominator))
                for _, t in POWER_POINTS)
    return [identity_check("Re λ^k by repeated multiplication against the statement's formula",
                           backend, compute, n=law.k, kappa=kappa, instances=len(POWER_POINTS),
                           instance={"(ν, θ)": [f"({n}, {t})" for n, t in POWER_POINTS], "k": law.k})]


def gradient_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """∇L at ν = ν* by forward-mode differentiation of the repeated product (the definition)
    against the statement's gradient."""
    law = ctx.law(PhaseGradient)
    _scalars(backend)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        sc = _scalars(bk)
        e, c, si = _fns(sc)
        lhs, rhs = [], []
        for nu, ths, kd in GRAD_POINTS:
            n, t_s, d = sc.num(nu), sc.num(ths), sc.num(kd / law.k)
            _, g_nu, g_th = loss_gradient(n, t_s + d, n, t_s, law.k, e, c, si)
            lhs += [g_nu, g_th]
            rhs += list(law.gradient(n, d, e, c, si))
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # κ: the products carry k·u relative to |λ|^(2k); the gradient is k e^(−2kν)·O(sin(kΔ/2))
    kappa = law.k / min(abs(mpmath.sin(mpmath.mpf(kd.numerator) / kd.denominator / 2))
                        for _, _, kd in GRAD_POINTS)
    return [identity_check("∇L by forward-mode differentiation against the statement's gradient",
                           backend, compute, n=2 * law.k, kappa=kappa, instances=len(GRAD_POINTS),
                           instance={"(ν* = ν, θ*, kΔ)": [str(p) for p in GRAD_POINTS],
                                     "k": law.k})]


def coupling_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """∂/∂λ_r and ∂/∂λ_i of Re λ^k at one point by forward mode: both must exceed their rounding
    bound (residual: the bound; tolerance: the smaller derivative)."""
    law, s = ctx.law(StandardCoupling), _scalars(backend)
    t0 = time.perf_counter()
    a, b = (s.num(v) for v in STD_POINT)
    _, d_a, d_b = standard_power_derivatives(a, b, law.k)
    smaller = min(abs(float(d_a[0])), abs(float(d_b[0])))
    # k products, each with relative rounding ≤ 4u of |λ|^k·k (forward mode)
    modulus = abs(complex(*map(float, STD_POINT)))
    bound = 4 * law.k * law.k * float(backend.unit_roundoff) * modulus ** max(law.k - 1, 0)
    ok = smaller > bound
    return [Evidence(check="∂Re λ^k/∂λ_r and ∂Re λ^k/∂λ_i at (9/10, 1/5), forward mode",
                     kind="numeric", backend=backend.name, outcome=Outcome.PASS if ok else Outcome.FAIL,
                     precision_bits=backend.precision_bits, residual=f"{bound:.3g}",
                     tolerance=f"{smaller:.3g}", tolerance_source="4k²u|λ|^(k−1) (forward mode)",
                     seconds=time.perf_counter() - t0,
                     message="" if ok else "a partial derivative vanishes at the probe point",
                     data={"∂/∂λ_r": f"{float(d_a[0]):.6g}", "∂/∂λ_i": f"{float(d_b[0]):.6g}"})]


def coupling_strategy(ctx: Context) -> Any:
    """Which coordinate is held fixed (λ_r or λ_i) and its rational value."""
    from hypothesis import strategies as st

    values = st.fractions(min_value=-4, max_value=4, max_denominator=16)
    return st.tuples(st.sampled_from(("λ_r", "λ_i")), values)


def coupling_holds(inst: tuple[str, Fraction], ctx: Context) -> Instance:
    """Exact: with one coordinate held at c, Re[(λ_r + iλ_i)^k] as a polynomial in the other is
    not constant (binomial expansion in ℚ: Re = Σ_(j even) C(k, j)(−1)^(j/2) λ_r^(k−j) λ_i^j)."""
    from math import comb

    fixed, c = inst
    k = ctx.law(StandardCoupling).k
    # coefficient of the free variable's power p ≥ 1 (the polynomial is constant iff all vanish)
    coeffs: dict[int, Fraction] = {}
    for j in range(0, k + 1, 2):
        term = Fraction(comb(k, j) * (-1) ** (j // 2))
        power, other = (j, k - j) if fixed == "λ_r" else (k - j, j)
        coeffs[power] = coeffs.get(power, Fraction(0)) + term * c**other
    varies = any(v != 0 for p, v in coeffs.items() if p >= 1)
    free = "λ_i" if fixed == "λ_r" else "λ_r"
    return Instance(varies, "exact rational arithmetic (binomial coefficients)",
                    {"k": k, "held": f"{fixed} = {c}", "free": free,
                     "nonzero coefficients of the free variable's powers ≥ 1":
                         sum(1 for p, v in coeffs.items() if p >= 1 and v != 0)},
                    "" if varies else f"Re[λ^{k}] does not depend on {free} at {fixed} = {c}")


def _symbolic(proof: Any) -> Any:
    def side(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [from_proof(proof(ctx.statement), time.perf_counter() - t0)]
    return side


def _points() -> Any:
    """ν ∈ [0, 1/10] rational (0 included) and r ∈ [−4, 4] with denominator 1, 2, 3, 4, 6 or 12,
    θ = rπ/k (or Δ = rπ/k), so that kθ = rπ has an exact cosine: r = 0 (where the printed
    statement holds) and r = 1 (λ^100 = −1 at ν = 0) are among them."""
    from hypothesis import strategies as st

    nus = st.one_of(st.just(Fraction(0)), st.builds(Fraction, st.integers(0, 100), st.just(1000)))
    turns = st.builds(Fraction, st.integers(-48, 48), st.sampled_from([1, 2, 3, 4, 6, 12]))
    return st.tuples(nus, turns)


def power_holds(inst: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact (SymPy) at ν and θ = rπ/k."""
    ok, values = power_real_instance(ctx.law(PowerReal), *inst)
    return Instance(ok, "exact: SymPy (cos of a rational multiple of π; 60-digit strict evalf "
                    "for a nonzero difference)", values, "" if ok is not False else "Re[λ^k] differs")


def gradient_holds(inst: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact (SymPy) at ν = ν* and Δ = rπ/k."""
    ok, values = phase_gradient_instance(ctx.law(PhaseGradient), *inst)
    return Instance(ok, "exact: SymPy derivatives of the loss at the point", values,
                    "" if ok is not False else "the gradient differs")


TOL = ("SymPy exact; numpy/torch/mpmath: c·n·κ·u with n = k (or 2k) products and κ from mpmath "
       "(|λ^k|/|Re λ^k|, resp. k/|sin(kΔ/2)|)")

CLAIMS = [
    Claim(id="L.e2.real-part", title="Re[λ^k] = exp(−kν) under exponential parameterisation (as printed)",
          summary="as printed Re[λ^k] = e^{−kν} is false: Re[λ^k] = e^{−kν}cos(kθ); at ν = 0, "
                  "θ = π/100, λ^100 = −1",
          statement=PowerReal(), provenance=Provenance("L", WHERE, Q_LOSS + " … " + Q_REAL),
          tolerance=TOL, symbolic=_symbolic(power_real_proof), numeric=power_numeric,
          strategy=lambda ctx: _points(), holds=power_holds,
          notes="The printed value is the modulus |λ^k| = e^{−kν}; it equals Re λ^k only where kθ ∈ "
                "2πℤ (e.g. θ = 0)."),
    Claim(id="L.e2.real-part.corrected", title="Re[λ^k] = exp(−kν)cos(kθ); |λ^k| = exp(−kν)",
          summary="Re[λ^k] = e^{−kν}cos(kθ): the modulus e^{−kν} depends on ν alone, the phase kθ "
                  "on θ alone",
          statement=PowerReal(with_phase=True), provenance=Provenance("L", WHERE, Q_LOSS + " … " + Q_REAL),
          tolerance=TOL, symbolic=_symbolic(power_real_proof), numeric=power_numeric,
          strategy=lambda ctx: _points(), holds=power_holds, corrects="L.e2.real-part"),
    Claim(id="L.e2.standard-coupling",
          title="Re[λ^k] depends on both λ_r and λ_i under the standard parameterisation",
          summary="Re[(λ_r + iλ_i)^100] has nonzero partial derivatives in both λ_r and λ_i",
          statement=StandardCoupling(), provenance=Provenance("L", WHERE, Q_REAL),
          tolerance="SymPy exact (polynomial); floats: derivative above 4k²u|λ|^(k−1); search "
                    "exact in ℚ",
          symbolic=_symbolic(coupling_proof), numeric=coupling_numeric,
          strategy=coupling_strategy, holds=coupling_holds,
          reading="the search reads 'a function of both' pointwise: with either coordinate held "
                  "at any value, Re[λ^k] still varies with the other (true for even k, and for "
                  "every held value but λ_r = 0 for odd k)"),
    Claim(id="L.e2.phase-gradient",
          title="At the correct magnitude the gradient is fully aligned with θ (as printed)",
          summary="as printed false: at ν = ν*, ∂_νL = −2k e^{−2kν}sin²(kΔ/2) ≠ 0; at kΔ = π/2 "
                  "the gradient is at 45° to the θ axis",
          statement=PhaseGradient(), provenance=Provenance("L", WHERE, Q_LOSS + " … " + Q_TURN),
          tolerance=TOL, symbolic=_symbolic(phase_gradient_proof), numeric=gradient_numeric,
          strategy=lambda ctx: _points(), holds=gradient_holds,
          notes="Read literally: the gradient has no ν component. The ν component vanishes only to "
                "second order in kΔ."),
    Claim(id="L.e2.phase-gradient.corrected",
          title="At the correct magnitude ∂_νL/∂_θL = −tan(kΔ/2)",
          summary="at ν = ν*: ∂_νL = k e^{−2kν}(cos kΔ − 1), ∂_θL = k e^{−2kν}sin kΔ: aligned with θ "
                  "only to first order in kΔ",
          statement=PhaseGradient(aligned=False),
          provenance=Provenance("L", WHERE, Q_LOSS + " … " + Q_TURN),
          tolerance=TOL, symbolic=_symbolic(phase_gradient_proof), numeric=gradient_numeric,
          strategy=lambda ctx: _points(), holds=gradient_holds, corrects="L.e2.phase-gradient"),
]
