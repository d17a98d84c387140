"""Lemma 8's domain relaxation (paper O, App. C, eq. 26) and the relaxed Ω_t⁺ (eq. 31), stated once.

Printed (eq. 26):  T̃[u, t] := (⌈t⌉ − t) T̄[u, ⌈t⌉] + (t − ⌊t⌋) T̄[u, ⌊t⌋],
printed (eq. 31):  Ω_t⁺ := (⌈t⌉ − t) Ω⁺_{⌈t⌉} + (t − ⌊t⌋) Ω⁺_{⌊t⌋},
claimed continuous in t ∈ [1, L] and equal to T̄[u, k] (resp. Ω_k⁺) at every integer t = k.

:class:`Relaxation` holds such a formula as two :class:`Term` s — each a weight σ·(t − anchor(t))
on a value T̄[u, index(t)], anchor and index being ⌊t⌋ or ⌈t⌉ plus an integer — so the printed
form, its correction and their negative controls (weights swapped, floor and ceiling exchanged,
indices shifted) are one class with different field values. Every evaluation (exact, symbolic,
in a backend) goes through :meth:`Relaxation.affine`.

Why the printed form fails (all integers k, all T̄; decided symbolically below): at t = k both
weights vanish (⌈k⌉ − k = k − ⌊k⌋ = 0), so T̃[u, k] = 0 ≠ T̄[u, k] whenever T̄[u, k] ≠ 0; and the
weights sit on the wrong ends: on (k, k+1) the function is (k+1−t)T̄(k+1) + (t−k)T̄(k), whose
limit at k⁺ is T̄(k+1), while the piece on (k−1, k) tends to T̄(k−1) at k⁻.

Corrected (piecewise-linear interpolation): T̃[u, t] := (⌊t⌋ + 1 − t) T̄[u, ⌊t⌋] +
(t − ⌊t⌋) T̄[u, ⌊t⌋ + 1], the second term absent at t = L (its weight is 0 there, so T̄[u, L + 1]
is never needed). At t = k it is T̄[u, k], both one-sided limits at k equal T̄[u, k], and between
integers it is affine, hence continuous on [1, L]. The computation is linear in T̄'s values, so it
holds for T̄ with values in any vector space — in particular for eq. 31's T̄(j) = Ω_j⁺.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

FLOOR, CEIL = "floor", "ceil"
Affine = list[tuple[int, Fraction, Fraction]]  # (index j, c, s): T̃(t) = Σ (c + s·t)·T̄(j)

_SYMBOL = {FLOOR: "⌊t⌋", CEIL: "⌈t⌉"}


def _plus(base: str, offset: Fraction | int) -> str:
    b = _SYMBOL[base]
    return b if offset == 0 else f"{b} {'+' if offset > 0 else '−'} {abs(offset)}"


# The near control's deviation: the first weight's constant raised by 2⁻⁸, so T̃(k) is off by
# 0.4 % of T̄(k) — a tolerance above ~2⁻⁹ cannot resolve it.
NEAR = Fraction(1, 256)


@dataclass(frozen=True)
class Term:
    """σ·(t − (anchor(t) + anchor_offset)) · T̄[u, index(t) + index_offset], with anchor and
    index each ⌊t⌋ or ⌈t⌉."""

    index: str
    index_offset: int
    sign: int
    anchor: str
    anchor_offset: Fraction | int

    def weight_text(self) -> str:
        a = _plus(self.anchor, self.anchor_offset)
        return f"({a} − t)" if self.sign < 0 else f"(t − {a})"

    def text(self, of: str = "T̄[u, {}]") -> str:
        return self.weight_text() + of.format(_plus(self.index, self.index_offset))

    def at(self, t: Any, floor: Any, ceil: Any) -> tuple[Any, Any]:
        """(index, weight) of the term at t, given ⌊t⌋ and ⌈t⌉, over any ring (exact rationals,
        SymPy symbols): the one place the term's formula is written."""
        rounding = {FLOOR: floor, CEIL: ceil}
        anchor = rounding[self.anchor] + self.anchor_offset
        return rounding[self.index] + self.index_offset, self.sign * (t - anchor)

    def affine(self, t: Fraction) -> tuple[int, Fraction, Fraction]:
        """(index, c, s) at t: the weight is c + s·t on t's piece (⌊t⌋, ⌈t⌉ held fixed)."""
        f, c = math.floor(t), math.ceil(t)
        index, w0 = self.at(Fraction(0), f, c)
        _, w1 = self.at(Fraction(1), f, c)
        return index, Fraction(w0), Fraction(w1 - w0)

    def exchanged(self) -> Term:
        swap = {FLOOR: CEIL, CEIL: FLOOR}
        return replace(self, index=swap[self.index], anchor=swap[self.anchor])


@dataclass(frozen=True)
class Relaxation(Statement):
    """O App. C, Lemma 8: T̃[u, t] := first + second (eq. 26) is continuous in t on [1, L] and
    equals T̄[u, k] at every integer k; the same weights on Ω_j⁺ (eq. 31) reduce to Ω_k⁺ at t = k.
    """

    first: Term
    second: Term

    @property
    def formula(self) -> str:
        return f"{self.first.text()} + {self.second.text()}"

    @property
    def text(self) -> str:
        omega = f"{self.first.text('Ω⁺_{{{}}}')} + {self.second.text('Ω⁺_{{{}}}')}"
        return (f"T̃[u, t] := {self.formula} is continuous in t on [1, L] and equals T̄[u, k] at "
                f"every integer k; likewise Ω_t⁺ := {omega} (eq. 31) reduces to Ω_k⁺ at t = k")

    def controls(self) -> tuple[Control, ...]:
        a, b = self.first, self.second
        swap_a = replace(a, sign=b.sign, anchor=b.anchor, anchor_offset=b.anchor_offset)
        swap_b = replace(b, sign=a.sign, anchor=a.anchor, anchor_offset=a.anchor_offset)
        return (Control("weights swapped", Relaxation(swap_a, swap_b)),
                Control("floor and ceiling exchanged", Relaxation(a.exchanged(), b.exchanged())),
                Control("indices shifted by one",
                        Relaxation(replace(a, index_offset=a.index_offset + 1),
                                   replace(b, index_offset=b.index_offset + 1))),
                Control("first weight's constant raised by 2⁻⁸ (near)",
                        Relaxation(replace(a, anchor_offset=a.anchor_offset + NEAR), b)))

    def affine(self, t: Fraction) -> Affine:
        """The two terms at t as (index, c, s), weight c + s·t (zero weights included)."""
        return [self.first.affine(t), self.second.affine(t)]

    def weights(self, t: Fraction) -> list[tuple[int, Fraction]]:
        """(index, weight) at t with the zero weights dropped (T̄[L + 1] with weight 0 is absent)."""
        return [(j, c + s * t) for j, c, s in self.affine(t) if c + s * t != 0]

    def undefined(self, t: Fraction, length: int) -> int | None:
        """An index outside 1…L that carries a nonzero weight at t (the formula needs a value T̄
        does not have), or None."""
        return next((j for j, _ in self.weights(t) if not 1 <= j <= length), None)

    def evaluate(self, values: Sequence[Any], t: Fraction, zero: Any = 0) -> Any:
        """T̃(t) = Σ w_j T̄(j) for T̄ given as ``values[j − 1]`` (any vector space); raises
        IndexError where the formula needs T̄ outside 1…L."""
        bad = self.undefined(t, len(values))
        if bad is not None:
            raise IndexError(f"T̃({t}) needs T̄[u, {bad}], outside 1…{len(values)}")
        acc = zero
        for j, w in self.weights(t):
            acc = acc + values[j - 1] * w
        return acc

    def one_sided_limits(self, values: Sequence[Any], k: int, zero: Any = 0
                         ) -> tuple[Any | None, Any | None]:
        """(lim_{t→k⁻}, lim_{t→k⁺}) of T̃, exactly; None for a side outside [1, L].

        On an open interval (j, j + 1), ⌊t⌋ = j and ⌈t⌉ = j + 1 are constant, so T̃ is affine
        there; its one-sided limit at an endpoint is that affine expression at the endpoint,
        recovered exactly from two interior points. Raises IndexError where the piece needs T̄
        outside 1…L.
        """
        length = len(values)

        def piece_at(j: int, x: Fraction) -> Any:
            a, b = Fraction(j) + Fraction(1, 3), Fraction(j) + Fraction(2, 3)
            fa, fb = self.evaluate(values, a, zero), self.evaluate(values, b, zero)
            return fa + (fb - fa) * ((x - a) / (b - a))

        left = piece_at(k - 1, Fraction(k)) if k - 1 >= 1 else None
        right = piece_at(k, Fraction(k)) if k + 1 <= length else None
        return left, right

    def judge(self, values: Sequence[Any], t: Fraction, names: tuple[str, str] = ("T̃", "T̄")
              ) -> tuple[bool, dict[str, str], str]:
        """Exact: at an integer t = k, T̃(k) = T̄(k) and both one-sided limits equal it; at a
        non-integer t, the formula is defined on t's piece (T̃ is affine there, hence
        continuous). Returns (holds, the computed values as strings, why it fails); ``names``
        name T̃ and T̄ in the messages."""
        tilde, bar = names
        rec: dict[str, str] = {"t": str(t)}
        try:
            if t.denominator != 1:  # affine on t's piece: defined there ⇒ continuous there
                rec["T~(t)"] = str(self.evaluate(values, t))
                return True, rec, ""
            k = int(t)
            value, expected = self.evaluate(values, t), values[k - 1]
            rec.update({"T~(t)": str(value), "T_bar(t)": str(expected)})
            if value != expected:
                return False, rec, f"{tilde}({k}) = {value} ≠ {bar}({k}) = {expected}"
            left, right = self.one_sided_limits(values, k)
        except IndexError as exc:
            return False, rec, str(exc)
        rec.update({"lim t→k−": str(left), "lim t→k+": str(right)})
        for side, lim in (("−", left), ("+", right)):
            if lim is not None and lim != value:
                return False, rec, (f"lim_(t→{k}{side}) {tilde} = {lim} ≠ {tilde}({k}) = {value}: "
                                    "a jump")
        return True, rec, ""


PRINTED = Relaxation(Term(CEIL, 0, -1, CEIL, 0), Term(FLOOR, 0, 1, FLOOR, 0))
CORRECTED = Relaxation(Term(FLOOR, 0, -1, FLOOR, 1), Term(FLOOR, 1, 1, FLOOR, 0))

# Exact T̄ sequences a symbolic disproof is witnessed on (L = 4): constant, ramp, squares, and an
# alternating one (so neighbouring values always differ).
WITNESS_SEQUENCES: tuple[tuple[int, ...], ...] = ((1, 1, 1, 1), (1, 2, 3, 4), (1, 4, 9, 16),
                                                  (1, -1, 2, -2))


def _symbolic(law: Relaxation) -> tuple[Any, Any, Any, dict[str, Any]]:
    """T̃ at an integer k and its one-sided limits, for a symbolic integer k and an undefined
    function T̄ (SymPy): on (k − 1, k) ⌊t⌋ = k − 1, ⌈t⌉ = k; on (k, k + 1) ⌊t⌋ = k, ⌈t⌉ = k + 1.
    Returns (T̃(k) − T̄(k), left limit − T̄(k), right limit − T̄(k), the expressions)."""
    import sympy as sp

    k = sp.Symbol("k", integer=True)
    big_t = sp.Function("T")

    def value(floor: Any, ceil: Any, t: Any) -> Any:
        acc = sp.Integer(0)
        for term in (law.first, law.second):
            index, weight = term.at(t, floor, ceil)
            acc += weight * big_t(index)
        return sp.expand(acc)

    at_k = value(k, k, k)
    left = value(k - 1, k, k)
    right = value(k, k + 1, k)
    exprs = {"T~(k)": str(at_k), "lim t→k−": str(left), "lim t→k+": str(right)}
    return (sp.expand(at_k - big_t(k)), sp.expand(left - big_t(k)),
            sp.expand(right - big_t(k)), exprs)


def _domain_ok(law: Relaxation) -> tuple[bool, str]:
    """Whether every piece (j, j + 1), 1 ≤ j ≤ L − 1, and every integer in [1, L] references T̄
    only inside 1…L, for every L: the index offsets relative to j (resp. k) must lie in [0, 1]
    (resp. be 0) wherever the weight is not identically zero. Read off :meth:`Term.at` with
    j = k = 0 (the offsets do not depend on j or k)."""
    for term in (law.first, law.second):
        # on (j, j + 1): ⌊t⌋ = j, ⌈t⌉ = j + 1; the weight is affine with slope ±1 there, so not
        # identically zero
        c, _ = term.at(Fraction(1, 2), 0, 1)
        if not 0 <= c <= 1:
            return False, f"{term.text()} needs T̄ at j {'+' if c >= 0 else '−'} {abs(c)} on (j, j+1)"
        # at t = k: ⌊t⌋ = ⌈t⌉ = k
        c, w = term.at(Fraction(0), 0, 0)
        if w != 0 and c != 0:
            return False, f"{term.text()} needs T̄ at k {c:+d} at t = k"
    return True, ""


def relaxation_proof(law: Relaxation) -> Proof:
    """Decide a relaxation formula for an arbitrary T̄ and a symbolic integer k (all k, all L).

    SymPy evaluates the formula at t = k (⌊k⌋ = ⌈k⌉ = k) and its one-sided limits from the affine
    pieces; the statement holds iff the three differences from T̄(k) vanish identically and the
    formula never needs T̄ outside 1…L. Otherwise an exact witness (an integer k ≤ 4 and one of
    :data:`WITNESS_SEQUENCES`, judged by :meth:`Relaxation.judge`) disproves it.
    """
    t0 = time.perf_counter()
    d_value, d_left, d_right, exprs = _symbolic(law)
    domain, why = _domain_ok(law)
    details = {**exprs, "references only T̄[1…L]": domain if domain else why}
    if d_value == 0 and d_left == 0 and d_right == 0 and domain:
        return Proof(True, "all integers k and every T̄ with values in a vector space (symbolic "
                     "k, undefined function T̄; covers eq. 31's T̄(j) = Ω_j⁺); affine between "
                     "integers, hence continuous on [1, L]",
                     "SymPy: value at integer k and one-sided limits from the affine pieces",
                     details={**details, "seconds": round(time.perf_counter() - t0, 3)}, general=True)
    length = len(WITNESS_SEQUENCES[0])
    for k in range(1, length + 1):
        for seq in WITNESS_SEQUENCES:
            values = [Fraction(v) for v in seq]
            for t in (Fraction(k), Fraction(2 * k - 1, 2)):
                if t < 1:
                    continue
                ok, rec, detail = law.judge(values, t)
                if not ok:
                    return Proof(False, f"exact witness: L = {len(values)}, t = {t}: {detail}",
                                 "SymPy: value at integer k and one-sided limits from the affine "
                                 "pieces; exact rational witness",
                                 counterexample={"L": len(values), "T_bar": [str(v) for v in values],
                                                 **rec, "detail": detail,
                                                 "symbolic T~(k) − T(k)": str(d_value),
                                                 "symbolic lim t→k− − T(k)": str(d_left),
                                                 "symbolic lim t→k+ − T(k)": str(d_right)},
                                 details={**details,
                                          "seconds": round(time.perf_counter() - t0, 3)})
    return Proof(None, "the symbolic differences do not vanish, but no witness sequence refutes",
                 "SymPy", details=details)


def omega_example() -> dict[str, Any]:
    """A small exact instance of eq. 31's ingredients: Ω_k⁺ (Penrose-certified) for k = 1…4.

    M = 1, nodes (1/2, −1/2, i/2) (N − 1 = 3), basis ψ¹ = 1, ψ² = (1, 2, 3, 4) (P = 2, L = 4):
    rank Ω_k = 2 for k ≥ 2 (Ω_1 has rank 1; its Moore–Penrose inverse is still defined).
    """
    from recmem.theory.sparse import moore_penrose, omega

    nodes = [QQi(Fraction(1, 2)), QQi(Fraction(-1, 2)), QQi(Fraction(0), Fraction(1, 2))]
    basis = [[[Fraction(1)] * 4], [[Fraction(1), Fraction(2), Fraction(3), Fraction(4)]]]
    pinvs = [moore_penrose(omega([nodes], basis, k)) for k in range(1, 5)]
    return {"nodes": nodes, "basis": basis, "pinv": pinvs}


def omega_relaxation(law: Relaxation, t_check: int = 3) -> Proof:
    """Eq. 31 with the statement's weights on the exact instance of :func:`omega_example`:
    Ω_t⁺ at t = ``t_check`` against Ω⁺_{t_check}, and the one-sided limits there (exact ℚ(i);
    evidence on one instance, so ``general=False``)."""
    from recmem.theory.sparse import to_rows

    t0 = time.perf_counter()
    ex_ = omega_example()
    pinvs: list[Any] = ex_["pinv"]
    scaled = [_Scaled(p) for p in pinvs]
    record: dict[str, Any] = {"nodes": [str(q) for q in ex_["nodes"]],
                              "basis": "ψ¹ = (1,1,1,1), ψ² = (1,2,3,4)", "t": str(t_check)}
    ok, _, detail = law.judge(scaled, Fraction(t_check), ("Ω_t⁺", "Ω⁺_t"))
    details = {"seconds": round(time.perf_counter() - t0, 3)}
    if ok:
        return Proof(True, f"exact instance (M = 1, N − 1 = 3, P = 2, L = 4), t = {t_check}: "
                     f"Ω_t⁺ = Ω_{t_check}⁺ and both one-sided limits equal it",
                     "exact ℚ(i), the statement's eq. 31 weights (Penrose-certified Ω_k⁺)",
                     details=details, general=False)
    try:
        at = law.evaluate(scaled, Fraction(t_check))
        record["Omega_t^+ (eq. 31)"] = ("0 (every weight vanishes)" if not isinstance(at, _Scaled)
                                        else [[str(v) for v in r] for r in to_rows(at.matrix)])
    except IndexError as exc:
        record["Omega_t^+ (eq. 31)"] = str(exc)
    record["Omega_k^+"] = [[str(v) for v in r] for r in to_rows(pinvs[t_check - 1])]
    return Proof(False, f"eq. 31 at t = {t_check} on an exact instance: {detail}",
                 "exact ℚ(i), the statement's eq. 31 weights (Penrose-certified Ω_k⁺)",
                 counterexample={**record, "detail": detail}, details=details)


class _Scaled:
    """A matrix Ω⁺_j in a vector space over ℚ: the operations :meth:`Relaxation.evaluate` uses,
    compared exactly (for eq. 31's T̄(j) = Ω_j⁺)."""

    def __init__(self, matrix: Any) -> None:
        self.matrix = matrix

    def __add__(self, other: Any) -> _Scaled:
        if isinstance(other, _Scaled):
            return _Scaled(self.matrix + other.matrix)
        if other == 0:
            return self
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other: _Scaled) -> _Scaled:
        return _Scaled(self.matrix - other.matrix)

    def __mul__(self, w: Fraction) -> _Scaled:
        from recmem.theory import exact_linalg as ex

        return _Scaled(self.matrix * ex.element(QQi(Fraction(w))))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Scaled) and self.matrix == other.matrix

    def __hash__(self) -> int:  # pragma: no cover - not hashed
        return 0

    def __str__(self) -> str:
        from recmem.theory.sparse import to_rows

        return str([[str(v) for v in r] for r in to_rows(self.matrix)]).replace("'", "")
