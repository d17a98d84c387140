"""The paper's one statement, written once: x_k = λ x_{k−1} + 1 with x_0 = 0 gives
x_k = (1 − λ^k)/(1 − λ) for every λ ≠ 1 and k ≥ 1."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class StepResponse(Statement):
    """x_k = (1 + sign·λ^(k + shift)) / (1 − λ); the paper prints sign = −1, shift = 0."""

    sign: int = -1
    shift: int = 0

    @property
    def text(self) -> str:
        power = "λ^k" if self.shift == 0 else f"λ^(k{self.shift:+d})"
        op = "−" if self.sign < 0 else "+"
        return f"x_k = λ x_(k−1) + 1, x_0 = 0 ⇒ x_k = (1 {op} {power})/(1 − λ) for λ ≠ 1, k ≥ 1"

    def closed_form(self, lam: Fraction, k: int) -> Fraction:
        """The statement's right-hand side, exactly."""
        return (1 + self.sign * lam ** (k + self.shift)) / (1 - lam)

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of λ^k flipped", replace(self, sign=-self.sign)),
                Control("power shifted by one", replace(self, shift=self.shift + 1)))
