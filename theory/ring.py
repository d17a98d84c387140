"""Lemma 6 of paper O (App. B): the ring law 𝕋(r_min, r_max), and what it implies for V_N (§3.1).

Two statements, each written once here and read by every check of its claims:

- :class:`RingSampling` — Lemma 6 as printed: u₁, u₂ ~ U[0, 1] independent, 0 ≤ r_min ≤ r_max ≤ 1,
  ν = −½ log(u₁(r_max² − r_min²) + r_min²), θ = 2πu₂; then exp(−ν + iθ) is uniform on the ring
  r_min ≤ |λ| ≤ r_max (claim ``O.ring``). Its fields are the parts of the sampling formula that a
  nearby false law changes: the ½ in ν, the power of the radii, the factor of 2π in θ, the weight
  of u₁. (Swapping r_min² and r_max² throughout, ν = −½ log(u₁(r_min² − r_max²) + r_max²), is *not*
  a false law: 1 − u₁ is uniform too, so it is no control.)
- :class:`Invertible` — §3.1: "V_N is invertible with probability one" for λ_i ~ 𝕋(r_min, r_max),
  on Lemma 6's domain (``O.invertible``) or with r_max > 0 (``O.invertible.corrected``).

The symbolic sides (:func:`lemma6_law`, :func:`invertible_proof`), the exact judges
(:func:`ring_cdf_instance`, :meth:`RingSampling.atom`) and every numeric sampler
(``numerics.nodes.lemma6_node``, ``checks.claims.paper_o.ring.lemma6_backend``) evaluate the
statement's own methods, so a control (or a planted error) changes all of them at once.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from recmem.theory.proof import Proof, decide_zero
from recmem.theory.statement import Control, Statement

HALF = Fraction(1, 2)


def _same(q: Fraction) -> Any:
    return q


def _rational(q: Fraction) -> Any:
    """An exact rational as a SymPy number (the ``const`` of the statement's methods in SymPy)."""
    import sympy as sp

    return sp.Rational(q.numerator, q.denominator)


def _sympy_exp_i(x: Any, t: Any) -> Any:
    """exp(x + 2πi·t) in SymPy, for a turn t (exact or symbolic; the ``exp_i`` of
    :meth:`RingSampling.node`)."""
    import sympy as sp

    return sp.exp(x + 2 * sp.pi * sp.I * sp.sympify(t))


def _coef_text(q: Fraction) -> str:
    return {Fraction(1): "", HALF: "½ "}.get(q, f"({q})·")


# ---- Lemma 6 -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RingSampling(Statement):
    """O App. B, Lemma 6: a sampler of the ring law and the claim that it is area-uniform.

    ν = −``nu_coeff``·log(``u1_weight``·u₁(r_max^``power`` − r_min^``power``) + r_min^``power``),
    θ = 2π·``turns``·u₂, λ = exp(−ν + iθ); the statement: λ is uniformly distributed (area
    measure) on the ring r_min ≤ |λ| ≤ r_max, for every 0 ≤ r_min ≤ r_max ≤ 1. As printed:
    nu_coeff ½, power 2, turns 1, u1_weight 1.
    """

    nu_coeff: Fraction = HALF
    power: int = 2
    turns: Fraction = Fraction(1)
    u1_weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        # ν = −log(a)/d: a unit fraction keeps ν one division of the logarithm (exact in binary
        # for d = 1, 2), in every arithmetic
        if self.nu_coeff.numerator != 1:
            raise ValueError(f"nu_coeff must be a unit fraction 1/d, got {self.nu_coeff}")

    # ---- text and controls ----------------------------------------------------------------
    @property
    def sampler_text(self) -> str:
        """The sampling formula in words (ν and θ)."""
        p = {1: "", 2: "²"}.get(self.power, f"^{self.power}")
        spread = f"u₁(r_max{p} − r_min{p})"
        if self.u1_weight == 0:
            arg = f"r_min{p}"
        else:
            w = "" if self.u1_weight == 1 else f"({self.u1_weight})·"
            arg = f"{w}{spread} + r_min{p}"
        theta = "0" if self.turns == 0 else {Fraction(1): "2πu₂", HALF: "πu₂"}.get(
            self.turns, f"2π·({self.turns})u₂")
        return f"ν = −{_coef_text(self.nu_coeff)}log({arg}), θ = {theta}"

    @property
    def text(self) -> str:
        return (f"u₁, u₂ ~ U[0, 1] independent, 0 ≤ r_min ≤ r_max ≤ 1, {self.sampler_text} ⇒ "
                "exp(−ν + iθ) is uniformly distributed on the ring r_min ≤ |λ| ≤ r_max")

    def controls(self) -> tuple[Control, ...]:
        return (
            Control("the ½ in ν dropped", replace(self, nu_coeff=Fraction(1))),
            # the near one: |λ| uniform on [r_min, r_max] instead of |λ|²; the radial KS
            # distance to the area law is only ≈ 0.08 on T(1/2, 1)
            Control("|λ| uniform instead of |λ|² (ν = −log(u₁(r_max − r_min) + r_min))",
                    replace(self, nu_coeff=Fraction(1), power=1)),
            Control("θ = πu₂ instead of 2πu₂", replace(self, turns=self.turns / 2)),
        )

    # ---- hypothesis -----------------------------------------------------------------------
    @staticmethod
    def admits(r_min: Fraction, r_max: Fraction) -> bool:
        """Lemma 6's hypothesis 0 ≤ r_min ≤ r_max ≤ 1 (exact)."""
        return 0 <= r_min <= r_max <= 1

    # ---- the sampling formula, over any arithmetic -----------------------------------------
    def log_argument(self, u1: Any, r_min: Any, r_max: Any,
                     const: Callable[[Fraction], Any] = _same) -> Any:
        """The argument of the logarithm, w·u₁(r_max² − r_min²) + r_min² with w = ``u1_weight``
        (as printed w = 1; = |λ|² then).

        Works over any arithmetic (Fractions, SymPy, mpmath, flint, numpy scalars); ``const``
        converts the statement's exact constants into it. The printed law's w = 1 is exact in
        every arithmetic, so multiplying by it leaves the printed formula's values unchanged.
        """
        p = self.power
        return const(self.u1_weight) * (u1 * (r_max**p - r_min**p)) + r_min**p

    def nu(self, a: Any, log: Callable[[Any], Any]) -> Any:
        """ν = −c·log a with c = ``nu_coeff`` = 1/d: −(log a)/d (as printed d = 2; the division
        by 2, or by 1, is exact in binary)."""
        return -(log(a) / self.nu_coeff.denominator)

    def angle_turns(self, u2: Any, const: Callable[[Fraction], Any] = _same) -> Any:
        """θ/(2π) = turns·u₂ (as printed turns = 1, exact in every arithmetic)."""
        return const(self.turns) * u2

    def node(self, u1: Any, u2: Fraction, r_min: Any, r_max: Any, *, log: Callable[[Any], Any],
             exp_i: Callable[[Any, Any], Any], const: Callable[[Fraction], Any], zero: Any) -> Any:
        """λ = exp(−ν + iθ) in one arithmetic: ``u1``, ``r_min``, ``r_max`` are its numbers, u₂ is
        exact, ``exp_i(x, t)`` = exp(x + 2πi·t) for an exact turn t.

        When the logarithm's argument is exactly 0 (r_min = r_max = 0, or u₁ = 0 with r_min = 0),
        ν = +∞ and λ = exp(−∞) = 0.
        """
        a = self.log_argument(u1, r_min, r_max, const)
        if bool(a == 0):
            return zero
        return exp_i(-self.nu(a, log), self.angle_turns(u2, _same))

    # ---- the conclusion: the area-uniform law on the ring ---------------------------------
    @staticmethod
    def ring_cdf_r2(s: Any, r_min: Any, r_max: Any) -> Any:
        """P(|λ|² ≤ s) for λ area-uniform on r_min ≤ |λ| ≤ r_max (r_min < r_max, s in the ring's
        range): the area fraction (s − r_min²)/(r_max² − r_min²); checked against the area
        integral in :func:`lemma6_law`."""
        return (s - r_min**2) / (r_max**2 - r_min**2)

    # ---- atoms (used by O.invertible) ------------------------------------------------------
    def atom_conditions(self, r_min: Any, r_max: Any,
                        const: Callable[[Fraction], Any] = _same) -> list[list[Any]]:
        """Systems of equations in (r_min, r_max), one per way the law of λ can have an atom.

        λ = exp(−ν)·e^{iθ} with |λ|² a power of the affine a(u₁) and θ = 2π·turns·u₂ independent:
        |λ| is either constant (a(0) = a(1)) or continuous, θ likewise (turns = 0 or not). An atom
        at 0 needs a ≡ 0, i.e. a(0) = a(1) = 0; an atom at c ≠ 0 needs both |λ| and θ constant.
        """
        a0 = self.log_argument(0, r_min, r_max, const)
        a1 = self.log_argument(1, r_min, r_max, const)
        systems = [[a0, a1]]
        if self.turns == 0:
            systems.append([a1 - a0])
        return systems

    def atom(self, r_min: Fraction, r_max: Fraction) -> Any | None:
        """The point of a point mass of λ at these exact radii (a SymPy number), or None when the
        law has no atom there (decided exactly from :meth:`atom_conditions`).

        At an atom every draw gives the same λ: the atom is the sampler's own value (:meth:`node`)
        at a symbolic draw (u₁, u₂), exactly in SymPy, which then depends on neither.
        """
        import sympy as sp

        if not any(all(v == 0 for v in system) for system in self.atom_conditions(r_min, r_max)):
            return None
        u1, u2 = sp.symbols("u1 u2", nonnegative=True)
        return sp.simplify(self.node(u1, u2, _rational(r_min), _rational(r_max), log=sp.log,
                                     exp_i=_sympy_exp_i, const=_rational, zero=sp.Integer(0)))


LEMMA6 = RingSampling()

# The corners of Lemma 6's domain {0 ≤ r_min ≤ r_max ≤ 1}: the unit circle, the unit disk and the
# point r_min = r_max = 0 (where the printed hypothesis of §3.1 and its correction differ), as
# (label, r_min, r_max). The numeric sides of O.ring and O.invertible evaluate the statement there.
CORNERS: tuple[tuple[str, Fraction, Fraction], ...] = (
    ("unit circle r_min = r_max = 1", Fraction(1), Fraction(1)),
    ("unit disk r_min = 0, r_max = 1", Fraction(0), Fraction(1)),
    ("corner r_min = r_max = 0", Fraction(0), Fraction(0)))


@functools.cache
def _polar(law: RingSampling) -> dict[str, Any]:
    """|λ|² and θ as SymPy functions of (u₁, u₂), derived from the statement's own formula.

    Symbols: r_min ≥ 0 and e = r_max − r_min > 0 (the non-degenerate ring), s > 0 a value of |λ|².
    ``a_inv``: the value a of the logarithm's argument with |λ|² = s (solved from exp(−2ν(a)) = s);
    ``cdf``: P(|λ|² ≤ s) on the image (a is affine and monotone in u₁, so the CDF is the solved
    u₁, or 1 − u₁ for a decreasing a); None where the law is degenerate or the solve fails.
    """
    import sympy as sp

    u1, u2 = sp.symbols("u1 u2", nonnegative=True)
    r_min = sp.Symbol("r_min", nonnegative=True)
    e = sp.Symbol("e", positive=True)
    s = sp.Symbol("s", positive=True)
    big_a = sp.Symbol("A", positive=True)
    r_max = r_min + e
    a = law.log_argument(u1, r_min, r_max, _rational)
    rho2_of_a = sp.simplify(sp.exp(-2 * law.nu(big_a, sp.log)))
    roots = sp.solve(sp.Eq(rho2_of_a, s), big_a)
    a_inv = roots[0] if len(roots) == 1 else None
    slope = sp.expand(sp.diff(a, u1))
    cdf = None
    if a_inv is not None and slope != 0:
        sol = sp.solve(sp.Eq(a, a_inv), u1)
        if len(sol) == 1:
            cdf = sol[0] if slope.is_positive else (1 - sol[0]) if slope.is_negative else None
    return {"u1": u1, "u2": u2, "r_min": r_min, "e": e, "r_max": r_max, "s": s, "A": big_a,
            "a": a, "rho2_of_a": rho2_of_a, "rho2": rho2_of_a.subs(big_a, a), "a_inv": a_inv,
            "slope": slope, "cdf": cdf,
            "theta": 2 * sp.pi * law.angle_turns(u2, _rational)}


def lemma6_law(law: RingSampling = LEMMA6) -> Proof:
    """Decide Lemma 6 (O App. B) for the sampler ``law``: is exp(−ν + iθ) area-uniform on the ring?

    Derivation (SymPy, symbolic r_min ≥ 0 and e = r_max − r_min > 0, from the statement's ν and θ):

    1. |λ|² = exp(−2ν) as a function of u₁; its image [|λ|²(u₁=0), |λ|²(u₁=1)] must be
       [r_min², r_max²] (the ring's support).
    2. P(|λ|² ≤ s) from the transformation (solve |λ|² = s for u₁; the argument of the log is
       affine and monotone in u₁) must equal the area fraction (s − r_min²)/(r_max² − r_min²),
       itself checked against ∫_{r_min}^{√s} 2πx dx / ∫_{r_min}^{r_max} 2πx dx.
    3. θ = 2π·turns·u₂ must be uniform on [0, 2π): its range must end at 2π.
    4. The Jacobian of (u₁, u₂) ↦ (|λ|, θ) must give the area-uniform polar density
       |λ|/(π(r_max² − r_min²)); |λ| depends on u₁ only and θ on u₂ only (independence).
    5. Degenerate corner r_min = r_max = r: |λ|² must be r² (uniform on the circle; the point 0
       when r = 0, where ν = +∞).

    Any difference that SymPy reduces to a nonzero value, or that is nonzero at an exact point
    (r_min = 1/2, r_max = 1, s = 1/2 and r_min = 0, r_max = 1, s = 1/4), disproves the statement
    and is returned as the counterexample. A general proof (all 0 ≤ r_min ≤ r_max ≤ 1) otherwise.
    """
    import sympy as sp

    t0 = time.perf_counter()
    sym = _polar(law)
    r_min, e, s, u1, u2 = sym["r_min"], sym["e"], sym["s"], sym["u1"], sym["u2"]
    r_max = sym["r_max"]
    half = sp.Rational(1, 2)
    points = [{r_min: half, e: half, s: half}, {r_min: sp.Integer(0), e: sp.Integer(1),
                                                 s: sp.Rational(1, 4)}]
    details: dict[str, Any] = {}

    def finish(holds: bool | None, why: str, witness: dict[str, Any] | None = None) -> Proof:
        details["seconds"] = round(time.perf_counter() - t0, 3)
        return Proof(holds, "0 ≤ r_min ≤ r_max ≤ 1, symbolic in r_min and r_max (non-degenerate "
                     "ring: CDF of |λ|², law of θ, joint polar density; r_min = r_max = r: the "
                     "circle |λ| = r, the point 0 when r = 0)",
                     "SymPy: pushforward of (u₁, u₂) through the statement's ν and θ vs the "
                     "area-uniform law (recmem.theory.ring.lemma6_law); " + why,
                     counterexample=witness, details=details, general=True)

    if law.turns > 1 or law.turns < 0:
        return finish(None, f"θ = 2π·{law.turns}·u₂ wraps around the circle: not derived")
    area = sp.integrate(2 * sp.pi * sp.Symbol("x"), (sp.Symbol("x"), r_min, sp.sqrt(s))) / \
        sp.integrate(2 * sp.pi * sp.Symbol("x"), (sp.Symbol("x"), r_min, r_max))
    target = law.ring_cdf_r2(s, r_min, r_max)
    rho2 = sym["rho2"]
    lo, hi = rho2.subs(u1, 0), rho2.subs(u1, 1)
    if sym["slope"].is_negative:
        lo, hi = hi, lo
    rho = sp.sqrt(rho2)
    theta = sym["theta"]
    jac = sp.Matrix([[sp.diff(rho, u1), sp.diff(rho, u2)],
                     [sp.diff(theta, u1), sp.diff(theta, u2)]]).det()
    checks: list[tuple[str, Any]] = [
        ("area fraction = area integral ratio", target - area),
        ("inf |λ|² = r_min²", lo - r_min**2),
        ("sup |λ|² = r_max²", hi - r_max**2),
    ]
    def first_failure(steps: list[tuple[str, Any]]) -> Proof | None:
        """The proof's outcome at the first step SymPy disproves or cannot decide."""
        for name, diff in steps:
            ok, witness = decide_zero(diff, points)
            details[name] = ok
            if ok is False:
                return finish(False, f"{name} fails", {"check": name, **witness})
            if ok is None:
                return finish(None, f"{name}: SymPy could not decide", None)
        return None

    if (stop := first_failure(checks)) is not None:
        return stop
    cdf = sym["cdf"]
    if cdf is None:
        return finish(None, "the CDF of |λ|² could not be solved from the statement's ν")
    details["CDF of |λ|² (derived)"] = str(sp.simplify(cdf))
    later: list[tuple[str, Any]] = [
        ("P(|λ|² ≤ s) = area fraction", cdf - target),
        ("θ ranges over [0, 2π)", theta.subs(u2, 1) - 2 * sp.pi),
        ("θ starts at 0", theta.subs(u2, 0)),
        ("|Jacobian| = area density", sp.Abs(1 / jac) - rho / (sp.pi * (r_max**2 - r_min**2))
         if jac != 0 else sp.Integer(1)),
        ("r_min = r_max: |λ|² = r_min²", rho2.subs(e, 0) - r_min**2),
    ]
    if (stop := first_failure(later)) is not None:
        return stop
    independent = not (rho.free_symbols & {u2}) and not (theta.free_symbols & {u1})
    details["|λ| depends on u₁ only, θ on u₂ only"] = independent
    if not independent:  # pragma: no cover - the statement's form keeps them apart
        return finish(None, "|λ| and θ are not functions of separate draws")
    return finish(True, "every step reduces to 0")


def ring_cdf_instance(law: RingSampling, r_min: Fraction, r_max: Fraction, s: Fraction,
                      t: Fraction) -> tuple[bool | None, dict[str, str]]:
    """Lemma 6 at one exact point: P(|λ|² ≤ s) and P(θ ≤ 2πt) under the sampler ``law`` vs the
    area-uniform law on the ring r_min ≤ |λ| ≤ r_max (exact SymPy numbers).

    The sampler's probabilities come from the statement's formula: a(u₁) is affine, so
    P(|λ|² ≤ s) = P(a(u₁) ≤ a*) with a* solved from exp(−2ν(a*)) = s (:func:`_polar`), and
    θ = 2π·turns·u₂ gives P(θ ≤ 2πt) = min(t/turns, 1). Returns (agree, values).
    """
    import sympy as sp

    sym = _polar(law)
    q = _rational
    a0 = q(law.log_argument(Fraction(0), r_min, r_max))
    a1 = q(law.log_argument(Fraction(1), r_min, r_max))
    sv, tv = q(s), q(t)

    def clip(x: Any) -> Any:
        return sp.Min(sp.Max(x, 0), 1)

    if a0 == a1:  # |λ|² is the constant exp(−2ν(a0)) (0 when a ≡ 0)
        const = sp.Integer(0) if a0 == 0 else sym["rho2_of_a"].subs(sym["A"], a0)
        sampler_r = sp.Integer(1) if const <= sv else sp.Integer(0)
    else:
        if sym["a_inv"] is None:
            return None, {"why": "exp(−2ν(a)) = s could not be solved for a"}
        a_star = sym["a_inv"].subs(sym["s"], sv) if sv > 0 else sp.Integer(0)
        sampler_r = clip((a_star - a0) / (a1 - a0)) if a1 > a0 else clip((a0 - a_star) / (a0 - a1))
    lo, hi = q(r_min) ** 2, q(r_max) ** 2
    ring_r = (sp.Integer(1) if lo <= sv else sp.Integer(0)) if lo == hi else \
        clip(law.ring_cdf_r2(sv, q(r_min), q(r_max)))
    if law.turns <= 0:
        sampler_t = sp.Integer(1)  # θ ≡ 0
    elif law.turns <= 1:
        sampler_t = sp.Min(tv / q(law.turns), 1)
    else:
        return None, {"why": "θ wraps around the circle"}
    values = {"r_min": str(r_min), "r_max": str(r_max), "s": str(s), "t": str(t),
              "P(|λ|² ≤ s) (sampler)": str(sampler_r),
              "P(|λ|² ≤ s) (ring)": str(ring_r)}
    diffs = [sp.simplify(sampler_r - ring_r)]
    if r_max > 0:  # the ring is the point 0 when r_max = 0: no angle to compare
        values |= {"P(θ ≤ 2πt) (sampler)": str(sampler_t), "P(θ ≤ 2πt) (ring)": str(tv)}
        diffs.append(sp.simplify(sampler_t - tv))
    if all(d == 0 for d in diffs):
        return True, values
    if any(d.is_zero is False for d in diffs):
        return False, values
    return None, values


# ---- §3.1: V_N invertible with probability one -------------------------------------------------

@dataclass(frozen=True)
class Invertible(Statement):
    """O §3.1: V_N (N×N, eq. 4) is invertible with probability one for λ_1, …, λ_N ~ 𝕋(r_min, r_max)
    independent, for every (r_min, r_max) of the hypothesis: Lemma 6's 0 ≤ r_min ≤ r_max ≤ 1
    (as printed), and r_max > 0 when ``rmax_positive`` (the correction). ``law`` is Lemma 6's
    sampler (:class:`RingSampling`)."""

    law: RingSampling = LEMMA6
    rmax_positive: bool = False

    @property
    def text(self) -> str:
        hyp = "0 ≤ r_min ≤ r_max ≤ 1" + (" with r_max > 0" if self.rmax_positive else "")
        return (f"V_N (N × N, rows (λ_i^(N−1), …, λ_i, 1)) is invertible with probability one when "
                f"λ_1, …, λ_N ~ T(r_min, r_max) are independent, for every {hyp}; T by Lemma 6: "
                f"{self.law.sampler_text}, λ = exp(−ν + iθ)")

    def controls(self) -> tuple[Control, ...]:
        out = []
        if self.rmax_positive:
            out.append(Control("hypothesis widened to r_max ≥ 0",
                               replace(self, rmax_positive=False)))
        # near: one term of Lemma 6's sampler dropped, which puts an atom on an edge of the domain
        out.append(Control("θ = 2πu₂ dropped from the sampler (θ = 0)",
                           replace(self, law=replace(self.law, turns=Fraction(0)))))
        out.append(Control("u₁ dropped from ν (|λ| = r_min)",
                           replace(self, law=replace(self.law, u1_weight=Fraction(0)))))
        return tuple(out)

    def admits(self, r_min: Fraction, r_max: Fraction) -> bool:
        """The hypothesis, exactly: Lemma 6's domain, and r_max > 0 for the correction."""
        return self.law.admits(r_min, r_max) and (r_max > 0 or not self.rmax_positive)

    def corners(self) -> list[tuple[str, Fraction, Fraction]]:
        """The corners of Lemma 6's domain (:data:`CORNERS`) that the hypothesis admits."""
        return [(label, lo, hi) for label, lo, hi in CORNERS if self.admits(lo, hi)]


def singular_draw(law: RingSampling, n: int, r_min: Fraction,
                  r_max: Fraction) -> dict[str, Any] | None:
    """Where the law has a point mass at these radii: the exact V_N of N copies of the atom and
    its determinant (SymPy), which is 0 for N ≥ 2; None when the law has no atom there."""
    import sympy as sp

    atom = law.atom(r_min, r_max)
    if atom is None:
        return None
    v = sp.Matrix([[atom ** (n - 1 - j) for j in range(n)] for _ in range(n)])
    return {"N": n, "r_min": str(r_min), "r_max": str(r_max),
            "atom": str(atom), "nodes": [str(atom)] * n,
            "V_N": [[str(x) for x in v.row(i)] for i in range(n)], "det": str(v.det())}


def _candidates(solution: dict[Any, Any], r_min: Any, r_max: Any,
                values: Sequence[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """Exact (r_min, r_max) points of a SymPy solution set, its free symbols set to ``values``."""
    free = sorted(({r_min, r_max} - set(solution)) | set().union(
        *(v.free_symbols for v in solution.values())), key=str)
    out = []
    for combo in itertools.product(values, repeat=len(free)):
        sub = {f: _rational(c) for f, c in zip(free, combo, strict=True)}
        point = [(solution.get(x, x)).subs(sub) for x in (r_min, r_max)]
        if all(p.is_Rational for p in point):
            out.append((Fraction(int(point[0].p), int(point[0].q)),
                        Fraction(int(point[1].p), int(point[1].q))))
    return out


def invertible_proof(statement: Invertible, n_max_symbolic: int = 6) -> Proof:
    """Decide §3.1's "V_N invertible with probability one" (O §3.1 with App. B Lemma 6).

    1. SymPy solves, for each way the law of λ can have an atom
       (:meth:`RingSampling.atom_conditions`), the system in (r_min, r_max) ≥ 0.
    2. A solution point that the statement's hypothesis admits (free parameters tried at 1, 1/2,
       0) disproves the statement: there λ is a point mass, N = 2 draws coincide with probability
       one and det V_2 = 0 exactly (counterexample with the exact V_2).
    3. If every solution is an isolated point outside the hypothesis, the law is atomless on the
       whole domain; then for independent λ_i, λ_j, P(λ_i = λ_j) = E[P(λ_j = c)|_{c=λ_i}] = 0, a
       union over the N(N−1)/2 pairs keeps probability 0, and O.det's identity
       det V_N = Π_{i<j}(λ_i − λ_j) (recmem.theory.vandermonde.det_identity) is ≠ 0 for distinct
       nodes: a proof for all N. A parametric solution no candidate lands in leaves it undecided.
    """
    import sympy as sp

    t0 = time.perf_counter()
    rmin, rmax = sp.symbols("r_min r_max", nonnegative=True)
    law = statement.law
    solved: list[tuple[list[Any], dict[Any, Any]]] = []
    for system in law.atom_conditions(rmin, rmax, _rational):
        eqs = [sp.expand(x) for x in system if sp.expand(x) != 0]
        for sol in sp.solve(eqs, [rmin, rmax], dict=True) if eqs else [{}]:
            solved.append((eqs, sol))
    for eqs, sol in solved:
        for r_lo, r_hi in _candidates(sol, rmin, rmax, (Fraction(1), HALF, Fraction(0))):
            if statement.admits(r_lo, r_hi):
                cx = singular_draw(law, 2, r_lo, r_hi)
                assert cx is not None
                return Proof(False, f"the hypothesis point r_min = {r_lo}, r_max = {r_hi}",
                             "SymPy: the law of λ has an atom where "
                             f"{' = '.join(map(str, eqs)) or 'always'} = 0; exact det V_2",
                             counterexample={**cx, "why": "the law of λ is a point mass there: "
                                             "every node is the same number, so V_N has "
                                             "identical rows"},
                             details={"atom system": str(eqs), "solution": str(sol),
                                      "seconds": round(time.perf_counter() - t0, 3)})
    excluded: list[str] = []
    for eqs, sol in solved:
        if ({rmin, rmax} - set(sol)) or any(v.free_symbols for v in sol.values()):
            return Proof(None, "Lemma 6's domain", "SymPy: atoms on the solution set "
                         f"{sol} of {eqs}: no tried point lies in the hypothesis, which does not "
                         "show that none does")
        excluded.append(f"{sol} (outside the hypothesis)")
    from recmem.theory.vandermonde import det_identity

    det = det_identity(n_max_symbolic)
    if det.holds is not True:
        # undecided → undecided; O.det's identity decided false (a disproof or a failed step of
        # its derivation) → this derivation used a false step: a failed derivation (FAILED)
        failed = det.failed_step or ({"step": "O.det's identity det V_N = Π(λ_i − λ_j)",
                                      "value": "; ".join(f"{k} = {v}" for k, v in
                                                         (det.counterexample or {}).items())}
                                     if det.holds is False else None)
        return Proof(None, "atomless law", "O.det's identity is not proved here: "
                     f"{det.method}", details={"det identity": str(det.holds)},
                     failed_step=failed)
    hyp = "0 ≤ r_min ≤ r_max ≤ 1" + (", r_max > 0" if statement.rmax_positive else "")
    return Proof(True, f"{hyp}, all N ≥ 1 (argument in recmem.theory.ring.invertible_proof; det "
                 f"identity: {det.scope})",
                 "SymPy: the law of λ has atoms only at " + ("; ".join(excluded) or "no point")
                 + " ⇒ nodes distinct a.s. ⇒ det V_N = Π(λ_i − λ_j) ≠ 0 (O.det)",
                 details={"atoms at": "; ".join(excluded), "det identity": det.scope,
                          "seconds": round(time.perf_counter() - t0, 3)}, general=True)
