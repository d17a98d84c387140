"""L.zoh: the ZOH recurrence (L §2 eq. (3), repeated in §4) samples the ODE (2) exactly.

One statement (:class:`recmem.theory.lru_discretisation.ZohSampling`) read by every side:

- symbolic: SymPy's ``dsolve`` on each held interval (the definition) against the statement's
  x_k, y_k for k ≤ 4, then induction (theory.lru_discretisation.zoh_proof);
- numeric, every arithmetic: the sampled ODE by each arithmetic's own matrix exponential of the
  augmented matrix Δ[[Ã, B̃], [0, 0]] (numerics.lru_discretisation.held_flow) against the
  statement's recurrence with its own exp(Δã_n);
- search: exact instances, the difference a rational function of e^{aΔ}, e^{āΔ} over ℚ(i)
  (zero ⇒ holds), a nonzero one certified by a python-flint ball.

As printed (x_{−1} = 0, B u_k, y_k = C x_k + D u_k) the recurrence gives x_0 = Bu_0 although
x_ct(0) = 0, and a complex output where y_ct is real: refuted at k = 0. The correction reads
u_{k−1} from x_0 = 0 and takes Re[C x_k]; equivalently, the printed x_k is x_ct(Δ(k+1)).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics import lru_discretisation as nl
from recmem.numerics import native
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi
from recmem.theory.lru_discretisation import ZOH_CORRECTED, ZOH_PRINTED, ZohSampling

QUOTE_S2 = (r"The input $(u_{0},u_{1},\dots,u_{L-1})$ is now seen as the result of sampling a latent "
            r"continuous-time signal $u_{\text{ct}}:\mathbb{R}_{\geq 0}\to\mathbb{R}^{H_{\text{in}}}$ "
            r"at multiples of a stepsize $\Delta>0$: i.e. $u_{\text{ct}}(\Delta k):=u_{k}$ for all "
            r"$k\in 0,\dots,L-1$. The output sequence $(y_{0},y_{1},\dots,y_{L-1})$ is then sampled, "
            r"again with stepsize $\Delta$, from the signal $y_{\text{ct}}:\mathbb{R}_{\geq 0}\to"
            r"\mathbb{R}^{H_{\text{out}}}$ computed by the following continuous-time state-space "
            r"model, initialized at $x_{\text{ct}}(0)=0$: … The ZOH method gives $$ \displaystyle "
            r"x_{k}=Ax_{k-1}+Bu_{k},\quad y_{k}=Cx_{k}+Du_{k}, $$ where $x_{-1}=0$, "
            r"$A=\exp(\Delta\tilde{A})$, $B=(A-I)\tilde{A}^{-1}\tilde{B}$, $C=\tilde{C}$ and "
            r"$D=\tilde{D}$, and $\exp$ denotes the matrix exponential. Under the assumption that "
            r"$u_{\text{ct}}$ is constant in between timestamps (which can be thought of as a "
            r"modeling assumption), this numerical integration is exact")
QUOTE_S4 = (r"Zero-Order-Hold (ZOH) discretization with stepsize $\Delta$ leads to the recurrence "
            r"$x_{k}=\exp(\Delta\tilde{A})x_{k-1}+(\exp(\Delta\tilde{A})-I)\tilde{A}^{-1}\tilde{B}"
            r"u_{k}$.")
PROVENANCE = Provenance("L", "§2 eq. (2)–(3); §4", QUOTE_S2 + " … " + QUOTE_S4)
READING = ("'constant in between timestamps' read as the zero-order hold u_ct = u_k on "
           "[Δk, Δ(k+1)); the printed k = 0 fails under either hold (x_0 = Bu_0, x_ct(0) = 0)")
# π of S4D-Lin's ã_n = −1/2 + iπn replaced by 22/7, so that the instance is exact.
PI = Fraction(22, 7)


def _instance(ctx: Context) -> dict[str, Any]:
    """Exact data: ã_n = −1/2 + i(22/7)n (n = 1 … N), B̃ (N×H), C̃ (1×N) complex, D̃ (1×H) and
    u (H×L) real, Δ."""
    n, h, length, seed = int(ctx["N"]), int(ctx["H"]), int(ctx["L"]), ctx.seed + 7001
    f = nl.seeded_fractions(seed, h + h * length, -8, 8, 4)
    g = nl.seeded_gaussians(seed + 1, n * h + n)
    return {"a": [QQi(Fraction(-1, 2), PI * j) for j in range(1, n + 1)],
            "b": [g[i * h:(i + 1) * h] for i in range(n)], "c": g[n * h:],
            "d": f[:h], "u": [f[h + c * length: h + (c + 1) * length] for c in range(h)],
            "delta": Fraction(ctx["delta"])}


def symbolic(ctx: Context) -> list[Evidence]:
    """dsolve on held intervals vs the statement (theory.lru_discretisation.zoh_proof)."""
    from recmem.theory.lru_discretisation import zoh_proof

    t0 = time.perf_counter()
    return [from_proof(zoh_proof(ctx.law(ZohSampling)), time.perf_counter() - t0)]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """States and outputs k = 0 … L−1: the statement's recurrence vs the ODE sampled through the
    arithmetic's own matrix exponential of the augmented matrix."""
    law, p = ctx.law(ZohSampling), _instance(ctx)
    n, h, length = len(p["a"]), len(p["d"]), len(p["u"][0])

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        phi, gam = nl.held_flow(bk, p["a"], p["b"], p["delta"])
        a, c, d = native.scalars(bk, p["a"]), native.scalars(bk, p["c"]), native.scalars(bk, p["d"])
        b = [native.scalars(bk, row) for row in p["b"]]
        u = [native.scalars(bk, row) for row in p["u"]]
        dl, zero = native.scalars(bk, [p["delta"], 0])
        du = [sum((d[i] * u[i][k] for i in range(h)), zero) for k in range(length)]
        truth, x = [], [zero] * n
        for k in range(length):  # X_0 = 0, X_{k+1} = Φ X_k + Γ u_k
            truth.append(x)
            x = [sum((phi[i][j] * x[j] for j in range(n)), zero)
                 + sum((gam[i][m] * u[m][k] for m in range(h)), zero) for i in range(n)]
        mine = []
        for i in range(n):
            lam = bk.exp(a[i] * dl)
            drive = [sum((b[i][m] * u[m][t] for m in range(h)), zero) for t in range(length)]
            mine.append(law.states(lam, law.multiplier(a[i], lam, dl), drive, zero, length - 1))

        def out(xk: list[Any], k: int, real: bool) -> Any:
            cx = sum((c[i] * xk[i] for i in range(n)), zero)
            return (native.re(cx) if real else cx) + du[k]

        lhs = [mine[i][k] for k in range(length) for i in range(n)] + [
            out([mine[i][k] for i in range(n)], k, law.real_part) for k in range(length)]
        rhs = [truth[k][i] for k in range(length) for i in range(n)] + [
            out(truth[k], k, True) for k in range(length)]
        return bk.vector_of(lhs), bk.vector_of(rhs)

    # κ: the sums' absolute terms over the result, at 64 bits from the float64 values; the matrix
    # exponential's own error is of order u·‖ΔM‖ (‖ΔM‖ ≤ 4 here) and is covered by n = L(N + H).
    from recmem.numerics.backend import make_backend

    f64 = make_backend("mpmath@64")
    with f64.activate():
        absx = [abs(v) for v in f64.entries(compute(f64)[1])]
    kappa = max(mpmath.mpf(1), sum(absx) / max(mpmath.norm(mpmath.matrix(absx)), mpmath.mpf(1)))
    inst = {"N": n, "H": h, "L": length, "delta": str(p["delta"]), "seed": ctx.seed + 7001,
            "a_n": "−1/2 + i(22/7)n"}
    return [identity_check(f"x_k, y_k by the recurrence vs the ODE sampled by expm, L = {length}",
                           backend, compute, instance=inst, kappa=kappa, n=length * (n + h))]


def strategy(ctx: Context) -> Any:
    """Exact instances: a ≠ 0 (Gaussian rational), b, c Gaussian, d and u_j rational, Δ > 0, k."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import disk, fractions_in

    return st.fixed_dictionaries({
        "a": disk().filter(lambda z: z != QQi(Fraction(0))), "b": disk(), "c": disk(),
        "d": fractions_in(-1, 1), "delta": fractions_in(Fraction(1, 8), 2).filter(bool),
        "u": st.lists(fractions_in(-1, 1), min_size=1, max_size=3)}).flatmap(
        lambda v: st.integers(0, len(v["u"])).map(lambda k: {**v, "k": k}))


def holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: the differences as polynomials in e^{aΔ}, e^{āΔ} over ℚ(i) (zero ⇒ holds); a nonzero
    one is evaluated in python-flint balls at 128 bits and certified when the ball excludes 0."""
    import flint
    import sympy as sp

    from recmem.numerics.exact import to_sympy
    from recmem.theory.lru_discretisation import _syms, zoh_exact

    law = ctx.law(ZohSampling)
    vals = {"a": to_sympy(inst["a"]), "b": to_sympy(inst["b"]), "c": to_sympy(inst["c"]),
            "d": sp.Rational(inst["d"]), "delta": sp.Rational(inst["delta"])}
    us = [sp.Rational(u) for u in inst["u"]]
    diffs = zoh_exact(law, vals, us, int(inst["k"]))
    if all(d == 0 for d in diffs):
        return Instance(True, "identity of polynomials in e^(aΔ), e^(āΔ) over ℚ(i)")
    shown = {"x_k − x_ct(Δk)": str(diffs[0]), "y_k − y_ct(Δk)": str(diffs[1])}
    s, a, dl = _syms(), inst["a"], Fraction(inst["delta"])
    with flint.ctx.workprec(128):
        def arb(q: Fraction) -> Any:
            return flint.arb(q.numerator) / q.denominator

        ea = flint.acb(arb(a.re * dl), arb(a.im * dl)).exp()
        balls = [nl.ball_eval(d, {s["E"]: ea, s["Eb"]: ea.conjugate()}) for d in diffs if d != 0]
        if any(not ball.contains(0) for ball in balls):
            return Instance(False, "python-flint ball of the difference excludes 0 (128 bits)",
                            {**shown, "enclosure": str(balls)})
    return Instance(None, "nonzero polynomial whose ball contains 0", shown)


def _params() -> tuple[Param, ...]:
    return (Param("N", 4, "state size N (ã_n = −1/2 + i(22/7)n)", int, check=at_least(1), max=64),
            Param("H", 2, "input dimension H", int, check=at_least(1), max=16),
            Param("L", 8, "sequence length L", int, check=at_least(1), max=256),
            Param("delta", Fraction(1, 4), "step Δ", Fraction,
                  check=lambda v: None if 0 < v <= 1 else "0 < Δ ≤ 1"))


TOL = ("exact (SymPy dsolve + rational functions; search over ℚ(i)[e^(aΔ), e^(āΔ)], flint balls "
       "for nonzero differences); flint: enclosure; floats and mpmath: c·n·κ·u, n = L(N + H)")

CLAIMS = [
    Claim(id="L.zoh", title="ZOH discretisation is exact, as printed (indices and output)",
          summary="printed x₋₁ = 0, x_k = Ax_(k−1) + Bu_k gives x₀ = Bu₀ ≠ x_ct(0) = 0 (and y_k = "
                  "Cx_k is complex): refuted at k = 0",
          statement=ZOH_PRINTED, provenance=PROVENANCE, tolerance=TOL, params=_params(),
          symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds, reading=READING,
          notes="The step formula itself is exact: the printed x_k equals x_ct(Δ(k+1)) (state "
                "after integrating u_k over [Δk, Δ(k+1))), and the printed y_k mixes x_ct(Δ(k+1)) "
                "with u_k and omits the Re of eq. (2)."),
    Claim(id="L.zoh.corrected", title="ZOH discretisation is exact (x₀ = 0, input u_(k−1), Re)",
          summary="x₀ = 0, x_k = Ax_(k−1) + Bu_(k−1), y_k = Re[Cx_k] + Du_k equal x_ct(Δk), "
                  "y_ct(Δk) for all k (dsolve + induction; expm in every arithmetic)",
          statement=ZOH_CORRECTED, provenance=PROVENANCE, tolerance=TOL, params=_params(),
          symbolic=symbolic, numeric=numeric, strategy=strategy, holds=holds, reading=READING,
          corrects="L.zoh"),
]
