"""Run-time oracles of the Lyapunov machinery (issue 19; paper W, ICLR camera-ready App. A.9
eqs. (48)–(49)): every P a solver or the integral returns carries its residual against the equation
it claims to solve, every claim check that reads a P records that residual and stops passing when P
fails it, routes that compute the same P in one run are compared, and a point arithmetic's
violation is a certified refutation only when ball arithmetic separates it.

Each oracle is tested by planting the slip it exists to catch (monkeypatching the solver, the
integral or the oracle itself) and asserting that the claims stop passing.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from claim_helpers import run

from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.claims.paper_w import lyapunov as wl
from recmem.checks.verdict import Evidence, Outcome, Verdict
from recmem.numerics import lyapunov as ly
from recmem.numerics.backend import make_backend, parse_spec
from recmem.theory.lyapunov import LyapunovIntegral

F = Fraction
U64 = mpmath.mpf(2) ** -53


def _problem(n: int = 3, seed: int = 5):
    d = lc.hurwitz(n, seed, "nonnormal")
    return d.W, lc.spd(n, seed)


# ---- the numerics: every route carries its oracle --------------------------------------------

ROUTES = {
    "exact": (lambda w, q: ly.exact(w, q), "exact"),
    "kronecker_flint": (lambda w, q: ly.kronecker_flint(w, q, bits=128), "ball"),
    "kronecker_mpmath": (lambda w, q: ly.kronecker_mpmath(w, q, bits=128), "point"),
    "bartels_stewart": (lambda w, q: ly.bartels_stewart(w, q), "point"),
    "bartels_stewart float32": (lambda w, q: ly.bartels_stewart(w, q, dtype=np.float32), "point"),
    "sign_newton": (lambda w, q: ly.sign_newton([w], [q]), "point"),
    "sign_newton float32": (lambda w, q: ly.sign_newton([w], [q], dtype="float32"), "point"),
    "refine flint": (lambda w, q: ly.refine(w, q, bits=128), "point"),
    "refine mpmath": (lambda w, q: ly.refine(w, q, bits=128, residual="mpmath"), "point"),
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_every_solver_route_carries_its_residual(route) -> None:
    w, q = _problem()
    solve, kind = ROUTES[route]
    sol = solve(w, q)
    r = sol.residual
    assert r is not None and r.kind == kind and r.ok, (route, r)
    if kind == "point":  # c·m·u of the arithmetic that ran
        bits = 24 if "float32" in route else 128 if ("refine" in route or "kronecker" in route) else 53
        m = 9 if route == "kronecker_mpmath" else 3
        assert r.tolerance == ly.RESIDUAL_C * m * mpmath.mpf(2) ** -bits
        assert r.value <= r.tolerance
    assert set(r.record()) == {"P's residual", "P's residual tolerance", "P's residual oracle"}


@pytest.mark.parametrize("arith", ["mpmath", "numpy", "numpy32", "torch", "flint"])
def test_every_integral_route_carries_its_residual(arith) -> None:
    """The integral ∫₀^∞ C(e^{Wt}, X) dt solves L_C(P) = −X for either congruence; its oracle
    is formed generically (central difference of C) and passes for both integrands."""
    w, q = _problem()
    for law in (LyapunovIntegral(), LyapunovIntegral(transpose_left=False)):
        if arith == "flint":
            res = ly.integral_enclosure(w, q, law.congruence, bits=128)
        else:
            kind, dtype = ("numpy", "float32") if arith == "numpy32" else (arith, "float64")
            res = ly.integral_doubling(w, q, law.congruence,
                                       ly.PointArithmetic(kind, bits=96, dtype=dtype))
        assert res.status == "converged" and res.residual is not None and res.residual.ok
        assert res.residual.kind == ("ball" if arith == "flint" else "point")


def test_the_oracle_is_exact_on_known_values() -> None:
    """Exact P: R = 0 passes, one ulp of 2^-200 off fails; its float64 rounding passes the float64
    oracle but fails one at 2^-200 (the tolerance is the arithmetic's); its ball passes, a ball
    shifted off it fails; NaN fails."""
    import flint

    w, q = _problem()
    p = ly.exact(w, q).P
    assert ly.residual_oracle(w, q, p).ok and ly.residual_oracle(w, q, p).value == 0
    bumped = flint.fmpq_mat(p)
    bumped[0, 0] += flint.fmpq(1, 2 ** 200)
    bad = ly.residual_oracle(w, q, bumped)
    assert not bad.ok and bad.certified and bad.value > 0
    pf = ly.to_float64(p)
    assert ly.residual_oracle(w, q, pf, unit_roundoff=U64, scale=3).ok
    assert not ly.residual_oracle(w, q, pf, unit_roundoff=mpmath.mpf(2) ** -200, scale=3).ok
    with flint.ctx.workprec(128):
        ball = flint.arb_mat(p)
        assert ly.residual_oracle(w, q, ball, bits=192).ok
        off = ball + flint.arb_mat(3, 3, [flint.arb(2) ** -100] * 9)
        orc = ly.residual_oracle(w, q, off, bits=192)
    assert not orc.ok and orc.kind == "ball" and "excludes 0" in orc.text
    pn = pf.copy()
    pn[1, 1] = np.nan
    assert not ly.residual_oracle(w, q, pn, unit_roundoff=U64, scale=3).ok


def _transposed(solve, w, q):
    """The planted slip: the solution of W P + P Wᵀ = −Q instead of Wᵀ P + P W = −Q."""
    return solve(ly.fmpq_matrix(w).transpose(), q)


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_oracle_catches_the_transposed_equation_in_every_arithmetic(route) -> None:
    w, q = _problem()
    solve, kind = ROUTES[route]
    p = _transposed(solve, w, q).P
    p = p[0] if hasattr(p, "detach") else p
    if kind == "point":
        orc = ly.residual_oracle(w, q, p, unit_roundoff=U64, scale=9)
    else:
        orc = ly.residual_oracle(w, q, p, bits=192)
    assert not orc.ok
    assert orc.value > 1e-3  # about 10¹⁴ times the float64 tolerance


# ---- the claims: a planted solver slip stops every check that reads P ----------------------------

SOLVED_P = {  # claims whose checks read a P solved from (75)/(88), and their verdict without slip
    "W.lyapunov-bound": Verdict.REFUTED,
    "W.lyapunov-bound.weak": Verdict.VERIFIED,
    "W.lyapunov-local.weak": Verdict.VERIFIED,
    "W.lyapunov-local.explicit": Verdict.REFUTED,
    "W.lyapunov-local.explicit.corrected": Verdict.VERIFIED,
}
SLIP_BACKENDS = ("mpmath@128", "flint@128", "numpy")


def _failed_oracle(e: Evidence) -> bool:
    return e.data.get("P's residual oracle", "").startswith("FAILED")


def _assert_slip_caught(r, backends=SLIP_BACKENDS, least: float = 1e-3) -> None:
    numeric = [e for e in r.evidence if e.kind == "numeric"]
    caught = [e for e in numeric if _failed_oracle(e)]
    assert {e.backend for e in caught} == set(backends), [(e.backend, e.outcome) for e in numeric]
    for e in caught:  # never PASS, never a refutation of the paper; the residual is shown
        assert e.outcome is (Outcome.ERROR if e.backend.startswith("flint") else Outcome.FAIL)
        assert e.counterexample is None and e.certified_by is None
        assert "fails its oracle" in e.message and float(e.data["P's residual"]) > least


@pytest.mark.parametrize("claim_id", list(SOLVED_P))
def test_transposed_solver_slip_stops_every_claim_that_reads_p(claim_id, monkeypatch) -> None:
    """Issue 19: a solver returning the solution of the transposed equation left these claims
    VERIFIED (their inequalities have room, κ₂(V⁻ᵀ) = κ₂(V)). Now each check that reads the bad P
    is FAILED (ERROR in ball arithmetic) with its residual, and no such claim passes."""
    real = ly.solve
    monkeypatch.setattr(ly, "solve", lambda w, q=None, backend="numpy": _transposed(
        lambda a, b: real(a, b, backend), w, q))
    r = run(claim_id, backends=SLIP_BACKENDS, examples=10)
    assert not r.verdict.ok, r.verdict
    _assert_slip_caught(r)


def test_scaled_solver_slip_stops_the_normal_claim(monkeypatch) -> None:
    """For normal W the transposed equation has the same solution (the slip is harmless there:
    W.lyapunov-bound.corrected keeps passing, and rightly); a P off by a factor 1 + 2⁻²⁰, which
    the inequality's room would hide, is caught by the oracle in every arithmetic."""
    import flint

    real = ly.solve

    def scaled(w, q=None, backend="numpy"):
        sol = real(w, q, backend)
        p = sol.P
        f = flint.arb(1) + flint.arb(2) ** -20 if isinstance(p, flint.arb_mat) else 1 + 2.0 ** -20
        return replace(sol, P=p * (mpmath.mpf(f) if isinstance(f, float) and
                                   not isinstance(p, np.ndarray) else f))

    monkeypatch.setattr(ly, "solve", scaled)
    r = run("W.lyapunov-bound.corrected", backends=SLIP_BACKENDS, examples=10)
    assert not r.verdict.ok
    caught = [e for e in r.evidence if _failed_oracle(e)]
    assert {e.backend for e in caught} == set(SLIP_BACKENDS)
    assert all(e.outcome in (Outcome.FAIL, Outcome.ERROR) for e in caught)


def test_exact_solver_slip_is_an_error_of_the_search(monkeypatch) -> None:
    """The search's exact P is checked too (R = 0 over ℚ): a transposed exact solver is ERROR
    (an internal inconsistency), not a counterexample."""
    real = ly.exact
    monkeypatch.setattr(ly, "exact", lambda w, q=None: _transposed(real, w, q))
    lc._head_p.cache_clear()
    r = run("W.lyapunov-bound.weak", backends=("numpy",), examples=5)
    search = [e for e in r.evidence if e.kind == "search"]
    assert search and search[0].outcome is Outcome.ERROR and "fails its oracle" in search[0].message
    assert not r.verdict.ok


# ---- the claims: a planted slip in the integral route ---------------------------------------------

def _bump(p):
    """P·(1 + 2⁻²⁰) in its own arithmetic."""
    import flint

    if isinstance(p, flint.arb_mat):
        with flint.ctx.workprec(256):
            return p * (flint.arb(1) + flint.arb(2) ** -20)
    if isinstance(p, np.ndarray) or hasattr(p, "detach"):
        return p * (1 + 2.0 ** -20)
    return p * (1 + mpmath.mpf(2) ** -20)


def test_integral_slip_is_caught_and_never_refutes(monkeypatch) -> None:
    """Before issue 19, a slip in the integral made W.lyapunov REFUTED in mpmath ("the equation's
    residual stays put as precision rises") — a bug of recmem reported as a finding about the
    paper. Now the integral's own oracle fails: FAILED in point arithmetics, ERROR in balls."""
    real_d, real_e = ly.integral_doubling, ly.integral_enclosure
    monkeypatch.setattr(ly, "integral_doubling", lambda *a, **k: _slipped(real_d(*a, **k)))
    monkeypatch.setattr(ly, "integral_enclosure", lambda *a, **k: _slipped(real_e(*a, **k)))
    r = run("W.lyapunov", backends=SLIP_BACKENDS, examples=5)
    assert r.verdict in (Verdict.FAILED, Verdict.ERROR), r.verdict
    numeric = [e for e in r.evidence if e.kind == "numeric"]
    assert not any(e.outcome in (Outcome.PASS, Outcome.REFUTE) for e in numeric)
    _assert_slip_caught(r, least=1e-9)  # a relative slip of 2⁻²⁰ leaves a residual ~ 2⁻²⁶


def _slipped(res):
    return res if res.P is None else replace(res, P=_bump(res.P))


@pytest.mark.parametrize("claim_id", ["W.lyapunov-bound.uniform", "W.lyapunov-local"])
def test_integral_slip_stops_the_sequence_witness(claim_id, monkeypatch) -> None:
    real_d, real_e = ly.integral_doubling, ly.integral_enclosure
    monkeypatch.setattr(ly, "integral_doubling", lambda *a, **k: _slipped(real_d(*a, **k)))
    monkeypatch.setattr(ly, "integral_enclosure", lambda *a, **k: _slipped(real_e(*a, **k)))
    r = run(claim_id, backends=("flint@128", "numpy"), examples=5)
    witness = [e for e in r.evidence if e.kind == "numeric" and "witness" in e.check
               and "(P_m)_mm" in e.check]
    assert [e.outcome for e in witness] == [Outcome.ERROR, Outcome.FAIL]
    assert all("fails its oracle" in e.message for e in witness)


# ---- routes compared -----------------------------------------------------------------------------

def test_route_comparison_reports_a_disagreeing_route(monkeypatch) -> None:
    """With the oracle itself broken (planted: every P passes) and the slip in one arithmetic only
    (numpy's Bartels–Stewart solves the transposed equation), the comparison with the other
    arithmetics' P for the same W still reports it: ERROR evidence naming both values."""
    real_bs, real_oracle = ly.bartels_stewart, lc.oracle_of
    monkeypatch.setattr(ly, "bartels_stewart", lambda w, q=None, **k: _transposed(
        lambda a, b: real_bs(a, b, **k), w, q))
    monkeypatch.setattr(lc, "oracle_of", lambda b, w, p, q=None: replace(
        real_oracle(b, w, p, q), ok=True))
    r = run("W.lyapunov-local.weak", backends=SLIP_BACKENDS, examples=5)
    split = [e for e in r.evidence if e.check.startswith("routes agree on P")]
    assert split and all(e.outcome is Outcome.ERROR and e.backend == "numpy" for e in split)
    assert any("P (numpy)" in e.data and "P (mpmath@128)" in e.data for e in split)
    assert "disagree beyond both error bounds" in split[0].message
    assert not r.verdict.ok


def test_compare_routes_agrees_within_bounds_and_names_both_values() -> None:
    import flint

    from recmem.checks.claim import Context

    ctx = Context({})
    w, q = _problem()
    exact = ly.exact(w, q).P
    data, bad = lc.compare_routes(ctx, "k", "flint", ly.kronecker_flint(w, q, bits=128).P,
                                  mpmath.mpf(0), "c", "flint")
    assert bad is None and data == {}
    data, bad = lc.compare_routes(ctx, "k", "numpy", ly.to_float64(exact), 8 * 3 * U64 * 10,
                                  "c", "numpy")
    assert bad is None and data["P agrees with flint"].endswith("yes")
    off = flint.fmpq_mat(exact)
    off[0, 1] += 1  # one entry off by 1
    data, bad = lc.compare_routes(ctx, "k", "exact", off, mpmath.mpf(0), "c", "exact")
    assert bad is not None and bad.outcome is Outcome.ERROR
    assert {"P (exact)", "P (flint)"} <= set(bad.data) and data["P agrees with numpy"].endswith("NO")


# ---- a point arithmetic's violation is certified only by ball arithmetic ------------------------------

def _mp_backend():
    return make_backend(parse_spec("mpmath@64"))


def test_compare_refutes_only_when_balls_separate() -> None:
    """A violation in mpmath is REFUTE only when the recomputation in flint separates the
    enclosures; a recomputation that overlaps, fails its oracle (None) or raises leaves FAIL:
    "it stays put as the precision rises" is no certificate."""
    value = lc.Value.point(mpmath.mpf(2), 64)
    cases = {
        "apart": (lambda fb: (lc.Value(mpmath.mpf("1.9"), mpmath.mpf("2.1"), True, 128), F(1)),
                  Outcome.REFUTE),
        "overlap": (lambda fb: (lc.Value(mpmath.mpf("0.5"), mpmath.mpf(3), True, 128), F(1)),
                    Outcome.FAIL),
        "oracle failed": (lambda fb: None, Outcome.FAIL),
        "raised": (lambda fb: (_ for _ in ()).throw(ValueError("no")), Outcome.FAIL),
        "point, not ball": (lambda fb: (lc.Value.point(mpmath.mpf(2), 128), F(1)), Outcome.FAIL),
    }
    for name, (again, outcome) in cases.items():
        ev = lc.compare("c", _mp_backend(), value, F(1), relation="le", tol_abs=mpmath.mpf(2) ** -40,
                        tol_text="t", recompute=again)
        assert ev.outcome is outcome, name
        if outcome is Outcome.REFUTE:
            assert ev.certified_by.startswith("ball arithmetic (recomputed in flint@128)")
        else:
            assert ev.certified_by is None


def test_mpmath_refutations_are_certified_by_balls() -> None:
    """Every mpmath REFUTE of the Lyapunov claims names its ball certificate."""
    for cid in ("W.lyapunov-bound", "W.lyapunov.any-q", "W.semigroup-bound"):
        r = run(cid, backends=("mpmath@128",), examples=5)
        refutes = [e for e in r.evidence if e.backend == "mpmath@128" and e.outcome is Outcome.REFUTE]
        assert refutes, cid
        for e in refutes:
            assert "ball" in e.certified_by and "stays put" not in e.certified_by, e.certified_by


def test_w_lyapunov_mpmath_violation_without_ball_certificate_is_fail(monkeypatch) -> None:
    """The control "Wᵀ and W swapped" violates the equation in mpmath; with the ball
    recomputation made unable to certify (planted: it returns no converged integral), the mpmath
    outcome is FAIL, not REFUTE."""
    claim_law = LyapunovIntegral(transpose_left=False)
    from recmem.checks.registry import get

    claim = get("W.lyapunov")
    ctx = replace(claim.context(), statement=claim_law)
    backend = make_backend(parse_spec("mpmath@64"))
    with backend.activate():
        ev = wl.numeric(backend, ctx)[0]
    assert ev.outcome is Outcome.REFUTE and "certified enclosure" in ev.certified_by
    monkeypatch.setattr(wl, "_in_balls", lambda law, case, bits: (
        None, replace(ly.integral_enclosure(case.W, case.Q, law.congruence, bits=16),
                      status="undecided", P=None)))
    with backend.activate():
        ev = wl.numeric(backend, replace(claim.context(), statement=claim_law))[0]
    assert ev.outcome is Outcome.FAIL and ev.certified_by is None
