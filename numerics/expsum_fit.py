"""Least-squares approximation of a memory kernel by exponential sums (paper W App. D, Fig. 1).

App. D (ICLR camera-ready; targets 0.9^t, eq. (118), and (t+1)^{−1.1}) reduces the approximation
of a linear functional by a width-m linear RNN to "the polynomial approximation of function
ρ(−ln t) over interval (0,1]", solved "via linear regression" on the evaluation grid
t ∈ {1, …, 100}. Read with s = e^{−t}: fitting ρ(t) ≈ ρ̂_m(t) = Σ_{k=1}^m a_k e^{−r_k t} with the
rates fixed at r_k = k (W = diag(−1, …, −m)). The degree, the constant term (left out here: it
would be a non-decaying unit) and how m maps to the degree are not printed — a choice. The
width-m linear RNN is then W = −diag(r), U = (1, …, 1)ᵀ, c = a (App. C's convention "element of
matrix U is 1").

The design matrix A[t, k] = e^{−k t} is a Vandermonde matrix in the geometric nodes s_t = e^{−t}
(times diag(s_t)): κ₂(A) grows like e^{m²/2} (measured on the App. D grid: 2.0e4 at m = 4,
1.3e9 at m = 6, 4.2e15 at m = 8, 7.4e23 at m = 10), so float64 stops resolving the fit near
m = 8 while the fitted coefficients grow without bound. Every arithmetic therefore solves the same
problem by the same algorithm (Householder QR), and ball arithmetic encloses the exact solution:

- :func:`fit_numpy` (LAPACK geqrf), :func:`fit_torch` (``torch.linalg.qr``), :func:`fit_mpmath`
  (``qr_solve``, Householder, at the context's precision);
- :func:`fit_flint`: an enclosure of the exact least-squares solution from the normal equations
  AᵀA a = Aᵀy (preconditioned ball solve; κ(AᵀA) = κ², so the precision is doubled until the balls
  are narrow);
- :func:`ls_kappa`: certified κ₂(A), and :func:`ls_condition`, the least-squares condition number
  of the coefficients (Wedin): κ_LS = κ + κ²‖r‖/(‖A‖‖a‖).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.numerics.kernels import Kernel

APP_D_GRID: tuple[int, ...] = tuple(range(1, 101))
# grid times: a sequence of numbers or a float64 array (fit_mpmath takes exact Fractions too)
Times = Sequence[float] | np.ndarray


def app_d_rates(m: int) -> tuple[int, ...]:
    """The fixed rates r_k = k, k = 1…m, of App. D (W = diag(−1, …, −m))."""
    if m < 1:
        raise ValueError(f"width m must be ≥ 1, got {m}")
    return tuple(range(1, m + 1))


def design_numpy(t: Times, rates: Sequence[float]) -> np.ndarray:
    """A[t, k] = e^{−r_k t} in float64 (len(t) × m)."""
    return np.exp(-np.outer(np.asarray(t, dtype=float), np.asarray(rates, dtype=float)))


def _check(t: Times | Sequence[Any], rates: Sequence[float]) -> None:
    if len(rates) > len(t):
        raise ValueError(f"{len(rates)} rates but only {len(t)} grid points: the fit is underdetermined")


def fit_numpy(kernel: Kernel, t: Times, rates: Sequence[float]) -> np.ndarray:
    """Least-squares coefficients a (float64) by Householder QR (App. D's linear regression).

    QR rather than ``np.linalg.lstsq``: its default cut-off (rcond = ε·max(M, N)) truncates the SVD
    from m ≈ 8 on, which would be a regularised fit, not a rounded exact one.
    """
    import scipy.linalg

    _check(t, rates)
    a = design_numpy(t, rates)
    y = kernel.rho(np.asarray(t, dtype=float))[:, 0]
    q, r = scipy.linalg.qr(a, mode="economic")
    return np.asarray(scipy.linalg.solve_triangular(r, q.T @ y))


def fit_torch(kernel: Kernel, t: Times, rates: Sequence[float], device: str = "cpu") -> Any:
    """Least-squares coefficients (float64 tensor on ``device``) by Householder QR in torch."""
    import torch

    _check(t, rates)
    tt = torch.tensor(np.asarray(t, dtype=float), dtype=torch.float64, device=device)
    rr = torch.tensor(np.asarray(rates, dtype=float), dtype=torch.float64, device=device)
    a = torch.exp(-torch.outer(tt, rr))
    y = torch.tensor(kernel.rho(np.asarray(t, dtype=float))[:, 0], dtype=torch.float64, device=device)
    q, r = torch.linalg.qr(a, mode="reduced")
    return torch.linalg.solve_triangular(r, (q.T @ y).unsqueeze(1), upper=True).squeeze(1)


def fit_mpmath(kernel: Kernel, t: Sequence[Any], rates: Sequence[int], ctx: Any) -> list[Any]:
    """Least-squares coefficients at the precision of the mpmath context ``ctx`` (Householder QR).

    Grid times (ints, floats or Fractions) and rates are taken exactly; ρ(t) is evaluated at
    ``ctx``'s precision, so the problem is the exact one up to 2^-prec.
    """
    _check(t, rates)
    tq = [ctx.mpf(Fraction(tk).numerator) / Fraction(tk).denominator for tk in t]
    a = ctx.matrix([[ctx.exp(-ctx.mpf(r) * tk) for r in rates] for tk in tq])
    y = ctx.matrix([kernel.rho_mp(tk, ctx)[0] for tk in tq])
    x, _ = ctx.qr_solve(a, y)
    return [x[i] for i in range(len(rates))]


def _flint_problem(kernel: Kernel, t: Times, rates: Sequence[int], bits: int) -> tuple[Any, Any]:
    """(A, y) as arb balls at ``bits`` (inside a workprec of at least ``bits``)."""
    import flint

    rows, ys = [], []
    for tk in t:
        tq = flint.arb(flint.fmpq(*float(tk).as_integer_ratio()))
        rows.append([(-flint.arb(r) * tq).exp() for r in rates])
        ys.append(rho_arb(kernel, tq))
    return flint.arb_mat(rows), flint.arb_mat([[v] for v in ys])


def rho_arb(kernel: Kernel, t: Any) -> Any:
    """ρ(t) as an arb ball (at the current flint precision) for the closed-form kernels: exp, poly,
    expsum. ValueError for kernels without a closed form (no certified value exists)."""
    import flint

    from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel, PolynomialKernel

    w = kernel.weights[0]
    wq = flint.arb(flint.fmpq(w.numerator, w.denominator))
    if isinstance(kernel, ExponentialKernel):
        a = flint.arb(flint.fmpq(kernel.base.numerator, kernel.base.denominator))
        return wq * (a.log() * t).exp()
    if isinstance(kernel, PolynomialKernel):
        p = flint.arb(flint.fmpq(kernel.exponent.numerator, kernel.exponent.denominator))
        return wq * (-p * (t + 1).log()).exp()
    if isinstance(kernel, ExpSumKernel):
        out = flint.arb(0)
        for c, r in zip(kernel.coeffs, kernel.rates, strict=True):
            out += flint.arb(flint.fmpq(c.numerator, c.denominator)) * (
                -flint.arb(flint.fmpq(r.numerator, r.denominator)) * t).exp()
        return wq * out
    raise ValueError(f"{kernel.description} has no closed form: no certified enclosure")


def fit_flint(kernel: Kernel, t: Times, rates: Sequence[int], bits: int,
              max_bits: int | None = None) -> tuple[list[Any], int]:
    """Enclosures of the exact least-squares coefficients and the bits used.

    Solves the normal equations AᵀA a = Aᵀy in ball arithmetic (preconditioned solve): the balls
    contain the exact solution of the exact problem (ρ in closed form). κ(AᵀA) = κ₂(A)², so the
    precision doubles (up to ``max_bits``, default 8·bits) until every radius is below 2^-(bits/4)
    relative. ValueError if the solve cannot certify at ``max_bits``.
    """
    import flint

    _check(t, rates)
    cap = max_bits or 8 * bits
    b = bits
    while True:
        with flint.ctx.workprec(b):
            a, y = _flint_problem(kernel, t, rates, b)
            at = a.transpose()
            try:
                x = (at * a).solve(at * y, algorithm="precond")
                coeffs = [x[i, 0] for i in range(len(rates))]
                narrow = all(c.rad() <= abs(c.mid()) * flint.arb(2) ** (-(bits // 4))
                             or c.rad() < flint.arb(2) ** (-bits) for c in coeffs)
            except ZeroDivisionError:
                coeffs, narrow = [], False
        if narrow:
            return coeffs, b
        if 2 * b > cap:
            raise ValueError(f"the normal equations of the width-{len(rates)} fit could not be "
                             f"certified at {b} bits")
        b *= 2


def ls_kappa(t: Times, rates: Sequence[int]) -> Any:
    """Certified κ₂(A) of the design matrix (a :class:`~recmem.numerics.certified.KappaBracket`)."""
    import flint

    from recmem.numerics.certified import kappa2

    def build(bits: int) -> Any:
        with flint.ctx.workprec(bits):
            return flint.acb_mat([[(-flint.arb(r) * flint.arb(flint.fmpq(*float(tk).as_integer_ratio())))
                                   .exp() for r in rates] for tk in t])

    return kappa2(build)


def ls_condition(kappa: mpmath.mpf, norm_a: mpmath.mpf, norm_x: mpmath.mpf,
                 norm_r: mpmath.mpf) -> mpmath.mpf:
    """Wedin's condition number of least-squares coefficients: κ + κ²‖r‖/(‖A‖‖x‖).

    The relative error of backward-stable LS coefficients is ≲ c·n·κ_LS·u (Higham, ASNA §20.1).
    """
    if norm_x == 0:
        return kappa
    return kappa + kappa * kappa * norm_r / (norm_a * norm_x)


def residual_sup_numpy(kernel: Kernel, t: Times, rates: Sequence[float],
                       coeffs: np.ndarray) -> float:
    """sup over the grid of |ρ(t) − ρ̂(t)| in float64."""
    tt = np.asarray(t, dtype=float)
    return float(np.max(np.abs(kernel.rho(tt)[:, 0] - design_numpy(tt, rates) @ coeffs)))
