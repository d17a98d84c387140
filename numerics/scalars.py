"""Scalars of one float or multiple-precision arithmetic with its elementary functions, for
checks whose sides evaluate closed forms (paper O's cited theorems, App. A, Theorems 3–5; paper
L's App. E): numpy or torch in the backend's dtype (float64 or float32), or mpmath at the
backend's precision (flint has no side there)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from recmem.numerics.backend import AbstractBackend


class Scalars:
    """Exact rationals converted into one arithmetic, and its elementary functions."""

    def __init__(self, backend: AbstractBackend) -> None:
        self.backend = backend
        self.kind = backend.spec.kind
        self.mp = mpmath.MPContext()
        self.mp.prec = backend.precision_bits
        if self.kind == "numpy":
            import numpy as np

            self.np, self.dt = np, np.dtype(backend.spec.dtype)
        elif self.kind == "torch":
            import torch

            self.torch = torch
            self.tdt = torch.float32 if backend.spec.dtype == "float32" else torch.float64
            self.dev = backend.spec.device or "cpu"

    def num(self, v: Fraction | int | float) -> Any:
        """The rational v, rounded once (numerator and denominator are exact in each format)."""
        v = Fraction(v)
        if self.kind == "mpmath":
            return self.mp.mpf(v.numerator) / v.denominator
        if self.kind == "numpy":
            return self.dt.type(v.numerator) / self.dt.type(v.denominator)
        return (self.torch.tensor(float(v.numerator), dtype=self.tdt, device=self.dev)
                / float(v.denominator))

    def fn(self, name: str, x: Any) -> Any:
        """The library's elementary function ``name`` (exp, log, tanh, …) at x."""
        lib = self.mp if self.kind == "mpmath" else (self.np if self.kind == "numpy" else self.torch)
        return getattr(lib, name)(x)

    def exp(self, x: Any) -> Any:
        return self.fn("exp", x)
