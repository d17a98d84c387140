"""Unrolling the linear recurrence of paper O (§3, eq. 2–4), symbolically and exactly.

Conventions (CLAIMS.md): 1-based time, ``x_0 = 0``, ``x_k = Λ x_{k-1} + B u_k``. The paper's own
text (§2–3) starts "from x_{-1} = 0" and lists ``x_0 = Bu_0, x_1 = ΛBu_0 + Bu_1, …`` (0-based),
which is a second reading of eq. (3); both are derived here.

Exact instance helpers work over ℚ(i) (SymPy ``QQ_I``) and are the ground truth of the
counterexample searches.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from recmem.numerics.exact import QQi
from recmem.theory.proof import Proof, nonzero_point
from recmem.theory.statement import Control, Statement

# ---------------------------------------------------------------------------------------------
# the statement of eq. (3)


@dataclass(frozen=True)
class Unrolled(Statement):
    """O §3 eq. (3): the state of x_t = Λx_{t−1} + Bu_t, started at rest, in closed form.

    The recurrence's first input is u_``origin`` and x_{origin−1} = 0 (1-based reading: origin 1,
    x_0 = 0; the paper's own 0-based text: origin 0, x_{−1} = 0). The closed form is
    ``sign`` · Σ_{j=0}^{k+upper} Λ^{j+power_shift} B u_{k−j}; eq. (3) as printed is sign +1,
    upper −1 (the sum stops at j = k − 1), power shift 0. Inputs before the origin are 0.
    """

    origin: int = 1
    upper: int = -1
    sign: int = 1
    power_shift: int = 0

    @property
    def text(self) -> str:
        start = "x_0 = 0 (1-based)" if self.origin == 1 else f"x_({self.origin - 1}) = 0"
        top = "k" if self.upper == 0 else f"k{self.upper:+d}".replace("+", " + ").replace(
            "-", " − ")
        power = "j" if self.power_shift == 0 else f"(j + {self.power_shift})"
        sign = "" if self.sign > 0 else "−"
        return (f"from {start}, x_k = Λx_(k−1) + Bu_k: x_k = {sign}Σ_(j=0)^({top}) "
                f"Λ^{power} B u_(k−j)").replace("x_(-1)", "x_(−1)")

    def controls(self) -> tuple[Control, ...]:
        return (Control("sign of the sum flipped", replace(self, sign=-self.sign)),
                Control("power of Λ shifted by one", replace(self,
                                                             power_shift=self.power_shift + 1)),
                Control("upper limit lowered by one", replace(self, upper=self.upper - 1)))

    def terms(self, k: int) -> list[tuple[int, int]]:
        """The (power of Λ, input time) pairs of the closed form's sum at step k. Every reading
        and control here has upper ≤ −origin, so the sum never reaches before the first input."""
        return [(j + self.power_shift, k - j) for j in range(k + self.upper + 1)]

    def closed_form(self, lam: Any, drive: Callable[[int], Any], k: int, zero: Any) -> Any:
        """One component of the closed form over any ring: λ is the node, ``drive(t)`` the
        component of B u_t."""
        acc = zero
        for power, t in self.terms(k):
            acc = acc + lam**power * drive(t)
        return self.sign * acc


# ---------------------------------------------------------------------------------------------
# exact instances over ℚ(i)


def exact_states(nodes: Sequence[QQi], b: Sequence[Sequence[QQi]],
                 inputs: Sequence[Sequence[QQi]]) -> list[list[Any]]:
    """States of x_t = Λ x_{t-1} + B u_t from rest (O eq. 2), exactly over ℚ(i): the t-th state
    returned is the state after the t-th input of ``inputs`` (each of length M).

    ``nodes`` are the diagonal of Λ (N values), ``b`` is N×M. Returns ``QQ_I`` elements.
    """
    from recmem.theory.exact_linalg import _dom, element

    dom = _dom()
    lam = [element(q) for q in nodes]
    bb = [[element(q) for q in row] for row in b]
    x = [dom.zero] * len(lam)
    out = []
    for u in inputs:
        ue = [element(q) for q in u]
        x = [lam[i] * x[i] + sum((bb[i][m] * ue[m] for m in range(len(ue))), dom.zero)
             for i in range(len(lam))]
        out.append(x)
    return out


def exact_closed_form(statement: Unrolled, nodes: Sequence[QQi], b: Sequence[Sequence[QQi]],
                      inputs: Sequence[Sequence[QQi]], k: int) -> list[Any]:
    """The statement's closed form at step k exactly over ℚ(i); ``inputs[t − origin]`` is u_t."""
    from recmem.theory.exact_linalg import _dom, element

    dom = _dom()
    bb = [[element(q) for q in row] for row in b]
    us = [[element(q) for q in u] for u in inputs]

    def drive(i: int) -> Any:
        return lambda t: sum((bb[i][m] * us[t - statement.origin][m] for m in range(len(bb[i]))),
                             dom.zero)

    return [statement.closed_form(element(q), drive(i), k, dom.zero)
            for i, q in enumerate(nodes)]


# ---------------------------------------------------------------------------------------------
# symbolic derivations


def _induction_step(statement: Unrolled) -> tuple[bool, int, list[str]]:
    """The induction step Λ S_k + B u_{k+1} = S_{k+1} for the statement's closed form S_k.

    Λ, B and the u_t are noncommuting symbols, so the step covers any square Λ (diagonal or
    not) and any B. Peeling the j = 0 term off S_{k+1} needs a nonempty sum, so the step is
    derived for k ≥ k₀ = max(origin − 1, −1 − upper); returns (holds, k₀, the steps).
    """
    import sympy as sp

    k, j = sp.symbols("k j", integer=True)
    lam = sp.Symbol("Lambda", commutative=False)
    b = sp.Symbol("B", commutative=False)
    u = sp.IndexedBase("u", commutative=False)
    sign, shift = sp.Integer(statement.sign), statement.power_shift

    def s(kk: Any) -> Any:
        return sign * sp.Sum(lam ** (j + shift) * b * u[kk - j], (j, 0, kk + statement.upper))

    peeled = sign * lam**shift * b * u[k + 1]  # the j = 0 term of S_{k+1}
    tail = sign * sp.Sum(lam ** (j + shift) * b * u[k + 1 - j], (j, 1, k + 1 + statement.upper))
    shifted = tail.change_index(j, j - 1)  # j ← j + 1: limits 0 … k + upper
    step_lhs = lam * s(k)
    same_limits = shifted.limits == s(k).limits
    same_summand = sp.expand(shifted.function - lam * s(k).function) == 0
    same_peel = sp.expand(peeled - b * u[k + 1]) == 0
    steps = [f"S_(k+1) = {peeled} + {shifted}", f"Λ S_k = {step_lhs}",
             f"limits equal: {same_limits}; summands equal: {same_summand}; "
             f"peeled term equals B u_(k+1): {same_peel}"]
    k0 = max(statement.origin - 1, -1 - statement.upper)
    return same_limits and same_summand and same_peel, k0, steps


def _poly_ring(n: int, m: int, steps: int) -> tuple[Any, list[Any], list[list[Any]], list[list[Any]]]:
    """ℤ[λ_i, b_il, u_tl]: generators for a diagonal Λ (N = n), B (n×m) and u_0 … u_{steps}."""
    import sympy as sp
    from sympy import ZZ

    names = [f"l{i}" for i in range(n)] + [f"b{i}_{c}" for i in range(n) for c in range(m)] \
        + [f"u{t}_{c}" for t in range(steps + 1) for c in range(m)]
    ring, *gens = sp.ring(",".join(names), ZZ)
    lam = gens[:n]
    bb = [gens[n + i * m: n + (i + 1) * m] for i in range(n)]
    off = n + n * m
    uu = [gens[off + t * m: off + (t + 1) * m] for t in range(steps + 1)]
    return ring, lam, bb, uu


def _next_differences(statement: Unrolled, ring: Any, lam: list[Any],
                      drive: Callable[[int], Callable[[int], Any]], x: list[Any], k: int,
                      k_max: int) -> dict[str, str]:
    """Component 0 of recurrence − closed form at the two steps after the first failing one:
    how the statement fails, not only where it first does."""
    out = {}
    for kk in range(k + 1, min(k + 2, k_max) + 1):
        x = [lam[i] * x[i] + drive(i)(kk) for i in range(len(lam))]
        out[f"k = {kk}"] = str((x[0] - statement.closed_form(lam[0], drive(0), kk,
                                                              ring.zero)).as_expr())
    return out


def unroll_proof(statement: Unrolled, k_max: int = 6, n: int = 2, m: int = 2) -> Proof:
    """Decide ``statement`` (O eq. 3 or a variant) symbolically.

    1. Polynomial expansion over ℤ[λ, B, u]: the iterated recurrence (the definition, started at
       rest at the statement's origin) against the statement's closed form for every step
       k ≤ ``k_max``, with a diagonal Λ of size ``n`` and a general ``n``×``m`` B. A nonzero
       difference disproves the statement; it is shown with an integer point where it is nonzero.
    2. For all larger k: the induction step Λ S_k + B u_{k+1} = S_{k+1} with noncommuting
       symbols (any square Λ, any B), valid from the k₀ where the closed form's sum is nonempty;
       the expansion covers every k ≤ k_max ≥ k₀.
    """
    t0 = time.perf_counter()
    o = statement.origin
    ring, lam, bb, uu = _poly_ring(n, m, k_max)

    def drive(i: int) -> Callable[[int], Any]:
        return lambda t: sum((bb[i][c] * uu[t][c] for c in range(m)), ring.zero)

    x = [ring.zero] * n
    for k in range(o, k_max + 1):
        x = [lam[i] * x[i] + drive(i)(k) for i in range(n)]
        closed = [statement.closed_form(lam[i], drive(i), k, ring.zero) for i in range(n)]
        if closed != x:
            i = next(i for i in range(n) if closed[i] != x[i])
            diff = x[i] - closed[i]
            return Proof(False, f"k = {k}", "polynomial expansion over ℤ[λ, B, u]: recurrence "
                         "minus closed form is a nonzero polynomial",
                         counterexample={"k": k, "component": i,
                                         "x_k − closed form": str(diff.as_expr()),
                                         "nonzero at": nonzero_point(ring, diff),
                                         "x_k − closed form, next steps": _next_differences(
                                             statement, ring, lam, drive, x, k, k_max)})
    ok, k0, steps = _induction_step(statement)
    if not ok:
        return Proof(None, f"k ≤ {k_max} by expansion; the induction step does not close",
                     "SymPy Sum peel-and-shift", details={"steps": " | ".join(steps)})
    if k0 > k_max:
        return Proof(None, f"k ≤ {k_max}", f"induction starts at k₀ = {k0} > k_max")
    return Proof(True, f"all k ≥ {o - 1}, any square Λ and any B (induction with noncommuting "
                 f"symbols from k₀ = {k0}); expansion for k ≤ {k_max}, diagonal Λ with N = {n}, "
                 f"general B of size {n}×{m}",
                 "SymPy: polynomial expansion over ℤ[λ, B, u] + Sum peel-and-shift induction step",
                 details={"induction": " | ".join(steps),
                          "seconds": round(time.perf_counter() - t0, 3)}, general=True)
