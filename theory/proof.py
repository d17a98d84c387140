"""The result of a symbolic check, and the one rule that decides an identity symbolically.

A symbolic check has three outcomes (CLAIMS.md ground rule 7):
- proved (``holds=True``): established in ``scope``; ``general`` says whether that is a proof of
  the statement over a stated family (all k, all N ≤ 8, every T̄) or only an exact evaluation at
  finitely many instances, which corroborates but never makes a claim VERIFIED;
- disproved (``holds=False``): SymPy reduced the difference to a nonzero value, or an exact
  substitution gave a nonzero value; ``counterexample`` shows that value or point (required);
- undecided (``holds=None``): SymPy could not decide; the reason is in ``method``/``details``.

``general`` defaults to the safe side (``False``: finitely many exact instances), so a proof over
a family must say ``general=True``. A proof made of steps (:func:`proof_from_steps`) tells apart a
step SymPy could not confirm (undecided) from one SymPy *decided false* — lhs − rhs reduced to a
nonzero constant, or an exact substitution gave a nonzero value: that is a failed derivation,
carried in ``failed_step`` and reported as a FAILED symbolic check (the derivation computed
something false; it is no counterexample to the statement).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# What SymPy decided about one step of a derivation: True (confirmed), None (undecided) or the
# pair (holds, witness) that :func:`decide_zero` returns — (False, witness) a step decided false.
Decided = tuple[bool | None, Mapping[str, Any]]
Step = bool | None | Decided


@dataclass(frozen=True)
class Proof:
    """Outcome of a symbolic check (see the module docstring)."""

    holds: bool | None
    scope: str
    method: str
    counterexample: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # True: holds=True is a proof over the family named in ``scope``; False (the safe default):
    # holds=True was checked at finitely many exact instances only, which never makes VERIFIED
    general: bool = False
    # a derivation step SymPy decided false: {"step": name, "value": what it computed, …}
    failed_step: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.holds is False and not self.counterexample:
            raise ValueError("a disproof must show its counterexample (the nonzero value or the "
                             "exact point)")
        if self.failed_step is not None and (self.holds is not None or not self.failed_step.get(
                "value")):
            raise ValueError("a failed derivation step leaves the statement undecided (holds=None) "
                             "and must show the value SymPy computed")


def _step(name: str, value: Step) -> Decided:
    """A step's decision as (holds, witness); a bare ``False`` is refused, for it cannot tell
    "decided false" (which must show its value) from "could not confirm" (``None``)."""
    if value is True or value is None:
        return value, {}
    if isinstance(value, tuple) and len(value) == 2 and value[0] in (True, False, None):
        if value[0] is False and not value[1]:
            raise ValueError(f"step {name!r} decided false must show the value SymPy computed")
        return value[0], value[1]
    raise TypeError(f"step {name!r}: pass True (confirmed), None (undecided) or decide_zero's "
                    f"(holds, witness), not {value!r}")


def _shown(witness: Mapping[str, Any]) -> str:
    """The value of a step decided false, as one line."""
    return "; ".join(f"{k} = {v}" for k, v in witness.items())


def proof_from_steps(steps: Mapping[str, Step], scope: str, method: str,
                     details: Mapping[str, Any] | None = None, *, general: bool = False) -> Proof:
    """A proof whose steps SymPy decided one by one (each step: True, None, or
    :func:`decide_zero`'s ``(holds, witness)``).

    Every step confirmed → proved (general only when the caller says ``general=True``). A step
    SymPy could not confirm → undecided, naming the steps: simplification is no decision
    procedure for these expressions. A step SymPy decided false (a nonzero constant, or a nonzero
    exact value at a point) → a failed derivation: ``holds=None`` (a wrong step of a proof says
    nothing about the truth of what it was meant to prove) with ``failed_step`` naming the step
    and the value, which :func:`recmem.checks.verdict.from_proof` reports as FAIL.
    """
    decided = {name: _step(name, value) for name, value in steps.items()}
    info: dict[str, Any] = dict(details or {})
    for name, (ok, witness) in decided.items():
        info[name] = ("confirmed" if ok else "undecided" if ok is None else
                      f"decided false: {_shown(witness)}")
    false = [(name, witness) for name, (ok, witness) in decided.items() if ok is False]
    if false:
        name, witness = false[0]
        return Proof(None, scope, method, details=info,
                     failed_step={"step": name, "value": _shown(witness),
                                  **{k: str(v) for k, v in witness.items()},
                                  **({"also false": ", ".join(n for n, _ in false[1:])}
                                     if len(false) > 1 else {})})
    missing = [name for name, (ok, _) in decided.items() if ok is None]
    if missing:
        return Proof(None, scope, f"{method}; SymPy could not confirm: {', '.join(missing)}",
                     details=info)
    return Proof(True, scope, method, details=info, general=general)


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


def decide_zeros(differences: Iterable[Any], simplify: Any = None,
                 points: Iterable[Mapping[Any, Any]] = ()) -> Decided:
    """:func:`decide_zero` over several differences, as one step: confirmed when every one
    reduces to 0, decided false (with the first nonzero one's index and value) when SymPy decides
    one nonzero, undecided otherwise."""
    pts = list(points)
    undecided: dict[str, Any] = {}
    for i, d in enumerate(differences):
        ok, witness = decide_zero(d, pts, simplify)
        if ok is False:
            return False, {"difference no.": i, **witness}
        if ok is None:
            undecided = undecided or {"difference no.": i, **witness}
    return (None, undecided) if undecided else (True, {})


def fact(value: bool | None, what: str) -> Decided:
    """A step that is a fact SymPy's assumptions decide (a sign, a limit being ∞, …): True →
    confirmed, None → undecided, False → decided false (the witness says which fact)."""
    if value is False:
        return False, {"SymPy decided false": what}
    return value, {}


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
