"""The perturbation-error estimator (W Def. 3.4) and App. D's least-squares fits, in every arithmetic."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from recmem.numerics import expsum_fit as ef
from recmem.numerics import perturbation as pt
from recmem.numerics.kernels import ExponentialKernel, SampledKernel, parse_kernel

GRID = pt.Grid(Fraction(1), Fraction(1), 12)


def _appd(m: int, kernel: str = "poly:11/10") -> pt.Theta:
    a = ef.fit_numpy(parse_kernel(kernel), GRID.values, ef.app_d_rates(m))
    return pt.Theta.linear(-np.diag(np.arange(1.0, m + 1)), np.ones(m), a)


# ---- sampling and exact ball membership ----------------------------------------------------
def test_draw_shapes_zero_ball_and_prefix_property() -> None:
    betas = (Fraction(0), Fraction(1, 8), Fraction(1, 4))
    p = pt.draw(3, betas, 5, (1, 2), blocks=pt.LINEAR_BLOCKS)
    assert p.n == 11 and p.dW.shape == (11, 3, 3) and not p.db.any()
    assert not (p.dW[0].any() or p.dU[0].any() or p.dc[0].any())  # β = 0: the ball is a point
    q = pt.draw(3, betas[:2], 5, (1, 2), blocks=pt.LINEAR_BLOCKS)
    assert np.array_equal(p.dW[: q.n], q.dW)  # a prefix of the β list draws the same points
    assert pt.certify_in_ball(p).all()
    assert pt.draw(3, betas, 5, 0).db[1:].any()
    readout = pt.draw(3, betas, 5, 0, blocks=("c",))
    assert not (readout.dW.any() or readout.dU.any() or readout.db.any()) and readout.dc[1:].any()
    with pytest.raises(ValueError):
        pt.draw(3, betas, 5, 0, blocks=("V",))


def test_the_infinity_ball_is_larger_and_certified_exactly() -> None:
    """Lemma A.6's ∞-norm ball: samples fill the cube (outside the 2-ball for m ≥ 2), membership
    is exact per entry, and the 2-ball's certificate rejects its corners."""
    betas = (Fraction(0), Fraction(1, 4))
    p = pt.draw(4, betas, 200, 0, blocks=("c",), ball="inf")
    assert pt.certify_in_ball(p, "inf").all()
    assert np.abs(p.dc).max() <= 0.25 and np.abs(p.dc).max() > 0.24
    assert not pt.certify_in_ball(p, "2").all()  # the cube sticks out of the Euclidean ball
    assert pt.certify_in_ball(pt.draw(4, betas, 200, 0, blocks=("c",)), "inf").all()


@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False), max_size=20))
def test_exact_sumsq_is_exact(xs: list[float]) -> None:
    assert pt.exact_sumsq(np.array(xs)) == sum((Fraction(x) ** 2 for x in xs), Fraction(0))


def test_certify_rejects_a_point_outside_the_ball() -> None:
    p = pt.draw(2, (Fraction(1, 4),), 1, 0)
    bad = pt.Perturbations(p.dW * 0 + 0.25, p.dU, p.db, p.dc, p.beta_index, p.betas)
    assert not pt.certify_in_ball(bad)[0]  # ‖ΔW‖_F = 0.5 > 1/4
    assert pt.certify_in_ball(bad, "inf")[0]  # every entry is 1/4: inside the ∞-ball
    worse = pt.Perturbations(p.dW * 0 + 0.25 + 2.0**-50, p.dU, p.db, p.dc, p.beta_index, p.betas)
    assert not pt.certify_in_ball(worse, "inf")[0]


# ---- closed forms agree across arithmetics --------------------------------------------------
def test_linear_response_numpy_torch_mpmath_flint_agree() -> None:
    import flint
    import torch

    th = _appd(3)
    p = pt.draw(3, (Fraction(1, 100),), 3, 0, blocks=pt.LINEAR_BLOCKS)
    W, U, _, c = p.apply(th)
    r, o = pt.linear_response_numpy(W, U, c, GRID)
    rt, ot = (v.numpy() for v in pt.linear_response_torch(*(torch.tensor(v) for v in (W, U, c)), GRID))
    ctx = mpmath.MPContext()
    ctx.prec = 128
    rm, om = pt.linear_response_mp(W[0], U[0], c[0], GRID, ctx)
    with flint.ctx.workprec(128):
        ra, _ = pt.linear_response_arb(W[0], U[0], c[0], GRID)
        assert all(b.contains(flint.arb(str(v))) or abs(float(b.mid()) - float(v)) < 1e-25
                   for b, v in zip(ra, rm, strict=True))
    scale = np.abs(c * U).sum(axis=1, keepdims=True)
    assert np.max(np.abs(r - rt) / scale) < 1e-13 and np.max(np.abs(o - ot) / scale) < 1e-13
    assert max(abs(float(a) - b) for a, b in zip(rm, r[0], strict=True)) < 1e-13 * scale[0, 0]
    assert max(abs(float(a) - b) for a, b in zip(om, o[0], strict=True)) < 1e-13 * scale[0, 0]


def test_defective_w_falls_back_to_scaling_and_squaring() -> None:
    # a Jordan block: the eigendecomposition route is not trusted and expm takes over
    W = np.array([[[-1.0, 1.0], [0.0, -1.0]]])
    U, c = np.array([[0.0, 1.0]]), np.array([[1.0, 0.0]])
    r, o = pt.linear_response_numpy(W, U, c, GRID)
    t = GRID.values
    assert np.allclose(r[0], t * np.exp(-t), rtol=1e-12, atol=0)  # (e^{Wt})_{12} = t e^{−t}
    assert np.allclose(o[0], 1 - np.exp(-t) * (1 + t), rtol=1e-12, atol=0)


def test_overflow_is_inf_not_nan() -> None:
    th = _appd(2)
    p = pt.draw(2, (Fraction(0), Fraction(64)), 4, 0, blocks=pt.LINEAR_BLOCKS)
    err = pt.linear_evaluator(th, pt.LinearTarget(parse_kernel("poly:11/10")),
                              pt.Grid(Fraction(1), Fraction(1), 100), "memory")(p)
    assert not np.isnan(err).any() and np.isinf(err).any()


# ---- the estimator's properties ------------------------------------------------------------------
@pytest.mark.parametrize("norm", pt.NORMS)
def test_estimate_zero_is_the_unperturbed_error_and_monotone(norm: str) -> None:
    th = _appd(3)
    target = pt.LinearTarget(parse_kernel("poly:11/10"))
    ev = pt.linear_evaluator(th, target, GRID, norm)
    est = pt.estimate(ev, 3, (Fraction(0), Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10)), 6, 0,
                      blocks=pt.LINEAR_BLOCKS, norm=norm,
                      targeted=pt.first_order_points(th, target, GRID,
                                                     (Fraction(0), Fraction(1, 1000), Fraction(1, 100),
                                                      Fraction(1, 10)), norm, 4))
    r, o = pt.linear_response_numpy(th.W[None], th.U[None], th.c[None], GRID)
    t = GRID.values
    direct = {"memory": np.abs(r[0] - target.rate_numpy(t)).max(),
              "output": np.abs(o[0] - target.out_numpy(t)).max(),
              "sobolev": (np.abs(r[0] - target.rate_numpy(t)) + np.abs(o[0] - target.out_numpy(t))).max(),
              "l1": np.abs(r[0] - target.rate_numpy(t)).sum() * float(GRID.step)}
    assert est.unperturbed == direct[norm]
    assert np.all(np.diff(est.values) >= 0) and est.certified_in_ball
    assert np.all(est.values >= np.nan_to_num(est.sampled, nan=-1))


def test_search_and_targeted_points_stay_between_sampling_and_the_exact_sup() -> None:
    from recmem.checks.claims.paper_w._stability import ScalarCase

    case = ScalarCase(ExponentialKernel(Fraction(9, 10)), Fraction(-1, 8), Fraction(1), Fraction(3, 4), 10)
    betas = (Fraction(0), Fraction(1, 32), Fraction(1, 8))
    ev = pt.linear_evaluator(case.theta, case.target, case.grid, "memory")
    spec = pt.SearchSpec(pt.linear_objective_torch(case.theta, case.target, case.grid, "memory"),
                         steps=8, starts=3)
    for ball in pt.BALLS:  # 1×1 blocks: both balls are the box
        est = pt.estimate(ev, 1, betas, 6, 0, blocks=pt.LINEAR_BLOCKS, ball=ball, search=spec)
        assert est.certified_in_ball
        for i, b in enumerate(betas[1:], start=1):
            # a local search: between the samples and the exact sup (it may stop at a local max)
            assert (est.sampled[i] <= est.searched[i] <= est.values[i]
                    <= case.corner_sup_numpy(b) * (1 + 1e-12))
    # 1×1 blocks: first-order directions are ±1, corners of the (shrunk) box; at small β the
    # first-order corner is the worst one, at β = 1/8 the sup sits at the opposite corner (w + β = 0
    # stops the decay), which no first-order argument sees: still a lower bound
    tp = pt.first_order_points(case.theta, case.target, case.grid, betas, "memory")
    est = pt.estimate(ev, 1, betas, 6, 0, blocks=pt.LINEAR_BLOCKS, targeted=tp,
                      keep=len(case.grid.exact))
    small = case.corner_sup_numpy(betas[1] * (1 - Fraction(1, 2**40)))
    assert small * (1 - 1e-12) <= est.values[1] <= case.corner_sup_numpy(betas[1]) * (1 + 1e-12)
    assert est.values[2] <= case.corner_sup_numpy(betas[2]) * (1 + 1e-12)


def test_first_order_points_gradients_match_autograd() -> None:
    import torch

    th = _appd(3)
    th = pt.Theta.linear(th.W, np.array([1.0, 0.5, 2.0]), th.c)
    phi, psi = pt._phi(np.diag(th.W), GRID.values)
    W, U, c = (torch.tensor(v[None], requires_grad=True) for v in (th.W, th.U, th.c))
    r, o = pt.linear_response_torch(W, U, c, GRID)
    k = 4
    for val, mat, base in ((r, phi, np.exp(GRID.values[k] * np.diag(th.W))),
                           (o, psi, np.expm1(GRID.values[k] * np.diag(th.W)) / np.diag(th.W))):
        gW, gU, gc = (g[0].numpy() for g in torch.autograd.grad(val[0, k], [W, U, c], retain_graph=True))
        assert np.allclose(gW, th.c[:, None] * th.U[None, :] * mat[k], rtol=1e-10, atol=1e-12)
        assert np.allclose(gU, th.c * base, rtol=1e-10) and np.allclose(gc, th.U * base, rtol=1e-10)
    pts = pt.first_order_points(th, pt.LinearTarget(parse_kernel("poly:11/10")), GRID,
                                (Fraction(0), Fraction(1, 10)), "sobolev")
    assert pts.n == GRID.n and pt.certify_in_ball(pts).all()
    with pytest.raises(ValueError, match="diagonal"):
        pt.first_order_points(pt.Theta.linear(np.ones((2, 2)), [1, 1], [1, 1]),
                              pt.LinearTarget(parse_kernel("exp:1/2")), GRID, (Fraction(1),), "memory")


@pytest.mark.parametrize(("ball", "dual"), [("2", 2), ("inf", 1)])
def test_readout_first_order_points_are_the_exact_maximisers(ball: str, dual: int) -> None:
    """Only c perturbed: the error e(t) + Δcᵀg(t) is linear, and the first-order point of each time
    attains |e(t)| + β(1 − 2^-40)|g(t)|_q (q the dual norm) — the sup of A.8 eq. (33) over the ball."""
    th = pt.Theta.linear(-np.diag([0.125, 0.5, 1.0]), np.ones(3), [0.75, 0.25, -0.125])
    target = pt.LinearTarget(parse_kernel("exp:9/10"))
    beta = Fraction(1, 16)
    pts = pt.first_order_points(th, target, GRID, (beta,), "memory", ball=ball, blocks=("c",))
    assert pts.n == GRID.n and not (pts.dW.any() or pts.dU.any()) and pt.certify_in_ball(pts, ball).all()
    t = GRID.values
    g = np.exp(-np.outer(t, [0.125, 0.5, 1.0]))
    e = g @ th.c - target.rate_numpy(t)
    value = np.abs(e + np.einsum("nj,nj->n", pts.dc, g))  # point k evaluated at its own time k
    expect = np.abs(e) + float(beta) * (1 - pt.MARGIN) * np.linalg.norm(g, ord=dual, axis=1)
    assert np.allclose(value, expect, rtol=1e-14, atol=0)


def test_l1_norm_sums_the_memory_errors() -> None:
    """App. D's ∫|ρ − ρ̂| on the grid: Σ_t |Δρ(t)|·Δt, and its single first-order point per β."""
    grid = pt.Grid(Fraction(1, 2), Fraction(1, 2), 16)
    th = _appd(2)
    target = pt.LinearTarget(parse_kernel("poly:11/10"))
    r, _ = pt.linear_response_numpy(th.W[None], th.U[None], th.c[None], grid)
    err = pt.linear_evaluator(th, target, grid, "l1")(pt.draw(2, (Fraction(0),), 1, 0))
    assert err[0] == pytest.approx(np.abs(r[0] - target.rate_numpy(grid.values)).sum() * 0.5,
                                   rel=1e-15)
    pts = pt.first_order_points(th, target, grid, (Fraction(0), Fraction(1, 100)), "l1")
    assert pts.n == 1 and pt.certify_in_ball(pts).all()
    with pytest.raises(ValueError, match="unknown norm"):
        pt.combine(np.zeros((1, 1, 2)), np.zeros((1, 1, 2)), "sup")


def test_rnn_rk4_identity_matches_closed_form_and_rest_state() -> None:
    import torch

    th = _appd(2)
    target = pt.LinearTarget(parse_kernel("poly:11/10"))
    grid = pt.Grid(Fraction(1, 2), Fraction(1, 2), 8)
    obj = pt.rnn_objective_torch(th, "identity", target, grid, "sobolev", (Fraction(1),), dt=1 / 200)
    lin = pt.linear_objective_torch(th, target, grid, "sobolev")
    z = [torch.zeros(1, 2, 2, dtype=torch.float64)] + [torch.zeros(1, 2, dtype=torch.float64)] * 3
    assert abs(float(obj(*z)[0]) - float(lin(*z)[0])) < 1e-7
    W = torch.tensor([[[-2.0, 0.0], [0.0, -1.0]], [[1.0, 0.0], [0.0, -1.0]]], dtype=torch.float64)
    b = torch.tensor([[1.0, -1.0], [1.0, 0.0]], dtype=torch.float64)
    h, ok = pt.rest_states_torch(W, b)
    assert ok.tolist() == [True, False]
    assert torch.allclose(h[0], torch.tensor([0.5, -1.0], dtype=torch.float64))


def test_grid_and_theta_validation() -> None:
    with pytest.raises(ValueError):
        pt.Grid(Fraction(0), Fraction(1), 3)
    with pytest.raises(ValueError):
        pt.Theta(np.eye(2), np.ones(3), np.zeros(2), np.ones(2))
    with pytest.raises(ValueError, match="increasing"):
        pt.estimate(lambda p: np.zeros(p.n), 1, (Fraction(1), Fraction(0)), 1, 0)


# ---- App. D's least-squares fits -------------------------------------------------------------------
@pytest.mark.parametrize("kernel", ["exp:9/10", "poly:11/10", "expsum:1,1/2;1,3"])
def test_fits_agree_across_arithmetics_within_the_conditioning(kernel: str) -> None:
    import flint

    k, t, m = parse_kernel(kernel), ef.APP_D_GRID, 4
    rates = ef.app_d_rates(m)
    a64, a_t = ef.fit_numpy(k, t, rates), ef.fit_torch(k, t, rates).numpy()
    ctx = mpmath.MPContext()
    ctx.prec = 200
    a_mp = ef.fit_mpmath(k, t, rates, ctx)
    balls, bits = ef.fit_flint(k, t, rates, 128)
    with flint.ctx.workprec(bits):
        assert all(b.contains(flint.arb(mpmath.nstr(v, 50))) or abs(b.mid() - flint.arb(mpmath.nstr(v, 50)))
                   < b.rad() + flint.arb(2) ** -150 for b, v in zip(balls, a_mp, strict=True))
    kappa = ef.ls_kappa(t, rates)
    assert kappa.lo <= np.linalg.cond(ef.design_numpy(t, rates)) * 1.001 and kappa.certified
    x = np.array([float(v) for v in a_mp])
    resid = np.linalg.norm(k.rho(np.asarray(t, float))[:, 0] - ef.design_numpy(t, rates) @ x)
    k_ls = float(ef.ls_condition(kappa.value, mpmath.mpf(np.linalg.norm(ef.design_numpy(t, rates), 2)),
                                 mpmath.mpf(np.linalg.norm(x)), mpmath.mpf(resid)))
    for a in (a64, a_t):
        assert np.linalg.norm(a - x) / np.linalg.norm(x) <= 4 * len(t) * k_ls * 2.0**-53


def test_exact_kernels_are_fitted_exactly_and_sampled_kernels_have_no_ball() -> None:
    k = parse_kernel("expsum:2,-1;1,3")  # ρ = 2e^{−t} − e^{−3t}: in the App. D basis
    a = ef.fit_numpy(k, ef.APP_D_GRID, ef.app_d_rates(3))
    assert np.allclose(a, [2.0, 0.0, -1.0], atol=1e-12)
    assert ef.residual_sup_numpy(k, ef.APP_D_GRID, ef.app_d_rates(3), a) < 1e-14
    with pytest.raises(ValueError, match="closed form"):
        ef.fit_flint(SampledKernel((0.0, 200.0), (1.0, 0.0)), ef.APP_D_GRID, (1,), 64)
    with pytest.raises(ValueError, match="underdetermined"):
        ef.fit_numpy(k, (1, 2), ef.app_d_rates(3))


@given(st.lists(st.floats(-4, 4, allow_nan=False, width=64), min_size=1, max_size=12),
       st.sampled_from([Fraction(-1, 10**9), Fraction(0), Fraction(1, 10**9), Fraction(1, 3)]),
       st.sampled_from([1 - Fraction(1, 2**50), Fraction(1), 1 + Fraction(1, 2**50)]))
def test_the_float_screen_of_a_ball_test_gives_the_exact_answer(xs: list[float], shift: Fraction,
                                                                 factor: Fraction) -> None:
    """Issue 20: ``_sumsq_at_most`` screens in float64 before the exact integer sum; its answer
    is the exact one at the bound itself, within a few ulps of it either side (where a screen
    without its rounding margin would answer wrongly) and well inside (both paths)."""
    x = np.array(xs)
    exact = pt.exact_sumsq(x)
    bound = exact * factor + shift
    assert pt._sumsq_at_most(x, bound) == (exact <= bound)


def test_the_ball_screen_falls_back_to_the_exact_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact route decides what the screen cannot (a sum at the bound, a tiny entry), and the
    screen alone decides a point well inside (the exact sum is not called)."""
    called: list[int] = []
    exact_sumsq = pt.exact_sumsq
    monkeypatch.setattr(pt, "exact_sumsq", lambda x: called.append(1) or exact_sumsq(x))
    x = np.array([0.5, 0.25, -0.125])
    assert pt._sumsq_at_most(x, Fraction(1)) and called == []
    assert pt._sumsq_at_most(x, exact_sumsq(x)) and called == [1]
    assert not pt._sumsq_at_most(np.array([2.0**-600, 1.0]), Fraction(1)) and len(called) == 2
