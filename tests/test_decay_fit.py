"""Decay-class fitting of memory functions (recmem.numerics.decay_fit) on synthetic data."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from recmem.numerics.decay_fit import MIN_POINTS, fit_decay, fit_exponential, fit_polynomial


def test_exact_exponential_gives_its_rate_and_class() -> None:
    t = np.linspace(1, 1000, 1000)
    fit = fit_decay(t, 0.9 ** t)
    assert fit.decay_class == "exponential"
    assert fit.exponential.rate == pytest.approx(math.log(1 / 0.9), rel=1e-12)
    assert fit.exponential.r2 == pytest.approx(1.0, abs=1e-12)
    # the power law can only mimic it with a shift at its upper bound (an exponential in disguise)
    assert fit.polynomial.shift_at_bound == "upper"
    assert fit.polynomial.rms > 1e6 * fit.exponential.rms
    assert fit.tail_start == pytest.approx(t[500]) and fit.points == 500


def test_shifted_power_law_needs_the_fitted_shift() -> None:
    t = np.linspace(1, 100, 200)
    m = (t + 1) ** -1.1
    free, fixed = fit_polynomial(t, m), fit_polynomial(t, m, tau_max=0.0)
    assert free.exponent == pytest.approx(1.1, rel=1e-8)
    assert free.shift == pytest.approx(1.0, rel=1e-6)
    assert fixed.shift == 0.0 and fixed.shift_at_bound == "lower"
    assert abs(fixed.exponent - 1.1) / 1.1 > 0.05  # τ = 0 biases the exponent by 7 % here
    fit = fit_decay(t, m)
    assert fit.decay_class == "polynomial"
    assert fit.polynomial.exponent == pytest.approx(1.1, rel=1e-8)


@given(rate=st.floats(0.01, 2.0), amplitude=st.floats(1e-3, 1e3))
def test_any_exponential_is_classified_with_its_rate(rate: float, amplitude: float) -> None:
    t = np.linspace(0.0, min(300.0, 300.0 / rate), 300)
    fit = fit_decay(t, amplitude * np.exp(-rate * t))
    assert fit.decay_class == "exponential"
    assert fit.value == pytest.approx(rate, rel=1e-9)


@given(p=st.floats(0.3, 4.0), tau=st.floats(0.0, 20.0), amplitude=st.floats(1e-3, 1e3))
def test_any_power_law_is_classified_with_its_exponent_and_shift(p: float, tau: float,
                                                                 amplitude: float) -> None:
    t = np.linspace(1.0, 1000.0, 400)
    fit = fit_decay(t, amplitude * (t + tau) ** -p)
    assert fit.decay_class == "polynomial"
    assert fit.value == pytest.approx(p, rel=1e-6)
    assert fit.polynomial.shift == pytest.approx(tau, abs=1e-4 * (1 + tau))


def test_noisy_exponential_standard_errors_are_calibrated() -> None:
    """(r̂ − r)/s.e. over independent noise draws has spread ≈ 1: the reported error is honest."""
    rng = np.random.default_rng(0)
    t = np.linspace(1, 60, 120)
    z = []
    for _ in range(60):
        m = np.exp(-0.3 * t + 0.01 * rng.standard_normal(len(t)))
        fit = fit_decay(t, m)
        assert fit.decay_class == "exponential"
        z.append((fit.exponential.rate - 0.3) / fit.exponential.rate_stderr)
    assert 0.7 < float(np.std(z)) < 1.4
    assert abs(float(np.mean(z))) < 0.5


def test_noisy_power_law_is_polynomial_with_exponent_within_its_error() -> None:
    rng = np.random.default_rng(1)
    t = np.linspace(1, 1000, 500)
    m = (t + 3.0) ** -1.5 * np.exp(0.01 * rng.standard_normal(len(t)))
    fit = fit_decay(t, m)
    assert fit.decay_class == "polynomial"
    assert abs(fit.polynomial.exponent - 1.5) < 4 * fit.polynomial.exponent_stderr + 1e-3


def test_oscillating_memory_is_fitted_on_its_envelope() -> None:
    t = np.linspace(1, 400, 2000)
    fit = fit_decay(t, np.exp(-0.02 * t) * np.abs(np.cos(t)))
    assert fit.envelope_changed and any("envelope" in n for n in fit.notes)
    assert fit.decay_class == "exponential"
    assert fit.value == pytest.approx(0.02, rel=0.01)


def test_values_at_or_below_the_floor_are_left_out_and_reported() -> None:
    t = np.linspace(1, 200, 200)
    m = np.exp(-0.1 * t)
    m[::7] = 0.0
    m[3] = -1e-3
    m[150:] = 1e-30  # below the relative floor: not resolved
    fit = fit_decay(t, m, rel_floor=1e-9)
    n_out = int(np.sum(m <= 1e-9 * m.max()))
    assert fit.below_floor == n_out and fit.floor == pytest.approx(1e-9 * m.max())
    assert any("floor" in n for n in fit.notes)
    assert fit.decay_class == "exponential"
    assert fit.value == pytest.approx(0.1, rel=1e-9)
    assert fit.tail_end < t[150]


@pytest.mark.parametrize("m", [np.ones(100), np.linspace(1, 2, 100), 1 + np.exp(-np.linspace(1, 100, 100))])
def test_a_memory_that_does_not_fall_is_not_decaying(m: np.ndarray) -> None:
    fit = fit_decay(np.linspace(1, 100, 100), m)
    assert fit.decay_class == "not decaying"
    assert fit.value is None
    assert "not decaying" in fit.summary()


def test_too_few_points_is_undetermined_with_the_reason() -> None:
    t = np.linspace(1, 10, 10)
    fit = fit_decay(t, np.where(t < 6, np.exp(-t), 0.0))
    assert fit.decay_class == "undetermined" and fit.value is None
    assert fit.reason is not None and "only 5" in fit.reason and f"at least {MIN_POINTS}" in fit.reason
    fit = fit_decay(t, np.exp(-t), tail_fraction=0.9)
    assert fit.decay_class == "undetermined"
    assert fit.reason is not None and "in the tail" in fit.reason and f"at least {MIN_POINTS}" in fit.reason
    with pytest.raises(ValueError, match="at least 3"):
        fit_exponential(t[:2], np.exp(-t[:2]))


@pytest.mark.parametrize(("t", "m", "match"), [
    (np.linspace(1, 10, 10), np.full(10, np.nan), "finite"),
    (np.linspace(1, 10, 10), np.ones(10), "accuracy"),
    (np.linspace(1, 10, 10), np.ones(9), "equal length"),
    (np.linspace(10, 1, 10), np.ones(10), "increasing"),
    (np.linspace(-1, 10, 10), np.ones(10), "non-negative"),
])
def test_malformed_input_is_rejected(t: np.ndarray, m: np.ndarray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        fit_decay(t, m, accuracy=np.full(3, 1e-9) if match == "accuracy" else None)


def test_report_is_valid_json() -> None:
    t = np.linspace(1, 100, 100)
    d = fit_decay(t, np.ones(100)).to_dict()  # zero residuals, undefined R²
    text = json.dumps(d, allow_nan=False)
    assert json.loads(text)["class"] == "not decaying"
    d = fit_decay(t, (t + 1) ** -2.0).to_dict()
    assert d["class"] == "polynomial" and d["value"] == pytest.approx(2.0, rel=1e-8)
    assert set(d["polynomial"]) >= {"exponent", "exponent_stderr", "shift", "r2", "rms"}
    json.dumps(d, allow_nan=False)
