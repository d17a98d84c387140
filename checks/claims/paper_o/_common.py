"""What the paper-O claims share: parameters, node draws, strategies and conditioning caches."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from fractions import Fraction
from typing import Any

from recmem.checks.claim import Context, Param, at_least, grows, in_unit_interval, parse_fraction
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import KappaBracket, kappa2, vandermonde_builder
from recmem.numerics.linalg import power_matrix_builder


def p_n(default: int, help: str = "number of nodes N (state size)") -> Param:
    # exact N×N Vandermonde entries λ^j of up to ~8N bytes each: 8N³ bytes
    return Param("N", default, help, int, check=at_least(1), max=512, cost=grows(8, 3))


def p_nodes(default: str = "ring") -> Param:
    return Param("nodes", default, "node family: ring (Lemma 6), real, roots (of unity)", str,
                 choices=nd.FAMILIES)


def p_rmin(default: Fraction = Fraction(9, 10)) -> Param:
    return Param("r_min", default, "inner radius of the ring T(r_min, r_max)", parse_fraction,
                 check=in_unit_interval)


def p_rmax(default: Fraction = Fraction(1)) -> Param:
    return Param("r_max", default, "outer radius (ring) or half-width (real)", parse_fraction,
                 check=in_unit_interval)


def p_seed_offset() -> Param:
    return Param("draw", 0, "which draw of the nodes (added to --seed)", int, check=at_least(0),
                 max=2**32 - 1)  # like --seed


def draw_nodes(ctx: Context, n: int | None = None) -> nd.Nodes:
    """The claim's nodes from its parameters, cached in ``ctx.shared``: they are exact inputs
    that depend on the parameters and the seed only, not on the statement under test, so the
    statement and its controls read the same draw (drawn once)."""
    n = int(ctx["N"]) if n is None else n
    fam = ctx.params.get("nodes", "ring")
    r_min = ctx.params.get("r_min", Fraction(9, 10))
    r_max = ctx.params.get("r_max", Fraction(1))
    seed = ctx.seed + int(ctx.params.get("draw", 0))
    key = ("nodes", n, fam, r_min, r_max, seed)  # everything the draw depends on
    if key not in ctx.shared:
        if fam == "ring" and r_min > r_max:
            raise ValueError(f"need r_min ≤ r_max, got {r_min} > {r_max}")
        ctx.shared[key] = nd.make(fam, n, r_min=r_min, r_max=r_max, seed=seed)
    return ctx.shared[key]  # type: ignore[no-any-return,unused-ignore]


def vandermonde_kappa(ctx: Context, nodes: nd.Nodes, k: int) -> KappaBracket:
    """Certified κ₂(V_k) at high precision, cached in ``ctx.shared`` (a certified condition
    number of exact nodes, keyed by them: the same for the statement and its controls)."""
    key = ("kappa", nodes, k)
    if key not in ctx.shared:
        ctx.shared[key] = kappa2(vandermonde_builder(nodes, k))
    return ctx.shared[key]  # type: ignore[no-any-return,unused-ignore]


def leading_nodes(nodes: nd.Nodes, m: int) -> nd.Nodes:
    """The first ``m`` of ``nodes`` (the same draw, fewer nodes)."""
    if m == len(nodes):
        return nodes
    return nd.Nodes(nodes.family,
                    values=nodes.values[:m] if nodes.values is not None else None,
                    turns=nodes.turns[:m] if nodes.turns is not None else None,
                    description=f"the first {m} of {nodes.description}")


def power_matrix_kappa(ctx: Context, nodes: nd.Nodes, powers: tuple[int, ...]) -> KappaBracket:
    """Certified σ_1/σ_r of the matrix λ_i^(powers[j]) (r = min(N, k) = its rank for distinct
    nonzero nodes), at high precision, cached in ``ctx.shared`` (keyed by the exact nodes and
    the exponents, which the statement under test chooses: a control that changes the matrix
    gets its own).

    For a tall or square matrix this is κ₂; for a wide one (k > N), whose κ₂ is ∞, it is the
    ratio over its N nonzero singular values — the conditioning of the minimum-norm solution
    a⁺b, computed from the (full-column-rank) transpose.
    """
    key = ("power kappa", nodes, powers)
    if key not in ctx.shared:
        wide = len(powers) > len(nodes)
        ctx.shared[key] = kappa2(power_matrix_builder(nodes, powers, transpose=wide))
    return ctx.shared[key]  # type: ignore[no-any-return,unused-ignore]


def small_matrices(backend: AbstractBackend) -> AbstractContextManager[None]:
    """The scope of a point arithmetic's work on the claims' small matrices: one torch intra-op
    thread on a CPU (:func:`recmem.numerics.training.one_cpu_thread`), a no-op for every other
    arithmetic. The matrices are tens of rows: two threads only add synchronisation, which on
    a loaded 2-core machine made a 64×64 complex product and SVD 10–15× slower in wall time and
    3× in CPU time than one thread (measured)."""
    if backend.spec.kind == "torch" and (backend.spec.device or "cpu") == "cpu":
        from recmem.numerics.training import one_cpu_thread

        return one_cpu_thread()
    return nullcontext()


def exact_values(values: Any) -> list[str]:
    """Exact values as strings for a counterexample record."""
    return [str(v) for v in values]
