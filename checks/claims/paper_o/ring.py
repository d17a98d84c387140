"""O.ring: Lemma 6 (O App. B) — exp(−ν + iθ) is uniform on the annulus r_min ≤ |λ| ≤ r_max.

The statement is ``recmem.theory.ring.RingSampling`` (the sampler and the conclusion, written
once); every side reads it from ``ctx.statement``, so a negative control (the ½ in ν dropped, |λ|
uniform instead of |λ|², θ = πu₂) runs through the same checks.

- Symbolic: recmem.theory.ring.lemma6_law derives, from the statement's ν and θ, the CDF of |λ|²,
  the law of θ and the polar density, and compares them with the area-uniform law.
- Counterexample search: exact points (r_min, r_max, s, t) where P(|λ|² ≤ s) or P(θ ≤ 2πt) under
  the sampler differs from the ring's (exact SymPy numbers, theory.ring.ring_cdf_instance).
- Numeric, per arithmetic: the backend evaluates the statement's sampler itself (its own log, exp
  and cis) on exact dyadic draws (u₁, u₂), and the sample is tested against the area-uniform law:
  KS of |λ|², KS of θ and a χ² test of the joint law on an equal-area grid, combined by Bonferroni
  at the declared α. The backend's rounding is carried through the tests: each |λ| is known only
  to its a-priori error bound (points) or its enclosure (balls), and a test whose decision could
  flip within those bounds is INCONCLUSIVE. The same check evaluates the sampler at the degenerate
  corners r_min = r_max of Lemma 6's domain (the unit circle and the point 0, theory.ring.CORNERS),
  where every computed |λ|² must equal r² within its error bound.

Helper usable by other claims: :func:`lemma6_backend` (Lemma 6 in any backend's arithmetic).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import uniform_draws
from recmem.theory.ring import CORNERS, LEMMA6, RingSampling, lemma6_law, ring_cdf_instance

# Declared significance of the combined statistical test (fixed before looking at data).
ALPHA = 1e-3
# Rounded operations per node in lemma6_backend that are not amplified: conversions of u₁, r_min,
# r_max, two powers, the subtraction (benign: r_max² − r_min² ≥ 0 is multiplied by u₁ and added to
# r_min², so its absolute error is O(u)·a), the product and the sum, then exp, cis and one product.
OPS_PER_NODE = 8
# c of the relative error bound c·(OPS_PER_NODE + |ν|)·u of each computed |λ| (see kappa_of_draw).
C_ROUND = 4
# Relative error of converting a backend's value to complex128 for the statistics, and of |λ|² in
# float64 from it.
F64 = 2.0**-52
# Draws evaluated at each degenerate corner r_min = r_max of Lemma 6's domain: the law is a circle
# (or the point 0) there, and every computed |λ|² must equal r² within its error bound, a
# deterministic check that needs no large sample.
CORNER_DRAWS = 16


def lemma6_backend(backend: AbstractBackend, u1s: Sequence[Fraction], u2s: Sequence[Fraction],
                   r_min: Fraction, r_max: Fraction, law: RingSampling = LEMMA6) -> list[Any]:
    """Lemma 6's sampler (the statement ``law``, O App. B) in ``backend``'s own arithmetic.

    a = u₁(r_max² − r_min²) + r_min², ν = −½ log a, λ = exp(−ν)·e^{iθ} with e^{iθ} = e^{2πi·θ/2π}
    from the backend's ``cis_turns`` (no rounding of 2π). When the computed a is exactly 0,
    ν = +∞ and λ = 0 (a native zero).
    """
    with backend.activate():
        u1 = backend.entries(backend.vector([QQi(u) for u in u1s]))
        cis = backend.entries(backend.cis_turns([law.angle_turns(u2) for u2 in u2s]))
        rmin, rmax = backend.entries(backend.vector([QQi(r_min), QQi(r_max)]))

        consts: dict[Fraction, Any] = {}

        def const(q: Fraction) -> Any:
            # the same exact constant converts to the same backend number: convert each once
            if q not in consts:
                consts[q] = backend.entries(backend.vector([QQi(q)]))[0]
            return consts[q]

        zero = const(Fraction(0))

        def exp_i(c: Any) -> Callable[[Any, Any], Any]:
            return lambda m, _t: backend.exp(m) * c  # the turn's e^{2πit} is c, computed above

        return [law.node(x, u2, rmin, rmax, log=backend.log, exp_i=exp_i(c), const=const,
                         zero=zero)
                for x, u2, c in zip(u1, u2s, cis, strict=True)]


def draws(ctx: Context) -> tuple[list[Fraction], list[Fraction]]:
    """The claim's exact draws (u₁, u₂), paired as in numerics.nodes.ring (cached per context)."""
    if "ring_draws" not in ctx.cache:
        n = int(ctx["samples"])
        u = uniform_draws(ctx.seed, 2 * n)
        ctx.cache["ring_draws"] = (u[0::2], u[1::2])
    return ctx.cache["ring_draws"]


def kappa_of_draw(law: RingSampling, u1: Fraction, r_min: Fraction, r_max: Fraction) -> float:
    """OPS_PER_NODE + |ν| for one draw: the relative error of the computed |λ| is at most
    C_ROUND·(OPS_PER_NODE + |ν|)·u.

    a is a sum of non-negative terms (a ≥ u₁r_max² and a ≥ r_min²), so even the subtraction
    r_max² − r_min² costs only O(u) relative to a; log a then carries an absolute error O(u) plus
    its own rounding u·|log a| ≤ 2u|ν|/(2c) with c ≤ 1, and exp turns an absolute error δ of ν
    into a relative error δ of |λ|. |ν| is computed from the exact a (a few digits suffice).
    """
    a = law.log_argument(u1, r_min, r_max)
    if a == 0:
        return float(OPS_PER_NODE)  # λ = 0 exactly
    nu = law.nu(mpmath.mpf(a.numerator) / a.denominator, mpmath.log)
    return OPS_PER_NODE + float(abs(nu))  # (complex where a < 0: a sampler outside Lemma 6)


def _values(backend: AbstractBackend, lam: Sequence[Any], law: RingSampling,
            u1s: Sequence[Fraction], r_min: Fraction,
            r_max: Fraction) -> tuple[np.ndarray, np.ndarray]:
    """The sample as complex128 and a bound on the relative error of each |λ|: the enclosure's
    radius for balls, C_ROUND·(OPS_PER_NODE + |ν|)·u for points; plus the conversion."""
    mp = mpmath.MPContext()
    mp.prec = 64
    vals = np.array([complex(backend.scalar_to_mp(x, mp)) for x in lam], dtype=np.complex128)
    if backend.encloses:
        with backend.activate():
            rad = np.array([float(backend.radius(backend.vector_of([x]))) for x in lam])
        size = np.abs(vals)
        with np.errstate(divide="ignore", invalid="ignore"):  # |λ| = 0: exact or unbounded
            rel = np.where(size > 0, 2 * rad / size, np.where(rad > 0, np.inf, 0.0))
    else:
        u = float(backend.unit_roundoff)
        rel = C_ROUND * _kappas(law, u1s, r_min, r_max) * u
    return vals, rel + F64


def _kappas(law: RingSampling, u1s: Sequence[Fraction], r_min: Fraction,
            r_max: Fraction) -> np.ndarray:
    """:func:`kappa_of_draw` of every draw, memoised per (statement, draws, radii): the bound
    depends on the exact draws and the statement only, not on the arithmetic, so the point
    arithmetics of one run share it (the statement is part of the key: a control's sampler gets
    its own)."""
    key = (law, tuple(u1s), r_min, r_max)
    if key not in _KAPPAS:
        if len(_KAPPAS) >= 64:
            _KAPPAS.clear()
        _KAPPAS[key] = np.array([kappa_of_draw(law, x, r_min, r_max) for x in u1s])
    return _KAPPAS[key]


_KAPPAS: dict[Any, np.ndarray] = {}


def _ks(sample: np.ndarray, cdf: Any, shift: float) -> tuple[float, float, float]:
    """(D, p at D + shift, p at D − shift) of the KS test of ``sample`` against ``cdf``; the
    exact sample's statistic lies within ``shift`` of D."""
    from scipy import stats

    n = len(sample)
    d = float(stats.kstest(sample, cdf).statistic)
    return (d, float(stats.kstwo.sf(min(d + shift, 1.0), n)),
            float(stats.kstwo.sf(max(d - shift, 0.0), n)))


def _chi2(r2: np.ndarray, theta: np.ndarray, lo: float, hi: float, s_r: np.ndarray,
          s_t: np.ndarray, g: int) -> tuple[float, float, float, int]:
    """(χ², p at the largest and at the smallest χ² the exact sample can have, ambiguous points)
    of the joint law on a g×g grid of equal-area cells (equal steps in |λ|² and in θ).

    A point within its error bound of a cell boundary may belong to a neighbouring cell; each
    cell's count then lies within ±(ambiguous points in and around it) of the observed one.
    """
    from scipy import stats

    n = len(r2)
    fr = (r2 - lo) / (hi - lo) * g
    ft = theta / (2 * np.pi) * g
    i = np.clip(fr.astype(int), 0, g - 1)
    j = np.clip(ft.astype(int), 0, g - 1)
    counts = np.bincount(i * g + j, minlength=g * g).reshape(g, g).astype(float)
    er = s_r / (hi - lo) * g
    et = s_t / (2 * np.pi) * g
    near_r = (np.abs(fr - np.round(fr)) <= er) & (np.round(fr) > 0) & (np.round(fr) < g)
    near_t = np.abs(ft - np.round(ft)) <= et  # θ wraps: 0 and g are one boundary
    amb = np.zeros((g, g))
    np.add.at(amb, (i[near_r | near_t], j[near_r | near_t]), 1.0)
    # a cell can lose its own ambiguous points or gain those of its eight neighbours
    spread = sum(np.roll(np.roll(np.pad(amb, ((1, 1), (0, 0))), di, 0), dj, 1)[1:-1]
                 for di in (-1, 0, 1) for dj in (-1, 0, 1))
    e = n / (g * g)
    dev = np.abs(counts - e)
    chi = float(((counts - e) ** 2).sum() / e)
    chi_hi = float(((dev + spread) ** 2).sum() / e)
    chi_lo = float((np.maximum(dev - spread, 0) ** 2).sum() / e)
    df = g * g - 1
    return chi, float(stats.chi2.sf(chi_hi, df)), float(stats.chi2.sf(chi_lo, df)), int(amb.sum())


def _on_circle(r2: np.ndarray, r_sq: float, s_r: np.ndarray) -> tuple[float, bool]:
    """(largest |  |λ|² − r² |, whether every |λ|² equals r² within its error bound s_r): the law
    on a degenerate ring r_min = r_max = r (a circle; the point 0 when r = 0)."""
    dev = np.abs(r2 - r_sq)
    return float(dev.max()), bool(np.all(dev <= s_r + 4 * F64 * max(r_sq, 1e-300)))


def _corner_failures(backend: AbstractBackend, law: RingSampling, u1s: Sequence[Fraction],
                     u2s: Sequence[Fraction], skip: tuple[Fraction, Fraction]
                     ) -> tuple[list[str], dict[str, Any]]:
    """The statement's sampler at the degenerate corners r_min = r_max of Lemma 6's domain
    (:data:`recmem.theory.ring.CORNERS`: the unit circle and the point 0) other than ``skip``:
    every computed |λ|² must be r² within its error bound (as the radial test of
    :func:`statistics` demands on a circle). Returns the failures and the data."""
    bad: list[str] = []
    data: dict[str, Any] = {}
    for label, lo, hi in CORNERS:
        if lo != hi or (lo, hi) == skip or not law.admits(lo, hi):
            continue
        lam = lemma6_backend(backend, u1s, u2s, lo, hi, law)
        vals, rel = _values(backend, lam, law, u1s, lo, hi)
        r2 = np.abs(vals) ** 2
        if not (np.all(np.isfinite(r2)) and np.all(rel <= 0.5)):
            bad.append(f"{label}: values not finite or not resolved")
            data[label] = "not finite or not resolved"
            continue
        dev, ok = _on_circle(r2, float(lo * lo), 3 * rel * r2 + F64)
        data[label] = {"draws": len(u1s), "max | |λ|² − r² |": dev, "within error bounds": ok}
        if not ok:
            bad.append(f"{label}: |λ|² deviates from r² = {lo * lo} by {dev:.3g}, beyond its "
                       "error bound")
    return bad, data


def statistics(backend_name: str, values: Sequence[complex] | np.ndarray, r_min: Fraction,
               r_max: Fraction, rel_err: Sequence[float] | np.ndarray | None = None,
               check: str | None = None) -> Evidence:
    """Is the sample of λ area-uniform on the ring r_min ≤ |λ| ≤ r_max (O App. B, Lemma 6)?

    Three tests, combined by Bonferroni at the declared α: KS of |λ|² against U[r_min², r_max²]
    (|λ|² is uniform under the area law), KS of θ = arg λ against U[0, 2π), and χ² of the joint
    law on a g×g grid of equal-area cells. On the circle r_min = r_max the radial test demands
    |λ|² = r² within the error bounds. ``rel_err`` bounds the relative error of each |λ| (rounding
    of the arithmetic that computed it): every statistic is bracketed by what the exact sample
    could give, and the combined p-value with it.

    Residual: −log₁₀ of the combined p-value at its worst (a violation measure), tolerance
    −log₁₀ α: PASS when even the worst case keeps p ≥ α, FAIL (a statistical rejection, never a
    certified refutation) when even the best case has p < α, INCONCLUSIVE in between.
    """
    from scipy import stats

    t0 = time.perf_counter()
    lam = np.asarray(values, dtype=np.complex128)
    n = len(lam)
    rel = np.zeros(n) if rel_err is None else np.asarray(rel_err, dtype=float)
    check = check or f"area-uniform law on T({r_min}, {r_max}): KS |λ|², KS θ, χ² ({n} draws)"
    base = Evidence(check=check, kind="statistical", backend=backend_name,
                    outcome=Outcome.INCONCLUSIVE, instances=n,
                    tolerance=f"{-math.log10(ALPHA):.3g}",
                    tolerance_source=f"declared significance α = {ALPHA} (Bonferroni over the "
                                     "tests), residual = −log₁₀ p")
    if not np.all(np.isfinite(lam)):
        bad = int(np.sum(~np.isfinite(lam)))
        base.outcome, base.message = Outcome.FAIL, f"{bad} of {n} values are not finite"
        base.seconds = time.perf_counter() - t0
        return base
    if np.any(rel > 0.5):
        base.message = "error bounds above 1/2: this precision cannot resolve the sample"
        base.seconds = time.perf_counter() - t0
        return base
    lo, hi = float(r_min * r_min), float(r_max * r_max)
    r2 = np.abs(lam) ** 2
    s_r = 3 * rel * r2 + F64  # |(1+δ)² − 1| ≤ 3δ for δ ≤ 1/2
    theta = np.mod(np.angle(lam), 2 * np.pi)
    s_t = 2 * rel  # a relative perturbation δ ≤ 1/2 turns the argument by ≤ arcsin δ ≤ 2δ
    tests: dict[str, dict[str, Any]] = {}
    if hi > lo:
        # the conclusion's law of |λ|² (the statement's area fraction, clipped to [0, 1]); it is
        # affine in |λ|², so an error δ in |λ|² moves it by at most δ times its slope
        def cdf(s: Any) -> Any:
            return np.clip(LEMMA6.ring_cdf_r2(s, lo_r, hi_r), 0.0, 1.0)

        lo_r, hi_r = float(r_min), float(r_max)
        slope = float(LEMMA6.ring_cdf_r2(hi, lo_r, hi_r) - LEMMA6.ring_cdf_r2(lo, lo_r, hi_r)) / (
            hi - lo)
        d, p_lo, p_hi = _ks(r2, cdf, float(s_r.max()) * slope)
        tests["KS |λ|²"] = {"D": round(d, 5), "p": (p_lo, p_hi)}
    else:
        dev, ok = _on_circle(r2, lo, s_r)
        tests["|λ|² = r² (circle)"] = {"max deviation": dev, "p": (float(ok), float(ok))}
    if hi > 0:
        d, p_lo, p_hi = _ks(theta, stats.uniform(0.0, 2 * np.pi).cdf,
                            float(s_t.max()) / (2 * np.pi))
        tests["KS θ"] = {"D": round(d, 5), "p": (p_lo, p_hi)}
    g = min(8, int((n / 20) ** 0.5))  # ≥ 20 expected per cell keeps the χ² approximation sound
    if hi > lo and g >= 2:
        chi, p_lo, p_hi, amb = _chi2(r2, theta, lo, hi, s_r, s_t, g)
        tests[f"χ² {g}×{g}"] = {"chi2": round(chi, 2), "ambiguous points": amb,
                               "p": (p_lo, p_hi)}
    m = len(tests)
    worst = min(1.0, m * min(t["p"][0] for t in tests.values()))
    best = min(1.0, m * min(t["p"][1] for t in tests.values()))
    residual = math.inf if worst <= 0 else max(0.0, -math.log10(worst))
    data: dict[str, Any] = {name: {k: (f"{v[0]:.3g}" if f"{v[0]:.3g}" == f"{v[1]:.3g}" else
                                       f"[{v[0]:.3g}, {v[1]:.3g}]") if k == "p" else v
                                   for k, v in t.items()} for name, t in tests.items()}
    data |= {"combined p (Bonferroni)": [worst, best], "alpha": ALPHA,
             "max relative error of |λ|": float(rel.max())}
    if worst >= ALPHA:
        outcome, msg = Outcome.PASS, f"combined p ≥ {worst:.3g} ≥ α = {ALPHA}"
    elif best < ALPHA:
        outcome, msg = Outcome.FAIL, (f"rejected: combined p ≤ {best:.3g} < "
                                      f"α = {ALPHA}")
    else:
        outcome, msg = Outcome.INCONCLUSIVE, (
            f"combined p lies in [{worst:.3g}, {best:.3g}] ∋ α = {ALPHA} "
            "within the rounding of this arithmetic: raise the precision")
    each = ", ".join(f"{name}: p = {data[name]['p']}" for name in tests)
    base.outcome, base.message, base.data = outcome, f"{msg}, Bonferroni over {each}", data
    base.residual = "inf" if math.isinf(residual) else f"{residual:.3g}"
    base.seconds = time.perf_counter() - t0
    return base


# ---- the sides ---------------------------------------------------------------------------------

def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy derivation of the statement's law (recmem.theory.ring.lemma6_law)."""
    t0 = time.perf_counter()
    return [from_proof(lemma6_law(ctx.law(RingSampling)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The statement's sampler in ``backend`` on exact draws, its sample tested against the
    area-uniform law with the backend's rounding carried through (:func:`statistics`)."""
    law = ctx.law(RingSampling)
    r_min, r_max = ctx["r_min"], ctx["r_max"]
    if not law.admits(r_min, r_max):
        raise ValueError(f"Lemma 6 needs 0 ≤ r_min ≤ r_max ≤ 1, got {r_min}, {r_max}")
    u1s, u2s = draws(ctx)
    t0 = time.perf_counter()
    lam = lemma6_backend(backend, u1s, u2s, r_min, r_max, law)
    vals, rel = _values(backend, lam, law, u1s, r_min, r_max)
    ev = statistics(backend.name, vals, r_min, r_max, rel,
                    check=f"area-uniform law on T({r_min}, {r_max}): KS |λ|², KS θ, χ² "
                          f"({len(u1s)} draws, seed {ctx.seed}); |λ|² = r² at the degenerate "
                          "corners r_min = r_max of Lemma 6's domain")
    bad, corners = _corner_failures(backend, law, u1s[:CORNER_DRAWS], u2s[:CORNER_DRAWS],
                                    (r_min, r_max))
    ev.data["degenerate corners"] = corners
    if bad:
        ev.outcome = Outcome.FAIL
        ev.message = "; ".join(bad) + f" ({ev.message})"
    ev.precision_bits = backend.precision_bits
    ev.tolerance_source = (f"{ev.tolerance_source}; |λ| known to "
                           + ("its enclosure" if backend.encloses else
                              f"{C_ROUND}·({OPS_PER_NODE} + |ν|)·u, u = "
                              f"2^-{backend.precision_bits}"))
    ev.seconds = time.perf_counter() - t0
    return [ev]


def strategy(ctx: Context) -> Any:
    """Exact (r_min, r_max, s, t): radii in the statement's hypothesis (corners included), a level
    s ∈ [0, 1] of |λ|² and an angle t ∈ [0, 1] in turns."""
    from hypothesis import strategies as st

    law = ctx.law(RingSampling)
    radii = st.tuples(fractions_in(0, 1), fractions_in(0, 1)).map(
        lambda p: (min(p), max(p))).filter(lambda p: law.admits(*p))
    return st.tuples(radii, fractions_in(0, 1), fractions_in(0, 1)).map(
        lambda v: (v[0][0], v[0][1], v[1], v[2]))


def holds(instance: tuple[Fraction, Fraction, Fraction, Fraction], ctx: Context) -> Instance:
    """P(|λ|² ≤ s) and P(θ ≤ 2πt) under the statement's sampler vs the ring's, exactly."""
    ok, values = ring_cdf_instance(ctx.law(RingSampling), *instance)
    return Instance(ok, "exact SymPy arithmetic: the sampler's CDFs at an exact point, from the "
                        "statement's ν and θ (theory.ring.ring_cdf_instance)", values)


def validate(values: Any) -> str | None:
    """Joint parameter check: Lemma 6's hypothesis 0 ≤ r_min ≤ r_max ≤ 1."""
    if not LEMMA6.admits(values["r_min"], values["r_max"]):
        return f"Lemma 6 needs r_min ≤ r_max, got r_min = {values['r_min']} > {values['r_max']}"
    return None


CLAIMS = [
    Claim(
        id="O.ring",
        summary="Lemma 6: SymPy derivation plus KS/χ² statistics in every backend",
        title="Lemma 6: sampling the ring 𝕋(r_min, r_max)",
        statement=LEMMA6,
        provenance=Provenance(
            "O", "App. B, Lemma 6",
            "Lemma 6 Let u_1, u_2 be independent uniform random variables on the interval [0, 1]. "
            "Let 0 ≤ r_min ≤ r_max ≤ 1. Compute ν = −1/2 log(u_1(r_max^2 − r_min^2) + r_min^2) "
            "and θ = 2πu_2. Then exp(−ν + iθ) is uniformly distributed on the ring in C between "
            "circles of radii r_min and r_max. We denote this distribution as T(r_min, r_max)."),
        tolerance="exact (SymPy); statistics: KS of |λ|² and θ and χ² of the joint law, "
                  f"Bonferroni at declared α = {ALPHA}, each |λ| known to its enclosure (flint) "
                  f"or to {C_ROUND}·({OPS_PER_NODE} + |ν|)·u (points)",
        params=(p_rmin(Fraction(1, 2)), p_rmax(),
                Param("samples", 2000, "number of exact draws (u₁, u₂)", int,
                      check=at_least(2), max=10**6, cost=grows(1000))),  # ~1 kB a draw
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        validate=validate,
        notes="log is the natural logarithm (λ = exp(−ν + iθ)). Degenerate corners: r_min = r_max "
              "gives the uniform law on a circle, r_min = r_max = 0 the point 0 (ν = +∞). Swapping "
              "r_min² and r_max² throughout gives the same law (1 − u₁ is uniform), so it is no "
              "negative control.",
    ),
]
