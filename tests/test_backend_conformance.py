"""One conformance suite over every available arithmetic (the SymPy polys/matrices idiom).

The same exact problems go to every backend; answers are compared with exact ℚ(i) results
(theory.exact_linalg) under the condition-scaled tolerance of each backend's unit roundoff.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from recmem.checks.strategies import node_lists
from recmem.numerics import nodes as nd
from recmem.numerics.backend import BackendUnavailable, make_backend
from recmem.numerics.certified import exact_matrix_builder, kappa2, vandermonde_builder
from recmem.numerics.exact import QQi
from recmem.numerics.linalg import product_of_differences, unrolled_state
from recmem.theory import exact_linalg as ex

SPECS = ["mpmath@53", "mpmath@200", "flint@53", "flint@200", "numpy", "numpy:float32",
         "torch:cpu", "torch:cpu:float32", pytest.param("torch:cuda", marks=pytest.mark.gpu)]


@pytest.fixture(params=SPECS)
def backend(request: pytest.FixtureRequest):
    try:
        b = make_backend(request.param)
    except BackendUnavailable as exc:  # pragma: no cover - depends on the machine
        pytest.skip(str(exc))
    with b.activate():
        yield b


def _mp_exact(q: QQi, ctx=None) -> mpmath.mpc:
    from recmem.numerics.exact import to_mpc

    if ctx is None:
        ctx = mpmath.MPContext()
        ctx.prec = 400
    return to_mpc(q, ctx)


def _close(b, computed, exact_rows, kappa: float, n: int) -> None:
    ctx = mpmath.MPContext()
    ctx.prec = b.precision_bits + 20
    got = b.to_mp(computed, ctx)
    num = sum(abs(got[i, j] - _mp_exact(exact_rows[i][j], ctx)) ** 2
              for i in range(got.rows) for j in range(got.cols))
    den = sum(abs(_mp_exact(q, ctx)) ** 2 for row in exact_rows for q in row) or 1
    rel = mpmath.sqrt(num / den)
    bound = 8 * n * kappa * b.unit_roundoff
    assert rel <= bound + (b.radius(computed) if b.encloses else 0) * 4, (b.name, rel, bound)


NODES = [QQi(Fraction(1, 2), Fraction(1, 4)), QQi(Fraction(-3, 4)), QQi(Fraction(0), Fraction(7, 8)),
         QQi(Fraction(5, 8), Fraction(-1, 2))]


def test_declares_precision_and_roundoff(backend) -> None:
    assert backend.precision_bits >= 24
    assert backend.unit_roundoff == mpmath.mpf(2) ** -backend.precision_bits
    assert backend.encloses == (backend.spec.kind == "flint")


def test_vandermonde_orientation(backend) -> None:
    v = backend.vandermonde(backend.vector(NODES), 3)
    exact = ex.vandermonde(NODES, 3).to_list()
    assert backend.shape(v) == (4, 3)
    _close(backend, v, [[ex.to_qqi(e) for e in row] for row in exact], 1, 3)
    # last column is all ones, first column holds λ²: O's decreasing powers (eq. 4)
    mp = backend.to_mp(v, mpmath.mp)
    assert all(mp[i, 2] == 1 for i in range(4))


def test_det_matches_exact(backend) -> None:
    lam = backend.vector(NODES)
    det = backend.det(backend.vandermonde(lam, 4))
    exact = ex.to_qqi(ex.vandermonde(NODES, 4).det())
    kappa = kappa2(vandermonde_builder(nd.Nodes("ring", values=tuple(NODES)), 4)).value
    _close(backend, backend.matrix_of_scalar(det), [[exact]], float(kappa), 16)
    prod = product_of_differences(backend, lam)
    _close(backend, backend.matrix_of_scalar(prod), [[exact]], 1, 16)


def test_recurrence_matches_closed_form(backend) -> None:
    drive_rows = [[QQi(Fraction(j + 1, 7), Fraction(i - j, 9)) for j in range(5)] for i in range(4)]
    lam = backend.vector(NODES)
    drive = backend.matrix(drive_rows)
    states = backend.recurrence(lam, drive)
    for k in (1, 3, 5):
        closed = unrolled_state(backend, lam, drive, k)
        ctx = mpmath.mp
        a = backend.to_mp(backend.columns(states, k - 1, k), ctx)
        b = backend.to_mp(closed, ctx)
        err = max(abs(a[i, 0] - b[i, 0]) for i in range(4))
        assert err <= 64 * k * backend.unit_roundoff + 4 * backend.radius(closed)


def test_pinv_apply_reconstructs(backend) -> None:
    a_rows = [[QQi(Fraction(i + 2 * j + 1, 5), Fraction(i * j, 3)) for j in range(3)]
              for i in range(5)]
    a_rows[0][0] = QQi(Fraction(9))  # full column rank
    x_rows = [[QQi(Fraction(1, 3))], [QQi(Fraction(-2, 5), Fraction(1, 2))], [QQi(Fraction(3))]]
    a_ex, x_ex = ex.matrix(a_rows), ex.matrix(x_rows)
    assert ex.rank(a_ex) == 3
    b = backend.matmul(backend.matrix(a_rows), backend.matrix(x_rows))
    got = backend.pinv_apply(backend.matrix(a_rows), b)
    kappa = float(kappa2(exact_matrix_builder(a_rows)).value)
    _close(backend, got, x_rows, kappa, 5)
    del a_ex, x_ex


def test_transpose_is_plain_not_conjugated(backend) -> None:
    rows = [[QQi(Fraction(1), Fraction(2)), QQi(Fraction(3))]]
    t = backend.to_mp(backend.transpose(backend.matrix(rows)), mpmath.mp)
    assert backend.shape(backend.transpose(backend.matrix(rows))) == (2, 1)
    assert t[0, 0] == mpmath.mpc(1, 2) and t[1, 0] == 3


def test_svdvals_and_rank(backend) -> None:
    rows = [[QQi(Fraction(3)), QQi(Fraction(0))], [QQi(Fraction(0)), QQi(Fraction(-4))]]
    s = backend.svdvals(backend.matrix(rows))
    assert abs(s[0] - 4) <= 16 * backend.unit_roundoff * 4
    assert abs(s[1] - 3) <= 16 * backend.unit_roundoff * 4
    singular = [[QQi(Fraction(1)), QQi(Fraction(2))], [QQi(Fraction(2)), QQi(Fraction(4))]]
    assert backend.rank(backend.matrix(singular)) == 1
    assert backend.rank(backend.matrix(rows)) == 2


def test_roots_of_unity_are_on_the_circle(backend) -> None:
    roots = backend.to_mp(backend.cis_turns([Fraction(j, 8) for j in range(8)]), mpmath.mp)
    for j in range(8):
        assert abs(abs(roots[j, 0]) - 1) <= 8 * backend.unit_roundoff
    assert abs(roots[2, 0] - 1j) <= 8 * backend.unit_roundoff


@given(node_lists(1, 5))
def test_det_formula_on_random_exact_nodes(nodes) -> None:
    # mpmath@200 against exact ℚ(i): both sides see the same exact problem (ground rule 4)
    b = make_backend("mpmath@200")
    lam = b.vector(nodes)
    exact = ex.to_qqi(ex.product_of_differences(nodes))
    ctx = mpmath.MPContext()
    ctx.prec = 400
    got = b.scalar_to_mp(b.det(b.vandermonde(lam, len(nodes))), ctx)
    want = _mp_exact(exact, ctx)
    # entries are ≤ 1 in modulus: LU's error is ≲ n·n!·2^-200 in absolute terms
    assert abs(got - want) <= mpmath.mpf(2) ** -180


@given(st.integers(1, 30), st.integers(0, 2**31))
def test_ring_nodes_are_exact_and_inside_the_ring(n, seed) -> None:
    nodes = nd.ring(n, Fraction(1, 2), Fraction(1), seed)
    assert len(nodes) == n
    for q in nodes.values or ():
        r2 = q.re**2 + q.im**2
        # rounding to 52 fractional bits moves |λ|² by at most ~2^-51
        assert Fraction(1, 4) - Fraction(1, 2**50) <= r2 <= 1 + Fraction(1, 2**50)
        assert q.re.denominator <= 2**52 and q.im.denominator <= 2**52
    assert nd.ring(n, Fraction(1, 2), Fraction(1), seed) == nodes  # reproducible
