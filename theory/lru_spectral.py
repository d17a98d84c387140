"""L App. E.1.1, spectral perspective: a linear RNN keeps the input's frequency; ReLU does not.

:class:`SameFrequency` — "if the input is a sine wave of a certain frequency, the output will be a
scaled and shifted sine wave of the same frequency", for the diagonal linear RNN of §3 (x_n =
λ⊙x_{n−1} + B u_n, y_n = Re(C x_n), |λ_j| < 1) driven by u_n = cos(ωn) from its steady state
(the input started at −∞). A real sequence is a sinusoid of frequency ω iff y_{n+1} + y_{n−1} =
2cos(ω)·y_n for every n, the form every side checks. From rest (x_0 = 0) the output carries the
transient Re(C λ^n x_ss(0)), so "steady state" is the reading.

:class:`ReluSpectrum` — Proposition 4: F_{ReLU(u)} = F_u ⋆ [Σ_i 2L_i e^{−iωp_i} sinc(ωL_i)]. The
proof's convolution theorem is derived with u(t) = ∫U(ν)e^{iνt}dν (so F(ω) = (1/2π)∫u e^{−iωt}dt),
its property 2 (the rectangle's transform 2τ·sinc(ωτ)) holds for F(ω) = ∫u e^{−iωt}dt: mixing
the two loses a factor 2π. In every convention (angular F = ∫u e^{−iωt}, the proof's (1/2π)∫…,
unitary (1/√2π)∫…) with the kernel as printed, F_{ReLU(u)} = (1/2π)·F_u ⋆ [Σ_i 2L_i e^{−iωp_i}
sinc(ωL_i)]: the printed formula is 2π times too large.

Exact witness (the periodic case, ω in cycles per 2π): u(t) = cos(t − p₀) − a, |a| < 1, has the
regions [p₀ + 2πn − L, p₀ + 2πn + L], L = arccos a; F_u = π e^{−ip₀}δ(ω − 1) + π e^{ip₀}δ(ω + 1)
− 2πa δ(ω) and, by Poisson's formula Σ_n e^{−2πinω} = Σ_m δ(ω − m), the kernel is
2L sinc(ωL) e^{−iωp₀} Σ_m δ(ω − m). Both sides are then Dirac combs Σ_j X_j δ(ω − j): the left
X_j = 2π c_j with c_j the Fourier coefficients of ReLU(u) (integrated by SymPy), the right
X_j = Σ_m A_m·K(j − m). For a = 0: 2πc_0 = 2, and the printed right side gives 4π.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.lru_toy_opt import decide_constant
from recmem.theory.proof import Proof, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class ReluSpectrum(Statement):
    """Prop. 4 with its constants as fields: F_{ReLU(u)} = constant·(2π)^(−two_pi_power)·F_u ⋆
    [Σ_i width·L_i e^{shift_sign·iωp_i} sinc(ωL_i)]. Printed: constant 1, two_pi_power 0,
    width 2, shift_sign −1; corrected: two_pi_power 1."""

    two_pi_power: int = 0
    shift_sign: int = -1
    width: int = 2
    constant: Fraction = Fraction(1)

    @property
    def text(self) -> str:
        pre = "" if self.constant == 1 else f"{self.constant}·"
        pre += {0: "", 1: "(1/2π)·"}.get(self.two_pi_power, f"(2π)^{-self.two_pi_power}·")
        s = "−" if self.shift_sign < 0 else "+"
        return (f"Prop. 4: for u: ℝ → ℝ with ReLU regions P_i = [p_i − L_i, p_i + L_i], "
                f"F_ReLU(u)(ω) = {pre}F_u ⋆ [Σ_i {self.width}L_i e^({s}iωp_i) sinc(ωL_i)](ω), "
                "F(ω) = ∫u(t)e^(−iωt)dt, sinc(x) = sin(x)/x")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of the shift phase flipped", replace(self, shift_sign=-self.shift_sign)),
                Control("width 2L_i → L_i", replace(self, width=self.width // 2)),
                Control("constant × 33/32 (near)", replace(self, constant=self.constant * Fraction(33, 32))))

    def factor(self, two_pi: Any) -> Any:
        """The constant in front of the convolution, in an arithmetic whose 2π is ``two_pi``."""
        c = self.constant
        return (two_pi ** (-self.two_pi_power)) * c.numerator / c.denominator

    def kernel(self, omega: Any, p: Any, half: Any, cis: Callable[[Any], Any],
               sinc: Callable[[Any], Any]) -> Any:
        """One region's term width·L·e^{shift·iωp}·sinc(ωL) (cis(x) = e^{ix}), any arithmetic."""
        return half * self.width * cis(omega * p * self.shift_sign) * sinc(omega * half)


@dataclass(frozen=True)
class SameFrequency(Statement):
    """App. E.1.1: the diagonal linear RNN driven by cos(ωn) outputs a sinusoid of frequency
    freq_mult·ω: y_{n+1} + y_{n−1} = 2cos(freq_mult·ω)·y_n for all n ≥ 1. Hypotheses: steady state
    (``steady``; widened: from rest), no position-wise ReLU after it (``relu``; widened: with)."""

    freq_mult: int = 1
    steady: bool = True
    relu: bool = False

    @property
    def text(self) -> str:
        start = "from its steady state (input since −∞)" if self.steady else "from rest x_0 = 0"
        out = "ReLU(Re(C x_n))" if self.relu else "Re(C x_n)"
        w = "ω" if self.freq_mult == 1 else f"{self.freq_mult}ω"
        return (f"a diagonal linear RNN x_n = λ⊙x_(n−1) + B u_n, |λ_j| < 1, driven {start} by "
                f"u_n = cos(ωn), outputs y_n = {out}, a scaled and shifted sinusoid of frequency "
                f"{w}: y_(n+1) + y_(n−1) = 2cos({w})·y_n for all n ≥ 1")

    def controls(self) -> tuple[Control, ...]:
        return (Control("frequency doubled", replace(self, freq_mult=2 * self.freq_mult)),
                Control("hypothesis widened: started from rest", replace(self, steady=False)),
                Control("hypothesis widened: ReLU after the RNN", replace(self, relu=True)))

    def initial_state(self, lam: Any, b: Any, z: Any, zbar: Any) -> Any:
        """x_0 of one unit: the steady state Σ_(j≥0) λ^j b cos(−ωj) = (b z/(z − λ) + b z̄/(z̄ − λ))/2
        (z = e^{iω}), or 0 from rest; any arithmetic with complex numbers."""
        if not self.steady:
            return b * 0
        return (b * z / (z - lam) + b * zbar / (zbar - lam)) / 2

    def read(self, y: Any, zero: Any) -> Any:
        """The position-wise map after the RNN: identity, or ReLU."""
        return (y if y > zero else zero) if self.relu else y

    def residuals(self, y: Sequence[Any], cos_mw: Any) -> tuple[list[Any], list[Any]]:
        """(y_(n+1) + y_(n−1), 2cos(mω)·y_n) for n = 1 … len(y) − 2: equal iff y is a sinusoid of
        frequency mω (given 2cos(mω) in the arithmetic)."""
        lhs = [y[n + 1] + y[n - 1] for n in range(1, len(y) - 1)]
        return lhs, [cos_mw * 2 * y[n] for n in range(1, len(y) - 1)]


def rnn_outputs(st: SameFrequency, lams: Sequence[Any], bs: Sequence[Any], cs: Sequence[Any],
                z: Any, zbar: Any, steps: int, re: Callable[[Any], Any], zero: Any) -> list[Any]:
    """y_0 … y_steps of the diagonal linear RNN (the definition: the recurrence, step by step)
    with u_n = Re(z^n), the initial state and the read-out from the statement; any arithmetic
    with complex scalars (``re`` takes the real part)."""
    xs = [st.initial_state(lam, b, z, zbar) for lam, b in zip(lams, bs, strict=True)]
    zn, ys = z ** 0, []
    for n in range(steps + 1):
        if n:
            zn = zn * z
            u = re(zn)
            xs = [lam * x + b * u for lam, x, b in zip(lams, xs, bs, strict=True)]
        ys.append(st.read(re(sum((c * x for c, x in zip(cs, xs, strict=True)), zero * 0)), zero))
    return ys


# ---- exact sides -------------------------------------------------------------------------------

def _qqi(v: tuple[Fraction, Fraction]) -> Any:
    from sympy import QQ, QQ_I

    return QQ_I(QQ(v[0].numerator, v[0].denominator), QQ(v[1].numerator, v[1].denominator))


def same_frequency_instance(st: SameFrequency, inst: dict[str, Any]) -> tuple[bool, dict[str, str]]:
    """Decide the statement exactly in ℚ(i) on one instance {lams, bs, cs, z, m, steps}: z a
    rational point of the unit circle (so cos(mω) = Re z^m is rational), the RNN run from the
    statement's initial state; the first n where the sinusoid relation fails is the witness."""
    lams, bs, cs = ([_qqi(v) for v in inst[k]] for k in ("lams", "bs", "cs"))
    z = _qqi(inst["z"])
    zbar = _qqi((inst["z"][0], -inst["z"][1]))
    from sympy import QQ_I

    ys = rnn_outputs(st, lams, bs, cs, z, zbar, inst["steps"], lambda v: QQ_I(v.x, 0),
                     QQ_I(0, 0))
    ys_q = [y.x for y in ys]
    cos_mw = (z ** st.freq_mult).x
    lhs, rhs = st.residuals(ys_q, cos_mw)
    for n, (a, b) in enumerate(zip(lhs, rhs, strict=True), start=1):
        if a != b:
            return False, {"n": str(n), "y_(n+1) + y_(n−1)": str(a), "2cos(mω)·y_n": str(b),
                           "cos(mω)": str(cos_mw), "y_0…y_4": ", ".join(map(str, ys_q[:5]))}
    return True, {"cos(mω)": str(cos_mw), "y_0…y_4": ", ".join(map(str, ys_q[:5]))}


EXAMPLE: dict[str, Any] = {"lams": [(Fraction(1, 2), Fraction(1, 3)), (Fraction(-9, 10), Fraction(0))],
           "bs": [(Fraction(1), Fraction(-1)), (Fraction(2), Fraction(0))],
           "cs": [(Fraction(1), Fraction(2)), (Fraction(-1), Fraction(1))],
           "z": (Fraction(3, 5), Fraction(4, 5)), "steps": 12}


def same_frequency_proof(st: SameFrequency) -> Proof:
    """Exact instance first (ℚ(i), :data:`EXAMPLE`: a refutation with its witness); then, for
    the steady linear RNN, the general derivation by SymPy for symbolic λ, b, c, n and
    z = e^{iω}: (1) x_n = (b z/(z − λ)·z^n + b z̄/(z̄ − λ)·z̄^n)/2 solves x_n = λx_(n−1) +
    b cos(ωn) and equals the statement's x_0 at n = 0; (2) y_n = Re(c x_n) = αz^n + ᾱz̄^n, and any
    such sequence satisfies y_(n+1) + y_(n−1) = (z + z̄)·y_n = 2cos(mω)y_n (checked with the
    statement's m)."""
    import sympy as sp

    ok, values = same_frequency_instance(st, EXAMPLE)
    if not ok:
        return Proof(False, "the exact instance EXAMPLE", "exact ℚ(i) simulation",
                     counterexample={"instance": str(EXAMPLE), **values})
    if not st.steady or st.relu:
        return Proof(None, "the exact instance only", "no general derivation for this variant")
    lam, b, al = sp.symbols("lambda b alpha")
    w = sp.Symbol("omega", real=True)
    n = sp.Symbol("n", integer=True, positive=True)
    z, zb = sp.exp(sp.I * w), sp.exp(-sp.I * w)
    x = lambda k: (b * z / (z - lam) * z**k + b * zb / (zb - lam) * zb**k) / 2  # noqa: E731
    y = lambda k: al * z**k + sp.conjugate(al) * zb**k  # noqa: E731
    pts = [{lam: sp.Rational(1, 2), b: 1, w: 1, n: 2, al: 1 + sp.I}]
    steps = {
        "(1) x_n − λx_(n−1) = b cos(ωn)": decide_zeros(
            [x(n) - lam * x(n - 1) - b * sp.cos(w * n)],
            simplify=lambda e: sp.simplify(sp.expand(e.rewrite(sp.exp))), points=pts),
        "(1) x_0 is the statement's initial state": decide_zeros(
            [x(0) - st.initial_state(lam, b, z, zb)], points=pts),
        "(2) y_(n+1) + y_(n−1) − 2cos(mω)·y_n = 0 for y_n = αz^n + ᾱz̄^n": decide_zeros(
            [y(n + 1) + y(n - 1) - 2 * sp.cos(st.freq_mult * w) * y(n)],
            simplify=lambda e: sp.simplify(sp.expand(e.rewrite(sp.exp))), points=pts),
    }
    return proof_from_steps(steps, "every diagonal linear RNN with |λ_j| < 1, every ω and n ≥ 1",
                            "SymPy: the steady state solves the recurrence; Re(c·x_n) is a "
                            "combination of z^n and z̄^n", details=values, general=True)


# ---- Prop. 4 on the periodic witness -----------------------------------------------------------

@functools.cache
def _region_integrals() -> tuple[Any, Any, tuple[Any, ...]]:
    """∫_(−L)^(L) (cos t − a)cos(jt)dt and ∫_(−L)^(L) (cos t − a)sin(jt)dt for symbolic integer
    j, L > 0 and a, by SymPy once (piecewise in j)."""
    import sympy as sp

    t = sp.Symbol("t", real=True)
    j, half, a = sp.Symbol("j", integer=True), sp.Symbol("L", positive=True), sp.Symbol("a", real=True)
    return (sp.integrate((sp.cos(t) - a) * sp.cos(j * t), (t, -half, half)),
            sp.integrate((sp.cos(t) - a) * sp.sin(j * t), (t, -half, half)), (j, half, a))


def periodic_sides(st: ReluSpectrum, a: Fraction, shift_turns: Fraction, js: Sequence[int]
                   ) -> list[tuple[Any, Any]]:
    """For u(t) = cos(t − p₀) − a, p₀ = shift_turns·π: the Dirac weights (X_j left, X_j right)
    of both sides of Prop. 4 at ω = j (module docstring): left 2π·c_j = ∫ over one period of
    ReLU(u)e^(−ijt)dt = e^(−ijp₀)∫_(−L)^(L)(cos s − a)e^(−ijs)ds (s = t − p₀; integrated by
    SymPy); right Σ_m A_m·K(j − m) with the statement's kernel and factor."""
    import sympy as sp

    i_cos, i_sin, (jj, hh, aa) = _region_integrals()
    av = sp.Rational(a.numerator, a.denominator)
    p0 = sp.pi * sp.Rational(shift_turns.numerator, shift_turns.denominator)
    half = sp.acos(av)
    amps = {1: sp.pi * sp.exp(-sp.I * p0), -1: sp.pi * sp.exp(sp.I * p0), 0: -2 * sp.pi * av}
    out = []
    for j in js:
        at = {jj: j, hh: half, aa: av}
        left = sp.exp(-sp.I * j * p0) * (i_cos.subs(at) - sp.I * i_sin.subs(at))
        right = st.factor(2 * sp.pi) * sum(
            amp * st.kernel(j - m, p0, half, lambda v: sp.exp(sp.I * v), sp.sinc)
            for m, amp in amps.items())
        out.append((left, right))
    return out


def relu_spectrum_instance(st: ReluSpectrum, a: Fraction, shift_turns: Fraction, j: int
                           ) -> tuple[bool | None, dict[str, str]]:
    """Decide Prop. 4's Dirac weight at ω = j on the periodic witness exactly (SymPy)."""
    (left, right), = periodic_sides(st, a, shift_turns, [j])
    ok, witness = decide_constant(left - right)
    return ok, {"u(t)": f"cos(t − {shift_turns}π) − {a}", "ω": str(j), "left 2πc_j": str(left),
                "right": str(right), **{k: str(v) for k, v in witness.items()}}


def relu_spectrum_proof(st: ReluSpectrum) -> Proof:
    """Exact Dirac weights of both sides on the periodic witnesses u = cos t (a = 0, ω = 0…2)
    and u = cos(t − π/3) − 1/2 (ω = 1) — a disproof with the first differing weight; then the
    general kernel step (SymPy: ∫_(p−L)^(p+L) e^{−iωt}dt against the statement's term, times the
    factor (2π)^{−1} the convolution theorem in F = ∫u e^{−iωt}dt carries, for symbolic p, L, ω).
    A proof on witnesses only: the convolution theorem and Poisson's formula are cited."""
    import sympy as sp

    for a, turns, js in ((Fraction(0), Fraction(0), (0, 1, 2)),
                         (Fraction(1, 2), Fraction(1, 3), (1,))):
        for j in js:
            ok, values = relu_spectrum_instance(st, a, turns, j)
            if ok is False:
                return Proof(False, "the periodic witness", "SymPy: exact Dirac weights",
                             counterexample=values)
            if ok is None:
                return Proof(None, "the periodic witness", "SymPy could not decide", details=values)
    t, om = sp.symbols("t omega", real=True)
    p, half = sp.Symbol("p", real=True), sp.Symbol("L", positive=True)
    rect = sp.integrate(sp.exp(-sp.I * om * t), (t, p - half, p + half))
    term = st.kernel(om, p, half, lambda v: sp.exp(sp.I * v), lambda v: sp.sin(v) / v)
    steps = {"∫_(p−L)^(p+L) e^{−iωt}dt = the statement's term (ω ≠ 0)": decide_zeros(
        [sp.simplify(rect.args[0][0] if isinstance(rect, sp.Piecewise) else rect) - term],
        simplify=lambda e: sp.simplify(sp.expand(e.rewrite(sp.exp))),
        points=[{om: 1, p: 1, half: 1}]),
        "factor = (2π)^(−1) (convolution theorem, F = ∫u e^{−iωt}dt)": decide_zeros(
            [st.factor(2 * sp.pi) - 1 / (2 * sp.pi)])}
    return proof_from_steps(steps, "the periodic witnesses; kernel step for all p, L, ω",
                            "SymPy: Dirac weights of both sides; the rectangle's transform",
                            general=False)
