"""Node families by spec (recmem.numerics.node_families) and the exact node descriptions of
recmem.numerics.nodes: every family at small N against independent exact or 200/300-bit mpmath
values, certified balls, correct rounding, seeds, bad specs and malformed files."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy

from recmem.numerics import nodes as nd
from recmem.numerics.backend import make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.node_families import (
    MAX_SIZES,
    Family,
    parse_family,
    parse_node,
    parse_sizes,
    read_node_file,
    van_der_corput,
)

F = Fraction
MP = mpmath.MPContext()
MP.prec = 300


def _mp_q(q: Fraction) -> mpmath.mpf:
    return MP.mpf(q.numerator) / q.denominator


def _cis(turn: Fraction, radius: Fraction | None = None) -> mpmath.mpc:
    """radius·exp(2πi·turn) at 300 bits, independently of Nodes (mpmath's cospi/sinpi, exact
    where the value is: 0 must stay 0 for the rounding checks)."""
    r = _mp_q(radius) if radius is not None else MP.mpf(1)
    return r * MP.mpc(MP.cospi(2 * _mp_q(turn)), MP.sinpi(2 * _mp_q(turn)))


def reference(spec: str, n: int, seed: int = 0) -> list[mpmath.mpc]:
    """The nodes of ``spec`` written from the family's definition at 300 bits."""
    fam = parse_family(spec)
    kind, p = fam.kind, fam.params
    if kind == "roots-of-unity":
        return [_cis(F(j, n)) for j in range(n)]
    if kind == "circle":
        return [_cis(F(j, n), p[0]) for j in range(n)]
    if kind == "equispaced":
        a, b = p
        return [MP.mpc(_mp_q(a + (b - a) * F(j, max(n - 1, 1)))) for j in range(n)]
    if kind == "chebyshev":
        a, b = p
        return [MP.mpc(_mp_q((a + b) / 2) + _mp_q((b - a) / 2) * MP.cospi(MP.mpf(2 * k + 1) / (2 * n)))
                for k in range(n)]
    if kind == "real-uniform":
        a, b = p
        return [MP.mpc(_mp_q(a + (b - a) * u)) for u in nd.uniform_draws(seed, n)]
    if kind == "vandercorput":
        first = [F(0), F(1, 2), F(1, 4), F(3, 4), F(1, 8), F(5, 8), F(3, 8), F(7, 8)]
        return [_cis(t) for t in first[:n]]
    assert kind == "ring"
    return [MP.mpc(_mp_q(v.re), _mp_q(v.im)) for v in nd.ring(n, p[0], p[1], seed).values or ()]


SPECS = ["roots-of-unity", "circle:1/2", "circle:3", "equispaced:-1:1", "equispaced:0.25:2",
         "chebyshev:-1:1", "chebyshev:0:3/4", "real-uniform:-1:1", "real-uniform:-3/10:7",
         "vandercorput", "ring:0.9:1"]


# ---- each family at small N against exact expectations ------------------------------------------
def test_roots_of_unity_are_exact_turns() -> None:
    nodes = parse_family("roots-of-unity").nodes(6, seed=3)
    assert nodes.turns == tuple(F(j, 6) for j in range(6))
    assert nodes == nd.roots(6)
    assert nodes.on_unit_circle and not nodes.is_real and nodes.distinct()
    assert nodes.circle_turns() == tuple(F(j, 6) for j in range(6))


def test_circle_is_polar_and_exact() -> None:
    nodes = parse_family("circle:1/2").nodes(4, 0)
    assert nodes.points == tuple(nd.Polar(F(1, 2), F(j, 4)) for j in range(4))
    expect = [sympy.Rational(1, 2), sympy.I / 2, -sympy.Rational(1, 2), -sympy.I / 2]
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(nodes.sympy(), expect, strict=True))
    # rational parts come out exactly, at any precision
    assert nodes.rounded(2) == [QQi(F(1, 2)), QQi(F(0), F(1, 2)), QQi(F(-1, 2)), QQi(F(0), F(-1, 2))]
    assert list(nodes.complex128()) == [0.5, 0.5j, -0.5, -0.5j]
    assert not nodes.on_unit_circle and nodes.within_radius(F(1, 2))
    assert not nodes.within_radius(F(49, 100))
    # radius 1 is the unit circle, given as turns
    assert parse_family("circle:1").nodes(5, 0).turns == nd.roots(5).turns


def test_equispaced_exact_values() -> None:
    fam = parse_family("equispaced:-1:1")
    assert fam.nodes(4, 0).values == tuple(QQi(v) for v in (F(-1), F(-1, 3), F(1, 3), F(1)))
    assert fam.nodes(1, 0).values == (QQi(F(-1)),)
    assert parse_family("equispaced:0.1:0.3").nodes(3, 0).values == (
        QQi(F(1, 10)), QQi(F(1, 5)), QQi(F(3, 10)))


def test_chebyshev_points_match_mpmath_at_200_bits() -> None:
    ctx = mpmath.MPContext()
    ctx.prec = 200
    for spec, (a, b) in (("chebyshev:-1:1", (F(-1), F(1))), ("chebyshev:1/3:2.5", (F(1, 3), F(5, 2)))):
        for n in (1, 2, 3, 5, 8):
            nodes = parse_family(spec).nodes(n, 0)
            got = nodes.mp(ctx)
            for k, z in enumerate(got):
                want = ((ctx.mpf(a.numerator) / a.denominator + ctx.mpf(b.numerator) / b.denominator) / 2
                        + (ctx.mpf(b.numerator) / b.denominator - ctx.mpf(a.numerator) / a.denominator)
                        / 2 * ctx.cos((2 * k + 1) * ctx.pi / (2 * n)))
                assert abs(z - want) <= ctx.mpf(2) ** -195 * max(1, abs(want))
                assert z.imag == 0
            assert nodes.is_real and nodes.distinct()
    # N = 3: the middle point cos(π/2) is exactly the centre
    assert parse_family("chebyshev:-1:1").nodes(3, 0).rounded(8)[1] == QQi(F(0))


def test_van_der_corput_first_eight_turns() -> None:
    expect = [F(0), F(1, 2), F(1, 4), F(3, 4), F(1, 8), F(5, 8), F(3, 8), F(7, 8)]
    assert [van_der_corput(j) for j in range(8)] == expect
    nodes = parse_family("vandercorput").nodes(8, 0)
    assert nodes.turns == tuple(expect)
    assert nodes.on_unit_circle and nodes.distinct()
    # the first 2^k points are the 2^k-th roots of unity, in another order
    assert sorted(nodes.turns) == list(nd.roots(8).turns or ())
    with pytest.raises(ValueError, match="j ≥ 0"):
        van_der_corput(-1)


def test_real_uniform_is_exact_and_reuses_the_draws() -> None:
    fam = parse_family("real-uniform:-1:1")
    assert fam.random and fam.real and not fam.on_unit_circle
    nodes = fam.nodes(16, seed=5)
    # with A = −1, B = 1 these are exactly nodes.real's draws (dyadic, float64-representable)
    assert nodes.values == nd.real(16, F(1), 5).values
    assert all(v.im == 0 and -1 <= v.re < 1 and v.re == F(float(v.re)) for v in nodes.values or ())
    other = parse_family("real-uniform:2:5").nodes(16, seed=5)
    u = nd.uniform_draws(5, 16)
    assert other.values == tuple(QQi(2 + 3 * x) for x in u)


def test_ring_reuses_lemma6_sampling() -> None:
    fam = parse_family("ring:0.9:1")
    assert fam.spec == "ring:9/10:1" and fam.random and not fam.real and not fam.on_unit_circle
    assert fam.nodes(8, 2) == nd.ring(8, F(9, 10), F(1), 2)
    assert parse_family("ring:0:0").nodes(3, 0).distinct() is False  # Lemma 6 admits r_max = 0


@pytest.mark.parametrize("spec", SPECS)
def test_seeds_reproduce_and_vary_only_for_random_families(spec: str) -> None:
    fam = parse_family(spec)
    a, b, c = fam.nodes(6, 0), fam.nodes(6, 0), fam.nodes(6, 1)
    assert a == b
    assert (a != c) == fam.random
    assert len(a) == 6
    assert a.is_real == fam.real
    assert a.on_unit_circle == fam.on_unit_circle


def test_canonical_specs_round_trip() -> None:
    for spec, canon in (("ring:0.9:1", "ring:9/10:1"), ("circle:0.5", "circle:1/2"),
                        ("equispaced:-1:1.0", "equispaced:-1:1"),
                        ("chebyshev:1e-1:2/4", "chebyshev:1/10:1/2"),
                        ("real-uniform: -2 : 3 ", "real-uniform:-2:3"),
                        ("Roots-Of-Unity", "roots-of-unity"), ("vandercorput", "vandercorput")):
        fam = parse_family(spec)
        assert fam.spec == canon
        assert parse_family(canon) == fam


# ---- balls, correct rounding, backends ----------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("bits", [24, 53, 120, 256])
def test_acb_balls_contain_the_300_bit_value_and_are_narrow(spec: str, bits: int) -> None:
    n = 7
    nodes = parse_family(spec).nodes(n, 0)
    ref = reference(spec, n)
    balls = nodes.acb(bits)
    assert flint.ctx.prec == 53  # precision restored
    for ball, z in zip(balls, ref, strict=True):
        for part, want in ((ball.real, z.real), (ball.imag, z.imag)):
            lo, hi = nd.arb_endpoints(part)
            slack = MP.mpf(2) ** -290
            assert _mp_q(lo) - slack <= want <= _mp_q(hi) + slack
            # a few units in the last place at the requested precision
            assert hi - lo <= F(2) ** (-bits + 4) * max(1, abs(lo), abs(hi))


@pytest.mark.parametrize("spec", SPECS)
def test_complex128_and_rounded_are_correctly_rounded(spec: str) -> None:
    n = 9 if spec != "vandercorput" else 8
    nodes = parse_family(spec).nodes(n, 0)
    ref = reference(spec, n)
    got = nodes.complex128()
    assert got.dtype == np.complex128
    want = np.array([complex(float(z.real), float(z.imag)) for z in ref])  # 300 bits → nearest
    assert np.array_equal(got, want)
    for p in (11, 24, 64):
        ctx = mpmath.MPContext()
        ctx.prec = p
        for q, z in zip(nodes.rounded(p), ref, strict=True):
            assert _mp_q(q.re) == ctx.mpf(z.real) and _mp_q(q.im) == ctx.mpf(z.imag)


def test_rounding_of_exact_ties_and_rationals() -> None:
    assert nd.round_to_bits(F(7, 4), 2) == 2  # tie → even significand
    assert nd.round_to_bits(F(5, 4), 2) == 1
    assert nd.round_to_bits(F(-5, 8), 2) == F(-1, 2)
    assert nd.round_to_bits(F(1, 3), 53) == F(1 / 3)
    with pytest.raises(ValueError, match="bits ≥ 1"):
        nd.round_to_bits(F(1), 0)
    nodes = nd.Nodes("x", values=(QQi(F(1, 3), F(-2, 3)),))
    assert nodes.complex128()[0] == complex(1 / 3, -2 / 3)


@pytest.mark.parametrize("spec", ["circle:1/2", "chebyshev:-1:1", "roots-of-unity", "equispaced:0:1"])
def test_every_kind_goes_through_every_backend(spec: str) -> None:
    nodes = parse_family(spec).nodes(5, 0)
    ref = reference(spec, 5)
    mpb = make_backend("mpmath@100")
    v = mpb.to_mp(nodes.to(mpb), MP)
    assert all(abs(v[i, 0] - ref[i]) <= MP.mpf(2) ** -98 for i in range(5))
    fb = make_backend("flint@100")
    with fb.activate():
        vec = nodes.to(fb)
        for i in range(5):
            assert vec[i, 0].overlaps(flint.acb(flint.arb(str(ref[i].real)), flint.arb(str(ref[i].imag))))
        assert fb.radius(vec) < mpmath.mpf(2) ** -95
        fb.vandermonde(vec, 5)  # O's V builds from every kind
    npb = make_backend("numpy")
    # turns use numpy's own cis (a few ulps); points are correctly rounded (checked below)
    got = np.array([complex(z) for z in npb.to_mp(nodes.to(npb), MP)])
    assert np.allclose(got, [complex(z) for z in ref], rtol=0, atol=1e-15)
    if nodes.kind == "points":
        assert np.array_equal(nodes.to(npb), nodes.complex128())
        assert [z for z in nodes.mp(mpb.ctx)] == [mpb.ctx.mpc(_mp_q(q.re), _mp_q(q.im))
                                                  for q in nodes.rounded(100)]
    f32 = make_backend("numpy:float32")
    assert np.allclose(nodes.to(f32), nodes.complex128(), atol=1e-7)


def test_sympy_and_mp_of_points() -> None:
    ctx = mpmath.MPContext()
    ctx.prec = 200
    for spec in ("circle:3/2", "chebyshev:-2:1"):
        nodes = parse_family(spec).nodes(6, 0)
        for s, m in zip(nodes.sympy(), nodes.mp(ctx), strict=True):
            assert abs(complex(sympy.N(s, 30)) - complex(m)) < 1e-15


def test_nodes_structure_and_compatibility() -> None:
    with pytest.raises(ValueError, match="one exact description"):
        nd.Nodes("x", values=(QQi(F(1)),), turns=(F(0),))
    with pytest.raises(ValueError, match="radius ≥ 0"):
        nd.Nodes("x", points=(nd.Polar(F(-1), F(0)),))
    with pytest.raises(ValueError, match="precision"):
        nd.roots(3).acb(1)
    pts = parse_family("chebyshev:-1:1").nodes(6, 0)
    assert pts.kind == "points" and len(pts) == 6
    head = pts.first(2)
    assert head.points == (pts.points or ())[:2] and head.kind == "points"
    with pytest.raises(ValueError, match="1 ≤ m ≤ 6"):
        pts.first(7)
    # the existing families are untouched
    assert nd.make("roots", 4).kind == "turns" and nd.make("real", 4).kind == "values"


def test_distinct_is_exact() -> None:
    # cos(π/5) = 1/2 + cos(2π/5): equal numbers written differently
    same = nd.Nodes("x", points=(nd.CosPi(F(0), F(1), F(1, 5)), nd.CosPi(F(1, 2), F(1), F(2, 5))))
    assert not same.distinct()
    mirrored = nd.Nodes("x", points=(nd.CosPi(F(0), F(1), F(1, 7)), nd.CosPi(F(0), F(-1), F(6, 7))))
    assert not mirrored.distinct()  # −cos(6π/7) = cos(π/7)
    assert nd.Nodes("x", points=(nd.Polar(F(1), F(1, 3)), nd.Polar(F(1), F(4, 3)))).distinct() is False
    assert nd.Nodes("x", points=(nd.Polar(F(0), F(1, 3)), nd.Polar(F(0), F(1, 5)))).distinct() is False
    assert parse_family("chebyshev:-1:1").nodes(8, 0).distinct()


# ---- bad specs --------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "fragment"), [
    ("", "empty node family spec"),
    ("   ", "empty node family spec"),
    ("spiral:1", "unknown node family 'spiral'"),
    ("ring", "has 0 parameter(s), ring takes 2; expected ring:RMIN:RMAX"),
    ("ring:0.9", "expected ring:RMIN:RMAX"),
    ("ring:0.9:1:2", "has 3 parameter(s)"),
    ("ring:0.5:2", "violates Lemma 6's hypothesis 0 ≤ RMIN ≤ RMAX ≤ 1"),
    ("ring:1:0.5", "violates Lemma 6's hypothesis"),
    ("ring:-0.1:1", "violates Lemma 6's hypothesis"),
    ("roots-of-unity:8", "takes 0; expected roots-of-unity"),
    ("vandercorput:2", "expected vandercorput"),
    ("circle", "expected circle:R"),
    ("circle:0", "needs a radius R > 0, got R = 0"),
    ("circle:-1/2", "needs a radius R > 0"),
    ("equispaced:1:1", "needs A < B, got A = 1, B = 1"),
    ("chebyshev:2:-1", "needs A < B"),
    ("real-uniform:0", "expected real-uniform:A:B"),
    ("equispaced:a:1", "bad A 'a'"),
    ("chebyshev:0:1/0", "bad B '1/0'"),
    ("circle:nan", "bad radius R 'nan'"),
    ("circle:inf", "expected a decimal or a fraction"),
    ("file:", "names no file; expected file:PATH"),
    ("file:/no/such/file.txt", "does not exist"),
])
def test_bad_specs_are_one_line_value_errors(spec: str, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_family(spec)
    msg = str(info.value)
    assert fragment in msg and "\n" not in msg


def test_nodes_refuses_bad_sizes_and_seeds() -> None:
    fam = parse_family("chebyshev:-1:1")
    for n in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="positive integer"):
            fam.nodes(n, 0)
    with pytest.raises(ValueError, match="non-negative integer"):
        fam.nodes(3, -1)


# ---- files ------------------------------------------------------------------------------------
def test_text_file_with_comments_complex_and_two_columns(tmp_path) -> None:
    path = tmp_path / "nodes.txt"
    path.write_text("# nodes\n\n0.1\n  -1/3   # a fraction\n0.5+0.25j\n(1-2j)\n-j\n3i\n0.5 -0.75\n1e-3\n")
    assert read_node_file(path) == (QQi(F(1, 10)), QQi(F(-1, 3)), QQi(F(1, 2), F(1, 4)),
                                    QQi(F(1), F(-2)), QQi(F(0), F(-1)), QQi(F(0), F(3)),
                                    QQi(F(1, 2), F(-3, 4)), QQi(F(1, 1000)))
    fam = parse_family(f"file:{path}")
    assert fam.spec == f"file:{path}" and fam.count == 8 and not fam.duplicates
    assert not fam.random and not fam.real and not fam.on_unit_circle
    assert fam.nodes(3, 0).values == (QQi(F(1, 10)), QQi(F(-1, 3)), QQi(F(1, 2), F(1, 4)))
    with pytest.raises(ValueError, match=r"holds 8 nodes, asked for N = 9 .*N ≤ 8"):
        fam.nodes(9, 0)


def test_csv_file_with_header_and_duplicates(tmp_path) -> None:
    path = tmp_path / "nodes.csv"
    path.write_text("re,im\n0.6,0.8\n-1,0\n# a comment\n0.6, 0.8\n0,1\n")
    fam = parse_family(f"file:{path}")
    assert fam.duplicates and fam.count == 4 and fam.on_unit_circle
    nodes = fam.nodes(4, 0)
    assert nodes.values == (QQi(F(3, 5), F(4, 5)), QQi(F(-1)), QQi(F(3, 5), F(4, 5)), QQi(F(0), F(1)))
    assert not nodes.distinct() and nodes.first(2).distinct()
    assert "repeats a node" in nodes.description
    one = tmp_path / "one.csv"
    one.write_text("x\n1/2\n-0.25+1j\n")
    assert read_node_file(one) == (QQi(F(1, 2)), QQi(F(-1, 4), F(1)))


def test_npy_files_are_exact_binary(tmp_path) -> None:
    real = tmp_path / "real.npy"
    np.save(real, np.array([0.1, -2.5, 3]))
    assert read_node_file(real) == (QQi(F(0.1)), QQi(F(-5, 2)), QQi(F(3)))
    assert F(0.1) != F(1, 10)  # the binary value, not the decimal one
    cplx = tmp_path / "c.npy"
    np.save(cplx, np.array([0.5 + 0.25j, -1j], dtype=np.complex64))
    assert read_node_file(cplx) == (QQi(F(1, 2), F(1, 4)), QQi(F(0), F(-1)))
    pairs = tmp_path / "pairs.npy"
    np.save(pairs, np.array([[0.5, 0.5], [1, -1]]))
    assert read_node_file(pairs) == (QQi(F(1, 2), F(1, 2)), QQi(F(1), F(-1)))
    ints = tmp_path / "ints.npy"
    np.save(ints, np.array([[1], [2]], dtype=np.int32))
    assert parse_family(f"file:{ints}").real


@pytest.mark.parametrize(("name", "content", "fragment"), [
    ("bad.txt", "0.5\n# ok\nabc\n", "line 3: cannot read 'abc'"),
    ("bad.txt", "0.5\n1 2 3\n", "line 2: 3 columns"),
    ("bad.txt", "0.5 x\n", "line 1: cannot read 'x' as a real number"),
    ("bad.txt", "1+2j 3\n", "line 1: cannot read '1+2j' as a real number"),
    ("bad.txt", "nan\n", "line 1: cannot read 'nan'"),
    ("bad.txt", "1/0\n", "line 1:"),
    ("bad.csv", "re,im\n1,2\n1,2,3\n", "line 3: 3 columns"),
    ("bad.csv", "1;2\n", "line 1: cannot read '1;2'"),
    ("bad.csv", "re,im\n", "no nodes"),
    ("empty.txt", "\n# nothing\n\n", "no nodes"),
])
def test_malformed_text_files_name_the_line(tmp_path, name: str, content: str, fragment: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ValueError) as info:
        parse_family(f"file:{path}")
    msg = str(info.value)
    assert fragment in msg and str(path) in msg and "\n" not in msg


def test_malformed_binary_files_name_the_row(tmp_path) -> None:
    nan = tmp_path / "nan.npy"
    np.save(nan, np.array([1.0, np.nan]))
    cube = tmp_path / "cube.npy"
    np.save(cube, np.zeros((2, 2, 2)))
    text = tmp_path / "strings.npy"
    np.save(text, np.array(["a", "b"]))
    objs = tmp_path / "objs.npy"
    np.save(objs, np.array([1, None], dtype=object), allow_pickle=True)
    junk = tmp_path / "junk.npy"
    junk.write_bytes(b"not numpy at all")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"0.5\n1\xe9\n")
    empty = tmp_path / "empty.npy"
    np.save(empty, np.array([]))
    for path, fragment in ((nan, "row 2: non-finite"), (cube, "shape (2, 2, 2)"),
                           (text, "not numeric"), (objs, "not a readable .npy"),
                           (junk, "not a readable .npy"), (latin, "line 2: not UTF-8"),
                           (empty, "empty array")):
        with pytest.raises(ValueError) as info:
            parse_family(f"file:{path}")
        msg = str(info.value)
        assert fragment in msg and str(path) in msg and "\n" not in msg, msg
    with pytest.raises(ValueError, match="not a regular file"):
        parse_family(f"file:{tmp_path}")


def test_parse_node_forms() -> None:
    assert parse_node("2j") == QQi(F(0), F(2))
    assert parse_node("+j") == QQi(F(0), F(1))
    assert parse_node("1/2-3/4i") == QQi(F(1, 2), F(-3, 4))
    assert parse_node("1e-3+2e1j") == QQi(F(1, 1000), F(20))
    for bad in ("", "j2", "1+", "1++2j", "0x10", "inf"):
        with pytest.raises(ValueError):
            parse_node(bad)


# ---- sizes ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "sizes"), [
    ("8,16,32", [8, 16, 32]),
    ("8..12", [8, 9, 10, 11, 12]),
    ("8..64:8", [8, 16, 24, 32, 40, 48, 56, 64]),
    ("8..20:8", [8, 16]),
    ("4,8..16:4", [4, 8, 12, 16]),
    (" 5 , 3 , 5 ", [5, 3]),
    ("7..7", [7]),
    (f"1..{MAX_SIZES}", list(range(1, MAX_SIZES + 1))),
])
def test_parse_sizes(text: str, sizes: list[int]) -> None:
    assert parse_sizes(text) == sizes


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty sizes"), ("  ", "empty sizes"), ("0", "must be positive"),
    ("-4", "must be positive"), ("4..-8", "must be positive"), ("16..8", "runs backwards"),
    ("8..64:0", "step must be positive"), ("8..64:-8", "step must be positive"),
    (f"1..{MAX_SIZES + 1}", f"more than {MAX_SIZES} sizes"), ("1..9000,1..2000", "more than"),
    ("8,,16", "an empty item"), ("8,", "an empty item"), ("eight", "'eight' is not a size"),
    ("8.5", "not a size"), ("8..", "not a size"), ("8:2", "not a size"), ("1..10**9", "not a size"),
])
def test_parse_sizes_rejects(text: str, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_sizes(text)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_family_is_frozen() -> None:
    fam = parse_family("vandercorput")
    assert isinstance(fam, Family)
    with pytest.raises(AttributeError):
        setattr(fam, "spec", "x")  # noqa: B010
