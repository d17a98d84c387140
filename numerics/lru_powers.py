"""Powers of one complex eigenvalue λ = exp(−ν + iθ) in any real arithmetic (paper L App. E.2).

λ^k by k − 1 complex multiplications carried out in real pairs, with forward-mode derivatives
d/dν (dλ/dν = −λ) and d/dθ (dλ/dθ = iλ) propagated by the product rule: the definition of the
learning-powers loss L = ½|λ^k − (λ*)^k|² and of its gradient, written once for numpy, torch and
mpmath scalars alike (no closed form of Re λ^k or of the gradient is used).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Pair = tuple[Any, Any]


def _mul(p: Pair, q: Pair) -> Pair:
    return p[0] * q[0] - p[1] * q[1], p[0] * q[1] + p[1] * q[0]


def _add(p: Pair, q: Pair) -> Pair:
    return p[0] + q[0], p[1] + q[1]


def power_with_derivatives(nu: Any, theta: Any, k: int, exp: Callable[[Any], Any],
                           cos: Callable[[Any], Any], sin: Callable[[Any], Any]
                           ) -> tuple[Pair, Pair, Pair]:
    """(λ^k, ∂λ^k/∂ν, ∂λ^k/∂θ) as (re, im) pairs, λ = e^{−ν}(cos θ + i sin θ), k ≥ 1, by
    repeated multiplication (L App. E.2)."""
    r = exp(-nu)
    lam: Pair = (r * cos(theta), r * sin(theta))
    d_nu: Pair = (-lam[0], -lam[1])
    d_th: Pair = (-lam[1], lam[0])
    p, p_nu, p_th = lam, d_nu, d_th
    for _ in range(k - 1):
        p, p_nu, p_th = (_mul(p, lam), _add(_mul(p_nu, lam), _mul(p, d_nu)),
                         _add(_mul(p_th, lam), _mul(p, d_th)))
    return p, p_nu, p_th


def loss_gradient(nu: Any, theta: Any, nu_s: Any, theta_s: Any, k: int,
                  exp: Callable[[Any], Any], cos: Callable[[Any], Any],
                  sin: Callable[[Any], Any]) -> tuple[Any, Any, Any]:
    """(L, ∂L/∂ν, ∂L/∂θ) of L = ½|λ^k − (λ*)^k|², λ = exp(−ν + iθ), λ* = exp(−ν* + iθ*)
    (L App. E.2), by forward-mode differentiation of the repeated product."""
    p, p_nu, p_th = power_with_derivatives(nu, theta, k, exp, cos, sin)
    target, _, _ = power_with_derivatives(nu_s, theta_s, k, exp, cos, sin)
    er, ei = p[0] - target[0], p[1] - target[1]
    return ((er * er + ei * ei) / 2, er * p_nu[0] + ei * p_nu[1], er * p_th[0] + ei * p_th[1])


def standard_power_derivatives(a: Any, b: Any, k: int) -> tuple[Pair, Pair, Pair]:
    """(λ^k, ∂λ^k/∂λ_r, ∂λ^k/∂λ_i) for the standard parameterisation λ = a + ib (dλ/da = 1,
    dλ/db = i), k ≥ 0, by repeated multiplication with the product rule (L App. E.2)."""
    one, zero = a ** 0, a * 0
    lam: Pair = (a, b)
    p: Pair = (one, zero)
    p_a: Pair = (zero, zero)
    p_b: Pair = (zero, zero)
    for _ in range(k):
        p, p_a, p_b = (_mul(p, lam), _add(_mul(p_a, lam), p),
                       _add(_mul(p_b, lam), (-p[1], p[0])))
    return p, p_a, p_b
