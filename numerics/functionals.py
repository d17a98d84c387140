"""Causal, time-homogeneous functionals as first-class objects (paper W §2).

A functional maps an input signal to an output signal. recmem needs two things of each: its output
H_t(u) and its output rate d/dt H_t(u) for step inputs u (Heaviside, impulse and reversed inputs
are all steps, see :mod:`recmem.numerics.signals`). Built in:

- :class:`LinearFunctional`: H_t(x) = ∫₀^∞ ρ(s)ᵀ x_{t−s} ds (W eq. (3)) for a memory kernel ρ; the
  rate is exact, xᵀρ(t − a) − xᵀρ(t − b) for the step x·1_[a,b);
- :class:`RNNFunctional`: the continuous-time RNN of W §2; the rate is cᵀσ(W h + U u + b) at the
  integrated state;
- :class:`CallableFunctional`: a user's Python function ``f(t, x) -> y`` on a uniform time grid;
  its rate comes from a degree-6 local interpolating polynomial (SciPy's Savitzky–Golay filter with
  polyorder = window − 1, i.e. Fornberg's finite-difference weights), accurate to O(Δt⁶).

:func:`load_target` turns the CLI's TARGET strings into functionals.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from recmem.numerics.kernels import Kernel, parse_kernel
from recmem.numerics.rnn import RNN
from recmem.numerics.signals import Step

# Odd window of the Savitzky–Golay derivative; polyorder = window − 1 interpolates exactly.
SAVGOL_WINDOW = 7
# Relative accuracy asked of QUADPACK by LinearFunctional.output.
QUAD_EPSREL = 1e-13


def _times(t: Any) -> np.ndarray:
    """Query times: a finite real 1-D array (complex, NaN, inf: ValueError)."""
    from recmem.numerics.validate import real_vector

    return real_vector(t, "the times t")


def _check_dim(h: Functional, signal: Step) -> None:
    if signal.dim != h.input_dim:
        raise ValueError(f"the input has dimension {signal.dim} but the functional takes "
                         f"{h.input_dim}")


class Functional(ABC):
    """A causal, time-homogeneous functional H, queried on step inputs.

    Domain of :meth:`output` and :meth:`rate`: a :class:`~recmem.numerics.signals.Step` of the
    functional's input dimension and finite real times (ValueError otherwise).
    """

    input_dim: int

    @property
    @abstractmethod
    def description(self) -> str:
        """One line saying what the functional is."""

    @abstractmethod
    def output(self, signal: Step, t: np.ndarray) -> np.ndarray:
        """H_t(signal) at the times ``t`` (float64)."""

    @abstractmethod
    def rate(self, signal: Step, t: np.ndarray) -> np.ndarray:
        """d/dt H_t(signal) at the times ``t`` (float64)."""

    @property
    def rate_method(self) -> str:
        """How :meth:`rate` is computed (reported with every memory curve)."""
        return "exact"


@dataclass(frozen=True)
class LinearFunctional(Functional):
    """H_t(x) = ∫₀^∞ ρ(s)ᵀ x_{t−s} ds with the memory kernel ρ (W eq. (3), ICLR camera-ready)."""

    kernel: Kernel

    @property
    def input_dim(self) -> int:  # type: ignore[override]
        return self.kernel.input_dim

    @property
    def description(self) -> str:
        return f"linear functional, {self.kernel.description}"

    @property
    def rate_method(self) -> str:
        return "analytic: d/dt H_t(x·1_[a,b)) = xᵀρ(t − a) − xᵀρ(t − b)"

    def output(self, signal: Step, t: np.ndarray) -> np.ndarray:
        """xᵀ ∫_{max(0, t−b)}^{max(0, t−a)} ρ(s) ds by adaptive Gauss–Kronrod quadrature."""
        return self.output_with_error(signal, t)[0]

    def output_with_error(self, signal: Step, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(H_t(signal), QUADPACK's absolute error estimate) at the times ``t``.

        The integrand is ρ(s)ᵀ x_{t−s}: ρ(s)ᵀx on the support s ∈ [max(0, t − b), max(0, t − a)]
        of the step x·1_[a,b) (b − a may be infinite: App. G's reversed input); QUAD_EPSREL
        relative accuracy is requested.
        """
        from scipy.integrate import quad

        t = _times(t)
        _check_dim(self, signal)
        x = signal.vector
        out, err = np.empty(len(t)), np.empty(len(t))
        for i, tk in enumerate(t):
            lo, hi = max(0.0, tk - signal.stop), max(0.0, tk - signal.start)
            if hi > lo:
                val, e = quad(lambda s: float(self.kernel.rho(np.array([s]))[0] @ x), lo, hi,
                              epsabs=0.0, epsrel=QUAD_EPSREL, limit=200)
            else:
                val, e = 0.0, 0.0
            out[i], err[i] = val, e
        return out, err

    def rate(self, signal: Step, t: np.ndarray) -> np.ndarray:
        t = _times(t)
        _check_dim(self, signal)
        w = np.array([float(v) for v in self.kernel.weights])
        xw = float(signal.vector @ w)
        # Right derivatives at the breakpoints, as for the RNN (the input is on from its onset).
        on = np.where(t >= signal.start, self.kernel.profile(np.maximum(t - signal.start, 0.0)), 0.0)
        off = np.where(t >= signal.stop, self.kernel.profile(np.maximum(t - signal.stop, 0.0)), 0.0) \
            if np.isfinite(signal.stop) else 0.0
        return np.asarray(xw * (on - off))


@dataclass(frozen=True)
class RNNFunctional(Functional):
    """The functional of a continuous-time RNN (W §2), integrated by SciPy's DOP853."""

    rnn: RNN

    @property
    def input_dim(self) -> int:  # type: ignore[override]
        return self.rnn.input_dim

    @property
    def description(self) -> str:
        return self.rnn.describe()

    @property
    def rate_method(self) -> str:
        return "vector field: cᵀσ(W h_t + U u_t + b) at the DOP853 state (rtol 1e-12)"

    def output(self, signal: Step, t: np.ndarray) -> np.ndarray:
        from recmem.numerics.ode import response_scipy

        _check_dim(self, signal)
        return response_scipy(self.rnn, signal, _times(t))[0]

    def rate(self, signal: Step, t: np.ndarray) -> np.ndarray:
        from recmem.numerics.ode import response_scipy

        _check_dim(self, signal)
        return response_scipy(self.rnn, signal, _times(t))[1]


@dataclass(frozen=True)
class CallableFunctional(Functional):
    """A user's ``f(t, x) -> y``: t a uniform grid (1-D), x the input on it (len(t), d), y (len(t),).

    The input is zero before ``t[0]``; ``dt`` is the grid step used to sample it.
    """

    fn: Callable[[np.ndarray, np.ndarray], Any]
    name: str
    input_dim: int = 1
    dt: float = 1e-2

    @property
    def description(self) -> str:
        return f"user functional {self.name} (sampled with Δt = {self.dt})"

    @property
    def rate_method(self) -> str:
        return (f"degree-{SAVGOL_WINDOW - 1} interpolating-polynomial derivative on the Δt = {self.dt} "
                "grid (O(Δt⁶))")

    def __post_init__(self) -> None:
        if not (np.isfinite(self.dt) and self.dt > 0) or self.input_dim < 1:
            raise ValueError(f"a callable functional needs 0 < dt < ∞ and input_dim ≥ 1, got "
                             f"dt={self.dt}, input_dim={self.input_dim}")

    def _sampled(self, signal: Step, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = _times(t)
        _check_dim(self, signal)
        if not np.isfinite(signal.start):
            raise ValueError("a callable functional is sampled from the input's onset: it needs a "
                             "finite start")
        t0 = min(signal.start, 0.0)
        n = int(np.ceil((float(np.max(t)) - t0) / self.dt - 1e-9)) + SAVGOL_WINDOW
        grid = t0 + self.dt * np.arange(n + 1)
        y = np.asarray(self.fn(grid, signal.sampled(grid)), dtype=float).reshape(-1)
        if y.shape != grid.shape:
            raise ValueError(f"{self.name} returned {y.shape[0]} outputs for {len(grid)} times")
        return grid, y

    def output(self, signal: Step, t: np.ndarray) -> np.ndarray:
        grid, y = self._sampled(signal, t)
        return np.interp(t, grid, y)

    def rate(self, signal: Step, t: np.ndarray) -> np.ndarray:
        from scipy.signal import savgol_filter

        grid, y = self._sampled(signal, t)
        dy = savgol_filter(y, SAVGOL_WINDOW, SAVGOL_WINDOW - 1, deriv=1, delta=self.dt, mode="interp")
        return np.interp(t, grid, dy)


def load_target(text: str) -> Functional:
    """A functional from a TARGET string: ``exp:A``, ``poly:P``, ``expsum:C…;R…``, a ``.npz`` RNN
    (W, U, c, optional b, activation, parameterisation), or ``module:function``.

    ``module:function`` may name a :class:`Functional`, a :class:`~recmem.numerics.kernels.Kernel`,
    an :class:`~recmem.numerics.rnn.RNN`, or a callable ``f(t, x) -> y`` (see
    :class:`CallableFunctional`; attributes ``input_dim`` and ``dt`` are read when present).
    ValueError with a one-line reason when the target cannot be used.
    """
    kind = text.partition(":")[0]
    if kind in ("exp", "poly", "expsum"):
        return LinearFunctional(parse_kernel(text))
    if text.endswith(".npz"):
        if not Path(text).is_file():
            raise ValueError(f"no such file: {text}")
        return RNNFunctional(RNN.load(text))
    module, sep, attr = text.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"unknown target {text!r}: expected exp:A, poly:P, expsum:C…;R…, "
                         "a .npz file or module:function")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except ImportError as exc:
        raise ValueError(f"cannot import module {module!r}: {exc}") from None
    except AttributeError:
        raise ValueError(f"module {module!r} has no attribute {attr!r}") from None
    return as_functional(obj, text)


def as_functional(obj: Any, name: str) -> Functional:
    """Wrap a Functional, Kernel, RNN or callable ``f(t, x) -> y`` as a :class:`Functional`."""
    if isinstance(obj, Functional):
        return obj
    if isinstance(obj, Kernel):
        return LinearFunctional(obj)
    if isinstance(obj, RNN):
        return RNNFunctional(obj)
    if callable(obj):
        return CallableFunctional(obj, name, int(getattr(obj, "input_dim", 1)),
                                  float(getattr(obj, "dt", 1e-2)))
    raise ValueError(f"{name} is a {type(obj).__name__}, not a functional, kernel, RNN or callable")
