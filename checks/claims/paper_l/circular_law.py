"""L.theorem1: the strong circular law (L §3.2.2, Theorem 1, cited), decided at finite N by ground
rule 2 (CLAIMS.md): a statistical study with its convergence trend.

Statement: recmem.theory.lru_spectrum.CircularLaw. Per arithmetic (numpy, torch; float64 and
float32), R draws of A_N (i.i.d. N(0, variance/N), rounded to 24-bit significands so every
arithmetic sees the same matrices) at each N of a ladder; the arithmetic's eigensolver gives the
spectrum. Two statistical checks: (1) the radial moments (1/N)Σ|λ|² and (1/N)Σ|λ|⁴, extrapolated
to N → ∞ by y = a + c/N, must match the limit law's ∫|z|²dμ, ∫|z|⁴dμ: PASS when each (1 − α)
interval of a lies within ±δ of it, FAIL when one excludes it; (2) the KS distance of |λ|² to the
limit law falls as N grows (one-sided Kendall trend test, numerics.studies). mpmath and flint are
skipped: an eigensolver's rounding (≲ 10⁻⁵ here) is far below the statistical tolerance.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, by_arithmetic
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_harness_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_spectral_stats import extrapolate, radial_stats
from recmem.numerics.studies import trend_test
from recmem.theory.lru_spectrum import CIRCULAR_LAW, CircularLaw, limit_moment_proof

QUOTE = (r"Theorem 1 (Strong circular law). Let $\mu_{N}$ be the empirical spectral measure of "
         r"$A_{N}$, where $A_{N}$ is a real $N\times N$ matrix with i.i.d. Gaussian entries, each "
         r"with zero mean and variance $1/N$. Then, $\mu_{N}$ converges weakly almost surely as "
         r"$N\rightarrow\infty$ to the uniform probability measure on "
         r"$\{|z|\leq 1\}\subseteq\mathbb{C}$.")
ALPHA = 1e-3
DELTA = {1: 0.15, 2: 0.25}  # declared equivalence margins of the two extrapolated moments
NS = (8, 16, 32, 64)


@functools.cache
def _matrices(variance: Fraction, draws: int, seed: int) -> tuple[tuple[int, np.ndarray], ...]:
    """(N, A_N) for every N of the ladder and draw: float64 arrays of 24-bit significands."""
    out = []
    for n in NS:
        for r in range(draws):
            g = np.random.default_rng([seed, n, r]).standard_normal((n, n))
            out.append((n, (g * np.sqrt(float(variance) / n)).astype(np.float32).astype(float)))
    return tuple(out)


@functools.cache
def _spectra(backend_name: str, kind: str, dtype: str, variance: Fraction, draws: int,
             seed: int) -> tuple[tuple[int, np.ndarray], ...]:
    """Eigenvalues of every matrix by the arithmetic's eigensolver (shared with the controls
    that keep the variance)."""
    out = []
    for n, a in _matrices(variance, draws, seed):
        if kind == "numpy":
            w = np.linalg.eigvals(a.astype(np.float32 if dtype == "float32" else np.float64))
        else:
            import torch

            t = torch.tensor(a, dtype=torch.float32 if dtype == "float32" else torch.float64)
            w = torch.linalg.eigvals(t).numpy()
        out.append((n, np.asarray(w, dtype=np.complex128)))
    return tuple(out)


# The search's small designs (ground rule 2): one drawn seed is one study of the radial moments
# (the ladder NS, SEARCH_DRAWS draws per N, numpy float64), judged at α = 10⁻⁶ so that a search
# over its examples keeps its family-wise rate of false statistical failures near 10⁻⁴: the limit
# law's moment outside its interval fails, the interval within ±δ of it holds, else undecided.
SEARCH_DRAWS, SEARCH_ALPHA = 12, 1e-6


def strategy(ctx: Context) -> Any:
    """A seed for one small study of the statement's law."""
    from hypothesis import strategies as st

    return st.integers(0, 2**31 - 1)


def holds(seed: int, ctx: Context) -> Instance:
    """The extrapolated radial moments of one small study against the statement's limit law."""
    law = ctx.law(CircularLaw)
    rows = [{"N": n, **radial_stats(np.linalg.eigvals(a), law.radial_cdf)}
            for n, a in _matrices(law.variance, SEARCH_DRAWS, seed)]
    ns = [r["N"] for r in rows]
    verdicts, values = [], {"seed": seed, "draws per N": SEARCH_DRAWS, "Ns": list(NS)}
    for k in (1, 2):
        fit = extrapolate(ns, [r[f"m{k}"] for r in rows], SEARCH_ALPHA / 2)
        gap = abs(fit.a - float(law.limit_moment(k)))
        verdicts.append(False if gap > fit.half_width else
                        True if gap + fit.half_width <= DELTA[k] else None)
        values[f"∫|z|^{2 * k}: limit, extrapolated ± half-width"] = (
            f"{float(law.limit_moment(k)):.4g}, {fit.a:.4g} ± {fit.half_width:.3g}")
    decided = False if False in verdicts else True if all(verdicts) else None
    return Instance(decided, f"t-intervals of the extrapolated moments at α = {SEARCH_ALPHA:g}",
                    values, statistical=True)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    law = ctx.law(CircularLaw)
    t0 = time.perf_counter()
    spectra = _spectra(backend.name, backend.spec.kind, str(backend.spec.dtype), law.variance,
                       int(ctx["draws"]), ctx.seed)
    rows = [{"N": n, **radial_stats(w, law.radial_cdf)} for n, w in spectra]
    ns = [r["N"] for r in rows]
    fits, worst, excluded = {}, 0.0, []
    for k in (1, 2):
        fit = extrapolate(ns, [r[f"m{k}"] for r in rows], ALPHA / 2)  # Bonferroni over 2
        target = float(law.limit_moment(k))
        gap = abs(fit.a - target)
        worst = max(worst, (gap + fit.half_width) / DELTA[k])
        if gap > fit.half_width:
            excluded.append(k)
        fits[f"∫|z|^{2 * k}"] = {"limit (statement)": target, "extrapolated": round(fit.a, 4),
                                 "± (1 − α/2)": round(fit.half_width, 4), "c (1/N term)":
                                 round(fit.c, 3), "margin δ": DELTA[k]}
    outcome = (Outcome.FAIL if excluded else Outcome.PASS if worst <= 1 else Outcome.INCONCLUSIVE)
    seconds = time.perf_counter() - t0
    moments = Evidence(
        check=f"radial moments extrapolated to N → ∞ (N = {NS}, {ctx['draws']} draws each)",
        kind="statistical", backend=backend.name, outcome=outcome, instances=len(rows),
        residual=f"{worst:.3g}", tolerance="1",
        tolerance_source=f"residual = max_k (|a_k − ∫|z|^2k dμ| + half-width)/δ_k, δ = {DELTA}; "
                         f"t-intervals at α = {ALPHA} (Bonferroni over 2 moments)",
        message=(f"the limit law's moment k ∈ {excluded} lies outside its interval" if excluded
                 else "every interval lies within ±δ of the limit law's moment" if worst <= 1
                 else "intervals contain the limit law's moments but are wider than δ"),
        seconds=seconds, data=fits)
    test = trend_test(rows, "N", "ks", "decreasing", (), ALPHA)
    trend = Evidence(
        check="KS distance of |λ|² to the limit law falls as N grows", kind="statistical",
        backend=backend.name, outcome={"pass": Outcome.PASS, "fail": Outcome.FAIL}.get(
            test.outcome, Outcome.INCONCLUSIVE), instances=len(rows),
        tolerance=f"α = {ALPHA} one-sided", tolerance_source="Kendall τ trend test "
        "(recmem.numerics.studies.trend_test)", message=test.reason,
        data={"test": test.to_dict()})
    return [moments, trend]


def symbolic(ctx: Context) -> list[Evidence]:
    """The limit law's reference moments against its density (recmem's own values: harness)."""
    t0 = time.perf_counter()
    return [from_harness_proof(limit_moment_proof(ctx.law(CircularLaw)), time.perf_counter() - t0,
                               "limit moments from the limit law's density (SymPy)")]


CLAIMS = [
    Claim(
        id="L.theorem1",
        summary="Glorot spectra: radial moments extrapolate to the unit disk's, KS distance falls "
                "with N (N ≤ 64)",
        title="Theorem 1 (strong circular law, cited): Glorot spectra fill the unit disk",
        statement=CIRCULAR_LAW,
        provenance=Provenance("L", "§3.2.2, Theorem 1 (cited)", QUOTE),
        tolerance=f"statistical: moment extrapolation y = a + c/N with t-intervals at α = {ALPHA} "
                  f"within δ = {DELTA}; one-sided Kendall trend of the KS distance at α = {ALPHA}",
        decided_by=("statistical",),
        params=(Param("draws", 12, "independent draws of A_N per N", int, check=at_least(3),
                      max=1000),),
        symbolic=symbolic, strategy=strategy, holds=holds,
        numeric=by_arithmetic({"numpy": numeric, "torch": numeric},
                              "a study in the float arithmetics (the eigensolver's rounding is "
                              "far below the statistical tolerance)"),
        notes="Finite-N evidence for a limit theorem (ground rule 2): the decision rests on the "
              "extrapolated moments (a two-sided equivalence test) and the KS trend.",
    ),
]
