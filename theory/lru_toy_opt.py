"""L App. E.2, "Benefits of exponential parameterization": the learning-powers problem.

The paper minimises L(λ̂) = ½|λ̂^k − (λ*)^k|², k = 100, with λ̂ = exp(−ν + iθ) (exponential) or
λ̂ = λ_r + iλ_i (standard), and writes: "the real part of λ^k is simply exp(−kν) using exponential
parameterization, if standard parameterization is used, Re[λ^k] is a function of both λ_r and λ_i
… for exponential parameterization gradients are fully aligned with the phase parameter".

For λ = exp(−ν + iθ) and integer k, λ^k = exp(−kν + ikθ), so Re[λ^k] = e^{−kν}cos(kθ) and
|λ^k| = e^{−kν}: the printed "real part" is the modulus (equal to Re only where kθ ∈ 2πℤ).
In the setting of Fig. 8 (the magnitude is right, ν = ν*, the phase is off by Δ = θ − θ*):

    L = ½(e^{−2kν} + e^{−2kν*}) − e^{−k(ν+ν*)}cos(kΔ),
    ∂_ν L = k e^{−2kν*}(cos kΔ − 1) = −2k e^{−2kν*} sin²(kΔ/2),   ∂_θ L = k e^{−2kν*} sin kΔ,

so ∂_ν L / ∂_θ L = −tan(kΔ/2): the gradient is along the phase axis only to first order in kΔ
(exactly only where it vanishes), not "fully aligned". :class:`PowerReal`, :class:`PhaseGradient`
and :class:`StandardCoupling` are the three statements; each formula is written once here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero
from recmem.theory.statement import Control, Statement

K_PAPER = 100  # "where k = 100"


@dataclass(frozen=True)
class PowerReal(Statement):
    """L App. E.2: for λ = exp(−ν + iθ), Re[λ^k] = e^{sign·(k + exp_shift)·ν}·(cos kθ if
    ``with_phase``). Printed: ``with_phase=False`` ("simply exp(−kν)"); corrected: with cos kθ."""

    k: int = K_PAPER
    with_phase: bool = False
    sign: int = -1
    exp_shift: int = 0

    @property
    def text(self) -> str:
        rate = f"{'−' if self.sign < 0 else ''}{self.k + self.exp_shift}ν"
        tail = f"·cos({self.k}θ)" if self.with_phase else ""
        return (f"for λ = exp(−ν + iθ) with ν, θ real and k = {self.k}: "
                f"Re[λ^{self.k}] = exp({rate}){tail}")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of the exponent flipped", replace(self, sign=-self.sign)),
                Control("exponent k·ν → (k + 1)·ν (near)", replace(self, exp_shift=1)))

    def formula(self, nu: Any, theta: Any, exp: Callable[[Any], Any],
                cos: Callable[[Any], Any]) -> Any:
        """The statement's value of Re[λ^k] in any arithmetic (SymPy, floats, mpmath)."""
        value = exp(nu * (self.sign * (self.k + self.exp_shift)))
        return value * cos(theta * self.k) if self.with_phase else value


@dataclass(frozen=True)
class PhaseGradient(Statement):
    """L App. E.2 (Fig. 8's "turn" setting): with λ̂ = exp(−ν + iθ), λ* = exp(−ν* + iθ*),
    ν = ν* and Δ = θ − θ*, the gradient of L = ½|λ̂^k − (λ*)^k|² is ∂_ν L = 0 if ``aligned``
    (printed: "fully aligned with the phase parameter"), else k e^{−2kν}(cos k'Δ − 1), and
    ∂_θ L = θ_sign·k e^{−decay·kν} sin k'Δ, k' = k + phase_shift."""

    k: int = K_PAPER
    aligned: bool = True
    theta_sign: int = 1
    decay: int = 2
    phase_shift: int = 0

    @property
    def text(self) -> str:
        kk, d = self.k + self.phase_shift, self.decay
        nu = ("∂_ν L = 0 (fully aligned with the phase parameter)" if self.aligned
              else f"∂_ν L = {self.k}·e^(−{d}·{self.k}ν)(cos({kk}Δ) − 1)")
        s = "" if self.theta_sign > 0 else "−"
        return (f"for L = ½|λ̂^{self.k} − (λ*)^{self.k}|², λ̂ = exp(−ν + iθ), λ* = exp(−ν* + iθ*), "
                f"at the correct magnitude ν = ν* with Δ = θ − θ*: {nu} and "
                f"∂_θ L = {s}{self.k}·e^(−{d}·{self.k}ν) sin({kk}Δ)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of ∂_θ L flipped", replace(self, theta_sign=-self.theta_sign)),
                Control("decay e^(−2kν) → e^(−kν)", replace(self, decay=1)),
                Control("phase kΔ → (k + 1)Δ (near)", replace(self, phase_shift=1)))

    def gradient(self, nu: Any, delta: Any, exp: Callable[[Any], Any], cos: Callable[[Any], Any],
                 sin: Callable[[Any], Any], k: Any = None) -> tuple[Any, Any]:
        """(∂_ν L, ∂_θ L) at ν = ν* as the statement gives them, in any arithmetic (``k``: the
        power, default the statement's; a SymPy symbol for the general derivation)."""
        k = self.k if k is None else k
        scale = exp(nu * (-self.decay * k)) * k
        phase = delta * (k + self.phase_shift)
        g_nu = scale * 0 if self.aligned else scale * (cos(phase) - 1)
        return g_nu, scale * sin(phase) * self.theta_sign


@dataclass(frozen=True)
class StandardCoupling(Statement):
    """L App. E.2: under the standard parameterisation λ = λ_r + iλ_i, Re[λ^k] depends on both
    λ_r and λ_i (neither partial derivative vanishes identically), k = 100."""

    k: int = K_PAPER

    @property
    def text(self) -> str:
        return (f"with λ = λ_r + iλ_i (standard parameterisation) and k = {self.k}, Re[λ^{self.k}] "
                "is a function of both λ_r and λ_i: ∂/∂λ_r and ∂/∂λ_i of it are not identically 0")

    def controls(self) -> tuple[Control, ...]:
        return (Control("k = 1 (Re λ = λ_r)", replace(self, k=1)),
                Control("k = 0 (Re λ⁰ = 1)", replace(self, k=0)))


# ---- symbolic sides -----------------------------------------------------------------------------

def _counter(holds: bool | None, witness: dict[str, Any], scope: str, method: str,
             general: bool) -> Proof:
    if holds is False:
        return Proof(False, scope, method, counterexample={k: str(v) for k, v in witness.items()})
    if holds is None:
        return Proof(None, scope, method + "; SymPy could not decide", details=witness)
    return Proof(True, scope, method, general=general)


def power_real_proof(st: PowerReal) -> Proof:
    """Re[exp(k(−ν + iθ))] by SymPy for real symbols ν, θ against the statement's formula
    (general in ν, θ; a nonzero difference shown at ν = 0, θ = π/k, where λ^k = −1)."""
    import sympy as sp

    nu, th = sp.symbols("nu theta", real=True)
    truth = sp.re(sp.exp(st.k * (-nu + sp.I * th)))
    diff = truth - st.formula(nu, th, sp.exp, sp.cos)
    points = [{nu: 0, th: sp.pi / max(st.k, 1)}, {nu: sp.Rational(1, 100), th: sp.Rational(1, 7)}]
    # expansion decides the identity (both sides are products of exp and cos atoms); SymPy's
    # simplify can stall factoring a false one, which the exact points decide instead
    ok, witness = decide_zero(diff, points, simplify=sp.expand)
    return _counter(ok, {"Re[λ^k] (SymPy)": truth, **witness}, "all real ν, θ",
                    "SymPy: re(exp(k(−ν + iθ))) minus the statement's formula", general=True)


def decide_constant(d: Any) -> tuple[bool | None, dict[str, Any]]:
    """Decide a constant SymPy expression exactly: zero when it cancels to 0 as a rational
    function of its algebraic and transcendental parts (sinc and e^{ix} written with sin, cos),
    nonzero when SymPy's evalf reaches 60 correct digits (``strict``: it raises rather than
    return an unreliable value) and they are not all zero; SymPy's simplify last."""
    import sympy as sp

    d = sp.sympify(d)
    if sp.cancel(sp.powsimp(sp.expand(sp.expand_complex(d.rewrite(sp.sin))))) == 0:
        return True, {}
    try:
        value = d.evalf(60, strict=True)
    except Exception:  # PrecisionExhausted and friends: go on to simplify
        value = None
    if value is not None and value != 0:
        return False, {"difference": str(d), "difference (60 digits)": str(value)}
    return decide_zero(d)


def power_real_instance(st: PowerReal, nu: Fraction, turns: Fraction) -> tuple[bool | None,
                                                                                 dict[str, str]]:
    """Decide the statement at ν and θ = turns·π/k exactly (SymPy: kθ = turns·π, whose cosine
    SymPy evaluates exactly for the small denominators the search draws; a nonzero difference is
    decided by SymPy's guaranteed-precision sign)."""
    import sympy as sp

    n, th = sp.Rational(nu.numerator, nu.denominator), sp.pi * sp.Rational(turns.numerator,
                                                                           turns.denominator) / st.k
    truth = sp.exp(-st.k * n) * sp.cos(st.k * th)
    claimed = st.formula(n, th, sp.exp, sp.cos)
    ok, witness = decide_constant(truth - claimed)
    return ok, {"ν": str(nu), "θ": f"{turns}·π/{st.k}", "Re[λ^k]": str(truth), "statement": str(claimed),
                **{k: str(v) for k, v in witness.items()}}


def loss_expr(sp: Any, k: Any) -> tuple[Any, tuple[Any, ...]]:
    """L(ν, θ) = ½|exp(k(−ν + iθ)) − exp(k(−ν* + iθ*))|² for real symbols, by SymPy's re/im."""
    nu, th, nus, ths = sp.symbols("nu theta nu_s theta_s", real=True)
    w = sp.exp(k * (-nu + sp.I * th)) - sp.exp(k * (-nus + sp.I * ths))
    return (sp.re(w) ** 2 + sp.im(w) ** 2) / 2, (nu, th, nus, ths)


def phase_gradient_proof(st: PhaseGradient) -> Proof:
    """∂L/∂ν and ∂L/∂θ by SymPy from the loss, for a symbolic power k ≥ 1 (so in particular
    k = 100) and all real ν* = ν, θ, θ*, against the statement's gradient; a nonzero difference
    shown at k = 100, ν* = 0, θ* = 0, Δ = π/(2k) (kΔ = π/2)."""
    import sympy as sp

    k = sp.Symbol("k", positive=True, integer=True)
    loss, (nu, th, nus, ths) = loss_expr(sp, k)
    delta = sp.Symbol("Delta", real=True)
    at = {nu: nus, th: ths + delta}
    g_nu, g_th = (sp.diff(loss, v).subs(at) for v in (nu, th))
    c_nu, c_th = st.gradient(nus, delta, sp.exp, sp.cos, sp.sin, k=k)
    points = [{k: st.k, nus: 0, ths: 0, delta: sp.pi / (2 * st.k)},
              {k: st.k, nus: sp.Rational(1, st.k), ths: 0, delta: sp.pi / (2 * st.k)},
              {k: st.k, nus: 0, ths: 1, delta: sp.Rational(1, 3)}]

    def simp(e: Any) -> Any:  # cos/sin of k(θ* + Δ): the angle-sum rule only (k symbolic)
        e = sp.expand(sp.expand_trig(sp.expand(e)))
        return sp.expand(e.replace(lambda x: x.is_Pow and x.exp == 2 and isinstance(x.base, sp.sin),
                                   lambda x: 1 - sp.cos(x.base.args[0]) ** 2))

    for name, d in (("∂_ν L", g_nu - c_nu), ("∂_θ L", g_th - c_th)):
        ok, witness = decide_zero(d, points, simplify=simp)
        if ok is not True:
            return _counter(ok, {"component": name, **witness}, "every k ≥ 1 and real ν* = ν, θ, θ*",
                            "SymPy: derivatives of ½|λ̂^k − (λ*)^k|² at ν = ν*", general=True)
    return Proof(True, "every k ≥ 1 and real ν* = ν, θ, θ*",
                 "SymPy: derivatives of ½|λ̂^k − (λ*)^k|² at ν = ν*", general=True)


@functools.cache
def _gradient_exprs(k: int) -> tuple[Any, Any, tuple[Any, ...]]:
    """(∂L/∂ν, ∂L/∂θ, symbols) of the loss at ν* = ν, θ* = 0, by SymPy once per k."""
    import sympy as sp

    loss, syms = loss_expr(sp, k)
    at = {syms[2]: syms[0], syms[3]: 0}
    return (sp.simplify(sp.diff(loss, syms[0]).subs(at)), sp.simplify(sp.diff(loss, syms[1]).subs(at)),
            syms)


def phase_gradient_instance(st: PhaseGradient, nu: Fraction, turns: Fraction
                            ) -> tuple[bool | None, dict[str, str]]:
    """Decide the statement at ν = ν* and Δ = turns·π/k exactly (SymPy), from the loss's
    derivatives (θ* = 0: L depends on θ, θ* through Δ only)."""
    import sympy as sp

    g_nu, g_th, (v, th, nus, ths) = _gradient_exprs(st.k)
    n = sp.Rational(nu.numerator, nu.denominator)
    delta = sp.pi * sp.Rational(turns.numerator, turns.denominator) / st.k
    at = {v: n, nus: n, th: delta, ths: 0}
    truth = [g.subs(at) for g in (g_nu, g_th)]
    claimed = st.gradient(n, delta, sp.exp, sp.cos, sp.sin)
    values = {"ν = ν*": str(nu), "Δ": f"{turns}·π/{st.k}"}
    for name, t, c in zip(("∂_ν L", "∂_θ L"), truth, claimed, strict=True):
        ok, witness = decide_constant(t - c)
        values[name] = f"{t} (statement: {c})"
        if ok is not True:
            return ok, {**values, **{k: str(x) for k, x in witness.items()}}
    return True, values


def coupling_proof(st: StandardCoupling) -> Proof:
    """Re[(a + ib)^k] as a polynomial (SymPy); both partial derivatives nonzero polynomials
    (general: a polynomial identity), each shown nonzero at an exact point."""
    import sympy as sp

    a, b = sp.symbols("lambda_r lambda_i", real=True)
    re = sp.expand(sp.re(sp.expand((a + sp.I * b) ** st.k)))
    details: dict[str, Any] = {}
    for name, var in (("∂/∂λ_r", a), ("∂/∂λ_i", b)):
        d = sp.Poly(sp.diff(re, var), a, b)
        details[name] = f"{len(d.terms())} terms" if not d.is_zero else "0"
        if d.is_zero:
            return Proof(False, "all real λ_r, λ_i", "SymPy: Re[(λ_r + iλ_i)^k] as a polynomial",
                         counterexample={"Re[λ^k]": str(re), name: "0 identically"})
        details[f"{name} at (1, 1)"] = str(d.eval({a: 1, b: 1}))
    return Proof(True, "all real λ_r, λ_i", "SymPy: Re[(λ_r + iλ_i)^k] as a polynomial; both "
                 "partial derivatives are nonzero polynomials", details=details, general=True)
