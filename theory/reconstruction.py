"""Reconstruction of the input from the last state: u_{1:k} = V_k⁺ x_k (paper O §3.1, eq. 5).

General argument (all N ≥ k, distinct nodes): the top k×k block of V_k is the square Vandermonde
matrix of λ_1 … λ_k in O's orientation, whose determinant is Π_{i<j≤k}(λ_i − λ_j) ≠ 0 (``O.det``,
:func:`recmem.theory.vandermonde.det_identity`); so V_k has full column rank k, V_kᴴV_k is
invertible, V_k⁺ = (V_kᴴV_k)⁻¹V_kᴴ and V_k⁺V_k = I_k. With x_k = V_k u_{1:k} (eq. 4,
``O.vandermonde-form``), V_k⁺x_k = u_{1:k}. For k > N the rank is at most N < k, V_k⁺V_k is a
projection ≠ I_k, and the reconstruction fails: the hypothesis N ≥ k is needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement
from recmem.theory.vandermonde import VandermondeForm, exponent

# Exact instances the symbolic side evaluates the statement at, before the general argument:
# distinct nonzero Gaussian rationals in the unit disk, and inputs 1, 2, 3, …
PROBE_NODES = (QQi(Fraction(1, 2)), QQi(Fraction(0), Fraction(1, 2)), QQi(Fraction(-1, 2)),
               QQi(Fraction(0), Fraction(-1, 2)), QQi(Fraction(3, 4), Fraction(1, 4)))


@dataclass(frozen=True)
class Reconstruction(Statement):
    """O §3.1 eq. (5): for N ≥ k and distinct λ, u_{1:k} = V_k⁺ x_k, with x_k the state of
    x_t = Λx_(t−1) + Bu_t (B = (1,…,1)ᵀ, x_0 = 0) and V_k as in eq. (4).

    Hypotheses: 1 ≤ k ≤ N + ``k_excess`` (printed: N ≥ k), distinct nodes. Formula knobs:
    ``power_shift`` (V_k's exponents k − j + shift) and ``constant`` (a factor in front of
    V_k⁺ x_k; printed 1).
    """

    k_excess: int = 0
    power_shift: int = 0
    constant: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        bound = "N ≥ k" if self.k_excess == 0 else f"N ≥ k{-self.k_excess:+d}".replace("-", "−")
        c = "" if self.constant == 1 else f"{self.constant}·"
        e = "k−j" if self.power_shift == 0 else f"k−j{self.power_shift:+d}".replace("-", "−")
        return (f"for {bound} and distinct λ: u_(1:k) = {c}V_k⁺ x_k, V_k[i, j] = λ_i^({e}), x_k "
                "the state of x_t = Λx_(t−1) + (1,…,1)ᵀu_t from x_0 = 0")

    def controls(self) -> tuple[Control, ...]:
        return (Control("hypothesis widened to N ≥ k − 1 (one column more than nodes)",
                        replace(self, k_excess=self.k_excess + 1)),
                Control("every power of λ in V_k shifted by one",
                        replace(self, power_shift=self.power_shift + 1)),
                Control("V_k⁺ x_k multiplied by 33/32 (a near control)",
                        replace(self, constant=self.constant * Fraction(33, 32))))

    def k_max(self, n: int) -> int:
        """The largest k the hypothesis admits for N nodes."""
        return n + self.k_excess

    def admits(self, n: int, k: int, distinct_nodes: bool) -> bool:
        """Whether (N, k, nodes) satisfies the statement's hypotheses."""
        return 1 <= k <= self.k_max(n) and distinct_nodes

    def power(self, k: Any, j: Any) -> Any:
        """The exponent of V_k[i, j]; ``k``, ``j`` integers or SymPy symbols."""
        return exponent(k, j, shift=self.power_shift)

    def powers(self, k: int) -> list[int]:
        """Exponents of the columns j = 1 … k of V_k."""
        return [self.power(k, j) for j in range(1, k + 1)]

    def reconstruction(self, v: Any, x: Any, *, pinv_apply: Callable[[Any, Any], Any],
                       entries: Callable[[Any], list[Any]],
                       lift: Callable[[Fraction], Any]) -> list[Any]:
        """The right side constant·V_k⁺x_k in any arithmetic, as a list of its entries:
        ``pinv_apply(V, x)`` is that arithmetic's Moore–Penrose solution V⁺x, ``entries``
        lists a vector's entries, ``lift`` embeds a rational."""
        c = lift(self.constant)
        return [c * e for e in entries(pinv_apply(v, x))]


def exact_reconstruction(nodes: Sequence[QQi], u: Sequence[QQi],
                         statement: Reconstruction | None = None) -> tuple[bool, dict[str, Any]]:
    """Whether the statement's right side equals u_{1:k} exactly over ℚ(i) (k = len(u)).

    x_k comes from the exact recurrence x_t = Λx_{t−1} + B u_t with B = (1,…,1)ᵀ (eq. 2); V_k⁺ is
    the exact Moore–Penrose pseudo-inverse (any rank: a wide or rank-deficient V_k is handled,
    so instances outside the printed hypotheses are judged too). ``statement`` defaults to eq. (5)
    as printed.
    """
    from sympy.polys.matrices import DomainMatrix

    from recmem.theory import exact_linalg as ex
    from recmem.theory.recurrence import exact_states

    law = statement if statement is not None else Reconstruction()
    k = len(u)
    v = ex.power_matrix(nodes, law.powers(k))
    x = exact_states(nodes, [[QQi(Fraction(1))] for _ in nodes], [[q] for q in u])[-1]
    xm = DomainMatrix([[e] for e in x], (len(x), 1), ex._dom())
    rank = ex.rank(v)
    got = law.reconstruction(v, xm, pinv_apply=ex.moore_penrose_apply,
                             entries=lambda m: [row[0] for row in m.to_list()],
                             lift=lambda c: ex.element(QQi(c)))
    rec = [ex.to_qqi(e) for e in got]
    info: dict[str, Any] = {"N": len(nodes), "k": k, "rank V_k": rank,
                            "right side": [str(q) for q in rec]}
    return rec == list(u), info


def _probes(statement: Reconstruction) -> list[tuple[int, int, list[QQi]]]:
    """(N, k, nodes) of the exact probes: N ≤ 3, k at the edges of the hypothesis and one beyond
    (1, k_max(N), k_max(N) + 1), distinct probe nodes and, for N ≥ 2, the first one repeated;
    those the statement's hypotheses admit."""
    out = []
    for n in range(1, 4):
        repeated = [PROBE_NODES[0], *PROBE_NODES[:n - 1]]
        for k in sorted({1, statement.k_max(n), statement.k_max(n) + 1}):
            for nodes, distinct in ((list(PROBE_NODES[:n]), True), (repeated, n == 1)):
                if statement.admits(n, k, distinct) and (n, k, nodes) not in out:
                    out.append((n, k, nodes))
    return out


def reconstruct_proof(statement: Reconstruction, n_max: int = 6,
                      nodes: Sequence[QQi] | None = None,
                      u: Sequence[QQi] | None = None) -> Proof:
    """Decide ``statement`` (O eq. 5 or a variant) symbolically.

    1. Exact evaluation over ℚ(i) at the boundary of the statement's domain and just beyond,
       where its hypotheses admit it (:meth:`Reconstruction.admits`): for N = 1, 2, 3,
       k ∈ {1, k_max(N), k_max(N) + 1}, distinct probe nodes and (N ≥ 2) the first node
       repeated, inputs 1, 2, …: a failure disproves it.
    2. General argument (all N ≥ k, distinct nodes): full column rank from the k×k Vandermonde
       determinant (:func:`recmem.theory.vandermonde.det_identity`, polynomial identity for
       k ≤ ``n_max`` and all k by its sign bookkeeping), then V_k⁺V_k = I_k and x_k = V_k u
       (eq. 4). It applies when the statement's hypotheses give rank k (k_max(N) ≤ N, distinct
       nodes) and SymPy reduces its matrix and constant to eq. (4)'s V_k and 1.
    3. When an exact instance (``nodes``, ``u``) is given (the claim's own draw), it is also
       checked exactly.
    """
    import sympy as sp

    from recmem.theory.vandermonde import det_identity

    t0 = time.perf_counter()
    for n, k, probe in _probes(statement):
        inputs = [QQi(Fraction(t)) for t in range(1, k + 1)]
        ok, info = exact_reconstruction(probe, inputs, statement)
        if not ok:
            return Proof(False, f"N = {n}, k = {k}", "exact arithmetic over ℚ(i) (exact "
                         "Moore–Penrose pseudo-inverse)",
                         counterexample={"nodes": [str(q) for q in probe],
                                         "u": [str(q) for q in inputs], **info})
    det = det_identity(n_max)
    if det.holds is not True:
        return Proof(det.holds, det.scope, "square Vandermonde determinant (O.det)",
                     counterexample=det.counterexample, general=det.general)
    k, j = sp.symbols("k j", integer=True, positive=True)
    same_matrix = sp.simplify(statement.power(k, j) - VandermondeForm().power(k, j)) == 0
    full_rank = statement.k_excess <= 0
    details: dict[str, Any] = {"determinant step": det.scope,
                               "matrix is eq. (4)'s V_k": same_matrix,
                               "hypotheses give rank k": full_rank}
    if not (same_matrix and full_rank and statement.constant == 1):
        return Proof(None, "exact probes at N ≤ 3 pass; the general argument does not apply",
                     "exact probes + general argument", details=details)
    scope = ("all N ≥ k with distinct nodes: full column rank from the k×k Vandermonde "
             f"determinant (polynomial identity for k ≤ {n_max}, all k by its sign bookkeeping), "
             "then V⁺V = I (recmem.theory.reconstruction)")
    if nodes is not None and u is not None:
        ok, info = exact_reconstruction(nodes, u, statement)
        details.update({f"instance {key}": val for key, val in info.items()
                        if key != "right side"})
        if not ok:
            return Proof(False, f"instance N = {len(nodes)}, k = {len(u)}",
                         "exact arithmetic over ℚ(i)",
                         counterexample={"nodes": [str(q) for q in nodes],
                                         "u": [str(q) for q in u], **info}, details=details)
        scope += f"; the claim's own instance (N = {len(nodes)}, k = {len(u)}) exactly over ℚ(i)"
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return Proof(True, scope, "SymPy: exact probes, Vandermonde determinant, exact "
                 "pseudo-inverse over ℚ(i)", details=details, general=True)
