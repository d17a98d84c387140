"""Native scalars of any backend, for checks written once against the backend interface
(``numerics/backend.py``): exact values converted once into the backend's arithmetic (numpy or
torch in their dtype, mpmath at its precision, python-flint balls), and the complex conjugate and
real part of a native scalar."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi


def scalars(backend: AbstractBackend, values: Sequence[QQi | Fraction | int]) -> list[Any]:
    """Native scalars of ``backend`` for exact values (one conversion each, rounded once; call
    inside ``backend.activate()``)."""
    qs = [v if isinstance(v, QQi) else QQi(Fraction(v)) for v in values]
    return backend.entries(backend.vector(qs)) if qs else []


def scalar(backend: AbstractBackend, q: QQi | Fraction | int) -> Any:
    """One exact value as a native scalar of ``backend``."""
    return scalars(backend, [q])[0]


def conj(z: Any) -> Any:
    """Complex conjugate of a native scalar (numpy, torch, mpmath, flint)."""
    f = getattr(z, "conjugate", None)
    return f() if f is not None else z.conj()


def re(z: Any) -> Any:
    """Real part (z + z̄)/2 of a native scalar, as a native (complex-typed) scalar."""
    return (z + conj(z)) / 2
