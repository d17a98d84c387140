"""W.lyapunov: for Hurwitz W and Q ≻ 0, P = ∫₀^∞ e^{Wᵀt} Q e^{Wt} dt solves Wᵀ P + P W = −Q and
P ≻ 0 (paper W, ICLR camera-ready App. A.9 eqs. (48)–(49); proof of Lemma A.8, eq. (78)), and the
reading W.lyapunov.any-q of eq. (49)'s last member.

Every side computes P from its definition, the integral, never by solving the Lyapunov equation:
SymPy integrates e^{Wt} of symbolic 2×2 real Schur forms termwise; the search integrates the exact
exponential polynomial e^{Wt} over ℚ(i); flint encloses the integral (Taylor + Gauss–Legendre on a
short interval, then doubling, with every truncation bounded); mpmath, numpy and torch run the same
quadrature in their own precision. Each then tests the statement's equation and definiteness.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.certified import fixed_context
from recmem.theory.lyapunov import LyapunovIntegral

QUOTE = (r"Since every $W_{m}$ is Hurwitz matrix, consider the corresponding (continuous) Lyapunov "
         r"equation (Khalil, 2002) $$W _ {m} ^ {T} P _ {m} + P _ {m} W _ {m} = - Q _ {m}. \tag {48}$$ "
         r"For simplicity, we select the matrix $Q_{m} = I_{m}$ . For any positive definite matrix "
         r"$Q_{m}$ , it is known that $P_{m}$ has an explicit integral form: $$P _ {m} = \int_ {0} ^ "
         r"{\infty} e ^ {W _ {m} ^ {\top} t} Q _ {m} e ^ {W _ {m} t} d t = \int_ {0} ^ {\infty} e ^ "
         r"{W _ {m} ^ {\top} t} I _ {m} e ^ {W _ {m} t} d t. \tag {49}$$")
QUOTE_78 = (r"Proof. By the theory of Lyapunov equation, it can be verified that the symmetric "
            r"positive-definite matrix $$P _ {m} = \int_ {0} ^ {\infty} e ^ {W _ {m} ^ {\top} t} I _ "
            r"{m} e ^ {W _ {m} t} d t \tag {78}$$ is the solution to the above Lyapunov equation.")
WHERE = "App. A.9, eqs. (48)–(49); App. A.10, proof of Lemma A.8, eq. (78)"
C_TOL = 4  # the c of the tolerance c·amplification·u


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided from the integral of symbolic e^{Wt} (theory.lyapunov)."""
    from recmem.theory.lyapunov import integral_proof

    proof, sec = lc.proof_time(lambda: integral_proof(ctx.law(LyapunovIntegral)))
    return [from_proof(proof, sec)]


# ---- the numeric sides --------------------------------------------------------------------------

EDGE = Fraction(1, 8)  # the numeric instance sits this far inside the hypothesis's bound


@dataclass(frozen=True)
class Case:
    """One exact (W, Q) of the numeric sides, with its spectral abscissa."""

    label: str
    W: Any  # fmpq_mat
    Q: Any  # fmpq_mat
    alpha: Fraction

    def record(self) -> dict[str, str]:
        from recmem.numerics.lyapunov import fractions

        return {"case": self.label, "W": lc._fmt(fractions(self.W)), "Q": lc._fmt(fractions(self.Q)),
                "alpha(W)": str(self.alpha)}


def edge_case(ctx: Context, law: LyapunovIntegral, offset: int = 0) -> Case:
    """The drawn W (parameters kind, N, departure, draw) shifted along the identity so that its
    spectral abscissa is the statement's bound minus 1/8 (Q = GGᵀ/n + I/4).

    For the printed statement that is a Hurwitz W with α(W) = −1/8 (a slowly decaying integrand);
    a statement whose hypothesis reaches to α < 1/4 gets α(W) = +1/8, where the integral
    diverges. The check's label does not depend on the statement, so every control is compared
    with the statement on the same check (rule C)."""
    from recmem.numerics.lyapunov import identity

    d = lc.draw_from(ctx, offset=offset)
    target = law.abscissa_below - EDGE
    w = d.W + identity(d.n) * lc._fq(target - d.abscissa)
    return Case(f"{d.kind} W (n={d.n}, seed {d.seed}) shifted to α(W) = bound − {EDGE}", w,
                lc.spd(d.n, d.seed), target)


def _integral(law: LyapunovIntegral, case: Case, backend: AbstractBackend, bits: int) -> Any:
    """The integral of ``law``'s integrand for ``case`` in ``backend``'s arithmetic."""
    from recmem.numerics import lyapunov as ly

    x = law.weight_of(case.Q, ly.identity(case.W.nrows()))
    kind = backend.spec.kind
    if kind == "flint":
        return ly.integral_enclosure(case.W, x, law.congruence, bits=bits)
    arith = ly.PointArithmetic(kind, bits=bits, dtype=backend.spec.dtype,
                               device=backend.spec.device or "cpu")
    return ly.integral_doubling(case.W, x, law.congruence, arith)


def _bits(backend: AbstractBackend, ctx: Context) -> int:
    """The precision the integral runs at: the backend's (mpmath capped at ``quad_bits``)."""
    if backend.spec.kind == "mpmath":
        return min(backend.precision_bits, int(ctx["quad_bits"]))
    return backend.precision_bits


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The statement on the drawn W at the edge of its hypothesis, in ``backend``'s arithmetic:
    P from the integral (never a Lyapunov solver); one check whose residual is the statement's
    whole violation, max(relative residual of its equation, definiteness violation + 2τ), so
    that every control shows up in it."""
    law = ctx.law(LyapunovIntegral)
    if backend.spec.kind == "torch":
        return _torch(backend, ctx, law)
    case = edge_case(ctx, law)
    if not law.admits(case.alpha, True):  # pragma: no cover - the edge case is always admitted
        return []
    bits = _bits(backend, ctx)
    t0 = time.perf_counter()
    res = _integral(law, case, backend, bits)
    ev = _judge(law, case, backend, res, bits, t0)
    return _with_routes(ctx, law, case, backend, res, bits, ev)


def _oracle(law: LyapunovIntegral, case: Case, res: Any, p: Any, kind: str, bits: int) -> Any:
    """The oracle of the computed integral P, recomputed here from P and the exact W and weight:
    P = ∫₀^∞ C(e^{Wt}, X) dt solves L_C(P) = −X (numerics.lyapunov.residual_oracle): a ball that
    must contain 0 (flint), or ρ ≤ c·(a + n)·u with a the doubling's error growth."""
    from recmem.numerics import lyapunov as ly

    x = law.weight_of(case.Q, ly.identity(case.W.nrows()))
    if kind == "flint":
        return ly.residual_oracle(case.W, x, p, congruence=law.congruence, bits=bits + 64,
                                  what="L_C(P) + X")
    return ly.residual_oracle(case.W, x, p, unit_roundoff=mpmath.mpf(2) ** -bits,
                              scale=res.amplification + case.W.nrows(), congruence=law.congruence,
                              what="L_C(P) + X")


def _with_routes(ctx: Context, law: LyapunovIntegral, case: Case, backend: AbstractBackend,
                 res: Any, bits: int, ev: Evidence, p: Any = None) -> list[Evidence]:
    """The integral P compared with the other arithmetics' integral of the same integrand, weight
    and W in this run (ERROR evidence when they disagree beyond both error bounds: c·(a + n)·u·‖P̂‖_F
    for a point arithmetic, the radii for balls)."""
    from recmem.numerics.lyapunov import fractions

    p = res.P if p is None else p
    if res.status != "converged" or ev.outcome is Outcome.ERROR or (
            ev.data.get("P's residual oracle", "").startswith("FAILED")):
        return [ev]
    n = case.W.nrows()
    err = mpmath.mpf(0)
    if backend.spec.kind != "flint":
        _, pm = _mp(p, bits)
        err = C_TOL * (res.amplification + n) * mpmath.mpf(2) ** -bits * \
            mpmath.mpf(mpmath.mnorm(pm, "f"))
    key = ("integral", law.transpose_left, law.weight, str(fractions(case.W)),
           str(fractions(case.Q)))
    if ("lyapunov routes", key) not in ctx.shared:
        # the linear-solve route, once per run: the converged integral solves L_C(P) = −X, i.e.
        # WᵀP + PW = −X (eᵀXe) or WP + PWᵀ = −X (eXeᵀ): exact over ℚ, checked by its own oracle
        from recmem.numerics.lyapunov import identity

        w = case.W if law.transpose_left else case.W.transpose()
        exact = lc.exact_p(w, law.weight_of(case.Q, identity(n)))
        lc.compare_routes(ctx, key, "exact linear solve (ℚ)", exact, mpmath.mpf(0), ev.check,
                          "exact")
    routes, bad = lc.compare_routes(ctx, key, backend.name, p, err, ev.check, backend.name)
    ev = replace(ev, data={**ev.data, **routes})
    return [ev] if bad is None else [ev, bad]


CHECK = "P = ∫₀^∞ (integrand) dt solves the equation with the claimed definiteness"


def _in_balls(law: LyapunovIntegral, case: Case, bits: int) -> tuple[AbstractBackend, Any]:
    """The integral recomputed as a certified enclosure (flint at max(2·bits, 128)): what
    certifies a violation that a point arithmetic found (one that "stays put" as the precision
    rises is a heuristic, not a certificate)."""
    fb = lc.certify_in_balls(bits)
    return fb, _integral(law, case, fb, fb.precision_bits)


def _done(e: Evidence, t0: float, **kw: Any) -> Evidence:
    from dataclasses import replace

    return replace(e, seconds=time.perf_counter() - t0, **kw)


def _mp(p: Any, bits: int) -> tuple[Any, Any]:
    from recmem.numerics.lyapunov import to_mp

    ctx = fixed_context(bits + 64)
    return ctx, to_mp(p.cpu().numpy() if hasattr(p, "cpu") else p, ctx)


def _violation(law: LyapunovIntegral, case: Case, p: Any, kind: str, bits: int
               ) -> tuple[mpmath.mpf, mpmath.mpf, Any, Any]:
    """(relative residual of the equation, definiteness violation / ‖P̂‖_F, λ_min, λ_max) of the
    computed P̂; the residual ‖WᵀP̂ + P̂W − sQ‖_F/(2‖W‖_F‖P̂‖_F + ‖Q‖_F) is evaluated from P̂ and the
    exact W, Q at bits + 64, the eigenvalues in mpmath at ``bits`` or in float64."""
    from recmem.numerics.lyapunov import to_mp

    ctx, pm = _mp(p, bits)
    wm, qm = to_mp(case.W, ctx), to_mp(case.Q, ctx)
    r = law.residual(wm, pm, qm, lambda a, b: a * b, lambda a: a.T)
    den = 2 * ctx.mnorm(wm, "f") * ctx.mnorm(pm, "f") + ctx.mnorm(qm, "f")
    pn = ctx.mnorm(pm, "f")
    eig_kind = "mpmath" if kind == "mpmath" else "numpy"
    pp = p.cpu().numpy() if hasattr(p, "cpu") else p
    lo, hi = lc.lmin(pp, eig_kind, bits).mid, lc.lmax(pp, eig_kind, bits).mid
    return (mpmath.mpf(ctx.mnorm(r, "f") / den),
            mpmath.mpf(law.definiteness_violation(lo, hi) / pn), lo, hi)


def _judge(law: LyapunovIntegral, case: Case, backend: AbstractBackend, res: Any, bits: int,
           t0: float, label: str | None = None) -> Evidence:
    """One check of the whole statement on one case (see :func:`numeric`)."""
    check = f"{CHECK} ({label or 'the drawn W at the edge of the hypothesis'})"
    # the template's outcome is ERROR: every path below sets the outcome it earned, and one that
    # forgot would show as a bug, never as a silent pass
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.ERROR,
                    precision_bits=bits, message=res.text, data=case.record())
    if res.status != "converged":
        return _diverged(law, case, backend, res, bits, base, t0)
    orc = _oracle(law, case, res, res.P, backend.spec.kind, bits)
    if backend.spec.kind == "flint":
        return lc.with_oracle(_judge_ball(law, case, backend, res, bits, base, t0), orc,
                              "the integral P")
    rho, viol, lo, hi = _violation(law, case, res.P, backend.spec.kind, bits)
    n = case.W.nrows()
    u = mpmath.mpf(2) ** -bits
    tau = C_TOL * (res.amplification + n) * u
    resid = max(rho, viol + 2 * tau)  # ≤ τ iff ρ ≤ τ and the sign holds with margin τ
    src = (f"τ = c·(a + n)·u: c = {C_TOL}, a = n + nodes + Σ_j 2^j‖e^(W2^jh)‖_F² = "
           f"{mpmath.nstr(res.amplification, 3)} (first-order error growth of the doubling), "
           f"u = 2^-{bits}; residual = max(relative residual of the equation, definiteness "
           f"violation/‖P‖_F + 2τ)")
    data = {**case.record(), "relative residual": tol.fmt(rho),
            "definiteness violation / ‖P‖_F": mpmath.nstr(viol, 6),
            "lambda_min(P)": mpmath.nstr(lo, 8), "lambda_max(P)": mpmath.nstr(hi, 8)}
    base = replace(base, residual=tol.fmt(resid), tolerance=tol.fmt(tau), tolerance_source=src,
                   data=data)
    if not orc.ok:
        return _done(lc.with_oracle(base, orc, "the integral P"), t0)
    base = replace(base, data={**base.data, **orc.record()})
    if tau >= tol.RESOLVE_LIMIT:
        return _done(base, t0, outcome=Outcome.INCONCLUSIVE,
                     tolerance_source=src + " (τ ≥ 1/2: not resolvable)")
    if resid <= tau:
        return _done(base, t0, outcome=Outcome.PASS)
    if viol > tau or rho > tau:
        certified = _certify(law, case, bits) if backend.spec.kind == "mpmath" else None
        if certified:
            return _done(base, t0, outcome=Outcome.REFUTE, certified_by=certified,
                         counterexample={**data, "certified": certified})
        return _done(base, t0, outcome=Outcome.FAIL,
                     message=res.text + "; the violation is not certified in this arithmetic"
                     + ("" if backend.spec.kind != "mpmath" else
                        " (its recomputation in ball arithmetic does not exclude the statement)"))
    return _done(base, t0, outcome=Outcome.INCONCLUSIVE)  # the sign is within the tolerance


def _certify(law: LyapunovIntegral, case: Case, bits: int) -> str | None:
    """mpmath: the violation certified by recomputing the integral in ball arithmetic
    (:func:`_in_balls`) and judging it there (:func:`_judge_ball`): a residual ball that excludes
    0 or eigenvalue balls that all violate the sign, with the enclosure's own oracle passed."""
    fb, res = _in_balls(law, case, bits)
    if res.status != "converged":
        return None
    b = fb.precision_bits
    base = Evidence(check=CHECK, kind="numeric", backend=fb.name, outcome=Outcome.ERROR)
    ev = lc.with_oracle(_judge_ball(law, case, fb, res, b, base, time.perf_counter()),
                        _oracle(law, case, res, res.P, "flint", b), "the integral P")
    if ev.outcome is not Outcome.REFUTE:
        return None
    return f"{ev.certified_by} (the integral recomputed as a certified enclosure at {b} bits)"


def _diverged(law: LyapunovIntegral, case: Case, backend: AbstractBackend, res: Any, bits: int,
              base: Evidence, t0: float) -> Evidence:
    if res.status == "undecided":
        return _done(base, t0, outcome=Outcome.INCONCLUSIVE,
                     message=res.text + "; the doubling neither converged nor diverged")
    cert = None
    if res.certified:
        cert = ("ball eigenvalues prove max Re λ(W) ≥ 0; with the integrand's weight ≻ 0 the "
                "integrand along an eigenvector is ≥ λ_min·e^(2 Re λ t)|v|², so the integral "
                "diverges")
    elif backend.spec.kind == "mpmath":
        fb, again = _in_balls(law, case, bits)
        if again.status == "diverged" and again.certified:
            cert = (f"ball eigenvalues (flint@{fb.precision_bits}) prove max Re λ(W) ≥ 0; with "
                    "the integrand's weight ≻ 0 the integral diverges")
    return _done(base, t0, outcome=Outcome.REFUTE if cert else Outcome.FAIL, certified_by=cert,
                 counterexample={**case.record(), "integral": "diverges"} if cert else None,
                 message=res.text + "; the integral diverges, so no P solves the statement")


def _judge_ball(law: LyapunovIntegral, case: Case, backend: AbstractBackend, res: Any, bits: int,
                base: Evidence, t0: float) -> Evidence:
    """flint: the residual ball must contain 0 (and be narrow) and every eigenvalue ball must
    have the claimed sign; an excluded 0 or a sign violated by every ball is certified."""
    import flint

    from recmem.numerics.lyapunov import _relative_radius

    with flint.ctx.workprec(bits):
        wa, qa = flint.arb_mat(case.W), flint.arb_mat(case.Q)
        r = law.residual(wa, res.P, qa, lambda a, b: a * b, lambda a: a.transpose())
        contains = bool(r.contains(flint.arb_mat(r.nrows(), r.ncols())))
    ctx, rm = _mp(r, bits)
    _, pm = _mp(res.P, bits)
    wm, qm = _mp(wa, bits)[1], _mp(qa, bits)[1]
    den = 2 * ctx.mnorm(wm, "f") * ctx.mnorm(pm, "f") + ctx.mnorm(qm, "f")
    rel_mid = mpmath.mpf(ctx.mnorm(rm, "f") / den)
    rel_rad = _relative_radius(res.P)
    lo, hi = lc.lmin(res.P, "flint", bits), lc.lmax(res.P, "flint", bits)
    pn = ctx.mnorm(pm, "f")
    worst = law.definiteness_violation(lo.lo, hi.hi) / pn  # the largest over the balls
    best = law.definiteness_violation(lo.hi, hi.lo) / pn  # the smallest
    width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(bits // 4))
    enc = (f"WᵀP + PW − sQ ∋ 0: {contains}; λ_min(P) ∈ [{mpmath.nstr(lo.lo, 8)}, "
           f"{mpmath.nstr(lo.hi, 8)}], λ_max(P) ∈ [{mpmath.nstr(hi.lo, 8)}, {mpmath.nstr(hi.hi, 8)}]"
           f"; relative radius of P {tol.fmt(rel_rad)} ({bits} bits)")
    resid = max(rel_mid, mpmath.mpf((worst + best) / 2))
    base = replace(base, residual=tol.fmt(resid), tolerance=tol.fmt(width), enclosure=enc,
                   tolerance_source=f"ball arithmetic: radius ≤ {tol.fmt(width)}; residual = "
                                    "max(relative midpoint residual, definiteness violation/‖P‖_F)")
    if not contains or best > 0:
        why = ("the enclosure of WᵀP + PW − sQ excludes 0" if not contains else
               "every eigenvalue enclosure violates the claimed sign")
        return _done(base, t0, outcome=Outcome.REFUTE, certified_by=f"ball arithmetic: {why}",
                     counterexample={**case.record(), "enclosure": enc})
    if worst < 0 and rel_rad <= width:
        return _done(base, t0, outcome=Outcome.PASS)
    return _done(base, t0, outcome=Outcome.INCONCLUSIVE)


def _torch(backend: AbstractBackend, ctx: Context, law: LyapunovIntegral) -> list[Evidence]:
    """torch: the integral for ``batch`` draws of W (each at the edge of the hypothesis) in one
    batched computation; each is judged like :func:`_judge` and the worst is shown."""
    from recmem.numerics import lyapunov as ly

    t0 = time.perf_counter()
    cs = [edge_case(ctx, law, offset=k) for k in range(int(ctx["batch"]))]
    eye = ly.identity(cs[0].W.nrows())
    arith = ly.PointArithmetic("torch", dtype=backend.spec.dtype, device=backend.spec.device or "cpu")
    res = ly.integral_doubling([c.W for c in cs], [law.weight_of(c.Q, eye) for c in cs],
                               law.congruence, arith, batch=True)
    label = f"batch of {len(cs)} draws at the edge of the hypothesis"
    if res.status != "converged":
        return [_judge(law, cs[0], backend, res, arith.bits, t0, label)]
    evs = [_judge(law, c, backend, replace(res, P=res.P[k]), arith.bits, t0, label)
           for k, c in enumerate(cs)]
    evs = [e for k, c in enumerate(cs)
           for e in _with_routes(ctx, law, c, backend, res, arith.bits, evs[k], res.P[k])]
    bad = [e for e in evs if e.check.startswith("routes agree")]
    evs = [e for e in evs if not e.check.startswith("routes agree")]
    order = [Outcome.ERROR, Outcome.REFUTE, Outcome.FAIL, Outcome.INCONCLUSIVE, Outcome.PASS]
    worst = min(evs, key=lambda e: (order.index(e.outcome), -float(e.residual or 0)))
    return [replace(worst, instances=len(evs), message=worst.message + f" (worst of {len(evs)})"),
            *bad[:1]]


# ---- counterexample search ---------------------------------------------------------------------

def _spd_extra(draw: Any, n: int) -> dict[str, Any]:
    """Q = L Lᵀ + diag(e) with L lower triangular from the pools and e > 0: exact Q ≻ 0."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    el = draw(st.lists(fractions_in(Fraction(-1), Fraction(1)), min_size=n * n, max_size=n * n))
    ed = draw(st.lists(fractions_in(Fraction(1, 4), Fraction(2)), min_size=n, max_size=n))
    lo = [[el[i * n + j] if j <= i else Fraction(0) for j in range(n)] for i in range(n)]
    q = [[sum((lo[i][k] * lo[j][k] for k in range(n)), Fraction(0)) + (ed[i] if i == j else 0)
          for j in range(n)] for i in range(n)]
    return {"Q": tuple(map(tuple, q))}


def strategy(ctx: Context) -> Any:
    """Exact instances (W, Q ≻ 0) over all real W of sizes 1…n_search, non-normal and defective
    ones included; half of them shifted right by up to 2 + the statement's abscissa bound, so the
    boundary of its hypothesis and the region beyond are reached."""
    law = ctx.law(LyapunovIntegral)
    return lc.hurwitz_instances(1, int(ctx["n_search"]), "all", extras=_spd_extra,
                                shift_up_to=2 + law.abscissa_below)


def holds(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    """Exact judge over ℚ(i): P = ∫₀^∞ of the statement's integrand from the exact exponential
    polynomial e^{Wt}; then its equation (zero residual over ℚ) and definiteness (signs of the
    characteristic polynomial)."""
    from recmem.numerics.lyapunov import fmpq_matrix, fractions
    from recmem.theory.lyapunov import Divergent, exact_integral

    law = ctx.law(LyapunovIntegral)
    q = inst.extra["Q"]
    values = {**inst.record(), "Q": lc._fmt(q)}
    if not law.admits(inst.alpha, True):  # Q ≻ 0 by construction
        return Instance(True, "outside the hypothesis (vacuous)", values)
    assert inst.quasi is not None and inst.similarity is not None
    try:
        p = exact_integral(law, inst.similarity, inst.quasi, q)
    except Divergent as exc:
        return Instance(False, "exact over ℚ(i): the integrand e^(Wt) is an exponential polynomial "
                        "with a term of Re ≥ 0, so the integral diverges",
                        values | {"diverging term": str(exc)})
    pm, wm, qm = fmpq_matrix(p), fmpq_matrix(inst.W), fmpq_matrix(q)
    resid = law.residual(wm, pm, qm, lambda a, b: a * b, lambda a: a.transpose())
    solves = resid == resid * 0
    definite = lc.charpoly_pd(pm if law.definite == 1 else -pm)
    return Instance(solves and definite, "exact over ℚ(i): P = ∫₀^∞ (integrand) dt termwise from "
                    "e^(Wt) = S e^(Tt) S⁻¹ (T triangular); residual over ℚ; definiteness by the "
                    "signs of the characteristic polynomial",
                    values | {"P (integral)": lc._fmt(fractions(pm)), "solves": solves,
                              "definite as claimed": definite,
                              "residual": lc._fmt(fractions(resid))})


# ---- claims ---------------------------------------------------------------------------------------

TOL = ("exact (SymPy: termwise integral of symbolic e^{Wt}; ℚ(i) in the search); enclosure (flint: "
       "the integral enclosed with every truncation bounded, the residual ball must contain 0, "
       "definiteness by eigenvalue balls); point arithmetics: c·a·u with a = n + nodes + "
       "Σ_j 2^j‖e^{W2^jh}‖_F² (the doubling's error growth), u of the arithmetic that ran; mpmath "
       "violations certified only by the integral recomputed as a ball enclosure (flint); every "
       "integral P checked by its residual oracle and compared across arithmetics and with the "
       "exact linear solve")
PARAMS = (lc.p_n(4), lc.p_kind("nonnormal"), lc.p_departure(), lc.p_draw(),
          Param("batch", 4, "number of W's whose integral torch computes in one batch", int,
                check=at_least(1), max=4096),
          Param("quad_bits", 96, "largest precision of the mpmath integral (it runs at "
                "min(this, the backend's precision))", int, check=at_least(8), max=65536),
          lc.p_n_search(3))

CLAIMS = [
    Claim(
        id="W.lyapunov",
        summary="P = ∫e^{Wᵀt}Qe^{Wt}dt solves WᵀP + PW = −Q, P ≻ 0; the integral computed from its "
                "definition in every arithmetic",
        title="Lyapunov equation: integral solution, positive definite",
        statement=LyapunovIntegral(),
        provenance=Provenance("W", WHERE, QUOTE + " … " + QUOTE_78),
        tolerance=TOL,
        params=PARAMS,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="The paper takes Q = I (eq. 48–49); the claim covers every Q ≻ 0, as (49)'s sentence "
              "says. P is always computed from the integral (never by a Lyapunov solver). The "
              "numeric sides shift the drawn W to the edge of the statement's hypothesis "
              "(α(W) = bound − 1/8), so a widened hypothesis is tested where the integral "
              "diverges.",
    ),
    Claim(
        id="W.lyapunov.any-q",
        summary="eq. (49) read literally (e^{Wᵀt} I e^{Wt} for any Q)",
        title="Eq. (49) read literally: ∫e^{Wᵀt} I e^{Wt}dt solves the equation for any Q ≻ 0",
        statement=LyapunovIntegral(weight="I"),
        provenance=Provenance("W", "App. A.9, eq. (49)", QUOTE),
        tolerance=TOL,
        uses=("W.lyapunov",),
        params=PARAMS,
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="eq. (49)'s sentence 'For any positive definite matrix Q_m' governs the whole "
                "chain, so its last member ∫e^{Wᵀt}I_m e^{Wt}dt would equal P_m for every Q_m",
        notes="A finding: the printed chain (49) equates ∫e^{Wᵀt}Q_m e^{Wt}dt with "
              "∫e^{Wᵀt}I_m e^{Wt}dt under 'For any positive definite matrix Q_m', which holds "
              "only for Q_m = I_m (the choice made one sentence earlier).",
    ),
]
