"""Trained RNNs of paper W (App. D, App. E Table 1): the nonlinear RNN of W §2.2 (eq. (1)) in
discretised form, its recurrent-weight parameterisations (§3.4, eq. (16)), the synthetic targets
with exponential and polynomial memory, a sequence classifier, and the measurements App. D makes
on trained models (memory functions, Def. 3.1; perturbation errors, Def. 3.4).

**Model.** Explicit Euler on App. D's time grid (step Δt = 0.1; the paper trains a discretised
RNN but does not print the scheme), one-dimensional inputs as in App. D and sequential MNIST:

    h_k = h_{k−1} + Δt·σ(W h_{k−1} + U x_k + b),   h_{−1} = 0,   ŷ_k = cᵀh_k,   W = g(M).

The trainable parameters are θ = (M, U, b, c); the perturbations of Def. 3.4 act on them (on M,
not on W, for a reparameterised model: that is the point of W §3.4). With σ(0) = 0 (tanh,
hardtanh) the rest state under zero input solves W h* + b = 0, where σ'(0) = 1, so the model's
linearisation at rest is the matrix A = I + Δt·W whatever b is: its spectrum decides the decay of
the memory (rate −ln ρ(A)/Δt) and its distance to instability the stability radius
(:func:`euler_stability_radius`).

**Parameterisations** g (W §3.4): ``direct`` W = M; ``exp`` W = −e^M and ``softplus``
W = −log(I + e^M) as matrix functions (the reading of :func:`recmem.numerics.rnn.reparameterise`;
torch has no matrix logarithm, so the softplus map is computed by a Gauss–Legendre quadrature of
log(I + e^M) = log 2·I + ∫₀¹ M σ(sM) ds, differentiable by autograd and checked against scipy's
logm); ``inverse`` W = −(M² + εI)^{−1}. W's Table 1
names an "inverse (stable)" parameterisation but never defines it; recmem reads it as the inverse
map λ ↦ −1/(λ² + ε) on the spectrum (the eigenvalue map of the authors' later "best"
parameterisation −1/(aw² + b), with a = 1), which, like −e^M and −log(I + e^M), sends every real
spectrum into the open left half-plane; ε defaults to Δt/2 so that a real spectrum lands in
(−2/Δt, 0), the interval where explicit Euler is stable.

**Targets.** Linear functionals with memory ρ (W eq. (3)), discretised by the left-point rule on
the same grid: y_k = Δt Σ_{j≤k} ρ((k−j)Δt) x_j. Their Heaviside rate is exactly ρ at the lags
s_k = kΔt, the discrete counterpart of M(H)(s) = |ρ(s)| (eq. (4)).

**Memory of a model** (Def. 3.1 on the grid): M̂(s_k) = max_x |Δ(ŷ_k(u^x) − ŷ_k(0))|/(Δt|x|)
over the Heaviside magnitudes given (a lower bound of the sup), the zero-input response removed
(Def. 2.1's adjusted functional, since b ≠ 0 makes ŷ(0) ≠ 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import torch

from recmem.numerics.kernels import Kernel
from recmem.numerics.training import History, Saver, fit

PARAMETERISATIONS = ("direct", "exp", "softplus", "inverse")
ACTIVATIONS = ("tanh", "hardtanh")


# ---- parameterisations ---------------------------------------------------------------------------
# Gauss–Legendre nodes of the softplus quadrature (below). The integrand s ↦ λσ(sλ) has its poles
# at s = ±iπ/|λ| (an endpoint's distance π/|λ|), so the error falls like ρ^(−2Q) with Bernstein
# parameter ρ ≈ 1 + √(4π/|λ|): below 1e-12 relative for |λ(M)| ≤ 40 at Q = 32 (tests compare with
# scipy's logm through numerics.rnn.reparameterise).
SOFTPLUS_NODES = 32


def _softplus_quadrature(M: Any) -> Any:
    """log(I + e^M) = log 2·I + ∫₀¹ M σ(sM) ds (d/ds log(I + e^{sM}) = M σ(sM), everything commuting
    with M), σ(X) = (e^{X/2} + e^{−X/2})^{−1} e^{X/2}: Gauss–Legendre on [0, 1], differentiable and
    batched (torch has no matrix logarithm). The symmetric form of σ keeps the solve's condition
    number at cosh(|λ|/2) instead of e^{|λ|}."""
    x, w = np.polynomial.legendre.leggauss(SOFTPLUS_NODES)
    s = torch.tensor((x + 1) / 2, dtype=M.dtype, device=M.device)
    wt = torch.tensor(w / 2, dtype=M.dtype, device=M.device)
    X = s.view(-1, 1, 1) * M.unsqueeze(-3) / 2  # (..., Q, m, m)
    E, Ei = torch.linalg.matrix_exp(X), torch.linalg.matrix_exp(-X)
    sig = torch.linalg.solve(E + Ei, E)
    integral = (wt.view(-1, 1, 1) * (M.unsqueeze(-3) @ sig)).sum(dim=-3)
    eye = torch.eye(M.shape[-1], dtype=M.dtype, device=M.device)
    return math.log(2.0) * eye + integral


def recurrent_weight(M: Any, kind: str, eps: float) -> Any:
    """W = g(M) (W §3.4, eq. (16)) for a torch matrix M (m, m) or a batch (n, m, m); differentiable."""
    if kind == "direct":
        return M
    if kind == "exp":
        return -torch.linalg.matrix_exp(M)
    if kind == "inverse":
        eye = torch.eye(M.shape[-1], dtype=M.dtype, device=M.device)
        return -torch.linalg.inv(M @ M + eps * eye)
    if kind == "softplus":
        return -_softplus_quadrature(M)
    raise ValueError(f"unknown parameterisation {kind!r}: expected one of {', '.join(PARAMETERISATIONS)}")


def preimage(W: np.ndarray, kind: str, eps: float) -> np.ndarray:
    """M with g(M) = W, for a symmetric negative definite W = −Q diag(r) Qᵀ (so that every
    parameterisation can start from the same W: "initialized with identical weight configurations",
    W App. E): M = Q diag(g⁻¹(−r)) Qᵀ."""
    r, q = np.linalg.eigh(-np.asarray(W, dtype=float))
    if not np.allclose(W, W.T, rtol=0, atol=1e-12 * max(1.0, float(np.abs(W).max()))) or r.min() <= 0:
        raise ValueError("preimage needs a symmetric negative definite W")
    if kind == "direct":
        return np.asarray(W, dtype=float)
    if kind == "exp":
        mu = np.log(r)
    elif kind == "softplus":
        mu = np.log(np.expm1(r))
    elif kind == "inverse":
        if r.max() >= 1 / eps:
            raise ValueError(f"the inverse parameterisation reaches rates below 1/ε = {1 / eps:g} only")
        mu = np.sqrt(1 / r - eps)
    else:
        raise ValueError(f"unknown parameterisation {kind!r}")
    return np.asarray((q * mu) @ q.T)


def stable_init(m: int, rate_lo: float, rate_hi: float, rng: np.random.Generator) -> np.ndarray:
    """W₀ = −Q diag(r) Qᵀ: rates r geometrically spaced from rate_lo to rate_hi (rate_lo alone for
    m = 1), Q Haar-random orthogonal (the QR factor of a Gaussian matrix with the signs of R's
    diagonal moved into Q: Mezzadri 2007). recmem's choice (App. D prints no initialisation): every
    parameterisation can represent it, its memory decays on the time scales of the grid, and its
    slowest rate is rate_lo at every width — random rates would put the slowest of m draws, and so
    the stability radius, lower as m grows whatever the target, and a trend of β₀(m) after
    training would partly be the initialisation's."""
    r = np.geomspace(rate_lo, rate_hi, m) if m > 1 else np.array([rate_lo])
    q, rr = np.linalg.qr(rng.standard_normal((m, m)))
    q = q * np.where(np.diag(rr) < 0, -1.0, 1.0)
    return np.asarray(-(q * r) @ q.T)


# ---- the model -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    """What a trained RNN is, besides its parameters: σ, g, the Euler step Δt and the ε of the
    inverse parameterisation."""

    activation: str = "tanh"
    parameterisation: str = "direct"
    dt: float = 0.1
    eps: float | None = None  # None: Δt/2

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.parameterisation not in PARAMETERISATIONS:
            raise ValueError(f"parameterisation must be one of {PARAMETERISATIONS}")
        if not self.dt > 0:
            raise ValueError("Δt must be positive")

    @property
    def inverse_eps(self) -> float:
        return self.dt / 2 if self.eps is None else self.eps

    def weight(self, M: Any) -> Any:
        return recurrent_weight(M, self.parameterisation, self.inverse_eps)


def respond(spec: Spec, M: Any, U: Any, b: Any, c: Any | None, x: Any, last: bool = False) -> Any:
    """Batched Euler run of n models on inputs x: M (n, m, m), U, b, c (n, m), x (n or 1, B, T).

    Returns ŷ (n, B, T), or with ``last`` the final states h_{T−1} (n, B, m); ``c`` may then be None.
    """
    from recmem.numerics.activations import activation

    act = activation(spec.activation).torch
    W = spec.weight(M)
    n, m = W.shape[0], W.shape[-1]
    x = x.expand(n, -1, -1)
    B, T = x.shape[1], x.shape[2]
    Wt = W.transpose(1, 2)
    drive = x.unsqueeze(-1) * U[:, None, None, :] + b[:, None, None, :]  # (n, B, T, m)
    h = torch.zeros(n, B, m, dtype=W.dtype, device=W.device)
    states = []
    for k in range(T):
        h = h + spec.dt * act(torch.baddbmm(drive[:, :, k], h, Wt))
        if not last:
            states.append(h)
    if last:
        return h
    return torch.einsum("nbtm,nm->nbt", torch.stack(states, dim=2), c)


def _uniform(shape: tuple[int, ...], bound: float, gen: Any, dtype: Any) -> Any:
    return (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1).to(dtype) * bound


class _Recurrent(torch.nn.Module):
    """The recurrent part shared by the RNNs of App. D and E: M = g⁻¹(W₀) (:func:`preimage`), the
    input weights U uniform on ±``input_bound`` (drawn first from ``gen``), the bias b = 0."""

    def __init__(self, spec: Spec, W0: np.ndarray, input_bound: float, gen: Any, dtype: Any) -> None:
        super().__init__()
        dtype = torch.float64 if dtype is None else dtype
        m = len(W0)
        self.spec = spec
        self.M = torch.nn.Parameter(torch.tensor(preimage(W0, spec.parameterisation, spec.inverse_eps),
                                                 dtype=dtype))
        self.U = torch.nn.Parameter(_uniform((m,), input_bound, gen, dtype))
        self.b = torch.nn.Parameter(torch.zeros(m, dtype=dtype))

    @property
    def hidden(self) -> int:
        return int(self.M.shape[0])


class EulerRNN(_Recurrent):
    """The sequence-to-sequence RNN of App. D (module docstring): x (B, T) ↦ ŷ (B, T).

    Initialisation (recmem's choice): M = g⁻¹(W₀) for the given W₀ (:func:`preimage`), U and c
    uniform on ±1/√m, b = 0, drawn from the torch generator ``gen``.
    """

    def __init__(self, spec: Spec, W0: np.ndarray, gen: Any, dtype: Any = None) -> None:
        m = len(W0)
        super().__init__(spec, W0, 1 / math.sqrt(m), gen, dtype)
        self.c = torch.nn.Parameter(_uniform((m,), 1 / math.sqrt(m), gen, self.M.dtype))

    def forward(self, x: Any) -> Any:
        return respond(self.spec, self.M[None], self.U[None], self.b[None], self.c[None], x[None])[0]

    def theta(self) -> dict[str, np.ndarray]:
        """The trained parameters (M, U, b, c) and W = g(M), float64 numpy."""
        with torch.no_grad():
            out = {k: getattr(self, k).detach().cpu().double().numpy().copy() for k in "MUbc"}
            out["W"] = self.spec.weight(self.M.detach()).cpu().double().numpy().copy()
        return out


class SequenceClassifier(_Recurrent):
    """Sequential classification (W App. E, Table 1: pixel-by-pixel MNIST): the Euler RNN run over
    the sequence x (B, T), its last state read out by an affine layer to ``classes`` logits."""

    def __init__(self, spec: Spec, W0: np.ndarray, classes: int, gen: Any, dtype: Any = None) -> None:
        m = len(W0)
        super().__init__(spec, W0, 1.0, gen, dtype)
        self.head = torch.nn.Parameter(_uniform((classes, m), 1 / math.sqrt(m), gen, self.M.dtype))
        self.bias = torch.nn.Parameter(torch.zeros(classes, dtype=self.M.dtype))

    def forward(self, x: Any) -> Any:
        h = respond(self.spec, self.M[None], self.U[None], self.b[None], None, x[None], last=True)[0]
        return h @ self.head.T + self.bias


# ---- targets and data ----------------------------------------------------------------------------
@dataclass(frozen=True)
class MemoryTarget:
    """The linear functional with memory ρ (W eq. (3)) on the grid of step Δt, left-point rule:
    y_k = Δt Σ_{j≤k} ρ((k−j)Δt) x_j (module docstring)."""

    kernel: Kernel
    dt: float

    def lags(self, T: int) -> np.ndarray:
        return np.arange(T) * self.dt

    def rho(self, T: int) -> np.ndarray:
        """ρ(s_k), s_k = kΔt, k < T: the target's memory on the grid (eq. (4))."""
        return np.asarray(self.kernel.rho(self.lags(T))[:, 0])

    def outputs(self, x: Any) -> Any:
        """y (B, T) for inputs x (B, T) (torch): the causal convolution as a Toeplitz product."""
        T = x.shape[-1]
        r = self.rho(T)
        idx = np.arange(T)
        lag = idx[:, None] - idx[None, :]
        K = np.where(lag >= 0, r[np.clip(lag, 0, None)], 0.0)
        return x @ torch.tensor(K.T * self.dt, dtype=x.dtype, device=x.device)

    def heaviside(self, T: int) -> tuple[np.ndarray, np.ndarray]:
        """(output, rate) for the unit Heaviside input: Δt·Σ_{i≤k} ρ(s_i) and ρ(s_k)."""
        r = self.rho(T)
        return np.cumsum(r) * self.dt, r


def regression_data(target: MemoryTarget, n: int, T: int, rng: np.random.Generator, dtype: Any = None,
                    device: str = "cpu") -> tuple[Any, Any]:
    """n input sequences of length T with i.i.d. standard normal entries (recmem's choice: App. D
    does not print its inputs; Li et al. 2020, whose setting W extends, use white-noise inputs) and
    the target's outputs."""
    dtype = torch.float64 if dtype is None else dtype
    x = torch.tensor(rng.standard_normal((n, T)), dtype=dtype, device=device)
    return x, target.outputs(x)


def train(model: Any, data: tuple[Any, Any, Any, Any], *, epochs: int, batch_size: int, lr: float,
          seed: int, target_loss: float | None = None, saver: Saver | None = None,
          advance: Callable[[int], None] | None = None,
          loss: Callable[[Any, Any], Any] | None = None) -> History:
    """Adam on (x_train, y_train, x_val, y_val) by :func:`recmem.numerics.training.fit` (W App. D:
    MSE, batch 128, learning rate 0.005, stop at validation loss 1e-8); resumable through ``saver``."""
    xt, yt, xv, yv = data
    return fit(model, xt, yt, xv, yv, epochs=epochs, batch_size=batch_size, lr=lr, seed=seed,
               loss=loss, target_loss=target_loss, saver=saver, advance=advance)


class EulerRNNStack(torch.nn.Module):
    """R :class:`EulerRNN` of widths m_r ≤ M (one spec, ``direct`` W = M, σ(0) = 0) as one module
    (training them at once: :func:`train_stack`): x (R, B, T) ↦ ŷ (R, B, T), model r on its own
    slice. Each model sits in the top-left m_r units of width M with the other units zero; a zero
    unit stays at h = 0 (σ(0) = 0, its row and column of W zero) and takes no part in ŷ (its c is 0),
    so every gradient of a padding entry is exactly 0 (hooks keep it 0 even where a diverged model
    would give 0·inf): model r's outputs and gradients are those of the model alone, up to the
    order of summation in the batched products."""

    def __init__(self, models: Sequence[EulerRNN]) -> None:
        super().__init__()
        if not models:
            raise ValueError("a stack needs at least one model")
        spec = models[0].spec
        if any(mod.spec != spec for mod in models) or spec.parameterisation != "direct":
            raise ValueError("a stack holds models of one spec with the direct parameterisation W = M "
                             "(the zero padding of another g(M) is not zero)")
        self.spec = spec
        self.widths = [mod.hidden for mod in models]
        R, width = len(models), max(self.widths)
        ref = models[0].M
        live = torch.zeros(R, width, dtype=torch.bool, device=ref.device)
        blocks = {k: torch.zeros((R, width, width) if k == "M" else (R, width), dtype=ref.dtype,
                                 device=ref.device) for k in "MUbc"}
        with torch.no_grad():
            for r, (mod, m) in enumerate(zip(models, self.widths, strict=True)):
                live[r, :m] = True
                blocks["M"][r, :m, :m] = mod.M
                for k in "Ubc":
                    blocks[k][r, :m] = getattr(mod, k)
        self.live: Any
        self.register_buffer("live", live)
        masks = {"M": live[:, :, None] & live[:, None, :], "U": live, "b": live, "c": live}
        for k in "MUbc":
            param = torch.nn.Parameter(blocks[k])
            param.register_hook(lambda g, keep=masks[k]: torch.where(keep, g, torch.zeros_like(g)))
            setattr(self, k, param)

    def forward(self, x: Any) -> Any:
        return respond(self.spec, self.M, self.U, self.b, self.c, x)

    def write_back(self, models: Sequence[EulerRNN]) -> None:
        """Copy model r's trained parameters (its m_r × m_r block) into ``models[r]``."""
        stacked: Any = self  # nn.Module's __getattr__ types the registered parameters loosely
        with torch.no_grad():
            for r, (mod, m) in enumerate(zip(models, self.widths, strict=True)):
                mod.M.copy_(stacked.M[r, :m, :m])
                for k in "Ubc":
                    getattr(mod, k).copy_(getattr(self, k)[r, :m])


def train_stack(models: Sequence[EulerRNN], data: Sequence[tuple[Any, Any, Any, Any]], *, epochs: int,
                batch_size: int, lr: float, seeds: Sequence[int],
                target_loss: float | None = None) -> History:
    """Train the models with Adam as one :class:`EulerRNNStack` (:func:`recmem.numerics.training.fit`
    on a stack: model r on its own data ``data[r]`` = (x_train, y_train, x_val, y_val), its batches
    drawn from its own generator seeded by ``seeds[r]``, its gradient that of its own mean squared
    error; Adam is elementwise), then write each model's trained parameters back. Each model thus
    trains as :func:`train` would train it alone (one step for all instead of one per model: the
    small models' time is per-step overhead), except for the stop: the stack stops when the *sum*
    of the validation losses reaches ``target_loss`` (so no model stops earlier than alone) or when
    any loss is not finite. The returned history is the stack's (losses summed over the models)."""
    if len(models) != len(data) or len(models) != len(seeds):
        raise ValueError("one data set and one seed per model")
    stack = EulerRNNStack(models)
    xt, yt, xv, yv = (torch.stack([d[k] for d in data]) for k in range(4))
    hist = fit(stack, xt, yt, xv, yv, epochs=epochs, batch_size=batch_size, lr=lr,
               seed=[int(s) for s in seeds], target_loss=target_loss)
    stack.write_back(models)
    return hist


def classifier_scores(model: Any, x: Any, y: Any, batch: int = 2048) -> tuple[float, float]:
    """(mean cross-entropy, accuracy) of a classifier on (x, y) (Table 1's test loss / accuracy)."""
    model.eval()
    loss, right = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(x), batch):
            logits = model(x[i:i + batch])
            loss += float(torch.nn.functional.cross_entropy(logits, y[i:i + batch], reduction="sum"))
            right += int((logits.argmax(dim=1) == y[i:i + batch]).sum())
    model.train()
    return loss / len(x), right / len(x)


# ---- measurements on trained models --------------------------------------------------------------
@dataclass
class HeavisideStudy:
    """Perturbed copies of a trained model on Heaviside inputs: per point, the error against the
    target (``errors``, inf for a model that blows up) and the memory curve (``memory``, (n, T))."""

    errors: np.ndarray
    memory: np.ndarray
    lags: np.ndarray


def heaviside_study(spec: Spec, theta: dict[str, np.ndarray], pert: Any, target: MemoryTarget | None,
                    T: int, magnitudes: Sequence[float | Fraction], norm: str = "sobolev",
                    device: str = "cpu") -> HeavisideStudy:
    """The models θ + Δθ for the perturbations ``pert`` (:class:`recmem.numerics.perturbation.
    Perturbations`, its W block acting on M) on Heaviside inputs of the given magnitudes over T
    steps: errors in ``norm`` (:func:`recmem.numerics.perturbation.combine`: sup over x, then the
    sup over the grid; ``sobolev`` is Def. 3.7's output-plus-rate norm) and memory curves (module
    docstring). Models with non-finite responses get error inf and memory inf."""
    from recmem.numerics.perturbation import combine

    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    mags = [float(v) for v in magnitudes]
    M = torch.tensor(theta["M"][None] + pert.dW, **kw)
    U = torch.tensor(theta["U"][None] + pert.dU, **kw)
    b = torch.tensor(theta["b"][None] + pert.db, **kw)
    c = torch.tensor(theta["c"][None] + pert.dc, **kw)
    x = torch.tensor([[0.0, *mags]], **kw)[:, :, None].expand(1, len(mags) + 1, T)
    with torch.no_grad():
        y = respond(spec, M, U, b, c, x)  # (n, 1 + X, T)
    y = y.cpu().numpy()
    dt = spec.dt
    xs = np.array(mags)[None, :, None]
    resp = y[:, 1:] - y[:, :1]  # the adjusted functional Ĥ_t(u^x) − Ĥ_t(0)
    prev = np.concatenate([np.zeros_like(resp[..., :1]), resp[..., :-1]], axis=-1)
    with np.errstate(all="ignore"):
        mem = np.max(np.abs(resp - prev) / (dt * np.abs(xs)), axis=1)
        bad = ~np.isfinite(y).all(axis=(1, 2))
        mem[bad] = np.inf
        if target is None:
            err = np.full(len(y), np.nan)
        else:
            out_t, rate_t = target.heaviside(T)
            yo = y[:, 1:]
            yprev = np.concatenate([np.zeros_like(yo[..., :1]), yo[..., :-1]], axis=-1)
            d_out = np.abs(yo - xs * out_t) / np.abs(xs)
            d_rate = np.abs((yo - yprev) / dt - xs * rate_t) / np.abs(xs)
            err = combine(d_out, d_rate, norm, dt)
            err = np.where(np.isfinite(err) & ~bad, err, np.inf)
    return HeavisideStudy(np.asarray(err, dtype=float), mem, np.arange(T) * dt)


@dataclass
class PerturbedModel:
    """Def. 3.4 on a trained model: the estimate of E_m(β) from the sampled points, the points'
    Heaviside study, and the spectral radius of each point's linearisation I + Δt·g(M + ΔM)
    (< 1: the perturbed model's memory decays)."""

    estimate: Any  # recmem.numerics.perturbation.Estimate
    study: HeavisideStudy
    spectral_radius: np.ndarray

    def stable_fraction(self) -> list[float]:
        """Per β, the fraction of its points whose linearisation is stable."""
        idx = self.estimate.points.beta_index
        return [float(np.mean(self.spectral_radius[idx == i] < 1)) for i in range(len(self.estimate.betas))]


def perturb(spec: Spec, theta: dict[str, np.ndarray], target: MemoryTarget | None,
            betas: Sequence[Fraction], samples: int, seed: int | Sequence[int], T: int,
            magnitudes: Sequence[float | Fraction], norm: str = "sobolev",
            device: str = "cpu") -> PerturbedModel:
    """E_m(β) of a trained model (W Def. 3.4, App. D's protocol: ``samples`` uniform draws per β in
    the ball of every block of θ = (M, U, b, c), the max, nested balls: the running max over β' ≤ β;
    :func:`recmem.numerics.perturbation.draw` and ``summarize``), on Heaviside inputs over T steps."""
    from recmem.numerics.perturbation import draw, summarize

    m = len(theta["M"])
    pert = draw(m, betas, samples, seed)
    study = heaviside_study(spec, theta, pert, target, T, magnitudes, norm, device)
    how = f"{samples} samples per β, max (App. D); Euler model over {T} steps"
    est = summarize(pert, np.where(np.isnan(study.errors), np.inf, study.errors), betas, samples,
                    norm, how, certify=False)
    with torch.no_grad():
        W = spec.weight(torch.tensor(theta["M"][None] + pert.dW, dtype=torch.float64)).numpy()
    with np.errstate(all="ignore"):
        A = np.eye(m)[None] + spec.dt * W
        ok = np.isfinite(A).all(axis=(1, 2))
        rad = np.full(len(A), np.inf)
        if ok.any():
            rad[ok] = np.abs(np.linalg.eigvals(A[ok])).max(axis=1)
    return PerturbedModel(est, study, rad)


def euler_stability_radius(W: np.ndarray, dt: float, grid: int = 2048) -> float:
    """min over |z| = 1 of σ_min(zI − A)/Δt for A = I + ΔtW (0 when A has an eigenvalue on or outside
    the unit circle): the complex stability radius of the Euler model's linearisation at rest
    (module docstring), i.e. the smallest ‖ΔW‖₂ (complex ΔW) that puts an eigenvalue of
    I + Δt(W + ΔW) on the unit circle — a lower bound of the real radius of Def. 3.4's ball.
    The minimum over the angle: a grid of ``grid`` angles, then bounded Brent around the best one."""
    from scipy.optimize import minimize_scalar

    W = np.asarray(W, dtype=float)
    m = len(W)
    A = np.eye(m) + dt * W
    if np.max(np.abs(np.linalg.eigvals(A))) >= 1:
        return 0.0

    def smin(phi: np.ndarray) -> np.ndarray:
        z = np.exp(1j * np.atleast_1d(phi))[:, None, None] * np.eye(m)[None]
        return np.linalg.svd(z - A[None], compute_uv=False)[:, -1]

    phis = np.linspace(0.0, 2 * np.pi, grid, endpoint=False)
    vals = smin(phis)
    i = int(np.argmin(vals))
    h = 2 * np.pi / grid
    res = minimize_scalar(lambda p: float(smin(np.array([p]))[0]), bounds=(phis[i] - h, phis[i] + h),
                          method="bounded", options={"xatol": 1e-12})
    return float(min(vals[i], res.fun)) / dt


def spectral_decay_rate(W: np.ndarray, dt: float) -> float:
    """−ln ρ(I + ΔtW)/Δt: the asymptotic decay rate of the Euler model's memory (negative: growth)."""
    A = np.eye(len(W)) + dt * np.asarray(W, dtype=float)
    return float(-math.log(max(float(np.max(np.abs(np.linalg.eigvals(A)))), 1e-300)) / dt)


def jump_radius(betas: Sequence[Fraction], values: Sequence[float], factor: float = 2.0) -> float:
    """The first listed β > 0 at which E(β) exceeds ``factor``·E(0) (or is infinite): where the
    perturbed-error curve of Fig. 1–2 leaves its plateau; inf when it never does."""
    e0 = float(values[0])
    for beta, v in zip(betas, values, strict=True):
        if beta > 0 and not (v <= factor * e0):
            return float(beta)
    return math.inf


__all__ = ["ACTIVATIONS", "PARAMETERISATIONS", "EulerRNN", "EulerRNNStack", "HeavisideStudy", "MemoryTarget",
           "PerturbedModel", "SequenceClassifier", "Spec", "classifier_scores",
           "euler_stability_radius", "heaviside_study", "jump_radius", "perturb", "preimage",
           "recurrent_weight", "regression_data", "respond", "spectral_decay_rate", "stable_init",
           "train", "train_stack"]
