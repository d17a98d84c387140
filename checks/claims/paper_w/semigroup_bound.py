"""W.semigroup-bound: the step (36)–(38) of paper W's proof of Theorem 3.9 for linear-like
activations (ICLR camera-ready App. A.8): from the spectral bound (31),
sup_m max_i Re λ_i(W_m) < −β₀, it concludes ‖e^{W_m(t−T_ε)}‖₂ ≤ e^{−β₀(t−T_ε)} (37)–(38).

- ``W.semigroup-bound`` — (38) as printed: REFUTED for non-normal W, e.g. W = [[−2, 10], [0, −2]],
  β₀ = 1, t = 1/10: e^{Wt} = e^{−1/5}[[1, 1], [0, 1]], ‖e^{Wt}‖₂ = e^{−1/5}(1 + √5)/2 ≈ 1.325 >
  e^{−1/10} ≈ 0.905 (the same error as Lemma A.8's: the spectral abscissa does not bound the
  norm of a non-normal matrix's exponential).
- ``W.semigroup-bound.corrected`` — with the numerical abscissa λ_max((W + Wᵀ)/2) ≤ −β₀ in place
  of the spectral one the bound holds for every W (Lumer–Phillips; for normal W both agree).

Each arithmetic computes e^{Wt} itself (mpmath expm, flint ball exponential, SciPy expm, torch
matrix_exp, in their own precision) and its spectral norm, against the statement's bound.
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.theory.lyapunov import SemigroupBound

QUOTE = (r"Therefore the original unperturbed recurrent weight matrix $W_{m}$ satisfies the "
         r"following eigenvalue inequality uniformly in $m$ . $$\sup _ {m} \max _ {i \in [ m ]} "
         r"(\operatorname{Re} (\lambda_ {i} (W _ {m}))) <   - \beta_ {0}. \tag {31}$$ … Therefore "
         r"the dynamics of $v_{m,t}$ is exactly the linear system in $t > T_{\epsilon}$ . It can "
         r"be seen that for $t \geq T_{\epsilon}$ $$\left| v _ {m, t} \right| _ {2} = \left| e ^ {W "
         r"_ {m} \left(t - T _ {\epsilon}\right)} v _ {m, T _ {\epsilon}} \right| _ {2} \tag {36}$$ "
         r"$$\leq \left| e ^ {W _ {m} (t - T _ {\epsilon})} \right| _ {2} \left| v _ {m, T _ "
         r"{\epsilon}} \right| _ {2} \tag {37}$$ $$\leq e ^ {- \beta_ {0} (t - T _ {\epsilon})} | "
         r"v _ {m, T _ {\epsilon}} | _ {2} \tag {38}$$")
WHERE = "App. A.8 (proof of Theorem 3.9, linear-like activations), eqs. (31), (36)–(38)"


# ---- exact draws with a known numerical abscissa ------------------------------------------------

def dissipative(n: int, seed: int) -> tuple[Any, Fraction]:
    """(W, μ) with W = U·diag(−s)·Uᵀ + K (U rational orthogonal, K skew-symmetric), so
    (W + Wᵀ)/2 = U·diag(−s)·Uᵀ and μ = λ_max((W + Wᵀ)/2) = −min s exactly."""
    import flint

    rng = random.Random(f"dissipative/{n}/{seed}")
    s = [lc._dy(rng, Fraction(1, 4), Fraction(2)) for _ in range(n)]
    skew = [[Fraction(0)] * n for _ in range(n)]
    k = flint.fmpq_mat(n, n)
    for i in range(n):
        for j in range(i + 1, n):
            skew[i][j] = lc._dy(rng, -Fraction(1, 2), Fraction(1, 2))
            skew[j][i] = -skew[i][j]
            x = lc._dy(rng, Fraction(-2), Fraction(2))
            k[i, j], k[j, i] = lc._fq(x), lc._fq(-x)
    u = lc.cayley(skew)
    d = flint.fmpq_mat(n, n)
    for i in range(n):
        d[i, i] = lc._fq(-s[i])
    return u * d * u.transpose() + k, -min(s)


@dataclass(frozen=True)
class Case:
    """A W of the numeric sides (label independent of the statement) and its β₀."""

    label: str
    W: Any
    beta0: Fraction
    times: tuple[Fraction, ...]


def _grid(w: Any) -> tuple[Fraction, ...]:
    """t = 0 and t = 4^-k·T₀ (k = 0…3) with ‖W‖_F·T₀ ≤ 4, so e^{‖W‖t} stays moderate."""
    from recmem.numerics.lyapunov import fractions

    f2 = sum((x * x for row in fractions(w) for x in row), Fraction(0))
    t0 = Fraction(4)
    while f2 * t0 * t0 > 16:
        t0 /= 2
    return (Fraction(0), *(t0 / 4 ** k for k in range(4)))


def cases(ctx: Context, law: SemigroupBound) -> list[Case]:
    """The W's each arithmetic tests: one drawn for the statement's hypothesis (spectral: a
    non-normal Hurwitz W, parameters N, kind, departure, draw; numerical: W = U·diag(−s)·Uᵀ + K);
    W = [−1] (at t = 0 the bound is attained, and at t = 1 with β₀ on the boundary of a
    non-strict hypothesis a rate above 1 fails); and the non-normal [[−2, 10], [0, −2]] at
    t = 1/10, where it is admitted. β₀ is the edge of the statement's hypothesis
    (``law.edge_beta0``: −abscissa when admitted, else 63/64 of it), and a case is tested only
    where the hypothesis admits it."""
    from recmem.numerics.lyapunov import fmpq_matrix

    if law.abscissa == "spectral":
        d = lc.draw_from(ctx)
        w, a = d.W, d.abscissa
    else:
        w, a = dissipative(int(ctx["N"]), ctx.seed + int(ctx["draw"]))
    ex = fmpq_matrix([[-2, 10], [0, -2]])
    candidates = [("drawn W", w, a, _grid(w)[1:]),  # t = 0 is the next case's
                  ("W = [−1] (bound attained at t = 0)", fmpq_matrix([[-1]]), Fraction(-1),
                   (Fraction(0), Fraction(1))),
                  ("W = [[−2, 10], [0, −2]]", ex, Fraction(str(_abscissa(law, ex))),
                   (Fraction(1, 10),))]
    out = []
    for label, wc, ac, times in candidates:
        b = law.edge_beta0(ac)
        if law.admits(ac, b):
            out.append(Case(label, wc, b, times))
    return out


def _abscissa(law: SemigroupBound, w: Any) -> Any:
    """The statement's abscissa of a rational W, exactly (SymPy algebraic number)."""
    from recmem.numerics.lyapunov import fractions

    rows = tuple(tuple(r) for r in fractions(w))
    return _abscissa_of(law.abscissa, rows)


@functools.cache
def _abscissa_of(kind: str, rows: tuple[tuple[Fraction, ...], ...]) -> Any:
    import sympy as sp

    m = sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in row] for row in rows])
    if kind == "spectral":
        return max(sp.re(e) for e in m.eigenvals())
    return max((m + m.T).eigenvals(), key=lambda e: sp.N(e)) / 2


def norm_exp(backend: AbstractBackend, w: Any, t: Fraction, bits: int) -> lc.Value:
    """‖e^{Wt}‖₂ computed in ``backend``'s arithmetic (certified ball in flint), memoised: a pure
    function of the arithmetic (its name: kind, dtype, device, precision), the exact W, t and the
    bits (a frozen Value of immutable ends), so the statement, its controls and the other
    reading's claim share each matrix exponential instead of recomputing the same one."""
    from recmem.checks.claims.paper_w._memory import memo
    from recmem.numerics.lyapunov import fractions

    key = ("semigroup ‖e^{Wt}‖₂", backend.name, backend.precision_bits,
           tuple(map(tuple, fractions(w))), t, bits)
    return memo(key, lambda: _norm_exp(backend, w, t, bits))


def _norm_exp(backend: AbstractBackend, w: Any, t: Fraction, bits: int) -> lc.Value:
    kind = backend.spec.kind
    from recmem.numerics.lyapunov import fmpq_matrix, to_float64, to_mp

    if kind == "flint":
        import flint

        with flint.ctx.workprec(bits):
            e = (flint.arb_mat(fmpq_matrix(w)) * flint.arb(flint.fmpq(t.numerator, t.denominator))).exp()
            g = lc.lmax(e.transpose() * e, "flint", bits)
        return g.sqrt()  # ‖e^{Wt}‖₂ = √λ_max(EᵀE), its ends rounded outwards
    if kind == "mpmath":
        ctx = fixed_context(bits)
        e = ctx.expm(to_mp(w, ctx) * (ctx.mpf(t.numerator) / t.denominator))
        return lc.Value.point(max(ctx.svd_r(e, compute_uv=False)), bits)
    import numpy as np

    dt = np.float32 if backend.spec.dtype == "float32" else np.float64
    wf = to_float64(w).astype(dt) * np.asarray(t.numerator / t.denominator, dtype=dt)
    if kind == "torch":
        import torch

        tdt = torch.float32 if dt == np.float32 else torch.float64
        e_t = torch.linalg.matrix_exp(torch.as_tensor(wf, dtype=tdt))
        return lc.Value.point(mpmath.mpf(float(torch.linalg.matrix_norm(e_t, ord=2))), bits)
    from scipy.linalg import expm

    return lc.Value.point(mpmath.mpf(float(np.linalg.norm(expm(wf), 2))), bits)


def bound_in(backend: AbstractBackend, law: SemigroupBound, beta0: Fraction, t: Fraction,
             bits: int) -> lc.Value:
    """The statement's bound constant·e^{−rate·β₀t} computed in ``backend``'s arithmetic."""
    kind = backend.spec.kind
    if kind == "flint":
        import flint

        with flint.ctx.workprec(bits):
            b = flint.arb(flint.fmpq(beta0.numerator, beta0.denominator))
            x = law.bound(b, flint.arb(flint.fmpq(t.numerator, t.denominator)), lambda z: z.exp())
        return lc.ball_value(x, bits)
    if kind == "mpmath":
        ctx = fixed_context(bits)
        x = law.bound(ctx.mpf(beta0.numerator) / beta0.denominator,
                      ctx.mpf(t.numerator) / t.denominator, ctx.exp)
        return lc.Value.point(x, bits)
    import numpy as np

    dt = np.float32 if backend.spec.dtype == "float32" else np.float64
    x = law.bound(dt(beta0.numerator / beta0.denominator), dt(t.numerator / t.denominator), np.exp)
    return lc.Value.point(mpmath.mpf(float(x)), bits)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """For each case, the worst t of its grid: ‖e^{Wt}‖₂ against the bound, both computed in
    ``backend`` (tolerance c·n·u·(1 + s)e^s, s = ‖W‖_F·t: the scaling-and-squaring error
    relative to e^{‖Wt‖})."""
    from recmem.numerics.lyapunov import fractions

    law = ctx.law(SemigroupBound)
    bits = backend.precision_bits
    out = []
    for case in cases(ctx, law):
        t0 = time.perf_counter()
        n = case.W.nrows()
        wf2 = float(sum((x * x for row in fractions(case.W) for x in row), Fraction(0)))
        best = None
        for t in case.times:
            val, bnd = norm_exp(backend, case.W, t, bits), bound_in(backend, law, case.beta0, t, bits)
            excess = mpmath.mpf(val.mid) - mpmath.mpf(bnd.mid)
            if best is None or excess > best[0]:
                best = (excess, t, val, bnd)
        assert best is not None
        _, t, val, bnd = best
        s = mpmath.sqrt(wf2) * float(t)
        tol_abs = mpmath.mpf(0) if backend.encloses else \
            lc.C_TOL * n * backend.unit_roundoff * (1 + s) * mpmath.exp(s)

        def again(fb: AbstractBackend, w: Any = case.W, t: Fraction = t,
                  beta0: Fraction = case.beta0) -> tuple[lc.Value, lc.Value]:
            b2 = fb.precision_bits
            return norm_exp(fb, w, t, b2), bound_in(fb, law, beta0, t, b2)

        out.append(lc.compare(
            f"‖e^(Wt)‖₂ ≤ the bound at the worst t of the grid ({case.label})", backend, val, bnd,
            relation="le", tol_abs=tol_abs,
            tol_text=f"c·n·u·(1 + s)·e^s, s = ‖W‖_F·t, c={lc.C_TOL}, u=2^-{bits}" if tol_abs
            else "ball arithmetic", t0=t0, recompute=again,
            data={"t": str(t), "beta0": str(case.beta0)},
            counterexample={"W": lc._fmt(fractions(case.W)), "beta0": str(case.beta0), "t": str(t),
                            "‖e^{Wt}‖₂": str(val), "bound": str(bnd)}))
    return out


# ---- the exact search ---------------------------------------------------------------------

@dataclass(frozen=True)
class SemigroupInstance:
    """An exact (W, β₀, t) with W's abscissa (of the statement's kind) exact."""

    W: tuple[tuple[Fraction, ...], ...]
    abscissa: Fraction
    beta0: Fraction
    t: Fraction


def strategy(ctx: Context) -> Any:
    """Spectral statements: W = U T Uᵀ over all Hurwitz W (non-normal, defective included), exact
    α(W); numerical ones: W = U·diag(−s)·Uᵀ + K (any W with negative definite symmetric part),
    exact μ(W). β₀ = f·(the edge of the hypothesis, ``law.edge_beta0``) for 1/4 ≤ f ≤ 1, and
    just beyond it, β₀ = f·|a| for 1 < f ≤ 5/4, kept when the statement admits it (so a widened
    hypothesis is searched where it differs); t ∈ [0, 2]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in
    from recmem.numerics.lyapunov import fractions

    law = ctx.law(SemigroupBound)
    n_max = int(ctx["n_search"])
    times = fractions_in(Fraction(0), Fraction(2))
    frac = fractions_in(Fraction(1, 4), Fraction(5, 4))

    def beta0(a: Fraction, f: Fraction) -> Fraction:  # f × the edge of the hypothesis, or beyond
        return f * law.edge_beta0(a) if f <= 1 else -f * a

    def admitted(inst: SemigroupInstance) -> bool:
        return law.admits(inst.abscissa, inst.beta0)

    if law.abscissa == "spectral":
        base = lc.hurwitz_instances(1, n_max, "all")
        return st.builds(lambda inst, f, t: SemigroupInstance(inst.W, inst.alpha,
                                                              beta0(inst.alpha, f), t),
                         base, frac, times).filter(admitted)

    @st.composite
    def build(draw: Any) -> SemigroupInstance:
        import flint

        n = draw(st.integers(1, n_max))
        s = [draw(fractions_in(Fraction(1, 4), Fraction(2))) for _ in range(n)]
        unit = fractions_in(Fraction(-1), Fraction(1))
        skew = [[Fraction(0)] * n for _ in range(n)]
        k = flint.fmpq_mat(n, n)
        for i in range(n):
            for j in range(i + 1, n):
                skew[i][j] = draw(unit) / 2
                skew[j][i] = -skew[i][j]
                x = draw(fractions_in(Fraction(-2), Fraction(2)))
                k[i, j], k[j, i] = lc._fq(x), lc._fq(-x)
        u = lc.cayley(skew)
        d = flint.fmpq_mat(n, n)
        for i in range(n):
            d[i, i] = lc._fq(-s[i])
        w = u * d * u.transpose() + k
        mu = -min(s)
        return SemigroupInstance(tuple(map(tuple, fractions(w))), mu, beta0(mu, draw(frac)),
                                 draw(times))

    return build().filter(admitted)


def holds(inst: SemigroupInstance, ctx: Context) -> Instance:
    """Certified: ‖e^{Wt}‖₂² = λ_max(e^{Wᵀt}e^{Wt}) and the bound², both as flint balls (the ball
    matrix exponential and eigenvalue enclosures are rigorous); decided when the balls separate."""
    import flint

    from recmem.numerics.lyapunov import fmpq_matrix

    law = ctx.law(SemigroupBound)
    values = {"W": lc._fmt(inst.W), "abscissa": str(inst.abscissa), "beta0": str(inst.beta0),
              "t": str(inst.t)}
    if not law.admits(inst.abscissa, inst.beta0):
        return Instance(True, "outside the hypothesis (vacuous)", values)
    bits = 96
    with flint.ctx.workprec(bits):
        tt = flint.arb(flint.fmpq(inst.t.numerator, inst.t.denominator))
        e = (flint.arb_mat(fmpq_matrix(inst.W)) * tt).exp()
        g = lc.lmax(e.transpose() * e, "flint", bits)
        b = law.bound(flint.arb(flint.fmpq(inst.beta0.numerator, inst.beta0.denominator)), tt,
                      lambda z: z.exp())
        b2 = lc.ball_value(b * b, bits)
    values |= {"‖e^{Wt}‖₂² ∈": f"[{mpmath.nstr(g.lo, 10)}, {mpmath.nstr(g.hi, 10)}]",
               "bound² ∈": f"[{mpmath.nstr(b2.lo, 10)}, {mpmath.nstr(b2.hi, 10)}]"}
    how = "ball arithmetic (flint): ball matrix exponential, eigenvalue enclosure of e^{Wᵀt}e^{Wt}"
    if g.hi <= b2.lo:
        return Instance(True, how, values)
    if g.lo > b2.hi:
        return Instance(False, how + ": the enclosures separate", values)
    return Instance(None, how + ": the enclosures overlap (equality or too wide)", values)


def symbolic(ctx: Context) -> list[Evidence]:
    """Exact witnesses and the Lumer–Phillips argument (theory.lyapunov.semigroup_proof)."""
    from recmem.theory.lyapunov import semigroup_proof

    proof, sec = lc.proof_time(lambda: semigroup_proof(ctx.law(SemigroupBound)))
    return [from_proof(proof, sec)]


PARAMS = (lc.p_n(3), lc.p_kind("nonnormal"), lc.p_departure(), lc.p_draw(), lc.p_n_search(3))
TOL = ("exact (SymPy witnesses); certified balls (flint matrix exponential and eigenvalue "
       "enclosures, in the search and the flint side); point arithmetics: c·n·u·(1 + s)e^s with "
       "s = ‖W‖_F·t and u of the arithmetic that ran; mpmath violations certified only by a "
       "recomputation in ball arithmetic (flint)")

CLAIMS = [
    Claim(
        id="W.semigroup-bound",
        summary="finding: A.8's (37)–(38) treat the spectral abscissa as a log-norm: W = [[−2, 10], "
                "[0, −2]], t = 1/10",
        title="A.8 eqs. (37)–(38): ‖e^{Wt}‖₂ ≤ e^{−β₀t} from max Re λ(W) < −β₀",
        statement=SemigroupBound(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        params=PARAMS,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="A finding in the proof of Theorem 3.9 (A.8): the step from (37) to (38) uses the "
              "spectral abscissa as if it bounded ‖e^{Wt}‖₂, which holds for normal W only. For "
              "W = [[−2, 10], [0, −2]] (eigenvalues −2 < −β₀ = −1), t = 1/10: ‖e^{Wt}‖₂ = "
              "e^{−1/5}(1 + √5)/2 ≈ 1.325 > e^{−1/10} ≈ 0.905 (indeed > 1 ≥ e^{−β₀t} for every "
              "β₀ > 0: the checks take β₀ at the edge of the hypothesis, 63/32 for the strict "
              "α(W) < −β₀ on the grid of edge_beta0). A constant factor repairs it for "
              "diagonalizable W (κ₂(V)e^{−β₀t}) and then only the constants of (39)–(43) change.",
    ),
    Claim(
        id="W.semigroup-bound.corrected",
        summary="the logarithmic norm λ_max((W + Wᵀ)/2) ≤ −β₀ gives the bound",
        title="‖e^{Wt}‖₂ ≤ e^{−β₀t} from λ_max((W + Wᵀ)/2) ≤ −β₀",
        statement=SemigroupBound(abscissa="numerical", strict=False),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        params=PARAMS,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        corrects="W.semigroup-bound",
        notes="The logarithmic norm μ₂(W) = λ_max((W + Wᵀ)/2) bounds ‖e^{Wt}‖₂ ≤ e^{μ₂(W)t}; it "
              "equals the spectral abscissa exactly when W is normal.",
    ),
]
