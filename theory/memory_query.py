"""Paper W, App. B (ICLR 2024 camera-ready): the memory query of a sequence model with a repeated
word, on a stand-in whose memory is known in closed form.

App. B plots "the memory function of sentiment score's for single repeated word" against "Repeat
times" for LSTMs and BERT trained on IMDB reviews (Figures 5, 6): the discrete-time form of
Def. 3.1's Heaviside query — the input is one word embedding x repeated k times (the sequence
x^{(k)} = (x, …, x), a discrete Heaviside input), and the memory at k is the change of the score
when the word is repeated once more, sup_{x≠0} |y(x^{(k+1)}) − y(x^{(k)})| / |x|_∞. The trained
models and the IMDB data are not available here; what can be checked is the query itself, on a
model whose memory is known: the linear recurrent scorer h_j = A h_{j−1} + B e_j (h_0 = 0),
y = cᵀh, A = diag(λ), for which y(x^{(k+1)}) − y(x^{(k)}) = cᵀA^k B x, so the query must return
|cᵀA^k B|₁ (the discrete analogue of W eq. (4)).

:class:`RepeatQuery` is that statement; its norms and constant are those of
:class:`recmem.theory.memory_linear.LinearMemory` (the sup over x of a linear query, W eq. (4)),
read from there; ``lag_shift`` shifts the lag of the kernel (a control).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

from recmem.theory.memory_linear import LinearMemory
from recmem.theory.proof import Proof, Step, decide_zeros, proof_from_steps
from recmem.theory.statement import Control, Statement


@dataclass(frozen=True)
class RepeatQuery(Statement):
    """App. B's repeated-word memory query of the linear recurrent scorer returns its kernel's norm:
    sup_{x≠0} |y(x^{(k+1)}) − y(x^{(k)})| / |x|_p = scale·N(cᵀA^{k+lag_shift}B) for every k ≥ 0
    (p, N, scale: those of :class:`LinearMemory`; printed analogue p = ∞, N = |·|₁, shift 0)."""

    lag_shift: int = 0
    x_norm: str = "inf"
    rho_norm: str = "1"
    scale: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        self.memory()  # validates the norms

    def memory(self) -> LinearMemory:
        """The sup-over-x part of the statement (W eq. (4)'s norms and constant)."""
        return LinearMemory(x_norm=self.x_norm, rho_norm=self.rho_norm, scale=self.scale)

    @property
    def text(self) -> str:
        lag = "k" if self.lag_shift == 0 else f"k{self.lag_shift:+d}"
        v = f"cᵀA^({lag})B"
        rhs = {"1": f"|{v}|₁", "inf": f"|{v}|_∞", "sum": f"Σ_i ({v})_i"}[self.rho_norm]
        if self.scale != 1:
            rhs = f"({self.scale})·{rhs}"
        xn = "|x|_∞" if self.x_norm == "inf" else "|x|₁"
        return ("App. B's memory query of a repeated word, on the linear recurrent scorer h_j = Ah_(j−1) + "
                f"Be_j, h_0 = 0, y = cᵀh (A = diag(λ)): sup_(x≠0) |y(x^(k+1)) − y(x^(k))| / {xn} = {rhs} "
                "for every k ≥ 0, x^(k) = (x, …, x) (k times)")

    def controls(self) -> tuple[Control, ...]:
        out = [Control("lag of the kernel shifted by one", replace(self, lag_shift=self.lag_shift + 1))]
        # LinearMemory's controls are LinearMemory statements with another norm or constant
        memories = [(c.change, cast(LinearMemory, c.statement)) for c in self.memory().controls()]
        out += [Control(change.replace("ρ(t)", "cᵀA^kB"),
                        replace(self, x_norm=m.x_norm, rho_norm=m.rho_norm, scale=m.scale))
                for change, m in memories]
        return tuple(out)

    def lag(self, k: int) -> int:
        """The kernel's lag at repeat count k."""
        return k + self.lag_shift

    def rhs(self, kernel: Sequence[Any], *, absolute: Any, maximum: Any, number: Any = lambda q: q) -> Any:
        """scale·N(kernel) (LinearMemory.rhs)."""
        return self.memory().rhs(kernel, absolute=absolute, maximum=maximum, number=number)

    def lhs(self, queries: Sequence[Any], points: Sequence[Sequence[int]], *, absolute: Any,
            maximum: Any) -> Any:
        """max over the extreme points of |query|/|x|_p (LinearMemory.lhs)."""
        return self.memory().lhs(queries, points, absolute=absolute, maximum=maximum)


def scores(lam: Sequence[Fraction], b: Sequence[Sequence[Fraction]], c: Sequence[Fraction],
           x: Sequence[Fraction], repeats: int) -> Fraction:
    """y(x^{(repeats)}) exactly: the recurrence run on the repeated word (the definition)."""
    h = [Fraction(0)] * len(lam)
    for _ in range(repeats):
        h = [lam[i] * h[i] + sum((b[i][j] * x[j] for j in range(len(x))), Fraction(0))
             for i in range(len(lam))]
    return sum((c[i] * h[i] for i in range(len(lam))), Fraction(0))


def kernel(lam: Sequence[Any], b: Sequence[Sequence[Any]], c: Sequence[Any], lag: int) -> list[Any]:
    """cᵀA^{lag}B (a row of length d) in any arithmetic; A = diag(lam); lag ≥ 0."""
    d = len(b[0])
    return [sum((c[i] * lam[i] ** lag * b[i][j] for i in range(len(lam))), 0 * c[0]) for j in range(d)]


def judge(statement: RepeatQuery, lam: Sequence[Fraction], b: Sequence[Sequence[Fraction]],
          c: Sequence[Fraction], k: int) -> tuple[bool, dict[str, str]]:
    """Exact: the query from the scores at the extreme points of the unit ball (where the sup of a
    linear query is attained, LinearMemory.extreme_points) against the statement's right-hand side."""
    mem = statement.memory()
    points = mem.extreme_points(len(b[0]))
    qs = [scores(lam, b, c, [Fraction(v) for v in p], k + 1) - scores(lam, b, c, [Fraction(v) for v in p], k)
          for p in points]
    lhs = statement.lhs(qs, points, absolute=abs, maximum=max)
    lag = statement.lag(k)
    rhs = statement.rhs(kernel(lam, b, c, lag), absolute=abs, maximum=max) if lag >= 0 else None
    return lhs == rhs, {"k": str(k), "query": str(lhs), "claimed": str(rhs), "lag": str(lag)}


@functools.cache
def telescoping() -> Proof:
    """SymPy: Σ_{j=0}^{k} λ^j = Σ_{j=0}^{k−1} λ^j + λ^k (sum_combine, and the one-term sum), so the
    score difference of k + 1 and k repeats is cᵀA^kBx, termwise in the diagonal entries of A."""
    import sympy as sp

    lam = sp.Symbol("lambda")
    j = sp.Symbol("j", integer=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    steps: dict[str, Step] = {
        "Σ_(j<k) λ^j + Σ_(j=k)^k λ^j = Σ_(j≤k) λ^j": decide_zeros(
            [sp.Sum(lam**j, (j, 0, k - 1)) + sp.Sum(lam**j, (j, k, k)) - sp.Sum(lam**j, (j, 0, k))]),
        "Σ_(j=k)^k λ^j = λ^k": decide_zeros([sp.Sum(lam**j, (j, k, k)).doit() - lam**k])}
    return proof_from_steps(steps, "every k ≥ 0 and λ", "SymPy: additivity of sums")


def repeat_query_proof(statement: RepeatQuery, n: int = 2, d: int = 2) -> Proof:
    """Decide ``statement``: (1) :func:`telescoping`: y(x^{(k+1)}) − y(x^{(k)}) = cᵀA^kBx for every k;
    against the statement's kernel cᵀA^{k+shift}Bx with symbolic λ, B, c, x, k (expanded; a shift is
    refuted at an exact point); (2) the sup over x of the linear query |vᵀx|/|x|_p, v = (cᵀA^kB)ᵀ,
    decided by :func:`recmem.theory.memory_linear.linear_memory_proof` (W eq. (4)) for the statement's
    norms and constant."""
    import sympy as sp

    from recmem.theory.memory_linear import linear_memory_proof

    tele = telescoping()
    if tele.holds is not True:
        return tele
    k = sp.Symbol("k", integer=True, nonnegative=True)
    lam = sp.symbols(f"l0:{n}")
    bb = [sp.symbols(f"b{i}_0:{d}") for i in range(n)]
    cc = sp.symbols(f"c0:{n}")
    xx = sp.symbols(f"x0:{d}")

    def kernel_dot_x(lag: Any) -> Any:
        return sum(cc[i] * lam[i] ** lag * bb[i][m] * xx[m] for i in range(n) for m in range(d))

    query = kernel_dot_x(k)  # by the telescoping lemma, termwise
    pt = {**{lam[i]: sp.Rational(1, i + 2) for i in range(n)}, **{cc[i]: i + 1 for i in range(n)},
          **{bb[i][m]: (-1) ** (i + m) * (m + 1) for i in range(n) for m in range(d)},
          **{xx[m]: 1 for m in range(d)}, k: 2}
    ok, witness = decide_zeros([query - kernel_dot_x(statement.lag(k))], simplify=sp.expand, points=[pt])
    if ok is False:
        return Proof(False, f"A = diag(λ), N = {n}, d = {d}", "SymPy: the query is cᵀA^kBx (telescoping)",
                     counterexample={"lag shift": str(statement.lag_shift),
                                     **{key: str(v) for key, v in witness.items()}},
                     details=dict(tele.details))
    if ok is None:
        return Proof(None, "the kernel", "SymPy could not decide the kernel identity", details=dict(witness))
    sup = linear_memory_proof(statement.memory())
    if sup.holds is not True:
        return sup if sup.holds is None else Proof(False, "the sup over x (W eq. (4))", sup.method,
                                                    counterexample=sup.counterexample, details=sup.details)
    return Proof(True, "every k ≥ 0, every diagonal A, B, c (telescoping with symbolic λ, k, termwise in "
                 "the diagonal entries)", "SymPy: telescoping + W eq. (4)'s sup over x",
                 details={**tele.details, **sup.details}, general=True)
