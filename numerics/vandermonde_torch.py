"""Paper O's Vandermonde matrix V_L (eq. 4) in torch complex128, and the float64 rank rule, for
the reproductions that work at the papers' sizes on a CPU or a GPU (O-mnist, O-sparse).

The certified and exact versions are elsewhere (``recmem.numerics.certified``,
``recmem.numerics.condition``); these are the float64 computations the papers' figures used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recmem.numerics import nodes as nd

EPS = float(np.finfo(np.float64).eps)


def powers(lam: Any, length: int) -> Any:
    """V_L of O eq. (4) (N × L, complex128): V[i, j] = λ_i^{L−1−j}, so V_k is its last k columns.

    A cumulative product of λ (no 0⁰ = NaN for λ = 0; relative error ≲ L·ε, never a division by
    a power of λ)."""
    import torch

    n = lam.shape[0]
    steps = torch.cat([torch.ones(n, 1, dtype=lam.dtype, device=lam.device),
                       lam[:, None].expand(n, length - 1)], dim=1)
    return torch.cumprod(steps, dim=1).flip(1)


def vandermonde(nodes: nd.Nodes, length: int, device: str) -> Any:
    """V_L of O eq. (4) in complex128 on ``device`` for a node family (``recmem.numerics.nodes``).

    Roots of unity exp(2πi·a/N): λ^m = exp(2πi·(a·m mod N)/N), every entry correctly rounded from
    an exact integer turn, so float64 keeps the exact DFT structure (κ = 1 for N ≥ L); other
    nodes by :func:`powers`."""
    import torch

    n = len(nodes)
    if nodes.turns is not None:
        m = torch.arange(length - 1, -1, -1, device=device, dtype=torch.int64)
        num = torch.tensor([t.numerator * (n // t.denominator) for t in nodes.turns],
                           device=device, dtype=torch.int64)  # λ_i = exp(2πi·num_i/N)
        theta = ((num[:, None] * m[None, :]) % n).to(torch.float64) * (2 * np.pi / n)
        return torch.polar(torch.ones_like(theta), theta)
    return powers(torch.as_tensor(nodes.complex128(), device=device), length)


def resolved(s: Any, rows: int, cols: int) -> Any:
    """The singular values float64 resolves: above max(rows, cols)·ε·σ_max (LAPACK's, numpy's
    ``matrix_rank`` and torch's default cut-off), for descending ``s`` along the last axis
    (a boolean mask). Its sum is the numerical rank."""
    return s > max(rows, cols) * EPS * s[..., :1]


def pinv_factors(v: Any) -> tuple[Any, Any, int]:
    """V⁺ = R·L from the truncated SVD of V (the directions :func:`resolved` keeps): returns
    (L, R, number of directions dropped); apply as ``R @ (L @ x)`` (O eq. (5): û = V⁺x)."""
    import torch

    n, length = v.shape
    us, s, vh = torch.linalg.svd(v, full_matrices=False)
    keep = resolved(s, n, length)
    return us[:, keep].mH, vh[keep].mH / s[keep][None, :], int((~keep).sum())


__all__ = ["EPS", "pinv_factors", "powers", "resolved", "vandermonde"]
