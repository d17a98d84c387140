"""Paper L §4 "Insights on S4 and Variants", the checkable assertions, written once.

- :class:`S4DLinSpectrum`: S4D-Lin ã_n = −1/2 + iπn under exp(Δ·): eigenvalues exp(−Δ/2 + iπΔn),
  magnitude exp(−Δ/2) ≈ 0.9995 and phases πΔn ≈∈ [0, π/8] at Δ = 10⁻³, N = 128.
- :class:`FirstOrder`: (e^{Δa} − 1)/a = ΔB̃'s multiplier Δ to first order in Δ.
- :class:`EulerRecurrence`: the recurrence with that multiplier, H = 1, B̃ = 1_N, as printed
  "x_k = exp(Δã) + Δ1_N u_k".
- :class:`UnrolledBound`: |x_{k,i}| ≤ Σ_{j=0}^{k−1} |exp(Δã_i)|^j u_{k−j,i} for the recurrence
  without the Δ in front of u.
- :class:`DeltaOrder`: that bound's k → ∞ limit for |u| ≤ 1 is of order Δ^{−1}.

Every formula is a method evaluated over any field (SymPy, mpmath, flint, numpy, torch).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class S4DLinSpectrum(Statement):
    """§2/§4: with ã_n = re + iπn (n = 1 … N) the eigenvalues of exp(ΔÃ) are exp(reΔ + iπΔn);
    their magnitude rounds to ``magnitude`` at ``decimals`` decimals and the largest phase
    πΔN is π/``phase_den`` to one significant digit of the denominator (reading of "≈∈")."""

    delta: Fraction = Fraction(1, 1000)
    n_state: int = 128
    re: Fraction = Fraction(-1, 2)
    magnitude: Fraction = Fraction(9995, 10000)
    decimals: int = 4
    phase_den: int = 8

    @property
    def text(self) -> str:
        return (f"ã_n = {self.re} + iπn, Δ = {self.delta}, N = {self.n_state}: eig exp(ΔÃ) = "
                f"exp({self.re}Δ + iπΔn), |·| ≈ {float(self.magnitude)} "
                f"({self.decimals} decimals), phases πΔn ∈≈ [0, π/{self.phase_den}]")

    def controls(self) -> tuple[Control, ...]:
        return (Control("real part −1/2 → −1", replace(self, re=2 * self.re)),
                Control("phase range π/8 → π/4", replace(self, phase_den=self.phase_den // 2)),
                Control("magnitude 0.9995 → 0.9990", replace(
                    self, magnitude=self.magnitude - Fraction(5, 10**self.decimals))))

    def eigenvalue(self, n: Any, delta: Any, i_pi: Any) -> Any:
        """The printed eigenvalue's exponent reΔ + iπΔn (``i_pi`` = iπ in the field)."""
        return delta * self.re.numerator / self.re.denominator + i_pi * delta * n


@dataclass(frozen=True)
class FirstOrder(Statement):
    """§4: (e^{Δa} − 1)/a = coeff·Δ^power + O(Δ^{power+1}) as Δ → 0, every a ∈ ℂ∖0 (printed
    coeff 1, power 1: "its first-order expansion in Δ, i.e. ΔB̃")."""

    coeff: Fraction = Fraction(1)
    power: int = 1

    @property
    def text(self) -> str:
        c = "" if self.coeff == 1 else f"{self.coeff}·"
        return f"(e^(Δa) − 1)/a = {c}Δ^{self.power} + O(Δ^{self.power + 1}) as Δ → 0, a ≠ 0"

    def controls(self) -> tuple[Control, ...]:
        return (Control("coefficient halved", replace(self, coeff=self.coeff / 2)),
                Control("power raised by one", replace(self, power=self.power + 1)))

    def leading(self, delta: Any) -> Any:
        """coeff·Δ^power over any field (the Fraction enters as integer operations)."""
        return delta**self.power * self.coeff.numerator / self.coeff.denominator


@dataclass(frozen=True)
class EulerRecurrence(Statement):
    """§4: with the multiplier Δ, H = 1 and B̃ = 1_N the ZOH recurrence x_k = exp(ΔÃ)x_{k−1} +
    ΔB̃u_k is x_k = step(x_{k−1}); printed step: exp(Δã) + Δ1_N u_k (no x_{k−1})."""

    carries_state: bool = False
    input_scale: int = 1   # Δ·input_scale in front of u (control 0: Δ dropped → 1)
    exp_scale: int = 1     # exp(exp_scale·Δã)

    @property
    def text(self) -> str:
        e = "exp(Δã)" if self.exp_scale == 1 else f"exp({self.exp_scale}Δã)"
        x = f"{e} ⊙ x_(k−1)" if self.carries_state else e
        d = "Δ" if self.input_scale == 1 else "1"
        return f"x_k = exp(ΔÃ)x_(k−1) + ΔB̃u_k with B̃ = 1_N, H = 1, is x_k = {x} + {d}·1_N u_k"

    def controls(self) -> tuple[Control, ...]:
        return (Control("Δ in front of u dropped", replace(self, input_scale=0)),
                Control("exponent doubled", replace(self, exp_scale=2 * self.exp_scale)))

    def step(self, x_prev: Any, e: Any, delta: Any, u: Any) -> Any:
        """One step over any field; ``e`` = exp(Δã) (so e**exp_scale = exp(exp_scale·Δã))."""
        drive = (delta if self.input_scale else 1) * u
        ee = e**self.exp_scale
        return ee * x_prev + drive if self.carries_state else ee + drive


@dataclass(frozen=True)
class UnrolledBound(Statement):
    """§4: for x_k = λ x_{k−1} + u_k (λ = exp(Δã_i); "without the Δ in front of u") started at
    x_{origin−1} = 0 with real inputs, |x_k| ≤ Σ_{j=0}^{k+upper} |λ|^(j+shift)·w(u_{k−j}), w(u) = u
    as printed (|u| when ``abs_input``). Printed: origin 0 (§2's x_{−1} = 0), upper −1."""

    abs_input: bool = False
    origin: int = 0
    upper: int = -1
    shift: int = 0

    @property
    def text(self) -> str:
        u = "|u_(k−j)|" if self.abs_input else "u_(k−j)"
        top = "k" if self.upper == 0 else f"k − {-self.upper}"
        p = "j" if self.shift == 0 else f"j + {self.shift}"
        return (f"x_k = λx_(k−1) + u_k, x_({self.origin - 1}) = 0, u real: |x_k| ≤ "
                f"Σ_(j=0)^({top}) |λ|^({p}) {u}").replace("x_(-1)", "x_(−1)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("power of |λ| raised by one", replace(self, shift=self.shift + 1)),
                Control("upper limit lowered by one", replace(self, upper=self.upper - 1)))

    def bound(self, mod_lam: Any, u: Any, k: int, zero: Any, absval: Any) -> Any:
        """The right-hand side at step k; ``u(t)`` the input at time t (0 before the origin)."""
        acc = zero
        for j in range(k + self.upper + 1):
            t = k - j
            w = u(t) if t >= self.origin else zero
            acc = acc + mod_lam ** (j + self.shift) * (absval(w) if self.abs_input else w)
        return acc


@dataclass(frozen=True)
class DeltaOrder(Statement):
    """§4: for |u| ≤ 1 the bound's k → ∞ limit S(Δ) = Σ_j |e^{Δã}|^j = 1/(1 − e^{Δ Re ã}) is of
    order Δ^{−1}: Δ^power·S(Δ) → limit = −1/Re ã as Δ → 0 (read as the exact order; with
    Re ã = −1/2, limit 2)."""

    re: Fraction = Fraction(-1, 2)
    power: int = 1
    limit: Fraction = Fraction(2)

    @property
    def text(self) -> str:
        return (f"Re ã = {self.re}: Δ^{self.power}·Σ_j |e^(Δã)|^j = Δ^{self.power}/(1 − e^(Δ Re ã)) "
                f"→ {self.limit} as Δ → 0, i.e. the bound is of order Δ^(−{self.power})")

    def controls(self) -> tuple[Control, ...]:
        return (Control("limit halved", replace(self, limit=self.limit / 2)),
                Control("order Δ^(−2)", replace(self, power=2)))

    def scaled(self, delta: Any, mod_lam: Any) -> Any:
        """Δ^power·Σ_j |λ|^j = Δ^power/(1 − |λ|) (geometric series; |λ| = e^{Δ Re ã} < 1)."""
        return delta**self.power / (1 - mod_lam)


# ---------------------------------------------------------------------------------------------
# symbolic derivations (SymPy)


def spectrum_facts(law: S4DLinSpectrum, n: Any) -> dict[str, Any]:
    """Exact facts at state index n (a SymPy integer or symbol): the eigenvalue exp(Δã_n), its
    modulus and argument, and the two printed roundings (the last two cached per statement)."""
    import sympy as sp

    d = sp.Rational(law.delta)
    lam = sp.exp(d * (sp.Rational(law.re) + sp.I * sp.pi * n))  # exp(Δã_n), the definition
    printed = sp.exp(law.eigenvalue(n, d, sp.I * sp.pi))
    mod = sp.exp(sp.Rational(law.re) * d)
    # arg exp(x + iy) = y for real x and −π < y ≤ π: here y = πΔn, so iff −1 < Δn ≤ 1
    arg = bool(-1 < d * n <= 1) if n.is_number else None
    return {"eigenvalue": lam == printed or sp.simplify(lam - printed) == 0,
            "modulus": sp.Abs(lam) == mod or sp.simplify(sp.Abs(lam) - mod) == 0,
            "argument πΔn": arg, **_roundings(law)}


@cache
def _roundings(law: S4DLinSpectrum) -> dict[str, Any]:
    import sympy as sp

    d = sp.Rational(law.delta)
    mod = sp.exp(sp.Rational(law.re) * d)
    half_unit = sp.Rational(1, 2 * 10**law.decimals)
    top = 1 / (d * law.n_state)  # π / (largest phase πΔN)
    return {"|λ| rounds to the printed magnitude": bool(sp.Abs(mod - sp.Rational(law.magnitude))
                                                        <= half_unit),
            "π/(πΔN) rounds to the printed denominator": bool(sp.Abs(top - law.phase_den)
                                                               <= sp.Rational(1, 2)),
            "|λ| (20 digits)": str(sp.N(mod, 20)), "π/(πΔN)": str(top)}


def spectrum_proof(law: S4DLinSpectrum) -> Any:
    """Decide the statement: the eigenvalue and modulus for symbolic n, the argument at every
    n = 1 … N (πΔn < π there), the roundings exactly (SymPy)."""
    import sympy as sp

    from recmem.theory.proof import Proof

    n = sp.Symbol("n", positive=True, integer=True)
    general = spectrum_facts(law, n)
    bad = {k: v for k, v in general.items() if v is False}
    if not bad:
        for m in (1, law.n_state):
            bad = {k: v for k, v in spectrum_facts(law, sp.Integer(m)).items() if v is False}
            if bad:
                break
    if bad:
        return Proof(False, f"Δ = {law.delta}, N = {law.n_state}", "SymPy, exact",
                     counterexample={**{k: str(v) for k, v in general.items()}, "false": list(bad)})
    return Proof(True, f"n = 1 … {law.n_state}, Δ = {law.delta}", "SymPy: exp of ΔÃ entry-wise; "
                 "exact comparison of the roundings", details={k: str(v) for k, v in
                                                               general.items()}, general=True)


def first_order_proof(law: FirstOrder) -> Any:
    """(e^{Δa} − 1)/a − coeff·Δ^power has no term of order ≤ power in its Taylor series at 0
    (SymPy series, a a nonzero symbol)."""
    import sympy as sp

    from recmem.theory.proof import Proof

    a, d = sp.Symbol("a", nonzero=True), sp.Symbol("Delta", positive=True)
    rem = sp.series((sp.exp(a * d) - 1) / a - law.leading(d), d, 0, law.power + 2).removeO()
    low = {k: sp.simplify(rem.coeff(d, k)) for k in range(law.power + 1)}
    bad = {k: c for k, c in low.items() if c != 0}
    if bad:
        k = min(bad)
        return Proof(False, "all a ≠ 0", "SymPy series at Δ = 0",
                     counterexample={"order": k, "coefficient": str(bad[k]), "at a = 1":
                                     str(bad[k].subs(a, 1)), "series": str(rem)})
    return Proof(True, "all a ∈ ℂ∖0", "SymPy series at Δ = 0", details={"series": str(rem)},
                 general=True)


def euler_proof(law: EulerRecurrence, k_max: int = 3) -> Any:
    """The statement's steps against the §4 ZOH recurrence with the multiplier replaced by Δ
    (theory.lru_discretisation.ZohSampling(euler=True), b = 1), k = 0 … k_max from x_{−1} = 0;
    a step equal to the ZOH step identically in (x_{k−1}, e, Δ, u) proves every k."""
    import sympy as sp

    from recmem.theory.lru_discretisation import ZohSampling
    from recmem.theory.proof import Proof, decide_zero

    e, d, xp = sp.symbols("e^(Δã) Delta x_prev")
    us = sp.symbols(f"u0:{k_max + 1}", real=True)
    zoh = ZohSampling(euler=True)
    ref = zoh.states(e, zoh.multiplier(None, e, d), list(us), sp.Integer(0), k_max)
    x = sp.Integer(0)  # the point: ã = −1/2, Δ = 1/2, u_j = j + 1
    point = {e: sp.exp(sp.Rational(-1, 4)), d: sp.Rational(1, 2), **{u: j + 1 for j, u in enumerate(us)}}
    for k in range(k_max + 1):
        x = law.step(x, e, d, us[k])
        ok, witness = decide_zero(sp.expand(x - ref[k]), [point], sp.expand)
        if ok is not True:
            return Proof(ok, f"k = {k}", "statement vs x_k = exp(ΔÃ)x_(k−1) + ΔB̃u_k, B̃ = 1",
                         counterexample={"k": k, "statement": str(x), "recurrence": str(ref[k]),
                                         **witness})
    ok, _ = decide_zero(sp.expand(law.step(xp, e, d, us[0]) - (e * xp + d * us[0])))
    return Proof(True, "every k" if ok else f"k ≤ {k_max}", "SymPy: steps against the recurrence",
                 general=bool(ok))


def unrolled_bound_decide(law: UnrolledBound, lam: Any, us: list[Any], k: int) -> dict[str, Any]:
    """|x_k| against the bound at exact data (SymPy numbers; us[t] = u_{origin + t})."""
    import sympy as sp

    x = sp.Integer(0)
    for t in range(law.origin, k + 1):  # the recurrence from x_{origin−1} = 0
        x = lam * x + us[t - law.origin]
    bound = law.bound(sp.Abs(lam), lambda t: us[t - law.origin] if t - law.origin < len(us)
                      else 0, k, sp.Integer(0), sp.Abs)
    lhs = sp.Abs(sp.expand(x))
    diff = bound - lhs
    # the sign from a python-flint ball when it excludes 0, else exactly (the bound is attained,
    # e.g. λ > 0 and inputs of one sign)
    ok = True if sp.expand(diff) == 0 else _ball_sign(diff)
    if ok is None:
        ok = bool(sp.simplify(diff) >= 0)
    return {"holds": ok, "|x_k|": str(lhs), "bound": str(bound)}


def _ball_sign(expr: Any) -> bool | None:
    """True/False when a 128-bit python-flint ball of the real SymPy number ``expr`` lies
    above/below 0, None when it contains 0 (or cannot be evaluated in balls)."""
    import flint
    import sympy as sp

    def ev(e: Any) -> Any:
        if e.is_Rational:
            return flint.arb(int(e.p)) / int(e.q)
        if e.is_Add:
            return sum((ev(t) for t in e.args), flint.arb(0))
        if e.is_Mul:
            out = flint.arb(1)
            for t in e.args:
                out = out * ev(t)
            return out
        if e.is_Pow and e.exp.is_Rational:
            return ev(e.base) ** (flint.arb(int(e.exp.p)) / int(e.exp.q))
        raise TypeError(str(e))

    try:
        with flint.ctx.workprec(128):
            b = ev(sp.expand(expr))
    except TypeError:
        return None
    return True if b > 0 else False if b < 0 else None


def unrolled_bound_proof(law: UnrolledBound) -> Any:
    """Exact witnesses (λ ∈ {1/2, −1/2, i/2}, inputs ±1, k ≤ 2) first; otherwise the bound is the
    triangle inequality when its terms are exactly |λ|^j |u_{k−j}| for every j = 0 … k − origin."""
    import itertools

    import sympy as sp

    from recmem.theory.proof import Proof

    for lam in (sp.Rational(1, 2), sp.Rational(-1, 2), sp.I / 2):
        for k in range(law.origin, law.origin + 3):
            for signs in itertools.product((1, -1), repeat=k - law.origin + 1):
                got = unrolled_bound_decide(law, lam, list(signs), k)
                if got["holds"] is False:
                    return Proof(False, f"k = {k}", "exact evaluation",
                                 counterexample={"λ": str(lam), "u": list(signs), "k": k, **got})
    if not (law.abs_input and law.shift == 0 and law.upper == -law.origin):
        return Proof(None, "every λ, real inputs, k", "no witness; the bound is not the triangle "
                     "bound")
    return Proof(True, "every λ, real inputs, k", "x_k = Σ_(j=0)^(k−origin) λ^j u_(k−j) and the "
                 "triangle inequality", general=True)


def delta_order_proof(law: DeltaOrder) -> Any:
    """lim_{Δ→0+} Δ^power/(1 − e^{Δ Re ã}) by SymPy against the stated limit."""
    import sympy as sp

    from recmem.theory.proof import Proof

    d = sp.Symbol("Delta", positive=True)
    lim = sp.limit(law.scaled(d, sp.exp(sp.Rational(law.re) * d)), d, 0, "+")
    if sp.simplify(lim - sp.Rational(law.limit)) != 0:
        return Proof(False, f"Re ã = {law.re}", "SymPy limit",
                     counterexample={"limit": str(lim), "stated": str(law.limit)})
    return Proof(True, f"Re ã = {law.re}", "SymPy limit", details={"limit": str(lim)},
                 general=True)
