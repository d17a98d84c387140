"""Paper W's Lyapunov statements, each written once (App. A.8–A.10 of the ICLR camera-ready; the
equation numbers are the camera-ready's, ``W-iclr2024-camera-ready.md``).

Statements (one :class:`~recmem.theory.statement.Statement` per family):

- :class:`LyapunovIntegral` — A.9 eqs. (48)–(49) and the proof of Lemma A.8, eq. (78):
  P = ∫₀^∞ e^{Wᵀt} Q e^{Wt} dt solves Wᵀ P + P W = −Q and P ≻ 0 (W Hurwitz, Q ≻ 0).
- :class:`NormBound` — Lemma A.8, eqs. (75)–(77): ‖P‖₂ ≤ 1/(2β₀); its corrections, and the
  qualitative sup_m ‖P_m‖₂ < ∞ under Lemma A.9's (86)–(87).
- :class:`LocalQuartic` — Lemma A.9, eqs. (86)–(89) and the proof's radius (102).
- :class:`DiagCubeBound` — the proof of Lemma A.9, eqs. (92)–(98): |Diag(v)²Wv|₂ ≤ M₀|v|₂³.
- :class:`SemigroupBound` — A.8, eqs. (31), (36)–(38): ‖e^{Wt}‖₂ ≤ e^{−β₀t}.

Each class's fields are what a nearby false statement changes; its methods evaluate the formula
and the hypotheses over any arithmetic (SymPy, ℚ, ℚ(i), mpmath, flint balls, numpy, torch), so the
symbolic side, every numeric side and the exact search read them from here.

Also here: the exact integral ∫₀^∞ of e^{Wᵀt}Qe^{Wt} over ℚ(i) from a triangular form of W
(:func:`exact_integral`), and the symbolic decisions (``*_proof``), each three-valued: proved in a
stated scope, disproved with an exact counterexample, or undecided with the reason.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from recmem.theory.proof import Proof, decide_zero, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement

Mul = Callable[[Any, Any], Any]
Tr = Callable[[Any], Any]


def _sp() -> Any:
    import sympy

    return sympy


def _frac(x: Fraction) -> str:
    return str(x)


# =============================================================================================
# the statements
# =============================================================================================

@dataclass(frozen=True)
class LyapunovIntegral(Statement):
    """W App. A.9 eqs. (48)–(49), Lemma A.8 proof eq. (78): for W with max Re λ(W) <
    ``abscissa_below`` (printed: 0, i.e. Hurwitz) and Q ≻ 0, P := ∫₀^∞ (integrand) dt solves
    Wᵀ P + P W = ``rhs_sign``·Q and is ``definite`` (+1: P ≻ 0).

    The integrand is e^{Wᵀt} X e^{Wt} (``transpose_left``) or e^{Wt} X e^{Wᵀt}, with X = Q
    (``weight`` "Q") or X = I (``weight`` "I": the last member of eq. (49), read under its
    sentence "For any positive definite matrix Q_m").
    """

    transpose_left: bool = True
    rhs_sign: int = -1
    definite: int = 1
    weight: str = "Q"
    abscissa_below: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.rhs_sign not in (1, -1) or self.definite not in (1, -1):
            raise ValueError("rhs_sign and definite are ±1")

    @property
    def text(self) -> str:
        x = "Q" if self.weight == "Q" else "I"
        integrand = f"e^(Wᵀt) {x} e^(Wt)" if self.transpose_left else f"e^(Wt) {x} e^(Wᵀt)"
        hyp = ("W Hurwitz (max Re λ(W) < 0)" if self.abscissa_below == 0
               else f"max Re λ(W) < {self.abscissa_below}")
        rhs = "−Q" if self.rhs_sign < 0 else "Q"
        sign = "P ≻ 0" if self.definite > 0 else "P ≺ 0"
        return (f"For {hyp} and Q ≻ 0, P = ∫_0^∞ {integrand} dt (49) solves Wᵀ P + P W = {rhs} "
                f"(48) and {sign}")

    def controls(self) -> tuple[Control, ...]:
        return (
            Control("Wᵀ and W swapped in the integrand",
                    replace(self, transpose_left=not self.transpose_left)),
            Control("sign of Q flipped in the equation", replace(self, rhs_sign=-self.rhs_sign)),
            Control("P ≻ 0 replaced by P ≺ 0", replace(self, definite=-self.definite)),
            Control("hypothesis widened: max Re λ(W) < 1/4 instead of < 0",
                    replace(self, abscissa_below=self.abscissa_below + Fraction(1, 4))),
        )

    # ---- hypotheses ----
    def admits(self, alpha: Fraction, q_positive: bool) -> bool:
        """Whether (W, Q) with spectral abscissa ``alpha`` (exact) satisfies the hypotheses."""
        return alpha < self.abscissa_below and q_positive

    # ---- formula, over any ring (``mul`` the matrix product, ``tr`` the transpose) ----
    def weight_of(self, q: Any, eye: Any) -> Any:
        """The matrix between the two exponentials."""
        return q if self.weight == "Q" else eye

    def congruence(self, e: Any, x: Any, mul: Mul, tr: Tr) -> Any:
        """eᵀ x e (``transpose_left``) or e x eᵀ."""
        return mul(mul(tr(e), x), e) if self.transpose_left else mul(mul(e, x), tr(e))

    def integrand(self, e: Any, q: Any, eye: Any, mul: Mul, tr: Tr) -> Any:
        """The integrand at a time t, from e = e^{Wt}."""
        return self.congruence(e, self.weight_of(q, eye), mul, tr)

    def residual(self, w: Any, p: Any, q: Any, mul: Mul, tr: Tr) -> Any:
        """Wᵀ P + P W − rhs_sign·Q (zero iff P solves the statement's equation)."""
        return mul(tr(w), p) + mul(p, w) - self.rhs_sign * q

    def definiteness_violation(self, lmin: Any, lmax: Any) -> Any:
        """How far P is from the claimed definiteness: −λ_min (P ≻ 0) or λ_max (P ≺ 0); the claim
        holds iff this is < 0."""
        return -lmin if self.definite == 1 else lmax


@dataclass(frozen=True)
class NormBound(Statement):
    """W Lemma A.8, eqs. (75)–(77): for W with W ∈ ``family``, max Re λ_i(W) ≤ −``beta_factor``·β₀
    (β₀ > 0) and Wᵀ P + P W = −I: ‖P‖₂ ≤ ``scale``·κ₂(V)^``kappa_power``/(2β₀) (W = V B V⁻¹, B
    normal, when kappa_power > 0).

    ``bound`` "finite" is the qualitative reading of (77), sup_m ‖P_m‖₂ < ∞, for every sequence
    W_m ∈ ℝ^{m×m} satisfying (76) (and (87), max|W_m,ij| ≤ M₀, when ``entry_bound``).
    """

    family: str = "hurwitz"  # hurwitz | normal | diagonalizable
    kappa_power: int = 0
    scale: Fraction = Fraction(1)
    beta_factor: Fraction = Fraction(1)
    bound: str = "constant"  # constant | finite
    entry_bound: bool = False

    FAMILY_TEXT: ClassVar[dict[str, str]] = {
        "hurwitz": "Hurwitz W", "normal": "normal Hurwitz W",
        "diagonalizable": "diagonalizable Hurwitz W = V B V⁻¹ (B normal)"}

    @property
    def text(self) -> str:
        hyp = "sup_i Re λ_i(W) ≤ −β₀" if self.beta_factor == 1 else \
            f"sup_i Re λ_i(W) ≤ −{self.beta_factor}·β₀"
        if self.bound == "finite":
            entries = (", sup_m max_ij |W_m,ij| ≤ M₀ (87)" if self.entry_bound else "")
            return (f"For every sequence of Hurwitz W_m ∈ ℝ^(m×m) with sup_m {hyp.replace('W)', 'W_m)')} "
                    f"(76){entries}, the solutions of W_mᵀP_m + P_mW_m = −I_m (75) are uniformly "
                    f"bounded: sup_m ‖P_m‖₂ < ∞")
        c = self.scale / 2
        num = "" if c.numerator == 1 else f"{c.numerator}·"
        kap = "κ₂(V)²·" if self.kappa_power == 2 else ("κ₂(V)·" if self.kappa_power == 1 else "")
        den = f"{c.denominator}β₀" if c.denominator != 1 else "β₀"
        bound = f"{num}{kap}1/({den})".replace("·1/", "/")
        if self.family == "hurwitz":  # as printed: a statement about sequences
            return (f"Lemma A.8: for every sequence of Hurwitz W_m with "
                    f"{hyp.replace('(W)', '(W_m)')}, β₀ > 0 (76), the solutions of "
                    f"W_mᵀP_m + P_mW_m = −I_m (75) satisfy sup_m ‖P_m‖₂ ≤ {bound} (77)")
        return (f"For {self.FAMILY_TEXT[self.family]} with {hyp}, β₀ > 0, the solution of "
                f"Wᵀ P + P W = −I has ‖P‖₂ ≤ {bound}")

    def controls(self) -> tuple[Control, ...]:
        if self.bound == "finite":
            return (Control("uniform boundedness replaced by the printed constant 1/(2β₀)",
                            replace(self, bound="constant")),
                    Control("hypothesis (87) dropped", replace(self, entry_bound=False))
                    if self.entry_bound else
                    Control("hypothesis widened: sup_i Re λ_i ≤ −β₀/2",
                            replace(self, beta_factor=self.beta_factor / 2)))
        out = [Control("bound halved", replace(self, scale=self.scale / 2)),
               Control("bound multiplied by 15/16", replace(self, scale=self.scale * Fraction(15, 16))),
               Control("hypothesis widened: sup_i Re λ_i(W) ≤ −β₀/2 instead of ≤ −β₀",
                       replace(self, beta_factor=self.beta_factor / 2))]
        if self.family == "normal":
            out.append(Control("hypothesis widened: diagonalizable W instead of normal W",
                               replace(self, family="diagonalizable")))
        return tuple(out)

    def largest_beta0(self, alpha: Fraction) -> Fraction:
        """The largest β₀ the hypothesis sup_i Re λ_i ≤ −beta_factor·β₀ admits for a W with
        spectral abscissa α < 0."""
        return -alpha / self.beta_factor

    def admits_beta0(self, alpha: Fraction, beta0: Fraction) -> bool:
        """Whether β₀ > 0 satisfies the eigenvalue hypothesis for a W with spectral abscissa α."""
        return 0 < beta0 <= self.largest_beta0(alpha)

    def bound_value(self, beta0: Any, kappa: Any) -> Any:
        """scale·κ^kappa_power/(2β₀), over any field containing β₀ and κ (κ = κ₂(V); any value,
        e.g. 1, when kappa_power is 0)."""
        return self.scale.numerator * kappa ** self.kappa_power / (2 * self.scale.denominator * beta0)


@dataclass(frozen=True)
class LocalQuartic(Statement):
    """W Lemma A.9, eqs. (86)–(89): with q(v) := vᵀ(WᵀDiag(v)²P + PDiag(v)²W)v, WᵀP + PW = −I,
    max Re λ_i(W) ≤ −β₀ < 0 (86) and max|W_ij| ≤ M₀ (87): for L > 0, |q(v)| ≤ L|v|₂² whenever
    |v|₂ ≤ Υ.

    ``radius``: "exists" (some Υ > 0, the lemma's statement), or an explicit Υ² = scale·L/C(W):
    "beta0/M0" (C = M₀/β₀, the proof's eq. (102) and eq. (52)'s Υ_L), "beta0/(n M0 kappa^2)"
    (C = nM₀κ₂(V)²/β₀, W = VBV⁻¹ with B normal) or "1/(2|W||P|)" (C = 2‖W‖₂‖P‖₂).
    ``uniform``: Υ is the same for every m of a sequence W_m ∈ ℝ^{m×m} (printed: "for any m").
    By homogeneity (q is a quartic form) the explicit readings are equivalent to
    K(W) := sup_d |q(d)|/|d|₂⁴ ≤ C(W)/scale.
    """

    radius: str = "exists"
    scale: Fraction = Fraction(1)
    uniform: bool = True
    family: str = "hurwitz"  # hurwitz | diagonalizable
    entry_bound: bool = True

    RADII: ClassVar[dict[str, str]] = {
        "beta0/M0": "√(β₀L/M₀)", "beta0/(n M0 kappa^2)": "√(β₀L/(n M₀ κ₂(V)²))",
        "1/(2|W||P|)": "√(L/(2‖W‖₂‖P‖₂))"}

    @property
    def text(self) -> str:
        seq = ("For every sequence of Hurwitz W_m ∈ ℝ^(m×m) with sup_m max_i Re λ_i(W_m) ≤ −β₀ < 0 "
               "(86)" if self.uniform else
               "For every m and every Hurwitz W = W_m ∈ ℝ^(m×m) with max_i Re λ_i(W) ≤ −β₀ < 0")
        if self.family == "diagonalizable":
            seq += ", W = V B V⁻¹ (B normal)"
        m = "_m" if self.uniform else ""
        if self.entry_bound:
            seq += (", sup_m max_ij |W_m,ij| ≤ M₀ (87)" if self.uniform
                    else ", max_ij |W_ij| ≤ M₀ (87)")
        seq += f" and W{m}ᵀP{m} + P{m}W{m} = −I (88)"
        q = "|vᵀ(Wᵀ Diag(v)² P + P Diag(v)² W) v| ≤ L |v|₂² whenever |v|₂ ≤ Υ (89)"
        if self.radius == "exists":
            where = "for any m" if self.uniform else "for this W"
            return f"{seq}: for any L > 0 there is Υ > 0 such that, {where}, {q}"
        r = self.RADII[self.radius]
        if self.scale != 1:
            r = f"√{self.scale}·{r}" if self.scale.denominator == 1 else f"√({self.scale})·{r}"
        where = ", for any m" if self.uniform else ""
        return f"{seq}: for any L > 0 and any 0 < Υ ≤ {r}{where}: {q}"

    def controls(self) -> tuple[Control, ...]:
        if self.radius == "exists":
            out = [Control("the explicit radius √(β₀L/M₀) of the proof instead of some Υ",
                           replace(self, radius="beta0/M0"))]
            if self.entry_bound:
                out.append(Control("hypothesis (87) dropped", replace(self, entry_bound=False)))
            return tuple(out)
        return (Control("Υ doubled", replace(self, scale=self.scale * 4)),
                Control("Υ² multiplied by 17/16", replace(self, scale=self.scale * Fraction(17, 16))))

    def limit(self, *, m0: Any, beta0: Any, n: int, kappa: Any, wnorm: Any, pnorm: Any) -> Any:
        """C(W)/scale = L/Υ² for the explicit radius: the claim holds for W iff K(W) ≤ this (any
        field; ``kappa`` = κ₂(V), ``wnorm`` = ‖W‖₂, ``pnorm`` = ‖P‖₂)."""
        if self.radius == "beta0/M0":
            c = m0 / beta0
        elif self.radius == "beta0/(n M0 kappa^2)":
            c = n * m0 * kappa * kappa / beta0
        elif self.radius == "1/(2|W||P|)":
            c = 2 * wnorm * pnorm
        else:
            raise ValueError("the existential reading has no explicit radius")
        return c / self.scale  # a Fraction divides SymPy, mpmath and ℚ values exactly

    @staticmethod
    def excess(q: Any, v_norm2: Any, lam: Any) -> Any:
        """|q(v)| − L|v|₂² in any arithmetic: (89) holds at v iff this is ≤ 0 (q = q(v), v_norm2 =
        |v|₂², lam = L)."""
        return abs(q) - lam * v_norm2


def quartic(pv: Any, wv: Any, v: Any, zero: Any = 0) -> Any:
    """q(v) = vᵀ(WᵀDiag(v)²P + PDiag(v)²W)v (W Lemma A.9 eq. (89)) from Pv, Wv and v, for a
    symmetric P: q(v) = 2 Σ_i (Pv)_i v_i² (Wv)_i (the identity is checked symbolically in
    :func:`local_proof`). The entries may be scalars of any arithmetic, or arrays (one direction
    per row: pass the columns), so every side evaluates this one formula."""
    return 2 * sum((pv[i] * v[i] * v[i] * wv[i] for i in range(len(v))), zero)


def local_form(w: Any, p: Any, v: Any) -> Any:
    """q(v) = vᵀ(Wᵀ Diag(v)² P + P Diag(v)² W) v (W Lemma A.9 eq. (89)), SymPy matrices."""
    sp = _sp()
    d2 = sp.diag(*[vi ** 2 for vi in v])
    return sp.expand((v.T * (w.T * d2 * p + p * d2 * w) * v)[0])


@dataclass(frozen=True)
class DiagCubeBound(Statement):
    """The proof of W Lemma A.9, eqs. (92)–(98): for every m, W ∈ ℝ^{m×m} with max|W_ij| ≤ M₀ (87)
    and v ∈ ℝ^m, |Diag(v)² W v|₂ ≤ ``factor``·(√m when ``root_m``)·M₀·|v|₂^``power``.

    Printed: factor 1, no √m, power 3 ((98)); (92) expands another vector,
    (Σ_j v_j² W_ji v_i)_i, for which (93)–(98) are right. The correction has the factor √m.
    """

    root_m: bool = False
    factor: Fraction = Fraction(1)
    power: int = 3

    @property
    def text(self) -> str:
        c = "" if self.factor == 1 else f"{self.factor}·"
        m = "√m·" if self.root_m else ""
        return (f"For every m, every W ∈ ℝ^(m×m) with max_ij |W_ij| ≤ M₀ (87) and every v ∈ ℝ^m: "
                f"|Diag(v)² W v|₂ ≤ {c}{m}M₀ |v|₂^{self.power} (eqs. 92–98)")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("constant halved", replace(self, factor=self.factor / 2)),
               Control("constant multiplied by 15/16", replace(self, factor=self.factor * Fraction(15, 16))),
               Control("power of |v|₂ raised by one", replace(self, power=self.power + 1))]
        if self.root_m:
            out.append(Control("dimension factor dropped (the printed bound)",
                               replace(self, root_m=False)))
        return tuple(out)

    def bound_squared(self, m: int, m0: Fraction, v2: Fraction) -> Fraction:
        """The square of :meth:`bound` exactly, for rational M₀ and |v|₂² (SymPy, then ℚ)."""
        import sympy as sp

        b = self.bound(m, sp.Rational(m0.numerator, m0.denominator),
                       sp.sqrt(sp.Rational(v2.numerator, v2.denominator)), sp.sqrt)
        return Fraction(str(sp.Rational(sp.expand(b * b))))

    def bound(self, m: int, m0: Any, vnorm: Any, sqrt: Callable[[int], Any]) -> Any:
        """The bound over any field: ``vnorm`` = |v|₂, ``sqrt`` the arithmetic's square root of
        an integer."""
        dim = sqrt(m) if self.root_m else 1
        return self.factor.numerator * dim * m0 * vnorm ** self.power / self.factor.denominator


def diag_product(w: Sequence[Sequence[Any]], v: Sequence[Any]) -> list[Any]:
    """Diag(v)² W v, entrywise: v_i² Σ_j W_ij v_j (the vector of (92)'s left side)."""
    n = len(v)
    return [v[i] * v[i] * sum((w[i][j] * v[j] for j in range(n)), v[0] * 0) for i in range(n)]


def printed_expansion(w: Sequence[Sequence[Any]], v: Sequence[Any]) -> list[Any]:
    """The vector whose norm (92)'s right side prints: (Σ_j v_j² W_ji v_i)_i."""
    n = len(v)
    return [sum((v[j] * v[j] * w[j][i] for j in range(n)), v[0] * 0) * v[i] for i in range(n)]


@dataclass(frozen=True)
class SemigroupBound(Statement):
    """W App. A.8, eqs. (31), (36)–(38): if the ``abscissa`` of W is < −β₀ (``strict``) or ≤ −β₀,
    β₀ > 0, then ‖e^{Wt}‖₂ ≤ ``constant``·e^{−``rate``·β₀ t} for every t ≥ 0.

    ``abscissa`` "spectral": max_i Re λ_i(W) (printed (31), strict); "numerical": the logarithmic
    norm μ₂(W) = λ_max((W + Wᵀ)/2), for which the bound holds (Lumer–Phillips).
    """

    abscissa: str = "spectral"
    strict: bool = True
    rate: Fraction = Fraction(1)
    constant: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        a = "max_i Re λ_i(W)" if self.abscissa == "spectral" else "λ_max((W + Wᵀ)/2)"
        rel = "<" if self.strict else "≤"
        c = "" if self.constant == 1 else f"{self.constant}·"
        r = "" if self.rate == 1 else f"{self.rate}·"
        tag = " (31)" if self.abscissa == "spectral" else ""
        return (f"If {a} {rel} −β₀{tag} (β₀ > 0), then ‖e^(Wt)‖₂ ≤ {c}e^(−{r}β₀t) for every t ≥ 0 "
                f"(37)–(38)")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("decay rate doubled", replace(self, rate=self.rate * 2)),
               Control("decay rate multiplied by 65/64 (false only near the edge of the "
                       "hypothesis)", replace(self, rate=self.rate * Fraction(65, 64))),
               Control("constant multiplied by 15/16",
                       replace(self, constant=self.constant * Fraction(15, 16)))]
        if self.abscissa == "numerical":
            out.append(Control("hypothesis widened: spectral abscissa instead of λ_max((W+Wᵀ)/2)",
                               replace(self, abscissa="spectral")))
        return tuple(out)

    def admits(self, abscissa_value: Any, beta0: Any) -> bool:
        """Whether β₀ > 0 and the hypothesis holds; ``abscissa_value`` is the exact value of this
        statement's abscissa (a Fraction or an exact SymPy number)."""
        if not beta0 > 0:
            return False
        return bool(abscissa_value < -beta0) if self.strict else bool(abscissa_value <= -beta0)

    def edge_beta0(self, abscissa_value: Fraction) -> Fraction:
        """β₀ at the edge of the hypothesis for a W whose abscissa is a < 0, where the bound is
        hardest: −a itself when the hypothesis admits it (abscissa ≤ −β₀), else (63/64)·(−a)
        (abscissa < −β₀ has no largest β₀)."""
        edge = -abscissa_value
        return edge if self.admits(abscissa_value, edge) else edge * Fraction(63, 64)

    def bound(self, beta0: Any, t: Any, exp: Callable[[Any], Any]) -> Any:
        """constant·e^{−rate·β₀·t} with ``exp`` the arithmetic's exponential."""
        return self.constant.numerator * exp(-(self.rate.numerator * beta0 * t) / self.rate.denominator) \
            / self.constant.denominator


# =============================================================================================
# exact integral over ℚ(i): e^{Wt} as an exponential polynomial, integrated termwise
# =============================================================================================

class Divergent(ValueError):
    """The integral ∫₀^∞ diverges: an exponential-polynomial term with Re s ≥ 0 survives."""

    def __init__(self, exponent: Any, power: int, coefficient: Any) -> None:
        super().__init__(f"term c·t^{power}·e^({exponent}·t) with Re ≥ 0 and c = {coefficient} ≠ 0")
        self.exponent, self.power, self.coefficient = exponent, power, coefficient


def _qi(x: Any) -> Any:
    """A ``QQ_I`` element from an int/Fraction/QQi/``QQ_I`` element."""
    from sympy import QQ, QQ_I

    if hasattr(x, "x") and hasattr(x, "y"):
        return x
    if hasattr(x, "re") and hasattr(x, "im"):
        return QQ_I(QQ(x.re.numerator, x.re.denominator), QQ(x.im.numerator, x.im.denominator))
    f = Fraction(x)
    return QQ_I(QQ(f.numerator, f.denominator), QQ(0))


def _re(z: Any) -> Fraction:
    return Fraction(int(z.x.numerator), int(z.x.denominator))


def _im(z: Any) -> Fraction:
    return Fraction(int(z.y.numerator), int(z.y.denominator))


# An exponential polynomial Σ c·t^k·e^{s t} is a dict {(s, k): c} with s, c in ℚ(i) (QQ_I).


def _ep_const(c: Any) -> dict[Any, Any]:
    z = _qi(c)
    return {} if z == _qi(0) else {(_qi(0), 0): z}


def _ep_add(a: dict[Any, Any], b: dict[Any, Any], scale: Any = None) -> dict[Any, Any]:
    out = dict(a)
    for key, c in b.items():
        v = out.get(key, _qi(0)) + (c if scale is None else scale * c)
        if v == _qi(0):
            out.pop(key, None)
        else:
            out[key] = v
    return out


def _ep_mul(a: dict[Any, Any], b: dict[Any, Any]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    zero = _qi(0)
    for (s1, k1), c1 in a.items():
        for (s2, k2), c2 in b.items():
            key = (s1 + s2, k1 + k2)
            v = out.get(key, zero) + c1 * c2
            if v == zero:
                out.pop(key, None)
            else:
                out[key] = v
    return out


def _ep_matmul(a: list[list[dict[Any, Any]]], b: list[list[dict[Any, Any]]]) -> list[list[dict[Any, Any]]]:
    n, m, r = len(a), len(b), len(b[0])
    out = []
    for i in range(n):
        row = []
        for j in range(r):
            acc: dict[Any, Any] = {}
            for k in range(m):
                if a[i][k] and b[k][j]:
                    acc = _ep_add(acc, _ep_mul(a[i][k], b[k][j]))
            row.append(acc)
        out.append(row)
    return out


def _ep_transpose(a: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*a, strict=True)]


def _solve_first_order(lam: Any, g: dict[Any, Any], y0: Any) -> dict[Any, Any]:
    """The solution of y' = λ y + g(t), y(0) = y0, for an exponential polynomial g (exact):
    ∫₀^t e^{λ(t−s)} s^m e^{μs} ds = Σ_{k≤m} (−1)^{m−k} m!/(k! d^{m−k+1}) t^k e^{μt}
    − (−1)^m m!/d^{m+1} e^{λt} with d = μ − λ ≠ 0, and t^{m+1}/(m+1) e^{λt} when μ = λ."""
    out = _ep_const(0) | ({(lam, 0): _qi(y0)} if _qi(y0) != _qi(0) else {})
    for (mu, m), c in g.items():
        d = mu - lam
        if d == _qi(0):
            out = _ep_add(out, {(lam, m + 1): c / _qi(m + 1)})
            continue
        add: dict[Any, Any] = {}
        for k in range(m + 1):
            coef = _qi((-1) ** (m - k) * math.factorial(m)) / (_qi(math.factorial(k)) * d ** (m - k + 1))
            add = _ep_add(add, {(mu, k): c * coef})
        add = _ep_add(add, {(lam, 0): -c * _qi((-1) ** m * math.factorial(m)) / d ** (m + 1)})
        out = _ep_add(out, add)
    return out


def expm_triangular(t_rows: Sequence[Sequence[Any]]) -> list[list[dict[Any, Any]]]:
    """e^{Tt} for an upper-triangular T over ℚ(i), exactly, as exponential polynomials: the
    columns solve F' = T F, F(0) = I by back substitution (the definition of e^{Tt})."""
    n = len(t_rows)
    t = [[_qi(x) for x in row] for row in t_rows]
    f: list[list[dict[Any, Any]]] = [[{} for _ in range(n)] for _ in range(n)]
    for j in range(n):
        f[j][j] = {(t[j][j], 0): _qi(1)}
        for i in range(j - 1, -1, -1):
            g: dict[Any, Any] = {}
            for k in range(i + 1, j + 1):
                if t[i][k] != _qi(0) and f[k][j]:
                    g = _ep_add(g, f[k][j], scale=t[i][k])
            f[i][j] = _solve_first_order(t[i][i], g, 0)
    return f


def integrate_exppoly(f: dict[Any, Any]) -> Any:
    """∫₀^∞ Σ c t^k e^{st} dt = Σ c·k!/(−s)^{k+1}; raises :class:`Divergent` when a term with
    Re s ≥ 0 has c ≠ 0 (the terms are collected, so this is exact)."""
    total = _qi(0)
    for (s, k), c in f.items():
        if _re(s) >= 0:
            raise Divergent(s, k, c)
        total += c * _qi(math.factorial(k)) / (-s) ** (k + 1)
    return total


def _inv(a: list[list[Any]]) -> list[list[Any]]:
    """Gauss–Jordan inverse over ℚ(i)."""
    n = len(a)
    m = [[_qi(x) for x in row] + [_qi(int(i == j)) for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        piv = next(r for r in range(c, n) if m[r][c] != _qi(0))
        m[c], m[piv] = m[piv], m[c]
        inv = _qi(1) / m[c][c]
        m[c] = [x * inv for x in m[c]]
        for r in range(n):
            if r != c and m[r][c] != _qi(0):
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [row[n:] for row in m]


def _mm(a: list[list[Any]], b: list[list[Any]]) -> list[list[Any]]:
    return [[sum((a[i][k] * b[k][j] for k in range(len(b))), _qi(0)) for j in range(len(b[0]))]
            for i in range(len(a))]


def triangularize(similarity: Sequence[Sequence[Fraction]],
                  quasi: Sequence[Sequence[Fraction]]) -> tuple[list[list[Any]], list[list[Any]]]:
    """(S, T) over ℚ(i), T upper triangular, with W = similarity·quasi·similarity⁻¹ = S T S⁻¹.

    ``quasi`` is quasi-upper-triangular with 2×2 diagonal blocks [[a, b], [c, a]] (bc < 0, so
    eigenvalues a ± iω, ω² = −bc a rational square); each block is diagonalised by its
    eigenvectors (b, ±iω).
    """
    n = len(quasi)
    e = [[_qi(int(i == j)) for j in range(n)] for i in range(n)]
    i = 0
    while i < n:
        if i + 1 < n and quasi[i + 1][i] != 0:
            b, c = Fraction(quasi[i][i + 1]), Fraction(quasi[i + 1][i])
            w2 = -b * c
            omega = Fraction(math.isqrt(w2.numerator), math.isqrt(w2.denominator))
            if omega * omega != w2 or quasi[i][i] != quasi[i + 1][i + 1]:
                raise ValueError("2×2 block without Gaussian-rational eigenvalues")
            from sympy import QQ, QQ_I

            io = QQ_I(QQ(0), QQ(omega.numerator, omega.denominator))
            e[i][i], e[i][i + 1] = _qi(b), _qi(b)
            e[i + 1][i], e[i + 1][i + 1] = io, -io
            i += 2
        else:
            i += 1
    s = _mm([[_qi(x) for x in row] for row in similarity], e)
    t = _mm(_mm(_inv(e), [[_qi(x) for x in row] for row in quasi]), e)
    return s, t


def exact_integral(law: LyapunovIntegral, similarity: Sequence[Sequence[Fraction]],
                   quasi: Sequence[Sequence[Fraction]],
                   q: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """∫₀^∞ of ``law``'s integrand exactly, for W = similarity·quasi·similarity⁻¹ (rational
    quasi-triangular form with Gaussian-rational eigenvalues), from W's exact triangular form
    W = S T S⁻¹ over ℚ(i).

    An eigenvalue with Re λ ≥ 0 makes the integral diverge (the weight is ≻ 0). With distinct
    eigenvalues: the closed form of the integral of the diagonalised exponentials
    (:func:`_diagonal_closed_form`); otherwise e^{Wt} = S e^{Tt} S⁻¹ with
    e^{Tt} from :func:`expm_triangular`, the integrand ``law.integrand(e^{Wt}, Q, I)`` formed over
    exponential polynomials and integrated termwise. Raises :class:`Divergent` when the integral
    diverges. Returns P as rows of Fractions (its imaginary part is checked to vanish).
    """
    n = len(quasi)
    s, t = triangularize(similarity, quasi)
    qq = [[_qi(x) for x in row] for row in q]
    eye_q = [[_qi(int(i == j)) for j in range(n)] for i in range(n)]
    lam = [t[i][i] for i in range(n)]
    unstable = [z for z in lam if _re(z) >= 0]
    if unstable:
        # an eigenvalue λ with Re λ ≥ 0 and a weight X ≻ 0 (Q ≻ 0, or I): along an eigenvector v
        # (of W, or of Wᵀ for the other orientation) the integrand is ≥ λ_min(X)e^{2 Re λ t}|v|²
        raise Divergent(unstable[0] + unstable[0], 0, "λ_min(X)·|v|² > 0 along an eigenvector "
                        f"of λ = {unstable[0]}")
    if len(set(lam)) == n:
        p = _diagonal_closed_form(law, s, t, qq, eye_q)
    else:
        p = _exppoly_integral(law, s, t, qq, eye_q)
    if any(_im(x) != 0 for row in p for x in row):
        raise ArithmeticError("the exact integral of a real integrand has an imaginary part")
    return [[_re(x) for x in row] for row in p]


def _diagonal_closed_form(law: LyapunovIntegral, s: list[list[Any]], t: list[list[Any]],
                          q: list[list[Any]], eye: list[list[Any]]) -> list[list[Any]]:
    """Distinct eigenvalues, all Re λ_i < 0: T = E Λ E⁻¹ (E unit upper triangular, by back
    substitution), e^{Wt} = A e^{Λt} A⁻¹ with A = S E. The integrand ``law.integrand`` at
    A·D·A⁻¹ is a quadratic form in the diagonal D = diag(d): Σ_{i≤j} d_i d_j C_ij, with the C_ij
    read off by polarization (D = E_ii and E_ii + E_jj); replacing d_i d_j = e^{(λ_i+λ_j)t} by its
    integral −1/(λ_i + λ_j) gives the integral exactly."""
    n = len(t)
    e = [[_qi(int(i == j)) for j in range(n)] for i in range(n)]
    for k in range(n):
        for j in range(k - 1, -1, -1):
            acc = sum((t[j][m] * e[m][k] for m in range(j + 1, k + 1)), _qi(0))
            e[j][k] = -acc / (t[j][j] - t[k][k])
    a = _mm(s, e)
    ai = _inv(a)

    def at(diag: list[int]) -> list[list[Any]]:
        d = [[_qi(diag[i]) if i == j else _qi(0) for j in range(n)] for i in range(n)]
        return law.integrand(_mm(_mm(a, d), ai), q, eye, _mm, _mtr)

    single = [at([int(k == i) for k in range(n)]) for i in range(n)]
    total = [[_qi(0)] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            if i == j:
                c = single[i]
            else:
                both = at([int(k in (i, j)) for k in range(n)])
                c = [[both[r][k] - single[i][r][k] - single[j][r][k] for k in range(n)]
                     for r in range(n)]
            h = -_qi(1) / (t[i][i] + t[j][j])
            total = [[total[r][k] + c[r][k] * h for k in range(n)] for r in range(n)]
    return total


def _mtr(a: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*a, strict=True)]


def _exppoly_integral(law: LyapunovIntegral, s: list[list[Any]], t: list[list[Any]],
                      q: list[list[Any]], eye: list[list[Any]]) -> list[list[Any]]:
    """The general case (repeated eigenvalues, or a possibly divergent integral): e^{Tt} from
    :func:`expm_triangular`, the integrand over exponential polynomials, integrated termwise."""
    n = len(t)
    si = _inv(s)
    f = expm_triangular(t)
    const = [[_ep_const(x) for x in row] for row in s]
    consti = [[_ep_const(x) for x in row] for row in si]
    e = _ep_matmul(_ep_matmul(const, f), consti)
    qq = [[_ep_const(x) for x in row] for row in q]
    eye_ep = [[_ep_const(int(i == j)) for j in range(n)] for i in range(n)]
    integrand = law.integrand(e, qq, eye_ep, _ep_matmul, _ep_transpose)
    return [[integrate_exppoly(integrand[i][j]) for j in range(n)] for i in range(n)]


# =============================================================================================
# symbolic decisions
# =============================================================================================

def closed_form_2x2(w: Any, q: Any) -> Any:
    """The solution of Wᵀ P + P W = −Q for 2×2 W with τ = tr W ≠ 0 ≠ δ = det W:
    P = (δ Q + adj(W)ᵀ Q adj(W)) / (−2τδ)."""
    tau, delta, adj = w.trace(), w.det(), w.adjugate()
    return (delta * q + adj.T * q * adj) / (-2 * tau * delta)


def lyapunov_residual(w: Any, p: Any, q: Any) -> Any:
    """Wᵀ P + P W + Q, simplified entrywise (zero iff P solves Wᵀ P + P W = −Q)."""
    sp = _sp()
    return (w.T * p + p * w + q).applyfunc(lambda e: sp.cancel(sp.together(e)))


def laplace_at_zero(expr: Any, t: Any) -> Any:
    """∫₀^∞ expr dt for an exponential polynomial expr = Σ c·t^k·e^{−s t} (trigonometric factors
    are rewritten as exponentials), term by term: ∫₀^∞ t^k e^{−st} dt = k!/s^{k+1}.

    Raises ValueError when a term is not of that form or Re s > 0 does not follow from the symbols'
    assumptions (then the integral may diverge).
    """
    sp = _sp()
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(sp.powsimp(sp.expand(expr.rewrite(sp.exp))))):
        # expand() may distribute a constant denominator over an exponential, (c − a)·e^{2at}:
        # factor the denominator back and read the term as a product of factors.
        num, den = sp.fraction(term)
        if den.has(t):
            num, den = sp.fraction(sp.together(term))
            den = sp.factor(den)
        factors = [*sp.Mul.make_args(num), *(f ** -1 for f in sp.Mul.make_args(den))]
        coeff, expo, k = sp.Integer(1), sp.Integer(0), 0
        for f in factors:
            base, e = f.as_base_exp()
            if not f.has(t):
                coeff *= f
            elif f.func is sp.exp:
                expo += f.args[0]
            elif base.func is sp.exp:
                expo += base.args[0] * e
            elif base == t and e.is_Integer and e >= 0:
                k += int(e)
            else:
                raise ValueError(f"not an exponential polynomial term: {term}")
        s = -sp.expand(expo / t)
        if s.has(t):
            raise ValueError(f"exponent not linear in t: {expo}")
        if not sp.re(s).is_positive:
            raise ValueError(f"cannot show Re({s}) > 0 from the assumptions")
        total += coeff * sp.factorial(k) / s ** (k + 1)
    return total


def _decide_rational(e: Any, point: dict[Any, Any]) -> tuple[bool | None, dict[str, Any]]:
    """Whether the rational function e is identically 0 (its numerator over a common denominator
    expands to 0), else its exact value at ``point`` as the witness (cheaper than ``cancel``)."""
    sp = _sp()
    num = sp.expand(sp.numer(sp.together(e)))
    if num == 0:
        return True, {}
    value = sp.simplify(e.subs(point))
    if value.is_zero is False:
        return False, {"point": {str(k): str(v) for k, v in point.items()},
                       "difference at the point": str(value)}
    return None, {"numerator": str(num)}


def _exact_point(symbols: Any) -> dict[Any, Any]:
    """Distinct small integers for ``symbols`` (negative for a symbol assumed negative), in name
    order: an exact point at which a derivation step's difference is also evaluated, so that a
    wrong step is decided false (a failed derivation) rather than left undecided."""
    return {s: -(k + 2) if getattr(s, "is_negative", None) else k + 2
            for k, s in enumerate(sorted(symbols, key=str))}


def _real_schur_forms_2x2() -> list[tuple[str, Any, Any, dict[Any, Any]]]:
    """(name, W, e^{Wt}, witness point) for the real Schur forms of a 2×2 Hurwitz matrix with
    symbolic parameters; every real 2×2 Hurwitz W is orthogonally similar to one of them (or
    diagonal), and W ↦ UᵀWU, Q ↦ UᵀQU carries the integral along (Q is symbolic)."""
    sp = _sp()
    t = sp.Symbol("t", nonnegative=True)
    a, c, om = sp.symbols("a c omega", positive=True)
    b, r = sp.symbols("b r", real=True, nonzero=True)
    ea, ec = sp.exp(-a * t), sp.exp(-c * t)
    # distinct real eigenvalues: the corner is written b·(c − a) (any real corner when a ≠ c),
    # which keeps e^{Wt} polynomial in the parameters
    return [
        ("upper triangular, distinct real eigenvalues −a ≠ −c",
         sp.Matrix([[-a, b * (c - a)], [0, -c]]),
         sp.Matrix([[ea, b * (ea - ec)], [0, ec]]), {a: 1, c: 2, b: 1}),
        ("upper triangular, repeated eigenvalue −a (defective for b ≠ 0)",
         sp.Matrix([[-a, b], [0, -a]]),
         ea * sp.Matrix([[1, b * t], [0, 1]]), {a: 1, b: 1}),
        ("standardised complex block [[−a, ωr], [−ω/r, −a]] (eigenvalues −a ± iω)",
         sp.Matrix([[-a, om * r], [-om / r, -a]]),
         ea * sp.Matrix([[sp.cos(om * t), r * sp.sin(om * t)],
                         [-sp.sin(om * t) / r, sp.cos(om * t)]]), {a: 1, om: 1, r: 2}),
    ]


def integral_proof(law: LyapunovIntegral) -> Proof:
    """Decide ``law`` (W App. A.9 eqs. (48)–(49), or a variant) symbolically.

    P is computed from its definition, the integral ∫₀^∞ of ``law.integrand`` (termwise Laplace
    integration of the exponential polynomial e^{Wt}), never from the Lyapunov equation; then the
    statement's equation (``law.residual``) and definiteness are decided.

    1. 1×1 W = [0], the boundary of the Hurwitz matrices: when the hypothesis admits it (it admits
       some α(W) ≥ 0 iff it admits α(W) = 0), the integral of e^{2wt}Q with w = 0 diverges (a
       disproof).
    2. 1×1 W = [w], w < 0 symbolic, q > 0 symbolic.
    3. 2×2: each real Schur form with symbolic parameters and symbolic symmetric Q (covers every
       real 2×2 Hurwitz W by orthogonal similarity). P ≻ 0 for the printed statement: P equals
       (δQ + adj(W)ᵀQ adj(W))/(−2τδ) (checked), and δ > 0, −2τδ > 0, Q ≻ 0 make it ≻ 0.
    4. Diagonal W = diag(w_i), w_i < 0, any size: entrywise; P = Q∘C with the Cauchy matrix
       C_ij = 1/−(w_i + w_j) = ∫ e^{w_i t}e^{w_j t}dt, a Gram matrix, so P ≻ 0 by Schur's product
       theorem.
    A nonzero residual or a definiteness violation is shown at an exact point (a disproof).
    """
    sp = _sp()
    t0 = time.perf_counter()
    t = sp.Symbol("t", nonnegative=True)
    mul: Mul = lambda x, y: x * y  # noqa: E731
    tr: Tr = lambda x: x.T  # noqa: E731
    # 1. the boundary of the Hurwitz matrices: the integral of e^{2wt}·X diverges for every w ≥ 0,
    # and the hypothesis (a bound on α(W)) admits some α ≥ 0 iff it admits α = 0, so the 1×1
    # W = [0] decides whether it reaches past the Hurwitz matrices
    w0 = Fraction(0)
    if law.admits(w0, True):
        q0 = sp.Matrix([[1]])
        e0 = sp.Matrix([[sp.exp(sp.Rational(w0.numerator, w0.denominator) * t)]])
        integrand = law.integrand(e0, q0, sp.eye(1), mul, tr)[0]
        at0 = integrand.subs(t, 0)
        growing = sp.diff(integrand, t).subs(t, 0) >= 0 and sp.expand(
            sp.diff(integrand, t) - 2 * sp.Rational(w0.numerator, w0.denominator) * integrand) == 0
        if at0 > 0 and growing:  # f' = 2w·f with w ≥ 0 and f(0) > 0: f ≥ f(0), ∫₀^T f ≥ T·f(0)
            return Proof(False, "1×1 W admitted by the hypothesis", "the integrand f satisfies "
                         "f' = 2w·f, w ≥ 0, f(0) > 0, so ∫₀^T f dt ≥ T·f(0) → ∞",
                         counterexample={"W": f"[[{w0}]]", "Q": "[[1]]",
                                         "alpha(W)": str(w0), "integrand": str(integrand),
                                         "integral over [0, T]": f"≥ {at0}·T → ∞ (diverges)"})
    # 2. 1×1 with symbolic w < 0
    w1 = sp.Symbol("w", negative=True)
    q1 = sp.Symbol("q", positive=True)
    e1 = sp.Matrix([[sp.exp(w1 * t)]])
    p1 = sp.Matrix([[laplace_at_zero(law.integrand(e1, sp.Matrix([[q1]]), sp.eye(1), mul, tr)[0], t)]])
    res1 = law.residual(sp.Matrix([[w1]]), p1, sp.Matrix([[q1]]), mul, tr)[0]
    ok, witness = decide_zero(res1, [{w1: -1, q1: 2}])
    if ok is False:
        return Proof(False, "1×1 W", "termwise Laplace integral of the integrand; residual of the "
                     "statement's equation", counterexample={"W": "[[w]]", "Q": "[[q]]",
                                                              "P (integral)": str(p1[0]), **witness})
    viol = law.definiteness_violation(p1[0], p1[0]).subs({w1: -1, q1: 1})
    if viol >= 0:
        return Proof(False, "1×1 W", "termwise Laplace integral", counterexample={
            "W": "[[-1]]", "Q": "[[1]]", "P (integral)": str(p1[0].subs({w1: -1, q1: 1})),
            "definiteness violated by": str(viol)})
    # 3. 2×2 real Schur forms
    q11, q12, q22 = sp.symbols("q11 q12 q22", real=True)
    q = sp.Matrix([[q11, q12], [q12, q22]])
    qpoint = {q11: 2, q12: sp.Rational(1, 2), q22: 1}
    details: dict[str, Any] = {}
    for name, ws, ews, point in _real_schur_forms_2x2():
        integrand2 = law.integrand(ews, q, sp.eye(2), mul, tr)
        p2 = integrand2.applyfunc(lambda e: laplace_at_zero(e, t))
        res = law.residual(ws, p2, q, mul, tr)
        for entry in res:
            ok, witness = _decide_rational(entry, {**point, **qpoint})
            if ok is False:
                return Proof(False, f"2×2 real Schur form: {name}", "termwise Laplace integral of "
                             "the integrand; residual of the statement's equation",
                             counterexample={"W": str(ws.subs(point).tolist()),
                                             "Q": str(q.subs(qpoint).tolist()),
                                             "P (integral)": str(p2.subs({**point, **qpoint})
                                                                 .applyfunc(sp.simplify).tolist()),
                                             **witness})
            if ok is None:
                return Proof(None, f"2×2 form {name}", "SymPy could not reduce the residual",
                             details=witness)
        at = p2.subs({**point, **qpoint}).applyfunc(sp.simplify)
        eig = list(at.eigenvals())
        viol = law.definiteness_violation(min(eig, key=lambda e: sp.N(e)),
                                          max(eig, key=lambda e: sp.N(e)))
        if sp.simplify(viol).is_nonnegative:
            return Proof(False, f"2×2 real Schur form: {name}", "termwise Laplace integral",
                         counterexample={"W": str(ws.subs(point).tolist()),
                                         "Q": str(q.subs(qpoint).tolist()), "P (integral)":
                                         str(at.tolist()), "definiteness violated by": str(viol)})
        details[f"the integral solves the equation ({name})"] = True
    # The equation WᵀP + PW = −Q has exactly one solution when λ_i + λ_j ≠ 0 (W Hurwitz), so the
    # integral is P = N/(−2τδ), N = δQ + adj(W)ᵀQ adj(W) (the closed form solves it: a polynomial
    # identity); xᵀNx = δ·xᵀQx + (adj x)ᵀQ(adj x) > 0 for x ≠ 0 since δ > 0, Q ≻ 0, and
    # −2τδ > 0: P ≻ 0. Both identities are checked with a general symbolic 2×2 W.
    w11, w12, w21, w22 = sp.symbols("w11 w12 w21 w22", real=True)
    wg = sp.Matrix([[w11, w12], [w21, w22]])
    adj = wg.adjugate()
    num = wg.det() * q + adj.T * q * adj
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    # polynomial identities: expanded to 0, or decided false (a nonzero constant, or a nonzero
    # value at an exact integer point)
    at = [_exact_point({*wg, q11, q12, q22, *x})]
    positivity = proof_from_steps({
        "closed form solves (WᵀN + NW − 2τδQ = 0)": decide_zeros(
            list(wg.T * num + num * wg - 2 * wg.trace() * wg.det() * q), sp.expand, at),
        "xᵀNx = δ·xᵀQx + (adj x)ᵀQ(adj x)": decide_zeros(
            [(x.T * num * x)[0] - wg.det() * (x.T * q * x)[0] - ((adj * x).T * q * (adj * x))[0]],
            sp.expand, at)}, "2×2", "SymPy: the identities of the positivity argument",
        details={k: str(v) for k, v in details.items()})
    if positivity.holds is not True:  # undecided, or decided false (a failed derivation)
        return positivity
    details.update(positivity.details)
    # 4. diagonal W of any size (entrywise; the integrand's weight is Q here: weight I was
    # refuted in step 2)
    wi, wj = sp.symbols("w_i w_j", negative=True)
    qij = sp.Symbol("q_ij", real=True)
    pij = laplace_at_zero(sp.exp((wi + wj) * t) * qij, t)
    resij = wi * pij + pij * wj - law.rhs_sign * qij
    ok, witness = decide_zero(resij, [{wi: -1, wj: -2, qij: 1}])
    if ok is False:
        return Proof(False, "diagonal W", "entrywise integral", counterexample={
            "W": "diag(w_i)", "P_ij (integral)": str(pij), **witness})
    gram = proof_from_steps({"Cauchy matrix is a Gram matrix": decide_zeros(
        [laplace_at_zero(sp.exp(wi * t) * sp.exp(wj * t), t) - 1 / (-(wi + wj))],
        lambda e: sp.cancel(sp.together(e)), [{wi: -1, wj: -2}])}, "diagonal W",
        "SymPy: C_ij = ∫₀^∞ e^{w_i t}e^{w_j t} dt", details=details)
    if gram.holds is not True:  # undecided, or decided false (a failed derivation)
        return gram
    details = dict(gram.details)
    return Proof(True, "(i) every real 2×2 W with max Re λ(W) < 0 and every symmetric Q ≻ 0 (the "
                 "three real Schur forms with symbolic parameters; orthogonal similarity carries "
                 "them to all 2×2 W); (ii) diagonal W of any size; (iii) 1×1 W",
                 "P from the integral (termwise ∫₀^∞ t^k e^{−st} dt = k!/s^{k+1}), substituted into "
                 "the statement's equation; ≻ 0 by δQ ≻ 0, adjᵀQ adj ⪰ 0, −2τδ > 0 (2×2) and "
                 "Schur's product theorem (diagonal)",
                 details={**details, "seconds": round(time.perf_counter() - t0, 3)}, general=True)


# ---- Lemma A.8 --------------------------------------------------------------------------------

def _p_of(w: Any) -> Any:
    """The solution of WᵀP + PW = −I for a rational SymPy W (Lemma A.8's P is defined by its
    equation), by the exact Kronecker solve over ℚ, as a SymPy matrix."""
    sp = _sp()
    from recmem.numerics.lyapunov import exact, fractions, residual_oracle

    rows = [[Fraction(str(x)) for x in w.row(i)] for i in range(w.rows)]
    p = exact(rows).P
    orc = residual_oracle(rows, None, p)  # the exact P must leave WᵀP + PW + I = 0 over ℚ
    if not orc.ok:
        from recmem.numerics.certified_oracles import InternalInconsistency

        raise InternalInconsistency(f"the exact Lyapunov solver's P fails its oracle ({orc.text}): a bug "
                           "of recmem, not a finding about the paper")
    return sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in row]
                      for row in fractions(p)])


def _lmax_exact(p: Any) -> Any:
    sp = _sp()
    return max(p.eigenvals(), key=lambda e: sp.N(e))


NORMAL_1X1 = ((-1,),)
JORDAN_2X2 = ((-1, 1), (0, -1))
NONNORMAL_DIAGONALIZABLE = ((-1, 2), (0, -2))


def norm_bound_proof(law: NormBound) -> Proof:
    """Decide ``law`` (W Lemma A.8 or a variant) symbolically.

    Witnesses first (exact SymPy): W = [−1] (normal, κ₂(V) = 1, ‖P‖₂ = 1/2: tight); the Jordan
    block [[−1, 1], [0, −1]] (‖P‖₂ = (5 + √5)/8) for the hurwitz family; [[−1, 2], [0, −2]]
    (diagonalizable, not normal) for the diagonalizable family without κ₂(V). β₀ is the largest
    value the hypothesis admits. Then the general arguments:
    normal W of any size — real normal form U·diag(blocks)·Uᵀ, each block [−a] or
    [[−a, b], [−b, −a]] gives P = I/(2a), so ‖P‖₂ = 1/(2 min a) (checked symbolically);
    diagonalizable W = VBV⁻¹ — ‖P‖₂ ≤ ∫‖e^{Wt}‖₂² dt ≤ κ₂(V)²∫e^{−2β₀t}dt = κ₂(V)²/(2β₀) with
    ‖e^{Bt}‖₂ = e^{α(B)t} for normal B (checked on the 2×2 block).
    The qualitative reading ("finite") is decided by :func:`superdiagonal_disproof`.
    """
    sp = _sp()
    t0 = time.perf_counter()
    if law.bound == "finite":
        return superdiagonal_disproof("norm", law.entry_bound)
    witnesses: list[tuple[str, tuple[tuple[int, ...], ...]]] = [("normal 1×1", NORMAL_1X1)]
    if law.family == "hurwitz":
        witnesses.append(("Jordan block", JORDAN_2X2))
    if law.family == "diagonalizable" and law.kappa_power == 0:
        witnesses.append(("diagonalizable, not normal", NONNORMAL_DIAGONALIZABLE))
    for name, rows in witnesses:
        w = sp.Matrix(rows)
        p = _p_of(w)
        alpha = Fraction(str(max(sp.re(e) for e in w.eigenvals())))
        edge = law.largest_beta0(alpha)
        if not law.admits_beta0(alpha, edge):  # a witness must satisfy the hypothesis
            continue
        beta0 = sp.Rational(edge.numerator, edge.denominator)
        # the normal witness has V = I; the others are used only without κ₂(V)
        bound = law.bound_value(beta0, sp.Integer(1))
        lmax = _lmax_exact(p)
        if sp.simplify(lmax - bound).is_positive:
            return Proof(False, f"the {name} witness", "exact solution of WᵀP + PW = −I and its "
                         "largest eigenvalue (SymPy)",
                         counterexample={"W": str(w.tolist()), "beta0": str(beta0),
                                         "P": str(p.tolist()), "lambda_max(P)": str(lmax),
                                         "bound": str(bound)})
    if law.scale < 1 or law.beta_factor < 1:
        return Proof(None, "witnesses", "no witness violates the weakened bound and no general "
                     "argument covers a smaller constant")
    if law.family == "normal":
        return _normal_bound_general(t0)
    if law.family == "diagonalizable" and law.kappa_power >= 2:
        return _diagonalizable_bound_general(t0)
    return Proof(None, "witnesses", "no witness decides this variant")


def _normal_bound_general(t0: float) -> Proof:
    sp = _sp()
    a, a1, a2 = sp.symbols("a a1 a2", positive=True)
    b = sp.Symbol("b", real=True)
    block = sp.Matrix([[-a, b], [-b, -a]])
    c, sn = sp.symbols("c s", real=True)  # a rotation [[c, −s], [s, c]], c² + s² = 1
    # each step is decided by decide_zeros: confirmed, undecided, or decided false (a nonzero
    # constant, or a nonzero value at the exact point — on the unit circle for the rotation)
    at = [{a: 1, a1: 2, a2: 3, b: 2, c: sp.Rational(3, 5), sn: sp.Rational(4, 5)}]

    def rational(e: Any) -> Any:
        """The normal form of a rational function (numerator and denominator coprime)."""
        return sp.cancel(sp.together(e))

    big = sp.diag(sp.Matrix([[-a1]]), sp.Matrix([[-a2, b], [-b, -a2]]))
    u = sp.Matrix([[c, -sn], [sn, c]])
    wu, pu = u * block * u.T, u * (sp.eye(2) / (2 * a)) * u.T

    def on_circle(e: Any) -> Any:
        """e·2a reduced modulo c² + s² − 1 (zero iff e vanishes on the unit circle); a number
        (the reduced difference at the exact point, which lies on the circle) as it is."""
        if not e.free_symbols:
            return sp.simplify(e)
        return sp.rem(sp.expand(sp.together(e) * 2 * a), sn ** 2 + c ** 2 - 1, sn)

    steps = {
        "1×1 block": decide_zeros(
            list(lyapunov_residual(sp.Matrix([[-a]]), sp.Matrix([[1 / (2 * a)]]), sp.eye(1))),
            rational, at),
        "2×2 normal block": decide_zeros(
            list(closed_form_2x2(block, sp.eye(2)) - sp.eye(2) / (2 * a)), rational, at),
        "decoupling (3×3)": decide_zeros(
            list(lyapunov_residual(big, sp.diag(1 / (2 * a1), 1 / (2 * a2), 1 / (2 * a2)),
                                   sp.eye(3))), rational, at),
        "orthogonal covariance (rotation)": decide_zeros(
            list(wu.T * pu + pu * wu + sp.eye(2)), on_circle, at),
    }
    return proof_from_steps(
        steps, "every real normal Hurwitz W of any size (real normal form + orthogonal "
        "covariance): ‖P‖₂ = 1/(2·min_k a_k) ≤ 1/(2β₀)",
        "blocks [−a] and [[−a, b], [−b, −a]] give P = I/(2a); block-diagonal decoupling; "
        "L_{UBUᵀ}(UXUᵀ) = U L_B(X) Uᵀ",
        details={"seconds": round(time.perf_counter() - t0, 3)}, general=True)


def _diagonalizable_bound_general(t0: float) -> Proof:
    sp = _sp()
    t = sp.Symbol("t", nonnegative=True)
    a, beta, kappa = sp.symbols("a beta0 kappa", positive=True)
    b = sp.Symbol("b", real=True)
    block = sp.Matrix([[-a, b], [-b, -a]])
    e = sp.exp(-a * t) * sp.Matrix([[sp.cos(b * t), sp.sin(b * t)], [-sp.sin(b * t), sp.cos(b * t)]])
    # each step is decided by decide_zeros (cheap normal forms first, ``simplify`` as a fallback);
    # the exact point makes a wrong step decided false rather than undecided
    at = [{a: 1, b: 2, t: 1, beta: 1, kappa: 3}]

    def reduce(x: Any) -> Any:
        r = sp.cancel(sp.together(x))
        return r if r == 0 else sp.simplify(r)

    steps = {
        "normal block: e^{Bt} = e^{−at}·rotation": decide_zeros(
            [*(e.diff(t) - block * e), *(e.subs(t, 0) - sp.eye(2))], reduce, at),
        "e^{Bt}ᵀe^{Bt} = e^{−2at} I": decide_zeros(
            list(e.T * e - sp.exp(-2 * a * t) * sp.eye(2)), lambda x: reduce(sp.trigsimp(x)), at),
        "∫ κ² e^{−2β₀t} = κ²/(2β₀)": decide_zeros(
            [laplace_at_zero(kappa ** 2 * sp.exp(-2 * beta * t), t) - kappa ** 2 / (2 * beta)],
            reduce, at),
    }
    return proof_from_steps(
        steps, "every real diagonalizable Hurwitz W = V B V⁻¹ (B normal) of any size",
        "‖P‖₂ ≤ ∫₀^∞ ‖e^{Wt}‖₂² dt ≤ κ₂(V)² ∫₀^∞ e^{−2β₀t} dt = κ₂(V)²/(2β₀), with "
        "P = ∫e^{Wᵀt}e^{Wt}dt (W.lyapunov) and ‖e^{Bt}‖₂ = e^{α(B)t} for normal B",
        details={"seconds": round(time.perf_counter() - t0, 3)}, general=True)


# ---- the sequence W_m = −I_m + 2N_m (Lemma A.8/A.9 as statements about sequences) --------------

def superdiagonal(m: int) -> list[list[int]]:
    """W_m = −I_m + 2N_m (N_m the superdiagonal shift): every eigenvalue −1 (β₀ = 1), entries
    bounded by M₀ = 2, yet ‖P_m‖₂ → ∞."""
    return [[-1 if i == j else (2 if j == i + 1 else 0) for j in range(m)] for i in range(m)]


def superdiagonal_corner(m: int) -> Fraction:
    """(P_m)_mm = ½ Σ_{k<m} C(2k, k) for W_m = −I_m + 2N_m (see :func:`superdiagonal_disproof`)."""
    return Fraction(sum(math.comb(2 * k, k) for k in range(m)), 2)


# The sizes m whose (P_m)_mm the disproof tabulates (and the numeric sides confirm), and the radii Υ
# (with L = 1) at which it exhibits the first m that violates (89).
SUPERDIAGONAL_SIZES = tuple(range(2, 7))
SUPERDIAGONAL_UPSILONS = (Fraction(1), Fraction(1, 2), Fraction(1, 4))


def superdiagonal_point(upsilon: Fraction, lam: Fraction = Fraction(1), m_max: int = 64
                        ) -> tuple[int, list[Fraction], Fraction] | None:
    """(m, v, q_m(v)): the first m ≥ 2 for which W_m = −I_m + 2N_m violates (89) at v = Υe_m with
    L = ``lam``, v, and the exact q_m(v) of :func:`quartic` derived from the closed form
    (P_m)_mm = :func:`superdiagonal_corner` (Lemma A.9 of W, eqs. (88)–(89)); None when no
    m ≤ ``m_max`` does.

    Only the m-th entries of Pv and Wv enter q(v), since v_i = 0 for i < m: (Pv)_m = Υ(P_m)_mm,
    (Wv)_m = Υ(W_m)_mm; the other entries of Pv are multiplied by v_i² = 0 (set to 0 here).
    """
    for m in range(2, m_max + 1):
        w = superdiagonal(m)
        v = [Fraction(0)] * (m - 1) + [upsilon]
        pv = [Fraction(0)] * (m - 1) + [upsilon * superdiagonal_corner(m)]
        wv = [sum((w[i][j] * v[j] for j in range(m)), Fraction(0)) for i in range(m)]
        q = Fraction(quartic(pv, wv, v, Fraction(0)))
        if LocalQuartic.excess(q, upsilon * upsilon, lam) > 0:
            return m, v, q
    return None


def superdiagonal_disproof(kind: str, entry_bound: bool = True, m_check: int = 5) -> Proof:
    """Disprove Lemma A.8's uniform boundedness (``kind`` "norm") or Lemma A.9's uniform Υ
    (``kind`` "local") for sequences W_m ∈ ℝ^{m×m} satisfying (86) and (87).

    For W_m = −I_m + 2N_m: e^{W_m t}e_m = e^{−t} Σ_{k<m} (2t)^k/k! e_{m−k} (N^k e_m = e_{m−k}), so
    (P_m)_mm = ∫₀^∞ |e^{W_m t}e_m|² dt = Σ_{k<m} ∫ e^{−2t}(2t)^{2k}/k!² dt = ½ Σ_{k<m} C(2k, k)
    ≥ m/2 (the integral of the k-th term is derived with symbolic k). Hence ‖P_m‖₂ ≥ (P_m)_mm → ∞;
    and q_m(Υe_m) = 2Υ⁴(P_m)_mm·(W_m)_mm = −2Υ⁴(P_m)_mm, so |q_m(Υe_m)| > LΥ² once
    (P_m)_mm > L/(2Υ²): no Υ > 0 serves every m. The closed form is checked against the exact
    solution of (88) for m ≤ ``m_check``. Without (87) the same sequence is admitted as well.
    """
    sp = _sp()
    t0 = time.perf_counter()
    t = sp.Symbol("t", positive=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    term = sp.integrate(sp.exp(-2 * t) * (2 * t) ** (2 * k) / sp.factorial(k) ** 2, (t, 0, sp.oo))
    # each step confirmed, undecided, or decided false (a failed derivation: FAILED, never a
    # refutation): the k-th term with symbolic k (also at the exact k = 3), and the closed form
    # against the exact solve of (88) for m ≤ m_check (rational numbers: always decided)
    steps = {"∫₀^∞ e^{−2t}(2t)^{2k}/k!² dt = C(2k, k)/2": decide_zeros(
        [term - sp.binomial(2 * k, k) / 2], lambda e: sp.simplify(sp.combsimp(e)), [{k: 3}])}
    for m in range(2, m_check + 1):
        p = _p_of(sp.Matrix(superdiagonal(m)))
        corner = superdiagonal_corner(m)
        steps[f"m={m}: (P_m)_mm of (88) = ½Σ_(k<m) C(2k, k)"] = decide_zeros(
            [p[m - 1, m - 1] - sp.Rational(corner.numerator, corner.denominator)])
    derivation = proof_from_steps(steps, "W_m = −I + 2N_m", "the closed form of (P_m)_mm",
                                  details={"per term": str(term)})
    if derivation.holds is not True:  # undecided, or decided false (a failed derivation)
        return derivation
    table = {f"(P_{m})_{m}{m}": str(superdiagonal_corner(m)) for m in SUPERDIAGONAL_SIZES}
    family = ("W_m = −I_m + 2N_m (N_m the superdiagonal shift): all eigenvalues −1 (β₀ = 1), "
              "max|W_m,ij| = 2 (M₀ = 2)")
    scope = "every m (closed form derived with symbolic k; exact solve of (88) for m ≤ " \
            f"{m_check}); (87) {'holds' if entry_bound else 'is not assumed'}"
    if kind == "norm":
        return Proof(False, scope, "‖P_m‖₂ ≥ (P_m)_mm = ½Σ_{k<m} C(2k,k) ≥ m/2 → ∞",
                     counterexample={"sequence": family, "(P_m)_mm": "½ Σ_(k<m) C(2k, k) ≥ m/2",
                                     **table},
                     details={"∫ e^(−2t)(2t)^(2k)/k!² dt": str(term),
                              "seconds": round(time.perf_counter() - t0, 3)})
    # Lemma A.9: for L = 1 and a few Υ, the first m that defeats Υ, with the exact value of q
    rows = {}
    for ups in SUPERDIAGONAL_UPSILONS:
        point = superdiagonal_point(ups)
        if point is None:
            return Proof(None, scope, f"no m ≤ 64 violates (89) at Υ = {ups} with the derived "
                         "(P_m)_mm", details=table)
        m, _, q = point
        rows[f"Υ = {ups}"] = (f"m = {m}, v = Υe_{m}: q(v) = {q}, |q(v)| = {abs(q)} > "
                              f"L|v|₂² = {ups * ups}")
    return Proof(False, scope, "q_m(Υe_m) = −2Υ⁴(P_m)_mm and (P_m)_mm ≥ m/2: for every Υ > 0 some m "
                 "violates (89)",
                 counterexample={"sequence": family, "L": "1", "(P_m)_mm": "½ Σ_(k<m) C(2k, k)",
                                 **rows},
                 details={"∫ e^(−2t)(2t)^(2k)/k!² dt": str(term), **table,
                          "seconds": round(time.perf_counter() - t0, 3)})


# ---- Lemma A.9 ----------------------------------------------------------------------------------

LOCAL_WITNESSES: tuple[tuple[str, tuple[tuple[int, ...], ...], tuple[Any, ...],
                            tuple[tuple[int, ...], ...] | None], ...] = (
    # (name, W, direction d, V with W = V B V⁻¹ and B normal, or None: W is not diagonalizable)
    ("1×1 W = [−2]", ((-2,),), (1,), ((1,),)),
    ("normal W", ((-2, 2), (-2, -2)), (Fraction(25, 26), Fraction(-5, 26)), ((1, 0), (0, 1))),
    ("Jordan block", ((-1, 1), (0, -1)), (0, 1), None),
    # far from normal (eigenvalues −1, −2; κ₂(V) = 33 + 8√17 ≈ 66): K(W) ≈ 22.4 exceeds nM₀/β₀ = 16,
    # so the corrected radius needs its κ₂(V)²
    ("diagonalizable W far from normal", ((-1, 8), (0, -2)), (1, 25), ((1, -8), (0, 1))),
)


def local_proof(law: LocalQuartic) -> Proof:
    """Decide ``law`` (W Lemma A.9 or a variant) symbolically.

    The uniform existential reading is decided by :func:`superdiagonal_disproof`. The explicit
    readings: exact witnesses first (W = [−2], where q(v) = −v⁴ and every explicit radius is
    tight; the normal [[−2, 2], [−2, −2]] (β₀ = M₀ = 2: a witness with β₀ = M₀ = 1 would not tell
    M₀/β₀ from M₀β₀); for Hurwitz W the Jordan block [[−1, 1], [0, −1]]; and the diagonalizable
    [[−1, 8], [0, −2]], far from normal, where K(W) > nM₀/β₀, so κ₂(V)² matters), each at the
    largest Υ the reading allows (``law.limit`` with L = 1, β₀ = −α(W), M₀ = max|W_ij|, κ₂(V)
    exact from the eigenvalues of VᵀV).
    General arguments: q(v) = 2(Pv)ᵀDiag(v)²(Wv) is a quartic form (checked for n ≤ 3), and
    |q(v)| ≤ 2‖P‖₂‖W‖₂|v|_∞²|v|₂² ≤ 2‖P‖₂‖W‖₂|v|₂⁴, so a reading holds when its L/Υ² is at least
    2‖W‖₂‖P‖₂ ("1/(2|W||P|)"), or, with ‖W‖₂ ≤ nM₀ and ‖P‖₂ ≤ κ₂(V)²/(2β₀)
    (W.lyapunov-bound.weak), at least nM₀κ₂(V)²/β₀ for diagonalizable W: ``law.limit`` is
    compared with these symbolically.
    """
    sp = _sp()
    t0 = time.perf_counter()
    if law.radius == "exists":
        if law.uniform and law.family == "hurwitz":
            return superdiagonal_disproof("local", law.entry_bound)
        return _quartic_general(t0, law)
    for name, rows, direction, similarity in LOCAL_WITNESSES:
        if law.family == "diagonalizable" and similarity is None:
            continue
        w = sp.Matrix(rows)
        n = w.rows
        p = _p_of(w)
        m0 = max(abs(x) for x in w)
        beta0 = -max(sp.re(e) for e in w.eigenvals())
        v = sp.Matrix(direction)
        qv = local_form(w, p, v)
        d2 = (v.T * v)[0]
        wn = sp.sqrt(_lmax_exact(w.T * w))
        kappa = sp.Integer(1)
        if similarity is not None:  # κ₂(V)² = λ_max(VᵀV)/λ_min(VᵀV)
            vm = sp.Matrix(similarity)
            b = vm.inv() * w * vm
            if b * b.T != b.T * b:  # pragma: no cover - each V of the table normalizes its W
                raise ValueError(f"{name}: V⁻¹WV is not normal")
            gram = list((vm.T * vm).eigenvals())
            kappa = sp.sqrt(sp.radsimp(max(gram, key=sp.N) / min(gram, key=sp.N)))
        limit = law.limit(m0=sp.Integer(m0), beta0=beta0, n=n, kappa=kappa, wnorm=wn,
                          pnorm=_lmax_exact(p))
        # |q(v)| ≤ L|v|² for all |v| ≤ Υ ⇔ |q(d)|/|d|⁴ ≤ L/Υ² = limit; violated at v = Υ d/|d|
        ratio = abs(qv) / d2 ** 2
        if sp.simplify(ratio - limit).is_positive:
            return Proof(False, f"the {name} witness", "exact q(v) = vᵀ(WᵀDiag(v)²P + PDiag(v)²W)v "
                         "at v = Υ·d/|d|₂ (by homogeneity |q(v)|/|v|₂² = |q(d)|Υ²/|d|₂⁴)",
                         counterexample={"W": str(w.tolist()), "P": str(p.tolist()), "L": "1",
                                         "M0": str(m0), "beta0": str(beta0),
                                         **({"V": str(similarity), "kappa2(V)": str(kappa)}
                                            if law.family == "diagonalizable" else {}),
                                         "Upsilon^2": str(sp.simplify(1 / limit)),
                                         "d": str(list(v)), "q(d)": str(qv),
                                         "|q(d)|/|d|^4": str(ratio), "L/Upsilon^2": str(limit)})
    return _quartic_general(t0, law)


def _quartic_general(t0: float, law: LocalQuartic, n_max: int = 3) -> Proof:
    """The general argument for ``law``: q is a quartic form with |q(v)| ≤ 2‖P‖₂‖W‖₂|v|₂⁴ (the
    identities checked for n ≤ ``n_max``), so a reading holds whenever its L/Υ² (``law.limit``,
    with symbolic norms) is at least the chain's bound: 2‖W‖₂‖P‖₂, or 2·(nM₀)·κ₂(V)²/(2β₀) with
    ‖W‖₂ ≤ nM₀ and ‖P‖₂ ≤ κ₂(V)²/(2β₀) for diagonalizable W (W.lyapunov-bound.weak)."""
    sp = _sp()
    s = sp.Symbol("s", positive=True)
    identities: dict[str, Any] = {}
    for n in range(2, n_max + 1):
        w = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
        p = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"p{min(i, j)}{max(i, j)}", real=True))
        v = sp.Matrix(sp.symbols(f"v0:{n}", real=True))
        qv = local_form(w, p, v)
        # polynomial identities: expanded to 0, or decided false (a nonzero constant, or a
        # nonzero value at an exact integer point)
        at = [_exact_point({s, *w, *p, *v})]
        identities[f"n={n}: homogeneous of degree 4"] = decide_zeros(
            [local_form(w, p, s * v) - s ** 4 * qv], sp.expand, at)
        identities[f"n={n}: q = quartic(Pv, Wv, v)"] = decide_zeros(
            [qv - quartic(list(p * v), list(w * v), list(v))], sp.expand, at)
    decided = proof_from_steps(identities, "quartic form", "SymPy: the quartic identities")
    if decided.holds is not True:  # undecided, or decided false (a failed derivation)
        return decided
    ok: dict[str, Any] = dict(decided.details)
    beta, m0, kappa, n_, wn, pn = sp.symbols("beta0 M0 kappa n wnorm pnorm", positive=True)
    scopes = {"1/(2|W||P|)": ("every m and every W", 2 * wn * pn, ""),
              "beta0/(n M0 kappa^2)": ("every m and every diagonalizable W = VBV⁻¹ (B normal)",
                                       2 * (n_ * m0) * (kappa ** 2 / (2 * beta)),
                                       "; ‖W‖₂ ≤ nM₀, ‖P‖₂ ≤ κ₂(V)²/(2β₀)")}
    if law.radius == "exists":  # Υ = √(L/(2‖W‖₂‖P‖₂)) works for each W
        return Proof(True, f"every fixed m and W (Υ = √(L/(2‖W‖₂‖P‖₂)) works); the quartic "
                     f"identities checked for n ≤ {n_max}, the norm chain is general",
                     "q(v) = 2(Pv)ᵀDiag(v)²(Wv), |q(v)| ≤ 2‖P‖₂‖W‖₂|v|_∞²|v|₂² ≤ 2‖P‖₂‖W‖₂|v|₂⁴",
                     details={**ok, "seconds": round(time.perf_counter() - t0, 3)}, general=True)
    if law.radius not in scopes or (law.radius == "beta0/(n M0 kappa^2)"
                                     and law.family != "diagonalizable"):
        return Proof(None, "witnesses", "no witness decides this reading and no general argument "
                     "covers it")
    scope, chain, steps = scopes[law.radius]
    limit = law.limit(m0=m0, beta0=beta, n=n_, kappa=kappa, wnorm=wn, pnorm=pn)
    margin = sp.simplify(limit - chain)
    ok["L/Υ² of the statement ≥ the chain's bound"] = bool(margin.is_nonnegative)
    if not margin.is_nonnegative:
        return Proof(None, "witnesses", "no witness violates this reading and its L/Υ² is not "
                     "shown to be at least the general bound", details={
                         "L/Upsilon^2": str(limit), "bound": str(chain), "difference": str(margin)})
    return Proof(True, scope + f"; the quartic identities checked for n ≤ {n_max}, the norm chain "
                 "is general",
                 "q(v) = 2(Pv)ᵀDiag(v)²(Wv), |q(v)| ≤ 2‖P‖₂‖W‖₂|v|_∞²|v|₂² ≤ 2‖P‖₂‖W‖₂|v|₂⁴"
                 + steps + f"; L/Υ² = {limit} ≥ {chain}",
                 details={**ok, "seconds": round(time.perf_counter() - t0, 3)}, general=True)


# ---- eqs. (92)–(98) ---------------------------------------------------------------------------

CUBE_WITNESSES = (("1×1 W = [M₀], v = 1", ((1,),), (1,)),
                  ("1×1 W = [M₀], v = 1/2", ((1,),), (Fraction(1, 2),)),
                  ("normal Hurwitz W, M₀ = 1", ((-1, 1), (-1, -1)), (1, Fraction(-1, 2))))


def cube_proof(law: DiagCubeBound) -> Proof:
    """Decide ``law`` ((92)–(98) of W's proof of Lemma A.9, or a variant) symbolically.

    Witnesses (exact over ℚ, squares compared): W = [M₀] with v = 1 and v = 1/2 (tight for the
    bound M₀|v|₂³), and the normal Hurwitz W = [[−1, 1], [−1, −1]] (M₀ = 1) with v = (1, −1/2):
    |Diag(v)²Wv|₂² = 145/64 > |v|₂⁶ = 125/64. General argument for √m·M₀|v|₂³:
    |Diag(v)²Wv|₂² = Σ_i v_i⁴(Wv)_i² ≤ M₀²|v|₁² Σ_i v_i⁴ ≤ M₀²·m|v|₂²·|v|₂⁴ (Cauchy–Schwarz and
    Σv_i⁴ ≤ (Σv_i²)²); the entrywise form is checked symbolically for m ≤ 3.
    """
    sp = _sp()
    t0 = time.perf_counter()
    for m in range(1, 4):  # the vector the statement bounds is Diag(v)²Wv, entry by entry
        w = sp.Matrix(m, m, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
        v = sp.Matrix(sp.symbols(f"v0:{m}", real=True))
        mine = sp.Matrix(diag_product(w.tolist(), list(v)))
        diff = (mine - sp.diag(*[x ** 2 for x in v]) * w * v).expand()
        if diff != sp.zeros(m, 1):
            point = {x: k + 1 for k, x in enumerate([*w, *v])}
            return Proof(False, f"m = {m}", "diag_product differs from Diag(v)²Wv",
                         counterexample={"difference": str(diff.T.tolist()),
                                         "at": str({str(k): v_ for k, v_ in point.items()}),
                                         "value": str(diff.subs(point).T.tolist())})
    for name, rows, vec in CUBE_WITNESSES:
        w = [[Fraction(x) for x in row] for row in rows]
        v = [Fraction(x) for x in vec]
        m = len(v)
        m0 = max(abs(x) for row in w for x in row)
        c = diag_product(w, v)
        lhs2 = sum((x * x for x in c), Fraction(0))
        v2 = sum((x * x for x in v), Fraction(0))
        rhs2 = law.bound_squared(m, m0, v2)
        if lhs2 > rhs2:
            printed = printed_expansion(w, v)
            return Proof(False, f"the witness {name}", "exact evaluation over ℚ (squares compared)",
                         counterexample={"W": str([[str(x) for x in r] for r in w]),
                                         "v": str([str(x) for x in v]), "M0": str(m0),
                                         "Diag(v)^2 W v": str([str(x) for x in c]),
                                         "|Diag(v)^2 W v|^2": str(lhs2),
                                         "bound^2": str(rhs2),
                                         "(92)'s printed expansion (Σ_j v_j² W_ji v_i)_i":
                                             str([str(x) for x in printed]),
                                         "its squared norm": str(sum((x * x for x in printed),
                                                                     Fraction(0)))})
    if law.factor >= 1 and law.root_m and law.power == 3:
        steps = {}
        for m in range(1, 4):
            w = sp.Matrix(m, m, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
            v = sp.Matrix(sp.symbols(f"v0:{m}", real=True))
            c = sp.diag(*[x ** 2 for x in v]) * w * v
            # a polynomial identity: expanded to 0, or decided false (a nonzero constant, or a
            # nonzero value at an exact integer point)
            steps[f"m={m}: |Diag(v)²Wv|² = Σ v_i⁴ (Wv)_i²"] = decide_zeros(
                [(c.T * c)[0] - sum(v[i] ** 4 * (w * v)[i] ** 2 for i in range(m))], sp.expand,
                [_exact_point({*w, *v})])
        return proof_from_steps(
            steps, "every m, W and v", "Σ_i v_i⁴(Wv)_i² ≤ M₀²|v|₁²Σ_i v_i⁴ ≤ M₀²·m|v|₂²·|v|₂⁴ "
            "(|(Wv)_i| ≤ M₀|v|₁, Cauchy–Schwarz, Σv_i⁴ ≤ |v|₂⁴)",
            details={"seconds": round(time.perf_counter() - t0, 3)}, general=True)
    return Proof(None, "witnesses", "no witness violates this variant and no argument covers it")


# ---- eqs. (36)–(38) -----------------------------------------------------------------------------

SEMIGROUP_WITNESSES = (
    # (name, W, t), each with β₀ at the edge of the statement's hypothesis
    ("W = [−1] at t = 0", ((-1,),), Fraction(0)),
    ("W = [−1] at t = 1", ((-1,),), Fraction(1)),
    ("non-normal W (audit's example)", ((-2, 10), (0, -2)), Fraction(1, 10)),
)


def semigroup_proof(law: SemigroupBound) -> Proof:
    """Decide ``law`` (W App. A.8 eq. (38) or a variant) symbolically.

    Witnesses, exactly (SymPy): W = [−1] at t = 0 and t = 1, and the non-normal
    W = [[−2, 10], [0, −2]] (max Re λ = −2) at t = 1/10, where e^{Wt} = e^{−1/5}[[1, 1], [0, 1]]
    and ‖e^{Wt}‖₂ = e^{−1/5}(1 + √5)/2 ≈ 1.325 > 1 ≥ e^{−β₀t}. Each is used at the edge of the
    statement's hypothesis (:meth:`SemigroupBound.edge_beta0`: β₀ = −abscissa when the
    hypothesis admits it, 63/64 of it for a strict one), and only where the hypothesis admits it.
    General argument for the numerical abscissa μ = λ_max((W+Wᵀ)/2) ≤ −β₀: y = e^{Wt}x has
    d|y|²/dt = yᵀ(W + Wᵀ)y ≤ 2μ|y|² (the identity is checked with symbolic W, x for n ≤ 3), so
    |y(t)|² ≤ e^{2μt}|x|² (Grönwall) and ‖e^{Wt}‖₂ ≤ e^{μt} ≤ e^{−β₀t}.
    """
    sp = _sp()
    t0 = time.perf_counter()
    tt = sp.Symbol("t", nonnegative=True)
    for name, rows, tval in SEMIGROUP_WITNESSES:
        w = sp.Matrix(rows)
        a_val = (max(sp.re(e) for e in w.eigenvals()) if law.abscissa == "spectral"
                 else _lmax_exact((w + w.T) / 2))
        beta0 = law.edge_beta0(Fraction(str(a_val)))
        if not law.admits(a_val, sp.Rational(beta0.numerator, beta0.denominator)):
            continue
        e = (w * sp.Rational(tval)).exp()
        norm = sp.sqrt(_lmax_exact(sp.simplify(e.T * e)))
        bound = law.bound(sp.Rational(beta0), sp.Rational(tval), sp.exp)
        gap = sp.simplify(norm - bound)
        if gap.is_positive:
            return Proof(False, f"the witness {name}", "exact e^{Wt} (SymPy) and its spectral norm",
                         counterexample={"W": str(w.tolist()), "beta0": str(beta0), "t": str(tval),
                                         "e^{Wt}": str(sp.simplify(e).tolist()),
                                         "‖e^{Wt}‖₂": str(sp.simplify(norm)),
                                         "bound": str(bound),
                                         "‖e^{Wt}‖₂ − bound ≈": str(sp.N(gap, 6))})
    if law.abscissa == "numerical" and law.constant >= 1 and law.rate <= 1:
        steps = {}
        for n in (1, 2, 3):
            w = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
            y = sp.Matrix([sp.Function(f"y{i}")(tt) for i in range(n)])
            lhs = sp.diff((y.T * y)[0], tt).subs({sp.Derivative(y[i], tt): (w * y)[i]
                                                   for i in range(n)})
            # a polynomial identity in W and y(t): expanded to 0, or decided false (a nonzero
            # constant, or a nonzero value at an exact integer point for W and y(t))
            point = {**_exact_point({tt, *w}), **{yi: -(k + 1) for k, yi in enumerate(y)}}
            steps[f"n={n}: d|y|²/dt = yᵀ(W + Wᵀ)y"] = decide_zeros(
                [lhs - (y.T * (w + w.T) * y)[0]], sp.expand, [point])
        return proof_from_steps(
            steps, "every real W of any size with λ_max((W+Wᵀ)/2) ≤ −β₀ and every t ≥ 0",
            "d|y|²/dt = yᵀ(W+Wᵀ)y ≤ 2μ|y|², Grönwall: ‖e^{Wt}‖₂ ≤ e^{μt} ≤ "
            "constant·e^{−rate·β₀t} (constant ≥ 1, rate ≤ 1)",
            details={"seconds": round(time.perf_counter() - t0, 3)}, general=True)
    return Proof(None, "witnesses", "no witness violates this variant and no argument covers it")
