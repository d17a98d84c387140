"""Linear RNNs can parametrize any convolution: paper O App. A, Theorem 5 (cited from [26]),
checked on instances.

Printed: for a convolution H_t(u) = ∫₀^∞ ρ(s)ᵀu(t − s)ds (Theorem 4's class) and every ε > 0 there
is a linear RNN Ĥ ∈ Ĥ = ∪_N Ĥ_N with sup_t sup_(‖u‖<1) |H_t(u) − Ĥ_t(u)| ≤ ε. For scalar inputs
that distance is ∫₀^∞ |ρ − ρ̂| (the sup over ‖u‖ ≤ 1 of ∫(ρ − ρ̂)u is the L¹ norm), ρ̂(s) =
cᵀe^{Ws}b the RNN's impulse response. (Ĥ_N as printed integrates over [0, t], a network started
at rest at time 0; for inputs on all of ℝ and sup over t ∈ ℝ we read it from rest at −∞, ∫₀^∞.)

Instances (:class:`KernelInstance`):

- ``expsum``: ρ = Σ c_i e^{−r_i s}: the diagonal RNN W = −diag(r), b = 1, c represents it
  exactly (N = number of terms);
- ``jordan``: ρ = s e^{−rs}: the Jordan block W = [[−r, 1], [0, −r]], b = e₂, c = e₁ (N = 2);
- ``poly``: ρ = (1 + s)^{−p}, p ≥ 2 an integer: no finite RNN represents it (every cᵀe^{Ws}b is
  an entire function of s; (1 + s)^{−p} has a pole at s = −1), but the trapezoidal rule on
  (1 + s)^{−p} = Γ(p)⁻¹ ∫ e^{py − e^y(1+s)} dy (x = e^y in the Laplace integral) gives diagonal
  RNNs with rates e^{kh}, k = −K … K (N = 5, 9, 13, 17), whose L¹ error falls as K grows (:func:`sinc_rnn`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

KERNEL_KINDS = ("expsum", "jordan", "poly")
# half-widths K of the trapezoidal RNNs (N = 2K + 1) for the non-exponential kernel
HALF_WIDTHS = (2, 4, 6, 8)


@dataclass(frozen=True)
class KernelInstance:
    """A scalar kernel ρ on [0, ∞): ``expsum`` (``coeffs``, ``rates``), ``jordan`` (rate
    ``rates[0]``: ρ = s e^{−rs}) or ``poly`` (ρ = (1 + s)^{−p}, p = ``power``)."""

    kind: str
    coeffs: tuple[Fraction, ...] = ()
    rates: tuple[Fraction, ...] = ()
    power: int = 2

    def __post_init__(self) -> None:
        ok = self.kind in KERNEL_KINDS and all(r > 0 for r in self.rates)
        if self.kind == "expsum":
            ok = ok and len(self.coeffs) == len(self.rates) >= 1
        if self.kind == "jordan":
            ok = ok and len(self.rates) == 1
        if self.kind == "poly":
            ok = ok and self.power >= 2
        if not ok:
            raise ValueError(f"not a kernel instance: {self!r}")

    @property
    def description(self) -> str:
        if self.kind == "expsum":
            return "ρ(s) = " + " + ".join(f"{c}·e^(−{r}s)" for c, r in zip(self.coeffs, self.rates,
                                                                          strict=True))
        if self.kind == "jordan":
            return f"ρ(s) = s·e^(−{self.rates[0]}s)"
        return f"ρ(s) = (1 + s)^(−{self.power})"

    def sympy(self, s: Any) -> Any:
        """ρ(s) as a SymPy expression."""
        import sympy as sp

        q = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731
        if self.kind == "expsum":
            return sum((q(c) * sp.exp(-q(r) * s) for c, r in zip(self.coeffs, self.rates,
                                                                  strict=True)), sp.Integer(0))
        if self.kind == "jordan":
            return s * sp.exp(-q(self.rates[0]) * s)
        return (1 + s) ** (-self.power)

    def exact_rnn(self) -> tuple[list[list[Fraction]], list[Fraction], list[Fraction]] | None:
        """(W, b, c) of a finite linear RNN whose impulse response cᵀe^{Ws}b is ρ, exactly; None
        for the ``poly`` kernels (no finite RNN: see :func:`no_finite_rnn`)."""
        if self.kind == "expsum":
            n = len(self.rates)
            w = [[-self.rates[i] if i == j else Fraction(0) for j in range(n)] for i in range(n)]
            return w, [Fraction(1)] * n, list(self.coeffs)
        if self.kind == "jordan":
            r = self.rates[0]
            return [[-r, Fraction(1)], [Fraction(0), -r]], [Fraction(0), Fraction(1)], \
                [Fraction(1), Fraction(0)]
        return None


@functools.lru_cache(maxsize=256)
def impulse_response_proof(k: KernelInstance) -> tuple[bool | None, str]:
    """SymPy: cᵀe^{Ws}b − ρ(s) simplifies to 0 for the exact RNN of ``k`` (matrix exponential
    of W computed by SymPy)."""
    import sympy as sp

    rnn = k.exact_rnn()
    if rnn is None:
        return None, "no exact RNN"
    w, b, c = rnn
    s = sp.Symbol("s", nonnegative=True)
    q = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731
    wm = sp.Matrix([[q(v) for v in row] for row in w])
    resp = (sp.Matrix([[q(v) for v in c]]) * (wm * s).exp() * sp.Matrix([q(v) for v in b]))[0, 0]
    diff = sp.simplify(resp - k.sympy(s))
    return diff == 0, f"cᵀe^(Ws)b − ρ(s) = {diff} (N = {len(w)})"


@functools.lru_cache(maxsize=256)
def no_finite_rnn(k: KernelInstance) -> tuple[bool, str]:
    """Whether ρ has a pole at s = −1 (SymPy limit), so that no finite RNN represents it: every
    cᵀe^{Ws}b = Σ_j p_j(s)e^{λ_j s} (Jordan form of W) is entire."""
    import sympy as sp

    s = sp.Symbol("s")
    lim = sp.limit(sp.Abs(k.sympy(s)), s, -1)
    return lim is sp.oo, f"|ρ(s)| → {lim} as s → −1"


@dataclass(frozen=True)
class LinearRNNApproximation(Statement):
    """O App. A, Theorem 5: for every convolution (integrable ρ) and every ε > 0 there is a linear
    RNN of some width N with sup_t sup_(‖u‖<1) |H_t(u) − Ĥ_t(u)| = ∫₀^∞|ρ − ρ̂| ≤ ε.

    ``exact``: the nearby false statement that ε = 0 is reached (a finite RNN represents every
    convolution); ``max_width``: N ≤ max_width suffices for every ε (0: no bound, as printed).
    """

    exact: bool = False
    max_width: int = 0

    @property
    def text(self) -> str:
        eps = "ε = 0 (exact representation)" if self.exact else "every ε > 0"
        width = f"of width N ≤ {self.max_width}" if self.max_width else "of some width N"
        return (f"for every convolution H_t(u) = ∫₀^∞ ρ(s)ᵀu(t−s)ds (ρ integrable) and {eps} there "
                f"is a linear RNN {width}, ρ̂(s) = cᵀe^(Ws)b, with sup_t sup_(‖u‖<1) "
                "|H_t(u) − Ĥ_t(u)| = ∫₀^∞|ρ − ρ̂| ≤ ε")

    def controls(self) -> tuple[Control, ...]:
        out = []
        if not self.exact:
            out.append(Control("ε = 0: exact representation by a finite RNN",
                               replace(self, exact=True)))
        if not self.max_width:
            out.append(Control("width bounded by N ≤ 5 (near: the N = 5 RNN is 0.066 off in L¹)",
                               replace(self, max_width=5)))
        return tuple(out)

    def admits(self, width: int) -> bool:
        """Whether an RNN of this width is allowed."""
        return not self.max_width or width <= self.max_width

    def judge(self, k: KernelInstance) -> tuple[bool | None, dict[str, Any]]:
        """Exact decision on one kernel: an exact RNN within the width bound (error 0 ≤ ε) →
        True; a kernel with a pole under ``exact`` → False; otherwise None (an ε-approximation
        exists or not: not decided exactly)."""
        info: dict[str, Any] = {"kernel": k.description}
        rnn = k.exact_rnn()
        if rnn is not None and self.admits(len(rnn[0])):
            return True, {**info, "RNN": f"exact, N = {len(rnn[0])}: W = {_show(rnn[0])}, "
                          f"b = {_show(rnn[1])}, c = {_show(rnn[2])}"}
        if self.exact and rnn is None:
            pole, why = no_finite_rnn(k)
            if pole:
                return False, {**info, "certificate": f"{why}; every cᵀe^(Ws)b is entire, so no "
                               "finite RNN has ρ̂ = ρ"}
        return None, {**info, "why": "an ε-approximation is not decided exactly"}


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return str(v)


def rnn_proof(statement: LinearRNNApproximation, kernels: list[KernelInstance]) -> Proof:
    """The statement on the kernels, exactly: every exact RNN checked by SymPy's matrix
    exponential; a pole refutes ``exact``. Instances of a cited theorem: never general."""
    done = []
    for k in kernels:
        ok, info = statement.judge(k)
        if ok is False:
            return Proof(False, k.description, "SymPy limit at the pole s = −1 (ρ̂ is entire)",
                         counterexample=info)
        if ok is True:
            holds, how = impulse_response_proof(k)
            if holds is not True:
                return Proof(None, k.description, f"SymPy could not confirm the RNN: {how}")
            done.append(f"{k.description} ({how})")
    if not done:
        return Proof(None, "no kernel", "no instance decided exactly")
    return Proof(True, "; ".join(done) + " (instances of a cited theorem)",
                 "SymPy matrix exponential: exact RNN impulse responses")


def sinc_rnn(p: int, half_width: int, pi: Any, sqrt: Any, exp: Any) -> tuple[list[Any], list[Any]]:
    """(rates, coefficients) of the diagonal RNN ρ̂(s) = Σ_k c_k e^{−r_k s}, k = −K … K, from the
    trapezoidal rule with step h = π/√(2K) on (1 + s)^{−p} = Γ(p)⁻¹ ∫ e^{py} e^{−e^y} e^{−e^y s} dy:
    r_k = e^{kh}, c_k = h e^{pkh − e^{kh}}/Γ(p). ``pi``, ``sqrt`` and ``exp`` are the arithmetic's
    (so each arithmetic builds its own RNN)."""
    h = pi / sqrt(2 * half_width)
    rates, coeffs = [], []
    for k in range(-half_width, half_width + 1):
        r = exp(k * h)
        rates.append(r)
        coeffs.append(h * exp(p * k * h - r) / math.factorial(p - 1))
    return rates, coeffs
