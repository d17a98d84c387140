"""Rigorous bounds from float64 arithmetic: matrices known as a float matrix plus an entrywise error.

A complex matrix A is held as a :class:`FloatEnclosure`: a float64 matrix Ã, an entrywise bound
E ≥ 0 (float64) and a power of two, with

    |A/2^e − Ã| ≤ E  (entrywise, |·| the complex modulus).

Norms of A and its largest singular value are then bracketed using only float64 BLAS work and a
priori rounding-error bounds; every bracket end is an exact :class:`fractions.Fraction`, and the
scalar work after the float stage is exact (square roots rounded outwards at 96 bits).

Rounding model (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §2.2, §3.1,
§3.6), with u = 2⁻⁵³ (round to nearest) and η = 2⁻¹⁰⁷⁴ (the smallest subnormal):

- γ_k = k·u/(1 − k·u) (:func:`gamma`); a sum or product of k real floating-point operations on
  non-negative numbers is within a relative γ_k of the exact value when no underflow occurs
  (Lemma 3.1), in any order of evaluation, with or without fused multiply-adds.
- Complex matrix products (BLAS ``zgemm``, any summation order, FMA or not): the real part of an
  entry of AB is a sum of 2n real products, so its error is at most
  γ_{2n}·Σ_k(|a_k c_k| + |b_k d_k|) ≤ γ_{2n}·Σ_k|x_k||y_k| (Cauchy–Schwarz), and the same for the
  imaginary part; hence |fl(AB) − AB| ≤ √2·γ_{2n}·|A||B| + √2·2n·η entrywise (the η term covers
  products that underflow), and ‖fl(AB) − AB‖_F ≤ √2·γ_{2n}·‖A‖_F‖B‖_F + √2·2n·η·√(rows·cols),
  since ‖|A||B|‖_F ≤ ‖A‖_F‖B‖_F (:func:`matmul_error`).
- Frobenius norms (:func:`fro_bounds`): each |x|² = re² + im² carries a relative error ≤ γ_2 plus
  2η (underflow); each row of n squares is summed by numpy (relative ≤ γ_{n−1}, any order), and
  ``math.fsum`` of the row sums is correctly rounded (relative u). The sum is then bounded exactly
  with the factor (1 ± 2γ_{n+4}) and the square root taken with outward rounding.
- Row and column sums of moduli (:func:`abs_sum_bounds`): |x| by ``hypot`` is faithful (relative
  error ≤ 2u); n such terms and n − 1 additions of non-negative numbers give relative error
  ≤ γ_{2n+2}; bounds use the factors (1 ± 2γ_{2n+3}) and an absolute 4n·η for subnormals.
- Largest singular value (:func:`sigma_max_bounds`): repeated squaring X_{j+1} = 2^{s_j}·fl(X_jᴴX_j)
  of X_0 = Ã. Exactly, ‖X_j‖₂² = ‖X_jᴴX_j‖₂, and ‖X_jᴴX_j − Y_j‖₂ ≤ ‖·‖_F ≤ e_j for the computed
  Y_j = 2^{−s_j}X_{j+1} (the matmul bound above, plus √2·η per entry for the power-of-two scaling
  when it lands on subnormals, plus √2·2⁻⁵⁰⁰ per entry for flushing entries below 2⁻⁵⁰⁰ of the
  scaled X_{j+1} to zero: subnormal arithmetic would make the later squarings ~100× slower).
  So, by the triangle inequality,

      ‖X_j‖₂² ∈ [‖X_{j+1}‖₂·2^{−s_j} − e_j,  ‖X_{j+1}‖₂·2^{−s_j} + e_j],

  and at the end ‖X_m‖_F/√r ≤ ‖X_m‖₂ ≤ ‖X_m‖_F (r = the smaller dimension). Unwinding the chain
  brackets σ_max(Ã) = ‖X_0‖₂; the ratio of the ends tends to r^{1/2^{m+2}} (plus the rounding terms,
  relative ≈ √2·γ_{2n}·r per step), so a few dozen squarings give any width down to ~1e-10.
  A Rayleigh quotient sharpens the lower end: for the column v of X_m of largest norm,
  σ_max(Ã) ≥ ‖Ãv‖/‖v‖, with ‖Ãv‖ ≥ ‖fl(Ãv)‖ − (√2·γ_{2n}‖Ã‖_F‖v‖ + √2·2n·η·√rows).
  Finally σ_max(A/2^e) ∈ [σ_max(Ã) − ‖E‖_F, σ_max(Ã) + ‖E‖_F] (Weyl's inequality; ‖E‖₂ ≤ ‖E‖_F).

σ_max is perfectly conditioned (Weyl), so a float64 matrix that is a certified, correctly scaled
rounding of A determines σ_max(A) to about ‖E‖_F/σ_max relative, however ill-conditioned A is.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

U = Fraction(1, 2**53)  # unit roundoff of float64, round to nearest
ETA = Fraction(1, 2**1074)  # smallest positive subnormal float64
SQRT2_UP = Fraction(14142135623730951, 10**16)  # ≥ √2
SCALAR_BITS = 96
FLUSH = 2.0**-500  # entries of a squaring step below this (its max is ≈ 1) are flushed to 0
FLUSH_Q = Fraction(1, 2**500)  # precision of the outward-rounded square roots of the scalar stage

Interval = tuple[Fraction, Fraction]


class FloatRangeError(ValueError):
    """A float64 stage left the float range: no bound can be given from it."""


def gamma(k: int) -> Fraction:
    """γ_k = k·u/(1 − k·u) for float64 (Higham, §3.1); k·u < 1 is required."""
    if k * U >= 1:
        raise ValueError(f"γ_{k} is undefined for float64 (k·u ≥ 1)")
    return _gamma(operator.index(k))


@functools.lru_cache(maxsize=1024)
def _gamma(k: int) -> Fraction:
    # exact, and asked for with the same few k thousands of times per study: computed once each
    return k * U / (1 - k * U)


def sqrt_down(x: Fraction, bits: int = SCALAR_BITS) -> Fraction:
    """A rational ≤ √x within a relative 2^−bits (x ≥ 0), exact integer arithmetic."""
    if x <= 0:
        return Fraction(0)
    scale = 2 * bits + max(0, x.denominator.bit_length() - x.numerator.bit_length())
    return Fraction(math.isqrt((x.numerator << (2 * scale)) // x.denominator), 1 << scale)


def sqrt_up(x: Fraction, bits: int = SCALAR_BITS) -> Fraction:
    """A rational ≥ √x within a relative 2^−bits (x ≥ 0), exact integer arithmetic."""
    if x <= 0:
        return Fraction(0)
    scale = 2 * bits + max(0, x.denominator.bit_length() - x.numerator.bit_length())
    num = -((-(x.numerator << (2 * scale))) // x.denominator)  # ceil
    r = math.isqrt(num)
    return Fraction(r if r * r == num else r + 1, 1 << scale)


def fro_bounds(x: np.ndarray) -> Interval:
    """Exact rationals lo ≤ ‖x‖_F ≤ hi of a float64 (real or complex) array (module docstring)."""
    a = np.asarray(x)
    sq = (a.real * a.real + a.imag * a.imag) if np.iscomplexobj(a) else a * a
    if not np.all(np.isfinite(sq)):
        raise FloatRangeError("a float64 stage overflowed (entries beyond about 1e154)")
    sq2 = sq.reshape(sq.shape[0], -1) if sq.ndim > 1 else sq.reshape(1, -1)
    # numpy row sums (n terms, relative ≤ γ_{n−1}, any order), then an exact-rounded fsum
    s = Fraction(math.fsum(np.sum(sq2, axis=1).tolist()))
    down, up, tiny = _fro_factors(int(sq2.shape[1]), int(a.size))
    return sqrt_down(max(s * down - tiny, Fraction(0))), sqrt_up(s * up + tiny)


@functools.lru_cache(maxsize=1024)
def _fro_factors(n: int, size: int) -> tuple[Fraction, Fraction, Fraction]:
    """(1 − 2γ_{n+4}, 1 + 2γ_{n+4}, 2·size·η) of :func:`fro_bounds` for rows of ``n`` squares and
    ``size`` entries: exact, and the same for every matrix of that shape (computed once)."""
    g = 2 * gamma(4 + n)
    return 1 - g, 1 + g, 2 * size * ETA


def abs_sum_bounds(x: np.ndarray, err: np.ndarray | None, axis: int) -> Interval:
    """Bounds of max over lines of Σ|a| along ``axis`` for A/2^e ∈ x ± err (entrywise):
    axis=1 gives ‖·‖_∞ (row sums), axis=0 gives ‖·‖₁ (column sums). Module docstring."""
    a = np.abs(np.asarray(x))
    n = a.shape[axis]
    e = np.zeros_like(a) if err is None else np.asarray(err, dtype=float)
    hi_sums = np.sum(a + e, axis=axis)
    lo_sums = np.sum(a, axis=axis)
    e_sums = np.sum(e, axis=axis)
    if not np.all(np.isfinite(hi_sums)):
        raise FloatRangeError("a float64 row or column sum overflowed")
    g = 2 * gamma(2 * n + 4)
    tiny = 4 * n * ETA
    hi = Fraction(float(hi_sums.max())) * (1 + g) + tiny
    lo_line = lo_sums * 1.0  # the line where the lower bound is largest is picked exactly below
    k = int(np.argmax(lo_line - e_sums))
    lo = Fraction(float(lo_sums[k])) * (1 - g) - Fraction(float(e_sums[k])) * (1 + g) - tiny
    return max(lo, Fraction(0)), hi


def matmul_error(a: np.ndarray, b: np.ndarray, *, a_fro: Fraction | None = None,
                 b_fro: Fraction | None = None) -> Fraction:
    """An upper bound of ‖fl(a@b) − a@b‖_F for float64 a, b (module docstring); ``a_fro`` and
    ``b_fro`` are upper bounds of ‖a‖_F, ‖b‖_F when already known."""
    n = a.shape[1]
    a_hi = fro_bounds(a)[1] if a_fro is None else a_fro
    b_hi = fro_bounds(b)[1] if b_fro is None else b_fro
    rows, cols = a.shape[0], b.shape[1]
    return (SQRT2_UP * gamma(2 * n) * a_hi * b_hi
            + SQRT2_UP * 2 * n * ETA * sqrt_up(Fraction(rows * cols)))


@dataclass(frozen=True)
class FloatEnclosure:
    """A complex matrix A enclosed as |A/2^exp2 − mid| ≤ err entrywise (err None: zero).

    ``mid`` is float64/complex128, ``err`` float64 with entries that are upper bounds, ``exp2``
    an exact power-of-two scale (kept out of the floats so that no entry overflows).
    """

    mid: np.ndarray
    err: np.ndarray | None
    exp2: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.mid.shape[0]), int(self.mid.shape[1]))

    def err_fro(self) -> Fraction:
        """An upper bound of ‖E‖_F (≥ ‖E‖₂)."""
        return Fraction(0) if self.err is None else fro_bounds(self.err)[1]

    def _scaled(self, iv: Interval) -> Interval:
        s = Fraction(2) ** self.exp2
        return iv[0] * s, iv[1] * s

    def norm_bounds(self, norm: str, *, target: float = 1e-6) -> Interval:
        """lo ≤ ‖A‖ ≤ hi for ``norm`` in "fro", "1", "inf", "2" (σ_max; ``target`` is the relative
        width to aim for). Module docstring for every rounding term."""
        if norm == "fro":
            lo, hi = fro_bounds(self.mid)
            e = self.err_fro()
            return self._scaled((max(lo - e, Fraction(0)), hi + e))
        if norm in ("1", "inf"):
            return self._scaled(abs_sum_bounds(self.mid, self.err, 0 if norm == "1" else 1))
        if norm == "2":
            lo, hi = sigma_max_bounds(self.mid, target=target)
            e = self.err_fro()
            return self._scaled((max(lo - e, Fraction(0)), hi + e))
        raise ValueError(f"unknown norm {norm!r}; expected one of 2, 1, inf, fro")


def _pow2_scale(x: np.ndarray) -> int:
    """s with max|2^s·x| in [1/2, 1) (0 for a zero matrix)."""
    m = float(np.max(np.abs(x))) if x.size else 0.0
    if m == 0.0 or not math.isfinite(m):
        return 0
    return -math.frexp(m)[1]


def sigma_max_bounds(x: np.ndarray, *, target: float = 1e-6, max_squarings: int = 48) -> Interval:
    """lo ≤ σ_max(x) ≤ hi for a float64 (real or complex) matrix x, by repeated squaring of the
    Gram matrix with rigorous float error bounds and a Rayleigh quotient (module docstring).

    Squarings stop once the relative width (hi − lo)/lo ≤ ``target`` or after ``max_squarings``.
    """
    x0 = np.asarray(x, dtype=complex)
    if x0.size == 0:
        raise ValueError("sigma_max_bounds needs a nonempty matrix")
    s0 = _pow2_scale(x0)
    x0 = np.ldexp(x0.real, s0) + 1j * np.ldexp(x0.imag, s0)  # exact power-of-two scaling
    if not np.any(x0):
        return Fraction(0), Fraction(0)
    r = min(x0.shape)
    x0_hi = fro_bounds(x0)[1]
    steps: list[tuple[int, Fraction]] = []  # (s_j, e_j)
    xj, xj_hi = x0, x0_hi
    best: Interval = (Fraction(0), Fraction(0))
    for _ in range(max_squarings):
        xh = xj.conj().T
        y = xh @ xj
        e = matmul_error(xh, xj, a_fro=xj_hi, b_fro=xj_hi)
        s = _pow2_scale(y)
        xn = np.ldexp(y.real, s) + 1j * np.ldexp(y.imag, s)
        # entries pushed into the subnormal range by the scaling lose ≤ η per component; entries
        # below FLUSH (max ≈ 1) are set to 0 — subnormal BLAS arithmetic is ~100× slower — which
        # moves X_{j+1} by ≤ √2·FLUSH per entry
        tiny = np.abs(xn) < FLUSH
        if np.any(tiny):
            xn[tiny] = 0
        e += _flush_term(int(xn.size)) * Fraction(2) ** (-s)
        steps.append((s, e))
        xj = xn
        xm_lo, xj_hi = fro_bounds(xj)
        best = _unwind((xm_lo, xj_hi), steps, r)
        lo = max(best[0], _rayleigh_lower(x0, x0_hi, xj))
        best = (lo, best[1])
        if lo > 0 and (best[1] - lo) / lo <= Fraction(target):
            break
    scale = Fraction(2) ** (-s0)
    return best[0] * scale, best[1] * scale


@functools.lru_cache(maxsize=256)
def _flush_term(size: int) -> Fraction:
    """√2·(η + 2^-500)·√size (upper end): the scaling and flushing term of one squaring step, the
    same for every step of a matrix of ``size`` entries (computed once per size)."""
    return SQRT2_UP * (ETA + FLUSH_Q) * sqrt_up(Fraction(size))


def _unwind(xm_fro: Interval, steps: list[tuple[int, Fraction]], r: int) -> Interval:
    """σ_max(X_0) bracket from bounds of ‖X_m‖_F and the chain (s_j, e_j) (module docstring)."""
    f_lo, f_hi = xm_fro
    lo = f_lo / sqrt_up(Fraction(r))
    hi = f_hi
    for s, e in reversed(steps):
        back = Fraction(2) ** (-s)
        hi = sqrt_up(hi * back + e)
        lo = sqrt_down(max(lo * back - e, Fraction(0)))
    return lo, hi


def _rayleigh_lower(x0: np.ndarray, x0_hi: Fraction, xm: np.ndarray) -> Fraction:
    """σ_max(x0) ≥ ‖x0 v‖/‖v‖ for the column v of X_m of largest norm, with rounding bounds."""
    norms = np.sum(np.abs(xm) ** 2, axis=0)
    v = xm[:, int(np.argmax(norms))]
    if not np.any(v):
        return Fraction(0)
    s = _pow2_scale(v)
    v = np.ldexp(v.real, s) + 1j * np.ldexp(v.imag, s)
    w = x0 @ v
    n = x0.shape[1]
    w_lo = fro_bounds(w[:, None])[0]
    v_lo, v_hi = fro_bounds(v[:, None])
    err = SQRT2_UP * gamma(2 * n) * x0_hi * v_hi + _rayleigh_tiny(n, int(x0.shape[0]))
    num = w_lo - err
    return num / v_hi if num > 0 and v_lo > 0 else Fraction(0)


@functools.lru_cache(maxsize=1024)
def _rayleigh_tiny(n: int, rows: int) -> Fraction:
    """√2·2n·η·√rows (upper end), the underflow term of :func:`_rayleigh_lower` (exact; the same
    for every matrix of that shape)."""
    return SQRT2_UP * 2 * n * ETA * sqrt_up(Fraction(rows))


def as_enclosure(a: Any) -> FloatEnclosure:
    """An exact float64 matrix as an enclosure with zero error (its entries are the matrix)."""
    return FloatEnclosure(np.asarray(a), None, 0)
