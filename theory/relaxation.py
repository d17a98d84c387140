"""Lemma 8's domain relaxation (paper O, App. C, eq. 26) and the relaxed Ω_t⁺ (eq. 31).

Printed (eq. 26):  T̃[u, t] := (⌈t⌉ − t) T̄[u, ⌈t⌉] + (t − ⌊t⌋) T̄[u, ⌊t⌋],
printed (eq. 31):  Ω_t⁺ := (⌈t⌉ − t) Ω⁺_{⌈t⌉} + (t − ⌊t⌋) Ω⁺_{⌊t⌋},
claimed continuous in t ∈ [1, L] and equal to T̄[u, k] (resp. Ω_k⁺) at every integer t = k.

Why the printed form fails (all integers k, all T̄, by the symbolic computation below):
- at t = k both weights vanish (⌈k⌉ − k = k − ⌊k⌋ = 0), so T̃[u, k] = 0 ≠ T̄[u, k] whenever
  T̄[u, k] ≠ 0;
- the weights are attached to the wrong ends: on (k, k+1) the function is
  (k+1−t)T̄(k+1) + (t−k)T̄(k), whose limit at k⁺ is T̄(k+1), while the piece on (k−1, k) tends to
  T̄(k−1) at k⁻: a jump unless T̄(k−1) = T̄(k+1) = 0.
Merely swapping the two weights, (t − ⌊t⌋)T̄(⌈t⌉) + (⌈t⌉ − t)T̄(⌊t⌋), fixes continuity between
integers but still gives 0 at every integer.

Corrected (piecewise-linear interpolation):
T̃[u, t] := (⌊t⌋ + 1 − t) T̄[u, ⌊t⌋] + (t − ⌊t⌋) T̄[u, ⌊t⌋ + 1], with the second term absent at
t = L (its weight is 0 there, so T̄[u, L + 1] is never needed). At t = k it is T̄[u, k], and both
one-sided limits at k equal T̄[u, k]; between integers it is affine, hence continuous on [1, L].
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof

Weights = list[tuple[int, Fraction]]  # (index j, weight) pairs: T̃(t) = Σ weight·T̄(j)
Affine = list[tuple[int, int, int]]  # (index j, c, s): weight = c + s·t


def printed_affine(t: Fraction) -> Affine:
    """Eq. 26's weights at t as affine functions of t: ⌈t⌉ − t on T̄(⌈t⌉), t − ⌊t⌋ on T̄(⌊t⌋)."""
    c, f = math.ceil(t), math.floor(t)
    return [(c, c, -1), (f, -f, 1)]


def swapped_affine(t: Fraction) -> Affine:
    """Eq. 26 with its two weights swapped: t − ⌊t⌋ on T̄(⌈t⌉), ⌈t⌉ − t on T̄(⌊t⌋)."""
    c, f = math.ceil(t), math.floor(t)
    return [(c, -f, 1), (f, c, -1)]


def corrected_affine(t: Fraction) -> Affine:
    """Piecewise-linear interpolation: ⌊t⌋ + 1 − t on T̄(⌊t⌋), t − ⌊t⌋ on T̄(⌊t⌋ + 1)."""
    f = math.floor(t)
    return [(f, f + 1, -1), (f + 1, -f, 1)]


def _weights(affine: Callable[[Fraction], Affine]) -> Callable[[Fraction], Weights]:
    def weights(t: Fraction) -> Weights:
        # zero-weight terms are dropped: T̄[L + 1] is never referenced at t = L
        return [(j, c + s * t) for j, c, s in affine(t) if c + s * t != 0]

    return weights


printed_weights = _weights(printed_affine)
swapped_weights = _weights(swapped_affine)
corrected_weights = _weights(corrected_affine)


def evaluate(weights: Callable[[Fraction], Weights], values: Sequence[Any], t: Fraction) -> Any:
    """T̃(t) = Σ w_j T̄(j) for T̄ given as ``values[j − 1]`` (j = 1…L), exactly."""
    acc: Any = 0
    for j, w in weights(t):
        if w != 0:
            acc = acc + w * values[j - 1]
    return acc


def one_sided_limits(weights: Callable[[Fraction], Weights], values: Sequence[Any],
                     k: int) -> tuple[Any | None, Any | None]:
    """(lim_{t→k⁻}, lim_{t→k⁺}) of T̃, exactly.

    On an open interval (j, j + 1), ⌊t⌋ = j and ⌈t⌉ = j + 1 are constant, so each formula is an
    affine function of t there; its one-sided limit at an endpoint is the affine expression
    evaluated at the endpoint. The expression is recovered exactly from two interior points.
    None where the side lies outside [1, L].
    """
    length = len(values)

    def piece_at(j: int, x: Fraction) -> Any:
        a, b = Fraction(j) + Fraction(1, 3), Fraction(j) + Fraction(2, 3)
        fa, fb = evaluate(weights, values, a), evaluate(weights, values, b)
        return fa + (fb - fa) * ((x - a) / (b - a))  # affine through two interior points

    left = piece_at(k - 1, Fraction(k)) if k - 1 >= 1 else None
    right = piece_at(k, Fraction(k)) if k + 1 <= length else None
    return left, right


def _symbolic_forms() -> tuple[Any, Any, Any, Any, Any]:
    import sympy as sp

    t = sp.Symbol("t", real=True)
    k = sp.Symbol("k", integer=True)
    big_t = sp.Function("T")
    printed = ((sp.ceiling(t) - t) * big_t(sp.ceiling(t))
               + (t - sp.floor(t)) * big_t(sp.floor(t)))
    corrected = ((sp.floor(t) + 1 - t) * big_t(sp.floor(t))
                 + (t - sp.floor(t)) * big_t(sp.floor(t) + 1))
    return t, k, big_t, printed, corrected


def _pieces(expr: Any, t: Any, k: Any) -> tuple[Any, Any]:
    """(left, right) one-sided limits at integer k: on (k−1, k) ⌊t⌋ = k−1, ⌈t⌉ = k; on (k, k+1)
    ⌊t⌋ = k, ⌈t⌉ = k + 1; substitute, then let t → k in the resulting affine expression."""
    import sympy as sp

    left = expr.replace(sp.floor, lambda a: k - 1).replace(sp.ceiling, lambda a: k)
    right = expr.replace(sp.floor, lambda a: k).replace(sp.ceiling, lambda a: k + 1)
    return sp.expand(left.subs(t, k)), sp.expand(right.subs(t, k))


def printed_relaxation() -> Proof:
    """Eq. 26 as printed, for an arbitrary function T̄ and a symbolic integer k (all k, all L).

    SymPy evaluates ⌈k⌉ = ⌊k⌋ = k for an integer symbol, so T̃(k) = 0; the one-sided limits come
    from the affine pieces (:func:`_pieces`). Counterexample: T̄ ≡ 1, t = 1 gives T̃ = 0 ≠ 1.
    """
    import sympy as sp

    t0 = time.perf_counter()
    t, k, big_t, printed, _ = _symbolic_forms()
    at_k = sp.simplify(printed.subs(t, k))
    left, right = _pieces(printed, t, k)
    ones = [Fraction(1)] * 3
    value = evaluate(printed_weights, ones, Fraction(1))
    ramp = [Fraction(1), Fraction(2), Fraction(3)]
    lim = one_sided_limits(printed_weights, ramp, 2)
    holds = all(sp.simplify(e - big_t(k)) == 0 for e in (at_k, left, right))
    details = {"T~(k)": str(at_k), "lim t→k−": str(left), "lim t→k+": str(right),
               "seconds": round(time.perf_counter() - t0, 3)}
    if holds:  # pragma: no cover - the printed form is not an interpolation
        return Proof(True, "all integers k", "SymPy", details=details)
    return Proof(False, f"all integers k, any T̄ (symbolic): T̃(k) = {at_k}, lim_(t→k−) = {left}, "
                 f"lim_(t→k+) = {right}",
                 "SymPy: ⌈k⌉ = ⌊k⌋ = k for integer k; one-sided limits from the affine pieces",
                 counterexample={"L": 3, "T_bar": ["1", "1", "1"], "t": "1",
                                 "T~(1)": str(value), "T_bar(1)": "1",
                                 "also (continuity)": {"T_bar": ["1", "2", "3"], "k": 2,
                                                       "lim t→2−": str(lim[0]),
                                                       "lim t→2+": str(lim[1]),
                                                       "T~(2)": str(evaluate(printed_weights,
                                                                             ramp, Fraction(2)))}},
                 details=details)


def corrected_relaxation() -> Proof:
    """The corrected interpolation, for an arbitrary T̄ and a symbolic integer k (all k, all L):
    T̃(k) = T̄(k) and both one-sided limits equal T̄(k); affine (so continuous) between integers.
    Also records that the weight-swapped variant of eq. 26 still vanishes at integers."""
    import sympy as sp

    t0 = time.perf_counter()
    t, k, big_t, _printed, corrected = _symbolic_forms()
    at_k = sp.simplify(corrected.subs(t, k))
    left, right = _pieces(corrected, t, k)
    swapped = ((t - sp.floor(t)) * big_t(sp.ceiling(t))
               + (sp.ceiling(t) - t) * big_t(sp.floor(t)))
    swapped_at_k = sp.simplify(swapped.subs(t, k))
    ok = all(sp.simplify(e - big_t(k)) == 0 for e in (at_k, left, right))
    details = {"T~(k)": str(at_k), "lim t→k−": str(left), "lim t→k+": str(right),
               "weight-swapped eq. 26 at t = k": str(swapped_at_k),
               "seconds": round(time.perf_counter() - t0, 3)}
    if not ok:  # pragma: no cover
        return Proof(False, "symbolic integer k", "SymPy", counterexample=details)
    return Proof(True, "all integers k and every T̄ (symbolic k, undefined function T̄); affine "
                 "between integers, hence continuous on [1, L]",
                 "SymPy: value at integer k and one-sided limits from the affine pieces",
                 details=details)


def omega_example() -> dict[str, Any]:
    """A small exact instance of eq. 31's ingredients: Ω_k⁺ (Penrose-certified) for k = 2, 3, 4.

    M = 1, nodes (1/2, −1/2, i/2) (N − 1 = 3), basis ψ¹ = 1, ψ² = (1, 2, 3, 4) (P = 2, L = 4):
    rank Ω_k = 2 for k ≥ 2.
    """
    from recmem.theory.sparse import block_vandermonde, dm, moore_penrose, psi_k

    nodes = [QQi(Fraction(1, 2)), QQi(Fraction(-1, 2)), QQi(Fraction(0), Fraction(1, 2))]
    basis = [[[Fraction(1)] * 4], [[Fraction(1), Fraction(2), Fraction(3), Fraction(4)]]]
    pinvs = {k: moore_penrose(block_vandermonde([nodes], k) * dm(psi_k(basis, k)))
             for k in (2, 3, 4)}
    return {"nodes": nodes, "basis": basis, "pinv": pinvs}


def _mat_combo(weights: Weights, pinvs: dict[int, Any]) -> Any:
    """Σ w_j Ω_j⁺ exactly (zero matrix when every weight vanishes)."""
    from sympy.polys.matrices import DomainMatrix

    from recmem.theory import exact_linalg as ex

    dom = ex._dom()
    shape = next(iter(pinvs.values())).shape
    acc = DomainMatrix.zeros(shape, dom)
    for j, w in weights:
        if w != 0:
            acc = acc + pinvs[j] * ex.element(QQi(w))
    return acc


def omega_relaxation(corrected: bool) -> Proof:
    """Eq. 31 (printed or corrected weights) on the exact instance of :func:`omega_example`:
    Ω_t⁺ at t = 3 against Ω_3⁺, and the one-sided limits at 3 (from the affine pieces)."""
    t0 = time.perf_counter()
    ex_ = omega_example()
    pinvs = ex_["pinv"]
    w = corrected_weights if corrected else printed_weights
    at3 = _mat_combo(w(Fraction(3)), pinvs)

    def piece(j: int, x: Fraction) -> Any:
        a, b = Fraction(j) + Fraction(1, 3), Fraction(j) + Fraction(2, 3)
        fa, fb = _mat_combo(w(a), pinvs), _mat_combo(w(b), pinvs)
        from recmem.theory import exact_linalg as ex

        s = ex.element(QQi((x - a) / (b - a)))
        return fa + (fb - fa) * s

    left, right = piece(2, Fraction(3)), piece(3, Fraction(3))
    ok = at3 == pinvs[3] and left == pinvs[3] and right == pinvs[3]
    details = {"seconds": round(time.perf_counter() - t0, 3)}
    label = "corrected" if corrected else "printed"
    if ok:
        return Proof(True, "exact instance (M=1, N−1=3, P=2, L=4), t = 3: Ω_t⁺ = Ω_3⁺ and both "
                     "one-sided limits equal Ω_3⁺", f"exact ℚ(i), {label} eq. 31 weights",
                     details=details)
    from recmem.theory.sparse import to_rows

    zero = all(v == 0 for r in to_rows(at3) for v in (r and [q.re for q in r] + [q.im for q in r]))
    return Proof(False, f"eq. 31 as printed at t = 3 on an exact instance: Ω_t⁺ = "
                 f"{'0' if zero else 'Ω_t⁺'} ≠ Ω_3⁺; one-sided limits Ω_2⁺ (left) and Ω_4⁺ "
                 "(right)",
                 f"exact ℚ(i), {label} eq. 31 weights (Penrose-certified Ω_k⁺)",
                 counterexample={"nodes": [str(q) for q in ex_["nodes"]],
                                 "basis": "ψ¹ = (1,1,1,1), ψ² = (1,2,3,4)", "t": "3",
                                 "Omega_t^+ (eq. 31)": [[str(v) for v in r] for r in to_rows(at3)],
                                 "Omega_3^+": [[str(v) for v in r] for r in to_rows(pinvs[3])],
                                 "left limit = Omega_2^+": left == pinvs[2],
                                 "right limit = Omega_4^+": right == pinvs[4]},
                 details=details)
