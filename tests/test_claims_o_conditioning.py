"""Tests of the conditioning claims O.real-illcond, O.ring-conditioning, O.sparse-conditioning
(and its Hermitian reading), of the study machinery (numerics/studies.py) and of the exact
real-node theory (theory/real_nodes.py)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from claim_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o import _studies
from recmem.checks.registry import get
from recmem.checks.runner import UsageError, resolve_params
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics import nodes as nd
from recmem.numerics import studies as S
from recmem.numerics.backend import make_backend
from recmem.numerics.conditioning import KappaBracket, exact_matrix_builder
from recmem.numerics.exact import QQi
from recmem.numerics.haar import haar_rows
from recmem.theory import real_nodes as rn

F = Fraction


def _ev(result, *, backend=None, kind=None, check=None):
    return [e for e in result.evidence
            if (backend is None or e.backend == backend) and (kind is None or e.kind == kind)
            and (check is None or check in e.check)]


# ---- statistics machinery ------------------------------------------------------------------------

def test_kendall_matches_the_exact_permutation_distribution():
    """No ties, n = 7: τ_b = S/21 and the normal p-value tracks the exact one (5040 perms)."""
    x = list(range(7))
    y = [3.0, 1.0, 2.0, 6.0, 5.0, 7.0, 4.0]
    k = S.kendall(x, y)
    exact_s = sum(np.sign(x[j] - x[i]) * np.sign(y[j] - y[i])
                  for i in range(7) for j in range(i + 1, 7))
    assert k.s == exact_s and k.tau_b == pytest.approx(exact_s / 21)
    assert k.var_s == pytest.approx(7 * 6 * 19 / 18)
    null = [S.kendall(x, list(p)).s for p in itertools.permutations(range(7))]
    p_exact = sum(s >= k.s for s in null) / len(null)
    assert abs(k.p_greater - p_exact) < 0.02
    assert k.p_less > 0.9


def test_kendall_ties_agree_with_scipy_tau_b():
    from scipy.stats import kendalltau

    rng = np.random.default_rng(3)
    x = list(rng.integers(0, 4, 30).astype(float))
    y = list(rng.integers(0, 5, 30).astype(float))
    k = S.kendall(x, y)
    ref = kendalltau(x, y)
    assert k.tau_b == pytest.approx(ref.statistic, abs=1e-12)
    # continuity correction makes ours slightly conservative, never far off
    two_sided = 2 * min(k.p_less, k.p_greater)
    assert ref.pvalue <= two_sided <= ref.pvalue + 0.1


def _rows(effects, draws=8, seed=0):
    """Two strata g ∈ {a, b}; response = effect[g]·x + noise over x ∈ {1, 2, 3}."""
    rng = np.random.default_rng(seed)
    return [{"g": g, "x": x, "y": eff * x + rng.normal(0, 0.3)}
            for g, eff in effects.items() for x in (1, 2, 3) for _ in range(draws)]


def test_trend_test_outcomes():
    dec = S.trend_test(_rows({"a": -1.0, "b": -1.0}), "x", "y", "decreasing", ["g"], 0.01)
    assert dec.outcome == "pass" and dec.p_claimed < 1e-6
    flat_b = S.trend_test(_rows({"a": -1.0, "b": 0.0}), "x", "y", "decreasing", ["g"], 0.01)
    # shown in stratum a only: a universal trend is not established (intersection-union test)
    assert flat_b.outcome == "inconclusive" and "g=b" in flat_b.reason
    assert "shown in 1 of 2 strata" in flat_b.reason
    opposite = S.trend_test(_rows({"a": -1.0, "b": 1.0}), "x", "y", "decreasing", ["g"], 0.01)
    assert opposite.outcome == "fail" and "g=b" in opposite.reason
    inc = S.trend_test(_rows({"a": 1.0, "b": 1.0}), "x", "y", "increasing", ["g"], 0.01)
    assert inc.outcome == "pass"
    one_level = S.trend_test([{"x": 1, "y": 1.0}, {"x": 1, "y": 2.0}], "x", "y", "decreasing",
                             [], 0.01)
    assert one_level.outcome == "inconclusive"
    with pytest.raises(ValueError):
        S.trend_test(dec.strata and [], "x", "y", "sideways", [], 0.01)


def test_summaries_fit_and_grid():
    rows = [{"c": 1, "v": float(v)} for v in (1, 2, 3, 4, 100)]
    (s,) = S.summarize(rows, "v", ["c"])
    assert (s.count, s.median, s.q1, s.q3, s.lo, s.hi) == (5, 3.0, 2.0, 4.0, 1.0, 100.0)
    fit = S.loglinear_fit([1, 2, 3, 4], [3.0, 5.0, 7.0, 9.0])
    assert (fit.slope, fit.intercept, fit.r2) == pytest.approx((2.0, 1.0, 1.0))
    cells = S.grid({"N": [8, 16], "P": [4, 8]}, draws=2, keep=lambda c: c["N"] > c["P"] + 1)
    assert [(c, d) for c, _, d in cells] == [(0, 0), (0, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    seeds = {S.draw_seed(5, c, d) for c, _, d in cells}
    assert len(seeds) == len(cells)
    with pytest.raises(ValueError):
        S.draw_seed(0, 0, S.SEED_CELL)


# ---- certified singular values ---------------------------------------------------------------------

def test_sigma_bracket_encloses_known_singular_values():
    rows = [[QQi(F(3)), QQi(F(0))], [QQi(F(0)), QQi(F(0), F(1, 2))]]  # σ = 3, 1/2
    sig = S.sigma_bracket(exact_matrix_builder(rows))
    assert sig.certified
    assert sig.smax[0] <= 3 <= sig.smax[1] and sig.smin[0] <= 0.5 <= sig.smin[1]
    assert sig.kappa.lo <= 6 <= sig.kappa.hi and sig.kappa.hi / sig.kappa.lo < 1 + 1e-10
    with mpmath.workprec(400):  # the oracle must be more precise than the bracket it judges
        fro = mpmath.sqrt(mpmath.mpf("9.25"))
    assert sig.fro[0] <= fro <= sig.fro[1]
    singular = S.sigma_bracket(exact_matrix_builder([[QQi(F(1))] * 2] * 2), max_bits=256)
    assert not singular.certified and not mpmath.isfinite(singular.kappa.hi)


def test_hermitian_and_transpose_readings_agree_on_real_nodes_and_differ_on_complex():
    psi = haar_rows(16, 4)
    real_nodes = nd.real(8, F(1), seed=2)  # real Ω: ΩᵀΩ = ΩᴴΩ, so κ₂(ΩᵀΩ) = κ₂(Ω)²
    t = S.sigma_bracket(S.omega_builder(real_nodes, psi, "transpose")).kappa
    h = S.square_bracket(S.sigma_bracket(S.omega_builder(real_nodes, psi, "omega")).kappa)
    assert max(t.lo, h.lo) <= min(t.hi, h.hi)  # brackets overlap
    disjoint = 0
    for seed in range(4):
        ring = nd.ring(8, F(1, 2), F(1), seed)
        t = S.sigma_bracket(S.omega_builder(ring, psi, "transpose")).kappa
        h = S.square_bracket(S.sigma_bracket(S.omega_builder(ring, psi, "omega")).kappa)
        disjoint += t.hi < h.lo or h.hi < t.lo
    assert disjoint >= 1  # the literal Ωᵀ is a different matrix: certified different κ


def test_abs_product_scale_bounds_omega():
    nodes = nd.ring(12, F(9, 10), F(1), seed=1)
    psi = haar_rows(16, 4)
    sig = S.sigma_bracket(S.omega_builder(nodes, psi))
    assert S.abs_product_fro(nodes, psi) >= sig.fro[0]  # ‖|V||Ψ|‖_F ≥ ‖VΨ‖_F


# ---- exact real-node theory --------------------------------------------------------------------

def test_chebyshev_identity_symbolic():
    proof = rn.chebyshev_divided_difference(6)
    assert proof.holds is True and "n ≤ 6" in proof.scope


def test_exact_inverse_norm_matches_sympy_inverse():
    import sympy as sp

    xs = [F(-1, 2), F(1, 3), F(3, 4), F(-7, 8)]
    v = sp.Matrix([[sp.Rational(x.numerator, x.denominator) ** p for p in range(4)] for x in xs])
    inv = v.inv()
    col_sums = [sum(abs(inv[i, j]) for i in range(4)) for j in range(4)]
    assert rn.inverse_norm1(xs) == F(str(max(col_sums)))
    assert rn.vandermonde_norm1(xs) == F(str(max(sum(abs(v[i, j]) for i in range(4))
                                                    for j in range(4))))


@given(st.lists(st.fractions(F(1, 16), F(4), max_denominator=16), min_size=2, max_size=5,
                unique=True))
@settings(max_examples=25)
def test_gautschi_upper_bound_is_attained_on_a_ray(xs):
    """Gautschi: equality on the right for nodes on one ray; both exact computations must agree."""
    assert rn.inverse_norm1(xs) == rn.gautschi_bounds(xs)[1]
    neg = [-x for x in xs]
    assert rn.inverse_norm1(neg) == rn.gautschi_bounds(neg)[1]


def test_lower_bound_is_attained_by_chebyshev_extrema():
    """Nodes {−1, 0, 1} are the extrema of T_2: Σ 1/|w'(x_i)| = 2^(n−2) exactly, so step 2 of the
    argument is tight, and κ₁ ≥ 2^(n−2) holds with room only from ‖V‖₁ and the other coefficients."""
    c = rn.certify_point([F(-1), F(0), F(1)])
    assert c["gautschi_ok"] and c["bound_ok"]
    assert c["inverse_norm1"] == F(2)  # ℓ_0 = 1 − x², coefficients 1, 0, −1
    assert c["kappa1"] == 3 * F(2)


CLAIM_REAL = get("O.real-illcond")


@given(CLAIM_REAL.strategy(Context(CLAIM_REAL.defaults())))
def test_real_illcond_holds_on_its_domain(xs):
    inst = CLAIM_REAL.holds(xs, Context(CLAIM_REAL.defaults()))
    assert inst.holds is True
    n = len(xs)
    assert rn.kappa1(xs) >= 2 ** (n - 2)
    # and the certified κ₂ respects the derived bound κ₂ ≥ 2^(n−2)/n
    k = S.sigma_bracket(S.vandermonde_builder(nd.Nodes("real", values=tuple(QQi(x) for x in xs)),
                                              n)).kappa
    assert k.hi >= mpmath.mpf(2 ** (n - 2)) / n


# ---- the claims -----------------------------------------------------------------------------------

def test_real_illcond_verified_and_float64_breaks():
    r = run("O.real-illcond", backends=("sympy", "mpmath@128", "flint@128", "numpy",
                                        "numpy:float32"),
            n_max_symbolic=5, hp_N=8, examples=15)
    assert r.verdict is Verdict.VERIFIED
    sanity = _ev(r, check="certified sanity")
    assert sanity and sanity[0].outcome is Outcome.PASS and sanity[0].instances == 24
    growth = _ev(r, kind="statistical")
    assert growth[0].outcome is Outcome.PASS
    assert all(f["slope_bits_per_node"] > 1 for f in growth[0].data["fits"].values())
    # Chebyshev points: κ grows like (1 + √2)^N, log₂(1 + √2) ≈ 1.27 bits per node
    assert growth[0].data["fits"]["chebyshev"]["slope_bits_per_node"] == pytest.approx(1.27,
                                                                                       abs=0.05)
    # float64 resolves the small sizes and goes inconclusive on the ill-conditioned ones
    f64 = {e.outcome for e in _ev(r, backend="numpy")}
    assert f64 == {Outcome.PASS, Outcome.INCONCLUSIVE}
    unresolved = next(e for e in _ev(r, backend="numpy") if e.outcome is Outcome.INCONCLUSIVE)
    assert "real N=20" in unresolved.message and unresolved.needed_bits > 53
    f32 = next(e for e in _ev(r, backend="numpy:float32") if e.outcome is Outcome.INCONCLUSIVE)
    assert f32.instances > unresolved.instances  # float32 breaks earlier


def test_real_illcond_params_are_validated():
    with pytest.raises(UsageError):
        resolve_params([CLAIM_REAL], {"families": "real,gaussian"})
    with pytest.raises(UsageError):
        resolve_params([CLAIM_REAL], {"Ns": "1,4"})
    vals = resolve_params([CLAIM_REAL], {"Ns": "4, 6"})[CLAIM_REAL.id]
    assert vals["Ns"] == (4, 6)


def test_ring_conditioning_study_and_float_reconstruction():
    r = run("O.ring-conditioning", backends=("mpmath@128", "flint@128", "numpy"), L=8,
            Ns="8,16,32", r_mins="0,99/100", draws=4, hp_points=1)
    assert r.verdict in (Verdict.CORROBORATED, Verdict.INCONCLUSIVE)
    study = _ev(r, check="certified κ₂(V_L) per draw")[0]
    assert study.outcome is Outcome.PASS and study.instances == 24
    cells = study.data["cells"]
    assert len(cells) == 6 and all({"median", "q1", "q3"} <= set(c) for c in cells)
    n_trend = _ev(r, backend="flint@128", check="falls as N grows")[0]
    assert n_trend.kind == "statistical" and n_trend.outcome is Outcome.PASS
    recon = _ev(r, backend="numpy", check="reconstruction error of")[0]
    assert recon.outcome is Outcome.PASS and recon.instances == 24
    assert _ev(r, backend="flint@128", check="recovers the exact input")[0].outcome is Outcome.PASS
    assert _ev(r, backend="mpmath@128")[0].instances == 1


def test_ring_conditioning_at_n_equal_l_r_min_does_not_help():
    """At N = L (square V_L) κ₂ does not fall as r_min goes from 1/2 to 99/100: the trend test
    must not pass there (random angles on the circle cluster as badly as in the disk)."""
    study = S.ring_study(8, [8], [F(1, 2), F(9, 10), F(99, 100)], draws=20, seed=1)
    test = S.trend_test(study.rows, "r_min", "log2_kappa", "decreasing", ["N"], _studies.ALPHA)
    assert test.outcome != "pass"
    wide = S.ring_study(8, [8, 32], [F(0), F(99, 100)], draws=10, seed=1)
    assert S.trend_test(wide.rows, "N", "log2_kappa", "decreasing", ["r_min"],
                        _studies.ALPHA).outcome == "pass"


@pytest.mark.parametrize("claim_id", ["O.sparse-conditioning", "O.sparse-conditioning.hermitian"])
def test_sparse_conditioning_readings(claim_id):
    r = run(claim_id, backends=("mpmath@128", "flint@128", "numpy"), L=16, Ns="8,12,16",
            Ps="2,4", r_mins="0,99/100", draws=3, hp_points=1)
    assert r.verdict not in (Verdict.ERROR, Verdict.REFUTED, Verdict.SKIPPED)
    stats_ev = _ev(r, kind="statistical")
    assert {e.data["test"]["factor"] for e in stats_ev} == {"N", "P", "r_min"}
    assert all(e.outcome in (Outcome.PASS, Outcome.INCONCLUSIVE, Outcome.FAIL) for e in stats_ev)
    study = _ev(r, check="per draw")[0]
    assert study.instances == 3 * 3 * 2 * 2  # every (N, P) cell satisfies N > P + 1
    assert all(e.outcome is Outcome.PASS for e in _ev(r, backend="numpy"))
    claim = get(claim_id)
    assert (claim.reading is not None) == claim_id.endswith("hermitian")


def test_sparse_conditioning_drops_cells_outside_the_hypothesis():
    st_ = S.sparse_study(16, [4, 8], [4], [F(1, 2)], draws=1)
    assert [r["N"] for r in st_.rows] == [8]  # N = 4 ≤ P + 1 is left out


# ---- evidence helpers ----------------------------------------------------------------------------

def test_judged_points_fail_and_inconclusive_paths():
    b = make_backend("numpy")
    rows = [{"name": "ok", "err": mpmath.mpf("1e-15"), "k": mpmath.mpf(10)},
            {"name": "bad", "err": mpmath.mpf("1e-3"), "k": mpmath.mpf(10)},
            {"name": "hopeless", "err": mpmath.mpf(1), "k": mpmath.mpf("1e20")}]
    out = _studies.judged_points(b, rows, "test", lambda r: (r["err"], r["k"], 4),
                                 lambda r: r["name"], "x")
    assert [e.outcome for e in out] == [Outcome.FAIL, Outcome.INCONCLUSIVE]
    assert "bad" in out[0].message and "hopeless" in out[1].message
    assert out[1].needed_bits is not None and out[1].needed_bits > 53


def test_distance_to_bracket():
    k = KappaBracket(mpmath.mpf(10), mpmath.mpf(11), 64, True)
    assert _studies.distance_to_bracket(mpmath.mpf("10.5"), k) == 0
    assert _studies.distance_to_bracket(mpmath.mpf(5), k) == pytest.approx(0.5)
    assert _studies.distance_to_bracket(mpmath.mpf(22), k) == pytest.approx(1.0)
    assert _studies.distance_to_bracket(mpmath.inf, k) == mpmath.inf
    assert _studies.to_fraction(mpmath.mpf("0.375")) == F(3, 8)
    assert math.isclose(_studies.log2_floor(mpmath.mpf(0), 80), -80)
