"""L.phase: Λ = diag(exp(−exp(ν^log) + θ)) as printed in L §3.4, and its correction with iθ.

Statement: recmem.theory.lru_parameterisation.PolarForm ("ν^log encodes the distance to the
origin, θ is the angle from the vector 1 + 0i"). As printed the exponent has no imaginary unit:
λ is a positive real, arg λ = 0 ≠ θ and |λ| = exp(−exp(ν^log) + θ) — refuted at (ν^log, θ) =
(0, 1); L.phase.corrected uses iθ (as §3.3 and App. A do). Symbolic: |λ| and λ/|λ| (SymPy).
Numeric, in every arithmetic: λ by the arithmetic's exponential, its |λ| and arg against
exp(−exp(ν^log)) and θ on a grid. Search: exact (ν^log, θ), SymPy.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin
from recmem.theory.lru_parameterisation import (
    PHASE_CORRECTED,
    PHASE_PRINTED,
    PolarForm,
    polar_instance,
    polar_proof,
)

QUOTE = (r"In the context of the diagonalized recurrence, we have "
         r"$\Lambda=\text{diag}(\exp(-\exp(\nu^{\log})+\theta))$, where $\nu^{\log}\in\mathbb{R}^{N}$ "
         r"is the vector of log eigenvalue magnitudes and $\theta\in\mathbb{R}^{N}$ the vector of "
         r"eigenvalue phases. While $\nu^{\log}$ encodes the distance to the origin, $\theta$ is "
         r"the angle from the vector $1+0i$.")
WHERE = "§3.4, Reducing Eigenvalue Phase at Initialization"
GRID_X = tuple(Fraction(k, 2) for k in range(-8, 5))  # ν^log ∈ [−4, 2]
GRID_T = (Fraction(-3), Fraction(-1), Fraction(1, 2), Fraction(1), Fraction(3))  # in (−π, π]


def symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(polar_proof(ctx.law(PolarForm)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """(|λ|, arg λ) computed from λ vs (exp(−exp(ν^log)), θ) at every grid point."""
    law = ctx.law(PolarForm)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        la = Lin(bk)
        got, claimed = [], []
        for x in GRID_X:
            for th in GRID_T:
                lam = law.eigenvalue(la.num(x), la.num(th), exp=la.exp, i=la.i(), const=la.num)
                got += [la.abs(lam), la.arg(lam)]
                claimed += [law.modulus(la.num(x), la.exp), la.num(th)]
        return bk.vector_of(got), bk.vector_of(claimed)

    # exp(a + iθ) errs relatively by ≲ (|a| + |θ|)·u; |a| ≤ e² + 3 on the grid: κ = 11
    return [identity_check(f"|λ| and arg λ vs exp(−exp(ν^log)) and θ on "
                           f"{len(GRID_X) * len(GRID_T)} exact points", backend, compute,
                           instance={"grid": "ν^log ∈ [−4, 2] step 1/2, θ ∈ {−3, −1, 1/2, 1, 3}"},
                           kappa=11, n=4, instances=len(GRID_X) * len(GRID_T))]


def strategy(ctx: Context) -> Any:
    """Exact (ν^log, θ): ν^log ∈ [−4, 4], θ ∈ [−3, 3] ⊂ (−π, π], on a grid of 1/8."""
    from hypothesis import strategies as st

    return st.tuples(st.integers(-32, 32), st.integers(-24, 24)).map(
        lambda v: (Fraction(v[0], 8), Fraction(v[1], 8)))


def holds(inst: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact SymPy: |λ| and arg λ at (ν^log, θ) (theory.lru_parameterisation.polar_instance)."""
    ok, values = polar_instance(ctx.law(PolarForm), *inst)
    return Instance(ok, "exact SymPy arithmetic", values)


def _claim(cid: str, law: PolarForm, summary: str, **kw: Any) -> Claim:
    return Claim(id=cid, title="Polar form of Λ: |λ| = exp(−exp(ν^log)), arg λ = θ "
                 + ("(as printed, no i)" if law.unit == "1" else "(with iθ)"),
                 statement=law, provenance=Provenance("L", WHERE, QUOTE),
                 tolerance="exact (SymPy); enclosure (flint); c·n·κ·u, κ = 11 (floats)",
                 symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
                 summary=summary, **kw)


CLAIMS = [
    _claim("L.phase", PHASE_PRINTED, "Λ = diag(exp(−exp(ν^log) + θ)) lacks the i: λ is real, "
           "(ν^log, θ) = (0, 1) gives λ = 1, arg 0 ≠ 1"),
    _claim("L.phase.corrected", PHASE_CORRECTED, "with iθ, |λ| = exp(−exp(ν^log)) and arg λ = θ",
           corrects="L.phase"),
]
