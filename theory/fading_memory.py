"""Paper W App. A.7, Remark A.5: fading memory (25) and decaying memory (6) are independent.

Fading memory (W eq. (25), after Boyd & Chua): there is a monotonically decreasing
w: ℝ₊ → (0, 1] with w → 0 such that for every ε > 0 there is δ > 0 with |H_t(x) − H_t(x')| < ε
whenever sup_(s ≤ t) |x_s − x'_s| w(t − s) < δ. Decaying memory (Def. 3.2, eq. (6)):
lim_(t→∞) M(H)(t) = 0 for the memory function M of Def. 3.1, eq. (5).

Two witnesses, each a :class:`Statement` whose fields are what a nearby false statement changes:

- :class:`PeakHold` — H_t(x) = sup_(s ≤ t) x_s (Boyd et al. 1984). Its Heaviside response is
  H_t(u^x) = max(x, 0)·1_[0,∞)(t), constant for t > 0, so M(H)(t) = 0 for every t > 0: decaying.
  For every admissible w and δ > 0 pick a lag L with w(L) < δ (w → 0); the hat of height 1 on the
  lags [L, L + 1] against x' = 0 has weighted distance ≤ w(L) < δ (w decreasing) and
  |H_t(x) − H_t(x')| = 1: no fading memory (ε = 1 has no δ). Over a finite window [t − T, t]
  instead, |ΔH_t| ≤ sup_window |Δ| ≤ (1 + T)^a · sup_s |Δ_s| w(t − s) for w(s) = (1 + s)^(−a):
  the windowed operator has fading memory (a negative control).
- :class:`FadingNotDecaying` — the linear functional H_t(x) = ∫₀^∞ ρ(s) x_(t−s) ds (W eq. (3),
  d = 1) with ρ a train of hats: height n^q and half-width r_n = n^(−p)/2 centred at s = n,
  n = 1, 2, …, and the weight w(s) = (1 + s)^(−a). Hölder: |H_t(x) − H_t(x')| ≤ δ·C whenever the
  weighted distance is < δ, C = ∫|ρ|/w (the printed requirement ∫|ρ|₂/|w| < ∞), and the bound is
  sharp (x − x' = δ(1 + s)^a on the lags of the first N hats gives δ·Σ_(n≤N) m_n → δC). So (25)
  holds with δ(ε) = ε/C and with no larger multiple of it. ρ is continuous, M(H)(t) = |ρ(t)|
  (eq. (4)), and M(H)(n) = n^q ≥ 1 at every centre: no decaying memory.

Every mass is exact: m_n(a) = ∫ hat_n(s)(1 + s)^a ds = n^q Σ_k C(a, 2k)(1 + n)^(a−2k)
2 r_n^(2k+1)/((2k + 1)(2k + 2)) for integer a ≥ 0, a polynomial in n and 1/n, so
Σ_n m_n(a) = Σ_s coef_s ζ(s) (:meth:`FadingNotDecaying.zeta_terms`; finite iff every s > 1), with
rational brackets S_N ≤ Σ ≤ S_N + Σ_s coef_s N^(1−s)/(s − 1) (integral test) for exact decisions.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any, cast

from recmem.theory.proof import Proof, Step, decide_zeros, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

# The ε of the peak-hold witness (|ΔH| = 1 for pairs at any weighted distance), and the lag of the
# finite-window negative control.
EPS = Fraction(1)
WINDOW_CONTROL = Fraction(64)
# The near control of the fading modulus: δ(ε) = (65/64)·ε/C, 1/64 beyond the sharp constant.
NEAR = Fraction(65, 64)
# Dyadic grain of the exact interval sums (lower sums rounded down, upper sums rounded up).
GRAIN = 2**96


# ---------------------------------------------------------------------------------------------
# the peak-hold operator


@dataclass(frozen=True)
class PeakHold(Statement):
    """W Remark A.5: "there exists a so-called peak-hold operator (Boyd et al., 1984) with a
    decaying memory (but not fading memory)". H_t(x) = sup_(s ≤ t) x_s (``window`` None, as
    printed) or sup over t − T ≤ s ≤ t (``window`` T). ``decaying``: the statement says
    lim M(H)(t) = 0 (6); ``fading``: it says H has fading memory (25) for some weight w.

    ``in_class``: the statement also says H is regular (Def. 2.1(6)), i.e. in the class of
    continuous, causal, regular and time-homogeneous functionals on which Defs. 3.1–3.2 are
    stated (the reading of "with a decaying memory" under Def. 3.2's hypotheses). ``gated``: the
    operator is H_t(x) = g_t(x)·clip(sup x), g_t(x) = ∫₀¹ min(|x_(t−s)|, 1) ds, clip(p) =
    min(max(p, 0), 1) — regular by dominated convergence (|H_t| ≤ g_t), the correction's witness."""

    window: Fraction | None = None
    decaying: bool = True
    fading: bool = False
    in_class: bool = False
    gated: bool = False

    @property
    def operator(self) -> str:
        sup = ("sup_(s ≤ t) x_s" if self.window is None
               else f"sup_(t−{self.window} ≤ s ≤ t) x_s")
        if self.gated:
            return (f"H_t(x) = g_t(x)·min(max({sup}, 0), 1), g_t(x) = ∫₀¹ min(|x_(t−s)|, 1) ds "
                    "(a gated peak-hold operator)")
        return f"H_t(x) = {sup}"

    @property
    def eps(self) -> Fraction:
        """The ε that has no δ (no window): 1 for the peak-hold, 1/4 for the gated one."""
        return Fraction(1, 4) if self.gated else EPS

    @property
    def text(self) -> str:
        dec = ("a decaying memory, lim_(t→∞) M(H)(t) = 0 (6)" if self.decaying
               else "no decaying memory, lim_(t→∞) M(H)(t) ≠ 0")
        fad = ("fading memory (25) for some weight w" if self.fading
               else "no fading memory (25) for any weight w")
        cls = (" is continuous, causal, regular (Def. 2.1(6)) and time-homogeneous — in the class "
               "of Defs. 3.1–3.2 — and" if self.in_class else "")
        name = "The gated peak-hold operator" if self.gated else \
            "The peak-hold operator (Boyd et al. 1984)"
        return f"{name} {self.operator}{cls} has {dec} and {fad}"

    def controls(self) -> tuple[Control, ...]:
        out = [Control("fading memory claimed", replace(self, fading=not self.fading)),
               Control("decaying memory denied", replace(self, decaying=not self.decaying)),
               Control(f"the sup over the last {WINDOW_CONTROL} time units only (a finite window)",
                       replace(self, window=WINDOW_CONTROL if self.window is None else None))]
        if self.in_class and self.gated:
            out.append(Control("the gate dropped (the plain peak-hold operator)",
                               replace(self, gated=False)))
        return tuple(out)

    def clip(self, p: Fraction) -> Fraction:
        return min(max(p, Fraction(0)), Fraction(1))

    def combine(self, gate: Fraction, peak: Fraction) -> Fraction:
        """H from the window's sup ``peak`` (which includes the input's 0 before its support) and
        the gate integral ``gate``, exactly."""
        return gate * self.clip(peak) if self.gated else peak

    def heaviside_response(self, x: Fraction, t: Fraction) -> Fraction:
        """H_t(u^x) exactly (u^x = x·1_[0,∞)): the sup of u^x over the window, gated."""
        if t < 0:
            return Fraction(0)
        sees_zero = self.window is None or t < self.window  # the window reaches s < 0
        peak = max(x, Fraction(0)) if sees_zero else x
        gate = min(abs(x), Fraction(1)) * min(t, Fraction(1))  # ∫ over the last unit of time
        return self.combine(gate, peak)

    def late_times(self, times: list[Fraction]) -> list[Fraction]:
        """The times t > max(1, T) + 1 among ``times``: past the kinks and jumps of H_t(u^x)."""
        start = Fraction(1) if self.window is None else max(self.window, Fraction(1))
        return [t for t in times if t > start + 1]

    def sup_difference(self, delta: Fraction, a: Fraction) -> str:
        """sup |H_t(x) − H_t(x')| over pairs at weighted distance < δ, w(s) = (1 + s)^(−a): ∞
        without a window; with one at most δ(1 + T)^a (the Lipschitz bound, 2δ(1 + T)^a gated)."""
        if self.window is None:
            return "∞" if not self.gated else "≥ 1/4 for every δ"
        factor = "2·" if self.gated else ""
        return f"≤ {factor}{delta}·(1 + {self.window})^{a}"


def first_lag(delta: Fraction, a: Fraction) -> int:
    """The least integer L ≥ 1 with w(L) = (1 + L)^(−a) < δ, exactly: (1 + L)^u > δ^(−v) for
    a = u/v (integers compared, no rounding)."""
    u, v = a.numerator, a.denominator
    target = (1 / delta) ** v  # a rational
    lag = 1
    while Fraction((1 + lag) ** u) <= target:
        lag *= 2
    lo, hi = lag // 2, lag
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if Fraction((1 + mid) ** u) > target:
            hi = mid
        else:
            lo = mid
    return max(hi, 1)


def hat_peak_in_window(lag: int, window: Fraction | None) -> Fraction:
    """max over the lags [0, T] (all lags when T is None) of the hat of height 1 on [L, L + 1]."""
    if window is None or window >= lag + Fraction(1, 2):
        return Fraction(1)
    if window <= lag:
        return Fraction(0)
    return 2 * (window - lag)  # on the rising side of the hat


def _hat_samples(lag: Fraction, height: Fraction, half: Fraction) -> list[tuple[Fraction, Fraction]]:
    """(lag, value) at the breakpoints of a hat (the sup of a piecewise-linear input is at one)."""
    return [(lag - half, Fraction(0)), (lag, height), (lag + half, Fraction(0))]


def apply_exact(statement: PeakHold, samples: list[tuple[Fraction, Fraction]]) -> Fraction:
    """H_0 of a piecewise-linear input given by its breakpoints (lag, value), exactly: the sup over
    the window (with the 0 outside the support), and the gate ∫₀¹ min(|x_(−s)|, 1) ds by the
    trapezoid rule on the breakpoints (exact for the inputs used here, which are linear between
    breakpoints and ≤ 1 on the lags [0, 1])."""
    inside = [v for s, v in samples if statement.window is None or s <= statement.window]
    peak = max([Fraction(0), *inside])
    pts = sorted((s, v) for s, v in samples if 0 <= s <= 1)
    gate = sum(((s1 - s0) * (min(abs(v0), Fraction(1)) + min(abs(v1), Fraction(1))) / 2
                for (s0, v0), (s1, v1) in itertools.pairwise(pts)), Fraction(0))
    return statement.combine(gate, peak)


PLATEAU = [(Fraction(0), Fraction(1, 2)), (Fraction(1), Fraction(1, 2)),
           (Fraction(3, 2), Fraction(0))]  # x = 1/2 on the lags [0, 1], then down to 0


def peak_decide(statement: PeakHold, a: Fraction, delta: Fraction, x: Fraction, t: Fraction
                ) -> tuple[bool, dict[str, str]]:
    """Exact judge of one instance (weight power a, radius δ, Heaviside level x, time t > 0).

    Decaying: H_s(u^x) is constant for s > max(1, T), so M(H)(s) = 0 there; fading: the pair
    x' = x + hat of height 1 at the least lag L ≥ 2 with w(L) < δ (weighted distance ≤ w(L) < δ),
    x = 0 (gated: x = plateau 1/2 on the lags [0, 1]), its output difference against ε (1, gated
    1/4);
    with a window the sup over the δ-ball is at most (2)δ(1 + T)^a → 0, so the windowed operator
    has fading memory; regular: H_0 of the hat of height 1 and half-width 2^(−k−2) at lag 1/2
    (→ 0 at every other s): 1 for the peak-hold, its area 2^(−k−2) → 0 gated (|H_0| ≤ g_0)."""
    s = t + max(statement.window or Fraction(0), Fraction(1))  # a time past the kinks
    h = Fraction(1, 8)
    slope = abs(statement.heaviside_response(x, s + h)
                - statement.heaviside_response(x, s - h)) / (2 * h * abs(x))
    decaying_true = slope == 0  # the response is constant on (max(1, T), ∞)
    lag = max(first_lag(delta, a), 2)
    plateau = PLATEAU if statement.gated else []  # the plain operator: the hat against x' = 0
    base = apply_exact(statement, plateau)
    moved = apply_exact(statement, [*plateau, *_hat_samples(Fraction(lag) + Fraction(1, 2),
                                                           Fraction(1), Fraction(1, 2))])
    dh = abs(moved - base)
    # no window: the hat moves H by dh ≥ ε at weighted distance < δ (δ was arbitrary); a window:
    # the sup over the δ-ball is at most (2)δ(1 + T)^a (Lipschitz), finite and linear in δ
    fading_true = dh < statement.eps if statement.window is None else True
    k = lag.bit_length()
    half = Fraction(1, 2 ** (k + 2))
    spike = apply_exact(statement, _hat_samples(Fraction(1, 2), Fraction(1), half))
    regular_true = spike <= half  # gated: H_0 = its area → 0; plain: 1 for every k
    ok = (statement.decaying == decaying_true and statement.fading == fading_true
          and (not statement.in_class or regular_true))
    values = {"weight w(s)": f"(1 + s)^(−{a})", "δ": str(delta), "x": str(x), "t": str(s),
              "|d/dt H_t(u^x)|/|x| (exact, step ±1/8)": str(slope),
              "hat of height 1 at lag L": str(lag), "w(L)": f"(1 + {lag})^(−{a}) < δ",
              "|H_0(x') − H_0(x)| (plateau + hat)": str(dh), "ε": str(statement.eps),
              "sup of |ΔH_t| over the δ-ball": statement.sup_difference(delta, a),
              f"H_0 of the hat of half-width 2^−{k + 2} at lag 1/2": str(spike)}
    return ok, values


@functools.cache
def peak_proof(statement: PeakHold) -> Proof:
    """Decide ``statement`` symbolically, for every weight w(s) = (1 + s)^(−a), a > 0, and every
    δ > 0 (the lag L = δ^(−1/a); for a general w of (25) the same hat at any L with w(L) < δ).

    Steps (SymPy): the Heaviside response is constant for t > max(1, T), so its derivative, and
    M(H)(t), vanish there; w(L)/δ = (L/(1 + L))^a < 1 at L = δ^(−1/a); the windowed bound
    (1 + T)^a w(s) ≥ 1 on the window; gated: the plateau pair's difference 1/4 and the area r of
    a hat of half-width r (→ 0, the gate's bound). Then the statement's parts are compared with
    the truth: decaying always, fading iff a window, regular iff gated."""
    import sympy as sp

    t, x, big_t = sp.Symbol("t", positive=True), sp.Symbol("x", nonzero=True, real=True), \
        sp.Symbol("T", positive=True)
    a, lag, s, r, u = sp.symbols("a L s r u", positive=True)
    at = [{x: -2, t: 3, big_t: 1, a: sp.Rational(1, 2), lag: 2, s: sp.Rational(1, 2),
           r: sp.Rational(1, 8)}]
    # the response for t > max(1, T): max(x, 0) without a window, x with one (t > T); gated,
    # times min(|x|, 1) (the gate's integral over the last unit of time, all at level x)
    peak = sp.Max(x, 0) if statement.window is None else x
    resp = sp.Min(sp.Abs(x), 1) * sp.Min(sp.Max(peak, 0), 1) if statement.gated else peak
    flat = decide_zeros([sp.diff(resp, t)], points=at)
    # w(L)/δ at L = δ^(−1/a), i.e. δ = L^(−a): ((1 + L)^(−a))/L^(−a) = (L/(1 + L))^a, and L/(1+L) < 1
    ratio = decide_zeros([(1 + lag) ** (-a) / lag ** (-a) - (lag / (1 + lag)) ** a],
                         simplify=lambda e: sp.powsimp(sp.expand_power_base(e, force=True),
                                                       force=True), points=at)
    below_one = fact(sp.cancel(lag / (1 + lag) - 1).is_negative, "L/(1 + L) < 1")
    steps: dict[str, Step] = {"d/dt H_t(u^x) = 0 for t > max(1, T)": flat,
                              "w(L)/δ = (L/(1 + L))^a at L = δ^(−1/a)": ratio,
                              "L/(1 + L) < 1 (so w(L) < δ)": below_one}
    if statement.window is not None:
        window = sp.nsimplify(statement.window)
        # (1 + T)^a w(s) = ((1 + T)/(1 + s))^a ≥ 1 on 0 ≤ s ≤ T
        steps["(1 + T)/(1 + s) − 1 = (T − s)/(1 + s) ≥ 0 on the window"] = decide_zeros(
            [(1 + window) / (1 + s) - 1 - (window - s) / (1 + s)], simplify=sp.cancel, points=at)
    half = sp.Rational(1, 2)
    pair = half * (sp.Min(1, 1) - sp.Min(half, 1)) if statement.gated else sp.Integer(1)
    steps["the pair's output difference is ε"] = decide_zeros(
        [pair - sp.nsimplify(statement.eps)], points=at)
    area = sp.integrate(1 - u / r, (u, 0, r)) * 2  # a hat of height 1 and half-width r
    steps["the gate of a hat of half-width r is r, → 0 as r → 0"] = decide_zeros(
        [area - r, sp.limit(area, r, 0)], points=at)
    derivation = proof_from_steps(steps, "peak-hold", "SymPy")
    if derivation.holds is not True:
        return derivation
    details = dict(derivation.details)
    fading_true = statement.window is not None
    scope = ("every weight w(s) = (1 + s)^(−a), a > 0, every δ > 0 and every Heaviside level x "
             "(any w of (25): the same hat at a lag L with w(L) < δ)")
    wrong = []
    if not statement.decaying:
        wrong.append(("decaying", {"H_t(u^x)": f"{resp} for t > {max(statement.window or 0, 1)}",
                                   "M(H)(t)": "0 for every t > max(1, T)",
                                   "hence": "lim M(H)(t) = 0: the memory decays (6)"}))
    if statement.fading != fading_true:
        if fading_true:
            factor = "2·" if statement.gated else ""
            wrong.append(("fading", {
                "weight": "w(s) = (1 + s)^(−1)", "δ(ε)": f"ε/({factor}(1 + {statement.window}))",
                "bound": f"|ΔH_t| ≤ {factor}sup over the window |Δ| ≤ {factor}(1 + "
                         f"{statement.window}) sup_s |Δ_s| w(t − s) < ε",
                "hence": "fading memory (25)"}))
        else:
            base = "x = 1/2 on the lags [0, 1]" if statement.gated else "x = 0"
            wrong.append(("fading", {
                "ε": str(statement.eps),
                "pair": f"{base}, x' = x + hat of height 1 on the lags [L, L + 1], L = δ^(−1/a)",
                "weighted distance": "≤ w(L) = δ(L/(1 + L))^a < δ",
                "|H_t(x) − H_t(x')|": f"{statement.eps} ≥ ε, for every δ > 0",
                "hence": "no fading memory for w = (1 + s)^(−a), nor for any w of (25)"}))
    if statement.in_class and not statement.gated:
        wrong.append(("regularity", {
            "sequence": "x^(k) = hat of height 1 and half-width 2^(−k) at the lag 1/2",
            "pointwise": "x^(k)_s → 0 at every s but one (almost everywhere)",
            "H_0(x^(k))": "1 for every k (the sup of each hat)",
            "hence": "not regular (Def. 2.1(6)): outside the class of Defs. 3.1–3.2"}))
    if wrong:
        return Proof(False, scope, "SymPy: the Heaviside response and the weighted distance of "
                     "the hat", counterexample={f"the {k} part": v for k, v in wrong},
                     details=details)
    regular = ("; regular: |H_t(x^(n))| ≤ g_t(x^(n)) = ∫₀¹ min(|x^(n)|, 1) → 0 by dominated "
               "convergence" if statement.gated else "")
    return Proof(True, scope, "SymPy: the Heaviside response is constant after the jumps; the "
                 "hat at lag δ^(−1/a) (no window) / the Lipschitz bound (1 + T)^a (window)"
                 + regular, details=details, general=True)


# ---------------------------------------------------------------------------------------------
# the linear functional with fading but no decaying memory


@dataclass(frozen=True)
class FadingNotDecaying(Statement):
    """W Remark A.5: "it is possible for a linear functional to only have the fading memory (but
    no decaying memory), where it needs only the requirement ∫₀^∞ |ρ(s)|₂/|w(s)| ds < ∞, which
    does not imply lim_(s→∞) |ρ(s)|₂ = 0".

    The witness: ρ = Σ_n n^``q`` hat((s − n)/r_n), r_n = n^(−``p``)/2, w(s) = (1 + s)^(−``a``).
    The statement: K = ∫|ρ|/w^``b`` < ∞ (b = 1 as printed) gives fading memory (25) with
    δ(ε) = ``c``·ε/K, and ``decaying`` False: lim M(H)(t) ≠ 0 (M(H)(n) = n^q)."""

    q: int = 1
    p: int = 4
    a: int = 1
    b: int = 1
    c: Fraction = Fraction(1)
    decaying: bool = False

    def __post_init__(self) -> None:
        if self.p < 1 or self.q < 0 or self.a < 1 or self.b not in (0, 1):
            raise ValueError("FadingNotDecaying needs p ≥ 1, q ≥ 0, a ≥ 1 and b ∈ {0, 1}")

    @property
    def text(self) -> str:
        cond = "∫₀^∞ |ρ(s)|/|w(s)| ds" if self.b == 1 else "∫₀^∞ |ρ(s)| ds"
        c = "" if self.c == 1 else f"({self.c})·"
        dec = ("no decaying memory: M(H)(n) = |ρ(n)| = n^q at every centre n, so "
               "lim_(t→∞) M(H)(t) ≠ 0" if not self.decaying
               else "a decaying memory, lim_(t→∞) M(H)(t) = 0")
        return (f"For H_t(x) = ∫₀^∞ ρ(s)x_(t−s) ds with ρ(s) = Σ_(n≥1) n^{self.q} max(0, 1 − "
                f"|s − n|/r_n), r_n = n^(−{self.p})/2, and w(s) = (1 + s)^(−{self.a}): "
                f"K = {cond} < ∞, H has fading memory (25) with δ(ε) = {c}ε/K, and H has {dec}")

    def controls(self) -> tuple[Control, ...]:
        return (Control("δ(ε) = (65/64)·ε/K: 1/64 beyond the sharp modulus (near)",
                        replace(self, c=self.c * NEAR)),
                Control("the weight dropped from the condition: K = ∫|ρ| ds",
                        replace(self, b=0 if self.b else 1)),
                Control("the wrong limit: lim M(H)(t) = 0 claimed",
                        replace(self, decaying=not self.decaying)))

    def family(self, q: int, p: int, a: int) -> FadingNotDecaying:
        """The same statement about another hat train and weight."""
        return replace(self, q=q, p=p, a=a)

    # ---- exact pieces ----------------------------------------------------------------------

    def half_width(self, n: Any) -> Any:
        """r_n = n^(−p)/2 (exact for an integer n; symbolic n gives a SymPy expression)."""
        return Fraction(1, 2 * n**self.p) if isinstance(n, int) else 1 / (2 * n**self.p)

    def height(self, n: Any) -> Any:
        return n**self.q

    def expansion(self, n: int, power: int) -> Fraction:
        """Σ_s coef·n^(−s) of :meth:`zeta_terms`: the closed form K's series sums."""
        return sum((coef * Fraction(n) ** (-s) for s, coef in self.zeta_terms(power).items()),
                   Fraction(0))

    def mass(self, n: int, power: int) -> Fraction:
        """∫ hat_n(s)(1 + s)^power ds, exactly (the odd powers of s − n cancel)."""
        r, acc = self.half_width(n), Fraction(0)
        for k in range(power // 2 + 1):
            acc += comb(power, 2 * k) * (1 + n) ** (power - 2 * k) * 2 * r ** (2 * k + 1) \
                / ((2 * k + 1) * (2 * k + 2))
        return self.height(n) * acc

    def zeta_terms(self, power: int) -> dict[int, Fraction]:
        """{s: coef} with m_n(power) = Σ_s coef·n^(−s), so Σ_n m_n = Σ_s coef·ζ(s) when every s > 1."""
        out: dict[int, Fraction] = {}
        for k in range(power // 2 + 1):
            base = Fraction(comb(power, 2 * k) * 2, (2 * k + 1) * (2 * k + 2) * 2 ** (2 * k + 1))
            for j in range(power - 2 * k + 1):
                s = self.p * (2 * k + 1) - self.q - j
                out[s] = out.get(s, Fraction(0)) + base * comb(power - 2 * k, j)
        return out

    def converges(self, power: int) -> bool:
        return all(s > 1 for s in self.zeta_terms(power))

    @property
    def condition_power(self) -> int:
        """The power of (1 + s) in K's integrand: a (∫|ρ|/w) or 0 (the weight dropped)."""
        return self.a * self.b

    def constant(self, zeta: Callable[[int], Any], number: Callable[[Fraction], Any]) -> Any:
        """K = Σ_s coef·ζ(s) in any arithmetic (``zeta`` and ``number`` supply it)."""
        terms = self.zeta_terms(self.condition_power)
        acc = None
        for s, coef in sorted(terms.items()):
            term = number(coef) * zeta(s)
            acc = term if acc is None else acc + term
        return acc

    def tail_bound(self, power: int, big_n: int) -> Fraction:
        """Σ_(n>N) m_n(power) ≤ Σ_s coef·N^(1−s)/(s − 1) (each n^(−s) decreasing; s > 1)."""
        return sum((coef * Fraction(1, big_n ** (s - 1)) / (s - 1)
                    for s, coef in self.zeta_terms(power).items()), Fraction(0))


def _bracket(statement: FadingNotDecaying, power: int, big_n: int, closed: bool = False
             ) -> tuple[Fraction, Fraction]:
    """Exact dyadic bounds lo ≤ Σ_(n≤N) m_n(power) ≤ hi (each term rounded outward to 2^−96);
    ``closed``: the terms of the statement's closed form (:meth:`expansion`) instead of the
    exact hat integrals."""
    lo = hi = 0
    for n in range(1, big_n + 1):
        m = statement.expansion(n, power) if closed else statement.mass(n, power)
        lo += (m.numerator * GRAIN) // m.denominator
        hi += -((-m.numerator * GRAIN) // m.denominator)
    return Fraction(lo, GRAIN), Fraction(hi, GRAIN)


def modulus_decide(statement: FadingNotDecaying, max_n: int = 1 << 14
                   ) -> tuple[bool | None, dict[str, str]]:
    """Exactly: does (25) hold with δ(ε) = c·ε/K? The sup of |H_t(x) − H_t(x')| over the open
    δ-ball is δ·C, C = Σ_n m_n(a) (Hölder, sharp), so iff c·C ≤ K. K = C identically when the
    condition keeps the weight (b = 1): iff c ≤ 1. Otherwise the two series are bracketed in exact
    dyadic rationals, doubling N up to ``max_n``; a divergent C (its exponents s ≤ 1) or an
    infinite K is decided by the brackets too (C's partial sums pass c⁻¹·K)."""
    info = {"family": f"q = {statement.q}, p = {statement.p}, a = {statement.a}",
            "C = ∫|ρ|/w": " + ".join(f"{c}·ζ({s})" for s, c in
                                     sorted(statement.zeta_terms(statement.a).items())),
            "K": " + ".join(f"{c}·ζ({s})" for s, c in
                            sorted(statement.zeta_terms(statement.condition_power).items()))}
    if not statement.converges(statement.condition_power):
        return True, {**info, "hypothesis": "K = ∞: the printed condition fails (vacuous)"}
    # K's closed form against the exact hat integrals, term by term (a Laurent polynomial in n
    # with at most 3·(a + 1) terms agreeing at more points than it has terms is the same one)
    same = all(statement.expansion(n, power) == statement.mass(n, power)
               for power in {statement.a, statement.condition_power} for n in range(1, 17))
    if same and statement.condition_power == statement.a:
        return statement.c <= 1, {**info, "sup over the δ-ball": "δ·C = c·ε (K = C)"}
    big_n = 8
    while big_n <= max_n:
        c_lo, c_hi = _bracket(statement, statement.a, big_n)
        k_lo, k_hi = _bracket(statement, statement.condition_power, big_n, closed=True)
        k_hi += statement.tail_bound(statement.condition_power, big_n)
        if statement.converges(statement.a):
            c_hi += statement.tail_bound(statement.a, big_n)
        else:
            c_hi = None  # type: ignore[assignment]
        if statement.c * c_lo > k_hi:
            return False, {**info, "N": str(big_n),
                           "input": f"x_(t−s) − x'_(t−s) = δ(1 + s)^{statement.a} on the lags of "
                                    f"the first {big_n} hats (weighted distance δ)",
                           "c·Σ_(n≤N) m_n ≥": str(float(statement.c * c_lo)),
                           "K ≤": str(float(k_hi)),
                           "|H_t(x) − H_t(x')|/ε = c·Σ_(n≤N) m_n/K": "> 1"}
        if c_hi is not None and statement.c * c_hi <= k_lo:
            return True, {**info, "N": str(big_n), "c·C ≤": str(float(statement.c * c_hi)),
                          "K ≥": str(float(k_lo))}
        big_n *= 2
    return None, {**info, "undecided up to N": str(max_n)}


def linear_decide(statement: FadingNotDecaying) -> tuple[bool | None, dict[str, str]]:
    """Exact judge of the statement on its own family: the modulus (:func:`modulus_decide`) and
    the memory at the centres (M(H)(n) = ρ(n) = n^q ≥ 1: lim M ≠ 0)."""
    ok, info = modulus_decide(statement)
    centres = {f"M(H)({n}) = ρ({n})": str(statement.height(n)) for n in (1, 2, 4)}
    decaying_ok = not statement.decaying  # the memory is ≥ 1 at every centre
    if ok is None:
        return None, {**info, **centres}
    return ok and decaying_ok, {**info, **centres, "fading part": str(ok),
                                "decaying part": "lim M(H)(t) ≠ 0 (M(H)(n) = n^q ≥ 1)"}


@functools.cache
def _family_steps(q: int, p: int, a: int, power: int) -> tuple[dict[str, Step], Any]:
    """SymPy, for symbolic n ≥ 1: ∫ hat_n (1 + s)^power ds equals the closed form of
    :meth:`FadingNotDecaying.mass`; Σ_n of it equals Σ coef ζ(s); the Heaviside response's one-sided
    derivatives at the centre n are both n^q. Returns the steps and Σ_n m_n (SymPy)."""
    import sympy as sp

    law = FadingNotDecaying(q=q, p=p, a=a)
    n = sp.Symbol("n", positive=True, integer=True)
    s, t = sp.symbols("s t", real=True)
    r = law.half_width(n)
    height = law.height(n)
    rising = height * (1 - (n - s) / r)
    falling = height * (1 - (s - n) / r)
    def between(expr: Any, lo: Any, hi: Any) -> Any:
        # a polynomial in s: its antiderivative (sp.Poly) at the two limits
        anti = sp.Poly(sp.expand(expr), s).integrate().as_expr()
        return anti.subs(s, hi) - anti.subs(s, lo)

    integral = sp.expand(between(rising * (1 + s) ** power, n - r, n)
                         + between(falling * (1 + s) ** power, n, n + r))
    closed = sum(sp.Rational(coef.numerator, coef.denominator) * n ** (-e)
                 for e, coef in law.zeta_terms(power).items())
    at = [{n: 3}]
    mass_step = decide_zeros([integral - closed], points=at)
    # Σ_n of the integral, monomial by monomial (SymPy's summation: ζ(e), or ∞ for e ≤ 1)
    total = sum((sp.Sum(term, (n, 1, sp.oo)).doit() for term in sp.Add.make_args(integral)),
                sp.Integer(0))
    zetas = sum(sp.Rational(coef.numerator, coef.denominator) * sp.zeta(e)
                for e, coef in law.zeta_terms(power).items())
    sum_step = decide_zeros([total - zetas]) if law.converges(power) else \
        fact(total == sp.oo, "the series diverges")
    # the Heaviside response P(t) = ∫_0^t ρ near the centre: left and right slopes at t = n
    left = sp.diff(sp.integrate(rising, (s, n - r, t)), t).subs(t, n)
    right = sp.diff(sp.integrate(falling, (s, n, t)), t).subs(t, n)
    slope = decide_zeros([left - height, right - height], points=at)
    steps: dict[str, Step] = {f"∫ hat_n (1 + s)^{power} ds = Σ coef n^(−s)": mass_step,
                              f"Σ_n m_n({power}) = Σ coef ζ(s)": sum_step,
                              "d/dt H_t(u^1) at t = n is n^q (both sides)": slope}
    return steps, total


@functools.cache
def linear_proof(statement: FadingNotDecaying) -> Proof:
    """Decide ``statement`` symbolically for its hat train and weight (general: every ε, every
    pair of inputs, every spike n).

    Steps: the masses and their sums in ζ (SymPy integration and summation with symbolic n); the
    slope n^q of the Heaviside response at every centre (so M(H)(n) = n^q, eq. (4)); then the
    Hölder bound sup_(δ-ball) |ΔH_t| = δC (sharp) makes (25) with δ = cε/K hold iff c·C ≤ K,
    whose sign SymPy decides (ζ(s) > 0)."""
    import sympy as sp

    steps, c_sum = _family_steps(statement.q, statement.p, statement.a, statement.a)
    if statement.condition_power != statement.a:
        k_steps, k_sum = _family_steps(statement.q, statement.p, statement.a,
                                       statement.condition_power)
        steps = {**steps, **{f"K: {k}": v for k, v in k_steps.items()}}
    else:
        k_sum = c_sum
    derivation = proof_from_steps(steps, "the hat train", "SymPy integration and summation")
    if derivation.holds is not True:
        return derivation
    details = {**derivation.details, "C = ∫|ρ|/w": str(c_sum), "K": str(k_sum)}
    scope = (f"every ε > 0 and every pair of inputs, the hat train q = {statement.q}, "
             f"p = {statement.p}, weight (1 + s)^(−{statement.a}) (every centre n)")
    if k_sum.is_finite is False or k_sum == sp.oo:
        return Proof(True, scope + "; K = ∞: the hypothesis fails (vacuous)", "SymPy summation",
                     details=details, general=True)
    cc = sp.Rational(statement.c.numerator, statement.c.denominator)
    gap = sp.expand(k_sum - cc * c_sum)  # a rational combination of ζ values (or −∞)
    wrong: dict[str, Any] = {}
    if c_sum == sp.oo or gap.is_nonnegative is not True:
        if c_sum != sp.oo and gap.is_negative is not True:
            return Proof(None, scope, f"SymPy cannot decide the sign of K − c·C = {gap}",
                         details=details)
        ok, witness = modulus_decide(statement)
        wrong["the fading part"] = {"K − c·C": str(gap) if c_sum != sp.oo else "−∞",
                                    "sup over the δ-ball": "δ·C = c·ε·C/K > ε",
                                    **({"exact input": witness} if ok is False else {})}
    if statement.decaying:
        wrong["the decaying part"] = {"M(H)(n)": f"n^{statement.q} ≥ 1 at every centre n "
                                      "(the slope of H_t(u^x)/x at t = n)",
                                      "hence": "lim M(H)(t) ≠ 0"}
    if wrong:
        return Proof(False, scope, "SymPy: the sharp Hölder bound δ·C and the Heaviside slope "
                     "at the centres", counterexample=wrong, details=details)
    return Proof(True, scope, "SymPy: masses and ζ-sums, sharp Hölder bound δ·C ≤ ε iff c·C ≤ K, "
                 "slope n^q at every centre", details=details, general=True)


# ---------------------------------------------------------------------------------------------
# the remark as a whole


@dataclass(frozen=True)
class RemarkA5(Statement):
    """W Remark A.5: fading memory (25) and decaying memory (6) are independent — the peak-hold
    operator has the second without the first, the hat-train linear functional the first
    without the second (each part a statement of its own, read by the same checks)."""

    peak: PeakHold = PeakHold()
    linear: FadingNotDecaying = FadingNotDecaying()

    @property
    def text(self) -> str:
        return ("Fading memory (25) and decaying memory (6) are independent: (i) "
                f"{self.peak.text}; (ii) {self.linear.text}")

    def controls(self) -> tuple[Control, ...]:
        return (*(Control(f"peak-hold: {c.change}", replace(self, peak=cast(PeakHold, c.statement)))
                  for c in self.peak.controls()),
                *(Control(f"linear functional: {c.change}",
                          replace(self, linear=cast(FadingNotDecaying, c.statement)))
                  for c in self.linear.controls()))


def remark_proof(statement: RemarkA5) -> Proof:
    """Both parts' proofs: proved when both are, disproved (with the part's counterexample) when
    one is."""
    parts = {"peak-hold": peak_proof(statement.peak), "linear functional":
             linear_proof(statement.linear)}
    for name, proof in parts.items():
        if proof.holds is not True:
            if proof.holds is False:
                return Proof(False, f"{name}: {proof.scope}", proof.method,
                             counterexample={"part": name, **(proof.counterexample or {})},
                             details=proof.details)
            return proof
    details = {f"{k}: {kk}": v for k, p in parts.items() for kk, v in p.details.items()}
    return Proof(True, "; ".join(f"{k}: {p.scope}" for k, p in parts.items()),
                 "both witnesses (theory.fading_memory)", details=details, general=True)
