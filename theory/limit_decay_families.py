"""Sequences f_m → f of paper W's Lemma A.10 with a finite exact description, and exact decisions of
its hypotheses (103)–(104), its conclusion (105), and of the proof's step (109) = (110) (ICLR
camera-ready App. A.10; statements in theory.limit_decay).

Functions are exponential-rational (numerics.exp_rational): finite sums of c·t^p·e^{−λt}/(1 + t)^q
with rational c, λ ≥ 0 (as multiples r·β₀) and p, q ≥ 0. A :class:`DecayFamily` is one of three
kinds of sequences f_m, each with exactly decidable properties (all t ∈ [0, ∞), m ∈ ℕ₊):

- ``perturbed``: f_m = f + g/m. sup_t |f − f_m| = sup|g|/m, so (103) ⟺ g bounded; for fixed t,
  m ↦ |f + g/m| is convex in 1/m ∈ (0, 1], so sup_m |f_m(t)| = max(|f(t) + g(t)|, |f(t)|) and
  (104) ⟺ e^{β₀t}f → 0 and e^{β₀t}(f + g) → 0; every f_m decays (e^{β₀t}f_m → 0 for each m) ⟺ f
  and g both decay (compare the coefficients of m in each exponential component).
- ``cutoff``: f_m = f on [0, τm], f(τm)·e^{−ρ(t−τm)} after (continuous; ρ > 0). sup_t|f − f_m| ≤
  2 sup_{s≥τm}|f(s)|, and f ↛ 0 forces |f(t) − f_m(t)| → lim|f| > 0: (103) ⟺ f → 0. For t large,
  sup_m e^{β₀t}|f_m(t)| = max(e^{β₀t}|f(t)|, sup_{τm<t} e^{β₀τm}|f(τm)|e^{(β₀−ρ)(t−τm)}), so (104) ⟺
  e^{β₀t}f → 0 and (ρ > β₀ or f ≡ 0); every f_m decays ⟺ ρ > β₀ or f ≡ 0 (a nonzero f has finitely
  many zeros, so f(τm) ≠ 0 for some m).
- ``rates``: f_m = Σ_j c_j t^{p_j}e^{−(λ_j + μ_j/m)t}/(1 + t)^{q_j} with μ_j ≥ 0, μ_j = 0 where
  λ_j = 0. |e^{−μt/m} − 1| ≤ μt/m gives (103). Group the terms by (λ, μ) into R_{λ,μ}(t)e^{−λt}: (104)
  ⟺ every nonzero group is fast (λ > β₀, or λ = β₀ and R → 0): sufficient termwise, and a slow
  group makes the dominant groups at t = s·m sum to t^e e^{−λt}Σ_μ lc_μ e^{−μs}, a nonzero
  exponential sum in s, so e^{β₀t}|f_m(t)| ↛ 0 along t = sm. Every f_m decays ⟺ no group has λ < β₀
  (alone at its rate for all large m) nor λ = β₀, μ = 0 with R ↛ 0.

The conclusion (105) for f: e^{βt}|f| → 0 ⟺ β < ν* or (β = ν* and the power of t is negative), ν*
the slowest rate of f; so it holds for all 0 < β < top iff f ≡ 0 or top ≤ ν*.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from recmem.numerics.exp_rational import ExpRational

Term = tuple[Fraction, int, int, Fraction]  # (c, p, q, r): c·t^p·e^{−r·β₀·t}/(1 + t)^q

KINDS = ("perturbed", "cutoff", "rates")
HYPOTHESES = ("uniform convergence (103)", "uniform decay (104)", "decay of each f_m")


def term_text(terms: Sequence[Term], beta0: Fraction, m: str | None = None,
              mu: Sequence[Fraction] = ()) -> str:
    """The sum of the terms (W Lemma A.10's f, f_m) as text (with rates r·β₀ + μ·β₀/m when ``m`` and
    ``mu`` are given)."""
    out = []
    for k, (c, p, q, r) in enumerate(terms):
        rate = f"{r * beta0}"
        if m is not None and k < len(mu) and mu[k]:
            rate = f"({r * beta0} + {mu[k] * beta0}/{m})"
        piece = f"{c}" + (f"·t^{p}" if p else "") + (f"·e^(−{rate}t)" if rate != "0" else "")
        out.append(piece + (f"/(1+t)^{q}" if q else ""))
    return " + ".join(out) or "0"


def as_function(terms: Sequence[Term], beta0: Fraction) -> ExpRational:
    """Σ c·t^p·e^{−rβ₀t}/(1 + t)^q as an exact function (W Lemma A.10's f, App. A.10)."""
    out = ExpRational()
    for c, p, q, r in terms:
        out = out + ExpRational.term(c, p, q, r * beta0)
    return out


def evaluate_terms(x: Any, terms: Sequence[Term], beta0: Any, t: Any) -> Any:
    """Σ c·t^p·e^{−rβ₀t}/(1 + t)^q (W App. A.10, the f_m of (109)) in the arithmetic ``x`` (exp and
    one: exact exponential-rational functions, mpmath, flint), the one formula every evaluation of a
    drawn function uses."""
    total = x.one * 0
    for c, p, q, r in terms:
        total = total + c * t ** p * x.exp(-(r * beta0) * t) / (1 + t) ** q
    return total


@dataclass(frozen=True)
class DecayFamily:
    """A sequence f_m → f of W's Lemma A.10 (App. A.10, (103)–(105)) of one of the kinds of the
    module docstring, with β₀ > 0; f's terms
    ``f``; ``g`` (perturbed), ``tau`` and ``rho`` (cutoff at τm with tail rate ρ·β₀), ``mu``
    (rates: the j-th term decays at (r_j + μ_j/m)·β₀)."""

    beta0: Fraction
    f: tuple[Term, ...]
    kind: str
    g: tuple[Term, ...] = ()
    tau: Fraction = Fraction(1)
    rho: Fraction = Fraction(2)
    mu: tuple[Fraction, ...] = ()

    def limit(self) -> ExpRational:
        """f, exactly."""
        return as_function(self.f, self.beta0)

    def text(self) -> dict[str, str]:
        """f and f_m as formulas (for reports)."""
        b = self.beta0
        f = term_text(self.f, b)
        if self.kind == "perturbed":
            fm = f"{f} + ({term_text(self.g, b)})/m"
        elif self.kind == "cutoff":
            fm = (f"f(t) on [0, {self.tau}m], f({self.tau}m)·e^(−{self.rho * b}(t − {self.tau}m)) "
                  "after")
        else:
            fm = term_text(self.f, b, "m", self.mu)
        return {"beta0": str(b), "f(t)": f, "f_m(t)": fm}

    def facts(self) -> dict[str, bool]:
        """Which of Lemma A.10's hypotheses the sequence meets, decided exactly (module docstring);
        ValueError outside the decidable family (ρ ≤ 0, μ < 0, or μ > 0 on a rate-0 term)."""
        b = self.beta0
        f = self.limit()
        if self.kind == "perturbed":
            g = as_function(self.g, b)
            return {HYPOTHESES[0]: g.bounded(),
                    HYPOTHESES[1]: f.decays_at(b) and (f + g).decays_at(b),
                    HYPOTHESES[2]: f.decays_at(b) and g.decays_at(b)}
        if self.kind == "cutoff":
            if self.rho <= 0 or self.tau <= 0:
                raise ValueError("the cut-off needs τ > 0 and a decaying tail (ρ > 0)")
            tail = self.rho * b > b or f.is_zero
            return {HYPOTHESES[0]: f.decays_at(Fraction(0)),
                    HYPOTHESES[1]: f.decays_at(b) and tail, HYPOTHESES[2]: tail}
        if self.kind != "rates":
            raise ValueError(f"unknown kind {self.kind!r}")
        groups = self.rate_groups()
        fast = all(lam > b or (lam == b and e < 0) for lam, _, e in groups)
        each = all(not (lam < b or (lam == b and mu == 0 and e >= 0)) for lam, mu, e in groups)
        return {HYPOTHESES[0]: True, HYPOTHESES[1]: fast, HYPOTHESES[2]: each}

    def rate_groups(self) -> list[tuple[Fraction, Fraction, int]]:
        """(λ, μ, e) of every nonzero group R_{λ,μ}(t)e^{−λt} of a ``rates`` sequence (λ, μ
        absolute; R ~ t^e)."""
        mus = list(self.mu) + [Fraction(0)] * (len(self.f) - len(self.mu))
        by_mu: dict[Fraction, list[Term]] = {}
        for term, mu in zip(self.f, mus, strict=True):
            if mu < 0 or (mu > 0 and term[3] == 0):
                raise ValueError("rates: μ ≥ 0, and μ = 0 on a term of rate 0")
            by_mu.setdefault(mu * self.beta0, []).append(term)
        out = []
        for mu, terms in sorted(by_mu.items()):
            for lam, lau in as_function(terms, self.beta0).parts:
                out.append((lam, mu, lau[-1][0]))
        return out

    def nonzero_cut(self, limit: int = 64) -> int | None:
        """An m ≥ 1 with f(τm) ≠ 0 (exact zero test), or None (f ≡ 0, or none up to ``limit``)."""
        f = self.limit()
        if f.is_zero:
            return None
        for m in range(1, min(limit, f.zero_bound() + 2) + 1):
            if not f.is_zero_at(self.tau * m):
                return m
        return None


def conclusion(f: ExpRational, top: Fraction) -> tuple[bool, str]:
    """Whether lim_{t→∞} e^{βt}|f(t)| = 0 for every 0 < β < top (Lemma A.10, (105)), exactly, and
    why (module docstring)."""
    a = f.asymptotic()
    if a is None:
        return True, "f ≡ 0"
    nu, e, lc = a
    if top <= nu:
        return True, f"f(t) ~ {lc}·t^{e}·e^(−{nu}t): e^(βt)|f| → 0 for every β < {top} ≤ {nu}"
    beta = (max(nu, Fraction(0)) + top) / 2
    return False, (f"f(t) ~ {lc}·t^{e}·e^(−{nu}t), so e^(βt)|f(t)| → ∞ at β = {beta} "
                   f"(ν* = {nu} < β < {top})")


# ---- the step (109) = (110): sup_t |L(t)| against sup_t |R(t)| --------------------------------------

def compare_sups(left: ExpRational, right: ExpRational, grid: Sequence[Fraction] = ()
                 ) -> tuple[bool | None, str]:
    """Whether sup_{t≥0} |left(t)| = sup_{t≥0} |right(t)| (in [0, ∞]) for exponential-rational
    functions (the step (109) = (110) of W's proof of Lemma A.10, App. A.10), decided exactly, or
    with a certified point evaluation, or None (undecided).

    Identical functions have equal sups. Otherwise, when left = e^{ct}·right (c ≠ 0 rational), let
    H be the one with the larger weight: |H| ≥ |other| pointwise with equality only at t = 0 and
    zeros, so the sups agree iff both are ∞ or sup|H| = |H(0)|: if H(0) = 0 (H ≢ 0), or H's first
    nonzero derivative at 0 points away from 0, they differ (exact); a rational t (from ``grid``)
    with |H(t)| > |H(0)| certified in ball arithmetic makes them differ; σH′ ≤ 0 termwise (σ the
    sign of H(0)) with lim σH ≥ −|H(0)| proves sup|H| = |H(0)|.
    """
    if left == right:
        return True, "the two functions of t coincide identically"
    c = left.exp_factor_over(right)
    if c is None:
        return None, "the two sides are not e^(ct) multiples of each other"
    h, k = (left, right) if c > 0 else (right, left)
    name = "(109)" if c > 0 else "(110)"
    hb, kb = h.bounded(), k.bounded()
    if not hb:
        return (not kb, f"{name} side: e^(·t)|g| is unbounded (its asymptotics); the other side is "
                        + ("unbounded too" if not kb else "bounded"))
    h0 = h.at_zero()
    if h0 == 0:
        return False, (f"the larger-weighted side {name} vanishes at t = 0 but not identically, so "
                       "its sup exceeds |value at 0|, which is the most the other sup can equal "
                       "it at")
    sigma = 1 if h0 > 0 else -1
    d = h
    for k_ in range(1, 9):
        d = d.derivative()
        v = d.at_zero()
        if v != 0:
            if sigma * v > 0:
                return False, (f"|{name}'s function| increases at t = 0 (derivative {k_} at 0 is "
                               f"{v}, value {h0}): its sup exceeds its value at 0, the other's "
                               "does not reach it")
            break
    witness = _exceeds(h, abs(h0), grid)
    if witness is not None:
        return False, (f"|{name}'s function| at t = {witness[0]} ∈ {witness[1]} > |value at 0| = "
                       f"{abs(h0)} (ball arithmetic)")
    a = h.asymptotic()
    lim = Fraction(0) if a is None or a[0] > 0 or a[1] < 0 else a[2]
    if (sigma * h).derivative().nonpositive_termwise() and sigma * lim >= -abs(h0):
        return True, (f"σ·{name}′ ≤ 0 termwise: |·| is largest at t = 0, where both sides equal "
                      f"{abs(h0)}")
    return None, "undecided: no certified point beats the value at 0, and no monotonicity proof"


def _exceeds(h: ExpRational, level: Fraction, grid: Sequence[Fraction]) -> tuple[Fraction, str] | None:
    """A grid point t with |h(t)| > level, certified with arb balls (the float screen picks it)."""
    import math

    import flint

    if not grid:
        return None
    vals = [abs(float(h.evaluate(float(t), math.exp, 1.0))) for t in grid]
    best = max(range(len(grid)), key=lambda i: vals[i])
    if vals[best] <= float(level):
        return None
    t = grid[best]
    with flint.ctx.workprec(128):
        ball = abs(h.evaluate(flint.arb(flint.fmpq(t.numerator, t.denominator)),
                              lambda v: v.exp(), flint.arb(1)))
        if ball > flint.arb(flint.fmpq(level.numerator, level.denominator)):
            return t, ball.str(12)
    return None
