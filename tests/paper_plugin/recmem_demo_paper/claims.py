"""D.impulse: the step response of a scalar linear recurrence (the demo paper's Eq. 1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.search import Instance
from recmem.checks.tolerance import fmt
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof, decide_zero
from recmem_demo_paper.statement import StepResponse

LAMBDAS = (Fraction(1, 2), Fraction(-3, 4), Fraction(9, 10), Fraction(5, 4))
STEPS = 12


def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy, by induction on k for symbolic λ: the closed form gives x_1 = 1 and satisfies
    x_k − λ x_(k−1) − 1 = 0."""
    import sympy as sp

    law = ctx.law(StepResponse)
    lam, k = sp.symbols("lambda k")

    def closed(at: Any) -> Any:
        return (1 + law.sign * lam ** (at + law.shift)) / (1 - lam)

    for step, difference in (("x_1 = 1", closed(1) - 1),
                             ("x_k = λ x_(k−1) + 1", closed(k) - lam * closed(k - 1) - 1)):
        holds, witness = decide_zero(difference, points=[{lam: sp.Rational(1, 2), k: 2}])
        if holds is not True:
            proof = Proof(holds, "all λ ≠ 1, k ≥ 1", f"induction on k: {step}",
                          counterexample={"step": step, **witness} if holds is False else None)
            return [from_proof(proof, 0.0)]
    return [from_proof(Proof(True, "all λ ≠ 1, k ≥ 1", "induction on k (SymPy)", general=True),
                       0.0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The recurrence run in the backend's arithmetic against the statement's closed form
    (exact); the tolerance is the rounding bound 2·k·u·Σ|λ|^j of k steps."""
    import mpmath

    law = ctx.law(StepResponse)
    ctx_mp = mpmath.MPContext()
    ctx_mp.prec = 2 * backend.precision_bits + 64
    ones = [[QQi(Fraction(1))] * STEPS] * len(LAMBDAS)
    native = backend.recurrence(backend.vector([QQi(x) for x in LAMBDAS]), backend.matrix(ones))
    states, radius = backend.to_mp(native, ctx_mp), backend.radius(native)
    u = ctx_mp.mpf(backend.unit_roundoff)
    worst = ctx_mp.mpf(0)
    for i, lam in enumerate(LAMBDAS):
        for k in range(1, STEPS + 1):
            exact = law.closed_form(lam, k)
            bound = 2 * k * u * sum(abs(lam) ** j for j in range(k)) + radius
            error = abs(states[i, k - 1] - ctx_mp.mpf(exact.numerator) / exact.denominator)
            worst = max(worst, error / bound)
    outcome = Outcome.PASS if worst <= 1 else Outcome.FAIL
    return [Evidence(check="recurrence vs closed form", kind="numeric", backend=backend.name,
                     outcome=outcome, precision_bits=backend.precision_bits,
                     instances=len(LAMBDAS) * STEPS, residual=fmt(worst), tolerance="1",
                     tolerance_source="error / (2·k·u·Σ|λ|^j), u the unit roundoff")]


def strategy(ctx: Context) -> Any:
    """λ a rational ≠ 1 with |λ| ≤ 2, k from 1 to 30."""
    from hypothesis import strategies as st

    lam = st.fractions(min_value=-2, max_value=2, max_denominator=64).filter(lambda x: x != 1)
    return st.tuples(lam, st.integers(1, 30))


def holds(instance: Any, ctx: Context) -> Instance:
    """The recurrence run exactly in ℚ against the statement's closed form."""
    lam, k = instance
    x = Fraction(0)
    for _ in range(k):
        x = lam * x + 1
    claimed = ctx.law(StepResponse).closed_form(lam, k)
    return Instance(x == claimed, "exact rational arithmetic",
                    {"λ": str(lam), "k": k, "x_k": str(x), "closed form": str(claimed)})


CLAIMS = [
    Claim(
        id="D.impulse",
        title="Step response of a scalar linear recurrence",
        statement=StepResponse(),
        provenance=Provenance("D", "§1, Eq. (1)", "x_k = (1 - λ^k)/(1 - λ)"),
        tolerance="exact (SymPy, ℚ); floats: 2·k·u·Σ|λ|^j",
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
    ),
]
