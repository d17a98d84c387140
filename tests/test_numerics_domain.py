"""Every public numeric function answers correctly inside its stated domain or refuses with a
ValueError naming the problem — never a silent wrong answer (issue 8, item 3).

One parametrized table per failure class: n = 0, complex input, NaN/inf, non-square, non-symmetric Q
(handled: the solvers solve eq. (48) for any Q), non-Hurwitz W (handled by the general solvers,
refused by the sign iteration, reported as divergent by the integrals), non-convergence.
SciPy's own Lyapunov cases are in tests/test_lyapunov_solvers.py.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from recmem.numerics import certified as cond
from recmem.numerics import exact as ex
from recmem.numerics import functionals as fn
from recmem.numerics import haar, kernels, linalg, nodes, perturbation, signals, studies
from recmem.numerics import lyapunov as ly
from recmem.numerics.backend import make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.validate import DomainError, NotConvergedError

F = Fraction
W2 = [[F(-1), F(1, 2)], [F(0), F(-2)]]  # Hurwitz, non-normal
NON_HURWITZ = [[F(1), F(0)], [F(0), F(-2)]]  # λ = 1, −2: L nonsingular (sums 2, −1, −4)
SINGULAR_L = [[F(0), F(1)], [F(-1), F(0)]]  # λ = ±i: λ₁ + λ₂ = 0
Q_NONSYM = [[F(1), F(2)], [F(0), F(1)]]
EMPTY = np.zeros((0, 0))
CPLX = np.array([[-1 + 1j, 0], [0, -2]])
NAN = np.array([[np.nan, 0.0], [0.0, -1.0]])
INF = np.array([[np.inf, 0.0], [0.0, -1.0]])
RECT = np.array([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])


def _cong(e, x, mul, tr):
    return mul(mul(tr(e), x), e)


# name → f(W) for every public function of numerics.lyapunov that takes a square W
LYAPUNOV_W = {
    "exact": lambda w: ly.exact(w),
    "kronecker_mpmath": lambda w: ly.kronecker_mpmath(w, bits=64),
    "kronecker_flint": lambda w: ly.kronecker_flint(w, bits=64),
    "kronecker_exact": lambda w: ly.kronecker_exact(w),
    "bartels_stewart": lambda w: ly.bartels_stewart(w),
    "bartels_stewart float32": lambda w: ly.bartels_stewart(w, dtype=np.float32),
    "sign_newton": lambda w: ly.sign_newton([w]),
    "sign_newton (array)": lambda w: ly.sign_newton(
        w if isinstance(w, np.ndarray) else ly.to_float64(w)),
    "refine": lambda w: ly.refine(w, bits=64),
    "condition_certified": lambda w: ly.condition_certified(w),
    "condition_estimate": lambda w: ly.condition_estimate(w),
    "condition": lambda w: ly.condition(w),
    "SchurLyapunov": lambda w: ly.SchurLyapunov(w),
    "residual_exact": lambda w: ly.residual_exact(w, w, w),
    "integral_doubling numpy": lambda w: ly.integral_doubling(w, w, _cong, ly.PointArithmetic("numpy")),
    "integral_doubling mpmath": lambda w: ly.integral_doubling(
        w, w, _cong, ly.PointArithmetic("mpmath", bits=64)),
    "integral_enclosure": lambda w: ly.integral_enclosure(w, w, _cong, bits=64),
    "solve numpy": lambda w: ly.solve(w, None, "numpy"),
    "solve sympy": lambda w: ly.solve(w, None, "sympy"),
    "solve torch": lambda w: ly.solve(w, None, "torch:cpu"),
}


@pytest.mark.parametrize("label", sorted(LYAPUNOV_W))
@pytest.mark.parametrize("bad,pattern", [
    (EMPTY, r"n ≥ 1|empty"),
    (CPLX, "complex entries are not supported"),
    (NAN, "non-finite"),
    (INF, "non-finite"),
    (RECT, "square"),
    ([[F(1), F(2)], [F(3)]], "ragged"),
], ids=["n=0", "complex", "nan", "inf", "non-square", "ragged"])
def test_lyapunov_refuses_bad_matrices(label, bad, pattern):
    with pytest.raises(DomainError, match=pattern):
        LYAPUNOV_W[label](bad)


@pytest.mark.parametrize("label", ["exact", "kronecker_mpmath", "kronecker_flint", "bartels_stewart",
                                   "refine", "solve numpy", "solve sympy"])
def test_general_solvers_handle_non_hurwitz_w(label):
    """Eq. (48) has a unique solution whenever λ_i + λ_j ≠ 0; W = diag(1, −2): P = diag(−1/2, 1/4)."""
    sol = LYAPUNOV_W[label](NON_HURWITZ)
    ctx = mpmath.MPContext()
    ctx.prec = 64
    p = sol.to_mp(ctx)
    assert abs(p[0, 0] + ctx.mpf(1) / 2) < 1e-12 and abs(p[1, 1] - ctx.mpf(1) / 4) < 1e-12
    assert abs(p[0, 1]) < 1e-12 and abs(p[1, 0]) < 1e-12


@pytest.mark.parametrize("label", ["sign_newton", "sign_newton (array)", "solve torch"])
def test_sign_iteration_refuses_non_hurwitz_w(label):
    with pytest.raises(NotConvergedError, match=r"did not converge in 100 iterations.*not Hurwitz"):
        LYAPUNOV_W[label](NON_HURWITZ)


def test_sign_iteration_imaginary_axis_eigenvalues_raise():
    with pytest.raises(NotConvergedError, match="Hurwitz"):
        ly.sign_newton([SINGULAR_L])
    with pytest.raises(NotConvergedError, match="Hurwitz"):
        ly.sign_newton([[[F(0), F(0)], [F(0), F(-1)]]])  # a zero eigenvalue: singular iterate


@pytest.mark.parametrize("label", ["exact", "kronecker_mpmath", "kronecker_flint", "bartels_stewart",
                                   "refine", "condition_certified", "condition_estimate"])
def test_singular_operator_is_refused(label):
    with pytest.raises(DomainError, match="singular"):
        LYAPUNOV_W[label](SINGULAR_L)


@pytest.mark.parametrize("label", ["integral_doubling numpy", "integral_doubling mpmath",
                                   "integral_enclosure"])
def test_integrals_of_non_hurwitz_w_have_no_value(label):
    """The integral ∫₀^∞ e^{Wᵀt}Xe^{Wt}dt diverges for a non-Hurwitz W: no value, a status saying so
    (the old quadrature returned entries near −5e+(2.35×10⁴²) with a confident error estimate)."""
    res = LYAPUNOV_W[label](NON_HURWITZ)
    assert res.status in ("diverged", "undecided") and res.P is None


def test_integral_iteration_cap_gives_no_value():
    res = ly.integral_doubling(W2, ly.identity(2), _cong, ly.PointArithmetic("numpy"), max_doublings=1)
    assert res.status == "undecided" and res.P is None


def _p(sol):
    return sol.P.cpu().numpy()[0] if hasattr(sol.P, "cpu") else ly.to_float64(ly.fractions(sol.P)) \
        if hasattr(sol.P, "nrows") and not hasattr(sol.P, "mid") else np.asarray(sol.P, dtype=float)


@pytest.mark.parametrize("solver", [
    lambda w, q: ly.bartels_stewart(w, q), lambda w, q: ly.sign_newton([w], [q]),
    lambda w, q: ly.refine(w, q, bits=64), lambda w, q: ly.exact(w, q),
    lambda w, q: ly.kronecker_flint(w, q, bits=64), lambda w, q: ly.kronecker_mpmath(w, q, bits=64),
], ids=["bartels_stewart", "sign_newton", "refine", "exact", "kronecker_flint", "kronecker_mpmath"])
def test_non_symmetric_q_is_solved_not_symmetrised(solver):
    """The old bartels_stewart returned (X + Xᵀ)/2 for a non-symmetric Q: a wrong answer."""
    exact_p = ly.to_float64(ly.exact(W2, Q_NONSYM).P)
    assert not np.allclose(exact_p, exact_p.T)
    ctx = mpmath.MPContext()
    ctx.prec = 64
    p = np.array(ly.to_mp(solver(W2, Q_NONSYM).P, ctx).tolist(), dtype=float)
    assert np.allclose(p, exact_p, rtol=1e-12, atol=1e-14)
    assert np.allclose(ly.to_float64(W2).T @ p + p @ ly.to_float64(W2), -ly.to_float64(Q_NONSYM))


def test_q_shape_mismatch_and_bad_q():
    for run in (lambda q: ly.exact(W2, q), lambda q: ly.bartels_stewart(W2, q),
                lambda q: ly.sign_newton([W2], [q]), lambda q: ly.refine(W2, q, bits=64)):
        with pytest.raises(DomainError):
            run(ly.identity(3))
        with pytest.raises(DomainError, match="complex"):
            run(np.eye(2) * 1j)
        with pytest.raises(DomainError, match="non-finite"):
            run(np.full((2, 2), np.nan))


def test_float32_overflow_is_refused():
    with pytest.raises(DomainError, match=r"non-finite.*float32"):
        ly.bartels_stewart(np.array([[-1e39, 0.0], [0.0, -1.0]]), dtype=np.float32)


def test_refine_non_convergence_raises():
    from recmem.checks.claims.paper_w import _lyapunov as lc

    d = lc.hurwitz(24, 0, "defective", Fraction(8))  # κ(L)·u₆₄ ≈ 1.7
    with pytest.raises(NotConvergedError, match="refine did not converge"):
        ly.refine(d.W, bits=128, residual="mpmath")


def test_converters_refuse_complex_and_non_finite():
    with pytest.raises(DomainError, match="complex"):
        ly.to_float64(CPLX)
    with pytest.raises(DomainError, match="complex"):
        ly.fmpq_matrix([[1j]])
    with pytest.raises(DomainError, match="non-finite"):
        ly.fmpq_matrix([[float("nan")]])
    with pytest.raises(DomainError, match="complex"):
        ly.to_mp(CPLX, mpmath.mp)
    with pytest.raises(DomainError, match="complex"):
        ly.fraction(1j)
    with pytest.raises(DomainError):
        ly.identity(-1)
    assert ly.identity(0).nrows() == 0  # the empty identity is a correct answer
    with pytest.raises(DomainError):
        ly.taylor_terms(mpmath.mpf(2) ** -53, Fraction(3, 2))
    with pytest.raises(DomainError):
        ly.gauss_legendre(0, 64)
    with pytest.raises(DomainError):
        ly.PointArithmetic("numpy", dtype="float16")
    with pytest.raises(ValueError):
        ly.PointArithmetic("sympy")


# ---- backends and the shared linear algebra (paper O) -------------------------------------------
BACKENDS = ["numpy", "mpmath@64", "flint@64", "torch:cpu"]
ONE = QQi(F(1))


@pytest.mark.parametrize("spec", BACKENDS)
def test_backends_refuse_empty_ragged_and_inexact(spec):
    b = make_backend(spec)
    with b.activate():
        with pytest.raises(DomainError, match="at least 1"):
            b.vector([])
        with pytest.raises(DomainError, match="empty"):
            b.matrix([])
        with pytest.raises(DomainError, match="ragged"):
            b.matrix([[ONE, ONE], [ONE]])
        with pytest.raises(DomainError, match="exact values"):
            b.vector([float("nan")])
        with pytest.raises(DomainError, match="exact values"):
            b.vector([1j])
        nodes_ = b.vector([ONE, QQi(F(1, 2), F(1, 3))])  # complex nodes are in the domain
        with pytest.raises(DomainError):
            b.vandermonde(nodes_, 0)
        with pytest.raises(DomainError, match="square"):
            b.det(b.vandermonde(nodes_, 3))
        with pytest.raises(DomainError):
            linalg.power_matrix(b, nodes_, [])
        with pytest.raises(DomainError):
            linalg.power_matrix(b, nodes_, [-1, 2])
        with pytest.raises(DomainError):
            linalg.unrolled_state(b, nodes_, b.vandermonde(nodes_, 2), 3)
        with pytest.raises(DomainError):
            linalg.product_of_differences(b, nodes_, [(0, 5)])
        with pytest.raises(DomainError):
            linalg.constant(b, float("inf"))
        v = b.vandermonde(nodes_, 2)
        assert len(linalg.singular_values(b, v)) == 2
        with pytest.raises(DomainError):
            linalg.min_norm_solve(b, v, b.matrix([[ONE]] * 3))


def test_node_families_and_builders_refuse_n_zero():
    for make in (lambda: nodes.roots(0), lambda: nodes.real(0, F(1), 0),
                 lambda: nodes.ring(0, F(1, 2), F(1), 0), lambda: nodes.make("roots", 0),
                 lambda: studies.real_family("chebyshev", 0)):
        with pytest.raises(ValueError, match="N"):
            make()
    with pytest.raises(DomainError):
        cond.vandermonde_builder(nodes.roots(3), 0)
    with pytest.raises(DomainError):
        cond.exact_matrix_builder([])
    with pytest.raises(DomainError):
        linalg.power_matrix_builder(nodes.roots(3), [])
    with pytest.raises(DomainError, match="nonempty"):
        cond.sigma_bracket(lambda bits: __import__("flint").acb_mat(0, 0))
    with pytest.raises(ValueError):
        haar.haar_rows(4, 2, 0)


def test_exact_helpers():
    with pytest.raises(ValueError, match="finite"):
        ex.qqi(float("nan"))
    with pytest.raises(ValueError, match="finite"):
        ex.qqi(complex(1, float("inf")))
    assert ex.qqi(0.5 + 0.25j) == QQi(F(1, 2), F(1, 4))  # complex is in qqi's domain
    with pytest.raises(ValueError, match="complex"):
        ex.dyadic(1j, 8)
    with pytest.raises(ValueError, match="finite"):
        ex.dyadic(float("nan"), 8)
    with pytest.raises(ValueError, match="finite"):
        ex.bits_for(float("inf"))


# ---- W's functionals, kernels, signals, perturbations, studies -------------------------------------
def test_signals_refuse_complex_nan_and_empty():
    for x in ([1j], [np.nan], [], [np.inf]):
        with pytest.raises(DomainError):
            signals.heaviside(x)
    with pytest.raises(DomainError, match="start < stop"):
        signals.Step((1.0,), 2.0, 1.0)
    with pytest.raises(ValueError):
        signals.impulse([1.0], float("inf"))
    with pytest.raises(ValueError):
        signals.reversed_input([1.0], -1.0)
    with pytest.raises(DomainError):
        signals.heaviside([1.0]).sampled(np.array([np.nan]))


def test_kernels_state_their_parameter_ranges_and_times():
    with pytest.raises(ValueError, match="0 < a < 1"):
        kernels.ExponentialKernel(F(3, 2))
    with pytest.raises(ValueError, match="p > 0"):
        kernels.PolynomialKernel(F(0))
    with pytest.raises(ValueError):
        kernels.SampledKernel((0.0, np.nan), (1.0, 0.0))
    k = kernels.ExponentialKernel(F(1, 2))
    for t in ([-1.0], [np.nan], [1j]):
        with pytest.raises(ValueError):
            k.rho(np.array(t))
    with pytest.raises(ValueError):
        k.rho_mp(-1, mpmath.mp)
    assert kernels.ExpSumKernel((F(0),), (F(1),)).decay() is None  # was: max() of nothing


def test_functionals_check_times_and_dimension():
    h = fn.LinearFunctional(kernels.ExponentialKernel(F(1, 2)))
    with pytest.raises(ValueError, match="dimension"):
        h.output(signals.heaviside([1.0, 2.0]), np.array([1.0]))
    with pytest.raises(DomainError):
        h.rate(signals.heaviside([1.0]), np.array([np.nan]))
    with pytest.raises(ValueError, match="dt"):
        fn.CallableFunctional(lambda t, x: t, "f", dt=0.0)


def test_perturbation_inputs():
    with pytest.raises(ValueError, match="complex"):
        perturbation.Theta.linear(np.array([[-1 + 1j]]), [1.0], [1.0])
    with pytest.raises(ValueError, match="non-finite"):
        perturbation.Theta.linear(np.array([[np.nan]]), [1.0], [1.0])
    with pytest.raises(ValueError, match="m ≥ 1"):
        perturbation.Theta.linear(np.zeros((0, 0)), [], [])
    with pytest.raises(ValueError, match="m ≥ 1"):
        perturbation.draw(0, [F(1)], 2, 0)
    with pytest.raises(ValueError, match="per_beta"):
        perturbation.draw(1, [F(1)], 0, 0)


def test_studies_statistics_refuse_degenerate_samples():
    with pytest.raises(ValueError, match="n ≥ 2"):
        studies.kendall([1.0], [2.0])
    with pytest.raises(ValueError, match="NaN"):
        studies.kendall([1.0, np.nan], [2.0, 3.0])
    # ±inf are ranks (W.theorem ranks stability radii that may be infinite): in the domain
    assert studies.kendall([1.0, 2.0, np.inf], [1.0, 2.0, 3.0]).s == 3
    assert studies.kendall([np.inf, np.inf, 1.0], [1.0, 2.0, 3.0]).s == -2
    with pytest.raises(ValueError, match="n ≥ 2"):
        studies.loglinear_fit([], [])
    with pytest.raises(ValueError, match="finite"):
        studies.loglinear_fit([1.0, 2.0], [np.inf, 1.0])
