"""O.sparse: with u_{1:k} = Ψ_kα and Ω_k = V_kΨ_k (rank P, N > P + 1), α = Ω_k⁺x̃_k (O §3.2 eq. 6;
App. B eq. 21–22).

N is the state size *including* the timestamp channel, as in §3.2 ("Ω_k ∈ ℂ^{N−1×P} … we need
N > P + 1"): Ω_k has the N − 1 Vandermonde rows and x̃_k is the state without its timestamp entry.
The statement (formula and hypotheses) is ``theory.sparse.SparseRecovery``; every side reads it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o._common import p_n, p_rmax, p_rmin
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.sparse import SparseRecovery, judge_sparse, sparse_proof

QUOTE = ("x̃_k = V_k u_{1:k} = \\underbrace{V_k · Ψ_k}_{Ω_k} · α^{u_{1:k}}, (6) where "
         "Ω_k ∈ ℂ^{N−1×P}. "
         "Under the assumption that Ω_k has column rank greater than row rank, i.e. we need "
         "N > P + 1, we are able to solve the system for α^{u_{1:k}}. … Ω_k = V_k Ψ_k, such that "
         "x_k = Ω_k α^{u,k}. (21) … α^{u,k} = Ω_k^+ x_k. (22)")


def _problem(ctx: Context) -> sp.SparseProblem:
    return sp.problem(ctx, 1, int(ctx["N"]) - 1)


def _check_sizes(ctx: Context, law: SparseRecovery) -> None:
    """The default instance must satisfy the statement's size hypothesis (a usage error else)."""
    n, p = int(ctx["N"]), int(ctx["P"])
    if not law.admits_size(n, p):
        raise ValueError(f"the claim's hypothesis needs N > P + {law.n_margin}, got N={n}, P={p}")


_admissible = sp.parameter_check(lambda v: (1, int(v["N"]) - 1), SparseRecovery().recovery)


def _validate(values: Mapping[str, Any]) -> str | None:
    """The statement's size hypothesis N > P + margin, then a step k its rank hypothesis can admit
    (both before any work)."""
    law = SparseRecovery()
    n, p = int(values["N"]), int(values["P"])
    if not law.admits_size(n, p):
        return f"the claim's hypothesis needs N > P + {law.n_margin}, got N={n}, P={p}"
    return _admissible(values)


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided symbolically (theory.sparse.sparse_proof): the state lemma as a
    polynomial identity and the recovery step, or an exact counterexample."""
    t0 = time.perf_counter()
    proof = sparse_proof(ctx.law(SparseRecovery))
    return [from_proof(proof, time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """α̂ = G(Ω_k)x̃ in the backend, x̃ from the recurrence, against the exact α, at the first k
    the statement's rank hypothesis admits."""
    law = ctx.law(SparseRecovery)
    _check_sizes(ctx, law)
    prob = _problem(ctx)
    return [sp.recovery_part(backend, ctx, prob, law.recovery, k, f"α̂ vs α at k = {k}")
            for k in sp.steps(ctx, prob, law.recovery)]


SIZE_STEP = (0, 1, -1, -2)  # N − 1 − (P + margin): inside first, then outside


def instances(law: SparseRecovery) -> Any:
    """Small exact instances around the statement's domain: P ≤ 3, N − 1 from P + margin (the
    smallest size the hypothesis N > P + margin admits) and one more down to P − 2 (outside it),
    k ≤ 4 (k < P: rank-deficient Ψ_k, outside rank Ω_k = P), any exact integer Ψ_k and α (one draw
    each), distinct exact nodes in the closed unit disk. The simplest draw is a generic instance
    inside the hypothesis (``_sparse.int_matrix``, ``_sparse.distinct_nodes``)."""
    from hypothesis import strategies as st  # imported on first use: `recmem list` needs none

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        p = draw(sp.int_range(1, 3))
        rows = max(1, p + law.n_margin + draw(sp.sampled(SIZE_STEP)))
        k = draw(sp.int_range(1, 4))
        nodes = sp.distinct_nodes(draw, rows)
        psi = sp.int_matrix(draw, k, p)
        alpha = sp.int_matrix(draw, 1, p, salt=1)[0]
        return {"P": p, "N": rows + 1, "k": k, "nodes": nodes, "psi": psi, "alpha": alpha}

    return build()


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact (theory.sparse.judge_sparse): where the statement's hypotheses hold, its estimate
    must equal α; elsewhere vacuously true."""
    j = judge_sparse(ctx.law(SparseRecovery), inst)
    return Instance(j.holds, j.certified_by, j.values, j.detail)


CLAIMS = [
    Claim(
        id="O.sparse",
        summary="α = Ω_k⁺x_k under rank Ω_k = P",
        title="Sparse recovery α = Ω_k⁺x_k",
        statement=SparseRecovery(),
        provenance=Provenance("O", "§3.2 eq. (6); App. B eq. (21)–(22)", QUOTE),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·(k + N − 1)·κ₂(Ω_k)·u with κ₂ "
                  "certified from the exact Ω_k (floats)",
        uses=("O.vandermonde-form", "O.reconstruct"),
        params=(p_n(12, "state size N including the timestamp channel (N − 1 Vandermonde rows)"),
                sp.p_length(32), sp.p_count(4),
                sp.p_ks(auto="the first k with rank Ω_k = P, the edge of the hypothesis"),
                sp.p_exact_nodes(), p_rmin(), p_rmax()),
        validate=_validate,
        symbolic=symbolic,
        numeric=numeric,
        strategy=lambda ctx: instances(ctx.law(SparseRecovery)),
        holds=holds,
        notes="Ψ: the first P Haar functions (±1, exact; numerics.haar). 'auto' step: the first k "
              "the statement's hypothesis admits (k = 25 for L = 32, P = 4: for smaller k the Haar "
              "Ψ_k has rank < P); a control that widens the hypothesis is checked where it first "
              "differs (k = 17, rank Ω_k = 3). N > P + 1 is not needed: rank Ω_k = P forces "
              "N − 1 ≥ P, so that hypothesis has no control.",
    ),
]
