"""Paper O's speed work (issue 20 §4) keeps the evidence: the replicate readouts of
O.universality train as stacks that reproduce each model trained alone, the claim trains one
stack per (features, readout) instead of one model per replicate, the per-epoch validation that
nothing reads is not computed, mpmath contexts are made once per precision, and the point
arithmetics' small torch matrices run on one intra-op thread."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from claim_helpers import count_mp_contexts

torch = pytest.importorskip("torch")

from recmem.checks.claim import Context  # noqa: E402
from recmem.checks.claims.paper_o import universality as uni  # noqa: E402
from recmem.checks.claims.paper_o._common import small_matrices  # noqa: E402
from recmem.checks.registry import get  # noqa: E402
from recmem.numerics import lotka_volterra as lv  # noqa: E402
from recmem.numerics import training  # noqa: E402
from recmem.numerics.backend import make_backend, parse_spec  # noqa: E402
from recmem.theory.universality import Universality  # noqa: E402

SIZE = lv.TaskSize(length=64, trajectories=12, nodes=16, hidden=16, amplitude=0.5, epochs=6,
                   batch=64, lr=0.005)


def _draws(count: int) -> list[lv.TaskData]:
    return [lv.make_task(SIZE, np.random.default_rng([s, 11]), 100 + s, Fraction(99, 100),
                         Fraction(1), "cpu", torch.float64) for s in range(count)]


@pytest.mark.parametrize(("features", "readout"), [("state", "mlp"), ("input", "mlp"),
                                                   ("state", "linear")])
def test_a_stack_trains_each_model_as_it_would_alone(features: str, readout: str) -> None:
    """Stacked training (one step for all models) gives each model the scores it gets trained
    alone — its own data, initialisation, batches and gradient (bit for bit on the development
    machine's CPU, measured: the stack computes each model's own gradient, and Adam is
    elementwise; asserted here up to a relative 1e-9, the rounding a BLAS could add to a batched
    product)."""
    datas, seeds = _draws(3), [7, 8, 9]
    alone = [lv.train_readout(d, features, readout, s, threads=1) for d, s in
             zip(datas, seeds, strict=True)]
    stacked = lv.train_readouts(datas, features, readout, seeds, threads=1)
    for a, b in zip(alone, stacked, strict=True):
        np.testing.assert_allclose(b.per_trajectory, a.per_trajectory, rtol=1e-9)
        assert b.train_loss == pytest.approx(a.train_loss, rel=1e-9)
        assert b.constant_loss == pytest.approx(a.constant_loss, rel=1e-12)
        assert b.mse == pytest.approx(a.mse, rel=1e-9)
    # the stack's history is shared: every model ran every epoch
    if readout == "mlp":
        assert all(s.history.epochs == SIZE.epochs for s in stacked)


def test_a_stack_computes_each_models_own_gradient_bit_for_bit() -> None:
    """The stack differentiates its loss itself (no autograd graph): each model's gradient equals
    bit for bit the gradient autograd computes for that model alone (torch.nn.Linear layers under
    torch's mse_loss), and the loss the sum of the models' own."""
    for width in (SIZE.nodes * 2, 3):
        models = [lv.readout_model("mlp", width, SIZE, s) for s in range(4)]
        stack = lv.stack_models(models)
        gen = torch.Generator().manual_seed(width)
        x = torch.randn(4, 64, width, dtype=torch.float64, generator=gen)
        y = torch.randn(4, 64, 2, dtype=torch.float64, generator=gen)
        value = stack.stack_mse_backward(x, y)
        grads = stack.layers(stack.flat.grad)
        total = 0.0
        for r, model in enumerate(models):
            loss = torch.nn.functional.mse_loss(model(x[r]), y[r])
            loss.backward()
            total += float(loss.detach())
            linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
            for (gw, gb), linear in zip(grads, linears, strict=True):
                assert torch.equal(gw[r], linear.weight.grad) and torch.equal(gb[r, 0], linear.bias.grad)
        assert float(value) == pytest.approx(total, rel=1e-15)
        # the forward is the models' own, and autograd through it gives the same gradient up to
        # the rounding of the batched products (it forms xᵀ·grad and transposes)
        own = stack.flat.grad.clone()
        stack.flat.grad = None
        training._stack_mse(stack(x), y).backward()
        np.testing.assert_allclose(stack.flat.grad.numpy(), own.numpy(), rtol=1e-12, atol=1e-15)


def test_fit_trains_a_stack_by_autograd_as_by_its_own_gradient() -> None:
    """A loss given to fit (here the default's value through a lambda) goes through autograd; the
    stack's own gradient (the default loss) trains the same models, up to rounding."""
    data = _draws(2)
    rows = [lv._rows(d, "state") for d in data]
    x = torch.stack([r.x_train for r in rows])
    y = torch.stack([r.y_train for r in rows])
    stacks = [lv.stack_models([lv.readout_model("mlp", x.shape[-1], SIZE, s) for s in (3, 4)])
              for _ in range(2)]
    for stack, loss in zip(stacks, (None, lambda p, t: training._stack_mse(p, t)), strict=True):
        training.fit(stack, x, y, None, None, epochs=2, batch_size=64, lr=0.005, seed=[5, 6],
                     loss=loss)
    np.testing.assert_allclose(stacks[0].flat.detach().numpy(), stacks[1].flat.detach().numpy(),
                               rtol=1e-9, atol=1e-12)


def test_a_stack_needs_draws_of_one_size() -> None:
    d = _draws(1)[0]
    other = lv.TaskData(lv.TaskSize(**{**SIZE.__dict__, "hidden": 8}), d.alpha, d.u, d.z, d.lam,
                        d.states, d.route_checks)
    with pytest.raises(ValueError, match="same sizes"):
        lv.train_readouts([d, other], "state", "mlp", [1, 2])
    with pytest.raises(ValueError, match="seeds"):
        lv.train_readouts([d], "state", "mlp", [1, 2])


def test_fit_without_validation_data_computes_no_validation_loss() -> None:
    """``x_val`` None: no per-epoch validation loss (today: fit needs validation data and
    evaluates it every epoch, which O.universality never reads); a target loss then needs it."""
    model = torch.nn.Linear(3, 2).double()
    x, y = torch.randn(40, 3, dtype=torch.float64), torch.randn(40, 2, dtype=torch.float64)
    hist = training.fit(model, x, y, None, None, epochs=3, batch_size=8, lr=0.01, seed=1)
    assert hist.epochs == 3 and hist.val == [] and hist.stopped == "epochs exhausted"
    with pytest.raises(ValueError, match="validation"):
        training.fit(model, x, y, None, None, epochs=3, batch_size=8, lr=0.01, seed=1,
                     target_loss=1e-8)


def test_the_claim_trains_one_stack_per_readout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicate study at 3 replicates calls the training loop twice (the baseline's stack and
    the readout's), not once per model (today: 6 calls), and its search shares those trainings."""
    calls: list[tuple[int, ...]] = []
    fit = training.fit

    def counted(model: Any, x_train: Any, *args: Any, **kw: Any) -> Any:
        calls.append(tuple(x_train.shape))
        return fit(model, x_train, *args, **kw)

    monkeypatch.setattr(training, "fit", counted)
    claim = get("O.universality")
    small = {"L": 64, "trajectories": 12, "N": 16, "hidden": 16, "epochs": 6, "replicates": 3,
             "amplitude": Fraction(1, 2)}
    ctx = Context({**claim.defaults(), **small}, seed=1, statement=Universality())
    b = make_backend(parse_spec("torch:cpu"))
    with b.activate():
        assert claim.numeric is not None
        out = claim.numeric(b, ctx)
    assert len(calls) == 2 and {c[0] for c in calls} == {3}  # two stacks of 3 models
    assert len(out[-1].data["ratios"]) == 3
    # the search's designs are the first replicates: judged on the same trainings, no new ones
    inst = uni.holds(uni.Design(1, 16, Fraction(1, 2)), ctx)
    assert inst.values["validation trajectories"] == SIZE.trajectories - SIZE.n_train
    assert inst.ratio == pytest.approx(out[-1].data["ratios"][1] * 10, rel=1e-5)
    assert len(calls) == 2
    # the other way round (the runner's order: the search first) in a run that selects
    # torch:cpu: the first design trains every replicate, one stack per (features, readout), and
    # the numeric side trains nothing
    calls.clear()
    ctx = Context({**claim.defaults(), **small}, seed=1, statement=Universality(),
                  arithmetics=("numpy", "torch:cpu"))
    first = uni.holds(uni.Design(0, 16, Fraction(1, 2)), ctx)
    assert len(calls) == 2 and {c[0] for c in calls} == {3}
    uni.holds(uni.Design(1, 16, Fraction(1, 2)), ctx)
    with b.activate():
        again = claim.numeric(b, ctx)
    assert len(calls) == 2
    assert again[-1].data["ratios"] == out[-1].data["ratios"]
    assert first.ratio == pytest.approx(out[-1].data["ratios"][0] * 10, rel=1e-5)
    # a run without torch:cpu (numpy only, or the fuzz campaign): the search trains its own
    # draws only (SEARCH_DRAWS of them), not the replicates no side of the run will read
    calls.clear()
    ctx = Context({**claim.defaults(), **small}, seed=1, statement=Universality(),
                  arithmetics=("numpy",))
    uni.holds(uni.Design(0, 16, Fraction(1, 2)), ctx)
    assert len(calls) == 2 and {c[0] for c in calls} == {uni.SEARCH_DRAWS}


def test_mpmath_contexts_are_made_once_per_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Node draws and certified brackets reuse one context per precision (today: a new
    MPContext, ~4–10 ms each, per draw and per bracket)."""
    from recmem.numerics import nodes as nd
    from recmem.numerics.certified import fixed_context, sigma_bracket, vandermonde_builder

    nodes = nd.ring(6, Fraction(9, 10), Fraction(1), 3)
    sigma_bracket(vandermonde_builder(nodes, 6))
    made = count_mp_contexts(monkeypatch)
    again = nd.ring(6, Fraction(9, 10), Fraction(1), 3)
    sb = sigma_bracket(vandermonde_builder(again, 6))
    assert made == [] and again == nodes and sb.certified
    assert fixed_context(128) is fixed_context(128) and fixed_context(128).prec == 128


def test_small_torch_matrices_run_on_one_thread() -> None:
    """The point arithmetics' small matrices: one torch intra-op thread on a CPU, the setting
    restored after; other arithmetics untouched (today: torch's default, one thread per core)."""
    before = torch.get_num_threads()
    with small_matrices(make_backend(parse_spec("torch:cpu"))):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with small_matrices(make_backend(parse_spec("numpy"))):
        assert torch.get_num_threads() == before
