"""Paper W's speed work (issue 20 §4) keeps the evidence: W.theorem's trained σ-RNNs and
W.stable-exp's trained linear banks train as stacks that reproduce each model trained alone,
mpmath contexts are made once per precision, and the torch numeric sides run on one intra-op
thread."""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
import pytest
from claim_helpers import count_mp_contexts

torch = pytest.importorskip("torch")

from recmem.checks.claims.paper_w import _lyapunov as lc  # noqa: E402
from recmem.checks.claims.paper_w._memory import small_torch  # noqa: E402
from recmem.numerics import rnn_training as rt  # noqa: E402
from recmem.numerics.backend import make_backend, parse_spec  # noqa: E402
from recmem.numerics.kernels import parse_kernel  # noqa: E402
from recmem.numerics.linear_rnn_training import TrainSettings, train_bank, train_banks  # noqa: E402
from recmem.numerics.perturbation import Grid  # noqa: E402

DT = 0.1


def _model(m: int) -> Any:
    W0 = rt.stable_init(m, 1.0, 1 / DT, np.random.default_rng([0, 31, m]))
    gen = torch.Generator().manual_seed(int(np.random.default_rng([0, 37, m]).integers(2**62)))
    return rt.EulerRNN(rt.Spec("hardtanh", "direct", DT), W0, gen)


def _data(spec: str, ti: int) -> tuple[Any, ...]:
    target = rt.MemoryTarget(parse_kernel(spec), DT)
    rng = np.random.default_rng([0, 29, ti])
    return (*rt.regression_data(target, 64, 16, rng), *rt.regression_data(target, 64, 16, rng))


def test_a_stack_of_euler_rnns_trains_each_as_it_would_alone() -> None:
    """Widths 1, 2, 4 on two targets, stacked (zero-padded to width 4): each model ends where its
    own training ends, up to the summation order of a batched product (today: no stack; W.theorem
    trained its 14 models one by one)."""
    jobs = [(spec, ti, m) for ti, spec in enumerate(("expsum:1;1", "poly:3/2")) for m in (1, 2, 4)]
    datas = {ti: _data(spec, ti) for spec, ti, _ in jobs}
    alone = []
    for _, ti, m in jobs:
        model = _model(m)
        hist = rt.train(model, datas[ti], epochs=4, batch_size=32, lr=0.005, seed=41 * m + ti)
        alone.append((model.theta(), hist))
    models = [_model(m) for _, _, m in jobs]
    hist = rt.train_stack(models, [datas[ti] for _, ti, _ in jobs], epochs=4, batch_size=32,
                          lr=0.005, seeds=[41 * m + ti for _, ti, m in jobs])
    assert hist.epochs == 4 and hist.stopped == "epochs exhausted"
    for (theta, h), model in zip(alone, models, strict=True):
        got = model.theta()
        assert h.epochs == hist.epochs
        for k in "MUbc":
            np.testing.assert_allclose(got[k], theta[k], rtol=1e-12, atol=1e-14)


def test_a_stack_refuses_what_zero_padding_cannot_hold() -> None:
    spec = rt.Spec("hardtanh", "exp", DT)
    W0 = rt.stable_init(2, 1.0, 1 / DT, np.random.default_rng(0))
    other = rt.EulerRNN(spec, W0, torch.Generator().manual_seed(1))
    with pytest.raises(ValueError, match="direct"):
        rt.EulerRNNStack([other])
    with pytest.raises(ValueError, match="one data set"):
        rt.train_stack([_model(1)], [], epochs=1, batch_size=8, lr=0.01, seeds=[1])


def test_stacked_linear_banks_equal_each_bank_trained_alone() -> None:
    """W.stable-exp's two targets' banks in one stack: the same trained parameters as train_bank
    gives each alone (today: no train_banks; two trainings, one per target)."""
    grid = Grid(1, 1, 20)
    s = TrainSettings(epochs=30, batch_size=16, train_size=48, target_loss=0.0, every=10**9)
    kernels = [parse_kernel("exp:9/10"), parse_kernel("poly:11/10")]
    seeds, inits = [3, 4], [[10, 11], [12, 13]]
    banks, hist = train_banks(kernels, grid, [1, 2], s, seeds=seeds, init_seeds=inits)
    assert hist.epochs == 30
    for kernel, seed, init, bank in zip(kernels, seeds, inits, banks, strict=True):
        alone, _ = train_bank(kernel, grid, [1, 2], s, seed=seed, init_seeds=init)
        for a, b in zip(alone.thetas(), bank.thetas(), strict=True):
            for x, y in ((a.W, b.W), (a.U, b.U), (a.c, b.c)):
                np.testing.assert_allclose(y, x, rtol=1e-12, atol=1e-15)


def test_lyapunov_values_reuse_one_mpmath_context_per_precision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Value.mid / .rad / scale (thousands of calls per run) make no new MPContext (today: one
    per call, ~1 ms each)."""
    v = lc.Value.point(mpmath.mpf(2), 256)
    v.mid  # noqa: B018 - the context of this precision exists from here on
    made = count_mp_contexts(monkeypatch)
    for _ in range(20):
        assert v.mid == 2 and v.rad == 0
        v.scale(__import__("fractions").Fraction(1, 3))
    assert made == []
    assert lc.hp(256).prec == 256 + 64 and lc.hp(256) is lc.hp(256)


def test_torch_numeric_sides_run_on_one_thread() -> None:
    """W's torch numeric sides (batched RK4, small estimators, trainings) run on one intra-op
    thread on a CPU and restore the setting; other arithmetics untouched (today: torch's
    default, one thread per core, for W.theorem's RK4 study and W.stable-exp's torch fits)."""
    seen: list[int] = []

    @small_torch
    def side(backend: Any, ctx: Any) -> list[Any]:
        seen.append(torch.get_num_threads())
        return []

    before = torch.get_num_threads()
    side(make_backend(parse_spec("torch:cpu")), None)
    side(make_backend(parse_spec("numpy")), None)
    assert seen == [1, before] and torch.get_num_threads() == before
