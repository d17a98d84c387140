"""L.eigen: the linear RNN in the eigenbasis of A (L §3.2.1), as printed (C̄ = CP⁻¹) and corrected.

Statement: recmem.theory.lru_spectrum.Diagonalised. Symbolic: noncommutative algebra + induction,
exact probes for a counterexample (theory.lru_spectrum.diagonalised_proof). Numeric, in every
arithmetic: a Glorot-initialised real A (exact dyadic entries), its eigendecomposition computed in
the arithmetic, y_k by the dense recurrence (the definition) against the statement's diagonal route
(numerics.lru_arith). Search: exact instances over ℚ(i) (theory.lru_spectrum.exact_outputs).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.lru_arith import Lin, glorot_dyadic
from recmem.theory.lru_spectrum import (
    DIAGONALISED,
    DIAGONALISED_CORRECTED,
    Diagonalised,
    diagonalised_proof,
    exact_outputs,
)

QUOTE = (r"Plugging the decomposition $A=P\Lambda P^{-1}$ into Eq.(4) and multiplying both sides "
         r"by $P^{-1}$, we get $\bar{x}_{k}=\sum_{j=0}^{k-1}\Lambda^{j}\bar{B}u_{k-j}$, where "
         r"$\bar{x}_{k}:=P^{-1}x_{k}$, $\bar{B}:=P^{-1}B$. The output can then be computed as "
         r"$y_{k}=\Re[\bar{C}\bar{x}_{k}]+Du_{k}\in\mathbb{R}^{H}$, where $\bar{C}=CP^{-1}$, and "
         r"we take the real part of $\bar{C}\bar{x}_{k}$.")
WHERE = "§3.2.1, Linear RNN eigendecomposition"


def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy: theory.lru_spectrum.diagonalised_proof."""
    import time

    t0 = time.perf_counter()
    return [from_proof(diagonalised_proof(ctx.law(Diagonalised)), time.perf_counter() - t0)]


def _problem(ctx: Context) -> dict[str, Any]:
    """Exact A (Glorot, dyadic), B, C (dyadic), D and inputs u_1 … u_K."""
    n, k, seed = int(ctx["N"]), int(ctx["K"]), ctx.seed
    a = glorot_dyadic(n, seed)
    vec = glorot_dyadic(max(n, k), seed + 1)
    return {"A": a, "B": [[vec[0][i]] for i in range(n)], "C": [vec[1][:n]],
            "D": vec[2][0], "u": [vec[3][t] for t in range(k)], "K": k}


@functools.cache
def _kappa(n: int, k: int, seed: int) -> mpmath.mpf:
    """κ_F(P)·(Σ_k Σ_j |C||A^jB||u|)/‖y‖ at 128 bits: the eigenvector basis's conditioning
    times the summation condition number of y (the tolerance's κ, never from a float backend)."""
    mp = mpmath.MPContext()
    mp.prec = 128
    pr = _problem(Context({"N": n, "K": k}, statement=DIAGONALISED, seed=seed))
    a = mp.matrix(pr["A"])
    _, p = mp.eig(a)
    kp = mp.mnorm(p, "f") * mp.mnorm(mp.inverse(p), "f")
    b, c, u = mp.matrix(pr["B"]), mp.matrix(pr["C"]), pr["u"]
    absc = mp.matrix([[abs(v) for v in pr["C"][0]]])
    x = mp.matrix(n, 1)
    pw = [b]
    for _ in range(k):
        pw.append(a * pw[-1])
    num, den = mp.mpf(0), mp.mpf(0)
    for t in range(1, k + 1):
        x = a * x + b * u[t - 1]
        y = (c * x)[0] + pr["D"] * u[t - 1]
        num += sum((absc * mp.matrix([[abs(e)] for e in pw[j]]))[0] * abs(u[t - j - 1])
                   for j in range(t)) + abs(pr["D"] * u[t - 1])
        den += y**2
    return kp * num / mp.sqrt(den) / mp.sqrt(k)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """y_1 … y_K by the dense recurrence vs the statement's Re[C̄x̄_k] + Du_k, with Λ, P computed
    by the arithmetic's eigensolver."""
    law = ctx.law(Diagonalised)
    pr = _problem(ctx)
    k = pr["K"]

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        la = Lin(bk)
        a, b, c = la.mat(pr["A"]), la.mat(pr["B"]), la.mat(pr["C"])
        d, u = la.num(pr["D"]), [la.num(v) for v in pr["u"]]
        lam, p = la.eig(a)
        p_inv = la.inv(p)
        b_bar = la.column(law.b_bar(p, p_inv, b, la.mul))
        c_bar = la.row(law.c_bar(c, p, p_inv, la.mul))
        x, ys, ys_stmt = la.mat([[0]] * len(lam)), [], []
        for t in range(1, k + 1):
            x = la.mul(a, x) + b * u[t - 1]
            ys.append(la.mul(c, x)[0, 0] + d * u[t - 1])
            xbar = law.state(lam, b_bar, u, t, la.zero())
            z = sum((ci * xi for ci, xi in zip(c_bar, xbar, strict=True)), la.zero())
            ys_stmt.append(law.output(z, la.re, la.im) + d * u[t - 1])
        return bk.vector_of(ys), bk.vector_of(ys_stmt)

    n = int(ctx["N"])
    # eigensolver backward error ~ N·u·‖A‖ magnified by κ(P); sums of ≤ K terms: n = N·K
    return [identity_check(f"y_1 … y_K: dense recurrence vs eigenbasis route, N = {n}, K = {k}",
                           backend, compute, instance={"N": n, "K": k, "seed": ctx.seed},
                           kappa=_kappa(n, k, ctx.seed), n=n * k)]


def _instance(v: tuple[Any, ...]) -> dict[str, Any]:
    """An exact instance from a flat draw (fixed shape, so that Hypothesis shrinks it fast):
    quarters in [−2, 2] for every entry; ``complex`` picks N = 2 with conjugate columns."""
    k, n, cplx, ints = v[0], v[1], v[2], [Fraction(i, 4) for i in v[3:]]
    p, lam, b, c, d, u = ints[0:4], ints[4:6], ints[6:8], ints[8:10], ints[10], ints[11:14]
    if cplx and n == 2:
        pr, pi, qr, qi, lr, li = p[0], p[1] or 1, p[2], p[3], lam[0], lam[1] or 1
        if qr * pi - pr * qi == 0:  # det P = 2i(qr·pi − pr·qi): keep P invertible
            qr = qr + 1 if (qr + 1) * pi - pr * qi != 0 else qr + 2
        pm: list[list[Any]] = [[(pr, pi), (pr, -pi)], [(qr, qi), (qr, -qi)]]
        lm: list[Any] = [(lr, li), (lr, -li)]
    else:
        pm = [[p[0] or 1]] if n == 1 else [[p[0], p[1]], [p[2], p[3]]]
        if n == 2 and p[0] * p[3] - p[1] * p[2] == 0:
            # a singular P made invertible by P + sI: det(P + sI) = s(s + tr P) when det P = 0,
            # nonzero for s = 1, or s = 2 where tr P = −1
            s = 1 if p[0] + p[3] != -1 else 2
            pm = [[p[0] + s, p[1]], [p[2], p[3] + s]]
        lm = list(lam[:n])
    return {"P": pm, "lam": lm, "B": b[:n], "C": c[:n], "D": d, "u": u[:k], "k": k}


def strategy(ctx: Context) -> Any:
    """Exact instances: N = 1 or 2; P rational invertible with rational Λ, or (N = 2) conjugate
    columns with a conjugate pair Λ (A = PΛP⁻¹ real); B, C, D, u rational; k = 1 … 3."""
    from hypothesis import strategies as st

    e = st.integers(-8, 8)
    return st.tuples(st.integers(1, 3), st.integers(1, 2), st.booleans(),
                     *([e] * 14)).map(_instance)


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact SymPy: y_k by the recurrence with A = PΛP⁻¹ vs the statement's diagonal route."""
    y, y_stmt = exact_outputs(ctx.law(Diagonalised), inst)
    return Instance(bool(y == y_stmt), "exact SymPy arithmetic (ℚ(i))",
                    {**{key: str(v) for key, v in inst.items()}, "y_k (recurrence)": str(y),
                     "y_k (statement)": str(y_stmt)})


PARAMS = (Param("N", 8, "state size N (A is N×N, Glorot)", int, check=at_least(1), max=64),
          Param("K", 12, "number of steps of the recurrence", int, check=at_least(1), max=256))
TOL = ("exact (SymPy); enclosure (flint); c·n·κ·u with n = N·K and κ = κ_F(P) times the "
       "summation condition number of y, at 128 bits (floats)")


def _claim(cid: str, law: Diagonalised, summary: str, **kw: Any) -> Claim:
    return Claim(id=cid, title="Linear RNN in the eigenbasis of A: x̄ = P⁻¹x, B̄ = P⁻¹B, output "
                 f"Re[C̄x̄_k] + Du_k with C̄ = {'CP⁻¹ (as printed)' if law.c_power < 0 else 'CP'}",
                 statement=law, provenance=Provenance("L", WHERE, QUOTE), tolerance=TOL,
                 params=PARAMS, symbolic=symbolic, numeric=numeric, strategy=strategy,
                 holds=holds, summary=summary, **kw)


CLAIMS = [
    _claim("L.eigen", DIAGONALISED,
           "C̄ = CP⁻¹ as printed is wrong (x = Px̄ gives Cx = CPx̄): N = 1, P = 2, λ = 1/2, "
           "B = C = u₁ = 1 gives y₁ = 1/4 instead of 1",
           notes="x̄_k = P⁻¹x_k and B̄ = P⁻¹B are right; only C̄ is wrong (C̄ = CP)."),
    _claim("L.eigen.corrected", DIAGONALISED_CORRECTED, "with C̄ = CP the diagonal form is exact",
           corrects="L.eigen"),
]
