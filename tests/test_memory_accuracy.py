"""The accuracy model of ``recmem memory`` (issue 8, item 1): every memory value carries an error
estimate that is a computation (DOP853 against looser tolerances, the candidates' error intervals),
the fit leaves out what lies below it, and the class is "undetermined" when the fit cannot tell.

The documented RNN (docs/MEMORY.md: W = [[−1/2, 1], [0, −2]], U = (1, 1)ᵀ, c = (1, 1), tanh) and its
2-input variant (U = I) decay exponentially at −max Re λ(W) = 1/2 over bounded inputs; the full
sweep over seeds 0…19 is ``benchmarks/memory_classes.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg

from recmem.checks.cli import main
from recmem.checks.memory_cli import query
from recmem.numerics.decay_fit import RESOLVE_FACTOR, fit_curvature, fit_decay
from recmem.numerics.functionals import RNNFunctional
from recmem.numerics.memory import ERROR_SAFETY, memory_function, window_max
from recmem.numerics.ode import response_scipy_with_error
from recmem.numerics.rnn import RNN
from recmem.numerics.signals import heaviside, impulse

W = [[-0.5, 1.0], [0.0, -2.0]]
RATE = 0.5  # −max Re λ(W)


def _npz(path: Path, u: list[list[float]], activation: str = "tanh") -> Path:
    np.savez(path, W=np.array(W), U=np.array(u), c=np.array([1.0, 1.0]), activation=activation)
    return path


@pytest.mark.parametrize("x", [2.0 ** -10, 1.0])
@pytest.mark.parametrize("kind", ["heaviside", "impulse"])
def test_dop853_error_estimate_bounds_the_true_error(kind: str, x: float) -> None:
    """Linear RNN: the exact response is cᵀe^{Wt}Ux (rate) or its pulse average (output)."""
    w, u, c = np.array(W), np.array([1.0, 1.0]), np.array([1.0, 1.0])
    rnn = RNN.build(W, [[1.0], [1.0]], None, [1.0, 1.0], "identity")
    t = np.linspace(1, 100, 200)
    d = 1e-3
    if kind == "heaviside":
        y, dy, _, edy = response_scipy_with_error(rnn, heaviside([x]), t)
        exact = np.array([c @ scipy.linalg.expm(w * tk) @ u * x for tk in t])
        value, err = dy, edy
    else:
        y, _, ey, _ = response_scipy_with_error(rnn, impulse([x], d), t)
        gain = np.linalg.solve(w, (scipy.linalg.expm(w * d) - np.eye(2)) @ u) * x / d
        exact = np.array([c @ scipy.linalg.expm(w * (tk - d)) @ gain for tk in t])
        value, err = y, ey
    est = ERROR_SAFETY * window_max(err)
    assert np.all(np.abs(value - exact) <= est)
    # and it is an estimate, not a blanket: far below the values where they are large
    assert np.all(est[:20] < 1e-6 * np.abs(exact[:20]))


def test_search_accuracy_covers_the_noise_spikes_of_the_issue() -> None:
    """The issue's curve: M falls to ~4e-12 at t = 60 and jumps to ~8e-9 at t = 67, above the old
    fixed floor 1e-9·max M. Every such value must now be unresolved by its own accuracy."""
    rnn = RNN.build(W, [[1.0], [1.0]], None, [1.0, 1.0], "tanh")
    t = np.linspace(1, 100, 200)
    curve = memory_function(RNNFunctional(rnn), t, inputs="impulse", max_input=1.0, accuracy=True)
    assert curve.accuracy is not None and curve.accuracy.shape == t.shape
    resolved = curve.values > RESOLVE_FACTOR * curve.accuracy
    # the resolved values are a contiguous start of the window, and follow e^{-t/2} there
    last = int(np.flatnonzero(resolved)[-1])
    assert resolved[: last + 1].all() and not resolved[last + 1:].any()
    assert 30 < t[last] < 60
    ratio = curve.values[resolved] * np.exp(RATE * t[resolved])
    assert np.ptp(np.log(ratio[len(ratio) // 2:])) < 1e-3
    # late values above the old floor are flagged, not fitted
    late = (t > 60) & (curve.values > 1e-9 * curve.values.max())
    assert late.any() and not resolved[late].any()


def test_fit_leaves_out_values_below_their_accuracy() -> None:
    """The issue's pattern: e^{−t/2} with integrator noise well below its estimated accuracy early,
    and noise spikes up to 1e-8 (above the old fixed floor 1e-9·max M) once the search's small
    inputs lose their resolution. Without the accuracy the fit is wrong; with it, right."""
    t = np.linspace(1, 100, 200)
    late = t >= 40
    accuracy = np.where(late, 2e-8, 1e-10)
    m = np.abs(np.exp(-0.5 * t) + np.where(late, 1e-8, 1e-12) * np.sin(7.3 * t) ** 2)
    blind = fit_decay(t, m, rel_floor=1e-9)
    assert blind.decay_class != "exponential" or abs(blind.value - 0.5) > blind.uncertainty
    fit = fit_decay(t, m, accuracy=accuracy)
    assert fit.decay_class == "exponential"
    assert abs(fit.value - 0.5) <= fit.uncertainty < 0.01
    assert fit.resolved_until is not None and fit.resolved_until < 40
    assert any("unresolved" in n for n in fit.notes)


def test_too_few_resolved_points_is_undetermined_with_the_reason() -> None:
    t = np.linspace(1, 100, 100)
    fit = fit_decay(t, np.exp(-t), accuracy=np.full(100, 1e-6))
    assert fit.decay_class == "undetermined" and fit.value is None and fit.uncertainty is None
    assert fit.reason is not None and "resolved" in fit.reason and "accuracy" in fit.reason
    assert "undetermined" in fit.summary()
    json.dumps(fit.to_dict(), allow_nan=False)


def test_classes_not_separated_by_the_uncertainty_are_undetermined() -> None:
    """A short, noisy window: e^{−t/10} and a power law are both within the noise."""
    rng = np.random.default_rng(3)
    t = np.linspace(10, 20, 24)
    m = np.exp(-0.1 * t + 0.003 * rng.standard_normal(len(t)))
    fit = fit_decay(t, m)
    assert fit.decay_class == "undetermined"
    assert fit.reason is not None and "curvature" in fit.reason
    assert fit.exponential is not None and fit.curvature is not None


def test_curvature_separates_the_classes() -> None:
    t = np.linspace(50, 100, 100)
    exp = fit_curvature(t, np.exp(-0.3 * t))
    assert abs(exp.kappa) < 1e-9 and exp.kappa + exp.kappa_uncertainty < exp.threshold
    tau = 4.0
    pw = fit_curvature(t, (t + tau) ** -1.5)
    assert pw.kappa == pytest.approx(1 / (50 + tau), rel=1e-6)
    assert pw.kappa - pw.kappa_uncertainty > pw.threshold


def test_rate_uncertainty_covers_the_truth_for_noisy_data() -> None:
    rng = np.random.default_rng(0)
    t = np.linspace(1, 60, 120)
    hits = 0
    for _ in range(40):
        fit = fit_decay(t, np.exp(-0.3 * t + 0.01 * rng.standard_normal(len(t))))
        assert fit.decay_class in ("exponential", "undetermined")
        if fit.decay_class == "exponential":
            hits += abs(fit.value - 0.3) <= fit.uncertainty
        else:
            hits += 1
    assert hits >= 39  # 3 standard errors: misses are rare


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    out = tmp_path / "m.json"
    code = main(["memory", *args, "--quiet", "--json", str(out)])
    capsys.readouterr()
    return code, json.loads(out.read_text())


@pytest.mark.parametrize("inputs", ["heaviside", "impulse"])
def test_issue_example_gives_the_linearised_rate(inputs: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`recmem memory rnn.npz --inputs impulse --max-input 1` said "not decaying" (issue 8.1)."""
    npz = _npz(tmp_path / "rnn.npz", [[1.0], [1.0]])
    code, doc = _run(tmp_path, capsys, str(npz), "--inputs", inputs, "--max-input", "1")
    fit = doc["fit"]
    assert code == 0, fit
    assert fit["class"] == "exponential"
    assert abs(fit["value"] - RATE) <= fit["uncertainty"]
    assert fit["uncertainty"] < 0.01  # resolved, not a blanket
    assert len(doc["accuracy"]) == len(doc["memory"]) and doc["accuracy_method"].startswith("DOP853")


@pytest.mark.parametrize("inputs", ["heaviside", "impulse"])
def test_two_input_variant_is_exponential_on_the_issue_seed(inputs: str, tmp_path: Path) -> None:
    """Seed 1 said "not decaying" (issue 8.1); seeds 0…19, and the linear RNNs, are swept by
    benchmarks/memory_classes.py."""
    seed = 1
    npz = _npz(tmp_path / "rnn2.npz", [[1.0, 0.0], [0.0, 1.0]])
    q = query(str(npz), inputs=inputs, max_input=1.0, seed=seed)
    assert q.fit is not None and q.fit.decay_class == "exponential", q.fit
    assert abs(q.fit.value - RATE) <= q.fit.uncertainty


def test_analytic_targets_are_resolved_to_rounding() -> None:
    q = query("poly:1.1")
    assert q.curve.accuracy is not None
    assert np.all(q.curve.accuracy <= 1e-13 * q.curve.values)
    assert q.fit is not None and q.fit.below_floor == 0
    assert q.fit.decay_class == "polynomial" and abs(q.fit.value - 1.1) <= q.fit.uncertainty
    assert q.fit.uncertainty < 1e-6
    e = query("exp:0.9", inputs="impulse", t_max=200, grid=200)
    assert e.fit is not None and e.fit.decay_class == "exponential"
    assert abs(e.fit.value - math.log(1 / 0.9)) <= e.fit.uncertainty
