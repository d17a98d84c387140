"""W.limit-decay: Lemma A.10, uniform exponential decay passes to the uniform limit (W App. A.10).

Symbolic side (recmem.theory.limit_decay): the lemma by the pointwise bound
|f(t)| ≤ sup_m |f_m(t)| (which also gives β = β₀ and needs only pointwise convergence), the
transform (𝒯f)(s) = f(−log(s)/β₀)/s of eq. 108, and three example sequences. Numeric side: the
sup-norms on (0, 1] of 𝒯f_m − 𝒯f (converging example, → 0) and of 𝒯f_m (cut-offs of 1/(1 + t),
→ ∞: eq. 106 fails) for m = 1…m_max, with 𝒯 evaluated literally as eq. 108 in each arithmetic and
compared with the closed forms derived symbolically. Points: grid over (0, 1] plus golden-section
refinement; flint: a certified branch-and-bound enclosure of the sup.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.limit_decay import EXAMPLES, Example, transform

QUOTE = ("Lemma A.10. Consider a continuous function , assume it can be approximated by a sequence "
         "of continuous functions universally: | (105) | Assume the approximators are uniformly "
         "exponentially decaying with the same : | (106) | Then the function is also decaying "
         "exponentially: | (107) | Proof. Given a function , we consider the transformation "
         "defined as: | (108) |")
C_SUP = 4.0
GRID_OCTAVES = 60  # the grid reaches s = 2^-60 (t ≈ 41.6/β₀)


# ---- arithmetics as small namespaces for the example functions ---------------------------------

@dataclass(frozen=True)
class Arith:
    """exp, log, one and piecewise(t, m, left, right) of one arithmetic (left where t ≤ m)."""

    exp: Callable[[Any], Any]
    log: Callable[[Any], Any]
    one: Any
    piecewise: Callable[[Any, int, Callable[[Any], Any], Callable[[Any], Any]], Any]


def mp_arith(ctx: mpmath.ctx_mp.MPContext) -> Arith:
    """The mpmath context ``ctx`` as an :class:`Arith` (for eq. 108's transform at its precision)."""
    return Arith(ctx.exp, ctx.log, ctx.mpf(1), lambda t, m, a, b: a(t) if t <= m else b(t))


def _np_arith() -> Arith:
    import numpy as np

    return Arith(np.exp, np.log, np.float64(1), lambda t, m, a, b: np.where(t <= m, a(t), b(t)))


def _torch_arith(backend: AbstractBackend) -> Arith:
    torch = backend.torch
    one = torch.tensor(1.0, dtype=torch.float64, device=backend.device)
    return Arith(torch.exp, torch.log, one, lambda t, m, a, b: torch.where(t <= m, a(t), b(t)))


class Straddle(Exception):
    """A ball argument straddles a piecewise breakpoint (the derivative form does not apply)."""


def _flint_arith() -> Arith:
    import flint

    def piecewise(t: Any, m: int, a: Callable[[Any], Any], b: Callable[[Any], Any]) -> Any:
        c = t if isinstance(t, flint.arb) else t.coeffs()[0]
        if c <= m:
            return a(t)
        if c > m:
            return b(t)
        if isinstance(t, flint.arb):
            return a(t).union(b(t))
        raise Straddle

    return Arith(lambda v: v.exp(), lambda v: v.log(), flint.arb(1), piecewise)


def norm_fn(ex: Example, x: Arith, m: int) -> Callable[[Any], Any]:
    """s ↦ (𝒯f − 𝒯f_m)(s) (converging example) or (𝒯f_m)(s) (cut-off), by eq. 108 literally."""
    b0 = x.one * ex.beta0.numerator / ex.beta0.denominator

    def g(s: Any) -> Any:
        tm = transform(x, b0, lambda t: ex.f_m(x, m, t), s)
        return transform(x, b0, lambda t: ex.f(x, t), s) - tm if ex.diff else tm
    return g


# ---- point arithmetics: grid + golden section ---------------------------------------------------

def _grid() -> list[float]:
    geo = [2.0 ** (-j / 4) for j in range(4 * GRID_OCTAVES + 1)]
    return sorted(set(geo + [k / 256 for k in range(1, 257)]))


def sup_points(evaluate: Callable[[list[float]], list[Any]], scalar: Callable[[Any], Any],
               to_num: Callable[[Any], mpmath.mpf], bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(sup over (0, 1], location) of a function: grid maximum refined by golden section.

    The section stops once the bracket is below √u of its location (the function is flat to
    O(u) there, so the value is as accurate as one evaluation allows).
    """
    grid = _grid()
    vals = [to_num(v) for v in evaluate(grid)]
    i = max(range(len(grid)), key=lambda k: vals[k])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    a, b = scalar(lo), scalar(hi)
    # the golden ratio at the working precision: a rounded r makes the reused interior point
    # drift off its golden position until the bracket loses the maximum
    r = (scalar(5) ** 0.5 - 1) / 2
    steps = math.ceil((bits / 2 + 2) * math.log(2) / -math.log(r))
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = to_num(evaluate([c])[0]), to_num(evaluate([d])[0])
    for _ in range(steps):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = to_num(evaluate([c])[0])
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = to_num(evaluate([d])[0])
    best = max(vals[i], fc, fd)
    loc = grid[i] if best == vals[i] else (c if best == fc else d)
    return best, to_num(loc)


def _point_sup(backend: AbstractBackend, ex: Example, m: int) -> mpmath.mpf:
    """sup over (0, 1] of |norm_fn| in a point arithmetic."""
    kind = backend.spec.kind
    if kind == "mpmath":
        ctx = backend.ctx
        g = norm_fn(ex, mp_arith(ctx), m)
        return sup_points(lambda ss: [abs(g(ctx.mpf(s))) for s in ss], ctx.mpf, lambda v: v,
                          backend.precision_bits)[0]
    if kind == "numpy":
        import numpy as np

        g = norm_fn(ex, _np_arith(), m)
        return sup_points(lambda ss: list(np.abs(g(np.asarray(ss, dtype=np.float64)))),
                          np.float64, lambda v: mpmath.mpf(float(v)), 53)[0]
    torch = backend.torch
    g = norm_fn(ex, _torch_arith(backend), m)

    def ev(ss: list[Any]) -> list[Any]:
        t = torch.as_tensor([float(s) for s in ss], dtype=torch.float64,
                            device=backend.device)
        return torch.abs(g(t)).cpu().tolist()
    return sup_points(ev, float, lambda v: mpmath.mpf(float(v)), 53)[0]


def sup_bound(ex: Example, m: int, bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(exact sup, error bound of a computed sup at ``bits`` bits), both at bits + 64 bits.

    Evaluation: the terms of 𝒯f_m (and 𝒯f) at the maximiser s*, each with relative error
    ≲ u·(3 + rate·|log s|/β₀) (exp of an argument carrying the rounding of log s), with s = s*, or
    the smallest grid point when the sup is a plateau reaching s → 0⁺ (the maximum of values that
    are all equal up to rounding picks the largest rounding error); location: golden section stops
    at δs ≈ √u·s*, where the value is off by ½|F″(s*)|δs² ≈ ½|F″|s*²u.
    """
    ctx = mpmath.MPContext()
    ctx.prec = bits + 64
    unit_roundoff = ctx.mpf(2) ** -bits
    x = mp_arith(ctx)
    s_star = ex.s_star(x, m)
    b0 = ctx.mpf(ex.beta0.numerator) / ex.beta0.denominator
    terms = abs(transform(x, b0, lambda t: ex.f_m(x, m, t), s_star))
    if ex.diff:
        terms += abs(transform(x, b0, lambda t: ex.f(x, t), s_star))
    rate = ctx.mpf(ex.rate(m).numerator) / ex.rate(m).denominator
    g = norm_fn(ex, x, m)
    curv = abs(ctx.diff(g, s_star, 2)) * s_star**2
    log_s = GRID_OCTAVES * ctx.log(2) if ex.plateau else abs(ctx.log(s_star))
    bound = C_SUP * unit_roundoff * (terms * (3 + rate * log_s / b0) + curv)
    return ex.sup_exact(x, m), bound


# ---- flint: certified branch and bound ------------------------------------------------------------

def certified_sup(g: Callable[[Any], Any], lo: Any, hi: Any, tol_abs: Any,
                  max_evals: int | None = None) -> tuple[Any, Any]:
    """An enclosure [lower, upper] of sup_{[lo, hi]} g by interval branch and bound (flint).

    Each subinterval I is bounded by the mean-value form g(c) + g′(I)(I − c) (g′ from a degree-1
    arb_series) or the naive enclosure g(I), whichever is narrower; intervals whose upper bound is
    below the best certified lower bound are dropped, the others bisected until their upper bound
    is within ``tol_abs`` of it. With the evaluation budget spent, the remaining intervals bound
    the sup as they are (a wider, still certified, enclosure).
    """
    import flint

    # near a smooth maximum a few intervals survive per bisection level and the mean-value form
    # narrows quadratically, so the depth, and the work, grow linearly with the precision
    max_evals = max_evals if max_evals is not None else 16 * flint.ctx.prec + 2000

    def enclose(a: Any, b: Any) -> Any:
        ball = flint.arb((a + b) / 2, (b - a) / 2)
        naive = g(ball)
        try:
            der = g(flint.arb_series([ball, 1], prec=2)).coeffs()[1]
            mv = g(flint.arb((a + b) / 2)) + der * flint.arb(0, (b - a) / 2)
            return mv if mv.rad() < naive.rad() else naive
        except Straddle:
            return naive

    # geometric initial partition: every piece has relative width 2^{1/4} − 1, so that naive
    # enclosures of functions of log s stay tight down to s = lo
    n0 = max(1, math.ceil(4 * float((hi / lo).log() / flint.arb(2).log())))
    ratio = (hi / lo) ** (flint.arb(1) / n0)
    pts = [lo * ratio**k for k in range(n0)] + [hi]
    best = max((g(p).lower() for p in pts), key=lambda v: v)
    upper = best
    work = list(itertools.pairwise(pts))
    evals = 0
    while work and evals < max_evals:
        nxt = []
        for a, b in work:
            enc = enclose(a, b)
            evals += 1
            best = max(best, g(flint.arb((a + b) / 2)).lower())
            if enc.upper() < best:
                continue
            if enc.upper() - best <= tol_abs:
                upper = max(upper, enc.upper())
                continue
            c = (a + b) / 2
            nxt += [(a, c), (c, b)]
        work = nxt
    for a, b in work:
        upper = max(upper, enclose(a, b).upper())
    return best, max(upper, best)


def _flint_judge(backend: AbstractBackend, ex: Example, m: int) -> rp.Judged:
    """Certified sup-norm of 𝒯f_m − 𝒯f (or of 𝒯f_m) on (0, 1] against the closed form.

    Interior maximum: branch and bound over [2^-20, 1] for G and −G, plus the example's exact
    bound on (0, 2^-20]; the enclosure must contain the closed form and be narrow. Plateau (the
    cut-offs, 𝒯f_m ≡ e^m/(1 + m) on (0, e^{−m}]): no bisection resolves a plateau to 2^-(p/4), so
    the check is the value at a plateau point s = e^{−m}/2, a certified lower bound of the sup (the
    point is that it grows without bound); the branch-and-bound upper bound is reported as data.
    """
    import flint

    x = _flint_arith()
    g = norm_fn(ex, x, m)
    rel = flint.arb(mpmath.nstr(rp.max_width(backend.precision_bits), 20))
    exact = flint.arb(ex.sup_exact(x, m))
    label = f"{ex.name}, m = {m}"
    if ex.plateau:
        at = g(flint.arb(ex.s_star(x, m)))
        j = rp.ball_zero(label + ": 𝒯f_m(e^{−m}/2) − e^m/(1+m)", at - exact,
                         rp.arb_bounds(exact)[1], backend.precision_bits)
        return j
    delta = flint.arb(2) ** -20
    tol_abs = rel * exact / 4  # the enclosure of the sup is then at most rel·exact/2 wide
    lo, hi = certified_sup(g, delta, flint.arb(1), tol_abs)
    lo2, hi2 = certified_sup(lambda s: -g(s), delta, flint.arb(1), tol_abs)
    lower = max(lo, lo2)
    upper = max(hi, hi2, flint.arb(ex.tail(x, m, delta)).upper())
    inside = exact.lower() >= lower.lower() and exact.upper() <= upper.upper()
    disjoint = exact.upper() < lower.lower() or exact.lower() > upper.upper()
    width = rp.arb_bounds(upper.upper() - lower.lower())[1]  # in flint: no 64-bit cancellation
    bound = rp.arb_bounds(rel * exact)[1]
    if disjoint:
        return rp.Judged(label, Outcome.REFUTE, width, bound,
                         "certified enclosure of the sup excludes the closed form")
    if inside and width <= bound:
        return rp.Judged(label, Outcome.PASS, width, bound)
    return rp.Judged(label, Outcome.INCONCLUSIVE, width, bound, "enclosure too wide")


# ---- numeric side -------------------------------------------------------------------------------

def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Sup-norms of 𝒯 (eq. 108) on (0, 1] against the closed forms, m = 1…m_max (W Lemma A.10)."""
    rp.require_float64(backend)
    out = []
    m_max = int(ctx["m_max"])
    for ex in EXAMPLES.values():
        t0 = time.perf_counter()
        judged, sups = [], []
        for m in range(1, m_max + 1):
            if backend.encloses:
                judged.append(_flint_judge(backend, ex, m))
                ctx_e = mpmath.MPContext()
                sups.append(mpmath.nstr(ex.sup_exact(mp_arith(ctx_e), m), 6))
                continue
            exact, bound = sup_bound(ex, m, backend.precision_bits)
            got = _point_sup(backend, ex, m)
            sups.append(mpmath.nstr(got, 6))
            judged.append(rp.point_zero(f"{ex.name}, m = {m}", got - exact, bound, exact))
        what = "‖𝒯f_m − 𝒯f‖" if ex.diff else "‖𝒯f_m‖"
        closed = ("(m/(m+1))^m/(m+1)" if ex.diff else "e^m/(1+m)")
        src = ("certified branch and bound (mean-value form), relative width ≤ 2^-(p/4)/2"
               if backend.encloses else
               f"c·u·(terms·(3 + rate·|log s*|/β₀) + |F″(s*)|s*²), c = {C_SUP}, at 128 bits")
        out.append(rp.evidence(f"{what} on (0, 1] = {closed} (eq. 108), {ex.name} example, "
                               f"m = 1…{m_max}", backend, judged, t0, tolerance_source=src,
                               data={f"{what}, m = 1…{m_max}": sups}))
    return out


def symbolic(ctx: Context) -> list[Evidence]:
    """Lemma A.10 and the examples in SymPy (theory.limit_decay.lemma_a10)."""
    from recmem.theory.limit_decay import lemma_a10

    t0 = time.perf_counter()
    return [from_proof(lemma_a10(), time.perf_counter() - t0)]


CLAIMS = [
    Claim(
        id="W.limit-decay",
        title="Uniformly exponentially decaying approximants have an exponentially decaying limit",
        statement="If f_m → f uniformly on [0, ∞) and lim_{t→∞} sup_m e^{β₀t}|f_m(t)| = 0, then "
                  "lim_{t→∞} e^{βt}|f(t)| = 0 for all 0 < β < β₀",
        provenance=Provenance("W", "App. A.10, Lemma A.10 (eq. 105–108 of the arXiv text)", QUOTE),
        tolerance="SymPy exact; flint: certified branch-and-bound enclosure of each sup-norm; "
                  "points: c·u·(evaluation condition + curvature at the maximiser)",
        uses=("W.memory-def",),
        params=(Param("m_max", 6, "largest m of the example sequences", int, check=at_least(1)),),
        symbolic=symbolic,
        numeric=numeric,
        notes="The conclusion also holds at β = β₀, and uniform convergence (eq. 105) can be "
              "weakened to pointwise: |f(t)| = lim_m |f_m(t)| ≤ sup_m |f_m(t)|, so "
              "e^{β₀t}|f(t)| ≤ sup_m e^{β₀t}|f_m(t)| → 0. The uniform-in-m decay (eq. 106) is "
              "needed: cut-offs of f(t) = 1/(1 + t) each decay exponentially and converge "
              "uniformly, yet f decays like 1/t and ‖𝒯f_m‖ = e^m/(1 + m) → ∞. The paper's proof "
              "(eq. 109–119) shows 𝒯f_m is Cauchy in C[0, 1]; its formulas are lost in the text "
              "file. No counterexample search: the lemma quantifies over function sequences, "
              "which have no exact finite encoding here.",
    ),
]
