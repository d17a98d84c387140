"""Claims: a statement from a paper, its provenance, and the checks that judge it.

Adding a claim means adding one module that defines ``CLAIMS`` where its paper's plugin
(``checks/plugins.py``) looks for claims; the registry finds it and the runner needs no change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from recmem.checks import plugins
from recmem.checks.argtypes import brief
from recmem.checks.limits import (  # noqa: F401 (MEMORY_BUDGET, grows, grows_factorial: for the claims)
    MEMORY_BUDGET,
    byte_size,
    grows,
    grows_factorial,
    human_bytes,
    memory_estimate,
    over_budget,
)
from recmem.checks.verdict import Evidence
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.theory.statement import Control, Statement

S = TypeVar("S", bound=Statement)


CONVENTIONS: tuple[str, ...] = (
    "time index is 1-based: x_0 = 0, x_k = Λ x_{k-1} + B u_k",
    "Vandermonde orientation as in O eq. 4: rows are nodes λ_i, columns λ^{k-1} … λ, 1",
    "condition numbers are κ₂ = σ_1/σ_k over all k columns unless stated (∞ when k exceeds the rank)",
    "inputs are exact (dyadic or Gaussian rationals) and converted inside each backend",
    "precision is counted in bits; u = 2^-p is the unit roundoff",
)


@dataclass(frozen=True)
class Provenance:
    """Where a statement comes from: the location in the paper and the page text it rests on."""

    paper: str
    location: str
    quote: str

    def to_dict(self) -> dict[str, str]:
        p = plugins.get(self.paper)
        return {"paper": f"{p.authors}, {p.title}", "version": p.version,
                "location": self.location, "quote": self.quote, "text": p.source}

    def short(self) -> str:
        return f"{self.paper} {self.location}"


# Rationals given as parameters stay within float64's range (2^1023 ≈ 9e307): an exact value with
# a longer numerator or denominator is refused (its float conversions would overflow, and no
# parameter of a claim needs one).
MAX_RATIONAL_BITS = 1000


def parse_fraction(text: str) -> Fraction:
    """An exact rational from '0.9', '9/10' or '1' (numerator and denominator below 2^1000)."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a rational number: {brief(text)}") from None
    if max(abs(value.numerator), value.denominator).bit_length() > MAX_RATIONAL_BITS:
        raise ValueError(f"{brief(text)} is out of range (numerator and denominator must stay "
                         f"below 2^{MAX_RATIONAL_BITS} ≈ 1e301, read exactly)")
    return value


# Integers longer than this are refused before conversion (Python refuses 4300 digits itself).
MAX_INT_DIGITS = 1000


def parse_int(text: str) -> int:
    """An integer from its decimal digits; ValueError saying so, in the user's terms, otherwise
    (Python's own message names ``int()`` and its digit limit)."""
    digits = str(text).strip()
    if not re.fullmatch(r"[+-]?\d+", digits):
        raise ValueError(f"expected an integer, got {brief(text)}")
    if len(digits) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(digits.lstrip('+-'))} digits is far too large")
    return int(digits)

# At most this many entries in a list-valued parameter (``Ns``, ``times``, ``beta_exponents``…).
MAX_ENTRIES = 256


@dataclass(frozen=True)
class Param:
    """A claim parameter with a default that ``--param NAME=VALUE`` overrides.

    A parameter that sets the size of work has an upper limit ``max`` (on the value, or on each
    entry of a list) and ``cost``, an estimate of the memory (bytes) a run needs at a value; a
    larger value is refused before any work, with both estimates in the message. ``parse=int``
    (the default) reads the text with :func:`parse_int`, whose refusals are in the user's terms."""

    name: str
    default: Any
    help: str
    parse: Callable[[str], Any] = int
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None  # returns an error message or None
    max: int | None = None
    cost: Callable[[int], float] | None = None

    def convert(self, text: str) -> Any:
        try:
            value = (parse_int if self.parse is int else self.parse)(text)
        except (ValueError, ArithmeticError) as exc:  # a refusal of the text (a TypeError is a bug)
            raise ValueError(f"parameter {self.name}: {brief(str(exc), 160, quote=False)}") from None
        self.validate(value)
        return value

    def validate(self, value: Any) -> None:
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"parameter {self.name} must be one of "
                             f"{', '.join(map(str, self.choices))}, got {brief(value)}")
        self.check_size(value)
        if self.check is not None and (msg := self.check(value)):
            raise ValueError(f"parameter {self.name}: {msg}")

    def check_size(self, value: Any) -> None:
        """ValueError when ``value`` (or a list's length or largest entry) exceeds the limits."""
        if isinstance(value, tuple | list):
            if len(value) > MAX_ENTRIES:
                raise ValueError(f"parameter {self.name}: at most {MAX_ENTRIES} entries, got "
                                 f"{len(value)}")
            ints = [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
            largest = max(ints, default=None)
        else:
            largest = value if isinstance(value, int) and not isinstance(value, bool) else None
        if self.max is None or largest is None or largest <= self.max:
            return
        why = ""
        if self.cost is not None:
            limit = byte_size(memory_estimate(self.cost, self.max))
            why = (f" ({self.name} = {brief(largest)} would need "
                   f"{human_bytes(memory_estimate(self.cost, largest))}; the limit keeps a run "
                   f"under about {limit})")
        raise ValueError(f"parameter {self.name} must be at most {self.max}, got "
                         f"{brief(largest)}{why}")


def at_least(lo: int) -> Callable[[Any], str | None]:
    """A parameter check: integer ≥ lo."""
    return lambda v: None if v >= lo else f"must be ≥ {lo}, got {brief(v)}"


def in_unit_interval(v: Fraction) -> str | None:
    """A parameter check: 0 ≤ v ≤ 1."""
    return None if 0 <= v <= 1 else f"must lie in [0, 1], got {brief(v)}"


@dataclass
class Context:
    """What a check gets: the statement under test (the claim's own, or one of its negative
    controls), the claim's parameters, the seed, the working precision and budgets.

    ``cache`` belongs to one statement: the runner gives every control a fresh one, so nothing
    computed for the statement can stand in for a control's computation. ``shared`` is one
    dict for the claim's run, seen by the statement and its controls alike: only data that does
    not depend on the statement (exact inputs, certified condition numbers) may go there.
    ``arithmetics`` names the arithmetics the run selected (``"torch:cpu"``, …; empty where the
    caller does not say), for a check that prepares work another arithmetic's side will reuse.
    """

    params: Mapping[str, Any]
    seed: int = 0
    precision_bits: int = 256
    search_examples: int = 60
    cache: dict[Any, Any] = field(default_factory=dict)
    statement: Statement | None = None
    shared: dict[Any, Any] = field(default_factory=dict)
    arithmetics: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> Any:
        return self.params[name]

    def law(self, kind: type[S]) -> S:
        """The statement under test, checked to be a ``kind`` (what every side reads)."""
        if not isinstance(self.statement, kind):
            raise TypeError(f"this check reads a {kind.__name__} statement, got "
                            f"{type(self.statement).__name__}")
        return self.statement


SymbolicSide = Callable[[Context], list[Evidence]]
NumericSide = Callable[[AbstractBackend, Context], list[Evidence]]


def by_arithmetic(handlers: Mapping[str, NumericSide], why_not: str) -> NumericSide:
    """A numeric side that hands each arithmetic kind (``numpy``, ``torch``, ``mpmath``, ``flint``) to
    its own check; any other kind is SKIPPED with ``why_not`` (BackendUnavailable)."""
    def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        handler = handlers.get(backend.spec.kind)
        if handler is None:
            raise BackendUnavailable(f"{backend.name}: {why_not}")
        return handler(backend, ctx)
    return numeric


def _joint_check(cost: Callable[[Mapping[str, Any]], float],
                 then: Callable[[Mapping[str, Any]], str | None] | None
                 ) -> Callable[[Mapping[str, Any]], str | None]:
    """A claim's joint parameter check: the estimated memory ``cost(values)`` within
    MEMORY_BUDGET, then ``then`` (the claim's own check), if any."""
    def check(values: Mapping[str, Any]) -> str | None:
        refusal = over_budget(memory_estimate(lambda _: cost(values), 0), "these parameters together")
        if refusal is not None:
            return refusal + ": choose smaller sizes"
        return then(values) if then is not None else None
    return check


@dataclass(frozen=True)
class Claim:
    """A statement as printed, with its provenance and checks.

    ``statement`` is the single definition of the formula and hypotheses (``theory/``); every
    side reads it from ``ctx.statement``, which the runner sets to the statement itself or to one
    of its negative controls. ``symbolic`` returns symbolic evidence; ``numeric`` is run once per
    selected arithmetic; ``strategy`` builds a Hypothesis strategy over the statement's domain
    and ``holds`` judges one drawn instance exactly or with certified arithmetic (used by the
    counterexample search, ``recmem fuzz`` and the property-based tests); ``screen``, where a
    claim has one, judges a drawn instance in a given float or fixed-precision arithmetic for
    ``recmem fuzz --backend``, whose candidates ``holds`` then confirms or dissolves.
    """

    id: str
    title: str
    statement: Statement
    provenance: Provenance
    tolerance: str
    uses: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    symbolic: SymbolicSide | None = None
    numeric: NumericSide | None = None
    strategy: Callable[[Context], Any] | None = None
    holds: Callable[[Any, Context], Any] | None = None
    # a cheap judge of one instance in a float or fixed-precision arithmetic (``recmem fuzz
    # --backend``): it only proposes candidates, which ``holds`` must confirm
    screen: Callable[[Any, AbstractBackend, Context], Any] | None = None
    corrects: str | None = None
    reading: str | None = None
    notes: str = ""
    validate: Callable[[Mapping[str, Any]], str | None] | None = None  # joint parameter check
    decided_by: tuple[str, ...] | None = None  # evidence kinds that decide a study claim
    # the finding in one line, for the README's findings tables (checks/readme_tables.py);
    # the title stands in when it is empty
    summary: str = ""
    # the memory (bytes) a run needs, estimated from all parameters together, where their
    # sizes multiply: a run over MEMORY_BUDGET is refused with the estimate (checked before the
    # claim's own ``validate``, which it joins)
    cost: Callable[[Mapping[str, Any]], float] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.statement, Statement):
            raise TypeError(f"{self.id}: the statement must be a recmem.theory.statement."
                            f"Statement (written once, in theory/), got {type(self.statement)!r}")
        if self.cost is not None:
            object.__setattr__(self, "validate", _joint_check(self.cost, self.validate))

    @property
    def paper(self) -> str:
        return self.provenance.paper

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    @property
    def text(self) -> str:
        """The statement's text."""
        return self.statement.text

    @property
    def controls(self) -> tuple[Control, ...]:
        """The statement's negative controls."""
        return self.statement.controls()

    def context(self, params: Mapping[str, Any] | None = None, **kw: Any) -> Context:
        """A context for this claim's own statement: defaults overridden by ``params``."""
        return Context({**self.defaults(), **(params or {})}, statement=self.statement, **kw)
