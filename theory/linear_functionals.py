"""Linear functionals on C₀(ℝ) are convolutions: paper O App. A, Theorem 4 (cited from [26]),
checked on instances, exactly.

Printed: a family {H_t} of continuous, linear, causal, regular and time-homogeneous functionals
on U = C₀(ℝ, ℝ^d) has a kernel ρ with H_t(u) = ∫₀^∞ ρ(s)ᵀ u(t − s) ds for all t. A cited result:
recmem does not prove it. It is checked on a library of scalar functionals (d = 1) given by their
*definitions* — causal convolutions with exponential-polynomial kernels, a delay u(t − τ₀), an
anti-causal convolution, a convolution modulated by 1 + γt², a convolution of u² — on hat inputs
(continuous, compactly supported: in C₀) and on the Heaviside step (the definitions extend to it,
as in paper W §3.1):

- *which hypotheses each functional satisfies*: every property holds by construction or is
  violated with an exact witness (H_t(2u) ≠ 2H_t(u); H_t(u) ≠ 0 for u vanishing up to t;
  H_t(u^τ) ≠ H_{t+τ}(u); H_t(u^n) = 1 for hats u^n of width 2^-n → 0 a.e.), with exact spot checks
  of the properties that hold;
- *whether the conclusion holds*: for the convolutions, the kernel is recovered from the step
  response S(t) = H_t(1_[0,∞)) = ∫₀^t ρ (checked exactly at test times) and the representation
  is checked on hat inputs; for the others an exact consequence of any representation fails:
  S(−1) = 0 (anti-causal), H_t(u^n) → 0 for shrinking hats (delay), H_t(1_[a,∞)) = S(t − a)
  (modulated), H_t(2u) = 2H_t(u) (u²).

Arithmetic: every value is a finite sum Σ q_i e^{a_i} with rational q_i, a_i (:class:`ExpNum`);
such a sum is zero iff every q_i is (the e^{a_i}, a_i distinct rationals, are linearly independent
over the algebraic numbers: Lindemann–Weierstrass), so equality is decided exactly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof
from recmem.theory.statement import Control, Statement

PROPERTIES = ("continuous", "linear", "causal", "regular", "time-homogeneous")
KINDS = ("convolution", "delay", "anti-causal", "reflected", "modulated", "squared")


# ---------------------------------------------------------------------------------------------
# exact numbers Σ q e^a


class ExpNum:
    """Σ_a q_a e^a over rational exponents a: an exponent → coefficient map with no zero
    coefficient (immutable by convention: every operation returns a new one)."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[Fraction, Fraction] | None = None) -> None:
        self.terms = {a: q for a, q in (terms or {}).items() if q != 0}

    @staticmethod
    def rational(q: Fraction | int) -> ExpNum:
        return ExpNum({Fraction(0): Fraction(q)})

    def __add__(self, other: ExpNum) -> ExpNum:
        d = dict(self.terms)
        for a, q in other.terms.items():
            d[a] = d.get(a, 0) + q
        return ExpNum(d)

    def __neg__(self) -> ExpNum:
        return ExpNum({a: -q for a, q in self.terms.items()})

    def __sub__(self, other: ExpNum) -> ExpNum:
        return self + (-other)

    def scale(self, q: Fraction) -> ExpNum:
        return ExpNum({a: q * c for a, c in self.terms.items()})

    def is_zero(self) -> bool:
        """Exact (Lindemann–Weierstrass: distinct rational exponents are independent)."""
        return not self.terms

    def __float__(self) -> float:
        return math.fsum(float(q) * math.exp(float(a)) for a, q in self.terms.items())

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        return " + ".join(str(q) if a == 0 else f"{q}·e^({a})" for a, q in sorted(self.terms.items()))


def _sum(values: Iterable[ExpNum]) -> ExpNum:
    d: dict[Fraction, Fraction] = {}
    for v in values:
        for a, q in v.terms.items():
            d[a] = d.get(a, 0) + q
    return ExpNum(d)


# ---------------------------------------------------------------------------------------------
# kernels Σ c s^m e^{−r s} and their exact integrals against polynomials

Term = tuple[Fraction, int, Fraction]  # (c, m, r): c·s^m·e^{−r s}, r > 0


def _antiderivative_at(m: int, r: Fraction, s: Fraction | None) -> ExpNum:
    """A(s) for A' = s^m e^{−rs}, A(s) = −e^{−rs} Σ_k m!/(m−k)!·s^(m−k)/r^(k+1); A(∞) = 0."""
    if s is None:
        return ExpNum()
    coeff = sum((Fraction(math.factorial(m), math.factorial(m - k)) * s ** (m - k) / r ** (k + 1)
                 for k in range(m + 1)), Fraction(0))
    return ExpNum({-r * s: -coeff})


def integrate_terms(terms: Iterable[Term], lo: Fraction, hi: Fraction | None) -> ExpNum:
    """∫_lo^hi Σ c s^m e^{−rs} ds exactly (hi None: ∞); 0 when hi ≤ lo."""
    if hi is not None and hi <= lo:
        return ExpNum()
    return _sum((_antiderivative_at(m, r, hi) - _antiderivative_at(m, r, lo)).scale(c)
                for c, m, r in terms)


def times_poly(terms: Iterable[Term], poly: list[Fraction]) -> list[Term]:
    """(Σ c s^m e^{−rs})·Σ_j p_j s^j."""
    return [(c * p, m + j, r) for c, m, r in terms for j, p in enumerate(poly) if p != 0]


def poly_mul(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


# ---------------------------------------------------------------------------------------------
# inputs: piecewise-linear u, as pieces (lo, hi, α, β): u(τ) = α + βτ on [lo, hi]

Piece = tuple[Fraction | None, Fraction | None, Fraction, Fraction]


def hat(a: Fraction, w: Fraction, height: Fraction = Fraction(1)) -> list[Piece]:
    """height·max(0, 1 − |τ − a|/w): continuous, compactly supported (in C₀)."""
    return [(a - w, a, height * (1 - a / w), height / w),
            (a, a + w, height * (1 + a / w), -height / w)]


def step(a: Fraction) -> list[Piece]:
    """1_[a, ∞) (the definitions extend to it; W §3.1's Heaviside input)."""
    return [(a, None, Fraction(1), Fraction(0))]


def scaled(u: list[Piece], lam: Fraction) -> list[Piece]:
    return [(lo, hi, lam * al, lam * be) for lo, hi, al, be in u]


def shifted(u: list[Piece], tau: Fraction) -> list[Piece]:
    """u^τ(s) = u(s − τ)."""
    return [(None if lo is None else lo + tau, None if hi is None else hi + tau, al - be * tau, be)
            for lo, hi, al, be in u]


# ---------------------------------------------------------------------------------------------
# the library of functionals, each given by its definition


@dataclass(frozen=True)
class Functional:
    """A scalar functional family {H_t} by its definition:

    - ``convolution``: H_t(u) = ∫₀^∞ ρ(s) u(t − s) ds;
    - ``delay``: H_t(u) = u(t − τ₀);
    - ``anti-causal``: H_t(u) = ∫₀^∞ ρ(s) u(t + s) ds;
    - ``reflected``: H_t(u) = ∫₀^∞ ρ(s) u(s − t) ds (time reversed);
    - ``modulated``: H_t(u) = (1 + γt²)·∫₀^∞ ρ(s) u(t − s) ds;
    - ``squared``: H_t(u) = ∫₀^∞ ρ(s) u(t − s)² ds;

    with ρ(s) = Σ c s^m e^{−rs} (``kernel``, r > 0: integrable; empty: ρ = 0).
    """

    kind: str
    kernel: tuple[Term, ...] = ((Fraction(1), 0, Fraction(1)),)
    tau0: Fraction = Fraction(1)
    gamma: Fraction = Fraction(1, 64)

    def __post_init__(self) -> None:
        if self.kind not in KINDS or any(r <= 0 for _, _, r in self.kernel):
            raise ValueError(f"not a library functional: {self!r}")

    @property
    def description(self) -> str:
        rho = " + ".join(f"{c}·s^{m}·e^(−{r}s)" if m else f"{c}·e^(−{r}s)"
                         for c, m, r in self.kernel) or "0"
        return {"convolution": f"H_t(u) = ∫₀^∞ ρ(s)u(t−s)ds, ρ = {rho}",
                "delay": f"H_t(u) = u(t − {self.tau0})",
                "anti-causal": f"H_t(u) = ∫₀^∞ ρ(s)u(t+s)ds, ρ = {rho}",
                "reflected": f"H_t(u) = ∫₀^∞ ρ(s)u(s−t)ds, ρ = {rho}",
                "modulated": f"H_t(u) = (1 + {self.gamma}t²)∫₀^∞ ρ(s)u(t−s)ds, ρ = {rho}",
                "squared": f"H_t(u) = ∫₀^∞ ρ(s)u(t−s)²ds, ρ = {rho}"}[self.kind]

    def apply(self, u: list[Piece], t: Fraction) -> ExpNum:
        """H_t(u) exactly, from the definition (memoised: the checks ask for the same values)."""
        return _apply(self, tuple(u), t)

    def evaluate(self, u: tuple[Piece, ...], t: Fraction) -> ExpNum:
        """H_t(u) from the definition, uncached."""
        if self.kind == "delay":
            x = t - self.tau0
            for lo, hi, al, be in u:
                if (lo is None or lo <= x) and (hi is None or x <= hi):
                    return ExpNum.rational(al + be * x)
            return ExpNum()
        out = ExpNum()
        for lo, hi, al, be in u:
            if self.kind == "anti-causal":  # τ = t + s ∈ [lo, hi]
                s_lo = max(Fraction(0), lo - t) if lo is not None else Fraction(0)
                s_hi = None if hi is None else hi - t
                poly = [al + be * t, be]
            elif self.kind == "reflected":  # τ = s − t ∈ [lo, hi]
                s_lo = max(Fraction(0), lo + t) if lo is not None else Fraction(0)
                s_hi = None if hi is None else hi + t
                poly = [al - be * t, be]
            else:  # τ = t − s ∈ [lo, hi]
                s_lo = max(Fraction(0), t - hi) if hi is not None else Fraction(0)
                s_hi = None if lo is None else t - lo
                poly = [al + be * t, -be]
            if self.kind == "squared":
                poly = poly_mul(poly, poly)
            out = out + integrate_terms(times_poly(self.kernel, poly), s_lo, s_hi)
        if self.kind == "modulated":
            out = out.scale(1 + self.gamma * t * t)
        return out

    def kernel_integral(self, lo: Fraction, hi: Fraction | None) -> ExpNum:
        """∫_lo^hi ρ, straight from the kernel (not through the functional)."""
        return integrate_terms(self.kernel, lo, hi)


@functools.lru_cache(maxsize=65536)
def _apply(f: Functional, u: tuple[Piece, ...], t: Fraction) -> ExpNum:
    return f.evaluate(u, t)


# test points (exact): times, hat centres/widths, scalings and shifts
TIMES = (Fraction(1, 2), Fraction(2))
HATS = ((Fraction(0), Fraction(1, 2)), (Fraction(-1), Fraction(1)))
SHRINK = tuple(Fraction(1, 2**j) for j in range(1, 5))
SHIFTS = (Fraction(1), Fraction(-1, 2))


def properties(f: Functional) -> dict[str, tuple[bool, str]]:
    """Each of Theorem 4's five hypotheses for ``f``: (holds, why). A violated one carries an
    exact witness; one that holds is so by the definition, spot-checked exactly here."""
    out: dict[str, tuple[bool, str]] = {}
    # continuous: |H_t(u)| ≤ ∫|ρ| (or 1, the delay; (1 + γt²)∫|ρ|, modulated) for ‖u‖ ≤ 1 —
    # every definition in the library is bounded at each t
    out["continuous"] = (True, "bounded by construction: |H_t(u)| ≤ (1 + γt²)∫|ρ|·‖u‖ or ‖u‖")
    lin = [(t, a, w, lam) for t in TIMES for a, w in HATS for lam in (Fraction(-3, 2),)
           if not (f.apply(scaled(hat(a, w), lam), t) - f.apply(hat(a, w), t).scale(lam)).is_zero()]
    out["linear"] = ((False, f"H_t(λu) ≠ λH_t(u) at t = {lin[0][0]}, u = hat({lin[0][1]}, "
                      f"{lin[0][2]}), λ = {lin[0][3]}") if lin else
                     (True, "linear in u by its definition; H_t(λu) = λH_t(u) at the test points"))
    cause = [(t, t + 1) for t in TIMES if not f.apply(hat(t + 1, Fraction(1, 2)), t).is_zero()]
    out["causal"] = ((False, f"u = hat({cause[0][1]}, 1/2) vanishes on (−∞, {cause[0][0]}] like "
                      f"v = 0, but H_t(u) = {f.apply(hat(cause[0][1], Fraction(1, 2)), cause[0][0])}"
                      " ≠ H_t(0) = 0") if cause else
                     (True, "reads u on (−∞, t] only, by its definition; checked on hats after t"))
    for sign in (1, -1):  # (5) as printed: H_t(u^τ) = H_(t+τ)(u); shift-equivariance: H_(t−τ)(u)
        bad = [(t, a, w, tau) for t in TIMES for a, w in HATS[:1] for tau in SHIFTS
               if not (f.apply(shifted(hat(a, w), tau), t)
                       - f.apply(hat(a, w), t + sign * tau)).is_zero()]
        rhs = "H_(t+τ)(u)" if sign > 0 else "H_(t−τ)(u)"
        out[f"time-homogeneous{sign:+d}"] = (
            (False, f"H_t(u^τ) ≠ {rhs} at t = {bad[0][0]}, u = hat({bad[0][1]}, {bad[0][2]}), "
             f"τ = {bad[0][3]}: {f.apply(shifted(hat(bad[0][1], bad[0][2]), bad[0][3]), bad[0][0])}"
             f" vs {f.apply(hat(bad[0][1], bad[0][2]), bad[0][0] + sign * bad[0][3])}")
            if bad else (True, f"H_t(u^τ) = {rhs} by its definition; checked on hats"))
    # regular: hats u^n of width 2^-n at t − τ₀ tend to 0 everywhere except one point
    t = TIMES[-1]
    vals = [f.apply(hat(t - f.tau0, w), t) for w in SHRINK]
    stuck = all((v - vals[0]).is_zero() for v in vals) and not vals[0].is_zero()
    out["regular"] = ((False, f"u^n = hat({t - f.tau0}, 2^-n) → 0 a.e., but H_{t}(u^n) = "
                       f"{vals[0]} for n = 1…{len(SHRINK)} (the delay reads the hat's peak)")
                      if stuck else (True, "|H_t(u^n)| ≤ sup|ρ|·|supp u^n| → 0 (dominated "
                                     f"convergence); H_t(u^n) at n = {len(SHRINK)}: "
                                     f"{float(vals[-1]):.3g}"))
    return out


def representation(f: Functional) -> tuple[bool | None, str]:
    """Whether H_t(u) = ∫₀^∞ ρ(s)u(t − s)ds holds with an integrable ρ, decided exactly.

    Exact consequences of any such representation are checked first, each failure a witness:
    S(t) := H_t(1_[0,∞)) = ∫₀^t ρ vanishes at t = −1; H_t(u) → 0 for hats u shrinking to a point;
    H_t(1_[a,∞)) = S(t − a); H_t(2u) = 2H_t(u). Then the kernel is recovered from the step response
    (S(t) = ∫₀^t ρ at the test times, ρ = S') and the representation checked on hats: True. None
    when neither happens (no decision)."""
    zero, s_of = Fraction(0), (lambda t: f.apply(step(Fraction(0)), t))
    if not s_of(Fraction(-1)).is_zero():
        return False, f"any such ρ gives H_(−1)(1_[0,∞)) = 0, but it is {s_of(Fraction(-1))}"
    t = TIMES[-1]
    vals = [f.apply(hat(t - f.tau0, w), t) for w in SHRINK]
    if all((v - vals[0]).is_zero() for v in vals) and not vals[0].is_zero():
        return False, (f"any integrable ρ gives |H_{t}(hat({t - f.tau0}, w))| ≤ ∫ of |ρ| over an "
                       f"interval of length 2w → 0, but it is {vals[0]} for every w = 2^-n")
    for tt, a in ((Fraction(2), Fraction(1)), (Fraction(1, 2), Fraction(-1, 2))):
        lhs, rhs = f.apply(step(a), tt), s_of(tt - a)
        if not (lhs - rhs).is_zero():
            return False, (f"any such ρ gives H_t(1_[a,∞)) = ∫₀^(t−a) ρ = S(t − a); at t = {tt}, "
                           f"a = {a}: H_t(1_[a,∞)) = {lhs}, S(t − a) = {rhs}")
    for tt in TIMES:
        for a, w in HATS:
            u = hat(a, w)
            two, one = f.apply(scaled(u, Fraction(2)), tt), f.apply(u, tt)
            if not (two - one.scale(Fraction(2))).is_zero():
                return False, (f"any such ρ makes H_t linear, but H_{tt}(2u) = {two} ≠ 2H_{tt}(u) = "
                               f"{one.scale(Fraction(2))} for u = hat({a}, {w})")
    candidate = Functional("convolution", f.kernel)
    ok = all((s_of(tt) - f.kernel_integral(zero, tt)).is_zero() for tt in TIMES) and all(
        (f.apply(hat(a, w), tt) - candidate.apply(hat(a, w), tt)).is_zero()
        for tt in TIMES for a, w in HATS)
    if ok:
        return True, (f"ρ recovered from the step response (S(t) = ∫₀^t ρ at t ∈ "
                      f"{', '.join(map(str, TIMES))}) reproduces H_t on hats; ∫|ρ| < ∞ (rates > 0)")
    return None, "no witness against a representation and no kernel recovered"


Facts = tuple[dict[str, tuple[bool, str]], tuple[bool | None, str]]


@dataclass(frozen=True)
class LinearFunctionalConvolution(Statement):
    """O App. A, Theorem 4: every family {H_t} on C₀(ℝ) with the properties ``hypotheses`` (the
    five printed ones) is H_t(u) = ∫₀^∞ ρ(s)ᵀu(t − s)ds for a kernel ρ (integrable).

    ``shift``: the sign in property 5 (u^τ_t = u(t − τ)): +1 as printed, H_t(u^τ) = H_(t+τ)(u);
    −1, H_t(u^τ) = H_(t−τ)(u), i.e. H(S_τu) = S_τH(u), the shift-equivariance that paper W
    (§2.2, same class of functionals, after [26]) states and every causal convolution has. As
    printed, (5) fails for every non-zero causal convolution, and with causality it leaves
    (among the instances) only H = 0: dropping "regular" or "linear" then gives no false
    statement, so the printed reading's controls drop "causal" and "time-homogeneous" only.
    """

    hypotheses: tuple[str, ...] = PROPERTIES
    shift: int = 1

    def __post_init__(self) -> None:
        if any(h not in PROPERTIES for h in self.hypotheses) or self.shift not in (1, -1):
            raise ValueError(f"not a LinearFunctionalConvolution statement: {self!r}")

    @property
    def text(self) -> str:
        five = ("H_t(u^τ) = H_(t+τ)(u)" if self.shift > 0 else "H_t(u^τ) = H_(t−τ)(u)")
        return (f"every family {{H_t}} on C₀(ℝ, ℝ^d) that is {', '.join(self.hypotheses)} "
                f"(time-homogeneous: u^τ_t = u(t − τ), {five}) is a convolution "
                "H_t(u) = ∫₀^∞ ρ(s)ᵀ u(t − s) ds with ρ integrable")

    def controls(self) -> tuple[Control, ...]:
        drops = (("causal", "time-homogeneous") if self.shift > 0
                 else ("regular", "causal", "time-homogeneous", "linear"))
        out = []
        for h in drops:
            if h in self.hypotheses:
                near = " (near: the factor 1 + t²/64)" if h == "time-homogeneous" else ""
                out.append(Control(f"hypothesis “{h}” dropped{near}",
                                   replace(self, hypotheses=tuple(x for x in self.hypotheses
                                                                  if x != h))))
        return tuple(out)

    def fact(self, props: dict[str, tuple[bool, str]], h: str) -> tuple[bool, str]:
        """Property ``h`` of a functional, property 5 read with the statement's sign."""
        return props[f"{h}{self.shift:+d}" if h == "time-homogeneous" else h]

    def judge(self, f: Functional, facts: Facts) -> tuple[bool | None, dict[str, Any]]:
        """The statement on one functional: vacuous unless it has every hypothesis, then the
        representation must hold. ``facts`` = (:func:`properties`, :func:`representation`)."""
        props, (rep, why) = facts
        have = {h: self.fact(props, h) for h in self.hypotheses}
        info = {"functional": f.description,
                "hypotheses": {h: ("holds" if ok else "fails: " + w) for h, (ok, w) in have.items()}}
        if not all(ok for ok, _ in have.values()):
            return True, {**info, "why": "a hypothesis fails: the statement says nothing"}
        return rep, {**info, "representation": why}


def library(kernels: Iterable[tuple[Term, ...]]) -> list[Functional]:
    """The zero functional and one functional of each kind for each kernel."""
    return [Functional("convolution", ())] + [Functional(kind, k) for k in kernels for kind in KINDS]


@functools.lru_cache(maxsize=4096)
def facts_of(f: Functional) -> Facts:
    """(properties, representation) of one functional: statement-independent."""
    return properties(f), representation(f)


def convolution_proof(statement: LinearFunctionalConvolution,
                      facts: list[tuple[Functional, Facts]]) -> Proof:
    """The statement on the library, exactly: refuted by a functional with every hypothesis and
    no representation; otherwise holds on these instances (a cited theorem: never general)."""
    covered = []
    for f, fx in facts:
        ok, info = statement.judge(f, fx)
        if ok is None:
            return Proof(None, f"the functional {f.description}", "no exact decision: "
                         + str(info.get("representation")))
        if not ok:
            return Proof(False, f"the functional {f.description}",
                         "exact arithmetic in Σ q·e^a (Lindemann–Weierstrass)", counterexample=info)
        if all(statement.fact(fx[0], h)[0] for h in statement.hypotheses):
            covered.append(f.description)
    return Proof(True, f"{len(facts)} functionals; represented: {'; '.join(covered)} (instances of a "
                 "cited theorem)", "exact arithmetic in Σ q·e^a (Lindemann–Weierstrass)",
                 details={"functionals with every hypothesis": len(covered)})
