"""Lemma A.10 of paper W and the transform of its proof (App. A.10, eqs. (103)–(117) of the ICLR
camera-ready).

Lemma A.10: f: [0, ∞) → ℝ continuous, approximated by continuous f_m "universally":
lim_m sup_t |f(t) − f_m(t)| = 0 (103); "the approximators f_m are uniformly exponentially
decaying with the same β₀ > 0": lim_{t→∞} sup_m e^{β₀t}|f_m(t)| → 0 (104); then
lim_{t→∞} e^{βt}|f(t)| → 0 for all 0 < β < β₀ (105). :class:`LimitDecay` is the lemma; its
knobs are the upper end of the conclusion's range (β₀ as printed) and whether (104) is uniform in
m (as printed) or only holds for each f_m.

A shorter argument than the paper's, checked here: f_m → f pointwise already gives |f(t)| =
lim_m |f_m(t)| ≤ sup_m |f_m(t)|, hence e^{β₀t}|f(t)| ≤ sup_m e^{β₀t}|f_m(t)| → 0: the conclusion
holds for β = β₀ as well. Neither knob can be moved: f_m = f = e^{−β₀t}/(1 + t) satisfies (103)
and (104) and e^{βt}f(t) → ∞ for every β > β₀; cut-offs of f = 1/(1 + t) (f_m = f on [0, m],
f(m)e^{−2(t−m)} after, β₀ = 1) converge uniformly and each decays at rate 2 > β₀, but not
uniformly in m, and f decays like 1/t.

The proof's transform (106), (𝒯f)(s) = f(−log(s)/β₀)/s, satisfies (𝒯g)(e^{−β₀t}) = e^{β₀t}g(t),
so sup_s |𝒯g| = sup_t e^{β₀t}|g(t)|; yet (109) = (110) equates sup_s |𝒯f_{m₁} − 𝒯f_{m₂}| with
sup_t |f_{m₁}(t)/e^{−βt} − f_{m₂}(t)/e^{−βt}|, and (117) reads lim_t e^{βt}f(t) off 𝒯f: the proof
defines 𝒯 with β₀ and uses it with β. :class:`TransformSup` is that printed step; with β in 𝒯
(its correction) the step holds and the proof goes through. The lemma itself does not depend on
it (it also holds at β = β₀).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

BETA0 = Fraction(1)  # β₀ of the witness sequences and of the transform instances
BETA = Fraction(1, 2)  # the β < β₀ at which the transform step (109) = (110) is instantiated


# ---- witness sequences (exact in SymPy, and in any arithmetic ``x`` with exp, log, one and
# piecewise(t, m, left, right): left on t ≤ m) -----------------------------------------------------

@dataclass(frozen=True)
class Sequence:
    """A sequence f_m → f with β₀ = 1: its formulas and which hypotheses of Lemma A.10 it meets
    (each established by SymPy in :func:`sequence_facts`)."""

    name: str
    f_m: Callable[[Any, Any, Any], Any]  # (x, m, t) → f_m(t)
    f: Callable[[Any, Any], Any]  # (x, t) → f(t)
    facts: Callable[[Any], dict[str, dict[str, bool]]]  # sp → {property: {sub-check: proved}}


def _conv_fm(x: Any, m: Any, t: Any) -> Any:
    return x.exp(-2 * t) + x.exp(-(2 + x.one / m) * t)


def _conv_f(x: Any, t: Any) -> Any:
    return 2 * x.exp(-2 * t)


def _slow_f(x: Any, t: Any) -> Any:
    return x.exp(-t) / (1 + t)


def _cut_fm(x: Any, m: Any, t: Any) -> Any:
    # the two branches agree at t = m (continuous cut-off); the tail decays at rate 2 > β₀ = 1
    return x.piecewise(t, m, lambda v: 1 / (1 + v), lambda v: x.exp(-2 * (v - m)) / (1 + m))


def _cut_f(x: Any, t: Any) -> Any:
    return 1 / (1 + t)


def _conv_facts(sp: Any) -> dict[str, dict[str, bool]]:
    """f_m = e^{−2t} + e^{−(2+1/m)t} → f = 2e^{−2t}."""
    t, m = sp.symbols("t m", positive=True)
    gap = sp.exp(-2 * t) - sp.exp(-(2 + 1 / m) * t)  # f − f_m ≥ 0
    return {
        "uniform convergence (103)": {
            "f − f_m = e^{−2t}(1 − e^{−t/m}) ≤ e^{−2t}·t/m (1 − e^{−x} ≤ x)":
                sp.simplify(gap - sp.exp(-2 * t) * (1 - sp.exp(-t / m))) == 0,
            "max_t t e^{−2t} = 1/(2e), so sup|f − f_m| ≤ 1/(2em) → 0":
                sp.maximum(t * sp.exp(-2 * t), t, sp.Interval(0, sp.oo)) == sp.exp(-1) / 2
                and sp.limit(1 / (2 * sp.E * m), m, sp.oo) == 0},
        "uniform decay (104)": {
            "e^{−(2+1/m)t} ≤ e^{−2t}, so sup_m e^{t}|f_m| ≤ 2e^{−t} → 0":
                sp.limit(sp.exp(t) * 2 * sp.exp(-2 * t), t, sp.oo) == 0},
        "decay of each f_m": {"e^{t}f_m → 0": sp.limit(sp.exp(t) * _conv_fm(_Sym(sp), m, t),
                                                       t, sp.oo) == 0},
    }


def _slow_facts(sp: Any) -> dict[str, dict[str, bool]]:
    """f_m = f = e^{−t}/(1 + t)."""
    t = sp.Symbol("t", positive=True)
    return {
        "uniform convergence (103)": {"f_m = f": True},
        "uniform decay (104)": {"sup_m e^{t}|f_m| = 1/(1 + t) → 0":
                                sp.limit(sp.exp(t) * _slow_f(_Sym(sp), t), t, sp.oo) == 0},
        "decay of each f_m": {"e^{t}f_m = 1/(1 + t) → 0":
                              sp.limit(sp.exp(t) * _slow_f(_Sym(sp), t), t, sp.oo) == 0},
    }


def _cut_facts(sp: Any) -> dict[str, dict[str, bool]]:
    """Cut-offs of f = 1/(1 + t): f_m = f on [0, m], e^{−2(t−m)}/(1 + m) after."""
    t, m, tau = sp.symbols("t m tau", positive=True)
    tail = sp.exp(-2 * (t - m)) / (1 + m)
    bound = 1 / (1 + m)
    return {
        "uniform convergence (103)": {
            "continuous at t = m": sp.simplify(_cut_f(_Sym(sp), m) - tail.subs(t, m)) == 0,
            "on t = m + τ: 0 < f ≤ 1/(1 + m)":
                bool(sp.together(bound - _cut_f(_Sym(sp), m + tau)).is_positive),
            "on t = m + τ: 0 < f_m = e^{−2τ}/(1 + m) ≤ 1/(1 + m)":
                sp.simplify(tail.subs(t, m + tau) / bound) == sp.exp(-2 * tau),
            "so sup_t |f − f_m| ≤ 1/(1 + m) → 0": sp.limit(bound, m, sp.oo) == 0},
        "decay of each f_m": {"e^{t}f_m = e^{2m−t}/(1 + m) → 0 on t > m":
                              sp.limit(sp.exp(t) * tail, t, sp.oo) == 0},
        "no uniform decay": {"sup_m e^{t}f_m(t) ≥ e^{t}f(t) (m ≥ t) → ∞":
                             sp.limit(sp.exp(t) * _cut_f(_Sym(sp), t), t, sp.oo) == sp.oo},
    }


class _Sym:
    """SymPy as an arithmetic for the sequences' formulas (t > m: the tail branch)."""

    def __init__(self, sp: Any) -> None:
        self.exp, self.log, self.one = sp.exp, sp.log, sp.Integer(1)

    @staticmethod
    def piecewise(t: Any, m: Any, left: Callable[[Any], Any], right: Callable[[Any], Any]) -> Any:
        return right(t)


SEQUENCES = {
    "converging": Sequence("converging", _conv_fm, _conv_f, _conv_facts),
    "slow": Sequence("slow", lambda x, m, t: _slow_f(x, t), _slow_f, _slow_facts),
    "cutoff": Sequence("cutoff", _cut_fm, _cut_f, _cut_facts),
}


@functools.cache
def _facts(name: str) -> tuple[tuple[str, bool], ...]:
    import sympy as sp

    checks = SEQUENCES[name].facts(sp)
    return tuple((prop, all(bool(v) for v in c.values())) for prop, c in checks.items())


def sequence_facts(seq: Sequence) -> dict[str, bool]:
    """The hypotheses a witness sequence meets, every one established by its SymPy checks (cached:
    facts about a fixed sequence, whatever statement is under test)."""
    return dict(_facts(seq.name))


# ---- the lemma -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LimitDecay(Statement):
    """W Lemma A.10: (103) and (104) imply e^{βt}|f(t)| → 0 for every 0 < β < beta_factor·β₀.

    ``uniform_in_m``: (104) as printed (lim_t sup_m e^{β₀t}|f_m(t)| = 0); False: only
    lim_t e^{β₀t}|f_m(t)| = 0 for each m.
    """

    beta_factor: Fraction = Fraction(1)
    uniform_in_m: bool = True

    @property
    def text(self) -> str:
        decay = ("lim_(t→∞) sup_(m∈ℕ₊) e^(β₀t)|f_m(t)| = 0 (104)" if self.uniform_in_m else
                 "lim_(t→∞) e^(β₀t)|f_m(t)| = 0 for each m")
        top = "β₀" if self.beta_factor == 1 else f"({self.beta_factor})·β₀"
        return ("Lemma A.10: for continuous f, f_m: [0, ∞) → ℝ with "
                f"lim_(m→∞) sup_t |f(t) − f_m(t)| = 0 (103) and {decay}, β₀ > 0: "
                f"lim_(t→∞) e^(βt)|f(t)| = 0 for all 0 < β < {top} (105)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("conclusion's range widened past β₀: 0 < β < (9/8)·β₀",
                        replace(self, beta_factor=self.beta_factor * Fraction(9, 8))),
                Control("uniform decay (104) weakened to the decay of each f_m",
                        replace(self, uniform_in_m=False)))

    def admits(self, facts: dict[str, bool]) -> bool:
        """Whether a sequence with these proved properties meets the hypotheses."""
        decay = "uniform decay (104)" if self.uniform_in_m else "decay of each f_m"
        return facts.get("uniform convergence (103)", False) and facts.get(decay, False)

    def betas(self, beta0: Fraction) -> list[Fraction]:
        """β's inside the conclusion's range (0, beta_factor·β₀) that the checks test: β₀/2,
        the top of the range less 1/16 of it, and a β past β₀ when the range reaches there."""
        top = self.beta_factor * beta0
        out = [beta0 / 2, top * Fraction(15, 16)]
        if top > beta0:
            out.append((top + beta0) / 2)
        return sorted(set(out))

    def weighted(self, x: Any, beta: Any, t: Any, f_t: Any) -> Any:
        """e^{βt}|f(t)|, the quantity (105) says tends to 0."""
        return x.exp(beta * t) * abs(f_t)

    def range_top(self, beta0: Fraction) -> Fraction:
        """The upper end beta_factor·β₀ of the conclusion's range 0 < β < beta_factor·β₀ (105)."""
        return self.beta_factor * beta0


def limit_decay_proof(st: LimitDecay) -> Proof:
    """Decide Lemma A.10 (or a variant): a witness sequence that meets the statement's hypotheses
    (SymPy) and violates (105) at a β of its range (SymPy limit) disproves it; otherwise, with
    (104) uniform in m and the range within β₀, the pointwise bound |f| ≤ sup_m |f_m| proves it
    for every f, f_m."""
    import sympy as sp

    t0 = time.perf_counter()
    t = sp.Symbol("t", positive=True)
    details: dict[str, Any] = {}
    for seq in SEQUENCES.values():
        facts = sequence_facts(seq)
        details[f"{seq.name}: properties"] = facts
        if not st.admits(facts):
            continue
        f = seq.f(_Sym(sp), t)
        for beta in st.betas(BETA0):
            b = sp.Rational(beta.numerator, beta.denominator)
            lim = sp.limit(st.weighted(_Sym(sp), b, t, f), t, sp.oo)
            details[f"{seq.name}: lim e^(βt)|f(t)| at β = {beta}"] = lim
            if lim != 0:
                return Proof(False, f"the {seq.name} sequence, β = {beta}",
                             "SymPy: the sequence's hypotheses and the limit in (105)",
                             counterexample={"sequence": seq.name, "f(t)": str(f),
                                             "beta0": str(BETA0), "beta": str(beta),
                                             "lim e^(βt)|f(t)|": str(lim),
                                             "hypotheses met": str(facts)},
                             details={k: str(v) for k, v in details.items()})
    if not (st.uniform_in_m and st.beta_factor <= 1):
        return Proof(None, "no witness sequence violates the statement, and the pointwise "
                     "argument needs (104) uniform in m and β ≤ β₀", "SymPy",
                     details={k: str(v) for k, v in details.items()})
    g = sp.Symbol("g", nonnegative=True)  # sup_m e^{β₀t}|f_m(t)| at a fixed t, → 0 by (104)
    beta, beta0 = sp.symbols("beta beta_0", positive=True)
    d = sp.Symbol("d", nonnegative=True)  # β₀ − β ≥ 0
    # each step: confirmed, undecided, or decided false (a failed derivation, reported as such)
    steps = {
        "e^{βt}|f| = e^{−(β₀−β)t}·e^{β₀t}|f|": decide_zero(
            sp.exp(beta * t) - sp.exp(-(beta0 - beta) * t) * sp.exp(beta0 * t),
            [{beta: 1, beta0: 2, t: 3}]),
        "e^{−(β₀−β)t} ≤ 1 for t ≥ 0, β ≤ β₀": fact((-d * t).is_nonpositive, "−(β₀−β)t ≤ 0"),
        "e^{β₀t}|f(t)| = lim_m e^{β₀t}|f_m(t)| ≤ g(t) (pointwise limit)": fact(
            g.is_nonnegative, "g ≥ 0"),
    }
    details["seconds"] = round(time.perf_counter() - t0, 3)
    return proof_from_steps(steps, "all continuous f, f_m and 0 < β ≤ β₀ (pointwise convergence "
                            "suffices)",
                            "e^{βt}|f(t)| ≤ e^{−(β₀−β)t} sup_m e^{β₀t}|f_m(t)| → 0 by (104); SymPy "
                            "checks of the steps and of the witness sequences",
                            details={k: str(v) for k, v in details.items()}, general=True)


# ---- the proof's transform (106) and the step (109) = (110) ----------------------------------------

def transform(x: Any, rate: Any, s_power: int, f: Callable[[Any], Any], s: Any) -> Any:
    """(𝒯f)(s) = f(−log(s)/rate)/s^s_power, eq. (106) with rate β₀ and s_power 1, literally."""
    return f(-x.log(s) / rate) / s**s_power


@dataclass(frozen=True)
class TransformSup(Statement):
    """The step (109) = (110) of the proof of Lemma A.10 with 𝒯 as in (106):
    sup_{s∈(0,1]} |(𝒯g)(s)| = sup_{t≥0} e^{weight·βt}|g(t)| for g = f_{m₁} − f_{m₂}, 0 < β < β₀.

    ``rate``: the rate in 𝒯 ("β₀" as printed in (106); "β" in the correction); ``s_power``: the
    power of s in 𝒯's denominator (1); ``weight``: the multiple of β in (110)'s weight (1).
    """

    rate: str = "β₀"
    s_power: int = 1
    weight: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        s = "s" if self.s_power == 1 else f"s^{self.s_power}"
        w = "β" if self.weight == 1 else f"({self.weight})·β"
        return (f"proof of Lemma A.10, (109) = (110) with 𝒯 of (106), (𝒯f)(s) = "
                f"f(−log(s)/{self.rate})/{s} on (0, 1]: for 0 < β < β₀, "
                "sup_(s∈[0,1]) |(𝒯f_(m₁))(s) − (𝒯f_(m₂))(s)| = "
                f"sup_(t≥0) e^({w}·t)|f_(m₁)(t) − f_(m₂)(t)|")

    def controls(self) -> tuple[Control, ...]:
        return (Control("power of s in 𝒯 shifted by one: 1/s²",
                        replace(self, s_power=self.s_power + 1)),
                Control("sign of the weight's exponent flipped: e^(−βt)",
                        replace(self, weight=-self.weight)),
                Control("weight's rate scaled by 9/8", replace(self,
                                                               weight=self.weight * Fraction(9, 8))))

    def rate_value(self, beta0: Any, beta: Any) -> Any:
        """The rate 𝒯 uses: β₀ or β."""
        return beta0 if self.rate == "β₀" else beta

    def lhs(self, x: Any, beta0: Any, beta: Any, g: Callable[[Any], Any], s: Any,
            absval: Callable[[Any], Any] = abs) -> Any:
        """|(𝒯g)(s)|, the function whose sup over (0, 1] is (109) (``absval`` = identity gives
        the signed (𝒯g)(s))."""
        return absval(transform(x, self.rate_value(beta0, beta), self.s_power, g, s))

    def weight_rate(self, beta: Any) -> Any:
        """weight·β, the rate of (110)'s weight e^{weight·βt}."""
        return self.weight.numerator * beta / self.weight.denominator

    def rhs(self, x: Any, beta: Any, g_t: Any, t: Any,
            absval: Callable[[Any], Any] = abs) -> Any:
        """e^{weight·βt}|g(t)|, the function whose sup over t ≥ 0 is (110) (signed likewise)."""
        return x.exp(self.weight_rate(beta) * t) * absval(g_t)


def transform_proof(st: TransformSup) -> Proof:
    """Decide the step for every g: the substitution s = e^{−rt} (r the rate in 𝒯) maps [0, ∞)
    onto (0, 1] and gives (𝒯g)(e^{−rt}) = e^{p·r·t}g(t) (SymPy, undefined g), so the two sups
    agree for every g iff p·r = weight·β for 0 < β < β₀; otherwise g(t) = t·e^{−3t} (a difference
    f_{m₁} − f_{m₂} with f_{m₂} = 0) at β₀ = 1, β = 1/2 has different sups (exact)."""
    import sympy as sp

    t, beta0, beta = sp.symbols("t beta_0 beta", positive=True)
    g = sp.Function("g")
    r = st.rate_value(beta0, beta)
    p = st.s_power
    difference = (st.lhs(_Sym(sp), beta0, beta, g, sp.exp(-r * t))
                  - sp.exp(p * r * t) * sp.Abs(g(t)))
    w = st.weight_rate(beta)
    decided = decide_zero(difference)
    details = {"(𝒯g)(e^{−rt}) − e^{prt}g(t)": str(decided[1].get("difference (reduced)", 0))}
    # undecided → None; decided false (a nonzero constant) → a failed derivation step
    substitution = proof_from_steps({"(𝒯g)(e^{−rt}) = e^{prt}|g(t)|": decided},
                                    "all g", "SymPy: the substitution s = e^{−rt}", details)
    if substitution.holds is not True:
        return substitution
    ok, witness = decide_zero(p * r - w, [{beta0: 1, beta: sp.Rational(1, 2)}])
    details["p·r − weight·β"] = str(sp.simplify(p * r - w))
    if ok is True:
        return Proof(True, "every continuous g = f_(m₁) − f_(m₂) and 0 < β < β₀ (the "
                     "substitution s = e^{−rt} is a bijection [0, ∞) → (0, 1])",
                     "SymPy: (𝒯g)(e^{−rt}) = e^{rt}g(t) with an undefined g; rates equal",
                     details=details, general=True)
    if ok is None:
        return Proof(None, "all g", "SymPy could not compare the rates", details=details)
    b0, b = sp.Integer(BETA0.numerator), sp.Rational(BETA.numerator, BETA.denominator)
    a_l, a_r = (p * r).subs({beta0: b0, beta: b}), w.subs({beta0: b0, beta: b})
    # sup_t t e^{−(3 − a)t} = 1/(e(3 − a)) for a < 3
    sup_l, sup_r = 1 / (sp.E * (3 - a_l)), 1 / (sp.E * (3 - a_r))
    return Proof(False, "g(t) = t·e^{−3t}, β₀ = 1, β = 1/2",
                 "SymPy: exact sups of t·e^{−(3−a)t}, 1/(e(3 − a))",
                 counterexample={"g(t)": "t·exp(−3t)", "beta0": "1", "beta": "1/2",
                                 "sup_s |(𝒯g)(s)| (109)": f"{sup_l} = {sp.N(sup_l, 8)}",
                                 "sup_t e^(weight·βt)|g(t)| (110)": f"{sup_r} = {sp.N(sup_r, 8)}",
                                 "rates": f"p·r = {a_l}, weight·β = {a_r}"},
                 details={**details, **witness})
