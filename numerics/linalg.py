"""Linear algebra of the claims, written once against the backend interface (paper O §3)."""

from __future__ import annotations

from typing import Any

from recmem.numerics.backend import AbstractBackend


def product_of_differences(backend: AbstractBackend, nodes: Any) -> Any:
    """Π_{i<j}(λ_i − λ_j) as a native scalar.

    In ball arithmetic a running product of N(N−1)/2 complex balls loses about 0.36 bit per
    factor to rectangular enclosures (NUMERICS.md pitfall 3); exp(Σ log(λ_i − λ_j)) keeps the
    radius small, and exp∘Σlog is the product whatever branch each log takes.
    """
    lam = backend.entries(nodes)
    diffs = [lam[i] - lam[j] for i in range(len(lam)) for j in range(i + 1, len(lam))]
    if not diffs:
        return backend.entries(backend.vector([_one()]))[0]
    if backend.encloses:
        acc = backend.log(diffs[0])
        for d in diffs[1:]:
            acc = acc + backend.log(d)
        return backend.exp(acc)
    prod = diffs[0]
    for d in diffs[1:]:
        prod = prod * d
    return prod


def _one() -> Any:
    from fractions import Fraction

    from recmem.numerics.exact import QQi

    return QQi(Fraction(1))


def unrolled_state(backend: AbstractBackend, nodes: Any, drive: Any, k: int) -> Any:
    """x_k = Σ_{j=0}^{k-1} Λ^j (B u)_{k−j} (O eq. 3, 1-based time) for a diagonal Λ.

    ``drive`` is the N×L matrix whose column j−1 is B u_j; the sum is formed as the row sums of
    V_k ⊙ drive[:, :k], since (V_k)_{i,j} = λ_i^{k−j}.
    """
    v = backend.vandermonde(nodes, k)
    return backend.row_sums(backend.hadamard(v, backend.columns(drive, 0, k)))
