"""Real nodes make Vandermonde matrices exponentially ill-conditioned (paper O §3.1, ref. [9]).

Paper O, §3.1: "if Λ is real the condition number of V_k grows exponentially with N [9]"
(Gautschi–Inglese 1988). The statement (:class:`RealIllConditioning`) is a lower bound for real
nodes in [−1, 1] (every stable real recurrence) together with the direction of growth that the
conditioning study tests; this module proves the bound, decides any statement of that form
(:func:`illcond_proof`, three-valued) and evaluates the exact quantities (‖V⁻¹‖₁, κ₁, Gautschi's
bounds, a rational bracket of κ₂) that the study and the counterexample search use.

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

How sharp: at N = 2 the nodes ±1 give VᵀV = 2I, κ₂ = 1 = 2·(2^{N−2}/N); for 3 ≤ N ≤ 8 the
smallest κ₂ over node sets in [−1, 1] is a larger multiple of 2^{N−2}/N (numerical minimisation:
≈ 4.8 at N = 3, 6.7 at N = 4, 10.3 at N = 5, 25.8 at N = 8; the minimum grows like (1 + √2)^N).
So doubling the constant (κ₂ ≥ 2^{N−1}/N) is no negative control: it holds with equality at N = 2.
Tripling it, or raising the exponent by two, is false at N = 2 (nodes ±1), which
:func:`illcond_proof` certifies exactly.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

GROWTH = ("increasing", "decreasing")
RELATIONS = ("≥", "≤")


@dataclass(frozen=True)
class RealIllConditioning(Statement):
    """O §3.1 (ref. [9]): for real Λ, κ₂(V_N) grows exponentially with N (square V_N, k = N).

    Formalised for N ≥ 2 distinct real nodes in [−``radius``, ``radius``] as

        κ₂(V_N) ``relation`` ``constant``·2^(N + ``exponent_shift``)/N,

    proved with constant 1 and exponent shift −2 (module docstring), and as the direction of
    growth tested by the conditioning study: log₂κ₂(V_N) is ``growth`` in N within each node
    family studied (recmem.numerics.studies.REAL_FAMILIES; sizes as the claim's parameters).
    The growth is not a statement about every sequence of node sets (a badly clustered small
    set has a larger κ₂ than a well spread larger one).
    """

    constant: Fraction = Fraction(1)
    exponent_shift: int = -2
    relation: str = "≥"
    growth: str = "increasing"
    radius: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS or self.growth not in GROWTH:
            raise ValueError(f"relation must be one of {RELATIONS} and growth one of {GROWTH}")
        if self.constant <= 0 or self.radius <= 0:
            raise ValueError("the constant and the radius must be positive")

    # ---- the formula ----------------------------------------------------------------------
    def bound(self, n: int) -> Fraction:
        """constant·2^(n + exponent_shift)/n, exactly."""
        return Fraction(self.constant) * Fraction(2) ** (n + self.exponent_shift) / n

    def violation(self, kappa: Any, bound: Any) -> Any:
        """The relative amount by which κ₂ (> 0) violates the bound (≤ 0 exactly when the
        relation holds): bound/κ₂ − 1 for ≥, its negative 1 − bound/κ₂ for ≤ (any ordered
        field: Fractions, mpf, floats)."""
        v = bound / kappa - 1
        return v if self.relation == "≥" else -v

    def satisfied(self, kappa: Any, bound: Any) -> bool:
        """Whether κ₂ ``relation`` bound: the violation is not positive (the relation is written
        once, in :meth:`violation`)."""
        return bool(self.violation(kappa, bound) <= 0)

    # ---- the hypotheses -------------------------------------------------------------------
    def admits(self, nodes: Sequence[Fraction]) -> bool:
        """N ≥ 2 distinct real nodes in [−radius, radius]."""
        return (len(nodes) >= 2 and len(set(nodes)) == len(nodes)
                and all(abs(Fraction(x)) <= self.radius for x in nodes))

    # ---- text and controls ----------------------------------------------------------------
    @property
    def bound_text(self) -> str:
        c = "" if self.constant == 1 else f"{self.constant}·"
        s = self.exponent_shift
        e = "N" if s == 0 else f"(N {'+' if s > 0 else '−'} {abs(s)})"
        return f"{c}2^{e}/N"

    @property
    def text(self) -> str:
        r = self.radius
        trend = ("grows with N (exponentially)" if self.growth == "increasing"
                 else "falls as N grows")
        return (f"for N ≥ 2 distinct real nodes in [−{r}, {r}] (real Λ; k = N, the square V_N): "
                f"κ₂(V_N) {self.relation} {self.bound_text}, and κ₂(V_N) {trend} within each "
                "node family studied (uniform random, equispaced, Chebyshev points)")

    def controls(self) -> tuple[Control, ...]:
        other_rel = "≤" if self.relation == "≥" else "≥"
        other_growth = "decreasing" if self.growth == "increasing" else "increasing"
        # Doubling the constant (equivalently raising the exponent by one) gives 2^(N−1)/N, which
        # nodes ±1 attain at N = 2 and which holds at every N tried (module docstring): no
        # control. Tripling the constant or raising the exponent by two is false at N = 2.
        return (Control("constant tripled", replace(self, constant=3 * self.constant)),
                Control("exponent raised by two",
                        replace(self, exponent_shift=self.exponent_shift + 2)),
                Control("inequality reversed", replace(self, relation=other_rel)),
                Control("growth with N reversed", replace(self, growth=other_growth)))


# The statement the argument of the module docstring proves (constant 1, exponent N − 2).
PROVED = RealIllConditioning()


def argument_bound(n: int) -> Fraction:
    """The lower bound on κ₂(V_N) that the argument of the module docstring proves, 2^(N−2)/N
    (the leading coefficient of T_(N−1) over N), written here independently of any statement's
    :meth:`RealIllConditioning.bound`, which :func:`illcond_proof` compares with it."""
    return Fraction(2 ** (n - 2), n)


def chebyshev_extrema() -> dict[int, tuple[Fraction, ...]]:
    """The extrema cos(jπ/(N−1)), j = 0 … N−1, of T_{N−1}, for the N where they are rational
    (N ≤ 4, by Niven's theorem): the node sets where step 2 of the argument is an equality, and
    the tightest configurations of the bound (nodes ±1 at N = 2 attain κ₂ = 1)."""
    h = Fraction(1, 2)
    return {2: (Fraction(-1), Fraction(1)), 3: (Fraction(-1), Fraction(0), Fraction(1)),
            4: (Fraction(-1), -h, h, Fraction(1))}


@cache
def chebyshev_divided_difference(n_max: int = 8) -> Proof:
    """Σ_i T_{n−1}(x_i)/w'(x_i) = 2^{n−2} for symbolic x_1 … x_n, 2 ≤ n ≤ ``n_max`` (O §3.1, [9]).

    Step 2 of the argument (module docstring). Multiplying by D = Π_{a<b}(x_a − x_b) clears the
    denominators: D/w'(x_i) = (−1)^{i} D_i (0-based i) with D_i the product for the other n − 1
    variables. The identity becomes the polynomial identity Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D
    in ℤ[x_1 … x_n], which is expanded and compared exactly (SymPy sparse polynomials; D and D_i
    are built from the Leibniz expansion of the Vandermonde determinant, one monomial per
    permutation, which is how O.det checks them). A nonzero difference is a disproof of the
    identity (shown); it does not depend on any statement, so the result is cached.
    """
    import sympy as sp
    from sympy import ZZ

    from recmem.theory.vandermonde import permutation_sign

    t0 = time.perf_counter()
    if n_max < 2:
        return Proof(None, "n_max < 2", "nothing to check (the identity starts at n = 2)")
    one, mone = ZZ(1), ZZ(-1)
    t = sp.Symbol("t")
    for n in range(2, n_max + 1):
        ring, *_ = sp.ring(",".join(f"x{i}" for i in range(1, n + 1)), ZZ)
        cheb = [ZZ(int(c)) for c in sp.Poly(sp.chebyshevt(n - 1, t), t).all_coeffs()[::-1]]

        def vdm(idx: list[int], n: int = n, ring: Any = ring) -> Any:
            # Π_{a<b} (x_idx[a] − x_idx[b]) = det[x_idx[r]^(m−1−c)] (O.det), one term per permutation
            m = len(idx)
            p = ring.zero.copy()
            for perm in itertools.permutations(range(m)):
                e = [0] * n
                for r in range(m):
                    e[idx[r]] = m - 1 - perm[r]
                p[tuple(e)] = one if permutation_sign(perm) > 0 else mone
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
    return Proof(True, f"identity for symbolic nodes, 2 ≤ n ≤ {n_max}",
                 "SymPy: Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D expanded in ℤ[x_1…x_n]",
                 details={"seconds": round(time.perf_counter() - t0, 3)}, general=True)


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


def kappa2_squared_bracket(nodes: Sequence[Fraction],
                           rel: Fraction = Fraction(1, 2**30)) -> tuple[Fraction, Fraction]:
    """Rationals lo ≤ κ₂(V_N)² ≤ hi for distinct rational nodes, exactly.

    κ₂² = λ_max/λ_min of the Gram matrix G = VᵀV (rational, positive definite for distinct
    nodes). SymPy isolates the real roots of G's characteristic polynomial in rational intervals
    (exact real-root isolation) and refines the smallest and largest until each is known to the
    relative width ``rel``; then lo = a_max/b_min and hi = b_max/a_min.
    """
    import sympy as sp

    n = len(nodes)
    q = [sp.Rational(Fraction(x).numerator, Fraction(x).denominator) for x in nodes]
    v = sp.Matrix([[x ** (n - 1 - j) for j in range(n)] for x in q])
    t = sp.Symbol("t")
    poly = sp.Poly((v.T * v).charpoly(t).as_expr(), t)
    roots = [iv for iv, _ in poly.intervals()]
    roots.sort(key=lambda iv: iv[0])
    eps = sp.Rational(rel.numerator, rel.denominator)

    def refine(iv: tuple[Any, Any]) -> tuple[Any, Any]:
        a, b = iv
        while a <= 0 or b - a > eps * a:
            a, b = poly.refine_root(a, b, eps=max((b - a) / 16, sp.Rational(1, 2**400)))
        return a, b

    (a_min, b_min), (a_max, b_max) = refine(roots[0]), refine(roots[-1])
    return Fraction(str(a_max / b_min)), Fraction(str(b_max / a_min))


def kappa2_bracket(nodes: Sequence[Fraction]) -> tuple[Fraction, Fraction, str]:
    """Rational lo ≤ κ₂(V_N) ≤ hi for distinct rational nodes, and how it was obtained.

    First κ₁/N ≤ κ₂ ≤ N·κ₁ with the exact κ₁ (cheap, and enough whenever a bound is far); the
    caller asks for :func:`kappa2_squared_bracket` when that does not decide.
    """
    n = len(nodes)
    k1 = kappa1(nodes)
    return k1 / n, n * k1, "κ₁/N ≤ κ₂ ≤ N·κ₁ with the exact κ₁ (fmpq)"


def judge_point(law: RealIllConditioning, nodes: Sequence[Fraction]) -> tuple[bool | None,
                                                                             dict[str, Any]]:
    """Decide ``law``'s bound at one node set exactly: True, False (a certified counterexample)
    or None (outside the hypothesis, or undecided); with the exact values that decide it."""
    nodes = [Fraction(x) for x in nodes]
    n = len(nodes)
    values: dict[str, Any] = {"N": n, "nodes": [str(x) for x in nodes]}
    if not law.admits(nodes):
        return None, {**values, "reason": "outside the hypothesis"}
    bound = law.bound(n)
    lo, hi, how = kappa2_bracket(nodes)
    holds = _decide(law, lo, hi, bound)
    if holds is None:
        lo2, hi2 = kappa2_squared_bracket(nodes)
        holds = _decide(law, lo2, hi2, bound * bound)
        how = "exact real-root isolation of the characteristic polynomial of VᵀV (SymPy)"
        values["kappa2^2 in"] = [str(lo2), str(hi2)]
    else:
        values["kappa2 in"] = [str(lo), str(hi)]
    values.update({"bound": f"{law.bound_text} = {bound}", "relation": law.relation,
                   "certified by": how})
    return holds, values


def judge_family_growth(law: RealIllConditioning, nodes: Sequence[Fraction],
                        ) -> tuple[bool | None, dict[str, Any]]:
    """Decide ``law``'s direction of growth on one member of the family of tight configurations
    (:func:`chebyshev_extrema` scaled to the radius; its N = 2 member is ±radius), exactly: the
    member at N ≥ 3 against the member at N = 2, by exact brackets of κ₂². A κ₂ that is larger at
    N than at 2 contradicts a statement that κ₂ falls with N (False) and agrees with one that it
    grows (True); None for a node set outside the family or brackets that overlap. (The same
    witness as :func:`illcond_proof`'s, here found by the counterexample search.)"""
    nodes = [Fraction(x) for x in nodes]
    family = {n: [x * law.radius for x in xs] for n, xs in chebyshev_extrema().items()}
    n = len(nodes)
    if n < 3 or family.get(n) != sorted(nodes) or not law.admits(family[2]):
        return None, {}
    lo_n, hi_n = kappa2_squared_bracket(nodes)
    lo_2, hi_2 = kappa2_squared_bracket(family[2])
    values = {"family": f"extrema of T_(N−1) scaled to ±{law.radius} (±{law.radius} at N = 2)",
              f"kappa2(V_{n})^2 in": [str(lo_n), str(hi_n)],
              "kappa2(V_2)^2 in": [str(lo_2), str(hi_2)], "growth": law.growth,
              "certified by": "exact real-root isolation of the characteristic polynomials of VᵀV "
                              "(SymPy) at N = 2 and at N"}
    if lo_n > hi_2:
        return law.growth == "increasing", values
    return None, values


def _decide(law: RealIllConditioning, lo: Fraction, hi: Fraction, bound: Fraction) -> bool | None:
    """``law.relation`` between a bracketed κ and a bound: decided when the bracket is on one
    side (the same rule for κ₂ and κ₂², both ends being non-negative)."""
    if law.satisfied(lo, bound) and law.satisfied(hi, bound):
        return True
    if not law.satisfied(lo, bound) and not law.satisfied(hi, bound):
        return False
    return None


def illcond_proof(law: RealIllConditioning, n_max: int = 8) -> Proof:
    """Decide ``law`` symbolically (O §3.1, [9]): True, False with an exact counterexample, or
    None.

    - The bound: the argument of the module docstring proves κ₂(V_N) ≥ 2^(N−2)/N on [−1, 1]
      (its key identity is expanded for n ≤ ``n_max``); a statement whose bound is at most that
      one for every N (constant·2^(shift+2) ≤ 1) and whose nodes lie in [−1, 1] is proved.
      Otherwise (a stronger bound, or the reversed inequality) the tight configurations
      (:func:`chebyshev_extrema`) are judged exactly (:func:`judge_point`); a violation is the
      counterexample, none leaves the statement undecided.
    - The growth: the proved bound exceeds κ₂(V_2) = 1 at the nodes ±1 (VᵀV = 2I) from some N₀
      on, so κ₂ cannot fall with N in a family holding ±1 at N = 2 (equispaced nodes): a
      "decreasing" statement is disproved with that witness. An "increasing" one is the study's
      trend test; the proof covers its exponential lower envelope.
    """
    t0 = time.perf_counter()
    identity = chebyshev_divided_difference(n_max)
    details: dict[str, Any] = {"identity": identity.scope}
    for n, nodes in chebyshev_extrema().items():
        if not law.admits(nodes):
            continue
        holds, values = judge_point(law, nodes)
        if holds is False:
            return Proof(False, f"N = {n}", "exact judgement of the bound at a tight configuration "
                         "(the extrema of T_(N−1))", counterexample=values)
    if identity.holds is not True:
        # the lemma SymPy decided false is a failed derivation step (FAILED), not a disproof of
        # the statement; undecided leaves the statement undecided
        failed = None if identity.holds is None else {
            "step": "Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D (the divided-difference identity)",
            "value": "; ".join(f"{k} = {v}" for k, v in (identity.counterexample or {}).items())}
        return Proof(None, identity.scope, "the divided-difference identity did not go through: "
                     "the argument proves nothing", details={**details, **identity.details,
                                                            **(identity.counterexample or {})},
                     failed_step=failed)
    # the statement's bound must be at most the proved one at every N: a bound of the form
    # constant·2^(N + shift)/N is a constant multiple of it, compared at every N ≤ n_max
    weaker = all(law.bound(n) <= argument_bound(n) for n in range(2, n_max + 1))
    details["bound ≤ 2^(N−2)/N for 2 ≤ N ≤ n_max"] = weaker
    if law.relation != "≥" or law.radius > 1 or not weaker:
        return Proof(None, f"the argument proves κ₂(V_N) ≥ {PROVED.bound_text} on [−1, 1] only",
                     "no tight configuration violates the statement's bound either", details=details)
    if law.growth == "decreasing":
        witness = chebyshev_extrema()[2]
        if not law.admits(witness):
            return Proof(None, f"nodes in [−{law.radius}, {law.radius}]", "the witness of a "
                         "falling κ₂ (nodes ±1) lies outside the statement's hypothesis")
        lo2, hi2 = kappa2_squared_bracket(witness)
        n0 = next(n for n in itertools.count(3) if argument_bound(n) ** 2 > hi2)
        return Proof(False, f"N = 2 and N = {n0}", "exact κ₂ at N = 2 and the proved bound at "
                     f"N = {n0}", counterexample={
                         "family": "equispaced nodes (−1, 1 at N = 2)",
                         "kappa2(V_2)^2 at nodes -1, 1": f"in [{lo2}, {hi2}] (exact)",
                         f"kappa2(V_{n0}) >=": f"{PROVED.bound_text} = {argument_bound(n0)} "
                                               "(the proved bound, every node set)"})
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return Proof(True,
                 f"κ₂(V_N) {law.relation} {law.bound_text} for all N ≥ 2 and all distinct real "
                 f"nodes in [−{law.radius}, {law.radius}] (argument in recmem.theory.real_nodes; "
                 f"its identity expanded for 2 ≤ n ≤ {n_max}): κ₂ grows at least exponentially",
                 "SymPy: Σ_i (−1)^i T_{n−1}(x_i) D_i = 2^{n−2} D expanded in ℤ[x_1…x_n]; then "
                 "|T_{n−1}| ≤ 1, Gautschi's lower bound, ‖V‖₁ ≥ N and κ₂ ≥ κ₁/N",
                 details=details, general=True)
