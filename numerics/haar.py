"""The Haar basis of paper O's sparse-recovery experiments (App. E.2, ref. [14]).

Columns are, in order, the constant function and the Haar wavelets level by level (coarse to
fine), sampled on L = 2^J points. Entries are exact: the constant is 1 and each wavelet is +1 on
the first half of its support and −1 on the second half (unit ∞-norm). The paper does not state
a normalisation; ±1 keeps the basis exact, so every backend sees the same Ψ. The ℓ2-normalised
basis is this one times a diagonal of powers of √2, which changes κ(Ψ) but not its column space.
"""

from __future__ import annotations

from fractions import Fraction

from recmem.numerics.exact import QQi


def haar_basis(length: int, count: int) -> list[list[Fraction]]:
    """The L×P matrix Ψ_L of the first P Haar functions on L points (rows: time 1…L).

    Domain: L a power of two ≥ 1, 1 ≤ P ≤ L (ValueError otherwise)."""
    if length < 1 or length & (length - 1):
        raise ValueError(f"Haar basis needs a power-of-two length, got {length}")
    if not 1 <= count <= length:
        raise ValueError(f"need 1 ≤ P ≤ L, got P={count}, L={length}")
    cols: list[list[Fraction]] = [[Fraction(1)] * length]
    width = length
    while len(cols) < count and width >= 2:
        half = width // 2
        for start in range(0, length, width):
            if len(cols) == count:
                break
            col = [Fraction(0)] * length
            for t in range(start, start + half):
                col[t] = Fraction(1)
            for t in range(start + half, start + width):
                col[t] = Fraction(-1)
            cols.append(col)
        width = half
    return [[cols[p][t] for p in range(count)] for t in range(length)]


def haar_rows(length: int, count: int, k: int | None = None) -> list[list[QQi]]:
    """Ψ_k: the first k rows of Ψ_L as exact Gaussian rationals (O §3.2: Ψ_k ∈ ℝ^{k×P}).

    Domain: that of :func:`haar_basis`, 1 ≤ k ≤ L (ValueError otherwise)."""
    psi = haar_basis(length, count)
    k = length if k is None else k
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= length:
        raise ValueError(f"haar_rows needs 1 ≤ k ≤ L = {length}, got k={k!r}")
    return [[QQi(v) for v in row] for row in psi[:k]]
