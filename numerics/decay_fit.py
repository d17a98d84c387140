"""The decay class of a memory function (paper W Def. 3.2 and §3.2): exponential or polynomial.

W separates targets whose memory decays exponentially, ``M(t) ~ C e^{−rt}`` (stably approximable
by RNNs, Thm. 3.9), from those whose memory decays polynomially, ``M(t) ~ C t^{−p}`` (App. D's
``(t + 1)^{−p}``). Given samples (t, M(t)) and the accuracy of each, :func:`fit_decay` fits both
models in log space and reports the class only when the fit resolves it:

- exponential: ``log M = a − r t``, linear least squares; r with its uncertainty;
- polynomial: ``log M = a − p log(t + τ)`` with the shift τ ≥ 0 fitted too (a user's data has no
  known shift: the exponent of (t + 1)^{−1.1} fitted with τ fixed to 0 is biased on any finite
  window, with τ free it is exact). Variable projection: a 1-D search over τ, with the linear
  least squares for (a, p) inside.
- curvature: the two models are one family, ``log M = a − r·log(1 + κ(t − t₀))/κ``: κ = 0 is the
  exponential, κ = 1/(t₀ + τ) the power law (t + τ)^{−p} with p = r/κ. The class is decided by κ.

Choices (each one is reported in :class:`DecayFit`):

- **Accuracy.** Every value comes with an absolute accuracy (the integrator's error estimate and
  the noise of the finite search, :func:`recmem.numerics.memory.memory_function`; float64 rounding
  for closed forms). A value is *resolved* when it exceeds ``RESOLVE_FACTOR`` times its accuracy
  (relative error ≤ 10 %, log error ≤ 0.105); the others — and zero or negative values, and values
  ≤ ``rel_floor · max M`` when a relative floor is asked for — carry no information about the rate
  and are left out (a plot draws them apart).
- **Tail.** The class is a property of t → ∞, so only the *tail* is fitted: the later half
  (``tail_fraction = 0.5``) of the span of resolved points. The first half carries the transients
  (faster modes of an RNN, the saturation phase of a nonlinear one, the offset of a shifted power
  law); the second half keeps enough points for the fit statistics.
- **Envelope.** The fit uses the upper envelope ``sup_{s ≥ t} M(s)`` of the resolved points: it
  equals M where M decreases, and for an oscillating memory (complex eigenvalues) it keeps the rate
  of the peaks instead of fitting the dips towards zero. Whether it changed anything is reported.
- **Uncertainty.** Each parameter θ gets ``Z·σ_θ + Σ_i |∂θ/∂y_i|·δ_i``: σ_θ is the least-squares
  standard error from the residuals (Gauss–Newton covariance), inflated by √(n/n_eff) for residuals
  that are correlated along t (n_eff = n(1 − ρ₁)/(1 + ρ₁) with ρ₁ their lag-1 autocorrelation: a
  smooth misfit is one piece of evidence, not n); δ_i bounds the log error of point i from its
  accuracy, propagated through the (linearised) fit in the worst case.
- **Class.** "not decaying" when the rate is ≤ 0 beyond its uncertainty or the envelope falls by
  less than ``DROP_MIN`` (relative) over the tail; "exponential" when κ plus its uncertainty lies
  below κ* = 1/(t₀ + ``TAU_MAX_FACTOR``·t_last) — every power law (t + τ)^{−p} with τ ≤ 10·t_last is
  excluded (beyond that, (t + τ)^{−p} → C e^{−(p/τ) t} is an exponential in disguise); "polynomial"
  when κ minus its uncertainty lies above κ*; otherwise, or when the rate is not resolved from 0,
  or when fewer than ``MIN_POINTS`` resolved points remain in the tail, "undetermined", with the
  reason.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

MIN_POINTS = 6  # three parameters plus three degrees of freedom for the residual statistics
TAIL_FRACTION = 0.5
DROP_MIN = 1e-6  # a tail whose envelope falls by less than this (relative) is not decaying
TAU_MAX_FACTOR = 10.0  # τ ≤ 10·t_last: beyond that (t + τ)^{−p} is a straight line in the window
POOR_FIT_RMS = 0.1  # RMS log residual above which the chosen model is flagged as a poor description
RESOLVE_FACTOR = 10.0  # a value is resolved when it exceeds this multiple of its accuracy
Z = 3.0  # standard errors in an uncertainty
_SCAN = 64  # coarse scan over log(t₀ + τ) before Brent's method: SSE(τ) need not be unimodal
CLASSES = ("exponential", "polynomial", "not decaying", "undetermined")


@dataclass(frozen=True)
class ExponentialFit:
    """``log M = log_amplitude − rate·t`` on the tail."""

    rate: float
    rate_stderr: float
    log_amplitude: float
    r2: float | None
    rms: float  # RMS log residual
    s: float  # √(SSE/(n − 2))
    rate_uncertainty: float = math.nan  # Z·inflated stderr + propagated accuracy of the data


@dataclass(frozen=True)
class PolynomialFit:
    """``log M = log_amplitude − exponent·log(t + shift)`` on the tail."""

    exponent: float
    exponent_stderr: float
    shift: float
    shift_stderr: float
    shift_at_bound: str | None  # "lower" (τ = 0) or "upper" (τ = TAU_MAX_FACTOR·t_last) or None
    log_amplitude: float
    r2: float | None
    rms: float
    s: float  # √(SSE/(n − 3)), or n − 2 when τ sits at a bound
    exponent_uncertainty: float = math.nan


@dataclass(frozen=True)
class CurvatureFit:
    """``log M = a − rate·log(1 + κ(t − t₀))/κ`` on the tail (κ = 0: e^{−rate·t}; κ = 1/(t₀ + τ):
    (t + τ)^{−rate/κ}). ``threshold`` is κ* = 1/(t₀ + TAU_MAX_FACTOR·t_last)."""

    kappa: float
    kappa_stderr: float
    kappa_uncertainty: float
    threshold: float
    at_bound: str | None
    inflation: float  # √(n/n_eff) applied to the standard errors


@dataclass(frozen=True)
class DecayFit:
    """Both fits on the tail and the class decided from them (or why none is)."""

    decay_class: str  # one of CLASSES
    exponential: ExponentialFit | None
    polynomial: PolynomialFit | None
    tail_start: float
    tail_end: float
    points: int  # points in the tail fit
    floor: float
    below_floor: int  # points of the whole curve left out: at or below the floor, or unresolved
    envelope_changed: bool
    notes: list[str] = field(default_factory=list)
    reason: str | None = None  # why the class is "undetermined" (or "not decaying")
    curvature: CurvatureFit | None = None
    resolved: int = 0  # resolved points of the whole curve
    resolved_until: float | None = None  # the last resolved time
    resolve_factor: float = RESOLVE_FACTOR

    @property
    def value(self) -> float | None:
        """The rate (exponential) or the exponent (polynomial) of the chosen class."""
        if self.decay_class == "exponential" and self.exponential is not None:
            return self.exponential.rate
        if self.decay_class == "polynomial" and self.polynomial is not None:
            return self.polynomial.exponent
        return None

    @property
    def uncertainty(self) -> float | None:
        """The uncertainty of :attr:`value` (Z standard errors plus the data's propagated accuracy)."""
        if self.decay_class == "exponential" and self.exponential is not None:
            return self.exponential.rate_uncertainty
        if self.decay_class == "polynomial" and self.polynomial is not None:
            return self.polynomial.exponent_uncertainty
        return None

    def summary(self) -> str:
        """One line: the class and its parameter with its uncertainty, or why there is no class."""
        e, p = self.exponential, self.polynomial
        if self.decay_class == "exponential" and e is not None:
            return f"exponential decay, rate {e.rate:.8g} ± {e.rate_uncertainty:.2g} (M ~ e^(−rt))"
        if self.decay_class == "polynomial" and p is not None:
            return (f"polynomial decay, exponent {p.exponent:.8g} ± {p.exponent_uncertainty:.2g} "
                    f"(M ~ (t + {p.shift:.4g})^(−p))")
        if self.decay_class == "not decaying":
            return f"not decaying on t ∈ [{self.tail_start:.4g}, {self.tail_end:.4g}]"
        return f"undetermined: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"class": self.decay_class, "value": self.value, "uncertainty": self.uncertainty,
                "summary": self.summary(), "reason": self.reason,
                "exponential": None if self.exponential is None else _clean(asdict(self.exponential)),
                "polynomial": None if self.polynomial is None else _clean(asdict(self.polynomial)),
                "curvature": None if self.curvature is None else _clean(asdict(self.curvature)),
                "tail_start": self.tail_start, "tail_end": self.tail_end, "points": self.points,
                "floor": self.floor, "below_floor": self.below_floor, "resolved": self.resolved,
                "resolved_until": self.resolved_until, "resolve_factor": self.resolve_factor,
                "envelope_changed": self.envelope_changed, "notes": list(self.notes)}


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    """NaN/inf → None, so that the JSON is valid."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


def _line(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Least squares y ≈ a − k·x: (k, a, SSE, Σ(x − x̄)²), centred for conditioning."""
    xm, ym = float(x.mean()), float(y.mean())
    dx = x - xm
    sxx = float(dx @ dx)
    k = -float(dx @ (y - ym)) / sxx + 0.0 if sxx > 0 else 0.0  # + 0.0: no −0.0 in reports
    a = ym + k * xm
    res = y - (a - k * x)
    return k, a, float(res @ res), sxx


def _r2(sse: float, y: np.ndarray) -> float | None:
    sst = float(((y - y.mean()) ** 2).sum())
    return 1.0 - sse / sst if sst > 0 else None


def _inflation(res: np.ndarray, k: int) -> float:
    """√(n/n_eff) for residuals with lag-1 autocorrelation ρ₁ > 0 (AR(1): n_eff = n(1 − ρ₁)/(1 + ρ₁),
    at least k + 1); 1 for uncorrelated or alternating residuals."""
    n = len(res)
    ss = float(res @ res)
    if n < 3 or ss <= 0:
        return 1.0
    rho = float(res[:-1] @ res[1:]) / ss
    if rho <= 0:
        return 1.0
    n_eff = max(n * (1 - rho) / (1 + rho), k + 1.0)
    return math.sqrt(n / n_eff) if n_eff < n else 1.0


def _propagated(jac: np.ndarray, delta: np.ndarray | None) -> np.ndarray:
    """Σ_i |∂θ/∂y_i|·δ_i for the (linearised) least-squares estimate θ = J⁺y: the worst case of
    log errors bounded by δ."""
    if delta is None:
        return np.zeros(jac.shape[1])
    return np.abs(np.linalg.pinv(jac)) @ delta


def fit_exponential(t: np.ndarray, m: np.ndarray, log_error: np.ndarray | None = None) -> ExponentialFit:
    """Fit ``log M = a − r t`` by linear least squares (W Def. 3.2's exponential decay, rate r).

    ``log_error``: bounds on the log errors of the data, propagated into ``rate_uncertainty``.
    """
    t, y = np.asarray(t, dtype=float), np.log(np.asarray(m, dtype=float))
    n = len(t)
    if n < 3:
        raise ValueError(f"an exponential fit needs at least 3 points, got {n}")
    r, a, sse, sxx = _line(t, y)
    s = math.sqrt(sse / (n - 2))
    err = s / math.sqrt(sxx) if sxx > 0 else math.inf
    res = y - (a - r * t)
    jac = np.column_stack([np.ones_like(t), -t])
    unc = Z * err * _inflation(res, 2) + float(_propagated(jac, log_error)[1])
    return ExponentialFit(r, err, a, _r2(sse, y), math.sqrt(sse / n), s, unc)


def fit_polynomial(t: np.ndarray, m: np.ndarray, tau_max: float | None = None,
                   log_error: np.ndarray | None = None) -> PolynomialFit:
    """Fit ``log M = a − p log(t + τ)``, τ ∈ [0, tau_max] (default ``TAU_MAX_FACTOR·t_last``):
    a coarse scan then SciPy's bounded Brent over log(t₀ + τ), linear least squares inside
    (W App. D's polynomial class)."""
    from scipy.optimize import minimize_scalar

    t, y = np.asarray(t, dtype=float), np.log(np.asarray(m, dtype=float))
    n = len(t)
    if n < 4:
        raise ValueError(f"a polynomial fit with a fitted shift needs at least 4 points, got {n}")
    t0, t1 = float(t.min()), float(t.max())
    # τ = 0 needs t > 0; for a tail starting at t = 0 the smallest shift is a sliver of the span.
    tau_lo = 0.0 if t0 > 0 else (t1 - t0) * 1e-9 - t0
    tau_hi = max(TAU_MAX_FACTOR * t1, tau_lo + 1.0) if tau_max is None else float(tau_max)

    def sse(u: float) -> float:
        # u = log(t₀ + τ): the fit's sensitivity to τ scales like 1/(t + τ), so search in log.
        return _line(np.log(t + (math.exp(u) - t0)), y)[2]

    u_lo, u_hi = math.log(t0 + tau_lo), math.log(t0 + tau_hi)
    grid = np.linspace(u_lo, u_hi, _SCAN)
    vals = np.array([sse(u) for u in grid])
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, _SCAN - 1)]
    best_u, best = float(grid[i]), float(vals[i])
    if hi > lo:
        opt = minimize_scalar(sse, bounds=(lo, hi), method="bounded",
                              options={"xatol": 1e-12 * max(1.0, abs(u_hi))})
        if opt.fun < best:
            best_u, best = float(opt.x), float(opt.fun)
    tau = min(max(math.exp(best_u) - t0, tau_lo), tau_hi)
    width = u_hi - u_lo
    at = "lower" if best_u - u_lo <= 1e-6 * width else "upper" if u_hi - best_u <= 1e-6 * width else None
    x = np.log(t + tau)
    p, a, sse_min, _ = _line(x, y)
    k = 2 if at else 3
    s = math.sqrt(sse_min / (n - k))
    cols = [np.ones_like(t), -x] + ([] if at else [-p / (t + tau)])
    jac = np.column_stack(cols)
    p_err, tau_err = _poly_stderr(jac, s, fixed_tau=at is not None)
    res = y - (a - p * x)
    unc = Z * p_err * _inflation(res, k) + float(_propagated(jac, log_error)[1])
    return PolynomialFit(p, p_err, tau, tau_err, at, a, _r2(sse_min, y), math.sqrt(sse_min / n), s, unc)


def _poly_stderr(jac: np.ndarray, s: float, fixed_tau: bool) -> tuple[float, float]:
    """Standard errors of p and τ from the Gauss–Newton covariance s²(JᵀJ)⁻¹ at the optimum
    (τ held fixed when it sits at a bound of its interval)."""
    pinv = np.linalg.pinv(jac)
    cov = s * s * (pinv @ pinv.T)
    p_err = math.sqrt(max(float(cov[1, 1]), 0.0))
    tau_err = 0.0 if fixed_tau else math.sqrt(max(float(cov[2, 2]), 0.0))
    return p_err, tau_err


def _g(u: np.ndarray, kappa: float) -> tuple[np.ndarray, np.ndarray]:
    """g_κ(u) = log(1 + κu)/κ and ∂g/∂κ (series near κu = 0, where both are smooth in κ)."""
    z = kappa * u
    if np.max(np.abs(z)) < 1e-4:
        g = u - kappa * u ** 2 / 2 + kappa ** 2 * u ** 3 / 3 - kappa ** 3 * u ** 4 / 4
        dg = -u ** 2 / 2 + 2 * kappa * u ** 3 / 3 - 3 * kappa ** 2 * u ** 4 / 4
        return g, dg
    lg = np.log1p(z)
    return lg / kappa, (z / (1 + z) - lg) / kappa ** 2


def fit_curvature(t: np.ndarray, m: np.ndarray,
                  log_error: np.ndarray | None = None) -> CurvatureFit:
    """κ in ``log M = a − r·log(1 + κ(t − t₀))/κ``: 0 for W's exponential class, 1/(t₀ + τ) for
    the power law (t + τ)^{−p} of App. D (p = r/κ). κ ranges over [−1/(2L), 1/t₀] (L the span;
    negative κ is a log M bending down, faster than exponential), fitted by a scan and SciPy's
    bounded Brent with the linear least squares for (a, r) inside; uncertainty as for the rate."""
    from scipy.optimize import minimize_scalar

    t, y = np.asarray(t, dtype=float), np.log(np.asarray(m, dtype=float))
    n = len(t)
    if n < 4:
        raise ValueError(f"a curvature fit needs at least 4 points, got {n}")
    t0, t1 = float(t.min()), float(t.max())
    span = t1 - t0
    u = t - t0
    k_hi = 1.0 / t0 if t0 > 0 else 1e9 / span
    k_lo = -0.5 / span
    threshold = 1.0 / (t0 + max(TAU_MAX_FACTOR * t1, 1.0))

    def sse(kappa: float) -> float:
        return _line(_g(u, kappa)[0], y)[2]

    # Scan symmetric-logarithmically: κ = 0, ± geometric steps down to 1e-9 of each bound.
    pos = k_hi * np.geomspace(1e-9, 1.0, _SCAN)
    neg = k_lo * np.geomspace(1e-9, 1.0, _SCAN // 4)
    grid = np.unique(np.concatenate([neg, [0.0], pos]))
    vals = np.array([sse(float(k)) for k in grid])
    i = int(np.argmin(vals))
    best_k, best = float(grid[i]), float(vals[i])
    lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, len(grid) - 1)])
    if hi > lo:
        opt = minimize_scalar(sse, bounds=(lo, hi), method="bounded",
                              options={"xatol": 1e-14 * max(abs(lo), abs(hi))})
        if opt.fun < best:
            best_k, best = float(opt.x), float(opt.fun)
    at = "lower" if best_k <= k_lo * (1 - 1e-9) else "upper" if best_k >= k_hi * (1 - 1e-9) else None
    g, dg = _g(u, best_k)
    r, a, sse_min, _ = _line(g, y)
    jac = np.column_stack([np.ones_like(t), -g, -r * dg])
    s = math.sqrt(sse_min / (n - 3))
    pinv = np.linalg.pinv(jac)
    k_err = s * math.sqrt(max(float((pinv @ pinv.T)[2, 2]), 0.0))
    res = y - (a - r * g)
    infl = _inflation(res, 3)
    unc = Z * k_err * infl + float(_propagated(jac, log_error)[2])
    return CurvatureFit(best_k, k_err, unc, threshold, at, infl)


def log_error_bound(m: np.ndarray, accuracy: np.ndarray) -> np.ndarray:
    """|log M̂ − log M| ≤ −log(1 − a/M̂) for a value M̂ with absolute accuracy a < M̂."""
    ratio = np.clip(np.asarray(accuracy, dtype=float) / np.asarray(m, dtype=float), 0.0, 1 - 1e-12)
    return np.asarray(-np.log1p(-ratio))


def fit_decay(t: np.ndarray, m: np.ndarray, *, tail_fraction: float = TAIL_FRACTION,
              rel_floor: float = 0.0, accuracy: np.ndarray | None = None,
              resolve_factor: float = RESOLVE_FACTOR) -> DecayFit:
    """The decay class of a memory function sampled at ``t`` (W Def. 3.2; App. D's two classes).

    ``accuracy``: the absolute accuracy of each value (None: the values are exact). A value is
    used only when it exceeds ``resolve_factor`` times its accuracy and ``rel_floor · max M`` (and
    0). The class is "undetermined", with ``reason``, when too few resolved points remain or when the
    fit's uncertainty cannot separate the classes. ValueError when t, M or the accuracy are malformed.
    """
    t, m = np.asarray(t, dtype=float), np.asarray(m, dtype=float)
    if t.ndim != 1 or t.shape != m.shape:
        raise ValueError(f"t and M must be 1-D of equal length, got shapes {t.shape} and {m.shape}")
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(m))):
        raise ValueError("t and M must be finite (a NaN or inf memory value cannot be fitted)")
    if len(t) and (np.any(np.diff(t) <= 0) or t[0] < 0):
        raise ValueError("t must be increasing and non-negative (the memory function lives on t ≥ 0)")
    if not 0 <= tail_fraction < 1:
        raise ValueError(f"tail_fraction must lie in [0, 1), got {tail_fraction}")
    if not (math.isfinite(resolve_factor) and resolve_factor >= 1):
        raise ValueError(f"resolve_factor must be a finite number ≥ 1, got {resolve_factor}")
    if accuracy is None:
        acc = np.zeros_like(m)
    else:
        acc = np.abs(np.asarray(accuracy, dtype=float))
        if acc.shape != m.shape or not np.all(np.isfinite(acc)):
            raise ValueError(f"the accuracy must be finite and of M's shape {m.shape}, got {acc.shape}")
    peak = float(m.max()) if len(m) else 0.0
    floor = max(float(np.finfo(float).tiny), rel_floor * peak)
    ok = (m > floor) & (m > resolve_factor * acc)
    notes = []
    below = int((~ok).sum())
    n_floor = int((m <= floor).sum())
    if n_floor:
        notes.append(f"{n_floor} value(s) ≤ floor {floor:.3g} (zero, negative or below the "
                     "arithmetic's resolution) left out of the fit")
    if below > n_floor:
        notes.append(f"{below - n_floor} value(s) not above {resolve_factor:g}× their accuracy "
                     "(unresolved) left out of the fit")
    tr, mr, ar = t[ok], m[ok], acc[ok]
    until = float(tr[-1]) if len(tr) else None

    def undetermined(reason: str, start: float, end: float, points: int, changed: bool = False,
                     e: ExponentialFit | None = None, p: PolynomialFit | None = None,
                     c: CurvatureFit | None = None) -> DecayFit:
        return DecayFit("undetermined", e, p, start, end, points, floor, below, changed, notes, reason,
                        c, int(ok.sum()), until, resolve_factor)

    if len(tr) < MIN_POINTS:
        return undetermined(f"only {len(tr)} value(s) are resolved (above {resolve_factor:g}× their "
                            f"accuracy and the floor {floor:.3g}){_reach(t, m, acc, ok)}; the fit needs at "
                            f"least {MIN_POINTS} (shorten the time window or refine the grid)",
                            float(t[0]) if len(t) else 0.0, float(t[-1]) if len(t) else 0.0, len(tr))
    # The envelope: env_i = M_j for the largest later resolved value j, with that value's accuracy.
    src = _argsup_from(mr)
    env, env_acc = mr[src], ar[src]
    start = float(tr[0] + tail_fraction * (tr[-1] - tr[0]))
    tail = tr >= start
    tt, mt, et, at = tr[tail], mr[tail], env[tail], env_acc[tail]
    if len(tt) < MIN_POINTS:
        return undetermined(f"only {len(tt)} resolved point(s) in the tail t ≥ {start:.4g}"
                            f"{_reach(t, m, acc, ok)}; the fit needs at least {MIN_POINTS} (refine the "
                            "grid or lower the tail fraction)", start, float(tr[-1]), len(tt))
    changed = bool(np.any(et != mt))
    if changed:
        notes.append("M is not monotone on the tail: fitted its upper envelope sup_{s ≥ t} M(s)")
    delta = log_error_bound(et, at) if accuracy is not None else None
    exp_fit = fit_exponential(tt, et, delta)
    poly_fit = fit_polynomial(tt, et, log_error=delta)
    curv = fit_curvature(tt, et, delta)
    drop = float(np.log(et[0] / et[-1]))
    r, ur = exp_fit.rate, exp_fit.rate_uncertainty
    k, uk, kstar = curv.kappa, curv.kappa_uncertainty, curv.threshold
    end = float(tt[-1])
    reason = None
    if drop < DROP_MIN or r + ur <= 0:
        cls = "not decaying"
        reason = (f"the envelope falls by a factor {math.exp(drop):.6g} over the tail and the "
                  f"exponential rate is {r:.3g} ± {ur:.2g}")
        notes.append(reason)
    elif r - ur <= 0:
        return undetermined(f"the rate {r:.3g} ± {ur:.2g} on t ∈ [{tt[0]:.4g}, {end:.4g}] is not "
                            f"resolved from 0{_reach(t, m, acc, ok)}", float(tt[0]), end, len(tt),
                            changed, exp_fit, poly_fit, curv)
    elif k + uk < kstar:
        cls = "exponential"
        if poly_fit.shift_at_bound == "upper":
            notes.append("the polynomial fit's shift ran to its upper bound, where (t + τ)^(−p) is an "
                         "exponential in disguise")
        if curv.at_bound == "lower" or k + uk < 0:
            notes.append(f"log M bends down (curvature κ = {k:.3g} ± {uk:.2g} < 0): faster than "
                         "exponential on the tail; the rate is an average")
    elif k - uk > kstar:
        cls = "polynomial"
    else:
        return undetermined(
            f"the curvature of log M on t ∈ [{tt[0]:.4g}, {end:.4g}], κ = {k:.3g} ± {uk:.2g}, does not "
            f"separate e^(−rt) (κ = 0) from (t + τ)^(−p) (κ ≥ {kstar:.3g}, τ ≤ {TAU_MAX_FACTOR:g}·t_last)"
            f"{_reach(t, m, acc, ok)}", float(tt[0]), end, len(tt), changed, exp_fit, poly_fit, curv)
    chosen_rms = poly_fit.rms if cls == "polynomial" else exp_fit.rms
    if cls != "not decaying" and chosen_rms > POOR_FIT_RMS:
        notes.append(f"the {cls} fit leaves an RMS log residual of {chosen_rms:.3g} (over "
                     f"{POOR_FIT_RMS:.0%} scatter): neither class describes this tail well")
    return DecayFit(cls, exp_fit, poly_fit, float(tt[0]), end, len(tt), floor, below, changed, notes,
                    reason, curv, int(ok.sum()), until, resolve_factor)


def _argsup_from(m: np.ndarray) -> np.ndarray:
    """For each i, an index j ≥ i with m_j = max_{s ≥ i} m_s (the nearest such j)."""
    n = len(m)
    out = np.empty(n, dtype=int)
    best = n - 1
    for i in range(n - 1, -1, -1):
        if m[i] >= m[best]:
            best = i
        out[i] = best
    return out


def _reach(t: np.ndarray, m: np.ndarray, acc: np.ndarray, ok: np.ndarray) -> str:
    """Where M(t) first meets its accuracy, for the reason of an undetermined class."""
    bad = np.flatnonzero(~ok & (acc > 0))
    if not len(bad):
        return ""
    i = int(bad[0])
    return (f" (M(t) reaches {_fmt(acc[i])}, its accuracy, at t = {t[i]:.4g}; {int(ok.sum())} of "
            f"{len(t)} values resolved)")


def _fmt(v: float) -> str:
    return f"{v:.2g}"
