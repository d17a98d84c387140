"""O.vandermonde-form: with M = 1, B = (1,…,1)ᵀ, x_k = V_k u_{1:k}, V_k[i,j] = λ_i^{k−j} (O eq. 4)."""

from __future__ import annotations

import time
from typing import Any

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import (
    draw_nodes,
    p_n,
    p_nodes,
    p_rmax,
    p_rmin,
    p_seed_offset,
)
from recmem.checks.claims.paper_o._recurrence import (
    ones_drive,
    real_matrix,
    simple_gaussians,
    simple_rationals,
    summation_kappa,
)
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi

TAG_U = 201


def symbolic(ctx: Context) -> list[Evidence]:
    """Polynomial identity for small N, k and the reindexing argument (theory.recurrence)."""
    from recmem.theory.recurrence import vandermonde_form_identity

    t0 = time.perf_counter()
    proof = vandermonde_form_identity(int(ctx["k_max_symbolic"]), int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The recurrence's x_k (B = ones) vs. the product V_k u computed in the backend."""
    nodes = draw_nodes(ctx)
    n, k = len(nodes), int(ctx["k"])
    u = real_matrix(ctx.seed + int(ctx["draw"]), TAG_U, 1, k)[0]
    drive = ones_drive(u, n)
    # x_k = V_k u is a sum of k terms per row; the recurrence (Horner) and the matrix-vector
    # product each err by ≤ γ_{≈2k}·(|V_k||u|)_i, so κ = ‖|V_k||u|‖/‖V_k u‖ (at 128 bits).
    kappa = summation_kappa(nodes, drive, k)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(b)
        states = b.recurrence(lam, b.matrix(drive))
        vu = b.matmul(b.vandermonde(lam, k), b.matrix([[q] for q in u]))
        return b.columns(states, k - 1, k), vu

    return [identity_check(f"x_k by recurrence (B = 1) vs V_k u, k = {k}, {nodes.description}",
                           backend, compute, kappa=kappa, n=2 * k)]


def strategy(ctx: Context) -> Any:
    """N ≤ 4 nodes in the closed unit disk (λ_i ∈ ℂ, eq. 4), 1 ≤ k ≤ 5, real exact inputs."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        n = draw(st.integers(1, 4))
        k = draw(st.integers(1, 5))
        nodes = draw(st.lists(st.sampled_from(simple_gaussians()), min_size=n, max_size=n))
        u = draw(st.lists(st.sampled_from(simple_rationals()).map(QQi), min_size=k, max_size=k))
        return {"nodes": nodes, "u": u}

    return build()


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact x_k from the recurrence with B = ones vs. exact V_k u over ℚ(i)."""
    from recmem.theory import exact_linalg as ex
    from recmem.theory.recurrence import exact_states

    nodes, u = inst["nodes"], inst["u"]
    k = len(u)
    x = exact_states(nodes, [[QQi(1)] for _ in nodes], [[q] for q in u])[-1]
    vu = ex.vandermonde(nodes, k) * ex.matrix([[q] for q in u])
    col = [row[0] for row in vu.to_list()]
    return Instance(x == col, "exact arithmetic over ℚ(i)",
                    {"N": len(nodes), "k": k, "nodes": [str(q) for q in nodes],
                     "u": [str(q) for q in u], "x_k": [str(e) for e in x],
                     "V_k u": [str(e) for e in col]})


CLAIMS = [
    Claim(
        id="O.vandermonde-form",
        title="Recurrence as a Vandermonde product",
        statement="With M = 1 and B = (1,…,1)ᵀ: x_k = V_k u_{1:k}, V_k[i,j] = λ_i^{k−j} "
                  "(columns λ^{k−1} … λ, 1)",
        provenance=Provenance("O", "§3.1, eq. (4)",
                              "Let M = 1 and B = (1, 1, …, 1)ᵀ ∈ ℝ^{N×M}. Then, eq. (3) can be "
                              "written as a matrix multiplication, recalling Λ = diag(λ_1, …, "
                              "λ_N), λ_i ∈ ℂ: x_k = (λ_1^{k-1} λ_1^{k-2} … λ_1 1; …; λ_N^{k-1} "
                              "λ_N^{k-2} … λ_N 1)(u_1, u_2, …, u_k)ᵀ = V_k u_{1:k}. (4)"),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·n·κ·u with n = 2k and "
                  "κ = ‖|V_k||u|‖/‖V_k u‖ at 128 bits (floats)",
        uses=("O.unroll",),
        params=(p_n(16), Param("k", 24, "time step k (columns of V_k)", int, check=at_least(1)),
                p_nodes("ring"), p_rmin(), p_rmax(), p_seed_offset(),
                Param("n_max_symbolic", 4, "largest N of the symbolic polynomial identity", int,
                      check=at_least(1)),
                Param("k_max_symbolic", 6, "largest k of the symbolic polynomial identity", int,
                      check=at_least(1))),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
    ),
]
