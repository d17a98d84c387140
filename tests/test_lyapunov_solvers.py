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


def test_refinement_raises_when_unresolvable():
    """κ(L)·u₆₄ ≳ 1 (a long Jordan block): the refinement stagnates and says so (issue 8 item 3:
    an iteration that does not converge raises instead of returning an unconverged P)."""
    from recmem.numerics.validate import NotConvergedError

    d = lc.hurwitz(24, 0, "defective", Fraction(8))  # κ(L) ≈ 1.5e16
    with pytest.raises(NotConvergedError, match="refine did not converge"):
        ly.refine(d.W, bits=128)


@settings(max_examples=15)
@given(lc.hurwitz_instances(1, 4, "all"))
def test_exact_solution_is_positive_definite_and_float_solvers_agree(inst):
    sol = ly.exact(inst.W)
    assert ly.residual_exact(inst.W, ly.identity(inst.n), sol.P) == ly.identity(inst.n) * 0
    assert lc.charpoly_pd(sol.P)
    cond = ly.condition_certified(inst.W)
    if C * inst.n * cond.value * U64 < 0.5:
        assert _rel(ly.bartels_stewart(inst.W).P, sol.P) <= C * inst.n * cond.value * U64


# ---- SciPy's own Lyapunov cases (issue 8, item 3) ------------------------------------------------
# The data of scipy/linalg/tests/test_solvers.py::TestSolveLyapunov.cases (tests/data, BSD licence).
# SciPy solves A X + X Aᴴ = Q; for a real A that is eq. (48) Wᵀ P + P W = −Q' with W = Aᵀ,
# Q' = −Q, P = X. Reference: the exact P over ℚ (its exact residual is checked to be zero). Every
# solver is correct where the case is in its domain and raises ValueError where it is not — never
# a silent wrong answer.

def _scipy_cases():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent / "data" / "scipy_lyapunov_cases.py"
    spec = importlib.util.spec_from_file_location("scipy_lyapunov_cases", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CASES


SCIPY_CASES = _scipy_cases()


def _congruence(e, x, mul, tr):
    return mul(mul(tr(e), x), e)  # e ↦ eᵀ x e: the integrand of W App. A.9 eq. (49)


def _float_solvers(w, q):
    """Every solver of numerics.lyapunov on (W, Q), as name → thunk returning a Solution."""
    n = np.shape(w)[0]
    out = {
        "exact": lambda: ly.exact(w, q),
        "kronecker_flint": lambda: ly.kronecker_flint(w, q, bits=128),
        "bartels_stewart": lambda: ly.bartels_stewart(w, q),
        "refine (flint)": lambda: ly.refine(w, q, bits=128),
        "refine (mpmath)": lambda: ly.refine(w, q, bits=128, residual="mpmath"),
        "sign_newton": lambda: ly.sign_newton([w], [q]),
        "solve numpy": lambda: ly.solve(w, q, "numpy"),
        "solve flint": lambda: ly.solve(w, q, "flint@128"),
        "solve torch": lambda: ly.solve(w, q, "torch:cpu"),
    }
    if n <= KRONECKER_MP_MAX:
        out["kronecker_mpmath"] = lambda: ly.kronecker_mpmath(w, q, bits=128)
    return out


@pytest.mark.parametrize("name,a,q", SCIPY_CASES, ids=[c[0] for c in SCIPY_CASES])
def test_scipy_lyapunov_cases(name, a, q):
    from recmem.numerics.validate import DomainError, NotConvergedError, spectral_abscissa

    complex_case = np.iscomplexobj(a) or np.iscomplexobj(q)
    w, qq = np.asarray(a).T, -np.asarray(q)
    solvers = _float_solvers(w, qq)
    if complex_case or a.size == 0:
        # complex dtype (even the companion case, whose imaginary parts are all zero) and n = 0 are
        # outside every solver's domain: each refuses with a ValueError naming the problem
        for run in solvers.values():
            with pytest.raises(DomainError, match=r"complex entries|n ≥ 1|empty"):
                run()
        with pytest.raises(DomainError):
            ly.integral_doubling(w, qq, _congruence, ly.PointArithmetic("numpy"))
        return
    n = w.shape[0]
    exact_p = ly.exact(w, qq).P
    assert ly.residual_exact(w, qq, exact_p) == ly.identity(n) * 0  # the reference is exact
    cond = ly.condition(w)
    hurwitz = spectral_abscissa(w) < 0
    ctx = mpmath.MPContext()
    ctx.prec = 256
    ref = ly.to_mp(exact_p, ctx)
    for label, run in solvers.items():
        if ("torch" in label or label == "sign_newton") and not hurwitz:
            # outside the sign iteration's domain: it must say so
            with pytest.raises(NotConvergedError, match="not Hurwitz"):
                run()
            continue
        sol = run()
        p = ly.to_mp(sol.P, ctx)
        err = mpmath.mpf(ctx.mnorm(p - ref, "f") / ctx.mnorm(ref, "f"))
        u = mpmath.mpf(2) ** (-128 if sol.arithmetic.startswith(("flint", "mpmath")) else -53)
        if sol.arithmetic == "exact":
            assert err == 0, label
        else:
            assert err <= C * n * n * cond.value * u, (label, err)
    # the integral of eq. (49) itself: its value where W is Hurwitz, no value (never a wrong one)
    # where it is not
    for arith in (ly.PointArithmetic("numpy"), ly.PointArithmetic("mpmath", bits=128)):
        res = ly.integral_doubling(w, qq, _congruence, arith)
        if hurwitz:
            assert res.status == "converged"
            p = ly.to_mp(res.P, ctx)
            assert ctx.mnorm(p - ref, "f") / ctx.mnorm(ref, "f") <= \
                C * (res.amplification + n) * cond.value * arith.unit_roundoff
        else:
            assert res.status in ("diverged", "undecided") and res.P is None
    enc = ly.integral_enclosure(w, qq, _congruence, bits=128)
    assert (enc.status == "converged") == hurwitz
    if not hurwitz:
        assert enc.P is None


def test_scipy_cases_real_part_of_the_complex_companion_case():
    """The companion case's entries are real (zero imaginary parts): passed as a real array it is in
    every general solver's domain; W is not Hurwitz (a positive real root), so sign_newton refuses."""
    from recmem.numerics.validate import NotConvergedError

    (_, a, q), = [c for c in SCIPY_CASES if c[0].startswith("companion")]
    assert not np.any(a.imag)
    w, qq = a.real.T.copy(), -q
    exact_p = ly.exact(w, qq).P
    assert ly.residual_exact(w, qq, exact_p) == ly.identity(11) * 0
    cond = ly.condition_estimate(w)
    ctx = mpmath.MPContext()
    ctx.prec = 256
    ref = ly.to_mp(exact_p, ctx)
    for sol in (ly.bartels_stewart(w, qq), ly.kronecker_flint(w, qq, bits=128),
                ly.refine(w, qq, bits=128)):
        err = ctx.mnorm(ly.to_mp(sol.P, ctx) - ref, "f") / ctx.mnorm(ref, "f")
        assert err <= C * 11 * 11 * cond.value * U64, sol.method
    with pytest.raises(NotConvergedError, match="not Hurwitz"):
        ly.sign_newton([w], [qq])
