"""Linear RNNs trained with Adam on a linear functional's memory, and their perturbation error
E_m(β) (paper W, Fig. 1, Def. 3.4 eq. (9), App. D).

App. D does *not* train the linear RNNs of Fig. 1: "The approximation of linear functional by
linear RNN has simple structures. So we did not use gradient-based optimisation. … we solve this
approximation problem via linear regression instead of the gradient-based optimisation." The
trained sequence here is recmem's complement to those least-squares fits, with the optimiser
settings App. D prints for its nonlinear RNNs: "we train each model for 1000 epochs, the stopping
criterion is the validation loss achieving 10^{-8}. The optimizer used is Adam with initial
learning rate 0.005. The loss function is mean squared error. The batch size is 128 while the
train set size and test set size are 12800."

**Model.** A width-m linear RNN with b = 0 and diagonal real W = diag(w) (App. D's reduction:
"After eigenvalue decompositions of W and change of variables"), U, c ∈ ℝ^m. Its memory (the
impulse response, W eq. (3)) is ρ̂(t) = cᵀe^{Wt}U = Σ_i c_i U_i e^{w_i t}, in closed form.
Perturbations are of the full θ = (W, U, c) in Def. 3.4's ball (W becomes a full matrix), through
:mod:`recmem.numerics.perturbation`.

**Data.** Training inputs are times drawn uniformly on the evaluation interval [t_1, t_T], the
targets ρ(t) there; the validation set is the evaluation grid itself (App. D: t = 1, …, 100), so
the validation loss is the mean squared fitting error on the grid.

**A bank of widths.** All widths of one target are trained at once, as one module with the *sum*
of the per-width mean squared errors as loss: the gradient of every parameter is that of its own
width's loss, and Adam updates each coordinate from its own gradient history, so this is exactly
training each width alone on the same mini-batches (:func:`recmem.numerics.training.fit`), except
the stop: the bank stops when the summed validation loss reaches the target, i.e. when every
width has (no width stops earlier than it would alone).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from recmem.numerics.kernels import Kernel
from recmem.numerics.perturbation import (
    LINEAR_BLOCKS,
    Estimate,
    Grid,
    LinearTarget,
    Theta,
    estimate,
    first_order_points,
    linear_evaluator,
)
from recmem.numerics.training import History, Saver, fit, one_cpu_thread


@dataclass(frozen=True)
class TrainSettings:
    """Adam on the memory function (defaults: W App. D's nonlinear-RNN settings, see the module
    docstring). ``rates`` is the interval of the initial decay rates −w_i (log-uniform);
    ``every``: checkpoint period in epochs."""

    epochs: int = 1000
    batch_size: int = 128
    lr: float = 0.005
    target_loss: float = 1e-8
    train_size: int = 12800
    rates: tuple[float, float] = (0.01, 1.0)
    every: int = 50

    def __post_init__(self) -> None:
        lo, hi = self.rates
        if not 0 < lo <= hi:
            raise ValueError(f"initial rates need 0 < lo ≤ hi, got {self.rates}")
        if min(self.epochs, self.batch_size, self.train_size, self.every) < 1 or self.lr <= 0:
            raise ValueError("epochs, batch_size, train_size, every must be ≥ 1 and lr > 0")


def linear_rnn_bank(ms: Sequence[int], seeds: Sequence[int], rates: tuple[float, float],
                    device: str = "cpu") -> Any:
    """K independent diagonal linear RNNs of widths ``ms`` as one torch module (float64 on
    ``device``): ``forward(t)`` maps times (n, 1) to their memories ρ̂_k(t), shape (n, K);
    ``thetas()`` gives every width's θ = (diag(w), U, 0, c). Width m_k is initialised from
    ``seeds[k]`` alone (so a width's start does not depend on the other widths): decay rates
    r_i = −w_i log-uniform on ``rates`` (time scales spanning the evaluation grid), U and c uniform
    on (−1/√m, 1/√m) —
    PyTorch's ``nn.RNN`` initialisation, whose ‖U‖₂, ‖c‖₂ do not grow with m (a perturbation's
    effect on the readout then does not grow with the width merely because of the start)."""
    import torch

    if len(ms) != len(seeds) or not ms or min(ms) < 1:
        raise ValueError("one seed per width, widths ≥ 1")
    lo, hi = math.log(rates[0]), math.log(rates[1])
    w, u, c = [], [], []
    for m, seed in zip(ms, seeds, strict=True):
        g = torch.Generator(device="cpu")
        g.manual_seed(int(seed))
        bound = 1.0 / math.sqrt(m)
        w.append(-torch.exp(lo + (hi - lo) * torch.rand(m, generator=g, dtype=torch.float64)))
        u.append((2 * torch.rand(m, generator=g, dtype=torch.float64) - 1) * bound)
        c.append((2 * torch.rand(m, generator=g, dtype=torch.float64) - 1) * bound)
    return _bank_type()(list(ms), torch.cat(w), torch.cat(u), torch.cat(c)).to(device)


@cache
def _bank_type() -> type:
    """The bank's torch module class (built on first use: importing this module never imports
    torch, so `recmem reproduce --list` stays fast)."""
    import torch

    class Bank(torch.nn.Module):
        """See :func:`linear_rnn_bank`."""

        def __init__(self, ms: list[int], w: Any, u: Any, c: Any) -> None:
            super().__init__()
            self.ms = ms
            self.w = torch.nn.Parameter(w.clone())
            self.U = torch.nn.Parameter(u.clone())
            self.c = torch.nn.Parameter(c.clone())
            owner = torch.repeat_interleave(torch.arange(len(ms)), torch.tensor(ms))
            # unit i belongs to model owner[i]: ρ̂_k(t) = Σ_{i ∈ k} c_i U_i e^{w_i t}
            self.assign: Any
            self.register_buffer("assign", torch.nn.functional.one_hot(owner, len(ms)).to(w.dtype))

        def forward(self, t: Any) -> Any:
            return (torch.exp(t.reshape(-1, 1) * self.w) * (self.U * self.c)) @ self.assign

        def thetas(self) -> list[Theta]:
            """θ_k = (diag(w), U, 0, c) of every width, float64 on the CPU."""
            w, u, c = (v.detach().cpu().numpy() for v in (self.w, self.U, self.c))
            out, start = [], 0
            for m in self.ms:
                part = slice(start, start + m)
                out.append(Theta.linear(np.diag(w[part]), u[part], c[part]))
                start += m
            return out

    return Bank


def summed_mse(pred: Any, y: Any) -> Any:
    """Σ_k mean_t (ρ̂_k(t) − ρ(t))²: the widths' mean squared errors, summed (see the module
    docstring: each width's gradient is that of its own MSE)."""
    return ((pred - y) ** 2).mean(dim=0).sum()


def train_bank(kernel: Kernel, grid: Grid, ms: Sequence[int], settings: TrainSettings, *,
               seed: int, init_seeds: Sequence[int], device: str = "cpu",
               saver: Saver | None = None,
               advance: Callable[[int], None] | None = None) -> tuple[Any, History]:
    """Train linear RNNs of widths ``ms`` on the memory ρ of ``kernel`` with Adam
    (:func:`recmem.numerics.training.fit`; W App. D's settings in ``settings``); returns the bank
    (its ``thetas()`` the trained θ_m) and the loss history. ``seed`` draws the training times and
    the mini-batches; ``init_seeds`` the widths' initial parameters. Resumed from ``saver``."""
    import torch

    target = LinearTarget(kernel)
    t = grid.values
    rng = np.random.default_rng(seed)
    times = np.sort(rng.uniform(float(t[0]), float(t[-1]), settings.train_size))
    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    k = len(ms)
    x_train = torch.tensor(times, **kw).reshape(-1, 1)
    y_train = torch.tensor(target.rate_numpy(times), **kw).reshape(-1, 1).expand(-1, k)
    x_val = torch.tensor(t, **kw).reshape(-1, 1)
    y_val = torch.tensor(target.rate_numpy(t), **kw).reshape(-1, 1).expand(-1, k)
    bank = linear_rnn_bank(ms, init_seeds, settings.rates, device)
    with one_cpu_thread():
        hist = fit(bank, x_train, y_train.contiguous(), x_val, y_val.contiguous(),
                   epochs=settings.epochs, batch_size=settings.batch_size, lr=settings.lr,
                   seed=int(rng.integers(0, 2**62)), loss=summed_mse,
                   target_loss=settings.target_loss, saver=saver, every=settings.every,
                   advance=advance)
    return bank, hist


def train_banks(kernels: Sequence[Kernel], grid: Grid, ms: Sequence[int], settings: TrainSettings,
                *, seeds: Sequence[int], init_seeds: Sequence[Sequence[int]],
                device: str = "cpu") -> tuple[list[Any], History]:
    """:func:`train_bank` for several targets at once: one bank per kernel (the same widths), each
    with the training times, batches and initial parameters that ``train_bank(kernels[r], …,
    seed=seeds[r], init_seeds=init_seeds[r])`` draws, trained as one stack by
    :func:`recmem.numerics.training.fit` (each bank's batches from its own generator; the loss the
    sum of every bank's summed MSE, so each parameter's gradient is that of its own width's MSE and
    Adam moves it as it would alone: one step for all banks instead of one per bank). The stop is
    the stack's: the summed validation loss of every bank at the target (no bank stops earlier than
    alone) or a loss that is not finite. Returns the trained banks and the stack's history (its
    losses are sums over the banks)."""
    import torch

    if len(kernels) != len(seeds) or len(kernels) != len(init_seeds) or not kernels:
        raise ValueError("one seed and one list of initial seeds per kernel")
    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    t = grid.values
    k = len(ms)
    xs, ys, fit_seeds, banks = [], [], [], []
    for kernel, seed, inits in zip(kernels, seeds, init_seeds, strict=True):
        rng = np.random.default_rng(seed)  # the draws of train_bank, in its order
        times = np.sort(rng.uniform(float(t[0]), float(t[-1]), settings.train_size))
        xs.append(torch.tensor(times, **kw).reshape(-1, 1))
        ys.append(torch.tensor(LinearTarget(kernel).rate_numpy(times), **kw).reshape(-1, 1).expand(-1, k))
        banks.append(linear_rnn_bank(ms, inits, settings.rates, device))
        fit_seeds.append(int(rng.integers(0, 2**62)))
    x_val = torch.tensor(t, **kw).reshape(1, -1, 1).expand(len(kernels), -1, -1)
    y_val = torch.stack([torch.tensor(LinearTarget(kernel).rate_numpy(t), **kw).reshape(-1, 1)
                         .expand(-1, k) for kernel in kernels])
    stack = _stack_type()(banks)
    with one_cpu_thread():
        hist = fit(stack, torch.stack(xs), torch.stack(ys).contiguous(), x_val.contiguous(),
                   y_val.contiguous(), epochs=settings.epochs, batch_size=settings.batch_size,
                   lr=settings.lr, seed=fit_seeds, loss=stacked_summed_mse,
                   target_loss=settings.target_loss)
    stack.write_back(banks)
    return banks, hist


def stacked_summed_mse(pred: Any, y: Any) -> Any:
    """Σ_r Σ_k mean_t (ρ̂_rk(t) − ρ_r(t))² for a stack of banks, (R, n, K): the sum of every bank's
    :func:`summed_mse`."""
    return ((pred - y) ** 2).mean(dim=1).sum()


@cache
def _stack_type() -> type:
    """The torch module of :func:`train_banks`: R banks of the same widths as one module,
    ``forward(t)`` (R, n, 1) ↦ (R, n, K), bank r on its own slice (built on first use)."""
    import torch

    class BankStack(torch.nn.Module):
        def __init__(self, banks: list[Any]) -> None:
            super().__init__()
            self.assign: Any
            self.register_buffer("assign", banks[0].assign.clone())
            self.w = torch.nn.Parameter(torch.stack([b.w.detach() for b in banks]))
            self.U = torch.nn.Parameter(torch.stack([b.U.detach() for b in banks]))
            self.c = torch.nn.Parameter(torch.stack([b.c.detach() for b in banks]))

        def forward(self, t: Any) -> Any:
            return (torch.exp(t * self.w[:, None, :]) * (self.U * self.c)[:, None, :]) @ self.assign

        def write_back(self, banks: list[Any]) -> None:
            with torch.no_grad():
                for r, b in enumerate(banks):
                    b.w.copy_(self.w[r])
                    b.U.copy_(self.U[r])
                    b.c.copy_(self.c[r])

    return BankStack


def fitting_errors(theta: Theta, kernel: Kernel, grid: Grid) -> tuple[float, float]:
    """(sup_t |ρ − ρ̂|, mean_t (ρ − ρ̂)²) of a diagonal linear RNN on the grid (float64)."""
    t = grid.values
    lam = np.diag(theta.W)
    err = np.exp(np.multiply.outer(t, lam)) @ (theta.c * theta.U) - LinearTarget(kernel).rate_numpy(t)
    return float(np.max(np.abs(err))), float(np.mean(err**2))


def perturbation_estimate(theta: Theta, kernel: Kernel, grid: Grid, betas: Sequence[Fraction],
                          samples: int, seed: int | Sequence[int], norm: str = "memory",
                          predicted: int = 8, keep: int = 4) -> Estimate:
    """A lower bound on E_m(β) (W Def. 3.4, eq. (9)) of a trained diagonal linear RNN for every β:
    ``samples`` uniform draws per β in the ball of (W, U, c) (b = 0 is not perturbed: the
    linear-RNN hypothesis space) plus the ``predicted`` first-order targeted points per β, of
    which the ``keep`` best are kept — the estimator of the W.stable-exp claim, float64."""
    lt = LinearTarget(kernel)
    return estimate(linear_evaluator(theta, lt, grid, norm), theta.m, betas, samples, seed,
                    blocks=LINEAR_BLOCKS, norm=norm, keep=keep, certify=False,
                    targeted=first_order_points(theta, lt, grid, betas, norm, predicted))


__all__ = ["TrainSettings", "fitting_errors", "linear_rnn_bank",
           "perturbation_estimate", "stacked_summed_mse", "summed_mse", "train_bank", "train_banks"]
