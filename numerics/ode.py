"""Integrators for paper W's RNN dh/dt = σ(W h + U u_t + b) driven by a step input.

Three integrators, cross-checked against one another (tests/test_ode.py):
- :func:`response_scipy`: the reference in float64, SciPy's DOP853 with error control (rtol 1e-12);
- :func:`response_mpmath`: Taylor-series integration (``mpmath.odefun``) at any precision, for
  analytic σ (identity, tanh, softplus);
- :func:`response_torch`: fixed-step classical RK4, batched over inputs *and* parameter sets (the
  perturbation samples of W Def. 3.4), on CPU or CUDA; its O(Δt⁴) error is what the cross-check bounds.

Each returns ŷ_t = cᵀh_t and its rate dŷ/dt = cᵀσ(W h_t + U u_t + b), read off the vector field
at the computed state: no numerical differentiation. Integration restarts at the input's
breakpoints, so the discontinuities of a step never fall inside a step of the integrator.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from recmem.numerics.rnn import RNN
from recmem.numerics.signals import Step

REST_HORIZON = 1e4


def rest_state(rnn: RNN) -> np.ndarray:
    """h at the onset of the input: the limit from h_{−∞} = 0 under zero input (W §2).

    Zero when σ(b) = 0; otherwise the equilibrium σ(W h + b) = 0 reached from 0, found by
    integrating to a long horizon and polishing with a root finder. ValueError when there is none
    (e.g. softplus, which is positive everywhere, drives h to infinity).
    """
    if not np.any(rnn.sigma.numpy(rnn.b)):
        return np.zeros(rnn.hidden)
    from scipy.integrate import solve_ivp
    from scipy.optimize import root

    sol = solve_ivp(lambda _, h: rnn.rhs(h, np.zeros(rnn.input_dim)), (0.0, REST_HORIZON),
                    np.zeros(rnn.hidden), method="LSODA", rtol=1e-10, atol=1e-12)
    guess = sol.y[:, -1]
    fit = root(lambda h: rnn.rhs(h, np.zeros(rnn.input_dim)), guess, tol=1e-15)
    if not fit.success or np.linalg.norm(rnn.rhs(fit.x, np.zeros(rnn.input_dim))) > 1e-10:
        raise ValueError(f"the {rnn.sigma.name} RNN has no rest state under zero input "
                         "(h_{−∞} = 0 does not settle), so its response is undefined")
    return np.asarray(fit.x)


def _segments(signal: Step, t_end: float) -> list[tuple[float, float, np.ndarray]]:
    """(from, to, input) pieces covering [start, t_end] on which the input is constant."""
    pts = [*signal.breakpoints(t_end), t_end]
    return [(a, b, signal.value(a)) for a, b in itertools.pairwise(pts) if b > a]


def _dop853(rnn: RNN, signal: Step, t: np.ndarray, rtol: float,
            atol: float) -> tuple[np.ndarray, ...]:
    """(states, inputs u_t, vector fields σ(W h + U u + b), all (·, len(t)), and dŷ/dt) by DOP853
    from the rest state."""
    from scipy.integrate import solve_ivp

    t = np.asarray(t, dtype=float)
    h = rest_state(rnn)
    # At rest until the input starts (and for an empty step, throughout).
    states = np.tile(h[:, None], (1, len(t)))
    inputs = np.zeros((rnn.input_dim, len(t)))
    t_end = float(t.max()) if len(t) else signal.start
    for a, b, u in _segments(signal, t_end):
        sel = (t >= a) & ((t < b) | ((b == t_end) & (t == b)))
        times = np.union1d(t[sel], [b])  # the segment's end state seeds the next segment
        sol = solve_ivp(lambda _, s, u=u: rnn.rhs(s, u), (a, b), h, method="DOP853",
                        t_eval=times, rtol=rtol, atol=atol)
        if sol.status != 0:
            raise ArithmeticError(f"DOP853 failed on [{a}, {b}]: {sol.message}")
        states[:, sel] = sol.y[:, np.searchsorted(times, t[sel])]
        inputs[:, sel] = u[:, None]
        h = sol.y[:, -1]
    fields = np.array([rnn.rhs(states[:, k], inputs[:, k])
                       for k in range(len(t))]).reshape(len(t), rnn.hidden).T
    dy = np.array([rnn.c @ fields[:, k] for k in range(len(t))])
    return states, inputs, fields, dy


def response_scipy(rnn: RNN, signal: Step, t: np.ndarray, rtol: float = 1e-12,
                   atol: float = 1e-14) -> tuple[np.ndarray, np.ndarray]:
    """(ŷ_t, dŷ_t/dt) at times ``t`` in float64 (DOP853 with error control; W §2)."""
    states, _, _, dy = _dop853(rnn, signal, np.asarray(t, dtype=float), rtol, atol)
    return rnn.c @ states, dy


# The loose run of response_scipy_with_error: tolerances LOOSE_FACTOR × the tight ones.
LOOSE_FACTOR = 100.0


def response_scipy_with_error(rnn: RNN, signal: Step, t: np.ndarray, rtol: float = 1e-12,
                              atol: float = 1e-14) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(ŷ_t, dŷ_t/dt, error estimate of ŷ_t, error estimate of dŷ_t/dt) by DOP853 (W §2).

    The values are those of :func:`response_scipy` at (rtol, atol). The error estimate of each is
    the distance to a second run at ``LOOSE_FACTOR``× both tolerances — for an error-controlled
    Runge–Kutta method the global error scales with the tolerance, so the loose run is about
    ``LOOSE_FACTOR`` times as wrong and the distance bounds the tight run's error with a margin —
    plus the rounding of cᵀh and cᵀσ(W h + U u + b) in float64 (unit roundoff times the sums of
    absolute values, with one rounding per term). Pointwise, the distance can vanish where the two
    runs' errors happen to cross; :func:`recmem.numerics.memory.memory_function` therefore takes
    the largest estimate over neighbouring grid times.
    """
    t = np.asarray(t, dtype=float)
    states, inputs, fields, dy = _dop853(rnn, signal, t, rtol, atol)
    states2, _, _, dy2 = _dop853(rnn, signal, t, rtol * LOOSE_FACTOR, atol * LOOSE_FACTOR)
    y, y2 = rnn.c @ states, rnn.c @ states2
    u = float(np.finfo(float).eps) / 2
    m, d = rnn.hidden, rnn.input_dim
    ac = np.abs(rnn.c)
    pre = np.abs(rnn.W) @ np.abs(states) + np.abs(rnn.U) @ np.abs(inputs) + np.abs(rnn.b)[:, None]
    # σ is 1-Lipschitz for every activation of recmem.numerics.activations, so the rounding of its
    # argument passes to its value at most unamplified.
    round_y = (m + 1) * u * (ac @ np.abs(states))
    round_dy = (m + d + 2) * u * (ac @ pre) + (m + 1) * u * (ac @ np.abs(fields))
    return y, dy, np.abs(y - y2) + round_y, np.abs(dy - dy2) + round_dy


def response_mpmath(rnn: RNN, signal: Step, t: np.ndarray, ctx: Any) -> tuple[list[Any], list[Any]]:
    """(ŷ_t, dŷ_t/dt) at times ``t`` at the precision of the mpmath context ``ctx``.

    Taylor-series integration needs an analytic vector field: ValueError for hardtanh/relu. The
    float64 parameters convert exactly; the rest state is polished by Newton's method at ``ctx``'s
    precision.
    """
    if not rnn.sigma.smooth:
        raise ValueError(f"Taylor-series integration needs an analytic activation, not {rnn.sigma.name}")
    m, d = rnn.hidden, rnn.input_dim
    W = [[ctx.mpf(float(v)) for v in row] for row in rnn.W]
    U = [[ctx.mpf(float(v)) for v in row] for row in rnn.U]
    b = [ctx.mpf(float(v)) for v in rnn.b]
    c = [ctx.mpf(float(v)) for v in rnn.c]

    def field(h: list[Any], u: list[Any]) -> list[Any]:
        return [rnn.sigma.mp(ctx, ctx.fsum(W[i][j] * h[j] for j in range(m))
                             + ctx.fsum(U[i][k] * u[k] for k in range(d)) + b[i]) for i in range(m)]

    h0 = [ctx.mpf(float(v)) for v in rest_state(rnn)]
    zero = [ctx.zero] * d
    if any(b):
        h0 = list(ctx.findroot(lambda *h: field(list(h), zero), h0))
    t_end = float(np.max(t)) if len(t) else signal.start
    pieces = []
    h = h0
    for a, bnd, u in _segments(signal, t_end):
        uu = [ctx.mpf(float(v)) for v in u]
        sol = ctx.odefun(lambda _, s, uu=uu: field(list(s), uu), ctx.mpf(a), h)
        pieces.append((a, bnd, uu, sol))
        h = list(sol(ctx.mpf(bnd)))
    ys, dys = [], []
    for tk in np.asarray(t, dtype=float):
        if tk < signal.start:
            s, uu = h0, zero
        else:
            a, _, uu, sol = next(p for p in reversed(pieces) if tk >= p[0])
            s = list(sol(ctx.mpf(float(tk))))
        ys.append(ctx.fsum(ci * si for ci, si in zip(c, s, strict=True)))
        dys.append(ctx.fsum(ci * fi for ci, fi in zip(c, field(s, uu), strict=True)))
    return ys, dys


def response_torch(W: Any, U: Any, b: Any, c: Any, sigma: Any, x: Any, t: np.ndarray, *,
                   start: float = 0.0, stop: float = math.inf, dt: float = 1e-2,
                   h0: Any = None) -> tuple[Any, Any]:
    """Batched (ŷ, dŷ/dt) of shape (B, len(t)) by classical RK4 with steps of at most ``dt``.

    Parameters broadcast over the batch: W (B, m, m) or (m, m), U (B, m, d) or (m, d), b and c
    (B, m) or (m,); ``x`` (B, d) are the step heights of inputs x·1_[start, stop); ``sigma`` is a
    torch function; the state starts at ``h0`` (default 0) at ``start``. Grid times must be ≥ start.
    Tensors stay on their device; pass float64 for accuracy (the cross-check assumes it).
    """
    import torch

    grid = np.asarray(t, dtype=float)
    if len(grid) and grid.min() < start:
        raise ValueError("torch RK4 integrates forward from the input onset: grid times must be ≥ start")
    x = torch.as_tensor(x)
    batch = x.shape[0]
    W, U, b, c = (torch.as_tensor(v, device=x.device) for v in (W, U, b, c))
    m = W.shape[-1]
    W = W.expand(batch, m, m)
    U = U.expand(batch, m, x.shape[1])
    b, c = b.expand(batch, m), c.expand(batch, m)
    h = torch.zeros(batch, m, dtype=x.dtype, device=x.device) if h0 is None else h0
    drive_on = torch.einsum("bmd,bd->bm", U, x) + b
    drive_off = b

    def f(state: Any, drive: Any) -> Any:
        # a batched matrix-vector product (the same bmm as einsum "bij,bj->bi", without its
        # parsing: 1.3–1.8× faster per call on the small batches of the claims)
        return sigma(torch.matmul(W, state.unsqueeze(-1)).squeeze(-1) + drive)

    knots = sorted({start, *grid.tolist(), *([stop] if stop < (grid.max() if len(grid) else 0) else [])})
    out_y, out_dy = {}, {}
    now = start
    for nxt in knots:
        span = nxt - now
        if span > 0:
            drive = drive_on if now < stop else drive_off
            n = max(1, math.ceil(span / dt - 1e-9))
            step = span / n
            for _ in range(n):
                k1 = f(h, drive)
                k2 = f(h + step / 2 * k1, drive)
                k3 = f(h + step / 2 * k2, drive)
                k4 = f(h + step * k3, drive)
                h = h + step / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            now = nxt
        drive = drive_on if start <= nxt < stop else drive_off
        out_y[nxt] = (c * h).sum(dim=1)
        out_dy[nxt] = (c * f(h, drive)).sum(dim=1)
    y = torch.stack([out_y[float(v)] for v in grid], dim=1)
    dy = torch.stack([out_dy[float(v)] for v in grid], dim=1)
    return y, dy
