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
from collections.abc import Callable, Iterator
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
        batch_size: int, lr: float, seed: int, loss: Callable[[Any, Any], Any] | None = None,
        target_loss: float | None = None, saver: Saver | None = None, every: int = 1,
        advance: Callable[[int], None] | None = None, val_batch: int = 4096) -> History:
    """Train ``model`` with Adam (learning rate ``lr``) on mini-batches of ``batch_size`` drawn
    without replacement each epoch from a generator seeded by ``seed``; stop after ``epochs`` epochs,
    when the validation loss falls to ``target_loss`` (W App. D: 1e-8), or when a loss is not finite.

    ``loss`` defaults to the mean squared error (W App. D). The tensors are on the model's device.
    With a ``saver``, the state is saved every ``every`` epochs and at the end, and a saved state
    is resumed (``History.resumed_at``); ``advance(n)`` is called with the epochs done (the resumed
    ones first), for a progress bar.
    """
    import torch

    if loss is None:
        loss = torch.nn.functional.mse_loss
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    gen = torch.Generator(device="cpu")
    gen.manual_seed(seed)
    hist = History()
    state = saver.load() if saver is not None else None
    if state is not None:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        gen.set_state(state["generator"])
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
            saver.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                        "generator": gen.get_state(), "train": list(hist.train),
                        "val": list(hist.val), "stopped": hist.stopped})

    def val_loss() -> float:
        model.eval()
        with torch.no_grad():
            total, count = 0.0, 0
            for i in range(0, len(x_val), val_batch):
                xb, yb = x_val[i:i + val_batch], y_val[i:i + val_batch]
                total += float(loss(model(xb), yb)) * len(xb)
                count += len(xb)
        model.train()
        return total / max(count, 1)

    n = len(x_train)
    while not hist.stopped and hist.epochs < epochs:
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, batch_size):
            idx = order[i:i + batch_size].to(x_train.device)
            opt.zero_grad(set_to_none=True)
            value = loss(model(x_train[idx]), y_train[idx])
            value.backward()
            opt.step()
            total += float(value.detach()) * len(idx)
        hist.train.append(total / n)
        hist.val.append(val_loss())
        if not (math.isfinite(hist.train[-1]) and math.isfinite(hist.val[-1])):
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
