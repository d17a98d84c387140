"""W.theorem (Thm 3.9, eqs. (14)–(15)): a target stably approximated by RNNs with σ ∈ 𝒜₀ ∪ 𝒜₁, uniformly
decaying perturbed memories and bounded weights has exponentially decaying memory.

The statement (:class:`recmem.theory.stability.InverseApproximation`) says which target plays which
role, at which β the conclusion is tested and which way the stability radius moves; every check
reads it. CPU-sized version of the nonlinear experiment (App. D, Fig. 2–3), without training:
hardtanh RNNs in their linear regime |Wh + Ux + b| < 1 *are* linear RNNs (hardtanh ∈ 𝒜₀ with
Z₀ = 1, Def. 3.8 eq. (12)), so approximants can be written down (the W.theorem and W.stable-exp
claims use constructed approximants; trained RNNs are not run here):

- exponential target ρ = e^{−t} (default; App. D does not print its nonlinear exponential target):
  its exact 1-unit RNN, padded to width m with idle units of the same rate (W = −I, U = c = e₁):
  |θ_m|₂ = 1, stability radius 1 for every m;
- polynomial target ρ = (t+1)^{−3/2} (App. D): the Laplace representation
  (t+1)^{−p} = Γ(p)^{−1}∫₀^∞ r^{p−1}e^{−r}e^{−rt} dr discretised by the trapezoidal rule in log r
  (exponentially convergent sinc quadrature): rates r_k = R·e^{−(k−1)h}, weights
  g_k = h r_k^p e^{−r_k}/Γ(p), U_k = c_k = √g_k. Weights stay bounded (|W|₂ = R, Σg_k → 1), E_m(0) → 0,
  and the stability radius min_k r_k → 0 geometrically, as the proof of Thm 3.9 says it must.

Checks: the symbolic side evaluates the conclusion on the two targets' exact memories
M(H)(t) = |ρ(t)|₁ (eq. (4)); the deciding trend tests (torch, batched RK4 in the Sobolev-type norm
of eq. (11) over Heaviside inputs on App. D's evaluation grid t ∈ {0.1, …, 10} — App. D calls it
"the same horizon" as the training grid {0.1, …, 3.2}, a finding of its own, W.theorem.horizon —
β ∈ {0} ∪ {10⁻¹¹·2^i}, 3 samples per β, max, as printed) observe the hypotheses and the conclusion
for the exponential-role target and the contrapositive for the polynomial-role one: no uniform
stability radius (certified witnesses ΔW = β e_k e_kᵀ with β > r_min(m) give the perturbed model a
growing mode, so E_m(β) = ∞ on [0, ∞)), and the relative perturbation error E_m(β)/E_m(0)
growing with m. The RK4 data do not depend on the statement: they are computed once per parameter
set and reused by the statement's negative controls.

The counterexample search (:func:`strategy`, :func:`holds`) draws the two targets (a^t or a finite
exponential sum with positive coefficients; (t + 1)^{−p}), the construction's R and h and a few
widths, and judges what each instance decides exactly: the conclusion (15) and the absence of
exponential decay on the targets' exact memories (SymPy limits) and the direction of the exact
stability radii β₀(m) of the construction.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.claim import (
    Claim,
    Context,
    Param,
    Provenance,
    at_least,
    by_arithmetic,
    grows,
    parse_fraction,
)
from recmem.checks.claims.paper_o._studies import ints_param, trend_evidence
from recmem.checks.claims.paper_w._memory import small_torch
from recmem.checks.claims.paper_w._stability import (
    C_TOL,
    beta_list,
    data,
    exact_sequence,
    exponents_param,
    fmt,
    fractions_param,
    kernel_param,
    norm_param,
)
from recmem.checks.verdict import HARNESS, Evidence, Outcome, consistency, descriptive, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.numerics.certified import fixed_context
from recmem.numerics.kernels import Kernel, PolynomialKernel, parse_kernel
from recmem.numerics.perturbation import (
    Estimate,
    Grid,
    LinearTarget,
    Perturbations,
    Theta,
    draw,
    require_in_ball,
    summarize,
)
from recmem.theory.stability import InverseApproximation, theorem_instances_proof

BASE = Fraction(1, 10**11)  # β = 10⁻¹¹·2^i (App. D, nonlinear experiment)
TARGETS = ("exp", "poly")
PAD_RATE = 1.0  # idle padding units of the batched run: decoupled, zero input and readout
U64 = 2.0**-53  # float64's unit roundoff: the reference side of the mpmath comparison


# ---- the approximant sequences -------------------------------------------------------------------
def laplace_sequence(kernel: PolynomialKernel, m: int, R: float, h: float) -> Theta:
    """Width-m linear RNN for ρ = (t+1)^{−p} from the trapezoidal rule in log r on the Laplace
    integral: rates R·e^{−(k−1)h}, weights h r^p e^{−r}/Γ(p) split evenly between U and c."""
    p = float(kernel.exponent)
    w = float(kernel.weights[0])
    r = R * np.exp(-h * np.arange(m))
    g = w * h * r**p * np.exp(-r) / math.gamma(p)
    return Theta(-np.diag(r), np.sqrt(g), np.zeros(m), np.sqrt(g))


def approximant(kernel: Kernel, m: int, R: float, h: float) -> Theta:
    """The width-m approximant of the claim's construction for ``kernel``."""
    if isinstance(kernel, PolynomialKernel):
        return laplace_sequence(kernel, m, R, h)
    return exact_sequence(kernel, m)  # finite exponential sums (ValueError otherwise)


def stability_radius(theta: Theta) -> Fraction:
    """β₀(θ) := min_k r_k for W = −diag(r) (exact): every ‖ΔW‖₂ < β₀ keeps W + ΔW Hurwitz
    (W symmetric: max eig(W + ΔW) ≤ −min r + ‖ΔW‖₂) and ΔW = β₀e_ke_kᵀ does not."""
    d = np.diag(theta.W)
    if np.count_nonzero(theta.W - np.diag(d)) or np.any(d >= 0):
        raise ValueError("the stability radius is exact here only for diagonal Hurwitz W")
    return Fraction(float(-d.max()))


@dataclass
class Row:
    """One (target, m) of the study."""

    target: str
    m: int
    theta: Theta
    beta0: Fraction
    est: Estimate
    memory: np.ndarray  # (points, T): the perturbed models' memory on the grid (max over |x|)
    e0_closed: float  # E_m(0) from the linear closed form (valid in the linear regime)


def _grid(ctx: Context) -> Grid:
    return Grid(ctx["t_step"], ctx["t_step"], int(ctx["n_t"]))


def _kernel(ctx: Context, target: str) -> Kernel:
    return parse_kernel(str(ctx[f"{target}_target"]))


def _theta(ctx: Context, target: str, m: int) -> Theta:
    return approximant(_kernel(ctx, target), m, float(ctx["R"]), float(ctx["h"]))


def _betas(ctx: Context) -> tuple[Fraction, ...]:
    return beta_list(BASE, ctx["beta_exponents"])


def _pad(theta: Theta, pert: Perturbations, M: int) -> tuple[np.ndarray, ...]:
    """Perturbed parameters embedded in width M (idle, decoupled padding units)."""
    n, m = pert.n, theta.m
    W = np.zeros((n, M, M))
    W[:, range(M), range(M)] = -PAD_RATE
    U, b, c = np.zeros((n, M)), np.zeros((n, M)), np.zeros((n, M))
    Wp, Up, bp, cp = pert.apply(theta)
    W[:, :m, :m], U[:, :m], b[:, :m], c[:, :m] = Wp, Up, bp, cp
    return W, U, b, c


def _study(ctx: Context, device: str = "cpu") -> tuple[dict[tuple[str, int], Row], float]:
    """Every width and target in one batched RK4 run: statement-independent data, computed once
    per parameter set and device (the statement's controls reuse it); and the seconds spent."""
    key = (tuple(sorted((k, str(v)) for k, v in ctx.params.items())), ctx.seed, device, "study")
    return data(key, lambda: _study_now(ctx, device))


def _study_now(ctx: Context, device: str) -> dict[tuple[str, int], Row]:
    import torch

    from recmem.numerics.perturbation import linear_evaluator, rnn_errors_torch

    grid, betas, norm = _grid(ctx), _betas(ctx), str(ctx["norm"])
    M = max(ctx["ms"])
    parts, meta = [], []
    for ti, tg in enumerate(TARGETS):
        lt = LinearTarget(_kernel(ctx, tg))
        rt, ot = lt.rate_numpy(grid.values), lt.out_numpy(grid.values)
        for m in ctx["ms"]:
            theta = _theta(ctx, tg, m)
            pert = draw(m, betas, int(ctx["samples"]), (ctx.seed, 11, ti, m))
            require_in_ball(pert, what="the RK4 study's sampler")  # ERROR, never a point judged
            parts.append((*_pad(theta, pert, M), np.tile(rt, (pert.n, 1)), np.tile(ot, (pert.n, 1))))
            e0 = float(linear_evaluator(theta, lt, grid, norm)(pert.take([0]))[0])
            meta.append((tg, m, theta, pert, e0))
    kw: dict[str, Any] = {"dtype": torch.float64, "device": device}
    cat = [torch.tensor(np.concatenate([p[k] for p in parts]), **kw) for k in range(6)]
    with torch.no_grad():
        err, mem = rnn_errors_torch(cat[0], cat[1], cat[2], cat[3], str(ctx["activation"]), cat[4],
                                    cat[5], grid, ctx["magnitudes"], norm, float(ctx["rk4_dt"]),
                                    memory=True)
    err, mem = err.cpu().numpy(), mem.cpu().numpy()
    out, at = {}, 0
    for tg, m, theta, pert, e0 in meta:
        sl = slice(at, at + pert.n)
        at += pert.n
        est = summarize(pert, err[sl], betas, int(ctx["samples"]), norm,
                        f"{ctx['samples']} samples per β, max (App. D); batched RK4 (Δt = "
                        f"{ctx['rk4_dt']}), {ctx['activation']}", certify=False)
        out[(tg, m)] = Row(tg, m, theta, stability_radius(theta), est, mem[sl], e0)
    return out


# ---- evidence ------------------------------------------------------------------------------------
def _ev(check: str, backend: AbstractBackend, outcome: Outcome, message: str, t0: float,
        **kw: Any) -> Evidence:
    return Evidence(check=check, kind=kw.pop("kind", "numeric"), backend=backend.name, outcome=outcome,
                    precision_bits=backend.precision_bits, message=message,
                    seconds=time.perf_counter() - t0, **kw)


def _linear_regime(ctx: Context) -> tuple[bool, str]:
    """Exact: along the unperturbed trajectories z_k(t) = U_k x e^{−r_k t} (diagonal W, b = 0), so
    |z| < 1 everywhere iff max_k |U_k|·max|x| < 1: then the hardtanh RNN equals the linear one.
    tanh ∈ 𝒜₁ with Z₀ = ∞ needs no regime (but is linear nowhere)."""
    if str(ctx["activation"]) == "tanh":
        return True, "tanh ∈ 𝒜₁ (σ' = 1 − σ², a = b = 1, Z₀ = ∞): no regime condition"
    worst = Fraction(0)
    for tg in TARGETS:
        for m in ctx["ms"]:
            th = _theta(ctx, tg, m)
            worst = max(worst, max(abs(Fraction(float(u))) for u in th.U)
                        * max(abs(x) for x in ctx["magnitudes"]))
    return worst < 1, f"max |U_k x| = {float(worst):.4g} (exact) < Z₀ = 1"


def _rk4_tol(ctx: Context, row: Row, u: float) -> float:
    """|E_m(0) by RK4 − E_m(0) in closed form| for a diagonal linear model, from the truncation of
    classical RK4 on y' = −ry: |e^{−rΔt} − P₄(−rΔt)| ≤ (rΔt)⁵/120 per step, so over t ≤ t_max the
    state errs by ≤ t_max·r⁵Δt⁴/120 (relative) and its rate by r times that; weighted by the
    readout |c_kU_k| and summed over units; plus c·(steps)·u·scale of rounding in the arithmetic."""
    dt = float(ctx["rk4_dt"])
    t_max = float(_grid(ctx).t0 + _grid(ctx).step * (_grid(ctx).n - 1))
    r = -np.diag(row.theta.W)
    g = np.abs(row.theta.c * row.theta.U)
    trunc = float(np.sum(g * (1 + r) * t_max * r**5 * dt**4 / 120))
    mags = max(abs(float(x)) for x in ctx["magnitudes"])
    return trunc + C_TOL * (t_max / dt) * u * (1 + float(g.sum())) * (1 + t_max) * max(1.0, mags)


@small_torch
def _torch(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    import torch

    device = backend.spec.device or "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise BackendUnavailable("torch:cuda: no CUDA device")
    if backend.spec.dtype != "float64":
        raise BackendUnavailable("the RK4 study runs in float64")
    study, secs = _study(ctx, device)
    out = []
    t0 = time.perf_counter()
    u = float(backend.unit_roundoff)
    gaps = {k: abs(r.est.values[0] - r.e0_closed) for k, r in study.items()}
    tol = {k: _rk4_tol(ctx, r, u) for k, r in study.items()}
    bad = [f"{k[0]} m={k[1]}" for k in gaps if gaps[k] > tol[k]]
    regime_ok, regime = _linear_regime(ctx)
    worst = max(gaps[k] / tol[k] for k in gaps)
    if str(ctx["activation"]) != "hardtanh":
        # tanh ∈ 𝒜₁ is not linear anywhere: the same weights approximate only up to O(x²)
        out.append(_ev("σ-RNN (RK4) vs the linear construction", backend, Outcome.SKIPPED,
                       f"{ctx['activation']} is not linear near 0, so the construction is an "
                       f"approximation: largest |E_m(0)(RK4) − E_m(0)(linear)| = "
                       f"{max(gaps.values()):.2g}", t0))
    else:
        # outside the linear regime the two need not agree (the hypotheses are not met: FAIL);
        # inside it they are two routes of recmem to one value, and a gap beyond the RK4 error
        # bound is an internal inconsistency (ERROR), not a finding about the paper
        outcome, text = consistency(not bad, (f"disagree at {', '.join(bad)}; " if bad else "")
                                    + f"{regime}; largest |E_m(0)(RK4) − E_m(0)(closed form)| = "
                                    f"{max(gaps.values()):.2g}")
        out.append(_ev("hardtanh RNN (RK4) = linear RNN (closed form) in the linear regime", backend,
                       outcome if regime_ok else Outcome.FAIL, text, t0,
                       residual=f"{worst:.3g}", tolerance="1",
                       tolerance_source="gap / (RK4 truncation Σ|c_kU_k|(1 + r_k)t·r_k⁵Δt⁴/120 + "
                                        "c·steps·u·scale)", instances=len(gaps)))
    out += _tables_evidence(backend, ctx, study, secs)
    out += _trend_tests(backend, ctx, study)
    # App. D's trained RNNs (Adam), beside the constructed approximants (supplementary evidence)
    from recmem.checks.claims.paper_w._trained_rnn import trained_evidence

    out += trained_evidence(backend, ctx)
    return out


def _tables_evidence(backend: AbstractBackend, ctx: Context, study: dict[tuple[str, int], Row],
                     secs: float) -> list[Evidence]:
    betas = _betas(ctx)
    tables = {tg: [{"m": m, "beta0": fmt(float(study[(tg, m)].beta0)),
                    "|theta|2": fmt(study[(tg, m)].theta.norm2()),
                    **{f"E(β={float(b):.3g})": fmt(v) for b, v in zip(betas, study[(tg, m)].est.values,
                                                                    strict=True)}}
                   for m in ctx["ms"]] for tg in TARGETS}
    text = " | ".join(f"{tg}: " + "; ".join(
        f"m={r['m']}: " + ", ".join(v for k, v in r.items() if k.startswith("E(")) for r in rows)
        for tg, rows in tables.items())
    norms = {tg: max(study[(tg, m)].theta.norm2() for m in ctx["ms"]) for tg in TARGETS}
    # a table of the study's estimates (the trend tests below judge them): out of the verdict
    return [descriptive(
        "E_m(β) by batched RK4 (Sobolev-type norm, App. D's β list)", backend.name,
        precision_bits=backend.precision_bits,
        instances=sum(r.est.evaluations for r in study.values()), seconds=secs,
        message=f"{ctx['activation']} RNNs, x ∈ {{{', '.join(map(str, ctx['magnitudes']))}}}, grid "
                f"{_grid(ctx).describe()}, β = 0 and 10⁻¹¹·2^i, i ∈ "
                f"{{{','.join(map(str, ctx['beta_exponents']))}}}; eq. (14): sup_m |θ_m|₂ = "
                f"{norms['exp']:.3g} (exp), {norms['poly']:.3g} (poly); E_m(β) — {text}",
        data={"tables": tables})]


def _memory_rows(ctx: Context, study: dict[tuple[str, int], Row], target: str) -> list[dict[str, Any]]:
    """sup over widths and perturbed models (β < β₀(m)) of the memory at each late grid time."""
    t = _grid(ctx).values
    late = t >= t[-1] / 2
    sup = np.zeros(int(late.sum()))
    for (tg, _), r in study.items():
        if tg != target:
            continue
        below = np.array([r.est.betas[i] < r.beta0 for i in r.est.points.beta_index])
        mem = r.memory[below][:, late]
        mem = mem[np.isfinite(mem).all(axis=1)]
        if len(mem):
            sup = np.maximum(sup, mem.max(axis=0))
    return [{"t": float(tk), "memory": float(v)} for tk, v in zip(t[late], sup, strict=True)]


def _trend_tests(backend: AbstractBackend, ctx: Context,
                 study: dict[tuple[str, int], Row]) -> list[Evidence]:
    """The deciding tests, for the roles, β and direction the statement gives."""
    from recmem.numerics.functionals import LinearFunctional
    from recmem.numerics.memory import memory_function

    law = ctx.law(InverseApproximation)
    ex, po = law.exponential, law.polynomial
    ms, betas = list(ctx["ms"]), _betas(ctx)
    out = []
    # the exponential-role target: the theorem's hypotheses, then its conclusion
    b0 = min(study[(ex, m)].beta0 for m in ms)
    ev = trend_evidence(backend, _memory_rows(ctx, study, ex), "exponential-role target: perturbed "
                        "models' memories (β < β₀(m), all widths) decay uniformly", "t", "memory",
                        "decreasing", [], ("t",))
    ev.message = f"target {ex}: " + ev.message
    out.append(ev)
    rad = [{"m": m, "beta0": float(study[(ex, m)].beta0)} for m in ms]
    ev = trend_evidence(backend, rad, "exponential-role target: stability radius β₀(m) uniform in m "
                        "(does not fall with m)", "m", "beta0", "decreasing", [], ("m",))
    test = ev.data["test"]
    ev.outcome = Outcome.FAIL if test["outcome"] == "pass" else Outcome.PASS
    ev.message = (f"target {ex}: " + ("β₀(m) falls significantly with m: no uniform stability "
                                      "radius — "
                   if ev.outcome is Outcome.FAIL else "no significant fall of β₀(m) with m — ")
                  + test["reason"] + "; β₀(m) = " + ", ".join(fmt(r["beta0"]) for r in rad)
                  + " (exact, W = −diag(r): min r)")
    ev.tolerance = "passes unless the fall is significant (one-sided α = 0.01)"
    out.append(ev)
    t = _grid(ctx).values
    beta = float(law.beta_fraction) * float(b0)
    curve = memory_function(LinearFunctional(_kernel(ctx, ex)), t)  # M(H)(t) = |ρ(t)|₁ (eq. (4))
    rows = [{"t": float(tk), "weighted": float(np.exp(beta * tk) * v)}
            for tk, v in zip(t, curve.values, strict=True)]
    ev = trend_evidence(backend, rows, "exponential-role target: conclusion e^(βt)M(H)(t) → 0 "
                        "(decreasing on the grid) at the statement's β", "t", "weighted", "decreasing",
                        [], ("t",))
    ev.message = (f"target {ex}, β = {law.beta_fraction}·β₀ = {fmt(beta)} with β₀ = min_m β₀(m) = "
                  f"{fmt(float(b0))}: " + ev.message)
    out.append(ev)
    # the polynomial-role target: approximation, and no uniform stability radius
    e0 = [{"m": m, "E0": study[(po, m)].est.values[0]} for m in ms]
    ev = trend_evidence(backend, e0, "polynomial-role target: trend of E_m(0) in m (approximation, "
                        "RK4)", "m", "E0", "decreasing", [], ("m",))
    ev.message = f"target {po}: " + ev.message
    out.append(ev)
    rad = [{"m": m, "beta0": float(study[(po, m)].beta0)} for m in ms]
    ev = trend_evidence(backend, rad, "polynomial-role target: trend of the stability radius β₀(m) "
                        "in m", "m", "beta0", law.radius_trend, [], ("m",))
    ev.message = f"target {po}: " + ev.message + (
                   "; witnesses: ΔW = β e_k e_kᵀ with β > β₀(m) (in the ball) gives W + ΔW the "
                   "eigenvalue β − β₀(m) > 0 with c_kU_k ≠ 0, so the perturbed model's memory "
                   "does not decay and E_m(β) = ∞ on [0, ∞) for every β > β₀(m) (certified "
                   "on the flint side)")
    out.append(ev)
    beta_star = min(study[(po, m)].beta0 for m in ms)
    strata = [i for i, b in enumerate(betas) if b >= beta_star]
    rel: list[dict[str, Any]] = [{"m": m, "beta": str(betas[i]), "relative": study[(po, m)].est.values[i]
                                   / study[(po, m)].est.values[0] - 1} for m in ms for i in strata]
    label = "polynomial-role target: trend of E_m(β)/E_m(0) − 1 in m at every listed β ≥ min_m β₀(m)"
    if rel:
        ev = trend_evidence(backend, rel, label, "m", "relative", "increasing", ["beta"],
                            ("m", "beta"))
        ev.message = f"target {po}: {ev.message} (min_m β₀(m) = {fmt(float(beta_star))})"
    else:
        ev = Evidence(check=label, kind="statistical", backend=backend.name,
                      outcome=Outcome.INCONCLUSIVE,
                      message=f"no listed β reaches min_m β₀(m) = {fmt(float(beta_star))}: extend "
                              "--param beta_exponents or ms")
    out.append(ev)
    return out


def _numpy(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Closed forms in the linear regime: E_m(0), eq. (14), the linear regime itself (float64)."""
    from recmem.numerics.perturbation import linear_evaluator

    if backend.spec.dtype != "float64":
        raise BackendUnavailable("runs in float64")
    t0 = time.perf_counter()
    grid, norm = _grid(ctx), str(ctx["norm"])
    rows = []
    for tg in TARGETS:
        lt = LinearTarget(_kernel(ctx, tg))
        for m in ctx["ms"]:
            th = _theta(ctx, tg, m)
            e0 = float(linear_evaluator(th, lt, grid, norm)(draw(m, [Fraction(0)], 1, 0))[0])
            rows.append(f"{tg} m={m}: E_m(0) {fmt(e0)}, |θ|₂ {fmt(th.norm2())}, β₀ "
                        f"{fmt(float(stability_radius(th)))}")
    regime_ok, regime = _linear_regime(ctx)
    bounded = all(_theta(ctx, tg, m).norm2() <= max(float(ctx["R"]), 1.0) * (1 + 4 * m * float(
        backend.unit_roundoff)) for tg in TARGETS for m in ctx["ms"])
    text = (f"{regime}; |θ_m|₂ ≤ max(R, 1) = {max(float(ctx['R']), 1.0):g} for every m by "
            f"construction (rates ≤ R, Σg_k ≤ 1)" + ("" if bounded else ": violated") + "; "
            + "; ".join(rows))
    # eq. (14) holds by construction of the approximants: a violation is a bug of recmem (ERROR);
    # the regime depends on the parameters (magnitudes, activation): outside it the hypotheses
    # of Thm. 3.9 are not met by this study (FAIL)
    outcome, text = consistency(bounded, text)
    if outcome is Outcome.PASS and not regime_ok:
        outcome = Outcome.FAIL
    return [_ev("hypotheses: σ ∈ 𝒜₀ ∪ 𝒜₁ (its regime) and bounded weights (eq. (14))", backend,
                outcome, text, t0, instances=len(rows))]


def _mpmath(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """E_m(0) at the backend's precision (diagonal closed form) against float64's: both err, so the
    tolerance is c·(m + T)·(2^-53 + u)·scale with u the backend's unit roundoff. The values do not
    depend on the statement (computed once per parameter set and precision)."""
    t0 = time.perf_counter()
    key = (tuple(sorted((k, str(v)) for k, v in ctx.params.items())), backend.name, "mp-e0")
    (worst, rows), _ = data(key, lambda: _mp_e0(backend, ctx))
    # two arithmetics on one statement-independent value: a harness check (a gap is ERROR)
    outcome, text = consistency(worst <= 1, f"largest |float64 − {backend.precision_bits}-bit|/"
                                f"tolerance {worst:.2g}; " + "; ".join(rows))
    return [_ev("E_m(0) at the backend's precision vs float64", backend, outcome, text, t0,
                kind=HARNESS, tolerance="1",
                tolerance_source="|Δ| / (c·(m+T)·(2^-53 + u)·scale), c = 4",
                residual=f"{worst:.2g}")]


def _mp_e0(backend: AbstractBackend, ctx: Context) -> tuple[float, list[str]]:
    from recmem.numerics.perturbation import linear_evaluator

    mp = fixed_context(backend.precision_bits)
    u = float(backend.unit_roundoff)
    grid, norm = _grid(ctx), str(ctx["norm"])
    worst, rows = 0.0, []
    for tg in TARGETS:
        lt = LinearTarget(_kernel(ctx, tg))
        # the target's ρ(t) and ∫₀ᵗρ at this precision depend on neither m nor the model: formed
        # once per target (the same values at every width), not once per width
        targets = [(mp.mpf(k.numerator) / k.denominator, lt.rate_mp(k, mp), lt.out_mp(k, mp))
                   for k in grid.exact]
        for m in ctx["ms"]:
            th = _theta(ctx, tg, m)
            r = [mp.mpf(float(-v)) for v in np.diag(th.W)]
            g = [mp.mpf(float(a)) * mp.mpf(float(c)) for a, c in zip(th.U, th.c, strict=True)]
            vals = []
            for tt, rate_t, out_t in targets:
                rate = mp.fsum(gi * mp.exp(-ri * tt) for gi, ri in zip(g, r, strict=True))
                outp = mp.fsum(gi * -mp.expm1(-ri * tt) / ri for gi, ri in zip(g, r, strict=True))
                dr, do = abs(rate_t - rate), abs(out_t - outp)
                vals.append({"memory": dr, "output": do, "sobolev": dr + do}[norm])
            e_hp = max(vals)
            e64 = float(linear_evaluator(th, lt, grid, norm)(draw(m, [Fraction(0)], 1, 0))[0])
            # sums of ≤ m positive terms and one difference per time, in each arithmetic
            scale = 1 + float(mp.fsum(g)) * (1 + float(grid.t0 + grid.step * grid.n))
            worst = max(worst, abs(e64 - float(e_hp)) / (C_TOL * (m + grid.n) * (U64 + u) * scale))
            rows.append(f"{tg} m={m}: {mp.nstr(e_hp, 8)}")
    return worst, rows


def _flint(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Certified: stability radii, destabilising witnesses for the polynomial-role target, the
    linear regime."""
    law = ctx.law(InverseApproximation)
    t0 = time.perf_counter()
    rows, wit = [], []
    for tg in TARGETS:
        for m in ctx["ms"]:
            th = _theta(ctx, tg, m)
            b0 = stability_radius(th)
            rows.append(f"{tg} m={m}: β₀ = {fmt(float(b0))}")
            if tg == law.polynomial:
                k = int(np.argmax(np.diag(th.W)))
                beta = 2 * b0
                lam = Fraction(float(th.W[k, k])) + beta  # exact: W diagonal, ΔW = β e_k e_kᵀ
                gain = Fraction(float(th.c[k])) * Fraction(float(th.U[k]))
                if lam > 0 and gain != 0:
                    wit.append(f"m={m}: β = {fmt(float(beta))}, eigenvalue {fmt(float(lam))} > 0")
    regime_ok, regime = _linear_regime(ctx)
    ok = regime_ok and len(wit) == len(ctx["ms"])
    return [_ev("certified: stability radii, destabilising witnesses, linear regime", backend,
                Outcome.PASS if ok else Outcome.FAIL,
                f"{regime}; {law.polynomial} target witnesses (E_m(β) = ∞ on [0, ∞) beyond "
                f"β₀(m)): " + "; ".join(wit) + " | " + "; ".join(rows), t0,
                certified_by="exact rational arithmetic", instances=len(rows))]


def _memory_sympy(kernel: Kernel) -> Any:
    """t ↦ M(H)(t) = |ρ(t)|₁ (eq. (4)) as a SymPy expression (positive closed-form profiles)."""
    def memory(t: Any) -> Any:
        import sympy as sp

        return kernel.profile_sympy(t) * sum(abs(sp.Rational(w.numerator, w.denominator))
                                             for w in kernel.weights)
    return memory


def _exact_radius(kernel: Kernel) -> Any:
    """The exact uniform stability radius of the claim's approximants: min rate of a finite
    exponential sum (SymPy number); None for the polynomial kernel (radii → 0 with m)."""
    import sympy as sp

    from recmem.numerics.kernels import ExponentialKernel, ExpSumKernel

    if isinstance(kernel, ExpSumKernel):
        return min(sp.Rational(r.numerator, r.denominator) for r, c in zip(kernel.rates,
                                                                           kernel.coeffs,
                                                                           strict=True) if c)
    if isinstance(kernel, ExponentialKernel):
        return sp.log(sp.Rational(kernel.base.denominator, kernel.base.numerator))
    return None


def symbolic(ctx: Context) -> list[Evidence]:
    """The conclusion on the two targets' exact memories (eq. (4)): exact instances, not a proof."""
    t0 = time.perf_counter()
    law = ctx.law(InverseApproximation)
    kernels = {tg: _kernel(ctx, tg) for tg in TARGETS}
    proof = theorem_instances_proof(law, {tg: _memory_sympy(k) for tg, k in kernels.items()},
                                    {tg: _exact_radius(k) for tg, k in kernels.items()})
    return [from_proof(proof, time.perf_counter() - t0,
                       check="symbolic: the conclusion on the targets' exact memories")]


# ---- the counterexample search: targets and constructions, judged exactly ---------------------------
SEARCH_R = (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5), Fraction(10), Fraction(20))
SEARCH_H = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2))
SEARCH_M = 12
# targets of the search (SymPy's limits are memoised per statement and pair of targets)
SEARCH_EXP = ("exp:1/20", "exp:1/2", "exp:9/10", "exp:19/20", "expsum:1;1", "expsum:1,1/2;1/2,3")
SEARCH_POLY = ("poly:11/10", "poly:3/2", "poly:2", "poly:3")


@dataclass(frozen=True)
class TheoremDesign:
    """One instance of Thm 3.9 observed on constructed approximants (W §3.3, eqs. (14)–(15)): the
    two targets (kernel specs, as ``--param`` exp_target/poly_target take them), the Laplace
    construction's largest rate R and log-step h, and the widths m."""

    exp_target: str
    poly_target: str
    R: Fraction
    h: Fraction
    ms: tuple[int, ...]


def strategy(ctx: Context) -> Any:
    """Instances over the statement's domain: an exponential-memory target (a^t, a ∈ (0, 1), or a
    finite exponential sum with positive coefficients: its memory |ρ(t)|₁ is its profile), a
    polynomial-memory target ((t + 1)^{−p}, p > 1), the construction's R > 0 and h > 0, and 2–6
    widths m ≤ SEARCH_M."""
    from hypothesis import strategies as st

    ms = st.lists(st.integers(1, SEARCH_M), min_size=2, max_size=6, unique=True).map(
        lambda v: tuple(sorted(v)))
    return st.builds(TheoremDesign, st.sampled_from(SEARCH_EXP), st.sampled_from(SEARCH_POLY),
                     st.sampled_from(SEARCH_R), st.sampled_from(SEARCH_H), ms)


_PROOFS: dict[tuple[Any, ...], Any] = {}


def _instances_proof(law: InverseApproximation, specs: tuple[str, str]) -> Any:
    """:func:`recmem.theory.stability.theorem_instances_proof` on the two targets' exact memories
    (memoised per statement and targets: SymPy's limits cost 5–250 ms)."""
    key = (law, specs)
    if key not in _PROOFS:
        kernels = dict(zip(TARGETS, (parse_kernel(v) for v in specs), strict=True))
        _PROOFS[key] = theorem_instances_proof(law, {tg: _memory_sympy(k) for tg, k in kernels.items()},
                                               {tg: _exact_radius(k) for tg, k in kernels.items()})
    return _PROOFS[key]


def holds(design: TheoremDesign, ctx: Context) -> Any:
    """Judge one instance exactly, for the roles, β and radius trend the statement gives: the
    conclusion (15) on the exponential-role target's exact memory at β = fraction·β₀ and the
    absence of exponential decay of the polynomial-role one (SymPy limits of e^{βt}M(H)(t),
    M(H)(t) = |ρ(t)|₁, eq. (4): :func:`recmem.theory.stability.theorem_instances_proof`), and the
    direction of the stability radius β₀(m) = min_k r_k of the claim's construction for the
    polynomial-role target (W = −diag(r) exact as rationals of the float64 rates): a strictly
    monotone sequence in the stated direction agrees, in the opposite one refutes, anything else
    decides nothing. The RK4 parts (E_m(β)/E_m(0) growth, uniformly decaying perturbed memories)
    are the numeric side's."""
    from recmem.checks.search import Instance
    from recmem.numerics.designs import strict_direction

    law = ctx.law(InverseApproximation)
    specs = (design.exp_target, design.poly_target)
    values: dict[str, Any] = {"exp_target": design.exp_target, "poly_target": design.poly_target,
                              "exponential role": law.exponential, "polynomial role": law.polynomial,
                              "R": str(design.R), "h": str(design.h), "widths": list(design.ms)}
    proof = _instances_proof(law, specs)
    limits = "exact: SymPy limits of e^(βt)M(H)(t) with M(H)(t) = |ρ(t)|₁ (eq. (4))"
    if proof.holds is False:
        return Instance(False, limits, {**values, **(proof.counterexample or {})}, proof.method)
    kernel = parse_kernel(specs[TARGETS.index(law.polynomial)])
    try:
        radii = [stability_radius(approximant(kernel, m, float(design.R), float(design.h)))
                 for m in design.ms]
    except ValueError as exc:  # e.g. fewer units than the exponential sum's terms
        return Instance(None, limits, values, f"no construction at these widths: {exc}")
    direction = strict_direction(radii)
    values["beta0(m)"] = [fmt(float(r)) for r in radii]
    radius = ("exact rational arithmetic: β₀(m) = min_k r_k of the constructed W_m = −diag(r) "
              "(float64 rates taken exactly)")
    if direction is not None and direction != law.radius_trend:
        return Instance(False, radius, values, f"β₀(m) is strictly {direction} over m ∈ "
                        f"{{{', '.join(map(str, design.ms))}}}: not {law.radius_trend}")
    if proof.holds is True and direction == law.radius_trend:
        return Instance(True, f"{limits}; {radius}", values, f"{proof.method}; β₀(m) strictly "
                        f"{direction}")
    return Instance(None, f"{limits}; {radius}", values,
                    f"limits: {proof.method}; β₀(m) strictly monotone: {direction or 'no'}")


def _validate(values: Any) -> str | None:
    if any(x == 0 for x in values["magnitudes"]):
        return "Heaviside magnitudes must be nonzero (the norms divide by |x|)"
    if len(values["ms"]) < 2:
        return "the trend tests need at least two widths"
    return None


QUOTE = (r"Assume H is a sequence of bounded continuous, causal, regular and time-homogeneous "
         r"functionals on X with decaying memory. Let the activation be in $A_{0} \cup A_{1}$ . "
         r"Suppose H is $\beta_{0}$ -stably approximated by a sequence of RNNs "
         r"$\{\widehat{\mathbf{H}}(\cdot,\theta_{m})\}_{m=1}^{\infty}$ in the norm defined in "
         r"Equation (11). If the perturbed models' memory functions are uniformly decaying (as "
         r"defined in Definition 3.2) and the weight norms are uniformly bounded in m: $$\sup _ "
         r"{m} | \theta_ {m} | _ {2} <   \infty . \tag {14}$$ Then the memory function "
         r"$\mathcal{M}(\mathbf{H})(t)$ of the target decays exponentially: $$\lim _ {t \to "
         r"\infty} e ^ {\beta t} \mathcal {M} (\mathbf {H}) (t) = 0, \quad \beta <   \beta_ "
         r"{0}. \tag {15}$$ … [Def. 3.7] $$\left\| \mathbf {H} - \widehat {\mathbf {H}} "
         r"\right\| _ {W ^ {1}} = \sup _ {t} \left(\left\| H _ {t} - \widehat {H} _ {t} "
         r"\right\| _ {\infty} + \left\| \frac {d H _ {t}}{d t} - \frac {d \widehat {H} _ "
         r"{t}}{d t} \right\| _ {\infty}\right). \tag {11}$$ … [App. D] The polynomial decaying "
         r"memory function is $\rho(t) = \frac{1}{(t+1)^{1.5}}$ … The perturbation list $\beta "
         r"\in [0, 10^{-11} * 2^0, 10^{-11} * 2^1, \ldots, 10^{-11} * 2^{35}]$ . Each evaluation "
         r"of the perturbed error is sampled with 3 different weight perturbations (and take the "
         r"maximum)")

CLAIMS = [
    Claim(
        id="W.theorem",
        summary="constructed approximants: exponential target stable, polynomial target's stability "
                "radius shrinks with m",
        decided_by=("statistical",),
        title="Thm 3.9: stable approximation by 𝒜₀/𝒜₁ RNNs forces exponentially decaying memory",
        statement=InverseApproximation(),
        provenance=Provenance("W", "§3.3, Thm 3.9 (eqs. (14), (15)); Def. 3.7 (eq. (11)); Def. 3.8 "
                              "(eqs. (12), (13)); App. D (nonlinear experiments) (ICLR camera-ready)",
                              QUOTE),
        tolerance="exact (stability radii, witnesses, linear regime; SymPy limits on the exact "
                  "memories); c·(m+T)·(2^-53 + u) (E_m(0) across precisions); RK4 truncation "
                  "bound; trends: stratified one-sided Kendall, α = 0.01",
        uses=("W.perturbation", "W.stable-exp", "W.activations", "W.memory-def"),
        params=(
            kernel_param("exp_target", "expsum:1;1", "exponential-memory target (ρ = e^{−t}; App. D "
                         "does not print its nonlinear exponential target)"),
            kernel_param("poly_target", "poly:3/2", "polynomial-memory target (App. D: (t+1)^-1.5)"),
            ints_param("ms", (1, 2, 3, 4, 5, 6, 8), "widths m"),
            Param("activation", "hardtanh", "σ: hardtanh (𝒜₀, exact in the linear regime) or tanh "
                  "(𝒜₁, the same weights: an O(x²) approximation)", str, choices=("hardtanh", "tanh")),
            Param("R", Fraction(20), "largest rate of the Laplace quadrature (|W|₂ bound)",
                  parse_fraction, check=lambda v: None if v > 0 else "must be > 0"),
            Param("h", Fraction(1), "step in log r of the Laplace quadrature", parse_fraction,
                  check=lambda v: None if v > 0 else "must be > 0"),
            Param("t_step", Fraction(1, 10), "evaluation grid step (App. D: 0.1)", parse_fraction,
                  check=lambda v: None if v > 0 else "must be > 0"),
            Param("n_t", 100, "evaluation grid points (App. D's evaluation grid: t ≤ 10)", int,
                  check=at_least(4), max=10**5, cost=grows(8 * 1000)),
            exponents_param("beta_exponents", "0,5,10,15,20,25,30,35",
                            "i of β = 10⁻¹¹·2^i (App. D: 0-35)"),
            Param("samples", 3, "perturbation samples per β, max (App. D: 3)", int, check=at_least(1),
                  max=10**4),
            fractions_param("magnitudes", (Fraction(1, 2), Fraction(-1, 2)),
                            "Heaviside magnitudes x (|x|·max U < 1 keeps hardtanh linear)",
                            nonneg=False),
            norm_param("sobolev"),
            Param("rk4_dt", Fraction(1, 40), "RK4 step", parse_fraction,
                  check=lambda v: None if v > 0 else "must be > 0"),
        ),
        validate=_validate,
        symbolic=symbolic,
        strategy=strategy,
        holds=holds,
        numeric=by_arithmetic({"torch": _torch, "numpy": _numpy, "mpmath": _mpmath, "flint": _flint},
                              "no check for this arithmetic"),
        notes="No training at the defaults: hardtanh RNNs in their linear regime are linear RNNs "
              "(Def. 3.8's 𝒜₀), so the approximants are constructed (exact for e^{−t}; a Laplace "
              "quadrature for (t+1)^{−3/2}). The W¹ norm of eq. (11) is a sup over all inputs; "
              "here it is evaluated on Heaviside inputs of the given magnitudes on the grid (a "
              "lower bound). Evaluation grid: App. D's [0.1, …, 10.0] (App. D also calls it "
              "'the same horizon' as the training grid [0.1, …, 3.2]: W.theorem.horizon). "
              "Paper-sized settings: --param beta_exponents=0-35. Training of tanh RNNs (App. D: "
              "Adam, 1000 epochs) is not run here. The proofs' rate drops the activation's slope "
              "(W.theorem.slope).",
    ),
]
