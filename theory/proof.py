"""The result of a symbolic check, and the one rule that decides an identity symbolically.

A symbolic check has three outcomes (CLAIMS.md ground rule 7):
- proved (``holds=True``): established in ``scope``; ``general`` says whether that is a proof of
  the statement over a stated family (all k, all N ≤ 8, every T̄) or only an exact evaluation at
  finitely many instances, which corroborates but never makes a claim VERIFIED;
- disproved (``holds=False``): SymPy reduced the difference to a nonzero value, or an exact
  substitution gave a nonzero value; ``counterexample`` shows that value or point (required);
- undecided (``holds=None``): SymPy could not decide; the reason is in ``method``/``details``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Proof:
    """Outcome of a symbolic check (see the module docstring)."""

    holds: bool | None
    scope: str
    method: str
    counterexample: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    general: bool = True  # False: holds=True was checked at finitely many exact instances only

    def __post_init__(self) -> None:
        if self.holds is False and not self.counterexample:
            raise ValueError("a disproof must show its counterexample (the nonzero value or the "
                             "exact point)")


def proof_from_steps(steps: Mapping[str, bool], scope: str, method: str,
                     details: Mapping[str, Any] | None = None) -> Proof:
    """A proof whose steps SymPy confirmed one by one: proved when every step is confirmed,
    undecided otherwise (naming the steps). A step SymPy does not confirm is not a disproof:
    simplification is no decision procedure for the expressions these steps involve, and a
    failed step of a proof says nothing about the truth of what it was meant to prove."""
    missing = [name for name, ok in steps.items() if not ok]
    info = {**(details or {}), **{name: bool(ok) for name, ok in steps.items()}}
    if missing:
        return Proof(None, scope, f"{method}; SymPy could not confirm: {', '.join(missing)}",
                     details=info)
    return Proof(True, scope, method, details=info)


def decide_zero(difference: Any, points: Iterable[Mapping[Any, Any]] = (),
                simplify: Any = None) -> tuple[bool | None, dict[str, Any]]:
    """Decide whether a SymPy expression is identically zero.

    Returns ``(True, {})`` when ``simplify`` (default :func:`sympy.simplify`) reduces it to 0;
    ``(False, witness)`` when it reduces to a nonzero constant, or when an exact substitution at
    one of ``points`` (mappings symbol → exact value) gives a value SymPy proves nonzero — the
    witness then holds the point and the value; ``(None, {...})`` otherwise (undecided).
    """
    import sympy as sp

    reduce = simplify or sp.simplify
    d = reduce(sp.sympify(difference))
    if d == 0:
        return True, {}
    if not d.free_symbols and d.is_zero is False:
        return False, {"difference (reduced)": str(d)}
    for point in points:
        value = reduce(d.subs(dict(point)))
        if value.free_symbols:
            continue
        if value.is_zero is False:
            return False, {"point": {str(k): str(v) for k, v in point.items()},
                           "difference at the point": str(value),
                           "difference (reduced)": str(d)}
    return None, {"difference (reduced)": str(d)}


def nonzero_point(ring: Any, diff: Any) -> dict[str, str]:
    """An integer point where the nonzero polynomial ``diff`` is nonzero: the support of its
    lowest-degree term set to 1 first, then seeded random points in {−2 … 2}ⁿ (a nonzero
    polynomial vanishes on few of them, by Schwartz–Zippel)."""
    import random

    gens = ring.gens
    monomial = min(diff.monoms(), key=sum)
    trials = [[1 if e else 0 for e in monomial]]
    rng = random.Random(0)
    trials += [[rng.randint(-2, 2) for _ in gens] for _ in range(200)]
    for values in trials:
        if diff(*values) != 0:
            return {str(g.as_expr()): str(v) for g, v in zip(gens, values, strict=True) if v}
    return {}  # pragma: no cover - a nonzero polynomial is nonzero at most such points
