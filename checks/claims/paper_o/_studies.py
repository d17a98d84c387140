"""What paper O's conditioning claims share (O.real-illcond, O.ring-conditioning,
O.sparse-conditioning): list parameters, the shared study data, and evidence built from a study.

The certified study (``recmem.numerics.studies``) and each arithmetic's recomputation of it are
data: they depend on the study's parameters, seed and hypothesis, never on the trends or bounds
under test. They are computed once (:func:`shared`) and reused by the statement and by its
negative controls, which are then judged afresh from the same data (:func:`trend_checks` reads
the directions from the statement under test). Flint reports the certified values, the point
arithmetics recompute condition numbers (and reconstructions) in their own arithmetic, are judged
against the certified values with the c·n·κ·u policy, and test the statement on their own values.

The counterexample search over small study designs (:func:`design_holds`, used by the strategies
of O.ring-conditioning and O.sparse-conditioning) is at the end of this module.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Param, parse_fraction, parse_int
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import KappaBracket, mpf_to_fraction
from recmem.numerics.studies import Row, Study, summarize, trend_test
from recmem.theory.conditioning_studies import StudyTrends

T = TypeVar("T")

# Declared significance level of every trend test of the conditioning claims (fixed in code, not a
# parameter: changing α after seeing the data would defeat the test).
ALPHA = 0.01
# c of the c·n·κ·u policy (the project's default in checks.numeric.identity_check).
C_TOL = 4.0

_OUTCOME = {"pass": Outcome.PASS, "fail": Outcome.FAIL, "inconclusive": Outcome.INCONCLUSIVE}


# ---- parameters -----------------------------------------------------------------------------------
class Listed(tuple):
    """A list parameter's value: a tuple that prints as its ``--param`` text ("0,9/10,99/100")."""

    def __str__(self) -> str:
        return ",".join(str(v) for v in self)

    __repr__ = __str__


def parse_ints(text: str) -> tuple[int, ...]:
    """'16,24,32' → (16, 24, 32)."""
    vals = Listed(parse_int(t) for t in str(text).replace(" ", "").split(",") if t)
    if not vals:
        raise ValueError("empty list")
    return vals


def parse_fractions(text: str) -> tuple[Fraction, ...]:
    """'0,1/2,0.9' → (0, 1/2, 9/10), exactly."""
    vals = Listed(parse_fraction(t) for t in str(text).replace(" ", "").split(",") if t)
    if not vals:
        raise ValueError("empty list")
    return vals


def ints_param(name: str, default: tuple[int, ...], help: str, lo: int = 1, max: int = 2048,
               cost: Callable[[int], float] | None = None) -> Param:
    """A comma-separated list of integers ≥ lo, each at most ``max`` (``cost``: the memory the
    largest entry needs, see :class:`~recmem.checks.claim.Param`)."""
    return Param(name, Listed(default), help, parse_ints, max=max, cost=cost,
                 check=lambda v: None if all(x >= lo for x in v) else f"entries must be ≥ {lo}")


def radii_param(name: str, default: tuple[Fraction, ...], help: str) -> Param:
    """A comma-separated list of radii in [0, 1]."""
    return Param(name, Listed(default), help, parse_fractions,
                 check=lambda v: None if all(0 <= x <= 1 for x in v) else "radii must lie in [0, 1]")


def fmt_list(values: Sequence[Any]) -> str:
    return ",".join(str(v) for v in values)


# ---- the study: data shared by a statement and its controls ------------------------------------
# The memo holds a few studies (a claim, its controls, and a test's reruns); it is keyed by
# everything that determines the data, so a changed parameter, seed or hypothesis recomputes.
_SHARED: OrderedDict[Hashable, Any] = OrderedDict()
SHARED_SIZE = 64


def shared(key: Hashable, make: Callable[[], T]) -> tuple[T, float]:
    """``make()`` computed once per ``key`` (an LRU memo): the value and the seconds this call
    spent on it (0 when it was already there).

    Only for data that do not depend on the statement under test (node draws, certified κ, an
    arithmetic's recomputation at the study's points): ``key`` must hold every parameter, the
    seed, the hypothesis (it lays out the grid) and, for recomputations, the arithmetic.
    """
    if key in _SHARED:
        _SHARED.move_to_end(key)
        return _SHARED[key], 0.0
    t0 = time.perf_counter()
    value = make()
    _SHARED[key] = value
    while len(_SHARED) > SHARED_SIZE:
        _SHARED.popitem(last=False)
    return value, time.perf_counter() - t0


def distance_to_bracket(value: mpmath.mpf, k: KappaBracket) -> mpmath.mpf:
    """Relative distance of a computed κ from the certified bracket [lo, hi] (0 inside it; for a
    certified infinite κ, 0 when the computed κ is infinite too and inf otherwise)."""
    if k.infinite:
        return mpmath.mpf(0) if not mpmath.isfinite(value) else mpmath.inf
    if not mpmath.isfinite(value):
        return mpmath.inf
    if value < k.lo:
        return (k.lo - value) / k.lo
    if mpmath.isfinite(k.hi) and value > k.hi:
        return (value - k.hi) / k.hi
    return mpmath.mpf(0)


# ---- evidence -------------------------------------------------------------------------------------
def study_evidence(backend: AbstractBackend, seconds: float, study: Study, check: str,
                   by: Sequence[str], response: str = "log2_kappa") -> Evidence:
    """The certified κ of every draw: PASS when all are certified, with per-cell summaries."""
    rows = study.rows
    uncertified = [r for r in rows if not r["kappa"].certified]
    bits = max(r["kappa"].bits for r in rows)
    outcome = Outcome.INCONCLUSIVE if uncertified else Outcome.PASS
    msg = (f"{len(rows)} draws, κ₂ certified for {len(rows) - len(uncertified)} (flint ball "
           f"arithmetic on the Gram matrix, up to {bits} bits); log₂κ per cell in data")
    return Evidence(check=check, kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=bits, instances=len(rows), message=msg,
                    certified_by="ball arithmetic (python-flint): certified eigenvalue enclosures",
                    seconds=seconds,
                    data={"settings": study.settings,
                          "cells": [s.to_dict() for s in summarize(rows, response, by)]})


def trend_evidence(backend: AbstractBackend, rows: Sequence[Row], check: str, factor: str,
                   response: str, direction: str, strata_by: Sequence[str],
                   by: Sequence[str]) -> Evidence:
    """A stratified one-sided Kendall trend test as statistical evidence (α = ALPHA)."""
    t0 = time.perf_counter()
    test = trend_test(rows, factor, response, direction, strata_by, ALPHA)
    return Evidence(check=check, kind="statistical", backend=backend.name,
                    outcome=_OUTCOME[test.outcome], instances=len(rows),
                    tolerance=f"α = {ALPHA} one-sided in every stratum (Bonferroni for rejections)",
                    tolerance_source="stratified Kendall τ test (recmem.numerics.studies)",
                    message=test.reason, seconds=time.perf_counter() - t0,
                    data={"test": test.to_dict(),
                          "cells": [s.to_dict() for s in summarize(rows, response, by)]})


def trend_checks(backend: AbstractBackend, rows: Sequence[Row], law: StudyTrends, response: str,
                 what: str, by: Sequence[str],
                 resolved: Callable[[Row], bool] | None = None) -> list[Evidence]:
    """One stratified trend test per trend of ``law``, in the direction ``law`` states.

    The strata of a factor's test are the cells of the other factors in ``by``; the check label
    names the factor but not the direction, so the statement and its reversed-trend controls are
    judged by the same check. With ``resolved``, a stratum holding a point the arithmetic does
    not resolve is left out whole (keeping only the resolved points of a stratum would select
    them by their condition number and could fake a trend either way).
    """
    out = []
    for t in law.trends:
        strata = [b for b in by if b != t.factor]
        label = f"trend of {what} in {t.factor} (within each {', '.join(strata) or 'study'})"
        kept, dropped = complete_strata(rows, strata, resolved)
        ev = trend_evidence(backend, kept, label, t.factor, response, law.direction(t.factor),
                            strata, by)
        if resolved is not None:
            ev.data["strata left out (a point not resolved)"] = dropped
        out.append(ev)
    return out


def complete_strata(rows: Sequence[Row], strata: Sequence[str],
                    resolved: Callable[[Row], bool] | None) -> tuple[list[Row], list[str]]:
    """The rows of the strata whose every point is ``resolved`` (all rows when it is None), and
    the names of the strata left out."""
    if resolved is None:
        return list(rows), []
    bad = {tuple(r[f] for f in strata) for r in rows if not resolved(r)}
    kept = [r for r in rows if tuple(r[f] for f in strata) not in bad]
    names = sorted(", ".join(f"{f}={v}" for f, v in zip(strata, key, strict=True)) or "all"
                   for key in bad)
    return kept, names


def judged_points(backend: AbstractBackend, rows: Sequence[Row], check: str,
                  measure: Callable[[Row], tuple[mpmath.mpf, mpmath.mpf, int]],
                  label: Callable[[Row], str], what: str) -> list[Evidence]:
    """Judge one relative error per study point against c·n·κ_eff·u and aggregate.

    ``measure(row)`` returns (relative error, κ_eff computed at high precision, n). Resolved points
    (c·n·κ_eff·u < 1/2) give one PASS/FAIL evidence; points beyond the working precision give one
    INCONCLUSIVE evidence naming where the arithmetic breaks and the bits it would need.
    """
    t0 = time.perf_counter()
    passed: list[str] = []
    failed: list[tuple[str, str, str]] = []
    unresolved: list[tuple[str, int | None]] = []
    worst = mpmath.mpf(0)
    for r in rows:
        err, kappa_eff, n = measure(r)
        j = tol.condition_scaled(err, c=C_TOL, n=n, kappa=kappa_eff,
                                 unit_roundoff=backend.unit_roundoff,
                                 kappa_text=tol.fmt(kappa_eff) or "?")
        if j.outcome is Outcome.INCONCLUSIVE:
            unresolved.append((label(r), j.needed_bits))
        elif j.outcome is Outcome.FAIL:
            failed.append((label(r), tol.fmt(err) or "?", j.tolerance or "?"))
        else:
            passed.append(label(r))
            if mpmath.isfinite(err):
                worst = max(worst, err / (C_TOL * n * kappa_eff * backend.unit_roundoff))
    secs = time.perf_counter() - t0
    out: list[Evidence] = []
    source = (f"c·n·κ_eff·u per point with c={C_TOL}, κ_eff from the certified study, "
              f"u=2^-{backend.precision_bits}")
    if passed or failed:
        outcome = Outcome.FAIL if failed else Outcome.PASS
        msg = (f"{what}: {len(passed)} of {len(passed) + len(failed)} resolved points within "
               f"tolerance (largest error/tolerance {tol.fmt(worst)})")
        if failed:
            msg += "; beyond tolerance at " + "; ".join(f"{w} (error {e} > {t})"
                                                       for w, e, t in failed[:6])
        out.append(Evidence(check=check, kind="numeric", backend=backend.name, outcome=outcome,
                            precision_bits=backend.precision_bits,
                            instances=len(passed) + len(failed), residual=tol.fmt(worst),
                            tolerance="per point (error/tolerance ≤ 1)", tolerance_source=source,
                            message=msg, seconds=secs))
    if unresolved:
        need = max((b for _, b in unresolved if b is not None and b > 0), default=None)
        out.append(Evidence(
            check=check + " (beyond the working precision)", kind="numeric",
            backend=backend.name, outcome=Outcome.INCONCLUSIVE,
            precision_bits=backend.precision_bits, instances=len(unresolved),
            tolerance="c·n·κ_eff·u ≥ 1/2", tolerance_source=source, needed_bits=need,
            message=f"{what}: {backend.name} cannot resolve {len(unresolved)} points: "
                    + ", ".join(w for w, _ in unresolved[:12])
                    + (" …" if len(unresolved) > 12 else ""),
            seconds=0.0 if out else secs))
    return out


def native_vandermonde(backend: AbstractBackend, nodes: Any, k: int) -> Any:
    """``backend.vandermonde`` of exact nodes, in the backend's own precision (numpy's is
    ``numerics.numpy_backend.vander``, recmem's one float builder: ``numpy:float32`` stays in
    complex64, where ``np.vander`` would promote it to complex128 and so judge a float64
    computation with a float32 tolerance)."""
    return backend.vandermonde(nodes.to(backend), k)


# A finite mpf exactly as a Fraction, for exact comparisons: recmem's one exact conversion (sign
# kept, inf/nan refused, an mpf of any context read bit for bit). The name is kept for the claims.
to_fraction = mpf_to_fraction


def kappa_of(svals: Sequence[mpmath.mpf], columns: int | None = None) -> mpmath.mpf:
    """σ_max/σ_min from a backend's singular values (inf when σ_min is 0, and when ``columns``
    exceeds their number: a wide matrix, whose columns-th singular value is 0).

    The values stay in the backend's own mpmath context: ``mpmath.mpf(v)`` would round an
    mpmath@256 result to the global 53 bits.
    """
    s = list(svals)
    if columns is not None and len(s) < columns:
        return mpmath.inf
    return s[0] / s[-1] if s and s[-1] > 0 else mpmath.inf


def log2_floor(x: mpmath.mpf, floor_bits: int) -> float:
    """log₂ x, floored at 2^-floor_bits (an error of exactly 0 ties at the floor)."""
    return float(mpmath.log(max(mpmath.mpf(x), mpmath.mpf(2) ** -floor_bits), 2))


# ---- the counterexample search: small designs judged by the statement's own trend test ---------
# A trend over random node draws is not decided by one draw, so a search instance is a small
# design (recmem.numerics.designs.Design: the varied factor and its levels, the other factors'
# values, draws per level, a seed) and judging it runs the statement's own stratified Kendall test
# on certified κ₂ values (recmem.numerics.designs.judge_trend). SEARCH_DRAWS bounds one design's
# certified κ₂ computations, so that one judged design costs about 0.01–0.2 s.
SEARCH_DRAWS = 32
# the largest sequence length L of a design (at most the claim's L): the trends are stated for
# every L, and small ones keep a certified κ₂ at about 1–3 ms
SEARCH_L = 8
# design seeds (a replicate index: every design draws its own data, recmem.numerics.designs)
SEARCH_SEEDS = 2**16
# inner radii a design draws from (below r_max = 1): App. E.1's r_min ∈ [0, 1) on a grid that
# reaches towards 1
SEARCH_RADII = tuple(sorted({Fraction(k, 20) for k in range(20)}
                            | {Fraction(99, 100), Fraction(999, 1000)}))

# ring nodes per design at most (drawing one exactly costs about 0.2 ms, as much as the rest)
SEARCH_NODES = 400

CERTIFIED_TREND = ("κ₂ certified in ball arithmetic (python-flint) for every draw; the statement's "
                   f"stratified one-sided Kendall test at α = {ALPHA}")


def design_draws(levels: Sequence[Any], draws: int, nodes: int) -> int:
    """Draws per level of a design: as asked, at most SEARCH_DRAWS in all and at most
    SEARCH_NODES ring nodes in all (``nodes``: the nodes one draw of every level needs)."""
    return max(1, min(draws, SEARCH_DRAWS // max(len(levels), 1), SEARCH_NODES // max(nodes, 1)))


def radii_below(r_max: Fraction) -> tuple[Fraction, ...]:
    """The search's inner radii r_min < r_max (r_min = r_max only when r_max = 0)."""
    return tuple(r for r in SEARCH_RADII if r < r_max) or (Fraction(0),)


def design_holds(design: Any, law: StudyTrends, point: Callable[[dict[str, Any], int], Row],
                 what: str) -> Any:
    """Judge one design for ``law``: the trend of log₂κ₂ (``point(cell, seed)`` returns a row
    with the certified ``kappa`` bracket and ``log2_kappa``) in the design's factor, in the
    direction ``law`` states, on the levels ``law``'s hypothesis admits
    (recmem.numerics.designs.judge_trend: True when the statement's own test shows the trend at
    α, False when it rejects it and the opposite trend holds at the search level
    α/SEARCH_DESIGNS by an exact p-value on the certified brackets, None otherwise). Draws are
    computed one of every level at a time, and the design stops as soon as the draws still to
    come cannot change its decision (recmem.numerics.designs.forecast); its values then give
    bounds valid for every completion."""
    from recmem.checks.search import Instance
    from recmem.numerics.designs import SEARCH_DESIGNS, forecast, judge_trend, search_level

    factor = design.factor
    values: dict[str, Any] = {"design": design.describe(), "response": f"log₂{what}"}
    if factor not in {t.factor for t in law.trends}:
        return Instance(None, "no stated trend in this factor", values)
    values["claimed"] = f"{law.direction(factor)} in {factor}"
    cells = [c for c in design.cells() if law.admits({**c, "L": design.size})]
    if len({c[factor] for c in cells}) < 2:
        return Instance(None, f"fewer than two levels satisfy {law.hypothesis_text}: nothing to "
                        "test", values)
    # draws in rounds (one of every level per round); after each round, stop when the draws still
    # to come cannot change the design's decision (recmem.numerics.designs.forecast)
    seeds = [(cell, design.seeds(cell)) for cell in cells]
    sizes = [len(ss) for _, ss in seeds]

    def bracket(r: Row) -> tuple[Any, Any]:
        return r["lo"], r["hi"]

    rows: list[Row] = []
    direction = law.direction(factor)
    for d in range(design.draws):
        for cell, ss in seeds:
            k = point(cell, ss[d])["kappa"]
            rows.append({factor: cell[factor], "log2_kappa": k.log2, "lo": k.lo, "hi": k.hi})
        ahead = forecast(rows, sizes, factor, "log2_kappa", direction, bracket, ALPHA)
        if ahead.state != "open" and d + 1 < design.draws:
            values["decided"] = (f"after {d + 1} of {design.draws} draws per level: no outcome of "
                                 "the others can change the decision")
            break
    values["median log₂κ₂ per level"] = {str(s.cell[factor]): round(s.median, 3)
                                         for s in summarize(rows, "log2_kappa", [factor])}
    rejected = (f"statistical, not exact: the statement's stratified Kendall test rejects the "
                f"stated trend at α = {ALPHA}, and the opposite trend holds at the search level α/"
                f"{SEARCH_DESIGNS} = {search_level(ALPHA):.0e} by an exact permutation p-value "
                "(Jonckheere–Terpstra null distribution) of a Kendall S bounded below on κ₂ "
                "brackets certified in ball arithmetic (python-flint)")
    if len(rows) < sum(sizes):  # decided before every draw was computed: bounds for them all
        values.update({"p (stated direction), every completion": f"≤ {ahead.p_claimed:.3g}",
                       "exact p (opposite direction, certified S), every completion":
                       f"≤ {float(ahead.p_opposite):.3g}"})
        verdict = {"true": True, "false": False, "none": None}[ahead.state]
        how = {True: "statistical: " + CERTIFIED_TREND, False: rejected,
               None: "undecided: " + CERTIFIED_TREND}[verdict]
        return Instance(verdict, how, values, f"{direction} in {factor}: " + values["decided"],
                        ratio=ahead.ratio, statistical=True)
    dec = judge_trend(rows, factor, "log2_kappa", direction, [], bracket, ALPHA)
    values.update({"test": dec.outcome, "p (stated direction)": f"{dec.p_claimed:.3g}",
                   "exact p (opposite direction, certified S)": f"{float(dec.opposite.p):.3g}"})
    if dec.holds is False:
        how = rejected
    elif dec.holds:
        how = "statistical: " + CERTIFIED_TREND
    else:
        how = "undecided: " + CERTIFIED_TREND
    return Instance(dec.holds, how, values, dec.reason, ratio=dec.ratio, statistical=True)
