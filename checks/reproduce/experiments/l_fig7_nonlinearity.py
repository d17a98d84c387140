"""L-fig7-nonlinearity: recurrent nonlinearities slow down gradient descent (paper L App. E.2,
Fig. 7).

A single-layer RNN x_k = σ(W x_(k−1) + B u_k), y_k = C x_k with σ = identity (linear) or tanh,
Glorot initialisation of W, B, C, learns the convolution y = h ⋆ u with the printed kernel
h_k = (1/10)exp(−0.015k)cos(0.04k)², k = 0 … 99, from 32 inputs sin(0.05·a·k)cos(0.05·c·k)²
(sequence length 100), with Adam (standard momenta) on the mean squared error, for each learning
rate of a grid. Measured: the final training loss and the steps to reach 10× the best final loss,
per learning rate and activation; the paper: "For all learning rates in our grid, the linear
variant is faster to converge".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recmem.checks.reproduce.experiment import Experiment, RunContext

SETTINGS: dict[str, dict[str, Any]] = {
    "ci": {"hidden": 100, "length": 100, "sequences": 32, "steps": 150, "lrs": [1e-3, 3e-3]},
    "paper": {"hidden": 100, "length": 100, "sequences": 32, "steps": 5000,
              "lrs": [1e-4, 3e-4, 1e-3, 3e-3, 1e-2]},
}
CHOICES = {
    "a, c": "'sampling random a, c parameters on a range': uniform in [1, 10]",
    "learning rates": "the paper's grid is not printed: a log grid (ci: 2 values)",
    "readout": "y_k = C x_k (no skip term), zero initial state, float64",
    "criterion": "agrees when the linear RNN's final loss is below the tanh RNN's at every learning "
                 "rate of the grid; partial at some; disagrees at none",
}


def _data(rng: Any, n_seq: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(length)
    h = 0.1 * np.exp(-0.015 * k) * np.cos(0.04 * k) ** 2
    a, c = rng.uniform(1, 10, size=(2, n_seq, 1))
    u = np.sin(0.05 * a * k) * np.cos(0.05 * c * k) ** 2
    y = np.stack([np.convolve(row, h)[:length] for row in u])
    return u, y


def _train(ctx: RunContext, u: np.ndarray, y: np.ndarray, act: str, lr: float) -> list[float]:
    import torch

    g = ctx.torch_generator("init", act, str(lr))
    n = int(ctx["hidden"])

    def glorot(rows: int, cols: int) -> Any:
        bound = (6.0 / (rows + cols)) ** 0.5
        w = (torch.rand(rows, cols, generator=g, dtype=torch.float64) * 2 - 1) * bound
        return w.requires_grad_(True)

    w, b, c = glorot(n, n), glorot(n, 1), glorot(1, n)
    ut, yt = torch.tensor(u), torch.tensor(y)
    opt = torch.optim.Adam([w, b, c], lr=lr)
    sigma = torch.tanh if act == "tanh" else (lambda v: v)
    losses = []
    for _ in range(int(ctx["steps"])):
        x = torch.zeros(ut.shape[0], n, dtype=torch.float64)
        outs = []
        for k in range(ut.shape[1]):
            x = sigma(x @ w.T + ut[:, k:k + 1] @ b.T)
            outs.append(x @ c.T)
        loss = ((torch.cat(outs, dim=1) - yt) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return losses


def run(ctx: RunContext) -> None:
    import torch

    torch.set_num_threads(1)
    u, y = _data(ctx.generator("data"), int(ctx["sequences"]), int(ctx["length"]))
    curves = {(act, lr): _train(ctx, u, y, act, lr) for lr in ctx["lrs"] for act in ("linear", "tanh")}
    rows = [{"activation": act, "lr": lr, "step": i, "loss": v}
            for (act, lr), cur in curves.items() for i, v in enumerate(cur)]
    ctx.write_csv("fig7_curves.csv", rows)
    wins, finals = 0, {}
    for lr in ctx["lrs"]:
        lin, tnh = curves[("linear", lr)][-1], curves[("tanh", lr)][-1]
        finals[f"lr={lr}"] = f"linear {lin:.3g}, tanh {tnh:.3g}"
        wins += lin < tnh
    ctx.measure("final_losses", finals)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for (act, lr), cur in curves.items():
        ax.semilogy(cur, label=f"{act}, lr={lr}", ls="-" if act == "linear" else "--")
    ax.set_xlabel("Adam step")
    ax.set_ylabel("training MSE")
    ax.legend(fontsize=7)
    ctx.save_figure(fig, "fig7_losses.png")
    n = len(ctx["lrs"])
    ctx.finding("Fig. 7", "final training loss per learning rate (linear vs tanh)", finals,
                "the linear variant converges faster for all learning rates in the grid",
                "agrees" if wins == n else ("partial" if wins else "disagrees"),
                f"linear below tanh at {wins} of {n} learning rates (agrees: all; partial: some)")


EXPERIMENT = Experiment(
    name="L-fig7-nonlinearity",
    title="Learning a convolution with a linear vs tanh RNN (Fig. 7)",
    source="L App. E.2, Fig. 7",
    settings=SETTINGS,
    run=run,
    choices=CHOICES,
)
