"""What the recurrence claims of paper O share (§3, eq. 2–5): exact draws, the k parameter, the
summation condition number that scales the recurrence tolerances, and search strategies.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks.claim import Context, Param, at_least, grows
from recmem.checks.strategies import simple_gaussians, simple_rationals
from recmem.numerics import nodes as nd
from recmem.numerics.exact import QQi, to_mpc

# Bits of the exact dyadic draws: 53 random bits, so every draw is exactly a float64.
DRAW_BITS = 53
# Working precision of the summation condition number (it needs few correct digits).
KAPPA_BITS = 128


def p_k(default: int, help: str) -> Param:
    """The time step / number of columns k; 0 is a sentinel where the claim says so."""
    # N ≤ 512 rows of k exact powers of up to ~8k bytes each
    return Param("k", default, help, int, check=at_least(0), max=512, cost=grows(8 * 512, 2))


def k_at_most_n(values: Mapping[str, Any]) -> str | None:
    """Joint parameter check (a usage error before anything runs): 0 ≤ k ≤ N, 0 meaning k = N."""
    k, n = int(values["k"]), int(values["N"])
    return None if 0 <= k <= n else f"parameter k must satisfy 1 ≤ k ≤ N (N = {n}), got k = {k}"


def resolve_k(ctx: Context, n: int, *, zero_means_n: bool = True, k_max: int | None = None) -> int:
    """k from the context: 0 means k = N when ``zero_means_n``; validated 1 ≤ k ≤ k_max (or N).

    A per-parameter check cannot see N, so the cross-parameter condition is enforced here and a
    violation raises ``ValueError`` naming both values.
    """
    k = int(ctx["k"])
    if k == 0 and zero_means_n:
        k = n
    hi = n if k_max is None else k_max
    if not 1 <= k <= hi:
        raise ValueError(f"parameter k must satisfy 1 ≤ k ≤ {'N' if k_max is None else hi} "
                         f"(N = {n}), got k = {k}")
    return k


def dyadic_uniforms(seed: int, tag: int, count: int) -> list[Fraction]:
    """``count`` exact dyadic uniforms on [−1, 1) with 53 random bits (exact float64 values).

    ``tag`` separates independent streams drawn from one seed (B, u, …).
    """
    rng = np.random.default_rng([seed, tag])
    hi = rng.integers(0, 2**26, size=count, dtype=np.int64)
    lo = rng.integers(0, 2**27, size=count, dtype=np.int64)
    # m/2^52 − 1 with m < 2^53: |numerator| < 2^53, so exactly representable in float64
    return [Fraction(int(h) * 2**27 + int(lo_), 2 ** (DRAW_BITS - 1)) - 1
            for h, lo_ in zip(hi, lo, strict=True)]


def complex_matrix(seed: int, tag: int, rows: int, cols: int) -> list[list[QQi]]:
    """A rows×cols matrix of exact dyadic Gaussian rationals with parts in [−1, 1)."""
    d = dyadic_uniforms(seed, tag, 2 * rows * cols)
    return [[QQi(d[2 * (i * cols + j)], d[2 * (i * cols + j) + 1]) for j in range(cols)]
            for i in range(rows)]


def real_matrix(seed: int, tag: int, rows: int, cols: int) -> list[list[QQi]]:
    """A rows×cols matrix of exact real dyadic rationals in [−1, 1) (O's inputs are real)."""
    d = dyadic_uniforms(seed, tag, rows * cols)
    return [[QQi(d[i * cols + j]) for j in range(cols)] for i in range(rows)]


def summation_kappa(nodes: nd.Nodes, drive: list[list[QQi]], k: int) -> mpmath.mpf:
    """Condition number of the final state x_k = Σ_{c=1}^{k} Λ^{k−c} d_c as a sum: ‖T‖₂/‖x‖₂.

    T_i = Σ_c |λ_i|^{k−c} |d_{i,c}| (first k columns of ``drive``). Both the recurrence (Horner's
    rule in λ_i) and the explicit sum of eq. (3) compute x_{k,i} with an error below
    γ_{ck}·T_i (Higham, *Accuracy and Stability*, §5.1 and §3.1; complex products add a constant),
    so ‖lhs − rhs‖/‖x‖ ≤ c·k·u·‖T‖/‖x‖: κ = ‖T‖/‖x‖ is the problem's condition number, computed
    here at 128 bits from the exact inputs (never from the float backend).
    """
    ctx = mpmath.MPContext()
    ctx.prec = KAPPA_BITS
    lam = nodes.mp(ctx)
    t2, x2 = ctx.mpf(0), ctx.mpf(0)
    for i, li in enumerate(lam):
        t, x = ctx.mpf(0), ctx.mpc(0)
        for c in range(k):
            d = to_mpc(drive[i][c], ctx)
            p = li ** (k - 1 - c)
            t += abs(p) * abs(d)
            x += p * d
        t2 += t * t
        x2 += abs(x) ** 2
    if x2 == 0:
        return mpmath.inf
    return mpmath.mpf(ctx.sqrt(t2 / x2))


def ones_drive(u: list[QQi], n: int) -> list[list[QQi]]:
    """The drive B u_t with M = 1 and B = (1,…,1)ᵀ: every row is u_1 … u_k (O eq. 4)."""
    return [list(u) for _ in range(n)]


# ---- search strategies (exact values; shrink towards small sizes and simple numbers) --------

def recurrence_instances(n_max: int = 3, m_max: int = 2, k_max: int = 5, origin: int = 1) -> Any:
    """Instances {nodes, B, u, k} of the recurrence over its stated domain.

    Λ's diagonal and B are complex (nodes drawn in the closed unit disk, B's entries with parts
    in [−1, 1]); ``u`` lists the inputs u_origin … u_k, from k = origin − 1 (none fed) up;
    inputs are real (O §2: "real M-dimensional inputs").
    """
    from hypothesis import strategies as st

    gauss = st.sampled_from(simple_gaussians())
    real = st.sampled_from(simple_rationals()).map(QQi)

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        n = draw(st.integers(1, n_max))
        m = draw(st.integers(1, m_max))
        k = draw(st.integers(origin - 1, k_max))
        nodes = draw(st.lists(gauss, min_size=n, max_size=n))
        b = [draw(st.lists(gauss, min_size=m, max_size=m)) for _ in range(n)]
        count = k - origin + 1
        u = [draw(st.lists(real, min_size=m, max_size=m)) for _ in range(count)]
        return {"nodes": nodes, "B": b, "u": u, "k": k}

    return build()


def describe(instance: dict[str, Any]) -> dict[str, Any]:
    """An instance as strings for a counterexample record."""
    return {"k": instance["k"], "N": len(instance["nodes"]), "M": len(instance["B"][0]),
            "nodes": [str(q) for q in instance["nodes"]],
            "B": [[str(q) for q in row] for row in instance["B"]],
            "u": [[str(q) for q in row] for row in instance["u"]]}
