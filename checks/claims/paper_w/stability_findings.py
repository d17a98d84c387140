"""Findings where paper W's printed text disagrees with itself, near its stability claims.

- ``W.perturbation.lemma-a6``: Def. 3.4 (eq. (9)) perturbs θ within |θ̃ − θ_m|₂ ≤ β, Lemma A.6
  (eqs. (69)–(72)) argues with readout perturbations |c̃_m − c_m|_∞ ≤ β — for m ≥ 2 those leave
  Def. 3.4's ball (the vertex β(1, …, 1) has 2-norm β√m). Corrected: radius β/√m.
- ``W.theorem.slope``: A.8's eq. (27) gives dv/dt = c_σWv for σ ∈ 𝒜₀, but eqs. (36)–(38) bound v by
  the rate of dv/dt = Wv (c_σ dropped), so the proved rate is c_σβ₀, not β₀: for c_σ < 1 the bound
  (38) is false. ``W.theorem.slope.a1``: A.9 (eqs. (45)–(62)) writes σ'_tanh = 1 − σ² (a = b = 1)
  while Thm 3.9 claims all of 𝒜₁ (σ' = a − bσ², eq. (13)); the same Lyapunov argument gives the
  rate a(1 − L)β₀. Corrections: the rate times the slope σ'(0). (Consequence for Thm 3.9: its
  conclusion (15) is supported only for β < σ'(0)·β₀.)
- ``W.theorem.horizon``: App. D trains on [0.1, …, 3.2] and evaluates "over the same horizon
  [0.1, …, 10.0]". Corrected: the training grid is an initial segment of the evaluation grid.

The statements are in :mod:`recmem.theory.stability` (:class:`BallInclusion`,
:class:`SlopeRate`, :class:`GridHorizons`); every side reads them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_w._stability import C_TOL
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.certified import fixed_context
from recmem.theory.stability import (
    BallInclusion,
    GridHorizons,
    SlopeRate,
    a1_lyapunov_comparison,
    grid_sides,
    grid_time_holds,
    horizons_proof,
    inclusion_proof,
    slope_rate_proof,
    vector_norm,
)


# ---- the arithmetic that runs ---------------------------------------------------------------------
class Arith:
    """Scalars of one arithmetic (numpy/torch at their dtype, mpmath/flint at their precision):
    ``q`` converts an exact rational, ``sqrt``/``exp`` act, ``f`` reads a value as a float."""

    def __init__(self, backend: AbstractBackend) -> None:
        kind, bits = backend.spec.kind, backend.precision_bits
        self.certified = kind == "flint"
        # names the arithmetic (kind, precision, dtype, device): values memoised under it are
        # the values this arithmetic computes
        self.name = f"{backend.name}/{kind}/{bits}/{backend.spec.dtype}/{backend.spec.device}"
        self.u = float(backend.unit_roundoff)
        self.q: Callable[[Fraction], Any]
        self.sqrt: Callable[[Any], Any]
        self.exp: Callable[[Any], Any]
        if kind == "numpy":
            dt = np.dtype(backend.spec.dtype or "float64")
            if dt.kind != "f":
                raise BackendUnavailable(f"{backend.name}: a real float dtype is needed")
            # the rational rounded to float64, then to the dtype (huge numerators overflow a
            # float32 division)
            self.q = lambda v: dt.type(float(v))
            self.sqrt, self.exp = np.sqrt, np.exp
        elif kind == "torch":
            import torch

            tdt = {"float32": torch.float32, "float64": torch.float64}.get(
                backend.spec.dtype or "float64")
            if tdt is None:
                raise BackendUnavailable(f"{backend.name}: a real float dtype is needed")
            self.q = lambda v: torch.tensor(float(v), dtype=tdt)
            self.sqrt, self.exp = torch.sqrt, torch.exp
        elif kind == "mpmath":
            ctx = fixed_context(bits)
            self.q = lambda v: ctx.mpf(v.numerator) / v.denominator
            self.sqrt, self.exp = ctx.sqrt, ctx.exp
        elif kind == "flint":
            import flint

            self.q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))
            self.sqrt, self.exp = (lambda x: x.sqrt()), (lambda x: x.exp())
        else:
            raise BackendUnavailable(f"{backend.name}: no scalar arithmetic here")

    def f(self, x: Any) -> float:
        return float(x.mid()) if self.certified else float(x)

    def certainly_positive(self, x: Any) -> bool:
        return bool(x > 0) if self.certified else False


def _judge(backend: AbstractBackend, check: str, arith: Arith, violations: list[tuple[str, Any]],
           n: int, t0: float, what: str, extra_tol: float = 0.0) -> Evidence:
    """Violations (the definition's value minus the statement's bound, per instance; > 0 means the
    statement fails there) against c·n·u + ``extra_tol`` (the method's truncation bound): FAIL
    beyond it, REFUTE where ball arithmetic certifies a violation larger than the truncation
    bound (the balls enclose the method's result, not the exact solution)."""
    tol = C_TOL * n * arith.u + extra_tol
    worst_label, worst = max(violations, key=lambda lv: arith.f(lv[1]))
    value = arith.f(worst)
    margin = arith.q(Fraction(extra_tol)) if extra_tol else 0
    certified = [lbl for lbl, v in violations if arith.certainly_positive(v - margin)]
    outcome = (Outcome.REFUTE if certified else Outcome.FAIL if value > tol else Outcome.PASS)
    return Evidence(check=check, kind="numeric", backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, instances=len(violations),
                    residual=f"{max(value, 0.0):.3g}", tolerance=f"{tol:.3g}",
                    tolerance_source=f"c·n·u with c = {C_TOL}, n = {n}, u = 2^-"
                                     f"{backend.precision_bits}" + (" + truncation" if extra_tol else ""),
                    certified_by="ball arithmetic (python-flint)" if certified else None,
                    counterexample={"instance": certified[0], "violation": str(worst)}
                    if certified else None,
                    message=f"{what}; largest violation {value:.3g} at {worst_label}",
                    seconds=time.perf_counter() - t0)


# ---- W.perturbation.lemma-a6 ------------------------------------------------------------------------
def inclusion_symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(inclusion_proof(ctx.law(BallInclusion)), time.perf_counter() - t0)]


def inclusion_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """|vertex of the inner ball|_outer − β for m = 1…8 (β = 1), in the arithmetic that runs."""
    law = ctx.law(BallInclusion)
    t0 = time.perf_counter()
    ar = Arith(backend)
    one = ar.q(Fraction(1))
    rows = [(f"m = {m}", law.vertex_outer(m, one, ar.sqrt) - one) for m in range(1, 9)]
    return [_judge(backend, "inner ball's vertex against the outer ball, m = 1…8", ar, rows, 16,
                   t0, f"|r·(1, …, 1)|_{law.outer} − β with r = {law.radius_text}, β = 1")]


def inclusion_strategy(ctx: Context) -> Any:
    """m ∈ 1…6, β, and a point x of the unit cube (vertices included): δ = r·x is in the inner ball."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    coord = st.one_of(st.sampled_from([Fraction(-1), Fraction(1)]), fractions_in(-1, 1, 8))
    return st.integers(1, 6).flatmap(lambda m: st.fixed_dictionaries({
        "m": st.just(m), "beta": st.sampled_from([Fraction(1, 4), Fraction(1), Fraction(3)]),
        "x": st.lists(coord, min_size=m, max_size=m).map(tuple)}))


def inclusion_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact: δ = r·x (r² rational) lies in the outer ball iff r²·|x|² ≤ β² in the outer norm."""
    law = ctx.law(BallInclusion)
    m, beta, x = inst["m"], inst["beta"], inst["x"]
    r2 = law.radius_squared(beta, m)
    size2 = {"2": sum(v * v for v in x), "1": sum(abs(v) for v in x) ** 2,
             "inf": max(v * v for v in x)}[law.outer]
    ok = r2 * size2 <= beta * beta
    return Instance(ok, "exact rational arithmetic",
                    {"m": m, "β": str(beta), "δ": f"r·({', '.join(map(str, x))}), r² = {r2}",
                     f"|δ|_{law.outer}²": str(r2 * size2), "β²": str(beta * beta)},
                    "" if ok else "a point of the inner ball outside the outer ball")


# ---- W.theorem.slope (𝒜₀) and .a1 (𝒜₁) ---------------------------------------------------------------
def slope_symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(slope_rate_proof(ctx.law(SlopeRate)), time.perf_counter() - t0)]


# 𝒜₀ instances: slope, W (rows), v_0, β₀; W = −(β₀ + 1/16) puts the spectrum near the hypothesis'
# boundary, where a rate claimed too fast shows; the Jordan block is admitted by normal_only = False.
A0_SLOPES = (Fraction(1, 2), Fraction(1), Fraction(3, 2))
A0_MATRICES = (("diagonal", ((Fraction(-17, 16), Fraction(0)), (Fraction(0), Fraction(-2))), True),
               ("Jordan-like", ((Fraction(-2), Fraction(10)), (Fraction(0), Fraction(-2))), False))
A0_TIMES = (Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))
def taylor_terms(u: float) -> int:
    """Terms K of the exponential series of a scaled matrix (‖A/2^s‖ ≤ 1/2) whose tail
    2·2^-K/K! lies below u·2^-8 (the arithmetic's unit roundoff, with margin)."""
    k, tail = 1, 1.0
    while 2 * tail > u * 2.0**-8:
        k += 1
        tail = tail / 2 / k
    return k


def _expm2(a: list[list[Any]], ar: Arith) -> list[list[Any]]:
    """e^A for a 2×2 matrix in the arithmetic ``ar``: scaling by 2^s (‖A‖/2^s ≤ 1/2), the Taylor
    series (:func:`taylor_terms`, remainder below the unit roundoff), and s squarings — the
    solution operator of dv/dt = Av at time 1, computed from the ODE's series, independent of the
    statement's bound."""
    size = max(abs(ar.f(x)) for row in a for x in row)
    s = max(0, int(np.ceil(np.log2(max(size, 1e-300) * 4))))
    scale = ar.q(Fraction(1, 2**s))
    b = [[x * scale for x in row] for row in a]
    one, zero = ar.q(Fraction(1)), ar.q(Fraction(0))
    out = [[one, zero], [zero, one]]
    term = [[one, zero], [zero, one]]
    for k in range(1, taylor_terms(ar.u)):
        term = [[sum((term[i][j] * b[j][n] for j in range(2)), zero) * ar.q(Fraction(1, k))
                 for n in range(2)] for i in range(2)]
        out = [[out[i][n] + term[i][n] for n in range(2)] for i in range(2)]
    for _ in range(s):
        out = [[sum((out[i][j] * out[j][n] for j in range(2)), zero) for n in range(2)]
               for i in range(2)]
    return out


def _a0_violations(law: SlopeRate, ar: Arith) -> list[tuple[str, Any]]:
    beta0 = Fraction(1)
    rows = []
    for s in A0_SLOPES:
        kappa = law.kappa(s)
        for name, w, normal in A0_MATRICES:
            if normal is False and law.normal_only:
                continue  # outside the statement's hypothesis
            for t in A0_TIMES:
                e = _solution_operator(ar, s, name, w, t)
                for v0 in ((1, 0), (0, 1)):
                    vt = [e[i][0] * v0[0] + e[i][1] * v0[1] for i in range(2)]
                    norm = vector_norm(vt, "2", ar.sqrt)
                    bound = ar.exp(ar.q(-kappa * beta0 * t))
                    rows.append((f"c_σ = {s}, {name} W, v_0 = e{1 + v0.index(1)}, t = {t}",
                                 norm - bound))
    return rows


def _a1_violations(law: SlopeRate, ar: Arith) -> tuple[list[tuple[str, Any]], float]:
    """RK4 for the scalar v' = wv(a − bv²) (the ODE, in the arithmetic), w = −1 (β₀ = 1),
    L = 1/16, v_0² = Υ_L² (the edge of the hypothesis); the violation of
    V(v_t) ≤ e^{−2κ(1−L)β₀t}V(v_0), relative to V(v_0).
    Returns the violations and the RK4 truncation bound: |e^{hλ} − P₄(hλ)| ≤ (h|λ|)⁵/120 per step
    with |λ| ≤ a|w|, over t/h steps, doubled for v² (relative). The RK4 runs read nothing of the
    statement (:func:`_a1_trajectory`, once per arithmetic); the bounds are the statement's."""
    w, L, h, t_end = A1_RK4
    rows, trunc = [], 0.0
    for a, b in ((Fraction(1, 2), Fraction(2)), (Fraction(2), Fraction(1, 2)),
                 (Fraction(1), Fraction(1))):
        ups2 = law.upsilon_squared(a, b, L)  # Υ_L² = aL/b
        u0 = ar.q(ups2)
        kappa = law.kappa(a)
        slack = law.slack(L)  # 1 − L, or 1 when the slack is taken inside (L = 0)
        for t, v in _a1_trajectory(ar, a, b, ups2):
            bound = ar.exp(ar.q(-2 * kappa * slack * t)) * u0
            rows.append((f"a = {a}, b = {b}, t = {t}", (v * v - bound) / u0))
        trunc = max(trunc, 2 * float(t_end / h) * float(abs(a * w) * h) ** 5 / 120)
    return rows, trunc


# w, L, Δt and the end time of the 𝒜₁ RK4 runs (w = −1: β₀ = 1)
A1_RK4 = (Fraction(-1), Fraction(1, 16), Fraction(1, 128), 4)
A1_REPORTED = (Fraction(1, 4), 1, 2, 4)  # 1/4: near the edge's rate (see slope_rate_proof)
# The ODE solutions do not depend on the statement (only the bounds they are compared with do):
# computed once per arithmetic and instance, and read by the statement, its controls and the other
# slope claims of the run (the same operations in the same arithmetic give the same values).
_SOLUTIONS: dict[tuple[Any, ...], Any] = {}


def _memo(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    if key not in _SOLUTIONS:
        if len(_SOLUTIONS) >= 4096:
            _SOLUTIONS.pop(next(iter(_SOLUTIONS)))
        _SOLUTIONS[key] = make()
    return _SOLUTIONS[key]


def _solution_operator(ar: Arith, s: Fraction, name: str, w: Any, t: Fraction) -> Any:
    """e^{c_σWt} (2×2, :func:`_expm2`) in ``ar``'s arithmetic, memoised per arithmetic."""
    return _memo((ar.name, "A0", s, name, w, t),
                 lambda: _expm2([[ar.q(s * t * x) for x in row] for row in w], ar))


def _a1_trajectory(ar: Arith, a: Fraction, b: Fraction, ups2: Fraction) -> list[tuple[Any, Any]]:
    """RK4 for v' = wv(a − bv²) from v_0 = √Υ² (A1_RK4's w, Δt, end time) in ``ar``'s arithmetic:
    (t, v_t) at the reported times A1_REPORTED, memoised per arithmetic."""
    def run() -> list[tuple[Any, Any]]:
        w, _, h, t_end = A1_RK4
        qa, qb, qw, qh = ar.q(a), ar.q(b), ar.q(w), ar.q(h)
        half, sixth = ar.q(Fraction(1, 2)), ar.q(Fraction(1, 6))

        def f(v: Any) -> Any:
            return qw * v * (qa - qb * v * v)

        out = []
        v = ar.sqrt(ar.q(ups2))
        for k in range(1, int(t_end / h) + 1):
            k1 = f(v)
            k2 = f(v + half * qh * k1)
            k3 = f(v + half * qh * k2)
            k4 = f(v + qh * k3)
            v = v + qh * sixth * (k1 + 2 * k2 + 2 * k3 + k4)
            t = k * h
            if t in A1_REPORTED:
                out.append((t, v))
        return out

    return _memo((ar.name, "A1", a, b, ups2), run)


def slope_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    law = ctx.law(SlopeRate)
    t0 = time.perf_counter()
    ar = Arith(backend)
    if law.family == "A0":
        rows = _a0_violations(law, ar)
        # K Taylor terms and s ≤ 7 squarings of 2×2 products: n ≈ 2K + 4·7 operations; the series'
        # tail (‖A/2^s‖ ≤ 1/2) is ≤ 2·2^-K/K!, at most doubled by each of ≤ 8 squarings
        k = taylor_terms(ar.u)
        tail = 2.0**8 * 2 * 0.5**k / float(math.factorial(k))
        return [_judge(backend, "|v_t|₂ of dv/dt = c_σWv (series solution) against the bound", ar,
                       rows, 2 * k + 28, t0,
                       f"bound e^(−κβ₀t)|v_0|₂, κ = {law.kappa_text}, β₀ = 1", tail)]
    rows, trunc = _a1_violations(law, ar)
    return [_judge(backend, "V(v_t) of v' = wv(a − bv²) (RK4) against eq. (62)'s bound", ar, rows,
                   4 * 512, t0, f"bound e^(−2κ(1−L)β₀t)V(v_0), κ = {law.kappa_text}, β₀ = 1, "
                   "L = 1/16, Δt = 1/128 (RK4 truncation bound added to the tolerance)", trunc)]


def slope_strategy(ctx: Context) -> Any:
    """𝒜₀: a slope c_σ ∈ (0, 2], β₀, λ = −(β₀ + ε) (near the hypothesis' boundary), a diagonal W or
    — when the statement admits non-normal W — a Jordan-like block, v_0 and t."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(SlopeRate)
    kinds = ["diagonal"] if law.normal_only else ["diagonal", "jordan"]
    return st.fixed_dictionaries({
        "c_sigma": fractions_in(Fraction(1, 8), 2, 8), "beta0": st.sampled_from([Fraction(1, 2),
                                                                                   Fraction(1)]),
        "eps": fractions_in(Fraction(1, 64), 1, 64), "kind": st.sampled_from(kinds),
        "k": fractions_in(1, 10, 1), "t": fractions_in(Fraction(1, 16), 4, 16),
        "v0": st.sampled_from([(1, 0), (0, 1), (1, 1)])})


def slope_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Ball arithmetic (128 bits): the exact solution e^{c_σλt}(1, c_σkt; 0, 1)v_0 of dv/dt = c_σWv
    for W = λI (+ kN) against e^{−κβ₀t}|v_0|₂ — a certified excess refutes."""
    import flint

    law = ctx.law(SlopeRate)
    s, b0, t = inst["c_sigma"], inst["beta0"], inst["t"]
    lam = -(b0 + inst["eps"])
    k = inst["k"] if inst["kind"] == "jordan" else Fraction(0)
    q = lambda v: flint.arb(flint.fmpq(v.numerator, v.denominator))  # noqa: E731
    with flint.ctx.workprec(128):
        e = (q(s * lam * t)).exp()
        x, y = inst["v0"]
        vt = [e * (q(Fraction(x)) + q(s * k * t) * y), e * y]
        norm2 = vt[0] * vt[0] + vt[1] * vt[1]
        bound2 = (q(-2 * law.kappa(s) * b0 * t)).exp() * (x * x + y * y)
        above = bool(norm2 > bound2)
        shown = (norm2.str(12), bound2.str(12))
    return Instance(not above, "ball arithmetic (python-flint, 128 bits)",
                    {"c_σ": str(s), "β₀": str(b0), "W": f"[[{lam}, {k}], [0, {lam}]]",
                     "v_0": str(inst["v0"]), "t": str(t), "|v_t|₂²": shown[0],
                     "bound²": shown[1]}, "|v_t| above the bound" if above else "")


# 𝒜₁ instances (the search): short times, where a rate claimed too fast shows at the edge
# |v_0| = Υ_L (there the rate is a(1 − L), it speeds up towards a as |v| falls)
A1_SHORT_TIMES = tuple(Fraction(1, 2**j) for j in range(7))  # 1, 1/2, …, 1/64
A1_MAX_WIDTH = 4
A1_EDGE_SLACKS = (Fraction(1, 64), Fraction(63, 64), Fraction(1, 1024))  # L near 0 and 1


def a1_strategy(ctx: Context) -> Any:
    """A.9's eq. (62) for σ ∈ 𝒜₁ over the statement's whole domain (Def. 3.8 eq. (13), eq. (47)):
    width m = 1…4 (diagonal W: decoupled units, whose decays V mixes with weights 1/(2|w_i|));
    a ∈ [1/8, 4] (a ≤ 1 and a ≥ 1, which tanh's a = 1 divides, drawn equally often); b ∈ [0, 4]
    (b = 0, σ linear, included); L ∈ (0, 1) (L near 0 and 1 drawn half the time); β₀ ∈ [1/8, 4];
    w_i = −β₀ − δ_i with δ_i ∈ [0, 2] (δ_i = 0, eq. (47)'s edge max λ = −β₀, drawn half the
    time); v_0 in the ball |v_0|₂ ≤ Υ_L, as its squares u0_i = Υ_L²·r·d_i/Σd (r = 1, the ball's
    edge, drawn half the time; r = 0 or all d_i = 0 give v_0 = 0; for b = 0, Υ_L = ∞ and the
    comparison is scale-invariant — linear ODE, quadratic V — so Υ_L² is replaced by 4); t ≥ 0
    (t = 0 and the short times 1, 1/2, …, 1/64 drawn half the time, else t ∈ [0, 8]). All
    rationals, with denominators dividing 8 or 16 (and the edge slacks); the comparison sees a
    only through a|w_i|t, bu0_i/a ≤ L and κ(a), so these pools reach every regime of it."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(SlopeRate)

    def instance(d: dict[str, Any]) -> dict[str, Any]:
        a, b, big_l = d["a"], d["b"], d["L"]
        # the units, largest share of v_0 first, cut to the width m (so that a smaller m keeps
        # the units that carry v_0: the shrinker reaches m = 1)
        units = sorted(zip(d["d"], d["delta"], strict=True), key=lambda u: -u[0])[:d["m"]]
        radius2 = law.upsilon_squared(a, b, big_l) if b else Fraction(4)
        total = sum((x for x, _ in units), Fraction(0))
        u0 = tuple(radius2 * d["r"] * x / total if total else Fraction(0) for x, _ in units)
        return {"a": a, "b": b, "L": big_l, "beta0": d["beta0"],
                "w": tuple(-(d["beta0"] + y) for _, y in units), "v0_sq": u0, "t": d["t"]}

    per_unit = A1_MAX_WIDTH
    return st.fixed_dictionaries({
        "m": st.integers(1, A1_MAX_WIDTH),
        "a": st.one_of(fractions_in(Fraction(1, 8), 1, 8), fractions_in(1, 4, 8)),
        "b": fractions_in(0, 4, 8),
        "L": st.one_of(fractions_in(Fraction(1, 16), Fraction(15, 16), 16),
                       st.sampled_from(A1_EDGE_SLACKS)),
        "beta0": fractions_in(Fraction(1, 8), 4, 8),
        "delta": st.lists(st.one_of(st.just(Fraction(0)), fractions_in(0, 2, 8)),
                          min_size=per_unit, max_size=per_unit),
        "r": st.one_of(st.just(Fraction(1)), fractions_in(0, 1, 8)),
        "d": st.lists(fractions_in(0, 1, 8), min_size=per_unit, max_size=per_unit),
        "t": st.one_of(st.sampled_from((Fraction(0), *A1_SHORT_TIMES)),
                       fractions_in(0, 8, 16))}).map(instance)


def a1_holds(inst: dict[str, Any], ctx: Context) -> Instance:
    """Exact and certified (W A.9 eq. (62)): V(v_t) − e^{−2κ(1−L)β₀t}V(v_0), with κ, the slack
    and Υ_L read from the statement, is an exact exponential polynomial over positive
    denominators (the Bernoulli solution of each decoupled unit,
    theory.stability.a1_lyapunov_comparison), zero iff its collected coefficients are
    (Lindemann–Weierstrass), else of a sign certified in arb; ratio V(v_t)/bound. An instance
    outside the hypotheses (replayed from elsewhere) holds vacuously."""
    import flint

    from recmem.theory.exp_sums import ball_text

    law = ctx.law(SlopeRate)
    a, b, big_l, beta0, t = inst["a"], inst["b"], inst["L"], inst["beta0"], inst["t"]
    w, u0 = inst["w"], inst["v0_sq"]
    values = {"a": str(a), "b": str(b), "L": str(big_l), "β₀": str(beta0),
              "W": f"diag({', '.join(map(str, w))})", "v_0²": f"({', '.join(map(str, u0))})",
              "t": str(t), "rate": f"2κ(1 − L)β₀ with κ = {law.kappa_text}"
              + ("" if law.lyapunov_slack else ", L taken as 0")}
    radius2 = law.upsilon_squared(a, b, big_l) if b else None
    admitted = (law.family == "A1" and a > 0 and b >= 0 and 0 < big_l < 1 and beta0 > 0
                and len(w) == len(u0) >= 1 and max(w) <= -beta0 and t >= 0
                and min(u0) >= 0 and (radius2 is None or sum(u0) <= radius2))
    if not admitted:
        return Instance(True, "outside the hypothesis (vacuous)", values)
    if radius2 is not None:
        values["Υ_L²"] = str(radius2)
    numerator, parts, bound = a1_lyapunov_comparison(law, a, b, big_l, beta0, w, u0, t)
    sign, bits = numerator.sign()
    with flint.ctx.workprec(128):
        lhs = sum((n.enclose(128) / d.enclose(128) for n, d in parts), flint.arb(0))
        rhs = bound.enclose(128)
        ratio = float((lhs / rhs).mid()) if rhs > 0 else None
        values |= {"V(v_t) (Bernoulli solution)": ball_text(lhs),
                   "bound e^(−2κ(1−L)β₀t)V(v_0)": ball_text(rhs)}
    how = ("exact: V(v_t) − bound as an exponential polynomial over ℚ (Bernoulli solution, "
           "Lindemann–Weierstrass for 0)" + ("" if sign == 0 else f"; its sign in ball arithmetic "
                                              f"(python-flint, {bits} bits)"))
    if sign is None:
        return Instance(None, how, values, f"sign undecided at {bits} bits", ratio=ratio)
    return Instance(sign <= 0, how, values, "V(v_t) above the bound" if sign > 0 else "",
                    ratio=ratio)


# ---- W.theorem.horizon ------------------------------------------------------------------------------
def horizon_symbolic(ctx: Context) -> list[Evidence]:
    t0 = time.perf_counter()
    return [from_proof(horizons_proof(ctx.law(GridHorizons)), time.perf_counter() - t0)]


def horizon_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Both grids built in the arithmetic that runs (t_k = t_0 + k·Δt from the exact rationals),
    the relation's violation (distance to the partner time) against c·n·u·t_max."""
    law = ctx.law(GridHorizons)
    t0 = time.perf_counter()
    ar = Arith(backend)

    def grid(g: tuple[Fraction, Fraction, Fraction]) -> list[Any]:
        first, step, _ = g
        return [ar.q(first) + ar.q(step) * k for k in range(len(law.points(g)))]

    v = law.violation(grid(law.train), grid(law.evaluate))
    t_max = float(max(law.train[2], law.evaluate[2]))
    return [_judge(backend, "the two grids in this arithmetic against the relation", ar,
                   [(law.relation, v / ar.q(Fraction(t_max)))], 4 * len(law.points(law.evaluate)),
                   t0, f"largest distance to the partner time, relative to t_max = {t_max:g}")]


def horizon_strategy(ctx: Context) -> Any:
    """App. D's grids are fixed (first, step, last as printed); the relation quantifies over
    their times: an instance is (grid, index) with the grid one the statement's relation
    quantifies over (theory.stability.grid_sides: both grids for "same", the 32 training times
    for "prefix", the evaluation times for "contains") and any index in it, its first and last
    time drawn half the time (the boundary). The domain is finite: a search of a few dozen
    examples enumerates the corrected statement's 32 training times."""
    from hypothesis import strategies as st

    law = ctx.law(GridHorizons)
    sizes = {"train": len(law.points(law.train)), "evaluate": len(law.points(law.evaluate))}

    def index(side: str) -> Any:
        n = sizes[side]
        return st.tuples(st.just(side), st.one_of(st.integers(0, n - 1),
                                                  st.sampled_from((0, n - 1))))

    return st.sampled_from(grid_sides(law)).flatmap(index)


def horizon_holds(inst: tuple[str, int], ctx: Context) -> Instance:
    """Exact (rational grids, W App. D): the statement's relation at one time of one grid
    (theory.stability.grid_time_holds). A membership: no ratio."""
    side, k = inst
    ok, values = grid_time_holds(ctx.law(GridHorizons), side, k)
    return Instance(ok, "exact rational arithmetic", values,
                    "" if ok else "a time without its partner in the other grid")


# ---- the claims -----------------------------------------------------------------------------------
Q_A6 = (r"Lemma A.6. Assume the target functional sequence has a $\beta_0$ -stable approximation "
        r"and the perturbed model has a decaying memory, we show that $\tilde{v}_{m,t} \to 0$ for "
        r"all $m$ . … According to the definition of stable approximation about perturbation, as "
        r"$t \to \infty$ , $\tilde{v}_{m,t}$ vanishes over the projection to $\tilde{c}_m$ for any "
        r"$|\tilde{c}_m - c_m|_\infty \leq \beta$ . By linear algebra, there exist "
        r"$\{\Delta c_i\}_{i=1}^m$ , $|\Delta c_i|_\infty < \beta$ such that $c_m + \Delta c_1, "
        r"\ldots, c_m + \Delta c_m$ form a basis of $\mathbb{R}^m$ . … [Def. 3.4] $$E _ {m} "
        r"(\beta) := \sup _ {\tilde {\theta} _ {m} \in \{\theta : | \theta - \theta_ {m} | _ {2} "
        r"\leq \beta \}} \| \mathbf {H} - \widehat {\mathbf {H}} (\cdot ; \tilde {\theta} _ {m}) "
        r"\| \tag {9}$$ Moreover, … Here $|\theta|_2 := \max(|W|_2, |U|_2, |b|_2, |c|_2)$ .")
Q_A0 = (r"If the inputs are limited to Heaviside input, the derivative of perturbed models' hidden "
        r"states $\tilde{v}_{m,t}$ satisfies the following dynamics: $$\frac {d \tilde {v} _ {m , "
        r"t}}{d t} = \sigma^ {\prime} (\tilde {v} _ {m, t}) \circ (\widetilde {W} _ {m} \tilde {v} "
        r"_ {m, t}) = c _ {\sigma} \widetilde {W} _ {m} \tilde {v} _ {m, t}, \quad t \geq t _ {0} "
        r"\tag {27}$$ … $$\sup _ {m} \max _ {i \in [ m ]} (\operatorname{Re} (\lambda_ {i} (W _ "
        r"{m}))) <   - \beta_ {0}. \tag {31}$$ … Therefore the dynamics of $v_{m,t}$ is exactly the "
        r"linear system in $t > T_{\epsilon}$ . It can be seen that for $t \geq T_{\epsilon}$ "
        r"$$\left| v _ {m, t} \right| _ {2} = \left| e ^ {W _ {m} \left(t - T _ {\epsilon}\right)} "
        r"v _ {m, T _ {\epsilon}} \right| _ {2} \tag {36}$$ $$\leq \left| e ^ {W _ {m} (t - T _ "
        r"{\epsilon})} \right| _ {2} \left| v _ {m, T _ {\epsilon}} \right| _ {2} \tag {37}$$ $$\leq "
        r"e ^ {- \beta_ {0} (t - T _ {\epsilon})} | v _ {m, T _ {\epsilon}} | _ {2} \tag {38}$$ … "
        r"[Def. 3.8] $$\mathcal {A} _ {0} := \{\sigma (\cdot) | \sigma (z) = c _ {\sigma} z, c _ "
        r"{\sigma} > 0, | z | <   Z _ {0} \}, \tag {12}$$")
Q_A1 = (r"$$\mathcal {A} _ {1} := \{\sigma (\cdot) | \sigma (0) = 0; \sigma \text {   "
        r"differentiable }, \sigma^ {\prime} (z) = a - b \sigma (z) ^ {2}, a, b \geq 0, | z | <   "
        r"Z _ {0} \}. \tag {13}$$ … [A.9] $$\frac {d \tilde {v} _ {m , t}}{d t} = \sigma_ {\tanh} ^ "
        r"{\prime} (\tilde {v} _ {m, t}) \circ \widetilde {W} _ {m} \tilde {v} _ {m, t} = (I - "
        r"\mathrm{Diag} (\tilde {v} _ {m, t}) ^ {2}) \widetilde {W} _ {m} \tilde {v} _ {m, t}, "
        r"\tag {45}$$ … $$\sup _ {m} \max _ {i \in [ m ]} (\operatorname{Re} (\lambda_ {i} (W _ "
        r"{m}))) \leq - \beta_ {0}. \tag {47}$$ … = - (1 - L) \left| v _ {m, t} \right| _ {2} ^ "
        r"{2} (60) \\ \leq - 2 (1 - L) \beta_ {0} V (v _ {m, t}). (61) \\ \end{array}$$ … "
        r"$$V (v _ {m, t}) \leq e ^ {- 2 (1 - L) \beta_ {0} (t - T _ {\epsilon})} V (v _ {m, T _ "
        r"{\epsilon}}). \tag {62}$$ … [Thm 3.9] Let the activation be in $A_{0} \cup A_{1}$ .")
Q_HORIZON = (r"Nonlinear functionals approximated by nonlinear RNNs Still, we consider the "
             r"one-dimensional input and one-dimensional output case. We train the model over "
             r"timestamp $[0.1, 0.2, \ldots, 3.2]$ and evaluate the approximation error over the "
             r"same horizon $[0.1, 0.2, \ldots, 10.0]$ .")

LOC_A6 = "App. A.10, Lemma A.6 (eqs. (69)–(72)) vs Def. 3.4 (eq. (9)) (ICLR camera-ready)"
LOC_A0 = "App. A.8, eqs. (27), (31), (36)–(38); Def. 3.8 (eq. (12)) (ICLR camera-ready)"
LOC_A1 = ("App. A.9, eqs. (45), (47), (58)–(62); Def. 3.8 (eq. (13)); Thm 3.9 (ICLR "
          "camera-ready)")
LOC_HORIZON = "App. D (nonlinear experiments; no numbered equation) (ICLR camera-ready)"
_NUM = ("numpy", "torch", "mpmath", "flint")


def _numeric(fn: Any) -> Any:
    from recmem.checks.claim import by_arithmetic

    return by_arithmetic({k: fn for k in _NUM}, "no check for this arithmetic")


CLAIMS = [
    Claim(id="W.perturbation.lemma-a6",
          summary="finding: Lemma A.6's ∞-norm readout ball leaves Def. 3.4's 2-norm ball",
          title="Finding: Lemma A.6's ∞-norm readout perturbations leave Def. 3.4's 2-norm ball",
          statement=BallInclusion(),
          provenance=Provenance("W", LOC_A6,
                                Q_A6),
          tolerance="exact (SymPy, rationals); c·n·u (floats); enclosure (flint)",
          uses=("W.perturbation",), symbolic=inclusion_symbolic,
          numeric=_numeric(inclusion_numeric), strategy=inclusion_strategy, holds=inclusion_holds,
          notes="The printed text disagrees with itself: the same readout perturbations are "
                "measured in the 2-norm (Def. 3.4, A.8 eq. (33)) and the ∞-norm (Lemma A.6). "
                "Lemma A.6's argument survives inside Def. 3.4's ball (the corrected radius)."),
    Claim(id="W.perturbation.lemma-a6.corrected",
          summary="readout perturbations of ∞-norm radius β/√m lie in Def. 3.4's ball",
          title="Lemma A.6's readout perturbations with radius β/√m lie in Def. 3.4's ball",
          statement=BallInclusion(root_power=1),
          provenance=Provenance("W", LOC_A6,
                                Q_A6),
          tolerance="exact (SymPy, rationals); c·n·u (floats); enclosure (flint)",
          uses=("W.perturbation",), corrects="W.perturbation.lemma-a6",
          symbolic=inclusion_symbolic, numeric=_numeric(inclusion_numeric),
          strategy=inclusion_strategy, holds=inclusion_holds),
    Claim(id="W.theorem.slope",
          summary="finding: A.8's rate drops the slope c_σ of eq. (27)",
          title="Finding: A.8's rate drops the activation's slope c_σ (eq. (27) vs (36)–(38))",
          statement=SlopeRate(family="A0"),
          provenance=Provenance("W", LOC_A0,
                                Q_A0),
          tolerance="exact (SymPy; ball arithmetic for the search); c·n·u (floats, series "
                    "solution of the ODE)",
          uses=("W.theorem", "W.activations"), symbolic=slope_symbolic,
          numeric=_numeric(slope_numeric), strategy=slope_strategy, holds=slope_holds,
          notes="For σ ∈ 𝒜₀ with c_σ < 1 (e.g. σ = hardtanh/2) the derivative of the hidden state "
                "decays at c_σ·|max Re λ|, not at β₀: eq. (38) is false, and Thm 3.9's conclusion "
                "(15) is supported only for β < c_σβ₀ (a scalar ½-hardtanh RNN with w = −1 has "
                "memory e^{−t/2}/2 for small inputs while its weights stay Hurwitz under every "
                "perturbation of size < 1)."),
    Claim(id="W.theorem.slope.corrected",
          summary="with the slope the rate is c_σβ₀ (normal W)",
          title="A.8's rate with the activation's slope: |v_t|₂ ≤ e^{−c_σβ₀t}|v_0|₂",
          statement=SlopeRate(family="A0", slope_power=1),
          provenance=Provenance("W", LOC_A0,
                                Q_A0),
          tolerance="exact (SymPy; ball arithmetic for the search); c·n·u (floats, series "
                    "solution of the ODE)",
          uses=("W.theorem", "W.activations"), corrects="W.theorem.slope",
          symbolic=slope_symbolic, numeric=_numeric(slope_numeric), strategy=slope_strategy,
          holds=slope_holds,
          notes="Normal W only: for non-normal W eq. (37)–(38)'s ‖e^{Wt}‖₂ ≤ e^{−β₀t} fails even "
                "with c_σ = 1 (a negative control here)."),
    Claim(id="W.theorem.slope.a1",
          summary="finding: A.9's Lyapunov rate is written for tanh (a = b = 1) while Thm 3.9 claims "
                  "𝒜₁",
          title="Finding: A.9's Lyapunov rate is written for tanh (a = b = 1) only, Thm 3.9 claims 𝒜₁",
          statement=SlopeRate(family="A1"),
          provenance=Provenance("W", LOC_A1, Q_A1),
          tolerance="exact (SymPy, Bernoulli solution); c·n·u + RK4 truncation (every arithmetic)",
          uses=("W.theorem", "W.activations"), symbolic=slope_symbolic,
          numeric=_numeric(slope_numeric), strategy=a1_strategy, holds=a1_holds,
          reading="σ ∈ 𝒜₁ with σ' = a − bσ² in (45) in place of tanh's 1 − σ² (the family Thm 3.9 "
                  "claims); V = vᵀPv with P = (−2W)⁻¹ for diagonal W (eqs. (48)–(49))",
          notes="With σ = tanh/2 (a = 1/2, b = 2) the derivative decays at a·|w|: the printed rate "
                "(1 − L)β₀ of (62) holds only when a ≥ 1 − L."),
    Claim(id="W.theorem.slope.a1.corrected",
          summary="for 𝒜₁ the Lyapunov rate is 2a(1 − L)β₀, for |v₀| ≤ √(aL/b)",
          title="A.9's Lyapunov rate for 𝒜₁: V(v_t) ≤ e^{−2a(1−L)β₀t}V(v_0), |v_0| ≤ √(aL/b)",
          statement=SlopeRate(family="A1", slope_power=1),
          provenance=Provenance("W", LOC_A1, Q_A1),
          tolerance="exact (SymPy, Bernoulli solution and comparison); c·n·u + RK4 truncation",
          uses=("W.theorem", "W.activations"), corrects="W.theorem.slope.a1",
          symbolic=slope_symbolic, numeric=_numeric(slope_numeric), strategy=a1_strategy,
          holds=a1_holds, reading="σ ∈ 𝒜₁ with σ' = a − bσ² in (45); diagonal W"),
    Claim(id="W.theorem.horizon",
          summary="finding: App. D calls two different time grids \"the same horizon\"",
          title="Finding: App. D's training and evaluation grids called 'the same horizon'",
          statement=GridHorizons(),
          provenance=Provenance("W", LOC_HORIZON, Q_HORIZON),
          tolerance="exact (rational grids); c·n·u·t_max (grids built in each arithmetic)",
          uses=("W.theorem",), symbolic=horizon_symbolic, numeric=_numeric(horizon_numeric),
          strategy=horizon_strategy, holds=horizon_holds,
          notes="W.theorem evaluates on the printed evaluation grid [0.1, …, 10.0]; it trains "
                "nothing, so the training grid does not enter."),
    Claim(id="W.theorem.horizon.corrected",
          summary="the training grid is an initial segment of the evaluation grid",
          title="App. D's training grid is an initial segment of its evaluation grid",
          statement=GridHorizons(relation="prefix"),
          provenance=Provenance("W", LOC_HORIZON, Q_HORIZON),
          tolerance="exact (rational grids); c·n·u·t_max (grids built in each arithmetic)",
          uses=("W.theorem",), corrects="W.theorem.horizon", symbolic=horizon_symbolic,
          numeric=_numeric(horizon_numeric), strategy=horizon_strategy, holds=horizon_holds),
]
