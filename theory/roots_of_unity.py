"""Vandermonde matrices on the N-th roots of unity (paper O §3.1 and App. E.1, citing [5]).

With λ_i = ζ^i, ζ = exp(2πi/N), i = 0 … N−1, and V_k[i, a] = λ_i^{k−a} (O's orientation, a = 1 … k):

    (V_kᴴ V_k)_{ab} = Σ_i ζ^{−i(k−a)} ζ^{i(k−b)} = Σ_i ζ^{i(a−b)},

a geometric sum that is N when a ≡ b (mod N) and 0 otherwise. For k ≤ N, |a − b| < N, so
V_kᴴ V_k = N·I_k: every singular value is √N and κ₂(V_k) = 1. For k > N the columns a and a + N
coincide (λ^N = 1), rank V_k = N < k and κ₂(V_k) = ∞.

Exact arithmetic: elements of ℤ[ζ] are integer polynomials in x of degree < N (exponents taken
mod N, since ζ^N = 1) reduced modulo the cyclotomic polynomial Φ_N, the minimal polynomial of ζ;
so an element is zero exactly when its polynomial is divisible by Φ_N. No floating point and no
SymPy ``simplify``.
"""

from __future__ import annotations

import time
from functools import cache

from recmem.theory.proof import Proof


@cache
def _phi(n: int) -> tuple[int, ...]:
    """Coefficients of the cyclotomic polynomial Φ_N (monic, integer), highest degree first."""
    import sympy as sp

    return tuple(int(c) for c in sp.cyclotomic_poly(n, sp.Symbol("x"), polys=True).all_coeffs())


def _element(coeffs: list[int], n: int) -> list[int]:
    """Σ coeffs[e] ζ^e reduced mod Φ_N: the canonical representative (degree < φ(N)) of the element
    of ℤ[ζ_N], by exact long division over ℤ (Φ_N is monic)."""
    phi = _phi(n)
    deg = len(phi) - 1
    rem = list(coeffs) + [0] * max(0, deg - len(coeffs))  # rem[e] is the coefficient of x^e
    for top in range(len(rem) - 1, deg - 1, -1):
        c = rem[top]
        if c:
            for t, pc in enumerate(phi):  # subtract c·x^(top−deg)·Φ_N
                rem[top - t] -= c * pc
    return rem[:deg]


def gram_entries(n: int, k: int) -> list[list[list[int]]]:
    """(V_kᴴ V_k)_{ab} for the N-th roots of unity, as coefficient vectors over ζ^0 … ζ^{N−1}.

    Built entry by entry from the definition (conjugate of V's entry times V's entry), with no use
    of the geometric-sum argument: entry (a, b) accumulates ζ^{(−i(k−a) + i(k−b)) mod N}.
    """
    out = []
    for a in range(1, k + 1):
        row = []
        for b in range(1, k + 1):
            c = [0] * n
            for i in range(n):
                c[(-i * (k - a) + i * (k - b)) % n] += 1
            row.append(c)
        out.append(row)
    return out


def gram_is_scaled_identity(n: int, k: int) -> tuple[bool, str]:
    """Whether V_kᴴ V_k = N·I_k exactly in ℤ[ζ_N] (O App. E.1: cond(V) = 1), with a reason."""
    g = gram_entries(n, k)
    for a in range(k):
        for b in range(k):
            target = [0] * n
            if a == b:
                target[0] = n
            diff = [x - y for x, y in zip(g[a][b], target, strict=True)]
            if any(_element(diff, n)):
                return False, (f"entry ({a + 1}, {b + 1}) = Σ c_e ζ^e with c = {g[a][b]} ≠ "
                               f"{'N' if a == b else '0'} in ℤ[ζ_{n}]")
    return True, f"V_{k}ᴴ V_{k} = {n}·I_{k} in ℤ[ζ_{n}]"


def columns_repeat(n: int, k: int) -> bool:
    """For k > N: columns a and a + N of V_k are equal exactly (exponents agree mod N)."""
    return all((i * (k - a)) % n == (i * (k - a - n)) % n
               for a in range(1, k - n + 1) for i in range(n))


def geometric_sum_argument() -> tuple[bool, str]:
    """Σ_{i=0}^{N−1} z^i = (1 − z^N)/(1 − z) for z ≠ 1 (SymPy), which is 0 when z^N = 1, z ≠ 1.

    With z = ζ^{a−b} and 0 < |a − b| < N, z ≠ 1 and z^N = 1, so the off-diagonal Gram entries
    vanish; the diagonal ones are Σ 1 = N.
    """
    import sympy as sp

    z = sp.Symbol("z")
    i = sp.Symbol("i", integer=True, nonnegative=True)
    n = sp.Symbol("N", integer=True, positive=True)
    s = sp.summation(z**i, (i, 0, n - 1))
    branches = dict((cond, expr) for expr, cond in s.args) if isinstance(s, sp.Piecewise) else {}
    general = branches.get(sp.true)
    ok = general is not None and sp.cancel(general.subs(z**n, 1)) == 0 \
        and branches.get(sp.Eq(z, 1)) == n
    return ok, f"Σ_(i=0)^(N−1) z^i = {s}"


def roots_condition_identity(n_max: int = 16) -> Proof:
    """O §3.1 / App. E.1: with the N-th roots of unity, κ₂(V_k) = 1 for every 1 ≤ k ≤ N.

    Exact check of V_kᴴ V_k = N·I_k in ℤ[ζ_N] for every N ≤ ``n_max`` and every k ≤ N, the
    repeated columns for k = N + 1 (κ = ∞ there), and the geometric-sum argument for all N.
    """
    t0 = time.perf_counter()
    ok, msg = geometric_sum_argument()
    if not ok:
        return Proof(None, "geometric sum", "SymPy summation", details={"sum": msg})
    for n in range(1, n_max + 1):
        for k in range(1, n + 1):
            holds, why = gram_is_scaled_identity(n, k)
            if not holds:
                return Proof(False, f"N = {n}, k = {k}", "exact arithmetic in ℤ[ζ_N]",
                             counterexample={"N": n, "k": k, "reason": why})
        if not columns_repeat(n, n + 1):  # pragma: no cover - exponents are periodic mod N
            return Proof(None, f"N = {n}, k = N + 1", "column repetition")
    return Proof(True, f"all 1 ≤ k ≤ N, every N (geometric-sum argument, "
                 f"recmem.theory.roots_of_unity); V_kᴴV_k = N·I_k checked exactly in ℤ[ζ_N] for "
                 f"N ≤ {n_max}; for k > N columns a and a+N coincide (λ^N = 1), so rank V_k = N < k "
                 "and κ₂ = ∞: the statement is for k ≤ N only",
                 "exact cyclotomic arithmetic (polynomials mod Φ_N) + SymPy geometric sum",
                 details={"geometric sum": msg, "seconds": round(time.perf_counter() - t0, 3)})
