"""Paper W, App. A.1 (ICLR 2024 camera-ready): "Well-definedness of continuous-time RNN".

Printed: "Heaviside inputs are point-wise limit of smooth inputs u^x = lim_{k→∞} u^x_{k,cont}.
Therefore the outputs of continuous targets functionals are well-defined:
H_t(u^x) = H_t(lim_k u^x_{k,cont}) = lim_k H_t(u^x_{k,cont})." The functionals of W are continuous
in ‖·‖_∞ (and causal, regular, time-homogeneous, §2.1); a pointwise limit is not a limit in ‖·‖_∞
(a uniform limit of continuous functions is continuous, u^x is not), so continuity does not give the
exchange. Nothing else in A.1 is a checkable assertion (the −∞ boundary condition is a choice).

:class:`HeavisideLimit` states the exchange over a class of functionals:

- ``continuous`` (as printed) is refuted by the peak-and-window functional
  H_t(x) = sup_{s≤t}|x_s| · ∫_{t−1}^t |x_s| ds (continuous in ‖·‖_∞: a product of two 1-Lipschitz
  functionals; causal; time-homogeneous; regular for bounded sequences by dominated convergence) and
  the continuous (C¹) approximants u_k(s) = x·(S(ks + 1) + B(ks)) → u^x pointwise, with the smooth
  step S(r) = 3r² − 2r³ on [0, 1] (0 before, 1 after) and the bump B(r) = (r(2 − r))² on [0, 2]:
  H_t(u_k) = 2x² for every k ≥ 2/(t − 1), H_t(u^x) = x² (and the bump-free v_k(s) = x·S(ks + 1)
  give x²: the limit depends on the sequence). ``causal`` drops continuity and regularity, and
  ``lipschitz`` asks 1-Lipschitz continuity in ‖·‖_∞ but drops regularity (controls; the peak-hold
  functional H_t(x) = sup_{s≤t}|x_s| is 1-Lipschitz and gives 2|x| ≠ |x|).
- ``rnn`` (the correction, for the RNNs (1) the paper studies: σ L-Lipschitz, σ(0) = 0, b = 0, so
  h ≡ 0 before the input): |ŷ_t(u_k) − ŷ_t(u^x)| ≤ ``scale``·G_k(t),
  G_k(t) = L|c|₂‖U‖₂ ∫_{−∞}^t |u_k(s) − u^x(s)|₂ e^{L‖W‖₂(t−s)} ds → 0 (dominated convergence), by
  Grönwall's lemma; with scale 1 the bound is attained by the scalar linear RNN h' = wh + ux with
  w ≥ 0 and u_k ≥ u^x (the difference solves the comparison equation itself).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, Step, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

CLASSES = ("continuous", "causal", "lipschitz", "rnn")
_CLASS_TEXT = {
    "continuous": "continuous (in ‖·‖_∞), causal, regular and time-homogeneous functional H",
    "causal": "causal, time-homogeneous functional H",
    "lipschitz": "causal, time-homogeneous functional H that is 1-Lipschitz in ‖·‖_∞ (regularity dropped)",
    "rnn": "RNN (1) with an L-Lipschitz σ, σ(0) = 0, b = 0 (H_t = ŷ_t, at rest before the input)",
}


# ---------------------------------------------------------------------------------------------
# the approximants, exactly (piecewise polynomials with rational coefficients)


def step_poly(r: Any) -> Any:
    """3r² − 2r³, the smooth step's middle piece (any arithmetic)."""
    return 3 * r**2 - 2 * r**3


def bump_poly(r: Any) -> Any:
    """(r(2 − r))², the bump's piece on [0, 2] (any arithmetic)."""
    return (r * (2 - r)) ** 2


def smooth_step(r: Any) -> Any:
    """S(r): 0 for r ≤ 0, 3r² − 2r³ on [0, 1], 1 for r ≥ 1 (C¹)."""
    if r <= 0:
        return r * 0
    if r >= 1:
        return r * 0 + 1
    return step_poly(r)


def bump(r: Any) -> Any:
    """B(r): (r(2 − r))² on [0, 2], 0 elsewhere (C¹; maximum 1 at r = 1)."""
    return bump_poly(r) if 0 <= r <= 2 else r * 0


def approximant(x: Any, k: int, s: Any, with_bump: bool = True) -> Any:
    """u_k(s) = x·(S(ks + 1) + B(ks)) (``with_bump``) or v_k(s) = x·S(ks + 1): continuous inputs
    converging to u^x = x·1_[0,∞) at every s."""
    return x * (smooth_step(k * s + 1) + (bump(k * s) if with_bump else 0))


def piece(k: int, j: int, s: Any) -> Any:
    """u_k(s)/x on its j-th polynomial piece (j = 0: [−1/k, 0], 1: [0, 2/k], 2: [2/k, ∞)), as a
    polynomial in s (any arithmetic): what an integrator of analytic fields needs."""
    return (step_poly(k * s + 1), 1 + bump_poly(k * s), s * 0 + 1)[j]


def heaviside(x: Any, s: Any) -> Any:
    """u^x_s = x·1_[0,∞)(s)."""
    return x if s >= 0 else x * 0


def breakpoints(k: int) -> tuple[Fraction, ...]:
    """Where u_k changes its polynomial piece (and where B peaks)."""
    return (Fraction(-1, k), Fraction(0), Fraction(1, k), Fraction(2, k))


def uses_window(functionals: str) -> bool:
    """Which witness refutes the class: the peak-and-window functional (continuous, regular), or the
    peak-hold functional sup_{s≤t}|x_s| alone (``lipschitz``: 1-Lipschitz, not regular)."""
    return functionals != "lipschitz"


def witness_value(x: Fraction, k: int | None, t: Fraction, with_bump: bool = True,
                  window: bool = True) -> Fraction:
    """H_t(u) of the peak-and-window functional (``window``; else the peak-hold sup_{s≤t}|u_s|),
    exactly, for u = u_k (k an int) or u^x (k None), t ≥ 1 + 2/k: the sup is 2|x| (at s = 1/k; |x|
    without the bump or for u^x), and u = x on [t − 1, t], so the window integral is |x|."""
    if k is not None and t < 1 + Fraction(2, k):
        raise ValueError("the exact value needs t ≥ 1 + 2/k (the window past the bump)")
    peak = 2 * abs(x) if (k is not None and with_bump) else abs(x)
    return peak * abs(x) if window else peak


@dataclass(frozen=True)
class HeavisideLimit(Statement):
    """App. A.1: for every functional of the class ``functionals``, every x and every uniformly bounded
    sequence of continuous inputs u_k → u^x pointwise, H_t(u^x) = lim_k H_t(u_k); for ``rnn`` with the
    rate |ŷ_t(u_k) − ŷ_t(u^x)| ≤ ``scale``·G_k(t) (module docstring)."""

    functionals: str = "continuous"
    scale: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if self.functionals not in CLASSES or self.scale <= 0:
            raise ValueError(f"not a HeavisideLimit statement: {self!r}")

    @property
    def text(self) -> str:
        head = (f"For every {_CLASS_TEXT[self.functionals]}, every x and every uniformly bounded sequence "
                "of continuous inputs u_k → u^x pointwise: ")
        if self.functionals != "rnn":
            return head + "H_t(u^x) = lim_(k→∞) H_t(u_k) (A.1)"
        sc = "" if self.scale == 1 else f"({self.scale})·"
        return head + (f"|ŷ_t(u_k) − ŷ_t(u^x)| ≤ {sc}L|c|₂‖U‖₂ ∫_(−∞)^t |u_k(s) − u^x(s)|₂ "
                       "e^(L‖W‖₂(t−s)) ds → 0, so ŷ_t(u^x) = lim_(k→∞) ŷ_t(u_k)")

    def controls(self) -> tuple[Control, ...]:
        if self.functionals == "rnn":
            return (Control("bound times 63/64 (near control)",
                            replace(self, scale=self.scale * Fraction(63, 64))),
                    Control("bound halved", replace(self, scale=self.scale / 2)))
        return (Control("class widened to every causal, time-homogeneous functional (continuity and "
                        "regularity dropped)", replace(self, functionals="causal")),
                Control("regularity replaced by 1-Lipschitz continuity in ‖·‖_∞",
                        replace(self, functionals="lipschitz")))

    def bound(self, g: Any, number: Any = lambda q: q) -> Any:
        """scale·G in any arithmetic (``number`` converts the exact scale)."""
        return g if self.scale == 1 else number(self.scale) * g


# ---------------------------------------------------------------------------------------------
# symbolic decisions


@functools.cache
def approximant_facts() -> Proof:
    """SymPy: S and B are C¹ at their joints, 0 ≤ S ≤ 1 and 0 ≤ B ≤ 1 (1 − S = (1 − r)²(1 + 2r),
    1 − B = (r − 1)²(2 − (r − 1)²)), B(1) = 1: so sup_s |u_k(s)| = 2|x|, at s = 1/k."""
    import sympy as sp

    r = sp.Symbol("r")
    s_poly, b_poly = 3 * r**2 - 2 * r**3, (r * (2 - r)) ** 2
    steps = _poly_steps({
        "S is C¹ (S(0) = 0, S(1) = 1, S'(0) = S'(1) = 0)": [
            s_poly.subs(r, 0), s_poly.subs(r, 1) - 1, sp.diff(s_poly, r).subs(r, 0),
            sp.diff(s_poly, r).subs(r, 1)],
        "B is C¹ (B(0) = B(2) = 0, B'(0) = B'(2) = 0)": [
            b_poly.subs(r, 0), b_poly.subs(r, 2), sp.diff(b_poly, r).subs(r, 0),
            sp.diff(b_poly, r).subs(r, 2)],
        "1 − S = (1 − r)²(1 + 2r)": [1 - s_poly - (1 - r) ** 2 * (1 + 2 * r)],
        "1 − B = (r − 1)²(2 − (r − 1)²)": [1 - b_poly - (r - 1) ** 2 * (2 - (r - 1) ** 2)],
        "B(1) = 1": [b_poly.subs(r, 1) - 1],
    })
    return proof_from_steps(steps, "the approximants", "SymPy: polynomial identities")


def _poly_steps(steps: dict[str, Any]) -> dict[str, Step]:
    """Polynomial identities decided by expansion (exact, and fast)."""
    import sympy as sp

    return {name: decide_zeros(diffs, simplify=sp.expand) for name, diffs in steps.items()}


@functools.cache
def comparison_step() -> Proof:
    """SymPy (Leibniz rule, g undefined): φ(t) = ∫_{t₀}^t g(s)e^{a(t−s)} ds solves φ' = aφ + g,
    φ(t₀) = 0 — Grönwall's comparison function, and the variation-of-constants solution of the
    scalar linear RNN's difference equation Δh' = wΔh + uΔu."""
    import sympy as sp

    s, t, t0, a = sp.symbols("s t t0 a", real=True)
    g = sp.Function("g")
    phi = sp.Integral(g(s) * sp.exp(a * (t - s)), (s, t0, t))
    def pull(e: Any) -> Any:
        """Every integral over s with its s-independent factors taken out, then expanded."""
        def out(i: Any) -> Any:
            const, rest = sp.expand(i.function).as_independent(s, as_Add=False)
            return const * sp.Integral(rest, *i.limits)
        return sp.expand(sp.expand(e).replace(lambda z: isinstance(z, sp.Integral), out))

    steps: dict[str, Step] = {"φ' = aφ + g": decide_zeros(
        [sp.diff(phi, t) - (a * phi + g(t))], simplify=pull),
        "φ(t₀) = 0": decide_zeros([phi.subs(t, t0).doit()])}
    return proof_from_steps(steps, "the comparison function", "SymPy: Leibniz rule")


@functools.cache
def sharp_instance() -> Any:
    """G = Δŷ exactly for the sharp instance of :func:`sharp_gap` (independent of the statement)."""
    import sympy as sp

    s = sp.Symbol("s")
    k, t, w = 4, 1, sp.Rational(1, 2)
    rs = k * s + 1
    pieces = [((3 * rs**2 - 2 * rs**3), sp.Rational(-1, k), 0),       # S(ks + 1) − 0 on [−1/k, 0)
              ((k * s * (2 - k * s)) ** 2, 0, sp.Rational(2, k))]       # B(ks) on [0, 2/k]
    return sp.expand(sum(sp.integrate(sp.expand(p * sp.exp(w * (t - s))), (s, lo, hi))
                         for p, lo, hi in pieces))


def sharp_gap(scale: Fraction) -> tuple[Any, Any]:
    """(G, Δŷ − scale·G) exactly for h' = h/2 + x (w = 1/2, u = c = 1, L = 1), x = 1, k = 4, t = 1:
    Δŷ = G = ∫_{−1/4}^{1}(u_4 − u^x)(s)e^{(1−s)/2} ds (the difference solves the comparison
    equation, :func:`comparison_step`)."""
    import sympy as sp

    g = sharp_instance()
    return g, sp.expand(g - sp.Rational(scale.numerator, scale.denominator) * g)


def well_defined_proof(statement: HeavisideLimit) -> Proof:
    """Decide ``statement``: the peak-and-window witness (``continuous``, ``causal``), Grönwall's
    lemma with the comparison function and the sharp linear witness (``rnn``)."""
    import sympy as sp

    facts = approximant_facts()
    if facts.holds is not True:
        return facts
    if statement.functionals != "rnn":
        x, k, t = Fraction(1), 4, Fraction(2)
        win = uses_window(statement.functionals)
        lim, at = witness_value(x, k, t, window=win), witness_value(x, None, t, window=win)
        functional = ("H_t(x) = sup_(s≤t)|x_s|·∫_(t−1)^t |x_s| ds" if win else "H_t(x) = sup_(s≤t)|x_s|")
        return Proof(False, f"{functional} (continuous in ‖·‖_∞, causal, time-homogeneous; "
                     + ("regular for bounded sequences)" if win else "1-Lipschitz, not regular)"),
                     "exact values on the C¹ approximants u_k(s) = x(S(ks + 1) + B(ks)) → u^x pointwise "
                     "(SymPy checks S, B)",
                     counterexample={"H_t(x)": functional.split(" = ", 1)[1],
                                     "u_k(s)": "x·(S(ks + 1) + B(ks)), S(r) = 3r² − 2r³ on [0, 1], "
                                               "B(r) = (r(2 − r))² on [0, 2]",
                                     "x": str(x), "t": str(t),
                                     "H_t(u_k), every k ≥ 2/(t − 1)": str(lim), "H_t(u^x)": str(at),
                                     "H_t(v_k) for v_k = x·S(ks + 1)": str(witness_value(x, k, t, False,
                                                                                         window=win))},
                     details=facts.details)
    comp = comparison_step()
    if comp.holds is not True:
        return comp
    g, gap = sharp_gap(statement.scale)
    if statement.scale >= 1:
        return Proof(True, "every RNN (1) with L-Lipschitz σ, σ(0) = 0, b = 0; every bounded input "
                     "sequence", "Grönwall's lemma: |Δh(t)| ≤ ∫ L(‖W‖|Δh| + ‖U‖|Δu|) ≤ φ(t), the "
                     "comparison function (SymPy: φ' = L‖W‖φ + L‖U‖|Δu|); G_k → 0 by dominated "
                     "convergence", details={**facts.details, **comp.details, "sharp instance G": str(g)},
                     general=True)
    if gap.is_positive is not True:  # SymPy's certified sign (it evaluates with error control)
        return Proof(None, "the sharp linear instance", "SymPy could not decide the sign of "
                     "|Δŷ| − scale·G", details={"|Δŷ| − scale·G": str(gap)})
    return Proof(False, "h' = h/2 + x, ŷ = h (w = 1/2, u = c = 1, σ = identity, L = 1)",
                 "the difference of the two responses is the comparison function itself (SymPy)",
                 counterexample={"RNN": "h' = h/2 + x, ŷ = h", "x": "1", "k": "4", "t": "1",
                                 "|Δŷ| = G": f"{g} ≈ {sp.N(g, 12)}",
                                 "|Δŷ| − scale·G": f"{gap} ≈ {sp.N(gap, 12)} > 0"},
                 details={**comp.details})
