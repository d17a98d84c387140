"""Vandermonde identities of paper O, §3.1 (eq. 4 and the determinant below eq. 5)."""

from __future__ import annotations

import itertools
import time

from recmem.theory.proof import Proof


def det_identity(n_max: int = 8) -> Proof:
    """det V_N = Π_{i<j}(λ_i − λ_j) for V_N with decreasing powers (O §3.1), as polynomials.

    For each N ≤ ``n_max``, the determinant is expanded by the Leibniz formula over ℤ[λ_1…λ_N]
    (each permutation contributes one distinct monomial, so the expansion is exact and cheap)
    and compared with the expanded product.

    General argument (all N): reversing the N columns of O's V_N gives the classical Vandermonde
    matrix with increasing powers, whose determinant is Π_{i<j}(λ_j − λ_i). Reversing N columns is
    a permutation of sign (−1)^{N(N−1)/2}, and Π_{i<j}(λ_j − λ_i) = (−1)^{N(N−1)/2} Π_{i<j}(λ_i − λ_j):
    the two signs cancel, so det V_N = Π_{i<j}(λ_i − λ_j) with no sign correction.
    """
    import sympy as sp
    from sympy import ZZ
    from sympy.combinatorics import Permutation

    t0 = time.perf_counter()
    for n in range(1, n_max + 1):
        ring, *gens = sp.ring(",".join(f"l{i}" for i in range(1, n + 1)), ZZ)
        terms = {}
        for perm in itertools.permutations(range(n)):
            # row i takes column perm[i], whose entry is λ_i^(n-1-perm[i])
            terms[tuple(n - 1 - perm[i] for i in range(n))] = Permutation(list(perm)).signature()
        det = ring.from_dict(terms)
        prod = ring.one
        for i in range(n):
            for j in range(i + 1, n):
                prod *= gens[i] - gens[j]
        if det != prod:
            return Proof(False, f"N = {n}", "Leibniz expansion vs expanded product",
                         counterexample={"N": n, "det - product": str((det - prod).as_expr())})
        # the general argument's sign bookkeeping, checked for this N
        if (-1) ** (n * (n - 1) // 2) * (-1) ** (n * (n - 1) // 2) != 1:  # pragma: no cover
            return Proof(False, f"N = {n}", "sign of the column reversal")
    return Proof(True, f"polynomial identity for all N ≤ {n_max}; all N by the column-reversal "
                 "argument (recmem.theory.vandermonde.det_identity)",
                 "Leibniz expansion over ℤ[λ] vs expanded product",
                 details={"seconds": round(time.perf_counter() - t0, 3)})
