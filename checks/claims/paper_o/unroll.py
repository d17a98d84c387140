"""O.unroll: x_k = Σ_{j=0}^{k-1} Λ^j B u_{k−j} (O §3, eq. 3), and its 0-based reading.

Under CLAIMS.md's convention (1-based time, x_0 = 0) eq. (3) is the unrolled recurrence. The
paper's own text starts "from x_{-1} = 0" and lists x_0 = Bu_0 (0-based time); read that way,
eq. (3)'s sum stops one term short (it omits Λ^k B u_0), so that reading is a separate claim,
refuted, with its correction (sum up to j = k) as a third claim.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
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
    complex_matrix,
    describe,
    real_matrix,
    recurrence_instances,
    summation_kappa,
)
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.theory.exact_linalg import product
from recmem.theory.recurrence import Unrolled

# Stream tags of the exact draws (B and u are independent of the nodes' stream).
TAG_B, TAG_U = 101, 102

QUOTE_RECURRENCE = ("from x_{-1} = 0, x_k = Λx_{k-1} + Bu_k, (2) where Λ = diag(λ_1, λ_2, …, λ_N) "
                    "∈ ℂ^{N×N} is a diagonal complex matrix and B ∈ ℂ^{N×M} is the input "
                    "projection matrix")
QUOTE_UNROLL = ("Unrolling eq. (2) we get, x_0 = Bu_0, x_1 = ΛBu_0 + Bu_1, x_2 = Λ²Bu_0 + ΛBu_1 "
                "+ Bu_2 … x_k = Σ_{j=0}^{k-1} Λ^j Bu_{k-j}. (3)")


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by polynomial expansion and induction (theory.recurrence)."""
    from recmem.theory.recurrence import unroll_proof

    t0 = time.perf_counter()
    proof = unroll_proof(ctx.law(Unrolled), int(ctx["k_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def _problem(ctx: Context, count: int) -> tuple[Any, list[list[QQi]], list[list[QQi]],
                                                 list[list[QQi]]]:
    """Nodes, exact B (N×M complex), ``count`` inputs (M×count real) and the exact drive B·u."""
    nodes = draw_nodes(ctx)
    n, m = len(nodes), int(ctx["M"])
    seed = ctx.seed + int(ctx["draw"])
    b = complex_matrix(seed, TAG_B, n, m)
    u = real_matrix(seed, TAG_U, m, count)
    return nodes, b, u, product(b, u)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """x_k by running the recurrence from rest (the definition) vs the statement's closed form,
    both in ``backend``; the inputs are u_origin … u_k."""
    law = ctx.law(Unrolled)
    k = int(ctx["k"])
    count = k - law.origin + 1
    nodes, b, u, d = _problem(ctx, count)
    kappa = summation_kappa(nodes, d, count)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(bk)
        drive = bk.matmul(bk.matrix(b), bk.matrix(u))  # column t − origin is B u_t
        x_k = bk.entries(bk.columns(bk.recurrence(lam, drive), count - 1, count))
        cols = [bk.entries(bk.columns(drive, c, c + 1)) for c in range(count)]
        zero = bk.entries(bk.vector([QQi(Fraction(0))]))[0]

        def component(i: int) -> Callable[[int], Any]:
            return lambda t: cols[t - law.origin][i]

        closed = [law.closed_form(li, component(i), k, zero)
                  for i, li in enumerate(bk.entries(lam))]
        return bk.vector_of(x_k), bk.vector_of(closed)

    # Horner (recurrence) and the explicit sum each err by ≤ γ_{≈2k}·T (complex products):
    # n = 2·count with c = 4 covers both sides' bounds; κ is the summation condition number.
    instance = {"k": k, "origin": law.origin, "M": int(ctx["M"]), "nodes": nodes.description,
                "seed": ctx.seed + int(ctx["draw"])}
    return [identity_check(f"x_k by the recurrence vs the closed form, k = {k}, "
                           f"M = {ctx['M']}, {nodes.description}", backend, compute,
                           instance=instance, kappa=kappa, n=2 * count)]


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact judge over ℚ(i): the recurrence's state x_k vs the statement's closed form."""
    from recmem.theory.exact_linalg import _dom
    from recmem.theory.recurrence import exact_closed_form, exact_states

    law = ctx.law(Unrolled)
    nodes, b, u, k = inst["nodes"], inst["B"], inst["u"], inst["k"]
    states = exact_states(nodes, b, u)  # u lists u_origin … u_k; at rest before any input
    x = states[-1] if states else [_dom().zero] * len(nodes)
    closed = exact_closed_form(law, nodes, b, u, k)
    return Instance(x == closed, "exact arithmetic over ℚ(i)",
                    {**describe(inst), "x_k (recurrence)": [str(e) for e in x],
                     "closed form": [str(e) for e in closed]})


def strategy(ctx: Context) -> Any:
    """Instances {nodes, B, u_origin … u_k, k} over the statement's domain (any diagonal Λ, any
    B, real inputs), from k = origin − 1 (nothing fed yet) up."""
    return recurrence_instances(origin=ctx.law(Unrolled).origin)


def _params(k: int = 16) -> tuple[Param, ...]:
    return (p_n(8), Param("M", 2, "input dimension M (B is N×M, complex)", int,
                          check=at_least(1), max=512, cost=grows(8 * 512 * 512)),
            Param("k", k, "time step k of eq. (3) (the length of the input fed)", int,
                  check=at_least(1), max=512, cost=grows(8 * 512, 2)),
            p_nodes("ring"), p_rmin(), p_rmax(), p_seed_offset(),
            Param("k_max_symbolic", 6, "largest k of the symbolic polynomial expansion", int,
                  check=at_least(1), max=64, cost=grows(1000, 3)))


READING_ZERO = "paper's own 0-based indexing of §2–3: x_{-1}=0, x_0=Bu_0"
TOL = ("exact (SymPy, ℚ(i)); enclosure (flint); c·n·κ·u with n = 2k and κ = ‖Σ|Λ^j B u|‖/‖x_k‖ "
       "the summation condition number at 128 bits (floats)")


def _claims() -> list[Claim]:
    return [
        Claim(
            id="O.unroll",
            summary="eq. 3 under the 1-based convention (SymPy expansion + induction, all backends)",
            title="Unrolled linear recurrence",
            statement=Unrolled(origin=1, upper=-1),
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            params=_params(),
            symbolic=symbolic,
            numeric=numeric,
            strategy=strategy,
            holds=holds,
            notes="CLAIMS.md convention: 1-based time, x_0 = 0, x_k = Λx_{k-1} + Bu_k.",
        ),
        Claim(
            id="O.unroll.zero-based",
            summary="read with the paper's own 0-based text (x₋₁ = 0, x₀ = Bu₀), eq. 3 misses Λ^k B "
                    "u₀: k = 0, u₀ = 1",
            title="Unrolled recurrence, 0-based reading",
            statement=Unrolled(origin=0, upper=-1),
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            uses=("O.unroll",),
            params=_params(),
            symbolic=symbolic,
            numeric=numeric,
            strategy=strategy,
            holds=holds,
            reading=READING_ZERO,
            notes="The listed x_0, x_1, x_2 are right; eq. (3)'s upper limit k−1 drops Λ^k B u_0.",
        ),
        Claim(
            id="O.unroll.zero-based.corrected",
            summary="the 0-based sum runs to j = k",
            title="Unrolled recurrence, 0-based reading, corrected sum",
            statement=Unrolled(origin=0, upper=0),
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            uses=("O.unroll",),
            params=_params(),
            symbolic=symbolic,
            numeric=numeric,
            strategy=strategy,
            holds=holds,
            corrects="O.unroll.zero-based",
            reading=READING_ZERO,
        ),
    ]


CLAIMS = _claims()
