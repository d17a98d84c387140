"""Certified float64 enclosures of paper O's Vandermonde matrix V and of V⁻¹ in O(N²) ball work.

V is O's matrix (§3, eq. (4)): row i is (λ_i^{L−1}, …, λ_i, 1) for the nodes λ_1 … λ_N.

**V⁻¹ from the master polynomial** (:func:`inverse_enclosure`, square V with distinct nodes).
With P(z) = Π_j (z − λ_j), q_i = P/(z − λ_i) and the Lagrange polynomial ℓ_i = q_i/P′(λ_i), the
entry V⁻¹[j, i] is the coefficient of z^{N−1−j} in ℓ_i (V·V⁻¹ = [ℓ_i(λ_k)] = I; O's columns are
the decreasing powers, a reversal of the classical layout). In python-flint ball arithmetic at
``bits``: P by ``acb_poly.from_roots`` (a product tree), q_i by exact division by z − λ_i, P′(λ_i)
by evaluation; every coefficient is a ball [m ± r] containing the true entry. Each row is scaled
by 2^{−e_i}, e_i ≥ log₂(Π_{j≠i}(1 + |λ_j|)/|P′(λ_i)|) — the coefficients of q_i are bounded by
those of Π_{j≠i}(z + |λ_j|), whose sum is Π_{j≠i}(1 + |λ_j|) (Gautschi 1962) — so no scaled entry
exceeds 1 and nothing overflows; the rows are then brought to one exponent by exact powers of two.

Each ball becomes a float64 entry m̃ (``complex(ball)``: a faithful rounding of the midpoint m) and
an error bound err ≥ |true − m̃|:

    |true − m̃| ≤ r + |m − m̃| ≤ r·(1 + 2⁻²⁰) + 2⁻⁵¹·(|Re m̃| + |Im m̃|) + 4η,

where r·(1 + 2⁻²⁰) covers rounding the radius to float64 (to nearest) and the width of the
radius ball python-flint returns (arb radii carry 30-bit mantissas, so it is below 2⁻²⁹),
2⁻⁵¹·|m̃| ≥ one ulp of each component (faithful rounding errs by < 1 ulp, and
|m| ≤ |m̃|(1 + 2⁻⁵²)), and 4η (η = 2⁻¹⁰⁷⁴) covers subnormal results, including those of the
power-of-two rescaling of the rows. Where a P′(λ_i) ball contains 0, the nodes are not separated at
this precision and no enclosure is returned (the caller raises the precision).

**V from float64 powers** (:func:`vandermonde_enclosure`). With λ̃_i the nearest float64 node
and δ_i ≥ |λ_i − λ̃_i| (from a 128-bit ball), the powers p̃_0 = 1, p̃_t = fl(p̃_{t−1}·λ̃_i) satisfy
(c = √2·γ_3 ≥ the relative error of one complex product, Higham Lemma 3.5, FMA or not)

    |p̃_t − λ̃^t| ≤ ((1 + c)^t − 1)·ρ̃^t,   |λ̃^t − λ^t| ≤ t·δ·(ρ̃ + δ)^{t−1},

by induction (|p̃_t| ≤ (1 + c)^t ρ̃^t) and the mean value theorem, with ρ̃ = |λ̃|(1 + 4u) ≥ |λ̃|.
The sum of the two, plus 2(t + 1)η for underflow, is evaluated in float64 and doubled: the float
evaluation of this non-negative expression errs by a relative ≪ 1, so doubling makes it a bound.

With both enclosures, :meth:`FloatEnclosure.norm_bounds` (``numerics.float_enclosure``) brackets
‖V‖ and ‖V⁻¹‖ in the 1, ∞, Frobenius and 2 norms, and κ = ‖V‖·‖V⁻¹‖; σ_min(V) = 1/σ_max(V⁻¹).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.numerics.float_enclosure import SQRT2_UP, FloatEnclosure, gamma
from recmem.numerics.nodes import Nodes
from recmem.numerics.numpy_backend import vander

RADIUS_SLACK = 1 + 2.0**-20
CONVERSION = 2.0**-51
TINY = 4 * 2.0**-1074
# A ball stage is good enough once its radii are this small relative to the entries they enclose:
# then the float64 rounding (2⁻⁵¹), not the precision, limits the enclosure.
RADIUS_TARGET = 2.0**-60


SMALL_ROW = 2.0**-900


def _log2_max(cs: list[Any]) -> int | None:
    """⌊log₂ max |c|⌋ over balls ``cs`` (by the midpoints' exponents), None when all are 0."""
    best = None
    for c in cs:
        man, exp = abs(c).mid().man_exp()
        if man:
            k = int(man).bit_length() + int(exp) - 1
            best = k if best is None else max(best, k)
    return best


class NotSeparated(ValueError):
    """The working precision does not separate the nodes (a P′(λ_i) ball contains 0)."""


def _upper(x: Any) -> float:
    """A float ≥ the (non-negative) arb ``x``."""
    return float(x.mid() + x.rad()) * RADIUS_SLACK


def node_balls(nodes: Nodes, bits: int) -> list[Any]:
    """The nodes as python-flint ``acb`` balls at ``bits``."""
    return list(nodes.acb(bits))


def inverse_enclosure(nodes: Nodes, bits: int) -> tuple[FloatEnclosure, float]:
    """A float64 enclosure of V⁻¹ for O's square V (module docstring), and the largest radius of
    its ball stage relative to the row's largest entry (how far the precision was from enough).

    Domain: N ≥ 1 distinct nodes. Raises :class:`NotSeparated` when a P′(λ_i) ball contains 0 at
    ``bits`` (exactly equal nodes are rejected by the caller, from the exact values).
    """
    import flint

    n = len(nodes)
    with flint.ctx.workprec(bits):
        lam = node_balls(nodes, bits)
        p = flint.acb_poly.from_roots(lam)
        dp = p.derivative()
        one = flint.arb(1)
        logs = [(one + abs(x)).log() for x in lam]
        total = sum(logs, flint.arb(0))
        ln2 = flint.arb(2).log()
        mids = np.empty((n, n), dtype=complex)
        errs = np.empty((n, n))
        exps = np.empty(n, dtype=np.int64)
        worst = 0.0
        for i, x in enumerate(lam):
            d = dp(x)
            if d.contains(0):
                raise NotSeparated(f"P′(λ_{i}) is not separated from 0 at {bits} bits")
            q = divmod(p, flint.acb_poly([-x, 1]))[0]
            bound = (total - logs[i] - abs(d).log()) / ln2
            e = math.ceil(float(bound.mid() + bound.rad()) + 1e-9)
            row = q * ((1 / d) * flint.arb(2) ** (-e))
            cs = row.coeffs()
            cs += [flint.acb(0)] * (n - len(cs))
            m = np.array([complex(c) for c in cs])
            if not np.max(np.abs(m)) >= SMALL_ROW:
                # Gautschi's bound overestimates this row by more than 2^900 (large N): rescale
                # it by its own largest modulus so that its entries keep their bits in float64
                k = _log2_max(cs)
                if k is not None:
                    e += k
                    cs = [c * flint.arb(2) ** (-k) for c in cs]
                    m = np.array([complex(c) for c in cs])
            # float(rad) rounds to nearest and the radius ball is < 2⁻²⁹ wide: RADIUS_SLACK covers
            r = np.array([float(c.rad()) for c in cs]) * RADIUS_SLACK
            mids[i] = m
            errs[i] = r + CONVERSION * (np.abs(m.real) + np.abs(m.imag)) + TINY
            exps[i] = e
            top = float(np.max(np.abs(m)))
            if top > 0:
                worst = max(worst, float(np.max(r)) / top)
    # one exponent for all rows: exact powers of two (subnormal results are covered by TINY)
    row_max = np.max(np.abs(mids), axis=1)
    with np.errstate(divide="ignore"):
        top_exp = exps + np.where(row_max > 0, np.frexp(row_max)[1], -10**6)
    g = int(np.max(top_exp))
    shift = (exps - g)[:, None]
    mids = np.ldexp(mids.real, shift) + 1j * np.ldexp(mids.imag, shift)
    errs = np.ldexp(errs, shift) + TINY
    # V⁻¹[j, i] = coefficient of z^{N−1−j} in ℓ_i: reverse the coefficient order, transpose
    return FloatEnclosure(mids[:, ::-1].T.copy(), errs[:, ::-1].T.copy(), g), worst


def vandermonde_enclosure(nodes: Nodes, cols: int) -> FloatEnclosure:
    """A float64 enclosure of O's N×L Vandermonde matrix (module docstring). Domain: N ≥ 1 nodes,
    L ≥ 1 columns; raises FloatRangeError when a power leaves the float64 range."""
    import flint

    from recmem.numerics.float_enclosure import FloatRangeError

    lam = np.asarray(nodes.complex128(), dtype=complex)
    with flint.ctx.workprec(128):
        balls = node_balls(nodes, 128)
        delta = np.array([_upper(abs(flint.acb(complex(t)) - b)) for t, b in zip(lam, balls,
                                                                                     strict=True)])
    u = 2.0**-53
    rho = np.abs(lam) * (1 + 4 * u)
    c = float(SQRT2_UP * gamma(3))
    t = np.arange(cols, dtype=float)
    powers = vander(lam, cols)  # the one float builder: λ^t = λ^(t−1)·λ, one rounding each
    with np.errstate(over="ignore", invalid="ignore"):
        grow = np.expm1(t * math.log1p(c))[None, :] * rho[:, None] ** t[None, :]
        move = t[None, :] * delta[:, None] * (rho + delta)[:, None] ** np.maximum(t - 1, 0)[None, :]
        err = 2 * (grow + move) + 2 * (t[None, :] + 1) * 2.0**-1074
    if not (np.all(np.isfinite(powers)) and np.all(np.isfinite(err))):
        raise FloatRangeError("powers of the nodes leave the float64 range")
    return FloatEnclosure(powers, err[:, ::-1].copy(), 0)


def kappa_bounds(v: FloatEnclosure, vinv: FloatEnclosure, norm: str,
                 target: float) -> tuple[Fraction, Fraction]:
    """lo ≤ κ(V) = ‖V‖·‖V⁻¹‖ ≤ hi in ``norm`` from the two enclosures."""
    a = v.norm_bounds(norm, target=target)
    b = vinv.norm_bounds(norm, target=target)
    return a[0] * b[0], a[1] * b[1]
