"""O.reconstruct: for N ≥ k and distinct λ, u_{1:k} = V_k⁺ x_k (O §3.1, eq. 5).

One statement (theory.reconstruction.Reconstruction) read by every side. Each arithmetic runs the
recurrence (the definition of x_k) and applies its own Moore–Penrose solution to the statement's
V_k, at the requested k and at the largest k the statement's hypothesis admits.
"""

from __future__ import annotations

import time
from typing import Any

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows, grows_factorial
from recmem.checks.claims.paper_o._common import (
    draw_nodes,
    p_n,
    p_nodes,
    p_rmax,
    p_rmin,
    p_seed_offset,
    power_matrix_kappa,
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
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, all_distinct
from recmem.numerics.linalg import constant, min_norm_solve, power_matrix
from recmem.theory.reconstruction import Reconstruction

TAG_U = 301


def _inputs(ctx: Context, n: int) -> list[QQi]:
    """Exact real inputs u_1 … u_(2N) (dyadic, exact in float64); every k ≤ 2N uses a prefix,
    so the statement and its controls see the same inputs."""
    return real_matrix(ctx.seed + int(ctx["draw"]), TAG_U, 1, 2 * n)[0]


def _distinct(nodes: nd.Nodes) -> bool:
    if nodes.values is not None:
        return all_distinct(nodes.values)
    return len(set(nodes.turns or ())) == len(nodes)


def symbolic(ctx: Context) -> list[Evidence]:
    """Exact probes at the domain's boundary, the general argument (full column rank from the
    Vandermonde determinant), and the claim's own instance exactly over ℚ(i) when its nodes are
    Gaussian rationals and N ≤ n_max_exact."""
    from recmem.theory.reconstruction import reconstruct_proof

    law = ctx.law(Reconstruction)
    t0 = time.perf_counter()
    nodes = draw_nodes(ctx)
    n = len(nodes)
    k = resolve_k(ctx, n)
    exact_ok = (nodes.values is not None and n <= int(ctx["n_max_exact"])
                and law.admits(n, k, _distinct(nodes)))
    proof = reconstruct_proof(law, int(ctx["n_max_symbolic"]),
                              nodes.values if exact_ok else None,
                              _inputs(ctx, n)[:k] if exact_ok else None)
    ev = from_proof(proof, time.perf_counter() - t0)
    if not exact_ok and proof.holds is not False:
        why = ("roots of unity are algebraic, not in ℚ(i): O.roots-of-unity gives V_kᴴV_k = N·I_k, "
               "so V_k⁺ = V_kᴴ/N exactly" if nodes.values is None
               else f"N = {n} > n_max_exact = {ctx['n_max_exact']}" if n > int(ctx["n_max_exact"])
               else "the drawn nodes are outside the hypotheses")
        ev.message += f" (the claim's own instance is not checked exactly: {why})"
    return [ev]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """x_k from the recurrence (B = ones), then the statement's right side with the backend's
    Moore–Penrose solution, vs the exact input u_(1:k), for k ∈ {requested k, k_max(N)}."""
    law = ctx.law(Reconstruction)
    nodes = draw_nodes(ctx)
    n = len(nodes)
    ks = sorted({resolve_k(ctx, n), law.k_max(n)})
    check = f"V_k⁺ x_k vs u_(1:k), N = {n}, {nodes.description}"
    if not all(law.admits(n, k, _distinct(nodes)) for k in ks):
        return [Evidence(check=check, kind="numeric", backend=backend.name,
                         outcome=Outcome.INCONCLUSIVE,
                         message=f"the drawn instance (N = {n}, k ∈ {ks}) is outside the "
                                 "statement's hypotheses")]
    u = _inputs(ctx, n)
    drive = ones_drive(u[:max(ks)], n)
    # κ is σ_1/σ_k of each matrix used (σ_1/σ_N for a wide one: the conditioning of the
    # minimum-norm solution), certified by flint at 128 bits; the largest one scales the check.
    kappa = max((power_matrix_kappa(ctx, nodes, tuple(law.powers(k))) for k in ks),
                key=lambda kb: kb.value)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(b)
        states = b.recurrence(lam, b.matrix(drive))
        got: list[Any] = []
        for k in ks:
            x = b.columns(states, k - 1, k)
            # V_k⁺x_k of one matrix in one arithmetic is memoised in ctx.shared, keyed by what
            # determines it (arithmetic, precision, exact nodes, exponents, k and the length of
            # the drive that made x_k): it does not depend on the statement beyond its
            # exponents, so a control that keeps V_k (the changed constant) reads the
            # statement's solution, and one that changes V_k or k computes its own.
            key = ("V_k⁺x_k", b.name, b.precision_bits, nodes, tuple(law.powers(k)), k,
                   max(ks))

            def solve(a: Any, y: Any, key: tuple[Any, ...] = key) -> Any:
                if key not in ctx.shared:
                    ctx.shared[key] = min_norm_solve(b, a, y)
                return ctx.shared[key]

            got += law.reconstruction(power_matrix(b, lam, law.powers(k)), x,
                                      pinv_apply=solve, entries=b.entries,
                                      lift=lambda c: constant(b, c))
        if b.encloses and not all(e.is_finite() for e in got):
            raise _Indeterminate(b.precision_bits)
        return b.vector_of(got), b.vector([q for k in ks for q in u[:k]])

    # Error sources: x_k carries ≤ γ_{2k}|V_k||u| (so ‖δx‖ ≤ 2k^{3/2}u‖V_k‖‖u‖), amplified by
    # ‖V_k⁺‖; the SVD-based pseudo-inverse is backward stable with a backward error
    # ≤ p(N, k)·u·‖V_k‖ (p a low-degree polynomial), amplified by κ₂ for a consistent system.
    # n = N·k bounds both polynomial factors for the sizes used.
    instance = {"N": n, "k": ks, "nodes": nodes.description,
                "u": f"seed {ctx.seed + int(ctx['draw'])}, tag {TAG_U}"}
    try:
        return [identity_check(check, backend, compute, instance=instance, kappa=kappa,
                               n=n * max(ks))]
    except _Indeterminate as exc:
        # flint's solver returned an indeterminate ball (every bit lost); the core's radius
        # cannot read one, so the precision it needs is reported here
        return [Evidence(check=check, kind="numeric", backend=backend.name,
                         outcome=Outcome.INCONCLUSIVE, precision_bits=exc.bits,
                         condition_number=str(kappa),
                         needed_bits=tol.needed_bits(4.0, n * max(ks), kappa.value),
                         message=f"ball arithmetic at {exc.bits} bits returned an indeterminate "
                                 "enclosure of V_k⁺x_k (κ₂·u too large)")]


class _Indeterminate(ArithmeticError):
    """A ball computation lost every bit (an enclosure with infinite radius)."""

    def __init__(self, bits: int) -> None:
        super().__init__(f"indeterminate enclosure at {bits} bits")
        self.bits = bits


def strategy(ctx: Context) -> Any:
    """The statement's domain, read from its hypotheses (:meth:`Reconstruction.admits`): N ≤ 5
    nodes in the closed unit disk, the first one repeated in about a quarter of the draws, and
    1 ≤ k ≤ k_max(N) + 1 with the boundary k = k_max(N) and the step beyond it drawn often, real
    exact inputs; kept when the statement admits them."""
    from hypothesis import strategies as st

    law = ctx.law(Reconstruction)

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        n = draw(st.integers(1, 5))
        top = max(law.k_max(n), 0) + 1
        k = draw(st.one_of(st.sampled_from([top - 1, top]), st.integers(1, top)))
        nodes = draw(st.lists(st.sampled_from(simple_gaussians()), min_size=n, max_size=n))
        if n >= 2 and draw(st.integers(0, 3)) == 0:
            nodes[1] = nodes[0]
        u = draw(st.lists(st.sampled_from(simple_rationals()).map(QQi), min_size=k, max_size=k))
        return {"nodes": nodes, "u": u}

    return build().filter(lambda i: law.admits(len(i["nodes"]), len(i["u"]),
                                               all_distinct(i["nodes"])))


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """The statement's right side (exact Moore–Penrose pseudo-inverse) vs u over ℚ(i), x_k from
    the exact recurrence."""
    from recmem.theory.reconstruction import exact_reconstruction

    ok, info = exact_reconstruction(inst["nodes"], inst["u"], ctx.law(Reconstruction))
    return Instance(ok, "exact arithmetic over ℚ(i)",
                    {"nodes": [str(q) for q in inst["nodes"]], "u": [str(q) for q in inst["u"]],
                     **info})


CLAIMS = [
    Claim(
        id="O.reconstruct",
        summary="eq. 5; a float64 check is INCONCLUSIVE once κ₂(V_k)·u ≳ 1 (e.g. 40 real nodes)",
        title="Reconstruction by the Vandermonde pseudo-inverse",
        statement=Reconstruction(),
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
                      check=at_least(1), max=9, cost=grows_factorial(1000)),  # k! terms
                Param("n_max_exact", 16, "largest N whose own instance is checked exactly over "
                      "ℚ(i)", int, check=at_least(0), max=512, cost=grows(8, 3))),
        validate=k_at_most_n,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="float checks go INCONCLUSIVE where κ₂(V_k) exceeds what the precision resolves "
              "(e.g. nodes=real, N=40: κ₂ ≈ 1e21)",
    ),
]
