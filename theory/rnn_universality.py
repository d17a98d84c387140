"""Universality of non-linear RNNs: paper O App. A, Theorem 3 (cited from [15]), checked on
instances with explicit constructions.

Printed: under unstated "technical assumptions (bounded input, non-chaotic f)", for every ε > 0
some RNN (9) ẋ = −x/τ + σ(Ax + Bu), y = Cx with a non-polynomial σ approximates the solution of
(8) ẋ̄ = f̄(x̄, u), ȳ = h(x̄) to ε uniformly in time, on compact sets of inputs. The assumptions are
not stated, so recmem checks the theorem on targets that satisfy any reasonable reading of them
(contracting, bounded inputs |u| ≤ 1, from rest): ẋ̄ = −x̄ + f(u), ȳ = x̄ with f(u) = u
(``linear``) and f(u) = u² (``square``).

Construction (σ = softplus, log(1 + e^z), τ = 1, A = 0): every state obeys ẋ_i = −x_i +
σ(B_i u), so y = Cx obeys ẏ = −y + g(u) with g = Σ C_i σ(B_i u), and the error e = y − ȳ obeys
ė = −e + (g − f)(u) from e(0) = 0: |e(t)| ≤ (1 − e^{−t}) sup_{|u|≤1}|g − f| uniformly in t.

- linear: σ(u) − σ(−u) = u exactly (N = 2, C = (1, −1)): error 0;
- square: (σ(δu) + σ(−δu) − 2σ(0))/(δ²σ''(0)) = u² + R with |R| ≤ δ²·max|σ''''|/(12σ''(0)) ≤ δ²/12
  (Taylor with Lagrange remainder of the even function; σ'''' = s(1−s)(1 − 6s + 6s²) with s the
  logistic function, |σ''''| < 1/4 on s ∈ [0, 1]; σ''(0) = 1/4): N = 3, the third state
  ẋ₃ = −x₃ + σ(0) supplies the constant.

The control σ(z) = z (a linear RNN: its output is linear in u) cannot reach the square target:
for u ≡ ±1, ȳ(1) = 1 − e^{−1} for both signs while y(−u) = −y(u), so one of them errs by
≥ 1 − e^{−1}. Nor can one RNN serve every bounded input (the compact set of inputs dropped): for
u ≡ R, ȳ(1) = R²(1 − e^{−1}) while a fixed RNN with Lipschitz σ has |y(1)| = O(R) (Grönwall).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero, fact, proof_from_steps
from recmem.theory.statement import Control, Statement

TARGETS = ("linear", "square")
SIGMAS = ("non-polynomial", "identity")


@dataclass(frozen=True)
class RNNUniversality(Statement):
    """O App. A, Theorem 3 on the targets ẋ̄ = −x̄ + f(u), ȳ = x̄, |u| ≤ 1, from rest: for every
    ε > 0 some RNN (9) with ``sigma`` (non-polynomial as printed; ``identity``: σ(z) = z, the
    nearby false statement that a linear RNN suffices) has sup_t |y(t) − ȳ(t)| ≤ ε."""

    sigma: str = "non-polynomial"
    bounded_inputs: bool = True

    def __post_init__(self) -> None:
        if self.sigma not in SIGMAS:
            raise ValueError(f"not an RNNUniversality statement: {self!r}")

    @property
    def text(self) -> str:
        sig = "some non-polynomial σ" if self.sigma == "non-polynomial" else "σ(z) = z"
        inputs = "|u| ≤ 1" if self.bounded_inputs else "every bounded u (one RNN for all)"
        return (f"for the system ẋ̄ = −x̄ + f(u), ȳ = x̄ (f(u) = u or u², {inputs}, from rest) and "
                f"every ε > 0 there is an RNN ẋ = −x/τ + σ(Ax + Bu), y = Cx with {sig} and "
                "sup_t |y(t) − ȳ(t)| ≤ ε")

    def controls(self) -> tuple[Control, ...]:
        out = []
        if self.sigma != "identity":
            out.append(Control("σ(z) = z: a linear RNN", replace(self, sigma="identity")))
        if self.bounded_inputs:
            out.append(Control("compact set of inputs dropped: one RNN for all bounded u",
                               replace(self, bounded_inputs=False)))
        return tuple(out)

    def construction(self, target: str, eps: Fraction) -> tuple[list[Fraction], list[Fraction],
                                                                  Fraction] | None:
        """(B, C, error bound) of the softplus RNN (τ = 1, A = 0) for ``target`` within ε, or None
        for σ = identity and the square target (no linear RNN can)."""
        if self.sigma == "identity":
            if target == "linear":  # ẋ = −x + u, y = x: exact
                return [Fraction(1)], [Fraction(1)], Fraction(0)
            return None
        if target == "linear":
            return [Fraction(1), Fraction(-1)], [Fraction(1), Fraction(-1)], Fraction(0)
        delta = Fraction(1)
        while delta * delta / 12 > eps:
            delta /= 2
        c = 4 / (delta * delta)
        return [delta, -delta, Fraction(0)], [c, c, -2 * c], delta * delta / 12

    def judge(self, target: str, eps: Fraction) -> tuple[bool, dict[str, Any]]:
        """Exact decision on (target, ε): a construction with its certified uniform error bound,
        or the certificate that no linear RNN reaches the square target."""
        built = self.construction(target, eps)
        info: dict[str, Any] = {"target": f"ẋ̄ = −x̄ + {'u' if target == 'linear' else 'u²'}",
                                "ε": str(eps)}
        if built is None:
            return False, {**info, "certificate": "u ≡ ±1: ȳ(1) = 1 − e^(−1) for both signs, a "
                           "linear RNN has y(−u) = −y(u): one errs by ≥ 1 − e^(−1) > 0.63 > ε"}
        if not self.bounded_inputs and target == "square":
            return False, {**info, "certificate": "u ≡ R: ȳ(1) = R²(1 − e^(−1)), while any fixed "
                           "RNN with Lipschitz σ has |x(1)| ≤ e^(1/τ + L‖A‖)(L‖B‖R + √N|σ(0)|) "
                           "(Grönwall): y(1) grows at most linearly in R, so the error is "
                           "unbounded"}
        b, c, bound = built
        return bound <= eps, {**info, "B": [str(v) for v in b], "C": [str(v) for v in c],
                              "uniform error bound": str(bound)}


@functools.cache
def _construction_steps() -> dict[str, Any]:
    """SymPy: the facts the construction rests on (statement-independent), with E = e^z > 0 so
    that softplus and its derivatives are rational in E (d/dz = E·d/dE)."""
    import sympy as sp

    e, s = sp.symbols("E s", positive=True)
    softplus = sp.log(1 + e)
    logistic = e / (1 + e)
    d = softplus
    derivs = []
    for _ in range(4):
        d = sp.cancel(e * sp.diff(d, e))
        derivs.append(d)
    p4 = s * (1 - s) * (1 - 6 * s + 6 * s**2)  # the 4th derivative as a polynomial in s
    upper = [sp.Poly(sp.Rational(1, 4) - sgn * p4, s) for sgn in (1, -1)]
    return {
        "softplus(z) − softplus(−z) = z": decide_zero(
            sp.expand_log(softplus - sp.log(1 + 1 / e) - sp.log(e), force=True),
            simplify=sp.simplify),
        "σ''(0) = 1/4": decide_zero(derivs[1].subs(e, 1) - sp.Rational(1, 4)),
        "σ⁗ = s(1−s)(1−6s+6s²), s = logistic": decide_zero(
            sp.cancel(derivs[3] - p4.subs(s, logistic)), simplify=sp.cancel),
        "|s(1−s)(1−6s+6s²)| < 1/4 on [0, 1] (Sturm: no root of 1/4 ∓ p)": fact(
            all(q.count_roots(0, 1) == 0 and q.eval(sp.Rational(1, 2)) > 0 for q in upper),
            "1/4 ∓ p has a root in [0, 1]"),
        "1 − e^(−1) > 1/2": fact(bool(1 - sp.exp(-1) > sp.Rational(1, 2)), "1 − 1/e"),
    }


def universality_proof(statement: RNNUniversality, targets: tuple[str, ...], eps: Fraction) -> Proof:
    """The statement on the targets at ε, exactly: the construction's facts by SymPy, then each
    target's construction and bound (or the linear-RNN certificate). Instances of a cited
    theorem: never general."""
    steps = _construction_steps()
    base = proof_from_steps(steps, "construction facts", "SymPy")
    if base.holds is not True:
        return base
    for t in targets:
        ok, info = statement.judge(t, eps)
        if not ok:
            return Proof(False, f"target {info['target']}, ε = {eps}", "exact certificate",
                         counterexample=info)
    return Proof(True, f"targets {', '.join(targets)} at ε = {eps}, |u| ≤ 1 (instances of a cited "
                 "theorem)", "SymPy: softplus identities and remainder bound; uniform error by "
                 "variation of constants", details={k: "confirmed" for k in steps})
