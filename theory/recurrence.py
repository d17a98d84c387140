"""Unrolling the linear recurrence of paper O (§3, eq. 2–4), symbolically and exactly.

Conventions (CLAIMS.md): 1-based time, ``x_0 = 0``, ``x_k = Λ x_{k-1} + B u_k``. The paper's own
text (§2–3) starts "from x_{-1} = 0" and lists ``x_0 = Bu_0, x_1 = ΛBu_0 + Bu_1, …`` (0-based),
which is a second reading of eq. (3); both are derived here.

Exact instance helpers work over ℚ(i) (SymPy ``QQ_I``) and are the ground truth of the
counterexample searches.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof

# ---------------------------------------------------------------------------------------------
# exact instances over ℚ(i)


def exact_states(nodes: Sequence[QQi], b: Sequence[Sequence[QQi]],
                 inputs: Sequence[Sequence[QQi]]) -> list[list[Any]]:
    """States x_1 … x_k of x_t = Λ x_{t-1} + B u_t from x_0 = 0 (O eq. 2), exactly over ℚ(i).

    ``nodes`` are the diagonal of Λ (N values), ``b`` is N×M, ``inputs`` lists u_1 … u_k (each of
    length M). Returns the list of states as ``QQ_I`` elements. (For the 0-based reading pass
    u_0 … u_k: the t-th state returned is then x_{t-1}.)
    """
    from recmem.theory.exact_linalg import _dom, element

    dom = _dom()
    lam = [element(q) for q in nodes]
    bb = [[element(q) for q in row] for row in b]
    x = [dom.zero] * len(lam)
    out = []
    for u in inputs:
        ue = [element(q) for q in u]
        x = [lam[i] * x[i] + sum((bb[i][m] * ue[m] for m in range(len(ue))), dom.zero)
             for i in range(len(lam))]
        out.append(x)
    return out


def exact_unrolled(nodes: Sequence[QQi], b: Sequence[Sequence[QQi]],
                   inputs: Sequence[Sequence[QQi]], k: int, lowest: int = 0,
                   highest: int | None = None) -> list[Any]:
    """Σ_{j=lowest}^{highest} Λ^j B u_{k−j} exactly (O eq. 3 is lowest = 0, highest = k−1).

    ``inputs[t]`` is u_t for the index set the caller uses (so index 0 is u_0 in the 0-based
    reading and a placeholder u_0 = 0 in the 1-based one).
    """
    from recmem.theory.exact_linalg import _dom, element

    dom = _dom()
    hi = k - 1 if highest is None else highest
    lam = [element(q) for q in nodes]
    bb = [[element(q) for q in row] for row in b]
    acc = [dom.zero] * len(lam)
    for j in range(lowest, hi + 1):
        u = [element(q) for q in inputs[k - j]]
        for i in range(len(lam)):
            bu = sum((bb[i][m] * u[m] for m in range(len(u))), dom.zero)
            acc[i] += lam[i] ** j * bu
    return acc


# ---------------------------------------------------------------------------------------------
# symbolic derivations


def _sum_step(lower_start: int) -> tuple[bool, list[str]]:
    """The induction step for S_k = Σ_{j=0}^{k-1+lower_start} Λ^j B u_{k−j}: Λ S_k + B u_{k+1} = S_{k+1}.

    Λ, B and the u_t are noncommuting symbols, so the step holds for any square Λ (diagonal or
    not) and any B. ``lower_start`` = 0 is eq. (3) as printed (upper limit k − 1); 1 is the
    0-based correction (upper limit k). The steps: peel the j = 0 term off S_{k+1} (valid as the
    upper limit is ≥ 0), shift the remaining index j → j + 1, and compare summands and limits.
    """
    import sympy as sp

    k, j = sp.symbols("k j", integer=True, nonnegative=True)
    lam = sp.Symbol("Lambda", commutative=False)
    b = sp.Symbol("B", commutative=False)
    u = sp.IndexedBase("u", commutative=False)

    def term(kk: Any, jj: Any) -> Any:
        return lam**jj * b * u[kk - jj]

    top = k - 1 + lower_start
    steps = []
    # S_{k+1} = term(k+1, 0) + Σ_{j=1}^{top+1} term(k+1, j)
    peeled = term(k + 1, 0)
    tail = sp.Sum(term(k + 1, j), (j, 1, top + 1))
    shifted = tail.change_index(j, j - 1)  # j ← j+1: limits become 0 … top
    lhs_sum = sp.Sum(lam * term(k, j), (j, 0, top))  # Λ S_k, Λ moved inside the sum
    same_limits = shifted.limits == lhs_sum.limits
    same_summand = sp.expand(shifted.function - lhs_sum.function) == 0
    same_peel = sp.expand(peeled - b * u[k + 1]) == 0
    steps.append(f"S_(k+1) = {peeled} + {shifted}")
    steps.append(f"Λ S_k = {lhs_sum}; limits equal: {same_limits}; summands equal: {same_summand}")
    steps.append(f"peeled j=0 term equals B u_(k+1): {same_peel}")
    # sanity of the symbolic manipulation on concrete k (the peel and shift are exact for k ≥ 0)
    for kk in range(0, 4):
        full = sp.Sum(term(kk + 1, j), (j, 0, kk + lower_start)).doit()
        rebuilt = lam * sp.Sum(term(kk, j), (j, 0, kk - 1 + lower_start)).doit() + b * u[kk + 1]
        if sp.expand(full - rebuilt) != 0:
            return False, [*steps, f"concrete check failed at k = {kk}"]
    return same_limits and same_summand and same_peel, steps


def _poly_ring(n: int, m: int, steps: int) -> tuple[Any, list[Any], list[list[Any]], list[list[Any]]]:
    """ℤ[λ_i, b_il, u_tl]: generators for a diagonal Λ (N = n), B (n×m) and u_0 … u_{steps}."""
    import sympy as sp
    from sympy import ZZ

    names = [f"l{i}" for i in range(n)] + [f"b{i}_{c}" for i in range(n) for c in range(m)] \
        + [f"u{t}_{c}" for t in range(steps + 1) for c in range(m)]
    ring, *gens = sp.ring(",".join(names), ZZ)
    lam = gens[:n]
    bb = [gens[n + i * m: n + (i + 1) * m] for i in range(n)]
    off = n + n * m
    uu = [gens[off + t * m: off + (t + 1) * m] for t in range(steps + 1)]
    return ring, lam, bb, uu


def _iterate(ring: Any, lam: list[Any], bb: list[list[Any]], uu: list[list[Any]],
             first: int, last: int) -> list[list[Any]]:
    """States after feeding u_first … u_last into x = Λx + Bu from the zero state."""
    x = [ring.zero] * len(lam)
    out = []
    for t in range(first, last + 1):
        x = [lam[i] * x[i] + sum((bb[i][c] * uu[t][c] for c in range(len(uu[t]))), ring.zero)
             for i in range(len(lam))]
        out.append(x)
    return out


def _closed(ring: Any, lam: list[Any], bb: list[list[Any]], uu: list[list[Any]], k: int,
            hi: int) -> list[Any]:
    """Σ_{j=0}^{hi} Λ^j B u_{k−j} as polynomials."""
    acc = [ring.zero] * len(lam)
    for j in range(0, hi + 1):
        for i in range(len(lam)):
            acc[i] += lam[i] ** j * sum((bb[i][c] * uu[k - j][c] for c in range(len(uu[0]))),
                                        ring.zero)
    return acc


def unroll_identity(k_max: int = 6, n: int = 2, m: int = 2) -> Proof:
    """O §3 eq. (3) in the 1-based convention: x_k = Σ_{j=0}^{k-1} Λ^j B u_{k−j}, x_0 = 0.

    Two symbolic arguments:
    1. induction for all k ≥ 0 and any square Λ, B (noncommuting symbols): base x_0 = 0 = empty
       sum; step Λ S_k + B u_{k+1} = S_{k+1} by peeling j = 0 and shifting the index;
    2. full polynomial expansion over ℤ[λ, B, u] of the iterated recurrence against the closed
       form for every k ≤ ``k_max`` with a diagonal Λ of size ``n`` and a general ``n``×``m`` B.
    """
    t0 = time.perf_counter()
    ok, steps = _sum_step(0)
    if not ok:
        return Proof(None, "induction step", "SymPy Sum reindexing", details={"steps": steps})
    ring, lam, bb, uu = _poly_ring(n, m, k_max)
    states = _iterate(ring, lam, bb, uu, 1, k_max)
    for k in range(1, k_max + 1):
        closed = _closed(ring, lam, bb, uu, k, k - 1)
        if closed != states[k - 1]:
            diff = [str((a - c).as_expr()) for a, c in zip(states[k - 1], closed, strict=True)]
            return Proof(False, f"k = {k}", "polynomial expansion",
                         counterexample={"k": k, "x_k - closed form": diff})
    return Proof(True, "all k ≥ 0, any square Λ and any B (induction with noncommuting symbols, "
                 f"recmem.theory.recurrence.unroll_identity); expansion checked for k ≤ {k_max}, "
                 f"diagonal Λ with N = {n}, general B of size {n}×{m}",
                 "SymPy: Sum peel-and-shift induction step + polynomial expansion over ℤ[λ, B, u]",
                 details={"induction": " | ".join(steps),
                          "seconds": round(time.perf_counter() - t0, 3)})


def unroll_zero_based(k_max: int = 6, n: int = 2, m: int = 2) -> Proof:
    """O §3 eq. (3) in the paper's own 0-based reading (x_{-1} = 0, x_0 = Bu_0): it fails.

    Iterating from x_{-1} = 0 gives x_k = Σ_{j=0}^{k} Λ^j B u_{k−j}; eq. (3)'s sum stops at
    j = k − 1, so x_k − (eq. 3) = Λ^k B u_0. The difference is checked to be exactly Λ^k B u_0 as a
    polynomial for k ≤ ``k_max``; the specialisation k = 0, N = M = 1, B = 1, u_0 = 1 gives the
    exact counterexample x_0 = 1 ≠ 0 = (empty sum).
    """
    t0 = time.perf_counter()
    ring, lam, bb, uu = _poly_ring(n, m, k_max)
    states = _iterate(ring, lam, bb, uu, 0, k_max)  # states[k] = x_k, k = 0 … k_max
    for k in range(0, k_max + 1):
        closed = _closed(ring, lam, bb, uu, k, k - 1)
        diff = [a - c for a, c in zip(states[k], closed, strict=True)]
        expected = [lam[i] ** k * sum((bb[i][c] * uu[0][c] for c in range(m)), ring.zero)
                    for i in range(n)]
        if diff != expected:
            return Proof(None, f"k = {k}", "polynomial expansion: unexpected difference",
                         details={"difference": [str(d.as_expr()) for d in diff]})
    # the smallest instance, evaluated from the polynomials: k = 0, N = M = 1, λ = 0, B = 1,
    # u_0 = 1 (every other generator 0)
    r1, l1, b1, u1 = _poly_ring(1, 1, 0)
    point = {l1[0]: 0, b1[0][0]: 1, u1[0][0]: 1}
    values = [point[g] for g in r1.gens]
    lam0, b0, u0 = 0, 1, 1
    x0 = _iterate(r1, l1, b1, u1, 0, 0)[0][0](*values)
    printed = _closed(r1, l1, b1, u1, 0, -1)[0](*values)  # Σ_{j=0}^{-1}: the empty sum
    if x0 == printed:  # pragma: no cover - the specialisation is the certificate
        return Proof(None, "k = 0", "specialisation did not separate the two sides")
    return Proof(False, f"0-based reading, every k ≤ {k_max}: x_k − (eq. 3) = Λ^k B u_0 as a "
                 "polynomial, so eq. (3) fails exactly when Λ^k B u_0 ≠ 0 (e.g. k = 0, Bu_0 ≠ 0)",
                 "SymPy: polynomial expansion over ℤ[λ, B, u] of the recurrence from x_{-1} = 0",
                 counterexample={"k": 0, "N": 1, "M": 1, "lambda": str(lam0), "B": str(b0),
                                 "u_0": str(u0), "x_0 (recurrence)": str(x0),
                                 "eq. (3) (empty sum)": str(printed),
                                 "difference in general": "Λ^k B u_0"},
                 details={"seconds": round(time.perf_counter() - t0, 3)})


def unroll_zero_based_corrected(k_max: int = 6, n: int = 2, m: int = 2) -> Proof:
    """The 0-based correction of O eq. (3): from x_{-1} = 0, x_k = Σ_{j=0}^{k} Λ^j B u_{k−j}.

    Induction (base x_0 = Bu_0 = the j = 0 term; step by peel-and-shift with noncommuting
    symbols) for all k ≥ 0, plus polynomial expansion for k ≤ ``k_max``.
    """
    t0 = time.perf_counter()
    ok, steps = _sum_step(1)
    if not ok:
        return Proof(None, "induction step", "SymPy Sum reindexing", details={"steps": steps})
    ring, lam, bb, uu = _poly_ring(n, m, k_max)
    states = _iterate(ring, lam, bb, uu, 0, k_max)
    for k in range(0, k_max + 1):
        closed = _closed(ring, lam, bb, uu, k, k)
        if closed != states[k]:
            return Proof(False, f"k = {k}", "polynomial expansion",
                         counterexample={"k": k})
    return Proof(True, "all k ≥ 0, any square Λ and any B (induction, "
                 "recmem.theory.recurrence.unroll_zero_based_corrected); expansion checked for "
                 f"k ≤ {k_max}, diagonal Λ with N = {n}, B of size {n}×{m}",
                 "SymPy: Sum peel-and-shift induction step + polynomial expansion",
                 details={"induction": " | ".join(steps),
                          "seconds": round(time.perf_counter() - t0, 3)})


def vandermonde_form_identity(k_max: int = 6, n_max: int = 4) -> Proof:
    """O §3.1 eq. (4): with M = 1 and B = (1,…,1)ᵀ, x_k = V_k u_{1:k}, V_k[i, j] = λ_i^{k−j}.

    For every N ≤ ``n_max`` and k ≤ ``k_max`` the iterated recurrence (symbolic λ_i, u_t) is
    compared with the product V_k u as polynomials. General argument (all N, k): by eq. (3)
    (``O.unroll``) component i of x_k is Σ_{j=0}^{k-1} λ_i^j u_{k−j}; substituting j = k − j'
    gives Σ_{j'=1}^{k} λ_i^{k−j'} u_{j'} = (V_k u)_i. The substitution is checked with SymPy.
    """
    import sympy as sp
    from sympy import ZZ

    t0 = time.perf_counter()
    k, j = sp.symbols("k j", integer=True, positive=True)
    lam = sp.Symbol("lambda_i")
    u = sp.IndexedBase("u")
    eq3 = sp.Sum(lam**j * u[k - j], (j, 0, k - 1))
    reindexed = eq3.change_index(j, k - j)  # j' = k − j runs from k down to 1: Karr reversal
    row = sp.Sum(lam ** (k - j) * u[j], (j, 1, k))
    # Sum.change_index reverses the limits (Karr's convention) into j' = 1 … k
    reindex_ok = (sp.expand(reindexed.function - row.function) == 0
                  and reindexed.limits == row.limits)
    if not reindex_ok:
        return Proof(None, "reindexing", "SymPy Sum.change_index",
                     details={"reindexed": str(reindexed), "row": str(row)})
    for n in range(1, n_max + 1):
        names = [f"l{i}" for i in range(n)] + [f"u{t}" for t in range(1, k_max + 1)]
        ring, *gens = sp.ring(",".join(names), ZZ)
        lams, us = gens[:n], gens[n:]
        x = [ring.zero] * n
        for kk in range(1, k_max + 1):
            x = [lams[i] * x[i] + us[kk - 1] for i in range(n)]  # B = ones: (B u_k)_i = u_k
            vu = [sum((lams[i] ** (kk - jj) * us[jj - 1] for jj in range(1, kk + 1)), ring.zero)
                  for i in range(n)]
            if vu != x:
                return Proof(False, f"N = {n}, k = {kk}", "polynomial expansion",
                             counterexample={"N": n, "k": kk,
                                             "x_k - V_k u": [str((a - b).as_expr())
                                                             for a, b in zip(x, vu, strict=True)]})
    return Proof(True, f"polynomial identity for all N ≤ {n_max}, k ≤ {k_max}; all N, k by "
                 "eq. (3) and the substitution j' = k − j (recmem.theory.recurrence."
                 "vandermonde_form_identity)",
                 "SymPy: polynomial expansion over ℤ[λ, u] + Sum.change_index",
                 details={"reindexed eq. (3) row": str(reindexed),
                          "seconds": round(time.perf_counter() - t0, 3)})
