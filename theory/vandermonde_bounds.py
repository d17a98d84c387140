"""Reference bounds on the conditioning of Vandermonde matrices, for overlays and sanity checks.

CLAIMS.md, "Reference facts for conditioning studies": no correct computation violates these.
Each bound is evaluated rigorously in ball arithmetic (python-flint ``arb``) from exact nodes, from
mpmath numbers or from balls, so a checker can compare a certified bracket of the measured
quantity with a certified bracket of the bound (:meth:`Overlay.holds_for`).

Orientation (one matrix, three ways of writing it). For N nodes x_1 … x_N and L columns:

- O's V (paper O, eq. 4; ``backend.vandermonde``): row i = (x_i^{L−1}, …, x_i, 1);
- CLAIMS.md's V (``np.vander(x, increasing=True)``): row i = (1, x_i, …, x_i^{L−1}) = O's V with
  its columns reversed, V_O = V_C·J (J the reversal permutation);
- Gautschi's V_G: the transpose of CLAIMS.md's square V (node j in column j).

For L = N: V_O⁻¹ = J·V_C⁻¹ (the rows of V_C⁻¹ reversed), so ‖V_O⁻¹‖₁ = ‖V_C⁻¹‖₁ (the largest
column sum does not see a row permutation), ‖V_O‖₁ = ‖V_C‖₁, ‖·‖_∞ and the singular values are
unchanged too; and V_G⁻¹ = (V_C⁻¹)ᵀ, so ‖V_G⁻¹‖_∞ = ‖V_C⁻¹‖₁ = ‖V_O⁻¹‖₁. Column i of V_C⁻¹ holds
the coefficients of the Lagrange polynomial ℓ_i(x) = Π_{j≠i} (x − x_j)/(x_i − x_j), so
‖V⁻¹‖₁ = max_i ‖ℓ_i‖ with ‖p‖ the sum of the moduli of p's coefficients.

(a) Gautschi's two-sided bound (any N ≥ 1 distinct complex nodes, square V):

    max_i Π_{j≠i} max(1, |x_j|)/|x_i − x_j|  ≤  ‖V⁻¹‖₁  ≤  max_i Π_{j≠i} (1 + |x_j|)/|x_i − x_j|,

with equality on the right when all nodes lie on one ray from the origin (x_j = r_j·e^{iθ},
r_j ≥ 0). Upper bound: W. Gautschi, "On inverses of Vandermonde and confluent Vandermonde
matrices", Numer. Math. 4 (1962) 117–123. Lower bound: W. Gautschi, "On inverses of Vandermonde
and confluent Vandermonde matrices III", Numer. Math. 29 (1978) 445–450 (as cited in N. J. Higham,
*Accuracy and Stability of Numerical Algorithms*, 2nd ed., §22.1, who notes it is within a factor
2^{N−1} of the upper bound). We could not read the original statements here, so both sides are
proved below for every set of distinct complex nodes; neither needs another hypothesis:

- upper: ‖pq‖ ≤ ‖p‖·‖q‖ (triangle inequality on the coefficients of a product) and
  ‖x − x_j‖ = 1 + |x_j|. On a ray, Π_j (x − r_j e^{iθ}) has the coefficients
  (−1)^{n−k} e^{i(n−k)θ} e_{n−k}(r) with e the elementary symmetric functions of r_j ≥ 0: no
  cancellation, so ‖Π_j (x − x_j)‖ = Π_j (1 + r_j) and the bound is attained for every i;
- lower: ‖p‖ ≥ max_{|z|=1} |p(z)| ≥ exp((2π)⁻¹∫ log|p(e^{it})| dt) = |lead(p)|·Π max(1, |root|)
  (the Mahler measure, by Jensen's formula), applied to p = Π_{j≠i} (x − x_j).

(b) Moitra's bound (A. Moitra, "Super-resolution, extremal functions and the condition number of
Vandermonde matrices", STOC 2015, arXiv 1408.1681, Thm 1.1): for k nodes e^{2πi f_j} on the unit
circle with minimum wrap-around separation Δ = min_{j≠l} min_{n∈ℤ} |f_j − f_l − n| and the m×k
matrix with entries e^{2πi f_j·p}, p = 0 … m−1: if m > 1/Δ + 1, then κ² ≤ (m + 1/Δ − 1)/
(m − 1/Δ − 1). Its matrix is the transpose of CLAIMS.md's V with m = L columns (powers) and k = N
nodes; O's V reverses the columns. Transposition, column reversal and multiplying columns by
unimodular constants do not change singular values, so the bound holds for σ_1/σ_N of O's N×L V.
The hypothesis forces L > 1/Δ + 1 ≥ N + 1: O's V is then wide, and this project's κ₂ of a wide
matrix is ∞ (numerics.conditioning: σ_min is the L-th singular value). The overlay's quantity is
therefore ``kappa2_nonzero`` = σ_1/σ_N (the κ₂ of Vᵀ, and of the minimum-norm solve), never κ₂.

(c) Real nodes (theory.real_nodes, proved there for every N ≥ 2 distinct real nodes in [−1, 1],
square V_N): ‖V⁻¹‖₁ ≥ 2^{N−2}/N (step 3), κ₁(V_N) ≥ 2^{N−2} (step 4) and κ₂(V_N) ≥ 2^{N−2}/N (the
proved statement ``real_nodes.PROVED``); paper O §3.1 cites Gautschi–Inglese (1988) for the
exponential growth, and Beckermann (2000) gives the sharp rate.

Norms of V⁻¹ become condition numbers through ‖V‖, computed rigorously here
(:func:`vandermonde_norms`): κ₁ = ‖V‖₁‖V⁻¹‖₁ exactly; κ_∞ = ‖V‖_∞‖V⁻¹‖_∞ with
‖A‖₁/N ≤ ‖A‖_∞ ≤ N‖A‖₁; κ₂ with max_p ‖V e_p‖₂ ≤ ‖V‖₂ ≤ ‖V‖_F and ‖A‖₁/√N ≤ ‖A‖₂ ≤ √N‖A‖₁ (all
for N×N matrices A).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath

if TYPE_CHECKING:
    from recmem.numerics.nodes import Nodes

QUANTITIES = {
    "inv_norm1": "‖V⁻¹‖₁ of the square V_N (L = N; O's or CLAIMS.md's column order alike; "
                 "= Gautschi's ‖V_G⁻¹‖_∞)",
    "kappa1": "κ₁(V_N) = ‖V_N‖₁‖V_N⁻¹‖₁ (L = N)",
    "kappa2": "κ₂(V_N) = σ_max/σ_min (L = N)",
    "kappa_inf": "κ_∞(V_N) = ‖V_N‖_∞‖V_N⁻¹‖_∞ (L = N)",
    "kappa2_nonzero": "σ_1/σ_N of the wide N×L V (L > N): κ₂ of Vᵀ and of the minimum-norm "
                      "solve (the project's κ₂ of a wide V is ∞)",
}
NORMS = ("1", "2", "inf")
SIDES = ("lower", "upper")
DEFAULT_BITS = 128

GAUTSCHI_UPPER = ("W. Gautschi, On inverses of Vandermonde and confluent Vandermonde matrices, "
                  "Numer. Math. 4 (1962) 117–123; proof in recmem.theory.vandermonde_bounds")
GAUTSCHI_LOWER = ("W. Gautschi, On inverses of Vandermonde and confluent Vandermonde matrices III, "
                  "Numer. Math. 29 (1978) 445–450 (Higham, ASNA 2nd ed. §22.1); proof in "
                  "recmem.theory.vandermonde_bounds")
MOITRA = ("A. Moitra, Super-resolution, extremal functions and the condition number of "
          "Vandermonde matrices, STOC 2015 (arXiv 1408.1681), Thm 1.1")
REAL_NODES = ("recmem.theory.real_nodes (paper O §3.1, ref. [9], Gautschi–Inglese 1988): "
              "Chebyshev divided-difference argument")


@dataclass(frozen=True)
class Overlay:
    """One reference bound for one node set, size and quantity.

    ``value`` is a python-flint ``arb`` ball containing the bound's exact value (None when the
    bound does not apply); ``applies`` says whether the hypothesis holds (``reason`` says why
    not, or which hypothesis was checked); ``side`` is ``lower`` or ``upper``; ``quantity`` is a
    key of :data:`QUANTITIES`.
    """

    name: str
    quantity: str
    side: str
    value: Any
    applies: bool
    reason: str = ""
    source: str = ""

    def interval(self, prec: int = 53) -> tuple[mpmath.mpf, mpmath.mpf]:
        """The bound as an mpmath interval (lo, hi), rounded outwards to ``prec`` bits.
        ValueError when the bound does not apply."""
        if not self.applies or self.value is None:
            raise ValueError(f"{self.name} does not apply: {self.reason}")
        return to_interval(self.value, prec)

    def holds_for(self, measured: Any) -> bool | None:
        """Whether a measured value of :attr:`quantity` satisfies the bound: True when certain,
        False when certainly violated, None when the brackets overlap (or the bound does not
        apply). ``measured``: an ``arb``, an exact or float number, an mpmath number, or a
        (lo, hi) bracket of them (e.g. a ``KappaBracket``'s ``(lo, hi)``; hi may be inf)."""
        if not self.applies or self.value is None:
            return None
        m_lo, m_hi = as_bracket(measured)
        b_lo, b_hi = arb_ends(self.value)
        if self.side == "upper":
            if m_hi <= b_lo:
                return True
            return False if m_lo > b_hi else None
        if m_lo >= b_hi:
            return True
        return False if m_hi < b_lo else None


# ---- conversions -------------------------------------------------------------------------------
def _flint() -> Any:
    import flint

    return flint


def _fmpq(q: Fraction) -> Any:
    return _flint().fmpq(q.numerator, q.denominator)


def _mp_fraction(x: Any) -> Fraction | float:
    """The exact value of an mpmath real of any context (inf and nan as floats)."""
    from mpmath import libmp

    from recmem.numerics.certified import mpf_to_fraction

    raw = x._mpf_
    if raw in (libmp.finf, libmp.fninf, libmp.fnan):
        return float(libmp.to_float(raw))
    return mpf_to_fraction(x)


def _is_mpf(x: Any) -> bool:
    return hasattr(x, "_mpf_")


def _is_mpc(x: Any) -> bool:
    return hasattr(x, "_mpc_")


def _exact(x: Any) -> Fraction:
    v = _mp_fraction(x)
    if isinstance(v, float):
        raise ValueError(f"a node must be finite, got {x}")
    return v


def node_balls(nodes: Nodes | Sequence[Any], bits: int = DEFAULT_BITS) -> list[Any]:
    """The nodes as python-flint ``acb`` balls at ``bits`` bits.

    Accepts a :class:`~recmem.numerics.nodes.Nodes` (its certified :meth:`acb`), or a sequence
    of exact values (QQi, Fraction, int; floats and complex taken exactly), mpmath numbers
    (their exact binary values) or ``arb``/``acb`` balls (kept as they are). Every ball contains
    the exact node. TypeError for anything else.
    """
    from recmem.numerics.exact import QQi
    from recmem.numerics.nodes import Nodes

    if isinstance(nodes, Nodes):
        return nodes.acb(bits)
    flint = _flint()
    out = []
    with flint.ctx.workprec(bits):
        for x in nodes:
            if isinstance(x, flint.acb):
                out.append(x)
            elif isinstance(x, flint.arb):
                out.append(flint.acb(x))
            elif isinstance(x, QQi):
                out.append(flint.acb(flint.arb(_fmpq(x.re)), flint.arb(_fmpq(x.im))))
            elif isinstance(x, bool):
                raise TypeError(f"a node must be a number, got {x!r}")
            elif isinstance(x, Fraction | int | float):
                out.append(flint.acb(flint.arb(_fmpq(Fraction(x)))))
            elif isinstance(x, complex):
                out.append(flint.acb(flint.arb(_fmpq(Fraction(x.real))),
                                     flint.arb(_fmpq(Fraction(x.imag)))))
            elif _is_mpf(x):
                out.append(flint.acb(flint.arb(_fmpq(_exact(x)))))
            elif _is_mpc(x):
                out.append(flint.acb(flint.arb(_fmpq(_exact(x.real))),
                                     flint.arb(_fmpq(_exact(x.imag)))))
            else:
                raise TypeError(f"cannot make a node ball from {x!r} (expected a Nodes, QQi, "
                                "Fraction, int, float, complex, mpmath or flint number)")
    return out


def arb_ends(x: Any) -> tuple[Fraction | float, Fraction | float]:
    """The exact ends of an ``arb`` (mid ∓ rad) as Fractions (±inf for an infinite ball)."""
    from recmem.numerics.nodes import arb_endpoints

    if x.is_nan():
        return float("-inf"), float("inf")
    if not (x.mid().is_finite() and x.rad().is_finite()):
        return float("-inf"), float("inf")
    return arb_endpoints(x)


def to_interval(x: Any, prec: int = 53) -> tuple[mpmath.mpf, mpmath.mpf]:
    """An ``arb`` as an mpmath interval (lo, hi) rounded outwards to ``prec`` bits."""
    from mpmath.libmp import from_rational

    lo, hi = arb_ends(x)

    def conv(v: Fraction | float, rnd: str) -> mpmath.mpf:
        if isinstance(v, float):
            return mpmath.mpf(v)
        return mpmath.mpf(from_rational(v.numerator, v.denominator, prec, rnd))

    return conv(lo, "f"), conv(hi, "c")


def as_bracket(measured: Any) -> tuple[Fraction | float, Fraction | float]:
    """Exact ends (lo, hi) of a measured value: an ``arb`` (mid ∓ rad), a (lo, hi) pair, or one
    number (Fraction, int, float, or an mpmath real of any context); infinities stay floats."""
    flint = _flint()
    if isinstance(measured, tuple | list):
        if len(measured) != 2:
            raise ValueError(f"a measured bracket is a pair (lo, hi), got {measured!r}")
        return _scalar_lo(measured[0]), _scalar_hi(measured[1])
    if isinstance(measured, flint.arb):
        return arb_ends(measured)
    return _scalar_lo(measured), _scalar_hi(measured)


def _scalar(v: Any) -> Fraction | float:
    flint = _flint()
    if isinstance(v, flint.arb):
        raise TypeError("a ball inside a bracket")
    if isinstance(v, Fraction | int) and not isinstance(v, bool):
        return Fraction(v)
    if isinstance(v, float):
        return v if not _finite(v) else Fraction(v)
    if _is_mpf(v):
        return _mp_fraction(v)
    raise TypeError(f"cannot read a measured value from {v!r}")


def _finite(v: float) -> bool:
    return v not in (float("inf"), float("-inf")) and v == v


def _scalar_lo(v: Any) -> Fraction | float:
    flint = _flint()
    return arb_ends(v)[0] if isinstance(v, flint.arb) else _scalar(v)


def _scalar_hi(v: Any) -> Fraction | float:
    flint = _flint()
    return arb_ends(v)[1] if isinstance(v, flint.arb) else _scalar(v)


def _finite_ball(x: Any) -> bool:
    return bool(x.is_finite()) and not bool(x.is_nan())


def _arb_max(xs: Sequence[Any]) -> Any:
    best = xs[0]
    for x in xs[1:]:
        best = best.max(x)
    return best


def _pow(x: Any, k: int) -> Any:
    """x^k for an arb and k ≥ 0 by binary powering (no NaN for balls containing 0)."""
    flint = _flint()
    out, base = flint.arb(1), x
    while k:
        if k & 1:
            out = out * base
        base = base * base
        k >>= 1
    return out


# ---- (a) Gautschi ------------------------------------------------------------------------------
def gautschi_bounds(nodes: Nodes | Sequence[Any], bits: int = DEFAULT_BITS) -> tuple[Any, Any]:
    """Gautschi's two-sided bound on ‖V⁻¹‖₁ of the square V_N (= ‖V_G⁻¹‖_∞), as ``arb`` balls:

        max_i Π_{j≠i} max(1, |x_j|)/|x_i − x_j|  ≤  ‖V⁻¹‖₁  ≤  max_i Π_{j≠i} (1 + |x_j|)/|x_i − x_j|

    for any N ≥ 1 distinct complex nodes (either column order: O's eq. 4 or CLAIMS.md's);
    equality on the right when all nodes lie on one ray from the origin. Sources: Gautschi,
    Numer. Math. 4 (1962) 117–123 (upper), Numer. Math. 29 (1978) 445–450 (lower); proofs in
    the module docstring. Returns (lower, upper) balls containing the exact bounds of the exact
    nodes (``nodes`` as in :func:`node_balls`); coincident or overlapping node balls give a
    non-finite ball (V singular, or not resolved at ``bits``).
    """
    flint = _flint()
    xs = node_balls(nodes, bits)
    if not xs:
        raise ValueError("gautschi_bounds needs at least one node")
    with flint.ctx.workprec(bits):
        one = flint.arb(1)
        mods = [abs(x) for x in xs]
        # the numerators are products over j ≠ i of factors ≥ 1: the full product over all j
        # divided by the i-th factor (exact in ball arithmetic, O(N) instead of O(N²))
        f_lo = [m.max(one) for m in mods]
        f_hi = [one + m for m in mods]
        all_lo, all_hi = one, one
        for a, b in zip(f_lo, f_hi, strict=True):
            all_lo, all_hi = all_lo * a, all_hi * b
        lows, highs = [], []
        for i, xi in enumerate(xs):
            den = one
            for j, xj in enumerate(xs):
                if j != i:
                    den = den * abs(xi - xj)
            lows.append(all_lo / f_lo[i] / den)
            highs.append(all_hi / f_hi[i] / den)
        return _arb_max(lows), _arb_max(highs)


def gautschi_lower(nodes: Nodes | Sequence[Any], bits: int = DEFAULT_BITS) -> Any:
    """max_i Π_{j≠i} max(1, |x_j|)/|x_i − x_j| ≤ ‖V⁻¹‖₁ (Gautschi 1978; see
    :func:`gautschi_bounds`), as an ``arb`` ball."""
    return gautschi_bounds(nodes, bits)[0]


def gautschi_upper(nodes: Nodes | Sequence[Any], bits: int = DEFAULT_BITS) -> Any:
    """‖V⁻¹‖₁ ≤ max_i Π_{j≠i} (1 + |x_j|)/|x_i − x_j| (Gautschi 1962; equality for nodes on
    one ray; see :func:`gautschi_bounds`), as an ``arb`` ball."""
    return gautschi_bounds(nodes, bits)[1]


def vandermonde_norms(nodes: Nodes | Sequence[Any], cols: int,
                      bits: int = DEFAULT_BITS) -> dict[str, Any]:
    """Rigorous norms of the N×L Vandermonde matrix (L = ``cols``; either column order), as
    ``arb`` balls:

    - ``norm1`` = ‖V‖₁ = max_p Σ_i |x_i|^p = max(N, Σ_i |x_i|^{L−1}) (Σ_i |x_i|^p is convex in p,
      so its largest value over p = 0 … L−1 is at an end);
    - ``norm_inf`` = ‖V‖_∞ = max_i Σ_{p<L} |x_i|^p = g(max_i |x_i|), g(r) = Σ_{p<L} r^p increasing;
    - ``fro`` = ‖V‖_F = (Σ_i g(|x_i|²))^{1/2};
    - ``col2`` = max_p ‖V e_p‖₂ = max(√N, (Σ_i |x_i|^{2(L−1)})^{1/2}) ≤ ‖V‖₂ ≤ ``fro``.

    Domain: N ≥ 1 nodes, L ≥ 1 (ValueError otherwise). Cost O(N·L) for ``fro``.
    """
    from recmem.numerics.validate import positive_int

    positive_int(cols, "vandermonde_norms: the number of columns L")
    flint = _flint()
    xs = node_balls(nodes, bits)
    if not xs:
        raise ValueError("vandermonde_norms needs at least one node")
    n = len(xs)
    with flint.ctx.workprec(bits):
        mods = [abs(x) for x in xs]
        nn = flint.arb(n)

        def g(r: Any) -> Any:
            s = flint.arb(1)
            for _ in range(cols - 1):
                s = s * r + 1
            return s

        last = sum((_pow(m, cols - 1) for m in mods), flint.arb(0))
        last2 = sum((_pow(m * m, cols - 1) for m in mods), flint.arb(0))
        return {"norm1": nn.max(last), "norm_inf": g(_arb_max(mods)),
                "fro": sum((g(m * m) for m in mods), flint.arb(0)).sqrt(),
                "col2": nn.sqrt().max(last2.sqrt())}


# ---- (b) Moitra --------------------------------------------------------------------------------
def wraparound_separation(turns: Sequence[Any]) -> Any:
    """Moitra's Δ = min_{j≠l} min_{n∈ℤ} |f_j − f_l − n| for k ≥ 2 turns f_j (node e^{2πi f_j}):
    an exact Fraction for Fraction turns, an ``arb`` ball for ball turns (then the neighbours
    are taken in the order of the midpoints; overlapping balls give a ball reaching ≤ 0).
    Domain: at least two turns (ValueError otherwise)."""
    if len(turns) < 2:
        raise ValueError(f"the wrap-around separation needs at least two nodes, got {len(turns)}")
    flint = _flint()
    if all(isinstance(t, Fraction | int) for t in turns):
        ts = sorted(Fraction(t) % 1 for t in turns)
        gaps = [b - a for a, b in itertools.pairwise(ts)] + [1 - ts[-1] + ts[0]]
        return min(gaps)
    balls = [t if isinstance(t, flint.arb) else flint.arb(_fmpq(Fraction(t))) for t in turns]
    # reduce to [0, 1) by the midpoint's floor (a ball straddling an integer stays one ball)
    red = [b - int(b.mid().floor().unique_fmpz()) for b in balls]
    red.sort(key=lambda b: arb_ends(b.mid())[0])
    arb_gaps: list[Any] = [b - a for a, b in itertools.pairwise(red)] + [1 - red[-1] + red[0]]
    out = arb_gaps[0]
    for gap in arb_gaps[1:]:
        out = out.min(gap)
    return out


def moitra_formula(m: Any, inv_delta: Any) -> Any:
    """Moitra's Thm 1.1 bound on κ², (m + 1/Δ − 1)/(m − 1/Δ − 1), in any field (Fractions,
    ``arb``, mpmath); the one definition every caller uses. Valid only where m > 1/Δ + 1
    (:func:`moitra_kappa2_squared` checks that)."""
    return (m + inv_delta - 1) / (m - inv_delta - 1)


def moitra_kappa2_squared(turns: Sequence[Any], m: int, bits: int = DEFAULT_BITS) -> Any | None:
    """Moitra (STOC 2015, Thm 1.1): for k ≥ 2 nodes e^{2πi f_j} on the unit circle with
    wrap-around separation Δ (:func:`wraparound_separation`) and the m×k Vandermonde matrix
    with powers 0 … m−1: if m > 1/Δ + 1 then κ² ≤ (m + 1/Δ − 1)/(m − 1/Δ − 1).

    For O's N×L V (L = m columns, N = k nodes) it bounds (σ_1/σ_N)², the ``kappa2_nonzero`` of
    the module docstring (transposition, column reversal and unimodular column scalings leave
    singular values alone). Returns an ``arb`` ball of the bound, or None where the hypothesis
    m > 1/Δ + 1 fails or cannot be certified from ball turns.
    """
    flint = _flint()
    delta = wraparound_separation(turns)
    with flint.ctx.workprec(bits):
        if isinstance(delta, Fraction):
            if delta <= 0 or not m > 1 / delta + 1:
                return None
            return flint.arb(_fmpq(moitra_formula(Fraction(m), 1 / delta)))
        if not delta > 0:
            return None
        inv = 1 / delta
        if not flint.arb(m) > inv + 1:
            return None
        return moitra_formula(flint.arb(m), inv)


def circle_turn_balls(balls: Sequence[Any], bits: int = DEFAULT_BITS) -> list[Any]:
    """Turns f = arg(x)/(2π) mod 1 of nodes on the unit circle given as ``acb`` balls (nodes
    with a certainly negative real part use 1/2 + arg(−x)/(2π), away from the branch cut)."""
    flint = _flint()
    out = []
    with flint.ctx.workprec(bits):
        two_pi = 2 * flint.arb.pi()
        for x in balls:
            if x.real < 0:
                out.append(flint.arb(1) / 2 + (-x).arg() / two_pi)
            else:
                t = x.arg() / two_pi
                out.append(t + 1 if t < 0 else t)
    return out


# ---- (c) real nodes ----------------------------------------------------------------------------
def real_node_bound(n: int, quantity: str) -> Fraction:
    """The lower bounds that theory.real_nodes proves for N ≥ 2 distinct real nodes in [−1, 1]
    (square V_N, either column order), exactly: ``inv_norm1`` ≥ 2^{N−2}/N (step 3),
    ``kappa1`` ≥ 2^{N−2} (step 4), ``kappa2`` ≥ 2^{N−2}/N (``real_nodes.PROVED.bound``).
    ValueError for N < 2 or another quantity."""
    from recmem.theory.real_nodes import PROVED, argument_bound

    if n < 2:
        raise ValueError(f"the real-node bound needs N ≥ 2, got {n}")
    if quantity == "inv_norm1":
        return argument_bound(n)
    if quantity == "kappa1":
        return Fraction(2) ** (n - 2)
    if quantity == "kappa2":
        return PROVED.bound(n)
    raise ValueError(f"the real-node bound covers inv_norm1, kappa1 and kappa2, not {quantity!r}")


def real_node_hypothesis(nodes: Nodes, cols: int) -> tuple[bool, str]:
    """Whether theory.real_nodes' hypothesis holds exactly: N ≥ 2 distinct real nodes in
    [−radius, radius] (``real_nodes.PROVED.radius`` = 1) and the square V_N (L = N); with a
    one-line reason."""
    from recmem.theory.real_nodes import PROVED

    n = len(nodes)
    if n < 2:
        return False, "needs N ≥ 2 nodes"
    if cols != n:
        return False, f"stated for the square V_N (L = N); here L = {cols}, N = {n}"
    if not nodes.is_real:
        return False, "needs real nodes"
    if not nodes.within_radius(PROVED.radius):
        return False, f"needs the nodes in [−{PROVED.radius}, {PROVED.radius}]"
    if not nodes.distinct():
        return False, "needs distinct nodes (a repeated node makes V singular)"
    return True, f"N ≥ 2 distinct real nodes in [−{PROVED.radius}, {PROVED.radius}], L = N"


# ---- overlays ----------------------------------------------------------------------------------
def _na(name: str, quantity: str, side: str, reason: str, source: str) -> Overlay:
    return Overlay(name, quantity, side, None, False, reason, source)


def overlays(nodes: Nodes, cols: int, norm: str, bits: int = DEFAULT_BITS, *,
             include_inapplicable: bool = True) -> list[Overlay]:
    """Every reference bound for O's N×L V (L = ``cols``) of ``nodes`` in the norm ``norm``
    (``1``, ``2`` or ``inf``), as :class:`Overlay` entries with certified ``arb`` values.

    - ``1``: Gautschi's ‖V⁻¹‖₁ bounds (``inv_norm1``) and κ₁ = ‖V‖₁·(each) (``kappa1``); the
      real-node bounds on ‖V⁻¹‖₁ and κ₁;
    - ``2``: κ₂ from Gautschi (‖V‖₂ ≥ max_p ‖V e_p‖₂, ‖V⁻¹‖₂ ≥ ‖V⁻¹‖₁/√N; ‖V‖₂ ≤ ‖V‖_F,
      ‖V⁻¹‖₂ ≤ √N‖V⁻¹‖₁); the real-node bound on κ₂; Moitra's bound on σ_1/σ_N
      (``kappa2_nonzero``, the square root of :func:`moitra_kappa2_squared`);
    - ``inf``: κ_∞ from Gautschi (‖V‖_∞·‖V⁻¹‖₁/N ≤ κ_∞ ≤ ‖V‖_∞·N‖V⁻¹‖₁); the real-node
      bound is not stated for κ_∞ (listed as not applicable).

    Bounds whose hypothesis fails are listed with ``applies`` False and the reason (leave them
    out with ``include_inapplicable=False``). ValueError for an unknown norm, L < 1 or no nodes.
    """
    from recmem.numerics.validate import positive_int

    if norm not in NORMS:
        raise ValueError(f"unknown norm {norm!r}; expected one of {', '.join(NORMS)}")
    positive_int(cols, "overlays: the number of columns L")
    n = len(nodes)
    if n < 1:
        raise ValueError("overlays needs at least one node")
    flint = _flint()
    out: list[Overlay] = []
    distinct = nodes.distinct()

    # Gautschi and what follows from it (square V only)
    names = {"1": [("Gautschi lower", "inv_norm1", "lower"), ("Gautschi upper", "inv_norm1", "upper"),
                   ("Gautschi lower × ‖V‖₁", "kappa1", "lower"),
                   ("Gautschi upper × ‖V‖₁", "kappa1", "upper")],
             "2": [("Gautschi lower via ‖·‖₂ ≥ ‖·‖₁/√N", "kappa2", "lower"),
                   ("Gautschi upper via ‖·‖₂ ≤ √N‖·‖₁", "kappa2", "upper")],
             "inf": [("Gautschi lower via ‖·‖_∞ ≥ ‖·‖₁/N", "kappa_inf", "lower"),
                     ("Gautschi upper via ‖·‖_∞ ≤ N‖·‖₁", "kappa_inf", "upper")]}[norm]
    why = ("" if cols == n and distinct else
           f"V is {n}×{cols}: no inverse (Gautschi's bounds are for the square V_N, L = N)"
           if cols != n else "a repeated node makes V singular")
    if why:
        out += [_na(nm, q, s, why, GAUTSCHI_LOWER if s == "lower" else GAUTSCHI_UPPER)
                for nm, q, s in names]
    else:
        lo, hi = gautschi_bounds(nodes, bits)
        norms = vandermonde_norms(nodes, cols, bits)
        with flint.ctx.workprec(bits):
            nn = flint.arb(n)
            values = {"1": [lo, hi, norms["norm1"] * lo, norms["norm1"] * hi],
                      "2": [norms["col2"] * lo / nn.sqrt(), norms["fro"] * nn.sqrt() * hi],
                      "inf": [norms["norm_inf"] * lo / nn, norms["norm_inf"] * nn * hi]}[norm]
        for (nm, q, s), v in zip(names, values, strict=True):
            src = GAUTSCHI_LOWER if s == "lower" else GAUTSCHI_UPPER
            if _finite_ball(v):
                out.append(Overlay(nm, q, s, v, True, "N distinct complex nodes, L = N", src))
            else:
                out.append(_na(nm, q, s, f"not resolved at {bits} bits (non-finite ball)", src))

    # the real-node bounds
    real_q = {"1": ["inv_norm1", "kappa1"], "2": ["kappa2"], "inf": ["kappa_inf"]}[norm]
    ok, reason = real_node_hypothesis(nodes, cols)
    for q in real_q:
        name = "real nodes in [−1, 1]"
        if q == "kappa_inf":
            out.append(_na(name, q, "lower", "proved for ‖V⁻¹‖₁, κ₁ and κ₂ only", REAL_NODES))
        elif not ok:
            out.append(_na(name, q, "lower", reason, REAL_NODES))
        else:
            with flint.ctx.workprec(bits):
                v = flint.arb(_fmpq(real_node_bound(n, q)))
            out.append(Overlay(name, q, "lower", v, True, reason, REAL_NODES))

    # Moitra (2-norm, nodes on the unit circle)
    if norm == "2":
        out.append(_moitra_overlay(nodes, cols, bits, distinct))
    return out if include_inapplicable else [o for o in out if o.applies]


def _moitra_overlay(nodes: Nodes, cols: int, bits: int, distinct: bool) -> Overlay:
    flint = _flint()
    name, q = "Moitra Thm 1.1", "kappa2_nonzero"
    n = len(nodes)
    if n < 2:
        return _na(name, q, "upper", "needs at least two nodes (Δ is a minimum over pairs)", MOITRA)
    if not nodes.on_unit_circle:
        return _na(name, q, "upper", "needs every node on the unit circle", MOITRA)
    if not distinct:
        return _na(name, q, "upper", "a repeated node: Δ = 0", MOITRA)
    exact = nodes.circle_turns()
    turns: Sequence[Any] = exact if exact is not None else circle_turn_balls(nodes.acb(bits), bits)
    delta = wraparound_separation(turns)
    sq = moitra_kappa2_squared(turns, cols, bits)
    if sq is None:
        inv = (f"{1 / delta}" if isinstance(delta, Fraction)
               else mpmath.nstr(to_interval(1 / delta)[1], 6) if delta > 0 else "∞")
        return _na(name, q, "upper", f"needs L > 1/Δ + 1 (m > 1/Δ + 1 in Moitra's notation); "
                   f"here L = {cols}, 1/Δ = {inv}", MOITRA)
    with flint.ctx.workprec(bits):
        value = sq.sqrt()
    return Overlay(name, q, "upper", value, True,
                   f"{n} nodes on the unit circle, L = {cols} > 1/Δ + 1", MOITRA)
