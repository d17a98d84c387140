"""The paper-W functional core: kernels, step inputs, RNN construction, functionals, TARGET parsing."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from recmem.numerics.functionals import (
    CallableFunctional,
    LinearFunctional,
    RNNFunctional,
    as_functional,
    load_target,
)
from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel, PolynomialKernel, parse_kernel
from recmem.numerics.memory import directions, memory_function
from recmem.numerics.rnn import RNN, reparameterise
from recmem.numerics.signals import heaviside, impulse, reversed_input


@pytest.mark.parametrize("text, profile_at_2", [
    ("exp:0.9", 0.81), ("poly:2", 1 / 9), ("expsum:1,2;1,3", math.exp(-2) + 2 * math.exp(-6))])
def test_parse_kernel_builds_the_closed_forms(text: str, profile_at_2: float) -> None:
    k = parse_kernel(text)
    assert k.profile(np.array([2.0]))[0] == pytest.approx(profile_at_2, rel=1e-15)


@pytest.mark.parametrize("text, message", [
    ("exp:1.5", "0 < A < 1"), ("exp:0", "0 < A < 1"), ("poly:1", "P > 1"), ("poly:x", "rationals"),
    ("exp:0.5,0.2", "exactly one"), ("expsum:1;-1", "positive"), ("expsum:1,2;1", "as many"),
    ("gauss:1", "unknown kernel")])
def test_parse_kernel_rejects_bad_input_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        parse_kernel(text)
    assert "\n" not in str(err.value)


def test_kernel_forms_agree_across_arithmetics() -> None:
    import sympy

    ctx = mpmath.MPContext()
    ctx.prec = 200
    ts = sympy.Symbol("t")
    for k in (ExponentialKernel(Fraction(9, 10)), PolynomialKernel(Fraction(11, 10)),
              ExpSumKernel((Fraction(1), Fraction(-1, 3)), (Fraction(1, 2), Fraction(2)))):
        for t in (0.0, 0.5, 3.0, 40.0):
            exact = sympy.N(k.profile_sympy(ts).subs(ts, sympy.Rational(t)), 60)
            assert abs(k.profile_mp(t, ctx) - ctx.mpf(str(exact))) < ctx.mpf(2) ** -190
            assert k.profile(np.array([t]))[0] == pytest.approx(float(exact), rel=4e-15)


def test_decay_classes_of_the_closed_forms() -> None:
    assert ExponentialKernel(Fraction(9, 10)).decay() == ("exponential", pytest.approx(math.log(10 / 9)))
    assert PolynomialKernel(Fraction(11, 10)).decay() == ("polynomial", 1.1)
    assert ExpSumKernel((Fraction(1), Fraction(0)), (Fraction(3), Fraction(1))).decay()[1] == 3.0


def test_step_inputs() -> None:
    u = impulse([2.0], 0.5)
    assert u.value(0.25)[0] == 4.0 and u.value(0.5)[0] == 0.0 and u.value(-0.1)[0] == 0.0
    r = reversed_input([1.0, -1.0], 3.0)
    assert r.start == -3.0 and r.stop == 0.0 and list(r.value(-1.0)) == [1.0, -1.0]
    assert heaviside(np.array([1.0])).breakpoints(10.0) == [0.0]
    with pytest.raises(ValueError, match="positive"):
        impulse([1.0], 0.0)


def test_rnn_shapes_and_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="shapes do not fit"):
        RNN.build(np.eye(2), np.ones((3, 1)))
    with pytest.raises(ValueError, match="unknown activation"):
        RNN.build(-np.eye(2), np.ones((2, 1)), sigma="swish")
    with pytest.raises(ValueError, match="non-finite"):
        RNN.build([[math.nan]], [[1.0]])
    with pytest.raises(ValueError, match="unknown parameterisation"):
        reparameterise(np.eye(2), "cayley")


def test_reparameterisations_of_a_diagonal_matrix_are_elementwise() -> None:
    m = np.diag([0.5, -1.0])
    assert np.allclose(reparameterise(m, "exp"), np.diag(-np.exp([0.5, -1.0])), rtol=1e-14)
    assert np.allclose(reparameterise(m, "softplus"), np.diag(-np.log1p(np.exp([0.5, -1.0]))), rtol=1e-13)
    assert np.allclose(reparameterise(np.array([0.5, -1.0]), "lru"), np.diag(-np.exp([0.5, -1.0])))


def test_softplus_parameterisation_refuses_a_missing_logarithm() -> None:
    """M = [[0, −π], [π, 0]] gives e^M = −I, so I + e^M = 0 has no logarithm (W.reparam); a rotation
    by 3 keeps I + e^M invertible and its principal log real."""
    assert not np.iscomplexobj(reparameterise(np.array([[0.0, -3.0], [3.0, 0.0]]), "softplus"))
    with pytest.raises(ValueError, match="singular"):
        reparameterise(np.array([[0.0, -np.pi], [np.pi, 0.0]]), "softplus")


def test_npz_round_trip(tmp_path) -> None:
    path = tmp_path / "rnn.npz"
    np.savez(path, W=np.array([[-1.0, 0.5], [0.0, -2.0]]), U=np.array([[1.0], [1.0]]),
             b=np.zeros(2), c=np.array([1.0, -0.5]), activation="tanh")
    f = load_target(str(path))
    assert isinstance(f, RNNFunctional) and f.rnn.sigma.name == "tanh" and f.input_dim == 1
    np.savez(tmp_path / "bad.npz", W=np.eye(2))
    with pytest.raises(ValueError, match="missing array"):
        load_target(str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="no such file"):
        load_target(str(tmp_path / "absent.npz"))


def test_module_function_targets(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    (tmp_path / "user_targets.py").write_text(
        "import numpy as np\n"
        "from recmem.numerics.kernels import ExponentialKernel\n"
        "from fractions import Fraction\n"
        "KERNEL = ExponentialKernel(Fraction(1, 2))\n"
        "NOT_A_FUNCTIONAL = 3\n"
        "def running_mean(t, x):\n"
        "    return np.cumsum(x[:, 0]) * (t[1] - t[0])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert isinstance(load_target("user_targets:KERNEL"), LinearFunctional)
    assert isinstance(load_target("user_targets:running_mean"), CallableFunctional)
    with pytest.raises(ValueError, match="not a functional"):
        load_target("user_targets:NOT_A_FUNCTIONAL")
    with pytest.raises(ValueError, match="no attribute"):
        load_target("user_targets:missing")
    with pytest.raises(ValueError, match="cannot import"):
        load_target("no_such_module_xyz:f")
    with pytest.raises(ValueError, match="unknown target"):
        load_target("plainword")


def test_linear_functional_output_and_rate_agree() -> None:
    """H_t(u^x) = x ∫₀^t ρ and its rate xρ(t), for ρ = e^{−t/2}: H_t = 2x(1 − e^{−t/2})."""
    f = LinearFunctional(ExpSumKernel((Fraction(1),), (Fraction(1, 2),)))
    t = np.array([0.0, 0.5, 2.0, 7.0])
    assert np.allclose(f.output(heaviside([3.0]), t), 6 * (1 - np.exp(-t / 2)), rtol=1e-12, atol=1e-15)
    assert np.allclose(f.rate(heaviside([3.0]), t), 3 * np.exp(-t / 2), rtol=1e-15)
    # the impulse of width δ: x/δ ∫_{t−δ}^t ρ
    d = 0.25
    expect = 3 / d * 2 * (np.exp(-(t - d) / 2) - np.exp(-t / 2))
    assert np.allclose(f.output(impulse([3.0], d), t[1:]), expect[1:], rtol=1e-12)


@given(st.integers(-4, 4), st.integers(1, 6))
def test_callable_functional_rate_is_sixth_order_accurate(k: int, j: int) -> None:
    """A running integral of x against e^{−s}: rate x e^{−t} from the Savitzky–Golay derivative."""
    x = 2.0 ** k

    def fn(t: np.ndarray, u: np.ndarray) -> np.ndarray:
        return u[:, 0] * (1 - np.exp(-(t - t[0])))

    f = CallableFunctional(fn, "test", 1, dt=0.02)
    t = np.array([0.5 * j])
    # The degree-6 interpolant's derivative error is ~ Δt⁶·|y⁽⁷⁾|/7! relative: far below 1e-9 here.
    assert f.rate(heaviside([x]), t)[0] == pytest.approx(x * math.exp(-t[0]), rel=1e-9)


def test_memory_of_a_linear_rnn_matches_its_kernel_and_is_a_lower_bound() -> None:
    import scipy.linalg

    W = np.array([[-1.0, 0.5], [0.0, -2.0]])
    rnn = RNN.build(W, [[1.0], [1.0]], None, [1.0, -0.5])
    t = np.linspace(0.0, 6.0, 7)
    curve = memory_function(RNNFunctional(rnn), t)
    exact = np.array([abs(rnn.c @ scipy.linalg.expm(W * tk) @ rnn.U[:, 0]) for tk in t])
    assert curve.lower_bound and curve.candidates >= 34
    # DOP853 at rtol 1e-12: the searched value equals |cᵀe^{Wt}U| (linear in x) to that accuracy.
    assert np.allclose(curve.values, exact, rtol=1e-9, atol=1e-12)
    assert "lower bound" in curve.method


def test_memory_of_a_tanh_rnn_is_at_least_its_linearisation() -> None:
    """Small inputs see the linearisation cᵀe^{Wt}U (σ′(0) = 1); the sup can only be larger."""
    import scipy.linalg

    W = np.array([[-1.0, 0.5], [0.25, -2.0]])
    rnn = RNN.build(W, [[1.0], [0.5]], None, [1.0, -0.5], sigma="tanh")
    t = np.linspace(0.0, 5.0, 6)
    curve = memory_function(RNNFunctional(rnn), t)
    lin = np.array([abs(rnn.c @ scipy.linalg.expm(W * tk) @ rnn.U[:, 0]) for tk in t])
    assert np.all(curve.values >= lin * (1 - 1e-5))


def test_directions_lie_on_the_unit_sphere_of_the_max_norm() -> None:
    for d in (1, 2, 5, 9):
        dirs = directions(d, seed=3)
        assert np.allclose(np.max(np.abs(dirs), axis=1), 1.0)
    assert len(directions(1)) == 2


def test_as_functional_passes_functionals_through() -> None:
    f = LinearFunctional(ExponentialKernel(Fraction(1, 2)))
    assert as_functional(f, "x") is f
    assert isinstance(as_functional(RNN.build([[-1.0]], [[1.0]]), "r"), RNNFunctional)


def test_printed_reversed_input_and_quadrature_error_estimate() -> None:
    """App. G's r^x = x for t < 0, 0 for t ≥ 0, read at time t: H_t(r^x) = xᵀ∫_t^∞ ρ."""
    from recmem.numerics.signals import reversed_step

    f = LinearFunctional(parse_kernel("exp:1/2"))
    r = reversed_step([2.0])
    assert r.start == -math.inf and r.stop == 0.0 and r.value(-5.0)[0] == 2.0 and r.value(0.0)[0] == 0.0
    t = np.array([0.5, 3.0])
    vals, errs = f.output_with_error(r, t)
    assert np.allclose(vals, 2 * 0.5**t / math.log(2), rtol=1e-12)
    assert np.all(errs >= 0) and np.all(errs < 1e-10)
    assert np.array_equal(f.output(r, t), vals)


def test_memory_function_norm_and_offset_options() -> None:
    """norm='1' divides by |x|₁ (the sup over a linear query is then |ρ|_∞); offset adds to the
    denominator (App. A.8 eq. (43)): for a linear functional the sup is unchanged, not attained."""
    k = ExponentialKernel(Fraction(1, 2), (Fraction(1), Fraction(-1, 2)))
    t = np.array([1.0, 2.0])
    lin = LinearFunctional(k)
    assert np.allclose(memory_function(lin, t, norm="1").values, 0.5**t)
    assert np.allclose(memory_function(lin, t).values, 1.5 * 0.5**t)
    assert "not attained" in memory_function(lin, t, offset=1.0).method
    rnn = RNN.build([[-1.0]], [[1.0, -0.5]], None, [1.0])  # ρ = e^{−t}(1, −1/2)
    one = memory_function(RNNFunctional(rnn), t, norm="1", magnitudes=(1.0,), refine_rounds=0)
    assert np.allclose(one.values, np.exp(-t), rtol=1e-9) and one.lower_bound
    off = memory_function(RNNFunctional(rnn), t, offset=1.0, magnitudes=(1.0, 8.0), refine_rounds=0)
    assert np.allclose(off.values, 8 / 9 * 1.5 * np.exp(-t), rtol=1e-9)  # |x|_∞ = 8: 8/(8 + 1)
    with pytest.raises(ValueError, match="unknown norm"):
        memory_function(lin, t, norm="2")
    assert directions(2, norm="1").shape[1] == 2 and np.allclose(np.abs(directions(2, norm="1")).sum(1), 1)
