"""Displayed steps of the proof of Lemma A.10 of paper W (ICLR camera-ready App. A.10): the inverse
of the transform (107) with the continuity of 𝒯f_m at 0 (108), and the estimate (111)–(114).

The lemma, the transform (106) and the step (109) = (110) are in :mod:`recmem.theory.limit_decay`;
this module reuses its 𝒯 (:func:`~recmem.theory.limit_decay.transform`) and witness sequences.

- :class:`PullBack` — (107) f(t) = e^{−β₀t}(𝒯f)(e^{−β₀t}) for t ≥ 0 (𝒯 of (106), rate β₀), and
  (108): under (104), lim_{s→0⁺}(𝒯f_m)(s) = lim_{t→∞} e^{β₀t}f_m(t) = 0. Both hold: substituting
  s = e^{−β₀t} gives (𝒯g)(e^{−β₀t}) = e^{β₀t}g(t) for every g, and t → ∞ ⟺ s → 0⁺.
- :class:`SplitEstimate` — the estimate after (110), for g = f_{m₁} − f_{m₂}, 0 < β < β₀,
  δ = β₀ − β and a constant C₀ ≥ sup_t e^{β₀t}|g(t)| ("uniform in m"): the tail bound behind
  (111), e^{βt}|g(t)| = e^{−δt}e^{β₀t}|g(t)| ≤ C₀e^{−δT₀} for t ≥ T₀ (so (110) ≤ (111), the max
  splitting [0, ∞) at T₀); the head bound behind (112), e^{βt}|g(t)| ≤ e^{βT₀}|g(t)| on [0, T₀]
  (so (111) ≤ (112) termwise); the choice T₀ = −ln(ε/C₀)/δ, for which C₀e^{−δT₀} = ε; and
  (113) ⟹ (114), multiplying by e^{βT₀}. All hold (each bound is attained: by g = e^{−β₀t} at
  t = T₀ for the tail and the head).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.limit_decay import SEQUENCES, _Sym, sequence_facts, transform
from recmem.theory.proof import Proof, Step, decide_zero, fact, proof_from_steps
from recmem.theory.statement import Control, Statement


def _q(sp: Any, v: Fraction) -> Any:
    return sp.Rational(v.numerator, v.denominator)


# ---- (107)–(108) -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PullBack(Statement):
    """W App. A.10, proof of Lemma A.10: (107) f(t) = e^{weight·β₀t}(𝒯f)(e^{−β₀t}) for t ≥ 0 and
    (108) lim_{s→0⁺}(𝒯f_m)(s) = lim_{t→∞} e^{β₀t}f_m(t) = 0 under (104), with 𝒯 of (106),
    (𝒯f)(s) = f(−log(s)/β₀)/s^s_power.

    ``weight``: the multiple of β₀ in (107)'s prefactor (−1 as printed); ``s_power``: the power of
    s in 𝒯's denominator (1 as printed in (106)).
    """

    weight: Fraction = Fraction(-1)
    s_power: int = 1

    @property
    def text(self) -> str:
        w = "−" if self.weight == -1 else f"({self.weight})·"
        s = "s" if self.s_power == 1 else f"s^{self.s_power}"
        return ("proof of Lemma A.10 with 𝒯 of (106), (𝒯f)(s) = f(−log(s)/β₀)/" + s + " on (0, 1], "
                f"(𝒯f)(0) = 0: (107) f(t) = e^({w}β₀t)·(𝒯f)(e^(−β₀t)) for all t ≥ 0 and continuous f; "
                "(108) for f_m with lim_(t→∞) sup_m e^(β₀t)|f_m(t)| = 0 (104), "
                "lim_(s→0⁺) (𝒯f_m)(s) = lim_(t→∞) e^(β₀t)f_m(t) = 0")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of (107)'s prefactor exponent flipped: e^(β₀t)",
                        replace(self, weight=-self.weight)),
                Control("(107)'s prefactor rate scaled by 9/8",
                        replace(self, weight=self.weight * Fraction(9, 8))),
                Control("power of s in 𝒯 shifted by one: 1/s²",
                        replace(self, s_power=self.s_power + 1)))

    def pulled(self, x: Any, beta0: Any, f: Callable[[Any], Any], t: Any) -> Any:
        """The right side of (107), e^{weight·β₀t}·(𝒯f)(e^{−β₀t}), with 𝒯 evaluated literally."""
        w = self.weight.numerator * beta0 / self.weight.denominator
        return x.exp(w * t) * transform(x, beta0, self.s_power, f, x.exp(-beta0 * t))

    def transformed(self, x: Any, beta0: Any, f: Callable[[Any], Any], s: Any) -> Any:
        """(𝒯f)(s) for s ∈ (0, 1], the function (108) says tends to 0 as s → 0⁺."""
        return transform(x, beta0, self.s_power, f, s)


def pullback_proof(st: PullBack) -> Proof:
    """Decide (107)–(108) for every continuous f (SymPy, an undefined function): (107)'s two sides
    at s = e^{−β₀t}, and (𝒯g)(e^{−β₀t}) = e^{pβ₀t}g(t) with p the power of s, so (108) holds for
    every f_m with (104) iff p ≤ 1. A wrong (107) is shown at f = e^{−2t}, β₀ = 1, t = 1; a wrong
    (108) on a witness sequence meeting (104) (theory.limit_decay.SEQUENCES) with lim ≠ 0."""
    import sympy as sp

    t, b0, s = sp.symbols("t beta_0 s", positive=True)
    g = sp.Function("g")
    x = _Sym(sp)
    d107 = st.pulled(x, b0, g, t) - g(t)
    # log(e^{−β₀t}) = −β₀t evaluates on construction for positive symbols, so expanding the
    # powers of e decides the identity (full simplification is slow on undefined functions)
    ok, witness = decide_zero(d107, simplify=lambda e: sp.expand(sp.powsimp(e)))
    details: dict[str, Any] = {"(107): right − left (undefined f)": witness.get(
        "difference (reduced)", "0")}
    if ok is not True:
        f_w = lambda v: sp.exp(-2 * v)  # noqa: E731 - the witness f of (107)
        val = sp.simplify((st.pulled(x, b0, f_w, t) - f_w(t)).subs({b0: 1, t: 1}))
        if val.is_zero is False:
            return Proof(False, "f(t) = e^{−2t}, β₀ = 1, t = 1", "SymPy: (107)'s two sides, exact",
                         counterexample={"equation": "(107)", "f(t)": "exp(−2t)", "beta0": "1",
                                         "t": "1", "right − left": f"{val} = {sp.N(val, 8)}"},
                         details=details)
        return Proof(None, "all f", "SymPy could not decide (107)", details=details)
    for seq in SEQUENCES.values():
        if not sequence_facts(seq).get("uniform decay (104)", False):
            continue
        def fm(v: Any, q: Any = seq) -> Any:
            return q.f_m(x, sp.Integer(1), v)  # f_1 (for "slow", f_m = f)

        lim = sp.limit(st.transformed(x, sp.Integer(1), fm, s), s, 0, "+")
        details[f"(108), {seq.name}: lim_(s→0⁺) (𝒯f_1)(s) at β₀ = 1"] = str(lim)
        if lim != 0:
            return Proof(False, f"the {seq.name} sequence (meets (104)), m = 1, β₀ = 1",
                         "SymPy: the limit of (𝒯f_1)(s) as s → 0⁺",
                         counterexample={"equation": "(108)", "sequence": seq.name,
                                         "f_1(t)": str(fm(t)), "beta0": "1",
                                         "lim (𝒯f_1)(s), s → 0⁺": str(lim)},
                         details=details)
    p = st.s_power
    steps: dict[str, Step] = {
        "(107): e^(−β₀t)·(𝒯g)(e^(−β₀t)) = g(t) for an undefined g": True,
        "(𝒯g)(e^(−β₀t)) = e^(pβ₀t)g(t)": decide_zero(
            st.transformed(x, b0, g, sp.exp(-b0 * t)) - sp.exp(p * b0 * t) * g(t),
            simplify=lambda e: sp.expand(sp.powsimp(e))),
        "s = e^(−β₀t) → 0⁺ as t → ∞ (a bijection [0, ∞) → (0, 1])": fact(
            sp.limit(sp.exp(-b0 * t), t, sp.oo) == 0 and bool(sp.diff(sp.exp(-b0 * t), t)
                                                             .is_negative), "e^(−β₀t) ↓ 0"),
        "e^(pβ₀t)|g| = e^((p−1)β₀t)·e^(β₀t)|g| ≤ sup_m e^(β₀t)|f_m| → 0 by (104)": fact(
            ((p - 1) * b0 * t).is_nonpositive, "(p − 1)β₀t ≤ 0"),
    }
    return proof_from_steps(steps, "all continuous f, f_m and β₀ > 0",
                            "SymPy: the substitution s = e^(−β₀t) with an undefined function; "
                            "witness sequences for (108)", details, general=True)


# ---- (111)–(114) -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SplitEstimate(Statement):
    """W App. A.10, proof of Lemma A.10, the estimate (111)–(114) for g = f_{m₁} − f_{m₂},
    0 < β < β₀, δ = β₀ − β, C₀ ≥ sup_t e^{β₀t}|g(t)|, T₀ ≥ 0, 0 < ε ≤ C₀ (module docstring).

    ``tail``: the multiple of δ in (111)'s C₀e^{−δT₀}; ``head``: the multiple of β in (112)'s
    e^{βT₀}; ``t0_rate``: the rate dividing −ln(ε/C₀) in the choice of T₀ ("δ" as printed);
    ``cauchy``: the multiple of β in (113)'s e^{−βT₀}ε.
    """

    tail: Fraction = Fraction(1)
    head: Fraction = Fraction(1)
    t0_rate: str = "δ"
    cauchy: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        def k(v: Fraction, sym: str) -> str:
            return sym if v == 1 else f"({v})·{sym}"
        return ("proof of Lemma A.10, (111)–(114): for continuous g = f_(m₁) − f_(m₂) with "
                "e^(β₀t)|g(t)| ≤ C₀ (t ≥ 0), 0 < β < β₀, δ = β₀ − β, T₀ ≥ 0, 0 < ε ≤ C₀: "
                f"e^(βt)|g(t)| ≤ C₀e^(−{k(self.tail, 'δ')}T₀) for t ≥ T₀ (111); "
                f"e^(βt)|g(t)| ≤ e^({k(self.head, 'β')}T₀)|g(t)| for 0 ≤ t ≤ T₀ (112); "
                f"T₀ = −ln(ε/C₀)/{self.t0_rate} gives C₀e^(−δT₀) ≤ ε; "
                f"sup_(0≤t≤T₀)|g| ≤ e^(−{k(self.cauchy, 'β')}T₀)ε (113) gives "
                "e^(βT₀) sup_(0≤t≤T₀)|g| ≤ ε (114)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("(111)'s tail rate δ scaled by 9/8", replace(self, tail=self.tail * Fraction(9, 8))),
                Control("(112)'s factor e^(βT₀) with β scaled by 7/8",
                        replace(self, head=self.head * Fraction(7, 8))),
                Control("T₀ = −ln(ε/C₀)/β₀ (β₀ in place of δ)", replace(self, t0_rate="β₀")),
                Control("(113)'s e^(−βT₀) with β scaled by 7/8",
                        replace(self, cauchy=self.cauchy * Fraction(7, 8))))

    # each part returns (left, right): the statement says left ≤ right
    def tail_sides(self, x: Any, beta0: Any, beta: Any, c0: Any, t0: Any, g_t: Any, t: Any
                   ) -> tuple[Any, Any]:
        """(111), t ≥ T₀: (e^{βt}|g(t)|, C₀e^{−tail·δT₀})."""
        k = self.tail.numerator * (beta0 - beta) / self.tail.denominator
        return x.exp(beta * t) * abs(g_t), c0 * x.exp(-k * t0)

    def head_sides(self, x: Any, beta: Any, t0: Any, g_t: Any, t: Any) -> tuple[Any, Any]:
        """(112), 0 ≤ t ≤ T₀: (e^{βt}|g(t)|, e^{head·βT₀}|g(t)|)."""
        k = self.head.numerator * beta / self.head.denominator
        return x.exp(beta * t) * abs(g_t), x.exp(k * t0) * abs(g_t)

    def t0_choice(self, x: Any, beta0: Any, beta: Any, c0: Any, eps: Any) -> Any:
        """T₀ = −ln(ε/C₀)/rate, rate δ (as printed) or β₀."""
        rate = beta0 - beta if self.t0_rate == "δ" else beta0
        return -x.log(eps / c0) / rate

    def choice_sides(self, x: Any, beta0: Any, beta: Any, c0: Any, eps: Any) -> tuple[Any, Any]:
        """(C₀e^{−δT₀}, ε) at the chosen T₀."""
        return c0 * x.exp(-(beta0 - beta) * self.t0_choice(x, beta0, beta, c0, eps)), eps

    def cauchy_sides(self, x: Any, beta: Any, t0: Any, eps: Any) -> tuple[Any, Any]:
        """(113) ⟹ (114) at its extreme: sup|g| equal to (113)'s bound e^{−cauchy·βT₀}ε, then
        (e^{βT₀}·that, ε)."""
        k = self.cauchy.numerator * beta / self.cauchy.denominator
        return x.exp(beta * t0) * (x.exp(-k * t0) * eps), eps


# exact witness instance of every part (β₀ = 1, β = 1/2, g = e^{−β₀t}, C₀ = 1, T₀ = 1, ε = 1/4):
# each bound of the statement is attained there
WITNESS = {"beta0": Fraction(1), "beta": Fraction(1, 2), "c0": Fraction(1), "t0": Fraction(1),
           "eps": Fraction(1, 4)}


def split_parts(st: SplitEstimate, x: Any, w: dict[str, Any], g: Callable[[Any], Any]
                ) -> dict[str, tuple[Any, Any]]:
    """Every part's (left, right) at the instance ``w`` (keys of :data:`WITNESS`, values in the
    arithmetic ``x``), with t = T₀ for the tail and the head (where both bounds are attained)."""
    b0, b, c0, t0, eps = w["beta0"], w["beta"], w["c0"], w["t0"], w["eps"]
    return {"(111) tail at t = T₀": st.tail_sides(x, b0, b, c0, t0, g(t0), t0),
            "(112) head at t = T₀": st.head_sides(x, b, t0, g(t0), t0),
            "T₀ = −ln(ε/C₀)/rate": st.choice_sides(x, b0, b, c0, eps),
            "(113) ⟹ (114)": st.cauchy_sides(x, b, t0, eps)}


def split_proof(st: SplitEstimate) -> Proof:
    """Decide (111)–(114): each part at the exact witness instance (a violated part disproves the
    statement), then the general derivation (SymPy, positive symbols): e^{βt} = e^{−δt}e^{β₀t};
    −δt ≤ −tail·δT₀ for t = T₀ + τ; β(T₀ − τ) ≤ head·βT₀ for 0 ≤ τ ≤ T₀; C₀e^{−δT₀} = ε at the
    chosen T₀; e^{βT₀}e^{−cauchy·βT₀}ε = ε."""
    import sympy as sp

    x = _Sym(sp)
    w = {k: _q(sp, v) for k, v in WITNESS.items()}
    details: dict[str, Any] = {}
    for part, (left, right) in split_parts(st, x, w, lambda v: sp.exp(-w["beta0"] * v)).items():
        diff = sp.simplify(left - right)
        details[f"{part}: left − right at the witness"] = str(diff)
        if diff.is_positive:
            return Proof(False, f"{part}, g = e^(−β₀t), " + ", ".join(
                f"{k} = {v}" for k, v in WITNESS.items()),
                "SymPy: both sides exact at the witness instance",
                counterexample={"part": part, "g(t)": "exp(−β₀t)",
                                **{k: str(v) for k, v in WITNESS.items()},
                                "left": str(left), "right": str(right),
                                "left − right": f"{diff} = {sp.N(diff, 8)}"},
                details=details)
    b, c0, t0, tau, eps, t = sp.symbols("beta C_0 T_0 tau epsilon t", positive=True)
    phi = sp.Symbol("phi", nonnegative=True)  # t = T₀(1 − φ) ∈ [0, T₀] for 0 ≤ φ ≤ 1
    d = sp.Symbol("delta", positive=True)  # δ = β₀ − β
    choice, eps_r = st.choice_sides(x, d + b, b, c0, eps)
    back, eps_c = st.cauchy_sides(x, b, t0, eps)
    head_exp = st.head * b * t0 - b * t0 * (1 - phi)  # head·βT₀ − βt at t = T₀(1 − φ)
    steps: dict[str, Step] = {
        "e^(βt) = e^(−δt)·e^(β₀t)": decide_zero(sp.exp(b * t) - sp.exp(-d * t) * sp.exp((d + b) * t),
                                                [{b: 1, d: 2, t: 3}]),
        "t = T₀ + τ: −δt ≤ −tail·δT₀": fact(sp.expand(d * (t0 + tau) - st.tail * d * t0)
                                            .is_nonnegative, "δ(T₀ + τ) − tail·δT₀ ≥ 0"),
        "0 ≤ t ≤ T₀: βt ≤ head·βT₀": fact(sp.expand(head_exp).is_nonnegative
                                          if st.head >= 1 else None, "head·βT₀ − βt ≥ 0"),
        "C₀e^(−δT₀) = ε at T₀ = −ln(ε/C₀)/rate": decide_zero(choice - eps_r,
                                                             [{c0: 2, eps: 1, d: 1, b: 1}]),
        "e^(βT₀)·e^(−cauchy·βT₀)ε = ε": decide_zero(back - eps_c, [{b: 1, t0: 1, eps: 1}]),
    }
    return proof_from_steps(steps, "all continuous g with e^(β₀t)|g| ≤ C₀, 0 < β < β₀, T₀ ≥ 0, "
                            "0 < ε ≤ C₀", "SymPy: the parts at an exact witness where every bound "
                            "is attained, then the derivation with positive symbols", details,
                            general=True)


# ---- (115)–(116) -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TransformLimit(Statement):
    """W App. A.10, proof of Lemma A.10, (115)–(116): under (103) and (104), with 𝒯 of (106),
    sup_{s∈(0,1]} |(𝒯f_m)(s) − (𝒯f)(s)| → 0 as m → ∞, so 𝒯f_m → f* uniformly on [0, 1] with
    f*(0) = 0 (115) and f*(s) = (𝒯f)(s) for s > 0 (116).

    Under the substitution s = e^{−β₀t} the sup is sup_t e^{pβ₀t}|f_m(t) − f(t)| (p the power of
    s in 𝒯); for p = 1 it tends to 0: on [0, T] it is ≤ e^{β₀T} sup|f_m − f| (103), beyond T
    ≤ 2 sup_m e^{β₀t}|f_m(t)| (|f| ≤ sup_m |f_m| pointwise), small by (104).

    ``s_power``: the power of s in 𝒯 (1 as printed); ``uniform_in_m``: (104) as printed, or only
    the decay of each f_m.
    """

    s_power: int = 1
    uniform_in_m: bool = True

    @property
    def text(self) -> str:
        s = "s" if self.s_power == 1 else f"s^{self.s_power}"
        decay = ("lim_(t→∞) sup_m e^(β₀t)|f_m(t)| = 0 (104)" if self.uniform_in_m else
                 "lim_(t→∞) e^(β₀t)|f_m(t)| = 0 for each m")
        return ("proof of Lemma A.10, (115)–(116), with 𝒯 of (106), (𝒯f)(s) = f(−log(s)/β₀)/" + s
                + ": for continuous f, f_m with lim_(m→∞) sup_t |f(t) − f_m(t)| = 0 (103) and "
                + decay + ", lim_(m→∞) sup_(s∈(0,1]) |(𝒯f_m)(s) − (𝒯f)(s)| = 0: 𝒯f_m → f* "
                "uniformly on [0, 1], f*(0) = 0 (115), f*(s) = (𝒯f)(s) for s > 0 (116)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("power of s in 𝒯 shifted by one: 1/s²",
                        replace(self, s_power=self.s_power + 1)),
                Control("uniform decay (104) weakened to the decay of each f_m",
                        replace(self, uniform_in_m=False)))

    def admits(self, facts: dict[str, bool]) -> bool:
        """Whether a sequence with these proved properties meets the hypotheses ((103) and (104),
        read as in Lemma A.10's statement class)."""
        from recmem.theory.limit_decay import LimitDecay

        return LimitDecay(uniform_in_m=self.uniform_in_m).admits(facts)

    def gap(self, x: Any, beta0: Any, f_m: Callable[[Any], Any], f: Callable[[Any], Any],
            s: Any) -> Any:
        """(𝒯f_m)(s) − (𝒯f)(s), 𝒯 evaluated literally."""
        return (transform(x, beta0, self.s_power, f_m, s)
                - transform(x, beta0, self.s_power, f, s))


def transform_limit_proof(st: TransformLimit) -> Proof:
    """Decide (115)–(116): a witness sequence the statement's hypotheses admit
    (theory.limit_decay.SEQUENCES, properties proved by SymPy) with
    lim_{s→0⁺} |(𝒯f_m − 𝒯f)(s)| ≠ 0 for every m (SymPy, symbolic m: then the sup over (0, 1] stays
    ≥ that limit) disproves it; otherwise, for p = 1 and (104) uniform in m, the split argument of
    the class docstring proves it."""
    import sympy as sp

    t, m, b0 = sp.symbols("t m beta_0", positive=True)
    x = _Sym(sp)
    details: dict[str, Any] = {}
    for seq in SEQUENCES.values():
        facts = sequence_facts(seq)
        if not st.admits(facts):
            continue
        # at s = e^{−t} (β₀ = 1; the t > m branch of a cut-off): (𝒯g)(e^{−t}) = e^{pt}g(t)
        def f_m(v: Any, q: Any = seq) -> Any:
            return q.f_m(x, m, v)

        def f(v: Any, q: Any = seq) -> Any:
            return q.f(x, v)

        gap = st.gap(x, sp.Integer(1), f_m, f, sp.exp(-t))
        try:
            lim = sp.Abs(sp.limit(sp.expand(gap), t, sp.oo))  # |lim g| = lim |g| (±∞ included)
        except NotImplementedError as exc:  # SymPy: "result depends on the sign of …"
            details[f"{seq.name}: lim_(s→0⁺) |(𝒯f_m − 𝒯f)(s)|"] = f"undecided ({exc})"
            continue
        details[f"{seq.name}: lim_(s→0⁺) |(𝒯f_m − 𝒯f)(s)|"] = str(lim)
        if lim.is_extended_positive:
            return Proof(False, f"the {seq.name} sequence (meets the hypotheses), every m, β₀ = 1",
                         "SymPy: the sequence's hypotheses and the limit at s → 0⁺ for symbolic m",
                         counterexample={"sequence": seq.name, "f_m(t)": str(seq.f_m(x, m, t)),
                                         "f(t)": str(seq.f(x, t)), "beta0": "1",
                                         "lim_(s→0⁺) |(𝒯f_m − 𝒯f)(s)|": str(lim),
                                         "so sup_(s∈(0,1]) |𝒯f_m − 𝒯f| ≥": f"{lim} for every m",
                                         "hypotheses met": str(facts)},
                         details=details)
    if not (st.uniform_in_m and st.s_power <= 1):
        return Proof(None, "no witness sequence violates the statement", "SymPy", details=details)
    g = sp.Function("g")
    T = sp.Symbol("T", positive=True)
    eta, a = sp.symbols("eta a", nonnegative=True)  # sup|f_m − f| → 0; sup_m e^{β₀t}|f_m| → 0
    steps: dict[str, Step] = {
        "(𝒯g)(e^(−β₀t)) = e^(β₀t)g(t) for g = f_m − f (undefined g)": decide_zero(
            transform(x, b0, st.s_power, g, sp.exp(-b0 * t)) - sp.exp(b0 * t) * g(t)),
        "t ≤ T: e^(β₀t)|f_m − f| ≤ e^(β₀T)·sup|f_m − f| → 0 by (103)": fact(
            sp.limit(sp.exp(b0 * T) * eta, eta, 0) == 0, "e^(β₀T)η → 0 as η → 0"),
        "t ≥ T: e^(β₀t)|f_m − f| ≤ 2 sup_m e^(β₀t)|f_m| → 0 by (104), |f| ≤ sup_m|f_m|": fact(
            sp.limit(2 * a, a, 0) == 0, "2a → 0 as a → 0"),
        "f*(0) = lim (𝒯f_m)(0) = 0 and f* = 𝒯f on (0, 1] (pointwise limits)": True,
    }
    return proof_from_steps(steps, "all continuous f, f_m with (103) and (104), β₀ > 0",
                            "SymPy: the substitution s = e^(−β₀t), the split at T, and witness "
                            "sequences", details, general=True)
