"""W.memory-query (App. B): the repeated-word memory query on a linear recurrent stand-in (the IMDB
experiment is not reproduced)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from claim_helpers import outcomes, run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.runner import run_claim
from recmem.checks.verdict import Verdict
from recmem.numerics.backend import parse_spec
from recmem.theory.memory_query import RepeatQuery, judge, kernel, repeat_query_proof, scores


def test_query_verified_in_every_arithmetic_and_controls_refuted() -> None:
    r = run("W.memory-query", backends=("sympy", "mpmath@128", "flint@128", "numpy", "torch:cpu"),
            examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}
    assert r.controls and len(r.controls) == 5
    assert all(c.verdict is Verdict.REFUTED for c in r.controls)
    assert "not reproduced" in get("W.memory-query").notes.lower() or \
        "NOT a reproduction" in get("W.memory-query").notes


def test_scores_telescope_to_the_kernel() -> None:
    lam = [Fraction(1, 2), Fraction(-1, 3)]
    b = [[Fraction(1), Fraction(2)], [Fraction(-1), Fraction(1, 2)]]
    c = [Fraction(3), Fraction(1)]
    x = [Fraction(1), Fraction(-1)]
    for k in range(6):
        diff = scores(lam, b, c, x, k + 1) - scores(lam, b, c, x, k)
        assert diff == sum(v * xi for v, xi in zip(kernel(lam, b, c, k), x, strict=True))
    assert judge(RepeatQuery(), lam, b, c, 3)[0] is True
    assert judge(RepeatQuery(lag_shift=1), lam, b, c, 3)[0] is False


@pytest.mark.parametrize("law", [RepeatQuery(lag_shift=1), RepeatQuery(rho_norm="inf"),
                                 RepeatQuery(scale=Fraction(65, 64))])
def test_false_statements_refuted_symbolically(law) -> None:
    p = repeat_query_proof(law)
    assert p.holds is False and p.counterexample


def test_planted_error_stops_verify_passing() -> None:
    claim = get("W.memory-query")
    planted = replace(claim, statement=replace(claim.statement, lag_shift=-1))
    r = run_claim(planted, planted.context(search_examples=10), [parse_spec("sympy"), parse_spec("numpy")])
    assert r.verdict is Verdict.REFUTED


@given(get("W.memory-query").strategy(get("W.memory-query").context()))
def test_query_holds_exactly(inst) -> None:
    claim = get("W.memory-query")
    assert claim.holds(inst, claim.context()).holds is True


@pytest.mark.parametrize("backend", ["mpmath@12", "mpmath@24", "flint@12", "numpy:float32"])
def test_low_precision_never_fails_the_true_statement(backend) -> None:
    r = run("W.memory-query", backends=(backend,), examples=5)
    assert r.verdict in (Verdict.CORROBORATED, Verdict.INCONCLUSIVE)
