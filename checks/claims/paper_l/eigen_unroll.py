"""L.unroll: Eq. (4) of L §3.2.1, x_k = Σ_{j=0}^{k−1} A^j B u_{k−j}, under its two readings.

The statement is paper O's eq. (3) (O copies it from here): recmem.theory.recurrence.Unrolled,
shared, with O.unroll's checks (symbolic expansion + induction with noncommutative symbols, so any
square A; numerics in every arithmetic; exact search over ℚ(i)). L's Eq. (1) starts from x_0 = 0
with inputs u_1 … u_L (1-based: Eq. (4) is right); §3.2.1 starts from x_{−1} = 0 and lists
x_0 = Bu_0 (0-based: Eq. (4)'s sum stops one term short, it misses A^k B u_0).
"""

from __future__ import annotations

from typing import Any

from recmem.checks.claim import Claim, Provenance
from recmem.checks.claims.paper_o import unroll as o_unroll
from recmem.theory.recurrence import Unrolled

QUOTE_EQ1 = (r"$$ \displaystyle x_{k}=\sigma(Ax_{k-1}+Bu_{k}),\quad y_{k}=Cx_{k}+Du_{k}, $$ "
             r"starting from $x_{0}=0\in\mathbb{R}^{N}$.")
QUOTE_EQ4 = (r"The recurrence $x_{k}=Ax_{k-1}+Bu_{k}$ can be unrolled easily using the assumption "
             r"that $x_{-1}=0\in\mathbb{R}^{N}$: $$ x_{0}=Bu_{0},\quad x_{1}=ABu_{0}+Bu_{1},\quad "
             r"x_{2}=A^{2}Bu_{0}+ABu_{1}+Bu_{2},\quad\dots\quad\implies\quad "
             r"x_{k}=\sum_{j=0}^{k-1}A^{j}Bu_{k-j}. $$")
WHERE = "§2.1 Eq. (1), §3.2.1 Eq. (4)"
READING_ONE = "Eq. (1)'s 1-based time: x_0 = 0, inputs u_1 … u_L (CLAIMS.md convention)"
READING_ZERO = "§3.2.1's own 0-based time: x_{-1} = 0, x_0 = Bu_0"


def _claim(cid: str, law: Unrolled, summary: str, reading: str, **kw: Any) -> Claim:
    return Claim(id=cid, title="Unrolled linear recurrence (Eq. 4)", statement=law,
                 provenance=Provenance("L", WHERE, QUOTE_EQ1 + " … " + QUOTE_EQ4),
                 tolerance=o_unroll.TOL, uses=("O.unroll",), params=o_unroll._params(),
                 symbolic=o_unroll.symbolic, numeric=o_unroll.numeric,
                 strategy=o_unroll.strategy, holds=o_unroll.holds, reading=reading,
                 summary=summary, notes="A dense real N×N in L; the symbolic induction step uses "
                 "noncommutative symbols (any square A); the numerics run a diagonal A = Λ.", **kw)


CLAIMS = [
    _claim("L.unroll", Unrolled(origin=1, upper=-1), "Eq. (4) with Eq. (1)'s x_0 = 0, inputs "
           "u_1 … u_k", READING_ONE),
    _claim("L.unroll.zero-based", Unrolled(origin=0, upper=-1), "with §3.2.1's x₋₁ = 0, x₀ = Bu₀ "
           "the sum misses A^k B u₀: k = 0, u₀ = 1", READING_ZERO),
    _claim("L.unroll.zero-based.corrected", Unrolled(origin=0, upper=0), "the 0-based sum runs to "
           "j = k", READING_ZERO, corrects="L.unroll.zero-based"),
]
