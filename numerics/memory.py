"""The memory function of paper W, Def. 3.1, and its impulse (App. F) and reversed-input (App. G) forms.

M(H)(t) := sup_{x≠0} |d/dt H_t(u^x)| / |x|_∞ for the Heaviside input u^x = x·1_[0,∞) (Def. 3.1,
eq. (5) of the ICLR 2024 camera-ready). Two additive options read the printed variants:
``norm='1'`` divides by |x|₁ instead (a negative control of eq. (4)), ``offset=1`` by |x|_∞ + 1, the
normalisation that the proofs of Thm 3.9 use (App. A.8 eq. (43), A.9 eq. (67)).

- For a linear functional the sup is |ρ(t)|₁ (W eq. (4)), attained at x = sign ρ(t): computed
  exactly, ``lower_bound`` False (|ρ(t)|_∞, attained at a unit vector, with ``norm='1'``; with an
  offset the sup is the same value, approached as |x| → ∞ and not attained).
- For any other functional the sup is taken over a finite set of inputs (directions on the unit
  sphere of the norm × magnitudes on a geometric grid, then refined between the best magnitudes),
  so the result is a *lower bound* on M(H)(t); the curve records how many inputs were tried and
  which x attained the maximum at each t.

Impulse memory: sup_x |H_t(i^x) − H_t(0)| / |x|_∞ with the pulse i^x = (x/δ)·1_[0,δ), the Dirac
reading of W App. F (eq. (119); → |ρ(t)|₁ for linear H as δ → 0). Reversed memory:
sup_x |d/dt H_0(x·1_[−t,0))| / |x|_∞ — recmem's earlier reconstruction of App. G (one input, and one
simulation, per t, differentiated in t on a uniform grid); by time-homogeneity and causality it is
the Heaviside memory, not the printed eq. (126) (x for all t < 0, read at time t:
:func:`recmem.numerics.signals.reversed_step`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from recmem.numerics.functionals import SAVGOL_WINDOW, Functional, LinearFunctional
from recmem.numerics.signals import Step, heaviside, impulse, reversed_input

INPUTS = ("heaviside", "impulse", "reversed")
# Magnitudes |x|_∞ = 2^k searched by default: small ones see the linearisation, large ones saturation.
DEFAULT_MAGNITUDES = tuple(2.0 ** k for k in range(-10, 7))


@dataclass
class MemoryCurve:
    """M(H)(t) on a grid, with how it was obtained."""

    t: np.ndarray
    values: np.ndarray
    inputs: str
    method: str
    lower_bound: bool
    candidates: int
    argmax: np.ndarray  # (len(t), d): an input x attaining the value at each t
    extra: dict[str, Any] = field(default_factory=dict)
    # Absolute accuracy of each value (see ``memory_function(accuracy=True)``), None when not computed.
    accuracy: np.ndarray | None = None
    accuracy_method: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"inputs": self.inputs, "method": self.method, "lower_bound": self.lower_bound,
               "candidates": self.candidates, "t": self.t.tolist(), "memory": self.values.tolist(),
               "argmax": self.argmax.tolist(), **self.extra}
        if self.accuracy is not None:
            out["accuracy"] = self.accuracy.tolist()
            out["accuracy_method"] = self.accuracy_method
        return out


NORMS = ("inf", "1")


def directions(d: int, seed: int = 0, vertices: int = 16, interior: int = 8,
               norm: str = "inf") -> np.ndarray:
    """Unit-norm directions. ``norm='inf'``: the vertices of [−1, 1]^d (or ``vertices`` random ones
    when 2^d is larger) and, for d > 1, ``interior`` seeded random points on the faces of the cube.
    ``norm='1'``: the vertices ±e_i of the cross-polytope and, for d > 1, ``interior`` seeded random
    points on its faces (the extreme points are where a linear query attains its sup)."""
    if norm == "1":
        dirs = [s * np.eye(d)[i] for i in range(d) for s in (1.0, -1.0)]
        if d > 1:
            rng = np.random.default_rng(seed + 1)
            for _ in range(interior):
                v = rng.uniform(-1, 1, d)
                dirs.append(v / np.sum(np.abs(v)))
        return np.array(dirs)
    if norm != "inf":
        raise ValueError(f"unknown norm {norm!r}: expected one of {', '.join(NORMS)}")
    if 2 ** d <= vertices:
        dirs = [np.array(v, dtype=float) for v in itertools.product((1.0, -1.0), repeat=d)]
    else:
        rng = np.random.default_rng(seed)
        dirs = list(rng.choice([-1.0, 1.0], size=(vertices, d)))
    if d > 1:
        rng = np.random.default_rng(seed + 1)
        for _ in range(interior):
            v = rng.uniform(-1, 1, d)
            v[rng.integers(d)] = rng.choice([-1.0, 1.0])
            dirs.append(v)
    return np.array(dirs)


# Half-width, in grid points, of the running maximum taken over every pointwise error estimate: an
# estimate made from the distance between two computations vanishes where their errors happen to
# cross, and the largest estimate among the neighbouring times covers those crossings.
ERROR_WINDOW = 5
# ... and doubled: late in a decay both runs take steps limited by stability rather than accuracy
# and carry noise of the same size, whose difference alone need not bound either.
ERROR_SAFETY = 2.0
_EPS = float(np.finfo(float).eps)


def window_max(e: np.ndarray, half: int = ERROR_WINDOW) -> np.ndarray:
    """max of ``e`` over the ±``half`` neighbouring entries (the last axis)."""
    from scipy.ndimage import maximum_filter1d

    e = np.asarray(e, dtype=float)
    if e.shape[-1] == 0 or half <= 0:
        return e
    return np.asarray(maximum_filter1d(e, 2 * half + 1, axis=-1, mode="nearest"))


def evaluate(f: Functional, what: str, signal: Step, t: np.ndarray,
             with_error: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """(values, error estimates or None) of ``f.output`` (``what='output'``) or ``f.rate``
    (``'rate'``) at ``t``; the error is an estimate of |computed − exact| at each time:

    - RNN (W §2): DOP853 at rtol 1e-12 / atol 1e-14 against 100× looser tolerances, plus float64
      rounding (:func:`recmem.numerics.ode.response_scipy_with_error`);
    - a user's sampled callable: the interpolation error of the samples (output) or the distance
      between the degree-6 and the degree-4 interpolating-polynomial derivatives (rate), plus the
      rounding of the difference quotients; the samples themselves are taken as exact;
    - any functional with a method ``output_with_error`` / ``rate_with_error`` returning
      (values, absolute errors): that method (e.g. the quadrature of a linear functional);
    - anything else: no estimate (None).
    """
    from recmem.numerics.functionals import CallableFunctional, RNNFunctional

    if not with_error:
        return np.asarray(getattr(f, what)(signal, t), dtype=float), None
    if isinstance(f, RNNFunctional):
        from recmem.numerics.ode import response_scipy_with_error

        y, dy, ey, edy = response_scipy_with_error(f.rnn, signal, t)
        return (y, ey) if what == "output" else (dy, edy)
    if isinstance(f, CallableFunctional):
        return _callable_with_error(f, what, signal, t)
    method = getattr(f, f"{what}_with_error", None)
    if callable(method):
        v, e = method(signal, t)
        return np.asarray(v, dtype=float), np.abs(np.asarray(e, dtype=float))
    return np.asarray(getattr(f, what)(signal, t), dtype=float), None


def _callable_with_error(f: Any, what: str, signal: Step,
                         t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A sampled callable's output (linear interpolation, error ≤ Δt²/8·max|y''| on the interval,
    |y''|Δt² read off the second differences) or rate (degree-6 derivative; error estimated by its
    distance to the degree-4 one, plus Σ|weights|·ε·|y|)."""
    from scipy.signal import savgol_coeffs, savgol_filter

    grid, y = f._sampled(signal, t)
    if what == "output":
        v = np.interp(t, grid, y)
        d2 = np.abs(np.diff(y, 2))
        node = np.concatenate([d2[:1], d2, d2[-1:]]) if len(d2) else np.zeros(len(y))
        per_interval = np.maximum(node[:-1], node[1:])
        i = np.clip(np.searchsorted(grid, t, side="right") - 1, 0, len(grid) - 2)
        return v, per_interval[i] / 8 + 2 * _EPS * np.abs(v)
    w = SAVGOL_WINDOW
    dy = savgol_filter(y, w, w - 1, deriv=1, delta=f.dt, mode="interp")
    low = savgol_filter(y, w - 2, w - 3, deriv=1, delta=f.dt, mode="interp")
    gain = float(np.sum(np.abs(savgol_coeffs(w, w - 1, deriv=1, delta=f.dt, use="dot"))))
    err = np.abs(dy - low) + w * _EPS * gain * window_max(np.abs(y), w // 2)
    return np.interp(t, grid, dy), np.interp(t, grid, err)


def _ratio(f: Functional, x: np.ndarray, t: np.ndarray, inputs: str, width: float | None,
           baseline: tuple[np.ndarray, np.ndarray | None] | None, norm: str = "inf",
           offset: float = 0.0, with_error: bool = False,
           tick: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The candidate x's ratio at each t, and its error estimate (None when not computed)."""
    scale = float(np.max(np.abs(x)) if norm == "inf" else np.sum(np.abs(x))) + offset
    if inputs == "heaviside":
        _tick(tick)
        r, e = evaluate(f, "rate", heaviside(x), t, with_error)
        return np.abs(r) / scale, None if e is None else e / scale
    if inputs == "impulse":
        assert width is not None and baseline is not None
        _tick(tick)
        y, e = evaluate(f, "output", impulse(x, width), t, with_error)
        b, eb = baseline
        err = None if e is None or eb is None else (e + eb) / scale
        return np.abs(y - b) / scale, err
    g, eg = np.empty(len(t)), np.empty(len(t))
    known = True
    for k, tk in enumerate(t):
        _tick(tick)
        gk, ek = evaluate(f, "output", reversed_input(x, float(tk)), np.array([0.0]), with_error)
        g[k] = gk[0]
        if ek is None:
            known = False
        else:
            eg[k] = ek[0]
    dg = grid_derivative(t, g)
    if not (with_error and known):
        return np.abs(dg) / scale, None
    return np.abs(dg) / scale, _derivative_error(t, g, eg) / scale


def _tick(tick: Callable[[], None] | None) -> None:
    if tick is not None:
        tick()


def _derivative_error(t: np.ndarray, g: np.ndarray, eg: np.ndarray) -> np.ndarray:
    """Error of :func:`grid_derivative`: the samples' errors through the filter (|D|·e, D its
    matrix) plus the truncation error, estimated by the distance to the degree-4 derivative."""
    from scipy.signal import savgol_filter

    n, h = len(t), float(t[1] - t[0])
    w = SAVGOL_WINDOW
    d = savgol_filter(np.eye(n), w, w - 1, deriv=1, delta=h, mode="interp", axis=0)
    low = savgol_filter(g, w - 2, w - 3, deriv=1, delta=h, mode="interp")
    rounding = w * _EPS * (np.abs(d) @ np.abs(g))
    return np.asarray(np.abs(d) @ eg + np.abs(d @ g - low) + rounding)


def grid_derivative(t: np.ndarray, g: np.ndarray) -> np.ndarray:
    """dg/dt on a uniform grid by the degree-6 interpolating polynomial (Savitzky–Golay, O(Δt⁶))."""
    from scipy.signal import savgol_filter

    steps = np.diff(t)
    if len(t) < SAVGOL_WINDOW or not np.allclose(steps, steps[0], rtol=1e-9, atol=0):
        raise ValueError(f"the reversed-input memory needs a uniform grid of ≥ {SAVGOL_WINDOW} times")
    return np.asarray(savgol_filter(g, SAVGOL_WINDOW, SAVGOL_WINDOW - 1, deriv=1, delta=float(steps[0]),
                                    mode="interp"))


def memory_function(f: Functional, t: np.ndarray, *, inputs: str = "heaviside",
                    width: float = 1e-3, magnitudes: tuple[float, ...] = DEFAULT_MAGNITUDES,
                    refine_rounds: int = 2, seed: int = 0,
                    max_input: float | None = None, norm: str = "inf",
                    offset: float = 0.0, accuracy: bool = False,
                    progress: Callable[[], None] | None = None) -> MemoryCurve:
    """M(H)(t) of W Def. 3.1 (``inputs='heaviside'``), App. F (``'impulse'``, pulse width
    ``width``) or App. G (``'reversed'``) at the times ``t``.

    ``max_input`` restricts the sup to |x|∞ ≤ max_input (magnitudes above it are dropped, the bound
    itself is tried, and refinement never steps past it): the *bounded-input* reading of Def. 3.1.
    ``norm`` (``'inf'`` as printed, or ``'1'``) is the norm of x in the denominator and of the
    searched directions; ``offset`` ≥ 0 is added to it (1: App. A.8 eq. (43), A.9 eq. (67)).

    ``accuracy=True`` also computes, for each t, the absolute accuracy of the value as a
    computation of the searched maximum (``MemoryCurve.accuracy``): every candidate's ratio v_k(t)
    comes with an error estimate e_k(t) (:func:`evaluate`, then ``ERROR_SAFETY`` × the largest over
    ±``ERROR_WINDOW`` neighbouring times), so the exact maximum over the candidates lies in
    [max_k(v_k − e_k), max_k(v_k + e_k)]; the accuracy is the larger distance from the reported
    max_k v_k to those ends. A candidate whose own value is noise (a small |x| late in the decay)
    therefore makes the point unresolved even when it does not attain the maximum. None when the
    functional offers no error estimate. ``progress`` is called once per simulation.
    """
    if inputs not in INPUTS:
        raise ValueError(f"unknown inputs {inputs!r}: expected one of {', '.join(INPUTS)}")
    if norm not in NORMS:
        raise ValueError(f"unknown norm {norm!r}: expected one of {', '.join(NORMS)}")
    if not offset >= 0:
        raise ValueError(f"offset must be non-negative, got {offset}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    t = np.asarray(t, dtype=float)
    if max_input is not None and not max_input > 0:
        raise ValueError(f"max_input must be positive, got {max_input}")
    if isinstance(f, LinearFunctional):
        return _linear(f, t, inputs, width, norm, offset, accuracy)
    if max_input is not None:
        magnitudes = (*(r for r in magnitudes if r < max_input), max_input)
    baseline = None
    if inputs == "impulse":
        _tick(progress)
        baseline = evaluate(f, "output", heaviside(np.zeros(f.input_dim)), t, accuracy)
    dirs = directions(f.input_dim, seed, norm=norm)
    tried: dict[tuple[float, ...], tuple[np.ndarray, np.ndarray | None]] = {}

    def try_input(x: np.ndarray) -> None:
        key = tuple(np.round(x, 15))
        if max_input is not None and np.max(np.abs(x)) > max_input:
            return
        if key not in tried:
            tried[key] = _ratio(f, x, t, inputs, width, baseline, norm, offset, accuracy, progress)

    mags = sorted(magnitudes)
    for d in dirs:
        for r in mags:
            try_input(r * d)
    for _ in range(refine_rounds):
        # Bisect (geometrically) around the magnitudes that attain the maximum somewhere on the grid.
        keys = list(tried)
        best = {keys[i] for i in np.argmax(np.array([tried[k][0] for k in keys]), axis=0)}
        for k in best:
            x = np.array(k)
            for factor in (2 ** -0.5, 2 ** 0.5, 2 ** -0.25, 2 ** 0.25):
                try_input(x * factor)
    keys = list(tried)
    table = np.array([tried[k][0] for k in keys])
    idx = np.argmax(table, axis=0)
    den = ("|x|∞" if norm == "inf" else "|x|₁") + (f" + {offset:g}" if offset else "")
    den = f"({den})" if offset else den
    what = {"heaviside": f"|d/dt H_t(u^x)|/{den}", "impulse": f"|H_t(i^x) − H_t(0)|/{den} (δ = {width})",
            "reversed": f"|d/dt H_0(r^{{x,t}})|/{den} (one simulation per t)"}[inputs]
    bound = "" if max_input is None else f", |x|∞ ≤ {max_input:g}"
    method = (f"lower bound: max of {what} over {len(keys)} inputs ({len(dirs)} directions × "
              f"{len(mags)} magnitudes 2^{np.log2(mags[0]):.1f}…2^{np.log2(mags[-1]):.1f}, "
              f"{refine_rounds} refinement rounds{bound}); rate: {f.rate_method}")
    values = table[idx, np.arange(len(t))]
    acc, acc_method = None, None
    errors = [tried[k][1] for k in keys]
    if accuracy and all(e is not None for e in errors):
        err = ERROR_SAFETY * window_max(np.array(errors))
        hi, lo = np.max(table + err, axis=0), np.max(table - err, axis=0)
        acc = np.maximum(hi - values, values - lo)
        acc_method = (f"{_error_source(f, inputs)}; largest over ±{ERROR_WINDOW} neighbouring times, "
                      f"×{ERROR_SAFETY:g}; "
                      f"search: max_k(v_k + e_k) − max_k v_k over the {len(keys)} candidates")
    return MemoryCurve(t, values, inputs, method, True, len(keys),
                       np.array([keys[i] for i in idx]), accuracy=acc, accuracy_method=acc_method)


def _error_source(f: Functional, inputs: str) -> str:
    from recmem.numerics.functionals import CallableFunctional, RNNFunctional

    if isinstance(f, RNNFunctional):
        src = "DOP853 at rtol 1e-12/atol 1e-14 vs a run at 100× both tolerances, plus float64 rounding"
    elif isinstance(f, CallableFunctional):
        src = ("interpolation error of the samples" if inputs == "impulse" else
               "degree-6 vs degree-4 derivative of the samples (samples taken as exact)")
    else:
        src = f"{type(f).__name__}.{'rate' if inputs == 'heaviside' else 'output'}_with_error"
    if inputs == "reversed":
        src += ", through the degree-6 derivative in t plus its truncation (vs degree 4)"
    return src


def _linear(f: LinearFunctional, t: np.ndarray, inputs: str, width: float, norm: str = "inf",
            offset: float = 0.0, accuracy: bool = False) -> MemoryCurve:
    """Linear functionals: the sup over x of |xᵀv|/|x|∞ is |v|₁, attained at x = sign v (Hölder);
    over |x|₁ it is |v|_∞, attained at the unit vector of the largest |v_i|. An offset leaves the
    sup unchanged (r|v|/(r + offset) → |v| as r → ∞) but no input attains it."""
    k = f.kernel
    w = np.array([float(v) for v in k.weights])
    if norm == "inf":
        best = np.where(w >= 0, 1.0, -1.0)
    else:
        i = int(np.argmax(np.abs(w)))
        best = np.sign(w[i]) * np.eye(len(w))[i]
    note = ("" if not offset else
            f"; with the offset {offset:g} the sup is approached as |x| → ∞, not attained")
    acc: np.ndarray | None = None
    if inputs == "impulse":
        out, quad_err = f.output_with_error(impulse(best, width), t)
        values = np.abs(out)
        scale = float(np.max(np.abs(best)) if norm == "inf" else np.sum(np.abs(best)))
        acc = ERROR_SAFETY * window_max(quad_err / scale) + 4 * _EPS * values
        acc_method = (f"QUADPACK's error estimate of the pulse integral, largest over ±{ERROR_WINDOW} "
                      f"neighbouring times, ×{ERROR_SAFETY:g}")
        method = (f"exact sup (linear in x, at an extreme point x of the unit ball): |(1/δ)∫_(t−δ)^t xᵀρ|, "
                  f"δ = {width}, by quadrature")
    else:
        values = k.l1_norm(t) if norm == "inf" else np.max(np.abs(k.rho(t)), axis=1)
        method = ("analytic: |ρ(t)|₁ (W eq. (4); the sup over x is attained at x = sign ρ(t))"
                  if norm == "inf" else
                  "analytic: |ρ(t)|_∞ (the sup over |x|₁ ≤ 1 is attained at a unit vector)")
        if inputs == "reversed":
            method += "; for causal time-homogeneous H, H_0(x·1_[−t,0)) = H_t(u^x)"
        acc = _kernel_rounding(k, t, w, norm)
        acc_method = ("float64 evaluation of the closed form: ε·(1 + |log term|) per term (the rounding of "
                      "the exponent), summed over the terms")
    return MemoryCurve(t, values, inputs, method + note, False, 1, np.tile(best, (len(t), 1)),
                       accuracy=acc if accuracy else None, accuracy_method=acc_method if accuracy else None)


def _kernel_rounding(k: Any, t: np.ndarray, w: np.ndarray, norm: str) -> np.ndarray:
    """A bound on the float64 error of |ρ(t)| evaluated in closed form: each term c·e^{−r t} (or
    A^t, (t + 1)^{−P}) carries the rounding of its exponent, ε·|log term|, and a few roundings of
    its own; the terms of an exponential sum add (with cancellation, relative to Σ|term|)."""
    from recmem.numerics.kernels import ExpSumKernel

    scale = np.sum(np.abs(w)) if norm == "inf" else np.max(np.abs(w))
    if isinstance(k, ExpSumKernel):
        c = np.array([float(v) for v in k.coeffs])
        r = np.array([float(v) for v in k.rates])
        terms = np.abs(c)[None, :] * np.exp(-np.outer(t, r))
        return np.asarray(scale * 8 * _EPS * np.sum(terms * (1 + np.outer(t, r)), axis=1))
    prof = np.abs(k.profile(t))
    with np.errstate(divide="ignore"):
        logs = np.where(prof > 0, np.abs(np.log(np.where(prof > 0, prof, 1.0))), 0.0)
    return np.asarray(scale * 8 * _EPS * prof * (1 + logs))
