"""Small dense linear algebra and scalar functions in one arithmetic, for paper L's checks of
§3.2–§3.4 (eigendecomposition of A, complex exponentials): numpy or torch in the backend's dtype,
mpmath at the backend's precision, python-flint balls (acb). Exact inputs (Fractions) are
converted inside each arithmetic, so every arithmetic sees the same problem (CLAIMS.md rule 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.numerics.backend import AbstractBackend, BackendUnavailable


def glorot_dyadic(n: int, seed: int, frac_bits: int = 20) -> list[list[Fraction]]:
    """An n×n real matrix with i.i.d. N(0, 1/n) entries (L §3.2.2, Glorot), each rounded to a
    dyadic rational with ``frac_bits`` fractional bits: exact in float32 (24-bit significand)
    for |a| < 16, so every arithmetic sees the same matrix (CLAIMS.md rule 4)."""
    rng = np.random.default_rng(seed)
    g = rng.standard_normal((n, n)) / np.sqrt(n)
    return [[Fraction(round(float(v) * 2**frac_bits), 2**frac_bits) for v in row] for row in g]


class Lin:
    """Matrices, eigendecomposition and scalar functions in the arithmetic of ``backend``."""

    cdt: Any  # the complex dtype (numpy or torch)

    def __init__(self, backend: AbstractBackend) -> None:
        self.backend = backend
        self.kind = backend.spec.kind
        if self.kind == "torch":
            import torch

            self.torch = torch
            self.cdt = torch.complex64 if backend.spec.dtype == "float32" else torch.complex128
            self.dev = backend.spec.device or "cpu"
        elif self.kind == "numpy":
            self.cdt = np.complex64 if backend.spec.dtype == "float32" else np.complex128
        elif self.kind == "mpmath":
            self.mp = mpmath.MPContext()
            self.mp.prec = backend.precision_bits
        elif self.kind == "flint":
            import flint

            self.flint = flint
        else:
            raise BackendUnavailable(f"{backend.name}: no dense linear algebra here")

    # ---- conversion ---------------------------------------------------------------------------
    def num(self, q: Fraction | int) -> Any:
        """An exact rational as a complex scalar of this arithmetic (rounded once)."""
        q = Fraction(q)
        if self.kind == "mpmath":
            return self.mp.mpc(self.mp.mpf(q.numerator) / q.denominator)
        if self.kind == "flint":
            return self.flint.acb(self.flint.arb(q.numerator) / q.denominator)
        if self.kind == "numpy":
            return self.cdt(np.float64(q.numerator) / np.float64(q.denominator))
        return self.torch.tensor(float(q.numerator) / float(q.denominator), dtype=self.cdt,
                                 device=self.dev)

    def mat(self, rows: Sequence[Sequence[Fraction | int]]) -> Any:
        """A complex matrix of exact rationals."""
        if self.kind == "numpy":
            return np.array([[self.num(q) for q in r] for r in rows], dtype=self.cdt)
        if self.kind == "torch":
            return self.torch.tensor([[complex(float(Fraction(q))) for q in r] for r in rows],
                                     dtype=self.cdt, device=self.dev)
        if self.kind == "mpmath":
            return self.mp.matrix([[self.num(q) for q in r] for r in rows])
        return self.flint.acb_mat([[self.num(q) for q in r] for r in rows])

    # ---- linear algebra ---------------------------------------------------------------------
    def eig(self, a: Any) -> tuple[list[Any], Any]:
        """Eigenvalues (a list) and right eigenvectors P (columns) of a, A = PΛP⁻¹."""
        if self.kind == "numpy":
            w, p = np.linalg.eig(a)
            return [self.cdt(v) for v in w], p.astype(self.cdt)
        if self.kind == "torch":
            w, p = self.torch.linalg.eig(a)
            return list(w), p
        if self.kind == "mpmath":
            w, p = self.mp.eig(a)
            return list(w), p
        w, p = a.eig(right=True)
        return list(w), p

    def inv(self, a: Any) -> Any:
        if self.kind == "numpy":
            return np.linalg.inv(a)
        if self.kind == "torch":
            return self.torch.linalg.inv(a)
        if self.kind == "mpmath":
            return self.mp.inverse(a)
        return a.inv()

    def mul(self, a: Any, b: Any) -> Any:
        return a @ b if self.kind in ("numpy", "torch") else a * b

    def column(self, a: Any, j: int = 0) -> list[Any]:
        """The entries of column j as a list of scalars."""
        n = a.shape[0] if self.kind in ("numpy", "torch") else (
            a.rows if self.kind == "mpmath" else a.nrows())
        return [a[i, j] for i in range(n)]

    def row(self, a: Any, i: int = 0) -> list[Any]:
        n = a.shape[1] if self.kind in ("numpy", "torch") else (
            a.cols if self.kind == "mpmath" else a.ncols())
        return [a[i, j] for j in range(n)]

    # ---- scalars ------------------------------------------------------------------------------
    def zero(self) -> Any:
        return self.num(0)

    def re(self, z: Any) -> Any:
        """The real part, as a complex scalar of this arithmetic (so it adds to the others)."""
        if self.kind == "numpy":
            return self.cdt(np.real(z))
        if self.kind == "torch":
            return self.torch.complex(z.real, self.torch.zeros_like(z.real))
        if self.kind == "mpmath":
            return self.mp.mpc(z.real)
        return self.flint.acb(z.real)

    def im(self, z: Any) -> Any:
        if self.kind == "numpy":
            return self.cdt(np.imag(z))
        if self.kind == "torch":
            return self.torch.complex(z.imag, self.torch.zeros_like(z.imag))
        if self.kind == "mpmath":
            return self.mp.mpc(z.imag)
        return self.flint.acb(z.imag)

    def exp(self, z: Any) -> Any:
        """The complex exponential."""
        if self.kind == "numpy":
            return np.exp(z)
        if self.kind == "torch":
            return self.torch.exp(z)
        if self.kind == "mpmath":
            return self.mp.exp(z)
        return z.exp()

    def log(self, z: Any) -> Any:
        """The principal complex logarithm."""
        if self.kind == "numpy":
            return np.log(z)
        if self.kind == "torch":
            return self.torch.log(z)
        if self.kind == "mpmath":
            return self.mp.log(z)
        return z.log()

    def pi(self) -> Any:
        """π in this arithmetic (as a complex scalar)."""
        if self.kind == "mpmath":
            return self.mp.mpc(self.mp.pi)
        if self.kind == "flint":
            return self.flint.acb(self.flint.arb.pi())
        if self.kind == "numpy":
            return self.cdt(np.pi)
        return self.torch.tensor(np.pi, dtype=self.cdt, device=self.dev)

    def sqrt(self, z: Any) -> Any:
        if self.kind == "numpy":
            return np.sqrt(z)
        if self.kind == "torch":
            return self.torch.sqrt(z)
        if self.kind == "mpmath":
            return self.mp.sqrt(z)
        return z.sqrt()

    def abs(self, z: Any) -> Any:
        """|z|, as a complex scalar of this arithmetic."""
        if self.kind == "numpy":
            return self.cdt(np.abs(z))
        if self.kind == "torch":
            return self.torch.abs(z).to(self.cdt)
        if self.kind == "mpmath":
            return self.mp.mpc(abs(z))
        return self.flint.acb(abs(z))

    def arg(self, z: Any) -> Any:
        """The principal argument arg z ∈ (−π, π], as a complex scalar of this arithmetic."""
        if self.kind == "numpy":
            return self.cdt(np.angle(z))
        if self.kind == "torch":
            return self.torch.angle(z).to(self.cdt)
        if self.kind == "mpmath":
            return self.mp.mpc(self.mp.arg(z))
        return self.flint.acb(z.arg())

    def i(self) -> Any:
        """The imaginary unit."""
        if self.kind == "numpy":
            return self.cdt(1j)
        if self.kind == "torch":
            return self.torch.tensor(1j, dtype=self.cdt, device=self.dev)
        if self.kind == "mpmath":
            return self.mp.mpc(0, 1)
        return self.flint.acb(0, 1)

    def to_mpc(self, z: Any, ctx: Any) -> Any:
        """A scalar as an mpmath complex (the midpoint of a ball), for reports and residuals."""
        if self.kind == "flint":
            return ctx.mpc(ctx.mpf(z.real.mid().str(50, radius=False)),
                           ctx.mpf(z.imag.mid().str(50, radius=False)))
        if self.kind == "torch":
            z = complex(z.item())
        return ctx.mpc(z)
