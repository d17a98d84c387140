"""W.well-defined: App. A.1 of paper W (ICLR 2024 camera-ready) — "Heaviside inputs are point-wise
limit of smooth inputs … Therefore the outputs of continuous targets functionals are well-defined:
H_t(u^x) = lim_k H_t(u^x_{k,cont})" (theory.well_defined).

``W.well-defined`` (as printed, for the paper's continuous functionals) is refuted by the
peak-and-window functional on continuous approximants with a bump: H_t(u_k) = 2x², H_t(u^x) = x².
``W.well-defined.rnn`` is the correction for the RNNs (1) with Lipschitz σ, with Grönwall's rate.

Numeric sides: ``continuous`` — the witness functional evaluated in every arithmetic on the exactly
sampled inputs (sup over a grid containing the bump's peak, Simpson's rule on the window, where the
input is constant); ``rnn`` — both responses integrated (DOP853 in numpy for a linear and a tanh RNN,
Taylor series in mpmath for the linear one) and G_k(t) by quadrature, |Δŷ| against scale·G.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from recmem.checks.claim import Claim, Context, Provenance
from recmem.checks.claims.paper_w import _memory as mm
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.theory.well_defined import (
    HeavisideLimit,
    approximant,
    breakpoints,
    heaviside,
    piece,
    uses_window,
    well_defined_proof,
    witness_value,
)

QUOTE = (r"Here we discuss the well-definedness of continuous-time nonlinear RNNs. The $-\infty$ boundary "
         r"condition is chosen to make the time-homogeneity well-defined, representing a more general "
         r"scenario than the boundary at 0. Regarding issues on the input continuity, Heaviside inputs are "
         r"point-wise limit of smooth inputs $u^{x} = \lim_{k \to \infty} u_{k,cont}^{x}$ . Therefore the "
         r"outputs of continuous targets functionals are well-defined: $H_{t}(u^{x}) = H_{t}(\lim_{k \to "
         r"\infty} u_{k,cont}^{x}) = \lim_{k \to \infty} H_{t}(u_{k,cont}^{x})$ .")

# The witness's evaluation: x = 1 at t = 2 for k = 4, 16, 64 (all past the bump: t ≥ 1 + 2/k).
X, T_WITNESS, KS = Fraction(1), Fraction(2), (4, 16, 64)
GRID = 64  # uniform grid points on [−1/k, t] added to the breakpoints for the sup
SIMPSON = 8  # Simpson panels on the window [t − 1, t]
# The RNN checks: k = 4, x = 1 at these times; (name, σ, w) with u = c = 1 (L = 1, ‖W‖₂ = |w|).
K_RNN, T_RNN = 4, (0.5, 1.0, 2.0)
RNNS = (("h' = h/2 + x (sharp: w > 0)", "identity", 0.5), ("h' = tanh(x − h)", "tanh", -1.0))


def symbolic(ctx: Context) -> list[Evidence]:
    """The statement decided exactly (theory.well_defined)."""
    t0 = time.perf_counter()
    return [from_proof(well_defined_proof(ctx.law(HeavisideLimit)), time.perf_counter() - t0)]


# ---- the witness functional --------------------------------------------------------------------

def _peak_window(bk: AbstractBackend, samples: Any, t: Fraction, k: int | None, window: bool) -> Any:
    """H_t(u) = sup_{s≤t}|u_s|·∫_{t−1}^t |u_s| ds in ``bk``'s arithmetic, for u = u_k (k) or u^x
    (None), from exact samples: the sup over the breakpoints and a uniform grid (the sup of these
    piecewise polynomials is attained at s = 1/k, a breakpoint), Simpson's rule on the window
    (without ``window``: the peak-hold sup_{s≤t}|u_s| alone)."""
    from recmem.numerics.exact import QQi

    lo = Fraction(-1, k) if k else Fraction(0)
    grid = sorted({*(b for b in breakpoints(k or 1) if lo <= b <= t),
                   *(lo + (t - lo) * j / GRID for j in range(GRID + 1))})
    vals = bk.entries(bk.vector([QQi(samples(s)) for s in grid]))
    # balls (flint) are ordered by their midpoints: the peak's value is separated from the others
    peak = max((abs(v) for v in vals), key=lambda v: float(v.mid()) if hasattr(v, "mid") else float(v))
    if not window:
        return peak
    h = Fraction(1, SIMPSON)
    nodes = [t - 1 + j * h for j in range(SIMPSON + 1)]
    weights = [Fraction(1 if j in (0, SIMPSON) else 4 if j % 2 else 2) * h / 3 for j in range(SIMPSON + 1)]
    f = bk.entries(bk.vector([QQi(samples(s)) for s in nodes]))
    w = bk.entries(bk.vector([QQi(q) for q in weights]))
    integral = w[0] * abs(f[0])
    for wj, fj in zip(w[1:], f[1:], strict=True):
        integral = integral + wj * abs(fj)
    return peak * integral


def _witness_numeric(backend: AbstractBackend, law: HeavisideLimit) -> list[Evidence]:
    from recmem.checks.numeric import identity_check

    def compute(bk: AbstractBackend) -> tuple[Any, Any]:
        win = uses_window(law.functionals)
        lhs = [_peak_window(bk, lambda s, k=k: approximant(X, k, s), T_WITNESS, k, win) for k in KS]
        rhs = [_peak_window(bk, lambda s: heaviside(X, s), T_WITNESS, None, win) for _ in KS]
        return bk.vector_of(lhs), bk.vector_of(rhs)

    ks = ", ".join(map(str, KS))
    # the check's label names the witness of the class under test (peak-and-window, or peak-hold)
    return [identity_check(f"the class's witness functional on u_k (k = {ks}) vs on u^x", backend,
                           compute, kappa=mpmath.mpf(1), n=2 * GRID,
                           instance={"x": str(X), "t": str(T_WITNESS), "k": list(KS),
                                     "u_k(s)": "x·(S(ks + 1) + B(ks))"})]


# ---- RNN responses -----------------------------------------------------------------------------

def _segments(k: int, t_end: float) -> list[tuple[float, float, int]]:
    """(a, b, j): the pieces of u_k (:func:`recmem.theory.well_defined.piece`) up to ``t_end``."""
    b = [float(v) for v in breakpoints(k)]
    return [(b[0], b[1], 0), (b[1], b[3], 1), (b[3], t_end, 2)]


def _numpy_rnn(sigma: str, w: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(|Δŷ|, its error, G, its error) at T_RNN by DOP853 (rtol 1e-12 vs 1e-10) and scipy quad."""
    from scipy.integrate import quad, solve_ivp

    act: Any = {"identity": lambda z: z, "tanh": np.tanh}[sigma]
    t_end = max(T_RNN)

    def run(bumped: bool, rtol: float) -> np.ndarray:
        out = np.zeros(len(T_RNN))
        h = np.zeros(1)
        pieces = _segments(K_RNN, t_end) if bumped else [(0.0, t_end, 2)]
        for a, b, j in pieces:
            ev = [tt for tt in T_RNN if a < tt <= b]
            sol = solve_ivp(lambda s, y, j=j: act(w * y + float(X) * piece(K_RNN, j, s)), (a, b), h,
                            method="DOP853", rtol=rtol,
                            atol=rtol * 1e-2, t_eval=ev or None, dense_output=False)
            for tt, yy in zip(sol.t, sol.y[0], strict=False):
                if tt in T_RNN:
                    out[T_RNN.index(float(tt))] = yy
            h = sol.y[:, -1]
        return out

    def compute() -> tuple[np.ndarray, ...]:
        d1 = np.abs(run(True, 1e-12) - run(False, 1e-12))
        d2 = np.abs(run(True, 1e-10) - run(False, 1e-10))
        g, ge = [], []
        for tt in T_RNN:
            acc, err = 0.0, 0.0
            for a, b, j in _segments(K_RNN, tt)[:2]:
                # |u_k − u^x| = x·S on piece 0 (u^x = 0), x·B = x·(piece − 1) on piece 1
                v, e = quad(lambda s, tt=tt, j=j: abs(float(X) * (piece(K_RNN, j, s) - j))
                            * np.exp(abs(w) * (tt - s)), a, min(b, tt), epsabs=0.0, epsrel=1e-13)
                acc, err = acc + v, err + e
            g.append(acc)
            ge.append(err + 16 * mm.U64 * acc)
        return d1, np.abs(d1 - d2) + 16 * mm.U64, np.array(g), np.array(ge)

    return mm.memo(("well-defined numpy", sigma, w), compute)


def _mpmath_rnn(bits: int) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """The sharp linear RNN h' = h/2 + x by Taylor series at ``bits`` and bits + 16; G by mp.quad."""
    def at(b: int) -> tuple[list[Any], list[Any]]:
        mp = mm.mp_context(b)
        w, t_end = mp.mpf(1) / 2, max(T_RNN)

        def run(bumped: bool) -> list[Any]:
            h, out = [mp.zero], [mp.zero] * len(T_RNN)
            pieces = _segments(K_RNN, t_end) if bumped else [(0.0, t_end, 2)]
            for a, b_, j in pieces:
                def field(s: Any, y: list[Any], j: int = j) -> list[Any]:
                    return [w * y[0] + mm.mq(mp, X) * piece(K_RNN, j, s)]
                sol = mp.odefun(field, mp.mpf(a), h)
                for i, tt in enumerate(T_RNN):
                    if a < tt <= b_:
                        out[i] = sol(mp.mpf(tt))[0]
                h = list(sol(mp.mpf(b_)))
            return out

        dif = [abs(p - q) for p, q in zip(run(True), run(False), strict=True)]
        g = []
        for tt in T_RNN:
            g.append(mp.fsum(mp.quad(lambda s, tt=tt, j=j: mm.mq(mp, X) * (piece(K_RNN, j, s) - j)
                                     * mp.exp(w * (tt - s)), [a, min(b_, tt)])
                             for a, b_, j in _segments(K_RNN, tt)[:2]))
        return dif, g

    def compute() -> tuple[list[Any], ...]:
        (d1, g1), (d2, g2) = at(bits), at(bits + mm.MP_EXTRA_BITS)
        return (d1, [abs(a - b) for a, b in zip(d1, d2, strict=True)], g1,
                [abs(a - b) for a, b in zip(g1, g2, strict=True)])

    return mm.memo(("well-defined mpmath", bits), compute)


def _rnn_numeric(backend: AbstractBackend, law: HeavisideLimit) -> list[Evidence]:
    kind = backend.spec.kind
    out = []
    runs: list[tuple[str, tuple[Any, ...], int, Any]]
    if kind == "numpy":
        if backend.spec.dtype != "float64":
            raise mm.unavailable(backend, "DOP853 and its error estimate run in float64")
        runs = [(name, _numpy_rnn(sigma, w), 53, mm.U64) for name, sigma, w in RNNS]
    elif kind == "mpmath":
        bits = min(backend.precision_bits, 64)
        runs = [(RNNS[0][0], _mpmath_rnn(bits), bits, mpmath.mpf(2) ** -bits)]
    else:
        raise mm.unavailable(backend, "the RNN responses are integrated by DOP853 (numpy) and Taylor "
                                      "series (mpmath); no ODE solver in ball arithmetic")
    for name, (d, de, g, ge), bits, u in runs:
        t0 = time.perf_counter()
        def number(q: Fraction, bits: int = bits) -> Any:
            return float(q) if bits == 53 else mm.mq(mm.mp_context(bits), q)

        excess = [di - law.bound(gi, number=number) for di, gi in zip(d, g, strict=True)]
        tol = [a + float(law.scale) * b + 16 * u * (abs(gi) + abs(di))
               for a, b, gi, di in zip(de, ge, g, d, strict=True)]
        res = max(float(e / s) for e, s in zip(excess, tol, strict=True))
        out.append(mm.judged(f"{name}: |ŷ_t(u_k) − ŷ_t(u^x)| vs the Grönwall bound, k = {K_RNN}", backend,
                             res, 1.0, "integration error (two tolerances or precisions) + quadrature error "
                             "+ 16u; residual max_t (|Δŷ| − scale·G)/tolerance", t0, bits=bits,
                             data={"t": list(T_RNN), "|Δŷ|": mm.fmt_list(d), "G": mm.fmt_list(g)}))
    return out


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The witness functional (``continuous``, ``causal``) in every arithmetic, or the RNN responses
    against the Grönwall bound (``rnn``)."""
    law = ctx.law(HeavisideLimit)
    if law.functionals == "rnn":
        return _rnn_numeric(backend, law)
    return _witness_numeric(backend, law)


# ---- search ------------------------------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """``continuous``/``causal``: (x, k, t, bumped) with x ∈ [−2, 2] \\ {0}, k ∈ 1…16, t ∈ [1 + 2/k, 4],
    either sequence. ``rnn``: scalar linear RNNs h' = wh + ux, ŷ = ch with w ∈ [0, 2] (the sharp ones),
    u, c, x ∈ ±[1/4, 2]."""
    from hypothesis import strategies as st

    from recmem.checks.strategies import fractions_in

    law = ctx.law(HeavisideLimit)
    nz = fractions_in(-2, 2, 4).filter(lambda v: v != 0)
    if law.functionals == "rnn":
        return st.tuples(st.just("linear"), fractions_in(0, 2, 4), nz, nz, nz)
    return st.tuples(st.just("peak"), nz, st.integers(1, 16), fractions_in(0, 1, 8), st.booleans())


def holds(instance: Any, ctx: Context) -> Instance:
    """Exact: the witness's values (constant in k once t ≥ 1 + 2/k, so the limit is that value), or
    for the linear RNN |Δŷ| = G exactly (w ≥ 0, x·Δu ≥ 0: the difference solves the comparison
    equation), so |Δŷ| ≤ scale·G iff scale ≥ 1."""
    law = ctx.law(HeavisideLimit)
    if instance[0] == "linear":
        _, w, u, c, x = instance
        ok = law.bound(Fraction(1)) >= 1
        return Instance(ok, "exact: |Δŷ| = G for w ≥ 0 (variation of constants, theory.well_defined)",
                        {"RNN": f"h' = {w}h + {u}x, ŷ = {c}h", "x": str(x), "|Δŷ|/G": "1",
                         "claimed |Δŷ|/G ≤": str(law.scale)},
                        "" if ok else "the bound is attained, so no smaller constant holds")
    _, x, k, frac, bumped = instance
    t = 1 + Fraction(2, k) + 3 * frac
    if law.functionals == "rnn":  # pragma: no cover - the rnn strategy draws RNNs
        raise ValueError("an RNN statement judges RNN instances")
    win = uses_window(law.functionals)
    lim, at = witness_value(x, k, t, bumped, window=win), witness_value(x, None, t, window=win)
    return Instance(lim == at, "exact rational arithmetic: H_t(u_k) is constant for k ≥ 2/(t − 1)",
                    {"x": str(x), "k": str(k), "t": str(t), "sequence": "u_k (bump)" if bumped else "v_k",
                     "lim H_t(u_k)": str(lim), "H_t(u^x)": str(at)},
                    "" if lim == at else "the limit along the sequence differs from H_t(u^x)")


# ---- claims ------------------------------------------------------------------------------------

CLAIMS = [
    Claim(
        id="W.well-defined",
        summary="A.1's limit argument fails for continuous functionals: sup·window functional, H(u_k) = "
                "2x² ↛ H(u^x) = x²",
        title="Outputs on Heaviside inputs are limits of outputs on smooth inputs (App. A.1)",
        statement=HeavisideLimit(),
        provenance=Provenance("W", "App. A.1", QUOTE),
        tolerance="exact (SymPy, ℚ); every arithmetic: the witness functional, c·n·u (exact samples, n the "
                  "number of samples)",
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        reading="'continuous targets functionals': continuous in ‖·‖_∞ (W §2.1), causal, regular (for "
                "uniformly bounded sequences) and time-homogeneous; u^x_(k,cont) any uniformly bounded "
                "continuous (here C¹) inputs converging to u^x pointwise",
        notes="A finding: a pointwise limit is no ‖·‖_∞ limit, so continuity does not give "
              "H_t(lim u_k) = lim H_t(u_k). H_t(x) = sup_(s≤t)|x_s|·∫_(t−1)^t|x_s|ds on "
              "u_k(s) = x(S(ks + 1) + B(ks)) (a C¹ step plus a C¹ bump of height x on (0, 2/k)) gives 2x² "
              "for every k ≥ 2/(t − 1), while H_t(u^x) = x²; without the bump the limit is x²: the limit "
              "depends on the sequence (C¹ pieces keep the arithmetic exact; a C^∞ step and bump with the "
              "same supports and maximum give the same values). The rest of A.1 (the −∞ boundary "
              "condition) is a choice, nothing to check. For the RNNs the paper studies the exchange "
              "holds: W.well-defined.rnn.",
    ),
    Claim(
        id="W.well-defined.rnn",
        summary="for RNNs with Lipschitz σ the limit exchange holds, at Grönwall's rate (attained)",
        title="RNN outputs on Heaviside inputs are limits of outputs on continuous inputs (Grönwall)",
        statement=HeavisideLimit(functionals="rnn"),
        provenance=Provenance("W", "App. A.1; §2.2 eq. (1)", QUOTE),
        tolerance="symbolic (Leibniz rule for the comparison function; exact sharp instance); numpy/mpmath: "
                  "|Δŷ| − G within the integrators' and quadratures' error estimates",
        corrects="W.well-defined",
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Grönwall: |Δh(t)| ≤ ∫ L(‖W‖₂|Δh| + ‖U‖₂|Δu|) ds, so |Δh(t)| ≤ L‖U‖₂∫|Δu(s)|e^(L‖W‖₂(t−s))ds; "
              "bounded u_k → u^x pointwise gives ∫|Δu| e^(…) → 0 by dominated convergence. Also existence "
              "and uniqueness from rest (h ≡ 0 before the input, b = 0, σ(0) = 0) follow from the "
              "Lipschitz field (Picard–Lindelöf), which A.1 does not state.",
    ),
]
