"""O.real-illcond: for real Λ the condition number of V_k grows exponentially with N (O §3.1, [9]).

The statement (recmem.theory.real_nodes.RealIllConditioning) is the bound κ₂(V_N) ≥ 2^{N−2}/N for
every set of N distinct real nodes in [−1, 1] (its constant, exponent and inequality are fields)
with the direction of growth the study tests. Symbolic: the Chebyshev divided-difference argument
proves the bound and decides nearby statements exactly (three-valued). Numeric: a conditioning
study over N for real node families, plus the tight configurations of the bound (the rational
extrema of T_{N−1}, N ≤ 4), with certified κ₂; flint checks the statement's bound on the
certified brackets (a violation is a certified counterexample), exact Gautschi bounds and exact
κ₁ as sanity inequalities, and tests the growth with a trend test and a log-linear fit; each point
arithmetic recomputes κ₂, is judged against the certified values and checks the bound and the
growth on its own resolved values. The search judges the bound exactly at random node sets.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows
from recmem.checks.claims.paper_o._studies import (
    C_TOL,
    Listed,
    complete_strata,
    distance_to_bracket,
    fmt_list,
    ints_param,
    judged_points,
    kappa_of,
    native_vandermonde,
    shared,
    study_evidence,
    to_fraction,
    trend_evidence,
)
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof, harness
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.studies import (
    REAL_FAMILIES,
    Row,
    Study,
    loglinear_fit,
    real_rows,
    real_study,
)
from recmem.theory.real_nodes import RealIllConditioning, chebyshev_extrema

BY = ("family", "N")
TIGHT = "tight"  # the family name of the tight configurations' rows


def _parse_families(text: str) -> tuple[str, ...]:
    vals = Listed(t for t in str(text).replace(" ", "").split(",") if t)
    bad = [v for v in vals if v not in REAL_FAMILIES]
    if bad or not vals:
        raise ValueError(f"families must be among {', '.join(REAL_FAMILIES)}, got {text!r}")
    return vals


def _key(ctx: Context) -> tuple[Hashable, ...]:
    return ("real", tuple(ctx["Ns"]), tuple(ctx["families"]), int(ctx["draws"]), ctx.seed)


def _study(ctx: Context) -> tuple[Study, list[Row], float]:
    """The certified study and the tight configurations' rows (data: shared with the controls)."""
    study, secs = shared(_key(ctx), lambda: real_study(ctx["Ns"], ctx["families"], seed=ctx.seed,
                                                       draws=int(ctx["draws"])))
    tight, secs_t = shared(("real", TIGHT), lambda: real_rows(
        {f"N={n}": nodes for n, nodes in chebyshev_extrema().items()}, TIGHT))
    return study, tight, secs + secs_t


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided by the divided-difference argument (O §3.1, [9]): proved, or
    disproved at an exact node set, or undecided (recmem.theory.real_nodes.illcond_proof)."""
    from recmem.theory.real_nodes import illcond_proof

    t0 = time.perf_counter()
    proof = illcond_proof(ctx.law(RealIllConditioning), int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def _label(r: Row) -> str:
    if r["family"] == TIGHT:
        return f"extrema of T_{r['N'] - 1} (N={r['N']})"
    return f"{r['family']} N={r['N']}" + (f" draw {r['draw']}" if r["draw"] else "")


def _nodes(r: Row) -> list[Fraction]:
    return [v.re for v in r["nodes"].values]


def _sanity(backend: AbstractBackend, rows: list[Row]) -> Evidence:
    """Facts every correct computation satisfies (not the statement): Gautschi's bounds on
    ‖V⁻¹‖₁ and κ₁ ≥ 2^(N−2) (step 3 of the argument), exactly; κ₁/N ≤ κ₂ ≤ N·κ₁ on the certified
    bracket. They check recmem's machinery, not the statement: the evidence is of kind harness, whose
    PASS is no evidence for the claim and whose failure (a certified contradiction, shown) is an
    ERROR — a bug of recmem, never a refutation of the paper."""
    t0 = time.perf_counter()
    bad: list[dict[str, Any]] = []
    for r in rows:
        n, k, k1 = r["N"], r["kappa"], r["kappa1"]
        # exact comparisons: the bracket ends are binary numbers, κ₁ and the bounds are rationals
        lo, hi = to_fraction(k.lo), (to_fraction(k.hi) if k.certified else None)
        problems = []
        if not r["gautschi_ok"]:
            problems.append("Gautschi: lower ≤ ‖V⁻¹‖₁ ≤ upper fails (exact)")
        if not r["bound_ok"]:
            problems.append("κ₁ < 2^(N−2) (exact)")
        if hi is not None and (hi < k1 / n or lo > n * k1):
            problems.append("certified κ₂ outside [κ₁/N, N·κ₁]")
        if problems:
            bad.append({"point": _label(r), "problems": problems, "nodes": _nodes(r),
                        "kappa2": str(k), "kappa1": str(k1),
                        "inverse_norm1": str(r["inverse_norm1"]),
                        "gautschi": [str(r["gautschi_lower"]), str(r["gautschi_upper"])]})
    return harness(
        "certified sanity inequalities: Gautschi's bounds on ‖V⁻¹‖₁, κ₁ ≥ 2^(N−2), "
        "κ₁/N ≤ κ₂ ≤ N·κ₁", backend.name, not bad,
        f"{len(bad)} violations, first: {bad[0]}" if bad else
        f"all {len(rows)} points satisfy them", instances=len(rows),
        precision_bits=max(r["kappa"].bits for r in rows),
        certified_by="exact rationals (fmpq) and ball arithmetic (flint)",
        data={"violations": bad} if bad else {}, seconds=time.perf_counter() - t0)


def _certified_bound(backend: AbstractBackend, law: RealIllConditioning,
                     rows: list[Row]) -> Evidence:
    """The statement's bound on every certified bracket: a bracket wholly on the wrong side of
    the bound is a certified counterexample; one that straddles it is inconclusive.

    residual: the largest relative violation at the bracket's upper end (0 when none; the check
    passes when it is ≤ the tolerance, the largest relative width of a bracket)."""
    t0 = time.perf_counter()
    rows = [r for r in rows if law.admits(_nodes(r))]
    violated: list[dict[str, Any]] = []
    straddle: list[str] = []
    worst, width = Fraction(0), Fraction(0)
    for r in rows:
        k = r["kappa"]
        bound = law.bound(int(r["N"]))
        lo, hi = to_fraction(k.lo), to_fraction(k.hi)
        width = max(width, (hi - lo) / lo)
        ok_lo, ok_hi = law.satisfied(lo, bound), law.satisfied(hi, bound)
        worst = max(worst, law.violation(hi if law.relation == "≥" else lo, bound))
        if not ok_lo and not ok_hi:
            violated.append({"point": _label(r), "N": r["N"], "nodes": [str(x) for x in _nodes(r)],
                             "kappa2 in": [str(k.lo), str(k.hi)],
                             "bound": f"{law.bound_text} = {bound}", "relation": law.relation})
        elif ok_lo != ok_hi:
            straddle.append(_label(r))
    outcome = (Outcome.REFUTE if violated else Outcome.INCONCLUSIVE if straddle
               else Outcome.PASS)
    margin = min(float(to_fraction(r["kappa"].lo) / law.bound(int(r["N"]))) for r in rows)
    return Evidence(
        check="the bound on the certified κ₂ at every point", kind="numeric",
        backend=backend.name, outcome=outcome, instances=len(rows),
        precision_bits=max(r["kappa"].bits for r in rows),
        residual=tol.fmt(float(worst)), tolerance=tol.fmt(float(width)),
        tolerance_source="relative width of the certified κ₂ brackets (ball arithmetic)",
        counterexample=violated[0] if violated else None,
        certified_by="ball arithmetic (flint): the κ₂ bracket lies beyond the bound"
        if violated else None,
        message=(f"κ₂ {law.relation} {law.bound_text} violated at "
                 + ", ".join(v["point"] for v in violated[:6]) if violated else
                 f"brackets straddle the bound at {', '.join(straddle)}" if straddle else
                 f"κ₂ {law.relation} {law.bound_text} at all {len(rows)} points; smallest "
                 f"certified κ₂/bound = {margin:.4g}"),
        seconds=time.perf_counter() - t0)


def _growth(backend: AbstractBackend, law: RealIllConditioning, rows: list[Row],
            check: str) -> Evidence:
    """Trend test of log₂κ₂ against N per family in the statement's direction, with the
    log-linear fit in data."""
    ev = trend_evidence(backend, rows, check, "N", "log2_kappa", law.growth, ["family"], BY)
    fits = {}
    for fam in dict.fromkeys(r["family"] for r in rows):
        rs = [r for r in rows if r["family"] == fam]
        if len({r["N"] for r in rs}) < 2:
            continue
        f = loglinear_fit([r["N"] for r in rs], [r["log2_kappa"] for r in rs])
        fits[fam] = {"slope_bits_per_node": round(f.slope, 3), "intercept": round(f.intercept, 3),
                     "r2": round(f.r2, 4), "points": f.n}
    ev.data["fits"] = fits
    ev.data["lower_bound_rate"] = f"log₂({law.bound_text}): slope → 1 bit per node"
    if fits:
        ev.message += "; log₂κ ≈ slope·N + c: " + ", ".join(
            f"{k} {v['slope_bits_per_node']} bits/node (R² {v['r2']})" for k, v in fits.items())
    return ev


def _points(backend: AbstractBackend, ctx: Context, study: Study) -> list[Row]:
    """The study points a point arithmetic recomputes: all, except in mpmath (its SVD is ~100×
    slower than flint's certified route): the points with N = hp_N."""
    if backend.spec.kind != "mpmath":
        return study.rows
    return [r for r in study.rows if r["N"] == int(ctx["hp_N"])] or study.rows[:1]


def _recompute(backend: AbstractBackend, rows: list[Row]) -> list[Any]:
    """κ₂(V_N) from the arithmetic's own singular values, one per row."""
    out = []
    for r in rows:
        with backend.activate():
            v = native_vandermonde(backend, r["nodes"], r["N"])
            out.append(kappa_of(backend.svdvals(v), columns=r["N"]))
    return out


def _tolerance(backend: AbstractBackend, r: Row) -> tuple[Any, int, Any]:
    """(κ_eff, n, τ = c·n·κ_eff·u) of a recomputed κ₂(V_N).

    Computed V: each entry a product of ≤ N−1 roundings (‖δV‖ ≤ γ_N‖V‖_F), the SVD adds a
    backward error ~ N·u‖V‖₂; σ_max and σ_min each move by ≤ that, so the relative error of κ is
    ≲ 3N·u·2‖V‖_F/σ_min: κ_eff = 2‖V‖_F/σ_min, n = 3N.
    """
    kappa_eff, n = 2 * r["sigma"].fro_over_smin(), 3 * int(r["N"])
    return kappa_eff, n, C_TOL * n * kappa_eff * backend.unit_roundoff


def _point_bound(backend: AbstractBackend, law: RealIllConditioning, rows: list[Row],
                 at: dict[int, Any]) -> Evidence:
    """The statement's bound on the arithmetic's own κ̂₂ at every point it resolves.

    With τ = c·n·κ_eff·u the computed κ̂ is within a factor 1 ± τ of κ₂, so a true bound leaves
    a relative violation of at most τ/(1 − τ). residual: the largest violation divided by that
    allowance (0 when none); the check passes when it is ≤ 1.
    """
    t0 = time.perf_counter()
    # the violation is evaluated with guard bits over the arithmetic's own precision, so that
    # its rounding stays far below the allowance τ/(1 − τ)
    mp = mpmath.MPContext()
    mp.prec = max(backend.precision_bits + 32, 64)
    worst = mpmath.mpf(0)
    over: list[str] = []
    resolved = 0
    for r in rows:
        _, _, tau = _tolerance(backend, r)
        if not law.admits(_nodes(r)) or not tau < tol.RESOLVE_LIMIT:
            continue
        resolved += 1
        b = law.bound(int(r["N"]))
        v = law.violation(mp.mpf(at[id(r)]), mp.mpf(b.numerator) / b.denominator)
        ratio = mpmath.mpf(v / (tau / (1 - tau)))
        worst = max(worst, ratio)
        if ratio > 1:
            over.append(f"{_label(r)} (κ̂₂ = {mpmath.nstr(at[id(r)], 6)}, bound "
                        f"{law.bound(int(r['N']))})")
    if not resolved:
        return Evidence(check="the bound on the recomputed κ₂ at every resolved point",
                        kind="numeric", backend=backend.name, outcome=Outcome.INCONCLUSIVE,
                        precision_bits=backend.precision_bits, instances=0,
                        message=f"{backend.name} resolves none of the {len(rows)} points",
                        seconds=time.perf_counter() - t0)
    return Evidence(
        check="the bound on the recomputed κ₂ at every resolved point", kind="numeric",
        backend=backend.name, outcome=Outcome.FAIL if over else Outcome.PASS,
        precision_bits=backend.precision_bits, instances=resolved, residual=tol.fmt(worst),
        tolerance="1", tolerance_source=f"relative violation / (τ/(1 − τ)), τ = c·n·κ_eff·u with "
        f"c={C_TOL}, n=3N, κ_eff = 2‖V‖_F/σ_min, u=2^-{backend.precision_bits}",
        message=(f"κ̂₂ {law.relation} {law.bound_text} fails beyond rounding at "
                 + "; ".join(over[:6]) if over else
                 f"κ̂₂ {law.relation} {law.bound_text} within rounding at all {resolved} resolved "
                 f"points (of {len(rows)})"),
        seconds=time.perf_counter() - t0)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Certified study (flint): the bound, sanity inequalities and the growth; each point
    arithmetic recomputes κ₂ and checks the bound and the growth on its own values (O §3.1)."""
    law = ctx.law(RealIllConditioning)
    study, tight, seconds = _study(ctx)
    if backend.encloses:
        return [study_evidence(backend, seconds, study, "certified κ₂(V_N) for real nodes", BY),
                _sanity(backend, study.rows + tight),
                _certified_bound(backend, law, study.rows + tight),
                _growth(backend, law, study.rows, "growth of log₂κ₂(V_N) with N (per family)")]
    rows = _points(backend, ctx, study) + tight
    values, secs = shared((*_key(ctx), backend.name, *map(_label, rows)),
                          lambda: _recompute(backend, rows))
    at = {id(r): v for r, v in zip(rows, values, strict=True)}

    def measure(r: Row) -> tuple[Any, Any, int]:
        kappa_eff, n, _ = _tolerance(backend, r)
        return distance_to_bracket(at[id(r)], r["kappa"]), kappa_eff, n

    out = judged_points(backend, rows, "κ₂(V_N) recomputed vs certified κ₂", measure, _label,
                        "κ₂(V_N)")
    out[0].seconds += secs  # the recomputation (0 when shared with the statement's run)
    out.append(_point_bound(backend, law, rows, at))
    if backend.spec.kind != "mpmath":  # mpmath recomputes at one N only: no growth to test
        # a family with a point this arithmetic does not resolve is left out whole (keeping its
        # resolved points only would select them by their condition number)
        study_rows = [r for r in rows if r["family"] != TIGHT]
        kept, dropped = complete_strata(
            study_rows, ["family"], lambda r: bool(_tolerance(backend, r)[2] < tol.RESOLVE_LIMIT))
        own = [{"family": r["family"], "N": r["N"], "log2_kappa": float(mpmath.log(at[id(r)], 2))}
               for r in kept]
        ev = _growth(backend, law, own, "growth of log₂κ₂(V_N) with N, recomputed (per family "
                     "resolved at every N)")
        ev.data["families left out (a point not resolved)"] = dropped
        out.append(ev)
    return out


_DENS = (1, 2, 3, 4, 5, 7, 8, 16)


def strategy(ctx: Context) -> Any:
    """The statement's hypothesis (N ≥ 2 distinct real nodes in [−radius, radius], the scope of
    the proven bound) read from :meth:`RealIllConditioning.admits`: lists of 1 ≤ N ≤ 6 real
    rational nodes that may repeat and may lie one grid step beyond ±radius, kept when the
    statement admits them, and the tight configurations of the bound (the rational extrema of
    T_{N−1}, scaled to the radius): the boundary ±radius is reached.

    Numerator/denominator pairs from fixed strategies (cheaper than ``st.fractions``, which
    builds a strategy per draw); they shrink towards 0 and small denominators.
    """
    from hypothesis import strategies as st

    law = ctx.law(RealIllConditioning)
    nums = {d: st.integers(-d - 1, d + 1) for d in _DENS}

    @st.composite
    def node(draw: Any) -> Fraction:
        d = draw(st.sampled_from(_DENS))
        return Fraction(draw(nums[d]), d) * law.radius

    tight = [[x * law.radius for x in nodes] for nodes in chebyshev_extrema().values()]
    return st.one_of(st.sampled_from(tight),
                     st.lists(node(), min_size=1, max_size=6)).filter(law.admits)


def holds(instance: list[Any], ctx: Context) -> Instance:
    """The statement's bound at one node set, exactly: κ₁/N ≤ κ₂ ≤ N·κ₁ with the exact κ₁, or
    exact real-root isolation of the Gram matrix's characteristic polynomial when that does not
    decide (recmem.theory.real_nodes.judge_point); on a tight configuration also the direction of
    growth against its family's N = 2 member (recmem.theory.real_nodes.judge_family_growth)."""
    from recmem.theory.real_nodes import certify_point, judge_family_growth, judge_point

    law = ctx.law(RealIllConditioning)
    ok, values = judge_point(law, instance)
    # the tight configurations form a family (±radius at N = 2): its members also test the
    # statement's direction of growth with N
    grows, growth_values = judge_family_growth(law, instance)
    if grows is False:
        return Instance(False, growth_values["certified by"], {**values, **growth_values},
                        f"κ₂ is larger at N = {len(instance)} than at N = 2 in one family: it does "
                        "not fall with N")
    if law.admits(instance):
        c = certify_point(instance)
        values.update({"kappa1": str(c["kappa1"]), "inverse_norm1": str(c["inverse_norm1"]),
                       "gautschi": [str(c["gautschi_lower"]), str(c["gautschi_upper"])]})
    return Instance(ok, str(values.get("certified by", "outside the hypothesis")), values)


CLAIMS = [
    Claim(
        id="O.real-illcond",
        summary="κ₂ ≥ 2^{N−2}/N for real nodes in [−1, 1] (Chebyshev divided-difference argument; "
                "tight at N = 2)",
        title="Real nodes: κ(V_k) grows exponentially with N",
        statement=RealIllConditioning(),
        provenance=Provenance(
            "O", "§3.1, 'Taming ill-conditioning with complex numbers' (ref. [9], Gautschi–"
                 "Inglese 1988)",
            "However, while if Λ is real the condition number of V_k grows exponentially with N "
            "[9], in the complex case it is possible to make the condition number of V_k exactly "
            "1 by e.g. choosing the N th-roots of unity as eigenvalues of Λ [5, 8]."),
        tolerance="exact (SymPy identity and root isolation; fmpq Gautschi bounds and κ₁); "
                  "enclosure (flint κ₂); c·n·κ_eff·u with κ_eff = 2‖V‖_F/σ_min, n = 3N (point "
                  "arithmetics); growth: stratified one-sided Kendall test, α = 0.01",
        uses=("O.vandermonde-form", "O.det"),
        params=(
            ints_param("Ns", (4, 8, 12, 16, 20, 24, 28, 32), "sizes N of the study (k = N)", lo=2),
            Param("families", Listed(REAL_FAMILIES), "real node families in [−1, 1]: "
                  + ", ".join(REAL_FAMILIES), _parse_families),
            Param("draws", 1, "draws per (family, N) (only the random family varies)", int,
                  check=at_least(1), max=1000),
            Param("n_max_symbolic", 8, "largest n of the symbolic identity", int,
                  check=at_least(2), max=64, cost=grows(8, 3)),
            Param("hp_N", 16, "N at which mpmath recomputes κ₂ (its SVD is slow)", int,
                  check=at_least(2), max=256, cost=grows(1000, 2)),  # mpf entries, ~1 kB each
        ),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Scope of the proof: distinct real nodes in [−1, 1] (every stable real recurrence), "
              "k = N. Outside [−1, 1] the statement rests on Gautschi–Inglese [9] and the study. "
              f"Default study: N = {fmt_list((4, 8, 12, 16, 20, 24, 28, 32))}, families "
              f"{fmt_list(REAL_FAMILIES)}, and the tight configurations of the bound (nodes "
              "±1; −1, 0, 1; ±1, ±1/2: the rational extrema of T_(N−1)). Doubling the bound's "
              "constant is no negative control: nodes ±1 attain κ₂ = 1 = 2^(N−1)/N at N = 2.",
    ),
]
