"""L.stability.growth: "|x_{k,j}| = O(|x̄_{k,j}|) = O(|λ_j|^k)" (L §3.2.1, Stability), as printed
and corrected to O(Σ_{i<k}|λ_j|^i).

Statement: recmem.theory.lru_spectrum.GrowthRate. As printed the rate is wrong for |λ_j| ≤ 1:
with λ = 1/2 and u ≡ 1, x̄_k = 2 − 2^{1−k} → 2 while |λ|^k → 0. Symbolic: SymPy limits at exact
probes and the triangle-inequality bound in each regime of |λ| (theory.lru_spectrum.growth_proof).
Numeric, in every arithmetic: r_k = |x̄_k|/rate(k) by the recurrence with u ≡ 1 at five λ; an
O-bound keeps sup_{K<k≤2K} r_k ≤ (3/2)·max(1, sup_{k≤K} r_k) (declared finite-horizon criterion).
Search: exact λ, SymPy limits (theory.lru_spectrum.growth_instance).
"""

from __future__ import annotations

import functools
import math
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_l.eigen_stability import QUOTE
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin
from recmem.theory.lru_spectrum import GrowthRate, growth_instance, growth_proof

K = 48
LAMBDAS = ((Fraction(1, 2), Fraction(0)), (Fraction(1), Fraction(0)), (Fraction(-1), Fraction(0)),
           (Fraction(27, 50), Fraction(18, 25)), (Fraction(11, 10), Fraction(0)))


def symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(growth_proof(ctx.law(GrowthRate)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """r_k = |x̄_k|/rate(k), u ≡ 1: its sup over (K, 2K] against its sup over [1, K]."""
    law = ctx.law(GrowthRate)
    la = Lin(backend)
    t0 = time.perf_counter()
    worst, grown = 0.0, []
    with backend.activate():
        for re, im in LAMBDAS:
            lam = la.num(re) + la.i() * la.num(im)
            rho = la.abs(lam) if (re, im) != (1, 0) and re**2 + im**2 != 1 else 1
            x, first, second = la.zero(), 1.0, 0.0
            for k in range(1, 2 * K + 1):
                x = lam * x + la.num(1)
                rate = float(abs(la.to_mpc(la.num(0) + law.rate_of(rho, k), mpmath.mp)))
                r = float(abs(la.to_mpc(x, mpmath.mp))) / rate if rate > 0 else math.inf
                r = r if r == r else math.inf  # nan (overflow) → ∞
                if k <= K:
                    first = max(first, r)
                else:
                    second = max(second, r)
            ratio = second / first if math.isfinite(first) else math.inf
            worst = max(worst, ratio)
            if not ratio <= 1.5:
                grown.append({"λ": f"{re}+{im}i", "sup (K,2K] r_k / sup [1,K] r_k": f"{ratio:.4g}"})
    return [Evidence(
        check=f"|x̄_k|/rate(k) bounded over 2K = {2 * K} steps at {len(LAMBDAS)} eigenvalues",
        kind="numeric", backend=backend.name, outcome=Outcome.FAIL if grown else Outcome.PASS,
        precision_bits=backend.precision_bits, instances=len(LAMBDAS),
        residual=f"{max(worst - 1, 0.0):.4g}", tolerance="0.5",
        tolerance_source="declared finite-horizon criterion: residual = sup over the second "
                         "half / max(1, sup over the first) − 1 ≤ 1/2",
        counterexample={"grew": grown} if grown else None,
        message=f"the ratio grew at {len(grown)} eigenvalues" if grown else
        "the ratio stays bounded at every eigenvalue", seconds=time.perf_counter() - t0)]


# exact λ = ρ·d: rational moduli across the three regimes, rational unit directions (so |λ| is
# rational and each SymPy limit stays cheap)
MODULI = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2))
DIRS = ((Fraction(1), Fraction(0)), (Fraction(-1), Fraction(0)), (Fraction(3, 5), Fraction(4, 5)))


def strategy(ctx: Context) -> Any:
    """Exact λ = ρ·d, ρ ∈ {0, 1/2, 1, 2}, d ∈ {1, −1, (3 + 4i)/5}."""
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(MODULI), st.sampled_from(DIRS)).map(
        lambda v: (v[0] * v[1][0], v[0] * v[1][1]))


@functools.cache
def _judged(law: GrowthRate, lam: tuple[Fraction, Fraction]) -> tuple[bool | None, Any]:
    return growth_instance(law, lam)


def holds(lam: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact SymPy limits of |x̄_k|/rate(k) with u ≡ 1 (theory.lru_spectrum.growth_instance)."""
    ok, info = _judged(ctx.law(GrowthRate), lam)
    return Instance(ok, "exact SymPy limits", dict(info))


def _claim(cid: str, law: GrowthRate, summary: str, **kw: Any) -> Claim:
    rate = "|λ|^k" if law.rate == "power" else "Σ_(i<k)|λ|^i"
    return Claim(id=cid, title=f"Growth of the diagonal state: |x̄_k| = O({rate})",
                 statement=law, provenance=Provenance("L", "§3.2.1, Stability", QUOTE),
                 tolerance="exact (SymPy limits); numeric: declared growth criterion 3/2 over "
                           f"2K = {2 * K} steps", uses=("L.eigen.corrected",),
                 symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
                 summary=summary, **kw)


CLAIMS = [
    _claim("L.stability.growth", GrowthRate(), "O(|λ_j|^k) is no bound for |λ_j| ≤ 1: λ = 1/2, "
           "u ≡ 1 gives x̄_k → 2 while |λ|^k → 0", reading="u bounded (|u_k| ≤ 1), B̄_j = 1"),
    _claim("L.stability.growth.corrected", GrowthRate(rate="sum"), "|x̄_k| ≤ Σ_(i<k)|λ|^i·sup|u|",
           corrects="L.stability.growth", reading="u bounded (|u_k| ≤ 1), B̄_j = 1"),
]
