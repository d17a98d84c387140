"""The result of a symbolic derivation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Proof:
    """Outcome of a symbolic check.

    ``holds`` is True when the identity was established in ``scope``, False when SymPy found it
    false (then ``counterexample`` holds an exact instance), None when SymPy could not decide.
    """

    holds: bool | None
    scope: str
    method: str
    counterexample: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)
