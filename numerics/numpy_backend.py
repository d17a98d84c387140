"""numpy/LAPACK in complex128 (or complex64 for ``numpy:float32``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi


def _to_float(q: Fraction) -> float:
    return q.numerator / q.denominator  # correctly rounded int/int division


def vander(lam: Any, cols: int, dtype: Any = np.complex128) -> np.ndarray:
    """recmem's one float Vandermonde builder: O's V_L (eq. 4) of the nodes ``lam``, row i =
    λ_i^(L−1), …, λ_i, 1 (decreasing powers), in ``dtype`` (complex128 by default; the numpy
    backend's complex64 stays complex64, where ``np.vander`` promotes it to complex128).

    Each power is the previous one times λ_i, one rounded multiplication
    (``np.multiply.accumulate``, bit for bit ``np.vander``'s products): the error model that
    ``numerics.vandermonde_enclosure`` bounds. Powers beyond the float range are inf or nan, with
    no warning (callers check ``np.isfinite``)."""
    x = np.asarray(lam, dtype=dtype).reshape(-1)
    steps = np.empty((x.shape[0], cols), dtype=x.dtype)
    if cols:
        steps[:, 0] = 1
        steps[:, 1:] = x[:, None]
    with np.errstate(over="ignore", invalid="ignore"):
        powers = np.multiply.accumulate(steps, axis=1)
    return powers[:, ::-1].copy()


@dataclass
class NumpyBackend(AbstractBackend):
    """Fixed-precision float arithmetic through numpy."""

    def __post_init__(self) -> None:
        self.cdtype = np.complex64 if self.spec.dtype == "float32" else np.complex128
        self.rdtype = np.float32 if self.spec.dtype == "float32" else np.float64

    @property
    def precision_bits(self) -> int:
        return int(np.finfo(self.rdtype).nmant) + 1

    def vector(self, values: Sequence[QQi]) -> np.ndarray:
        values = self._check_values(values, "vector")
        return np.array([complex(_to_float(v.re), _to_float(v.im)) for v in values], self.cdtype)

    def matrix(self, rows: Sequence[Sequence[QQi]]) -> np.ndarray:
        rows = self._check_rows(rows, "matrix")
        return np.array(
            [[complex(_to_float(v.re), _to_float(v.im)) for v in row] for row in rows], self.cdtype
        )

    def cis_turns(self, turns: Sequence[Fraction]) -> np.ndarray:
        t = np.array([_to_float(2 * x) for x in turns], np.float64)
        # cos(πt) via sinpi-free numpy: reduce t mod 2 first so large turns stay accurate.
        t = np.mod(t, 2.0)
        return (np.cos(np.pi * t) + 1j * np.sin(np.pi * t)).astype(self.cdtype)

    def to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        a = np.asarray(x, np.complex128)
        if a.ndim == 1:
            a = a[:, None]
        return ctx.matrix([[ctx.mpc(complex(v)) for v in row] for row in a])

    def scalar_to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
        return ctx.mpc(complex(x))

    def shape(self, a: Any) -> tuple[int, int]:
        a = np.asarray(a)
        return (a.shape[0], a.shape[1] if a.ndim > 1 else 1)

    def entries(self, v: Any) -> list[Any]:
        return list(np.asarray(v).reshape(-1))

    def vector_of(self, scalars: Sequence[Any]) -> np.ndarray:
        return np.array(list(scalars), dtype=self.cdtype)

    def matrix_of_scalar(self, x: Any) -> np.ndarray:
        return np.array([[x]], self.cdtype)

    def transpose(self, a: Any) -> np.ndarray:
        return np.asarray(a).T

    def hadamard(self, a: Any, b: Any) -> np.ndarray:
        return np.asarray(a) * np.asarray(b)

    def row_sums(self, a: Any) -> np.ndarray:
        return np.asarray(a).sum(axis=1, keepdims=True)

    def columns(self, a: Any, start: int, stop: int) -> np.ndarray:
        return np.asarray(a)[:, start:stop]

    def log(self, x: Any) -> Any:
        return np.log(self.cdtype(x))

    def exp(self, x: Any) -> Any:
        return np.exp(self.cdtype(x))

    def vandermonde(self, nodes: Any, k: int) -> np.ndarray:
        self._check_k(nodes, k, "vandermonde")
        return vander(nodes, k, self.cdtype)  # decreasing powers, in the backend's own precision

    def recurrence(self, nodes: Any, drive: Any) -> np.ndarray:
        drive = np.asarray(drive, self.cdtype)
        out = np.empty_like(drive)
        x = np.zeros(drive.shape[0], self.cdtype)
        for k in range(drive.shape[1]):
            x = nodes * x + drive[:, k]
            out[:, k] = x
        return out

    def matmul(self, a: Any, b: Any) -> np.ndarray:
        return np.asarray(a) @ np.asarray(b)

    def det(self, a: Any) -> Any:
        self._check_matrix(a, "det", square=True)
        return np.linalg.det(a)

    def svdvals(self, a: Any) -> list[mpmath.mpf]:
        self._check_matrix(a, "svdvals")
        return [mpmath.mpf(float(v)) for v in np.linalg.svd(a, compute_uv=False)]

    def pinv_apply(self, a: Any, b: Any) -> np.ndarray:
        self._check_matrix(a, "pinv_apply")
        return np.linalg.pinv(a) @ b
