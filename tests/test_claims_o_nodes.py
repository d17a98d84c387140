"""Tests of O.ring (Lemma 6), O.invertible and O.timestamp, with their corrected claims."""

from __future__ import annotations

import cmath
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from claim_helpers import outcomes, run
from hypothesis import given
from hypothesis import strategies as st

from recmem.checks.claim import Context
from recmem.checks.registry import get
from recmem.checks.runner import UsageError
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import lemma6_node, uniform_draws

F = Fraction


def _evidence(result, backend=None, kind=None):
    return [e for e in result.evidence
            if (backend is None or e.backend == backend) and (kind is None or e.kind == kind)]


# ---- O.ring ------------------------------------------------------------------------------------

def test_ring_verified_with_statistics():
    r = run("O.ring", samples=500)
    assert r.verdict is Verdict.VERIFIED
    stats_ev = _evidence(r, kind="statistical")
    assert stats_ev and all(e.outcome is Outcome.PASS for e in stats_ev)
    assert all(e.data["p_value"] >= 1e-3 for e in stats_ev)
    acc = [e for e in r.evidence if e.check.startswith("Lemma 6 in-backend")]
    assert {e.backend for e in acc} == {"mpmath@128", "flint@128", "numpy"}
    assert all(e.outcome is Outcome.PASS for e in acc)


def test_ring_statistics_reject_the_radius_uniform_mistake():
    """|λ| uniform (instead of |λ|²) is not area-uniform: the radial KS test must reject it."""
    from recmem.checks.claims.paper_o.ring import statistics

    rng = np.random.default_rng(1)
    r = rng.uniform(0.0, 1.0, 3000)
    theta = rng.uniform(0.0, 2 * np.pi, 3000)
    ev = statistics("numpy", list(r * np.exp(1j * theta)), F(0), F(1))
    radial, angle, joint = ev
    assert radial.check.startswith("KS: |λ|²") and radial.outcome is Outcome.FAIL
    assert angle.outcome is Outcome.PASS  # the angle is still uniform
    assert joint.outcome is Outcome.FAIL


def test_ring_degenerate_circle():
    r = run("O.ring", backends=("sympy", "mpmath@128", "numpy"), samples=300, r_min="1/2",
            r_max="1/2")
    assert r.verdict is Verdict.VERIFIED
    radial = [e for e in r.evidence if e.check.startswith("KS: |λ|²")]
    assert radial and all(e.outcome is Outcome.SKIPPED for e in radial)


@given(fractions_in(0, 1), fractions_in(0, 1), fractions_in(0, 1), fractions_in(0, 1))
def test_lemma6_backend_matches_reference(u1, u2, a, b):
    """Lemma 6 in float64 and float32 vs 128 bits, within c·n·κ·u with κ = 1 + |ν|."""
    from recmem.checks.claims.paper_o.ring import OPS_PER_NODE, lemma6_backend

    r_min, r_max = min(a, b), max(a, b)
    mp = mpmath.MPContext()
    mp.prec = 128
    ref = lemma6_node(u1, u2, r_min, r_max, mp)
    for spec in ("numpy", "numpy:float32"):
        be = make_backend(spec)
        got = complex(lemma6_backend(be, [u1], [u2], r_min, r_max)[0])
        if ref == 0:
            assert got == 0
            continue
        kappa = 1 + abs(float(mp.log(abs(ref))))
        assert abs(got - complex(ref)) <= 4 * OPS_PER_NODE * kappa * float(be.unit_roundoff) * abs(
            complex(ref))


def test_lemma6_theory():
    from recmem.theory.ring import atom_condition, lemma6_law

    proof = lemma6_law()
    assert proof.holds is True
    assert proof.details["CDF"] == "(r**2 - r_min**2)/d"
    sols, _ = atom_condition()
    assert len(sols) == 1 and all(v == 0 for v in sols[0].values())


# ---- O.invertible ------------------------------------------------------------------------------

def test_invertible_refuted_by_minimal_corner():
    r = run("O.invertible", N=8)
    assert r.verdict is Verdict.REFUTED
    search = next(e for e in r.evidence if e.kind == "search")
    assert search.outcome is Outcome.REFUTE
    ce = search.counterexample
    assert (ce["N"], ce["r_min"], ce["r_max"], ce["det"]) == (2, "0", "0", "0")
    assert ce["nodes"] == ["0", "0"] and "exact" in search.certified_by
    # away from the corner every backend resolves det V_N ≠ 0
    assert all(v == "pass" for k, v in outcomes(r).items() if k in ("mpmath@128", "flint@128",
                                                                   "numpy"))


def test_invertible_corner_reproduced_in_every_backend():
    r = run("O.invertible", backends=("mpmath@128", "flint@128", "numpy", "numpy:float32"),
            N=2, r_min=0, r_max=0)
    assert r.verdict is Verdict.REFUTED
    assert all(e.outcome is Outcome.REFUTE and e.certified_by for e in r.evidence)


def test_invertible_corrected_verified():
    r = run("O.invertible.corrected", N=12, r_min="1/2")
    assert r.verdict is Verdict.VERIFIED
    ball = _evidence(r, backend="flint@128")[0]
    assert ball.outcome is Outcome.PASS and "∌ 0: True" in ball.enclosure


def test_invertible_float32_inconclusive_when_ill_conditioned():
    r = run("O.invertible.corrected", backends=("numpy:float32",), N=16)
    (e,) = r.evidence
    assert e.outcome is Outcome.INCONCLUSIVE and e.needed_bits and e.needed_bits > 24


def test_invertible_corrected_rejects_rmax_zero():
    with pytest.raises(UsageError):
        run("O.invertible.corrected", r_max=0)


@given(get("O.invertible.corrected").strategy(Context(get("O.invertible.corrected").defaults())))
def test_invertible_corrected_holds_on_its_domain(instance):
    claim = get("O.invertible.corrected")
    ctx = Context(claim.defaults())
    assert claim.holds(instance, ctx).holds is not False


@given(get("O.invertible").strategy(Context(get("O.invertible").defaults())))
def test_invertible_fails_exactly_at_the_corner(instance):
    claim = get("O.invertible")
    n, _r_min, r_max = instance
    verdict = claim.holds(instance, Context(claim.defaults())).holds
    if r_max == 0 and n >= 2:
        assert verdict is False
    else:
        assert verdict is not False


# ---- O.timestamp -------------------------------------------------------------------------------

def test_timestamp_refuted():
    r = run("O.timestamp")
    assert r.verdict is Verdict.REFUTED
    search = next(e for e in r.evidence if e.kind == "search")
    assert search.counterexample["lambda0"] == "0" and search.counterexample["k"] == 1
    ball = _evidence(r, backend="flint@128")[0]
    # the default λ₀ = 0.9·e^{2πi/15}: 8·24° > 180°, so the principal Log wraps at k = 8
    assert ball.outcome is Outcome.REFUTE and ball.counterexample["k"] == 8
    assert _evidence(r, backend="mpmath@128")[0].outcome is Outcome.REFUTE


def test_timestamp_failure_classes():
    from recmem.theory.timestamp import FAILURE_CLASSES, decide_printed

    for _, lam0, k in FAILURE_CLASSES:
        assert decide_printed(lam0, k)[0] is False
    assert all(decide_printed(QQi(F(1, 2)), k)[0] for k in range(1, 30))
    unit = QQi(F(3, 5), F(4, 5))  # Arg = 53.13°: wraps at k = 4
    assert [decide_printed(unit, k)[0] for k in range(1, 6)] == [True, True, True, False, False]


@given(st.tuples(st.fractions(-1, 1, max_denominator=16), st.fractions(-1, 1, max_denominator=16)),
       st.integers(1, 12))
def test_decide_printed_matches_branch_condition(parts, k):
    re_, im_ = parts
    if re_ * re_ + im_ * im_ > 1 or (re_, im_) in ((0, 0), (1, 0)):
        return
    from recmem.theory.timestamp import decide_printed

    arg = math.atan2(float(im_), float(re_))
    if abs(abs(k * arg) - math.pi) < 1e-9:
        return  # on the cut: decided exactly, compared elsewhere
    expected = -math.pi < k * arg <= math.pi
    assert decide_printed(QQi(re_, im_), k)[0] is expected
    if expected:
        lam = complex(float(re_), float(im_))
        assert abs(cmath.log(lam**k) / cmath.log(lam) - k) < 1e-6


def test_timestamp_corrected_horizons():
    r = run("O.timestamp.corrected", backends=("sympy", "mpmath@128", "flint@128", "numpy",
                                               "numpy:float32"), L=700)
    assert r.verdict is Verdict.VERIFIED
    hz = {}
    for e in r.evidence:
        if e.kind != "numeric":
            continue
        assert e.outcome is Outcome.PASS
        measured = int(e.residual)
        predicted = e.data["predicted horizon (conservative)"]
        assert measured >= min(predicted, 700)
        hz[e.backend] = measured
    # precision orders the horizons: float32 < float64 < 128 bits
    assert hz["numpy:float32"] < hz["numpy"] < hz["mpmath@128"]
    # and they sit near log(u)/log|λ₀| (≈ 158, 349, 842 for |λ₀| ≈ 0.9), never far beyond it
    for be, p in (("numpy:float32", 24), ("numpy", 53), ("mpmath@128", 128)):
        scale = p * math.log(2) / -math.log(0.9)
        assert 0.5 * scale < hz[be] < 1.1 * scale


@given(get("O.timestamp.corrected").strategy(Context(get("O.timestamp.corrected").defaults())))
def test_timestamp_corrected_holds_exactly(instance):
    from recmem.theory.timestamp import decide_corrected

    assert decide_corrected(*instance)[0] is True


def test_parameter_domains_are_enforced():
    with pytest.raises(UsageError):
        run("O.timestamp.corrected", backends=("numpy",), lambda0_re="3/5", lambda0_im="4/5")
    with pytest.raises(UsageError):
        run("O.timestamp", backends=("numpy",), lambda0_re="1", lambda0_im="1/2")
    with pytest.raises(UsageError):
        run("O.ring", backends=("numpy",), r_min="1", r_max="1/2")
    # bypassing parameter resolution, the numeric side still refuses the point (ERROR evidence)
    from recmem.checks.runner import run_claim
    from recmem.numerics.backend import parse_spec

    claim = get("O.timestamp.corrected")
    values = {**claim.defaults(), "lambda0_re": F(1), "lambda0_im": F(0)}
    r = run_claim(claim, Context(values), [parse_spec("numpy")])
    assert r.verdict is Verdict.ERROR


def test_uniform_draws_pairing_is_shared():
    """O.ring pairs draws as numerics.nodes.ring does (u₁ = even, u₂ = odd positions)."""
    from recmem.checks.claims.paper_o.ring import draws

    ctx = Context({"samples": 3}, seed=5)
    u = uniform_draws(5, 6)
    assert draws(ctx) == (u[0::2], u[1::2])
