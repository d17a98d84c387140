"""Vandermonde matrices on the N-th roots of unity (paper O §3.1 and App. E.1, citing [5]).

With λ_i = ζ^i, ζ = exp(2πi/N), i = 0 … N−1, and V_k[i, a] = λ_i^{k−a} (O's orientation, a = 1 … k):

    (V_kᴴ V_k)_{ab} = Σ_i ζ^{−i(k−a)} ζ^{i(k−b)} = Σ_i ζ^{i(a−b)},

a geometric sum that is N when a ≡ b (mod N) and 0 otherwise. For k ≤ N, |a − b| < N, so
V_kᴴ V_k = N·I_k: every singular value is √N and κ₂(V_k) = 1. For k > N, V_k is N×k with k > N
columns: its rank is at most N < k, so σ_k = 0 and κ₂(V_k) = σ_1/σ_k = ∞ (the columns a and a + N
even coincide, λ^N = 1). The statement therefore holds exactly for 1 ≤ k ≤ N.

Exact arithmetic: elements of ℤ[ζ_M] are integer polynomials in x of degree < M (exponents taken
mod M, since ζ^M = 1) reduced modulo the cyclotomic polynomial Φ_M, the minimal polynomial of ζ;
so an element is zero exactly when its polynomial is divisible by Φ_M. No floating point and no
SymPy ``simplify``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class RootsOfUnityCondition(Statement):
    """O §3.1 / App. E.1: with λ_1 … λ_N the N-th roots of unity, cond(V_k) = 1, for 1 ≤ k ≤ N.

    κ₂(V_k) = σ_1/σ_k over the k singular values of the N×k matrix V_k (eq. 4's orientation).
    Knobs: ``k_excess`` (the hypothesis k ≤ N + k_excess; printed scope k ≤ N), ``order_offset``
    (the nodes are the first N of the (N + offset)-th roots of unity), ``kappa`` (the claimed
    condition number; printed 1).
    """

    k_excess: int = 0
    order_offset: int = 0
    kappa: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        m = "N" if self.order_offset == 0 else f"N{self.order_offset:+d}".replace("-", "−")
        nodes = ("the N-th roots of unity λ_j = exp(2πi·j/N), j = 0 … N−1" if self.order_offset == 0
                 else f"λ_j = exp(2πi·j/({m})), j = 0 … N−1 (N of the ({m})-th roots of unity)")
        top = "N" if self.k_excess == 0 else f"N{self.k_excess:+d}".replace("-", "−")
        return (f"with {nodes}: cond(V_k) = κ₂(V_k) = σ_1/σ_k = {self.kappa} for 1 ≤ k ≤ {top} "
                "(V_k as in eq. 4; an N×k matrix with k > N has σ_k = 0 and κ₂ = ∞)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("k allowed up to N + 1 (one column more than nodes)",
                        replace(self, k_excess=self.k_excess + 1)),
                Control("nodes: the first N of the (N+1)-th roots of unity",
                        replace(self, order_offset=self.order_offset + 1)),
                Control("claimed condition number multiplied by 33/32 (a near control)",
                        replace(self, kappa=self.kappa * Fraction(33, 32))))

    def order(self, n: int) -> int:
        """M: the nodes are the first N of the M-th roots of unity."""
        return n + self.order_offset

    def k_max(self, n: int) -> int:
        """The largest k the statement covers for N nodes."""
        return n + self.k_excess

    def turns(self, n: int) -> tuple[Fraction, ...]:
        """The nodes as turns j/M (λ_j = exp(2πi·j/M)), j = 0 … N−1."""
        return tuple(Fraction(j, self.order(n)) for j in range(n))


@cache
def _phi(n: int) -> tuple[int, ...]:
    """Coefficients of the cyclotomic polynomial Φ_N (monic, integer), highest degree first."""
    import sympy as sp

    return tuple(int(c) for c in sp.cyclotomic_poly(n, sp.Symbol("x"), polys=True).all_coeffs())


def _element(coeffs: list[int], m: int) -> list[int]:
    """Σ coeffs[e] ζ_M^e reduced mod Φ_M: the canonical representative (degree < φ(M)) of the
    element of ℤ[ζ_M], by exact long division over ℤ (Φ_M is monic)."""
    phi = _phi(m)
    deg = len(phi) - 1
    rem = list(coeffs) + [0] * max(0, deg - len(coeffs))  # rem[e] is the coefficient of x^e
    for top in range(len(rem) - 1, deg - 1, -1):
        c = rem[top]
        if c:
            for t, pc in enumerate(phi):  # subtract c·x^(top−deg)·Φ_M
                rem[top - t] -= c * pc
    return rem[:deg]


def root_exponents(turns: Sequence[Fraction]) -> tuple[int, list[int]]:
    """(M, [e_i]) with λ_i = exp(2πi·t_i) = ζ_M^(e_i): M the least common denominator of the
    turns, so every node is an element of ℤ[ζ_M]."""
    m = math.lcm(*(t.denominator for t in turns)) if turns else 1
    return m, [int(t * m) % m for t in turns]


def gram_entries(n: int, k: int, order: int | None = None,
                 exponents: Sequence[int] | None = None) -> list[list[list[int]]]:
    """(V_kᴴ V_k)_{ab} for the nodes ζ_M^(e_i) (M = ``order``, default N; ``exponents`` e_i,
    default i = 0 … N−1), as coefficient vectors over ζ_M^0 … ζ_M^{M−1}.

    Built entry by entry from the definition (conjugate of V's entry times V's entry), with no use
    of the geometric-sum argument: entry (a, b) accumulates ζ^{(−e_i(k−a) + e_i(k−b)) mod M}.
    """
    m = n if order is None else order
    exps = list(range(n)) if exponents is None else list(exponents)
    out = []
    for a in range(1, k + 1):
        row = []
        for b in range(1, k + 1):
            c = [0] * m
            for e in exps:
                c[(-e * (k - a) + e * (k - b)) % m] += 1
            row.append(c)
        out.append(row)
    return out


def gram_is_scaled_identity(n: int, k: int, order: int | None = None,
                            exponents: Sequence[int] | None = None) -> tuple[bool, str]:
    """Whether V_kᴴ V_k = N·I_k exactly in ℤ[ζ_M] for the N nodes ζ_M^(e_i) (defaults: M = N,
    e_i = i, the N-th roots of unity of O App. E.1's cond(V) = 1), with a reason."""
    m = n if order is None else order
    g = gram_entries(n, k, m, exponents)
    for a in range(k):
        for b in range(k):
            target = [0] * m
            if a == b:
                target[0] = n
            diff = [x - y for x, y in zip(g[a][b], target, strict=True)]
            if any(_element(diff, m)):
                return False, (f"entry ({a + 1}, {b + 1}) = Σ c_e ζ^e with c = {g[a][b]} ≠ "
                               f"{'N' if a == b else '0'} in ℤ[ζ_{m}]")
    return True, f"V_{k}ᴴ V_{k} = {n}·I_{k} in ℤ[ζ_{m}]"


def exact_condition(statement: RootsOfUnityCondition, n: int, k: int) -> tuple[bool | None, str]:
    """Decide ``statement`` at one (N, k) exactly, for its nodes exp(2πi·t_j) (its ``turns``):
    (holds, reason).

    k > N: V_k is wide, σ_k = 0 and κ₂ = ∞ ≠ the claimed value. k ≤ N: every node has |λ| = 1, so
    every diagonal entry of V_kᴴV_k is N; κ₂ = 1 exactly when V_kᴴV_k = N·I_k (decided in
    ℤ[ζ_M]), and κ₂ > 1 otherwise. A claimed value ≠ 1 against a Gram matrix ≠ N·I_k is not
    decided here (None).
    """
    if k > n:
        return False, (f"V_{k} is {n}×{k} with k > N: rank ≤ {n} < {k}, σ_{k} = 0, κ₂ = ∞ ≠ "
                       f"{statement.kappa}")
    m, exps = root_exponents(statement.turns(n))
    scaled, why = gram_is_scaled_identity(n, k, m, exps)
    if scaled:
        return statement.kappa == 1, f"{why}, so κ₂ = 1" + (
            "" if statement.kappa == 1 else f" ≠ {statement.kappa}")
    if statement.kappa == 1:
        return False, f"{why}: the singular values are not all equal, κ₂ > 1"
    return None, f"{why}: κ₂ > 1, its value is not computed exactly"


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


def roots_condition_proof(statement: RootsOfUnityCondition, n_max: int = 16) -> Proof:
    """Decide ``statement`` (O §3.1 / App. E.1, or a variant) symbolically.

    1. Exactly, for every N ≤ ``n_max`` and every 1 ≤ k ≤ k_max(N) (:func:`exact_condition`): a
       failure disproves it, with (N, k) and the reason.
    2. All N: the geometric-sum argument (SymPy) makes V_kᴴV_k = N·I_k when the nodes are all N of
       the N-th roots (order offset 0) and every |a − b| ≤ k_max(N) − 1 is below N
       (k_max(N) ≤ N), so κ₂ = 1; it applies when the claimed value is 1.
    """
    t0 = time.perf_counter()
    for n in range(1, n_max + 1):
        for k in range(1, statement.k_max(n) + 1):
            holds, why = exact_condition(statement, n, k)
            if holds is False:
                return Proof(False, f"N = {n}, k = {k}", "exact arithmetic in ℤ[ζ_M]",
                             counterexample={"N": n, "k": k, "reason": why})
            if holds is None:
                return Proof(None, f"N = {n}, k = {k}", "exact arithmetic in ℤ[ζ_M]",
                             details={"reason": why})
    ok, msg = geometric_sum_argument()
    applies = statement.order_offset == 0 and statement.k_excess <= 0 and statement.kappa == 1
    if not (ok and applies):
        return Proof(None, f"N ≤ {n_max}, exactly", "the geometric-sum argument does not apply",
                     details={"geometric sum": msg, "applies": applies})
    return Proof(True, f"all 1 ≤ k ≤ N, every N (geometric-sum argument, "
                 f"recmem.theory.roots_of_unity); V_kᴴV_k = N·I_k checked exactly in ℤ[ζ_N] for "
                 f"N ≤ {n_max}; for k > N, V_k is N×k: rank ≤ N < k, σ_k = 0 and κ₂ = ∞, so the "
                 "statement is for k ≤ N only",
                 "exact cyclotomic arithmetic (polynomials mod Φ_N) + SymPy geometric sum",
                 details={"geometric sum": msg, "seconds": round(time.perf_counter() - t0, 3)}, general=True)
