"""Timestamp reconstruction of paper O (§3.1 and App. B, eq. 27).

With the constant feature and the eigenvalue λ₀, the first state coordinate is
x_{k,0} = Σ_{i=0}^{k-1} λ₀^i = (λ₀^k − 1)/(λ₀ − 1), and the paper recovers the step as
k = log_{λ₀}(x_{k,0}(λ₀ − 1) + 1) for λ₀ ∈ ℂ, |λ₀| ≤ 1.

Reading of log_{λ₀}: log_{λ₀} z = Log z / Log λ₀ with the principal logarithm (Arg ∈ (−π, π]).
Since z := x_{k,0}(λ₀ − 1) + 1 = λ₀^k and ln|z| = k ln|λ₀| always, the printed formula returns k
iff λ₀ ∉ {0, 1} and Arg(λ₀^k) = k·Arg λ₀, i.e. k·Arg λ₀ ∈ (−π, π]. It fails at λ₀ = 0 (no
logarithm of the base, z = 0), at λ₀ = 1 (the closed form is 0/0 and Log 1 = 0), and whenever
k·Arg λ₀ leaves (−π, π] (e.g. λ₀ = −1/2, k = 2; every non-real λ₀ for k large). λ₀ = 0 and λ₀ = 1
fail under any reading of the logarithm (also the multivalued one).

Corrected statement: for 0 < |λ₀| < 1, k = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀| (|λ₀^k| = |λ₀|^k is
strictly decreasing in k). :func:`horizon_bound` predicts, from a rounding-error analysis, the
largest k that a precision u recovers.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.exact import QQi, abs2
from recmem.theory.proof import Proof

# Exact instances of the known failure classes of the printed formula, smallest first.
FAILURE_CLASSES: tuple[tuple[str, QQi, int], ...] = (
    ("λ₀ = 0: no logarithm to base 0 (z = 0)", QQi(Fraction(0)), 1),
    ("λ₀ = 1: closed form 0/0, Log 1 = 0", QQi(Fraction(1)), 1),
    ("λ₀ = −1 on the unit circle: x_{2,0} = 0, k not recovered", QQi(Fraction(-1)), 2),
    ("negative real λ₀: Arg(λ₀²) = 0 ≠ 2π", QQi(Fraction(-1, 2)), 2),
    ("principal branch wraps: 3·Arg(i/2) = 3π/2 > π", QQi(Fraction(0), Fraction(1, 2)), 3),
)


# ---- exact arithmetic in ℚ(i) --------------------------------------------------------------------

def _mul(a: QQi, b: QQi) -> QQi:
    return QQi(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)


def _add(a: QQi, b: QQi) -> QQi:
    return QQi(a.re + b.re, a.im + b.im)


def _div(a: QQi, b: QQi) -> QQi:
    n = abs2(b)
    return QQi((a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n)


def _pow(a: QQi, k: int) -> QQi:
    out = QQi(Fraction(1))
    for _ in range(k):
        out = _mul(out, a)
    return out


ONE = QQi(Fraction(1))
ZERO = QQi(Fraction(0))


def first_coordinate(lam0: QQi, k: int) -> QQi:
    """x_{k,0} = Σ_{i=0}^{k-1} λ₀^i exactly, by the recurrence x_k = λ₀ x_{k−1} + 1, x_0 = 0 (O §3.1)."""
    x = ZERO
    for _ in range(k):
        x = _add(_mul(lam0, x), ONE)
    return x


def recovered_argument(lam0: QQi, x: QQi) -> QQi:
    """z = x_{k,0}(λ₀ − 1) + 1 exactly (the argument of the logarithm in eq. 27)."""
    return _add(_mul(x, _add(lam0, QQi(Fraction(-1)))), ONE)


# ---- ball arithmetic helpers -------------------------------------------------------------------

def _acb(q: QQi) -> Any:
    import flint

    return flint.acb(flint.fmpq(q.re.numerator, q.re.denominator),
                     flint.fmpq(q.im.numerator, q.im.denominator))


def _ceil_unique(x: Any) -> int | None:
    """⌈x⌉ if it is the same integer over the whole ball ``x`` (an arb), else None."""
    lo, hi = x.lower(), x.upper()
    if not (lo.is_finite() and hi.is_finite()):
        return None
    a, b = int(lo.ceil().unique_fmpz()), int(hi.ceil().unique_fmpz())
    return a if a == b else None


def _round_unique(x: Any) -> int | None:
    """The integer within 1/2 of every point of the ball ``x`` (an arb), if there is one."""
    m = round(float(x.mid()))
    return m if abs(float(x.mid()) - m) + float(x.rad()) < 0.5 else None


def printed_value_ball(lam0: QQi, k: int, bits: int = 128) -> Any:
    """Ball of Log z / Log λ₀ with z = x_{k,0}(λ₀ − 1) + 1 computed exactly (flint, principal Log)."""
    import flint

    z = recovered_argument(lam0, first_coordinate(lam0, k))
    with flint.ctx.workprec(bits):
        return _acb(z).log() / _acb(lam0).log()


def decide_printed(lam0: QQi, k: int) -> tuple[bool | None, str, dict[str, Any]]:
    """Whether eq. 27 as printed returns k for this exact λ₀ and step k (O §3.1, App. B eq. 27).

    Exact ℚ(i) arithmetic for x_{k,0}, the closed form and z; the principal-branch condition
    k·Arg λ₀ ∈ (−π, π] is decided with flint balls (precision doubled until the integer winding
    number m in Arg z = k·Arg λ₀ − 2πm is unique), and a failure is certified by the ball of the
    formula's value Log z / Log λ₀, which then excludes k.
    Returns (holds, how it is certified, values).
    """
    import flint

    x = first_coordinate(lam0, k)
    values: dict[str, Any] = {"lambda0": str(lam0), "k": k, "x_k0": str(x)}
    if lam0 == ONE:
        values["closed form"] = "(1 − 1)/(1 − 1) = 0/0"
        return False, ("exact arithmetic: λ₀ − 1 = 0, so (λ₀^k − 1)/(λ₀ − 1) is 0/0 while "
                       f"Σ λ₀^i = {x}; and Log λ₀ = Log 1 = 0, so log base 1 is undefined"), values
    closed = _div(_add(_pow(lam0, k), QQi(Fraction(-1))), _add(lam0, QQi(Fraction(-1))))
    values["closed form"] = str(closed)
    if closed != x:  # pragma: no cover - the geometric sum identity holds for λ₀ ≠ 1
        return False, "exact arithmetic: Σ λ₀^i ≠ (λ₀^k − 1)/(λ₀ − 1)", values
    z = recovered_argument(lam0, x)
    values["z = x(λ0-1)+1"] = str(z)
    if lam0 == ZERO:
        return False, ("exact arithmetic: λ₀ = 0 has no logarithm (Log 0 = −∞), so log base 0 "
                       f"is undefined; z = x_(k,0)(λ₀ − 1) + 1 = {z}"), values
    if z == ZERO:  # pragma: no cover - z = λ₀^k vanishes only at λ₀ = 0
        return False, "exact arithmetic: z = 0 has no logarithm", values
    negative_real = z.im == 0 and z.re < 0
    bits = 128
    m: int | None = None
    while bits <= 4096 and m is None:
        with flint.ctx.workprec(bits):
            w = k * _acb(lam0).arg() / (2 * flint.arb.pi())
            # Arg z = k·Arg λ₀ − 2πm ∈ (−π, π]: m = ⌈w − 1/2⌉; on the negative real axis
            # Arg z = π exactly and w − 1/2 = m is an integer, found by rounding.
            m = _round_unique(w - flint.arb(1) / 2) if negative_real else _ceil_unique(
                w - flint.arb(1) / 2)
        bits *= 2
    if m is None:  # pragma: no cover - w is never a half-integer off the negative axis
        return None, "", values
    values["winding m"] = m
    t = printed_value_ball(lam0, k, bits)
    values["Log z / Log λ0 (ball)"] = t.str(20)
    if m == 0:
        return True, f"k·Arg λ₀ ∈ (−π, π] (flint at {bits // 2} bits): Log z = k·Log λ₀", values
    excludes = not t.contains(k)
    return False, (f"ball arithmetic at {bits} bits: Log z / Log λ₀ ∈ {t.str(20)} excludes "
                   f"k = {k} "
                   f"(Arg z = k·Arg λ₀ − 2π·{m})" if excludes else
                   f"winding number m = {m} ≠ 0 (flint)"), values


def decide_corrected(lam0: QQi, k: int) -> tuple[bool, str, dict[str, Any]]:
    """Corrected eq. 27 for 0 < |λ₀| < 1: ln|x_{k,0}(λ₀−1)+1| / ln|λ₀| = k, decided exactly.

    ln is injective, so the value is k iff |z|² = (|λ₀|²)^k, an identity in ℚ; ln|λ₀| ≠ 0 because
    |λ₀| ≠ 1 and it is finite because λ₀ ≠ 0.
    """
    x = first_coordinate(lam0, k)
    z = recovered_argument(lam0, x)
    closed = _div(_add(_pow(lam0, k), QQi(Fraction(-1))), _add(lam0, QQi(Fraction(-1))))
    ok = closed == x and abs2(z) == abs2(lam0) ** k and 0 < abs2(lam0) < 1
    return ok, "exact arithmetic in ℚ: |z|² = (|λ₀|²)^k and the geometric sum identity", {
        "lambda0": str(lam0), "k": k, "x_k0": str(x), "|z|^2": str(abs2(z))}


# ---- symbolic derivations ----------------------------------------------------------------------

def _geometric() -> dict[str, bool]:
    """SymPy: Σ λ^i = (λ^k − 1)/(λ − 1) for λ ≠ 1, = k at λ = 1, and x(λ − 1) + 1 = λ^k."""
    import sympy as sp

    lam = sp.Symbol("lambda0")
    i = sp.Symbol("i", integer=True, nonnegative=True)
    k = sp.Symbol("k", integer=True, positive=True)
    s = sp.summation(lam**i, (i, 0, k - 1))
    closed = (lam**k - 1) / (lam - 1)
    generic = s.args[-1][0] if isinstance(s, sp.Piecewise) else s
    return {
        "sum = closed form (λ0 ≠ 1)": sp.simplify(generic - closed) == 0,
        "sum at λ0 = 1 is k": sp.simplify(s.subs(lam, 1) - k) == 0,
        "closed form at λ0 = 1 is 0/0": closed.subs(lam, 1) is sp.nan,
        "x(λ0 − 1) + 1 = λ0^k": sp.simplify(closed * (lam - 1) + 1 - lam**k) == 0,
    }


def printed_inversion() -> Proof:
    """Eq. 27 as printed (O §3.1, App. B), principal logarithm: refuted by exact instances.

    SymPy establishes the geometric sum and z = λ₀^k; each failure class in FAILURE_CLASSES is then
    decided by :func:`decide_printed` (exact, or a flint ball excluding k). The first (smallest)
    failing instance is the counterexample.
    """
    t0 = time.perf_counter()
    geo = _geometric()
    results = {}
    first = None
    for label, lam0, k in FAILURE_CLASSES:
        ok, how, vals = decide_printed(lam0, k)
        results[label] = {"holds": ok, "certified_by": how, **vals}
        if ok is False and first is None:
            first = {"class": label, **vals, "certified_by": how}
    holds = None if first is None else False
    return Proof(holds, "λ₀ ∈ ℂ with |λ₀| ≤ 1, k ≥ 1 (principal Log)",
                 "SymPy: geometric sum and z = λ₀^k; holds iff λ₀ ∉ {0, 1} and "
                 "k·Arg λ₀ ∈ (−π, π]; exact/ball evaluation of the failure classes "
                 "(recmem.theory.timestamp.printed_inversion)",
                 counterexample=first,
                 details={**{k: v for k, v in geo.items()}, **{k: str(v["holds"]) + ": "
                          + str(v["certified_by"]) for k, v in results.items()},
                          "seconds": round(time.perf_counter() - t0, 3)})


def corrected_inversion() -> Proof:
    """Corrected eq. 27: for 0 < |λ₀| < 1 and every integer k ≥ 0, k = ln|x_{k,0}(λ₀−1)+1| / ln|λ₀|.

    SymPy with λ₀ = ρe^{iφ}, 0 < ρ < 1, φ real, k a non-negative integer: z = λ₀^k, |z| = ρ^k,
    ln ρ^k / ln ρ = k (ln ρ < 0, finite). Since ρ^k is strictly decreasing, k ↦ |z| is injective.
    """
    import sympy as sp

    t0 = time.perf_counter()
    geo = _geometric()
    rho = sp.Symbol("rho", positive=True)
    phi = sp.Symbol("phi", real=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    lam = rho * sp.exp(sp.I * phi)
    z = sp.simplify(((lam**k - 1) / (lam - 1)) * (lam - 1) + 1)
    absz = sp.simplify(sp.Abs(z))
    t = sp.expand_log(sp.log(absz), force=False) / sp.log(sp.Abs(lam))
    checks = {
        **geo,
        "z = (ρe^{iφ})^k": sp.simplify(z - lam**k) == 0,
        "|z| = ρ^k": sp.simplify(absz - rho**k) == 0,
        "ln|z| / ln|λ0| = k": sp.simplify(t - k) == 0,
        "ln ρ < 0 for 0 < ρ < 1": bool(sp.log(rho).subs(rho, sp.Rational(1, 2)).is_negative),
        "ρ^k strictly decreasing": bool(sp.simplify(sp.diff(rho**k, k) - rho**k * sp.log(rho))
                                        == 0),
    }
    holds = all(checks.values())
    return Proof(holds if holds else None,
                 "0 < |λ₀| < 1, every integer k ≥ 0 (symbolic ρ, φ, k)",
                 "SymPy: z = λ₀^k, |z| = |λ₀|^k, ln|z|/ln|λ₀| = k "
                 "(recmem.theory.timestamp.corrected_inversion)",
                 details={**checks, "seconds": round(time.perf_counter() - t0, 3)})


# ---- rounding-error analysis: up to which k a precision recovers k ----------------------------

C_HORIZON = 8.0


def z_error_constant(lam0: QQi, k: int | None = None) -> mpmath.mpf:
    """κ_z with |ẑ_k − z_k| ≤ c·κ_z·u, for z computed as in the backends (O §3.1, eq. 27).

    The backends run x_k = fl(fl(λ₀ x_{k−1}) + 1) from x_0 = 0, then z = fl(fl(x·fl(λ₀ − 1)) + 1).
    With ρ = |λ₀| ≤ 1, λ₀ ≠ 1, and X = 2/|1 − λ₀| ≥ |x_k| = |1 − λ₀^k|/|1 − λ₀|:
    - each step commits |η| ≤ (√5 + 1)u·ρX + u (complex product, Brent–Percival–Zimmermann, then
      one addition), and the errors are damped by λ₀: |x̂_k − x_k| ≤ S_k·max|η| with
      S_k = Σ_{j<k} ρ^j ≤ min(k, 1/(1 − ρ)) (S = 1/(1 − ρ) when k is None; needs ρ < 1);
    - forming z multiplies that by |λ₀ − 1| and adds (√5 + 2)u·(|λ₀ − 1|X + 1).
    So |ẑ − z| ≤ c·u·κ_z with κ_z = |λ₀ − 1|(ρX + 1)·S_k + |λ₀ − 1|X + 1 and c = C_HORIZON = 8,
    which covers √5 + 2 < 4.3, a few-ulp complex multiply or libm error and O(u²) terms.
    Conversion of a non-representable λ₀ does not enter: every step uses the same rounded λ₀.
    """
    mp = mpmath.MPContext()
    mp.prec = 64
    lam = mp.mpc(mp.mpf(lam0.re.numerator) / lam0.re.denominator,
                 mp.mpf(lam0.im.numerator) / lam0.im.denominator)
    rho = abs(lam)
    gap = abs(lam - 1)
    if gap == 0:
        raise ValueError("λ₀ = 1: x_{k,0} = k and z = 1 for every k")
    big_x = 2 / gap
    if k is None:
        if rho >= 1:
            raise ValueError("the k-independent bound needs |λ₀| < 1")
        s = 1 / (1 - rho)
    else:
        s = mp.mpf(k) if rho >= 1 else min(mp.mpf(k), 1 / (1 - rho))
    return gap * (rho * big_x + 1) * s + gap * big_x + 1


def horizon_bound(lam0: QQi, unit_roundoff: mpmath.mpf, c: float = C_HORIZON) -> int:
    """Largest K such that every k ≤ K is recovered by rounding ln|ẑ_k| / ln|λ₀| (predicted, O §3.1).

    With D = c·κ_z·u (:func:`z_error_constant`) and |z_k| = ρ^k, |ẑ_k| = ρ^k(1 + ε), |ε| ≤ D/ρ^k,
    so the formula's value moves by |ln(1 + ε)|/|ln ρ| ≤ |ε|/((1 − |ε|)|ln ρ|). Asking for at most
    1/4 there (the other 1/4 is left to the rounding of the two logarithms and the division,
    ≲ 6u(k + 1/|ln ρ|), which is below 1/4 for every k ≤ 1/(24u)) gives |ε| ≤ h/(1 + h) with
    h = |ln ρ|/4, i.e. k ≤ ln(h/((1 + h)D)) / |ln ρ|: cancellation in x(λ₀ − 1) + 1 = λ₀^k sets in
    once ρ^k ≈ u, so K ≈ log(u)/log ρ minus a few steps. Returns 0 when even k = 1 is unsafe.
    """
    mp = mpmath.MPContext()
    mp.prec = 64
    rho = mp.sqrt(mp.mpf(abs2(lam0).numerator) / abs2(lam0).denominator)
    if not 0 < rho < 1:
        raise ValueError(f"the corrected formula needs 0 < |λ₀| < 1, got |λ₀| = {rho}")
    ln_rho = abs(mp.log(rho))
    d = c * z_error_constant(lam0) * mp.mpf(unit_roundoff)
    h = ln_rho / 4
    k = mp.log(h / ((1 + h) * d)) / ln_rho
    cap = 1 / (24 * mp.mpf(unit_roundoff))
    return max(0, math.floor(float(min(k, cap))))


def horizon_estimate(lam0: QQi, unit_roundoff: mpmath.mpf) -> float:
    """The rough scale log(u)/log|λ₀| at which ρ^k reaches u (for reports, not for checks)."""
    rho2 = abs2(lam0)
    return float(mpmath.log(unit_roundoff) / (mpmath.log(mpmath.mpf(rho2.numerator)
                                                            / rho2.denominator) / 2))
