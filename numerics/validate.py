"""Shared domain checks of recmem's public numeric functions (issue 8, item 3).

Every public function of :mod:`recmem.numerics` states its domain in its docstring and either
answers correctly on an input or refuses it with a :class:`ValueError` naming the problem; it never
returns a silently wrong answer. The checks they share live here, written once:

- :func:`real_matrix` — a finite real float64 matrix (square and n ≥ 1 on request); complex
  entries, NaN/inf, ragged rows, wrong rank or an empty matrix are refused;
- :func:`exact_entry` — one exact rational entry (int, Fraction, fmpq, float taken exactly);
- :func:`require_symmetric` / :func:`is_symmetric`, :func:`require_hurwitz` / :func:`spectral_abscissa`,
  :func:`require_lyapunov_nonsingular` (λ_i + λ_j ≠ 0: the Lyapunov operator of paper W
  App. A.9 eq. (48) is invertible);
- :func:`positive_int`, :func:`real_vector` for counts and sample points.

Exceptions: :class:`DomainError` (an input outside the stated domain) and
:class:`NotConvergedError` (an iteration that stopped before its convergence test held); both
subclass :class:`ValueError`, so ``except ValueError`` catches every refusal.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

import numpy as np


class DomainError(ValueError):
    """An input outside the domain a function states (shape, dtype, finiteness, hypothesis)."""


class NotConvergedError(ValueError):
    """An iteration stopped (iteration cap, stagnation, failed inverse) before its convergence
    test held; the message names the iteration, the residual reached and the likely cause."""


def _is_complex_value(v: Any) -> bool:
    if isinstance(v, complex | np.complexfloating):
        return True
    # flint acb / mpmath mpc and similar: a nonzero imaginary part that is not a method
    return type(v).__name__ in ("acb", "mpc")


def complex_refusal(name: str, detail: str) -> DomainError:
    """The one error message for complex input (recmem's real-matrix functions are real only)."""
    return DomainError(f"complex entries are not supported: {name} {detail} (real input is "
                       "required)")


def real_matrix(m: Any, name: str = "matrix", *, square: bool = False, min_size: int = 1,
                dtype: Any = np.float64) -> np.ndarray:
    """``m`` as a finite real 2-D array in ``dtype`` (float64 by default), or :class:`DomainError`.

    Refused: complex dtype or entries (even with zero imaginary part: the caller should pass the
    real part itself), NaN/inf (also after rounding to ``dtype``, e.g. float32 overflow), ragged
    rows, an array that is not 2-D, fewer than ``min_size`` rows or columns, and (``square``) a
    non-square matrix.
    """
    if hasattr(m, "detach"):  # a torch tensor
        if m.is_complex():
            raise complex_refusal(name, f"has dtype {m.dtype}")
        m = m.detach().cpu().numpy()
    if isinstance(m, np.ndarray) and np.iscomplexobj(m):
        raise complex_refusal(name, f"has dtype {m.dtype}")
    if not isinstance(m, np.ndarray):
        rows = m if isinstance(m, list | tuple) else None
        if rows is not None:
            for row in rows:
                for v in (row if isinstance(row, list | tuple | np.ndarray) else [row]):
                    if _is_complex_value(v):
                        raise complex_refusal(name, f"has the entry {v!r}")
    try:
        with np.errstate(over="ignore"):
            a = np.asarray(m, dtype=dtype)
    except (ValueError, TypeError) as exc:
        raise DomainError(f"{name} is not a rectangular real matrix (ragged rows?): {exc}") from None
    if a.ndim != 2:
        raise DomainError(f"{name} must be a 2-D matrix, got an array of shape {a.shape}")
    if square and a.shape[0] != a.shape[1]:
        raise DomainError(f"{name} must be square, got shape {a.shape}")
    if min(a.shape) < min_size:
        raise DomainError(f"{name} must have n ≥ {min_size} rows and columns, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise DomainError(f"{name} has non-finite entries (NaN or inf"
                          + (f" after rounding to {np.dtype(dtype).name}" if dtype != np.float64
                             else "") + ")")
    return a


def exact_entry(v: Any, name: str = "entry") -> Fraction:
    """An exact rational from an int, Fraction, flint ``fmpq``/``fmpz`` or a finite real float
    (taken exactly); :class:`DomainError` for complex, NaN/inf and non-numbers."""
    if hasattr(v, "p") and hasattr(v, "q"):  # fmpq
        return Fraction(int(v.p), int(v.q))
    if _is_complex_value(v):
        raise complex_refusal(name, f"has the entry {v!r}")
    if isinstance(v, float | np.floating) and not math.isfinite(float(v)):
        raise DomainError(f"{name} has a non-finite entry {v!r}")
    if isinstance(v, bool | np.bool_):
        return Fraction(int(v))
    if isinstance(v, numbers.Rational | Fraction | np.integer):
        return Fraction(int(v) if isinstance(v, np.integer) else v)
    if isinstance(v, float | np.floating):
        return Fraction(float(v))
    if type(v).__name__ == "fmpz":
        return Fraction(int(v))
    if isinstance(v, str):
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError) as exc:
            raise DomainError(f"{name}: {v!r} is not a rational number ({exc})") from None
    raise DomainError(f"{name}: {v!r} (a {type(v).__name__}) is not an exact real number")


def positive_int(v: Any, name: str, minimum: int = 1) -> int:
    """``v`` as an int ≥ ``minimum`` (bools and non-integers refused)."""
    if isinstance(v, bool) or not isinstance(v, int | np.integer):
        raise DomainError(f"{name} must be an integer ≥ {minimum}, got {v!r}")
    if int(v) < minimum:
        raise DomainError(f"{name} must be ≥ {minimum}, got {v}")
    return int(v)


def real_vector(v: Any, name: str, *, min_size: int = 0, nonnegative: bool = False,
                allow_inf: bool = False) -> np.ndarray:
    """``v`` as a real 1-D float64 array (a scalar becomes length 1); complex, NaN, inf (unless
    ``allow_inf``), negative values (with ``nonnegative``) and too few entries are refused."""
    if np.iscomplexobj(v):
        raise complex_refusal(name, "is complex")
    try:
        a = np.atleast_1d(np.asarray(v, dtype=np.float64))
    except (ValueError, TypeError) as exc:
        raise DomainError(f"{name} is not a real vector: {exc}") from None
    if a.ndim != 1:
        raise DomainError(f"{name} must be 1-D, got shape {a.shape}")
    if a.size < min_size:
        raise DomainError(f"{name} needs at least {min_size} entries, got {a.size}")
    if np.any(np.isnan(a)) or (not allow_inf and np.any(np.isinf(a))):
        raise DomainError(f"{name} has non-finite entries")
    if nonnegative and np.any(a < 0):
        raise DomainError(f"{name} must be ≥ 0, got min {float(a.min())}")
    return a


def is_symmetric(a: np.ndarray) -> bool:
    """Whether a (float) matrix equals its transpose exactly."""
    return bool(np.array_equal(a, a.T))


def require_symmetric(a: np.ndarray, name: str, fn: str, hint: str = "") -> None:
    """:class:`DomainError` unless ``a`` = ``a``ᵀ exactly, with ‖a − aᵀ‖_F in the message."""
    if not is_symmetric(a):
        raise DomainError(f"{fn} needs a symmetric {name} (‖{name} − {name}ᵀ‖_F = "
                          f"{float(np.linalg.norm(a - a.T)):.3g})" + (f"; {hint}" if hint else ""))


def spectral_abscissa(w: np.ndarray) -> float:
    """max Re λ(W) in float64 (LAPACK eigenvalues: a float estimate, not a certificate)."""
    return float(np.max(np.linalg.eigvals(np.asarray(w, np.float64)).real))


def require_hurwitz(w: np.ndarray, fn: str, name: str = "W") -> None:
    """:class:`DomainError` when the float64 eigenvalues show max Re λ(W) ≥ 0 (not Hurwitz)."""
    alpha = spectral_abscissa(w)
    if alpha >= 0:
        raise DomainError(f"{fn} needs a Hurwitz {name} (every Re λ < 0); max Re λ({name}) ≈ "
                          f"{alpha:.3g}")


def lyapunov_separation(w: np.ndarray) -> float:
    """min_{i,j} |λ_i + λ_j| / max(‖W‖_F, tiny) from float64 eigenvalues: 0 iff the operator
    L(P) = WᵀP + PW is singular (up to the eigenvalues' rounding)."""
    lam = np.linalg.eigvals(np.asarray(w, np.float64))
    sums = np.abs(lam[:, None] + lam[None, :])
    return float(sums.min() / max(float(np.linalg.norm(w)), np.finfo(np.float64).tiny))


def require_lyapunov_nonsingular(w: np.ndarray, fn: str, unit_roundoff: float,
                                 hint: str = "use lyapunov.exact to decide exactly") -> None:
    """:class:`DomainError` when some λ_i(W) + λ_j(W) vanishes to working precision (the Lyapunov
    operator L(P) = WᵀP + PW of W App. A.9 eq. (48) is then singular: no unique solution)."""
    n = w.shape[0]
    sep = lyapunov_separation(w)
    if sep <= 8 * n * unit_roundoff:
        raise DomainError(f"{fn}: L(P) = WᵀP + PW is singular to working precision "
                          f"(min |λ_i + λ_j|/‖W‖_F = {sep:.3g}): eq. (48) has no unique solution; "
                          + hint)


def exact_values(values: Any, fn: str, *, min_size: int = 1) -> list[Any]:
    """A list of exact Gaussian rationals (:class:`~recmem.numerics.exact.QQi`, with Fraction
    parts), at least ``min_size`` of them; :class:`DomainError` otherwise (floats, complex numbers
    and NaN are not exact values: convert with :func:`recmem.numerics.exact.qqi`)."""
    vals = list(values)
    if len(vals) < min_size:
        raise DomainError(f"{fn} needs at least {min_size} value(s), got {len(vals)}")
    for v in vals:
        if not (isinstance(v, tuple) and hasattr(v, "re") and hasattr(v, "im")
                and isinstance(v.re, Fraction) and isinstance(v.im, Fraction)):
            raise DomainError(f"{fn} takes exact values (QQi with Fraction parts), got {v!r}; "
                              "convert with numerics.exact.qqi")
    return vals


def exact_rows(rows: Any, fn: str) -> list[list[Any]]:
    """A nonempty rectangular matrix (≥ 1 row, ≥ 1 column) of exact Gaussian rationals (QQi);
    :class:`DomainError` for an empty or ragged matrix or an inexact entry."""
    rs = [list(r) for r in rows]
    if not rs or not rs[0]:
        raise DomainError(f"{fn} needs a matrix with n ≥ 1 rows and columns, got an empty one")
    if any(len(r) != len(rs[0]) for r in rs):
        raise DomainError(f"{fn}: ragged rows (lengths {[len(r) for r in rs]})")
    for r in rs:
        exact_values(r, fn)
    return rs
