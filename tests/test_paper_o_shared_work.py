"""Paper O's speed work on its heavy claims (issue 20 §4) computes the same things once: the
Leibniz signs without SymPy objects, a determinant or a pseudo-inverse solution shared by the
statement and the controls that keep its matrix (computed anew for a control that changes it),
the rounding bounds of O.ring's draws shared by the point arithmetics, and the float-enclosure
constants computed once per shape. Every result is the one computed before."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from sympy.combinatorics import Permutation

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o import det as det_claim
from recmem.checks.claims.paper_o import reconstruct as rec_claim
from recmem.checks.claims.paper_o import ring
from recmem.checks.registry import get
from recmem.numerics import float_enclosure as fe
from recmem.numerics.backend import BackendSpec, make_backend
from recmem.numerics.certified import mpf_to_fraction
from recmem.numerics.certified_oracles import _q
from recmem.theory.ring import LEMMA6
from recmem.theory.vandermonde import permutation_sign


@pytest.mark.parametrize("n", range(0, 7))
def test_permutation_sign_is_sympys_signature(n: int) -> None:
    for perm in itertools.permutations(range(n)):
        assert permutation_sign(perm) == Permutation(list(perm)).signature()


def _context(claim_id: str, **params: object) -> Context:
    return get(claim_id).context(params)


def _count(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls = [0]
    original = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_det_is_shared_only_by_controls_that_keep_the_matrix(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """O.det: the sign, factor-order and 33/32 controls keep V_N and read the statement's
    determinant; the increasing-power control changes V_N and computes its own (today: every
    control recomputed every determinant)."""
    ctx = _context("O.det", N=6)
    backend = make_backend(BackendSpec("mpmath", bits=128))
    calls: list[object] = []
    original = backend.det

    def det(a: object) -> object:
        calls.append(a)
        return original(a)

    monkeypatch.setattr(backend, "det", det)
    with backend.activate():
        first = det_claim.numeric(backend, ctx)
    computed = len(calls)
    assert computed == len(det_claim.sizes(6))
    controls = {c.change: c.statement for c in ctx.statement.controls()}
    for change, statement in controls.items():
        cctx = replace(ctx, statement=statement, cache={})
        with backend.activate():
            ev = det_claim.numeric(backend, cctx)
        changed = statement.increasing != ctx.statement.increasing
        assert len(calls) == computed + (len(det_claim.sizes(6)) if changed else 0), change
        assert ev[0].outcome.value != "pass", change  # every control is still told apart
        computed = len(calls)
    assert first[0].outcome.value == "pass"


def test_a_planted_det_slip_still_fails_the_statement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared determinant is the backend's: a slip in it reaches the statement's check."""
    ctx = _context("O.det", N=6)
    backend = make_backend(BackendSpec("numpy"))
    original = backend.det
    monkeypatch.setattr(backend, "det", lambda a: original(a) * 1.001)
    with backend.activate():
        ev = det_claim.numeric(backend, ctx)
    assert ev[0].outcome.value == "fail"


def test_reconstruction_solution_is_shared_only_when_v_k_is_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """O.reconstruct: the 33/32 control keeps V_k and k and reads the statement's V_k⁺x_k; the
    power-shift control changes V_k and solves again."""
    calls = _count(monkeypatch, rec_claim, "min_norm_solve")
    ctx = _context("O.reconstruct")
    backend = make_backend(BackendSpec("numpy"))
    with backend.activate():
        rec_claim.numeric(backend, ctx)
    base = calls[0]
    assert base >= 1
    by_change = {c.change: c.statement for c in ctx.statement.controls()}
    near = next(s for c, s in by_change.items() if "33/32" in c)
    shifted = next(s for c, s in by_change.items() if "shifted" in c)
    with backend.activate():
        ev = rec_claim.numeric(backend, replace(ctx, statement=near, cache={}))
    assert calls[0] == base and ev[0].outcome.value != "pass"  # same solutions, still told apart
    with backend.activate():
        rec_claim.numeric(backend, replace(ctx, statement=shifted, cache={}))
    assert calls[0] == 2 * base


def test_ring_kappas_are_kappa_of_draw() -> None:
    """O.ring's per-draw rounding bounds (memoised across point arithmetics) are kappa_of_draw's,
    and a control's sampler gets its own."""
    u1 = [Fraction(k, 37) for k in range(37)]
    for law in (LEMMA6, *(c.statement for c in LEMMA6.controls())):
        for r_min, r_max in ((Fraction(1, 2), Fraction(1)), (Fraction(0), Fraction(1))):
            got = ring._kappas(law, u1, r_min, r_max)
            want = [ring.kappa_of_draw(law, x, r_min, r_max) for x in u1]
            assert got.tolist() == want


def test_lemma6_backend_converts_each_constant_once() -> None:
    """The sampler's exact constants are converted once per call, and the nodes are those of the
    statement's own node method with a fresh conversion each time."""
    backend = make_backend(BackendSpec("mpmath", bits=128))
    u1s = [Fraction(k, 11) for k in range(11)]
    u2s = [Fraction(k, 13) for k in range(11)]
    got = ring.lemma6_backend(backend, u1s, u2s, Fraction(1, 3), Fraction(9, 10))
    mp = mpmath.MPContext()
    mp.prec = 128
    q = lambda f: mp.mpf(f.numerator) / f.denominator  # noqa: E731
    for x, u1, u2 in zip(got, u1s, u2s, strict=True):
        want = LEMMA6.node(q(u1), u2, q(Fraction(1, 3)), q(Fraction(9, 10)), log=mp.log,
                           exp_i=lambda m, t: mp.exp(mp.mpc(m, 2 * mp.pi * t)), const=q,
                           zero=mp.mpc(0))
        assert abs(mp.mpc(x) - want) <= abs(want) * mp.mpf(2) ** -110


def test_float_enclosure_constants_are_the_exact_ones() -> None:
    """The per-shape constants are the expressions they replace, exactly."""
    for n, size in ((1, 1), (3, 12), (40, 1600)):
        g = 2 * fe.gamma(4 + n)
        assert fe._fro_factors(n, size) == (1 - g, 1 + g, 2 * size * fe.ETA)
        assert fe._rayleigh_tiny(n, size) == fe.SQRT2_UP * 2 * n * fe.ETA * fe.sqrt_up(
            Fraction(size))
        assert fe._flush_term(size) == fe.SQRT2_UP * (fe.ETA + fe.FLUSH_Q) * fe.sqrt_up(
            Fraction(size))
    for k in (1, 7, 1000):
        assert fe.gamma(k) == k * fe.U / (1 - k * fe.U)


def test_mpf_to_fraction_and_bracket_ends_are_exact() -> None:
    ctx = mpmath.MPContext()
    ctx.prec = 300
    rng = np.random.default_rng(3)
    for _ in range(500):
        x = ctx.mpf(float(rng.normal())) * ctx.mpf(2) ** int(rng.integers(-500, 500)) / 3
        sign, man, exp, _ = x._mpf_
        want = Fraction(int(man)) * Fraction(2) ** int(exp) * (-1 if sign else 1)
        assert mpf_to_fraction(x) == want == _q(x)
    assert _q(ctx.mpf(0)) == 0 and _q(mpmath.inf) is None and _q(Fraction(1, 3)) == Fraction(1, 3)
    with pytest.raises(Exception, match="bracket end"):
        _q(mpmath.nan)
