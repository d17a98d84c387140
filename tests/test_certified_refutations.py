"""Issue 19: a REFUTE is certified (ball arithmetic or exact); a residual that merely stays put
when the precision doubles is a heuristic, reported as an uncertified FAIL."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest

from recmem.checks import numeric
from recmem.checks.claims.paper_w import _reparam as rp
from recmem.checks.verdict import Outcome
from recmem.numerics.backend import AbstractBackend, BackendUnavailable, make_backend
from recmem.numerics.exact import QQi

ONE_THIRD = [[QQi(Fraction(1, 3))]]


def _check(compute: Any) -> Any:
    return numeric.identity_check("x = 1/3", make_backend("mpmath@64"), compute,
                                  instance={"x": "1/3"}, kappa=mpmath.mpf(1), n=1)


def test_a_slip_that_stays_put_in_one_arithmetic_is_not_certified() -> None:
    """A precision-independent slip in the mpmath route (lhs off by 1e-3 whatever the bits): the
    residual stays put as the precision doubles, which used to be reported as a certified REFUTE;
    the ball route computes the identity right, so no enclosure certifies the disagreement."""
    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        lhs = b.matrix([[QQi(Fraction(1, 3) + (Fraction(1, 1000) if b.spec.kind == "mpmath"
                                               else 0))]])
        return lhs, b.matrix(ONE_THIRD)

    ev = _check(compute)
    assert ev.outcome is Outcome.FAIL and ev.certified_by is None and ev.counterexample is None
    assert "heuristic" in ev.message and "stays put" in ev.message


def test_a_real_disagreement_is_certified_by_a_ball_that_excludes_zero() -> None:
    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        return b.matrix([[QQi(Fraction(1, 3) + Fraction(1, 1000))]]), b.matrix(ONE_THIRD)

    ev = _check(compute)
    assert ev.outcome is Outcome.REFUTE
    assert ev.certified_by is not None and ev.certified_by.startswith("ball arithmetic")
    assert ev.counterexample is not None and "∌ 0" in ev.counterexample["enclosure"]


def test_without_python_flint_nothing_is_certified(monkeypatch: Any) -> None:
    """The fallback where no ball route can run: the disagreement stays an uncertified FAIL."""
    real = numeric.make_backend

    def no_flint(spec: Any) -> AbstractBackend:
        if getattr(spec, "kind", None) == "flint":
            raise BackendUnavailable("python-flint is not installed")
        return real(spec)

    monkeypatch.setattr(numeric, "make_backend", no_flint)

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        return b.matrix([[QQi(Fraction(1, 3) + Fraction(1, 1000))]]), b.matrix(ONE_THIRD)

    ev = _check(compute)
    assert ev.outcome is Outcome.FAIL and ev.certified_by is None
    assert "not certified" in ev.message


def test_point_judgements_are_refuted_only_by_a_certificate() -> None:
    """checks.claims.paper_w._reparam.evidence: an mpmath FAIL becomes REFUTE only when ``certify``
    returns a (ball) certificate; otherwise FAIL, said to be uncertified."""
    backend = make_backend("mpmath@64")
    bad = rp.Judged("p", Outcome.FAIL, mpmath.mpf(1), mpmath.mpf("1e-10"))
    refused = rp.evidence("c", backend, [bad], 0.0, tolerance_source="s", certify=lambda _: None)
    assert refused.outcome is Outcome.FAIL and "not certified" in refused.message
    certified = rp.evidence("c", backend, [bad], 0.0, tolerance_source="s",
                            certify=lambda _: "ball arithmetic (python-flint): excludes 0")
    assert certified.outcome is Outcome.REFUTE and certified.certified_by.startswith("ball")


@pytest.mark.parametrize("with_flint", [True, False])
def test_reparam_mpmath_refutation_rests_on_balls(monkeypatch: Any, with_flint: bool) -> None:
    """W.reparam's mpmath check refutes the matrix reading only through the ball recomputation of
    its failing points; without python-flint it is an uncertified FAIL (before issue 19 it was
    REFUTE because the excess stayed put at doubled precision)."""
    from claim_helpers import run

    if not with_flint:
        monkeypatch.setattr(rp, "flint_for", lambda bits: None)
    result = run("W.reparam", backends=("mpmath@128",), draws=1)
    ev = next(e for e in result.evidence if e.backend == "mpmath@128")
    if with_flint:
        assert ev.outcome is Outcome.REFUTE and "python-flint" in (ev.certified_by or "")
    else:
        assert ev.outcome is Outcome.FAIL and ev.certified_by is None


def _mpmath_refutations(claim_id: str, **params: Any) -> list[Any]:
    """The mpmath@128 evidence of ``claim_id`` that is not PASS (controls not run)."""
    from recmem.checks.claim import Context
    from recmem.checks.registry import get
    from recmem.checks.runner import resolve_params, run_claim
    from recmem.numerics.backend import parse_spec

    claim = get(claim_id)
    values = resolve_params([claim], {k: str(v) for k, v in params.items()})[claim.id]
    ctx = Context(values, seed=0, precision_bits=128, search_examples=5)
    result = run_claim(claim, ctx, [parse_spec("mpmath@128")], controls=False)
    return [e for e in result.evidence if e.backend == "mpmath@128"
            and e.outcome in (Outcome.REFUTE, Outcome.FAIL)]


@pytest.mark.parametrize("claim_id", ["W.rnn-linear-memory", "W.limit-decay.proof-transform"])
@pytest.mark.parametrize("with_flint", [True, False])
def test_mpmath_refutations_of_w_claims_rest_on_balls(monkeypatch: Any, claim_id: str,
                                                      with_flint: bool) -> None:
    """eq. (38) of W.rnn-linear-memory and (109) = (110) of W.limit-decay.proof-transform: the
    mpmath check refutes only through the ball recomputation of the failing point; without
    python-flint the disagreement is an uncertified FAIL (before issue 19 both were REFUTE
    because the value stayed put at doubled precision)."""
    if not with_flint:
        monkeypatch.setattr(rp, "flint_for", lambda bits: None)
    found = _mpmath_refutations(claim_id)
    assert found
    if with_flint:
        assert any(e.outcome is Outcome.REFUTE and "python-flint" in (e.certified_by or "")
                   for e in found)
        assert all("stays put" not in (e.certified_by or "") for e in found)
    else:
        assert all(e.outcome is Outcome.FAIL and e.certified_by is None for e in found)


def test_memory_def_mpmath_disagreement_is_a_labelled_heuristic() -> None:
    """W.memory-def's mpmath Taylor check of a control: the discrepancy staying put between two
    precisions used to be a certified REFUTE; it is an uncertified FAIL that says so."""
    from recmem.checks.claim import Context
    from recmem.checks.registry import get
    from recmem.checks.runner import resolve_params, run_claim
    from recmem.numerics.backend import parse_spec

    claim = get("W.memory-def")
    near = next(c for c in claim.controls if "near" in c.change)
    values = resolve_params([claim], {})[claim.id]
    ctx = Context(values, seed=0, precision_bits=128, search_examples=5, statement=near.statement)
    result = run_claim(claim, ctx, [parse_spec("mpmath@128")], controls=False)
    ev = next(e for e in result.evidence if e.backend == "mpmath@128")
    assert ev.outcome is Outcome.FAIL and ev.certified_by is None and ev.counterexample is None
    assert "heuristic, not certified" in ev.message


@pytest.mark.parametrize("claim_id", ["W.memory-impulse.literal", "W.memory-impulse.sketch",
                                      "O.relaxation"])
def test_no_refutation_rests_on_a_residual_that_stays_put(claim_id: str) -> None:
    """The mpmath checks of these false statements find the disagreement; a residual that stays
    put when the precision doubles used to make them a certified REFUTE. It is strong evidence,
    not a certificate: each such check is FAIL and says it is a heuristic, or it is REFUTE only
    through ball arithmetic (the claims stay REFUTED through their exact checks)."""
    found = _mpmath_refutations(claim_id)
    assert found
    for e in found:
        if e.outcome is Outcome.REFUTE:
            assert (e.certified_by or "").startswith("ball arithmetic"), e.certified_by
        else:
            assert e.certified_by is None and e.counterexample is None, e
    assert any("heuristic" in e.message or "ball" in (e.certified_by or "") for e in found)
