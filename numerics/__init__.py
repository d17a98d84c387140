"""Arithmetic backends behind one interface, exact inputs, node families and conditioning.

Nothing here imports torch or python-flint at import time.
"""

from recmem.numerics.backend import (
    AbstractBackend,
    BackendSpec,
    BackendUnavailable,
    SpecError,
    make_backend,
    parse_spec,
)
from recmem.numerics.exact import QQi, qqi

__all__ = [
    "AbstractBackend",
    "BackendSpec",
    "BackendUnavailable",
    "QQi",
    "SpecError",
    "make_backend",
    "parse_spec",
    "qqi",
]
