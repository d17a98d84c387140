"""W.well-defined (App. A.1): the limit argument refuted for continuous functionals by an exact
witness, and its correction for RNNs with Lipschitz σ (Grönwall's rate, attained)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from claim_helpers import outcomes, run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.runner import run_claim
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import parse_spec
from recmem.theory.well_defined import (
    HeavisideLimit,
    approximant,
    bump,
    heaviside,
    piece,
    smooth_step,
    well_defined_proof,
    witness_value,
)


def _ev(result, backend: str):
    return next(e for e in result.evidence if e.backend == backend)


def test_printed_limit_argument_refuted_in_every_arithmetic() -> None:
    r = run("W.well-defined", backends=("sympy", "mpmath@128", "flint@128", "numpy"), examples=10)
    assert r.verdict is Verdict.REFUTED
    cx = _ev(r, "sympy").counterexample
    assert cx["H_t(u_k), every k ≥ 2/(t − 1)"] == "2" and cx["H_t(u^x)"] == "1"
    assert _ev(r, "flint@128").outcome is Outcome.REFUTE  # certified by the ball
    assert _ev(r, "numpy").outcome is Outcome.FAIL
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_rnn_correction_verified_and_near_control_resolved() -> None:
    r = run("W.well-defined.rnn", backends=("sympy", "numpy", "mpmath@128"), examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}
    assert get("W.well-defined.rnn").corrects == "W.well-defined"
    near = next(c for c in r.controls or () if "63/64" in c.change)
    assert near.verdict is Verdict.REFUTED
    assert {e.backend for e in near.evidence if e.outcome is Outcome.FAIL} >= {"numpy", "mpmath@128"}


def test_approximants_converge_pointwise_and_are_continuous() -> None:
    x = Fraction(3, 2)
    for s in (Fraction(-1), Fraction(-1, 100), Fraction(0), Fraction(1, 1000), Fraction(5)):
        k = 10**4
        assert approximant(x, k, s) == heaviside(x, s)
    for k in (1, 4, 16):  # continuity at the joints: both neighbouring pieces agree
        for j, b in ((0, Fraction(0)), (1, Fraction(2, k))):
            assert piece(k, j, b) == piece(k, j + 1, b)
        assert piece(k, 0, Fraction(-1, k)) == 0
    assert max(smooth_step(Fraction(i, 64)) + bump(Fraction(i, 64)) for i in range(129)) == 2


def test_witness_values_and_sequence_dependence() -> None:
    t = Fraction(2)
    assert witness_value(Fraction(-3), 4, t) == 18 and witness_value(Fraction(-3), None, t) == 9
    assert witness_value(Fraction(-3), 4, t, with_bump=False) == 9
    with pytest.raises(ValueError):
        witness_value(Fraction(1), 1, Fraction(2))  # t < 1 + 2/k


@pytest.mark.parametrize("law", [HeavisideLimit(), HeavisideLimit(functionals="causal"),
                                 HeavisideLimit(functionals="rnn", scale=Fraction(63, 64))])
def test_false_statements_refuted_symbolically(law) -> None:
    p = well_defined_proof(law)
    assert p.holds is False and p.counterexample


def test_planted_error_stops_verify_passing() -> None:
    claim = get("W.well-defined.rnn")
    planted = replace(claim, statement=replace(claim.statement, scale=Fraction(127, 128)))
    r = run_claim(planted, planted.context(search_examples=10), [parse_spec("sympy"), parse_spec("numpy")])
    assert r.verdict is Verdict.REFUTED


@given(get("W.well-defined.rnn").strategy(get("W.well-defined.rnn").context()))
def test_grönwall_holds_exactly(inst) -> None:
    claim = get("W.well-defined.rnn")
    assert claim.holds(inst, claim.context()).holds is True


@given(get("W.well-defined").strategy(get("W.well-defined").context()))
def test_printed_fails_exactly_on_the_bump_sequences(inst) -> None:
    claim = get("W.well-defined")
    assert claim.holds(inst, claim.context()).holds is (not inst[4])


@pytest.mark.parametrize("backend", ["mpmath@12", "flint@12", "numpy:float32", "torch:cpu"])
def test_low_precision_never_passes_the_printed_statement(backend) -> None:
    r = run("W.well-defined", backends=(backend,), examples=5)
    assert r.verdict is Verdict.REFUTED  # the exact search refutes; no arithmetic passes it
    assert all(e.outcome is not Outcome.PASS for e in r.evidence)
