"""Symbolic derivations (SymPy) behind the claims' symbolic sides.

Each function returns a :class:`~recmem.theory.proof.Proof`: whether the identity was established,
in which scope (e.g. "for all N ≤ 6" or "for all N, by the argument in the docstring"), and how.
"""

from recmem.theory.proof import Proof

__all__ = ["Proof"]
