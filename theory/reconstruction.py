"""Reconstruction of the input from the last state: u_{1:k} = V_k⁺ x_k (paper O §3.1, eq. 5).

General argument (all N ≥ k, distinct nodes): the top k×k block of V_k is the square Vandermonde
matrix of λ_1 … λ_k in O's orientation, whose determinant is Π_{i<j≤k}(λ_i − λ_j) ≠ 0 (``O.det``,
:func:`recmem.theory.vandermonde.det_identity`); so V_k has full column rank k, V_kᴴV_k is
invertible, V_k⁺ = (V_kᴴV_k)⁻¹V_kᴴ and V_k⁺V_k = I_k. With x_k = V_k u_{1:k} (eq. 4,
``O.vandermonde-form``), V_k⁺x_k = u_{1:k}.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.exact_linalg import pinv_apply
from recmem.theory.proof import Proof


def exact_reconstruction(nodes: Sequence[QQi], u: Sequence[QQi]) -> tuple[bool, dict[str, Any]]:
    """Whether V_k⁺ x_k == u_{1:k} exactly over ℚ(i) (O eq. 5) for one instance.

    x_k comes from the exact recurrence x_t = Λx_{t−1} + B u_t with B = (1,…,1)ᵀ (eq. 2), k =
    len(u); V_k⁺x_k = (V_kᴴV_k)⁻¹V_kᴴx_k, the pseudo-inverse when V_k has full column rank, which
    the exact solve certifies (:func:`pinv_apply`). A rank deficient V_k (coincident nodes, or
    k > N) is outside the statement's hypotheses.
    """
    from sympy.polys.matrices import DomainMatrix

    from recmem.theory import exact_linalg as ex
    from recmem.theory.recurrence import exact_states

    k = len(u)
    v = ex.vandermonde(nodes, k)
    info: dict[str, Any] = {"N": len(nodes), "k": k}
    x = exact_states(nodes, [[QQi(1)] for _ in nodes], [[q] for q in u])[-1]
    xm = DomainMatrix([[e] for e in x], (len(x), 1), ex._dom())
    rec = pinv_apply(v, xm) if len(nodes) >= k else None
    info["full column rank"] = rec is not None
    if rec is None:
        info["reason"] = "V_k is rank deficient: outside the hypotheses (distinct nodes, N ≥ k)"
        return False, info
    got = [ex.to_qqi(rec.to_list()[i][0]) for i in range(k)]
    info["V_k^+ x_k"] = [str(q) for q in got]
    return got == list(u), info


def reconstruct_identity(n_max: int = 6, nodes: Sequence[QQi] | None = None,
                         u: Sequence[QQi] | None = None) -> Proof:
    """O eq. (5): u_{1:k} = V_k⁺ x_k for N ≥ k and distinct λ.

    The full-column-rank step rests on the square Vandermonde determinant, established here as a
    polynomial identity for every k ≤ ``n_max`` (all k by the column-reversal argument of
    :func:`recmem.theory.vandermonde.det_identity`); when an exact instance (``nodes``, ``u``) is
    given, V_k⁺x_k = u is also checked exactly over ℚ(i).
    """
    from recmem.theory.vandermonde import det_identity

    t0 = time.perf_counter()
    det = det_identity(n_max)
    if det.holds is not True:
        return Proof(det.holds, det.scope, "square Vandermonde determinant (O.det)",
                     counterexample=det.counterexample)
    details: dict[str, Any] = {"determinant step": det.scope}
    scope = ("all N ≥ k with distinct nodes: full column rank from the k×k Vandermonde "
             f"determinant (polynomial identity for k ≤ {n_max}, all k by column reversal), then "
             "V⁺V = I (recmem.theory.reconstruction)")
    if nodes is not None and u is not None:
        ok, info = exact_reconstruction(nodes, u)
        details.update({f"instance {key}": val for key, val in info.items()
                        if key != "V_k^+ x_k"})
        if not ok:
            if not info["full column rank"]:
                return Proof(None, "instance outside the hypotheses", "exact rank over ℚ(i)",
                             details=details)
            return Proof(False, f"instance N = {len(nodes)}, k = {len(u)}",
                         "exact arithmetic over ℚ(i)",
                         counterexample={"nodes": [str(q) for q in nodes],
                                         "u": [str(q) for q in u], **info}, details=details)
        scope += f"; the claim's own instance (N = {len(nodes)}, k = {len(u)}) exactly over ℚ(i)"
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return Proof(True, scope, "SymPy: Vandermonde determinant + exact pseudo-inverse over ℚ(i)",
                 details=details)
