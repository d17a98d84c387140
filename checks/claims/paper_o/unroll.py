"""O.unroll: x_k = Σ_{j=0}^{k-1} Λ^j B u_{k−j} (O §3, eq. 3), and its 0-based reading.

Under CLAIMS.md's convention (1-based time, x_0 = 0) eq. (3) is the unrolled recurrence. The
paper's own text starts "from x_{-1} = 0" and lists x_0 = Bu_0 (0-based time); read that way,
eq. (3)'s sum stops one term short (it omits Λ^k B u_0), so that reading is a separate claim,
refuted, with its correction (sum up to j = k) as a third claim.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import (
    draw_nodes,
    p_n,
    p_nodes,
    p_rmax,
    p_rmin,
    p_seed_offset,
    proof_evidence,
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
from recmem.checks.verdict import Evidence
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.linalg import unrolled_state
from recmem.theory.exact_linalg import product
from recmem.theory.proof import Proof

# Stream tags of the exact draws (B and u are independent of the nodes' stream).
TAG_B, TAG_U = 101, 102

QUOTE_RECURRENCE = ("from x_{-1} = 0, x_k = Λx_{k-1} + Bu_k, (2) where Λ = diag(λ_1, λ_2, …, λ_N) "
                    "∈ ℂ^{N×N} is a diagonal complex matrix and B ∈ ℂ^{N×M} is the input "
                    "projection matrix")
QUOTE_UNROLL = ("Unrolling eq. (2) we get, x_0 = Bu_0, x_1 = ΛBu_0 + Bu_1, x_2 = Λ²Bu_0 + ΛBu_1 "
                "+ Bu_2 … x_k = Σ_{j=0}^{k-1} Λ^j Bu_{k-j}. (3)")


def _symbolic(theory: Callable[[int], Proof]) -> Callable[[Context], list[Evidence]]:
    def run(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [proof_evidence(theory(int(ctx["k_max_symbolic"])), time.perf_counter() - t0)]

    return run


def _problem(ctx: Context, columns: int) -> tuple[Any, list[list[QQi]], list[list[QQi]],
                                                  list[list[QQi]]]:
    """Nodes, exact B (N×M complex), inputs (M×columns real) and the exact drive B·u."""
    nodes = draw_nodes(ctx)
    n, m = len(nodes), int(ctx["M"])
    seed = ctx.seed + int(ctx["draw"])
    b = complex_matrix(seed, TAG_B, n, m)
    u = real_matrix(seed, TAG_U, m, columns)
    return nodes, b, u, product(b, u)


def _drive(backend: AbstractBackend, b: list[list[QQi]], u: list[list[QQi]]) -> Any:
    # B u_t formed in the backend: both sides of the identity then share the same drive.
    return backend.matmul(backend.matrix(b), backend.matrix(u))


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Recurrence (eq. 2) vs. the closed form (eq. 3) for x_k, 1-based: x_0 = 0, u_1 … u_k."""
    k = int(ctx["k"])
    nodes, b, u, d = _problem(ctx, k)
    kappa = summation_kappa(nodes, d, k)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(bk)
        drive = _drive(bk, b, u)
        states = bk.recurrence(lam, drive)
        return bk.columns(states, k - 1, k), unrolled_state(bk, lam, drive, k)

    # Horner (recurrence) and the explicit sum each err by ≤ γ_{≈2k}·T (complex products):
    # n = 2k with c = 4 covers both sides' bounds; κ is the summation condition number.
    return [identity_check(f"x_k by recurrence vs eq. (3), k = {k}, M = {ctx['M']}, "
                           f"{nodes.description}", backend, compute, kappa=kappa, n=2 * k)]


def numeric_zero_based(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """0-based reading: x_k from x_{-1} = 0 fed u_0 … u_k vs eq. (3) as printed (j ≤ k − 1)."""
    k = int(ctx["k"])
    nodes, b, u, d = _problem(ctx, k + 1)
    kappa = max(summation_kappa(nodes, d, k + 1), summation_kappa(nodes, [r[1:] for r in d], k))

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(bk)
        drive = _drive(bk, b, u)  # columns u_0 … u_k
        states = bk.recurrence(lam, drive)  # column t is x_t
        printed = unrolled_state(bk, lam, bk.columns(drive, 1, k + 1), k)  # Σ_{j<k} Λ^j B u_{k−j}
        return bk.columns(states, k, k + 1), printed

    return [identity_check(f"x_k from x_(-1) = 0 vs eq. (3) as printed, k = {k}, "
                           f"{nodes.description}", backend, compute, kappa=kappa, n=2 * (k + 1))]


def numeric_corrected(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """0-based correction: x_k from x_{-1} = 0 vs Σ_{j=0}^{k} Λ^j B u_{k−j}."""
    k = int(ctx["k"])
    nodes, b, u, d = _problem(ctx, k + 1)
    kappa = summation_kappa(nodes, d, k + 1)

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        lam = nodes.to(bk)
        drive = _drive(bk, b, u)
        states = bk.recurrence(lam, drive)
        return bk.columns(states, k, k + 1), unrolled_state(bk, lam, drive, k + 1)

    return [identity_check(f"x_k from x_(-1) = 0 vs Σ_(j=0)^k Λ^j B u_(k−j), k = {k}, "
                           f"{nodes.description}", backend, compute, kappa=kappa, n=2 * (k + 1))]


def _holds(zero_based: bool, highest_offset: int) -> Callable[[dict[str, Any], Context], Instance]:
    """Exact judge: recurrence state x_k vs Σ_{j=0}^{k−1+highest_offset} Λ^j B u_{k−j}."""

    def holds(inst: dict[str, Any], ctx: Context) -> Instance:
        from recmem.theory.exact_linalg import _dom
        from recmem.theory.recurrence import exact_states, exact_unrolled

        nodes, b, u, k = inst["nodes"], inst["B"], inst["u"], inst["k"]
        m = len(b[0])
        if zero_based:
            inputs = u  # u_0 … u_k
            states = exact_states(nodes, b, inputs)
            x = states[k]
        else:
            inputs = [[QQi(0)] * m, *u]  # index t is u_t; u_0 is a placeholder, never used
            states = exact_states(nodes, b, u)
            x = states[k - 1] if k > 0 else [_dom().zero] * len(nodes)
        closed = exact_unrolled(nodes, b, inputs, k, highest=k - 1 + highest_offset)
        return Instance(x == closed, "exact arithmetic over ℚ(i)",
                        {**describe(inst), "x_k (recurrence)": [str(e) for e in x],
                         "closed form": [str(e) for e in closed]})

    return holds


def _params(k: int = 16) -> tuple[Param, ...]:
    return (p_n(8), Param("M", 2, "input dimension M (B is N×M, complex)", int,
                          check=at_least(1)),
            Param("k", k, "time step k of eq. (3) (the length of the input fed)", int,
                  check=at_least(1)),
            p_nodes("ring"), p_rmin(), p_rmax(), p_seed_offset(),
            Param("k_max_symbolic", 6, "largest k of the symbolic polynomial expansion", int,
                  check=at_least(1)))


READING_ZERO = "paper's own 0-based indexing of §2–3: x_{-1}=0, x_0=Bu_0"
TOL = ("exact (SymPy, ℚ(i)); enclosure (flint); c·n·κ·u with n = 2k and κ = ‖Σ|Λ^j B u|‖/‖x_k‖ "
       "the summation condition number at 128 bits (floats)")


def _claims() -> list[Claim]:
    from recmem.theory import recurrence as th

    return [
        Claim(
            id="O.unroll",
            title="Unrolled linear recurrence",
            statement="x_k = Σ_{j=0}^{k-1} Λ^j B u_{k-j} for x_k = Λx_{k-1} + Bu_k from rest "
                      "(1-based: x_0 = 0)",
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            params=_params(),
            symbolic=_symbolic(th.unroll_identity),
            numeric=numeric,
            strategy=lambda ctx: recurrence_instances(),
            holds=_holds(zero_based=False, highest_offset=0),
            notes="CLAIMS.md convention: 1-based time, x_0 = 0, x_k = Λx_{k-1} + Bu_k.",
        ),
        Claim(
            id="O.unroll.zero-based",
            title="Unrolled recurrence, 0-based reading",
            statement="from x_{-1} = 0 (so x_0 = Bu_0): x_k = Σ_{j=0}^{k-1} Λ^j B u_{k-j}",
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            uses=("O.unroll",),
            params=_params(),
            symbolic=_symbolic(th.unroll_zero_based),
            numeric=numeric_zero_based,
            strategy=lambda ctx: recurrence_instances(zero_based=True),
            holds=_holds(zero_based=True, highest_offset=0),
            reading=READING_ZERO,
            notes="The listed x_0, x_1, x_2 are right; eq. (3)'s upper limit k−1 drops Λ^k B u_0.",
        ),
        Claim(
            id="O.unroll.zero-based.corrected",
            title="Unrolled recurrence, 0-based reading, corrected sum",
            statement="from x_{-1} = 0 (so x_0 = Bu_0): x_k = Σ_{j=0}^{k} Λ^j B u_{k-j}",
            provenance=Provenance("O", "§2 eq. (2), §3 eq. (3)",
                                  QUOTE_RECURRENCE + " … " + QUOTE_UNROLL),
            tolerance=TOL,
            uses=("O.unroll",),
            params=_params(),
            symbolic=_symbolic(th.unroll_zero_based_corrected),
            numeric=numeric_corrected,
            strategy=lambda ctx: recurrence_instances(zero_based=True),
            holds=_holds(zero_based=True, highest_offset=1),
            corrects="O.unroll.zero-based",
            reading=READING_ZERO,
        ),
    ]


CLAIMS = _claims()
