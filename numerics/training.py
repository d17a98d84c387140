"""Training a torch model with Adam on (input, target) tensors, resumable from a checkpoint.

The experiments of both papers train small models the same way: paper O's position-wise MLP on a
frozen linear RNN's states (App. E.3) and paper W's RNNs (App. D: Adam, learning rate 0.005, MSE,
batch 128, up to 1000 epochs, stopped once the validation loss reaches 1e-8). :func:`fit` is that
loop, once: mini-batches drawn from a seeded generator, the full state (model, optimiser, epoch,
generator, history) saved after every ``every`` epochs through a :class:`Saver`, and restored by the
next call, so a killed run continues where its last checkpoint left it, with the same batches it
would have drawn.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class Saver(Protocol):
    """Where :func:`fit` keeps its state (``recmem.checks.reproduce.experiment.Checkpoint``)."""

    def load(self) -> dict[str, Any] | None: ...

    def save(self, state: dict[str, Any]) -> None: ...


@dataclass
class History:
    """Per-epoch training and validation losses, and why training stopped."""

    train: list[float] = field(default_factory=list)
    val: list[float] = field(default_factory=list)
    stopped: str = ""  # "target loss reached" | "epochs exhausted" | "diverged"
    resumed_at: int = 0  # epochs already done when this call started (0: a fresh start)

    @property
    def epochs(self) -> int:
        return len(self.train)

    def best_val(self) -> float:
        return min(self.val) if self.val else math.inf


def fit(model: Any, x_train: Any, y_train: Any, x_val: Any, y_val: Any, *, epochs: int,
        batch_size: int, lr: float, seed: int | Sequence[int],
        loss: Callable[[Any, Any], Any] | None = None, target_loss: float | None = None,
        saver: Saver | None = None, every: int = 1, advance: Callable[[int], None] | None = None,
        val_batch: int = 4096) -> History:
    """Train ``model`` with Adam (learning rate ``lr``) on mini-batches of ``batch_size`` drawn
    without replacement each epoch from a generator seeded by ``seed``; stop after ``epochs`` epochs,
    when the validation loss falls to ``target_loss`` (W App. D: 1e-8), or when a loss is not finite.

    ``loss`` defaults to the mean squared error (W App. D). The tensors are on the model's device.
    With a ``saver``, the state is saved every ``every`` epochs and at the end, and a saved state
    is resumed (``History.resumed_at``); ``advance(n)`` is called with the epochs done (the resumed
    ones first), for a progress bar. ``x_val`` None: no validation loss per epoch (``History.val``
    stays empty; for a caller that judges the final model only, so needs no ``target_loss``).

    A *stack* of R independent models (``seed`` a sequence of R seeds; ``model`` maps (R, b, F)
    to (R, b, ·), e.g. :func:`recmem.numerics.lotka_volterra.stack_models`; the data (R, n, ·)):
    model r draws its batches from its own generator seeded by ``seed[r]`` — the batches it would
    draw alone — and the default loss is the sum over r of model r's own mean squared error, so
    each model gets exactly its own gradient (Adam is elementwise: the stack trains each model as
    :func:`fit` would alone, in one step per batch instead of R; the losses in the history are the
    sums over the stack).

    A stack with a method ``stack_mse_backward(xb, yb)`` (:func:`recmem.numerics.lotka_volterra.
    stack_models`) computes its default loss and writes the gradient into the parameters'
    ``.grad`` itself (each model's bit for bit its gradient alone, without an autograd graph);
    :func:`fit` then calls it in place of the forward and backward passes.
    """
    import torch

    stacked = isinstance(seed, (tuple, list))
    seeds = (tuple(int(s) for s in seed) if isinstance(seed, (tuple, list))
             else (int(seed),))  # type: ignore[arg-type]
    if loss is None:
        loss = _stack_mse if stacked else torch.nn.functional.mse_loss
    if target_loss is not None and x_val is None:
        raise ValueError("a target loss needs validation data")
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    gens = [torch.Generator(device="cpu") for _ in seeds]
    for gen, s in zip(gens, seeds, strict=True):
        gen.manual_seed(s)
    hist = History()
    state = saver.load() if saver is not None else None
    if state is not None:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        saved = state["generator"] if stacked else [state["generator"]]
        for gen, g_state in zip(gens, saved, strict=True):
            gen.set_state(g_state)
        hist.train = [float(v) for v in state["train"]]
        hist.val = [float(v) for v in state["val"]]
        # a run stopped only by its epoch budget continues when given more epochs
        stopped = str(state.get("stopped", ""))
        hist.stopped = "" if stopped == "epochs exhausted" else stopped
        hist.resumed_at = hist.epochs
        if advance is not None and hist.epochs:
            advance(hist.epochs)

    def save() -> None:
        if saver is not None:
            g_states = [g.get_state() for g in gens]
            saver.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                        "generator": g_states if stacked else g_states[0], "train": list(hist.train),
                        "val": list(hist.val), "stopped": hist.stopped})

    # the rows are the first axis of the data, the second for a stack (its first is the model)
    rows = 1 if stacked else 0

    def val_loss() -> float:
        model.eval()
        with torch.no_grad():
            total, count = 0.0, 0
            for i in range(0, x_val.shape[rows], val_batch):
                xb = x_val[:, i:i + val_batch] if stacked else x_val[i:i + val_batch]
                yb = y_val[:, i:i + val_batch] if stacked else y_val[i:i + val_batch]
                total += float(loss(model(xb), yb)) * xb.shape[rows]
                count += xb.shape[rows]
        model.train()
        return total / max(count, 1)

    n = x_train.shape[rows]
    # the batch's rows are copied by one index_select on the rows axis (the same rows as indexing
    # x_train[idx], several times faster for small batches); a stack's data is seen as one table
    # of R·n rows, model r's row j at r·n + j, so that each model gathers its own batch
    x_rows = x_train.flatten(0, 1) if stacked else x_train
    y_rows = y_train.flatten(0, 1) if stacked else y_train
    offsets = (torch.arange(len(seeds), device=x_train.device) * n)[:, None]
    # the default loss of a stack, differentiated by the model itself (docstring)
    own_backward = (getattr(model, "stack_mse_backward", None) if stacked and loss is _stack_mse
                    else None)
    while not hist.stopped and hist.epochs < epochs:
        orders = [torch.randperm(n, generator=gen) for gen in gens]
        # a stack's epoch as rows of the table: model r's order, offset by r·n
        table_orders = torch.stack(orders).to(x_train.device) + offsets if stacked else None
        total = 0.0
        for i in range(0, n, batch_size):
            if table_orders is not None:
                idx = table_orders[:, i:i + batch_size]
                flat = idx.flatten()
                xb = x_rows.index_select(0, flat).unflatten(0, idx.shape)
                yb = y_rows.index_select(0, flat).unflatten(0, idx.shape)
            else:
                idx = orders[0][i:i + batch_size].to(x_train.device)
                xb, yb = x_rows.index_select(0, idx), y_rows.index_select(0, idx)
            if own_backward is not None:
                value = own_backward(xb, yb)
            else:
                opt.zero_grad(set_to_none=True)
                value = loss(model(xb), yb)
                value.backward()
            opt.step()
            total += float(value.detach()) * idx.shape[-1]
        hist.train.append(total / n)
        if x_val is not None:
            hist.val.append(val_loss())
        if not (math.isfinite(hist.train[-1]) and all(math.isfinite(v) for v in hist.val[-1:])):
            hist.stopped = "diverged"
        elif target_loss is not None and hist.val[-1] <= target_loss:
            hist.stopped = "target loss reached"
        elif hist.epochs >= epochs:
            hist.stopped = "epochs exhausted"
        if advance is not None:
            advance(1)
        if hist.stopped or hist.epochs % every == 0:
            save()
    if not hist.stopped:
        hist.stopped = "epochs exhausted"
        save()
    return hist


def _stack_mse(prediction: Any, target: Any) -> Any:
    """The loss of a stack of models (:func:`fit`): the sum over the stack (axis 0) of each
    model's mean squared error, so that model r's gradient is that of its own mean squared error
    (a mean over the stack would scale each gradient by 1/R, which Adam's ε does not ignore)."""
    return ((prediction - target) ** 2).mean(dim=tuple(range(1, prediction.ndim))).sum()


# A model counts as trained when its final training loss is at most this fraction of a reference
# loss that any model reaches without training (a constant predictor, the untrained start): half,
# i.e. training removed at least half of the error that needs no training to reach.
TRAINED_FRACTION = 0.5


@dataclass(frozen=True)
class LossCheck:
    """The run-time oracle of a trained model (issue 19: "trained models their loss"): its final
    training loss, evaluated afresh on the final parameters (not read from the history), against
    ``threshold`` = TRAINED_FRACTION × ``reference`` (a loss reached without training, named by
    ``reference_text``)."""

    model: str
    loss: float
    reference: float
    reference_text: str
    epochs: int
    stopped: str

    @property
    def threshold(self) -> float:
        return TRAINED_FRACTION * self.reference

    @property
    def status(self) -> str:
        """``diverged`` (a loss not finite, or training stopped on one), ``untrained`` (no epoch,
        or the loss not below the threshold) or ``trained``."""
        if not (math.isfinite(self.loss) and math.isfinite(self.reference)) or self.stopped == "diverged":
            return "diverged"
        if self.epochs < 1 or not self.loss <= self.threshold:
            return "untrained"
        return "trained"

    def describe(self) -> str:
        """One line: the model, its loss against the threshold, its epochs and how it stopped."""
        return (f"{self.model}: final training loss {self.loss:.4g} vs threshold {self.threshold:.4g} "
                f"({TRAINED_FRACTION:g} × {self.reference_text} {self.reference:.4g}) after "
                f"{self.epochs} epochs ({self.stopped or 'not trained'}): {self.status}")

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "loss": f"{self.loss:.6g}", "threshold": f"{self.threshold:.6g}",
                "reference": self.reference_text, "epochs": self.epochs, "stopped": self.stopped,
                "status": self.status}


def loss_check(model: str, loss: float, reference: float, reference_text: str,
               history: History | None) -> LossCheck:
    """The :class:`LossCheck` of a model trained by :func:`fit` (``history``; None for a model
    fitted in closed form: one "epoch", stopped "closed form")."""
    if history is None:
        return LossCheck(model, float(loss), float(reference), reference_text, 1, "closed form")
    return LossCheck(model, float(loss), float(reference), reference_text, history.epochs,
                     history.stopped)


@contextlib.contextmanager
def torch_threads(count: int | None) -> Iterator[None]:
    """Run the block with ``count`` torch intra-op threads, restored after (None: leave torch's
    setting alone).

    The papers' small models (widths of a few to a few hundred, batches of hundreds) take thousands
    of tiny steps, where intra-op parallelism costs only synchronisation: on a shared 2-core
    machine two threads made such trainings 15–25× slower than one, and one ``torch.exp`` of
    128×29 entries took 19 ms on two threads against 6 µs on one (measured)."""
    import torch

    if count is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def one_cpu_thread() -> contextlib.AbstractContextManager[None]:
    """:func:`torch_threads` (1): the small models' setting on a CPU."""
    return torch_threads(1)


__all__ = ["TRAINED_FRACTION", "History", "LossCheck", "Saver", "fit", "loss_check", "one_cpu_thread",
           "torch_threads"]
