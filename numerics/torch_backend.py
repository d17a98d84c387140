"""torch on CPU or CUDA, complex128 by default. torch is imported only when this backend is built."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.exact import QQi


@dataclass
class TorchBackend(AbstractBackend):
    """Fixed-precision float arithmetic through torch.linalg."""

    def __post_init__(self) -> None:
        try:
            import torch
        except ImportError as exc:  # pragma: no cover
            raise BackendUnavailable("torch is not installed") from exc
        # Probe CUDA for real instead of trusting configuration.
        if self.spec.device == "cuda" and not torch.cuda.is_available():
            raise BackendUnavailable("CUDA is not available (torch.cuda.is_available() is False)")
        self.torch = torch
        self.device = torch.device(self.spec.device or "cpu")
        self.cdtype = torch.complex64 if self.spec.dtype == "float32" else torch.complex128
        self.rdtype = torch.float32 if self.spec.dtype == "float32" else torch.float64

    @property
    def precision_bits(self) -> int:
        return 24 if self.spec.dtype == "float32" else 53

    def _t(self, a: Any) -> Any:
        return self.torch.as_tensor(np.asarray(a), dtype=self.cdtype, device=self.device)

    def vector(self, values: Sequence[QQi]) -> Any:
        values = self._check_values(values, "vector")
        return self._t([complex(v.re.numerator / v.re.denominator,
                                v.im.numerator / v.im.denominator) for v in values])

    def matrix(self, rows: Sequence[Sequence[QQi]]) -> Any:
        rows = self._check_rows(rows, "matrix")
        return self._t([[complex(v.re.numerator / v.re.denominator,
                                 v.im.numerator / v.im.denominator) for v in row] for row in rows])

    def cis_turns(self, turns: Sequence[Fraction]) -> Any:
        torch = self.torch
        t = torch.tensor([float(2 * x) % 2.0 for x in turns], dtype=torch.float64,
                         device=self.device)
        return torch.polar(torch.ones_like(t), torch.pi * t).to(self.cdtype)

    def _np(self, x: Any) -> np.ndarray:
        return x.detach().to("cpu").numpy()

    def to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.matrix:
        a = self._np(x).astype(np.complex128)
        if a.ndim == 1:
            a = a[:, None]
        return ctx.matrix([[ctx.mpc(complex(v)) for v in row] for row in a])

    def scalar_to_mp(self, x: Any, ctx: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
        return ctx.mpc(complex(x.item() if hasattr(x, "item") else x))

    def shape(self, a: Any) -> tuple[int, int]:
        return (a.shape[0], a.shape[1] if a.dim() > 1 else 1)

    def entries(self, v: Any) -> list[Any]:
        return list(v.reshape(-1))

    def vector_of(self, scalars: Sequence[Any]) -> Any:
        torch = self.torch
        return torch.stack([torch.as_tensor(x, device=self.device) for x in scalars]).to(self.cdtype)

    def matrix_of_scalar(self, x: Any) -> Any:
        return self.torch.as_tensor(x, dtype=self.cdtype, device=self.device).reshape(1, 1)

    def transpose(self, a: Any) -> Any:
        return a.T

    def hadamard(self, a: Any, b: Any) -> Any:
        return a * b

    def row_sums(self, a: Any) -> Any:
        return a.sum(dim=1, keepdim=True)

    def columns(self, a: Any, start: int, stop: int) -> Any:
        return a[:, start:stop]

    def log(self, x: Any) -> Any:
        return self.torch.log(self.torch.as_tensor(x, dtype=self.cdtype, device=self.device))

    def exp(self, x: Any) -> Any:
        return self.torch.exp(self.torch.as_tensor(x, dtype=self.cdtype, device=self.device))

    def vandermonde(self, nodes: Any, k: int) -> Any:
        self._check_k(nodes, k, "vandermonde")
        # Powers by cumulative product (torch.linalg.vander rejects k = 1), then flipped to O's
        # decreasing orientation; same operation count as repeated multiplication.
        torch = self.torch
        cols = [torch.ones_like(nodes).unsqueeze(1), nodes.unsqueeze(1).expand(-1, k - 1)]
        return torch.cat(cols, dim=1).cumprod(dim=1).flip(-1)

    def recurrence(self, nodes: Any, drive: Any) -> Any:
        drive = self._t(drive) if not self.torch.is_tensor(drive) else drive
        out = self.torch.empty_like(drive)
        x = self.torch.zeros(drive.shape[0], dtype=self.cdtype, device=self.device)
        for k in range(drive.shape[1]):
            x = nodes * x + drive[:, k]
            out[:, k] = x
        return out

    def matmul(self, a: Any, b: Any) -> Any:
        return a @ b

    def det(self, a: Any) -> Any:
        self._check_matrix(a, "det", square=True)
        return self.torch.linalg.det(a)

    def svdvals(self, a: Any) -> list[mpmath.mpf]:
        self._check_matrix(a, "svdvals")
        return [mpmath.mpf(float(v)) for v in self.torch.linalg.svdvals(a).cpu()]

    def pinv_apply(self, a: Any, b: Any) -> Any:
        self._check_matrix(a, "pinv_apply")
        return self.torch.linalg.pinv(a) @ b
