"""O.reconstruct: for N ≥ k and distinct λ, u_{1:k} = V_k⁺ x_k (O §3.1, eq. 5)."""

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
    vandermonde_kappa,
)
from recmem.checks.claims.paper_o._recurrence import (
    k_at_most_n,
    ones_drive,
    p_k,
    real_matrix,
    resolve_k,
    simple_gaussians,
    simple_rationals,
)
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, all_distinct

TAG_U = 301


def _inputs(ctx: Context, k: int) -> list[QQi]:
    """The exact real input u_1 … u_k (dyadic, exact in float64)."""
    return real_matrix(ctx.seed + int(ctx["draw"]), TAG_U, 1, k)[0]


def symbolic(ctx: Context) -> list[Evidence]:
    """General argument (full column rank from the Vandermonde determinant) + the claim's own
    instance exactly over ℚ(i) when its nodes are Gaussian rationals and N ≤ n_max_exact."""
    from recmem.theory.reconstruction import reconstruct_identity

    t0 = time.perf_counter()
    nodes = draw_nodes(ctx)
    n = len(nodes)
    k = resolve_k(ctx, n)
    exact_ok = nodes.values is not None and n <= int(ctx["n_max_exact"])
    if exact_ok and not all_distinct(nodes.values or ()):
        # coincident exact nodes are outside the hypotheses: only the general argument applies
        exact_ok = False
    proof = reconstruct_identity(int(ctx["n_max_symbolic"]),
                                 nodes.values if exact_ok else None,
                                 _inputs(ctx, k) if exact_ok else None)
    ev = from_proof(proof, time.perf_counter() - t0)
    if not exact_ok:
        why = ("roots of unity are algebraic, not in ℚ(i): O.roots-of-unity gives V_kᴴV_k = N·I_k, "
               "so V_k⁺ = V_kᴴ/N exactly" if nodes.values is None
               else f"N = {n} > n_max_exact = {ctx['n_max_exact']}")
        ev.message += f" (the claim's own instance is not checked exactly: {why})"
    return [ev]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """x_k from the recurrence (B = ones), then V_k⁺ x_k in the backend, vs. the exact input."""
    nodes = draw_nodes(ctx)
    n = len(nodes)
    k = resolve_k(ctx, n)
    u = _inputs(ctx, k)
    kappa = vandermonde_kappa(ctx, nodes, k)
    drive = ones_drive(u, n)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(b)
        x = b.columns(b.recurrence(lam, b.matrix(drive)), k - 1, k)
        return b.pinv_apply(b.vandermonde(lam, k), x), b.matrix([[q] for q in u])

    # Error sources: x_k carries ≤ γ_{2k}|V_k||u| (so ‖δx‖ ≤ 2k^{3/2}u‖V_k‖‖u‖), amplified by
    # ‖V_k⁺‖; the SVD-based pseudo-inverse is backward stable with a backward error
    # ≤ p(N, k)·u·‖V_k‖ (p a low-degree polynomial), amplified by κ₂ for a consistent system.
    # n = N·k bounds both polynomial factors for the sizes used; κ₂ comes from flint (certified).
    return [identity_check(f"V_k⁺ x_k vs u_(1:k), N = {n}, k = {k}, {nodes.description}",
                           backend, compute, kappa=kappa, n=n * k)]


def strategy(ctx: Context) -> Any:
    """The stated domain: N ≤ 5 distinct exact nodes in the closed unit disk, 1 ≤ k ≤ N, real u."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        n = draw(st.integers(1, 5))
        k = draw(st.integers(1, n))
        nodes = draw(st.lists(st.sampled_from(simple_gaussians()), min_size=n, max_size=n,
                              unique=True))
        u = draw(st.lists(st.sampled_from(simple_rationals()).map(QQi), min_size=k, max_size=k))
        return {"nodes": nodes, "u": u}

    return build()


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact V_k⁺ x_k == u over ℚ(i), x_k from the exact recurrence."""
    from recmem.theory.reconstruction import exact_reconstruction

    ok, info = exact_reconstruction(inst["nodes"], inst["u"])
    return Instance(ok, "exact arithmetic over ℚ(i)",
                    {"nodes": [str(q) for q in inst["nodes"]], "u": [str(q) for q in inst["u"]],
                     **info})


CLAIMS = [
    Claim(
        id="O.reconstruct",
        title="Reconstruction by the Vandermonde pseudo-inverse",
        statement="For N ≥ k and distinct λ: u_{1:k} = V_k⁺ x_k",
        provenance=Provenance("O", "§3.1, eq. (5)",
                              "As long as N ≥ k, we can hope to recover u_{1:k} by pseudoinversion "
                              "of the Vandermonde matrix V_k: u_{1:k} = V_k^+ x_k. (5) … the matrix "
                              "V_N is invertible since det(V_N) = ∏_{1≤i<j≤N}(λ_i − λ_j) ≠ 0 with "
                              "probability one"),
        tolerance="exact (SymPy, ℚ(i)); enclosure (flint); c·n·κ₂(V_k)·u with n = N·k and κ₂ "
                  "certified by flint (floats; INCONCLUSIVE when c·n·κ₂·u ≥ 1/2)",
        uses=("O.vandermonde-form", "O.det"),
        params=(p_n(12), p_k(0, "columns k of V_k, 1 ≤ k ≤ N (0: k = N)"), p_nodes("ring"),
                p_rmin(), p_rmax(), p_seed_offset(),
                Param("n_max_symbolic", 6, "largest k of the symbolic determinant step", int,
                      check=at_least(1)),
                Param("n_max_exact", 16, "largest N whose own instance is checked exactly over "
                      "ℚ(i)", int, check=at_least(0))),
        validate=k_at_most_n,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="float checks go INCONCLUSIVE where κ₂(V_k) exceeds what the precision resolves "
              "(e.g. nodes=real, N=40: κ₂ ≈ 1e21)",
    ),
]
