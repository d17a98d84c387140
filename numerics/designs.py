"""Small study designs for the counterexample search over statistical (trend) statements.

A trend statement ("κ₂(V_L) falls as N grows, over random node draws": paper O App. E.1 Fig. 4,
App. E.2 Fig. 6; "E_m(β) − E_m(0) grows with m along App. D's fits": paper W §3.2, Fig. 1) cannot
be decided by one draw. Its search instance is therefore a small *design* — which factor varies,
at which levels, the other factors' values, the draws per level and a seed — and judging it runs
the statement's own trend test on values computed in certified arithmetic. This module holds what
such judges share, independent of any statement (the caller reads the direction under test from
the statement):

- :class:`Design`, a picklable, printable design, and :func:`design_seed`, one pinned seed per
  (design, cell, draw), so every observation of a design is an independent draw and two designs
  never share data (a design judged again gets its own data again: a memo serves repeats);
- the exact null distribution of the stratified Kendall statistic S for untied responses (the
  Jonckheere–Terpstra distribution: inversions of a multiset permutation, generating function the
  q-multinomial coefficient), so one-sided p-values are exact rationals, not normal
  approximations (:func:`exact_tail`);
- :func:`certified_trend`: a lower bound on S in a direction that holds for every ordering of the
  responses consistent with their certified brackets (a pair counts for the direction only when
  the brackets are disjoint in that order), and its exact p-value — valid for tied responses too
  (ties broken at random have the untied null distribution, and the bound is below every
  tie-breaking);
- :func:`judge_trend`: the three-valued decision of one design (True: the stated trend is shown by
  the statement's own test at its level α; False: that test rejects it *and* the opposite trend
  holds at the search level α/:data:`SEARCH_DESIGNS` exactly, on certified values; None
  otherwise); :func:`judge_absence` for a statement that a trend is absent (False only, never
  True: a small design that shows no trend confirms nothing); :func:`forecast`, which tells from
  the first draws of a design when the rest cannot change its decision (so a judge may stop);
  and :func:`strict_direction` for deterministic sequences, decided exactly.

Why the search level: a search judges many designs, adaptively. A trend that is flat somewhere in
the domain shows the opposite trend at level α in about α of the designs placed there; Bonferroni
over at most :data:`SEARCH_DESIGNS` judged designs keeps the chance that a true statement is
ever rejected in a search below α. That bound needs each newly judged design to bring data
independent of what the search has seen (else a search steered towards small p-values would
reassemble old draws into a significant design): hence one seed per (design, cell, draw). A False
from :func:`judge_trend` is a statistical refutation at that level, never an exact one, and says
so.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from recmem.numerics.studies import Row, trend_test

DIRECTIONS = ("decreasing", "increasing")
# The most designs one search is taken to judge (`recmem fuzz` defaults to 500 examples,
# `recmem verify` to 60); the search level is α / SEARCH_DESIGNS. A longer search (--max-examples
# beyond it) keeps each rejection at this level, so its chance of ever rejecting a true
# statement grows to about α·examples/SEARCH_DESIGNS.
SEARCH_DESIGNS = 500


def opposite(direction: str) -> str:
    """The other trend direction."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    return DIRECTIONS[1 - DIRECTIONS.index(direction)]


def search_level(alpha: float) -> float:
    """The level at which one design's rejection counts as a refutation in a search: α over the
    designs a search may judge (Bonferroni)."""
    return alpha / SEARCH_DESIGNS


# ---- designs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Design:
    """One small study: ``factor`` varies over ``levels`` (increasing), the other factors are
    fixed at ``fixed`` ((name, value) pairs), ``draws`` independent draws per level, seeded by
    ``seed``; ``size`` is the problem size of the study (L of O's V_L and Ω = V_L Ψ_L). Its repr
    is Python that rebuilds it (``from fractions import Fraction``)."""

    factor: str
    levels: tuple[Any, ...]
    fixed: tuple[tuple[str, Any], ...]
    size: int
    draws: int
    seed: int

    def __post_init__(self) -> None:
        if list(self.levels) != sorted(set(self.levels)):
            raise ValueError(f"levels must be increasing and distinct, got {self.levels}")
        if self.draws < 1:
            raise ValueError(f"a design needs at least one draw per level, got {self.draws}")

    def cells(self) -> list[dict[str, Any]]:
        """Every cell of the design: the varied factor at each level, the others fixed."""
        return [{**dict(self.fixed), self.factor: v} for v in self.levels]

    def seeds(self, cell: dict[str, Any]) -> list[int]:
        """The pinned seeds of the draws of ``cell`` (:func:`design_seed` of the whole design, the
        cell and the draw): two designs that differ in anything draw independent data, so a
        search that picks its next design from the results so far (Hypothesis's targeting and
        shrinking) gets fresh data with each new design and cannot select overlapping data — the
        condition under which the search level bounds its chance of rejecting a true statement."""
        key = tuple(sorted((k, str(v)) for k, v in cell.items()))
        return [design_seed(self.seed, repr(self), key, d) for d in range(self.draws)]

    def describe(self) -> str:
        fixed = ", ".join(f"{k} = {v}" for k, v in self.fixed)
        return (f"{self.factor} ∈ {{{', '.join(map(str, self.levels))}}}" + (f", {fixed}" if fixed
                else "") + f", size {self.size}, {self.draws} draws per level, seed {self.seed}")


def design_seed(seed: int, *parts: Hashable) -> int:
    """A pinned 48-bit seed from a design's seed and what identifies one draw (its cell and index):
    distinct cells or draws get unrelated seeds, the same ones get the same seed in every run."""
    digest = hashlib.blake2b(repr((seed, *parts)).encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


# ---- the exact null distribution of S ------------------------------------------------------------
@lru_cache(maxsize=4096)
def _qbinomial(n: int, k: int) -> tuple[int, ...]:
    """Coefficients of the Gaussian binomial [n choose k]_q (q^i: arrangements of k marked among
    n items with i inversions), by [n, k] = [n−1, k−1] + q^k [n−1, k]."""
    if k < 0 or k > n:
        return ()
    if k == 0 or k == n:
        return (1,)
    a, b = _qbinomial(n - 1, k - 1), _qbinomial(n - 1, k)
    out = [0] * (k * (n - k) + 1)
    for i, c in enumerate(a):
        out[i] += c
    for i, c in enumerate(b):
        out[i + k] += c
    return tuple(out)


@lru_cache(maxsize=1024)
def _stratum_s(sizes: tuple[int, ...]) -> tuple[dict[int, int], int]:
    """The null distribution of one stratum's S (levels of the given sizes, untied responses, all
    orders equally likely): {S: number of orders}, and the number of orders. S = B − 2D with B the
    between-level pairs and D the discordant ones (the inversions of the level labels)."""
    poly, seen = [1], 0
    for k in sizes:
        q = _qbinomial(seen + k, k)
        out = [0] * (len(poly) + len(q) - 1)
        for i, a in enumerate(poly):
            for j, b in enumerate(q):
                out[i + j] += a * b
        poly, seen = out, seen + k
    between = (sum(sizes) ** 2 - sum(k * k for k in sizes)) // 2
    return {between - 2 * d: c for d, c in enumerate(poly) if c}, sum(poly)


def exact_tail(strata: Sequence[Sequence[int]], s: int) -> Fraction:
    """P(S ≥ s) exactly, for the stratified Kendall statistic S = Σ_h S_h of independent strata
    with the given level sizes, under the null hypothesis (in every stratum all orders of the
    responses equally likely; responses untied). Domain: sizes ≥ 1; at most a few hundred
    observations in all (the distribution is enumerated)."""
    dist: dict[int, int] = {0: 1}
    total = 1
    for sizes in strata:
        one, n = _stratum_s(tuple(int(k) for k in sizes))
        new: dict[int, int] = {}
        for a, ca in dist.items():
            for b, cb in one.items():
                new[a + b] = new.get(a + b, 0) + ca * cb
        dist, total = new, total * n
    return Fraction(sum(c for v, c in dist.items() if v >= s), total)


# ---- certified trends ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CertifiedTrend:
    """The stratified Kendall S of a direction, bounded below using certified brackets only, and its
    exact one-sided p-value P(S_null ≥ s_certified)."""

    direction: str
    s_certified: int
    between: int  # between-level pairs in all strata (the largest |S|)
    uncertain: int  # pairs whose brackets overlap (counted against the direction)
    p: Fraction
    n: int

    @property
    def text(self) -> str:
        return (f"{self.direction}: certified S ≥ {self.s_certified} of {self.between} "
                f"between-level pairs ({self.uncertain} with overlapping brackets counted against), "
                f"exact p = {float(self.p):.3g}")


def certified_trend(rows: Sequence[Row], factor: str, direction: str, strata_by: Sequence[str],
                    bracket: Callable[[Row], tuple[Any, Any]]) -> CertifiedTrend:
    """A lower bound on the stratified Kendall S of ``direction`` (S > 0 means the response moves
    that way as ``factor`` grows) valid for every response within its certified ``bracket``
    (lo, hi), and its exact p-value (:func:`exact_tail`). Strata are the cells of ``strata_by``;
    a stratum with fewer than two levels of ``factor`` is left out."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    groups: dict[tuple[Any, ...], list[Row]] = {}
    for r in rows:
        groups.setdefault(tuple(r[b] for b in strata_by), []).append(r)
    s, between, uncertain, n = 0, 0, 0, 0
    sizes: list[list[int]] = []
    for rs in groups.values():
        levels = sorted({r[factor] for r in rs})
        if len(levels) < 2:
            continue
        sizes.append([sum(1 for r in rs if r[factor] == v) for v in levels])
        n += len(rs)
        br = [bracket(r) for r in rs]
        for i in range(len(rs)):
            for j in range(len(rs)):
                if not rs[i][factor] < rs[j][factor]:
                    continue
                between += 1
                (lo_i, hi_i), (lo_j, hi_j) = br[i], br[j]
                # x_i < x_j: the response rose (increasing) iff y_j > y_i
                sure = lo_j > hi_i if direction == "increasing" else hi_j < lo_i
                against = hi_j < lo_i if direction == "increasing" else lo_j > hi_i
                s += 1 if sure else -1
                uncertain += not (sure or against)
    p = exact_tail(sizes, s) if sizes else Fraction(1)
    return CertifiedTrend(direction, s, between, uncertain, p, n)


@dataclass(frozen=True)
class TrendDecision:
    """One design judged for one stated trend (see :func:`judge_trend`)."""

    holds: bool | None
    direction: str  # the stated one
    outcome: str  # the statement's own test: pass / fail / inconclusive
    p_claimed: float  # its combined p-value for the stated direction (normal approximation)
    opposite: CertifiedTrend  # the opposite direction, exactly on certified values
    alpha: float
    alpha_search: float
    reason: str

    @property
    def ratio(self) -> float:
        """How near the design comes to refuting (search guidance): log p_opp / log α_search, so
        above 1 exactly when the opposite trend holds at the search level."""
        p = float(self.opposite.p)
        return math.log(p) / math.log(self.alpha_search) if p > 0 else math.inf


def _pairs_s(rows: Sequence[Row], factor: str, direction: str,
             bracket: Callable[[Row], tuple[Any, Any]] | None, response: str) -> tuple[int, int]:
    """(S of ``direction`` over the between-level pairs of ``rows``, the number of such pairs):
    on the ``response`` values (``bracket`` None) or bounded below on certified brackets."""
    sign = 1 if direction == "increasing" else -1
    s = between = 0
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            if a[factor] == b[factor]:
                continue
            lo_r, hi_r = (a, b) if a[factor] < b[factor] else (b, a)
            between += 1
            if bracket is None:
                d = sign * ((hi_r[response] > lo_r[response]) - (hi_r[response] < lo_r[response]))
            else:
                (l1, h1), (l2, h2) = bracket(lo_r), bracket(hi_r)
                d = 1 if (l2 > h1 if sign > 0 else h2 < l1) else -1
            s += d
    return s, between


def _normal_p(s: int, var: float) -> float:
    """The statement's test's one-sided p-value of a Kendall S (continuity-corrected normal
    approximation, as :func:`recmem.numerics.studies.trend_test`)."""
    return 0.5 * math.erfc((s - 1) / math.sqrt(2 * var)) if var > 0 else 1.0


@dataclass(frozen=True)
class Forecast:
    """What a partly computed design will be decided (:func:`forecast`): ``state`` "true",
    "false", "none" or "open", with bounds valid for every completion — the test's p-value of the
    stated direction is at most ``p_claimed`` (its worst case), the certified exact p-value of the
    opposite direction at most ``p_opposite`` (its worst case) — and ``ratio``, the search
    guidance from the draws seen so far (log p / log α_search of their exact opposite p-value)."""

    state: str
    p_claimed: float
    p_opposite: Fraction
    ratio: float


def forecast(rows: Sequence[Row], sizes: Sequence[int], factor: str, response: str,
             direction: str, bracket: Callable[[Row], tuple[Any, Any]], alpha: float) -> Forecast:
    """What :func:`judge_trend` will decide for a single-stratum design whose first ``rows`` are
    known and which has ``sizes`` observations per level in the end, whatever the others turn out
    to be: "true" or "false" when every outcome of the pairs not yet seen leads there, "none" when
    none can lead to a decision, "open" otherwise. Each unseen pair is counted for and against
    each direction (Kendall's variance with the levels as ties and untied responses; a tie among
    the responses only lowers it, which cannot undo a pass). Computing the rest of a design that
    is not "open" cannot change its decision."""
    n = sum(sizes)
    between = (n * n - sum(k * k for k in sizes)) // 2
    var = (n * (n - 1) * (2 * n + 5) - sum(k * (k - 1) * (2 * k + 5) for k in sizes)) / 18
    s_claimed, seen = _pairs_s(rows, factor, direction, None, response)
    s_opposite, _ = _pairs_s(rows, factor, opposite(direction), bracket, response)
    rest = between - seen
    level = search_level(alpha)
    worst_claimed = _normal_p(s_claimed - rest, var)
    worst_opposite = exact_tail([sizes], s_opposite - rest)
    best_opposite = exact_tail([sizes], s_opposite + rest)
    # guidance from the data so far: the exact p-value of the opposite trend among the draws seen
    seen_sizes = [k for k in (sum(1 for r in rows if r[factor] == v)
                              for v in sorted({r[factor] for r in rows})) if k]
    p = float(exact_tail([seen_sizes], s_opposite)) if len(seen_sizes) > 1 else 1.0
    ratio = math.log(p) / math.log(level) if p > 0 else math.inf
    if worst_claimed < alpha:
        state = "true"
    elif _normal_p(-s_claimed - rest, var) < alpha and worst_opposite <= level:
        # a rejection needs the test's opposite p-value below α (on the values; their S of the
        # opposite direction is −s_claimed) and the certified exact one at the search level
        state = "false"
    elif (_normal_p(s_claimed + rest, var) < alpha
          or (_normal_p(-s_claimed + rest, var) < alpha and best_opposite <= level)):
        state = "open"
    else:
        state = "none"
    return Forecast(state, worst_claimed, worst_opposite, ratio)


def judge_trend(rows: Sequence[Row], factor: str, response: str, direction: str,
                strata_by: Sequence[str], bracket: Callable[[Row], tuple[Any, Any]],
                alpha: float) -> TrendDecision:
    """Decide whether the design's ``rows`` show ``response`` moving in ``direction`` as
    ``factor`` grows (within each stratum of ``strata_by``).

    True: the statement's own stratified Kendall test (:func:`recmem.numerics.studies.trend_test`
    at ``alpha``, on the response values) shows the stated trend in every stratum. False: that
    test rejects the stated trend at ``alpha`` and the opposite trend holds at the search level
    :func:`search_level` by the exact p-value of the certified lower bound on S
    (:func:`certified_trend`). None otherwise (a flat trend, or too few draws to tell)."""
    test = trend_test(rows, factor, response, direction, strata_by, alpha)
    level = search_level(alpha)
    opp = certified_trend(rows, factor, opposite(direction), strata_by, bracket)
    if test.outcome == "pass":
        holds: bool | None = True
        reason = test.reason
    elif test.outcome == "fail" and opp.p <= level:
        holds = False
        reason = (f"{test.reason}; the opposite trend holds at the search level α/"
                  f"{SEARCH_DESIGNS} = {level:.3g} on certified values ({opp.text})")
    else:
        holds = None
        reason = (f"{test.reason}; not decided" + (
            f" (the opposite trend is significant at α = {alpha} but not at the search level "
            f"{level:.3g}: {opp.text})" if test.outcome == "fail" else ""))
    return TrendDecision(holds, direction, test.outcome, test.p_claimed, opp, alpha, level, reason)


def judge_absence(rows: Sequence[Row], factor: str, response: str, forbidden: str,
                  strata_by: Sequence[str], bracket: Callable[[Row], tuple[Any, Any]],
                  alpha: float) -> TrendDecision:
    """Decide a statement that ``response`` does *not* move in the ``forbidden`` direction as
    ``factor`` grows. False: the statement's own test (:func:`recmem.numerics.studies.trend_test`
    at ``alpha``) shows the forbidden trend in every stratum and it holds at the search level by
    the exact p-value of the certified lower bound on S; None otherwise — the absence of a trend
    in a small design confirms nothing, so this judge never returns True."""
    test = trend_test(rows, factor, response, forbidden, strata_by, alpha)
    level = search_level(alpha)
    shown = certified_trend(rows, factor, forbidden, strata_by, bracket)
    if test.outcome == "pass" and shown.p <= level:
        return TrendDecision(False, f"not {forbidden}", "fail", test.p_opposite, shown, alpha, level,
                             f"{test.reason}; it holds at the search level α/{SEARCH_DESIGNS} = "
                             f"{level:.3g} on certified values ({shown.text})")
    return TrendDecision(None, f"not {forbidden}", "inconclusive", test.p_opposite, shown, alpha,
                         level, f"{test.reason}; not decided (the {forbidden} trend is not shown "
                         f"at the search level: {shown.text})")


def strict_direction(values: Sequence[Any]) -> str | None:
    """"increasing" or "decreasing" when the exactly comparable ``values`` (Fractions, integers)
    are strictly monotone in that order; None otherwise (a constant or non-monotone sequence, or
    fewer than two values)."""
    pairs = list(itertools.pairwise(values))
    if not pairs:
        return None
    if all(b > a for a, b in pairs):
        return "increasing"
    if all(b < a for a, b in pairs):
        return "decreasing"
    return None
