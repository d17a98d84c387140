"""L App. F.2 (proof of Proposition 3): its displayed lines with the sums from n = 1.

Statement :class:`recmem.theory.lru_blowup.F2Series`: for constant Bu_k = ũ the proof writes
‖x_∞‖² = ũ^*[Σ_{n,m≥1}(Λ^m)^*Λ^n]ũ and later Σ_{n≥1} E_r[r^n] = E_r[Σ_{n≥1} r^n] = E_r[1/(1 − r)].
With x_k = Λx_{k−1} + Bu_k from x_0 = 0, x_∞ = Σ_{n≥0} Λ^n ũ: both lines are false with n ≥ 1
(at λ = r = 1/2: |Σ_{n≥1} λ^n|² = 1 ≠ 4 = 1/|1 − λ|², and Σ_{n≥1} r^n = 1 ≠ 2), and the two slips
cancel, so the proof ends at Proposition 3's (true) value. ``L.proof-f2.corrected`` sums from
n = 0. The proof's other lines (change of variables = Lemma 2, the phase average δ_{nm}, the
integral and its two closed forms) are decided as steps of the same derivation.

Numerics: the sums term by term in each arithmetic (flint: tail as a ball) against the printed
values; search: exact rationals r ∈ [0, 1).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.numerics.lru_ring import column, geometric_sum
from recmem.numerics.native import conj, scalar
from recmem.theory.lru_blowup import F2Series, f2_proof

QUOTE = (r"Assume first (most difficult case) that $u_{k}$ is constant, i.e. such that "
         r"$Bu_{k}=:\tilde{u}$ for all $k$. Then, $$ \displaystyle\|x_{\infty}\|_{2}^{2} $$ $$ "
         r"\displaystyle=\sum_{n=1}^{\infty}\sum_{m=1}^{\infty}\tilde{u}_{k-m}^{*}\left(\Lambda^{m}"
         r"\right)^{*}\Lambda^{n}\tilde{u}_{k-n} $$ $$ \displaystyle=\tilde{u}^{*}\left[\sum_{n=1}^"
         r"{\infty}\sum_{m=1}^{\infty}\left(\Lambda^{m}\right)^{*}\Lambda^{n}\right]\tilde{u}. $$ … "
         r"$$ \displaystyle=\sum_{n=1}^{\infty}\mathbb{E}_{r}\left[r^{n}\right] $$ $$ \displaystyle="
         r"\mathbb{E}_{r}\left[\sum_{n=1}^{\infty}r^{n}\right] $$ $$ \displaystyle=\mathbb{E}_{r}"
         r"\left[\frac{1}{1-r}\right] $$")
RS = (Fraction(1, 2), Fraction(3, 4))
LAM = QQi(Fraction(1, 2), Fraction(1, 4))


def symbolic(ctx: Context) -> list[Evidence]:
    """Every displayed line of App. F.2 in SymPy (theory.lru_blowup.f2_proof)."""
    t0 = time.perf_counter()
    return [from_proof(f2_proof(ctx.law(F2Series)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Σ_{n≥start} r^n and |Σ_{n≥start} λ^n|² summed in ``backend`` against the printed 1/(1 − r)
    and the fixed point's |x_∞|²/|ũ|² = 1/|1 − λ|²."""
    law = ctx.law(F2Series)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        one = scalar(b, 1)
        lhs, rhs = [], []
        for r in RS:
            rb = scalar(b, r)
            lhs.append(geometric_sum(b, rb, law.start, one))
            rhs.append(law.closed(rb))
        lam = b.entries(b.vector([LAM]))[0] if b.spec.kind not in ("numpy", "torch") else \
            b.vector([LAM]).reshape(-1)[0]
        tot = geometric_sum(b, lam, law.start, one)
        x_inf = one / (one - lam)  # fixed point of x = λx + 1
        lhs.append(tot * conj(tot))
        rhs.append(x_inf * conj(x_inf))
        return column(b, lhs), column(b, rhs)

    return [identity_check("Σ_(n≥start) r^n = printed value; |Σ_(n≥start) λ^n|² = |x_∞|²", backend, compute,
                           instance={"r": ", ".join(map(str, RS)), "lambda": str(LAM)},
                           kappa=mpmath.mpf(1) / (1 - mpmath.mpf(3) / 4), n=256)]


def strategy(ctx: Context) -> Any:
    """Exact 0 ≤ r < 1."""
    return fractions_in(0, Fraction(63, 64), 64).filter(lambda r: r < 1)


def holds(r: Fraction, ctx: Context) -> Instance:
    """Exact: Σ_{n≥start} r^n = r^start/(1 − r) and (line 1, λ = r) |x_∞|² = 1/(1 − r)²."""
    law = ctx.law(F2Series)
    total = r**law.start / (1 - r)
    ok = total == law.closed(r) and total**2 == 1 / (1 - r) ** 2
    return Instance(ok, "exact rationals", {"r": str(r), "Σ_(n≥start) r^n": str(total),
                                            "printed": str(law.closed(r))})


PROV = Provenance("L", "App. F.2, Proof F.2", QUOTE)
TOL = "symbolic (SymPy, general); numeric: c·n·κ·u, κ = 1/(1 − r); flint: tail as a ball; search exact"

CLAIMS = [
    Claim(
        id="L.proof-f2",
        title="App. F.2: the proof's sums from n = 1, as printed",
        summary="with x_k = Λx_{k−1} + Bu_k, ‖x_∞‖² needs Σ_{n,m≥0}; Σ_{n≥1} r^n = r/(1 − r), "
                "not 1/(1 − r) (r = 1/2: 1 ≠ 2); the two slips cancel in the result",
        statement=F2Series(), provenance=PROV, tolerance=TOL, uses=("L.prop3.constant",),
        symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds,
        notes="The proof's other lines (change of variables, phase average, the integral and its "
              "closed forms) hold; they are decided as steps of the derivation."),
    Claim(
        id="L.proof-f2.corrected",
        title="App. F.2 with the sums from n = 0",
        summary="‖x_∞‖² = ũ^*[Σ_{n,m≥0}(Λ^m)^*Λ^n]ũ and E_r[Σ_{n≥0} r^n] = E_r[1/(1 − r)]: every line "
                "of the proof then holds",
        statement=F2Series(start=0), corrects="L.proof-f2", provenance=PROV, tolerance=TOL,
        uses=("L.prop3.constant",),
        symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds),
]
