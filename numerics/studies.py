"""Conditioning studies: sweeps over sizes, node families and seeds, with certified condition numbers.

The machinery behind paper O's conditioning claims (§3.1 and App. E.1–E.2: O.real-illcond,
O.ring-conditioning, O.sparse-conditioning) and reusable by a future ``recmem study`` command:

- grids over factors with pinned, independent seeds per (cell, draw) (:func:`grid`, :func:`draw_seed`);
- certified singular-value brackets (:func:`recmem.numerics.certified.sigma_bracket`);
- per-cell distribution summaries (:func:`summarize`) and trend tests: Kendall's τ_b within strata
  combined into a stratified test (:func:`kendall`, :func:`trend_test`), and log-linear fits
  (:func:`loglinear_fit`);
- the three studies themselves (:func:`real_study`, :func:`ring_study`, :func:`sparse_study`).

Everything returns plain dataclasses or tables (lists of dicts); nothing here judges a claim.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath

from recmem.numerics import nodes as nd
from recmem.numerics.certified import (
    KappaBracket,
    enclose,
    sigma_bracket,
)
from recmem.numerics.condition import vandermonde_sigma
from recmem.numerics.exact import QQi, dyadic

Row = dict[str, Any]
Table = list[Row]

# Seeds: draw d of cell c under base seed s uses s·10⁹ + c·10⁴ + d, so every (cell, draw) gets its
# own node set (independent samples for the rank tests) and runs are reproducible.
SEED_BASE = 10**9
SEED_CELL = 10**4


# ---- grids ---------------------------------------------------------------------------------------
def draw_seed(base: int, cell_index: int, draw: int) -> int:
    """The pinned seed of draw ``draw`` in cell ``cell_index`` of a study seeded with ``base``."""
    if not 0 <= draw < SEED_CELL:
        raise ValueError(f"at most {SEED_CELL} draws per cell")
    return base * SEED_BASE + cell_index * SEED_CELL + draw


def grid(factors: Mapping[str, Sequence[Any]], draws: int = 1,
         keep: Callable[[Mapping[str, Any]], bool] | None = None) -> list[tuple[int, Row, int]]:
    """(cell index, factor values, draw) over the Cartesian product of ``factors``.

    Cells rejected by ``keep`` (a stated hypothesis, e.g. N > P + 1) are left out; cell indices
    count the full product, so a cell keeps its seeds whatever ``keep`` drops.
    """
    names = list(factors)
    out = []
    for c, values in enumerate(itertools.product(*(factors[n] for n in names))):
        cell = dict(zip(names, values, strict=True))
        if keep is None or keep(cell):
            out += [(c, cell, d) for d in range(draws)]
    return out


# ---- certified singular values ---------------------------------------------------------------------
def square_bracket(k: KappaBracket) -> KappaBracket:
    """κ₂(AᴴA) = κ₂(A)² (the singular values of AᴴA are σ_i²), as a bracket (O §4's κ of the
    normal equations). The squares are rounded outwards (lo² down, hi² up): rounded to nearest
    an end could move inwards."""
    lo, _ = enclose(lambda x: x * x, k.lo, bits=k.bits)
    _, hi = enclose(lambda x: x * x, k.hi, bits=k.bits)
    return KappaBracket(lo, hi, k.bits, k.certified)


# ---- summaries and trend tests ---------------------------------------------------------------------
@dataclass(frozen=True)
class CellSummary:
    """Distribution of one response within one cell of a study."""

    cell: Row
    count: int
    median: float
    q1: float
    q3: float
    lo: float
    hi: float

    def to_dict(self) -> Row:
        return {**{k: str(v) for k, v in self.cell.items()}, "count": self.count,
                "median": round(self.median, 3), "q1": round(self.q1, 3),
                "q3": round(self.q3, 3), "min": round(self.lo, 3), "max": round(self.hi, 3)}


def summarize(rows: Iterable[Row], response: str, by: Sequence[str]) -> list[CellSummary]:
    """Median, quartiles and range of ``response`` per cell (the values of the factors ``by``)."""
    groups: dict[tuple[Any, ...], list[float]] = {}
    for r in rows:
        groups.setdefault(tuple(r[b] for b in by), []).append(float(r[response]))
    out = []
    for key, vals in groups.items():
        vals.sort()
        if len(vals) >= 2:
            q1, _, q3 = statistics.quantiles(vals, n=4, method="inclusive")
        else:
            q1 = q3 = vals[0]
        out.append(CellSummary(dict(zip(by, key, strict=True)), len(vals),
                               statistics.median(vals), q1, q3, vals[0], vals[-1]))
    return out


@dataclass(frozen=True)
class Kendall:
    """Kendall's S, its null variance (tie-corrected), τ_b and one-sided normal p-values."""

    n: int
    s: int
    var_s: float
    tau_b: float
    p_less: float  # H1: negative association
    p_greater: float  # H1: positive association


def _norm_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def _p_values(s: float, var_s: float) -> tuple[float, float]:
    """One-sided p-values of S under the normal approximation with continuity correction 1."""
    if var_s <= 0:
        return 1.0, 1.0
    sd = math.sqrt(var_s)
    # Φ(x) = sf(−x): keeps tiny lower-tail p-values that 1 − sf(x) would round to 0
    return _norm_sf(-(s + 1) / sd), _norm_sf((s - 1) / sd)


def kendall(x: Sequence[float], y: Sequence[float]) -> Kendall:
    """Kendall's rank correlation of paired samples, with ties in either variable.

    S = Σ_{i<j} sign(x_j − x_i)·sign(y_j − y_i); under independence E S = 0 and Var S is Kendall's
    tie-corrected formula (Kendall & Gibbons, Rank Correlation Methods, eq. 4.3); p-values use the
    normal approximation with continuity correction (adequate from n ≈ 8; exact permutation
    distributions are not needed at the study sizes used).

    Domain: paired real samples, n ≥ 2, no NaN (±inf are ranks like any other: two equal infinities
    are a tie); ValueError otherwise.
    """
    x, y = [float(a) for a in x], [float(b) for b in y]  # plain floats (numpy bools don't subtract)
    n = len(x)
    if n != len(y):
        raise ValueError("x and y differ in length")
    if n < 2 or any(math.isnan(v) for v in x + y):
        raise ValueError(f"kendall needs n ≥ 2 pairs without NaN, got n = {n}"
                         + (" with NaN values" if any(math.isnan(v) for v in x + y) else ""))
    sgn = lambda v: (v > 0) - (v < 0)  # noqa: E731
    s = sum(sgn(x[j] - x[i]) * sgn(y[j] - y[i]) for i in range(n) for j in range(i + 1, n))

    def ties(v: Sequence[float]) -> list[int]:
        counts: dict[float, int] = {}
        for a in v:
            counts[a] = counts.get(a, 0) + 1
        return [t for t in counts.values() if t > 1]

    tx, ty = ties(x), ties(y)
    v0 = n * (n - 1) * (2 * n + 5)
    vt = sum(t * (t - 1) * (2 * t + 5) for t in tx)
    vu = sum(t * (t - 1) * (2 * t + 5) for t in ty)
    var = (v0 - vt - vu) / 18
    if n > 2:
        var += (sum(t * (t - 1) * (t - 2) for t in tx) * sum(t * (t - 1) * (t - 2) for t in ty)
                / (9 * n * (n - 1) * (n - 2)))
    if n > 1:
        var += sum(t * (t - 1) for t in tx) * sum(t * (t - 1) for t in ty) / (2 * n * (n - 1))
    n0 = n * (n - 1) / 2
    n1 = sum(t * (t - 1) / 2 for t in tx)
    n2 = sum(t * (t - 1) / 2 for t in ty)
    den = math.sqrt((n0 - n1) * (n0 - n2))
    p_less, p_greater = _p_values(s, var)
    return Kendall(n, s, var, s / den if den > 0 else 0.0, p_less, p_greater)


@dataclass(frozen=True)
class TrendTest:
    """A one-sided trend of ``response`` in ``factor`` within strata, and the combined test.

    ``direction`` is the claimed one: "decreasing" (response falls as the factor grows) or
    "increasing". Strata are the cells of the other factors; the combined statistic is
    ΣS/√(ΣVar S) (stratified Kendall test, the rank analogue of a blocked design).

    outcome (α is declared by the caller):
    - "fail": some stratum shows the opposite trend at level α/m (Bonferroni over the m strata:
      "it goes the other way somewhere" is a union of m hypotheses), or the combined test does
      at level α;
    - "pass": every stratum shows the claimed trend at level α. The claim is universal ("falls
      as N grows", whatever the other factors), so this is an intersection-union test, which
      needs no multiplicity correction;
    - "inconclusive" otherwise; the reason names the strata where the trend was not shown and
      gives the combined p-value (the trend "on average").
    """

    factor: str
    response: str
    direction: str
    alpha: float
    strata: list[tuple[Row, Kendall]]
    s_total: int
    var_total: float
    p_claimed: float
    p_opposite: float
    outcome: str
    reason: str

    def to_dict(self) -> Row:
        return {
            "factor": self.factor, "response": self.response, "claimed": self.direction,
            "alpha": self.alpha, "S": self.s_total, "z": round(self.z, 3),
            "p_claimed": f"{self.p_claimed:.3g}", "p_opposite": f"{self.p_opposite:.3g}",
            "outcome": self.outcome, "reason": self.reason,
            "strata": [{**{k: str(v) for k, v in cell.items()}, "n": k.n,
                        "tau_b": round(k.tau_b, 3),
                        "p_claimed": f"{self._claimed(k):.3g}"} for cell, k in self.strata],
        }

    @property
    def z(self) -> float:
        return self.s_total / math.sqrt(self.var_total) if self.var_total > 0 else 0.0

    def _claimed(self, k: Kendall) -> float:
        return k.p_less if self.direction == "decreasing" else k.p_greater


def trend_test(rows: Sequence[Row], factor: str, response: str, direction: str,
               strata_by: Sequence[str], alpha: float) -> TrendTest:
    """Stratified one-sided Kendall trend test of ``response`` against ``factor`` (see TrendTest)."""
    if direction not in ("decreasing", "increasing"):
        raise ValueError(f"direction must be decreasing or increasing, got {direction!r}")
    groups: dict[tuple[Any, ...], list[Row]] = {}
    for r in rows:
        groups.setdefault(tuple(r[b] for b in strata_by), []).append(r)
    strata = []
    for key, rs in groups.items():
        if len({r[factor] for r in rs}) < 2:
            continue  # one level only: no trend to test in this stratum
        strata.append((dict(zip(strata_by, key, strict=True)),
                       kendall([float(r[factor]) for r in rs], [float(r[response]) for r in rs])))
    s_tot = sum(k.s for _, k in strata)
    v_tot = sum(k.var_s for _, k in strata)
    p_less, p_greater = _p_values(s_tot, v_tot)
    dec = direction == "decreasing"
    p_claimed, p_opposite = (p_less, p_greater) if dec else (p_greater, p_less)
    m = max(len(strata), 1)

    def name(cell: Row) -> str:
        return ", ".join(f"{k}={v}" for k, v in cell.items()) or "all"

    claimed = (lambda k: k.p_less) if dec else (lambda k: k.p_greater)
    opposite = [c for c, k in strata if (k.p_greater if dec else k.p_less) < alpha / m]
    not_shown = [(c, k) for c, k in strata if claimed(k) >= alpha]
    if not strata:
        outcome, reason = "inconclusive", f"no stratum has two levels of {factor}"
    elif opposite or p_opposite < alpha:
        where = "; ".join(name(c) for c in opposite) or "combined"
        outcome, reason = "fail", (f"{response} is significantly not {direction} in {factor} "
                                   f"(α={alpha}, Bonferroni over {m} strata) at: {where}")
    elif not not_shown:
        outcome, reason = "pass", (f"{response} {direction} in {factor} in all {len(strata)} "
                                   f"strata at α = {alpha} (largest stratum p = "
                                   f"{max(claimed(k) for _, k in strata):.2g}; combined p = "
                                   f"{p_claimed:.2g})")
    else:
        shown = len(strata) - len(not_shown)
        outcome, reason = "inconclusive", (
            f"{response} {direction} in {factor} shown in {shown} of {len(strata)} strata at "
            f"α = {alpha}; not shown at: "
            + "; ".join(f"{name(c)} (τ_b = {k.tau_b:.2f}, p = {claimed(k):.2g})"
                        for c, k in not_shown)
            + f"; combined p = {p_claimed:.2g}")
    return TrendTest(factor, response, direction, alpha, strata, s_tot, v_tot, p_claimed,
                     p_opposite, outcome, reason)


@dataclass(frozen=True)
class Fit:
    """Least-squares line y = slope·x + intercept with its coefficient of determination."""

    slope: float
    intercept: float
    r2: float
    n: int


def loglinear_fit(x: Sequence[float], y: Sequence[float]) -> Fit:
    """Ordinary least squares of y on x (y is already a logarithm, e.g. log₂κ).

    Domain: paired finite real samples, n ≥ 2 (ValueError otherwise; a constant x gives slope 0)."""
    n = len(x)
    if n != len(y) or n < 2:
        raise ValueError(f"loglinear_fit needs n ≥ 2 pairs of equal length, got {n} and {len(y)}")
    if not all(math.isfinite(float(v)) for v in [*x, *y]):
        raise ValueError("loglinear_fit needs finite values")
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    syy = sum((b - my) ** 2 for b in y)
    slope = sxy / sxx if sxx > 0 else 0.0
    r2 = (sxy * sxy / (sxx * syy)) if sxx > 0 and syy > 0 else 1.0
    return Fit(slope, my - slope * mx, r2, n)


# ---- node families and builders ----------------------------------------------------------------
REAL_FAMILIES = ("real", "equispaced", "chebyshev")


def real_family(family: str, n: int, seed: int = 0) -> nd.Nodes:
    """Real nodes in [−1, 1]: uniform draws, equispaced points, or Chebyshev points (dyadic).

    Chebyshev points cos((2j+1)π/(2N)) are computed at 128 bits and rounded once to 52 fractional
    bits, like the ring nodes: the rounded values are the problem (they stay distinct and in [−1,1]).
    Domain: N ≥ 1, a known family (ValueError otherwise).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"real_family needs N ≥ 1 nodes, got {n!r}")
    if family == "real":
        return nd.real(n, Fraction(1), seed)
    if family == "equispaced":
        vals = [Fraction(-1) + Fraction(2 * j, n - 1) for j in range(n)] if n > 1 else [Fraction(0)]
        return nd.Nodes("equispaced", values=tuple(QQi(v) for v in vals),
                        description=f"{n} equispaced nodes in [-1, 1]")
    if family == "chebyshev":
        ctx = mpmath.MPContext()
        ctx.prec = 128
        vals = [dyadic(ctx.cospi(ctx.mpf(2 * j + 1) / (2 * n)), nd.NODE_FRAC_BITS) for j in range(n)]
        return nd.Nodes("chebyshev", values=tuple(QQi(v) for v in vals),
                        description=f"{n} Chebyshev points (dyadic, 52 fractional bits)")
    raise ValueError(f"unknown real family {family!r}; expected one of {', '.join(REAL_FAMILIES)}")


def _flint(bits: int) -> Any:
    from recmem.numerics.backend import BackendSpec
    from recmem.numerics.flint_backend import FlintBackend

    return FlintBackend(BackendSpec("flint", bits=bits))


def exact_flint_matrix(rows: Sequence[Sequence[QQi]]) -> Any:
    """An exact ``acb_mat`` of Gaussian rationals (zero radii: valid at every precision)."""
    import flint

    return flint.acb_mat([[_qf(q) for q in row] for row in rows])


def omega_builder(nodes: nd.Nodes, psi: Sequence[Sequence[QQi]], form: str = "omega",
                  psi_flint: Any = None) -> Callable[[int], Any]:
    """A builder of Ω = V_L Ψ_L (O App. E.2), or of ΩᵀΩ (``form="transpose"``: plain transpose).

    ``psi_flint`` is Ψ_L as an exact flint matrix (built once per study and shared).
    """
    length = len(psi)
    psi_m = exact_flint_matrix(psi) if psi_flint is None else psi_flint

    def build(bits: int) -> Any:
        fb = _flint(bits)
        with fb.workprec():
            om = fb.vandermonde(nodes.to(fb), length) * psi_m
            return om.transpose() * om if form == "transpose" else om

    return build


def abs_product_fro(nodes: nd.Nodes, psi: Sequence[Sequence[QQi]]) -> mpmath.mpf:
    """‖ |V_L| |Ψ_L| ‖_F: the scale of rounding errors in forming Ω = V_L Ψ_L (a tolerance scale).

    Every term is non-negative, so float64 evaluation (|λ|^t by repeated products, then sums)
    is accurate to about 2L·u relative: ample for a quantity that only scales a tolerance. The
    nodes are converted exactly-rounded (they are dyadic with 52 fractional bits).
    """
    import numpy as np

    assert nodes.values is not None
    length = len(psi)
    r = np.array([abs(complex(float(q.re), float(q.im))) for q in nodes.values])
    absv = np.cumprod(np.column_stack([np.ones_like(r)] + [r] * (length - 1)), axis=1)[:, ::-1]
    apsi = np.array([[abs(float(q.re)) + abs(float(q.im)) for q in row] for row in psi])
    return mpmath.mpf(float(np.linalg.norm(absv @ apsi)))


def float_start_bits(a: Any, extra: int) -> int:
    """A starting precision for :func:`sigma_bracket` from a float64 estimate of κ₂(a).

    The Gram matrix needs about 2·log₂κ bits plus a margin (``extra``, ≈ 3 bits per column was
    measured for flint's eig); the estimate only saves failed attempts and is never trusted as a
    result. Beyond float64's reach (κ̂ > 1e13) start at 256 bits and let the doubling go on.
    """
    import numpy as np

    with np.errstate(all="ignore"):
        k = float(np.linalg.cond(a))
    if not math.isfinite(k) or k > 1e13:
        return 256
    return max(64, 32 * math.ceil((2 * math.log2(max(k, 1.0)) + extra + 32) / 32))


def _float_omega(nodes: nd.Nodes, psi: Sequence[Sequence[QQi]]) -> Any:
    """Ω = V_L Ψ_L in float64 (real Ψ): only an estimate, to choose a starting precision."""
    import numpy as np

    assert nodes.values is not None
    lam = np.array([complex(float(q.re), float(q.im)) for q in nodes.values])
    p = np.array([[float(q.re) for q in row] for row in psi])
    from recmem.numerics.numpy_backend import vander

    return vander(lam, len(psi)) @ p


def _qf(q: QQi) -> Any:
    import flint

    return flint.acb(flint.fmpq(q.re.numerator, q.re.denominator),
                     flint.fmpq(q.im.numerator, q.im.denominator))


# ---- the studies ----------------------------------------------------------------------------------
@dataclass
class Study:
    """A study's rows (one per draw) and the settings that produced it."""

    name: str
    settings: Row
    rows: Table = field(default_factory=list)

    def table(self, columns: Sequence[str]) -> Table:
        """The rows restricted to plain columns (for reports)."""
        return [{c: r[c] for c in columns} for r in self.rows]


def real_study(ns: Sequence[int], families: Sequence[str] = REAL_FAMILIES, seed: int = 0,
               draws: int = 1, exact: bool = True) -> Study:
    """κ₂(V_N) for real nodes (O §3.1, [9]): certified κ₂ per point and, with ``exact``, the exact
    ‖V⁻¹‖₁, κ₁ and Gautschi's bounds (recmem.theory.real_nodes.certify_point)."""
    st = Study("real", {"N": list(ns), "families": list(families), "seed": seed, "draws": draws,
                        "k": "N (square V_N)"})
    for c, cell, d in grid({"family": families, "N": ns}, draws):
        seed_cd = draw_seed(seed, c, d)
        nodes = real_family(cell["family"], int(cell["N"]), seed_cd)
        st.rows.append(_real_row({**cell, "draw": d, "seed": seed_cd}, nodes, exact))
    return st


def real_rows(node_sets: Mapping[str, Sequence[Fraction]], family: str) -> Table:
    """The rows of :func:`real_study` (exact quantities and certified κ₂) for given exact node
    sets, keyed by a label (e.g. the tight configurations of the real-node bound)."""
    rows = []
    for label, values in node_sets.items():
        nodes = nd.Nodes(family, values=tuple(QQi(Fraction(v)) for v in values),
                         description=f"{family} {label}")
        rows.append(_real_row({"family": family, "N": len(values), "draw": 0, "seed": 0,
                               "label": label}, nodes, exact=True))
    return rows


def _real_row(cell: Row, nodes: nd.Nodes, exact: bool) -> Row:
    """One real-node point: exact κ₁ and Gautschi's bounds (``exact``) and the certified σ's."""
    from recmem.theory.real_nodes import certify_point

    n = int(cell["N"])
    row: Row = {**cell, "nodes": nodes, "k": n}
    start = 64
    if exact:
        assert nodes.values is not None
        row.update(certify_point([v.re for v in nodes.values]))
        # κ₁/N ≤ κ₂ ≤ N·κ₁ (exact κ₁): the Gram matrix needs about 2·log₂κ₂ bits plus a
        # margin that flint's eig needs, measured at ≈ 2.5–3.2·N bits for N ≤ 32; start at
        # 2·log₂κ₁ + 3N + 16 instead of failing at 64, 128, … first.
        guess = 2 * math.log2(float(row["kappa1"])) + 3 * n + 16
        start = max(64, 16 * math.ceil(guess / 16))
    sig = vandermonde_sigma(nodes, n, start_bits=start)
    row.update({"sigma": sig, "kappa": sig.kappa, "log2_kappa": sig.kappa.log2})
    return row


@lru_cache(maxsize=4096)
def ring_nodes(n: int, r_min: Fraction, r_max: Fraction, seed: int) -> nd.Nodes:
    """Lemma 6 ring nodes (recmem.numerics.nodes.ring), memoised: drawing them exactly costs
    about as much as certifying κ, and the two readings of O.sparse-conditioning draw the same
    nodes in every cell (nodes are immutable)."""
    return nd.ring(n, r_min, r_max, seed)


def ring_study(length: int, ns: Sequence[int], r_mins: Sequence[Fraction],
               r_max: Fraction = Fraction(1), draws: int = 6, seed: int = 0, *,
               keep: Callable[[Mapping[str, Any]], bool]) -> Study:
    """κ₂(V_L) (N×L) for Lemma 6 ring nodes over N × r_min (O App. E.1, Fig. 4).

    ``keep(cell)`` (cell: N, r_min, L) is the hypothesis of the statement under study (App. E.1:
    N ≥ L, recmem.theory.conditioning_studies.RingTrends.admits); cells it rejects are left out.
    """
    st = Study("ring", {"L": length, "N": list(ns), "r_min": [str(r) for r in r_mins],
                        "r_max": str(r_max), "draws": draws, "seed": seed})
    for c, cell, d in grid({"N": ns, "r_min": r_mins}, draws,
                           keep=lambda c: keep({**c, "L": length})):
        seed_cd = draw_seed(seed, c, d)
        nodes = ring_nodes(int(cell["N"]), cell["r_min"], r_max, seed_cd)
        sig = vandermonde_sigma(nodes, length)
        st.rows.append({**cell, "draw": d, "seed": seed_cd, "nodes": nodes, "k": length,
                        "sigma": sig,
                        "kappa": sig.kappa, "log2_kappa": sig.kappa.log2})
    return st


def sparse_study(length: int, ns: Sequence[int], ps: Sequence[int], r_mins: Sequence[Fraction],
                 r_max: Fraction = Fraction(1), draws: int = 3, seed: int = 0,
                 reading: str = "transpose", *,
                 keep: Callable[[Mapping[str, Any]], bool]) -> Study:
    """κ₂(ΩᵀΩ) (``reading="transpose"``, as printed) or κ₂(ΩᴴΩ) = κ₂(Ω)² (``"hermitian"``) for
    Ω = V_L Ψ_L with the first P Haar functions (O App. E.2, Fig. 6), over N × P × r_min.

    ``keep(cell)`` (cell: N, P, r_min, L) is the hypothesis of the statement under study (O §3.2:
    N > P + 1, recmem.theory.conditioning_studies.SparseTrends.admits); cells it rejects are
    left out.
    """
    from recmem.numerics.haar import haar_rows

    if reading not in ("transpose", "hermitian"):
        raise ValueError(f"reading must be transpose or hermitian, got {reading!r}")
    st = Study("sparse", {"L": length, "N": list(ns), "P": list(ps),
                          "r_min": [str(r) for r in r_mins], "r_max": str(r_max), "draws": draws,
                          "seed": seed, "reading": reading})
    psis = {p: haar_rows(length, p) for p in ps}
    # Ψ has entries 0, ±1: exact flint copies, built once and shared by every draw
    psi_f = {p: exact_flint_matrix(m) for p, m in psis.items()}
    for c, cell, d in grid({"N": ns, "P": ps, "r_min": r_mins}, draws,
                           keep=lambda c: keep({**c, "L": length})):
        seed_cd = draw_seed(seed, c, d)
        nodes = ring_nodes(int(cell["N"]), cell["r_min"], r_max, seed_cd)
        psi = psis[int(cell["P"])]
        row: Row = {**cell, "draw": d, "seed": seed_cd, "nodes": nodes, "psi": psi,
                    "abs_scale": abs_product_fro(nodes, psi)}
        om = _float_omega(nodes, psi)  # only to choose the starting precision
        extra = 3 * int(cell["P"])
        if reading == "hermitian":
            sig = sigma_bracket(omega_builder(nodes, psi, "omega", psi_f[int(cell["P"])]),
                                start_bits=float_start_bits(om, extra))
            kap = square_bracket(sig.kappa)
        else:
            sig = sigma_bracket(omega_builder(nodes, psi, "transpose", psi_f[int(cell["P"])]),
                                start_bits=float_start_bits(om.T @ om, extra))
            kap = sig.kappa
        row.update({"sigma": sig, "kappa": kap, "log2_kappa": kap.log2})
        st.rows.append(row)
    return st


# ---- single certified points (counterexample search over study designs) -------------------------
def _any_cell(cell: Mapping[str, Any]) -> bool:
    return True


@lru_cache(maxsize=2048)
def ring_point(length: int, n: int, r_min: Fraction, r_max: Fraction, seed: int) -> Row:
    """One draw of :func:`ring_study` on its own pinned seed: the certified κ₂(V_L) (N×L) of N
    Lemma 6 ring nodes (O App. E.1), memoised (a search judges some designs more than once; the
    row must not be changed). The caller states the hypothesis; every cell is computed here."""
    return ring_study(length, [n], [r_min], r_max, draws=1, seed=seed, keep=_any_cell).rows[0]


@lru_cache(maxsize=2048)
def sparse_point(length: int, n: int, p: int, r_min: Fraction, r_max: Fraction, seed: int,
                 reading: str) -> Row:
    """One draw of :func:`sparse_study` on its own pinned seed: the certified κ₂ of ΩᵀΩ
    (``reading="transpose"``) or ΩᴴΩ (``"hermitian"``), Ω = V_L Ψ_L with the first P Haar
    functions and N Lemma 6 ring nodes (O App. E.2), memoised (the row must not be changed). The
    caller states the hypothesis (N > P + 1); every cell is computed here."""
    return sparse_study(length, [n], [p], [r_min], r_max, draws=1, seed=seed, reading=reading,
                        keep=_any_cell).rows[0]
