"""The trend statements of paper O's conditioning studies (App. E.1, Fig. 4; App. E.2, Fig. 6).

Each is a statement about a population of random node draws: a response (log₂ of a condition
number, or of a reconstruction error) moves in a stated direction as one factor of the study
grows, within every cell of the other factors, under the statement's hypothesis on the cells.
The study (recmem.numerics.studies) reads the hypothesis (:meth:`StudyTrends.admits`) to lay out
its grid; the stratified one-sided trend tests read the directions (:meth:`StudyTrends.direction`).
A trend is judged statistically, so a reversed trend is a negative control that the same test
rejects (FAILED), never a certified counterexample.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from recmem.theory.statement import Control, Statement

DIRECTIONS = ("decreasing", "increasing")


@dataclass(frozen=True)
class Trend:
    """The response is ``direction`` in ``factor`` (it falls, or rises, as the factor grows)."""

    factor: str
    direction: str

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, got {self.direction!r}")

    def reversed(self) -> Trend:
        return replace(self, direction=DIRECTIONS[1 - DIRECTIONS.index(self.direction)])

    @property
    def text(self) -> str:
        grows = "r_min grows (→ 1)" if self.factor == "r_min" else f"{self.factor} grows"
        return f"{'falls' if self.direction == 'decreasing' else 'rises'} as {grows}"


@dataclass(frozen=True)
class StudyTrends(Statement):
    """Trends of a study's response in each of its factors (subclasses: the response, the
    hypothesis and the default directions). The hypothesis is N ≥ ``over`` + ``offset``."""

    trends: tuple[Trend, ...] = ()
    offset: int = 0

    over: ClassVar[str] = "L"  # the cell value that the hypothesis compares N with

    def direction(self, factor: str) -> str:
        """The stated direction of the response in ``factor``."""
        return next(t.direction for t in self.trends if t.factor == factor)

    def admits(self, cell: Mapping[str, Any]) -> bool:
        """The hypothesis on a study cell (its factor values and the fixed L)."""
        return int(cell["N"]) >= int(cell[self.over]) + self.offset

    @property
    def hypothesis_text(self) -> str:
        if self.offset > 0:
            return f"N > {self.over} + {self.offset - 1}"
        return f"N ≥ {self.over}" + (f" − {-self.offset}" if self.offset < 0 else "")

    @property
    @abstractmethod
    def response(self) -> str:
        """What the trends are about, in words."""

    @property
    @abstractmethod
    def setting(self) -> str:
        """The matrices and the node distribution, in words."""

    @property
    def text(self) -> str:
        trends = [t.text for t in self.trends]
        joined = ", ".join(trends[:-1]) + (" and " if len(trends) > 1 else "") + trends[-1]
        return (f"{self.setting}, {self.hypothesis_text}: {self.response} {joined} (in every cell "
                "of the other factors, over random node draws)")

    def controls(self) -> tuple[Control, ...]:
        return tuple(
            Control(f"trend in {t.factor} reversed",
                    replace(self, trends=tuple(u.reversed() if u is t else u
                                               for u in self.trends)))
            for t in self.trends)


@dataclass(frozen=True)
class RingTrends(StudyTrends):
    """O App. E.1, Fig. 4: for ring nodes λ ~ T(r_min, r_max = 1) (Lemma 6) and N ≥ L, the average
    reconstruction error of u_{1:L} from x_L by V_L⁺ and κ₂(V_L) fall as N grows and as r_min → 1
    (κ₂(V_LᴴV_L) = κ₂(V_L)², so the paper's cond(V_LᵀV_L) has the same trends)."""

    trends: tuple[Trend, ...] = (Trend("N", "decreasing"), Trend("r_min", "decreasing"))
    offset: int = 0

    @property
    def response(self) -> str:
        return "each of the reconstruction error ‖V_L⁺x_L − u‖/‖u‖ and κ₂(V_L)"

    @property
    def setting(self) -> str:
        return "for ring nodes λ ~ T(r_min, r_max) (Lemma 6), V_L of size N×L"


GRAMS = {"transpose": "ΩᵀΩ", "hermitian": "ΩᴴΩ"}


@dataclass(frozen=True)
class SparseTrends(StudyTrends):
    """O App. E.2, Fig. 6: for Ω = V_L Ψ_L (Ψ_L the first P Haar functions), ring nodes
    λ ~ T(r_min, 1) and N > P + 1 (O §3.2), the condition number of ΩᵀΩ falls as N grows, as P
    falls and as r_min → 1. ``gram`` is the reading of the printed Ωᵀ for a complex Ω: the plain
    transpose (as printed) or the Gram matrix ΩᴴΩ."""

    trends: tuple[Trend, ...] = (Trend("N", "decreasing"), Trend("P", "increasing"),
                                 Trend("r_min", "decreasing"))
    offset: int = 2
    gram: str = "transpose"

    over: ClassVar[str] = "P"

    def __post_init__(self) -> None:
        if self.gram not in GRAMS:
            raise ValueError(f"gram must be one of {', '.join(GRAMS)}, got {self.gram!r}")

    @property
    def matrix(self) -> str:
        return GRAMS[self.gram]

    @property
    def response(self) -> str:
        return f"κ₂({self.matrix})"

    @property
    def setting(self) -> str:
        plain = " (Ωᵀ the plain transpose of the complex Ω)" if self.gram == "transpose" else ""
        return (f"for Ω = V_L Ψ_L{plain}, Ψ_L the first P Haar functions, ring nodes "
                "λ ~ T(r_min, r_max)")
