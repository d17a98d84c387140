"""O.vandermonde-form: with M = 1, B = (1,…,1)ᵀ, x_k = V_k u_{1:k}, V_k[i,j] = λ_i^{k−j} (O eq. 4).

One statement (theory.vandermonde.VandermondeForm) read by every side: the symbolic expansion and
reindexing, the exact judge of the search, and each arithmetic, which runs the recurrence (the
definition) and evaluates the statement's V_k u from its exponents.
"""

from __future__ import annotations

import time
from typing import Any

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
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
from recmem.numerics.linalg import constant
from recmem.theory.vandermonde import VandermondeForm

TAG_U = 201


def symbolic(ctx: Context) -> list[Evidence]:
    """Polynomial expansion for small N, k and the reindexing of eq. (3) for all N, k."""
    from recmem.theory.vandermonde import vandermonde_form_proof

    t0 = time.perf_counter()
    proof = vandermonde_form_proof(ctx.law(VandermondeForm), int(ctx["k_max_symbolic"]),
                                   int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """x_k by running the recurrence with B = ones (the definition) vs the statement's V_k u,
    evaluated row by row from its exponents, both in ``backend``."""
    law = ctx.law(VandermondeForm)
    nodes = draw_nodes(ctx)
    n, k = len(nodes), int(ctx["k"])
    seed = ctx.seed + int(ctx["draw"])
    u = real_matrix(seed, TAG_U, 1, k)[0]
    drive = ones_drive(u, n)
    # x_k = V_k u is a sum of k terms per row; the recurrence (Horner) and the explicit sum of
    # powers (λ^p by binary powering) each err by ≤ γ_{≈2k}·(|V_k||u|)_i, so the summation
    # condition number κ = ‖|V_k||u|‖/‖V_k u‖ (128 bits, from the exact inputs) scales both.
    kappa = summation_kappa(nodes, drive, k)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(b)
        states = b.recurrence(lam, b.matrix(drive))
        us = b.entries(b.vector(u))
        zero = constant(b, 0)
        vu = [law.row_product(li, us, k, zero) for li in b.entries(lam)]
        return b.columns(states, k - 1, k), b.vector_of(vu)

    instance = {"N": n, "k": k, "nodes": nodes.description, "u": f"seed {seed}, tag {TAG_U}"}
    return [identity_check(f"x_k by the recurrence (B = 1) vs V_k u, k = {k}, "
                           f"{nodes.description}", backend, compute, instance=instance,
                           kappa=kappa, n=2 * k)]


def strategy(ctx: Context) -> Any:
    """The statement's domain: N ≤ 4 nodes in the closed unit disk (λ_i ∈ ℂ, eq. 4), k ≥ 1
    (k = 1 included: V_1 is a column), real exact inputs."""
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
    """Exact x_k from the recurrence with B = ones vs the statement's V_k u over ℚ(i)."""
    from recmem.theory.vandermonde import exact_form

    nodes, u = inst["nodes"], inst["u"]
    x, vu = exact_form(ctx.law(VandermondeForm), nodes, u)
    return Instance(x == vu, "exact arithmetic over ℚ(i)",
                    {"N": len(nodes), "k": len(u), "nodes": [str(q) for q in nodes],
                     "u": [str(q) for q in u], "x_k": [str(e) for e in x],
                     "V_k u": [str(e) for e in vu]})


CLAIMS = [
    Claim(
        id="O.vandermonde-form",
        summary="eq. 4",
        title="Recurrence as a Vandermonde product",
        statement=VandermondeForm(),
        provenance=Provenance("O", "§3.1, eq. (4)",
                              "Let M = 1 and B = (1, 1, …, 1)ᵀ ∈ ℝ^{N×M}. Then, eq. (3) can be "
                              "written as a matrix multiplication, recalling Λ = diag(λ_1, …, "
                              "λ_N), λ_i ∈ ℂ: x_k = (λ_1^{k-1} λ_1^{k-2} … λ_1 1; …; λ_N^{k-1} "
                              "λ_N^{k-2} … λ_N 1)(u_1, u_2, …, u_k)ᵀ = V_k u_{1:k}. (4)"),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·n·κ·u with n = 2k and "
                  "κ = ‖|V_k||u|‖/‖V_k u‖ at 128 bits (floats)",
        uses=("O.unroll",),
        params=(p_n(16), Param("k", 24, "time step k (columns of V_k)", int, check=at_least(1),
                               max=512, cost=grows(8 * 512, 2)),
                p_nodes("ring"), p_rmin(), p_rmax(), p_seed_offset(),
                Param("n_max_symbolic", 4, "largest N of the symbolic polynomial identity", int,
                      check=at_least(1), max=64, cost=grows(1000 * 64, 2)),
                Param("k_max_symbolic", 6, "largest k of the symbolic polynomial identity", int,
                      check=at_least(1), max=64, cost=grows(1000 * 64, 2))),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
    ),
]
