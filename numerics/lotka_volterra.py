"""The controlled Lotka–Volterra system of paper O, App. E.3, and its Fourier input family.

App. E.3 validates §4 (Thm. 1: a frozen random linear RNN followed by a trained position-wise MLP
reproduces a causal nonlinear sequence-to-sequence map) on the map u_{1:k} ↦ z_k defined by

    ż₁ = z₁ (a − b z₂),    ż₂ = −z₂ (c − d z₁) + u(t)                        (O eq. 37–38)

with a = 1, b = 0.6, c = 1, d = 0.3, z(0) = (1, 0.5), "Euler discretizations … with stepsize
0.0075", input length 2048 and "inputs sampled from a 2-dimensional Fourier basis". This module
holds the simulator (explicit Euler over a batch of trajectories, numpy or torch), the input
family, the first integral used to check the simulation, and the learning task of §4 that the
O.universality claim and the O-lotka-volterra experiment share: the frozen RNN of Prop. 7 (its
states by :func:`recmem.numerics.linear_recurrence.states`), the position-wise readouts, their
training (:func:`recmem.numerics.training.fit`) and their validation error.

Conventions (choices the paper leaves open, recorded by the experiment):

- time grid t_k = (k − 1) h for k = 1 … L, input u_k = u(t_k), output y_k = z(t_k + h) computed by
  one explicit Euler step z_k = z_{k−1} + h f(z_{k−1}, u_k) from z_0 = z(0): y_k depends on
  u_1 … u_k only (a causal map, O eq. 1);
- the "2-dimensional Fourier basis" is ψ¹_k = cos(2π(k − 1)/L), ψ²_k = sin(2π(k − 1)/L) (one
  period over the window; P = 2 in O's Assumption A), and u = α₁ψ¹ + α₂ψ² with α uniform on the
  square [−A, A]² (a compact input set, O Assumption B);
- the frozen RNN is Prop. 7's with M = 1: x_k = Λx_{k−1} + Bũ_k, ũ_k = (1, u_k), B of eq. 15 (node 0,
  the timestamp node x_{k,0} = Σ_{i<k} λ₀^i, gets the constant; nodes 1 … N−1 get u), λ₁ … λ_{N−1}
  ~ T(r_min, r_max) (Lemma 6); λ₀ is real, the modulus of a Lemma 6 draw, so that x_{k,0} grows
  monotonically with k and k is read off without a branch of the complex logarithm (the
  correction of O.timestamp);
- a readout sees, at step k, either the state (Re x_k, Im x_k) ∈ ℝ^{2N} or only (u_k, Re x_{k,0},
  Im x_{k,0}) (no past input); features and targets are standardised with the training set's
  mean and standard deviation, and a readout's *error* is its mean squared error on the
  standardised targets (z₁ and z₂ weigh alike; App. E.3 gives no metric).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.numerics.training import torch_threads


@dataclass(frozen=True)
class LotkaVolterra:
    """O eq. 37–38 with App. E.3's constants, initial state and Euler step."""

    a: float = 1.0
    b: float = 0.6
    c: float = 1.0
    d: float = 0.3
    z0: tuple[float, float] = (1.0, 0.5)
    step: float = 0.0075

    def field(self, z1: Any, z2: Any, u: Any) -> tuple[Any, Any]:
        """The vector field (ż₁, ż₂) of O eq. 37–38 (numpy, torch or Python numbers)."""
        return z1 * (self.a - self.b * z2), -z2 * (self.c - self.d * z1) + u

    def first_integral(self, z1: Any, z2: Any, log: Callable[[Any], Any] = np.log) -> Any:
        """V = d z₁ − c ln z₁ + b z₂ − a ln z₂, constant along the uncontrolled flow (u = 0):
        dV/dt = (d − c/z₁) ż₁ + (b − a/z₂) ż₂ = (d z₁ − c)(a − b z₂) − (b z₂ − a)(c − d z₁) = 0."""
        return self.d * z1 - self.c * log(z1) + self.b * z2 - self.a * log(z2)

    @property
    def equilibrium(self) -> tuple[float, float]:
        """The uncontrolled equilibrium (c/d, a/b)."""
        return self.c / self.d, self.a / self.b


PAPER_SYSTEM = LotkaVolterra()


def simulate(u: Any, system: LotkaVolterra = PAPER_SYSTEM) -> Any:
    """Explicit Euler for O eq. 37–38 over a batch: ``u`` of shape (B, L) (numpy or torch) →
    z of shape (B, L, 2) in the same library and dtype, z[:, k−1] = z_k = z_{k−1} + h f(z_{k−1}, u_k)
    from z_0 = z(0) (App. E.3: step h = 0.0075). Vectorised over the batch; the L steps run in a
    Python loop (each one a few array operations). A trajectory that leaves the positive quadrant
    may overflow to inf/nan, silently: check the result (:func:`make_task` does)."""
    torch_in = not isinstance(u, np.ndarray)
    z1: Any
    z2: Any
    out: Any
    if u.ndim != 2:
        raise ValueError(f"u must have shape (batch, length), got {tuple(u.shape)}")
    if torch_in:
        import torch

        z1 = torch.full(u.shape[:1], system.z0[0], dtype=u.dtype, device=u.device)
        z2 = torch.full(u.shape[:1], system.z0[1], dtype=u.dtype, device=u.device)
        out = torch.empty((*u.shape, 2), dtype=u.dtype, device=u.device)
    else:
        z1 = np.full(u.shape[:1], system.z0[0], dtype=u.dtype)
        z2 = np.full(u.shape[:1], system.z0[1], dtype=u.dtype)
        out = np.empty((*u.shape, 2), dtype=u.dtype)
    h = system.step
    # an input too large for the window drives z₂ below 0, and z₁ then grows without bound:
    # numpy's overflow stays inf/nan without a warning (the caller checks, see make_task)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(u.shape[1]):
            f1, f2 = system.field(z1, z2, u[:, k])
            z1, z2 = z1 + h * f1, z2 + h * f2
            out[:, k, 0] = z1
            out[:, k, 1] = z2
    return out


def fourier_basis(length: int) -> np.ndarray:
    """The 2-D Fourier basis of App. E.3's inputs as a (2, L) float64 array: ψ¹_k = cos(2π(k−1)/L),
    ψ²_k = sin(2π(k−1)/L), k = 1 … L (one period over the window; recmem's reading of "a
    2-dimensional Fourier basis")."""
    if length < 1:
        raise ValueError(f"length must be ≥ 1, got {length}")
    t = 2 * math.pi * np.arange(length) / length
    return np.stack([np.cos(t), np.sin(t)])


def fourier_inputs(rng: np.random.Generator, count: int, length: int,
                   amplitude: float) -> tuple[np.ndarray, np.ndarray]:
    """``count`` inputs u = α₁ψ¹ + α₂ψ² (App. E.3, :func:`fourier_basis`) with α uniform on
    [−A, A]² from ``rng``: returns (α of shape (count, 2), u of shape (count, L)), float64."""
    alpha = rng.uniform(-amplitude, amplitude, size=(count, 2))
    return alpha, alpha @ fourier_basis(length)


# ---- the frozen linear RNN of Prop. 7 ------------------------------------------------------------
def input_matrix(n: int) -> np.ndarray:
    """B of O eq. 15 for M = 1 (N × 2, complex128): column 0 (the appended constant 1) drives node 0
    only, column 1 (the input u) drives nodes 1 … N−1."""
    if n < 2:
        raise ValueError(f"the RNN needs N ≥ 2 nodes (the timestamp node and one more), got {n}")
    b = np.zeros((n, 2), dtype=np.complex128)
    b[0, 0] = 1
    b[1:, 1] = 1
    return b


def frozen_rnn(n: int, r_min: Fraction, r_max: Fraction, seed: int) -> np.ndarray:
    """The N eigenvalues of the frozen RNN (complex128): λ₁ … λ_{N−1} Lemma 6 draws on
    T(r_min, r_max) (exact dyadic nodes, :func:`recmem.numerics.nodes.ring`, rounded once) and
    the timestamp node's λ₀ = |λ| of one more draw (real, r_min ≤ λ₀ ≤ r_max)."""
    from recmem.numerics.nodes import ring

    lam = ring(n, Fraction(r_min), Fraction(r_max), seed).complex128()
    lam[0] = abs(lam[0])
    return lam


def rnn_states(lam: np.ndarray, u: Any, device: str = "cpu", dtype: Any = None,
               chunk: int = 64) -> Any:
    """The states of Prop. 7's RNN over a batch of inputs ``u`` (B, L) as real features
    (Re x_k, Im x_k): a torch tensor (B, L, 2N) of ``dtype`` (default float64) on ``device``.

    x_k = Λx_{k−1} + Bũ_k by :func:`recmem.numerics.linear_recurrence.states` in complex128 (the
    factored input ũ_k = (1, u_k) with B of eq. 15), ``chunk`` trajectories at a time so that the
    complex states of one chunk only are held at once."""
    return rnn_states_checked(lam, u, device, dtype, chunk, check=False)[0]


def rnn_states_checked(lam: np.ndarray, u: Any, device: str = "cpu", dtype: Any = None,
                       chunk: int = 64, check: bool = True) -> tuple[Any, list[Any]]:
    """:func:`rnn_states` and, with ``check``, the run-time comparison of the route that made the
    states with two independent routes on the first trajectory
    (:func:`recmem.numerics.linear_recurrence.cross_check`: the FFT readout and the final state
    as one weighted sum), made on the complex128 states before they are rounded to ``dtype``."""
    import torch

    from recmem.numerics.linear_recurrence import choose_route, cross_check, states

    dtype = torch.float64 if dtype is None else dtype
    u_t = torch.as_tensor(np.asarray(u, dtype=np.float64), device=device)
    lam_t = torch.as_tensor(lam, dtype=torch.complex128, device=device)
    b = torch.as_tensor(input_matrix(len(lam)), device=device)
    n = len(lam)
    out = torch.empty((*u_t.shape, 2 * n), dtype=dtype, device=device)
    checks: list[Any] = []
    for i in range(0, u_t.shape[0], chunk):
        ub = u_t[i:i + chunk]
        s = torch.stack([torch.ones_like(ub), ub], dim=-1)  # ũ_k = (1, u_k), O eq. 13
        x = states(lam_t, s, b=b)
        if check and i == 0:
            route = choose_route("states", int(s.shape[0]), int(s.shape[1]), n, lam_t.device,
                                 inputs=2)
            checks = cross_check(lam_t, s, x, route, b=b)
        out[i:i + chunk, :, :n] = x.real.to(dtype)
        out[i:i + chunk, :, n:] = x.imag.to(dtype)
    return out, checks


# ---- the task: data, readouts, training, validation error ---------------------------------------
@dataclass(frozen=True)
class TaskSize:
    """Sizes of one instance of the App. E.3 task (paper: L = 2048, 1024 trajectories, N = 128,
    2 hidden layers of 512, 70 % for training)."""

    length: int
    trajectories: int
    nodes: int
    hidden: int
    amplitude: float
    epochs: int
    batch: int
    lr: float
    train_fraction: float = 0.7
    depth: int = 2

    @property
    def n_train(self) -> int:
        """Trajectories used for training (the first ones; the rest validate)."""
        return max(1, min(self.trajectories - 1, round(self.train_fraction * self.trajectories)))


@dataclass
class TaskData:
    """One draw of the task: inputs, Euler outputs, the frozen RNN and its state features."""

    size: TaskSize
    alpha: np.ndarray  # (B, 2) Fourier coefficients
    u: np.ndarray  # (B, L) inputs, float64
    z: np.ndarray  # (B, L, 2) Euler outputs z_k, float64
    lam: np.ndarray  # (N,) eigenvalues, complex128
    states: Any  # (B, L, 2N) torch tensor: (Re x_k, Im x_k)
    # the states' route against two independent routes on the first trajectory
    # (recmem.numerics.linear_recurrence.RouteCheck; empty when not checked)
    route_checks: list[Any] = field(default_factory=list)

    def features(self, which: str) -> Any:
        """What a readout sees (B, L, F): ``state`` → (Re x_k, Im x_k); ``input`` → (u_k,
        Re x_{k,0}, Im x_{k,0}), the current input and the timestamp node only."""
        import torch

        if which == "state":
            return self.states
        if which == "input":
            n = len(self.lam)
            u = torch.as_tensor(self.u, dtype=self.states.dtype, device=self.states.device)
            return torch.stack([u, self.states[..., 0], self.states[..., n]], dim=-1)
        raise ValueError(f"features must be 'state' or 'input', got {which!r}")


def make_task(size: TaskSize, rng: np.random.Generator, rnn_seed: int, r_min: Fraction,
              r_max: Fraction, device: str = "cpu", dtype: Any = None, *,
              strict: bool = True) -> TaskData:
    """Draw the inputs (:func:`fourier_inputs` from ``rng``), simulate O eq. 37–38
    (:func:`simulate`, float64), draw the frozen RNN (:func:`frozen_rnn` with ``rnn_seed``) and
    compute its states (:func:`rnn_states_checked`: the route that made them is compared with two
    independent routes on the first trajectory, kept in ``route_checks``). ValueError when a
    trajectory leaves the positive quadrant (the amplitude is too large for the window: z₂ crosses
    0 and z₁ blows up); with ``strict``,
    :class:`~recmem.numerics.linear_recurrence.RouteDisagreement` when the routes disagree beyond
    both error bounds (a bug of recmem; ``strict=False`` leaves the report to the caller)."""
    from recmem.numerics.linear_recurrence import RouteDisagreement

    alpha, u = fourier_inputs(rng, size.trajectories, size.length, size.amplitude)
    z = simulate(u)
    if not (np.all(np.isfinite(z)) and np.all(z > 0)):
        raise ValueError(f"amplitude {size.amplitude} is too large for L = {size.length}: a "
                         "trajectory leaves the positive quadrant")
    lam = frozen_rnn(size.nodes, r_min, r_max, rnn_seed)
    x, checks = rnn_states_checked(lam, u, device, dtype)
    if strict and not all(c.agree for c in checks):
        raise RouteDisagreement(checks)
    return TaskData(size, alpha, u, z, lam, x, checks)


def readout_model(kind: str, inputs: int, size: TaskSize, seed: int, dtype: Any = None) -> Any:
    """A position-wise readout ℝ^inputs → ℝ² (torch, CPU, ``dtype``): ``mlp`` — App. E.3's MLP,
    ``size.depth`` hidden ReLU layers of ``size.hidden`` units (PyTorch's default initialisation
    under ``seed``); ``linear`` — an affine map (fitted by :func:`fit_affine`)."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        if kind == "linear":
            model: Any = torch.nn.Linear(inputs, 2)
        elif kind == "mlp":
            layers: list[Any] = []
            width = inputs
            for _ in range(size.depth):
                layers += [torch.nn.Linear(width, size.hidden), torch.nn.ReLU()]
                width = size.hidden
            model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 2))
        else:
            raise ValueError(f"readout must be 'mlp' or 'linear', got {kind!r}")
    return model.to(torch.float64 if dtype is None else dtype)


def fit_affine(model: Any, x: Any, y: Any) -> None:
    """The least-squares affine readout (the best one on the training rows): [x, 1] W = y by the
    normal equations in float64 with a ridge of 1e-10·trace/(F + 1) (the state features are
    strongly collinear; the ridge only fixes the null space)."""
    import torch

    xa = torch.cat([x.to(torch.float64), torch.ones(len(x), 1, dtype=torch.float64,
                                                     device=x.device)], dim=1)
    gram = xa.T @ xa
    ridge = 1e-10 * torch.trace(gram) / gram.shape[0]
    w = torch.linalg.solve(gram + ridge * torch.eye(gram.shape[0], dtype=gram.dtype,
                                                     device=gram.device), xa.T @ y.to(torch.float64))
    with torch.no_grad():
        model.weight.copy_(w[:-1].T.to(model.weight.dtype))
        model.bias.copy_(w[-1].to(model.bias.dtype))


@dataclass
class Score:
    """A trained readout's validation result."""

    error: float  # validation MSE on standardised targets (the task's error)
    per_trajectory: np.ndarray  # the same per validation trajectory
    mse: float  # validation MSE in z's own units
    history: Any  # recmem.numerics.training.History (None for the least-squares readout)
    predictions: np.ndarray | None = None  # (validation trajectories, L, 2) in z's units
    # the final model's training loss (MSE on the standardised training targets, evaluated afresh
    # after training) and that of the best constant predictor (0: the targets are standardised)
    train_loss: float = math.nan
    constant_loss: float = math.nan

    def loss_check(self, model: str) -> Any:
        """Did the readout train? (:class:`recmem.numerics.training.LossCheck`: the final training
        loss against half the best constant predictor's)."""
        from recmem.numerics.training import loss_check

        return loss_check(model, self.train_loss, self.constant_loss,
                          "the constant predictor's loss", self.history)


def _standardise(x: Any, rows: Any) -> Any:
    """(x − mean)/std with the statistics of ``rows`` (constant columns: std 1)."""
    mean = rows.mean(dim=0)
    std = rows.std(dim=0)
    std = std.where(std > 1e-12 * (1 + mean.abs()), std.new_ones(()))
    return (x - mean) / std


def train_readout(data: TaskData, features: str, readout: str, seed: int, *, saver: Any = None,
                  advance: Callable[[int], None] | None = None, keep_predictions: bool = False,
                  threads: int | None = None) -> Score:
    """Train the readout ``readout`` on ``features`` of the first ``n_train`` trajectories (all
    their positions are rows: the readout is position-wise, O §4) and score it on the rest.

    ``mlp``: Adam on the mean squared error (:func:`recmem.numerics.training.fit`, batches and
    initialisation from ``seed``, resumable through ``saver``); ``linear``: least squares
    (:func:`fit_affine`). Features and targets are standardised with training statistics; the
    error is the validation MSE on standardised targets, also per trajectory. ``threads``: torch
    intra-op threads during the training (:func:`torch_threads`)."""
    with torch_threads(threads):
        return _train_readout(data, features, readout, seed, saver, advance, keep_predictions)


@dataclass
class _Rows:
    """One draw's readout data (:func:`_rows`): standardised training and validation rows, and the
    targets' statistics to map predictions back to z's units."""

    x_train: Any
    y_train: Any
    x_val: Any
    y_val: Any  # (validation trajectories × L, 2)
    z_val: Any  # (validation trajectories, L, 2) in z's units
    z_mean: Any
    z_std: Any


def _rows(data: TaskData, features: str) -> _Rows:
    """The rows a readout of ``features`` trains and is scored on: features and targets
    standardised with the statistics of the first ``n_train`` trajectories (all their positions
    are rows: the readout is position-wise, O §4), the other trajectories to validate."""
    import torch

    feats = data.features(features)
    dtype, device = feats.dtype, feats.device
    nt, width = data.size.n_train, feats.shape[-1]
    x = _standardise(feats, feats[:nt].reshape(-1, width))
    z = torch.as_tensor(data.z, dtype=dtype, device=device)
    zt = z[:nt].reshape(-1, 2)
    z_mean, z_std = zt.mean(dim=0), zt.std(dim=0)
    y = (z - z_mean) / z_std
    return _Rows(x[:nt].reshape(-1, width), y[:nt].reshape(-1, 2), x[nt:].reshape(-1, width),
                 y[nt:].reshape(-1, 2), z[nt:], z_mean, z_std)


def _score(rows: _Rows, pred: Any, fitted: Any, length: int, history: Any,
           keep_predictions: bool) -> Score:
    """A readout's :class:`Score` from its predictions ``pred`` on the validation rows and
    ``fitted`` on the training rows (both standardised)."""
    # the oracle of the training (issue 19): the final model's loss on its training rows,
    # recomputed from the final parameters rather than read from the history, beside the
    # constant predictor's
    train_loss = float(((fitted - rows.y_train) ** 2).mean())
    constant_loss = float((rows.y_train ** 2).mean())
    sq = (pred - rows.y_val) ** 2
    per_traj = sq.reshape(-1, length, 2).mean(dim=(1, 2)).double().cpu().numpy()
    pred_z = pred.reshape(-1, length, 2) * rows.z_std + rows.z_mean
    mse = float(((pred_z - rows.z_val) ** 2).mean())
    return Score(float(per_traj.mean()), per_traj, mse, history,
                 pred_z.double().cpu().numpy() if keep_predictions else None, train_loss,
                 constant_loss)


def _apply(model: Any, x: Any, chunk: int = 65536) -> Any:
    """``model`` on the rows of ``x`` (the rows axis: the last but one), ``chunk`` rows at a time,
    without gradients."""
    import torch

    with torch.no_grad():
        return torch.cat([model(x[..., i:i + chunk, :]) for i in range(0, x.shape[-2], chunk)],
                         dim=-2)


def _train_readout(data: TaskData, features: str, readout: str, seed: int, saver: Any,
                   advance: Callable[[int], None] | None, keep_predictions: bool) -> Score:
    from recmem.numerics.training import fit

    size = data.size
    rows = _rows(data, features)
    model = readout_model(readout, rows.x_train.shape[-1], size, seed,
                          rows.x_train.dtype).to(rows.x_train.device)
    history = None
    if readout == "linear":
        fit_affine(model, rows.x_train, rows.y_train)
    else:
        history = fit(model, rows.x_train, rows.y_train, rows.x_val, rows.y_val,
                      epochs=size.epochs, batch_size=size.batch, lr=size.lr, seed=seed,
                      saver=saver, advance=advance)
    model.eval()
    return _score(rows, _apply(model, rows.x_val), _apply(model, rows.x_train), size.length,
                  history, keep_predictions)


def stack_models(models: list[Any]) -> Any:
    """R position-wise MLPs of one shape (:func:`readout_model`) as one torch module on stacked
    data, (R, b, F) → (R, b, 2): layer ℓ's weights (R, out, in) and biases (R, 1, out) are the R
    models' own (their initialisations unchanged, in torch.nn.Linear's layout), applied by batched
    matrix products x·Wᵀ + b, all held in one flat parameter (so that Adam, elementwise, runs over
    one tensor).

    With :func:`recmem.numerics.training.fit` given R seeds, each model trains as it would alone
    (its own batches, its own gradient; Adam is elementwise) in one step per batch for all R: the
    models of O.universality's replicates are small enough that much of a step's cost is fixed
    overhead. The module computes the gradient of the stack's loss itself
    (``stack_mse_backward``: for each model the operations of autograd's backward of that model
    alone, without a graph), so each model gets bit for bit the gradient it gets alone (tested),
    and with Adam elementwise its trained parameters equal those of :func:`train_readout` alone
    (bit for bit on the development machine's CPU at the claim's sizes, measured; tested to a
    relative 1e-9)."""
    return _stacked_mlp_class()(models)


@functools.cache
def _stacked_mlp_class() -> Any:
    """The torch module class of :func:`stack_models` (defined once torch is imported)."""
    import torch

    class StackedMLP(torch.nn.Module):
        """:func:`stack_models`."""

        def __init__(self, models: list[Any]) -> None:
            super().__init__()
            linears = [[m for m in model.modules() if isinstance(m, torch.nn.Linear)]
                       for model in models]
            parts = []
            for i in range(len(linears[0])):
                parts.append(torch.stack([ls[i].weight.detach() for ls in linears]))  # (R, out, in)
                parts.append(torch.stack([ls[i].bias.detach()[None] for ls in linears]))  # (R, 1, out)
            self.shapes = [tuple(p.shape) for p in parts]
            self.flat = torch.nn.Parameter(torch.cat([p.reshape(-1) for p in parts]))

        def layers(self, flat: Any) -> list[tuple[Any, Any]]:
            """(weight (R, out, in), bias (R, 1, out)) per layer: views of ``flat`` (the
            parameter or its gradient)."""
            views, at = [], 0
            for shape in self.shapes:
                size = math.prod(shape)
                views.append(flat[at:at + size].view(shape))
                at += size
            return list(zip(views[::2], views[1::2], strict=True))

        def _views(self) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]]]:
            """:meth:`layers` of the parameter and of its gradient (made without autograd),
            kept while both are the same tensors on the same memory (the views keep that memory
            alive, so an address seen again is the same memory)."""
            grad = self.flat.grad
            assert grad is not None  # made before the first step (stack_mse_backward)
            key = (self.flat.data_ptr(), grad.data_ptr())
            cached = getattr(self, "_cached_views", None)
            if (cached is None or cached[0] is not self.flat or cached[1] is not grad
                    or cached[2] != key):
                cached = (self.flat, grad, key, self.layers(self.flat.detach()),
                          self.layers(grad))
                self._cached_views = cached
            return cached[3], cached[4]

        def forward(self, x: Any) -> Any:
            layers = self.layers(self.flat)
            for i, (w, b) in enumerate(layers):
                x = torch.baddbmm(b, x, w.transpose(1, 2))
                if i < len(layers) - 1:
                    x = torch.relu(x)
            return x

        def stack_mse_backward(self, x: Any, y: Any) -> Any:
            """The stack's loss (recmem.numerics.training._stack_mse: the sum over the models of
            each one's mean squared error) of the batch (x, y), its gradient written into
            ``self.flat.grad``, by the operations autograd runs for each model alone (the
            torch.nn.Linear layers of :func:`readout_model` under torch's mse_loss): the loss's
            (1/n)·(2·(ŷ − y)); a layer's weight gradient gradᵀ·x (in the weight's own layout, as
            torch's matrix-product backward makes it), its bias's the sum over the rows, its
            input's grad·W; relu's threshold_backward on its output. Each model's gradient is
            therefore bit for bit its gradient alone (tested; autograd's backward of the batched
            :meth:`forward` would instead form xᵀ·grad and transpose it: the same sum in another
            rounding), and no graph is built."""
            from recmem.numerics.training import _stack_mse

            with torch.no_grad():
                if self.flat.grad is None:
                    self.flat.grad = torch.zeros_like(self.flat)
                layers, grads = self._views()
                acts = [x]  # the input of each layer (relu's outputs after the first)
                for i, (w, b) in enumerate(layers):
                    z = torch.baddbmm(b, acts[-1], w.transpose(1, 2))
                    acts.append(torch.relu_(z) if i < len(layers) - 1 else z)
                pred = acts.pop()
                value = _stack_mse(pred, y)
                # d/dŷ of mean((ŷ − y)²) over one model's n entries: autograd's (1/n)·(2·(ŷ − y))
                n = pred[0].numel()
                g = torch.ones((), dtype=pred.dtype, device=pred.device) / n * (2 * (pred - y))
                for i in reversed(range(len(layers))):
                    (w, _), (gw, gb), a = layers[i], grads[i], acts[i]
                    torch.bmm(g.transpose(1, 2), a, out=gw)
                    torch.sum(g, 1, keepdim=True, out=gb)
                    if i > 0:
                        g = torch.ops.aten.threshold_backward(torch.bmm(g, w), a, 0)
            return value

    return StackedMLP


def train_readouts(datas: list[TaskData], features: str, readout: str, seeds: list[int], *,
                   threads: int | None = None) -> list[Score]:
    """:func:`train_readout` on each draw of ``datas`` with its seed of ``seeds`` (no checkpoint,
    no per-epoch validation: the scores are the final models'). The ``mlp`` readouts train as one
    module (:func:`stack_models`: each model as it would alone; the draws must have the same sizes);
    ``linear`` ones by least squares each. The ``history`` of every score is the stack's."""
    if len(datas) != len(seeds):
        raise ValueError(f"{len(datas)} draws but {len(seeds)} seeds")
    with torch_threads(threads):
        return _train_readouts(datas, features, readout, seeds)


def _train_readouts(datas: list[TaskData], features: str, readout: str,
                    seeds: list[int]) -> list[Score]:
    import torch

    from recmem.numerics.training import fit

    if not datas:
        return []
    size = datas[0].size
    if any(d.size != size for d in datas):
        raise ValueError("a stack of readouts needs draws of the same sizes")
    rows = [_rows(d, features) for d in datas]
    x0 = rows[0].x_train
    models = [readout_model(readout, x0.shape[-1], size, s, x0.dtype).to(x0.device) for s in seeds]
    if readout == "linear":
        for model, r in zip(models, rows, strict=True):
            fit_affine(model, r.x_train, r.y_train)
        return [_score(r, _apply(m, r.x_val), _apply(m, r.x_train), size.length, None, False)
                for m, r in zip(models, rows, strict=True)]
    stack = stack_models(models)
    # per-epoch validation losses are not computed (x_val None): the scores judge the final models
    history = fit(stack, torch.stack([r.x_train for r in rows]),
                  torch.stack([r.y_train for r in rows]), None, None, epochs=size.epochs,
                  batch_size=size.batch, lr=size.lr, seed=list(seeds))
    stack.eval()
    pred = _apply(stack, torch.stack([r.x_val for r in rows]))
    fitted = _apply(stack, torch.stack([r.x_train for r in rows]))
    return [_score(r, pred[i], fitted[i], size.length, history, False)
            for i, r in enumerate(rows)]
