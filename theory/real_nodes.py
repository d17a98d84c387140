"""Real nodes make Vandermonde matrices exponentially ill-conditioned (paper O §3.1, ref. [9]).

Paper O, §3.1: "if Λ is real the condition number of V_k grows exponentially with N [9]"
(Gautschi–Inglese 1988). This module proves a lower bound for real nodes in [−1, 1] (every
stable real recurrence), checks its key identity symbolically, and evaluates the exact quantities
(‖V⁻¹‖₁, κ₁, Gautschi's bounds) that the conditioning study uses as certified sanity inequalities.

The argument (all N ≥ 2, distinct real x_1 … x_N in [−1, 1], w(x) = Π_j (x − x_j)):

1. For every polynomial p of degree ≤ N − 1, Σ_i p(x_i)/w'(x_i) is the coefficient of x^{N−1} in
   p (the divided difference p[x_1, …, x_N]; Lagrange interpolation of p at the nodes is p itself,
   and the leading coefficient of the Lagrange basis polynomial ℓ_i is 1/w'(x_i)).
2. With p = T_{N−1} (Chebyshev, leading coefficient 2^{N−2}, |T_{N−1}| ≤ 1 on [−1, 1]):
   2^{N−2} = Σ_i T_{N−1}(x_i)/w'(x_i) ≤ Σ_i 1/|w'(x_i)| ≤ N · max_i 1/|w'(x_i)|.
3. Column i of V⁻¹ (V with rows (1, x_i, …, x_i^{N−1})) holds the coefficients of ℓ_i, whose
   leading one is 1/w'(x_i); so ‖V⁻¹‖₁ ≥ max_i 1/|w'(x_i)| ≥ 2^{N−2}/N (this is the left side of
   Gautschi's bound with every max(1, |x_j|) = 1). Reversing the columns (O's decreasing powers,
   eq. 4) permutes the rows of V⁻¹ and the columns of V: neither ‖V‖₁ nor ‖V⁻¹‖₁ changes.
4. ‖V‖₁ ≥ N (the column of ones), so κ₁(V) ≥ 2^{N−2}; and κ₂ ≥ κ₁/N (‖A‖₂ ≥ ‖A‖₁/√N for both
   A = V and A = V⁻¹), so κ₂(V_N) ≥ 2^{N−2}/N: exponential growth for every configuration.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof


def _perm_sign(perm: Sequence[int]) -> int:
    """Sign of a permutation from its cycle decomposition."""
    seen = [False] * len(perm)
    sign = 1
    for start in range(len(perm)):
        length = 0
        j = start
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length and length % 2 == 0:
            sign = -sign
    return sign


def chebyshev_divided_difference(n_max: int = 8) -> Proof:
    """Σ_i T_{n−1}(x_i)/w'(x_i) = 2^{n−2} for symbolic x_1 … x_n, 2 ≤ n ≤ ``n_max`` (O §3.1, [9]).

    Multiplying by D = Π_{a<b}(x_a − x_b) clears the denominators: D/w'(x_i) = (−1)^{i} D_i (0-based
    i) with D_i the product for the other n − 1 variables. The identity becomes the polynomial
    identity Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D in ℤ[x_1 … x_n], which is expanded and compared
    exactly (SymPy sparse polynomials; D and D_i are built from the Leibniz expansion of the
    Vandermonde determinant, one monomial per permutation, which is how O.det checks them).
    """
    import sympy as sp
    from sympy import ZZ

    t0 = time.perf_counter()
    if n_max < 2:
        return Proof(None, "n_max < 2", "nothing to check (the identity starts at n = 2)")
    one, mone = ZZ(1), ZZ(-1)
    t = sp.Symbol("t")
    for n in range(2, n_max + 1):
        ring, *_ = sp.ring(",".join(f"x{i}" for i in range(1, n + 1)), ZZ)
        cheb = [ZZ(int(c)) for c in sp.Poly(sp.chebyshevt(n - 1, t), t).all_coeffs()[::-1]]
        if cheb[-1] != 2 ** (n - 2):
            return Proof(False, f"n = {n}", "leading coefficient of T_{n−1}",
                         counterexample={"n": n, "leading": str(cheb[-1])})

        def vdm(idx: list[int], n: int = n, ring: Any = ring) -> Any:
            # Π_{a<b} (x_idx[a] − x_idx[b]) = det[x_idx[r]^(m−1−c)] (O.det), one term per permutation
            m = len(idx)
            p = ring.zero.copy()
            for perm in itertools.permutations(range(m)):
                e = [0] * n
                for r in range(m):
                    e[idx[r]] = m - 1 - perm[r]
                p[tuple(e)] = one if _perm_sign(perm) > 0 else mone
            return p

        lhs = ring.zero
        for i in range(n):
            t_i = ring.zero.copy()
            for k, c in enumerate(cheb):
                if c:
                    t_i[tuple(k if j == i else 0 for j in range(n))] = c
            lhs += (-1) ** i * t_i * vdm([j for j in range(n) if j != i])
        rhs = 2 ** (n - 2) * vdm(list(range(n)))
        if lhs != rhs:
            return Proof(False, f"n = {n}", "Σ_i (−1)^i T_{n−1}(x_i) D_i vs 2^{n−2} D",
                         counterexample={"n": n, "difference": str((lhs - rhs).as_expr())})
    return Proof(True,
                 f"identity for symbolic nodes, 2 ≤ n ≤ {n_max}; bound κ₂(V_N) ≥ 2^(N−2)/N for "
                 "all N ≥ 2 and all distinct real nodes in [−1, 1] by the argument in "
                 "recmem.theory.real_nodes",
                 "SymPy: Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D expanded in ℤ[x_1…x_n]; then "
                 "|T_{n−1}| ≤ 1, Gautschi's lower bound, ‖V‖₁ ≥ N and κ₂ ≥ κ₁/N",
                 details={"seconds": round(time.perf_counter() - t0, 3)})


def exponential_lower_bound(n: int) -> Fraction:
    """2^{n−2}/n: the lower bound on κ₂(V_n) for real nodes in [−1, 1] (module docstring)."""
    return Fraction(2 ** (n - 2)) / n if n >= 2 else Fraction(1)


def _fmpq(q: Fraction) -> Any:
    import flint

    return flint.fmpq(q.numerator, q.denominator)


def _frac(x: Any) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def inverse_column_norms(nodes: Sequence[Fraction]) -> list[Fraction]:
    """Exact ‖column i of V⁻¹‖₁ = Σ_k |coeff_k(ℓ_i)| for distinct rational nodes.

    ℓ_i = w(x)/((x − x_i) w'(x_i)) is computed in exact rational polynomial arithmetic
    (python-flint ``fmpq_poly``); O(N²) per node set.
    """
    import flint

    xs = [_fmpq(Fraction(v)) for v in nodes]
    if len(set(nodes)) != len(nodes):
        raise ZeroDivisionError("nodes must be distinct")
    w = flint.fmpq_poly([1])
    for x in xs:
        w *= flint.fmpq_poly([-x, 1])
    out = []
    for x in xs:
        q, r = divmod(w, flint.fmpq_poly([-x, 1]))
        assert r == 0
        d = q(x)  # w'(x_i)
        out.append(_frac(sum((abs(c) for c in q.coeffs()), flint.fmpq(0)) / abs(d)))
    return out


def inverse_norm1(nodes: Sequence[Fraction]) -> Fraction:
    """Exact ‖V⁻¹‖₁ (= ‖V_Gautschi⁻¹‖_∞) for distinct rational nodes, either column order."""
    return max(inverse_column_norms(nodes))


def vandermonde_norm1(nodes: Sequence[Fraction]) -> Fraction:
    """Exact ‖V‖₁: the largest column sum Σ_i |x_i|^p over the powers p = 0 … N−1."""
    import flint

    n = len(nodes)
    xs = [abs(_fmpq(Fraction(v))) for v in nodes]
    best, pw = flint.fmpq(0), [flint.fmpq(1)] * n
    for _ in range(n):
        best = max(best, sum(pw, flint.fmpq(0)))
        pw = [a * x for a, x in zip(pw, xs, strict=True)]
    return _frac(best)


def kappa1(nodes: Sequence[Fraction]) -> Fraction:
    """Exact κ₁(V_N) = ‖V‖₁ ‖V⁻¹‖₁ for distinct rational nodes (square V, either column order)."""
    return vandermonde_norm1(nodes) * inverse_norm1(nodes)


def gautschi_bounds(nodes: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
    """Gautschi's bounds on ‖V_G⁻¹‖_∞ = ‖V⁻¹‖₁ (CLAIMS.md "Reference facts"), exactly.

    max_i Π_{j≠i} max(1,|x_j|)/|x_i−x_j| ≤ ‖V⁻¹‖₁ ≤ max_i Π_{j≠i} (1+|x_j|)/|x_i−x_j|.
    """
    import flint

    xs = [_fmpq(Fraction(v)) for v in nodes]
    one = flint.fmpq(1)
    lo = hi = flint.fmpq(0)
    for i, xi in enumerate(xs):
        num_lo = num_hi = den = one
        for j, xj in enumerate(xs):
            if j != i:
                den *= abs(xi - xj)
                num_lo *= max(one, abs(xj))
                num_hi *= one + abs(xj)
        lo, hi = max(lo, num_lo / den), max(hi, num_hi / den)
    return _frac(lo), _frac(hi)


def certify_point(nodes: Sequence[Fraction]) -> dict[str, Any]:
    """Exact certificates for one real node set: Gautschi's sandwich and κ₁ ≥ 2^{N−2}.

    Returns the exact values and booleans ``gautschi_ok`` (lower ≤ ‖V⁻¹‖₁ ≤ upper) and
    ``bound_ok`` (κ₁ ≥ 2^{N−2}, which implies κ₂ ≥ 2^{N−2}/N); both must hold for distinct real
    nodes in [−1, 1], so a False is a certified counterexample to the theory or the code.
    """
    n = len(nodes)
    inv = inverse_norm1(nodes)
    lo, hi = gautschi_bounds(nodes)
    k1 = vandermonde_norm1(nodes) * inv
    return {"N": n, "inverse_norm1": inv, "gautschi_lower": lo, "gautschi_upper": hi,
            "kappa1": k1, "gautschi_ok": lo <= inv <= hi,
            "bound_ok": n < 2 or k1 >= 2 ** (n - 2)}
