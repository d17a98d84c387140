"""The conditioning engine (numerics/condition.py): certified κ and σ of O's V against values known
exactly, the structured route against the dense one, overlays, and the other quantities.

Known exactly: roots of unity (V = √N × unitary: κ₂ = 1, κ₁ = κ_∞ = κ_F = N); circle:R nodes
(V = F·diag(R^{N−1−j}) with F a DFT matrix: κ₂ = R^{−(N−1)} for R < 1); real nodes (κ₁ exactly
over ℚ, theory.real_nodes); nodes on one ray (Gautschi's upper bound on ‖V⁻¹‖₁ is attained).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from recmem.numerics import condition as cond
from recmem.numerics.condition import Point, compute


def kappa(spec: str, n: int, norm: str = "2", cols: int | None = None, seed: int = 0,
          **kw: object) -> dict:
    return compute(Point(spec, n, n if cols is None else cols, seed, None, norm, "kappa", **kw))


def mpq(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def inside(row: dict, value: object) -> bool:
    v = mpq(value) if isinstance(value, Fraction) else mpmath.mpf(value)
    return mpmath.mpf(row["lower"]) <= v <= mpmath.mpf(row["upper"])


@pytest.mark.parametrize("n", range(8, 65, 8))
def test_roots_of_unity_kappa2_is_one_certified(n: int) -> None:
    row = kappa("roots-of-unity", n)
    assert row["certified"] and row["digits_certified"] >= 3
    assert inside(row, 1) and mpmath.mpf(row["lower"]) == 1  # κ ≥ 1 always: the bracket is [1, …]


@pytest.mark.parametrize("norm", ["1", "inf", "fro"])
def test_roots_of_unity_other_norms_equal_n(norm: str) -> None:
    for n in (4, 16, 40):
        row = kappa("roots-of-unity", n, norm)
        assert row["certified"] and inside(row, n)


@pytest.mark.parametrize(("r", "n"), [("1/2", 16), ("9/10", 40), ("3/4", 24)])
def test_circle_kappa2_is_r_to_the_one_minus_n(r: str, n: int) -> None:
    row = kappa(f"circle:{r}", n)
    want = Fraction(r) ** (1 - n)
    assert row["certified"] and inside(row, want)
    assert (mpmath.mpf(row["upper"]) - mpmath.mpf(row["lower"])) / mpq(want) < 1e-3


@pytest.mark.parametrize("spec", ["equispaced:-1:1", "chebyshev:-1:1", "real-uniform:-1:1",
                                  "equispaced:0:1"])
def test_real_families_kappa1_equals_the_exact_rational(spec: str) -> None:
    from recmem.numerics.node_families import parse_family
    from recmem.theory import real_nodes as rn

    for n in (3, 8, 15):
        nodes = parse_family(spec).nodes(n, 0)
        if nodes.values is None:  # Chebyshev points are cosines: irrational, no exact κ₁ here
            continue
        exact = rn.kappa1([v.re for v in nodes.values])
        row = kappa(spec, n, "1", digits=9)
        assert row["digits_certified"] >= 9 and inside(row, exact)


def test_gautschi_upper_bound_is_attained_on_a_ray() -> None:
    """Nodes on one ray (0 < x_1 < … < x_N): ‖V⁻¹‖₁ = max_i Π_{j≠i}(1 + x_j)/|x_i − x_j|."""
    for spec in ("equispaced:1/10:1", "chebyshev:1/10:2", "circle:1/2"):
        row = kappa(spec, 10, "1", digits=6)
        attained = [o for o in row["overlays"] if o["name"] == "Gautschi upper"]
        if spec.startswith("circle"):
            assert attained and attained[0]["holds"] is not False  # a bound, not attained
            continue
        assert attained and attained[0]["holds"] is not False
        inv_hi = mpmath.mpf(attained[0]["bound"])
        # the measured ‖V⁻¹‖₁ bracket reaches the bound: the overlay cannot be strictly above
        lo, hi = cond_inv_norm1(spec, 10)
        assert lo <= inv_hi * (1 + 1e-12) and hi >= inv_hi * (1 - 1e-12)


def cond_inv_norm1(spec: str, n: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    from recmem.numerics.node_families import parse_family
    from recmem.numerics.vandermonde_enclosure import inverse_enclosure

    enc, _ = inverse_enclosure(parse_family(spec).nodes(n, 0), 256)
    lo, hi = enc.norm_bounds("1")
    return (mpmath.mpf(lo.numerator) / lo.denominator, mpmath.mpf(hi.numerator) / hi.denominator)


@pytest.mark.parametrize("spec", ["ring:9/10:1", "chebyshev:-1:1", "circle:1", "vandercorput",
                                  "real-uniform:-1:1"])
@pytest.mark.parametrize("norm", ["2", "1", "inf", "fro"])
def test_structured_and_dense_routes_agree(spec: str, norm: str) -> None:
    for n in (5, 24):
        a = kappa(spec, n, norm, seed=3)
        b = kappa(spec, n, norm, seed=3, backend="dense")
        assert a["method"] == "structured" and b["method"].startswith("dense")
        assert a["certified"] and b["certified"]
        assert mpmath.mpf(a["lower"]) <= mpmath.mpf(b["upper"])
        assert mpmath.mpf(b["lower"]) <= mpmath.mpf(a["upper"])


def test_no_overlay_is_violated_over_a_sweep() -> None:
    checked = 0
    for spec in ("ring:9/10:1", "equispaced:-1:1", "chebyshev:-1:1", "circle:1", "roots-of-unity",
                 "vandercorput", "real-uniform:-1:1", "circle:1/2"):
        for n, cols in ((6, 6), (12, 12), (6, 16), (20, 20)):
            for norm in ("2", "1", "inf"):
                if norm != "2" and n != cols:
                    continue
                row = kappa(spec, n, norm, cols=cols)
                for o in row["overlays"]:
                    assert o["holds"] is not False, (spec, n, cols, norm, o)
                    checked += o["holds"] is True
    assert checked > 50


def test_a_wrong_bound_is_reported_violated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: Gautschi's upper bound without its (1 + |x_j|) factors is false for these nodes;
    the engine must say so (holds False), not pass it."""
    import flint

    from recmem.theory import vandermonde_bounds as vb

    real = vb.gautschi_bounds

    def wrong(nodes: object, bits: int = vb.DEFAULT_BITS) -> tuple[object, object]:
        lo, hi = real(nodes, bits)  # type: ignore[arg-type]
        n = len(nodes)  # type: ignore[arg-type]
        with flint.ctx.workprec(bits):
            return lo, hi / flint.arb(2) ** (n - 1)  # drops Π(1 + |x_j|) ≥ 2^{N−1}-ish factors

    monkeypatch.setattr(vb, "gautschi_bounds", wrong)
    row = kappa("equispaced:1/10:1", 10, "1")
    assert any(o["holds"] is False for o in row["overlays"])


def test_wide_matrix_is_infinite_with_nonzero_ratio_under_moitra() -> None:
    row = kappa("roots-of-unity", 8, "2", cols=20)
    assert row["value"] == "inf" and row["certified"]
    # roots of unity, L = 20 > 1/Δ + 1 = 9: Moitra's bound applies to σ_1/σ_N
    moitra = [o for o in row["overlays"] if o["name"].startswith("Moitra")]
    assert moitra and moitra[0]["holds"] is True


def test_float64_is_reported_beside_and_saturates() -> None:
    row = kappa("ring:9/10:1", 256)
    assert row["certified"] and row["float64"] is not None
    assert float(row["log10_lower"]) > 20 and row["float64"] < 1e20  # float64 saturates


def test_escalation_reports_the_bits_that_did_it_and_fixed_precision_is_kept() -> None:
    auto = kappa("chebyshev:-1:1", 64, "fro")
    assert auto["certified"] and auto["precision_used"] >= cond.default_start_bits(64)
    low = compute(Point("chebyshev:-1:1", 64, 64, 0, 16, "fro", "kappa"))
    assert low["precision_used"] == 16 and not low["certified"]


def test_invalid_points_are_refused() -> None:
    for bad in (Point("ring:9/10:1", 4, 6, 0, None, "1", "kappa"),
                Point("ring:9/10:1", 4, 4, 0, None, "7", "kappa"),
                Point("ring:9/10:1", 4, 4, 0, 1, "2", "kappa"),
                Point("ring:9/10:1", 0, 4, 0, None, "2", "kappa"),
                Point("ring:9/10:1", 4, 4, 0, None, "2", "kappa", digits=0)):
        with pytest.raises(ValueError):
            compute(bad)


def test_reconstruction_high_precision_recovers_what_float64_cannot() -> None:
    row = compute(Point("ring:9/10:1", 128, 128, 0, None, "2", "reconstruct"))
    assert row["max_error_highprec"] < 1e-20
    assert row["max_error_float64"] > 1e-6  # float64 loses the oldest inputs (O Fig. 4 right)
    assert len(row["error_float64"]) == len(row["error_highprec"]) == 128


def test_timestamp_horizon_float64_below_high_precision() -> None:
    row = compute(Point("circle:1/2", 8, 200, 0, 256, "2", "timestamp"))
    assert row["min_horizon_float64"] < row["min_horizon_highprec"]
    # |λ₀| = 1/2: z = λ₀^k cancels below u = 2^−53 after about 53 steps in float64
    assert 40 <= row["min_horizon_float64"] <= 60


def test_gram_route_never_certifies_a_wrong_kappa() -> None:
    """Regression: when eigenvalue enclosures fail, the Gershgorin brackets of the extremes must
    keep their signs (mpmath's ``man_exp`` drops the sign of a negative end, which once made a
    bracket [−3.6e−17, 4.9e−20] of λ_min look positive and certified a κ₂ 10⁸ times too small)."""
    from recmem.numerics import nodes as nd
    from recmem.numerics.certified import sigma_bracket, vandermonde_builder

    for n in (10, 24):
        nodes = nd.ring(n, Fraction(9, 10), Fraction(1), 1)
        truth = kappa("ring:9/10:1", n, seed=1)
        for bits in (24, 48, 64):
            k = sigma_bracket(vandermonde_builder(nodes, n), start_bits=bits, max_bits=bits).kappa
            if k.certified:
                assert k.lo <= mpmath.mpf(truth["upper"]) and mpmath.mpf(truth["lower"]) <= k.hi


def test_hull_keeps_the_sign_of_its_ends() -> None:
    import flint

    from recmem.numerics.certified import _hull, mpf_to_fraction

    ctx = mpmath.MPContext()
    ctx.prec = 200
    h = _hull(ctx.mpf("-3.5792e-17"), ctx.mpf("4.8884e-20"))
    assert h.contains(0) and h.contains(flint.arb("-3.5e-17"))
    assert mpf_to_fraction(mpmath.mpf(-3.5)) == Fraction(-7, 2)
