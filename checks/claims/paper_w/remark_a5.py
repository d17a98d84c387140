"""W.remark-a5: fading memory (25) and decaying memory (6) are independent (W App. A.7, Remark A.5).

``W.remark-a5.peak-hold`` (:class:`~recmem.theory.fading_memory.PeakHold`): the peak-hold operator
H_t(x) = sup_(s ≤ t) x_s has a decaying memory (its Heaviside response is constant after t = 0,
so M(H)(t) = 0 for t > 0) and no fading memory (a hat of height 1 at a lag L with w(L) < δ is
within weighted distance δ of 0 and moves the output by 1). ``W.remark-a5.fading-not-decaying``
(:class:`~recmem.theory.fading_memory.FadingNotDecaying`): the linear functional with a train of
hats of height n and half-width n⁻⁴/2 at s = n, and w(s) = 1/(1 + s): ∫|ρ|/w = ζ(2)/2 + ζ(3)/2 < ∞,
(25) holds with δ(ε) = ε/∫|ρ|/w (Hölder, sharp), and M(H)(n) = n at every centre: no decaying
memory. ``W.remark-a5`` (:class:`~recmem.theory.fading_memory.RemarkA5`): both together.

Sides. Symbolic: theory.fading_memory's derivations (SymPy, general). Numeric, in every arithmetic
(numpy, torch: float64 or float32; mpmath and flint at the working precision): the definitions run
on inputs — the peak-hold operator (a running maximum of the sampled input; numpy: recmem's
black-box memory query :func:`~recmem.numerics.memory.memory_function` of a
:class:`~recmem.numerics.functionals.CallableFunctional`) on Heaviside inputs and on hat pairs at
weighted distance < 2^−k; the linear functional by 4-point Gauss–Legendre quadrature of
ρ(s)·Δ_(t−s) on each half of each hat (exact for the polynomial integrands, so only rounding
remains) on the extremal input Δ_(t−s) = δ(1 + s)^a, against the statement's δ(ε) = c·ε/K with K
from its ζ closed form (each arithmetic's own ζ), and on Heaviside inputs at the centres (a
symmetric difference over ±h, h = r_n/1024). Search: exact judges (theory.fading_memory).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.limits import grows
from recmem.checks.search import Instance
from recmem.checks.tolerance import RESOLVE_LIMIT
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendUnavailable
from recmem.theory.fading_memory import (
    EPS,
    FadingNotDecaying,
    PeakHold,
    RemarkA5,
    linear_decide,
    linear_proof,
    peak_decide,
    peak_proof,
    remark_proof,
)

QUOTE = (r"There is a concept of fading memory introduced in the nonlinear functional approximation "
         r"with Volterra series (Boyd et al., 1984). A functional is said to have fading memory if "
         r"there exists a monotonically decreasing function $w: \mathbb{R}_{+} \to (0,1]$ , "
         r"$\lim_{t \to \infty} w(t) = 0$ , such that for any $\epsilon > 0$ , there exists a "
         r"$\delta > 0$ such that for any $\mathbf{x}, \mathbf{x}' \in \mathcal{X}$ , $$ \left| H _ "
         r"{t} (\mathbf {x}) - H _ {t} \left(\mathbf {x} ^ {\prime}\right) \right| <   \epsilon "
         r"\text { whenever } \sup _ {s \in (- \infty , t ]} \left| \mathbf {x} _ {s} - \mathbf {x} "
         r"_ {s} ^ {\prime} \right| w (t - s) <   \delta . \tag {25} $$ Remark A.5. In terms of the "
         r"relations between fading memory and decaying memory, they are independent. On one hand, "
         r"there exists a so-called peak-hold operator (Boyd et al., 1984) with a decaying memory "
         r"(but not fading memory). On the other hand, it is possible for a linear functional to "
         r"only have the fading memory (but no decaying memory), where it needs only the "
         r"requirement $\int_{0}^{\infty}\frac{|\rho(s)|_{2}}{|w(s)|}ds<\infty$ , which does not "
         r"imply $\lim_{s\to\infty}|\rho(s)|_{2}=0$ .")
WHERE = "App. A.7, Remark A.5, eq. (25) (ICLR camera-ready)"
QUOTE_CLASS = (r"6. (Regular) $H_{t}$ is regular if for any sequence $\{\mathbf{x}^{(n)} : n \in "
               r"\mathbb{N}\}$ such that $x_{s}^{(n)} \to 0$ for almost every $s \in \mathbb{R}$ , "
               r"then $\lim_{n \to \infty} H_{t}(\mathbf{x}^{(n)}) = 0$ . … Definition 3.2 (Decaying "
               r"memory). For continuous, causal, regular and time-homogeneous functional sequences "
               r"$\mathbf{H} = \{H_t(\mathbf{x}) : t \in \mathbb{R}\}$ on $\mathcal{X}$ , we say it "
               r"has a decaying memory if:")
READING_CLASS = ("Def. 3.2 defines decaying memory for continuous, causal, regular and "
                 "time-homogeneous functionals: 'a peak-hold operator with a decaying memory' read as "
                 "one in that class")

# Late times of the memory query (past the kinks at 0 and 1 and, for the window T = 64 of the
# control, at T: the same times for the statement and its controls, so that their residuals
# compare like with like), the step of the symmetric difference, and the Heaviside levels x tried
# (mm.MAGNITUDES, both signs).
TIMES = [Fraction(k) + Fraction(1, 2) for k in (80, 128, 256)]
STEP = Fraction(1, 8)
# The query grid of the black-box memory query (numpy float64): CallableFunctional's Δt.
QUERY_DT = 1 / 32
# Radii δ_k = 2^−k of the hat pairs, k = 1 … KMAX; the hat sits at lag L_k = 2^(k+1), so that
# w(L_k) = 1/(1 + 2^(k+1)) < δ_k/2 for w(s) = 1/(1 + s).
KMAX = 10
# Hat centres where the linear functional's memory is queried, and h = r_n/2^10 there.
CENTRES = (1, 2, 4, 8, 16, 32, 64)
H_SHIFT = 10
# 4-point Gauss–Legendre on [−1, 1]: nodes ±√(3/7 ∓ (2/7)√(6/5)), weights (18 ± √30)/36.


# ---- arithmetics -------------------------------------------------------------------------------

class Arith:
    """The scalar operations of one arithmetic (numpy/torch in their dtype, mpmath, flint)."""

    num: Callable[[Fraction], Any]
    sqrt: Callable[[Any], Any]
    zeta: Callable[[int], Any]
    abs: Callable[[Any], Any]

    def __init__(self, backend: AbstractBackend) -> None:
        kind = backend.spec.kind
        self.kind, self.name = kind, backend.name
        self.bits = backend.precision_bits
        self.u = float(backend.unit_roundoff)
        if kind == "numpy":
            import numpy as np
            from scipy.special import zeta

            dt = np.float32 if backend.spec.dtype == "float32" else np.float64
            self.num = lambda q: dt(q.numerator) / dt(q.denominator)
            self.sqrt = np.sqrt
            self.zeta = lambda s: dt(zeta(float(s)))  # float64 ζ, rounded to the dtype
            self.abs = abs
        elif kind == "torch":
            import torch

            dev = mm.torch_device(backend)
            tdt = torch.float32 if backend.spec.dtype == "float32" else torch.float64

            def tnum(q: Fraction) -> Any:
                return (torch.tensor(q.numerator, dtype=tdt, device=dev)
                        / torch.tensor(q.denominator, dtype=tdt, device=dev))

            self.num = tnum
            self.sqrt = torch.sqrt
            self.zeta = lambda s: torch.special.zeta(tnum(Fraction(s)), tnum(Fraction(1)))
            self.abs = torch.abs
        elif kind == "mpmath":
            ctx = mm.mp_context(self.bits)
            self.num = lambda q: ctx.mpf(q.numerator) / q.denominator
            self.sqrt, self.zeta, self.abs = ctx.sqrt, ctx.zeta, abs
        elif kind == "flint":
            import flint

            self._flint = flint
            self.num = lambda q: flint.arb(q.numerator) / q.denominator
            self.sqrt = lambda v: v.sqrt()
            self.zeta = lambda s: flint.arb(s).zeta()
            self.abs = abs
        else:
            raise BackendUnavailable(f"{backend.name}: no arithmetic for these checks")
        convert, cache = self.num, {}

        def cached(q: Fraction) -> Any:  # the same exact values recur across samples
            if q not in cache:
                cache[q] = convert(q)
            return cache[q]

        self.num = cached

    def peak(self, values: list[Any]) -> Any:
        """The maximum of ``values`` (a running maximum's value), in this arithmetic."""
        if self.kind == "torch":
            import torch

            return torch.stack(values).max()
        if self.kind == "flint":  # balls of exact samples: compare their certain order
            best = values[0]
            for v in values[1:]:
                best = v if bool(v > best) else best
            return best
        return max(values)

    def clip01(self, v: Any) -> Any:
        """min(max(v, 0), 1) in this arithmetic."""
        if self.kind == "torch":
            import torch

            return torch.clamp(v, 0.0, 1.0)
        zero, one = self.num(Fraction(0)), self.num(Fraction(1))
        return zero if bool(v < zero) else one if bool(v > one) else v

    def real(self, v: Any) -> float:
        """A float for reports (the midpoint of a ball)."""
        if self.kind == "flint":
            return float(v.mid())
        return float(v)

    def gauss4(self) -> list[tuple[Any, Any]]:
        """(node, weight) of 4-point Gauss–Legendre on [−1, 1], in this arithmetic (computed
        once per Arith, inside the caller's working precision)."""
        if getattr(self, "_gauss", None) is None:
            self._gauss = self._gauss4()
        return self._gauss

    def _gauss4(self) -> list[tuple[Any, Any]]:
        n = self.num
        root = self.sqrt(n(Fraction(6, 5)))
        s30 = self.sqrt(n(Fraction(30)))
        inner = self.sqrt(n(Fraction(3, 7)) - n(Fraction(2, 7)) * root)
        outer = self.sqrt(n(Fraction(3, 7)) + n(Fraction(2, 7)) * root)
        w_in = (n(Fraction(18)) + s30) / n(Fraction(36))
        w_out = (n(Fraction(18)) - s30) / n(Fraction(36))
        return [(-outer, w_out), (-inner, w_in), (inner, w_in), (outer, w_out)]


def _run(backend: AbstractBackend, what: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` in ``backend``, inside flint's working precision where it is flint."""
    if backend.spec.kind == "flint":
        import flint

        with flint.ctx.workprec(backend.precision_bits):
            return compute()
    return compute()


# ---- the hat-train linear functional ------------------------------------------------------------

def _hat_integral(ar: Arith, law: FadingNotDecaying, n: int, half: Any, power: int) -> Any:
    """∫ ρ(s)(1 + s)^power ds over [n − half, n + half] (half ≤ r_n), by 4-point Gauss–Legendre on
    each side of the centre, with ρ evaluated as the hat n^q(1 − |s − n|/r_n) in the local
    coordinate σ = s − n (so that rounding is relative to the hat, not to n)."""
    r = ar.num(law.half_width(n))
    height = ar.num(Fraction(law.height(n)))
    one = ar.num(Fraction(1))
    base = ar.num(Fraction(1 + n))
    acc = None
    for sign in (-1, 1):
        for node, weight in ar.gauss4():
            sigma = half * (node + one) / ar.num(Fraction(2)) * sign  # on [0, ±half]
            rho = height * (one - ar.abs(sigma) / r)
            term = weight * rho * (base + sigma) ** power
            acc = term if acc is None else acc + term
    return acc * half / ar.num(Fraction(2))


def _extremal(ar: Arith, law: FadingNotDecaying, spikes: int) -> Any:
    """H_t(Δ*)/δ for the extremal difference Δ*_(t−s) = δ(1 + s)^a on the lags of the first
    ``spikes`` hats (cut off continuously after them; weighted distance δ): Σ_(n ≤ N) ∫ρ(s)(1+s)^a."""
    acc = None
    for n in range(1, spikes + 1):
        v = _hat_integral(ar, law, n, ar.num(law.half_width(n)), law.a)
        acc = v if acc is None else acc + v
    return acc


def _centre_memory(ar: Arith, law: FadingNotDecaying, n: int) -> Any:
    """|H_(n+h)(u^1) − H_(n−h)(u^1)|/(2h), h = r_n/2^10: the memory function (5) at the centre
    by a symmetric difference (for d = 1 the ratio does not depend on x; the difference of the
    Heaviside responses is ∫_(n−h)^(n+h) ρ)."""
    h = ar.num(law.half_width(n) / 2**H_SHIFT)
    return ar.abs(_hat_integral(ar, law, n, h, 0)) / (ar.num(Fraction(2)) * h)


def _linear_numbers(backend: AbstractBackend, q: int, p: int, a: int, spikes: int
                    ) -> tuple[Any, list[Any]]:
    """The definition side (shared by a statement and its controls: it reads only the family)."""
    ar = Arith(backend)
    law = FadingNotDecaying(q=q, p=p, a=a)
    return _run(backend, "linear", lambda: (_extremal(ar, law, spikes),
                                            [_centre_memory(ar, law, n) for n in CENTRES
                                             if n <= spikes]))


def linear_numeric(backend: AbstractBackend, ctx: Context, law: FadingNotDecaying | None = None
                   ) -> list[Evidence]:
    """The hat-train functional run on its extremal inputs and on Heaviside inputs in ``backend``,
    against the statement's modulus δ(ε) = c·ε/K (K from its ζ closed form in this arithmetic)
    and its memory claim."""
    law = law or ctx.law(FadingNotDecaying)
    if backend.spec.kind == "sympy":
        raise BackendUnavailable("sympy: the symbolic side")
    ar = Arith(backend)
    spikes = int(ctx["spikes"])
    t0 = time.perf_counter()
    total, memories = mm.memo(("remark-a5 hats", backend.name, law.q, law.p, law.a, spikes),
                              lambda: _linear_numbers(backend, law.q, law.p, law.a, spikes))
    ev: list[Evidence] = []
    if not law.converges(law.condition_power):
        raise BackendUnavailable(f"{backend.name}: K = ∞ (the statement's hypothesis fails)")
    eps = EPS

    def modulus() -> tuple[Any, Any]:
        k_const = law.constant(ar.zeta, ar.num)
        delta = ar.num(law.c * eps) / k_const
        return delta * total - ar.num(eps), delta * total

    excess, value = _run(backend, "modulus", modulus)
    # rounding: ~8(a + 4) operations per node, 8 nodes per hat, N hats, all terms positive
    # (relative error ≤ n·u with n = 16·N·(a + 4) + 64, the 64 covering K's ζ terms and δ)
    n_ops = 16 * spikes * (law.a + 4) + 64
    label = "hat train: |H_t(x) − H_t(x')| on the extremal pair at weighted distance δ(ε), ε = 1"
    if ar.kind == "flint":
        certain_below = bool(excess < 0)
        certain_above = bool(excess > 0)
        outcome = (Outcome.PASS if certain_below else Outcome.REFUTE if certain_above
                   else Outcome.INCONCLUSIVE)
        resid = max(0.0, ar.real(excess))
        ev.append(Evidence(
            check=label, kind="numeric", backend=backend.name, outcome=outcome,
            precision_bits=ar.bits, residual=f"{resid:.6g}", tolerance=f"{float(excess.rad()):.3g}",
            tolerance_source="ball arithmetic (python-flint): the enclosure of |ΔH| − ε",
            enclosure=str(excess),
            certified_by="ball arithmetic (python-flint)" if certain_above else None,
            counterexample=({"family": f"q = {law.q}, p = {law.p}, a = {law.a}",
                             "hats": spikes, "|ΔH| − ε": str(excess)} if certain_above else None),
            message=("(25) fails for δ(ε) = c·ε/K: the extremal pair moves H by more than ε"
                     if certain_above else ""),
            seconds=time.perf_counter() - t0, data={"|ΔH|": str(value)}))
    else:
        resid = max(0.0, ar.real(excess))
        tol = n_ops * ar.u * max(ar.real(value), 1.0)
        src = (f"n·u·max(|ΔH|, ε), n = 16·N·(a + 4) + 64 = {n_ops} (positive sums of 4-point "
               "Gauss–Legendre terms); residual max(0, |ΔH| − ε)")
        if n_ops * ar.u >= RESOLVE_LIMIT:  # the relative bound leaves no correct bit
            ev.append(Evidence(check=label, kind="numeric", backend=backend.name,
                               outcome=Outcome.INCONCLUSIVE, precision_bits=ar.bits,
                               residual=f"{resid:.6g}", tolerance=f"{tol:.3g}",
                               tolerance_source=src + " (n·u ≥ 1/2: not resolvable)",
                               message=f"{ar.bits} bits cannot resolve |ΔH| against ε",
                               seconds=time.perf_counter() - t0))
        else:
            ev.append(mm.judged(label, backend, resid, tol, src, t0, bits=ar.bits,
                                data={"|ΔH| (extremal, N hats)": ar.real(value)},
                                message="" if resid <= tol else "(25) fails for δ(ε) = c·ε/K: "
                                "the extremal pair moves H by more than ε"))
    # the memory at the centres: the Heaviside response's slope there
    t1 = time.perf_counter()
    centres = [n for n in CENTRES if n <= spikes]
    # the symmetric difference of the hat: relative truncation h/(2r) = 2^−11 (Lipschitz constant
    # n^q/r_n, exact for a hat), plus rounding of ~40 operations
    trunc = 2.0 ** -(H_SHIFT + 1)
    label_m = "hat train: memory function (5) at the hat centres (symmetric difference)"
    if law.decaying:
        late = [ar.real(m) for n, m in zip(centres, memories, strict=True) if n >= 8]
        resid_m = min(late)  # the statement says M → 0
        tol_m = trunc * max(late) + 64 * ar.u * max(late)
        src = "the memory at the centres n ≥ 8 (the statement says it tends to 0)"
    else:
        devs = [abs(ar.real(m) - law.height(n)) / law.height(n)
                for n, m in zip(centres, memories, strict=True)]
        resid_m = max(devs)
        tol_m = trunc + 64 * ar.u
        src = "|M(n) − n^q|/n^q (eq. (4): M(H)(n) = |ρ(n)|): truncation h/(2r_n) = 2^−11 + 64u"
    ev.append(mm.judged(label_m, backend, resid_m, tol_m, src, t1, bits=ar.bits,
                        data={"n": centres, "M(H)(n)": [ar.real(m) for m in memories]},
                        message="" if resid_m <= tol_m else
                        ("the memory stays ≥ 1 at every centre" if law.decaying
                         else "the memory at the centres is not n^q")))
    return ev


# ---- the peak-hold operator ---------------------------------------------------------------------

def _peak_query_numpy(law: PeakHold, times: list[Fraction]
                      ) -> tuple[list[float], list[float], float]:
    """recmem's black-box memory query (numerics.memory.memory_function) of the (gated) peak-hold
    operator given as a CallableFunctional (a running maximum on the Δt grid; the gate a running
    sum of min(|x|, 1)·Δt over the last unit of time)."""
    import numpy as np

    from recmem.numerics.functionals import CallableFunctional
    from recmem.numerics.memory import memory_function

    # the window in grid steps (the grid starts at t = 0, before which the input is 0)
    span = None if law.window is None else round(float(law.window) / QUERY_DT)
    unit = round(1 / QUERY_DT)

    def peak(t: np.ndarray, x: np.ndarray) -> np.ndarray:
        v = np.asarray(x, dtype=float)[:, 0]
        if span is None:  # the sup over (−∞, t] includes the input's 0 before the grid
            top = np.maximum.accumulate(np.maximum(v, 0.0))
        else:
            padded = np.concatenate([np.zeros(span), v])  # 0 before the grid's start
            top = np.lib.stride_tricks.sliding_window_view(padded, span + 1).max(axis=1)
        if not law.gated:
            return top
        sums = np.cumsum(np.concatenate([np.zeros(unit), np.minimum(np.abs(v), 1.0)]))
        gate = (sums[unit:] - sums[:-unit]) * QUERY_DT  # right-endpoint sum over (t − 1, t]
        return gate * np.clip(top, 0.0, 1.0)

    f = CallableFunctional(peak, "peak-hold", dt=QUERY_DT)
    curve = memory_function(f, np.array([float(t) for t in times]), magnitudes=mm.MAGNITUDES,
                            accuracy=True)
    from scipy.signal import savgol_coeffs

    from recmem.numerics.functionals import SAVGOL_WINDOW

    gain = float(np.abs(savgol_coeffs(SAVGOL_WINDOW, SAVGOL_WINDOW - 1, deriv=1,
                                      delta=QUERY_DT)).sum())
    acc = curve.accuracy if curve.accuracy is not None else np.zeros(len(times))
    return [float(v) for v in curve.values], [float(v) for v in acc], gain


def _apply(ar: Arith, law: PeakHold, samples: list[tuple[Fraction, Fraction]]) -> Any:
    """H_0 of a piecewise-linear input given by its breakpoints (lag, value), in ``ar``: the sup
    over the window's samples (and the 0 outside the support); gated, times the trapezoid sum of
    min(|x|, 1) over the breakpoints in the lags [0, 1] (exact for these inputs)."""
    inside = [ar.num(v) for s, v in samples if law.window is None or s <= law.window]
    top = ar.peak([ar.num(Fraction(0)), *inside])
    if not law.gated:
        return top
    pts = sorted((s, v) for s, v in samples if 0 <= s <= 1)
    gate = ar.num(Fraction(0))
    for (s0, v0), (s1, v1) in itertools.pairwise(pts):
        gate = gate + ar.num((s1 - s0) / 2) * (ar.clip01(ar.abs(ar.num(v0)))
                                                + ar.clip01(ar.abs(ar.num(v1))))
    return gate * ar.clip01(top)


def _peak_direct(ar: Arith, law: PeakHold, times: list[Fraction]) -> list[float]:
    """max over x of |H_(t+h)(u^x) − H_(t−h)(u^x)|/(2h|x|), h = 1/8, with H the maximum of the
    Heaviside input over the window (gated: times the trapezoid sum of min(|x|, 1) over the last
    unit), the input sampled every 1/8 around s = 0, around each t ± h and each window edge
    (it is constant between its samples' pieces), in ``ar``."""
    h = STEP
    levels = [Fraction(m) * sgn for m in mm.MAGNITUDES for sgn in (1, -1)]
    # per time t ± h: the samples (lag c − s, whether s ≥ 0) of the input in the window
    patterns = []
    for t in times:
        for c in (t + h, t - h):
            marks = {c - Fraction(j, 8) for j in range(9)} | {Fraction(j, 8) for j in range(-8, 9)}
            if law.window is not None:
                marks |= {c - law.window + Fraction(j, 8) for j in range(-1, 2)}
            lo = Fraction(-1) if law.window is None else c - law.window
            patterns.append([(c - s, s >= 0) for s in sorted(marks) if lo <= s <= c])
    out = [0.0] * len(times)
    zero = Fraction(0)
    for level in levels:
        values = [_apply(ar, law, [(lag, level if on else zero) for lag, on in pattern])
                  for pattern in patterns]
        for k in range(len(times)):
            d = ar.abs(values[2 * k] - values[2 * k + 1]) / (ar.num(2 * h) * ar.num(abs(level)))
            out[k] = max(out[k], ar.real(d))
    return out


def _hat(lag: Fraction, half: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The breakpoints of a hat of height 1 (the sup of a piecewise-linear input is at one)."""
    return [(lag - half, Fraction(0)), (lag, Fraction(1)), (lag + half, Fraction(0))]


# x = 1/2 on the lags [0, 1], down to 0 at lag 3/2: the gated witness's x (the plain one's is 0)
PLATEAU = [(Fraction(0), Fraction(1, 2)), (Fraction(1), Fraction(1, 2)), (Fraction(3, 2), Fraction(0))]


def _hat_pairs(ar: Arith, law: PeakHold) -> list[tuple[float, float, float]]:
    """(δ_k, w(L_k), |H_0(x') − H_0(x)|) for x' = x + hat of height 1 on the lags [L_k, L_k + 1],
    L_k = 2^(k+1), w(s) = 1/(1 + s), x = 0 (gated: the plateau 1/2 on the lags [0, 1])."""
    base = PLATEAU if law.gated else []
    h0 = _apply(ar, law, base)
    out = []
    for k in range(1, KMAX + 1):
        lag = Fraction(2 ** (k + 1))
        moved = _apply(ar, law, [*base, *_hat(lag + Fraction(1, 2), Fraction(1, 2))])
        weight = ar.num(Fraction(1)) / (ar.num(Fraction(1)) + ar.num(lag))
        out.append((float(2.0**-k), ar.real(weight), ar.real(ar.abs(moved - h0))))
    return out


def _spikes(ar: Arith, law: PeakHold) -> list[float]:
    """H_0(x^(k)) for the hats x^(k) of height 1 and half-width 2^(−k−2) at the lag 1/2 (→ 0
    almost everywhere), k = 1 … KMAX."""
    return [ar.real(_apply(ar, law, _hat(Fraction(1, 2), Fraction(1, 2 ** (k + 2)))))
            for k in range(1, KMAX + 1)]


def peak_numeric(backend: AbstractBackend, ctx: Context, law: PeakHold | None = None
                 ) -> list[Evidence]:
    """The peak-hold operator run in ``backend`` on Heaviside inputs (its memory function at late
    times) and on hat pairs at weighted distance < 2^−k (the output difference)."""
    law = law or ctx.law(PeakHold)
    if backend.spec.kind == "sympy":
        raise BackendUnavailable("sympy: the symbolic side")
    ar = Arith(backend)
    ev: list[Evidence] = []
    t0 = time.perf_counter()
    times = law.late_times(TIMES)
    query = backend.spec.kind == "numpy" and backend.spec.dtype == "float64"
    if query:
        raw, acc, gain = mm.memo(("remark-a5 peak query", law.window, law.gated, tuple(times)),
                                 lambda: _peak_query_numpy(law, times))
        # the query's value beyond its own a-posteriori accuracy (the degree-6 vs degree-4
        # derivatives plus the Savitzky–Golay rounding Σ|c_i|·u·|y|): noise is no memory
        values = [max(0.0, v - e) for v, e in zip(raw, acc, strict=True)]
        tol = 4 * gain * ar.u
        how = ("recmem's memory query (numerics.memory.memory_function, accuracy=True) of a "
               f"CallableFunctional, Δt = {QUERY_DT}; M(t) beyond the query's accuracy; tolerance "
               "4·Σ|c_i|·u, c the Savitzky–Golay weights")
    else:
        values = mm.memo(("remark-a5 peak direct", backend.name, law.window, law.gated,
                          tuple(times)),
                         lambda: _peak_direct(ar, law, times))
        tol = 2 * ar.u / float(STEP)
        how = "running maximum of the sampled Heaviside input, symmetric difference h = 1/8; u/h"
    late = max(values)
    label = "peak-hold: memory function (5) at late times (Heaviside inputs)"
    if law.decaying:
        ev.append(mm.judged(label, backend, late, tol, how + "; residual max_t M(t)", t0,
                            bits=ar.bits, data={"t": [str(t) for t in times], "M(t)": values}))
    else:
        stays = late > tol
        ev.append(Evidence(check=label, kind="numeric", backend=backend.name,
                           outcome=Outcome.PASS if stays else Outcome.FAIL, precision_bits=ar.bits,
                           tolerance_source=how, seconds=time.perf_counter() - t0,
                           message="" if stays else
                           f"M(t) ≤ {late:.3g} at every late t: the memory decays",
                           data={"t": [str(t) for t in times], "M(t)": values}))
    t1 = time.perf_counter()
    pairs = mm.memo(("remark-a5 peak pairs", backend.name, law.window, law.gated),
                    lambda: _hat_pairs(ar, law))
    admissible = all(w < d for d, w, _ in pairs)
    label_p = ("peak-hold: |H_0(x') − H_0(x)| for x' = x + a hat of height 1 at weighted "
               "distance < 2^−k")
    data = {"δ": [d for d, _, _ in pairs], "w(L)": [w for _, w, _ in pairs],
            "|ΔH|": [v for _, _, v in pairs]}
    if not admissible:
        from recmem.checks.verdict import harness

        return [*ev, harness(label_p, backend.name, False, "a hat pair is not within δ")]
    eps = float(law.eps)
    if law.fading:  # the statement says: for this ε some δ keeps |ΔH| < ε
        smallest = pairs[-1][2]
        ok = smallest < eps
        ev.append(Evidence(check=label_p, kind="numeric", backend=backend.name,
                           outcome=Outcome.PASS if ok else Outcome.FAIL, precision_bits=ar.bits,
                           seconds=time.perf_counter() - t1, data=data,
                           message="" if ok else
                           f"|ΔH| = {smallest:g} ≥ ε = {law.eps} even at δ = 2^−{KMAX}"))
    else:  # the statement says: this ε has no δ
        resid = max(max(0.0, eps - v) for _, _, v in pairs)
        ev.append(mm.judged(label_p, backend, resid, 4 * ar.u,
                            f"exact samples; residual max_k max(0, ε − |ΔH|), ε = {law.eps}, "
                            "tolerance 4u", t1,
                            bits=ar.bits, data=data,
                            message="" if resid <= 4 * ar.u else
                            "a hat pair within δ leaves H (nearly) unchanged"))
    if law.in_class:  # the statement says H is regular: H_0(x^(k)) → 0 as x^(k) → 0 a.e.
        t2 = time.perf_counter()
        spikes = mm.memo(("remark-a5 peak spikes", backend.name, law.window, law.gated),
                         lambda: _spikes(ar, law))
        bound = 2.0 ** -(KMAX + 2)  # the gate's bound: the last hat's area
        resid = max(0.0, spikes[-1] - bound)
        ev.append(mm.judged("peak-hold: H_0 of hats of half-width 2^−k−2 at lag 1/2 (→ 0 a.e.)",
                            backend, resid, 4 * ar.u, "exact samples; residual: H_0 of the last "
                            f"hat minus its area 2^−{KMAX + 2}, tolerance 4u", t2, bits=ar.bits,
                            data={"H_0(x^(k))": spikes},
                            message="" if resid <= 4 * ar.u else
                            "H_0 stays at 1 along inputs that tend to 0 almost everywhere: not "
                            "regular"))
    return ev


# ---- exact search ---------------------------------------------------------------------------------

def peak_strategy(ctx: Context) -> Any:
    """Instances {a, δ, x, t}: weight powers a > 0 (w(s) = (1 + s)^(−a)), radii δ ∈ (0, 1] down to
    2^−12, Heaviside levels x ≠ 0 of both signs, times t ∈ (0, 8]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    return st.fixed_dictionaries({
        "a": st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(2), Fraction(3, 2), Fraction(3)]),
        "delta": st.sampled_from([Fraction(1, 2**k) for k in range(13)]
                                 + [Fraction(3, 4), Fraction(1, 3), Fraction(1, 100)]),
        "x": fractions_in(-4, 4).filter(lambda v: v != 0),
        "t": fractions_in(Fraction(1, 8), 8)})


def peak_holds(inst: dict[str, Any], ctx: Context, law: PeakHold | None = None) -> Instance:
    """Exact judge (theory.fading_memory.peak_decide)."""
    law = law or ctx.law(PeakHold)
    ok, values = peak_decide(law, inst["a"], inst["delta"], inst["x"], inst["t"])
    return Instance(ok, "exact rational arithmetic (Heaviside response, hat at the least lag with "
                    "w(L) < δ, integer comparisons)", values,
                    "" if ok else "the statement's decaying, fading or regularity part disagrees "
                    "with the operator")


def linear_strategy(ctx: Context) -> Any:
    """Hat trains {q, p, a}: heights n^q (q ≤ 2), half-widths n^(−p)/2 with p ≥ q + 2 (ρ ∈ L¹),
    weights (1 + s)^(−a), a ≤ 3 — including families where ∫|ρ|/w = ∞ (p ≤ q + a + 1: outside
    the printed hypothesis) and the slowest convergent ones (p = q + a + 2)."""
    from hypothesis import strategies as st

    return st.tuples(st.integers(0, 2), st.integers(1, 3), st.integers(0, 3)).map(
        lambda v: {"q": v[0], "a": v[1], "p": v[0] + 2 + v[2]})


def linear_holds(inst: dict[str, Any], ctx: Context, law: FadingNotDecaying | None = None
                 ) -> Instance:
    """Exact judge (theory.fading_memory.linear_decide) of the statement on the drawn family."""
    law = (law or ctx.law(FadingNotDecaying)).family(inst["q"], inst["p"], inst["a"])
    ok, values = linear_decide(law)
    return Instance(ok, "exact rational arithmetic (hat masses, dyadic brackets of the ζ sums, "
                    "ρ(n) = n^q)", values,
                    "" if ok is not False else "the modulus or the memory claim fails")


# ---- sides per claim --------------------------------------------------------------------------------

def peak_symbolic(ctx: Context) -> list[Evidence]:
    """theory.fading_memory.peak_proof."""
    t0 = time.perf_counter()
    return [from_proof(peak_proof(ctx.law(PeakHold)), time.perf_counter() - t0)]


def linear_symbolic(ctx: Context) -> list[Evidence]:
    """theory.fading_memory.linear_proof."""
    t0 = time.perf_counter()
    return [from_proof(linear_proof(ctx.law(FadingNotDecaying)), time.perf_counter() - t0)]


def remark_symbolic(ctx: Context) -> list[Evidence]:
    """theory.fading_memory.remark_proof (both parts)."""
    t0 = time.perf_counter()
    return [from_proof(remark_proof(ctx.law(RemarkA5)), time.perf_counter() - t0)]


def remark_numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Both parts' numeric checks."""
    law = ctx.law(RemarkA5)
    return peak_numeric(backend, ctx, law.peak) + linear_numeric(backend, ctx, law.linear)


def remark_strategy(ctx: Context) -> Any:
    """Either part's instances, tagged."""
    from hypothesis import strategies as st

    return st.one_of(peak_strategy(ctx).map(lambda i: ("peak-hold", i)),
                     linear_strategy(ctx).map(lambda i: ("linear", i)))


def remark_holds(inst: tuple[str, dict[str, Any]], ctx: Context) -> Instance:
    """The tagged part's exact judge."""
    law = ctx.law(RemarkA5)
    part, values = inst
    if part == "peak-hold":
        return peak_holds(values, ctx, law.peak)
    return linear_holds(values, ctx, law.linear)


def _params() -> tuple[Param, ...]:
    return (Param("spikes", 64, "hats N of the hat train in the extremal input", int,
                  check=at_least(8), max=4096, cost=grows(64 * 1024)),)


TOL = ("exact (SymPy; rational judges); flint: ball enclosure of |ΔH| − ε; floats and mpmath: "
       "n·u·max(|ΔH|, ε) for the quadrature sums, 2^−11 + 64u for the centre memory "
       "(truncation of the symmetric difference), Σ|c_i|·u (Savitzky–Golay) or u/h for the "
       "peak-hold memory, 4u for the hat pairs")
NOTES = ("The paper's (25) has δ independent of x, x' (uniform continuity in the weighted sup "
         "norm; Boyd & Chua's fading memory lets δ depend on x). For the linear functional the sup "
         "of |H_t(x) − H_t(x')| over the open δ-ball is exactly δ·∫|ρ|/w (Hölder, attained in the "
         "limit by x − x' = δ/w on the lags of the first N hats), so the printed sufficient "
         "condition is also necessary for this w, and δ(ε) = ε/∫|ρ|/w is sharp. The peak-hold "
         "operator is not regular in the sense of Def. 2.1(6) (hats of height 1 escaping to "
         "s → −∞ tend to 0 pointwise while H_0 stays 1), so it lies outside the class on which "
         "Defs. 3.1–3.2 are stated; its memory function (5) is still defined and ≡ 0 for t > 0, "
         "which is the reading checked. ρ is continuous, so M(H)(t) = |ρ(t)| (eq. (4)).")


CLAIMS = [
    Claim(
        id="W.remark-a5",
        summary="fading (25) and decaying (6) memory are independent: the peak-hold operator "
                "and a hat-train linear functional with ∫|ρ|/w < ∞, ρ(n) = n",
        title="Fading and decaying memory are independent (Remark A.5)",
        statement=RemarkA5(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=("W.memory-def", "W.memory-linear"),
        params=_params(),
        symbolic=remark_symbolic,
        numeric=mm.small_torch(remark_numeric),
        strategy=remark_strategy,
        holds=remark_holds,
        notes=NOTES,
    ),
    Claim(
        id="W.remark-a5.peak-hold",
        summary="the peak-hold operator has M(H)(t) = 0 for t > 0 (decaying) and no fading "
                "memory (a hat at a far lag moves it by 1)",
        title="The peak-hold operator: decaying memory, no fading memory",
        statement=PeakHold(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=("W.memory-def",),
        symbolic=peak_symbolic,
        numeric=mm.small_torch(peak_numeric),
        strategy=peak_strategy,
        holds=peak_holds,
        notes=NOTES,
    ),
    Claim(
        id="W.remark-a5.peak-hold.in-class",
        summary="read with Def. 3.2's hypotheses, the peak-hold operator is not regular (Def. "
                "2.1(6)): hats shrinking at a fixed lag tend to 0 a.e. while H_0 = 1",
        title="The peak-hold operator is in the class of Defs. 3.1–3.2 (regular)",
        statement=PeakHold(in_class=True),
        provenance=Provenance("W", WHERE + "; Def. 2.1(6); Def. 3.2", QUOTE + " … " + QUOTE_CLASS),
        tolerance=TOL,
        uses=("W.remark-a5.peak-hold",),
        symbolic=peak_symbolic,
        numeric=mm.small_torch(peak_numeric),
        strategy=peak_strategy,
        holds=peak_holds,
        reading=READING_CLASS,
        notes=NOTES,
    ),
    Claim(
        id="W.remark-a5.peak-hold.in-class.corrected",
        summary="a gated peak-hold g_t(x)·clip(sup x), g_t = ∫₀¹ min(|x|, 1), is regular, has "
                "decaying memory and no fading memory (ε = 1/4)",
        title="A regular operator with decaying and no fading memory (gated peak-hold)",
        statement=PeakHold(in_class=True, gated=True),
        provenance=Provenance("W", WHERE + "; Def. 2.1(6); Def. 3.2", QUOTE + " … " + QUOTE_CLASS),
        tolerance=TOL,
        uses=("W.remark-a5.peak-hold",),
        symbolic=peak_symbolic,
        numeric=mm.small_torch(peak_numeric),
        strategy=peak_strategy,
        holds=peak_holds,
        corrects="W.remark-a5.peak-hold.in-class",
        reading=READING_CLASS,
        notes="The gate g_t(x) = ∫₀¹ min(|x_(t−s)|, 1) ds bounds |H_t| and tends to 0 under "
              "pointwise a.e. convergence (dominated convergence), so H is regular; on Heaviside "
              "inputs H_t(u^x) = min(|x|, 1)·min(t, 1)·min(max(x, 0), 1), constant for t ≥ 1 "
              "(M(H)(t) = 0 there, ≤ 1 before); the plateau 1/2 on the last unit of time plus a hat "
              "of height 1 at any lag moves H by 1/4 at any weighted distance: no fading memory. "
              "So Remark A.5's independence holds inside the class of Defs. 3.1–3.2.",
    ),
    Claim(
        id="W.remark-a5.fading-not-decaying",
        summary="∫|ρ|/w < ∞ gives (25) with the sharp δ = ε/∫|ρ|/w, while ρ(n) = n: fading, "
                "not decaying",
        title="A linear functional with fading memory and no decaying memory",
        statement=FadingNotDecaying(),
        provenance=Provenance("W", WHERE, QUOTE),
        tolerance=TOL,
        uses=("W.memory-linear",),
        params=_params(),
        symbolic=linear_symbolic,
        numeric=mm.small_torch(linear_numeric),
        strategy=linear_strategy,
        holds=linear_holds,
        notes=NOTES,
    ),
]
