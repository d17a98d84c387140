"""How well a linear recurrence's state stores its input: reconstruction errors and timestamp horizons.

- :func:`reconstruction_errors` (paper O §3.1 and App. E.1, Fig. 4 right): the input u ∈ ℝ^L is
  recovered from the state x_L = V u by û = V⁺ x_L; the error |û_k − u_k| per timestamp k, in
  float64 (numpy least squares) and at high precision (python-flint balls: for a square V, û is
  the coefficient vector of the polynomial interpolating (λ_i, x_i) — V⁻¹ applied in O(N²) by
  barycentric interpolation, which keeps its bits in ball arithmetic (``NUMERICS.md``); for a tall
  V, the normal equations VᴴV û = Vᴴx solved in balls). The high-precision errors are certified
  upper bounds (|mid − u| + radius).
- :func:`timestamp_horizons` (O §3.1, eq. (27), as corrected in ``theory.timestamp.CORRECTED``):
  for each node λ₀ with 0 < |λ₀| < 1, the largest K such that the inversion
  k̂ = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀| of x_{k,0} = Σ_{i<k} λ₀^i rounds to k for every k ≤ K, when
  the recurrence and the inversion run at a given precision (mpmath at ``bits``; float64 numpy).

Inputs are seeded dyadic uniforms on [−1, 1] (exact, so every arithmetic sees the same u).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recmem.numerics.nodes import Nodes, uniform_draws


def inputs(length: int, seed: int) -> list[Any]:
    """The input sequence u_1 … u_L: exact dyadic uniforms on [−1, 1) from ``seed``."""
    return [2 * d - 1 for d in uniform_draws(seed, length)]


def reconstruction_errors(nodes: Nodes, length: int, seed: int, bits: int) -> dict[str, Any]:
    """Per-timestamp errors |û_k − u_k| (k = 1 … L) of recovering u from x_L = V u by V⁺, in
    float64 and at ``bits`` (certified upper bounds). Domain: N ≥ L (V injective), distinct nodes.
    """
    import flint

    n = len(nodes)
    if n < length:
        raise ValueError(f"reconstruction needs N ≥ L (V injective); got N = {n} < L = {length}")
    u = inputs(length, seed)
    # float64: x = Ṽ u, û by least squares (SVD-based, the best float64 method at scale)
    from recmem.numerics.numpy_backend import vander

    v = vander(nodes.complex128(), length)
    uf = np.array([float(x) for x in u])
    uh = np.linalg.lstsq(v, v @ uf, rcond=None)[0]
    err64 = np.abs(uh - uf)
    with flint.ctx.workprec(bits):
        balls = nodes.acb(bits)
        ub = [flint.acb(flint.fmpq(x.numerator, x.denominator)) for x in u]
        # U(z) = Σ_k u_k z^{L−k}: x_i = U(λ_i) is row i of V u (O's decreasing powers)
        poly = flint.acb_poly(list(reversed(ub)))
        x = [poly(b) for b in balls]
        if n == length:
            rec = flint.acb_poly.interpolate(balls, x, algorithm="barycentric")
            cs = rec.coeffs()
            cs += [flint.acb(0)] * (length - len(cs))
            uhat = list(reversed(cs))
        else:
            vm = flint.acb_mat([[b ** (length - 1 - j) for j in range(length)] for b in balls])
            vh = vm.conjugate().transpose()
            uhat_m = (vh * vm).solve(vh * flint.acb_mat([[xi] for xi in x]))
            uhat = [uhat_m[j, 0] for j in range(length)]
        errhp = [float((abs(a - b)).mid() + abs(a - b).rad()) for a, b in zip(uhat, ub,
                                                                              strict=True)]
    return {"timestamps": list(range(1, length + 1)), "error_float64": err64.tolist(),
            "error_highprec": errhp, "max_error_float64": float(err64.max()),
            "max_error_highprec": max(errhp)}


def timestamp_horizons(nodes: Nodes, steps: int, bits: int) -> dict[str, Any]:
    """For each node λ₀ with 0 < |λ₀| < 1: the largest K ≤ ``steps`` such that the corrected
    inversion recovers every k ≤ K (rounds to k) at ``bits`` (mpmath) and in float64 (numpy).
    Nodes outside the statement's hypothesis are skipped (counted in ``skipped``)."""
    import mpmath

    ctx = mpmath.MPContext()
    ctx.prec = bits
    hp: list[int] = []
    f64: list[int] = []
    skipped = 0
    for lam_mp, lam_f in zip(nodes.mp(ctx), nodes.complex128(), strict=True):
        if not 0 < abs(lam_mp) < 1:
            skipped += 1
            continue
        hp.append(_horizon(lam_mp, ctx.mpf(1), steps, ctx.log, abs))
        f64.append(_horizon(complex(lam_f), 1.0, steps, lambda t: float(np.log(t)), abs))
    return {"horizons_highprec": hp, "horizons_float64": f64, "skipped": skipped,
            "min_horizon_highprec": min(hp) if hp else None,
            "min_horizon_float64": min(f64) if f64 else None}


def _horizon(lam: Any, one: Any, steps: int, log: Any, absval: Any) -> int:
    """The last k ≤ ``steps`` before the first k whose recovered value does not round to k."""
    from recmem.theory.timestamp import CORRECTED

    x = 0 * one
    for k in range(1, steps + 1):
        x = lam * x + one  # the recurrence x_k = λ₀ x_{k−1} + 1, x_0 = 0
        z = CORRECTED.argument(lam, x, one)
        if absval(z) == 0:
            return k - 1
        t = CORRECTED.recover(z, lam, log, absval)
        if abs(float(t) - k) >= 0.5:
            return k - 1
    return steps
