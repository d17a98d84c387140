"""L.exp-param: the stable exponential parameterisation λ = exp(−exp(ν^log) + iθ) (L §3.3).

Statement: recmem.theory.lru_parameterisation.StableExp. Symbolic: |exp(z)| = exp(Re z), exp > 0,
the limits at ν^log → ±∞, exp(log ν) = ν (theory.lru_parameterisation.stable_exp_proof). Numeric,
in every arithmetic: λ computed by the arithmetic's complex exponential on a grid of exact
(ν^log, θ), each |λ| judged against 1 with its rounding bound (flint: the ball). Search: exact
(ν^log, θ), |λ| < 1 decided by SymPy.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin
from recmem.theory.lru_parameterisation import STABLE_EXP, StableExp, stable_exp_proof

QUOTE = (r"To see this, note that at initialization, $|\lambda_{j}|=|\exp(-\nu_{j})|\leq 1$ since "
         r"$\nu_{j}>0$. Therefore, to preserve stability during training, we can use an "
         r"exponential or another positive nonlinearity: "
         r"$\lambda_{j}:=\exp(-\exp(\nu_{j}^{\log})+i\theta_{j})$, where "
         r"$\nu^{\log}\in\mathbb{R}^{N}$ is the parameter we optimize, and we set "
         r"$\nu_{j}^{\log}:=\log(\nu)$ at initialization. … We choose an exponential "
         r"non-linearity over a simple ReLU nonlinearity to increase granularity around "
         r"$|\lambda|=1$, achieved at $\nu^{\log}=-\infty$ (while $|\lambda|=0$ is achieved at "
         r"$\nu^{\log}=\infty$).")
# ν^log on [−6, 6] (|λ| ≥ 1 − 2.5·10⁻³ at −6: resolved in float32) and phases θ
GRID_X = tuple(Fraction(k, 2) for k in range(-12, 13))
GRID_T = (Fraction(0), Fraction(1), Fraction(-3), Fraction(22, 7))
C = 8  # exp of z = a + iθ errs by ≲ (2 + |a| + |θ|)·u relatively; 8 covers |λ|'s few more ops


def _positive(x: Fraction, _: Any) -> bool:
    """ReLU's test ν^log > 0, decided on the exact grid point (not on its rounding)."""
    return x > 0


def symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(stable_exp_proof(ctx.law(StableExp)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """|λ| < 1 at every grid point, each judged with its rounding bound."""
    law = ctx.law(StableExp)
    la = Lin(backend)
    t0 = time.perf_counter()
    u = float(backend.unit_roundoff)
    worst, above, unresolved = -mpmath.inf, [], []
    with backend.activate():
        for x in GRID_X:
            for th in GRID_T:
                lam = law.eigenvalue(la.num(x), la.num(th), exp=la.exp, i=la.i(),
                                     positive=functools.partial(_positive, x))
                a = la.abs(lam)
                if la.kind == "flint":
                    lo, hi = a.real.lower(), a.real.upper()
                    m, tol = mpmath.mpf(hi.str(30, radius=False)) - 1, 0.0
                    # |λ| ≥ 1 certified (an exact ball at 1 too) contradicts |λ| < 1
                    below, over = bool(hi < 1), bool(lo >= 1)
                else:
                    mag = float(abs(la.to_mpc(a, mpmath.mp)))
                    tol = C * u * (2 + abs(float(x)) + abs(float(th))) * mag
                    m = mag - 1
                    below, over = m < -tol, m > tol
                worst = max(worst, m + tol)
                if over:
                    above.append((str(x), str(th), float(m)))
                elif not below:
                    unresolved.append((str(x), str(th)))
    outcome = (Outcome.REFUTE if above and la.kind == "flint" else Outcome.FAIL if above else
               Outcome.INCONCLUSIVE if unresolved else Outcome.PASS)
    n = len(GRID_X) * len(GRID_T)
    return [Evidence(
        check=f"|λ| < 1 on {n} exact (ν^log, θ), ν^log ∈ [−6, 6]", kind="numeric",
        backend=backend.name, outcome=outcome, precision_bits=backend.precision_bits,
        instances=n, residual=f"{float(worst):.3g}", tolerance="0",
        tolerance_source="residual = max(|λ| − 1 + bound): the ball's upper end (flint) or "
                         f"{C}·(2 + |ν^log| + |θ|)·u·|λ| (points)",
        counterexample={"|λ| ≥ 1 at (ν^log, θ, |λ| − 1)": above[:3]} if above else None,
        certified_by="ball arithmetic: |λ| ≥ 1" if above and la.kind == "flint" else None,
        message=(f"|λ| ≥ 1 at {len(above)} points" if above else
                 f"|λ| = 1 within rounding at {len(unresolved)} points" if unresolved else
                 f"|λ| < 1 at all {n} points"),
        seconds=time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """Exact (ν^log, θ): ν^log ∈ [−40, 40] on a grid of 1/8 (0 included), θ ∈ [−4, 4]."""
    from hypothesis import strategies as st

    return st.tuples(st.integers(-320, 320), st.integers(-32, 32)).map(
        lambda v: (Fraction(v[0], 8), Fraction(v[1], 8)))


def holds(inst: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact SymPy: |λ| < 1 at (ν^log, θ)."""
    import sympy as sp

    law = ctx.law(StableExp)
    x, th = (sp.Rational(v.numerator, v.denominator) for v in inst)
    m = sp.Abs(law.eigenvalue(x, th, exp=sp.exp, i=sp.I, positive=lambda v: bool(v > 0)))
    below = m < 1
    ok = True if below is sp.true else False if below is sp.false else None
    return Instance(ok, "exact SymPy arithmetic", {"nu_log": str(inst[0]), "theta": str(inst[1]),
                                                   "|λ|": str(m)})


CLAIMS = [
    Claim(
        id="L.exp-param",
        summary="exp(−exp(ν^log) + iθ) is inside the unit disk for every real ν^log; ReLU would "
                "allow |λ| = 1",
        title="Stable exponential parameterisation: |exp(−exp(ν^log) + iθ)| < 1",
        statement=STABLE_EXP,
        provenance=Provenance("L", "§3.3, Enforcing stability", QUOTE),
        tolerance="exact (SymPy); ball (flint); |λ| − 1 against 8·(2 + |ν^log| + |θ|)·u·|λ| "
                  "(floats; ν^log ≥ −6, where float32 resolves 1 − |λ|)",
        symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
        notes="In float64, exp(−exp(ν^log)) rounds to 1 for ν^log < −37 (float32: < −17): the "
              "strict inequality is then below the arithmetic's resolution.",
    ),
]
