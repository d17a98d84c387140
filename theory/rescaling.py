"""App. C of paper W: "rescaling is not an a priori solution to stable approximation".

Printed (ICLR camera-ready, App. C): "Assume W is diagonal W = diag([w_1, w_2, …, w_m]). Element
of matrix U is 1. And the vector c = [c_1, c_2, …, c_m]. … we compare the vanilla linear RNN with
a memory function ρ̂(t) = Σ_{k=1}^m c_k e^{w_k t} and a rescaled linear RNN with a memory function
ρ̂(t) = Σ_{k=1}^m c_k e^{(1/k) w_k t}. … the target linear functional with memory function
ρ(t) = Σ_{k=1}^∞ (1/k²) e^{−t/k} cannot be stably approximated by linear RNN but can be stably
approximated by rescaled linear RNN. (For rescaled linear RNN, one just need to pick w_k = 1.)
… Take the memory function ρ(t) = Σ_{k=1}^∞ (1/k²) e^{−t/k²} as an example, it may not be
possible to stably approximate target with this memory function with linear RNN or the rescaled
version."

:class:`RescaledExample` is the worked example. As printed, "pick w_k = 1" gives the rescaled
memory Σ k^−2 e^{+t/k}, which grows: the printed statement is false, and w_k = −1 (the sign
the memory ρ̂ = Σ c_k e^{w_k t} needs for Hurwitz W = diag(w)) is its correction.
:class:`IntegrableTargets` is the finding that App. C's targets are not integrable: ∫_0^∞ ρ =
Σ 1/k = ∞ and ∫_0^∞ ρ₂ = Σ 1 = ∞, while §2.2 requires ρ ∈ L¹([0, ∞)) of every linear functional
(and App. D: "we require the memory function to be integrable").

Facts proved here besides (SymPy): with φ_t(x) = x^{−2}e^{−t/x} (unimodal, maximum 4/(e²t²) at
x = t/2, ∫_0^∞ φ_t = 1/t) the unimodal sum–integral bound gives |ρ(t) − 1/t| ≤ 4e^{−2}/t², so
ρ ~ 1/t is not exponentially decaying (so, by Thm 3.9, not stably approximable by RNNs); for ρ₂:
∫ = √π/(2√t), maximum e^{−1}/t at x = √t, so |ρ₂(t) − √π/(2√t)| ≤ e^{−1}/t.

Unimodal sum–integral bound: if φ ≥ 0 increases on (−∞, a] and decreases on [a, ∞), then
|Σ_{k∈ℤ} φ(k) − ∫_ℝ φ| ≤ max φ (compare each φ(k) with the integral over the neighbouring unit
interval on its side of a); φ_t extended by 0 on x ≤ 0 is unimodal, and Σ_{k∈ℤ} = Σ_{k≥1}.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, Step, decide_zero, decide_zeros, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

# The parts of the worked example: (name, which memory the RNN has, which target it must equal).
PARTS = ("rescaled RNN, w_k = pick, vs ρ", "vanilla RNN, w_k = −1/k, vs ρ",
         "rescaled RNN, w_k = −1/k, vs ρ₂")


@dataclass(frozen=True)
class RescaledExample(Statement):
    """W App. C's worked example with c_k = k^−``readout_power``, the rescaling factor
    1/k^``rescale_power`` and every rescaled weight w_k = ``pick``.

    Printed: readout k^−2 (to match ρ's coefficients), rescaling 1/k, pick w_k = 1. The claim
    has three parts (:data:`PARTS`): the rescaled RNN with w_k = pick has memory ρ_m, the
    truncation of ρ (trainable weights independent of m: App. C's "stably"); the vanilla RNN needs
    w_k = −1/k (max w_k = −1/m → 0: App. C's "cannot be stably approximated"); for ρ₂ the
    rescaled RNN needs w_k = −1/k → 0 too. Stable approximation in W's sense (Def. 3.5, in the
    norm ∫|ρ − ρ̂|) is out of reach for both targets, which are not integrable
    (:class:`IntegrableTargets`).
    """

    pick: Fraction = Fraction(1)
    readout_power: int = 2
    rescale_power: int = 1

    @property
    def text(self) -> str:
        c = f"c_k = k^−{self.readout_power}"
        r = "1/k" if self.rescale_power == 1 else f"1/k^{self.rescale_power}"
        return (f"App. C: with W = diag(w_1, …, w_m), every element of U equal to 1 and {c}, the "
                f"rescaled linear RNN with memory ρ̂(t) = Σ_(k≤m) c_k e^(({r})·w_k·t) and every "
                f"w_k = {self.pick} (“pick w_k = {self.pick}”) has memory ρ_m(t) = Σ_(k≤m) "
                "k^−2 e^(−t/k), the truncation of ρ(t) = Σ_(k≥1) k^−2 e^(−t/k), for every m and "
                "t ≥ 0, its trainable weights independent of m and bounded away from 0, whereas "
                "the vanilla RNN ρ̂(t) = Σ c_k e^(w_k t) needs w_k = −1/k (max_k w_k = −1/m → 0), "
                "and for ρ₂(t) = Σ k^−2 e^(−t/k²) the rescaled RNN needs w_k = −1/k → 0 too")

    def controls(self) -> tuple[Control, ...]:
        return (Control("readout power shifted by one: c_k = k^−(q+1)",
                        replace(self, readout_power=self.readout_power + 1)),
                Control("rescaling factor 1/k replaced by 1/k²",
                        replace(self, rescale_power=self.rescale_power + 1)),
                Control("picked weight scaled by 9/8", replace(self, pick=self.pick * Fraction(9, 8))))

    # -- the formula: the RNN's readout and rates, and the targets' terms, for each part --

    def rnn(self, part: str, k: Any, one: Any = Fraction(1)) -> tuple[Any, Any]:
        """(c_k, rate of e^{rate·t}) of the RNN's k-th unit in one part of the claim; ``one`` is
        the 1 of the arithmetic (Fraction for exact inputs, SymPy's for a symbolic k)."""
        c = one / k**self.readout_power
        scale = one / k**self.rescale_power
        if part == PARTS[0]:
            return c, scale * self.pick.numerator / self.pick.denominator
        if part == PARTS[1]:
            return c, -one / k
        return c, scale * (-one / k)

    @staticmethod
    def target(part: str, k: Any, one: Any = Fraction(1)) -> tuple[Any, Any]:
        """(coefficient, rate) of the target's k-th term: ρ = Σ k^−2 e^{−t/k}, ρ₂ = Σ k^−2 e^{−t/k²}."""
        return one / (k * k), (-one / k if part != PARTS[2] else -one / (k * k))


def _decay(sp: Any, p: int) -> dict[str, Step]:
    """Unimodality, integral and maximum of φ_t(x) = x^{−2}e^{−t/x^p}, and the decay it implies,
    each a derivation step SymPy decides (a difference also evaluated at x = 1, t = 2: a wrong
    step is decided false, a failed derivation)."""
    x, t = sp.symbols("x t", positive=True)
    beta = sp.Symbol("beta", positive=True)
    phi = x**-2 * sp.exp(-t / x**p)
    a = t / 2 if p == 1 else sp.sqrt(t)
    integral = sp.integrate(phi, (x, 0, sp.oo))
    expected = 1 / t if p == 1 else sp.sqrt(sp.pi) / (2 * sp.sqrt(t))
    bound = 4 * sp.exp(-2) / t**2 if p == 1 else sp.exp(-1) / t
    dphi = sp.factor(sp.diff(phi, x))
    sign_factor = (t - 2 * x) if p == 1 else 2 * (t - x**2)
    name = "ρ" if p == 1 else "ρ₂"
    at = [{x: 1, t: 2, beta: 1}]
    growth = sp.limit(sp.exp(beta * t) * (expected - bound), t, sp.oo)
    return {
        f"{name}: φ′(x) = ({sign_factor})·e^(−t/x^{p})/x^{p + 3}: increasing below x = {a}, "
        "decreasing above":
            decide_zeros([dphi - sign_factor * sp.exp(-t / x**p) / x ** (p + 3)], points=at),
        f"{name}: φ(0⁺) = 0": decide_zeros([sp.limit(phi, x, 0, "+")], points=at),
        f"{name}: ∫_0^∞ φ = {expected}": decide_zeros([integral - expected], points=at),
        f"{name}: max φ = φ({a}) = {bound}": decide_zeros([phi.subs(x, a) - bound], points=at),
        # a limit SymPy computes to a finite number is decided false
        f"{name}: e^(βt)·({expected} − bound) → ∞ for every β > 0 (not exponentially decaying)":
            fact(True if growth == sp.oo else False if growth.is_finite else None,
                 f"the limit is {growth}"),
    }


def rescaling_proof(st: RescaledExample) -> Proof:
    """Decide the worked example for all m and t ≥ 0: the memories are sums of exponentials with
    distinct rates (linearly independent functions of t), so each part holds iff it holds term by
    term: c_k = the target's coefficient and rate_k = the target's rate for every k, decided for
    symbolic k by SymPy (a nonzero difference is shown at the first k where it is nonzero, with
    the memories at m = k, t = 1). The decay facts (ρ ~ 1/t, ρ₂ ~ √π/(2√t), not exponential) are
    details."""
    import sympy as sp

    t0 = time.perf_counter()
    k = sp.Symbol("k", positive=True, integer=True)
    m = sp.Symbol("m", positive=True, integer=True)
    details: dict[str, Any] = {}
    one = sp.Integer(1)
    for part in PARTS:
        # the k-th coefficient and rate of both sides as expressions in the symbol k
        (c_rnn, rate_rnn), (c_tgt, rate_tgt) = st.rnn(part, k, one), st.target(part, k, one)
        for what, diff in (("coefficient", c_rnn - c_tgt), ("rate", rate_rnn - rate_tgt)):
            ok, witness = decide_zero(diff, [{k: j} for j in (1, 2, 3)])
            details[f"{part}: {what} difference for every k"] = f"{sp.simplify(diff)}: {ok}"
            if ok is False:
                j = int(witness["point"]["k"]) if "point" in witness else 1
                t1 = sp.Integer(1)

                def memory(side: Any, j: int = j, part: str = part, t1: Any = t1) -> Any:
                    return sum(cf * sp.exp(rt * t1) for cf, rt in
                               (side(part, sp.Integer(i), one) for i in range(1, j + 1)))

                rnn, tgt = memory(st.rnn), memory(st.target)
                return Proof(False, f"{part}, m = {j}, t = 1",
                             "SymPy: term-by-term comparison of two exponential sums",
                             counterexample={"part": part, "m": j, "t": 1, "k": j,
                                             f"{what} difference at k = {j}": str(
                                                 diff.subs(k, j)),
                                             "RNN memory": f"{rnn} = {sp.N(rnn, 10)}",
                                             "target": f"{tgt} = {sp.N(tgt, 10)}"},
                             details={kk: str(v) for kk, v in details.items()})
            if ok is None:
                return Proof(None, part, "SymPy could not decide the term-by-term difference",
                             details={kk: str(v) for kk, v in details.items()})
    steps: dict[str, Step] = {
        "vanilla: max_k w_k = −1/m → 0 as m → ∞": decide_zeros([sp.limit(-1 / m, m, sp.oo)]),
        "ρ₂: rescaled weights w_k = −1/k → 0": decide_zeros([sp.limit(-1 / k, k, sp.oo)])}
    for p in (1, 2):
        steps |= _decay(sp, p)
    details["seconds"] = round(time.perf_counter() - t0, 3)
    # a step SymPy could not confirm → undecided; one it decided false → a failed derivation
    return proof_from_steps(steps, "all m ≥ 1 and t ≥ 0 (exponentials with distinct rates are "
                            "linearly independent, so term by term, for symbolic k)",
                            "SymPy: coefficients and rates term by term; limits; φ′, ∫φ and max φ "
                            "with the unimodal sum–integral bound",
                            details={kk: str(v) for kk, v in details.items()}, general=True)


# ---- the finding: App. C's targets are not integrable ------------------------------------------------

@dataclass(frozen=True)
class IntegrableTargets(Statement):
    """App. C's targets ρ_p(t) = Σ_(k≥1) k^−``coef_power`` e^(−t/k^p), p ∈ ``rate_powers``, are in
    L¹([0, ∞)), as §2.2 requires of the memory function of every linear functional."""

    coef_power: int = 2
    rate_powers: tuple[int, ...] = (1, 2)

    @property
    def text(self) -> str:
        targets = " and ".join(f"ρ(t) = Σ_(k≥1) k^−{self.coef_power} e^(−t/k" +
                               ("" if p == 1 else f"^{p}") + ")" for p in self.rate_powers)
        return (f"App. C's targets {targets} are memory functions of linear functionals in W's "
                "setting: ρ ∈ L¹([0, ∞)) (§2.2: 'ρ ∈ L¹([0, ∞), ℝ^d)'; App. D: 'we require the "
                "memory function to be integrable')")

    def controls(self) -> tuple[Control, ...]:
        return (Control("coefficients k^−2 replaced by k^−1",
                        replace(self, coef_power=self.coef_power - 1)),
                Control("rates 1/k^p replaced by 1/k^(p+1)",
                        replace(self, rate_powers=tuple(p + 1 for p in self.rate_powers))))

    def term(self, k: int, p: int, t: Any, exp: Callable[[Any], Any]) -> Any:
        """The k-th term k^−q e^(−t/k^p) of the target with rate power p, in any arithmetic."""
        return exp(-t / k**p) / k**self.coef_power

    def term_integral(self, sp: Any, k: Any, p: int) -> Any:
        """∫_0^∞ k^−q e^(−t/k^p) dt, computed by SymPy from the term."""
        t = sp.Symbol("t", positive=True)
        return sp.integrate(self.term(k, p, t, sp.exp), (t, 0, sp.oo))


def integrability_proof(st: IntegrableTargets) -> Proof:
    """Decide ρ_p ∈ L¹: by Tonelli (nonnegative terms) ∫_0^∞ ρ_p = Σ_k ∫_0^∞ k^−q e^(−t/k^p) dt,
    each term integrated by SymPy; the series' convergence decided by SymPy. A divergent series
    disproves the statement, shown with the partial sums' growth."""
    import sympy as sp

    k = sp.Symbol("k", positive=True, integer=True)
    n = sp.Symbol("n", positive=True, integer=True)
    details: dict[str, str] = {}
    for p in st.rate_powers:
        term = sp.simplify(st.term_integral(sp, k, p))
        conv = sp.Sum(term, (k, 1, sp.oo)).is_convergent()
        details[f"p = {p}: ∫_0^∞ of the k-th term"] = str(term)
        details[f"p = {p}: Σ_k converges"] = str(conv)
        if conv is sp.false or conv is False:
            partial = sp.summation(term, (k, 1, n))
            return Proof(False, f"the target with rate power p = {p}",
                         "SymPy: termwise integrals (Tonelli) and the divergence of their sum",
                         counterexample={"target": f"Σ_(k≥1) k^−{st.coef_power} e^(−t/k^{p})",
                                         "∫_0^∞ k-th term": str(term),
                                         "∫_0^∞ ρ = Σ_k": f"Σ_(k=1)^n = {partial} → ∞",
                                         "partial sum at n = 1000": str(sp.N(
                                             partial.subs(n, 1000), 8))},
                         details=details)
        if conv is not sp.true and conv is not True:
            return Proof(None, f"p = {p}", "SymPy could not decide the series", details=details)
    # the statement is about its listed targets only, each decided for every t: a proof of all of it
    return Proof(True, "every listed target", "SymPy: termwise integrals and a convergent sum",
                 details=details, general=True)


# ---- one instance at a time (the counterexample search) ---------------------------------------------

def memory_sides(st: RescaledExample, part: str, m: int, t: Fraction) -> tuple[Any, Any]:
    """The RNN's memory Σ_(k≤m) c_k e^(rate_k·t) and the target's truncation Σ_(k≤m) coef_k
    e^(rate'_k·t) in one part of the worked example (:data:`PARTS`) at width m and time t ≥ 0,
    as exact exponential polynomials (:class:`recmem.theory.exp_sums.ExpPoly`), both read from
    the statement (:meth:`RescaledExample.rnn`, :meth:`RescaledExample.target`), W App. C."""
    from recmem.theory.exp_sums import ExpPoly

    ks = range(1, m + 1)
    rnn = ExpPoly.of((c, r * t) for c, r in (st.rnn(part, k) for k in ks))
    tgt = ExpPoly.of((c, r * t) for c, r in (st.target(part, k) for k in ks))
    return rnn, tgt


def memory_instance(st: RescaledExample, part: str, m: int, t: Fraction,
                    digits: int = 12) -> tuple[bool, dict[str, str]]:
    """Decide W App. C's memory identity ρ̂_m(t) = ρ_m(t) in one part at one (m, t), exactly:
    the difference of :func:`memory_sides` is an exponential polynomial with rational
    coefficients and exponents, zero iff every coefficient collected by exponent is zero
    (Lindemann–Weierstrass). Both memories are reported as arb balls (64 bits) and, when they
    differ, the certified sign of the difference."""
    from recmem.theory.exp_sums import ball_text

    rnn, tgt = memory_sides(st, part, m, t)
    diff = rnn - tgt
    values = {"part": part, "m": str(m), "t": str(t),
              "RNN memory ρ̂_m(t)": ball_text(rnn.enclose(64), digits),
              "target ρ_m(t)": ball_text(tgt.enclose(64), digits)}
    if diff.is_zero():
        return True, values
    q, c = diff.terms[0]
    sign, bits = diff.sign()
    values |= {"ρ̂_m(t) − ρ_m(t), terms collected": _short(str(diff)),
               "a nonzero coefficient": f"{c} at e^({q})",
               "sign of the difference (arb)": f"{'> 0' if sign == 1 else '< 0'} at {bits} bits"
               if sign else f"undecided at {bits} bits"}
    return False, values


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


@functools.cache
def termwise_power(st: IntegrableTargets, p: int) -> tuple[Fraction, Fraction] | None:
    """(C, e) with ∫_0^∞ k^−q e^(−t/k^p) dt = C·k^e, from SymPy's integral of the statement's
    term (:meth:`IntegrableTargets.term_integral`), W App. C / §2.2; None when it is not of
    that form."""
    import sympy as sp

    k = sp.Symbol("k", positive=True, integer=True)
    expr = sp.simplify(st.term_integral(sp, k, p))
    coef, expo = expr.as_coeff_exponent(k)
    if not (coef.is_Rational and expo.is_Rational) or sp.simplify(expr - coef * k**expo) != 0:
        return None
    return Fraction(int(coef.p), int(coef.q)), Fraction(int(expo.p), int(expo.q))


def l1_instance(st: IntegrableTargets, p: int, big_k: int) -> tuple[bool | None, dict[str, str],
                                                                     float | None]:
    """Decide ρ_p ∈ L¹([0, ∞)) (§2.2) for the target with rate power p, exactly: the terms are
    nonnegative, so ∫_0^∞ ρ_p = Σ_k ∫_0^∞ (k-th term) (Tonelli) = Σ_k C·k^e
    (:func:`termwise_power`), finite iff C = 0 or e < −1 (the p-series). Reported: the partial
    norm ∫_0^∞ ρ_K = Σ_(k≤K) C·k^e (exact, a lower bound of ∫ρ_p) at the drawn K, and as the
    search's ratio the Cauchy condensation ratio 2^(e+1) (the series converges iff it is < 1)."""
    power = termwise_power(st, p)
    values = {"target": f"ρ(t) = Σ_(k≥1) k^−{st.coef_power} e^(−t/k^{p})", "p": str(p),
              "K": str(big_k)}
    if power is None:
        return None, values | {"∫_0^∞ k-th term": "not a power of k"}, None
    coef, expo = power
    values["∫_0^∞ k-th term (SymPy)"] = f"{coef}·k^({expo})"
    if expo.denominator == 1:
        partial = sum((coef * Fraction(k) ** int(expo) for k in range(1, big_k + 1)), Fraction(0))
        values["∫_0^∞ ρ_K = Σ_(k≤K) (exact)"] = _short(str(partial), 80) + (
            f" ≈ {float(partial):.8g}" if partial.denominator != 1 else "")
    finite = coef == 0 or expo < -1
    values["Σ_k C·k^e"] = ("converges (p-series, e < −1)" if finite
                           else "diverges (p-series, e ≥ −1): ∫_0^∞ ρ = ∞")
    return finite, values, float(2 ** (expo + 1)) if coef else 0.0
