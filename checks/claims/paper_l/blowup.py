"""L.prop3.*: Proposition 3 (L §3.4, forward-pass blow-up) and its ρ-limit form.

Statements: :class:`recmem.theory.lru_blowup.BlowUp` (one claim per input: constant, white noise)
and :class:`~recmem.theory.lru_blowup.RhoLimit`, read by every side from ``ctx.statement``.

- symbolic: the stationary gain of one eigenvalue from the recurrence (fixed point; phase average
  by the residue theorem for constant input, geometric series for white noise), integrated
  against Lemma 2's density of |λ|² (theory.ring), against the statement's closed form (general
  in 0 ≤ r_min < r_max < 1);
- numeric, every arithmetic: E over the ring of the stationary gain by quadrature with an
  a-priori truncation bound (numerics.lru_ring; certified balls in flint) against the closed form;
- search: exact radii, judged in certified ball arithmetic.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, parse_fraction
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.lru_ring import column, const_of, ring_gain
from recmem.numerics.native import scalar
from recmem.theory.lru_blowup import BlowUp, RhoLimit, blowup_proof, rho_limit_proof

QUOTE = (r"Let $\Lambda$ be diagonal with eigenvalues sampled uniformly on the ring in $\mathbb{C}$ "
         r"between circles of radii $r_{\min}<r_{\max}<1$. Then, under constant or white-noise input "
         r"and Glorot input projection, we have that the squared norm of the state $x_{k}$ converges "
         r"as $k\to\infty$ to the following quantity. … $$ \mathbb{E}[\|x_{\infty}\|^{2}_{2}]=\frac{1}"
         r"{r_{\max}^{2}-r_{\min}^{2}}\log\left(\frac{1-r_{\min}^{2}}{1-r_{\max}^{2}}\right)\mathbb{E}"
         r"[\|Bu\|_{2}^{2}]. $$")
QUOTE_RHO = (r"let $\epsilon=r_{\max}^{2}-r_{\min}^{2}$ and $\rho=1-r_{\max}^{2}$, then: $$ "
             r"\lim_{\epsilon\to 0}"
             r"\frac{\mathbb{E}[\|x_{\infty}\|^{2}_{2}]}{\mathbb{E}[\|Bu\|_{2}^{2}]}=\lim_{\epsilon\to 0}"
             r"\left[\frac{1}{\epsilon}\log\left(1+\frac{\epsilon}{\rho}\right)\right]="
             r"\lim_{\epsilon\to 0}"
             r"\left[\frac{1}{\epsilon}\left(\frac{\epsilon}{\rho}+O(\epsilon^{2})\right)\right]="
             r"\frac{1}{\rho}=\frac{1}{1-r^{2}}. $$")
PARAMS = (Param("r_min", Fraction(1, 2), "inner radius of the ring", parse_fraction),
          Param("r_max", Fraction(3, 4), "outer radius of the ring (< 1)", parse_fraction))


def _mpf(q: Fraction) -> Any:
    return mpmath.mpf(q.numerator) / q.denominator


def validate(values: Any) -> str | None:
    """Proposition 3's hypothesis 0 ≤ r_min < r_max < 1."""
    ok = BlowUp.admits(values["r_min"], values["r_max"])
    return None if ok else f"needs 0 ≤ r_min < r_max < 1, got {values['r_min']}, {values['r_max']}"


def symbolic(ctx: Context) -> list[Evidence]:
    """Proposition 3 derived in SymPy (theory.lru_blowup.blowup_proof)."""
    t0 = time.perf_counter()
    return [from_proof(blowup_proof(ctx.law(BlowUp)), time.perf_counter() - t0)]


def _gain(ctx: Context, b: AbstractBackend, input_: str, r_min: Fraction,
          r_max: Fraction) -> tuple[Any, dict[str, Any]]:
    """ring_gain, shared by the statement and its controls (it does not depend on them)."""
    key = ("lru ring gain", b.name, b.precision_bits, input_, r_min, r_max)
    if key not in ctx.shared:
        ctx.shared[key] = ring_gain(b, input_, r_min, r_max)
    return ctx.shared[key]


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """E over Lemma 2's ring of the stationary gain (quadrature, numerics.lru_ring) against the
    statement's closed form, in ``backend``'s arithmetic."""
    law = ctx.law(BlowUp)
    r_min, r_max = ctx["r_min"], ctx["r_max"]
    box: dict[str, Any] = {}

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        value, plan = _gain(ctx, b, law.input, r_min, r_max)
        box["plan"] = plan
        closed = law.gain(scalar(b, r_min), scalar(b, r_max), b.log, const_of(b))
        return column(b, [value]), column(b, [closed])

    ratio = _mpf(1 - r_min**2) / _mpf(1 - r_max**2)
    kappa = 1 + 1 / abs(mpmath.log(ratio))  # the logarithm's relative condition number
    ev = identity_check(f"E over 𝕋(r_min, r_max) of the stationary gain ({law.input}) = closed form",
                        backend, compute, instance={"r_min": str(r_min), "r_max": str(r_max),
                                                    "input": law.input},
                        kappa=kappa, n=64, escalate=False)  # flint certifies; the mpmath
    # escalation would redo the quadrature at twice the precision
    plan = box.get("plan", {})
    ev.data = {"Gauss–Legendre nodes": plan.get("n"), "trapezoid nodes": plan.get("M"),
               "truncation bound": f"{plan.get('bound', 0):.3g}"}
    return [ev]


def strategy(ctx: Context) -> Any:
    """Exact radii 0 ≤ r_min < r_max ≤ 7/8 (denominators ≤ 8 keep the ball quadrature cheap)."""
    from hypothesis import strategies as st

    q = fractions_in(0, Fraction(7, 8), 8)
    return st.tuples(q, q).filter(lambda p: p[0] != p[1]).map(lambda p: (min(p), max(p)))


@functools.lru_cache(maxsize=256)
def _certified_gain(input_: str, r_min: Fraction, r_max: Fraction) -> Any:
    """The ring expectation as a 64-bit ball (statement-independent: shared by the controls)."""
    b = make_backend(BackendSpec("flint", bits=64))
    with b.activate():
        return ring_gain(b, input_, r_min, r_max)[0]


def holds(instance: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """The ring expectation (certified ball quadrature) against the statement at exact radii."""
    law = ctx.law(BlowUp)
    r_min, r_max = instance
    b = make_backend(BackendSpec("flint", bits=64))
    with b.activate():
        value = _certified_gain(law.input, r_min, r_max)
        d = value - law.gain(scalar(b, r_min), scalar(b, r_max), b.log, const_of(b))
        ok = bool(d.contains(0)) if d.rad() < 2.0**-40 else None
    return Instance(ok, "python-flint balls: certified quadrature (truncation bound as a ball) minus "
                        "the closed form", {"r_min": str(r_min), "r_max": str(r_max),
                                            "difference": str(d)})


TOL = ("symbolic (SymPy, general); numeric: c·n·κ·u with κ = 1 + 1/|log((1 − r_min²)/(1 − r_max²))|, "
       "quadrature truncation bounded a priori below 2^-(p+4); flint: ball enclosure incl. the "
       "truncation bound")
NOTES = ("E is over Λ (Lemma 2's ring law), B and u, with B and u independent of Λ. The proof uses only "
         "that independence: E‖x_∞‖² = Σ_i E|(Bu)_i|²·E[G(λ_i)]; Glorot is not needed. Constant input "
         "needs the average over Λ's phases: for a fixed λ, |x_∞|²/|ũ|² = 1/|1 − λ|², whose phase "
         "average is 1/(1 − |λ|²) (Poisson kernel); white noise needs no phase average "
         "(E|x_∞|²/σ² = 1/(1 − |λ|²) for every λ). At fixed Λ the statement holds only as N → ∞ "
         "(see the Fig. 9 reproduction L-fig9-blowup).")


def _claim(input_: str) -> Claim:
    return Claim(
        id=f"L.prop3.{input_}",
        title=f"Proposition 3 (forward-pass blow-up), {input_} input",
        summary=f"E‖x_∞‖² = log((1−r_min²)/(1−r_max²))/(r_max²−r_min²)·E‖Bu‖² for {input_} input "
                "(expectation over Λ, B, u; SymPy general + quadrature in every arithmetic)",
        statement=BlowUp(input=input_),
        provenance=Provenance("L", "§3.4, Proposition 3", QUOTE),
        uses=("O.ring",),
        tolerance=TOL, params=PARAMS, validate=validate, symbolic=symbolic, numeric=numeric,
        strategy=strategy, holds=holds, notes=NOTES)


# ---- the ρ-limit form ---------------------------------------------------------------------------

def rho_symbolic(ctx: Context) -> list[Evidence]:
    """Each equality of the ρ-limit chain in SymPy (theory.lru_blowup.rho_limit_proof)."""
    t0 = time.perf_counter()
    return [from_proof(rho_limit_proof(ctx.law(RhoLimit)), time.perf_counter() - t0)]


def rho_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The chain in ``backend``: the identities (1 − r_min²)/(1 − r_max²) = 1 ± ε/ρ (at ε = ρ/2) and
    1/ρ^k = 1/(1 − r^p); then the limit: (1/ε)log((1 − r_min²)/(1 − r_max²)) at ε = ρ·2^−12 lies
    within the proven bound ε/(2ρ²) of 1/ρ (log x ∈ [x − x²/2, x]), so it must lie within that
    bound plus rounding of the printed limit (:func:`within_bound`)."""
    law = ctx.law(RhoLimit)
    r = ctx["r_max"]
    rho = 1 - r * r
    eps_id, eps = rho / 2, rho / 2**12

    def identities(b: AbstractBackend) -> tuple[Any, Any]:
        e, p, rr = scalar(b, eps_id), scalar(b, rho), scalar(b, r)
        ratio = (1 - scalar(b, r * r - eps_id)) / (1 - rr * rr)
        return column(b, [ratio, law.limit(p)]), column(b, [law.ratio(e, p), law.limit_in_r(rr)])

    ev = identity_check("(1 − r_min²)/(1 − r_max²) = 1 ± ε/ρ at ε = ρ/2; 1/ρ^k = 1/(1 − r^p)",
                        backend, identities, instance={"r": str(r), "epsilon": str(eps_id)},
                        kappa=mpmath.mpf(1), n=8)
    with backend.activate():
        ratio = (1 - scalar(backend, r * r - eps)) / (1 - scalar(backend, r) ** 2)
        value = backend.log(ratio) / scalar(backend, eps)
        lim = law.limit(scalar(backend, rho))
    # rounding: log of a number 1 + 2^-12 loses 2^12·u relative; a few more operations
    slack = _mpf(eps / (2 * rho * rho)) + 2**12 * 8 * backend.unit_roundoff * _mpf(1 / rho)
    return [ev, within_bound(backend, value, lim, slack, {"r": str(r), "epsilon": str(eps)})]


def within_bound(backend: AbstractBackend, value: Any, target: Any, bound: Any,
                 instance: dict[str, str]) -> Evidence:
    """PASS iff |value − target| ≤ bound (a proven truncation bound plus rounding); in balls a
    lower bound of |value − target| above ``bound`` is a certified refutation."""
    t0 = time.perf_counter()
    d = value - target
    if backend.encloses:
        lo, mid = mpmath.mpf(abs(d).lower().str(20, radius=False)), abs(d).mid()
        outcome = Outcome.PASS if lo <= bound else Outcome.REFUTE
        res = mpmath.mpf(mid.str(20, radius=False))
    else:
        res = mpmath.mpf(complex(d).real if not hasattr(d, "real") else float(abs(complex(d))))
        res = abs(res)
        outcome = Outcome.PASS if res <= bound else Outcome.FAIL
    return Evidence(check="(1/ε)log((1 − r_min²)/(1 − r_max²)) within ε/(2ρ²) of the printed limit "
                          "(ε = ρ/2^12)", kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, residual=f"{float(res):.3g}",
                    tolerance=f"{float(bound):.3g}",
                    tolerance_source="proven bound ε/(2ρ²) + 2^12·8·u/ρ rounding",
                    counterexample=({**instance, "|value − limit| ≥": f"{float(lo):.6g}"}
                                    if outcome is Outcome.REFUTE else None),
                    certified_by=("ball arithmetic: |value − limit| > ε/(2ρ²)"
                                  if outcome is Outcome.REFUTE else None),
                    seconds=time.perf_counter() - t0)


def rho_strategy(ctx: Context) -> Any:
    """Exact r ∈ (0, 1) and ε = ρ·t with t ∈ (0, 1] (so r_min² = r² − ε ≥ 0 needs ε ≤ r²)."""
    from hypothesis import strategies as st

    r = fractions_in(Fraction(1, 64), Fraction(63, 64), 64)
    t = fractions_in(Fraction(1, 64), 1, 64)
    return st.tuples(r, t).map(lambda p: (p[0], (1 - p[0] ** 2) * p[1])).filter(
        lambda p: p[1] <= p[0] ** 2)


def rho_holds(instance: tuple[Fraction, Fraction], ctx: Context) -> Instance:
    """Exact: (1 − r_min²)/(1 − r_max²) = 1 ± ε/ρ and 1/ρ^k = 1/(1 − r^p) in ℚ; the limit: the
    printed value within ε/ρ² of (1/ε)log(1 + ε/ρ) (python-flint balls; the true limit 1/ρ is
    within ε/(2ρ²) of it)."""
    import flint

    law = ctx.law(RhoLimit)
    r, eps = instance
    rho = 1 - r * r
    exact_ok = (1 - (r * r - eps)) / rho == law.ratio(eps, rho) and law.limit(rho) == law.limit_in_r(r)
    with flint.ctx.workprec(64):
        f = (flint.arb(1) + flint.arb(eps.numerator) / eps.denominator * rho.denominator
             / rho.numerator).log() / (flint.arb(eps.numerator) / eps.denominator)
        lim = law.limit(flint.arb(rho.numerator) / rho.denominator)
        gap = abs(f - lim) - flint.arb(eps.numerator * rho.denominator**2) / (
            eps.denominator * rho.numerator**2)
        bound_ok = None if gap.contains(0) else bool(gap < 0)
    ok = exact_ok and bound_ok if bound_ok is not None or not exact_ok else None
    return Instance(ok, "exact rationals; python-flint balls for the limit's bound",
                    {"r": str(r), "epsilon": str(eps), "identities exact": exact_ok,
                     "|(1/ε)log(1 + ε/ρ) − limit| − ε/ρ²": str(gap)})


CLAIMS = [
    _claim("constant"),
    _claim("white-noise"),
    Claim(
        id="L.prop3.rho-limit",
        title="Proposition 3's ρ-limit form: the gain tends to 1/ρ = 1/(1 − r²)",
        summary="(1−r_min²)/(1−r_max²) = 1 + ε/ρ and lim (1/ε)log(1 + ε/ρ) = 1/ρ = 1/(1 − r²): every "
                "equality holds (SymPy series and limit; numerics at ε = ρ/2^12)",
        statement=RhoLimit(),
        provenance=Provenance("L", "§3.4, after Proposition 3", QUOTE_RHO),
        uses=("L.prop3.white-noise",),
        tolerance="symbolic (SymPy limit/series, general); numeric: c·n·κ·u with κ = ρ/ε = 2^12 and n "
                  "sized so that the bound ε/(2ρ) on (1/ε)log(1 + ε/ρ) − 1/ρ lies within it",
        params=(Param("r_max", Fraction(3, 4), "r_max = r (ε → 0 at fixed ρ = 1 − r²)", parse_fraction),),
        symbolic=rho_symbolic, numeric=rho_numeric, strategy=rho_strategy, holds=rho_holds,
        notes="r_min = r_max = r makes ε = 0 and the printed formula 0/0: the limit ε → 0 at fixed "
              "ρ is the reading; the first equality is Proposition 3 itself (L.prop3.*)."),
]
