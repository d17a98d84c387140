"""L.stability: "a sufficient condition to ensure stability (i.e. x_k does not explode) is
|λ_j| < 1 for all j" (L §3.2.1, Stability).

Statement: recmem.theory.lru_spectrum.Stability. Symbolic: the worst-case state Σ_{j<k}|λ|^j and
its supremum (theory.lru_spectrum.stability_proof). Numeric, in every arithmetic: the diagonal
recurrence x̄_k = λx̄_{k−1} + u_k with u ≡ 1 at eigenvalues on the edge of the hypothesis (three
directions), run for 2K steps: a bounded state has sup_{K<k≤2K}|x̄_k| ≤ (3/2)·sup_{k≤K}|x̄_k| (a
declared finite-horizon criterion; |λ| = 63/64, K = 512 meets it with room). Search: exact λ.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin
from recmem.theory.lru_spectrum import DIRECTIONS, Stability, stability_proof

QUOTE = (r"Since $\bar{x}_{k}=\sum_{j=0}^{k-1}\Lambda^{j}\bar{B}u_{k-j}$, the norm of component "
         r"$j$ of $\bar{x}$ at timestamp $k$ evolves such that "
         r"$|x_{k,j}|=O(|\bar{x}_{k,j}|)=O(|\lambda_{j}|^{k})$. Therefore, a sufficient condition "
         r"to ensure stability (i.e. $x_{k}$ does not explode) is therefore $|\lambda_{j}|<1$ for "
         r"all $j$ [^23].")
K = 512
GROWTH = 1.5


def symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(stability_proof(ctx.law(Stability)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """sup over (K, 2K] against sup over [1, K] of |x̄_k| at the hypothesis' edge."""
    law = ctx.law(Stability)
    la = Lin(backend)
    t0 = time.perf_counter()
    worst, grown = 0.0, []
    with backend.activate():
        one = la.num(1)
        for r in law.boundary_moduli():
            for re, im in DIRECTIONS:
                lam = la.num(r * re) + la.i() * la.num(r * im)
                x, first, second = la.zero(), 0.0, 0.0
                for k in range(1, 2 * K + 1):
                    x = lam * x + one
                    m = float(abs(la.to_mpc(x, mpmath.mp)))
                    if k <= K:
                        first = max(first, m)
                    else:
                        second = max(second, m)
                ratio = second / first if first > 0 else float("inf")
                ratio = ratio if ratio == ratio else float("inf")  # nan (overflow) → ∞
                worst = max(worst, ratio)
                if ratio > GROWTH:
                    grown.append({"|λ|": str(r), "direction": f"{re}+{im}i",
                                  "sup (K,2K] / sup [1,K]": f"{ratio:.4g}"})
    return [Evidence(
        check=f"|x̄_k| bounded over 2K = {2 * K} steps at the hypothesis' edge (u ≡ 1)",
        kind="numeric", backend=backend.name, outcome=Outcome.FAIL if grown else Outcome.PASS,
        precision_bits=backend.precision_bits, instances=3 * len(law.boundary_moduli()),
        residual=f"{max(worst - 1, 0.0):.4g}", tolerance=f"{GROWTH - 1}",
        tolerance_source="declared finite-horizon criterion: residual = sup over the second "
                         "half / sup over the first − 1 ≤ 1/2 (rounding ≲ 2K·u relative)",
        counterexample={"grew": grown} if grown else None,
        message=f"the state grew at {len(grown)} edge eigenvalues" if grown else
        "the state stays bounded at every edge eigenvalue", seconds=time.perf_counter() - t0)]


def strategy(ctx: Context) -> Any:
    """Exact λ = (a, b)/64 with |λ| up to 3/2, boundary of the unit disk included (±1, ±i,
    (±3 ± 4i)/5)."""
    from hypothesis import strategies as st

    edge = st.sampled_from([(Fraction(1), Fraction(0)), (Fraction(-1), Fraction(0)),
                            (Fraction(0), Fraction(1)), (Fraction(3, 5), Fraction(4, 5)),
                            (Fraction(9, 8), Fraction(0))])
    grid = st.tuples(st.integers(-96, 96), st.integers(-96, 96)).map(
        lambda v: (Fraction(v[0], 64), Fraction(v[1], 64)))
    return st.one_of(edge, grid)


def holds(lam: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact: when the hypothesis admits λ, is the worst-case state bounded, i.e. |λ|² < 1
    (sup_k Σ_{j<k}|λ|^j < ∞ iff |λ| < 1)? With u ≡ 1 and λ = 1 the state is x̄_k = k."""
    law = ctx.law(Stability)
    a2 = lam[0] ** 2 + lam[1] ** 2
    if not law.admits(a2):
        return Instance(True, "exact (outside the hypothesis: vacuous)", {"|λ|²": str(a2)})
    return Instance(a2 < 1, "exact rational comparison |λ|² < 1",
                    {"λ": f"{lam[0]} + {lam[1]}i", "|λ|²": str(a2), "admitted": True,
                     "bounded": a2 < 1})


CLAIMS = [
    Claim(
        id="L.stability",
        summary="|λ_j| < 1 is sufficient; |λ_j| ≤ 1 would not be (λ = 1, u ≡ 1: x_k = k)",
        title="Stability: |λ_j| < 1 for all j keeps x_k bounded",
        statement=Stability(),
        provenance=Provenance("L", "§3.2.1, Stability", QUOTE),
        tolerance="exact (SymPy, rationals); numeric: declared growth criterion 3/2 over "
                  f"2K = {2 * K} steps",
        symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
        notes="Read for bounded inputs (|u_k| ≤ 1). The intermediate O(|λ_j|^k) of the same "
              "sentence is not a bound for |λ_j| < 1 (x̄_k → B̄u/(1 − λ) under constant input).",
    ),
]
