"""Expectations over Lemma 2's ring law in any backend's arithmetic (paper L §3.4, App. F.2).

:func:`ring_gain` computes E_{λ ~ 𝕋(r_min, r_max)}[G(λ)] for the stationary gain G of the diagonal
recurrence x_k = λx_{k−1} + ũ_k: constant input G = |x_∞|²/|ũ|² = 1/|1 − λ|² (x_∞ the fixed point
ũ/(1 − λ)), white noise G = E|x_∞|²/σ² = Σ_j |λ|^{2j} summed in the arithmetic to convergence.
The ring law enters through s = |λ|², whose density is the slope of Lemma 2's CDF
(theory.ring.RingSampling.ring_cdf_r2), and θ uniform.

Quadrature with an a-priori truncation bound (so the numbers are a definition, never the closed
form of Proposition 3): Gauss–Legendre in s (n nodes; Trefethen, ATAP Thm 19.3: error of the mean
≤ (32/15)·K·ρ^{−2n}/(ρ² − 1) on the Bernstein ellipse E_ρ kept inside |s| ≤ q = (1 + r_max²)/2,
where the integrand is analytic and bounded by K) and, for constant input, the M-point trapezoid
rule in θ, whose error for 1/|1 − √s e^{iθ}|² = Σ_{n,m} s^{(n+m)/2} e^{i(n−m)θ} is only the aliased
terms n − m ∈ Mℤ∖{0}: at most 2q^{M/2}/((1 − q)(1 − q^{M/2})). Node counts make the bound fall
below 2^−(bits+4); in ball arithmetic the bound is added as a ball, so the enclosure is certified.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, cast

import mpmath

from recmem.numerics.backend import AbstractBackend
from recmem.numerics.exact import QQi, dyadic
from recmem.numerics.native import scalar
from recmem.theory.ring import LEMMA6

VECTOR_KINDS = ("numpy", "torch")


def plan(r_min: Fraction, r_max: Fraction, input_: str, bits: int) -> dict[str, Any]:
    """Node counts (n, M) and the truncation bound for :func:`ring_gain` at ``bits``."""
    a, b = float(r_min) ** 2, float(r_max) ** 2
    c, h = (a + b) / 2, (b - a) / 2
    q = (1 + b) / 2
    big_a = q - c  # semi-major axis of the ellipse: |s − c| ≤ A ⊂ {|s| ≤ q}
    rho = big_a / h + math.sqrt((big_a / h) ** 2 - 1)
    target = 2.0 ** -(bits + 4)
    m = 0
    trap = 0.0
    k_bound = 1 / (1 - q)
    if input_ == "constant":
        # the aliasing bound needs only s ≤ r_max² on the real nodes
        # M even: the trapezoid sum (1/(1 − s))(1 + s^{M/2})/(1 − s^{M/2}) is then analytic in s
        # on the whole ellipse (no branch point at s = 0, which the ellipse contains when r_min = 0)
        m = 2 * max(4, math.ceil((bits + 8) * math.log(2) / (-math.log(b))))
        trap = 2 * b ** (m / 2) / ((1 - b) * (1 - b ** (m / 2)))
        k_bound *= (1 + q ** (m / 2)) / (1 - q ** (m / 2))
    n = max(4, math.ceil(math.log(32 / 15 * k_bound / (rho**2 - 1) / target) / (2 * math.log(rho))))
    gl = 32 / 15 * k_bound * rho ** (-2 * n) / (rho**2 - 1)
    return {"n": n, "M": m, "bound": gl + trap, "ellipse ρ": rho}


def _legendre(n: int, bits: int) -> list[tuple[Any, Any]]:
    """Gauss–Legendre nodes and weights on [−1, 1] as arb balls (flint's certified roots)."""
    import flint

    with flint.ctx.workprec(bits):
        return [flint.arb.legendre_p_root(n, k, weight=True) for k in range(n)]


def _exact_mid(x: Any) -> Fraction:
    """The midpoint of an arb ball as an exact rational."""
    man, exp = x.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _sqrt(backend: AbstractBackend, x: Any) -> Any:
    kind = backend.spec.kind
    if kind == "numpy":
        import numpy as np

        return np.sqrt(x)
    if kind == "torch":
        import torch

        return torch.sqrt(x)
    if kind == "flint":
        return x.sqrt()
    return cast(Any, backend).ctx.sqrt(x)  # the mpmath backend's private context (its precision)


def _scalars(backend: AbstractBackend, values: list[QQi]) -> Any:
    """Exact values in the backend: a native vector (numpy/torch) or a list of scalars."""
    v = backend.vector(values)
    return v.reshape(-1) if backend.spec.kind in VECTOR_KINDS else backend.entries(v)


def ring_gain(backend: AbstractBackend, input_: str, r_min: Fraction,
              r_max: Fraction) -> tuple[Any, dict[str, Any]]:
    """E_{λ ~ 𝕋(r_min, r_max)}[G(λ)] as a backend scalar (a ball including the truncation bound
    for flint), with the plan (node counts, bound). Call inside ``backend.activate()``."""
    bits = backend.precision_bits
    p = plan(r_min, r_max, input_, bits)
    gl = _legendre(p["n"], bits + 24)
    a, b = r_min**2, r_max**2
    kind = backend.spec.kind
    if kind == "flint":
        import flint

        nodes = [flint.acb(x) for x, _ in gl]
        weights = [flint.acb(w) for _, w in gl]
    else:
        frac = bits + 16
        nodes = _scalars(backend, [QQi(dyadic(_exact_mid(x), frac)) for x, _ in gl])
        weights = _scalars(backend, [QQi(dyadic(_exact_mid(w), frac)) for _, w in gl])
    lo, hi, one, rmin, rmax = list(_scalars(backend, [QQi(a), QQi(b), QQi(Fraction(1)),
                                                    QQi(r_min), QQi(r_max)]))
    # the density of s = |λ|² on [r_min², r_max²]: the slope of Lemma 2's (affine) CDF
    density = (LEMMA6.ring_cdf_r2(hi, rmin, rmax) - LEMMA6.ring_cdf_r2(lo, rmin, rmax)) / (hi - lo)
    half, mid = (hi - lo) / 2, (hi + lo) / 2
    s_nodes = [mid + half * x for x in nodes] if kind not in VECTOR_KINDS else mid + half * nodes
    if input_ == "constant":
        # |1 − √s·z|² = 1 + s − 2√s·Re z on |z| = 1: real arithmetic, with cos θ_k = Re e^{2πik/M}
        # from the backend's exact-turn cis; θ_k and −θ_k give the same term, so each k ≤ M/2 is
        # taken once with its multiplicity
        m = p["M"]
        ks = range(m // 2 + 1)
        mult = [1 if k == 0 or 2 * k == m else 2 for k in ks]
        z = backend.cis_turns([Fraction(k, m) for k in ks])
        cos = z.reshape(-1).real if kind in VECTOR_KINDS else [w.real for w in backend.entries(z)]
        if kind in VECTOR_KINDS:
            mult_v = z.reshape(-1).real * 0 + _scalars(backend, [QQi(Fraction(c)) for c in mult]).real

        def per(s: Any) -> Any:
            sr = s.real
            lam_r = _sqrt(backend, sr)
            if kind in VECTOR_KINDS:
                return (mult_v / (1 + sr - 2 * lam_r * cos)).sum() / m
            return sum((c / (1 + sr - 2 * lam_r * w) for c, w in zip(mult, cos, strict=True)),
                       0 * sr) / m
    else:
        def per(s: Any) -> Any:
            # Σ_j s^j: the stationary variance of the recurrence, summed in this arithmetic
            return geometric_sum(backend, s, 0, one)
    if kind in VECTOR_KINDS:
        vals = [per(s) for s in s_nodes]
        value = sum((w * v for w, v in zip(weights, vals, strict=True)), 0 * one) / 2
    else:
        value = sum((w * per(s) for w, s in zip(weights, s_nodes, strict=True)), 0 * one) / 2
    value = density * (hi - lo) * value  # the mean over [r_min², r_max²] times its length
    if kind == "flint":
        import flint

        value = value + flint.acb(flint.arb(0, mpmath.mpf(p["bound"]) * 2))
    return value, p


def _small(term: Any, total: Any, eps: mpmath.mpf) -> bool:
    """|term| ≤ eps·|total| (an upper bound for balls)."""
    t, s = abs(term), abs(total)
    upper = t.upper() if hasattr(t, "upper") else t
    lower = s.lower() if hasattr(s, "lower") else s
    return bool(float(upper) <= float(eps) * float(lower))




def const_of(backend: AbstractBackend) -> Any:
    """The ``const`` of the statements' methods in ``backend``: Fraction → native scalar."""
    return lambda q: scalar(backend, q)


def column(backend: AbstractBackend, values: list[Any]) -> Any:
    """Native scalars as a backend vector (what identity_check compares)."""
    return backend.vector_of(values)




def geometric_sum(backend: AbstractBackend, z: Any, start: int, one: Any) -> Any:
    """Σ_{n ≥ start} z^n for |z| < 1 summed term by term in ``backend``'s arithmetic until the
    term falls below 2^-(p+8) of the sum; in flint the tail |z|^J/(1 − |z|) is added as a ball."""
    eps = mpmath.mpf(2) ** -(backend.precision_bits + 8)
    term = one
    for _ in range(start):
        term = term * z
    total = term
    for _ in range(1_000_000):
        term = term * z
        total = total + term
        if _small(term, total, eps):
            break
    if backend.spec.kind == "flint":
        import flint

        tail = (abs(term * z) / (1 - abs(z))).upper()
        return total + flint.acb(flint.arb(0, tail), flint.arb(0, tail))
    return total
