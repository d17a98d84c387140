"""Reference bounds on Vandermonde conditioning (recmem.theory.vandermonde_bounds) against
certified values on small exact cases (N ≤ 8): ‖V⁻¹‖₁ and κ from ball-arithmetic inverses at 200
bits and exact rational arithmetic, κ₂ from Rump-certified Gram eigenvalues; plus negative
controls (deliberately mistranscribed bounds) that the same checks must catch."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import flint
import mpmath
import pytest

from recmem.numerics import nodes as nd
from recmem.numerics.backend import make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.node_families import parse_family
from recmem.theory import real_nodes
from recmem.theory import vandermonde_bounds as vb

F = Fraction
BITS = 200
MARGIN = F(1, 2**150)  # for bounds that hold with equality (the balls then overlap)


# ---- measured quantities (independent of the module under test) ---------------------------------
def vmatrix(nodes: nd.Nodes, cols: int, *, increasing: bool = False) -> Any:
    """O's V (columns λ^{L−1} … 1) or CLAIMS.md's (1 … λ^{L−1}) as a flint matrix at 200 bits."""
    fb = make_backend(f"flint@{BITS}")
    with fb.activate():
        v = fb.vandermonde(nodes.to(fb), cols)
        if increasing:
            v = flint.acb_mat([[v[i, cols - 1 - j] for j in range(cols)] for i in range(v.nrows())])
        return v


def _sum_abs(entries: Sequence[Any]) -> Any:
    return sum((abs(e) for e in entries), flint.arb(0))


def matrix_norms(a: Any) -> tuple[Any, Any]:
    """(‖A‖₁, ‖A‖_∞) of a flint matrix as balls."""
    with flint.ctx.workprec(BITS):
        r, c = a.nrows(), a.ncols()
        cols = [_sum_abs([a[i, j] for i in range(r)]) for j in range(c)]
        rows = [_sum_abs([a[i, j] for j in range(c)]) for i in range(r)]
        return vb._arb_max(cols), vb._arb_max(rows)


def inverse_norms(nodes: nd.Nodes, *, increasing: bool = False) -> tuple[Any, Any]:
    """(‖V⁻¹‖₁, ‖V⁻¹‖_∞) of the square V, certified (flint's inverse encloses the exact one)."""
    v = vmatrix(nodes, len(nodes), increasing=increasing)
    with flint.ctx.workprec(BITS):
        return matrix_norms(v.inv())


def kappa2(nodes: nd.Nodes, cols: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(lo, hi) around σ_1/σ_min(N, L) of O's V (κ₂ for L ≤ N, κ₂ of Vᵀ for L > N), from
    mpmath's SVD at 200 bits widened by a relative 2^-120 (far above the SVD's error for these
    small, at worst moderately conditioned matrices, and far below any gap a test relies on)."""
    ctx = mpmath.MPContext()
    ctx.prec = BITS
    lam = nodes.mp(ctx)
    v = ctx.matrix([[x ** (cols - 1 - j) for j in range(cols)] for x in lam])
    s = ctx.svd_c(v, compute_uv=False)
    sig = sorted((s[i] for i in range(min(len(lam), cols))), reverse=True)
    k = sig[0] / sig[-1]
    slack = ctx.mpf(2) ** -120
    return k * (1 - slack), k * (1 + slack)


def measured(nodes: nd.Nodes, cols: int, quantity: str) -> Any:
    """The measured value of an overlay's quantity, as a ball or a (lo, hi) bracket."""
    if quantity in ("kappa2", "kappa2_nonzero"):
        return kappa2(nodes, cols)
    one, inf = inverse_norms(nodes)
    v1, vinf = matrix_norms(vmatrix(nodes, cols))
    with flint.ctx.workprec(BITS):
        return {"inv_norm1": one, "kappa1": v1 * one, "kappa_inf": vinf * inf}[quantity]


def contains(ball: Any, q: Fraction) -> bool:
    """Whether ``ball`` contains the exact rational ``q`` (converted at a precision far above
    the ball's, so that its own rounding does not matter)."""
    with flint.ctx.workprec(4 * BITS):
        return bool(ball.contains(flint.fmpq(q.numerator, q.denominator)))


def ends(x: Any) -> tuple[Any, Any]:
    return vb.as_bracket(x)


def holds_with_margin(side: str, bound: Any, value: Any) -> bool:
    """The bound holds up to a relative 2^-150 (ties in exact arithmetic are allowed)."""
    (b_lo, b_hi), (m_lo, m_hi) = ends(bound), ends(value)
    if side == "upper":
        return m_lo <= b_hi * (1 + MARGIN)
    return m_hi >= b_lo * (1 - MARGIN)


def certainly_violated(side: str, bound: Any, value: Any) -> bool:
    (b_lo, b_hi), (m_lo, m_hi) = ends(bound), ends(value)
    return m_lo > b_hi if side == "upper" else m_hi < b_lo


def gaussian(*pairs: tuple[Fraction, Fraction]) -> nd.Nodes:
    return nd.Nodes("gaussian", values=tuple(QQi(F(a), F(b)) for a, b in pairs))


CASES: list[tuple[str, nd.Nodes]] = []
for _spec in ("equispaced:-1:1", "equispaced:0:1", "equispaced:-2:-1/2", "chebyshev:-1:1",
              "chebyshev:0:3", "roots-of-unity", "circle:1/2", "circle:3/2", "vandercorput",
              "ring:0.9:1", "ring:0:1", "real-uniform:-1:1", "real-uniform:-3:5"):
    for _n in (1, 2, 3, 5, 8):
        CASES.append((f"{_spec} N={_n}", parse_family(_spec).nodes(_n, 0)))
CASES += [
    ("gaussian 4", gaussian((F(1), F(2)), (F(-1, 2), F(0)), (F(0), F(3, 4)), (F(2), F(-1)))),
    ("gaussian 6", gaussian((F(1, 3), F(1, 5)), (F(-1), F(1)), (F(0), F(-2)), (F(3, 2), F(0)),
                            (F(-1, 4), F(-1, 4)), (F(1, 7), F(5, 3)))),
    ("unit-circle rationals", gaussian((F(3, 5), F(4, 5)), (F(-4, 5), F(3, 5)), (F(5, 13), F(-12, 13)),
                                       (F(1), F(0)), (F(-1), F(0)))),
]
IDS = [c[0] for c in CASES]


# ---- (a) Gautschi -------------------------------------------------------------------------------
@pytest.mark.parametrize(("label", "nodes"), CASES, ids=IDS)
def test_gautschi_sandwich_holds(label: str, nodes: nd.Nodes) -> None:
    lo, hi = vb.gautschi_bounds(nodes, BITS)
    one, _ = inverse_norms(nodes)
    assert holds_with_margin("lower", lo, one), label
    assert holds_with_margin("upper", hi, one), label
    # either column order: ‖V⁻¹‖₁ is the same for O's V and CLAIMS.md's V
    one_c, _ = inverse_norms(nodes, increasing=True)
    assert one.overlaps(one_c)


@pytest.mark.parametrize("spec", ["equispaced:-1:1", "equispaced:1/3:7/3", "chebyshev:-1:1"])
def test_gautschi_matches_exact_rational_arithmetic(spec: str) -> None:
    for n in range(2, 9):
        nodes = parse_family(spec).nodes(n, 0)
        lo, hi = vb.gautschi_bounds(nodes, BITS)
        if nodes.values is None:
            continue
        xs = [v.re for v in nodes.values]
        lo_q, hi_q = real_nodes.gautschi_bounds(xs)  # exact Fractions (fmpq)
        assert contains(lo, lo_q) and contains(hi, hi_q)
        assert lo_q <= real_nodes.inverse_norm1(xs) <= hi_q
        # the same bound from plain Fractions
        lo2, hi2 = vb.gautschi_bounds(xs, BITS)
        assert lo2.overlaps(lo) and hi2.overlaps(hi)


RAYS = [
    ("positive ray with 0", parse_family("equispaced:0:1")),
    ("negative ray", parse_family("equispaced:-2:-1/2")),
]


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_gautschi_upper_is_attained_on_a_ray(n: int) -> None:
    rays = [fam.nodes(n, 0) for _, fam in RAYS]
    for turn in (F(1, 8), F(1, 3), F(5, 7)):  # rays at irrational and rational angles
        radii = [F(0)] + [F(k, 3) for k in range(1, n)]
        rays.append(nd.Nodes("ray", points=tuple(nd.Polar(r, turn) for r in radii)))
    for nodes in rays:
        _, hi = vb.gautschi_bounds(nodes, BITS)
        one, _ = inverse_norms(nodes)
        (h_lo, h_hi), (o_lo, o_hi) = vb.arb_ends(hi), vb.arb_ends(one)
        assert abs(o_hi - h_lo) <= MARGIN * h_hi and abs(h_hi - o_lo) <= MARGIN * h_hi


def test_gautschi_upper_is_not_attained_off_a_ray() -> None:
    nodes = nd.roots(4)  # ‖V⁻¹‖₁ = 1 (V⁻¹ = Vᴴ/4), upper bound 2^{N−1}/N = 2
    lo, hi = vb.gautschi_bounds(nodes, BITS)
    one, _ = inverse_norms(nodes)
    assert contains(one, F(1)) and contains(hi, F(2)) and contains(lo, F(1, 4))


def test_gautschi_single_node_and_singular_sets() -> None:
    lo, hi = vb.gautschi_bounds([F(5)], BITS)
    assert lo == 1 and hi == 1  # V = [1], V⁻¹ = [1]
    lo, hi = vb.gautschi_bounds([F(1), F(1)], BITS)
    assert not (lo.is_finite() and hi.is_finite()) or lo.is_nan()
    with pytest.raises(ValueError, match="at least one node"):
        vb.gautschi_bounds([], BITS)


# ---- (b) Moitra ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 9))
def test_roots_of_unity_kappa2_is_one_and_moitra_is_at_least_one(n: int) -> None:
    nodes = nd.roots(n)
    lo, hi = kappa2(nodes, n)
    assert lo <= 1 <= hi and hi - lo < mpmath.mpf(2) ** -60
    # L = N: 1/Δ = N, so L > 1/Δ + 1 fails and the bound does not apply
    assert vb.moitra_kappa2_squared(nodes.circle_turns() or (), n) is None
    (moitra,) = [o for o in vb.overlays(nodes, n, "2") if o.name.startswith("Moitra")]
    assert not moitra.applies and "L > 1/Δ + 1" in moitra.reason and "1/Δ = " + str(n) in moitra.reason
    # L = 2N: V Vᴴ = 2N·I, σ_1/σ_N = 1 ≤ Moitra's bound √((3N − 1)/(N − 1))
    lo, hi = kappa2(nodes, 2 * n)
    assert lo <= 1 <= hi
    sq = vb.moitra_kappa2_squared(nodes.circle_turns() or (), 2 * n)
    assert sq is not None and contains(sq, F(3 * n - 1, n - 1)) and sq >= 1
    (moitra,) = [o for o in vb.overlays(nodes, 2 * n, "2") if o.name.startswith("Moitra")]
    assert moitra.applies and moitra.quantity == "kappa2_nonzero"
    assert moitra.holds_for((lo, hi)) is True


def _random_turns(n: int, seed: int) -> nd.Nodes:
    draws = nd.uniform_draws(seed, n)
    turns = sorted({F(round(u * 97), 97) % 1 for u in draws})
    return nd.Nodes("random turns", points=tuple(nd.Polar(F(1), t) for t in turns))


MOITRA_CASES = [("vandercorput 5", parse_family("vandercorput").nodes(5, 0)),
                ("vandercorput 6", parse_family("vandercorput").nodes(6, 0)),
                ("unit-circle rationals", CASES[-1][1]),
                ("random turns a", _random_turns(5, 1)), ("random turns b", _random_turns(7, 4))]


@pytest.mark.parametrize(("label", "nodes"), MOITRA_CASES, ids=[c[0] for c in MOITRA_CASES])
def test_moitra_holds_where_it_applies(label: str, nodes: nd.Nodes) -> None:
    turns = nodes.circle_turns()
    if turns is None:
        turns = vb.circle_turn_balls(nodes.acb(BITS), BITS)
    delta = vb.wraparound_separation(turns)
    inv = 1 / delta
    threshold = int(inv if isinstance(inv, Fraction) else vb.arb_ends(inv)[1]) + 2
    for cols in (threshold, threshold + 3, 2 * threshold):
        sq = vb.moitra_kappa2_squared(turns, cols, BITS)
        assert sq is not None, (label, cols)
        _, hi = kappa2(nodes, cols)
        assert hi * hi <= vb.to_interval(sq)[0], (label, cols)
    assert vb.moitra_kappa2_squared(turns, threshold - 2, BITS) is None  # L ≤ 1/Δ + 1


def test_wraparound_separation_exact_and_balls() -> None:
    turns = [F(0), F(1, 3), F(9, 10)]
    assert vb.wraparound_separation(turns) == F(1, 10)
    assert vb.wraparound_separation([F(7, 4), F(-1, 4)]) == 0  # the same point
    with flint.ctx.workprec(BITS):
        balls = [flint.arb(flint.fmpq(t.numerator, t.denominator)) for t in turns]
    assert contains(vb.wraparound_separation(balls), F(1, 10))
    circle = gaussian((F(3, 5), F(4, 5)), (F(-1), F(0)), (F(3, 5), F(-4, 5)))
    t = vb.circle_turn_balls(circle.acb(BITS), BITS)
    assert contains(t[1], F(1, 2))
    with pytest.raises(ValueError, match="at least two"):
        vb.wraparound_separation([F(0)])


# ---- (c) real nodes -----------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["equispaced:-1:1", "chebyshev:-1:1", "real-uniform:-1:1",
                                  "chebyshev:-1/2:1/4"])
def test_real_node_bound_holds(spec: str) -> None:
    for n in range(2, 9):
        nodes = parse_family(spec).nodes(n, 0)
        ok, reason = vb.real_node_hypothesis(nodes, n)
        assert ok, reason
        one, _ = inverse_norms(nodes)
        v1, _ = matrix_norms(vmatrix(nodes, n))
        with flint.ctx.workprec(BITS):
            k1 = v1 * one
        assert k1 >= 2 ** (n - 2) and one >= flint.arb(2 ** (n - 2)) / n
        lo, _ = kappa2(nodes, n)
        b = vb.real_node_bound(n, "kappa2")
        assert lo >= mpmath.mpf(b.numerator) / b.denominator
        if nodes.values is not None:  # exact κ₁ for rational nodes
            assert real_nodes.kappa1([v.re for v in nodes.values]) >= vb.real_node_bound(n, "kappa1")


def test_real_node_hypothesis_refusals() -> None:
    cases = [(parse_family("equispaced:-2:2").nodes(4, 0), 4, "in [−1, 1]"),
             (nd.roots(4), 4, "real nodes"),
             (parse_family("equispaced:-1:1").nodes(4, 0), 6, "square V_N"),
             (parse_family("equispaced:-1:1").nodes(1, 0), 1, "N ≥ 2"),
             (nd.Nodes("dup", values=(QQi(F(1, 2)), QQi(F(1, 2)))), 2, "distinct")]
    for nodes, cols, fragment in cases:
        ok, reason = vb.real_node_hypothesis(nodes, cols)
        assert not ok and fragment in reason
    assert vb.real_node_bound(5, "kappa1") == 8 and vb.real_node_bound(5, "kappa2") == F(8, 5)
    with pytest.raises(ValueError):
        vb.real_node_bound(1, "kappa2")
    with pytest.raises(ValueError):
        vb.real_node_bound(4, "kappa_inf")


# ---- norms of V, and the overlays as sanity inequalities --------------------------------------------
@pytest.mark.parametrize(("label", "nodes"), CASES[::3], ids=IDS[::3])
def test_vandermonde_norms_match_the_matrix(label: str, nodes: nd.Nodes) -> None:
    for cols in (1, len(nodes), len(nodes) + 3):
        norms = vb.vandermonde_norms(nodes, cols, BITS)
        for increasing in (False, True):
            v = vmatrix(nodes, cols, increasing=increasing)
            n1, ninf = matrix_norms(v)
            with flint.ctx.workprec(BITS):
                fro = sum((abs(v[i, j]) * abs(v[i, j]) for i in range(v.nrows())
                           for j in range(v.ncols())), flint.arb(0)).sqrt()
                col2 = vb._arb_max([sum((abs(v[i, j]) * abs(v[i, j]) for i in range(v.nrows())),
                                        flint.arb(0)).sqrt() for j in range(v.ncols())])
            for key, direct in (("norm1", n1), ("norm_inf", ninf), ("fro", fro), ("col2", col2)):
                assert norms[key].overlaps(direct), (label, cols, key)


@pytest.mark.parametrize(("label", "nodes"), CASES, ids=IDS)
@pytest.mark.parametrize("norm", ["1", "2", "inf"])
def test_every_applicable_overlay_holds(label: str, nodes: nd.Nodes, norm: str) -> None:
    n = len(nodes)
    for cols in {n, 2 * n + 2}:
        for o in vb.overlays(nodes, cols, norm, BITS):
            assert o.quantity in vb.QUANTITIES and o.side in vb.SIDES and o.source
            if not o.applies:
                assert o.value is None and o.reason
                continue
            value = measured(nodes, cols, o.quantity)
            assert o.holds_for(value) is not False, (label, cols, o)
            assert holds_with_margin(o.side, o.value, value), (label, cols, o)


def test_overlays_list_what_applies() -> None:
    cheb = parse_family("chebyshev:-1:1").nodes(6, 0)
    one = vb.overlays(cheb, 6, "1")
    assert [(o.quantity, o.side) for o in one if o.applies] == [
        ("inv_norm1", "lower"), ("inv_norm1", "upper"), ("kappa1", "lower"), ("kappa1", "upper"),
        ("inv_norm1", "lower"), ("kappa1", "lower")]
    two = {o.name: o for o in vb.overlays(cheb, 6, "2")}
    assert two["Moitra Thm 1.1"].reason == "needs every node on the unit circle"
    assert two["real nodes in [−1, 1]"].applies
    wide = vb.overlays(cheb, 9, "1")
    assert not any(o.applies for o in wide)
    assert "no inverse" in wide[0].reason and "square V_N" in wide[-1].reason
    roots = vb.overlays(nd.roots(8), 8, "2", include_inapplicable=False)
    assert [o.quantity for o in roots] == ["kappa2", "kappa2"]
    inf = vb.overlays(cheb, 6, "inf")
    assert [o.applies for o in inf] == [True, True, False]
    dup = vb.overlays(parse_family("ring:0:0").nodes(3, 0), 3, "2")
    assert all(not o.applies for o in dup) and "singular" in dup[0].reason
    with pytest.raises(ValueError, match="unknown norm 'fro'"):
        vb.overlays(cheb, 6, "fro")
    with pytest.raises(ValueError):
        vb.overlays(cheb, 0, "1")


def test_overlay_interval_and_three_valued_check() -> None:
    with flint.ctx.workprec(BITS):
        third = flint.arb(flint.fmpq(1, 3))
    up = vb.Overlay("test", "kappa2", "upper", third, True)
    lo, hi = up.interval(20)
    assert lo < mpmath.mpf(1) / 3 < hi and hi - lo < mpmath.mpf(2) ** -18
    assert up.holds_for(F(1, 4)) is True and up.holds_for(F(1, 2)) is False
    assert up.holds_for(third) is None and up.holds_for((F(0), mpmath.inf)) is None
    assert up.holds_for((mpmath.mpf(0), mpmath.mpf("0.3"))) is True
    down = vb.Overlay("test", "kappa2", "lower", third, True)
    assert down.holds_for(0.5) is True and down.holds_for(0.25) is False
    na = vb.Overlay("test", "kappa2", "upper", None, False, "no")
    assert na.holds_for(1) is None
    with pytest.raises(ValueError, match="does not apply"):
        na.interval()


def test_node_balls_accept_every_number_type() -> None:
    xs = [F(1, 3), F(-2), F(1, 2)]
    ref_lo, ref_hi = vb.gautschi_bounds(xs, BITS)
    ctx = mpmath.MPContext()
    ctx.prec = 300
    with flint.ctx.workprec(BITS):
        arbs = [flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in xs]
    for form in ([QQi(x) for x in xs], [ctx.mpf(x.numerator) / x.denominator for x in xs],
                 [ctx.mpc(ctx.mpf(x.numerator) / x.denominator, 0) for x in xs], arbs,
                 [flint.acb(a) for a in arbs], [float(x) for x in xs], [complex(float(x)) for x in xs]):
        lo, hi = vb.gautschi_bounds(form, BITS)
        assert lo.overlaps(ref_lo) or abs(float(lo.mid()) / float(ref_lo.mid()) - 1) < 1e-14
        assert hi.overlaps(ref_hi) or abs(float(hi.mid()) / float(ref_hi.mid()) - 1) < 1e-14
    with pytest.raises(TypeError):
        vb.node_balls(["1/2"], BITS)
    with pytest.raises(TypeError):
        vb.node_balls([True], BITS)


# ---- negative controls: mistranscribed bounds must be caught ------------------------------------
def _product_bound(nodes: nd.Nodes, factor: Callable[[Any], Any], *, drop_one: bool = False) -> Any:
    """max_i Π_{j≠i} factor(|x_j|)/|x_i − x_j|, optionally over one factor fewer."""
    xs = vb.node_balls(nodes, BITS)
    with flint.ctx.workprec(BITS):
        best = None
        for i, xi in enumerate(xs):
            others = [j for j in range(len(xs)) if j != i]
            if drop_one:
                others = others[:-1]
            p = flint.arb(1)
            for j in others:
                p = p * factor(abs(xs[j])) / abs(xi - xs[j])
            best = p if best is None else best.max(p)
        return best


def test_control_gautschi_upper_one_factor_short_is_caught() -> None:
    nodes = parse_family("equispaced:0:1").nodes(5, 0)
    right = _product_bound(nodes, lambda m: 1 + m)
    wrong = _product_bound(nodes, lambda m: 1 + m, drop_one=True)
    one, _ = inverse_norms(nodes)
    assert right.overlaps(vb.gautschi_upper(nodes, BITS))
    assert holds_with_margin("upper", right, one)
    assert certainly_violated("upper", wrong, one)


def test_control_gautschi_lower_with_the_upper_numerator_is_caught() -> None:
    nodes = nd.roots(4)
    wrong = _product_bound(nodes, lambda m: 1 + m)  # (1 + |x_j|) where max(1, |x_j|) belongs
    right = _product_bound(nodes, lambda m: m.max(flint.arb(1)))
    one, _ = inverse_norms(nodes)
    assert right.overlaps(vb.gautschi_lower(nodes, BITS))
    assert certainly_violated("lower", wrong, one)


def test_control_transposed_reading_is_caught() -> None:
    """‖V⁻¹‖_∞ (CLAIMS.md's V read the other way round) breaks Gautschi's sandwich."""
    nodes = parse_family("equispaced:0:1").nodes(4, 0)
    _, hi = vb.gautschi_bounds(nodes, BITS)
    _, inf = inverse_norms(nodes)
    assert certainly_violated("upper", hi, inf)  # 54 > 45


def test_control_moitra_swapped_and_hypothesis_dropped_are_caught() -> None:
    n = 5
    nodes = nd.roots(n)
    m, inv_delta = F(2 * n), F(n)
    swapped = (m - inv_delta - 1) / (m + inv_delta - 1)  # numerator and denominator exchanged
    assert vb.moitra_formula(m, inv_delta) == F(3 * n - 1, n - 1)
    lo, _ = ends(kappa2(nodes, 2 * n))
    assert lo * lo > swapped  # κ² = 1 > 4/14
    # the formula outside its hypothesis (L = N: m = 1/Δ) is negative: κ² > it, so the hypothesis
    # check is what keeps the bound honest
    outside = vb.moitra_formula(F(n), inv_delta)
    lo_sq, _ = ends(kappa2(nodes, n))
    assert outside < 0 and lo_sq * lo_sq > outside
    assert vb.moitra_kappa2_squared(nodes.circle_turns() or (), n) is None


def test_control_real_node_bound_strengthened_is_caught() -> None:
    nodes = nd.Nodes("±1", values=(QQi(F(-1)), QQi(F(1))))
    lo, hi = ends(kappa2(nodes, 2))  # κ₂ = 1 at N = 2
    assert hi < 3 * vb.real_node_bound(2, "kappa2")  # constant tripled: 3/2 > 1
    assert hi < F(2) ** 2 / 2  # exponent raised by two: 2^N/N = 2 > 1
    assert lo >= vb.real_node_bound(2, "kappa2")
