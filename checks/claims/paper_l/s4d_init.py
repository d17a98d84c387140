"""L.s4d-lin.spectrum: S4D-Lin under ZOH (L §2, §4 "Discretization changes initialization
spectrum"): ã_n = −1/2 + iπn gives eigenvalues exp(−Δ/2 + iπΔn), magnitude exp(−Δ/2) ≈ 0.9995
and phases πΔn ≈∈ [0, π/8] at Δ = 10⁻³, N = 128 (:class:`recmem.theory.lru_s4.S4DLinSpectrum`).

"≈∈ [0, π/8]" is read as: the largest phase πΔN = 0.128π is π/8 to one significant digit of the
denominator (1/(ΔN) = 7.8125 → 8). Sides: SymPy (exact, symbolic n); every arithmetic computes
exp(Δã_n) with its own exp and iπ = log(−1), then the moduli and the largest argument against the
printed roundings; the search decides single n exactly.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_l.disc_checks import inequality_check, worst
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics import native
from recmem.numerics.backend import AbstractBackend
from recmem.theory.lru_s4 import S4DLinSpectrum, spectrum_facts, spectrum_proof

QUOTE_S2 = (r"Common choices [^25] are $\tilde{a}_{n}=-\frac{1}{2}+i\pi n$ (S4D-Lin) and "
            r"$\tilde{a}_{n}=-\frac{1}{2}+i\frac{N}{\pi}\left(\frac{N}{n+1}-1\right)$ (S4D-Inv), for "
            r"$n=1,2,\dots,N$.")
QUOTE_S4 = (r"For simplicity, let us restrict our attention to S4D-Lin, for which "
            r"$A=\diag(\tilde{a})$ with $\tilde{a}_{n}=-\frac{1}{2}+i\pi n$, yielding a diagonal "
            r"transition matrix with elements (i.e. eigenvalues) initialized at "
            r"$\exp(-\Delta/2+i\pi\Delta n)$. Under typical choices e.g. $\Delta=1e{-3},N=128$, the "
            r"SSM eigenvalues have magnitude $\exp(-\Delta/2)\approx 0.9995$, and phase "
            r"$\theta=\pi\Delta n\overset{\sim}{\in}[0,\pi/8]$")


def symbolic(ctx: Context) -> list[Evidence]:
    """theory.lru_s4.spectrum_proof."""
    t0 = time.perf_counter()
    return [from_proof(spectrum_proof(ctx.law(S4DLinSpectrum)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """max(max_n ||λ_n| − magnitude|/(½·10^−decimals), |π/max_n arg λ_n − den|/(1/2)) ≤ 1 with
    λ_n = exp(Δã_n) in the arithmetic (its exp, log; iπ = log(−1))."""
    law = ctx.law(S4DLinSpectrum)

    def compute(bk: AbstractBackend) -> Any:
        d, minus1, mag, den = native.scalars(bk, [law.delta, -1, law.magnitude, law.phase_den])
        i_pi = bk.log(minus1)  # iπ, the principal logarithm of −1
        half_unit = Fraction(1, 2 * 10**law.decimals)
        mods, args = [], []
        for n in range(1, law.n_state + 1):
            lam = bk.exp(law.eigenvalue(n, d, i_pi))  # exp(Δã_n)
            log_lam = bk.log(lam)
            mods.append(abs(bk.exp((log_lam + native.conj(log_lam)) / 2) - mag)
                        * half_unit.denominator / half_unit.numerator)
            args.append((log_lam - native.conj(log_lam)) / 2)  # i·arg λ_n
        top = worst([a / i_pi for a in args])  # arg/π; the largest
        return worst([worst(mods), abs(1 / top - den) * 2])

    return [inequality_check("moduli and largest phase against the printed roundings", backend,
                             compute, tolerance=1.0, err_units=1e6,
                             instance={"Δ": str(law.delta), "N": law.n_state})]


def strategy(ctx: Context) -> Any:
    """State indices n = 1 … N."""
    from hypothesis import strategies as st

    return st.integers(1, ctx.law(S4DLinSpectrum).n_state)


def holds(n: int, ctx: Context) -> Instance:
    """Exact SymPy facts at index n: eigenvalue, modulus, argument and both roundings."""
    import sympy as sp

    facts = spectrum_facts(ctx.law(S4DLinSpectrum), sp.Integer(n))
    ok = all(v is True for k, v in facts.items() if isinstance(v, bool) or v is None)
    return Instance(ok, "exact (SymPy)", {"n": n, **{k: str(v) for k, v in facts.items()}})


CLAIMS = [
    Claim(id="L.s4d-lin.spectrum", title="S4D-Lin spectrum after ZOH: |λ| ≈ 0.9995, phase ≈∈ [0, π/8]",
          summary="exp(Δã_n) = exp(−Δ/2 + iπΔn); |λ| = 0.99950012… ≈ 0.9995; πΔN = 0.128π ≈ π/8 "
                  "(one significant digit of 1/(ΔN) = 7.81)",
          statement=S4DLinSpectrum(),
          provenance=Provenance("L", "§2 (S4D-Lin); §4, Discretization changes initialization "
                                     "spectrum", QUOTE_S2 + " … " + QUOTE_S4),
          tolerance="exact (SymPy); floats/mpmath: printed rounding half-units with a 10⁶·u "
                    "rounding allowance; flint: enclosure",
          symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
          reading="'θ = πΔn ∈≈ [0, π/8]' read as πΔN = π/8 to one significant digit of the "
                  "denominator (1/(ΔN) = 7.8125)",
          notes="The printed S4D-Inv form (N/(n+1) − 1, n = 1 … N) is only defined here, not used: "
                "it gives Im ã_(N−1) = 0 and Im ã_N < 0."),
]
