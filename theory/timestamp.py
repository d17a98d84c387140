"""Timestamp reconstruction of paper O (§3.1 and App. B, eq. 27).

With the constant feature and the eigenvalue λ₀, the first state coordinate is
x_{k,0} = Σ_{i=0}^{k-1} λ₀^i = (λ₀^k − 1)/(λ₀ − 1), and the paper recovers the step as
k = log_{λ₀}(x_{k,0}(λ₀ − 1) + 1) for λ₀ ∈ ℂ, |λ₀| ≤ 1. The statement is :class:`Timestamp`,
written once here and read by every check of ``O.timestamp`` and ``O.timestamp.corrected``.

Reading of log_{λ₀}: log_{λ₀} z = Log z / Log λ₀ with the principal logarithm (Arg ∈ (−π, π]).
Since z := x_{k,0}(λ₀ − 1) + 1 = λ₀^k and ln|z| = k ln|λ₀| always, the printed formula returns k
iff λ₀ ∉ {0, 1} and Arg(λ₀^k) = k·Arg λ₀, i.e. k·Arg λ₀ ∈ (−π, π]. It fails at λ₀ = 0 (no
logarithm of the base, z = 0), at λ₀ = 1 (the closed form is 0/0 and Log 1 = 0), and whenever
k·Arg λ₀ leaves (−π, π] (e.g. λ₀ = −1/2, k = 2; every non-real λ₀ for k large). λ₀ = 0 and λ₀ = 1
fail under any reading of the logarithm (also the multivalued one).

Corrected statement: for 0 < |λ₀| < 1, k = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀| (|λ₀^k| = |λ₀|^k is
strictly decreasing in k), proved for all such λ₀ and k by :func:`timestamp_proof`.
:func:`recovery_tolerance` and :func:`horizon_bound` bound, from a rounding-error analysis, how
far a precision u can move the recovered value, and so up to which k it recovers k.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.exact import QQi, abs2
from recmem.theory.proof import Proof, decide_zero
from recmem.theory.statement import Control, Statement

ONE = QQi(Fraction(1))
ZERO = QQi(Fraction(0))

# Exact instances of the known failure classes of the printed formula, smallest first; with the
# hypothesis' edge points they are the probes every symbolic decision evaluates exactly.
FAILURE_CLASSES: tuple[tuple[str, QQi, int], ...] = (
    ("λ₀ = 0: no logarithm to base 0 (z = 0)", ZERO, 1),
    ("λ₀ = 1: closed form 0/0, Log 1 = 0", ONE, 1),
    ("λ₀ = −1 on the unit circle: x_{2,0} = 0, k not recovered", QQi(Fraction(-1)), 2),
    ("negative real λ₀: Arg(λ₀²) = 0 ≠ 2π", QQi(Fraction(-1, 2)), 2),
    ("principal branch wraps: 3·Arg(i/2) = 3π/2 > π", QQi(Fraction(0), Fraction(1, 2)), 3),
)
# The edge of the hypothesis |λ₀| ≤ 1: the centre and the unit circle's simplest points.
EDGE_POINTS: tuple[QQi, ...] = (ZERO, ONE, QQi(Fraction(-1)), QQi(Fraction(0), Fraction(1)))


@dataclass(frozen=True)
class Timestamp(Statement):
    """O §3.1 / App. B eq. (27): x_{k,0} = Σ_{i<k} λ₀^i = (λ₀^(k+s) − 1)/(λ₀ − 1) and
    k + s = log_{λ₀}(x_{k,0}(λ₀ − g) + 1) for every integer k ≥ 1 and every λ₀ of the hypothesis.

    As printed: s = ``power_shift`` = 0, g = ``gap_sign`` = 1, log_{λ₀} z = Log z / Log λ₀
    (principal branch; ``modulus``: ln|z| / ln|λ₀|), hypothesis |λ₀| ≤ 1 (``strict``: |λ₀| < 1,
    ``positive``: |λ₀| > 0).
    """

    modulus: bool = False
    power_shift: int = 0
    gap_sign: int = 1
    strict: bool = False
    positive: bool = False

    def __post_init__(self) -> None:
        if self.gap_sign not in (1, -1):
            raise ValueError(f"gap_sign must be +1 or −1, got {self.gap_sign}")

    # ---- text and controls ----------------------------------------------------------------
    @property
    def text(self) -> str:
        s = self.power_shift
        power = "k" if s == 0 else f"(k{s:+d})"
        claimed = "k" if s == 0 else f"k {'+' if s > 0 else '−'} {abs(s)}"
        gap = "(λ₀ − 1)" if self.gap_sign > 0 else "(λ₀ + 1)"
        inv = (f"ln|x_(k,0){gap} + 1| / ln|λ₀|" if self.modulus else
               f"log_λ₀(x_(k,0){gap} + 1) (principal Log z / Log λ₀)")
        lo = "0 < " if self.positive else ""
        hi = "< 1" if self.strict else "≤ 1"
        return (f"x_(k,0) = Σ_(i=0)^(k−1) λ₀^i = (λ₀^{power} − 1)/(λ₀ − 1) and {claimed} = {inv}, "
                f"for λ₀ ∈ ℂ, {lo}|λ₀| {hi}, every integer k ≥ 1")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("power of λ₀ shifted by one (x = (λ₀^(k+1) − 1)/(λ₀ − 1), k + 1 = …)",
                       replace(self, power_shift=self.power_shift + 1)),
               Control("sign in the inversion's (λ₀ − 1) flipped",
                       replace(self, gap_sign=-self.gap_sign))]
        # each side of the hypothesis widened on its own: the unit circle (λ₀ = 1: ln|λ₀| = 0)
        # and the centre (λ₀ = 0: no logarithm) each refute the modulus form
        if self.strict:
            out.append(Control("hypothesis widened to |λ₀| ≤ 1 (the unit circle admitted)",
                               replace(self, strict=False)))
        if self.positive:
            out.append(Control("hypothesis widened to |λ₀| ≥ 0 (λ₀ = 0 admitted)",
                               replace(self, positive=False)))
        if self.modulus:
            out.append(Control("moduli dropped (principal Log z / Log λ₀)",
                               replace(self, modulus=False)))
        return tuple(out)

    # ---- hypothesis -----------------------------------------------------------------------
    def admits(self, lam0: QQi) -> bool:
        """The hypothesis on λ₀, exactly."""
        r2 = abs2(lam0)
        return (r2 < 1 if self.strict else r2 <= 1) and (r2 > 0 or not self.positive)

    def edge_points(self) -> list[QQi]:
        """The edge points of |λ₀| ≤ 1 (0, 1, −1, i) that the hypothesis admits."""
        return [p for p in EDGE_POINTS if self.admits(p)]

    def domain_in_open_punctured_disk(self) -> bool:
        """Whether every admitted λ₀ has 0 < |λ₀| < 1 (where the modulus form is proved)."""
        return self.strict and self.positive

    # ---- the formula, over any arithmetic ---------------------------------------------------
    def claimed(self, k: Any) -> Any:
        """The value the inversion is claimed to return at step k."""
        return k + self.power_shift

    def closed_form(self, lam: Any, k: Any, one: Any) -> Any:
        """(λ₀^(k+s) − 1)/(λ₀ − 1)."""
        return (lam ** (k + self.power_shift) - one) / (lam - one)

    def argument(self, lam: Any, x: Any, one: Any) -> Any:
        """z = x_{k,0}(λ₀ − 1) + 1 (the argument of the logarithm in eq. 27)."""
        return x * (lam - one if self.gap_sign > 0 else lam + one) + one

    def recover(self, z: Any, lam: Any, log: Callable[[Any], Any],
                absval: Callable[[Any], Any] = abs) -> Any:
        """log_{λ₀} z: Log z / Log λ₀, or ln|z| / ln|λ₀| for the modulus form."""
        if self.modulus:
            return log(absval(z)) / log(absval(lam))
        return log(z) / log(lam)


PRINTED = Timestamp()
CORRECTED = Timestamp(modulus=True, strict=True, positive=True)


# ---- exact decision of one instance -------------------------------------------------------------

def _bits(q: QQi) -> int:
    """The size of the largest integer in an exact Gaussian rational."""
    return max(abs(q.re.numerator).bit_length(), q.re.denominator.bit_length(),
               abs(q.im.numerator).bit_length(), q.im.denominator.bit_length())


def _txt(q: QQi) -> str:
    """An exact value for a report; a huge one only by its size (and never past Python's limit
    on integer-to-string conversion)."""
    bits = _bits(q)
    return str(q) if bits <= 256 else f"(exact Gaussian rational, {bits}-bit parts)"


def statement_value(law: Timestamp, z: QQi, lam0: QQi) -> str:
    """The statement's own inversion log_{λ₀} z at exact z and λ₀, evaluated by SymPy (principal
    logarithm; ``nan`` or ``zoo`` where it is undefined), as text for a report."""
    import sympy as sp

    from recmem.numerics.exact import to_sympy

    if max(_bits(z), _bits(lam0)) > 256:
        return "(not evaluated: exact values with more than 256-bit parts)"
    return str(law.recover(to_sympy(z), to_sympy(lam0), sp.log, sp.Abs))


def first_coordinate(lam0: QQi, k: int) -> Any:
    """x_{k,0} by the recurrence x_k = λ₀ x_{k−1} + 1, x_0 = 0 (O §3.1: the RNN itself), exactly
    over ℚ(i) (a SymPy ``QQ_I`` element)."""
    from recmem.theory.exact_linalg import _dom, element

    dom = _dom()
    lam, x = element(lam0), dom.zero
    for _ in range(k):
        x = lam * x + dom.one
    return x


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


def _winding(lam0: QQi, c: int, negative_real: bool) -> tuple[int | None, int]:
    """m with Arg(λ₀^c) = c·Arg λ₀ − 2πm, i.e. m = ⌈c·Arg λ₀/(2π) − 1/2⌉ (on the negative real axis
    Arg = π exactly and the ball is rounded); flint, precision doubled until m is unique."""
    import flint

    bits, m = 128, None
    while bits <= 4096 and m is None:
        with flint.ctx.workprec(bits):
            w = c * _acb(lam0).arg() / (2 * flint.arb.pi())
            m = (_round_unique if negative_real else _ceil_unique)(w - flint.arb(1) / 2)
        bits *= 2
    return m, bits


def decide(law: Timestamp, lam0: QQi, k: int) -> tuple[bool | None, str, dict[str, Any]]:
    """Whether the statement ``law`` holds at this exact λ₀ and step k (O §3.1, App. B eq. 27).

    Exact ℚ(i) arithmetic: x_{k,0} by the recurrence (the definition) against the statement's
    closed form, then z = the statement's argument. With c the claimed value:
    - modulus form: ln is injective, so ln|z| / ln|λ₀| = c iff |z|² = (|λ₀|²)^c, an identity in
      ℚ, when ln|λ₀| is finite and nonzero (λ₀ ≠ 0, |λ₀| ≠ 1) and z ≠ 0;
    - principal Log: Log z = c·Log λ₀ implies z = exp(c·Log λ₀) = λ₀^c, so z ≠ λ₀^c (exact)
      refutes; when z = λ₀^c, Log z = c·Log λ₀ iff the winding number m in
      Arg z = c·Arg λ₀ − 2πm is 0 (decided with flint balls, precision doubled until m is
      unique). The statement's own inversion is then evaluated in ball arithmetic: it holds when
      m = 0 and the ball contains c, and a failure is certified by a ball that excludes c.
    The values record the statement's inversion evaluated exactly by SymPy (``nan``/``zoo``
    where it is undefined). Returns (holds, how it is certified, values).
    """
    from recmem.theory.exact_linalg import _dom, element, to_qqi

    dom = _dom()
    lam = element(lam0)
    x = first_coordinate(lam0, k)
    c = law.claimed(k)
    values: dict[str, Any] = {"lambda0": str(lam0), "k": k, "x_k0": _txt(to_qqi(x))}
    try:
        closed = law.closed_form(lam, k, dom.one)
    except ZeroDivisionError:
        values["closed form"] = "division by λ₀ − 1 = 0 (0/0)"
        return False, ("exact arithmetic: λ₀ − 1 = 0, so the closed form is 0/0 while "
                       f"Σ λ₀^i = {_txt(to_qqi(x))}; and Log λ₀ = ln|λ₀| = 0: no logarithm to base "
                       "1"), values
    values["closed form"] = _txt(to_qqi(closed))
    if closed != x:
        return False, (f"exact arithmetic over ℚ(i): Σ_(i<k) λ₀^i = {values['x_k0']} ≠ closed "
                       f"form {values['closed form']}"), values
    z = law.argument(lam, x, dom.one)
    zq = to_qqi(z)
    values["z"] = _txt(zq)
    values["log_λ0 z (the statement's inversion, SymPy)"] = statement_value(law, zq, lam0)
    if lam0 == ZERO:
        return False, ("exact arithmetic: λ₀ = 0 has no logarithm (ln 0 = −∞), so the logarithm "
                       f"to base 0 is undefined; z = {values['z']}"), values
    if zq == ZERO:
        return False, "exact arithmetic: z = 0 has no logarithm", values
    if law.modulus:
        if abs2(lam0) == 1:
            return False, ("exact arithmetic: |λ₀|² = 1, so ln|λ₀| = 0 and ln|z| / ln|λ₀| "
                           "divides by 0"), values
        values["|z|^2"] = _txt(QQi(abs2(zq)))
        values["(|λ0|^2)^c"] = _txt(QQi(abs2(lam0) ** c))
        ok = abs2(zq) == abs2(lam0) ** c
        return ok, ("exact arithmetic in ℚ: |z|² " + ("=" if ok else "≠")
                    + f" (|λ₀|²)^{c}, and ln is injective"), values
    power = to_qqi(lam ** c)
    if zq != power:
        return False, (f"exact arithmetic over ℚ(i): z = {values['z']} ≠ λ₀^{c} = {_txt(power)}, "
                       "while "
                       f"Log z = {c}·Log λ₀ would give z = exp({c}·Log λ₀) = λ₀^{c}"), values
    m, bits = _winding(lam0, c, zq.im == 0 and zq.re < 0)
    if m is None:  # pragma: no cover - w is never a half-integer off the negative axis
        return None, "", values
    values["winding m"] = m
    import flint

    # the statement's inversion itself, in ball arithmetic (principal Log of flint)
    with flint.ctx.workprec(bits):
        t = law.recover(_acb(zq), _acb(lam0), lambda v: v.log())
    values["log_λ0 z (ball)"] = t.str(20)
    if m == 0 and t.contains(c):
        return True, (f"{c}·Arg λ₀ ∈ (−π, π] (flint at {bits // 2} bits): Log z = {c}·Log λ₀, and "
                      f"the statement's inversion encloses {c}"), values
    return False, (f"ball arithmetic at {bits} bits: the statement's inversion lies in "
                   f"{t.str(20)}, which excludes {c}" + (f" (Arg z = {c}·Arg λ₀ − 2π·{m})" if m
                                                       else "")
                   if not t.contains(c) else f"winding number m = {m} ≠ 0 (flint)"), values


# ---- symbolic decision -------------------------------------------------------------------------

def _sympy_closed_form(law: Timestamp) -> dict[str, Any]:
    """The definition Σ_{i<k} λ₀^i summed by SymPy, against the statement's closed form."""
    import sympy as sp

    lam = sp.Symbol("lambda0")
    i = sp.Symbol("i", integer=True, nonnegative=True)
    k = sp.Symbol("k", integer=True, positive=True)
    total = sp.summation(lam**i, (i, 0, k - 1))
    # the branch for λ₀ ≠ 1 (the Piecewise's otherwise-branch)
    generic = (next(e for e, cond in total.args if cond is sp.true)
               if isinstance(total, sp.Piecewise) else total)
    half = sp.Rational(1, 2)
    ok, witness = decide_zero(generic - law.closed_form(lam, k, 1),
                              [{lam: half, k: 1}, {lam: half, k: 2}, {lam: -half, k: 3}])
    return {"lam": lam, "k": k, "sum": total, "generic": generic, "ok": ok, "witness": witness}


def timestamp_proof(law: Timestamp) -> Proof:
    """Decide the statement ``law`` (O §3.1, App. B eq. 27) symbolically.

    1. SymPy sums Σ_{i<k} λ₀^i (the definition) and compares it with the statement's closed form
       (a nonzero difference at an exact point disproves).
    2. Exact instances in the statement's domain — the failure classes of the printed formula
       and the edge points 0, 1, −1, i of |λ₀| ≤ 1, where admitted — are decided exactly by
       :func:`decide`; the first failure is the counterexample.
    3. For the modulus form on 0 < |λ₀| < 1: with λ₀ = ρe^{iφ}, ρ = 1/(1 + τ), τ > 0 (all of
       0 < ρ < 1), φ real and k a non-negative integer, SymPy reduces z − λ₀^k, |z| − ρ^k and
       ln|z| / ln|λ₀| − k to 0 (ln ρ = −ln(1 + τ) < 0): a proof for every such λ₀ and k.
    The principal-branch form with no failing instance in its domain is left undecided.
    """
    import sympy as sp

    t0 = time.perf_counter()
    geo = _sympy_closed_form(law)
    details: dict[str, Any] = {"Σ λ0^i (SymPy)": str(geo["sum"])}
    scope = ("λ₀ ∈ ℂ with " + ("0 < " if law.positive else "") + "|λ₀| "
             + ("< 1" if law.strict else "≤ 1") + ", every integer k ≥ 1")

    def done(holds: bool | None, method: str, cx: dict[str, Any] | None = None) -> Proof:
        details["seconds"] = round(time.perf_counter() - t0, 3)
        return Proof(holds, scope, method + " (recmem.theory.timestamp.timestamp_proof)",
                     counterexample=cx, details=details, general=True)

    if geo["ok"] is False:
        return done(False, "SymPy: Σ λ₀^i minus the statement's closed form is nonzero",
                    {"check": "closed form", **geo["witness"]})
    if geo["ok"] is None:
        return done(None, "SymPy could not reduce Σ λ₀^i minus the closed form")
    probes = [(label, lam0, k) for label, lam0, k in FAILURE_CLASSES if law.admits(lam0)]
    probes += [(f"edge point λ₀ = {p}", p, k) for p in law.edge_points() for k in (1, 2)]
    for label, lam0, k in probes:
        ok, how, vals = decide(law, lam0, k)
        details[f"{label} (k = {k})"] = f"{ok}: {how}"
        if ok is False:
            return done(False, "SymPy: geometric sum; exact evaluation of an instance in the "
                        "domain", {"class": label, **vals, "certified_by": how})
    if not (law.modulus and law.domain_in_open_punctured_disk() and law.gap_sign > 0
            and law.power_shift == 0):
        return done(None, "no failing instance among the probes, and no general argument for "
                    "this form")
    tau = sp.Symbol("tau", positive=True)
    phi = sp.Symbol("phi", real=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    rho = 1 / (1 + tau)
    lam = rho * sp.exp(sp.I * phi)
    z = sp.simplify(law.argument(lam, law.closed_form(lam, k, 1), 1))
    t = law.recover(z, lam, lambda v: sp.expand_log(sp.log(sp.simplify(v)), force=False),
                    sp.Abs)
    steps = {"z = λ₀^k": z - lam**k, "|z| = |λ₀|^k": sp.Abs(z) - rho**k,
             "ln|z| / ln|λ₀| = k": t - law.claimed(k)}
    for name, diff in steps.items():
        ok, witness = decide_zero(diff, [{tau: 1, phi: 1, k: 3}])
        details[name] = ok
        if ok is not True:
            return done(ok, f"SymPy: {name} does not reduce to 0",
                        {"check": name, **witness} if ok is False else None)
    ln_rho_negative = bool(sp.log(rho).is_negative)
    details["ln|λ0| < 0 for every τ > 0"] = ln_rho_negative
    if not ln_rho_negative:  # pragma: no cover - SymPy knows ln(1 + τ) > 0 for τ > 0
        return done(None, "SymPy could not show ln|λ₀| ≠ 0")
    return done(True, "SymPy: geometric sum; with λ₀ = e^{iφ}/(1 + τ), τ > 0: z = λ₀^k, "
                "|z| = |λ₀|^k, ln|z| / ln|λ₀| = k and ln|λ₀| = −ln(1 + τ) < 0")


# ---- rounding-error analysis: up to which k a precision recovers k ----------------------------

C_HORIZON = 8.0


_MP = mpmath.MPContext()
_MP.prec = 64  # the bounds below need only a few correct digits


@functools.cache
def _constants(lam0: QQi, gap_sign: int) -> tuple[Any, Any, Any, Any, Any]:
    """(ρ = |λ₀|, |ln ρ|, |Log λ₀|, |λ₀ − g|, X = 2/|1 − λ₀|) at 64 bits (λ₀ ≠ 0, 1)."""
    lam = _MP.mpc(_MP.mpf(lam0.re.numerator) / lam0.re.denominator,
                  _MP.mpf(lam0.im.numerator) / lam0.im.denominator)
    rho = abs(lam)
    return rho, abs(_MP.log(rho)), abs(_MP.log(lam)), abs(lam - gap_sign), 2 / abs(lam - 1)


def _kappa_z(rho: Any, gap: Any, big_x: Any, s: Any) -> Any:
    return gap * (rho * big_x + 1) * s + gap * big_x + 1


def z_error_constant(lam0: QQi, k: int | None = None, gap_sign: int = 1) -> mpmath.mpf:
    """κ_z with |ẑ_k − z_k| ≤ c·κ_z·u, for z computed as in the backends (O §3.1, eq. 27).

    The backends run x_k = fl(fl(λ₀ x_{k−1}) + 1) from x_0 = 0, then z = fl(fl(x·fl(λ₀ − g)) + 1)
    (g = ``gap_sign``). With ρ = |λ₀| ≤ 1, λ₀ ≠ 1, and X = 2/|1 − λ₀| ≥ |x_k| = |1 − λ₀^k|/|1 − λ₀|:
    - each step commits |η| ≤ (√5 + 1)u·ρX + u (complex product, Brent–Percival–Zimmermann, then
      one addition), and the errors are damped by λ₀: |x̂_k − x_k| ≤ S_k·max|η| with
      S_k = Σ_{j<k} ρ^j ≤ min(k, 1/(1 − ρ)) (S = 1/(1 − ρ) when k is None; needs ρ < 1);
    - forming z multiplies that by |λ₀ − g| and adds (√5 + 2)u·(|λ₀ − g|X + 1).
    So |ẑ − z| ≤ c·u·κ_z with κ_z = |λ₀ − g|(ρX + 1)·S_k + |λ₀ − g|X + 1 and c = C_HORIZON = 8,
    which covers √5 + 2 < 4.3, a few-ulp complex multiply or libm error and O(u²) terms.
    Conversion of a non-representable λ₀ does not enter: every step uses the same rounded λ₀.
    """
    if lam0 == ONE:
        raise ValueError("λ₀ = 1: x_{k,0} = k and z = 1 for every k")
    rho, _, _, gap, big_x = _constants(lam0, gap_sign)
    if k is None:
        if rho >= 1:
            raise ValueError("the k-independent bound needs |λ₀| < 1")
        s = 1 / (1 - rho)
    else:
        s = _MP.mpf(k) if rho >= 1 else min(_MP.mpf(k), 1 / (1 - rho))
    return _kappa_z(rho, gap, big_x, s)


# Below this unit roundoff the bound is evaluated in mpmath (float64 would underflow u).
FLOAT_BOUNDS_DOWN_TO = 2.0**-900


def recovery_tolerance(law: Timestamp, lam0: QQi, k: int, unit_roundoff: mpmath.mpf,
                       c: float = C_HORIZON) -> Any:
    """Bound on |t̂_k − c_k| for the recovered value t̂_k computed in precision u, assuming the
    statement ``law`` (c_k its claimed value; O §3.1, eq. 27). +inf where not resolvable.

    |ẑ − z| ≤ c·κ_z(k)·u (:func:`z_error_constant`) and, under the statement, |z| = ρ^{c_k}; with
    ε = c·κ_z·u/ρ^{c_k} (≤ 1/2 demanded, else +inf: the cancellation in x(λ₀ − 1) + 1 has eaten
    every bit) the logarithm of ẑ moves by |ln(1 + ε')| ≤ 2ε. Modulus form: ln|ẑ| / ln|λ₀| then
    errs by ≤ (2ε + c·u·(c_k + 1)(|ln ρ| + 1)) / |ln ρ| (rounding of |·|, of both logarithms and
    of the division). Principal Log: |δ Log z| ≤ 2ε + c·u·|Log z| with |Log z| ≤ c_k|ln ρ| + π,
    and the division adds c·u·(c_k + 1). A bound needs few digits: it is evaluated in float64
    (a float) unless u is below float64's range (then an mpmath number).
    """
    claimed = law.claimed(k)
    if lam0 in (ZERO, ONE) or claimed < 0:
        return _MP.inf
    num: Callable[[Any], Any] = float if unit_roundoff >= FLOAT_BOUNDS_DOWN_TO else _MP.mpf
    rho, ln_rho, log_lam, gap, big_x = map(num, _constants(lam0, law.gap_sign))
    u = num(unit_roundoff)
    scale = rho**claimed
    if scale == 0:
        return _MP.inf
    s = k if rho >= 1 else min(k, 1 / (1 - rho))
    eps = c * _kappa_z(rho, gap, big_x, s) * u / scale
    if eps > 0.5:
        return _MP.inf
    if law.modulus:
        if ln_rho == 0:
            return _MP.inf
        return (2 * eps + c * u * (claimed + 1) * (ln_rho + 1)) / ln_rho
    return (2 * eps + c * u * (claimed * ln_rho + num(_MP.pi) + 1)) / log_lam \
        + c * u * (claimed + 1)


def horizon_bound(law: Timestamp, lam0: QQi, unit_roundoff: mpmath.mpf,
                  cap: int = 10**8) -> int:
    """Largest K ≤ ``cap`` such that every k ≤ K has :func:`recovery_tolerance` < 1/2, i.e. every
    k ≤ K is recovered by rounding the computed value (predicted; O §3.1).

    The tolerance grows with k (ε like ρ^{−k}, the rounding terms like k), so K is found by
    bisection: cancellation in x(λ₀ − 1) + 1 = λ₀^k sets in once ρ^k ≈ u, so K ≈ log(u)/log ρ
    minus a few steps. Returns 0 when even k = 1 is unsafe.
    """
    half = _MP.mpf(1) / 2

    def ok(k: int) -> bool:
        return bool(recovery_tolerance(law, lam0, k, unit_roundoff) < half)

    if cap < 1 or not ok(1):
        return 0
    lo, hi = 1, 2
    while hi <= cap and ok(hi):
        lo, hi = hi, 2 * hi
    if hi > cap:
        if ok(cap):
            return cap
        hi = cap
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def horizon_estimate(lam0: QQi, unit_roundoff: mpmath.mpf) -> float:
    """The rough scale log(u)/log|λ₀| at which ρ^k reaches u (for reports, not for checks)."""
    rho2 = abs2(lam0)
    return float(mpmath.log(unit_roundoff) / (mpmath.log(mpmath.mpf(rho2.numerator)
                                                            / rho2.denominator) / 2))


def horizon_table(law: Timestamp, lam0: QQi) -> dict[str, Any]:
    """Predicted horizons at 24, 53 and 256 bits for a λ₀ with 0 < |λ₀| < 1 (for reports)."""
    out: dict[str, Any] = {}
    if not 0 < abs2(lam0) < 1:
        return out
    for bits in (24, 53, 256):
        u = mpmath.mpf(2) ** -bits
        out[f"predicted horizon at {bits} bits"] = horizon_bound(law, lam0, u)
        out[f"log(u)/log|λ0| at {bits} bits"] = round(horizon_estimate(lam0, u), 1)
    return out

