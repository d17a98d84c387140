"""Displayed steps of Theorem 3.9's proof (paper W, App. A.8 for linear-like and A.9 for tanh-like
activations, ICLR 2024 camera-ready): each step written once, as a statement with its hypotheses,
its exact judge and its SymPy decision.

- :class:`EigenLimit` — (29) ⇒ (30): Hurwitz W̃_{m,k} → W_m + β₀I bounds the spectral abscissa of
  W_m. Printed strict (< −β₀); the limit gives only ≤ −β₀ (A.9's (47) prints ≤).
- :class:`DivideStep` — (34) ⇒ (35), (55) ⇒ (56), and (57) (and A.8's choice ε = ½β₀Z₀).
- :class:`ExpChain` — (39) ⇒ (40) ⇒ (41), and (42) with C′ := sup_{[0,T_ε]} e^{β₀t}|c_mᵀv_{m,t}|.
- :class:`LyapunovDerivative` — (51): dV/dt along (45), expanded and simplified with (48), Q = I.
- :class:`LyapunovSandwich` — (62) ⇒ (63) with (50); (65) from (48) and (64); (66) with
  C₀ = √(M/β₀)Υ_L = √(ML/M₀).

Where a formula has to be evaluated it is a method that runs in any field (SymPy, ℚ, mpmath,
python-flint balls, numpy and torch scalars), so every side of a claim reads it from here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from recmem.theory.proof import Proof, decide_zero, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

F = Fraction


def _sp() -> Any:
    import sympy

    return sympy


def times_const(c: Fraction, x: Any) -> Any:
    """c·x for an exact constant c and x of any field (SymPy, ℚ, mpmath, python-flint balls, numpy,
    torch): exact for ℚ and SymPy; elsewhere one multiplication and one division by integers, as
    Fractions do not mix with balls or tensors."""
    if isinstance(x, int | Fraction):
        return c * x
    return x * c.numerator / c.denominator


def _fr(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"({x})"


def _first_violation(margin: Any, points: list[dict[Any, Any]], strict: bool) -> dict[str, Any] | None:
    """The first exact point at which ``margin`` (a SymPy expression that the statement needs to be
    > 0, or ≥ 0 when not strict) is ≤ 0 (resp. < 0), with its value; None when there is none. The
    sign of the exact value is SymPy's (certified numerical evaluation for transcendental ones)."""
    for point in points:
        value = margin.subs(point)
        if value.free_symbols:
            continue
        bad = value.is_negative or (strict and value.is_zero)
        if bad:
            return {"point": {str(k): str(v) for k, v in point.items()}, "margin": str(value)}
    return None


# ---- (29) ⇒ (30) ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class EigenLimit(Statement):
    """W App. A.8, (29) ⇒ (30): if every W̃_{m,k} is Hurwitz (29) and W̃_{m,k} → W_m + s·β₀I
    (property 2 of the sequence; s = 1 as printed), then max_i Re λ_i(W_m) < −f·β₀ (strict: the
    printed (30)) or ≤ −f·β₀ (the limit's conclusion, as A.9's (47) prints it)."""

    strict: bool = True
    factor: Fraction = Fraction(1)
    shift: int = 1

    @property
    def text(self) -> str:
        lim = "W_m + β₀I" if self.shift == 1 else "W_m − β₀I"
        f = "" if self.factor == 1 else f"{_fr(self.factor)}·"
        rel = "<" if self.strict else "≤"
        return (f"For β₀ > 0 and real square W_m: if max_i Re λ_i(W̃_(m,k)) < 0 for every k (29) and "
                f"W̃_(m,k) → {lim} as k → ∞, then max_i Re λ_i(W_m) {rel} −{f}β₀ (30)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("bound doubled to −2β₀", replace(self, factor=self.factor * 2)),
                Control("bound multiplied by 9/8", replace(self, factor=self.factor * F(9, 8))),
                Control("limit W_m − β₀I instead of W_m + β₀I", replace(self, shift=-self.shift)))

    def bound(self, beta0: Any) -> Any:
        """The conclusion's bound −f·β₀ (any field)."""
        return -times_const(self.factor, beta0)

    def matrix(self, limit: Any, beta0: Any, identity: Any) -> Any:
        """W_m = (its limit W_m + s·β₀I) − s·β₀I, in any ring with an identity matrix."""
        return limit - self.shift * beta0 * identity

    def holds_at(self, alpha_minus_bound_sign: int) -> bool:
        """The conclusion from the sign of max Re λ(W_m) − bound (exact): < needs −1, ≤ needs ≤ 0."""
        return alpha_minus_bound_sign < 0 if self.strict else alpha_minus_bound_sign <= 0


def abscissa_sign(rows: Any, c: Fraction) -> int:
    """sign(max Re λ(W) − c) for a rational 2×2 (or 1×1) W, exactly: with τ = tr W/2 and
    Δ = τ² − det W, max Re λ = τ + √Δ (Δ ≥ 0) or τ (Δ < 0)."""
    if len(rows) == 1:
        d = rows[0][0] - c
        return (d > 0) - (d < 0)
    (a, b), (cc, d) = rows
    tau = (a + d) / 2
    disc = tau * tau - (a * d - b * cc)
    if disc < 0:
        x = tau - c
        return (x > 0) - (x < 0)
    # τ + √Δ vs c: equal iff c − τ ≥ 0 and Δ = (c − τ)²
    gap = c - tau
    if gap < 0:
        return 1
    sq = gap * gap
    return (disc > sq) - (disc < sq)


def eigen_limit_proof(law: EigenLimit) -> Proof:
    """(29) ⇒ (30) decided: the spectral shift λ(W + cI) = λ(W) + c as an identity of
    characteristic polynomials (generic 2×2 over ℚ(entries); sI − (W + cI) = (s − c)I − W for any
    size), then the order step. With
    a := max Re λ(W_m), the limit gives a + s·β₀ = −d, d ≥ 0 (the spectrum depends continuously on
    the entries, and a limit of negatives is ≤ 0 — cited, not derived); the conclusion needs
    margin −f·β₀ − a = (s − f)β₀ + d to be > 0 (strict) or ≥ 0. A violated margin is shown at an
    exact point: W_m = (−sβ₀ − d) (1×1), W̃_(m,k) = (−d − 1/k)."""
    sp = _sp()
    lam, c = sp.symbols("lambda c")
    w = sp.Matrix(2, 2, sp.symbols("w0:4"))
    eye = sp.eye(2)
    shift_step = decide_zero(sp.expand((lam * eye - (w + c * eye)).det() - ((lam - c) * eye - w).det()),
                             simplify=sp.expand)
    beta0 = sp.Symbol("beta0", positive=True)
    d = sp.Symbol("d", nonnegative=True)
    a = -law.shift * beta0 - d
    margin = sp.expand(law.bound(beta0) * 1 - a)
    decided = margin.is_positive if law.strict else margin.is_nonnegative
    scope = ("every β₀ > 0 and real square W_m that is the limit minus s·β₀I of Hurwitz matrices "
             "(continuity of the spectrum cited)")
    if decided:
        return proof_from_steps({"spectral shift det(λI − (W + cI)) = det((λ − c)I − W)": shift_step,
                                 f"margin (s − f)β₀ + d {'>' if law.strict else '≥'} 0 for d ≥ 0":
                                 fact(True, "margin sign")},
                                scope, "SymPy: characteristic-polynomial identity and assumptions",
                                {"margin": str(margin)}, general=True)
    points = [{beta0: b, d: dd} for b in (sp.Integer(1), sp.Rational(1, 2)) for dd in (0, 1)]
    bad = _first_violation(margin, points, law.strict)
    if bad is None:
        return Proof(None, scope, "SymPy could not decide the margin's sign", details={"margin": str(margin)})
    b0, dd = (sp.Rational(bad["point"]["beta0"]), sp.Rational(bad["point"]["d"]))
    wm = -law.shift * b0 - dd
    return Proof(False, scope, "SymPy: margin at an exact point",
                 counterexample={**bad, "W_m": f"({wm})", "W̃_(m,k)": f"({-dd} − 1/k), Hurwitz for every k",
                                 "max Re λ(W_m)": str(wm), "bound": str(law.bound(b0))},
                 details={"margin": str(margin)})


# ---- (34) ⇒ (35), (55) ⇒ (56), (57) -------------------------------------------------------------

@dataclass(frozen=True)
class DivideStep(Statement):
    """W App. A.8 (34) ⇒ (35), App. A.9 (55) ⇒ (56) ⇒ (57): for β₀ > 0, a = |c_mᵀv| ≥ 0 and
    r = |v|₂ ≥ 0, a + β₀r < ε implies r < f·ε·β₀^p (printed p = −1, f = 1); with ε < β₀Υ_L this is
    < Υ_L (57), and A.8's choice ε = ½β₀Z₀ gives < Z₀."""

    power: int = -1
    factor: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        b = "ε/β₀" if self.power == -1 else ("εβ₀" if self.power == 1 else f"ε·β₀^{self.power}")
        f = "" if self.factor == 1 else f"{_fr(self.factor)}·"
        return (f"For β₀ > 0, a ≥ 0, r ≥ 0: a + β₀r < ε (34)/(55) ⇒ r < {f}{b} (35)/(56); ε < β₀Υ_L ⇒ "
                f"{f}{b} < Υ_L (57); ε = ½β₀Z₀ ⇒ {f}{b} < Z₀ (A.8)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("εβ₀ instead of ε/β₀", replace(self, power=-self.power)),
                Control("bound halved", replace(self, factor=self.factor / 2)),
                Control("bound multiplied by 7/8", replace(self, factor=self.factor * F(7, 8))))

    def bound(self, eps: Any, beta0: Any) -> Any:
        """f·ε·β₀^p in any field."""
        out = times_const(self.factor, eps)
        for _ in range(abs(self.power)):
            out = out / beta0 if self.power < 0 else out * beta0
        return out


def divide_margins(law: DivideStep, a: Any, r: Any, beta0: Any, delta: Any, theta: Any, ups: Any,
                   z0: Any) -> tuple[Any, Any, Any]:
    """The three margins the step needs > 0 (any field): bound − r with ε = a + β₀r + δ (δ > 0);
    Υ_L − bound with ε = θβ₀Υ_L (0 < θ < 1); Z₀ − bound with ε = ½β₀Z₀."""
    m35 = law.bound(a + beta0 * r + delta, beta0) - r
    m57 = ups - law.bound(theta * beta0 * ups, beta0)
    m_a8 = z0 - law.bound(beta0 * z0 / 2, beta0)
    return m35, m57, m_a8


def divide_proof(law: DivideStep) -> Proof:
    """The step decided by SymPy's assumptions over all β₀, δ, Υ_L, Z₀ > 0, a, r ≥ 0, θ ∈ (0, 1)
    (θ = 1/(1 + κ), κ > 0), or refuted at an exact point."""
    sp = _sp()
    pos = {n: sp.Symbol(n, positive=True) for n in ("beta0", "delta", "Upsilon", "Z0", "kappa")}
    a, r = sp.Symbol("a", nonnegative=True), sp.Symbol("r", nonnegative=True)
    theta = 1 / (1 + pos["kappa"])
    margins = [sp.factor(sp.together(m)) for m in
               divide_margins(law, a, r, pos["beta0"], pos["delta"], theta, pos["Upsilon"], pos["Z0"])]
    names = ("(35)/(56): f·ε·β₀^p − r", "(57): Υ_L − f·ε·β₀^p", "A.8: Z₀ − f·ε·β₀^p")
    scope = "every β₀, δ, Υ_L, Z₀ > 0, a, r ≥ 0 and ε < β₀Υ_L"
    if all(m.is_positive for m in margins):
        return proof_from_steps({n: fact(True, n) for n in names}, scope,
                                "SymPy assumptions on the margins", {n: str(m) for n, m in
                                                                     zip(names, margins, strict=True)},
                                general=True)
    one, half, eighth = sp.Integer(1), sp.Rational(1, 2), sp.Rational(1, 8)
    points = [{pos["beta0"]: b, pos["delta"]: eighth, pos["Upsilon"]: one, pos["Z0"]: one,
               pos["kappa"]: eighth, a: 0, r: one} for b in (one, half, sp.Integer(2))]
    for n, m in zip(names, margins, strict=True):
        bad = _first_violation(m, points, strict=True)
        if bad is not None:
            return Proof(False, scope, "SymPy: a margin at an exact point", counterexample={"step": n, **bad},
                         details={"margin": str(m)})
    return Proof(None, scope, "SymPy could not decide the margins' signs",
                 details={n: str(m) for n, m in zip(names, margins, strict=True)})


# ---- (39) ⇒ (40) ⇒ (41), (42) -------------------------------------------------------------------

@dataclass(frozen=True)
class ExpChain(Statement):
    """W App. A.8 (39)–(42). With |v_{m,T_ε}|₂ ≤ Z₀/2 ((35) with ε = ½β₀Z₀, at T_ε by continuity):
    (40) |c_m|₂|v_{T_ε}|₂e^{−β₀(t−T_ε)} ≤ |c_m|₂·z·Z₀e^{−β₀(t−T_ε)} (printed z = 1); (41)
    |c_m|₂Z₀e^{−β₀(t−T_ε)} = |c_m|₂Z₀e^{sβ₀T_ε}e^{−β₀t} (printed s = 1); (42) with
    C′ := sup_{s∈[0,T_ε]} e^{β₀s}|c_mᵀv_{m,s}|: |c_mᵀv_{m,t}| ≤ C′e^{−ρβ₀t} on [0, T_ε] (printed ρ = 1).
    The printed bound C′ ≤ e^{β₀T_ε}Z₀ sup_m|c_m|₂ is not part of this statement (see the claim's
    notes)."""

    z_factor: Fraction = Fraction(1)
    shift: int = 1
    rate: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        z = "Z₀" if self.z_factor == 1 else f"{_fr(self.z_factor)}·Z₀"
        s = "e^(β₀T_ε)" if self.shift == 1 else "e^(−β₀T_ε)"
        r = "β₀" if self.rate == 1 else f"{_fr(self.rate)}·β₀"
        return (f"For β₀ > 0, t ≥ T_ε ≥ 0 and |v_(m,T_ε)|₂ ≤ Z₀/2: |c_m|₂|v_(m,T_ε)|₂e^(−β₀(t−T_ε)) ≤ "
                f"|c_m|₂{z}e^(−β₀(t−T_ε)) (40) = |c_m|₂Z₀{s}e^(−β₀t) (41); and with C′ := "
                f"sup_(s∈[0,T_ε]) e^(β₀s)|c_mᵀv_(m,s)|: |c_mᵀv_(m,t)| ≤ C′e^(−{r}t) for t ∈ [0, T_ε] (42)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("Z₀ quartered in (40)", replace(self, z_factor=self.z_factor / 4)),
                Control("e^(−β₀T_ε) instead of e^(β₀T_ε) in (41)", replace(self, shift=-self.shift)),
                Control("rate 9/8·β₀ in (42)", replace(self, rate=self.rate * F(9, 8))))

    def sides_40(self, c_norm: Any, v_norm: Any, z0: Any, decay: Any) -> tuple[Any, Any]:
        """(40)'s two sides (lhs ≤ rhs), decay = e^{−β₀(t−T_ε)} (any field)."""
        return c_norm * v_norm * decay, c_norm * times_const(self.z_factor, z0) * decay

    def sides_41(self, c_norm: Any, z0: Any, exp: Any, beta0: Any, t: Any, t_eps: Any) -> tuple[Any, Any]:
        """(41)'s two sides (an identity); ``exp`` is the field's exponential."""
        return c_norm * z0 * exp(-beta0 * (t - t_eps)), c_norm * z0 * exp(self.shift * beta0 * t_eps) * exp(
            -beta0 * t)

    def sides_42(self, g_t: Any, c_prime: Any, exp: Any, beta0: Any, t: Any) -> tuple[Any, Any]:
        """(42)'s two sides (lhs ≤ rhs): |c_mᵀv_t| and C′e^{−ρβ₀t}."""
        return g_t, c_prime * exp(-times_const(self.rate, beta0) * t)


def exp_chain_proof(law: ExpChain) -> Proof:
    """(40): margin c·(zZ₀ − |v_T|)·e^{…} with |v_T| = Z₀/2 − d, d ∈ [0, Z₀/2]; (41): the identity
    decided by simplification; (42): C′ − e^{β₀t}g(t) = δ ≥ 0 (C′ is a supremum over [0, T_ε] ∋ t),
    margin C′e^{−ρβ₀t} − g(t). Each decided by SymPy, or refuted at an exact point."""
    sp = _sp()
    c, z0, b0, e = (sp.Symbol(n, positive=True) for n in ("c", "Z0", "beta0", "decay"))
    t, t_eps, dl = (sp.Symbol(n, nonnegative=True) for n in ("t", "T_eps", "delta"))
    d = sp.Symbol("d", nonnegative=True)
    lhs40, rhs40 = law.sides_40(c, z0 / 2 - d, z0, e)
    m40 = sp.factor(sp.expand(rhs40 - lhs40))
    lhs41, rhs41 = law.sides_41(c, z0, sp.exp, b0, t, t_eps)
    s41 = decide_zero(lhs41 - rhs41, points=[{c: 1, z0: 1, b0: 1, t: 2, t_eps: 1}],
                      simplify=lambda x: sp.powsimp(sp.expand(x), combine="exp"))
    cp = sp.Symbol("Cprime", positive=True)
    g = (cp - dl) * sp.exp(-b0 * t)  # e^{β₀t}g(t) = C′ − δ
    lhs42, rhs42 = law.sides_42(g, cp, sp.exp, b0, t)
    # divided by e^{−β₀t} > 0: C′e^{(1−ρ)β₀t} − C′ + δ
    m42 = sp.expand(sp.powsimp(sp.expand((rhs42 - lhs42) * sp.exp(b0 * t)), combine="exp"))
    scope = "every β₀, Z₀, |c_m|₂ > 0, 0 ≤ T_ε ≤ t (41), t ∈ [0, T_ε] (42)"
    m40_ok = m40.is_nonnegative
    steps: dict[str, Any] = {}
    if m40_ok:
        steps["(40) margin ≥ 0"] = fact(True, "(40)")
    else:
        bad = _first_violation(m40, [{c: 1, z0: 1, e: 1, d: 0}], strict=False)
        if bad:
            return Proof(False, scope, "SymPy: (40)'s margin at an exact point",
                         counterexample={"step": "(40)", **bad})
        steps["(40) margin ≥ 0"] = None
    if s41[0] is False:
        return Proof(False, scope, "SymPy: (41) at an exact point", counterexample={"step": "(41)", **s41[1]})
    steps["(41) identity"] = s41
    m42_simpl = m42
    ok42 = m42_simpl.is_nonnegative
    if ok42:
        steps["(42) margin ≥ 0"] = fact(True, "(42)")
    else:
        bad = _first_violation(m42, [{cp: 1, dl: 0, b0: 1, t: 1}], strict=False)
        if bad:
            return Proof(False, scope, "SymPy: (42)'s margin at an exact point",
                         counterexample={"step": "(42)", **bad})
        steps["(42) margin ≥ 0"] = None
    return proof_from_steps(steps, scope, "SymPy: simplification and assumptions",
                            {"(40) margin": str(m40), "(42) margin": str(m42_simpl)}, general=True)


def exp_chain_42_exact(law: ExpChain, gamma: Fraction, beta0: Fraction, t_eps: Fraction,
                       t: Fraction) -> tuple[bool, Fraction]:
    """(42) decided exactly for g(s) = K e^{−γs} (K > 0; one decaying mode of c_mᵀv_{m,s}):
    C′ = K·e^{max(0, (β₀ − γ)T_ε)}; g(t) ≤ C′e^{−ρβ₀t} iff −γt ≤ max(0, (β₀ − γ)T_ε) − ρβ₀t (exp is
    increasing). Returns (holds, the exponent gap rhs − lhs)."""
    gap = max(F(0), (beta0 - gamma) * t_eps) - law.rate * beta0 * t + gamma * t
    return gap >= 0, gap


# ---- (51) ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LyapunovDerivative(Statement):
    """W App. A.9 (51): for P with WᵀP + PW = −I (48), along (45) v′ = (I − Diag(v)²)Wv,
    d/dt vᵀPv = vᵀ(Wᵀ(I − D²)P + P(I − D²)W)v = −q|v|₂² + s·vᵀ(WᵀD²P + PD²W)v with D = Diag(v)
    (printed q = 1, s = −1)."""

    q: Fraction = Fraction(1)
    sign: int = -1

    @property
    def text(self) -> str:
        q = "" if self.q == 1 else f"{_fr(self.q)}·"
        s = "−" if self.sign == -1 else "+"
        return ("For real W, P = Pᵀ with WᵀP + PW = −I (48), along v′ = (I − Diag(v)²)Wv (45): "
                f"dV(v)/dt = vᵀ(Wᵀ(I − D²)P + P(I − D²)W)v = −{q}|v|₂² {s} vᵀ(WᵀD²P + PD²W)v "
                "(51), V(v) = vᵀPv, D = Diag(v)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of the Diag(v)² term flipped", replace(self, sign=-self.sign)),
                Control("−2|v|₂² instead of −|v|₂²", replace(self, q=self.q * 2)),
                Control("−(9/8)|v|₂² instead of −|v|₂²", replace(self, q=self.q * F(9, 8))))

    def rhs(self, v_norm2: Any, quart: Any) -> Any:
        """The right side −q|v|₂² + s·q(v), q(v) = vᵀ(WᵀD²P + PD²W)v (theory.lyapunov.quartic)."""
        return -times_const(self.q, v_norm2) + self.sign * quart


@lru_cache(maxsize=4)
def _generic_51(m: int) -> tuple[Any, Any, Any, Any]:
    """For generic m×m W, symmetric P, v: dV/dt by the product rule along (45), 2vᵀP(I − D²)Wv
    (expanded); SymPy's decision that it equals (51)'s first line; vᵀ(WᵀP + PW)v; and
    q(v) = vᵀ(WᵀD²P + PD²W)v. Statement-independent: built once."""
    sp = _sp()
    from recmem.theory.lyapunov import quartic

    w = sp.Matrix(m, m, sp.symbols(f"w0:{m * m}"))
    ps = sp.symbols(f"p0:{m * m}")
    p = sp.Matrix([[ps[min(i, j) * m + max(i, j)] for j in range(m)] for i in range(m)])
    v = sp.Matrix(sp.symbols(f"v0:{m}"))
    d2 = sp.diag(*[x ** 2 for x in v])
    lhs = sp.expand((2 * v.T * p * (sp.eye(m) - d2) * w * v)[0])
    first = (v.T * (w.T * (sp.eye(m) - d2) * p + p * (sp.eye(m) - d2) * w) * v)[0]
    lyap = sp.expand((v.T * (w.T * p + p * w) * v)[0])  # = −|v|₂² by (48), Q = I
    # q(v) = 2Σ(Pv)_i v_i²(Wv)_i (theory.lyapunov.quartic; the identity with
    # vᵀ(WᵀD²P + PD²W)v is W.lyapunov-local's symbolic step)
    quart = sp.expand(quartic(list(p * v), list(w * v), list(v)))
    return lhs, decide_zero(sp.expand(lhs - first), simplify=sp.expand), lyap, quart


def lyapunov_derivative_proof(law: LyapunovDerivative, sizes: tuple[int, ...] = (2, 3)) -> Proof:
    """(51) decided for generic m×m W, symmetric P and v (m ∈ ``sizes``): the product rule along
    (45), 2vᵀP(I − D²)Wv, equals the statement's right side once −|v|₂² is written
    vᵀ(WᵀP + PW)v — which is (48) with Q = I — a polynomial identity in the entries. A wrong right
    side is refuted at exact points (W Hurwitz, P the exact solution of (48), v rational)."""
    sp = _sp()
    from recmem.theory.lyapunov import _p_of, local_form

    steps: dict[str, Any] = {}
    for m in sizes:
        lhs, first_step, lyap, quart = _generic_51(m)
        steps[f"m = {m}: product rule = first line of (51)"] = first_step
        steps[f"m = {m}: = right side, −|v|₂² = vᵀ(WᵀP + PW)v"] = decide_zero(
            sp.expand(lhs - law.rhs(-lyap, quart)), simplify=sp.expand)
    scope = f"generic real W, symmetric P, v of size m ∈ {{{', '.join(map(str, sizes))}}} with (48), Q = I"
    pr = proof_from_steps(steps, scope, "SymPy: polynomial identities in the entries", general=True)
    if pr.holds is True:
        return pr
    # a wrong right side: exact points where (48) holds
    for rows, vv in ((((-1, 1), (0, -2)), (1, 2)), (((-2, 1), (-1, -1)), (1, -1))):
        w = sp.Matrix(rows)
        p = _p_of(w)
        v = sp.Matrix(vv)
        d2 = sp.diag(*[x ** 2 for x in v])
        lhs = (2 * v.T * p * (sp.eye(2) - d2) * w * v)[0]
        rhs = law.rhs((v.T * v)[0], local_form(w, p, v))
        diff = sp.nsimplify(lhs - rhs)
        if diff != 0:
            return Proof(False, scope, "exact evaluation at a point satisfying (48)",
                         counterexample={"W": str(rows), "P": str(p.tolist()), "v": str(vv),
                                         "dV/dt (product rule)": str(lhs), "right side": str(rhs)})
    return pr


# ---- (62) ⇒ (63), (65), (66) --------------------------------------------------------------------

@dataclass(frozen=True)
class LyapunovSandwich(Statement):
    """W App. A.9 (63), (65), (66). For Hurwitz W with WᵀP + PW = −I (48), ‖P‖₂ ≤ 1/(2β₀) (50),
    ‖W‖₂ ≤ M (64), |v_T|₂ ≤ Υ_L and κ = (1 − L)β₀:
    (63) V(v_t) ≤ e^{−2κ(t−T)}V(v_T) (62) ≤ e^{−2κ(t−T)}·u·Υ_L²/β₀ (printed u = 1/2);
    (65) ‖P‖₂ ≥ λ_min(P) ≥ ℓ/M, so V(v) ≥ (ℓ/M)|v|₂² (printed ℓ = 1/2; the proof infers V ≥ |v|²/(2M)
    from ‖P‖₂ ≥ 1/(2M), which bounds the largest eigenvalue — λ_min(P) ≥ 1/(2‖W‖₂) is what holds);
    (66) |v_t|₂² ≤ k·(M/β₀)Υ_L²e^{−2κ(t−T)}, i.e. C₀ = √(kM/β₀)Υ_L (printed k = 1), = √(ML/M₀)."""

    upper: Fraction = Fraction(1, 2)
    lower: Fraction = Fraction(1, 2)
    c0_sq: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        k = "" if self.c0_sq == 1 else f"{_fr(self.c0_sq)}·"
        return (f"For Hurwitz W_m, WᵀP + PW = −I (48), ‖P‖₂ ≤ 1/(2β₀) (50), ‖W_m‖₂ ≤ M (64), "
                f"|v_T|₂ ≤ Υ_L: V(v_t) ≤ e^(−2(1−L)β₀(t−T))·{_fr(self.upper)}·Υ_L²/β₀ (63); "
                f"‖P_m‖₂ ≥ λ_min(P_m) ≥ {_fr(self.lower)}/M, V(v) ≥ {_fr(self.lower)}|v|₂²/M (65); "
                f"|v_t|₂ ≤ C₀e^(−(1−L)β₀(t−T)) with C₀² = {k}(M/β₀)Υ_L² = {k}ML/M₀ (66)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("1/(2β₀) halved in (63)", replace(self, upper=self.upper / 2)),
                Control("1/(2M) doubled in (65)", replace(self, lower=self.lower * 2)),
                Control("C₀² halved in (66)", replace(self, c0_sq=self.c0_sq / 2)),
                Control("C₀² multiplied by 7/8 in (66)", replace(self, c0_sq=self.c0_sq * F(7, 8))))

    def bound_63(self, ups2: Any, beta0: Any) -> Any:
        """u·Υ_L²/β₀ (the factor e^{−2κ(t−T)} common to both sides left out)."""
        return times_const(self.upper, ups2) / beta0

    def bound_65(self, v_norm2: Any, m_bound: Any) -> Any:
        """(ℓ/M)|v|₂², the lower bound on V(v)."""
        return times_const(self.lower, v_norm2) / m_bound

    def bound_66(self, m_bound: Any, beta0: Any, ups2: Any) -> Any:
        """C₀² = k(M/β₀)Υ_L² (times e^{−2κ(t−T)}, left out)."""
        return times_const(self.c0_sq, m_bound * ups2) / beta0


def sandwich_proof(law: LyapunovSandwich) -> Proof:
    """Each bound decided by SymPy's assumptions, or refuted at an exact point.
    (63): V(v) ≤ ‖P‖₂|v|₂² (Rayleigh) with ‖P‖₂|v|₂² = ψ·Υ_L²/(2β₀), ψ = 1 − s ∈ [0, 1] by (50) and
    |v|₂ ≤ Υ_L. (65): an eigenpair Pu = μu, |u|₂ = 1, gives −1 = uᵀ(WᵀP + PW)u = 2μ·uᵀWu (identity
    decided for generic 2×2 symmetric P), so μ = 1/(2x) with x = −uᵀWu ∈ (0, ‖W‖₂] ⊂ (0, M]:
    x = M/(1 + s). (66): |v|₂² ≤ V/λ_min(P) ≤ 2M·V and V ≤ Υ_L²/(2β₀)·e (63): |v|₂² = ψ(M/β₀)Υ_L²e;
    and √(M/β₀)·√(β₀L/M₀) = √(ML/M₀) (Υ_L of (52))."""
    sp = _sp()
    b0, ups, mm, e = (sp.Symbol(n, positive=True) for n in ("beta0", "Upsilon", "M", "decay"))
    s = sp.Symbol("s", nonnegative=True)
    psi = 1 / (1 + s)  # ψ ∈ (0, 1]
    m63 = sp.factor(law.bound_63(ups ** 2, b0) - psi * ups ** 2 / (2 * b0))
    mu = (1 + s) / (2 * mm)
    m65 = sp.factor(mu - law.bound_65(1, mm))
    m66 = sp.factor(law.bound_66(mm, b0, ups ** 2) * e - psi * mm / b0 * ups ** 2 * e)
    # the eigenpair identity for generic 2×2: uᵀ(WᵀP + PW)u = 2μ uᵀWu when Pu = μu, P = Pᵀ
    u1, u2, mu_s = sp.symbols("u1 u2 mu")
    w = sp.Matrix(2, 2, sp.symbols("w0:4"))
    u = sp.Matrix([u1, u2])
    pu = mu_s * u  # Pu = μu and uᵀP = μuᵀ (P symmetric)
    eig_id = decide_zero(sp.expand((u.T * w.T * pu)[0] + (pu.T * w * u)[0] - 2 * mu_s * (u.T * w * u)[0]),
                         simplify=sp.expand)
    lz, m0 = sp.symbols("L M0", positive=True)
    c0 = decide_zero(sp.sqrt(mm / b0) * sp.sqrt(b0 * lz / m0) - sp.sqrt(mm * lz / m0))
    scope = "every β₀, Υ_L, M > 0 and W, P, v with (48), (50), (64), |v|₂ ≤ Υ_L"
    names = ("(63) margin", "(65) margin", "(66) margin")
    margins = (m63, m65, m66)
    steps: dict[str, Any] = {"eigenpair: uᵀ(WᵀP + PW)u = 2μ·uᵀWu": eig_id, "C₀ = √(ML/M₀)": c0}
    for n, m in zip(names, margins, strict=True):
        if m.is_nonnegative:
            steps[n] = fact(True, n)
            continue
        bad = _first_violation(m, [{b0: 1, ups: 1, mm: 1, s: 0, e: 1}], strict=False)
        if bad:
            return Proof(False, scope, "SymPy: a margin at an exact point", counterexample={"step": n, **bad})
        steps[n] = None
    return proof_from_steps(steps, scope, "SymPy: assumptions on the margins, identities",
                            {n: str(m) for n, m in zip(names, margins, strict=True)}, general=True)


# ---- the constant C′ of (42) ----------------------------------------------------------------------

@dataclass(frozen=True)
class WarmupConstant(Statement):
    """W App. A.8, the constant before (42): C′ := sup_{t∈[0,T_ε]} e^{β₀t}|c_mᵀv_{m,t}| ≤ f·e^{β₀T_ε}·B,
    where T_ε is a time after which (33) holds with ε = ½β₀Z₀, and B = Z₀·|c_m|₂ (printed,
    ``reach="Z0"``) or B = |c_m|₂·sup_{[0,T_ε]}|v_{m,t}|₂ (``reach="sup"``, the correction).

    Evaluated on the family the proof's linear regime allows: hardtanh (𝒜₀, c_σ = 1, Z₀ = 1)
    RNNs with W_m = −γI, γ ≥ β₀ ((31)), input state v₀ = s·(3/5, 4/5) inside the cube (so
    v_t = e^{−γt}v₀ exactly: z stays in (−1, 1)²), readout c_m = k·(3/5, 4/5), and T_ε the least time
    of (33): (|c_mᵀv_t| + β₀|v_t|₂) ≤ ε for t ≥ T_ε, i.e. e^{γT_ε} = max(1, s(k + β₀)/ε)."""

    reach: str = "Z0"
    factor: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        b = {"Z0": "Z₀·sup_m|c_m|₂", "sup": "|c_m|₂·sup_(t∈[0,T_ε])|v_(m,t)|₂",
             "end": "|c_m|₂·|v_(m,T_ε)|₂"}[self.reach]
        f = "" if self.factor == 1 else f"{_fr(self.factor)}·"
        return (f"For a time T_ε after which (33) holds with ε = ½β₀Z₀: C′ := sup_(t∈[0,T_ε]) "
                f"e^(β₀t)|c_mᵀv_(m,t)| ≤ {f}e^(β₀T_ε)·{b} (A.8, before (42))")

    def controls(self) -> tuple[Control, ...]:
        return (Control("bound multiplied by 7/8", replace(self, factor=self.factor * F(7, 8))),
                Control("|v_(m,T_ε)|₂ (the end point) instead of the bound on [0, T_ε]",
                        replace(self, reach="end")))

    def exceeds(self, s: Fraction, k: Fraction, beta0: Fraction, gamma: Fraction,
                z0: Fraction = Fraction(1)) -> bool:
        """Whether C′ exceeds the bound on the family (exact over ℚ): C′ = ks (γ ≥ β₀: e^{(β₀−γ)t}
        falls), e^{β₀T_ε} = R^{β₀/γ} with R = max(1, s(k + β₀)/ε); with β₀/γ = p/q, C′ > f·R^{p/q}·B
        ⟺ (C′·R^e/(f·B₀))^q > R^p (both sides ≥ 0; |v_{T_ε}|₂ = s/R: e = 1 for "end", else 0)."""
        eps = beta0 * z0 / 2
        ratio = max(F(1), s * (k + beta0) / eps)
        reach = z0 * k if self.reach == "Z0" else k * s  # |v_t|₂ = s e^{−γt}: its sup is s
        c_prime = k * s * (ratio if self.reach == "end" else 1)
        bound = self.factor * reach
        pq = beta0 / gamma
        return (c_prime / bound) ** pq.denominator > ratio ** pq.numerator


def warmup_proof(law: WarmupConstant) -> Proof:
    """The corrected bound over every trajectory: for t ∈ [0, T_ε], t = T_ε − τ, e^{−β₀τ} = 1/(1 + σ)
    (σ ≥ 0) and |c_mᵀv_t| = |c_m|₂V − δ (V = sup|v|₂, δ ≥ 0, Cauchy–Schwarz), the margin
    f·e^{β₀T_ε}|c_m|₂V − e^{β₀t}|c_mᵀv_t| is ≥ 0 by SymPy's assumptions. The printed bound (and any
    statement SymPy cannot prove) is decided at the exact RNN of the family with s = 6/5, k = 1,
    β₀ = 1/2, γ = 8, Z₀ = 1 (T_ε = ln(36/5)/8)."""
    sp = _sp()
    if law.reach == "sup":
        b0, cn, vs, tt = (sp.Symbol(n, positive=True) for n in ("beta0", "c", "V", "T"))
        sig, dl = sp.Symbol("sigma", nonnegative=True), sp.Symbol("delta", nonnegative=True)
        ex = sp.exp(b0 * tt)
        at_t = sp.exp(b0 * tt) / (1 + sig) * (cn * vs - dl)  # e^{β₀t}|c_mᵀv_t|, t = T_ε − τ
        margin = sp.factor(times_const(law.factor, ex * cn * vs) - at_t)
        if margin.is_nonnegative:
            return proof_from_steps({"margin ≥ 0": fact(True, "margin")},
                                    "every trajectory, β₀ > 0, T_ε ≥ 0, t ∈ [0, T_ε]",
                                    "SymPy assumptions (Cauchy–Schwarz, e^{β₀t} ≤ e^{β₀T_ε})",
                                    {"margin": str(margin)}, general=True)
    s, k, b0q, gam = F(6, 5), F(1), F(1, 2), F(8)
    if not law.exceeds(s, k, b0q, gam):
        return Proof(None, "the exact RNN of the family", "the bound holds at the exact RNN; SymPy "
                     "could not prove it in general")
    eps = b0q / 2
    t_eps = sp.log(sp.Rational(s * (k + b0q) / eps)) / gam
    reach = sp.Rational(k if law.reach == "Z0" else k * s) * (
        sp.exp(-gam * t_eps) if law.reach == "end" else 1)
    ex = sp.exp(sp.Rational(b0q) * t_eps)
    bound = times_const(law.factor, sp.nsimplify(ex * reach))
    gap = sp.Rational(k * s) - bound
    if not gap.is_positive:
        return Proof(None, "the exact RNN of the family", "SymPy could not decide the sign at the RNN",
                     details={"C′ − bound": str(gap)})
    return Proof(False, "the exact RNN of the family",
                 "exact: v_t = e^{−8t}v₀ (linear regime), T_ε the least time of (33)",
                 counterexample={"σ": "hardtanh (Z₀ = 1)", "W_m": "−8·I₂",
                                 "v₀ = σ(Ux₀ + b)": "(18/25, 24/25)",
                                 "c_m": "(3/5, 4/5)", "β₀": "1/2", "ε = ½β₀Z₀": "1/4",
                                 "T_ε": str(t_eps), "C′ (at t = 0)": "6/5", "bound": str(bound),
                                 "C′ − bound": f"{gap} ≈ {sp.N(gap, 6)}"})
