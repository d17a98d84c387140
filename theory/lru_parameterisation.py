"""Paper L §3.3–§3.4 (Orvieto et al., ICML 2023): the exponential parameterisation of Λ.

Two statements, each written once here and read by every check of its claims:

- :class:`StableExp` — §3.3 "Enforcing stability": λ_j := exp(−exp(ν_j^log) + iθ_j) has |λ_j| < 1
  for every real ν^log and θ (exp is a positive nonlinearity), |λ| → 1 as ν^log → −∞ and → 0 as
  ν^log → +∞, and ν^log := log(ν) at initialisation gives back λ = exp(−ν + iθ) (ν > 0).
- :class:`PolarForm` — §3.4 "Reducing eigenvalue phase at initialization": as printed,
  Λ = diag(exp(−exp(ν^log) + θ)), with "ν^log … the distance to the origin" (|λ| = exp(−exp(ν^log)))
  and "θ is the angle from the vector 1 + 0i" (arg λ = θ). Without the imaginary unit λ is a
  positive real (arg λ = 0, |λ| = exp(−exp(ν^log) + θ)): refuted; corrected with iθ.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

INNER_TEXT = {"exp": "exp(ν^log)", "identity": "ν^log", "relu": "max(ν^log, 0)",
              "neg-exp": "−exp(ν^log)"}


@dataclass(frozen=True)
class StableExp(Statement):
    """L §3.3: λ = exp(−g(ν^log) + iθ) with g = ``inner`` (printed: exp) satisfies |λ| < 1 for every
    real ν^log, θ; |λ| → 1 (ν^log → −∞), |λ| → 0 (ν^log → +∞); g(log ν) = ν for ν > 0."""

    inner: str = "exp"

    @property
    def text(self) -> str:
        return (f"λ = exp(−{INNER_TEXT[self.inner]} + iθ): |λ| < 1 for every real ν^log and θ, "
                "|λ| → 1 as ν^log → −∞, |λ| → 0 as ν^log → +∞, and ν^log = log ν (ν > 0) gives "
                "λ = exp(−ν + iθ)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("no positive nonlinearity: λ = exp(−ν^log + iθ)",
                        replace(self, inner="identity")),
                # the near one: ReLU is nonnegative, not positive: |λ| = 1 for ν^log ≤ 0
                Control("ReLU instead of exp: λ = exp(−max(ν^log, 0) + iθ)",
                        replace(self, inner="relu")),
                Control("sign of the exponent flipped: λ = exp(+exp(ν^log) + iθ)",
                        replace(self, inner="neg-exp")))

    def g(self, x: Any, exp: Callable[[Any], Any], positive: Callable[[Any], bool]) -> Any:
        """The nonlinearity at x in any arithmetic (``positive(x)`` decides x > 0 for ReLU)."""
        if self.inner == "exp":
            return exp(x)
        if self.inner == "identity":
            return x
        if self.inner == "relu":
            return x if positive(x) else x * 0
        return -exp(x)

    def eigenvalue(self, x: Any, theta: Any, *, exp: Callable[[Any], Any], i: Any,
                   positive: Callable[[Any], bool]) -> Any:
        """λ = exp(−g(ν^log) + iθ)."""
        return exp(-self.g(x, exp, positive) + i * theta)


STABLE_EXP = StableExp()

# the exact points where the symbolic side looks for a counterexample (ν^log)
PROBE_X = (Fraction(-1), Fraction(0), Fraction(1))


def stable_exp_proof(law: StableExp) -> Proof:
    """Decide §3.3's stability claims for ``law`` (SymPy, x = ν^log real, θ real).

    |λ| = exp(−g(x)) (the modulus of exp(z) is exp(Re z)); |λ| < 1 for all x ⇔ g(x) > 0 for all
    real x (SymPy's assumptions: exp(x) > 0); the two limits; g(log ν) = ν for ν > 0. A part not
    decided in general is decided at the exact probes x ∈ {−1, 0, 1}: |λ| ≥ 1 there is the
    counterexample."""
    import sympy as sp

    t0 = time.perf_counter()
    x, th = sp.symbols("x theta", real=True)
    nu = sp.Symbol("nu", positive=True)

    def lam(v: Any) -> Any:
        return law.eigenvalue(v, th, exp=sp.exp, i=sp.I,
                              positive=lambda w: bool(w > 0) if w.is_number else True)

    mod = sp.simplify(sp.Abs(lam(x))) if law.inner != "relu" else None
    for p in PROBE_X:
        m = sp.simplify(sp.Abs(lam(sp.Rational(p))))
        if (m < 1) is not sp.true:
            return Proof(False, "exact probes", "SymPy: |λ| at an exact ν^log",
                         counterexample={"nu_log": str(p), "|λ|": str(m), "holds |λ| < 1": False},
                         details={"seconds": round(time.perf_counter() - t0, 3)})
    g = law.g(x, sp.exp, lambda w: True)
    details: dict[str, Any] = {"|λ|": str(mod), "g(x) > 0 for real x": g.is_positive,
                               "lim_{x→−∞} |λ|": str(sp.limit(mod, x, -sp.oo)) if mod is not None
                               else None,
                               "lim_{x→+∞} |λ|": str(sp.limit(mod, x, sp.oo)) if mod is not None
                               else None,
                               "g(log ν) − ν": str(sp.simplify(law.g(sp.log(nu), sp.exp,
                                                                     lambda w: True) - nu))}
    ok = (mod is not None and sp.simplify(mod - sp.exp(-g)) == 0 and g.is_positive is True
          and details["lim_{x→−∞} |λ|"] == "1" and details["lim_{x→+∞} |λ|"] == "0"
          and details["g(log ν) − ν"] == "0")
    details["seconds"] = round(time.perf_counter() - t0, 3)
    if not ok:
        return Proof(None, "every real ν^log, θ", "SymPy could not confirm every part",
                     details=details)
    return Proof(True, "every real ν^log and θ; every ν > 0", "SymPy: |exp(z)| = exp(Re z), "
                 "exp(x) > 0 (assumptions), limits at ±∞, exp(log ν) = ν", details=details,
                 general=True)


@dataclass(frozen=True)
class PolarForm(Statement):
    """L §3.4: λ = exp(−exp(ν^log)·``mod_sign`` + ``unit``·``theta_scale``·θ) has
    |λ| = exp(−exp(ν^log)) ("the distance to the origin") and arg λ = θ ("the angle from the
    vector 1 + 0i") for every real ν^log and θ ∈ (−π, π]. As printed: unit "1" (no imaginary
    unit); corrected: unit "i"."""

    unit: str = "1"
    theta_scale: Fraction = Fraction(1)
    mod_sign: int = 1

    @property
    def text(self) -> str:
        th = {Fraction(1): "θ", Fraction(-1): "(−θ)", Fraction(1, 2): "θ/2"}.get(
            self.theta_scale, f"({self.theta_scale})θ")
        u = "i" if self.unit == "i" else ""
        sign = "−" if self.mod_sign > 0 else "+"
        return (f"Λ = diag(exp({sign}exp(ν^log) + {u}{th})): |λ| = exp(−exp(ν^log)) and arg λ = θ "
                "(the angle from 1 + 0i) for every real ν^log and θ ∈ (−π, π]")

    def controls(self) -> tuple[Control, ...]:
        return (Control("phase sign flipped", replace(self, theta_scale=-self.theta_scale)),
                Control("phase halved", replace(self, theta_scale=self.theta_scale / 2)),
                Control("sign of exp(ν^log) flipped", replace(self, mod_sign=-self.mod_sign)))

    def eigenvalue(self, x: Any, theta: Any, *, exp: Callable[[Any], Any], i: Any,
                   const: Callable[[Fraction], Any]) -> Any:
        """λ as the statement prints it, in any arithmetic."""
        unit = i if self.unit == "i" else const(Fraction(1))
        return exp(-self.mod_sign * exp(x) + unit * const(self.theta_scale) * theta)

    @staticmethod
    def modulus(x: Any, exp: Callable[[Any], Any]) -> Any:
        """The claimed |λ| = exp(−exp(ν^log))."""
        return exp(-exp(x))


PHASE_PRINTED = PolarForm()
PHASE_CORRECTED = PolarForm(unit="i")


def polar_instance(law: PolarForm, x: Fraction, theta: Fraction) -> tuple[bool, dict[str, str]]:
    """Exact SymPy at (ν^log, θ) with θ ∈ (−π, π]: |λ| and arg λ against the claim."""
    import sympy as sp

    xs, ts = sp.Rational(x.numerator, x.denominator), sp.Rational(theta.numerator,
                                                                  theta.denominator)
    lam = law.eigenvalue(xs, ts, exp=sp.exp, i=sp.I,
                         const=lambda q: sp.Rational(q.numerator, q.denominator))
    d_mod = sp.simplify(sp.Abs(lam) - law.modulus(xs, sp.exp))
    d_arg = sp.simplify(sp.arg(lam) - ts)
    ok = d_mod == 0 and d_arg == 0
    return bool(ok), {"nu_log": str(x), "theta": str(theta), "λ": str(lam),
                      "|λ| − exp(−exp(ν^log))": str(d_mod), "arg λ − θ": str(d_arg)}


def polar_proof(law: PolarForm) -> Proof:
    """Decide §3.4's polar form (SymPy): symbolic |λ| and arg λ for real x, θ ∈ (−π, π], and the
    exact probe (ν^log, θ) = (0, 1) for a counterexample."""
    import sympy as sp

    t0 = time.perf_counter()
    ok, witness = polar_instance(law, Fraction(0), Fraction(1))
    if not ok:
        return Proof(False, "exact probe", "SymPy: |λ| and arg λ at (ν^log, θ) = (0, 1)",
                     counterexample=witness, details={"seconds": round(time.perf_counter() - t0, 3)})
    x = sp.Symbol("x", real=True)
    th = sp.Symbol("theta", real=True)
    lam = law.eigenvalue(x, th, exp=sp.exp, i=sp.I,
                         const=lambda q: sp.Rational(q.numerator, q.denominator))
    d_mod = sp.simplify(sp.Abs(lam) - law.modulus(x, sp.exp))
    # arg exp(a + iθ) = θ for real a and θ ∈ (−π, π]: λ/|λ| = e^{iθ}
    d_unit = sp.simplify(lam / sp.Abs(lam) - sp.exp(sp.I * th))
    details = {"|λ| − exp(−exp(x))": str(d_mod), "λ/|λ| − e^{iθ}": str(d_unit),
               "seconds": round(time.perf_counter() - t0, 3)}
    if d_mod == 0 and d_unit == 0:
        return Proof(True, "every real ν^log, θ ∈ (−π, π]", "SymPy: |λ| and λ/|λ| = e^{iθ}",
                     details=details, general=True)
    return Proof(None, "every real ν^log", "SymPy could not reduce |λ| or λ/|λ|", details=details)
