"""The Lyapunov solvers of recmem.numerics.lyapunov (paper W, ICLR camera-ready App. A.9 eq. (48))
agree with one another to the accuracy each one's precision and the problem's conditioning allow,
on random Hurwitz matrices of sizes 2 to 64 (normal, non-normal, diagonalizable, defective).

Tolerance: ‖P̂ − P‖_F/‖P‖_F ≤ c·n·κ(L)·u with c = 4 (n → n² for LU on the n²×n² Kronecker system),
κ(L) certified for n ≤ 8 and the float64 power-iteration estimate beyond (stated in the check).
Reference: the exact P over ℚ for n ≤ 8, mixed-precision iterative refinement at 192 bits beyond.
Also: the integral ∫₀^∞ e^{Wᵀt}Qe^{Wt}dt computed from its definition (numerics.lyapunov
.integral_doubling / .integral_enclosure), which the claims use instead of a solver.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings

from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.numerics import lyapunov as ly

C = 4.0
U64 = mpmath.mpf(2) ** -53
CASES = ([(n, kind) for n in (2, 3, 5) for kind in lc.KINDS]
         + [(8, "nonnormal"), (8, "defective"), (12, "diagonalizable"), (16, "defective"),
            (16, "normal"), (32, "nonnormal"), (32, "normal"), (64, "nonnormal")])
KRONECKER_MP_MAX = 5  # mpmath's pure-Python LU on the n²×n² system: ~1 s at n = 8


def _rel(p_hat, p_ref, bits=256):
    ctx = mpmath.MPContext()
    ctx.prec = bits
    a, b = ly.to_mp(p_hat, ctx), ly.to_mp(p_ref, ctx)
    return mpmath.mpf(ctx.mnorm(a - b, "f") / ctx.mnorm(b, "f"))


def _problem(n, kind):
    dep = Fraction(1, 4) if kind == "defective" and n > 8 else Fraction(1)
    d = lc.hurwitz(n, 7, kind, dep)
    q = lc.spd(n, 7)
    if n <= 8:
        return d, q, ly.exact(d.W, q).P, ly.condition_certified(d.W)
    cond = ly.condition_estimate(d.W)
    ref = ly.refine(d.W, q, bits=192, inverse_norm=cond.inverse_norm)
    return d, q, ref.P, cond


def agreement(n, kind):
    """{solver: ‖P̂ − P‖/‖P‖ divided by its tolerance} for one draw (each ratio must be ≤ 1)."""
    d, q, p_ref, cond = _problem(n, kind)
    assert C * n * n * cond.value * U64 < 0.5, "draw beyond float64 resolution"
    out = {}
    tol64 = C * n * cond.value * U64
    out["scipy Bartels–Stewart"] = _rel(ly.bartels_stewart(d.W, q).P, p_ref) / tol64
    out["torch sign-Newton"] = _rel(ly.sign_newton([d.W], [q]).P[0], p_ref) / tol64
    if n <= 8:
        u128 = mpmath.mpf(2) ** -128
        if n <= KRONECKER_MP_MAX:
            out["mpmath Kronecker@128"] = (_rel(ly.kronecker_mpmath(d.W, q, bits=128).P, p_ref)
                                           / (C * n * n * cond.value * u128))
        ref = ly.refine(d.W, q, bits=128, inverse_norm=cond.inverse_norm)
        err = _rel(ref.P, p_ref)
        assert ref.accuracy.kind == "certified bound" and err <= ref.accuracy.forward
        out["refinement@128 (flint)"] = err / (C * n * cond.value * u128)
        sol = ly.kronecker_flint(d.W, q, bits=128)
        import flint

        with flint.ctx.workprec(256):
            assert sol.P.contains(flint.arb_mat(p_ref)), "ball excludes the exact P"
        out["flint Kronecker@128 (radius)"] = sol.accuracy.forward / (C * n * n * cond.value * u128)
    if n <= 8:
        ref_mp = ly.refine(d.W, q, bits=128, residual="mpmath", inverse_norm=cond.inverse_norm)
        out["refinement@128 (mpmath)"] = _rel(ref_mp.P, p_ref) / (C * n * cond.value
                                                                  * mpmath.mpf(2) ** -128)
    return out


@pytest.mark.parametrize(("n", "kind"), CASES)
def test_solvers_agree(n, kind):
    ratios = agreement(n, kind)
    bad = {k: mpmath.nstr(v, 3) for k, v in ratios.items() if not v <= 1}
    assert not bad, f"n={n} {kind}: residual/tolerance > 1 for {bad}"


def test_batched_sign_newton_batch_of_64():
    """One batched call on 64 different W's (n = 4), each against its exact P."""
    draws = [lc.hurwitz(4, s, lc.KINDS[s % 4]) for s in range(64)]
    qs = [lc.spd(4, s) for s in range(64)]
    sol = ly.sign_newton([d.W for d in draws], qs)
    assert tuple(sol.P.shape) == (64, 4, 4)
    for k, (d, q) in enumerate(zip(draws, qs, strict=True)):
        cond = ly.condition_certified(d.W)
        assert _rel(sol.P[k], ly.exact(d.W, q).P) <= C * 4 * cond.value * U64


@pytest.mark.gpu
def test_sign_newton_cuda_matches_reference():
    draws = [lc.hurwitz(16, s, "nonnormal") for s in range(8)]
    sol = ly.sign_newton([d.W for d in draws], device="cuda")
    assert sol.P.device.type == "cuda"
    for k, d in enumerate(draws):
        cond = ly.condition_estimate(d.W)
        ref = ly.refine(d.W, bits=128)
        assert _rel(sol.P[k].cpu(), ref.P) <= C * 16 * cond.value * U64


# ---- accuracy statements, conventions, condition numbers ----------------------------------------

def test_scipy_sign_convention_and_residual():
    """scipy solves A X + X Aᴴ = Q'; with A = Wᵀ, Q' = −Q it must give Wᵀ P + P W = −Q."""
    w = [[Fraction(-1), Fraction(3)], [Fraction(0), Fraction(-2)]]
    q = [[Fraction(2), Fraction(1)], [Fraction(1), Fraction(1)]]
    sol = ly.bartels_stewart(w, q)
    wf, qf = ly.to_float64(w), ly.to_float64(q)
    assert np.linalg.norm(wf.T @ sol.P + sol.P @ wf + qf) <= 8 * 2 * U64 * 10
    assert ly.fractions(ly.exact(w, q).P) == [[1, Fraction(4, 3)], [Fraction(4, 3), Fraction(9, 4)]]
    assert sol.accuracy.backward < 1e-15


def test_exact_solution_matches_sympy_closed_form():
    import sympy as sp

    from recmem.theory.lyapunov import closed_form_2x2

    w = [[Fraction(-3, 2), Fraction(5)], [Fraction(-1, 4), Fraction(-1)]]
    q = [[Fraction(2), Fraction(-1, 3)], [Fraction(-1, 3), Fraction(1)]]
    p = closed_form_2x2(sp.Matrix(w), sp.Matrix(q))
    assert [[Fraction(str(x)) for x in row] for row in p.tolist()] == ly.fractions(ly.exact(w, q).P)


def _congruence(e, x, mul, tr):
    return mul(mul(tr(e), x), e)  # e ↦ eᵀxe: the integrand of W App. A.9 eq. (49)


@pytest.mark.parametrize("kind", ["nonnormal", "defective", "normal"])
@pytest.mark.parametrize(("arith", "dtype"), [("mpmath", "float64"), ("numpy", "float64"),
                                              ("numpy", "float32"), ("torch", "float64"),
                                              ("torch", "float32")])
def test_integral_by_doubling_matches_exact(kind, arith, dtype):
    """∫₀^∞ e^{Wᵀt}Qe^{Wt}dt from its definition (Taylor + Gauss–Legendre, doubling), in each
    arithmetic, within c·a·u of the exact P (a: the doubling's error growth, u of that arithmetic)."""
    d = lc.hurwitz(4, 3, kind)
    q = lc.spd(4, 3)
    pa = ly.PointArithmetic(arith, bits=96, dtype=dtype)
    res = ly.integral_doubling(d.W, q, _congruence, pa)
    assert res.status == "converged"
    p = res.P.cpu().numpy() if hasattr(res.P, "cpu") else res.P
    assert _rel(p, ly.exact(d.W, q).P) <= 4 * res.amplification * pa.unit_roundoff


def test_integral_enclosure_contains_the_exact_p_and_certifies_divergence():
    import flint

    for kind in ("nonnormal", "defective"):
        d = lc.hurwitz(3, 1, kind)
        res = ly.integral_enclosure(d.W, ly.identity(3), _congruence, bits=128)
        assert res.status == "converged"
        with flint.ctx.workprec(256):
            assert res.P.contains(flint.arb_mat(ly.exact(d.W).P))
    out = ly.integral_enclosure([[Fraction(1, 8), 1], [0, -1]], ly.identity(2), _congruence, bits=64)
    assert out.status == "diverged" and out.certified and out.P is None
    fl = ly.integral_doubling([[Fraction(1, 8), 1], [0, -1]], ly.identity(2), _congruence,
                              ly.PointArithmetic("numpy"))
    assert fl.status == "diverged"


def test_integral_torch_batch():
    draws = [lc.hurwitz(3, s, "nonnormal") for s in range(4)]
    qs = [lc.spd(3, s) for s in range(4)]
    res = ly.integral_doubling([d.W for d in draws], qs, _congruence,
                               ly.PointArithmetic("torch"), batch=True)
    assert tuple(res.P.shape) == (4, 3, 3)
    for k, (d, q) in enumerate(zip(draws, qs, strict=True)):
        assert _rel(res.P[k], ly.exact(d.W, q).P) <= 4 * res.amplification * U64


def test_condition_estimate_tracks_certified_value():
    for kind in lc.KINDS:
        d = lc.hurwitz(5, 1, kind)
        cert, est = ly.condition_certified(d.W), ly.condition_estimate(d.W)
        assert cert.certified
        # power iteration approaches the norms from below; the certified value is an upper end
        assert est.value <= cert.value * (1 + 1e-6)
        assert est.value >= cert.value / (8 if kind == "normal" else 2)


def test_norm_bound_fallback_is_an_upper_bound():
    d = lc.hurwitz(4, 2, "nonnormal")
    tight = ly.condition_certified(d.W)
    bound = ly._condition_norm_bound(ly.kronecker_exact(d.W), 128)
    assert tight.method.startswith("ball eigenvalues") and bound.value >= tight.value


def test_solve_dispatches_on_the_backend():
    d = lc.hurwitz(3, 0, "nonnormal")
    exact = ly.exact(d.W).P
    for spec, kind in (("sympy", "exact"), ("mpmath@96", "estimate"), ("flint@96", "enclosure"),
                       ("numpy", "estimate"), ("torch:cpu", "estimate")):
        sol = ly.solve(d.W, None, spec)
        assert sol.accuracy.kind == kind
        assert _rel(sol.P, exact) < 1e-12
    cond = ly.condition_certified(d.W)
    u32 = mpmath.mpf(2) ** -24
    for spec in ("numpy:float32", "torch:cpu:float32"):  # computed in float32, not float64
        sol = ly.solve(d.W, None, spec)
        p = sol.P.cpu().numpy()[0] if hasattr(sol.P, "cpu") else sol.P
        assert str(p.dtype) == "float32"
        assert 1e-12 < _rel(p, exact) <= C * 3 * cond.value * u32


def test_kronecker_refuses_large_n_and_refinement_scales():
    d = lc.hurwitz(13, 0, "nonnormal")
    with pytest.raises(ValueError, match="Kronecker"):
        ly.kronecker_mpmath(d.W)
    sol = ly.solve(d.W, None, "flint@128")  # refinement with a ball residual beyond n = 12
    assert sol.method.startswith("iterative refinement")
    assert sol.accuracy.forward < mpmath.mpf(2) ** -100


def test_refinement_stops_when_unresolvable():
    """κ(L)·u₆₄ ≳ 1 (a long Jordan block): the refinement stagnates instead of reporting accuracy
    it does not have."""
    d = lc.hurwitz(24, 0, "defective", Fraction(8))  # κ(L) ≈ 1.5e16
    sol = ly.refine(d.W, bits=128)
    assert sol.accuracy.forward > mpmath.mpf(2) ** -100


@settings(max_examples=15)
@given(lc.hurwitz_instances(1, 4, "all"))
def test_exact_solution_is_positive_definite_and_float_solvers_agree(inst):
    sol = ly.exact(inst.W)
    assert ly.residual_exact(inst.W, ly.identity(inst.n), sol.P) == ly.identity(inst.n) * 0
    assert lc.charpoly_pd(sol.P)
    cond = ly.condition_certified(inst.W)
    if C * inst.n * cond.value * U64 < 0.5:
        assert _rel(ly.bartels_stewart(inst.W).P, sol.P) <= C * inst.n * cond.value * U64
