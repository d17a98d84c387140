"""A claim's statement, written once: its formula, its hypotheses, and its negative controls.

Every claim of recmem has exactly one :class:`Statement`, defined in ``theory/``. The symbolic
side, every numeric side, the counterexample search's strategy and its exact judge all read the
formula and the hypotheses from that object (the runner hands it to them as ``ctx.statement``);
none of them writes the formula again.

A statement is a frozen dataclass whose fields are the parts a nearby false statement would
change: a sign, an exponent, an index limit, a constant, the radius of a hypothesis, the norm.
Its :meth:`Statement.controls` builds those nearby false statements with
:func:`dataclasses.replace` (CLAIMS.md ground rule 7): they run through the same checks as the
statement itself, and a claim whose checks cannot refute one of them cannot pass.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class Statement(ABC):
    """A formula with its hypotheses; subclasses are frozen dataclasses (one per claim family)."""

    @property
    @abstractmethod
    def text(self) -> str:
        """The statement in words and symbols, generated from the fields (so a control's text
        shows what it changed)."""

    @abstractmethod
    def controls(self) -> tuple[Control, ...]:
        """Nearby false statements built from this one by a single change each.

        Include at least one *near* control (an index limit or exponent shifted by one, a
        constant changed by a small factor): a check whose tolerance cannot separate it from the
        statement does not resolve the statement either.
        """

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Control:
    """A negative control: ``statement`` differs from the claim's statement by ``change``."""

    change: str  # what was changed, in a few words: "sign of the sum flipped"
    statement: Statement

    def __post_init__(self) -> None:
        if not self.change:
            raise ValueError("a control must say what it changed")
