"""O.ring: Lemma 6 (O App. B) — exp(−ν + iθ) is uniform on the annulus r_min ≤ |λ| ≤ r_max.

Symbolic side: recmem.theory.ring.lemma6_law (CDF of |λ| and joint polar density by SymPy).
Numeric side, per backend: the backend evaluates Lemma 6 itself (its own log, exp and cis) from the
same exact dyadic draws (u₁, u₂); the values are compared with a high-precision reference
(condition-scaled, or by enclosure for ball arithmetic), and the backend's sample is tested for
uniformity (KS tests of |λ|² and θ, and a χ² test of the joint law on an equal-area grid).

Helper usable by other claims: :func:`lemma6_backend` (Lemma 6 in any backend's arithmetic).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.numeric import identity_check
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import uniform_draws
from recmem.theory.ring import lemma6_argument

# Declared significance of every statistical test of this claim (fixed before looking at data).
ALPHA = 1e-3
# Rounded operations per node in lemma6_backend: conversions of u₁, r_min, r_max, two squares, a
# subtraction, a product and a sum, then log, exp, cis and one complex product; the n of c·n·κ·u.
OPS_PER_NODE = 8


def lemma6_backend(backend: AbstractBackend, u1s: Sequence[Fraction], u2s: Sequence[Fraction],
                   r_min: Fraction, r_max: Fraction) -> list[Any]:
    """Lemma 6 (O App. B) evaluated in ``backend``'s own arithmetic from exact draws.

    a = u₁(r_max² − r_min²) + r_min², ν = −½ log a, λ = exp(−ν)·e^{iθ} with e^{iθ} = e^{2πiu₂}
    from the backend's ``cis_turns`` (no rounding of 2π). When the computed a is exactly 0
    (r_min = r_max = 0, or u₁ = 0 with r_min = 0) ν = +∞ and λ = exp(−∞) = 0, the convention of
    ``numerics.nodes.lemma6_node``; ball arithmetic has no −∞, so the case is taken explicitly.
    """
    with backend.activate():
        u1 = backend.entries(backend.vector([QQi(u) for u in u1s]))
        cis = backend.entries(backend.cis_turns(list(u2s)))
        rmin, rmax = backend.entries(backend.vector([QQi(r_min), QQi(r_max)]))
        d = rmax * rmax - rmin * rmin
        r2 = rmin * rmin
        out = []
        for x, c in zip(u1, cis, strict=True):
            a = x * d + r2
            if bool(a == 0):
                out.append(a * c)  # exp(−∞) = 0, as a native zero
                continue
            nu = -backend.log(a) / 2
            out.append(backend.exp(-nu) * c)
        return out


def draws(ctx: Context) -> tuple[list[Fraction], list[Fraction]]:
    """The claim's exact draws (u₁, u₂), paired as in numerics.nodes.ring (cached per context)."""
    if "ring_draws" not in ctx.cache:
        n = int(ctx["samples"])
        u = uniform_draws(ctx.seed, 2 * n)
        ctx.cache["ring_draws"] = (u[0::2], u[1::2])
    return ctx.cache["ring_draws"]


def reference(ctx: Context, bits: int) -> list[QQi]:
    """Lemma 6 as printed, λ = exp(−ν + iθ) with θ = 2πu₂, in flint balls at ``bits`` bits.

    The same formula as numerics.nodes.lemma6_node (exp of the complex exponent, π from arb), but
    in ball arithmetic, which is about ten times faster than mpmath here; the ball midpoints are
    returned as exact dyadics (their radius, ~2^-bits relative, is far below any float tolerance).
    Cached per precision.
    """
    import flint

    key = f"ring_ref_{bits}"
    if key not in ctx.cache:
        u1s, u2s = draws(ctx)
        out = []
        with flint.ctx.workprec(bits):
            for u1, u2 in zip(u1s, u2s, strict=True):
                a = lemma6_argument(u1, ctx["r_min"], ctx["r_max"])  # exact
                if a == 0:
                    out.append(QQi(Fraction(0)))  # ν = +∞: exp(−∞) = 0
                    continue
                nu = -flint.arb(flint.fmpq(a.numerator, a.denominator)).log() / 2
                theta = 2 * flint.arb.pi() * flint.arb(flint.fmpq(u2.numerator, u2.denominator))
                lam = flint.acb(-nu, theta).exp()
                out.append(QQi(_arb_mid(lam.real), _arb_mid(lam.imag)))
        ctx.cache[key] = out
    return ctx.cache[key]


def _arb_mid(x: Any) -> Fraction:
    man, exp = x.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def kappa(ctx: Context) -> mpmath.mpf:
    """κ of Lemma 6's map at the drawn points: 1 + max |ν|.

    a is a sum of non-negative terms (a ≥ u₁r_max² and a ≥ r_min², so even the subtraction
    r_max² − r_min² costs only O(u) relative to a); log a then carries an absolute error O(u)
    plus its own rounding u·|log a| = 2u|ν|, and exp turns an absolute error δ of ν into a relative
    error δ of |λ|. So the relative error of each λ is at most about (OPS_PER_NODE + |ν|)·u, which
    grows only near u₁ → 0 with r_min = 0 (ν → +∞).
    """
    if "ring_kappa" not in ctx.cache:
        # |ν| = ½|log a| with a = u₁(r_max² − r_min²) + r_min² exact: κ needs only a few digits.
        worst = mpmath.mpf(0)
        for u1 in draws(ctx)[0]:
            a = lemma6_argument(u1, ctx["r_min"], ctx["r_max"])
            if a != 0:
                worst = max(worst, abs(mpmath.log(mpmath.mpf(a.numerator) / a.denominator)) / 2)
        ctx.cache["ring_kappa"] = 1 + worst
    return ctx.cache["ring_kappa"]


def _reference_in(backend: AbstractBackend, ctx: Context) -> Any:
    """The reference as a native vector: an enclosure for ball arithmetic, else mpmath rounded once."""
    u1s, u2s = draws(ctx)
    if backend.encloses:
        hi = make_backend(BackendSpec("flint", bits=2 * backend.precision_bits))
        with hi.activate():
            vals = lemma6_backend(hi, u1s, u2s, ctx["r_min"], ctx["r_max"])
            return hi.vector_of(vals)
    return backend.vector(reference(ctx, max(128, backend.precision_bits + 64)))


def _values(backend: AbstractBackend, vec: Any) -> list[complex]:
    mp = mpmath.MPContext()
    mp.prec = 64
    m = backend.to_mp(vec, mp)
    return [complex(m[i, 0]) for i in range(m.rows)]


def statistics(backend_name: str, values: Sequence[complex], r_min: Fraction,
               r_max: Fraction) -> list[Evidence]:
    """Uniformity tests of a sample of λ (O App. B, Lemma 6) at significance ALPHA.

    KS of |λ|² against U[r_min², r_max²] (|λ|² is uniform under the area law), KS of θ = arg λ
    against U[0, 2π), and a χ² test of the joint law on a g×g grid of cells of equal area
    (equal steps in |λ|² and in θ). A p-value below ALPHA is a statistical rejection (FAIL), never a
    certified refutation.
    """
    import numpy as np
    from scipy import stats

    t0 = time.perf_counter()
    lam = np.asarray(values, dtype=np.complex128)
    n = len(lam)
    lo, hi = float(r_min * r_min), float(r_max * r_max)
    r2 = np.abs(lam) ** 2
    theta = np.mod(np.angle(lam), 2 * np.pi)
    out: list[Evidence] = []

    def ev(check: str, p: float | None, message: str, **data: Any) -> Evidence:
        if p is None:
            return Evidence(check=check, kind="statistical", backend=backend_name,
                            outcome=Outcome.SKIPPED, instances=n, message=message,
                            seconds=time.perf_counter() - t0)
        return Evidence(check=check, kind="statistical", backend=backend_name,
                        outcome=Outcome.PASS if p >= ALPHA else Outcome.FAIL, instances=n,
                        tolerance=f"p ≥ α = {ALPHA}", tolerance_source="declared significance",
                        residual=mpmath.nstr(p, 3), message=message,
                        data={"p_value": float(p), "alpha": ALPHA, **data},
                        seconds=time.perf_counter() - t0)

    if hi > lo:
        ks = stats.kstest(r2, "uniform", args=(lo, hi - lo))
        out.append(ev("KS: |λ|² ~ U[r_min², r_max²]", float(ks.pvalue),
                      f"D = {ks.statistic:.4f}, p = {ks.pvalue:.3g} ({n} draws)",
                      statistic=float(ks.statistic)))
    else:
        out.append(ev("KS: |λ|² ~ U[r_min², r_max²]", None,
                      "degenerate ring r_min = r_max: |λ| is constant (checked against the "
                      "reference instead)"))
    if hi > 0:
        ks = stats.kstest(theta, "uniform", args=(0.0, 2 * np.pi))
        out.append(ev("KS: θ ~ U[0, 2π)", float(ks.pvalue),
                      f"D = {ks.statistic:.4f}, p = {ks.pvalue:.3g} ({n} draws)",
                      statistic=float(ks.statistic)))
    else:
        out.append(ev("KS: θ ~ U[0, 2π)", None, "r_max = 0: λ = 0, no angle"))
    g = min(8, int((n / 20) ** 0.5))  # ≥ 20 expected per cell keeps the χ² approximation sound
    if hi > lo and g >= 2:
        i = np.clip(((r2 - lo) / (hi - lo) * g).astype(int), 0, g - 1)
        j = np.clip((theta / (2 * np.pi) * g).astype(int), 0, g - 1)
        counts = np.bincount(i * g + j, minlength=g * g)
        chi = stats.chisquare(counts)
        out.append(ev(f"χ²: joint law on a {g}×{g} equal-area grid", float(chi.pvalue),
                      f"χ² = {chi.statistic:.1f} on {g * g - 1} d.o.f., p = {chi.pvalue:.3g}",
                      statistic=float(chi.statistic), grid=g))
    else:
        out.append(ev("χ²: joint law on an equal-area grid", None,
                      "degenerate ring or too few draws for a grid"))
    return out


def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy derivation of Lemma 6's law (recmem.theory.ring.lemma6_law)."""
    from recmem.theory.ring import lemma6_law

    t0 = time.perf_counter()
    return [from_proof(lemma6_law(), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Lemma 6 in ``backend`` vs a high-precision reference, then uniformity tests of its sample."""
    r_min, r_max = ctx["r_min"], ctx["r_max"]
    if r_min > r_max:
        raise ValueError(f"Lemma 6 needs r_min ≤ r_max, got {r_min} > {r_max}")
    u1s, u2s = draws(ctx)
    k = kappa(ctx)
    lam_cache: dict[int, Any] = {}

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lam = b.vector_of(lemma6_backend(b, u1s, u2s, r_min, r_max))
        lam_cache[b.precision_bits] = lam
        return lam, _reference_in(b, ctx)

    acc = identity_check(f"Lemma 6 in-backend vs reference, {len(u1s)} draws, "
                         f"T({r_min}, {r_max}), seed {ctx.seed}", backend, compute,
                         kappa=k, n=OPS_PER_NODE, instances=len(u1s))
    lam = lam_cache[backend.precision_bits]
    return [acc, *statistics(backend.name, _values(backend, lam), r_min, r_max)]


def validate(values: Any) -> str | None:
    """Joint parameter check: Lemma 6 needs r_min ≤ r_max."""
    if values["r_min"] > values["r_max"]:
        return f"Lemma 6 needs r_min ≤ r_max, got r_min = {values['r_min']} > {values['r_max']}"
    return None


CLAIMS = [
    Claim(
        id="O.ring",
        title="Lemma 6: sampling the ring 𝕋(r_min, r_max)",
        statement="u₁, u₂ ~ U[0,1], ν = −½ log(u₁(r_max²−r_min²)+r_min²), θ = 2πu₂ ⇒ exp(−ν+iθ) "
                  "is uniformly distributed on the ring r_min ≤ |λ| ≤ r_max "
                  "(0 ≤ r_min ≤ r_max ≤ 1)",
        provenance=Provenance(
            "O", "App. B, Lemma 6",
            "Lemma 6 Let u_1, u_2 be independent uniform random variables on the interval [0, 1]. "
            "Let 0 ≤ r_min ≤ r_max ≤ 1. Compute ν = −1/2 log(u_1(r_max^2 − r_min^2) + r_min^2) "
            "and θ = 2πu_2. Then exp(−ν + iθ) is uniformly distributed on the ring in C between "
            "circles of radii r_min and r_max. We denote this distribution as T(r_min, r_max)."),
        tolerance="exact (SymPy); enclosure (flint); c·n·κ·u with κ = 1 + max|ν| (points); "
                  f"statistics: KS and χ² at declared α = {ALPHA}",
        params=(p_rmin(Fraction(1, 2)), p_rmax(),
                Param("samples", 2000, "number of exact draws (u₁, u₂)", int,
                      check=at_least(2))),
        symbolic=symbolic,
        numeric=numeric,
        validate=validate,
        notes="log is the natural logarithm (λ = exp(−ν + iθ)). Degenerate corners: r_min = r_max "
              "gives the uniform law on a circle, r_min = r_max = 0 the point 0 (ν = +∞).",
    ),
]
