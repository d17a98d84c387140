"""Paper L §3.4 ("Normalization") and App. F.2: the forward-pass blow-up and its γ normalisation.

Statements, each written once and read by every check of its claims:

- :class:`BlowUp` — Proposition 3: Λ diagonal, eigenvalues area-uniform on the ring
  r_min < r_max < 1 (Lemma 2 = O's Lemma 6, :mod:`recmem.theory.ring`), constant or white-noise
  input: E‖x_∞‖² = g(r_min, r_max)·E‖Bu‖², g = log((1 − r_min²)/(1 − r_max²))/(r_max² − r_min²).
- :class:`RhoLimit` — the ρ-limit chain printed after it (ε = r_max² − r_min², ρ = 1 − r_max²).
- :class:`WhiteNoise1D` — the one-dimensional white-noise derivation (E|x_k|² = … → 1/(1 − |λ|²)).
- :class:`GammaNorm` — γ_i^log ← log √(1 − |λ_i|²) in x_k = Λx_{k−1} + exp(γ^log) ⊙ (Bu_k) (Eq. 7).
- :class:`F2Geometric` — App. F.2's step Σ_{n≥1} E_r[r^n] = E_r[Σ_{n≥1} r^n] = E_r[1/(1 − r)].

Conventions (CLAIMS.md rule 6): x_0 = 0, x_k = Λx_{k−1} + Bu_k, so x_k = Σ_{j=0}^{k−1} Λ^j B u_{k−j};
"white noise": u_k i.i.d., zero mean, E[u_k²] = σ² (the printed derivation needs σ² = 1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero, proof_from_steps
from recmem.theory.ring import LEMMA6
from recmem.theory.statement import Control, Statement

INPUTS = ("constant", "white-noise")


def _same(q: Fraction) -> Any:
    return q


def _rational(q: Fraction) -> Any:
    import sympy as sp

    return sp.Rational(q.numerator, q.denominator)


def _symbols() -> tuple[Any, Any, Any]:
    """r_min, r_max (0 ≤ r_min < r_max < 1 is imposed by substitution points) and s = |λ|²."""
    import sympy as sp

    return (sp.Symbol("r_min", nonnegative=True), sp.Symbol("r_max", positive=True),
            sp.Symbol("s", positive=True))


# exact points of Proposition 3's domain 0 ≤ r_min < r_max < 1, where a false identity shows
POINTS = ((Fraction(1, 2), Fraction(3, 4)), (Fraction(0), Fraction(1, 2)),
          (Fraction(9, 10), Fraction(99, 100)))


def _force_log(d: Any) -> Any:
    """simplify in q = 1 − r² > 0 (Proposition 3's domain), where splitting the logarithms is
    valid: r_min = √(1 − q_min), r_max = √(1 − q_max)."""
    import sympy as sp

    r_min, r_max, _ = _symbols()
    q1, q2 = sp.symbols("q_min q_max", positive=True)
    d = sp.sympify(d).subs({r_min: sp.sqrt(1 - q1), r_max: sp.sqrt(1 - q2)}, simultaneous=True)
    return sp.simplify(sp.expand_log(sp.logcombine(sp.simplify(d), force=True), force=True))


# ---- Proposition 3 ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BlowUp(Statement):
    """L §3.4, Proposition 3 (one input at a time): E‖x_∞‖² = gain·E‖Bu‖² with
    gain = ``scale``/(r_max^p − r_min^p)·log((1 − r_min^p)/(1 − r_max^p)) + ``offset``, p = ``power``.
    As printed: p = 2, scale 1, offset 0. E is over Λ (Lemma 2's ring law), B and u, with B, u
    independent of Λ; ``input`` is "constant" (u_k = u for all k) or "white-noise"."""

    input: str = "white-noise"
    power: int = 2
    scale: Fraction = Fraction(1)
    offset: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.input not in INPUTS:
            raise ValueError(f"input must be one of {INPUTS}, got {self.input!r}")

    @property
    def text(self) -> str:
        p = {1: "", 2: "²"}.get(self.power, f"^{self.power}")
        c = "" if self.scale == 1 else f"({self.scale})·"
        o = "" if self.offset == 0 else f" + ({self.offset})"
        return (f"Λ diagonal, eigenvalues uniform on the ring r_min < r_max < 1, {self.input} input, "
                f"Glorot B: E‖x_∞‖² = [{c}log((1 − r_min{p})/(1 − r_max{p}))/(r_max{p} − r_min{p})"
                f"{o}]·E‖Bu‖²")

    def controls(self) -> tuple[Control, ...]:
        return (
            Control("radii not squared (p = 1)", replace(self, power=1)),
            Control("gain times 65/64 (near)", replace(self, scale=self.scale * Fraction(65, 64))),
            Control("gain − 1: App. F.2's sums from n = 1 (E_r[r/(1 − r)])",
                    replace(self, offset=self.offset - 1)),
        )

    @staticmethod
    def admits(r_min: Fraction, r_max: Fraction) -> bool:
        """Proposition 3's hypothesis 0 ≤ r_min < r_max < 1."""
        return 0 <= r_min < r_max < 1

    def gain(self, r_min: Any, r_max: Any, log: Callable[[Any], Any],
             const: Callable[[Fraction], Any] = _same) -> Any:
        """The statement's E‖x_∞‖²/E‖Bu‖² over any arithmetic (``const`` converts exact constants;
        as printed scale 1 and offset 0 are exact in every arithmetic)."""
        p = self.power
        g = const(self.scale) * log((1 - r_min**p) / (1 - r_max**p)) / (r_max**p - r_min**p)
        return g + const(self.offset) if self.offset else g


def stationary_gain(input_: str, s: Any) -> tuple[Any, dict[str, Any]]:
    """E over the phase of |x_∞|²/|(Bu)|² for one eigenvalue λ = √s·e^{iθ}, θ uniform (SymPy),
    derived from the recurrence x_k = λx_{k−1} + ũ_k (L §3.4), with the steps that decide it.

    constant: x_∞ solves x = λx + ũ, so |x_∞|²/|ũ|² = 1/((1 − λ)(1 − λ̄)); its phase average is
    (1/2πi)∮ dz/((1 − √s z)(z − √s)) over |z| = 1, the residue at z = √s (the pole 1/√s lies
    outside). white-noise: v_k = E|x_k|² solves v_k = s·v_{k−1} + σ² (cross terms vanish), whose
    limit is the geometric series Σ_j s^j σ².
    """
    import sympy as sp

    steps: dict[str, Any] = {}
    if input_ == "constant":
        lam, z, x, u = sp.symbols("lambda z x u")
        fixed = sp.solve(sp.Eq(x, lam * x + u), x)[0]
        steps["x_∞ = ũ/(1 − λ) (fixed point of the recurrence)"] = decide_zero(fixed - u / (1 - lam))
        rho = sp.sqrt(s)
        integrand = 1 / ((1 - rho * z) * (z - rho))  # 1/|1 − ρe^{iθ}|² · dθ/(2π) with z = e^{iθ}
        value = sp.residue(integrand, z, rho)
        steps["only the pole z = √s lies inside |z| = 1 (s < 1)"] = True
        return sp.simplify(value), steps
    j = sp.Symbol("j", integer=True, nonnegative=True)
    total = sp.summation(s**j, (j, 0, sp.oo))
    value = total.args[0][0] if isinstance(total, sp.Piecewise) else total
    steps["v_∞ = Σ_j s^j (geometric series, s < 1)"] = decide_zero(value - 1 / (1 - s))
    return value, steps


@functools.cache
def ring_expectation(input_: str) -> tuple[Any, dict[str, Any]]:
    """E_{λ ~ 𝕋(r_min, r_max)}[stationary gain] in SymPy: the density of s = |λ|² from Lemma 2's
    CDF (theory.ring, RingSampling.ring_cdf_r2) integrated against :func:`stationary_gain`."""
    import sympy as sp

    r_min, r_max, s = _symbols()
    per, steps = stationary_gain(input_, s)
    density = sp.diff(LEMMA6.ring_cdf_r2(s, r_min, r_max), s)
    a, b = r_min**2, r_max**2
    antider = -sp.log(1 - s)
    steps["d/ds(−log(1 − s)) = 1/(1 − s)"] = decide_zero(sp.diff(antider, s) - per)
    steps["Lemma 2: |λ|² has constant density on [r_min², r_max²]"] = decide_zero(sp.diff(density, s))
    return density * (antider.subs(s, b) - antider.subs(s, a)), steps


def blowup_proof(law: BlowUp) -> Proof:
    """Decide Proposition 3 for ``law`` (general in 0 ≤ r_min < r_max < 1, SymPy); memoised on
    the formula's fields, so the fixed-Λ reading (BlowUpFixedLambda) shares the derivation."""
    return _blowup_proof(law.input, law.power, law.scale, law.offset)


@functools.cache
def _blowup_proof(input_: str, power: int, scale: Fraction, offset: Fraction) -> Proof:
    import sympy as sp

    law = BlowUp(input_, power, scale, offset)

    value, steps = ring_expectation(law.input)
    r_min, r_max, _ = _symbols()
    scope = (f"all 0 ≤ r_min < r_max < 1, {law.input} input; E‖x_∞‖² = Σ_i E|(Bu)_i|²·E[gain(λ_i)] "
             "by linearity, B and u independent of Λ (Glorot is not used beyond that)")
    derivation = proof_from_steps(steps, scope, "fixed point + residue/geometric series + ring integral",
                                  general=True)
    if derivation.holds is not True:
        return derivation
    diff = value - law.gain(r_min, r_max, sp.log, _rational)
    q1, q2 = sp.symbols("q_min q_max", positive=True)  # the variables of _force_log
    pts = [{q1: 1 - _rational(a) ** 2, q2: 1 - _rational(b) ** 2} for a, b in POINTS]
    ok, witness = _at_points(diff, {r_min: r_min, r_max: r_max})
    if ok is None:  # zero at every exact point: decide the identity itself
        ok, witness = decide_zero(diff, pts, simplify=_force_log)
    details = {**derivation.details, "E[gain] derived": str(value)}
    if ok is False:
        return Proof(False, scope, "statement vs the derived ring integral", counterexample=witness,
                     details=details)
    return Proof(ok, scope, "statement vs the derived ring integral", details=details,
                 general=ok is True)


def _at_points(diff: Any, names: dict[Any, Any]) -> tuple[bool | None, dict[str, Any]]:
    """(False, witness) when ``diff`` is nonzero (SymPy decides the exact value) at one of
    :data:`POINTS`; (None, {}) otherwise — the cheap half of deciding a false statement."""
    import sympy as sp

    r_min, r_max = names
    for a, b in POINTS:
        value = sp.sympify(diff).subs({r_min: _rational(a), r_max: _rational(b)})
        if value.is_zero is False:
            return False, {"point": {"r_min": str(a), "r_max": str(b)},
                           "difference at the point": str(sp.nsimplify(value)) if value.is_rational
                           else f"{sp.N(value, 15)} (exact: {value})"}
    return None, {}


# ---- the ρ-limit form ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RhoLimit(Statement):
    """L §3.4: ε = r_max² − r_min², ρ = 1 − r_max²: (1 − r_min²)/(1 − r_max²) = 1 + ε/ρ and
    lim_{ε→0} (1/ε)log(1 + ε/ρ) = lim (1/ε)(ε/ρ + O(ε²)) = 1/ρ^``rho_power`` = 1/(1 − r^``r_power``)
    (as printed rho_power 1, r_power 2, ``sign`` +1 in 1 + ε/ρ)."""

    rho_power: int = 1
    r_power: int = 2
    sign: int = 1

    @property
    def text(self) -> str:
        sg = "+" if self.sign > 0 else "−"
        rp = "" if self.rho_power == 1 else f"^{self.rho_power}"
        p = {1: "", 2: "²"}.get(self.r_power, f"^{self.r_power}")
        return (f"ε = r_max² − r_min², ρ = 1 − r_max²: (1 − r_min²)/(1 − r_max²) = 1 {sg} ε/ρ; "
                f"lim_(ε→0) (1/ε)log(1 {sg} ε/ρ) = 1/ρ{rp} = 1/(1 − r{p})")

    def controls(self) -> tuple[Control, ...]:
        return (Control("limit 1/ρ² instead of 1/ρ", replace(self, rho_power=2)),
                Control("1/(1 − r) instead of 1/(1 − r²)", replace(self, r_power=1)),
                Control("1 − ε/ρ instead of 1 + ε/ρ", replace(self, sign=-1)))

    def ratio(self, eps: Any, rho: Any) -> Any:
        """The printed 1 ± ε/ρ."""
        return 1 + self.sign * eps / rho

    def limit(self, rho: Any) -> Any:
        """The printed limit 1/ρ^k."""
        return 1 / rho**self.rho_power

    def limit_in_r(self, r: Any) -> Any:
        """The printed 1/(1 − r^p)."""
        return 1 / (1 - r**self.r_power)


def rho_limit_proof(law: RhoLimit) -> Proof:
    """Each equality of the displayed chain in SymPy (general: symbolic 0 < r < 1, ε > 0)."""
    import sympy as sp

    eps, r = sp.symbols("epsilon r", positive=True)
    rho = 1 - r**2  # ρ = 1 − r_max² with r_max = r
    r_min2 = r**2 - eps
    x = eps / rho
    pt = [{r: sp.Rational(1, 2), eps: sp.Rational(1, 8)}]
    series = sp.series(sp.log(1 + eps / rho), eps, 0, 2).removeO()
    checks = {
        "(1 − r_min²)/(1 − r_max²) = 1 ± ε/ρ": decide_zero((1 - r_min2) / rho - law.ratio(eps, rho), pt),
        "log(1 + ε/ρ) = ε/ρ + O(ε²)": decide_zero(series - x, pt),
        "lim (1/ε)log(1 ± ε/ρ) = 1/ρ^k": decide_zero(
            sp.limit(sp.log(law.ratio(eps, rho)) / eps, eps, 0) - law.limit(rho), pt),
        "1/ρ^k = 1/(1 − r^p) (r_min = r_max = r)": decide_zero(law.limit(rho) - law.limit_in_r(r), pt),
    }
    scope = "all 0 < r < 1 (ρ = 1 − r² fixed), ε → 0⁺"
    bad = {k: w for k, (ok, w) in checks.items() if ok is False}
    if bad:
        name, w = next(iter(bad.items()))
        return Proof(False, scope, "each equality of the chain", counterexample={"equality": name, **w},
                     details={k: ("confirmed" if ok else "undecided" if ok is None else "false")
                              for k, (ok, _) in checks.items()})
    if any(ok is None for ok, _ in checks.values()):
        return Proof(None, scope, "SymPy could not decide every equality")
    return Proof(True, scope, "each equality of the chain (SymPy series and limit)", general=True)


# ---- the one-dimensional white-noise derivation -------------------------------------------------

@dataclass(frozen=True)
class WhiteNoise1D(Statement):
    """L §3.4, the displayed chain for Λ = λ ∈ ℂ, B = 1, u_k i.i.d. zero-mean with E[u_k²] =
    ``variance``: E|x_k|² = (Σ_i λ^i E[u_{k−i}])(Σ_j λ^j E[u_{k−j}])^* (``means_inside``, as printed;
    the corrected line is E[(Σ_i λ^i u_{k−i})(Σ_j λ^j u_{k−j})^*]) = Σ_{i,j} λ^i(λ^j)^* E[u_{k−i}u_{k−j}]
    = Σ_{i<k} |λ|^{``power``·i} → 1/(1 − |λ|²). As printed: means inside, variance unstated (its
    last equality needs 1), power 2."""

    means_inside: bool = True
    variance: Fraction = Fraction(1)
    power: int = 2

    @property
    def text(self) -> str:
        first = ("(Σ_i λ^i E[u_{k−i}])(Σ_j λ^j E[u_{k−j}])^*" if self.means_inside
                 else "E[(Σ_i λ^i u_{k−i})(Σ_j λ^j u_{k−j})^*]")
        p = "2i" if self.power == 2 else f"{self.power}i"
        return (f"λ ∈ ℂ, |λ| < 1, B = 1, u_k i.i.d., E u_k = 0, E u_k² = {self.variance}: E|x_k|² = "
                f"{first} = Σ_(i,j<k) λ^i(λ^j)^* E[u_(k−i)u_(k−j)] = Σ_(i<k) |λ|^({p}) → 1/(1 − |λ|²)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("unit variance dropped (E u² = 4)", replace(self, variance=Fraction(4))),
                Control("|λ|^i instead of |λ|^{2i}", replace(self, power=1)))

    def lines(self, lam: Any, k: int, mean: Any, second: Callable[[int, int], Any],
              conj: Callable[[Any], Any], absv: Callable[[Any], Any]) -> dict[str, Any]:
        """The printed right-hand sides for one λ and k over any arithmetic: ``mean`` = E u,
        ``second(i, j)`` = E[u_{k−i}u_{k−j}] of the law at hand, ``absv`` = |·|; keys name the
        lines (the first only as printed, with the means inside)."""
        pw = [lam**i for i in range(k)]
        out: dict[str, Any] = {}
        if self.means_inside:
            a = sum((p * mean for p in pw), 0 * lam)
            out["(Σλ^i E u)(Σλ^j E u)^*"] = a * conj(a)
        out["Σ_(i,j) λ^i(λ^j)^* E[u u]"] = sum(
            (pw[i] * conj(pw[j]) * second(i, j) for i in range(k) for j in range(k)), 0 * lam)
        out["Σ|λ|^(2i)"] = sum((absv(lam) ** (self.power * i) for i in range(k)), 0 * lam)
        return out


def white_noise_1d_proof(law: WhiteNoise1D, k_max: int = 4) -> Proof:
    """Each printed expression against the definition E|x_k|², in SymPy with symbolic λ = a + ib
    and symbolic inputs u_1 … u_k, E applied by the white-noise moment rule (E u = 0,
    E[u_p u_q] = σ²δ_pq, σ² from the statement): general in λ for every k ≤ ``k_max``; the limit
    Σ_{i<k}|λ|^{2i}σ² → σ²/(1 − |λ|²) by SymPy's summation for |λ| < 1."""
    import sympy as sp

    a, b = sp.symbols("a b", real=True)
    lam = a + sp.I * b
    var = _rational(law.variance)
    for k in range(1, k_max + 1):
        us = sp.symbols(f"u1:{k + 1}", real=True)
        x = sum(lam**i * us[k - 1 - i] for i in range(k))
        sq = sp.expand(x * sp.conjugate(x))
        expectation = sp.expand(sum(sq.coeff(u, 2).subs({w: 0 for w in us}) for u in us) * var)
        lines = law.lines(lam, k, sp.Integer(0), lambda i, j: var if i == j else sp.Integer(0),
                          sp.conjugate, sp.Abs)
        for name, value in lines.items():
            ok, w = decide_zero(sp.expand(value - expectation),
                                [{a: sp.Rational(1, 2), b: 0}, {a: 0, b: 0}], simplify=sp.expand)
            if ok is False:
                return Proof(False, f"k ≤ {k_max}, symbolic λ", "each line against E|x_k|²",
                             counterexample={"k": k, "line": name, **w})
            if ok is None:
                return Proof(None, f"k ≤ {k_max}", f"SymPy could not decide line {name!r} at k = {k}")
    s = sp.Symbol("s", positive=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)
    tail = sp.summation(s**i, (i, 0, sp.oo))
    tail = tail.args[0][0] if isinstance(tail, sp.Piecewise) else tail
    ok, w = decide_zero(tail - 1 / (1 - s))
    if ok is not True:
        return Proof(None, "limit", "SymPy could not sum the geometric series")
    return Proof(True, f"every k ≤ {k_max}, symbolic λ ∈ ℂ; the limit k → ∞ for |λ| < 1",
                 "expansion of |x_k|², white-noise moment rule, geometric series", general=True)


# ---- γ normalisation (Eq. 7) --------------------------------------------------------------------

@dataclass(frozen=True)
class GammaNorm(Statement):
    """L §3.4, Eq. (7): γ^log = log((1 − |λ|²)^``exponent``) (printed: log √(1 − |λ|²), exponent ½)
    and x_k = λx_{k−1} + exp(γ^log)(Bu)_k give E|x_∞|² = E|(Bu)|² under white-noise input, for every
    |λ| < 1 (each direction of a diagonal Λ separately)."""

    exponent: Fraction = Fraction(1, 2)

    @property
    def text(self) -> str:
        e = "√(1 − |λ|²)" if self.exponent == Fraction(1, 2) else f"(1 − |λ|²)^({self.exponent})"
        return (f"γ^log = log {e}, x_k = λx_(k−1) + exp(γ^log)(Bu)_k, white-noise u: "
                "E|x_∞|² = E|(Bu)|² for every |λ| < 1")

    def controls(self) -> tuple[Control, ...]:
        return (Control("no square root: γ^log = log(1 − |λ|²)", replace(self, exponent=Fraction(1))),
                Control("fourth root (near for |λ| small)", replace(self, exponent=Fraction(1, 4))))

    def gamma_log(self, s: Any, log: Callable[[Any], Any], const: Callable[[Fraction], Any] = _same) -> Any:
        """γ^log for |λ|² = s, over any arithmetic."""
        return const(self.exponent) * log(1 - s)


def gamma_proof(law: GammaNorm) -> Proof:
    """The stationary variance of the normalised recurrence (SymPy, general in 0 ≤ s = |λ|² < 1)."""
    import sympy as sp

    s = sp.Symbol("s", positive=True)
    per, steps = stationary_gain("white-noise", s)
    factor = sp.exp(law.gamma_log(s, sp.log, _rational))
    value = sp.simplify(factor**2 * per)  # E|x_∞|²/E|(Bu)|² = exp(2γ^log)·Σ_j s^j
    derivation = proof_from_steps(steps, "0 ≤ |λ|² < 1", "geometric series", general=True)
    if derivation.holds is not True:
        return derivation
    ok, w = decide_zero(value - 1, [{s: sp.Rational(1, 4)}])
    scope = "every |λ| < 1 (s = |λ|² ∈ (0, 1)), white-noise input"
    if ok is False:
        return Proof(False, scope, "exp(2γ^log)/(1 − |λ|²) against 1", counterexample=w)
    return Proof(ok, scope, "exp(2γ^log)/(1 − |λ|²) = 1", general=ok is True,
                 details={"E|x_∞|²/E|(Bu)|²": str(value)})


# ---- App. F.2 -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class F2Series(Statement):
    """L App. F.2, two lines of the proof with the sums from n = ``start`` (printed 1):
    ‖x_∞‖² = ũ^*[Σ_{n,m≥start}(Λ^m)^*Λ^n]ũ for constant Bu_k = ũ, and
    E_r[Σ_{n≥start} r^n] = E_r[1/(1 − r)^``power``] (printed power 1)."""

    start: int = 1
    power: int = 1

    @property
    def text(self) -> str:
        p = "" if self.power == 1 else f"^{self.power}"
        return (f"Bu_k = ũ constant: ‖x_∞‖² = ũ^*[Σ_(n,m≥{self.start}) (Λ^m)^*Λ^n]ũ, and "
                f"Σ_(n≥{self.start}) r^n = 1/(1 − r){p} for 0 ≤ r < 1")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sums from n = 2", replace(self, start=2)),
                Control("1/(1 − r)² instead of 1/(1 − r)", replace(self, power=2)))

    def closed(self, r: Any) -> Any:
        """The printed value of the geometric sum."""
        return 1 / (1 - r) ** self.power


@functools.cache
def f2_other_lines() -> dict[str, Any]:
    """App. F.2's lines that do not depend on the sums' start, each decided in SymPy: the change
    of variables λ = r^{1/2}e^{i2πθ} (|λ|² = r uniform: Lemma 2's CDF), the phase average
    E_θ[e^{i2π(n−m)θ}] = δ_{nm}, and the last three lines (the integral and its two forms)."""
    import sympy as sp

    r, th = sp.Symbol("r", positive=True), sp.Symbol("theta", real=True)
    r_min, r_max, s = _symbols()
    k = sp.Symbol("k", integer=True, nonzero=True)
    cdf = LEMMA6.ring_cdf_r2(s, r_min, r_max)
    eps = r_max**2 - r_min**2
    integral = sp.integrate(1 / (1 - r), (r, r_min**2, r_max**2), conds="none") / eps
    line_abs = (-sp.log(sp.Abs(1 - r_max**2)) + sp.log(sp.Abs(1 - r_min**2))) / eps
    line_log = sp.log((1 - r_min**2) / (1 - r_max**2)) / eps
    pts = [{r_min: sp.Rational(1, 2), r_max: sp.Rational(3, 4)}]
    return {
        "r = |λ|² ~ U[r_min², r_max²] (Lemma 2's CDF is affine in r)": decide_zero(sp.diff(cdf, s, 2)),
        "E_θ[e^{i2πkθ}] = 0 for integer k ≠ 0": decide_zero(
            sp.integrate(sp.exp(2 * sp.pi * sp.I * k * th), (th, 0, 1))),
        "(1/ε)∫ dr/(1 − r) = (1/ε)(−log|1 − r_max²| + log|1 − r_min²|)": decide_zero(
            _force_log(integral - line_abs), [{sp.Symbol("q_min", positive=True): sp.Rational(3, 4),
                                               sp.Symbol("q_max", positive=True): sp.Rational(7, 16)}]),
        "… = (1/ε)log((1 − r_min²)/(1 − r_max²))": decide_zero(_force_log(line_abs - line_log), pts),
    }


def f2_proof(law: F2Series) -> Proof:
    """Both lines in SymPy: the double sum against |x_∞|² = |ũ|²/|1 − λ|² (fixed point of the
    recurrence), per eigenvalue; the geometric sum by SymPy's summation (general in 0 ≤ r < 1)."""
    import sympy as sp

    r = sp.Symbol("r", positive=True)
    n = sp.Symbol("n", integer=True, nonnegative=True)
    total = sp.summation(r**n, (n, law.start, sp.oo))
    total = total.args[0][0] if isinstance(total, sp.Piecewise) else total
    half = sp.Rational(1, 2)
    # line 1 for one eigenvalue λ = r (a real point of the ring suffices to refute; the sums are
    # products of the one-index sum and its conjugate, so the line holds iff Σ_{n≥start} λ^n = 1/(1 − λ))
    lines = {"‖x_∞‖² = ũ^*[ΣΣ(Λ^m)^*Λ^n]ũ (per eigenvalue: |Σ_(n≥start) λ^n|² = 1/|1 − λ|²)":
             total**2 - 1 / (1 - r) ** 2,
             "Σ_(n≥start) r^n = 1/(1 − r)": total - law.closed(r)}
    derivation = proof_from_steps(f2_other_lines(), "App. F.2", "the proof's other displayed lines",
                                  general=True)
    if derivation.holds is not True:
        return derivation
    decided = {name: decide_zero(d, [{r: half}]) for name, d in lines.items()}
    false = {name: w for name, (ok, w) in decided.items() if ok is False}
    if false:  # every false line, each with its exact point
        return Proof(False, "0 ≤ r < 1", "geometric sums (SymPy)",
                     counterexample={f"line {i + 1}": {"line": n, **w}
                                     for i, (n, w) in enumerate(false.items())})
    if any(ok is None for ok, _ in decided.values()):
        return Proof(None, "0 ≤ r < 1", "SymPy could not decide a line")
    return Proof(True, "every 0 < r < 1 and every diagonal Λ with |λ_i| < 1", "geometric sums (SymPy)",
                 general=True)


@dataclass(frozen=True)
class BlowUpFixedLambda(BlowUp):
    """Proposition 3 read at one draw of Λ (App. F.2, Fig. 9's simulations): with N eigenvalues
    i.i.d. from Lemma 2's ring, Glorot B and u independent of Λ, E_{B,u}‖x_∞‖²/E‖Bu‖² =
    (1/N)Σ_i G(λ_i) has mean ``gain`` at every N and concentrates at it as N → ∞ (G the stationary
    gain of one eigenvalue: 1/|1 − λ|² for constant input, 1/(1 − |λ|²) for white noise)."""

    @property
    def text(self) -> str:
        return (f"{super().text}; at one draw of Λ with N eigenvalues: (1/N)Σ_i G(λ_i) has this mean "
                "at every N and its spread falls as N grows")
