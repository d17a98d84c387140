"""W.rescaling: "rescaling is not an a priori solution to stable approximation" (W App. C).

App. C's formulas are lost in the text file; the worked example is reconstructed (see
recmem.theory.rescaling and the claim's notes). Symbolic side: ρ(t) = Σ k^−2 e^(−t/k) decays like
1/t (|ρ(t) − 1/t| ≤ 4e^−2/t²), not exponentially; its truncations are m-unit linear RNNs with
eigenvalues −1/k (stability radius 1/m → 0); for every fixed rescaling a slow target needs weights
w_k ≤ 1/k → 0. Numeric side: the series ρ and ρ₂ = Σ k^−2 e^(−t/k²) at t = 1, 4, …, t_max inside
their proved bands, and the truncation error Σ_(k>m) k^−2 = ψ₁(m + 1) ≤ 1/m, in every arithmetic.

Series evaluation, the same in every arithmetic: ρ_p(t) = Σ_(k≤K) k^−2 e^(−t/k^p) + R with
K = max(⌈(2t)^(1/p)⌉, 16) and R = Σ_(j≥0) (−t)^j/j!·ζ(pj + 2, K + 1) (Hurwitz zeta); since
ζ(pj + 2, K + 1) ≤ (K + 1)^(−pj) ζ(2, K + 1) and t/(K + 1)^p ≤ 1/2, the terms after J are bounded by
2·2^(−J)/J!·ζ(2, K + 1), which flint adds to the ball's radius.
"""

from __future__ import annotations

import math
import time
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.verdict import Evidence, from_proof
from recmem.numerics.backend import AbstractBackend

QUOTE = ("Appendix C Rescaling is not an a priori solution to stable approximation. Now we consider "
         "the special case: Assume is diagonal . Element of matrix is 1. And the vector . In this "
         "section, we compare the vanilla linear RNN with a memory function and a rescaled linear "
         "RNN with a memory function . … It can be seen that the target linear functional with "
         "memory function cannot be stably approximated by linear RNN but can be stably "
         "approximated by rescaled linear RNN. (For rescaled linear RNN, one just need to pick = "
         "1.) However, this rescaling does not work for all memory functions. … This result "
         "indicates that rescaling is not an a priori solution to achieve stable approximation.")
C_SUM = 4.0


def _k_terms(t: int, p: int) -> int:
    return max(math.ceil((2 * t) ** (1 / p)), 16)


def _j_terms(bits: int) -> int:
    """Tail-series terms J with 2^(−J)/J! below 2^(−bits − 8)."""
    j, log2_term = 1, -1.0
    while log2_term > -(bits + 8):
        j += 1
        log2_term -= 1 + math.log2(j)
    return j


def hurwitz_mp(c: mpmath.ctx_mp.MPContext, s: int, a: int) -> mpmath.mpf:
    """ζ(s, a) to the context's relative precision.

    mpmath 1.3's zeta(s, a) is accurate only in absolute terms (relative error 2e-10 for
    ζ(40, 1000) ≈ 2.6e-119 at 200 bits; 2.4e-21 for ζ(22, 169)), so it runs with s·log₂a extra
    bits, the magnitude of a^−s.
    """
    with c.extraprec(int(s * math.log2(a)) + 16):
        return +c.zeta(s, a)


def rho(backend: AbstractBackend, t: int, p: int) -> Any:
    """ρ_p(t) = Σ_(k≥1) k^−2 e^(−t/k^p) in the backend's arithmetic (flint: a certified ball)."""
    kind, K = backend.spec.kind, _k_terms(t, p)
    J = _j_terms(backend.precision_bits)
    if kind == "flint":
        import flint

        head = flint.arb(0)
        for k in range(1, K + 1):
            head += (-flint.arb(t) / flint.arb(k) ** p).exp() / (k * k)
        tail, fact = flint.arb(0), flint.arb(1)
        for j in range(J):
            if j:
                fact *= j
            tail += (-flint.arb(t)) ** j / fact * flint.arb(p * j + 2).zeta(flint.arb(K + 1))
        z2 = flint.arb(2).zeta(flint.arb(K + 1))
        rem = 2 * flint.arb(2) ** (-J) / flint.arb(J).gamma() / J * z2  # 2·2^-J/J!·ζ(2, K+1)
        return head + tail + flint.arb(0, rem.upper())
    if kind == "mpmath":
        c = backend.ctx
        head = c.fsum(c.exp(-c.mpf(t) / c.mpf(k) ** p) / (k * k) for k in range(1, K + 1))
        tail = c.fsum((-c.mpf(t)) ** j / c.factorial(j) * hurwitz_mp(c, p * j + 2, K + 1)
                      for j in range(J))
        return head + tail
    if kind == "numpy":
        import numpy as np
        import scipy.special as ss

        ks = np.arange(1, K + 1, dtype=np.float64)
        js = np.arange(J, dtype=np.float64)
        h_np = np.sum(np.exp(-t / ks**p) / ks**2)
        t_np = np.sum((-float(t)) ** js / ss.factorial(js) * ss.zeta(p * js + 2, K + 1))
        return float(h_np + t_np)
    torch = backend.torch
    dev = backend.device
    k = torch.arange(1, K + 1, dtype=torch.float64, device=dev)
    j = torch.arange(J, dtype=torch.float64, device=dev)
    head = torch.sum(torch.exp(-t / k**p) / k**2)
    fact = torch.exp(torch.lgamma(j + 1))
    zeta = torch.special.zeta(p * j + 2, torch.full_like(j, K + 1.0))
    tail = torch.sum((-float(t)) ** j / fact * zeta)
    return float(head + tail)


def _band(ctx: mpmath.ctx_mp.MPContext, t: int, p: int) -> tuple[Any, Any]:
    """(I_p(t), B_p(t)): the integral and the proved bound |ρ_p − I_p| ≤ B_p."""
    if p == 1:
        return 1 / ctx.mpf(t), 4 * ctx.exp(-2) / ctx.mpf(t) ** 2
    return ctx.sqrt(ctx.pi) / (2 * ctx.sqrt(t)), ctx.exp(-1) / t


def _flint_band(t: int, p: int) -> tuple[Any, Any]:
    import flint

    if p == 1:
        return 1 / flint.arb(t), 4 * flint.arb(-2).exp() / flint.arb(t) ** 2
    return flint.arb.pi().sqrt() / (2 * flint.arb(t).sqrt()), flint.arb(-1).exp() / t


def sum_bound(t: int, p: int, unit_roundoff: mpmath.mpf) -> mpmath.mpf:
    """Rounding-error bound of the evaluation of ρ_p(t) in :func:`rho`.

    Head: K terms k^−2 e^(−t/k^p), each with relative error ≲ u(3 + t/k^p) (the exponent carries
    a rounding of t/k^p), summed (pairwise) with relative error ≲ u·log₂K: in total
    c·u·(ρ·(3 + log₂K) + Σ k^−2(t/k^p)e^(−t/k^p)), and the last sum is ≤ ζ(2)/e. Tail: the
    alternating terms have |·| ≤ 2^−j/j!·ζ(2, K + 1), so their rounding adds c·u·J·2ζ(2, K + 1).
    """
    ctx = mpmath.MPContext()
    ctx.prec = 64
    K, J = _k_terms(t, p), _j_terms(-int(mpmath.log(unit_roundoff, 2)))
    approx = _band(ctx, t, p)[0]
    head = approx * (3 + math.log2(K)) + ctx.zeta(2) / ctx.e
    tail = J * 2 * ctx.zeta(2, K + 1)
    return C_SUM * unit_roundoff * (head + tail)


def _times(ctx: Context) -> list[int]:
    out, t = [], 1
    while t <= int(ctx["t_max"]):
        out.append(t)
        t *= 4
    return out


def _decay_evidence(backend: AbstractBackend, ctx: Context, p: int) -> Evidence:
    """ρ_p(t) inside its proved band [I_p − B_p, I_p + B_p] for t = 1, 4, …, t_max."""
    from recmem.theory.rescaling import series

    t0 = time.perf_counter()
    name, approx, bound_txt = series(p)
    judged, values = [], {}
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 32
    for t in _times(ctx):
        val = rho(backend, t, p)
        label = f"t = {t}"
        if backend.encloses:
            i_p, b_p = _flint_band(t, p)
            judged.append(rp.ball_inside(label, val, i_p - b_p, i_p + b_p))
            values[label] = val.mid().str(10)
            continue
        i_p, b_p = _band(mp, t, p)
        v = mp.mpf(val) if backend.spec.kind == "mpmath" else mp.mpf(float(val))
        judged.append(rp.point_inside(label, v, i_p - b_p, i_p + b_p,
                                      sum_bound(t, p, backend.unit_roundoff)))
        values[label] = mpmath.nstr(v, 10)
    src = ("enclosure (certified tail bound)" if backend.encloses else
           f"c·u·(ρ(3 + log₂K) + ζ(2)/e + 2Jζ(2, K + 1)), c = {C_SUM}")
    return rp.evidence(f"{name} within {approx} ± {bound_txt} (hence ~{approx}, not exponential)",
                       backend, judged, t0, tolerance_source=src, data={name: values})


def _tail_evidence(backend: AbstractBackend, ctx: Context) -> Evidence:
    """Σ_(k>m) k^−2 (= ζ(2) − H_m^(2)) equals ψ₁(m + 1) and is ≤ 1/m, for m = 1, 10, …, m_max."""
    t0 = time.perf_counter()
    judged, values = [], {}
    kind = backend.spec.kind
    m = 1
    while m <= int(ctx["m_max"]):
        label = f"m = {m}"
        if kind == "flint":
            import flint

            head = sum((flint.arb(1) / (k * k) for k in range(1, m + 1)), flint.arb(0))
            direct = flint.arb(2).zeta() - head
            psi1 = flint.arb(2).zeta(flint.arb(m + 1))  # ψ₁(m + 1) = ζ(2, m + 1)
            judged.append(rp.ball_zero(label, direct - psi1, rp.arb_bounds(psi1)[1],
                                       backend.precision_bits))
            judged.append(rp.ball_inside(label + ": ≤ 1/m", psi1, flint.arb(0), 1 / flint.arb(m)))
            values[label] = psi1.mid().str(8)
        else:
            direct, psi1 = _tail_points(backend, m)
            # cancellation in ζ(2) − H_m^(2): absolute error c·u·m·ζ(2) (m rounded additions)
            bound = C_SUM * backend.unit_roundoff * (m + 2) * mpmath.zeta(2)
            judged.append(rp.point_zero(label, direct - psi1, bound, psi1))
            judged.append(rp.point_inside(label + ": ≤ 1/m", psi1, mpmath.mpf(0),
                                          mpmath.mpf(1) / m, 4 * backend.unit_roundoff * psi1))
            values[label] = mpmath.nstr(psi1, 8)
        m *= 10
    data: dict[str, Any] = {"ψ₁(m + 1)": values}
    if kind == "torch":
        data["relative error of torch.special.polygamma(1, 2) (not used)"] = mpmath.nstr(
            torch_trigamma_error(backend, 1), 3)
    return rp.evidence("sup_t |ρ − ρ_m| = Σ_(k>m) k^−2 = ψ₁(m + 1) ≤ 1/m (truncation error)",
                       backend, judged, t0, tolerance_source="enclosure" if backend.encloses
                       else f"c·u·(m + 2)·ζ(2) (cancellation), c = {C_SUM}", data=data)


def _tail_points(backend: AbstractBackend, m: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(ζ(2) − Σ_(k≤m) k^−2, ψ₁(m + 1)) with the backend's own special functions."""
    kind = backend.spec.kind
    if kind == "mpmath":
        c = backend.ctx
        return c.zeta(2) - c.fsum(c.mpf(1) / (k * k) for k in range(1, m + 1)), c.psi(1, m + 1)
    if kind == "numpy":
        import numpy as np
        import scipy.special as ss

        k = np.arange(1, m + 1, dtype=np.float64)
        return mpmath.mpf(float(np.pi**2 / 6 - np.sum(1 / k**2))), mpmath.mpf(
            float(ss.polygamma(1, m + 1)))
    torch = backend.torch
    k = torch.arange(1, m + 1, dtype=torch.float64)
    direct = float(torch.pi**2 / 6 - torch.sum(1 / k**2))
    # ψ₁(m + 1) as the Hurwitz zeta ζ(2, m + 1): torch.special.polygamma(1, ·) is only accurate
    # to ~4e-10 relative near x = 2 in float64 (torch 2.x; reported in the evidence's data)
    two = torch.tensor(2.0, dtype=torch.float64)
    psi1 = float(torch.special.zeta(two, torch.tensor(float(m + 1), dtype=torch.float64)))
    return mpmath.mpf(direct), mpmath.mpf(psi1)


def torch_trigamma_error(backend: AbstractBackend, m: int) -> mpmath.mpf:
    """Relative error of torch.special.polygamma(1, m + 1) against mpmath (a library observation)."""
    torch = backend.torch
    got = float(torch.special.polygamma(1, torch.tensor(float(m + 1), dtype=torch.float64)))
    ref = mpmath.psi(1, m + 1)
    return abs(mpmath.mpf(got) - ref) / ref


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The example's decay bands and truncation errors in one arithmetic (W App. C)."""
    rp.require_float64(backend)
    return [_decay_evidence(backend, ctx, 1), _decay_evidence(backend, ctx, 2),
            _tail_evidence(backend, ctx)]


def symbolic(ctx: Context) -> list[Evidence]:
    """The reconstructed example in SymPy (theory.rescaling.rescaling_example)."""
    from recmem.theory.rescaling import rescaling_example

    t0 = time.perf_counter()
    return [from_proof(rescaling_example(int(ctx["m_symbolic"])), time.perf_counter() - t0)]


CLAIMS = [
    Claim(
        id="W.rescaling",
        title="Rescaling is not an a priori fix (App. C worked example)",
        statement="Rescaling is not an a priori solution to stable approximation (the worked "
                  "example with ρ(t) = Σ_(k≥1) k^−2 e^(−t/k))",
        provenance=Provenance("W", "App. C (formulas lost in the text file; reconstructed)", QUOTE),
        tolerance="SymPy exact; flint: certified enclosures (tail bound of the series in the "
                  "radius); points: summation error bound c·u·(ρ(3 + log₂K) + …) and "
                  "c·u·(m + 2)·ζ(2) for the cancelling truncation error",
        uses=("W.rnn-linear-memory", "W.stable-exp"),
        params=(Param("t_max", 256, "largest t (t = 1, 4, 16, …) of the decay check", int,
                      check=at_least(1)),
                Param("m_max", 1000, "largest m (m = 1, 10, …) of the truncation check", int,
                      check=at_least(1)),
                Param("m_symbolic", 3, "largest m of the symbolic RNN form of the truncations", int,
                      check=at_least(1))),
        symbolic=symbolic,
        numeric=numeric,
        notes="Checked as: ρ decays like 1/t, not exponentially; the linear RNN needs eigenvalues "
              "−1/k → 0 (stability radius 1/m → 0); a rescaled RNN Σ c_i e^(−a_i w_i t) with "
              "a_i = 1/i fits ρ with every w_i = 1; for every fixed rescaling (a_k) a slowly "
              "decaying target needs weights w_k ≤ 1/k → 0. "
              "Reconstructed from App. C's words (its formulas are lost): vanilla memory "
              "Σ c_i e^(−w_i t), rescaled memory Σ c_i e^(−a_i w_i t) with fixed a_i = 1/i "
              "('pick w_i = 1'); the failing target for a fixed rescaling is taken as "
              "Σ k^−2 e^(−min(a_k, 1)t/k), i.e. Σ k^−2 e^(−t/k²) for a_i = 1/i (our choice). "
              "Caveat on the example: ∫_0^∞ ρ = Σ 1/k = ∞, so ρ is not the kernel of a bounded "
              "linear functional on (C₀, sup) and its truncations converge in sup-norm "
              "(error ψ₁(m + 1) ≤ 1/m) but not in W's functional norm ∫|ρ − ρ_m| = Σ_(k>m) 1/k = ∞. "
              "Numerically tρ(t) − 1 is far below its bound 4e^−2/t (ρ's summand is smooth and flat "
              "at 0, so the sum matches the integral to super-polynomial accuracy). mpmath's nsum "
              "is not used: on the tail Σ_(k>168) k^−2 e^(−84/k) it is off by 7e-4 relative; "
              "mpmath's zeta(s, a) is accurate only absolutely (see hurwitz_mp). No "
              "counterexample search: the statement is existential (a worked example).",
    ),
]
