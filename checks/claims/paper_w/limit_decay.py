"""W.limit-decay: Lemma A.10, uniform exponential decay passes to the uniform limit (W App. A.10),
and the finding on its proof's transform.

``W.limit-decay`` (recmem.theory.limit_decay.LimitDecay): symbolic side, the lemma by the pointwise
bound |f(t)| ≤ sup_m |f_m(t)| (which also gives β = β₀), or a witness sequence that meets the
statement's hypotheses and violates its conclusion; numeric side, in every arithmetic, the
conclusion's e^{βt}|f(t)| for the witness sequences the statement's hypotheses admit, at the
largest β of its range, evaluated at t = 2^j: the statement says it tends to 0, and the check
asks it to fall over the last octave (a trend, not a limit: this side corroborates).

``W.limit-decay.proof-transform`` (TransformSup): the printed step (109) = (110) with 𝒯 of (106)
(rate β₀), refuted; ``….corrected``: 𝒯 with rate β. Numeric side: the two sups computed
independently — (109) from 𝒯 evaluated literally on s ∈ (0, 1], (110) from the weighted
difference on t ≥ 0 — for g = f_m − f_{m+1} of a converging sequence; points: grid plus
golden-section refinement; flint: certified branch-and-bound enclosures of both sups.

Counterexample search (both statements): exact exponential-rational functions
(numerics.exp_rational). Lemma A.10 on sequences f_m → f with a finite description (f + g/m,
cut-offs, rates converging from above), whose hypotheses and conclusion are decided exactly
(theory.limit_decay_families); the step (109) = (110) on g = f_{m₁} − f_{m₂}, with the statement's
𝒯 evaluated on g at s = e^{−rt} and the two sups compared exactly (or at a certified point).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.certified import fixed_context
from recmem.theory.limit_decay import (
    BETA,
    BETA0,
    SEQUENCES,
    LimitDecay,
    TransformSup,
    sequence_facts,
)

QUOTE = ("Lemma A.10. Consider a continuous function $f:[0,\\infty)\\to \\mathbb{R}$ , assume it can "
         "be approximated by a sequence of continuous functions $\\{f_m\\}_{m = 1}^{\\infty}$ "
         "universally: $$\\lim _ {m \\to \\infty} \\sup _ {t} | f (t) - f _ {m} (t) | = 0. \\tag "
         "{103}$$ Assume the approximators $f_{m}$ are uniformly exponentially decaying with the "
         "same $\\beta_0 > 0$ : $$\\lim _ {t \\to \\infty} \\sup _ {m \\in \\mathbb {N} _ {+}} e ^ "
         "{\\beta_ {0} t} | f _ {m} (t) | \\to 0. \\tag {104}$$ Then the function $f$ is also "
         "decaying exponentially: $$\\lim _ {t \\to \\infty} e ^ {\\beta t} | f (t) | \\to 0, "
         "\\quad \\forall 0 < \\beta < \\beta_ {0}. \\tag {105}$$")
QUOTE_PROOF = ("Proof. Given a function $f \\in C([0, \\infty))$ , we consider the transformation "
               "$\\mathcal{T}f : [0,1] \\to \\mathbb{R}$ defined as: $$(\\mathcal {T} f) (s) = "
               "\\left\\{ \\begin{array}{l l} 0, & s = 0 \\\\ \\frac {f (- \\frac {\\log s}{\\beta_ "
               "{0}})}{s}, & s \\in (0, 1 ]. \\end{array} \\right. \\tag {106}$$ … For any "
               "$\\beta < \\beta_0$ , let $\\delta = \\beta_0 - \\beta > 0$ . Next we have the "
               "following estimate $$\\sup _ {s \\in [ 0, 1 ]} | (\\mathcal {T} f _ {m _ {1}}) (s) - "
               "(\\mathcal {T} f _ {m _ {2}}) (s) | \\tag {109}$$ $$= \\sup _ {t \\geq 0} \\left| "
               "\\frac {f _ {m _ {1}} (t)}{e ^ {- \\beta t}} - \\frac {f _ {m _ {2}} (t)}{e ^ {- "
               "\\beta t}} \\right| \\tag {110}$$ … hence $$\\lim _ {t \\to \\infty} e ^ {\\beta t} f "
               "(t) = \\lim _ {s \\to 0 ^ {+}} (\\mathcal {T} f) (s) = f ^ {*} (0) = 0. \\tag {117}$$")
C_SUP = 4.0
GRID_OCTAVES = 60  # the s-grid reaches s = 2^-60
OCTAVES = 8  # the trend check evaluates t = 2^0 … 2^8
T_MAX = 16  # the t-side sup runs over [0, 16]; beyond, e^{wt}|g| ≤ e^{−(2−w)·16}


def _require_float64(backend: AbstractBackend) -> None:
    if backend.spec.kind in ("numpy", "torch") and backend.spec.dtype != "float64":
        raise BackendUnavailable(f"{backend.name}: these checks run in float64 only")


# ---- arithmetics as small namespaces for the sequences' formulas -----------------------------------

@dataclass(frozen=True)
class Arith:
    """exp, log, one and piecewise(t, m, left, right) of one arithmetic (left where t ≤ m)."""

    exp: Callable[[Any], Any]
    log: Callable[[Any], Any]
    one: Any
    piecewise: Callable[[Any, int, Callable[[Any], Any], Callable[[Any], Any]], Any]


def mp_arith(ctx: mpmath.ctx_mp.MPContext) -> Arith:
    """The mpmath context ``ctx`` as an :class:`Arith`."""
    return Arith(ctx.exp, ctx.log, ctx.mpf(1), lambda t, m, a, b: a(t) if t <= m else b(t))


def _np_arith() -> Arith:
    import numpy as np

    return Arith(np.exp, np.log, np.float64(1), lambda t, m, a, b: np.where(t <= m, a(t), b(t)))


def _torch_arith(backend: AbstractBackend) -> Arith:
    torch, dev, _rd = rp.torch_of(backend)
    one = torch.tensor(1.0, dtype=torch.float64, device=dev)
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


def _arith(backend: AbstractBackend) -> Arith:
    kind = backend.spec.kind
    if kind == "mpmath":
        return mp_arith(rp.mp_ctx(backend))
    if kind == "flint":
        return _flint_arith()
    if kind == "numpy":
        return _np_arith()
    return _torch_arith(backend)


def _const(backend: AbstractBackend, q: Fraction) -> Any:
    """An exact rational in the backend's scalar type."""
    kind = backend.spec.kind
    if kind == "mpmath":
        return rp.mp_ctx(backend).mpf(q.numerator) / q.denominator
    if kind == "flint":
        import flint

        return flint.arb(flint.fmpq(q.numerator, q.denominator))
    if kind == "numpy":
        import numpy as np

        return np.float64(q.numerator / q.denominator)
    torch, dev, _rd = rp.torch_of(backend)
    return torch.tensor(q.numerator / q.denominator, dtype=torch.float64, device=dev)


def _hp(backend: AbstractBackend, v: Any) -> mpmath.mpf:
    if backend.spec.kind == "torch":
        v = float(v)
    return rp.real_of(rp.hp_context(backend), v)


# ---- W.limit-decay: the conclusion's trend on admitted witness sequences ------------------------------

def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """e^{βt}|f(t)| at t = 2^{J−1}, 2^J for every witness sequence the statement's hypotheses admit
    and every β it tests (LimitDecay.betas): passes when it falls over that last octave, fails when
    it grows (beyond the rounding of the logarithms)."""
    _require_float64(backend)
    law = ctx.law(LimitDecay)
    t0 = time.perf_counter()
    x = _arith(backend)
    u = backend.unit_roundoff
    judged: list[rp.Judged] = []
    admitted = []
    for seq in SEQUENCES.values():
        if not law.admits(sequence_facts(seq)):
            continue
        admitted.append(seq.name)
        for beta in law.betas(BETA0):
            t_hi, t_lo = Fraction(2**OCTAVES), Fraction(2 ** (OCTAVES - 1))
            vals = []
            for tq in (t_lo, t_hi):
                tt = _const(backend, tq)
                vals.append(law.weighted(x, _const(backend, beta), tt, seq.f(x, tt)))
            label = f"{seq.name}, β = {beta}"
            if backend.encloses:
                judged.append(rp.ball_negative(label, vals[1].log() - vals[0].log()))
                continue
            lo, hi = _hp(backend, vals[0]), _hp(backend, vals[1])
            # |δ log r| ≤ c·u·(1 + β·t + 2·t): the exponentials' arguments carry their rounding
            bound = C_SUP * u * (4 + 6 * 2**OCTAVES)
            growth = mpmath.log(hi) - mpmath.log(lo) if lo > 0 and hi > 0 else mpmath.mpf("-inf")
            judged.append(rp.point_negative(label, growth, bound))
    src = ("enclosure of log r(2^J) − log r(2^{J−1})" if backend.encloses else
           f"|δ log r| ≤ c·u·(4 + 6t), c = {C_SUP}")
    return [rp.evidence(f"e^(βt)|f(t)| over the last octave t = 2^{OCTAVES - 1} … 2^{OCTAVES} "
                        "(must fall)", backend, judged, t0, tolerance_source=src,
                        data={"witness sequences admitted": admitted,
                              "β tested": [str(b) for b in law.betas(BETA0)]})]


def symbolic(ctx: Context) -> list[Evidence]:
    """Lemma A.10 (or a variant) decided by theory.limit_decay.limit_decay_proof."""
    from recmem.theory.limit_decay import limit_decay_proof

    t0 = time.perf_counter()
    return [from_proof(limit_decay_proof(ctx.law(LimitDecay)), time.perf_counter() - t0)]


# ---- the transform step: both sups, independently ------------------------------------------------------

def _s_grid() -> list[float]:
    geo = [2.0 ** (-j / 4) for j in range(4 * GRID_OCTAVES + 1)]
    return sorted(set(geo + [k / 256 for k in range(1, 257)]))


def _t_grid() -> list[float]:
    return [k / 32 for k in range(32 * T_MAX + 1)]


def sup_points(evaluate: Callable[[list[Any]], list[Any]], grid: list[float],
               scalar: Callable[[Any], Any], to_num: Callable[[Any], mpmath.mpf],
               bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(sup over the grid's range, location) of a function: grid maximum refined by golden
    section; the section stops once the bracket is below √u of its location (the function is
    flat to O(u) there)."""
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


def _g(x: Arith, m: int) -> Callable[[Any], Any]:
    """g = f_m − f_{m+1} of the converging sequence."""
    seq = SEQUENCES["converging"]
    return lambda t: seq.f_m(x, m, t) - seq.f_m(x, m + 1, t)


def _point_sups(backend: AbstractBackend, law: TransformSup,
                m: int) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """(sup of (109), sup of (110), the larger location in t) in a point arithmetic."""
    x = _arith(backend)
    b0, b = _const(backend, BETA0), _const(backend, BETA)
    g = _g(x, m)
    kind = backend.spec.kind
    if kind == "mpmath":
        c = rp.mp_ctx(backend)
        conv: Callable[[Any], Any] = c.mpf

        def ev(fn: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
            return lambda pts: [fn(c.mpf(p)) for p in pts]
        to_num: Callable[[Any], mpmath.mpf] = mpmath.mpf
        bits = backend.precision_bits
    elif kind == "numpy":
        import numpy as np

        conv = np.float64

        def ev(fn: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
            return lambda pts: list(fn(np.asarray(pts, dtype=np.float64)))
        to_num, bits = (lambda v: mpmath.mpf(float(v))), 53
    else:
        torch, dev, _rd = rp.torch_of(backend)
        conv = float

        def ev(fn: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
            return lambda pts: fn(torch.as_tensor([float(p) for p in pts], dtype=torch.float64,
                                                  device=dev)).cpu().tolist()
        to_num, bits = (lambda v: mpmath.mpf(float(v))), 53
    # (109) reads 𝒯's rate and power of s, (110) the weight: each sup is a pure function of those,
    # g (m) and the arithmetic, memoised, so a control that changes only the other side reads the
    # sup it would compute again (the statement's own comparison of the two follows)
    left, s_at = mm.memo(("limit-decay (109)", backend.name, bits, law.rate, law.s_power, m),
                         lambda: sup_points(ev(lambda s: law.lhs(x, b0, b, g, s)), _s_grid(), conv,
                                            to_num, bits))
    right, t_at = mm.memo(("limit-decay (110)", backend.name, bits, law.weight, m),
                          lambda: sup_points(ev(lambda t: law.rhs(x, b, g(t), t)), _t_grid(), conv,
                                             to_num, bits))
    rate = float(BETA0 if law.rate == "β₀" else BETA)
    t_left = -mpmath.log(s_at) / rate if s_at > 0 else mpmath.mpf(T_MAX)
    return left, right, max(t_left, t_at)


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

    # geometric initial partition where lo > 0 (relative widths 2^{1/4} − 1 keep enclosures of
    # functions of log s tight down to s = lo), uniform pieces of width 1/4 from 0
    if lo > 0:
        n0 = max(1, math.ceil(4 * float((hi / lo).log() / flint.arb(2).log())))
        ratio = (hi / lo) ** (flint.arb(1) / n0)
        pts = [lo * ratio**k for k in range(n0)] + [hi]
    else:
        n0 = max(1, math.ceil(4 * float(hi)))
        pts = [hi * k / n0 for k in range(n0)] + [hi]
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


def _abs_ball(v: Any) -> Any:
    """|v| for an arb, or for an arb_series whose constant term has a certified sign (|·| is
    smooth there); a series straddling 0 has no derivative form (Straddle: naive enclosure)."""
    import flint

    if isinstance(v, flint.arb):
        return abs(v)
    c = v.coeffs()[0]
    if c > 0:
        return v
    if c < 0:
        return -v
    raise Straddle


def _kappa_g(m: int, t: mpmath.mpf) -> mpmath.mpf:
    """(|f_m(t)| + |f_{m+1}(t)|)/|f_m(t) − f_{m+1}(t)| at 64 bits: the cancellation in g."""
    ctx = fixed_context(64)
    x = mp_arith(ctx)
    seq = SEQUENCES["converging"]
    a, b = seq.f_m(x, m, ctx.mpf(t)), seq.f_m(x, m + 1, ctx.mpf(t))
    return (abs(a) + abs(b)) / max(abs(a - b), ctx.mpf(2) ** -60)


def _flint_sups(backend: AbstractBackend, law: TransformSup, m: int) -> tuple[Any, Any, Any, Any]:
    """Certified enclosures [lower, upper] of both sups. (109): branch and bound over
    [2^-20, 1], plus the bound |(𝒯g)(s)| ≤ e^{−(2 + 1/(m+1) − p·r)t} (t = −log(s)/r) on
    (0, 2^-20]; (110): over [0, T_MAX], plus e^{−(2 − w)·T_MAX} beyond (|g(t)| ≤ e^{−2t})."""
    import flint

    x = _flint_arith()
    b0, b = flint.arb(BETA0.numerator) / BETA0.denominator, flint.arb(BETA.numerator) / BETA.denominator
    g = _g(x, m)
    # absolute stopping tolerance: 2^-12 below the pass width 2^-(p/4)/2 for sups ≥ 2^-11
    tol = flint.arb(2) ** -(backend.precision_bits // 4 + 12)

    def left(s: Any) -> Any:
        return law.lhs(x, b0, b, g, s, absval=_abs_ball)

    def right(t: Any) -> Any:
        return law.rhs(x, b, g(t), t, absval=_abs_ball)

    def both(fn: Callable[[Any], Any], lo: Any, hi: Any, t: Any, key: tuple[Any, ...]) -> tuple[Any, Any]:
        # each enclosure reads one side's fields (as in _point_sups), m, the tolerance and the
        # precision: memoised under those
        return mm.memo(("limit-decay enclosure", backend.precision_bits, m, t.mid().str(30), *key),
                       lambda: certified_sup(fn, lo, hi, t))

    delta = flint.arb(2) ** -20
    r = law.rate_value(b0, b)
    t_delta = -delta.log() / r
    decay = 2 + flint.arb(1) / (m + 1) - law.s_power * r
    tail_l = (-decay * t_delta).exp() if decay > 0 else flint.arb(1)
    w = law.weight_rate(b)
    tail_r = (-(2 - w) * T_MAX).exp()
    # coarse enclosures first: when they are already disjoint the sups differ (certified) and
    # the fine ones are not needed
    out = []
    for t in (flint.arb(2) ** -24, tol):
        l_lo, l_hi = both(left, delta, flint.arb(1), t, ("(109)", law.rate, law.s_power))
        r_lo, r_hi = both(right, flint.arb(0), flint.arb(T_MAX), t, ("(110)", law.weight))
        out = [l_lo, max(l_hi, tail_l.upper()), r_lo, max(r_hi, tail_r.upper())]
        if out[1] < out[2] or out[3] < out[0]:
            break
    return out[0], out[1], out[2], out[3]


def numeric_transform(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """(109) and (110) computed independently for g = f_m − f_{m+1}, m = 1…m_max, at β₀ = 1,
    β = 1/2: 𝒯 of the statement evaluated literally on (0, 1] against the weighted difference on
    t ≥ 0."""
    _require_float64(backend)
    law = ctx.law(TransformSup)
    t0 = time.perf_counter()
    judged, sups = [], {}
    for m in range(1, int(ctx["m_max"]) + 1):
        label = f"g = f_{m} − f_{m + 1}"
        if backend.encloses:
            l_lo, l_hi, r_lo, r_hi = _flint_sups(backend, law, m)
            sups[label] = f"(109) ∈ [{l_lo.str(8)}, {l_hi.str(8)}], (110) ∈ [{r_lo.str(8)}, " \
                          f"{r_hi.str(8)}]"
            bound = rp.arb_bounds(max(l_hi - l_lo, r_hi - r_lo))[1]
            dist = abs(rp.arb_bounds((l_lo + l_hi) / 2)[1] - rp.arb_bounds((r_lo + r_hi) / 2)[1])
            if l_hi < r_lo or r_hi < l_lo:
                judged.append(rp.Judged(label, Outcome.REFUTE, dist, bound,
                                        "certified enclosures of (109) and (110) are disjoint"))
            elif bound <= rp.max_width(backend.precision_bits) * rp.arb_bounds(r_hi)[1]:
                judged.append(rp.Judged(label, Outcome.PASS, dist, bound))
            else:
                judged.append(rp.Judged(label, Outcome.INCONCLUSIVE, dist, bound,
                                        "enclosures overlap but are too wide"))
            continue
        left, right, t_at = _point_sups(backend, law, m)
        sups[label] = f"(109) = {mpmath.nstr(left, 10)}, (110) = {mpmath.nstr(right, 10)}"
        scale = max(abs(left), abs(right))
        # each sup: g = f_m − f_{m+1} cancels (κ_g = (|f_m| + |f_{m+1}|)/|g| at the maximiser),
        # each exponential carries the rounding of its argument (≤ 3t), and golden section
        # leaves the value flat to O(u)
        bound = C_SUP * backend.unit_roundoff * _kappa_g(m, t_at) * (3 + 3 * t_at) * scale
        judged.append(rp.point_zero(label, left - right, bound, scale))
    def certify(labels: list[str]) -> str | None:
        # the failing sups again as certified enclosures (branch and bound in ball arithmetic):
        # only disjoint enclosures certify (a difference that stays put when the precision
        # doubles is a heuristic, and stays FAIL)
        fl = rp.flint_for(backend.precision_bits)
        if fl is None:
            return None
        for m, j in enumerate(judged, start=1):
            if j.label in labels:
                with fl.activate():
                    l_lo, l_hi, r_lo, r_hi = _flint_sups(fl, law, m)
                if l_hi < r_lo or r_hi < l_lo:
                    return (f"ball arithmetic (python-flint) at {fl.precision_bits} bits: "
                            f"certified enclosures (109) ∈ [{l_lo.str(8)}, {l_hi.str(8)}] and "
                            f"(110) ∈ [{r_lo.str(8)}, {r_hi.str(8)}] are disjoint ({j.label})")
        return None

    src = ("certified branch-and-bound enclosures of both sups (mean-value form)"
           if backend.encloses else
           f"c·u·κ_g·(3 + 3t*)·sup, c = {C_SUP}, t* the maximiser (grid + golden section), "
           "κ_g the cancellation in g = f_m − f_(m+1) there")
    return [rp.evidence("(109) from 𝒯 on (0, 1] against (110) on t ≥ 0", backend, judged, t0,
                        tolerance_source=src, certify=certify, data={"sups": sups})]


def symbolic_transform(ctx: Context) -> list[Evidence]:
    """The step decided for every g by theory.limit_decay.transform_proof."""
    from recmem.theory.limit_decay import transform_proof

    t0 = time.perf_counter()
    return [from_proof(transform_proof(ctx.law(TransformSup)), time.perf_counter() - t0)]


# ---- the exact search: sequences f_m → f, and differences g = f_(m₁) − f_(m₂) -----------------------

def _terms(max_terms: int) -> Any:
    """Lists of exact terms (c, p, q, r) = c·t^p·e^{−rβ₀t}/(1 + t)^q: c ∈ [−2, 2]; p, q ∈ {0, 1, 2},
    q > p (a term that decays like a negative power of t at its rate) half of the time; r ∈ [0, 3]
    in quarters: a third of the time r = 1 (exactly the rate β₀, the boundary of (104) and
    (105)), a third faster (r ∈ (1, 3]), a third slower (r ∈ [0, 1); r = 0: no decay)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    quarter = Fraction(1, 4)
    rate = st.one_of(st.just(Fraction(1)), fractions_in(1 + quarter, Fraction(3), max_den=4),
                     fractions_in(Fraction(0), 1 - quarter, max_den=4))
    powers = st.one_of(st.sampled_from([(0, 1), (0, 2), (1, 2)]),
                       st.tuples(st.integers(0, 2), st.integers(0, 2)))
    term = st.builds(lambda c, pq, r: (c, pq[0], pq[1], r), fractions_in(Fraction(-2), Fraction(2)),
                     powers, rate)
    return st.lists(term, min_size=0, max_size=max_terms).map(tuple)


def strategy(ctx: Context) -> Any:
    """Sequences f_m → f of Lemma A.10 (W App. A.10, (103)–(105)) with exact exponential-rational
    f (theory.limit_decay_families): β₀ ∈ [1/4, 2]; f a sum of up to 3 terms
    c·t^p·e^{−rβ₀t}/(1 + t)^q (rates below, at and above β₀, polynomial and 1/(1 + t)^q factors);
    f_m = f + g/m (g likewise), the cut-off f on [0, τm] with a tail e^{−ρβ₀(t−τm)} (τ ∈ [1/4, 4],
    ρ ∈ [1/2, 3]: tails slower, as fast as, and faster than β₀), or f with the j-th rate raised by
    μ_jβ₀/m (μ_j ∈ [0, 2]). Sequences that miss a hypothesis are drawn too (judged vacuous)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in
    from recmem.theory.limit_decay_families import DecayFamily

    betas, fs, gs = fractions_in(Fraction(1, 4), Fraction(2)), _terms(3), _terms(2)
    kinds = st.sampled_from(["perturbed", "cutoff", "rates"])
    taus, rhos = fractions_in(Fraction(1, 4), Fraction(4)), fractions_in(Fraction(1, 2), Fraction(3))
    mus = fractions_in(Fraction(0), Fraction(2))

    @st.composite
    def build(draw: Any) -> DecayFamily:
        beta0, f, kind = draw(betas), draw(fs), draw(kinds)
        if kind == "perturbed":
            return DecayFamily(beta0, f, kind, g=draw(gs))
        if kind == "cutoff":
            return DecayFamily(beta0, f, kind, tau=draw(taus), rho=draw(rhos))
        return DecayFamily(beta0, f, kind, mu=tuple(draw(mus) if r else Fraction(0)
                                                    for _, _, _, r in f))

    return build()


def holds(inst: Any, ctx: Context) -> Instance:
    """Lemma A.10 for the drawn sequence, exactly: which hypotheses it meets (uniform convergence
    (103); (104) uniform in m, or the decay of each f_m, as the statement assumes) from the
    asymptotics and zero tests of exponential-rational functions, then the conclusion (105) over
    the statement's range 0 < β < top (theory.limit_decay_families). ``ratio``: top/ν*, ν* the
    slowest rate of f (> 1 iff the conclusion fails), for sequences the hypotheses admit."""
    from recmem.theory.limit_decay_families import conclusion

    law = ctx.law(LimitDecay)
    facts = inst.facts()
    values: dict[str, Any] = {**inst.text(), **{k: str(v) for k, v in facts.items()}}
    if not law.admits(facts):
        return Instance(True, "outside the hypotheses (vacuous)", values)
    f = inst.limit()
    top = law.range_top(inst.beta0)
    ok, why = conclusion(f, top)
    a = f.asymptotic()
    ratio = 0.0 if a is None else (float(top / a[0]) if a[0] > 0 else 1e9)
    values |= {"conclusion's range": f"0 < β < {top}", "lim e^(βt)|f(t)|": why}
    if inst.kind == "cutoff" and not ok:
        m = inst.nonzero_cut()
        if m is not None:
            values["f(τm) ≠ 0 at"] = f"m = {m} (Lindemann–Weierstrass)"
    return Instance(ok, "exact: the hypotheses from the asymptotics e^(−νt)t^e of exponential-"
                    "rational functions (theory.limit_decay_families), (105) from f's slowest rate",
                    values, ratio=ratio)


def transform_strategy(ctx: Context) -> Any:
    """The step (109) = (110) of the proof of Lemma A.10 (W App. A.10) on g = f_(m₁) − f_(m₂): β₀ ∈
    [1/4, 2], β = fβ₀ with f ∈ [1/8, 7/8] (0 < β < β₀), f_(m₁), f_(m₂) sums of up to 2 exact terms
    c·t^p·e^{−rβ₀t}/(1 + t)^q (r ∈ [0, 3]: the sups may be infinite)."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    betas, ratios, fs = (fractions_in(Fraction(1, 4), Fraction(2)),
                         fractions_in(Fraction(1, 8), Fraction(7, 8)), _terms(2))

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        beta0 = draw(betas)
        return {"beta0": beta0, "beta": beta0 * draw(ratios), "f_m1": draw(fs), "f_m2": draw(fs)}

    return build()


GRID = tuple(Fraction(k, 8) for k in range(1, 129))  # t ∈ (0, 16]: where a sup is looked for


def transform_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """(109) = (110) for the drawn g, exactly: the statement's 𝒯 (its rate r and power of s) and
    (110)'s weight are evaluated on exact exponential-rational functions (numerics.exp_rational)
    at s = e^{−rt}, a bijection of [0, ∞) onto (0, 1] (and (𝒯g)(0) = 0 adds nothing to a sup of
    |·|); the two sups over t ≥ 0 are compared by theory.limit_decay_families.compare_sups (equal
    functions; one an e^{ct} multiple of the other: infinite sups from the asymptotics, the value
    at 0, derivatives at 0, certified points, monotonicity)."""
    from recmem.numerics.exp_rational import ExpRational, ExpRationalArith
    from recmem.theory.limit_decay_families import compare_sups, evaluate_terms, term_text

    law = ctx.law(TransformSup)
    b0, b = inst["beta0"], inst["beta"]
    values: dict[str, Any] = {"beta0": str(b0), "beta": str(b),
                              "f_m1(t)": term_text(inst["f_m1"], b0),
                              "f_m2(t)": term_text(inst["f_m2"], b0)}
    x = ExpRationalArith()
    t = ExpRational.t()

    def g(tt: Any) -> Any:
        return evaluate_terms(x, inst["f_m1"], b0, tt) - evaluate_terms(x, inst["f_m2"], b0, tt)

    r = law.rate_value(b0, b)
    same: Callable[[Any], Any] = lambda v: v  # noqa: E731 - the signed sides
    try:
        left = law.lhs(x, b0, b, g, x.exp(-r * t), absval=same)
        right = law.rhs(x, b, g(t), t, absval=same)
    except ValueError as exc:
        return Instance(None, f"undecided: {exc}", values)
    values |= {"(𝒯g)(e^(−rt)), r = " + str(r): str(left), "(110)'s e^(wβt)g(t)": str(right)}
    ok, why = compare_sups(left, right, GRID)
    return Instance(ok, "exact: both sides as exponential-rational functions of t (s = e^(−rt)); "
                    + why, values)


TOL_T = ("SymPy exact; flint: certified branch-and-bound enclosures of both sups; points: "
         "c·u·κ_g·(3 + 3t*)·sup at the maximiser t*, κ_g the cancellation in g")
P_M = Param("m_max", 2, "largest m of g = f_m − f_{m+1} in the transform check", int,
            check=at_least(1), max=64)

CLAIMS = [
    Claim(
        id="W.limit-decay",
        summary="Lemma A.10 (even at β = β₀); the uniform decay in m cannot be dropped",
        title="Uniformly exponentially decaying approximants have an exponentially decaying limit",
        statement=LimitDecay(),
        provenance=Provenance("W", "App. A.10, Lemma A.10, eqs. (103)–(105) (ICLR camera-ready)",
                              QUOTE),
        tolerance="SymPy exact; flint: enclosure of the last octave's log-growth; points: "
                  "c·u·(4 + 6t) on log e^{βt}|f(t)|",
        uses=("W.memory-def",),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="The conclusion also holds at β = β₀, and uniform convergence (103) can be "
              "weakened to pointwise: |f(t)| = lim_m |f_m(t)| ≤ sup_m |f_m(t)|, so "
              "e^{β₀t}|f(t)| ≤ sup_m e^{β₀t}|f_m(t)| → 0. The uniform-in-m decay (104) is "
              "needed: cut-offs of f(t) = 1/(1 + t) each decay at rate 2 > β₀ and converge "
              "uniformly, yet f decays like 1/t; and the range cannot pass β₀: f_m = f = "
              "e^{−β₀t}/(1 + t). The numeric side tests the conclusion's trend on these witness "
              "sequences (the hypotheses are established symbolically). The counterexample search "
              "draws sequences with an exact finite description (perturbations f + g/m, cut-offs, "
              "rates converging from above; exponential-rational f) whose hypotheses and "
              "conclusion are decided exactly (theory.limit_decay_families). The proof's "
              "transform is defined with β₀ and used with β: W.limit-decay.proof-transform.",
    ),
    Claim(
        id="W.limit-decay.proof-transform",
        summary="finding: the proof defines 𝒯 with β₀ (106) but uses it with β",
        title="Proof of Lemma A.10: (109) = (110) with 𝒯 of (106) (finding)",
        statement=TransformSup(rate="β₀"),
        provenance=Provenance("W", "App. A.10, proof of Lemma A.10, eqs. (106), (109)–(110), (117) "
                              "(ICLR camera-ready)", QUOTE_PROOF),
        tolerance=TOL_T,
        uses=("W.limit-decay",),
        params=(P_M,),
        symbolic=symbolic_transform,
        numeric=numeric_transform,
        strategy=transform_strategy,
        holds=transform_holds,
        notes="Finding (the printed proof disagrees with itself): (106) defines 𝒯 with β₀, so "
              "(𝒯g)(e^{−β₀t}) = e^{β₀t}g(t) and (109) = sup_t e^{β₀t}|g(t)|, not (110)'s "
              "sup_t e^{βt}|g(t)|; (117) likewise needs 𝒯 with β. With β in (106) "
              "(W.limit-decay.proof-transform.corrected) every step holds; with β₀ throughout "
              "the estimate (111) needs sup_{t ≥ T₀} sup_m e^{β₀t}|f_m| in place of C₀e^{−δT₀}, "
              "which (104) also makes small. The lemma is unaffected (W.limit-decay). (The proof also "
              "says '{f_m} is a Cauchy sequence in C([0, ∞))' right after (114), where the "
              "estimate is about {𝒯f_m}; {f_m} is Cauchy by (103) alone.)",
    ),
    Claim(
        id="W.limit-decay.proof-transform.corrected",
        summary="with 𝒯 defined with β, (109) = (110)",
        title="Proof of Lemma A.10: (109) = (110) with 𝒯 defined with β",
        statement=TransformSup(rate="β"),
        provenance=Provenance("W", "App. A.10, proof of Lemma A.10, eqs. (106), (109)–(110), (117) "
                              "(ICLR camera-ready)", QUOTE_PROOF),
        tolerance=TOL_T,
        uses=("W.limit-decay.proof-transform",),
        params=(P_M,),
        symbolic=symbolic_transform,
        numeric=numeric_transform,
        strategy=transform_strategy,
        holds=transform_holds,
        corrects="W.limit-decay.proof-transform",
    ),
]
