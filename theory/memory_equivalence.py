"""Paper W, App. H (ICLR 2024 camera-ready): "qualitative equivalence of different memory function
definitions", and its "why special inputs" argument.

Printed (App. H): "In Figure 10, we show that the memory functions evaluated over different test
inputs are qualitatively equivalent … here we show they all characterize the decay speed of the
model's memory of a impulse change at time t = 0", with the impulse-inputs-based memory
ρ_T := sup_{x≠0} |y_T(i^x)|/|x| = sup_{x≠0} H_T((x, 0, …))/|x| (App. F eq. (119)) beside the
Heaviside memory of Def. 3.1 eq. (5). Figure 10's models are RNNs; App. F and G show the
equivalence "in linear functional sense".

:class:`MemoryEquivalence` reads "qualitatively equivalent / characterise the decay speed" as: the
two memory functions decay at the same exponential speed, γ(M_heav) = factor·γ(M_imp) with
γ(M) := liminf_{t→∞} −log M(t)/t ∈ [0, ∞] (factor 1 as printed; γ > 0 iff M decays exponentially in
the sense of eq. (7), so equal speeds include the weaker "one has an exponentially decaying memory
iff the other has").

- Over RNNs (1) with σ ∈ 𝒜₀ (Figure 10's class; ``scope='rnn'``) it fails: the scalar hardtanh RNN
  h' = hardtanh(wh + ux), ŷ = ch (w < 0, b = 0) has the Heaviside memory cu/(|w|t + 1)
  (:func:`recmem.theory.memory_defs.hardtanh_memory`, γ = 0) but the impulse memory
  cu·(e^{|w|δ} − 1)/(|w|δ)·e^{−|w|t} for a pulse (x/δ)·1_[0,δ) of width 0 < δ ≤ 1/|w|
  (:func:`impulse_memory`, γ = |w|); the Dirac reading (δ → 0 for each x) gives M_imp ≡ 0 (γ = ∞).
  Derivation of the pulse memory: while |z| ≤ 1 (z = wh + ux/δ) the RNN is linear; an input with
  u·x/δ ≤ 1 stays there (z decreases in |·| during the pulse, and after it |wh(δ)| ≤ |w|δ ≤ 1), so
  its ratio c·h(t)/x is the linear one above; a larger input has h(δ) ≤ the linear solution
  (hardtanh(z) ≤ z for z ≥ 0, comparison principle) and |wh(δ)| ≤ |w|δ ≤ 1 (|h'| ≤ 1), after which the
  decay is linear: its ratio is no larger.
- Over linear functionals (3) with the Dirac impulse (``scope='linear'``, width 0) it holds: both
  memories are |ρ(t)|₁ (eq. (4) and (120), W.memory-linear / W.memory-impulse), so γ agrees for
  every ρ.

:class:`IdentityInputs` is App. H's "why special inputs": the identity functional H_t(x) = x_t takes
x_t = 1/t to y_t = 1/t, yet "changing x_0 does not influence the output of y_t with t > 0": its
memory functions over Heaviside (5), impulse (119) and reversed (126) inputs vanish for t > 0.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, Step, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

SCOPES = ("rnn", "linear")
_SCOPE_TEXT = {
    "rnn": "RNN (1) with σ ∈ 𝒜₀ ∪ 𝒜₁ (the models of Figure 10)",
    "linear": "linear functional (3) (the setting of App. F and G)",
}
# A decay rate γ ∈ [0, ∞]: a Fraction, or INFINITE (a memory that vanishes identically).
INFINITE = "∞"


# ---------------------------------------------------------------------------------------------
# exact memories of the witnesses


def impulse_memory(w: Fraction, u: Fraction, c: Fraction, width: Fraction, t: Any, exp: Any) -> Any:
    """sup_{x≠0} |H_t(p^x)|/|x| of the scalar hardtanh RNN h' = hardtanh(wh + ux), ŷ = ch (w < 0,
    b = 0) for the pulse p^x = (x/δ)·1_[0,δ), 0 < δ = ``width`` ≤ 1/|w|, t ≥ δ (module docstring):
    |cu|·(e^{|w|δ} − 1)/(|w|δ)·e^{−|w|t}; ``exp`` is the exponential of the arithmetic (sympy, mpmath,
    math)."""
    if not (w < 0 and 0 < width <= 1 / -w):
        raise ValueError("the closed form needs w < 0 and 0 < δ ≤ 1/|w|")
    a = -w
    return abs(c * u) * (exp(a * width) - 1) / (a * width) * exp(-a * t)


def exp_rate(coeffs: tuple[Fraction, ...], rates: tuple[Fraction, ...]) -> Fraction | str:
    """γ(|ρ|) for ρ(t) = Σ_i c_i e^{−r_i t} (r_i ≥ 0): the smallest rate whose combined coefficient
    is nonzero (that term dominates as t → ∞); ∞ when ρ ≡ 0."""
    total: dict[Fraction, Fraction] = {}
    for ci, ri in zip(coeffs, rates, strict=True):
        total[ri] = total.get(ri, Fraction(0)) + ci
    live = [r for r, v in total.items() if v != 0]
    return min(live) if live else INFINITE


@dataclass(frozen=True)
class MemoryEquivalence(Statement):
    """App. H: for every functional of ``scope``, the memory over Heaviside inputs (Def. 3.1 eq. (5))
    and the memory over impulse inputs (App. F eq. (119), the impulse a pulse (x/δ)·1_[0,δ) of width
    δ = ``width``; 0: the Dirac limit) decay at the same speed: γ(M_heav) = ``factor``·γ(M_imp)."""

    scope: str = "rnn"
    width: Fraction = Fraction(1)
    factor: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if self.scope not in SCOPES or self.width < 0 or self.factor <= 0 or (
                self.scope == "linear" and self.width != 0):
            raise ValueError(f"not a MemoryEquivalence statement: {self!r}")

    @property
    def text(self) -> str:
        imp = ("the Dirac impulse x·δ₀ (limit of (x/δ)·1_[0,δ))" if self.width == 0 else
               f"the impulse (x/δ)·1_[0,δ) of width δ = {self.width}")
        fac = "" if self.factor == 1 else f"({self.factor})·"
        return (f"For every {_SCOPE_TEXT[self.scope]}, the memory functions over Heaviside inputs "
                f"(Def. 3.1, eq. (5)) and over impulse inputs (App. F eq. (119), App. H's ρ_T; {imp}) "
                f"decay at the same speed: γ(M_heav) = {fac}γ(M_imp), γ(M) := liminf_(t→∞) −log M(t)/t "
                "(so one decays exponentially, eq. (7), iff the other does)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("factor on the impulse memory's rate times 65/64 (near control)",
                        replace(self, factor=self.factor * Fraction(65, 64))),
                Control("factor on the impulse memory's rate halved",
                        replace(self, factor=self.factor / 2)))

    def relation(self, gamma_heav: Any, gamma_imp: Any) -> bool:
        """The statement's relation between two exact rates (Fractions or :data:`INFINITE`)."""
        if INFINITE in (gamma_heav, gamma_imp):
            return gamma_heav == gamma_imp
        return bool(gamma_heav == self.factor * gamma_imp)

    def slope_residual(self, s_heav: Any, s_imp: Any, number: Any = lambda q: q) -> Any:
        """|s_heav − factor·s_imp| for finite-time decay slopes in any arithmetic."""
        return abs(s_heav - number(self.factor) * s_imp)


def _pulse_derivation() -> Proof:
    """SymPy: the linear-regime pulse response of h' = wh + u·a (a = x/δ on [0, δ), then 0) from
    rest, its ratio c·h(t)/x, and the two rates γ(cu/(|w|t + 1)) = 0, γ(impulse memory) = |w|."""
    import sympy as sp

    s, t, a, dl = sp.symbols("s t a delta", positive=True)
    w = sp.Symbol("w", negative=True)
    u, c, x = sp.symbols("u c x", positive=True)
    h_on = u * a / (-w) * (1 - sp.exp(w * s))          # on [0, δ): h' = wh + ua, h(0) = 0
    h_off = h_on.subs(s, dl) * sp.exp(w * (t - dl))     # after δ: h' = wh
    at = [{s: sp.Rational(1, 3), t: 2, a: sp.Rational(1, 2), dl: sp.Rational(1, 2), w: -1, u: 1,
           c: 1, x: sp.Rational(1, 4)}]
    ratio = (c * h_off / x).subs(a, x / dl)
    closed = impulse_memory(sp.Integer(-1), sp.Integer(1), sp.Integer(1), sp.Rational(1, 2), t, sp.exp)
    steps: dict[str, Step] = {
        "h_on solves h' = wh + ua, h(0) = 0": decide_zeros(
            [sp.diff(h_on, s) - (w * h_on + u * a), h_on.subs(s, 0)], points=at),
        "h_off solves h' = wh, h_off(δ) = h_on(δ)": decide_zeros(
            [sp.diff(h_off, t) - w * h_off, h_off.subs(t, dl) - h_on.subs(s, dl)], points=at),
        "ratio c·h(t)/x = impulse_memory (w = −1, u = c = 1, δ = 1/2)": decide_zeros(
            [ratio.subs({w: -1, u: 1, c: 1, dl: sp.Rational(1, 2)}) - closed], points=at),
        "γ(cu/(|w|t + 1)) = 0": decide_zeros(
            [sp.limit(sp.log(-w * t + 1) / t, t, sp.oo).subs(w, -1)]),
        "γ(impulse memory) = |w|": decide_zeros(
            [sp.limit(-sp.log(impulse_memory(sp.Integer(-2), sp.Integer(1), sp.Integer(1),
                                             sp.Rational(1, 2), t, sp.exp)) / t, t, sp.oo) - 2]),
    }
    return proof_from_steps(steps, "the scalar hardtanh RNN", "SymPy: pulse response in the linear "
                            "regime and the limits −log M(t)/t")


@functools.cache
def rnn_witness() -> Proof:
    """The scalar hardtanh witness's two memories, derived (the Heaviside one by
    :func:`recmem.theory.memory_defs.hardtanh_memory_proof`)."""
    from recmem.theory.memory_defs import hardtanh_memory_proof

    heav = hardtanh_memory_proof()
    if heav.holds is not True:
        return heav
    pulse = _pulse_derivation()
    if pulse.holds is not True:
        return pulse
    return Proof(True, "the scalar hardtanh RNN", "SymPy", details={**heav.details, **pulse.details})


def memory_equivalence_proof(statement: MemoryEquivalence) -> Proof:
    """Decide ``statement``. ``rnn``: the exact rates of the hardtanh witness (γ_heav = 0; γ_imp = |w|
    for a pulse, ∞ for the Dirac reading) against :meth:`MemoryEquivalence.relation`. ``linear``: both
    memories are |ρ(t)|₁ for every ρ (W eq. (4), (120); decided by
    :func:`recmem.theory.memory_linear.linear_memory_proof`), so the relation must hold for
    γ_heav = γ_imp = γ at every γ ∈ [0, ∞]: decided with γ symbolic, and at ρ = e^{−t} (γ = 1)."""
    import sympy as sp

    if statement.scope == "linear":
        from recmem.theory.memory_linear import LinearMemory, linear_memory_proof

        same = linear_memory_proof(LinearMemory(inputs=("heaviside", "impulse"), impulse="dirac"))
        if same.holds is not True:
            return same
        g = sp.Symbol("gamma", nonnegative=True)
        fac = sp.Rational(statement.factor.numerator, statement.factor.denominator)
        ok, witness = decide_zeros([g - fac * g], points=[{g: 1}])
        if ok is True and statement.relation(INFINITE, INFINITE):
            return Proof(True, "every linear functional (3) with ρ continuous at t > 0",
                         "SymPy: M_heav = M_imp = |ρ(t)|₁ (linear_memory_proof), so γ(M_heav) = γ(M_imp)",
                         details=same.details, general=True)
        if ok is False:
            return Proof(False, "the linear functional with ρ(t) = e^(−t) (d = 1)",
                         "both memories are e^(−t), γ = 1",
                         counterexample={"ρ(t)": "e^(−t)", "M_heav(t) = M_imp(t)": "e^(−t)",
                                         "γ(M_heav)": "1", f"{statement.factor}·γ(M_imp)":
                                         str(statement.factor), **witness})
        return Proof(None, "linear functionals", "SymPy could not decide γ − factor·γ = 0")
    derivation = rnn_witness()
    if derivation.holds is not True:
        return derivation
    w = Fraction(-1)
    g_imp: Fraction | str = INFINITE if statement.width == 0 else -w
    if statement.width > 1 / -w:
        return Proof(None, f"width δ = {statement.width}", "the witness's closed form needs δ ≤ 1/|w| = 1")
    if statement.relation(Fraction(0), g_imp):
        return Proof(True, "the scalar hardtanh RNN only", "exact rates", details=derivation.details)
    imp = ("≡ 0 (Dirac reading: the state moves by at most δ during a pulse of width δ)"
           if statement.width == 0 else
           f"(e^{statement.width} − 1)/{statement.width}·e^(−t)")
    return Proof(False, "the scalar RNN h' = hardtanh(−h + x), ŷ = h (w = −1, u = c = 1, b = 0; "
                 "hardtanh ∈ 𝒜₀, W Hurwitz)",
                 "exact memories (SymPy checks the derivations): the Heaviside one decays like 1/t, "
                 "the impulse one exponentially",
                 counterexample={"RNN": "h' = hardtanh(−h + x), ŷ = h",
                                 "M_heav(t) (Def. 3.1)": "1/(t + 1)", "γ(M_heav)": "0",
                                 "M_imp(t) (App. F/H)": imp, "γ(M_imp)": str(g_imp),
                                 "claimed": f"γ(M_heav) = {statement.factor}·γ(M_imp)"},
                 details=derivation.details)


def judge_instance(statement: MemoryEquivalence, instance: tuple[Any, ...]) -> tuple[bool, dict[str, str]]:
    """Exact judge of one witness: ``('rnn', w, u, c)`` (scalar hardtanh RNN, w ∈ [−1, 0)) or
    ``('linear', coeffs, rates)`` (ρ(t) = Σ c_i e^{−r_i t}, d = 1). Exact rates of both memories
    (module docstring) against the statement's relation."""
    if instance[0] == "rnn":
        _, w, u, c = instance
        if statement.width == 0:
            g_imp: Fraction | str = INFINITE
        elif statement.width <= 1 / -w:
            g_imp = -w
        else:  # outside the closed form's range: δ ≤ 1/|w| is needed
            raise ValueError("the strategy draws w with δ ≤ 1/|w|")
        g_heav: Fraction | str = Fraction(0)
        values = {"RNN": f"h' = hardtanh({w}h + {u}x), ŷ = {c}h",
                  "M_heav(t)": f"{abs(c * u)}/({-w}t + 1)", "γ(M_heav)": "0",
                  "γ(M_imp)": str(g_imp)}
    else:
        _, coeffs, rates = instance
        g_heav = g_imp = exp_rate(tuple(coeffs), tuple(rates))
        values = {"ρ(t)": " + ".join(f"{ci}·e^(−{ri}t)" for ci, ri in zip(coeffs, rates, strict=True)),
                  "M_heav = M_imp": "|ρ(t)| (eq. (4), (120))", "γ": str(g_heav)}
    return statement.relation(g_heav, g_imp), values


# ---------------------------------------------------------------------------------------------
# why special inputs: the identity functional


@dataclass(frozen=True)
class IdentityInputs(Statement):
    """App. H, "why special inputs": the identity functional H_t(x) = x_t takes x_t = 1/t (t > 0) to
    y_t = t^``power`` (printed: −1, "a polynomial decaying output y_t = 1/t"), while its memory
    functions over Heaviside (5), impulse (119) and reversed (126) inputs are, for every t > 0,
    ``memory`` (printed: ``zero``, "changing x_0 does not influence the output of y_t with t > 0";
    ``output``: the output's decay 1/t, the reading App. H warns against)."""

    power: int = -1
    memory: str = "zero"

    def __post_init__(self) -> None:
        if self.memory not in ("zero", "output"):
            raise ValueError(f"not an IdentityInputs statement: {self!r}")

    @property
    def text(self) -> str:
        mem = "0" if self.memory == "zero" else "1/t (the output's decay)"
        return (f"The identity functional H_t(x) = x_t maps x_t = 1/t (t > 0) to y_t = t^({self.power}), "
                f"and its memory functions over Heaviside (eq. (5)), impulse (eq. (119)) and reversed "
                f"(eq. (126)) inputs equal {mem} for every t > 0")

    def controls(self) -> tuple[Control, ...]:
        return (Control("output power lowered by one", replace(self, power=self.power - 1)),
                Control("memory taken to be the output's decay 1/t",
                        replace(self, memory="output" if self.memory == "zero" else "zero")))

    def output(self, t: Any) -> Any:
        """The claimed y_t in any arithmetic (t a scalar of it)."""
        return t**self.power

    def memory_at(self, t: Any) -> Any:
        """The claimed memory at t > 0 in any arithmetic."""
        return t * 0 if self.memory == "zero" else 1 / t


def identity_proof(statement: IdentityInputs) -> Proof:
    """SymPy for every t > 0: H_t(x) = x_t on x_t = 1/t; H_t(u^x) = x·θ(t), H_t(i^x) = x·δ(t) (Dirac)
    or x·[t = 0] (literal), H_t(r^x) = x·θ(−t): the Heaviside and reversed queries' t-derivatives and
    the impulse query vanish at every t > 0; each against the statement's claimed value."""
    import sympy as sp

    t = sp.Symbol("t", positive=True)
    x = sp.Symbol("x", nonzero=True)
    y = (1 / t)  # H_t(x) = x_t with x_t = 1/t
    queries = {"Heaviside: d/dt H_t(u^x)": sp.diff(x * sp.Heaviside(t), t),
               "impulse (Dirac): H_t(i^x)": x * sp.DiracDelta(t),
               "impulse (literal): H_t(i^x)": sp.Piecewise((x, sp.Eq(t, 0)), (0, True)),
               "reversed: d/dt H_t(r^x)": sp.diff(x * sp.Heaviside(-t), t)}
    pts = [{t: sp.Rational(1, 2), x: 1}, {t: 2, x: 1}]
    out_diff = decide_zeros([y - statement.output(t)], points=pts)
    mem_diffs = {name: decide_zeros([sp.simplify(q) / x - statement.memory_at(t)], points=pts)
                 for name, q in queries.items()}
    bad = [(n, d) for n, d in [("y_t", out_diff), *mem_diffs.items()] if d[0] is False]
    if bad:
        name, (_, witness) = bad[0]
        return Proof(False, "the identity functional H_t(x) = x_t", "SymPy",
                     counterexample={"quantity": name, **{k: str(v) for k, v in witness.items()}})
    if any(d[0] is None for d in [out_diff, *mem_diffs.values()]):
        return Proof(None, "t > 0", "SymPy could not decide every quantity")
    return Proof(True, "every t > 0 and x ≠ 0", "SymPy: θ'(t) = δ(t) = 0 and [t = 0] = 0 for t > 0",
                 details={k: "0 for t > 0" for k in queries}, general=True)
