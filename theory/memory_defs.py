"""Places where paper W's printed definitions of memory disagree with themselves (ICLR 2024
camera-ready, https://openreview.net/forum?id=yC2waD70Vj), each as one :class:`Statement`:

- :class:`Normalisation` — Def. 3.1 eq. (5) divides by |x|_∞; the proofs of Thm 3.9 use
  "M(Ĥ_m)(t) = sup_{x≠0} 1/(|x|_∞ + 1)|d/dt y_{m,t}|" (App. A.8 eq. (43)) and
  "sup_{x≠0} |d/dt Ĥ_{m,t}(u^x)|/(|x|_∞ + 1)" (App. A.9 eq. (67)). Printed as one function M.
- :class:`DecayReading` — after Def. 3.1: "If the queried memory are decaying for all Heaviside
  inputs, then we say the corresponding nonlinear functional sequence has a decaying memory"
  (for each x); Def. 3.2 eq. (6): lim_t M(H)(t) = 0 (the sup over x inside the limit).
- :class:`ImpulseSketch` — App. F's sketch proof, eqs. (122)–(125): from |d/dt y_t| ≤ Ce^{−βt} it
  concludes e^{βt}|y_t − y_∞| ≤ |∫_t^∞ Ce^{−β(s−t)} ds| ≤ C, but that integral is C/β.

The witnesses are scalar RNNs h' = σ(wh + ux), ŷ = ch, b = 0, from rest, for which the response to
u^x is exact: z = wh + ux obeys z' = wσ(z), z(0) = ux, and d/dt ŷ = cσ(z).

- hardtanh, w < 0: in the time τ = |w|t, z decreases at unit speed while saturated (z ≥ 1), then
  z = e^{−(τ − τ₀)}; for the input with z(0) = ux the ratio cσ(z)/(|x| + o) is maximal over x at
  z(0) = τ + 1 (its derivative in z(0) has the sign of z(0) + o·u − 1 ≥ 0 on (1, τ + 1]), so
  M_o(t) = c·u / (|w|t + 1 + o·u) exactly (:func:`hardtanh_memory`), for every offset o ≥ 0;
- sin, w = −1, u = c = 1: tan(z/2) = tan(x/2)·e^{−t}, so d/dt ŷ = −2Ke^{−t}/(1 + K²e^{−2t}) with
  K = tan(x/2): each input decays exponentially, but the input with K = e^T reaches |d/dt ŷ| = 1
  at t = T with |x| < π, so M(T) ≥ 1/π for every T (:func:`sin_witness`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, Step, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

# ---------------------------------------------------------------------------------------------
# exact memories of the scalar witnesses


def hardtanh_memory(w: Fraction, u: Fraction, c: Fraction, offset: Fraction, t: Any) -> Any:
    """M_o(t) = sup_{x≠0} |d/dt H_t(u^x)| / (|x| + o) of h' = hardtanh(wh + ux), ŷ = ch, b = 0,
    w < 0 (exact: |c·u| / (|w|t + 1 + o·|u|), see the module docstring); ``t`` may be symbolic."""
    if w >= 0:
        raise ValueError("the closed form needs w < 0")
    return abs(c * u) / (abs(w) * t + 1 + offset * abs(u))


@functools.cache
def hardtanh_memory_proof(offset: Any = None) -> Proof:
    """SymPy check of the derivation of :func:`hardtanh_memory` (time τ = |w|t, z₀ = ux > 0):
    r(z₀) = e^{z₀−τ−1}/(z₀ + o·u) has r' = e^{z₀−τ−1}(z₀ + o·u − 1)/(z₀ + o·u)² ≥ 0 on (1, τ + 1];
    r(τ + 1) = 1/(τ + 1 + o·u); the unsaturated branch e^{−τ}z₀/(z₀ + o·u) ≤ e^{−τ}/(1 + o·u)
    ≤ 1/(τ + 1 + o·u) since (1 + o·u)e^τ ≥ 1 + τ + o·u.

    Returns the derivation as a :class:`Proof` of its steps: proved, undecided, or a failed
    derivation (a step SymPy decided false, ``failed_step``)."""
    import sympy as sp

    tau, z0, o, u = sp.symbols("tau z0 o u", nonnegative=True)
    o = sp.Symbol("o", nonnegative=True) if offset is None else sp.nsimplify(offset)
    r = sp.exp(z0 - tau - 1) / (z0 + o * u)
    w, c, t = sp.Symbol("w", negative=True), sp.Symbol("c", positive=True), \
        sp.Symbol("t", nonnegative=True)
    up = sp.Symbol("u", positive=True)
    # every step's difference is also evaluated at an exact point (inside each symbol's range), so
    # that a wrong step is decided false (a failed derivation) rather than left undecided
    at: list[dict[Any, Any]] = [{tau: 2, z0: sp.Rational(3, 2), u: 1, w: -1, c: 1, t: 2, up: 1,
                                 **({o: sp.Rational(1, 2)} if isinstance(o, sp.Symbol) else {})}]
    deriv = decide_zeros([sp.diff(r, z0) - sp.exp(z0 - tau - 1) * (z0 + o * u - 1)
                          / (z0 + o * u) ** 2], points=at)
    top = decide_zeros([r.subs(z0, tau + 1) - 1 / (tau + 1 + o * u)], points=at)
    # (1 + o·u)e^τ − (1 + τ + o·u) = (e^τ − 1 − τ) + o·u(e^τ − 1): both ≥ 0 (value 0 at τ = 0,
    # derivatives e^τ − 1 ≥ 0 and o·u·e^τ ≥ 0)
    g = (1 + o * u) * sp.exp(tau) - (1 + tau + o * u)
    below = decide_zeros([g - ((sp.exp(tau) - 1 - tau) + o * u * (sp.exp(tau) - 1)),
                          sp.diff(sp.exp(tau) - 1 - tau, tau) - (sp.exp(tau) - 1),
                          (sp.exp(tau) - 1 - tau).subs(tau, 0)], points=at)
    # the closed form itself, at symbolic w < 0, u, c > 0, t ≥ 0: M_o(t) = c·u·r(τ + 1), τ = |w|t
    # (the ratio cσ(z)/(|x| + o) = c·u·σ(z)/(z₀ + o·u) at its maximising input z₀ = τ + 1)
    derived = (c * up * r.subs(u, up).subs(z0, tau + 1)).subs(tau, -w * t)
    closed = decide_zeros([hardtanh_memory(w, up, c, o, t) - derived], points=at)
    steps: dict[str, Step] = {"r'(z₀) sign = sign(z₀ + o·u − 1)": deriv,
                              "r(τ + 1) = 1/(τ + 1 + o·u)": top,
                              "unsaturated branch below": below,
                              "hardtanh_memory = c·u·r(τ + 1) at τ = |w|t": closed}
    return proof_from_steps(steps, "scalar hardtanh RNN", "SymPy: the maximisation over x of "
                            "the saturated ratio and the closed form M_o(t) = cu/(|w|t + 1 + ou)")


def sin_rate(x: Any, t: Any, lib: Any) -> Any:
    """d/dt ŷ for h' = sin(x − h), ŷ = h, input u^x, exactly: −2Ke^{−t}/(1 + K²e^{−2t}), K = tan(x/2)
    (|x| < π); ``lib`` supplies tan and exp (sympy, mpmath or numpy)."""
    k = lib.tan(x / 2)
    return 2 * k * lib.exp(-t) / (1 + k**2 * lib.exp(-2 * t))


@functools.cache
def sin_witness() -> Proof:
    """SymPy: z(t) = 2 atan(tan(x/2)e^{−t}) solves z' = −sin z, z(0) = x; its rate −sin z equals
    −:func:`sin_rate`; for fixed x the rate is ≤ 2|K|e^{−t} (exponential decay); the input
    x_T = 2 atan(e^T) ∈ (0, π) has |rate| = 1 at t = T, so M(T) ≥ 1/π for every T. Returns the
    derivation as a :class:`Proof` of its steps (a step SymPy decided false: ``failed_step``)."""
    import sympy as sp

    x, t, tt = sp.symbols("x t T", positive=True)
    k = sp.tan(x / 2)
    z = 2 * sp.atan(k * sp.exp(-t))
    at = [{x: 1, t: 1, tt: 1}]  # an exact point: a wrong step is decided false, not undecided
    solves = decide_zeros([sp.diff(z, t) + sp.sin(z)], points=at)
    # z(0) = 2 atan(tan(x/2)) = x on (−π, π): checked at x = 1 and x = 3
    starts = decide_zeros([z.subs({t: 0, x: v}) - v for v in (sp.Integer(1), sp.Integer(3))])
    rate = sin_rate(x, t, sp)
    rate_ok = decide_zeros([sp.expand_trig(sp.sin(z)) - rate], points=at)
    at_t = sp.simplify(rate.subs(x, 2 * sp.atan(sp.exp(tt))).subs(t, tt))
    steps: dict[str, Step] = {"z = 2 atan(tan(x/2)e^{−t}) solves z' = −sin z": solves,
                              "z(0) = x": starts, "rate = 2Ke^{−t}/(1 + K²e^{−2t})": rate_ok,
                              "rate at t = T for x = 2 atan(e^T) is 1": decide_zeros([at_t - 1],
                                                                                    points=at)}
    return proof_from_steps(steps, "the sin RNN", "SymPy: the exact solution",
                            {"rate at t = T for x = 2 atan(e^T)": str(at_t)})


# ---------------------------------------------------------------------------------------------
# S1: the normalisation of the memory function


@dataclass(frozen=True)
class Normalisation(Statement):
    """Def. 3.1 eq. (5) and App. A.8 eq. (43) / A.9 eq. (67) define one function: for every RNN
    (1) with σ ∈ 𝒜₀ ∪ 𝒜₁, sup_{x≠0} |d/dt H_t(u^x)|/(|x|_∞ + a) = sup_{x≠0} |d/dt H_t(u^x)|/(|x|_∞ + b)
    for all t ≥ 0. Printed: a = 0 (eq. (5)), b = 1 (eqs. (43), (67))."""

    a: Fraction = Fraction(0)
    b: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        def den(o: Fraction) -> str:
            return "|x|_∞" if o == 0 else f"(|x|_∞ + {o})"
        return (f"The memory function of Def. 3.1, sup_(x≠0) |d/dt H_t(u^x)| / {den(self.a)} (eq. (5)), "
                f"is the one the proofs use, sup_(x≠0) |d/dt H_t(u^x)| / {den(self.b)} (App. A.8 "
                "eq. (43), A.9 eq. (67)), for every RNN (1) with σ ∈ 𝒜₀ ∪ 𝒜₁ and every t ≥ 0")

    def controls(self) -> tuple[Control, ...]:
        return (Control("offset of the second normalisation doubled", replace(self, b=2 * self.b + 1)),
                Control("offset of the second normalisation halved",
                        replace(self, b=self.b / 2 if self.b else Fraction(1, 2))))

    def difference(self, w: Fraction, u: Fraction, c: Fraction, t: Any) -> Any:
        """M_a(t) − M_b(t) for the scalar hardtanh RNN (w < 0), exactly."""
        return hardtanh_memory(w, u, c, self.a, t) - hardtanh_memory(w, u, c, self.b, t)


def normalisation_proof(statement: Normalisation) -> Proof:
    """Decide ``statement`` on the scalar hardtanh RNN w = −1, u = c = 1 (hardtanh ∈ 𝒜₀ with
    c_σ = 1, Z₀ = 1): M_o(t) = 1/(t + 1 + o) (derivation checked by SymPy), so the two
    normalisations agree at t only if a = b."""
    import sympy as sp

    derivation = hardtanh_memory_proof()
    if derivation.holds is not True:  # undecided, or a failed derivation (FAILED)
        return derivation
    steps = dict(derivation.details)
    t = sp.Symbol("t", nonnegative=True)
    one = Fraction(1)
    diff = sp.simplify(sp.nsimplify(statement.difference(-one, one, one, t)))
    if diff == 0:
        return Proof(True, "scalar hardtanh RNN only", "identical normalisations", details=steps,
                     general=False)
    value = diff.subs(t, 0)
    return Proof(False, "the scalar hardtanh RNN h' = hardtanh(x − h), ŷ = h (w = −1, u = c = 1, b = 0)",
                 "exact memory M_o(t) = 1/(t + 1 + o) of the scalar hardtanh RNN (SymPy checks the "
                 "maximisation over x)",
                 counterexample={"RNN": "h' = hardtanh(−h + x), ŷ = h (w = −1, u = c = 1, b = 0; "
                                        "hardtanh ∈ 𝒜₀, c_σ = 1, Z₀ = 1)",
                                 f"M with |x|_∞ + {statement.a}": str(sp.nsimplify(
                                     hardtanh_memory(-one, one, one, statement.a, t))),
                                 f"M with |x|_∞ + {statement.b}": str(sp.nsimplify(
                                     hardtanh_memory(-one, one, one, statement.b, t))),
                                 "difference": str(diff), "difference at t = 0": str(value)},
                 details=steps)


# ---------------------------------------------------------------------------------------------
# S2: decaying for each Heaviside input vs Def. 3.2


NOTIONS = ("decaying", "exponential")


@dataclass(frozen=True)
class DecayReading(Statement):
    """The pointwise notion of §3.1 implies Def. 3.2's: if |d/dt H_t(u^x)|/|x|_∞ → 0 (``decaying``;
    ``exponential``: e^{βt}·… → 0 for some β > 0 depending on x) for every Heaviside input with
    |x|_∞ ≤ ``x_max`` (∞: all, as printed), then lim M(H)(t) = 0 (6) (``exponential``: (7))."""

    notion: str = "decaying"
    x_max: Fraction | None = None  # None: every x ≠ 0

    def __post_init__(self) -> None:
        if self.notion not in NOTIONS:
            raise ValueError(f"unknown notion {self.notion!r}")

    @property
    def text(self) -> str:
        which = "every Heaviside input" if self.x_max is None else \
            f"every Heaviside input with |x|_∞ ≤ {self.x_max}"
        if self.notion == "decaying":
            return (f"The two printed definitions of decaying memory agree: if the queried memory "
                    f"|d/dt H_t(u^x)|/|x|_∞ decays for {which} (§3.1, after Def. 3.1), then "
                    "lim_(t→∞) M(H)(t) = 0 (Def. 3.2, eq. (6))")
        return (f"If e^(β_x t)|d/dt H_t(u^x)|/|x|_∞ → 0 for {which}, with some β_x > 0 each, then H "
                "has an exponential decaying memory: lim_(t→∞) e^(βt) M(H)(t) = 0 for some β > 0 "
                "(Def. 3.2, eq. (7))")

    def controls(self) -> tuple[Control, ...]:
        other = "exponential" if self.notion == "decaying" else "decaying"
        return (Control(f"the notion changed to {other} decay", replace(self, notion=other)),
                Control("the hypothesis weakened to the inputs with |x|_∞ ≤ 1",
                        replace(self, x_max=Fraction(1) if self.x_max is None else self.x_max / 2)))

    def witness(self) -> str:
        """Which exact witness decides the statement: ``sin`` (h' = sin(x − h): every input decays
        exponentially, M(T) ≥ 1/π) refutes both notions; ``hardtanh`` (M(t) = 1/(t + 1), each
        input exponentially) refutes the exponential one."""
        return "sin"


def decay_reading_proof(statement: DecayReading) -> Proof:
    """Decide ``statement`` with the exact sin witness (which satisfies every hypothesis: its
    queried memory decays exponentially for every input, bounded or not, so the pointwise premise
    holds in both notions, while M(T) ≥ 1/π for every T contradicts both (6) and (7))."""
    import sympy as sp

    derivation = sin_witness()
    if derivation.holds is not True:  # undecided, or a failed derivation (FAILED)
        return derivation
    steps = dict(derivation.details)
    x, t = sp.symbols("x t", positive=True)
    rate = sin_rate(x, t, sp)
    # premise for each fixed x (0 < x < π, K = tan(x/2) > 0): e^{βt}·rate → 0 for β < 1
    # (a limit SymPy computes nonzero, at x = 1 if it depends on x, is a failed derivation)
    limit = proof_from_steps({"e^(t/2)·rate → 0 for fixed x": decide_zeros(
        [sp.limit(sp.exp(t / 2) * rate, t, sp.oo)], points=[{x: 1}])}, "the sin RNN",
        "SymPy: the pointwise limit", steps)
    if limit.holds is not True:
        return limit
    steps = dict(limit.details)
    return Proof(False, "the scalar RNN h' = sin(x − h), ŷ = h (w = −1, u = c = 1, b = 0; sin is "
                 "1-Lipschitz)",
                 "exact solution tan(z/2) = tan(x/2)e^(−t) (SymPy): every input's queried memory decays "
                 "like e^(−t), but the input x_T = 2 atan(e^T) has |d/dt H_T(u^x)| = 1",
                 counterexample={"RNN": "h' = sin(−h + x), ŷ = h (w = −1, u = c = 1, b = 0)",
                                 "d/dt H_t(u^x)": str(rate) + ", K = tan(x/2)",
                                 "each input": "≤ 2·tan(x/2)·e^(−t): exponentially decaying (so the "
                                               "premise holds for every x, bounded or not)",
                                 "M(T)": "≥ |d/dt H_T(u^(x_T))|/x_T = "
                                         f"{steps['rate at t = T for x = 2 atan(e^T)']}/(2 atan(e^T)) > 1/π "
                                         "for every T",
                                 "hence": "lim M(t) ≠ 0: neither (6) nor (7)"},
                 details=steps)


# ---------------------------------------------------------------------------------------------
# S14: the factor in App. F's sketch proof


@dataclass(frozen=True)
class ImpulseSketch(Statement):
    """App. F eqs. (122)–(124): if y_∞ = lim y_t = 0 and |d/dt y_s| ≤ Ce^{−βs} for s ≥ t₀ (β, C > 0),
    then e^{βt}|y_t − y_∞| ≤ |∫_t^∞ Ce^{−β(s−t)} ds| ≤ K·C for t ≥ t₀, K = ``k_num``·β^``k_power``.
    Printed: K = 1 (eq. (124) "≤ C"); the integral equals C/β, so K = 1/β is the corrected bound
    (attained by y_t = (C/β)e^{−βt})."""

    k_num: Fraction = Fraction(1)
    k_power: int = 0

    @property
    def text(self) -> str:
        num = "" if self.k_num == 1 else f"({self.k_num})·"
        beta = {0: "", -1: "/β", 1: "·β"}.get(self.k_power, f"·β^({self.k_power})")
        return ("App. F sketch proof, eqs. (122)–(124): if y_∞ = lim y_t = 0 and |d/dt y_s| ≤ Ce^(−βs) for "
                f"s ≥ t₀ (β, C > 0), then e^(βt)|y_t − y_∞| ≤ |∫_t^∞ Ce^(−β(s−t)) ds| ≤ {num}C{beta} "
                "for t ≥ t₀")

    def controls(self) -> tuple[Control, ...]:
        return (Control("constant halved", replace(self, k_num=self.k_num / 2)),
                Control("constant times 63/64 (near control)",
                        replace(self, k_num=self.k_num * Fraction(63, 64))))

    def constant(self, beta: Any, number: Any = lambda q: q) -> Any:
        """K(β) in any arithmetic (``number`` converts the exact k_num into it)."""
        return number(self.k_num) * beta**self.k_power


def sketch_proof(statement: ImpulseSketch) -> Proof:
    """Decide ``statement``: the extremal y_t = ∫_t^∞ Ce^{−βs} ds (|y'| = Ce^{−βs} exactly, y_∞ = 0)
    has e^{βt}y_t = C/β (SymPy), and every admissible y has e^{βt}|y_t| ≤ e^{βt}∫_t^∞ Ce^{−βs}ds =
    C/β. So the statement holds iff K(β) ≥ 1/β for every β > 0."""
    import sympy as sp

    s, t, beta, c = sp.symbols("s t beta C", positive=True)
    sup_scaled = sp.simplify(sp.exp(beta * t) * sp.integrate(c * sp.exp(-beta * s), (s, t, sp.oo)))
    integral = sp.simplify(sp.integrate(c * sp.exp(-beta * (s - t)), (s, t, sp.oo)))
    k = statement.constant(beta, number=lambda q: sp.Rational(q.numerator, q.denominator))
    gap = sp.simplify(k * c - sup_scaled)
    details = {"e^(βt)·∫_t^∞ Ce^(−βs) ds": str(sup_scaled), "∫_t^∞ Ce^(−β(s−t)) ds": str(integral),
               "K·C − C/β": str(gap)}
    if gap == 0 or (gap.is_nonnegative is True):
        return Proof(True, "every β, C > 0 (the bound is attained by y_t = (C/β)e^(−βt))",
                     "SymPy: e^(βt)|y_t| ≤ e^(βt)∫_t^∞ Ce^(−βs) ds = C/β, with equality for the extremal y",
                     details=details, general=True)
    for b in (sp.Rational(1, 2), sp.Rational(1, 4), sp.Integer(2), sp.Integer(1)):
        value = gap.subs({beta: b, c: 1})
        if value.is_negative:
            return Proof(False, f"β = {b}, C = 1",
                         "SymPy: the extremal y_t = (C/β)e^(−βt) satisfies the hypotheses and "
                         "e^(βt)y_t = C/β",
                         counterexample={"β": str(b), "C": "1", "y_t": f"{1 / b}·e^(−{b}t)",
                                         "|d/dt y_t|": f"e^(−{b}t) = Ce^(−βt)",
                                         "e^(βt)|y_t|": str(1 / b),
                                         "claimed bound K·C": str(k.subs(beta, b))},
                         details=details)
    return Proof(None, "sample β", "no exact witness found", details=details)


def sketch_holds(statement: ImpulseSketch, beta: Fraction, c: Fraction) -> tuple[bool, dict[str, str]]:
    """Exact judge of one instance (β, C): the extremal y gives sup_t e^{βt}|y_t| = C/β, computed
    from its antiderivative: ∫_t^∞ Ce^{−βs} ds = (C/β)e^{−βt}."""
    sup_scaled = c / beta
    k = statement.constant(beta)
    return sup_scaled <= k * c, {"β": str(beta), "C": str(c),
                                 "sup_t e^(βt)|y_t| (extremal y)": str(sup_scaled),
                                 "claimed bound K·C": str(k * c)}
