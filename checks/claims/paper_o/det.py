"""O.det: det V_N = Π_{1≤i<j≤N} (λ_i − λ_j) for V_N with decreasing powers (O §3.1)."""

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
    vandermonde_kappa,
)
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.strategies import node_lists
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.linalg import product_of_differences


def symbolic(ctx: Context) -> list[Evidence]:
    from recmem.theory.vandermonde import det_identity

    t0 = time.perf_counter()
    proof = det_identity(int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    nodes = draw_nodes(ctx)
    n = len(nodes)
    kappa = vandermonde_kappa(ctx, nodes, n)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(b)
        v = b.vandermonde(lam, n)
        return b.matrix_of_scalar(b.det(v)), b.matrix_of_scalar(product_of_differences(b, lam))

    # LU's backward error δA (‖δA‖ ≲ n·u·‖A‖) moves det by |tr(A⁻¹δA)| ≤ n·κ·‖δA‖/‖A‖: hence n².
    return [identity_check(f"det V_N vs Π(λ_i − λ_j), {nodes.description}", backend, compute,
                           kappa=kappa, n=n * n)]


def holds(instance: list[Any], ctx: Context) -> Instance:
    from recmem.theory import exact_linalg as ex

    lhs = ex.vandermonde(instance, len(instance)).det()
    rhs = ex.product_of_differences(instance)
    return Instance(lhs == rhs, "exact arithmetic over ℚ(i)",
                    {"N": len(instance), "nodes": [str(q) for q in instance],
                     "det": str(lhs), "product": str(rhs)})


CLAIMS = [
    Claim(
        id="O.det",
        title="Vandermonde determinant",
        statement="det V_N = Π_{1≤i<j≤N} (λ_i − λ_j) for V_N as in eq. 4 (decreasing powers)",
        provenance=Provenance("O", "§3.1, below eq. (5)",
                              "the matrix V_N is invertible since det(V_N) = "
                              "∏_{1≤i<j≤N}(λ_i − λ_j) ≠ 0 with probability one"),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·N²·κ₂(V_N)·u (floats)",
        uses=("O.vandermonde-form",),
        params=(p_n(24), p_nodes("ring"), p_rmin(), p_rmax(),
                Param("n_max_symbolic", 8, "largest N of the symbolic polynomial identity", int,
                      check=at_least(1))),
        symbolic=symbolic,
        numeric=numeric,
        strategy=lambda ctx: node_lists(1, 6),
        holds=holds,
    ),
]
