"""W.lyapunov: for Hurwitz W and Q ≻ 0, P = ∫₀^∞ e^{Wᵀt} Q e^{Wt} dt solves Wᵀ P + P W = −Q and P ≻ 0
(paper W, App. A.9 eq. 80; eq. 51 in the proof of the tanh case)."""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("By the theory of Lyapunov equation, it can be verified that the symmetric positive-definite "
         "matrix | (80) | is the solution to the above Lyapunov equation.")
QUOTE_51 = ("Since every is Hurwitz matrix, consider the corresponding (continuous) Lyapunov equation "
            "(Khalil, 2002) | (50) | For simplicity, we select the matrix . For any positive definite "
            "matrix , it is known that has an explicit integral form: | (51) |")


def symbolic(ctx: Context) -> list[Evidence]:
    from recmem.theory.lyapunov import solution_proof

    proof, sec = lc.proof_time(solution_proof)
    return [from_proof(proof, sec)]


def _problem(ctx: Context) -> tuple[lc.HurwitzDraw, Any, Any, Any]:
    """(W, Q, exact P, certified κ(L)), cached per context."""
    from recmem.numerics import lyapunov as ly

    d = lc.draw_from(ctx)
    q = lc.cached(ctx, f"Q/{d.n}/{d.seed}", lambda: lc.spd(d.n, d.seed))
    p = lc.cached(ctx, f"P/{d}", lambda: ly.exact(d.W, q).P)
    cond = lc.cached(ctx, f"cond/{d}", lambda: ly.condition_certified(d.W))
    return d, q, p, cond


def _relative_error(p_hat: Any, p_exact: Any, bits: int) -> mpmath.mpf:
    from recmem.numerics.lyapunov import to_mp

    ctx = mpmath.MPContext()
    ctx.prec = bits + 32
    a, b = to_mp(p_hat, ctx), to_mp(p_exact, ctx)
    return mpmath.mpf(ctx.mnorm(a - b, "f") / ctx.mnorm(b, "f"))


def _against_exact(check: str, backend: AbstractBackend, p_hat: Any, p_exact: Any, cond: Any,
                   n_eff: int, t0: float, instances: int = 1) -> Evidence:
    """A point arithmetic's P̂ against the exact P: ‖P̂ − P‖_F/‖P‖_F ≤ c·n·κ(L)·u."""
    res = _relative_error(p_hat, p_exact, backend.precision_bits)
    j = tol.condition_scaled(res, c=lc.C_TOL, n=n_eff, kappa=cond.value,
                             unit_roundoff=backend.unit_roundoff, kappa_text=str(cond))
    return Evidence(check=check, kind="numeric", backend=backend.name, outcome=j.outcome,
                    precision_bits=backend.precision_bits, instances=instances,
                    residual=tol.fmt(res), tolerance=j.tolerance, tolerance_source=j.source,
                    condition_number=str(cond), needed_bits=j.needed_bits,
                    data={"ratio residual/tolerance": tol.fmt(res / mpmath.mpf(j.tolerance or 1))
                          if j.tolerance else None},
                    seconds=time.perf_counter() - t0)


def _positivity(check: str, backend: AbstractBackend, lam_min: lc.Value, tol_abs: mpmath.mpf,
                tol_text: str, t0: float) -> Evidence:
    """P ≻ 0: certified (ball: λ_min > 0 for every matrix in the ball) or λ_min(P̂) > tolerance."""
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=lam_min.bits, residual=mpmath.nstr(lam_min.mid, 6),
                    tolerance=tol.fmt(tol_abs), tolerance_source=tol_text,
                    data={"lambda_min(P)": str(lam_min)})
    if lam_min.certified:
        base = replace(base, enclosure=f"λ_min(P) ∈ [{mpmath.nstr(lam_min.lo, 8)}, "
                                       f"{mpmath.nstr(lam_min.hi, 8)}]",
                       tolerance_source="ball eigenvalue enclosures (every matrix in the ball)")
        if lam_min.lo > 0:
            return replace(base, certified_by=None, seconds=time.perf_counter() - t0)
        if lam_min.hi < 0:
            return replace(base, outcome=Outcome.REFUTE, certified_by="ball arithmetic: λ_min < 0",
                           seconds=time.perf_counter() - t0)
        return replace(base, outcome=Outcome.INCONCLUSIVE, seconds=time.perf_counter() - t0)
    if lam_min.mid > tol_abs:
        return replace(base, seconds=time.perf_counter() - t0)
    outcome = Outcome.FAIL if lam_min.mid < -tol_abs else Outcome.INCONCLUSIVE
    return replace(base, outcome=outcome, seconds=time.perf_counter() - t0)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    from recmem.numerics import lyapunov as ly

    kind = backend.spec.kind
    d, q, p_ex, cond = _problem(ctx)
    n = d.n
    what = f"{d}, Q = GGᵀ/n + I/4"
    out: list[Evidence] = []
    t0 = time.perf_counter()
    if kind == "flint":
        import flint

        sol = ly.kronecker_flint(d.W, q, bits=backend.precision_bits)
        bits = int(sol.arithmetic.split("@")[1])
        with flint.ctx.workprec(2 * bits):
            exact_ball = flint.arb_mat(p_ex)
        contains = bool(sol.P.contains(exact_ball))
        rel = sol.accuracy.forward or mpmath.inf
        width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
        j = tol.enclosure(contains, rel, width, bits)
        out.append(Evidence(
            check=f"Kronecker enclosure of P contains the exact P ({what})", kind="numeric",
            backend=backend.name, outcome=j.outcome, precision_bits=bits, residual=tol.fmt(rel),
            tolerance=j.tolerance, tolerance_source=j.source, condition_number=str(cond),
            enclosure=f"exact P ∈ ball: {contains}, relative radius {tol.fmt(rel)} at {bits} bits",
            certified_by=None if contains else "ball arithmetic: the enclosure excludes the exact P",
            needed_bits=j.needed_bits, seconds=time.perf_counter() - t0))
        t1 = time.perf_counter()
        out.append(_positivity(f"P ≻ 0 (certified eigenvalue enclosures, {what})", backend,
                               lc.lmin(sol.P, "flint", bits), mpmath.mpf(0), "ball arithmetic", t1))
        return out
    if kind == "mpmath":
        sol = ly.kronecker_mpmath(d.W, q, bits=backend.precision_bits)
        out.append(_against_exact(f"Kronecker LU solution vs exact P ({what})", backend, sol.P, p_ex,
                                  cond, n * n, t0))
        t1 = time.perf_counter()
        lam = lc.lmin(sol.P, "mpmath", backend.precision_bits)
        pn = _fro(p_ex)
        tol_abs = lc.C_TOL * n * n * cond.value * backend.unit_roundoff * pn
        out.append(_positivity(f"P ≻ 0 (λ_min of the computed P, {what})", backend, lam, tol_abs,
                               "c·n²·κ(L)·u·‖P‖_F (Weyl)", t1))
        out.append(_quadrature(backend, ctx))
        return out
    if kind == "numpy":
        sol = ly.bartels_stewart(d.W, q)
        out.append(_against_exact(f"SciPy Bartels–Stewart vs exact P ({what})", backend, sol.P, p_ex,
                                  cond, n, t0))
        t1 = time.perf_counter()
        tol_abs = lc.C_TOL * n * cond.value * backend.unit_roundoff * _fro(p_ex)
        out.append(_positivity(f"P ≻ 0 (λ_min of the computed P, {what})", backend,
                               lc.lmin(sol.P, "numpy", 53), tol_abs, "c·n·κ(L)·u·‖P‖_F (Weyl)", t1))
        return out
    if kind == "torch":
        return [_torch_batch(backend, ctx)]
    return out


def _fro(p: Any) -> mpmath.mpf:
    from recmem.numerics.lyapunov import to_mp

    return mpmath.mpf(lc.MP64.mnorm(to_mp(p, lc.MP64), "f"))


def _quadrature(backend: AbstractBackend, ctx: Context) -> Evidence:
    """The integral of eq. 80 by quadrature for a 2×2 defective (most non-normal) W vs exact P."""
    from recmem.numerics import lyapunov as ly

    t0 = time.perf_counter()
    d2 = lc.hurwitz(2, ctx.seed + int(ctx["draw"]), "defective", Fraction(2))
    q2 = lc.spd(2, d2.seed)
    bits = min(backend.precision_bits, int(ctx["quad_bits"]))
    sol = ly.integral_quadrature(d2.W, q2, bits=bits)
    p2 = ly.exact(d2.W, q2).P
    cond2 = ly.condition_certified(d2.W)
    res = _relative_error(sol.P, p2, bits)
    u = mpmath.mpf(2) ** -bits
    quad_err = sol.accuracy.forward or mpmath.mpf(0)
    bound = lc.C_TOL * 2 * cond2.value * u + quad_err
    ok = res <= bound
    return Evidence(
        check=f"∫₀^∞ e^{{Wᵀt}} Q e^{{Wt}} dt by tanh-sinh quadrature vs exact P ({d2}, W = "
              f"{lc._fmt(ly.fractions(d2.W))})",
        kind="numeric", backend=backend.name, outcome=Outcome.PASS if ok else Outcome.FAIL,
        precision_bits=bits, residual=tol.fmt(res), tolerance=tol.fmt(bound),
        tolerance_source=f"quadrature error estimate {tol.fmt(quad_err)} + c·n·κ(L)·u "
                         f"(c={lc.C_TOL}, n=2, κ={cond2}, u=2^-{bits})",
        condition_number=str(cond2), message=sol.accuracy.text, seconds=time.perf_counter() - t0)


def _torch_batch(backend: AbstractBackend, ctx: Context) -> Evidence:
    """Batched sign-function Newton on ``batch`` draws of W (same n), each vs its exact P."""
    from recmem.numerics import lyapunov as ly

    t0 = time.perf_counter()
    probs = []
    for k in range(int(ctx["batch"])):
        d = lc.draw_from(ctx, offset=k)
        q = lc.cached(ctx, f"Q/{d.n}/{d.seed}", lambda d=d: lc.spd(d.n, d.seed))
        p = lc.cached(ctx, f"P/{d}", lambda d=d, q=q: ly.exact(d.W, q).P)
        cond = lc.cached(ctx, f"cond/{d}", lambda d=d: ly.condition_certified(d.W))
        probs.append((d, q, p, cond))
    sol = ly.sign_newton([x[0].W for x in probs], [x[1] for x in probs],
                         device=backend.spec.device or "cpu")
    evs = [_against_exact("", backend, sol.P[k].cpu().numpy(), probs[k][2], probs[k][3],
                          probs[0][0].n, t0) for k in range(len(probs))]
    worst = max(evs, key=lambda e: float(e.data.get("ratio residual/tolerance") or 0))
    outcomes = {e.outcome for e in evs}
    outcome = (Outcome.FAIL if Outcome.FAIL in outcomes else Outcome.INCONCLUSIVE
               if Outcome.INCONCLUSIVE in outcomes else Outcome.PASS)
    return replace(worst, check=f"batched sign-function Newton vs exact P ({len(probs)} draws of "
                                f"{probs[0][0].kind} W, n={probs[0][0].n}; worst shown)",
                   outcome=outcome, instances=len(probs), message=sol.accuracy.text,
                   seconds=time.perf_counter() - t0)


# ---- counterexample search -------------------------------------------------------------------

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
    return lc.hurwitz_instances(1, int(ctx["n_search"]), "all", extras=_spd_extra)


def holds(inst: lc.HurwitzInstance, ctx: Context) -> Instance:
    from recmem.numerics import lyapunov as ly

    q = inst.extra["Q"]
    p = ly.exact(inst.W, q).P
    solves = ly.residual_exact(inst.W, q, p) == ly.identity(inst.n) * 0
    pd = lc.charpoly_pd(p)
    return Instance(solves and pd, "exact arithmetic over ℚ (Kronecker solve; P ≻ 0 by the signs of "
                    "its characteristic polynomial)",
                    {**inst.record(), "Q": lc._fmt(q), "P": lc._fmt(ly.fractions(p)),
                     "solves": solves, "P positive definite": pd})


CLAIMS = [
    Claim(
        id="W.lyapunov",
        title="Lyapunov equation: integral solution, positive definite",
        statement="For Hurwitz W and Q ≻ 0, P = ∫_0^∞ e^{Wᵀt} Q e^{Wt} dt solves Wᵀ P + P W = −Q and "
                  "P ≻ 0",
        provenance=Provenance("W", "App. A.9 (proof for tanh-like activations), eq. 50–51; Lemma A.8 "
                                   "proof, eq. 80", QUOTE_51 + " … " + QUOTE),
        tolerance="exact (SymPy 2×2 and diagonal; ℚ in the search); enclosure (flint, exact P in the "
                  "ball, P ≻ 0 by eigenvalue balls); c·n·κ(L)·u with κ(L) certified (floats, n→n² for "
                  "LU on the Kronecker system); quadrature: tanh-sinh error estimate + c·n·κ(L)·u",
        params=(lc.p_n(4), lc.p_kind("nonnormal"), lc.p_departure(), lc.p_draw(),
                Param("batch", 4, "number of W's in the torch batch", int, check=at_least(1)),
                Param("quad_bits", 128, "largest precision of the quadrature check (mpmath)", int,
                      check=at_least(16)),
                lc.p_n_search(4)),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="κ(L) = σ_max(K)/σ_min(K) for K = I⊗Wᵀ + Wᵀ⊗I (‖L⁻¹‖₂ = 1/sep), certified by "
              "recmem.numerics.lyapunov.condition_certified. The paper takes Q = I (eq. 50–51); the "
              "claim covers every Q ≻ 0.",
    ),
]
