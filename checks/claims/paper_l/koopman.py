"""L App. E.1.2, Koopman operator theory: the eigenfunction expansion (printed λ_k for λ_j) and
x_k = VΛ^kΦ(x_0), on a system with a finite Koopman-invariant subspace.

Statement: :class:`recmem.theory.lru_koopman.KoopmanExpansion`. Sides: SymPy (polynomial
identities, induction on n); numpy/torch/mpmath: the map S iterated (the definition) against
VΛ^nΦ(x_0), and f(S(x)) against the expansion; search: exact rationals.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.scalars import Scalars
from recmem.theory.lru_koopman import KoopmanExpansion, eigenfunctions, koopman_instance, koopman_proof, step

QUOTE = (r"$$ \mathcal{K}_{S}f(x)=\mathcal{K}_{S}\left(\sum_{j=1}^{\infty}\nu_{j}\phi_{j}\right)(x)="
         r"\sum_{j=1}^{\infty}\lambda_{k}\nu_{j}\phi_{j}(x). $$ Since also the identity measurement map "
         r"$x\mapsto x$ can be decomposed into eigenfunctions of $\mathcal{K}_{S}$ coordinate-wise, we "
         r"have the following: assuming $x_{k+1}=S(x_{k})$, with $x\in\mathbb{R}^{n}$, for any "
         r"$k\in\mathbb{N}$ we have $$ x_{k}=V\Lambda^{k}\Phi(x_{0}), $$")
X0 = (Fraction(3, 4), Fraction(-1, 2))
NUS = (1, -2, 3)
STEPS = 12


def symbolic(ctx: Context) -> list[Evidence]:
    """theory.lru_koopman.koopman_proof."""
    t0 = time.perf_counter()
    return [from_proof(koopman_proof(ctx.law(KoopmanExpansion)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """S iterated STEPS times from X0 against VΛ^nΦ(X0), and f(S(X0)) (f = Σν_jφ_j) against the
    expansion for each printed index k."""
    law = ctx.law(KoopmanExpansion)
    if backend.spec.kind not in ("numpy", "torch", "mpmath"):
        raise BackendUnavailable(f"{backend.name}: this check runs in numpy, torch and mpmath")

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        s = Scalars(bk)
        x0 = (s.num(X0[0]), s.num(X0[1]))
        lhs, rhs, x = [], [], x0
        for n in range(1, STEPS + 1):
            x = step(x, s.num)
            lhs += list(x)
            rhs += list(law.trajectory(x0, n, s.num))
        nus = [s.num(v) for v in NUS]
        kf = sum((v * p for v, p in zip(nus, eigenfunctions(step(x0, s.num), s.num), strict=True)),
                 s.num(0))
        for k in range(3):
            lhs.append(kf)
            rhs.append(law.expansion(nus, x0, k, s.num))
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # κ: |d| = 12 multiplies the rounding of x₁² in the mode; a few products per step
    return [identity_check("S iterated and f∘S against VΛ^nΦ(x_0) and the expansion", backend,
                           compute, n=4 * STEPS, kappa=mpmath.mpf(12), instances=STEPS + 3,
                           escalate=False, instance={"x_0": str(X0), "ν": str(NUS), "n": f"1…{STEPS}"})]


def strategy(ctx: Context) -> Any:
    """x_0 rational in [−2, 2]² (0 included), n = 0 … 10, ν integers in [−3, 3]³."""
    from hypothesis import strategies as st

    q = st.builds(Fraction, st.integers(-8, 8), st.sampled_from([1, 2, 4]))
    return st.tuples(st.tuples(q, q), st.integers(0, 10), st.lists(st.integers(-3, 3), min_size=3,
                                                                    max_size=3))


def holds(inst: tuple[tuple[Fraction, Fraction], int, list[int]], ctx: Context) -> Instance:
    """Exact in ℚ."""
    ok, values = koopman_instance(ctx.law(KoopmanExpansion), *inst)
    return Instance(ok, "exact rational arithmetic", values,
                    "" if ok else "the trajectory or the expansion differs")


WHERE = "App. E.1.2, Basic theory"
TOL = "SymPy exact; ℚ exact search; floats and mpmath: c·n·κ·u with κ = 12 (the Koopman mode d)"
NOTES = ("Checked on S(x₁, x₂) = (x₁/2, x₂/3 + x₁²), whose three eigenfunctions span the coordinates "
         "(V = [[1, 0, 0], [0, 1, −12]]); the display's general claim (any regular S, eigenfunctions a "
         "basis of L₂) is not checkable. The Koopman operator's linearity (the displayed derivation) is "
         "the composition rule and holds for every S.")

CLAIMS = [
    Claim(id="L.e12.koopman-expansion", title="K_S(Σν_jφ_j) = Σλ_kν_jφ_j (as printed)",
          summary="as printed the eigenvalue index is k, not j: K_S f = λ_k f fails for f = φ₁ + φ₂ + φ₃ "
                  "on S(x) = (x₁/2, x₂/3 + x₁²)",
          statement=KoopmanExpansion(), provenance=Provenance("L", WHERE, QUOTE), tolerance=TOL,
          symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
          reading="λ_k (k not the summation index) read as one eigenvalue for every term",
          notes=NOTES),
    Claim(id="L.e12.koopman-expansion.corrected", title="K_S(Σν_jφ_j) = Σλ_jν_jφ_j and x_n = VΛ^nΦ(x_0)",
          summary="with λ_j the expansion and x_n = VΛ^nΦ(x_0) hold exactly on a system with a "
                  "finite Koopman-invariant subspace",
          statement=KoopmanExpansion(eig_index="j"), provenance=Provenance("L", WHERE, QUOTE),
          tolerance=TOL, symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
          corrects="L.e12.koopman-expansion", notes=NOTES),
]
