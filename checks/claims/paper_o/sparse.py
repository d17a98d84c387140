"""O.sparse: with u_{1:k} = Ψ_kα and Ω_k = V_kΨ_k (rank P, N > P + 1), α = Ω_k⁺x̃_k (O §3.2 eq. 6;
App. B eq. 21–22).

N is the state size *including* the timestamp channel, as in §3.2 ("Ω_k ∈ ℂ^{N−1×P} … we need
N > P + 1"): Ω_k has the N − 1 Vandermonde rows and x̃_k is the state without its timestamp entry.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o._common import p_n, p_rmax, p_rmin
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi

QUOTE = ("x̃_k = V_k u_{1:k} = \\underbrace{V_k · Ψ_k}_{Ω_k} · α^{u_{1:k}}, (6) where "
         "Ω_k ∈ ℂ^{N−1×P}. "
         "Under the assumption that Ω_k has column rank greater than row rank, i.e. we need "
         "N > P + 1, we are able to solve the system for α^{u_{1:k}}. … Ω_k = V_k Ψ_k, such that "
         "x_k = Ω_k α^{u,k}. (21) … α^{u,k} = Ω_k^+ x_k. (22)")


def _problem(ctx: Context) -> sp.SparseProblem:
    n = int(ctx["N"])
    return sp.problem(ctx, 1, n - 1)


def _check_sizes(ctx: Context) -> None:
    n, p = int(ctx["N"]), int(ctx["P"])
    if not n > p + 1:
        raise ValueError(f"the claim's hypothesis needs N > P + 1, got N={n}, P={p}")


def symbolic(ctx: Context) -> list[Evidence]:
    """Eq. 6 as a polynomial identity (M = 1) and α = Ω_k⁺x̃_k exactly on the default instance."""
    from recmem.theory.sparse import recovery_identity, state_identity

    _check_sizes(ctx)
    t0 = time.perf_counter()
    ev = [from_proof(state_identity(k_max=4, m_max=1, r_max=3, p=2),
                         time.perf_counter() - t0, "eq. 6: x̃_k = V_kΨ_kα (symbolic)")]
    prob = _problem(ctx)
    t0 = time.perf_counter()
    proof = recovery_identity(prob.lam0, prob.blocks, prob.basis, prob.alpha, sp.steps(ctx, prob),
                              prob.description)
    ev.append(from_proof(proof, time.perf_counter() - t0, "eq. 22: α = Ω_k⁺x̃_k (exact)"))
    return ev


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """α̂ = Ω_k⁺x̃_k in the backend, x̃_k from the recurrence, against the exact α."""
    _check_sizes(ctx)
    return sp.recovery_checks(backend, ctx, _problem(ctx))


# Strategies built once: building them inside the composite costs more than judging an instance.
_ENTRY = sp.small_fractions(2)
_NODE = sp.small_nodes()


@st.composite
def instances(draw: Any) -> dict[str, Any]:
    """Small exact instances of the stated domain: P ≤ 3, N − 1 ∈ {P+1, P+2}, k ≤ 5, any Ψ_k, α."""
    p = draw(st.integers(1, 3))
    m = draw(st.integers(p + 1, p + 2))
    k = draw(st.integers(1, 5))
    nodes = [draw(_NODE) for _ in range(m)]
    psi = [[draw(_ENTRY) for _ in range(p)] for _ in range(k)]
    alpha = [draw(_ENTRY) for _ in range(p)]
    return {"P": p, "N": m + 1, "k": k, "nodes": nodes, "psi": psi, "alpha": alpha}


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: if rank Ω_k = P (the hypothesis), Ω_k⁺x̃_k must equal α; else vacuously true."""
    from recmem.theory.sparse import recovery_instance

    cols = inst["psi"]
    basis = [[[cols[t][i] for t in range(inst["k"])]] for i in range(inst["P"])]
    r = recovery_instance(QQi(Fraction(1, 2)), [inst["nodes"]], basis, inst["alpha"], inst["k"])
    values = {"P": inst["P"], "N": inst["N"], "k": inst["k"],
              "nodes": [str(q) for q in inst["nodes"]],
              "Psi_k": [[str(v) for v in row] for row in cols],
              "alpha": [str(v) for v in inst["alpha"]], "rank_Omega": r["rank"]}
    if r["rank"] < inst["P"]:
        return Instance(True, "exact arithmetic over ℚ(i)", values,
                        "rank Ω_k < P: outside the hypothesis (vacuously true)")
    ok = bool(r["recovered"]) and bool(r["state_ok"])
    return Instance(ok, "exact arithmetic over ℚ(i)", values,
                    "" if ok else "Ω_k⁺x̃_k ≠ α with rank Ω_k = P")


CLAIMS = [
    Claim(
        id="O.sparse",
        title="Sparse recovery α = Ω_k⁺x_k",
        statement="With u_{1:k} = Ψ_kα and Ω_k = V_kΨ_k (rank P, N > P + 1): α = Ω_k⁺x_k "
                  "(x_k: the N − 1 Vandermonde channels of the state)",
        provenance=Provenance("O", "§3.2 eq. (6); App. B eq. (21)–(22)", QUOTE),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·(k + N − 1)·κ₂(Ω_k)·u with κ₂ "
                  "certified from the exact Ω_k (floats)",
        uses=("O.vandermonde-form", "O.reconstruct"),
        params=(p_n(12, "state size N including the timestamp channel (N − 1 Vandermonde rows)"),
                sp.p_length(32), sp.p_count(4), sp.p_ks(), sp.p_exact_nodes(), p_rmin(), p_rmax()),
        symbolic=symbolic,
        numeric=numeric,
        strategy=lambda ctx: instances(),
        holds=holds,
        notes="Ψ: the first P Haar functions (±1, exact; numerics.haar). 'auto' steps: the first k "
              "with rank Ψ_k = P (k = 25 for L = 32, P = 4) and k = L; for smaller k the Haar Ψ_k "
              "has rank < P and the hypothesis fails.",
    ),
]
