"""Test inputs of paper W's memory functions: Heaviside (Def. 3.1), impulse (App. F), reversed (App. G).

Domain of every constructor: x a nonempty finite real vector (complex, NaN, inf and d = 0 raise
ValueError, see :class:`Step`).

Every one is a *step* x·1_[a,b)(t): a constant vector on an interval and zero elsewhere, so that
integrators can stop exactly at its two breakpoints instead of stepping over a discontinuity.

Equation numbers are those of the ICLR 2024 camera-ready (https://openreview.net/forum?id=yC2waD70Vj).
Printed inputs: u^x_t = x·1_[0,∞)(t) (§3.1, before eq. (4)); i^x_t = x at t = 0, 0 for t ≠ 0 (App. F,
before eq. (119)), here in its Dirac reading (the unit-mass pulse, :func:`impulse`); r^x_t = x for
t < 0, 0 for t ≥ 0, read at time t (App. G, before eq. (126): :func:`reversed_step`).
:func:`reversed_input` is recmem's earlier reconstruction of App. G (x on [−t, 0), read at time 0),
which by time-homogeneity and causality is the Heaviside input seen from its end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Step:
    """The input u_t = x for a ≤ t < b, 0 otherwise (a = −∞: the input has been on forever, as in
    App. G's reversed input; the RNN integrators need a finite a, the linear functional does not)."""

    x: tuple[float, ...]
    start: float = 0.0
    stop: float = math.inf

    def __post_init__(self) -> None:
        """Domain: x a nonempty finite real vector (d ≥ 1), start < stop, start < +∞, stop > −∞
        (start = −∞ and stop = +∞ allowed); ValueError otherwise."""
        from recmem.numerics.validate import DomainError, real_vector

        real_vector(self.x, "the step's value x", min_size=1)
        if math.isnan(self.start) or math.isnan(self.stop) or not self.start < self.stop:
            raise DomainError(f"a step needs start < stop, got [{self.start}, {self.stop})")
        if self.start == math.inf or self.stop == -math.inf:
            raise DomainError(f"a step needs start < ∞ and stop > −∞, got [{self.start}, {self.stop})")

    @property
    def dim(self) -> int:
        return len(self.x)

    @property
    def vector(self) -> np.ndarray:
        return np.array(self.x, dtype=float)

    def value(self, t: float) -> np.ndarray:
        """u_t."""
        return self.vector if self.start <= t < self.stop else np.zeros(self.dim)

    def breakpoints(self, t_end: float) -> list[float]:
        """The times in [start, t_end] at which the integrator must restart, with start first."""
        pts = [self.start]
        if self.stop < t_end:
            pts.append(self.stop)
        return pts

    def sampled(self, t: np.ndarray) -> np.ndarray:
        """u on a grid, shape (len(t), d). Domain: real times (NaN refused)."""
        from recmem.numerics.validate import real_vector

        t = real_vector(t, "t", allow_inf=True)
        on = (t >= self.start) & (t < self.stop)
        return np.outer(on.astype(float), self.vector)


def _real_tuple(x: np.ndarray | tuple[float, ...]) -> tuple[float, ...]:
    """x as a tuple of floats after the domain check (complex, NaN/inf, empty: ValueError)."""
    from recmem.numerics.validate import real_vector

    return tuple(float(v) for v in real_vector(x, "the input value x", min_size=1))


def heaviside(x: np.ndarray | tuple[float, ...]) -> Step:
    """u^x_t = x·1_[0,∞)(t) (W Def. 3.1)."""
    return Step(_real_tuple(x))


def impulse(x: np.ndarray | tuple[float, ...], width: float) -> Step:
    """(x/δ)·1_[0,δ)(t): a unit-mass pulse of width δ, whose limit δ → 0 is the Dirac reading x·δ₀
    of W App. F's impulse i^x (the literal reading, x at the single instant 0, has a zero integral).

    For a linear functional H_t(pulse) = xᵀ (1/δ)∫_{t−δ}^{t} ρ → xᵀρ(t) (W App. F, eq. (120)).
    """
    if not (math.isfinite(width) and width > 0):
        raise ValueError(f"impulse width must be positive and finite, got {width}")
    return Step(tuple(v / width for v in _real_tuple(x)), 0.0, float(width))


def reversed_input(x: np.ndarray | tuple[float, ...], t: float) -> Step:
    """x·1_[−t,0)(s), read at time 0: recmem's earlier reconstruction of W App. G's input (one input
    sequence per t, after App. G's remark that "the outputs of different input sequences (x,0,…),
    (x,x,0,…,0), … need to be evaluated").

    By time-homogeneity and causality H_0(x·1_[−t,0)) = H_t(u^x): this is the Heaviside query, not
    the printed reversed input (:func:`reversed_step`). Kept for ``memory_function(inputs='reversed')``.
    Domain: x finite real, d ≥ 1; 0 < t < ∞ (ValueError otherwise).
    """
    if not (math.isfinite(t) and t > 0):
        raise ValueError(f"reversed_input needs 0 < t < ∞, got {t}")
    return Step(_real_tuple(x), -float(t), 0.0)


def reversed_step(x: np.ndarray | tuple[float, ...]) -> Step:
    """r^x_t = x for t < 0, 0 for t ≥ 0: W App. G's reversed input as printed (before eq. (126)),
    read at time t (a single input for every t)."""
    return Step(_real_tuple(x), -math.inf, 0.0)
