"""O.ring-conditioning: cond(V_L) and the reconstruction error fall as r_min → 1 and as N grows
(O App. E.1, Fig. 4).

The statement (recmem.theory.conditioning_studies.RingTrends) holds the two trends and the
hypothesis N ≥ L, which lays out the study's grid. A distributional study with pinned seeds over
N × r_min (Lemma 6 ring nodes T(r_min, r_max), V_L of size N×L): certified κ₂(V_L) per draw
(flint), per-cell medians and quartiles, and stratified one-sided Kendall trend tests of log₂κ₂
at a declared α in the directions the statement states. Each float arithmetic reconstructs random
exact inputs with ``pinv_apply``; its κ₂ and errors are judged against c·n·κ_eff·u and its errors
tested for the same trends. A statistical rejection is FAIL (never REFUTE); a test without power
is INCONCLUSIVE. The controls reverse one trend each; the same tests reject them (FAILED).

The counterexample search (``recmem fuzz``, and the search ``recmem verify`` runs) draws small
designs — one factor over 2–4 levels, the other fixed, a few independent draws per level, L ≤
SEARCH_L — and judges each with the statement's own trend test on certified κ₂
(:func:`recmem.checks.claims.paper_o._studies.design_holds`). Its refutations are statistical:
the opposite trend at the search level α/500 by an exact p-value on certified κ₂, which the
counterexample's ``certified_by`` states; the search therefore refutes a reversed-trend control
(REFUTED, marked statistical) where it finds a design strong enough.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
from recmem.checks.claims.paper_o._common import p_rmax, small_matrices
from recmem.checks.claims.paper_o._studies import (
    SEARCH_L,
    SEARCH_SEEDS,
    design_draws,
    design_holds,
    distance_to_bracket,
    ints_param,
    judged_points,
    kappa_of,
    log2_floor,
    native_vandermonde,
    radii_below,
    radii_param,
    shared,
    study_evidence,
    trend_checks,
)
from recmem.checks.numeric import skipped
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.numerics.exact import QQi, to_mpc
from recmem.numerics.nodes import uniform_draws
from recmem.numerics.studies import Row, Study, ring_study
from recmem.theory.conditioning_studies import RingTrends

BY = ("N", "r_min")
# Errors below 2^-FLOOR are "exact" for the trend tests (they tie at the floor).
FLOOR_BITS = 80


def _key(ctx: Context) -> tuple[Hashable, ...]:
    """Everything the study's data depend on: parameters, seed and the statement's hypothesis."""
    law = ctx.law(RingTrends)
    return ("ring", int(ctx["L"]), tuple(ctx["Ns"]), tuple(ctx["r_mins"]), ctx["r_max"],
            int(ctx["draws"]), ctx.seed, type(law).over, law.offset)


def _study(ctx: Context) -> tuple[Study, float]:
    """The certified study over the cells the statement's hypothesis admits (shared with the
    controls: the data do not depend on the trends)."""
    law = ctx.law(RingTrends)
    return shared(_key(ctx), lambda: ring_study(int(ctx["L"]), ctx["Ns"], ctx["r_mins"],
                                                ctx["r_max"], int(ctx["draws"]), ctx.seed,
                                                keep=law.admits))


def _label(r: Row) -> str:
    return f"N={r['N']} r_min={r['r_min']} draw {r['draw']}"


def _input(r: Row) -> list[QQi]:
    """Exact random input u_{1:L} of one draw: dyadic uniforms in [−1, 1) (exact in float64)."""
    return [QQi(2 * d - 1) for d in uniform_draws(r["seed"] + 7919, int(r["k"]))]


def _n(r: Row) -> int:
    # powers (≤ L−1 roundings per entry), the product x = V u (L terms) and the SVD's backward
    # error (~ max(N, L)·u‖V‖): n = 2L + N.
    return 2 * int(r["k"]) + int(r["N"])


def _reconstruct(b: AbstractBackend, r: Row) -> tuple[Any, list[QQi]]:
    """û = V_L⁺ (V_L u) computed in ``b`` (O eq. 5 with k = L), and the exact u."""
    u = _input(r)
    v = native_vandermonde(b, r["nodes"], int(r["k"]))
    ub = b.matrix([[q] for q in u])
    return b.pinv_apply(v, b.matmul(v, ub)), u


def _rel_error(b: AbstractBackend, uhat: Any, u: list[QQi]) -> mpmath.mpf:
    """‖û − u‖₂/‖u‖₂ against the exact u (evaluated with a few guard bits)."""
    ctx = fixed_context(max(b.precision_bits + 16, 64))
    m = b.to_mp(uhat, ctx)
    num = ctx.fsum(abs(m[i, 0] - to_mpc(q, ctx)) ** 2 for i, q in enumerate(u))
    den = ctx.fsum(abs(to_mpc(q, ctx)) ** 2 for q in u)
    return mpmath.mpf(ctx.sqrt(num / den))


def _flint_reconstruction(backend: AbstractBackend, rows: list[Row]) -> Evidence:
    """Ball arithmetic: the enclosure of V_L⁺(V_L u) must contain the exact u, narrowly."""
    import flint

    t0 = time.perf_counter()
    max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
    excluded: list[str] = []
    wide: list[str] = []
    worst = mpmath.mpf(0)
    for r in rows:
        with backend.activate():
            uhat, u = _reconstruct(backend, r)
            d = uhat - backend.matrix([[q] for q in u])
            contains = d.contains(flint.acb_mat(d.nrows(), 1))
        rad = backend.radius(d)
        worst = max(worst, rad)
        if not contains:
            excluded.append(_label(r))
        elif rad > max_width:
            wide.append(_label(r))
    outcome = Outcome.REFUTE if excluded else Outcome.INCONCLUSIVE if wide else Outcome.PASS
    return Evidence(
        check="V_L⁺ x_L recovers the exact input (enclosure)", kind="numeric",
        backend=backend.name, outcome=outcome, precision_bits=backend.precision_bits,
        instances=len(rows), residual=tol.fmt(worst), tolerance=tol.fmt(max_width),
        tolerance_source="enclosure radius (ball arithmetic), inputs of size ≤ 1",
        enclosure=f"û − u ∋ 0 for {len(rows) - len(excluded)} of {len(rows)} draws",
        certified_by="ball arithmetic: the enclosure of û − u excludes 0" if excluded else None,
        counterexample={"draws": excluded[:5]} if excluded else None,
        message=("excluded at " + ", ".join(excluded[:5])) if excluded else
        (f"too wide at {len(wide)} draws" if wide else
         f"all {len(rows)} enclosures contain u (first draw of every cell); largest radius "
         f"{tol.fmt(worst)}"),
        seconds=time.perf_counter() - t0)


def _points(backend: AbstractBackend, ctx: Context, study: Study) -> list[Row]:
    """The study points a point arithmetic recomputes: all of them, except in mpmath, whose SVD
    is ~100× slower than the rest of the study: the first draws of the extreme cells (smallest N,
    smallest and largest r_min), at most ``hp_points``."""
    if backend.spec.kind != "mpmath":
        return study.rows
    n0, rlo, rhi = min(ctx["Ns"]), min(ctx["r_mins"]), max(ctx["r_mins"])
    pick = [r for r in study.rows if r["draw"] == 0 and r["N"] == n0 and r["r_min"] in (rlo, rhi)]
    return pick[: int(ctx["hp_points"])]


def _recompute(backend: AbstractBackend, rows: list[Row]) -> list[tuple[Any, Any]]:
    """κ₂(V_L) from the arithmetic's own singular values and, where rounding is visible (≤ 64
    bits; at 256 bits every error is ~κ·2^-256 and flint certifies exact recovery), the relative
    error of V_L⁺x_L: one (κ̂, error or None) per row."""
    out = []
    for r in rows:
        with backend.activate(), small_matrices(backend):
            v = native_vandermonde(backend, r["nodes"], int(r["k"]))
            k_hat = kappa_of(backend.svdvals(v), columns=int(r["k"]))
            err = (_rel_error(backend, *_reconstruct(backend, r))
                   if backend.precision_bits <= 64 else None)
        out.append((k_hat, err))
    return out


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The certified study and its κ₂ trends (flint); κ₂ and reconstruction recomputed in each
    point arithmetic, judged against c·n·κ_eff·u, and the error trends tested (O App. E.1)."""
    law = ctx.law(RingTrends)
    study, seconds = _study(ctx)
    if not study.rows:
        return [skipped("conditioning study", backend.name,
                        f"no cell satisfies {law.hypothesis_text} (L = {ctx['L']}): nothing to "
                        "study")]
    if backend.encloses:
        # the exact recovery itself is O.reconstruct's claim: one draw per cell suffices here
        first = [r for r in study.rows if r["draw"] == 0]
        recovery, secs = shared((*_key(ctx), backend.name, "recovery"),
                                lambda: _flint_reconstruction(backend, first))
        return [study_evidence(backend, seconds, study, "certified κ₂(V_L) per draw", BY),
                *trend_checks(backend, study.rows, law, "log2_kappa", "log₂κ₂(V_L)", BY),
                replace(recovery, seconds=secs)]
    rows = _points(backend, ctx, study)
    values, secs = shared((*_key(ctx), backend.name, *map(_label, rows)),
                          lambda: _recompute(backend, rows))
    at = {id(r): v for r, v in zip(rows, values, strict=True)}

    def kappa_point(r: Row) -> tuple[Any, Any, int]:
        # κ_eff = 2‖V‖_F/σ_min: entrywise rounding of V (‖δV‖ ≤ γ_L‖V‖_F) moves σ_min and σ_max
        # by ≤ ‖δV‖₂; κ's relative error is ≲ 2‖δV‖/σ_min.
        return distance_to_bracket(at[id(r)][0], r["kappa"]), 2 * r["sigma"].fro_over_smin(), _n(r)

    def recon_point(r: Row) -> tuple[Any, Any, int]:
        # consistent least squares: û − u = −(V+E)⁺(E u − δx), ‖E‖, ‖δx‖/‖u‖ ≲ n·u‖V‖_F, so the
        # relative error is ≲ n·u·‖V‖_F/σ_min (κ_eff = 2‖V‖_F/σ_min covers both terms).
        return at[id(r)][1], 2 * r["sigma"].fro_over_smin(), _n(r)

    out = judged_points(backend, rows, "κ₂(V_L) recomputed vs certified κ₂", kappa_point,
                        _label, "κ₂(V_L)")
    out[0].seconds += secs  # the recomputation (0 when shared with the statement's run)
    if backend.precision_bits > 64:
        return out
    out += judged_points(backend, rows, "reconstruction error of V_L⁺ x_L", recon_point, _label,
                         "‖û − u‖/‖u‖")
    if backend.spec.kind == "mpmath":
        # too few points (hp_points) for a trend test; the float arithmetics test the trends
        return out
    # The statement is about the error the arithmetic makes, so every point counts (an
    # unresolved point's O(1) error is that arithmetic's reconstruction error).
    trows = [{"N": r["N"], "r_min": r["r_min"], "log2_error": log2_floor(at[id(r)][1], FLOOR_BITS)}
             for r in rows]
    return out + trend_checks(backend, trows, law, "log2_error", "log₂ reconstruction error", BY)


# ---- the counterexample search -------------------------------------------------------------------
def strategy(ctx: Context) -> Any:
    """Small designs over the statement's domain (O App. E.1, Fig. 4): ring nodes
    λ ~ T(r_min, r_max) (Lemma 6, r_max the claim's), sizes 2 ≤ L ≤ min(the claim's L,
    SEARCH_L), N in the statement's hypothesis (N ≥ L, read from :meth:`RingTrends.admits`'s
    offset) up to 3L, and r_min ∈ [0, r_max) on a grid reaching 999/1000. One design varies one
    stated factor (N or r_min) over 2–4 levels with the other fixed, 4–12 independent draws per
    level (at most SEARCH_DRAWS certified κ₂ and SEARCH_NODES nodes in all), and a seed. They
    shrink towards small L, few levels and draws."""
    from hypothesis import strategies as st

    from recmem.numerics.designs import Design

    law = ctx.law(RingTrends)
    radii = radii_below(Fraction(ctx["r_max"]))
    # (r_min needs two radii below r_max to vary)
    factors = tuple(t.factor for t in law.trends if t.factor != "r_min" or len(radii) > 1)
    l_max = max(1, min(int(ctx["L"]), SEARCH_L))

    @st.composite
    def design(draw: Any) -> Design:
        factor = draw(st.sampled_from(factors))
        L = draw(st.integers(min(2, l_max), l_max))
        n0 = max(1, L + law.offset)  # the smallest N the hypothesis admits
        ns = st.integers(n0, n0 + 2 * L)
        if factor == "N":
            levels = tuple(sorted(draw(st.lists(ns, min_size=2, max_size=4, unique=True))))
            fixed: tuple[tuple[str, Any], ...] = (("r_min", draw(st.sampled_from(radii))),)
        else:
            levels = tuple(sorted(draw(st.lists(st.sampled_from(radii), min_size=2, max_size=4,
                                                unique=True))))
            fixed = (("N", draw(ns)),)
        nodes = sum(levels) if factor == "N" else dict(fixed)["N"] * len(levels)
        draws = design_draws(levels, draw(st.integers(4, 12)), nodes)
        return Design(factor, levels, fixed, L, draws, draw(st.integers(0, SEARCH_SEEDS - 1)))

    return design()


def holds(design: Any, ctx: Context) -> Any:
    """The statement's trend of κ₂(V_L) in the design's factor, judged by its own stratified
    Kendall test on certified κ₂ (flint, :func:`recmem.numerics.studies.ring_point`; every draw on
    its own pinned seed). Only the κ₂ part of the statement is judged here: the reconstruction
    error is an arithmetic's rounding, judged by the numeric side in each float arithmetic."""
    from recmem.numerics.studies import ring_point

    law = ctx.law(RingTrends)
    r_max = Fraction(ctx["r_max"])

    def point(cell: dict[str, Any], seed: int) -> Row:
        return ring_point(design.size, int(cell["N"]), Fraction(cell["r_min"]), r_max, seed)

    return design_holds(design, law, point, "κ₂(V_L)")


CLAIMS = [
    Claim(
        id="O.ring-conditioning",
        summary="κ and error fall with N; with r_min only for N > L (not at N = L = 16)",
        decided_by=("statistical",),
        title="Ring nodes: cond(V_L) and reconstruction error fall as r_min → 1 and N grows",
        statement=RingTrends(),
        provenance=Provenance(
            "O", "App. E.1, Fig. 4",
            "In Figure 4 we clearly show that the average reconstruction error (average over 10k "
            "images samples and 10 random re-samplings of the linear RNN) is decreasing both as a "
            "function of the hidden state size (see discussion in §3.1) and of r_{\\min} "
            "($r_{\\max} = 1$). The same pattern is observed for the condition number of "
            "$V_L^T V_L$."),
        tolerance="enclosure (flint κ₂, reconstruction); c·n·κ_eff·u with κ_eff = 2‖V_L‖_F/σ_min, "
                  "n = 2L + N (point arithmetics); trends: stratified one-sided Kendall test, "
                  "α = 0.01 (κ₂: flint; reconstruction error: each float arithmetic)",
        uses=("O.ring", "O.reconstruct"),
        params=(
            Param("L", 16, "sequence length L (columns of V_L); paper: 784 (MNIST)", int,
                  check=at_least(1), max=8192, cost=grows(16 * 2048 * 3)),  # N × L complex, N ≤ 2048
            ints_param("Ns", (16, 24, 32, 48), "state sizes N (cells with N < L are dropped)",
                       max=2048, cost=grows(16 * 8192 * 3)),
            radii_param("r_mins", (Fraction(0), Fraction(1, 2), Fraction(9, 10),
                                   Fraction(99, 100)), "inner radii r_min of T(r_min, r_max)"),
            p_rmax(),
            Param("draws", 6, "independent node draws per (N, r_min) cell (pinned seeds)", int,
                  check=at_least(1), max=1000),
            Param("hp_points", 2, "points at which mpmath recomputes (its SVD is slow)", int,
                  check=at_least(0), max=64),
        ),
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="κ₂(V_L) is studied; the paper's figure shows cond(V_Lᵀ V_L): for the Gram reading "
              "V_Lᴴ V_L, κ₂(V_LᴴV_L) = κ₂(V_L)², so the trends are the same. Default CPU-sized "
              "setting L = 16, N ∈ {16, 24, 32, 48}, r_min ∈ {0, 1/2, 9/10, 99/100}, 6 draws per "
              "cell; the paper uses L = 784 (--param L=784 --param Ns=512,784,1024).",
    ),
]
