"""W.theorem.step-*: the displayed steps (30), (35), (40)–(42), (51), (56)–(57), (63), (65)–(66) of
Theorem 3.9's proof (paper W, App. A.8 for linear-like and A.9 for tanh-like activations, ICLR 2024
camera-ready). The statements are in :mod:`recmem.theory.theorem_proof_steps`; every side reads
them from the context.

- ``W.theorem.step-30`` — (29) ⇒ (30) as printed (strict < −β₀): REFUTED by W_m = (−β₀),
  W̃_(m,k) = (−1/k) (Hurwitz for every k, limit W_m + β₀); ``.corrected`` (≤ −β₀, as A.9's (47)).
- ``W.theorem.step-35-57`` — (34) ⇒ (35), (55) ⇒ (56), (57) and A.8's ε = ½β₀Z₀.
- ``W.theorem.step-40-42`` — (39) ⇒ (40) ⇒ (41) and (42) with C′ := sup e^{β₀t}|c_mᵀv_{m,t}|.
- ``W.theorem.step-51`` — (51): dV/dt along (45) with (48), Q = I.
- ``W.theorem.step-63-66`` — (63) from (62) and (50); (65) from (48) and (64); (66).

Numeric sides (mpmath, python-flint balls, numpy, torch): each step's two sides computed in the
arithmetic on exact instances from an independent route — eigenvalues of W_m and of W̃_(m,k)
computed there (30); P solved from (48) there and dV/dt taken by the product rule along the vector
field of (45) (51); the quadratic forms of that P at its eigen-directions (63)–(66) — against the
statement's bound. Point arithmetics pass iff the violation is ≤ n·u (u: the arithmetic's unit
roundoff), balls certify the sign of lhs − rhs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.native import scalars
from recmem.theory.theorem_proof_steps import (
    DivideStep,
    EigenLimit,
    ExpChain,
    LyapunovDerivative,
    LyapunovSandwich,
    WarmupConstant,
    abscissa_sign,
    divide_margins,
    divide_proof,
    eigen_limit_proof,
    exp_chain_42_exact,
    exp_chain_proof,
    lyapunov_derivative_proof,
    sandwich_proof,
    times_const,
    warmup_proof,
)

F = Fraction
Rows = tuple[tuple[Fraction, ...], ...]
# a row of a numeric check: (label, lhs, rhs, relation "≤" or "=") in the arithmetic's scalars
Row = tuple[str, Any, Any, str]
N_OPS = 16  # roundings along the longest chain of one row (≤ 16 operations of ≤ 1 ulp each, c = 4)


# ---- the arithmetic-independent machinery of the numeric checks ----------------------------------

def _ends(backend: AbstractBackend, x: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The real part of a native scalar as [lo, hi] (balls: outward-rounded ends; points: lo = hi)."""
    from recmem.numerics.certified import fixed_context

    if backend.spec.kind == "flint":
        import flint

        from recmem.numerics.certified import arb_ends

        return arb_ends(flint.acb(x).real, backend.precision_bits)
    v = backend.scalar_to_mp(x, fixed_context(backend.precision_bits + 64)).real
    return v, v


def rows_check(backend: AbstractBackend, check: str, rows: Sequence[Row], instance: dict[str, Any],
               started: float, tol_units: int = 4 * N_OPS, source: str = "") -> Evidence:
    """Judge rows lhs ≤ rhs / lhs = rhs computed in ``backend`` (see :func:`judge`)."""
    items = []
    with backend.activate():
        for label, lhs, rhs, rel in rows:
            lo, hi = _ends(backend, lhs - rhs)
            scale = max(abs(_ends(backend, lhs)[1]), abs(_ends(backend, rhs)[1]))
            items.append((label, lo, hi, scale, rel))
    return judge(backend, check, items, instance, started, tol_units, source)


def judge(backend: AbstractBackend, check: str, items: Sequence[tuple[Any, ...]],
          instance: dict[str, Any], started: float, tol_units: int = 4 * N_OPS,
          source: str = "") -> Evidence:
    """Judge (label, lo, hi, scale, relation[, slack]) items, [lo, hi] enclosing d = lhs − rhs
    (points: lo = hi; ``slack``: an absolute error already in d, such as a computed eigenvalue's).

    Point arithmetics, with band = tol_units·u + slack/scale (relative): "≤" fails when
    d/scale > band and is undecided (INCONCLUSIVE) when |d|/scale ≤ band — the instances hold their
    relations with a margin, so a band that swallows it resolves nothing; "=" passes when
    |d|/scale ≤ band and is undecided when band ≥ 1/2. Balls: REFUTE when an enclosure excludes the
    relation, PASS when every one proves it, else INCONCLUSIVE. The residual is the largest
    relative violation (0 when every relation holds at the midpoints)."""
    ball = backend.spec.kind == "flint"
    u = mpmath.mpf(backend.unit_roundoff)
    worst, widest = mpmath.mpf(0), mpmath.mpf(0)
    certain_bad: list[str] = []
    unsure: list[str] = []
    failed: list[str] = []
    for label, lo, hi, scale, rel, *rest in items:
        scale = max(scale, mpmath.mpf(2) ** -200)
        band = mpmath.mpf(0) if ball else tol_units * u + (rest[0] if rest else 0) / scale
        widest = max(widest, band)
        mid = (lo + hi) / 2
        viol = abs(mid) / scale if rel == "=" else max(mid, 0) / scale
        worst = max(worst, viol)
        if ball:
            if lo > 0 or (rel == "=" and hi < 0):
                certain_bad.append(label)
            elif (rel == "≤" and hi > 0) or (rel == "=" and (hi - lo) / scale > mpmath.mpf(2) ** (
                    -(backend.precision_bits // 2))):
                unsure.append(label)
        elif rel == "≤":
            if mid / scale > band:
                failed.append(label)
            elif mid / scale >= -band:
                unsure.append(label)
        elif viol > band:
            failed.append(label)
        elif band >= mpmath.mpf(1) / 2:
            unsure.append(label)
    if ball:
        outcome = (Outcome.REFUTE if certain_bad else Outcome.INCONCLUSIVE if unsure else Outcome.PASS)
        src = source or "ball arithmetic: the enclosure of lhs − rhs decides the relation"
    else:
        outcome = Outcome.FAIL if failed else Outcome.INCONCLUSIVE if unsure else Outcome.PASS
        src = source or f"4·{N_OPS}·u (≤ {N_OPS} roundings of ≤ 4u per row; u = 2^-{backend.precision_bits})"
    msg = ("every row holds" if outcome is Outcome.PASS else
           f"violated (certified): {', '.join(certain_bad)}" if certain_bad else
           f"violated beyond the tolerance: {', '.join(failed)}" if failed else
           f"not resolved at this precision: {', '.join(unsure)}")
    return Evidence(check=check, kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, instances=len(items),
                    residual=mpmath.nstr(worst, 6), tolerance=mpmath.nstr(widest, 6), tolerance_source=src,
                    counterexample={**instance, "rows": ", ".join(certain_bad)} if certain_bad else None,
                    certified_by="ball arithmetic (python-flint)" if certain_bad else None,
                    seconds=time.perf_counter() - started, message=msg)


def _symbolic(proof_of: Callable[[Any], Any], kind: type) -> Callable[[Context], list[Evidence]]:
    """The symbolic side: the statement decided by ``proof_of`` (theory.theorem_proof_steps)."""
    def symbolic(ctx: Context) -> list[Evidence]:
        t0 = time.perf_counter()
        return [from_proof(proof_of(ctx.law(kind)), time.perf_counter() - t0)]
    return symbolic


def _frac_str(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_frac_str(y) for y in x]
    return str(x)


# ---- (29) ⇒ (30) ---------------------------------------------------------------------------------

def _conj(t: Rows, s: Rows) -> Rows:
    """S T S⁻¹ for 2×2 rational S (exact)."""
    (a, b), (c, d) = s
    det = a * d - b * c
    si = ((d / det, -b / det), (-c / det, a / det))
    st = [[F(s[i][0]) * t[0][j] + F(s[i][1]) * t[1][j] for j in range(2)] for i in range(2)]
    return tuple(tuple(st[i][0] * si[0][j] + st[i][1] * si[1][j] for j in range(2)) for i in range(2))


def _eig_ends(backend: AbstractBackend, rows: Rows) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """Re λ of a 2×2 matrix, computed in ``backend``'s arithmetic (LAPACK, torch, mpmath's QR, or
    flint's certified acb_mat.eig), as [lo, hi]."""
    kind, bits = backend.spec.kind, backend.precision_bits
    if kind == "numpy":
        import numpy as np

        arr: Any = np.array([[float(x) for x in r] for r in rows],
                            dtype=np.float32 if backend.spec.dtype == "float32" else np.float64)
        return [(mpmath.mpf(float(e.real)),) * 2 for e in np.linalg.eigvals(arr)]
    if kind == "torch":
        import torch

        from recmem.checks.claims.paper_w._memory import torch_device

        tdt = torch.float32 if backend.spec.dtype == "float32" else torch.float64
        ev = torch.linalg.eigvals(torch.tensor([[float(x) for x in r] for r in rows], dtype=tdt,
                                               device=torch_device(backend))).cpu()
        return [(mpmath.mpf(float(e.real)),) * 2 for e in ev]
    if kind == "mpmath":
        ctx = getattr(backend, "ctx")  # noqa: B009 (the mpmath backend's context)
        m = ctx.matrix([[ctx.mpf(x.numerator) / x.denominator for x in r] for r in rows])
        return [(mpmath.mpf(ctx.re(e)),) * 2 for e in ctx.eig(m, left=False, right=False)]
    import flint

    from recmem.numerics.certified import arb_ends

    with flint.ctx.workprec(bits):
        m = flint.acb_mat([[flint.fmpq(x.numerator, x.denominator) for x in r] for r in rows])
        return [arb_ends(e.real, bits) for e in m.eig()]


# exact limits W_m + β₀I (α < 0 by −β₀/16 or −β₀/32: a control moving the bound by β₀/8 shows) and β₀
EIG_CASES: tuple[tuple[str, Rows, Fraction], ...] = (
    ("rotation block", ((F(-1, 16), F(1)), (F(-1), F(-1, 16))), F(1)),
    ("S·diag(−1/64, −2)·S⁻¹", _conj(((F(-1, 64), F(0)), (F(0), F(-2))), ((F(2), F(1)), (F(1), F(1)))),
     F(1, 2)),
)


def _eig_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """max Re λ of W̃_(m,k) = (W_m + sβ₀I) − I/k (k = 1, 10, 1000) and of W_m = limit − sβ₀I,
    computed in this arithmetic, against (29) (< 0) and the bound of (30)."""
    law = ctx.law(EigenLimit)
    t0 = time.perf_counter()
    items = []
    eye = ((F(1), F(0)), (F(0), F(1)))
    # a computed Re λ of these 2×2 matrices (‖W‖_F ≤ 3) is off by ≤ 4√u·‖W‖_F (defective ones
    # included); balls enclose it
    slack = mpmath.mpf(0) if backend.spec.kind == "flint" else 12 * mpmath.sqrt(backend.unit_roundoff)
    for label, lim, beta0 in EIG_CASES:
        w = tuple(tuple(law.matrix(lim[i][j], beta0, eye[i][j]) for j in range(2)) for i in range(2))
        for k in (1, 10, 1000):
            wk = tuple(tuple(lim[i][j] - eye[i][j] / k for j in range(2)) for i in range(2))
            ends = _eig_ends(backend, wk)
            items.append((f"{label}: (29) at k = {k}", max(e[0] for e in ends), max(e[1] for e in ends),
                          mpmath.mpf(1), "≤", slack))
        ends = _eig_ends(backend, w)
        bound = law.bound(mpmath.mpf(beta0.numerator) / beta0.denominator)
        items.append((f"{label}: (30)", max(e[0] for e in ends) - bound, max(e[1] for e in ends) - bound,
                      abs(bound), "≤", slack))
    return [judge(backend, "eigenvalues of W̃_(m,k) and W_m vs (29) and the bound of (30)", items,
                  {"cases": [c[0] for c in EIG_CASES]}, t0,
                  source=("ball arithmetic (acb_mat.eig enclosures)" if backend.spec.kind == "flint" else
                          "4√u·‖W‖_F (‖W‖_F ≤ 3) on a computed Re λ, then 4·16·u"))]


def eig_strategy(ctx: Context) -> Any:
    """A limit W_m + sβ₀I = S T S⁻¹ with α(T) ≤ 0 (a diagonal with a coupling, or a rotation
    block; 0 on the axis included: the boundary of (29)'s closure), S from a few unimodular
    matrices, and β₀ ∈ [1/8, 2]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    nonpos, coupling = fractions_in(F(-2), F(0)), fractions_in(F(-2), F(2))
    omega, beta = fractions_in(F(1, 4), F(2)), fractions_in(F(1, 8), F(2))
    sims = (((F(1), F(0)), (F(0), F(1))), ((F(2), F(1)), (F(1), F(1))), ((F(1), F(1)), (F(0), F(1))))

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        a = draw(nonpos)
        if draw(st.booleans()):
            t = ((a, draw(coupling)), (F(0), draw(nonpos)))
        else:
            om = draw(omega)
            t = ((a, om), (-om, a))
        lim = _conj(t, draw(st.sampled_from(sims)))
        return {"limit": lim, "beta0": draw(beta)}
    return build()


def eig_holds(instance: Any, ctx: Context) -> Instance:
    """Exact: (29) for every k ⟺ α(limit) ≤ 0 (W̃_(m,k) = limit − I/k); the conclusion from the
    sign of α(W_m) − bound, both from the 2×2 characteristic polynomial over ℚ."""
    law = ctx.law(EigenLimit)
    lim, beta0 = instance["limit"], instance["beta0"]
    eye = ((F(1), F(0)), (F(0), F(1)))
    w = tuple(tuple(law.matrix(lim[i][j], beta0, eye[i][j]) for j in range(2)) for i in range(2))
    hyp = abscissa_sign(lim, F(0)) <= 0
    sign = abscissa_sign(w, law.bound(beta0))
    ok = (not hyp) or law.holds_at(sign)
    return Instance(ok, "exact: the 2×2 characteristic polynomial over ℚ (trace, discriminant)",
                    {"W_m": _frac_str(w), "β₀": str(beta0), "sign(α(W_m) − bound)": sign,
                     "W̃_(m,k)": "limit − I/k"},
                    "" if ok else "α(W_m) attains or exceeds the bound")


# ---- (34) ⇒ (35), (55) ⇒ (56), (57) -------------------------------------------------------------

DIV_CASES = ((F(0), F(1), F(1), F(1, 8), F(1, 2), F(1), F(1)),
             (F(1, 2), F(2), F(1, 2), F(1, 16), F(7, 8), F(3), F(2)),
             (F(1), F(1, 3), F(2), F(1, 4), F(1, 3), F(1, 2), F(1, 4)))


def _div_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """ε = a + β₀r + δ, θβ₀Υ_L and ½β₀Z₀ formed in this arithmetic, the bound f·ε·β₀^p against r,
    Υ_L and Z₀."""
    law = ctx.law(DivideStep)
    t0 = time.perf_counter()
    rows: list[Row] = []
    with backend.activate():
        for i, case in enumerate(DIV_CASES):
            a, r, b0, dl, th, ups, z0 = scalars(backend, case)
            m35, m57, m_a8 = divide_margins(law, a, r, b0, dl, th, ups, z0)
            rows += [(f"case {i}: (35)/(56)", r, m35 + r, "≤"), (f"case {i}: (57)", ups - m57, ups, "≤"),
                     (f"case {i}: A.8", z0 - m_a8, z0, "≤")]
    return [rows_check(backend, "the bound f·ε·β₀^p vs |v|₂, Υ_L, Z₀ on exact cases", rows,
                       {"cases (a, r, β₀, δ, θ, Υ_L, Z₀)": [_frac_str(c) for c in DIV_CASES]}, t0)]


def div_strategy(ctx: Context) -> Any:
    """(a, r, β₀, δ, θ, Υ_L, Z₀): a ∈ [0, 2], r ∈ [0, 4], β₀ ∈ [1/8, 2], the slack δ ∈ [1/256, 1] (small:
    near the boundary of (34)), θ ∈ [1/8, 63/64], Υ_L, Z₀ ∈ [1/8, 2]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    # a = 0 often: the tight case of (34), where a control's smaller bound shows
    return st.tuples(st.one_of(st.just(F(0)), fractions_in(0, 2)), fractions_in(0, 4),
                     fractions_in(F(1, 8), 2),
                     st.sampled_from([F(1, 64), F(1, 256), F(1, 4), F(1)]),
                     st.sampled_from([F(1, 8), F(1, 2), F(7, 8), F(63, 64)]),
                     fractions_in(F(1, 8), 2), fractions_in(F(1, 8), 2))


def div_holds(instance: Any, ctx: Context) -> Instance:
    """Exact: the three margins over ℚ."""
    margins = divide_margins(ctx.law(DivideStep), *instance)
    ok = all(m > 0 for m in margins)
    return Instance(ok, "exact rational arithmetic", {"margins ((35)/(56), (57), A.8)": _frac_str(margins)},
                    "" if ok else "a margin is ≤ 0")


# ---- (39)–(42) -----------------------------------------------------------------------------------

# (|c_m|₂, |v_T|₂, Z₀, β₀, T_ε, t ≥ T_ε, γ): |v_T|₂ = 7/16·Z₀ ≤ Z₀/2; g(s) = e^{−γs} on [0, T_ε]
EXP_CASES = ((F(1), F(7, 16), F(1), F(1), F(2), F(3), F(1, 2)),
             (F(3, 2), F(7, 8), F(2), F(1, 2), F(4), F(9), F(1, 4)))


def _exp_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """(40), (41) with the exponentials computed in this arithmetic; (42) with C′ the maximum of
    e^{β₀s}g(s) over s = jT_ε/8 (a lower bound of the supremum: the check is then conservative)
    and g(t) at t = T_ε/2, 7T_ε/8."""
    law = ctx.law(ExpChain)
    t0 = time.perf_counter()
    rows: list[Row] = []
    with backend.activate():
        for i, case in enumerate(EXP_CASES):
            c, v_t, z0, b0, te, t, gam = scalars(backend, case)
            decay = backend.exp(-b0 * (t - te))
            lhs, rhs = law.sides_40(c, v_t, z0, decay)
            rows.append((f"case {i}: (40)", lhs, rhs, "≤"))
            lhs, rhs = law.sides_41(c, z0, backend.exp, b0, t, te)
            rows.append((f"case {i}: (41)", lhs, rhs, "="))
            grid = scalars(backend, [case[4] * j / 8 for j in range(9)])
            weighted = [backend.exp(b0 * s) * backend.exp(-gam * s) for s in grid]
            pick = max(range(9), key=lambda j: _ends(backend, weighted[j])[1])
            for frac in (F(1, 2), F(7, 8)):
                (tt,) = scalars(backend, [case[4] * frac])
                lhs, rhs = law.sides_42(backend.exp(-gam * tt), weighted[pick], backend.exp, b0, tt)
                rows.append((f"case {i}: (42) at t = {frac}·T_ε", lhs, rhs, "≤"))
    return [rows_check(backend, "(40)–(42) with the exponentials of this arithmetic", rows,
                       {"cases (|c|, |v_T|, Z₀, β₀, T_ε, t, γ)": [_frac_str(c) for c in EXP_CASES]}, t0)]


def exp_strategy(ctx: Context) -> Any:
    """(|c_m|₂, |v_T|₂ ≤ Z₀/2, Z₀, β₀, T_ε, t ≥ T_ε, γ, t₄₂ ∈ [0, T_ε]); γ ∈ [0, 2] (slower and
    faster than β₀)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    pos, half, four = fractions_in(F(1, 8), 2), fractions_in(0, F(1, 2)), fractions_in(0, 4)
    two, unit = fractions_in(0, 2), fractions_in(0, 1)

    @st.composite
    def build(draw: Any) -> tuple[Fraction, ...]:
        z0, te = draw(pos), draw(four)
        return (draw(pos), z0 * draw(half), z0, draw(pos), te, te + draw(four), draw(two), te * draw(unit))
    return build()


def exp_holds(instance: Any, ctx: Context) -> Instance:
    """Exact: (40) over ℚ (the positive factor e^{−β₀(t−T_ε)} cancels), (41) as an equality of
    rational exponents, (42) by :func:`exp_chain_42_exact`."""
    law = ctx.law(ExpChain)
    c, v_t, z0, b0, te, t, gam, t42 = instance
    ok40 = c * v_t <= c * law.z_factor * z0
    ok41 = -b0 * (t - te) == law.shift * b0 * te - b0 * t  # c·Z₀ > 0: equal iff the exponents are
    ok42, gap = exp_chain_42_exact(law, gam, b0, te, t42)
    ok = ok40 and ok41 and ok42
    return Instance(ok, "exact rational arithmetic (exp is increasing and injective)",
                    {"(40)": ok40, "(41)": ok41, "(42) exponent gap": str(gap)},
                    "" if ok else "a step fails")


# ---- (51) ----------------------------------------------------------------------------------------

LYAP_CASES: tuple[tuple[Rows, tuple[Fraction, ...]], ...] = (
    (((F(-1), F(1)), (F(0), F(-2))), (F(1, 2), F(-3, 4))),
    (((F(-2), F(1), F(0)), (F(-1), F(-1), F(1, 2)), (F(0), F(1, 4), F(-3))), (F(1, 3), F(1, 2), F(-1))),
)


def _quad_forms(backend: AbstractBackend, p: Any, w: Sequence[Sequence[Any]], v: Sequence[Any]
                ) -> tuple[Any, Any, Any]:
    """(dV/dt by the product rule 2vᵀP f(v), f(v) = (I − Diag(v)²)Wv; |v|₂²; q(v)) with P's entries
    as computed in ``backend``."""
    from recmem.theory.lyapunov import quartic

    m = len(v)
    pe = _entries(backend, p, m)
    wv = [sum((w[i][j] * v[j] for j in range(1, m)), w[i][0] * v[0]) for i in range(m)]
    f = [(1 - v[i] * v[i]) * wv[i] for i in range(m)]
    pf = [sum((pe[i][j] * f[j] for j in range(1, m)), pe[i][0] * f[0]) for i in range(m)]
    pv = [sum((pe[i][j] * v[j] for j in range(1, m)), pe[i][0] * v[0]) for i in range(m)]
    dv = 2 * sum((v[i] * pf[i] for i in range(1, m)), v[0] * pf[0])
    n2 = sum((v[i] * v[i] for i in range(1, m)), v[0] * v[0])
    return dv, n2, quartic(pv, wv, v, zero=0 * v[0])


def _entries(backend: AbstractBackend, p: Any, m: int) -> list[list[Any]]:
    """P's entries as native scalars (numpy arrays, torch tensors, mpmath and flint matrices all
    index as p[i, j])."""
    return [[p[i, j] for j in range(m)] for i in range(m)]


def _solve(backend: AbstractBackend, rows: Rows) -> Any:
    """P of (48) (Q = I) in ``backend``'s arithmetic (numerics.lyapunov.solve)."""
    from recmem.checks.claims.paper_w._lyapunov import solve_in

    return solve_in(backend, [list(r) for r in rows])


def _lyap_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """P solved from (48) in this arithmetic; dV/dt by the product rule along (45) against the
    statement's right side."""
    law = ctx.law(LyapunovDerivative)
    t0 = time.perf_counter()
    rows: list[Row] = []
    with backend.activate():
        for i, (wr, vr) in enumerate(LYAP_CASES):
            key = ("step-51", "P", backend.name, i)
            if key not in ctx.shared:  # P depends on W only, not on the statement
                ctx.shared[key] = _solve(backend, wr)
            p = ctx.shared[key]
            w = [scalars(backend, r) for r in wr]
            v = scalars(backend, vr)
            dv, n2, quart = _quad_forms(backend, p, w, v)
            rows.append((f"case {i} (m = {len(vr)})", dv, law.rhs(n2, quart), "="))
    # P carries the Lyapunov solve's error, ≲ κ(L)·u with κ(L) ≤ 40 for these W: 64·40·u
    return [rows_check(backend, "dV/dt by the product rule along (45), P from (48) in this arithmetic, "
                       "vs the right side of (51)", rows,
                       {"cases (W, v)": [(_frac_str(w), _frac_str(v)) for w, v in LYAP_CASES]}, t0,
                       tol_units=64 * 40,
                       source="" if backend.spec.kind == "flint" else
                       "64·κ·u, κ = 40 ≥ κ₂(I⊗Wᵀ + Wᵀ⊗I) of the cases (the solve error of P)")]


def lyap_strategy(ctx: Context) -> Any:
    """Hurwitz 2×2 W (trace < 0 < det) with entries in [−2, 2], v ∈ [−2, 2]²."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    e = fractions_in(-2, 2)
    w = st.tuples(st.tuples(e, e), st.tuples(e, e)).filter(
        lambda m: m[0][0] + m[1][1] < 0 < m[0][0] * m[1][1] - m[0][1] * m[1][0])
    return st.tuples(w, st.tuples(e, e))


def lyap_holds(instance: Any, ctx: Context) -> Instance:
    """Exact over ℚ: P from (48) (numerics.lyapunov.exact), both sides of (51)."""
    from recmem.numerics.lyapunov import exact, fractions
    from recmem.theory.lyapunov import quartic

    law = ctx.law(LyapunovDerivative)
    w, v = instance
    p = fractions(exact([list(r) for r in w]).P)
    wv = [w[i][0] * v[0] + w[i][1] * v[1] for i in range(2)]
    pv = [p[i][0] * v[0] + p[i][1] * v[1] for i in range(2)]
    f = [(1 - v[i] ** 2) * wv[i] for i in range(2)]
    lhs = 2 * sum(v[i] * (p[i][0] * f[0] + p[i][1] * f[1]) for i in range(2))
    rhs = law.rhs(v[0] ** 2 + v[1] ** 2, quartic(pv, wv, v, zero=F(0)))
    return Instance(lhs == rhs, "exact rational arithmetic (P solved over ℚ)",
                    {"P": _frac_str(p), "dV/dt": str(lhs), "right side": str(rhs)},
                    "" if lhs == rhs else "the two sides differ")


# ---- (63), (65), (66) ----------------------------------------------------------------------------

Q34 = ((F(3, 5), F(4, 5)), (F(-4, 5), F(3, 5)))  # a rational rotation: eigen-directions of W below


def _sym(l1: Fraction, l2: Fraction) -> Rows:
    """Qᵀ diag(l1, l2) Q (symmetric, eigenvectors the rows of Q)."""
    return tuple(tuple(Q34[0][i] * l1 * Q34[0][j] + Q34[1][i] * l2 * Q34[1][j] for j in range(2))
                 for i in range(2))


# (W, ‖W‖₂, β₀′ = min|Re λ| (so ‖P‖₂ = 1/(2β₀′)), top and bottom eigen-directions of P), normal W
SANDWICH_W: tuple[tuple[str, Rows, Fraction, Fraction, tuple[Fraction, ...], tuple[Fraction, ...]], ...] = (
    ("−3I + 4J (rotation-scaled)", ((F(-3), F(4)), (F(-4), F(-3))), F(5), F(3), (F(1), F(0)), (F(0), F(1))),
    ("Qᵀdiag(−1, −4)Q", _sym(F(-1), F(-4)), F(4), F(1), Q34[0], Q34[1]),
)


def _sandwich_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """P from (48) in this arithmetic; β₀ = 7/8·β₀′ (so (50) holds), M = 9/8·‖W‖₂, Υ_L = 1,
    v_top = 7/8·(top eigen-direction): (63) V(v_top) ≤ u·Υ_L²/β₀; (65) V(q) ≥ ℓ|q|²/M at the bottom
    direction q; (66) the largest |v|₂² with V(v) ≤ Υ_L²/(2β₀), Υ_L²/(2β₀)·|q|²/V(q), ≤ C₀²."""
    law = ctx.law(LyapunovSandwich)
    t0 = time.perf_counter()
    rows: list[Row] = []
    with backend.activate():
        for i, (label, wr, wn, b0p, top, bot) in enumerate(SANDWICH_W):
            key = ("step-63-66", "P", backend.name, i)
            if key not in ctx.shared:
                ctx.shared[key] = _solve(backend, wr)
            pe = _entries(backend, ctx.shared[key], 2)
            b0, mb, ups2 = scalars(backend, [F(7, 8) * b0p, F(9, 8) * wn, F(1)])
            vt = scalars(backend, [F(7, 8) * x for x in top])
            q = scalars(backend, list(bot))

            def form(x: list[Any], pe: list[list[Any]] = pe) -> Any:
                return (x[0] * (pe[0][0] * x[0] + pe[0][1] * x[1])
                        + x[1] * (pe[1][0] * x[0] + pe[1][1] * x[1]))
            vq, nq = form(q), q[0] * q[0] + q[1] * q[1]
            rows += [(f"{label}: (63)", form(vt), law.bound_63(ups2, b0), "≤"),
                     (f"{label}: (65)", law.bound_65(nq, mb), vq, "≤"),
                     (f"{label}: (66)", ups2 / (2 * b0) * nq / vq, law.bound_66(mb, b0, ups2), "≤")]
    return [rows_check(backend, "quadratic forms of P from (48) in this arithmetic vs (63), (65), (66)", rows,
                       {"cases": [c[0] for c in SANDWICH_W], "β₀": "7/8·min|Re λ|", "M": "9/8·‖W‖₂"}, t0)]


def sandwich_strategy(ctx: Context) -> Any:
    """Normal Hurwitz W (a scaled rotation −a·I + ω·J, (a, ω) Pythagorean, or Qᵀdiag(−λ₁, −λ₂)Q),
    β₀ = θ·min|Re λ| (θ ∈ (0, 1], the boundary of (50) included), M = μ‖W‖₂ (μ ≥ 1), v ∈ ℚ² and
    Υ_L² = |v|₂²/φ (φ ∈ (0, 1]: |v|₂ ≤ Υ_L)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    quarter, coord = fractions_in(F(1, 4), 2), fractions_in(-2, 2)

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        r = draw(quarter)
        if draw(st.booleans()):
            a, om, n = draw(st.sampled_from([(3, 4, 5), (4, 3, 5), (1, 0, 1), (5, 12, 13)]))
            w: Rows = ((-r * a, r * om), (-r * om, -r * a))
            peig, wn, b0p = (F(1) / (2 * r * a),) * 2, r * n, r * a
        else:
            l1, l2 = sorted([draw(quarter), draw(quarter)])
            w = _sym(-r * l1, -r * l2)
            peig, wn, b0p = (1 / (2 * r * l1), 1 / (2 * r * l2)), r * l2, r * l1
        v = (draw(coord), draw(coord))
        return {"W": w, "P eigenvalues": peig, "norm W": wn,
                "beta0": b0p * draw(st.sampled_from([F(1), F(7, 8), F(1, 2)])),
                "M": wn * draw(st.sampled_from([F(1), F(9, 8), F(2)])), "v": v,
                "phi": draw(st.sampled_from([F(1), F(3, 4), F(1, 4)]))}
    return build()


def sandwich_holds(instance: Any, ctx: Context) -> Instance:
    """Exact over ℚ: P from (48) over ℚ (its eigenvalues from the construction checked against
    tr P and det P), V(v), and the three bounds; (66) at its worst case |v|₂² = Y/λ_min(P)."""
    from recmem.numerics.lyapunov import exact, fractions

    law = ctx.law(LyapunovSandwich)
    w, v, b0, mb = instance["W"], instance["v"], instance["beta0"], instance["M"]
    p = fractions(exact([list(r) for r in w]).P)
    e1, e2 = instance["P eigenvalues"]
    if p[0][0] + p[1][1] != e1 + e2 or p[0][0] * p[1][1] - p[0][1] * p[1][0] != e1 * e2:
        return Instance(None, "exact", {"P": _frac_str(p)},
                        "the construction's eigenvalues of P do not match")
    n2 = v[0] ** 2 + v[1] ** 2
    ups2 = n2 / instance["phi"] if n2 else F(1)
    vv = sum(v[i] * (p[i][0] * v[0] + p[i][1] * v[1]) for i in range(2))
    ok63 = vv <= law.bound_63(ups2, b0)
    ok65 = min(e1, e2) >= law.bound_65(1, mb) and vv >= law.bound_65(n2, mb)
    ok66 = ups2 / (2 * b0) / min(e1, e2) <= law.bound_66(mb, b0, ups2)
    ok = ok63 and ok65 and ok66
    return Instance(ok, "exact rational arithmetic (P solved over ℚ)",
                    {"P": _frac_str(p), "V(v)": str(vv), "(63)": ok63, "(65)": ok65, "(66)": ok66},
                    "" if ok else "a bound fails")


# ---- the constant C′ before (42) -----------------------------------------------------------------

# (s, k, β₀, γ, Z₀): v₀ = s·(3/5, 4/5), c_m = k·(3/5, 4/5), W_m = −γI; the first is the refuting RNN
WARM_CASES = ((F(6, 5), F(1), F(1, 2), F(8), F(1)), (F(1), F(2), F(1), F(4), F(1)))


def _warm_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The hardtanh RNN's linear-regime trajectory v_t = e^{−γt}v₀ in this arithmetic; T_ε the least
    time of (33), log(s(k + β₀)/ε)/γ; C′ from below, max over t = jT_ε/16 of e^{β₀t}|c_mᵀv_t|, against
    the statement's bound (a lower bound of C′ above the bound refutes it)."""
    law = ctx.law(WarmupConstant)
    t0 = time.perf_counter()
    rows: list[Row] = []
    with backend.activate():
        for i, case in enumerate(WARM_CASES):
            s, k, b0, gam, z0 = scalars(backend, case)
            v0 = [scalars(backend, [F(3, 5)])[0] * s, scalars(backend, [F(4, 5)])[0] * s]
            cm = [scalars(backend, [F(3, 5)])[0] * k, scalars(backend, [F(4, 5)])[0] * k]
            t_eps = backend.log(s * (k + b0) * 2 / (b0 * z0)) / gam
            vals, norms = [], []
            for j in range(17):
                t = t_eps * j / 16
                vt = [x * backend.exp(-gam * t) for x in v0]
                vals.append(backend.exp(b0 * t) * (cm[0] * vt[0] + cm[1] * vt[1]))
                norms.append(backend.exp(-gam * t) * s)  # |v_t|₂ = e^{−γt}|v₀|₂, |v₀|₂ = s
            c_prime = vals[max(range(17), key=lambda j: _ends(backend, vals[j])[1])]
            reach = {"Z0": z0 * k, "sup": k * norms[0], "end": k * norms[-1]}[law.reach]
            bound = times_const(law.factor, reach) * backend.exp(b0 * t_eps)
            rows.append((f"case {i}: C′ (grid) ≤ bound", c_prime, bound, "≤"))
    return [rows_check(backend, "C′ from the RNN's trajectory in this arithmetic vs the bound before (42)",
                       rows, {"cases (s, k, β₀, γ, Z₀)": [_frac_str(c) for c in WARM_CASES]}, t0)]


def warm_strategy(ctx: Context) -> Any:
    """(s, k, β₀, γ): v₀ = s·(3/5, 4/5) in the cube (s < 5/4), k ∈ [1/4, 2], β₀ ∈ [1/8, 1],
    γ = n·β₀ with n ∈ {1, 2, …, 32} ((31): γ ≥ β₀)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    # |v₀|₂ = s > Z₀ = 1 (possible in the cube only up to s < 5/4) is where the printed bound fails
    size = st.one_of(st.sampled_from([F(6, 5), F(9, 8), F(1)]), fractions_in(F(1, 8), F(9, 8)))
    return st.tuples(size, fractions_in(F(1, 4), 2), fractions_in(F(1, 8), 1),
                     st.sampled_from([1, 2, 4, 8, 16, 32])).map(lambda v: (v[0], v[1], v[2], v[2] * v[3]))


def warm_holds(instance: Any, ctx: Context) -> Instance:
    """Exact over ℚ (WarmupConstant.exceeds: rational powers compared)."""
    s, k, b0, gam = instance
    bad = ctx.law(WarmupConstant).exceeds(s, k, b0, gam)
    return Instance(not bad, "exact rational arithmetic (C′ = ks, e^{β₀T_ε} = R^{β₀/γ} compared by powers)",
                    {"s": str(s), "k": str(k), "β₀": str(b0), "γ": str(gam)},
                    "C′ exceeds the bound" if bad else "")


# ---- the claims ----------------------------------------------------------------------------------

def _per_kind(fn: Callable[[AbstractBackend, Context], list[Evidence]]) -> Any:
    from recmem.checks.claim import by_arithmetic

    return by_arithmetic({"mpmath": fn, "flint": fn, "numpy": fn, "torch": fn}, "no such arithmetic here")


Q29_30 = (r"Moreover, by Lemma A.7, we know the each hyperbolic matrix $c_{\sigma} \overline{W}_{m,k}$ is "
          r"Hurwitz as the system for $\tilde{v}_{m,t}$ is asymptotically stable. $$\max _ {i \in [ m ]} "
          r"(\operatorname{Re} (\lambda_ {i} (\widetilde {W} _ {m}))) <   0, \tag {29}$$ $$\max _ {i \in "
          r"[ m ]} (\mathrm{Re} (\lambda_ {i} (W _ {m}))) <   - \beta_ {0}. \tag {30}$$ … 2. "
          r"$\lim_{k\to\infty}(\widetilde{W}_{m,k}-W_{m})=\beta_{0}I_{m}.$")
Q34_35 = (r"We have $$\left| c _ {m} v _ {m, t} \right| + \beta_ {0} \left| v _ {m, t} \right| _ {2} <   "
          r"\epsilon , \tag {34}$$ $$\left| v _ {m, t} \right| _ {2} <   \frac {\epsilon}{\beta_ {0}}, \quad "
          r"t > T _ {\epsilon}. \tag {35}$$ Select $\epsilon = \frac{1}{2}\beta_0Z_0$ , then we have the "
          r"unperturbed derivative $|v_{m,t}|_2 < Z_0$ for $t > T_{\epsilon}$ .")
Q55_57 = (r"We have $$\left| c _ {m} v _ {m, t} \right| + \beta_ {0} \left| v _ {m, t} \right| _ {2} <   "
          r"\epsilon , \tag {55}$$ $$\left| v _ {m, t} \right| _ {2} <   \frac {\epsilon}{\beta_ {0}}. \tag "
          r"{56}$$ Select $\epsilon < \beta_0\Upsilon_L$ , we have $$\left| v _ {m, t} \right| _ {2} <   "
          r"\frac {\epsilon}{\beta_ {0}} <   \Upsilon_ {L}. \tag {57}$$")
Q39_42 = (r"$$\left| c _ {m} ^ {\top} v _ {m, t} \right| \leq \left| c _ {m} \right| _ {2} \left| v _ {m, "
          r"T "
          r"_ {\epsilon}} \right| _ {2} e ^ {- \beta_ {0} (t - T _ {\epsilon})} \tag {39}$$ $$\leq \left| "
          r"c _ {m} \right| _ {2} Z _ {0} e ^ {- \beta_ {0} (t - T _ {\epsilon})} \tag {40}$$ $$= \left| "
          r"c _ {m} \right| _ {2} Z _ {0} e ^ {\beta_ {0} T _ {\epsilon}} e ^ {- \beta_ {0} t} \tag {41}$$ "
          r"For $t \in "
          r"[0, T_{\epsilon}]$ , as the memory function is continuous, there exists a constant $C' := "
          r"\sup_{t \in [0, T_{\epsilon}]} e^{\beta_{0} t} |c_{m}^{\top} v_{m,t}| \leq e^{\beta_{0} "
          r"T_{\epsilon}} Z_{0} \sup_{m} |c_{m}|_{2}$ such that $$\left| c _ {m} ^ {\top} v _ {m, t} \right| "
          r"\leq C ^ {\prime} e ^ {- \beta_ {0} t}, \quad t \in [ 0, T _ {\epsilon} ] \tag {42}$$")
Q51 = (r"We construct a Lyapunov function $V(v) = v^{T} P_{m} v \leq \frac{1}{2\beta_{0}} |v|_{2}^{2}$ , "
       r"which satisfies the following differential equation: $$\begin{array}{l} \frac {d V (v _ {m , t})}"
       r"{d t} = v _ {m, t} ^ {\top} (W _ {m} ^ {\top} (I - \mathrm{Diag} (v _ {m, t}) ^ {2}) P _ {m} + P _ "
       r"{m} (I - \mathrm{Diag} (v _ {m, t}) ^ {2}) W _ {m}) v _ {m, t} \\ = v _ {m, t} ^ {\top} \left(W _ "
       r"{m} ^ {\top} P _ {m} + P _ {m} W _ {m}\right) v _ {m, t} \tag {51} \\ - v _ {m, t} ^ {\top} (W _ "
       r"{m} ^ {\top} \mathrm{Diag} (v _ {m, t}) ^ {2} P _ {m} + P _ {m} \mathrm{Diag} (v _ {m, t}) ^ {2} W "
       r"_ {m}) v _ {m, t} \\ = - \left| v _ {m, t} \right| _ {2} ^ {2} - v _ {m, t} ^ {\top} (W _ {m} ^ "
       r"{\top} \mathrm{Diag} (v _ {m, t}) ^ {2} P _ {m} + P _ {m} \mathrm{Diag} (v _ {m, t}) ^ {2} W _ "
       r"{m}) v _ {m, t}. \\ \end{array}$$")
Q63_66 = (r"Notice that $|v_{m,t}|_2 < \frac{\epsilon}{\beta_0} < \Upsilon_L$ . Therefore $$V (v _ {m, t}) "
          r"\leq e ^ {- 2 (1 - L) \beta_ {0} (t - T _ {\epsilon})} \cdot \frac {1}{2 \beta_ {0}} \Upsilon_ "
          r"{L} ^ {2}. \tag {63}$$ Since the model weights are uniformly bounded, there is a constant $M$ "
          r"such that $$\sup _ {m} \left| W _ {m} \right| _ {2} = M <   \infty . \tag {64}$$ Since $|I_m|_2 "
          r"= 1 \leq 2|W_m|_2|P_m|_2$ , this implies $$\min _ {m} \left| P _ {m} \right| _ {2} \geq \frac "
          r"{1}{2 M} > 0. \tag {65}$$ As $V(v_{m,t}) \geq \frac{1}{2M} |v_{m,t}|_2^2$ , there exists a "
          r"uniform constant $C_0 := \sqrt{\frac{M}{\beta_0}} \Upsilon_L = \sqrt{\frac{ML}{M_0}}$ such "
          r"that $$\left| v _ {m, t} \right| _ {2} \leq C _ {0} e ^ {- (1 - L) \beta_ {0} \left(t - T _ "
          r"{\epsilon}\right)}, \quad \forall t > T _ {\epsilon}. \tag {66}$$")

TOL = ("exact (SymPy, ℚ); flint: the enclosures decide; numpy/torch/mpmath: 4·16·u per row (51: "
       "64·κ·u, κ = 40 for the solve of P; 30: 4√u‖W‖ on computed eigenvalues)")
USES = ("W.theorem", "W.theorem.rnn-step")

CLAIMS = [
    Claim(
        id="W.theorem.step-30",
        summary="(30)'s strict \"< −β₀\" from (29) in the limit: W_m = (−β₀), W̃_(m,k) = (−1/k) attains "
                "−β₀; the limit gives only ≤ (as A.9's (47))",
        title="Proof of Thm 3.9 (A.8), (29) ⇒ (30): Hurwitz W̃_(m,k) → W_m + β₀I gives max Re λ(W_m) < −β₀",
        statement=EigenLimit(),
        provenance=Provenance("W", "App. A.8 (proof of Thm 3.9, linear-like activations), eqs. (29)–(30)",
                              Q29_30),
        tolerance=TOL, uses=(*USES, "W.lemma-a7"),
        symbolic=_symbolic(eigen_limit_proof, EigenLimit),
        numeric=_per_kind(_eig_numeric), strategy=eig_strategy, holds=eig_holds,
        notes="A strict inequality does not survive a limit. (31) inherits the strict sign from (30); "
              "W.theorem.rnn-step and W.rnn-linear-memory.bound use the non-strict reading. Floats cannot "
              "tell < from ≤ at the boundary: the numeric sides check the ≤ part on interior cases.",
    ),
    Claim(
        id="W.theorem.step-30.corrected",
        summary="with ≤ −β₀ (A.9's (47)) the step holds",
        title="(29) ⇒ (30) with max Re λ(W_m) ≤ −β₀",
        statement=EigenLimit(strict=False),
        provenance=Provenance("W", "App. A.8 eqs. (29)–(30); App. A.9 eq. (47)", Q29_30),
        tolerance=TOL, uses=(*USES, "W.lemma-a7", "W.theorem.step-30"),
        symbolic=_symbolic(eigen_limit_proof, EigenLimit),
        numeric=_per_kind(_eig_numeric), strategy=eig_strategy, holds=eig_holds,
        corrects="W.theorem.step-30",
        notes="The spectrum's continuity in the entries is cited, not derived: the symbolic side proves "
              "the spectral shift (characteristic polynomials) and the order step.",
    ),
    Claim(
        id="W.theorem.step-35-57",
        summary="(34) ⇒ (35), (55) ⇒ (56) ⇒ (57) and A.8's ε = ½β₀Z₀ hold",
        title="Proof of Thm 3.9, (34) ⇒ (35) and (55) ⇒ (56) ⇒ (57): |v|₂ < ε/β₀ < Υ_L",
        statement=DivideStep(),
        provenance=Provenance("W", "App. A.8 eqs. (34)–(35); App. A.9 eqs. (55)–(57)",
                              f"{Q34_35} … {Q55_57}"),
        tolerance=TOL, uses=USES,
        symbolic=_symbolic(divide_proof, DivideStep),
        numeric=_per_kind(_div_numeric), strategy=div_strategy, holds=div_holds,
        notes="(34)/(55) themselves (the supremum over |c̃ − c|₂ ≤ β₀ equals |cᵀv| + β₀|v|₂) are the "
              "hypotheses here; W.theorem.rnn-step checks the step from (53)–(54) to (67)–(68) as a whole.",
    ),
    Claim(
        id="W.theorem.step-40-42",
        summary="(39) ⇒ (40) ⇒ (41) and (42) with C′ := sup e^{β₀t}|c_mᵀv_{m,t}| hold (C′'s printed "
                "bound: W.theorem.step-42.constant)",
        title="Proof of Thm 3.9 (A.8), (39) ⇒ (40) ⇒ (41) and (42)",
        statement=ExpChain(),
        provenance=Provenance("W", "App. A.8 eqs. (39)–(42)", Q39_42),
        tolerance=TOL, uses=(*USES, "W.theorem.step-35-57"),
        symbolic=_symbolic(exp_chain_proof, ExpChain),
        numeric=_per_kind(_exp_numeric), strategy=exp_strategy, holds=exp_holds,
        notes="|v_{m,T_ε}|₂ ≤ Z₀/2 is (35) with ε = ½β₀Z₀ at T_ε (by continuity). The printed bound "
              "C′ ≤ e^{β₀T_ε}Z₀ sup_m|c_m|₂ needs |v_{m,t}|₂ ≤ Z₀ on [0, T_ε], which the proof does not "
              "have (only t > T_ε): W.theorem.step-42.constant refutes it with a hardtanh RNN.",
    ),
    Claim(
        id="W.theorem.step-42.constant",
        summary="C′ ≤ e^{β₀T_ε}Z₀ sup|c_m|₂ before (42) needs |v_t|₂ ≤ Z₀ on [0, T_ε]: a hardtanh RNN "
                "(W = −8I, v₀ = (18/25, 24/25), c = (3/5, 4/5), β₀ = 1/2) has C′ = 6/5 > (36/5)^{1/16}",
        title="Proof of Thm 3.9 (A.8), the constant before (42): C′ ≤ e^{β₀T_ε}Z₀ sup_m|c_m|₂",
        statement=WarmupConstant(),
        provenance=Provenance("W", "App. A.8, the sentence before eq. (42), with (33) and (35)", Q39_42),
        tolerance=TOL, uses=(*USES, "W.activations"),
        symbolic=_symbolic(warmup_proof, WarmupConstant),
        numeric=_per_kind(_warm_numeric), strategy=warm_strategy, holds=warm_holds,
        notes="T_ε is the least time after which (33) holds with ε = ½β₀Z₀ (any T_ε the proof's "
              "\"there exists\" may pick); the state is inside the linear region of hardtanh for all "
              "t, so the trajectory is the one the proof's own linear analysis uses, and (31) holds "
              "(−8 ≤ −β₀). The bound holds with a T_ε large enough for that m, but the proof needs "
              "one T_ε for every m, and |v_{m,t}|₂ ≤ √m on [0, T_ε] is all hardtanh gives.",
    ),
    Claim(
        id="W.theorem.step-42.constant.corrected",
        summary="C′ ≤ e^{β₀T_ε}|c_m|₂ sup_{[0,T_ε]}|v_{m,t}|₂ holds (Cauchy–Schwarz)",
        title="The constant before (42) with the trajectory's own bound on [0, T_ε]",
        statement=WarmupConstant(reach="sup"),
        provenance=Provenance("W", "App. A.8, the sentence before eq. (42)", Q39_42),
        tolerance=TOL, uses=(*USES, "W.theorem.step-42.constant"),
        symbolic=_symbolic(warmup_proof, WarmupConstant),
        numeric=_per_kind(_warm_numeric), strategy=warm_strategy, holds=warm_holds,
        corrects="W.theorem.step-42.constant",
        notes="Uniform in m only where sup_m sup_{[0,T_ε]}|v_{m,t}|₂ < ∞, which the proof does not show.",
    ),
    Claim(
        id="W.theorem.step-51",
        summary="(51), dV/dt along (45) with (48) (Q = I), holds",
        title="Proof of Thm 3.9 (A.9), eq. (51): dV/dt = −|v|₂² − vᵀ(WᵀD²P + PD²W)v",
        statement=LyapunovDerivative(),
        provenance=Provenance("W", "App. A.9 eqs. (45), (48), (51)", Q51),
        tolerance=TOL, uses=(*USES, "W.lyapunov", "W.lyapunov-local"),
        symbolic=_symbolic(lyapunov_derivative_proof, LyapunovDerivative),
        numeric=_per_kind(_lyap_numeric), strategy=lyap_strategy, holds=lyap_holds,
        notes="(45) writes σ′_tanh(ṽ) for the derivative along the flow of v = σ(z) (σ′ = 1 − v²); (51) "
              "then drops the tildes (unperturbed W_m): the identity is algebra and holds for any W, P "
              "with (48).",
    ),
    Claim(
        id="W.theorem.step-63-66",
        summary="(63), (65) and (66) (C₀ = √(M/β₀)Υ_L = √(ML/M₀)) hold; (65)'s inference from ‖P‖₂ "
                "is replaced by λ_min(P) ≥ 1/(2‖W‖₂)",
        title="Proof of Thm 3.9 (A.9), eqs. (63), (65)–(66)",
        statement=LyapunovSandwich(),
        provenance=Provenance("W", "App. A.9 eqs. (62)–(66), with (48), (50), (52)", Q63_66),
        tolerance=TOL, uses=(*USES, "W.lyapunov-bound.uniform", "W.lyapunov-local"),
        symbolic=_symbolic(sandwich_proof, LyapunovSandwich),
        numeric=_per_kind(_sandwich_numeric), strategy=sandwich_strategy, holds=sandwich_holds,
        notes="The proof infers V(v) ≥ |v|₂²/(2M) from ‖P_m‖₂ ≥ 1/(2M), which bounds the largest "
              "eigenvalue of P only; the inequality holds because every eigenvalue μ of P is "
              "−1/(2uᵀWu) ≥ 1/(2‖W‖₂) (unit eigenvector u). (50) is a hypothesis of the step here "
              "(W.lyapunov-bound.uniform checks it).",
    ),
]
