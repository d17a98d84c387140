"""Linear algebra of the claims, written once against the backend interface (paper O §3).

Domain of every function: native vectors/matrices of one backend (complex arithmetic: complex
values are in the domain), built from exact inputs, with n ≥ 1 nodes, rows and columns; sizes and
exponents as stated per function. Outside it, ValueError
(:class:`~recmem.numerics.validate.DomainError`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.validate import DomainError, exact_entry, positive_int


def constant(backend: AbstractBackend, value: Fraction | int) -> Any:
    """An exact rational as a native scalar of ``backend`` (rounded once, exact for dyadics).

    Domain: an int or Fraction (ValueError for floats' NaN/inf, complex or non-numbers)."""
    return backend.entries(backend.vector([QQi(exact_entry(value, "constant"))]))[0]


def product(backend: AbstractBackend, factors: Sequence[Any]) -> Any:
    """Π factors as a native scalar (1 for no factor).

    In ball arithmetic a running product of many complex balls loses about 0.36 bit per factor
    to rectangular enclosures (NUMERICS.md pitfall 3); exp(Σ log f) keeps the radius small, and
    exp∘Σlog is the product whatever branch each log takes.
    """
    if not factors:
        return constant(backend, 1)
    if backend.encloses:
        acc = backend.log(factors[0])
        for f in factors[1:]:
            acc = acc + backend.log(f)
        return backend.exp(acc)
    prod = factors[0]
    for f in factors[1:]:
        prod = prod * f
    return prod


def product_of_differences(backend: AbstractBackend, nodes: Any,
                           pairs: Sequence[tuple[int, int]] | None = None) -> Any:
    """Π (λ_a − λ_b) over ``pairs`` (default: all a < b, O's Π_(i<j)(λ_i − λ_j)) as a native
    scalar; see :func:`product` for ball arithmetic.

    Domain: N ≥ 1 nodes; ``pairs`` of indices in 0…N−1 (ValueError otherwise). N = 1 or no pairs
    give the empty product 1."""
    lam = backend.entries(nodes)
    if not lam:
        raise DomainError("product_of_differences needs N ≥ 1 nodes, got none")
    if pairs is None:
        pairs = [(i, j) for i in range(len(lam)) for j in range(i + 1, len(lam))]
    bad = [p for p in pairs if not all(0 <= int(i) < len(lam) for i in p)]
    if bad:
        raise DomainError(f"product_of_differences: pairs {bad[:4]} out of range 0…{len(lam) - 1}")
    return product(backend, [lam[a] - lam[b] for a, b in pairs])


def power_matrix(backend: AbstractBackend, nodes: Any, powers: Sequence[int]) -> Any:
    """The N×len(powers) matrix with entries λ_i^(powers[j]) in ``backend``.

    Built from the backend's own Vandermonde matrix (rows λ^(P−1), …, λ, 1 with P = max power + 1,
    powers by repeated multiplication) times an exact 0/1 selection matrix: every product is by
    an exact 0 or 1, so the selection adds no rounding in any arithmetic (balls included).

    Domain: N ≥ 1 nodes, a nonempty list of integer powers ≥ 0 (ValueError otherwise).
    """
    _check_powers(powers)
    top = max(powers) + 1
    full = backend.vandermonde(nodes, top)
    if list(powers) == list(range(top - 1, top - 1 - len(powers), -1)):
        return backend.columns(full, 0, len(powers))  # leading columns: no product needed
    select = [[QQi(Fraction(int(top - 1 - c == p))) for p in powers] for c in range(top)]
    return backend.matmul(full, backend.matrix(select))


def _check_powers(powers: Sequence[int]) -> None:
    if not len(powers):
        raise DomainError("power_matrix needs at least one power, got none")
    for p in powers:
        positive_int(p, "power_matrix: each power", 0)


def power_matrix_builder(nodes: Any, powers: Sequence[int], *,
                         transpose: bool = False) -> Callable[[int], Any]:
    """A builder (bits → flint ``acb_mat``) of :func:`power_matrix` for exact ``nodes``
    (:class:`recmem.numerics.nodes.Nodes`), for the certified condition numbers of
    :mod:`recmem.numerics.certified`; ``transpose`` builds the transpose. Domain: that of
    :func:`power_matrix` (checked here, before any build)."""
    _check_powers(powers)
    if len(nodes) < 1:
        raise DomainError("power_matrix_builder needs N ≥ 1 nodes, got none")

    def build(bits: int) -> Any:
        from recmem.numerics.backend import BackendSpec
        from recmem.numerics.flint_backend import FlintBackend

        fb = FlintBackend(BackendSpec("flint", bits=bits))
        m = power_matrix(fb, nodes.to(fb), powers)
        return m.transpose() if transpose else m

    return build


def min_norm_solve(backend: AbstractBackend, a: Any, b: Any) -> Any:
    """a⁺b, the minimum-norm least-squares solution, for tall and wide ``a`` alike.

    numpy, torch and mpmath compute it from the SVD for any shape. flint's ``pinv_apply`` assumes
    full column rank (normal equations); for a wide ``a`` of full row rank a⁺ = aᴴ(aaᴴ)⁻¹, solved
    here with flint's preconditioned solver. (Core change wanted: an ``adjoint`` in
    :class:`AbstractBackend`, and a flint ``pinv_apply`` that handles wide matrices.)

    Domain: ``a`` nonempty (rows, cols ≥ 1), ``b`` with as many rows as ``a`` (ValueError
    otherwise); any rank for numpy/torch/mpmath, full rank for flint (its normal equations).
    """
    rows, cols = _nonempty(backend, a, "min_norm_solve")
    if backend.shape(b)[0] != rows:
        raise DomainError(f"min_norm_solve: a has {rows} rows but b has {backend.shape(b)[0]}")
    if rows >= cols or backend.spec.kind != "flint":
        return backend.pinv_apply(a, b)
    with backend.activate():
        ah = a.conjugate().transpose()
        return ah * (a * ah).solve(b, algorithm="precond", nonstop=True)


def _nonempty(backend: AbstractBackend, a: Any, fn: str) -> tuple[int, int]:
    rows, cols = backend.shape(a)
    if rows < 1 or cols < 1:
        raise DomainError(f"{fn} needs a nonempty matrix, got {rows}×{cols}")
    return rows, cols


def singular_values(backend: AbstractBackend, a: Any) -> list[mpmath.mpf]:
    """All min(rows, cols) singular values from the backend, then, for a wide matrix
    (cols > rows), the cols − rows exact zeros: an N×k matrix with k > N has a null space of
    dimension ≥ k − N, so σ_(N+1) = … = σ_k = 0 exactly, in every arithmetic.

    Domain: a nonempty matrix (ValueError for 0 rows or columns)."""
    rows, cols = _nonempty(backend, a, "singular_values")
    if cols <= rows:
        return list(backend.svdvals(a))
    # the transpose has the same nonzero singular values and a nonsingular Gram matrix (flint's
    # svdvals works from the Gram matrix aᴴa, singular for a wide a)
    return list(backend.svdvals(backend.transpose(a))) + [mpmath.mpf(0)] * (cols - rows)


def kappa2(backend: AbstractBackend, a: Any) -> mpmath.mpf:
    """κ₂(a) = σ_1/σ_k over all k = cols singular values (:func:`singular_values`): ∞ for a
    wide matrix and for a computed σ_k of 0. Domain: a nonempty matrix (ValueError otherwise)."""
    s = singular_values(backend, a)
    return s[0] / s[-1] if s[-1] > 0 else mpmath.inf


def unrolled_state(backend: AbstractBackend, nodes: Any, drive: Any, k: int) -> Any:
    """x_k = Σ_{j=0}^{k-1} Λ^j (B u)_{k−j} (O eq. 3, 1-based time) for a diagonal Λ.

    ``drive`` is the N×L matrix whose column j−1 is B u_j; the sum is formed as the row sums of
    V_k ⊙ drive[:, :k], since (V_k)_{i,j} = λ_i^{k−j}.

    Domain: N ≥ 1 nodes, ``drive`` N×L, 1 ≤ k ≤ L (ValueError otherwise).
    """
    n_drive, length = backend.shape(drive)
    k = positive_int(k, "unrolled_state: k")
    if k > length:
        raise DomainError(f"unrolled_state: k = {k} exceeds the drive's length L = {length}")
    if n_drive != backend.shape(nodes)[0]:
        raise DomainError(f"unrolled_state: {backend.shape(nodes)[0]} nodes but the drive has "
                          f"{n_drive} rows")
    v = backend.vandermonde(nodes, k)
    return backend.row_sums(backend.hadamard(v, backend.columns(drive, 0, k)))
