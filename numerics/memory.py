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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from recmem.numerics.functionals import SAVGOL_WINDOW, Functional, LinearFunctional
from recmem.numerics.signals import heaviside, impulse, reversed_input

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

    def to_dict(self) -> dict[str, Any]:
        return {"inputs": self.inputs, "method": self.method, "lower_bound": self.lower_bound,
                "candidates": self.candidates, "t": self.t.tolist(), "memory": self.values.tolist(),
                "argmax": self.argmax.tolist(), **self.extra}


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


def _ratio(f: Functional, x: np.ndarray, t: np.ndarray, inputs: str, width: float | None,
           baseline: np.ndarray | None, norm: str = "inf", offset: float = 0.0) -> np.ndarray:
    scale = float(np.max(np.abs(x)) if norm == "inf" else np.sum(np.abs(x))) + offset
    if inputs == "heaviside":
        return np.abs(f.rate(heaviside(x), t)) / scale
    if inputs == "impulse":
        assert width is not None and baseline is not None
        return np.abs(f.output(impulse(x, width), t) - baseline) / scale
    g = np.array([f.output(reversed_input(x, float(tk)), np.array([0.0]))[0] for tk in t])
    return np.abs(grid_derivative(t, g)) / scale


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
                    offset: float = 0.0) -> MemoryCurve:
    """M(H)(t) of W Def. 3.1 (``inputs='heaviside'``), App. F (``'impulse'``, pulse width
    ``width``) or App. G (``'reversed'``) at the times ``t``.

    ``max_input`` restricts the sup to |x|∞ ≤ max_input (magnitudes above it are dropped, the bound
    itself is tried, and refinement never steps past it): the *bounded-input* reading of Def. 3.1.
    ``norm`` (``'inf'`` as printed, or ``'1'``) is the norm of x in the denominator and of the
    searched directions; ``offset`` ≥ 0 is added to it (1: App. A.8 eq. (43), A.9 eq. (67)).
    """
    if inputs not in INPUTS:
        raise ValueError(f"unknown inputs {inputs!r}: expected one of {', '.join(INPUTS)}")
    if norm not in NORMS:
        raise ValueError(f"unknown norm {norm!r}: expected one of {', '.join(NORMS)}")
    if not offset >= 0:
        raise ValueError(f"offset must be non-negative, got {offset}")
    t = np.asarray(t, dtype=float)
    if max_input is not None and not max_input > 0:
        raise ValueError(f"max_input must be positive, got {max_input}")
    if isinstance(f, LinearFunctional):
        return _linear(f, t, inputs, width, norm, offset)
    if max_input is not None:
        magnitudes = (*(r for r in magnitudes if r < max_input), max_input)
    baseline = f.output(heaviside(np.zeros(f.input_dim)), t) if inputs == "impulse" else None
    dirs = directions(f.input_dim, seed, norm=norm)
    tried: dict[tuple[float, ...], np.ndarray] = {}

    def evaluate(x: np.ndarray) -> None:
        key = tuple(np.round(x, 15))
        if max_input is not None and np.max(np.abs(x)) > max_input:
            return
        if key not in tried:
            tried[key] = _ratio(f, x, t, inputs, width, baseline, norm, offset)

    mags = sorted(magnitudes)
    for d in dirs:
        for r in mags:
            evaluate(r * d)
    for _ in range(refine_rounds):
        # Bisect (geometrically) around the magnitudes that attain the maximum somewhere on the grid.
        keys = list(tried)
        best = {keys[i] for i in np.argmax(np.array([tried[k] for k in keys]), axis=0)}
        for k in best:
            x = np.array(k)
            for factor in (2 ** -0.5, 2 ** 0.5, 2 ** -0.25, 2 ** 0.25):
                evaluate(x * factor)
    keys = list(tried)
    table = np.array([tried[k] for k in keys])
    idx = np.argmax(table, axis=0)
    den = ("|x|∞" if norm == "inf" else "|x|₁") + (f" + {offset:g}" if offset else "")
    den = f"({den})" if offset else den
    what = {"heaviside": f"|d/dt H_t(u^x)|/{den}", "impulse": f"|H_t(i^x) − H_t(0)|/{den} (δ = {width})",
            "reversed": f"|d/dt H_0(r^{{x,t}})|/{den} (one simulation per t)"}[inputs]
    bound = "" if max_input is None else f", |x|∞ ≤ {max_input:g}"
    method = (f"lower bound: max of {what} over {len(keys)} inputs ({len(dirs)} directions × "
              f"{len(mags)} magnitudes 2^{np.log2(mags[0]):.1f}…2^{np.log2(mags[-1]):.1f}, "
              f"{refine_rounds} refinement rounds{bound}); rate: {f.rate_method}")
    return MemoryCurve(t, table[idx, np.arange(len(t))], inputs, method, True, len(keys),
                       np.array([keys[i] for i in idx]))


def _linear(f: LinearFunctional, t: np.ndarray, inputs: str, width: float, norm: str = "inf",
            offset: float = 0.0) -> MemoryCurve:
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
    if inputs == "impulse":
        values = np.abs(f.output(impulse(best, width), t))
        method = (f"exact sup (linear in x, at an extreme point x of the unit ball): |(1/δ)∫_(t−δ)^t xᵀρ|, "
                  f"δ = {width}, by quadrature")
    else:
        values = k.l1_norm(t) if norm == "inf" else np.max(np.abs(k.rho(t)), axis=1)
        method = ("analytic: |ρ(t)|₁ (W eq. (4); the sup over x is attained at x = sign ρ(t))"
                  if norm == "inf" else
                  "analytic: |ρ(t)|_∞ (the sup over |x|₁ ≤ 1 is attained at a unit vector)")
        if inputs == "reversed":
            method += "; for causal time-homogeneous H, H_0(x·1_[−t,0)) = H_t(u^x)"
    return MemoryCurve(t, values, inputs, method + note, False, 1, np.tile(best, (len(t), 1)))
