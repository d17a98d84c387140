"""Paths of the certified core that whole claim runs reach only incidentally, forced here
directly on cases whose answer is known exactly: the ball check's escalation, a check without a
ball route, the κ text of a tight bracket, a control's decisive evidence in the report, and the
symbolic decision's undecided and nonzero-point branches (coverage is measured on the core's own
tests: tests/conftest.py, TRACED_FILES)."""

from __future__ import annotations

import importlib
import tomllib
from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
import sympy as sp

from recmem.checks import numeric
from recmem.checks import tolerance as tol
from recmem.checks.verdict import ControlRun, Evidence, Outcome, Verdict
from recmem.numerics.backend import BackendSpec, BackendUnavailable, make_backend
from recmem.numerics.certified import KappaBracket
from recmem.theory import proof

# Every measured module (pyproject.toml, [tool.coverage.run]) loads here, at collection, while
# coverage runs: one that an untraced test loaded first would lose its module-level lines.
_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
MEASURED = [importlib.import_module(name) for name in
            tomllib.loads(_PYPROJECT.read_text())["tool"]["coverage"]["run"]["source_pkgs"]]


def _third_after_cancellation(b: object) -> tuple[object, object]:
    """lhs = (1/3 + 2⁶⁰) − 2⁶⁰ in the backend's balls, rhs = 1/3: equal exactly, but at 64 bits
    the cancellation leaves a ball about 2⁻⁴ wide, far wider than the check accepts."""
    third = flint.arb(1) / 3
    lhs = (third + flint.arb(2) ** 60) - flint.arb(2) ** 60
    return flint.acb_mat([[flint.acb(lhs)]]), flint.acb_mat([[flint.acb(third)]])


def test_a_ball_too_wide_is_recomputed_at_doubled_precision_and_then_passes() -> None:
    backend = make_backend(BackendSpec("flint", bits=64))
    with backend.activate():
        lhs, rhs = _third_after_cancellation(backend)
        assert (lhs - rhs).contains(flint.acb_mat(1, 1))  # contains the exact difference 0 …
    contains, radius, scale, _ = numeric._ball_residual(backend, lhs, rhs)
    too_wide = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(64 // 4))
    assert contains and radius / scale > too_wide  # … but too wide to judge at 64 bits
    ev = numeric.identity_check("1/3 survives a cancellation", backend, _third_after_cancellation,
                                instance={"x": "1/3"}, kappa=mpmath.mpf(1), n=1)
    assert ev.outcome is Outcome.PASS and ev.precision_bits == 128, ev
    assert "at 128 bits" in (ev.enclosure or "") and ev.counterexample is None


def test_a_ball_that_never_narrows_stops_at_the_escalation_limit_inconclusive() -> None:
    def always_wide(b: object) -> tuple[object, object]:
        wide = flint.arb(1, 1)  # [0, 2] at every precision: 1 ± 1 contains the exact 1
        return flint.acb_mat([[flint.acb(wide)]]), flint.acb_mat([[flint.acb(1)]])

    backend = make_backend(BackendSpec("flint", bits=64))
    ev = numeric.identity_check("never narrows", backend, always_wide, instance={},
                                kappa=mpmath.mpf(1), n=1)
    assert ev.outcome is Outcome.INCONCLUSIVE
    assert ev.precision_bits == 64 * numeric.ESCALATION  # doubled up to the limit, then stopped


def test_a_check_without_a_ball_route_certifies_nothing() -> None:
    def no_balls(b: object) -> tuple[object, object]:
        raise BackendUnavailable("this check has no ball route")

    assert numeric.ball_exclusion(no_balls, 64) is None
    # an mpmath failure whose ball recomputation has no route: FAIL, never a refutation
    mp = make_backend(BackendSpec("mpmath", bits=64))

    def off_by_a_tenth(b: object) -> tuple[object, object]:
        if b.spec.kind == "flint":  # type: ignore[attr-defined]
            raise BackendUnavailable("this check has no ball route")
        one = mpmath.matrix([[1]])
        return one, one + mpmath.mpf(1) / 10

    ev = numeric.identity_check("1 = 1.1", mp, off_by_a_tenth, instance={}, kappa=mpmath.mpf(1),
                                n=1)
    assert ev.outcome is Outcome.FAIL and ev.counterexample is None
    assert ev.message.startswith("not certified") and "stays put" in ev.message


def test_numbers_print_short_and_integers_exactly() -> None:
    assert tol.fmt(None) is None
    assert tol.fmt(10**30 + 1) == "1000000000000000000000000000001"
    assert tol.fmt(mpmath.mpf(1) / 3) == "0.333"


def test_a_tight_kappa_bracket_prints_one_value() -> None:
    k = KappaBracket(lo=mpmath.mpf(2), hi=mpmath.mpf(2) * (1 + mpmath.mpf(10) ** -6), bits=64,
                     certified=True)
    assert str(k) == "2.0 (certified, 64 bits)"
    wide = KappaBracket(lo=mpmath.mpf(2), hi=mpmath.mpf(3), bits=64, certified=True)
    assert str(wide) == "[2.0, 3.0] (certified, 64 bits)"


def test_a_controls_report_names_its_decisive_evidence_first_three_only() -> None:
    def ev(outcome: Outcome, n: int) -> Evidence:
        return Evidence(check=f"check {n}", kind="numeric", backend="numpy", outcome=outcome)

    evidence = [ev(Outcome.PASS, 0), ev(Outcome.REFUTE, 1), ev(Outcome.FAIL, 2),
                ev(Outcome.PASS, 3), ev(Outcome.REFUTE, 4), ev(Outcome.REFUTE, 5)]
    d = ControlRun("sign flipped", "x ≥ 0", Verdict.REFUTED, evidence).to_dict()
    assert d["told_apart"] is True
    assert [e["check"] for e in d["decided_by"]] == ["check 1", "check 2", "check 4"]
    passed = ControlRun("same", "x ≥ 0", Verdict.VERIFIED, [ev(Outcome.PASS, 0)]).to_dict()
    assert "decided_by" not in passed and passed["told_apart"] is False


def test_decide_zeros_reports_the_first_undecided_difference() -> None:
    x = sp.Symbol("x", positive=True)
    # zero, then an unknown function (no point to test it at: undecided), then zero
    ok, witness = proof.decide_zeros([x - x, sp.Function("g")(x), 2 * x - x - x])
    assert ok is None and witness["difference no."] == 1
    # a nonzero constant after an undecided one: decided false, and that one is named
    ok, witness = proof.decide_zeros([sp.Function("g")(x), sp.Integer(2)])
    assert ok is False and witness["difference no."] == 1


@pytest.mark.parametrize("poly", ["x*y", "x**2 - x", "x**2*y - x*y"])
def test_a_nonzero_polynomial_gets_a_point_where_it_is_nonzero(poly: str) -> None:
    ring, *_ = sp.ring("x,y", sp.ZZ)
    diff = ring(sp.sympify(poly))
    point = proof.nonzero_point(ring, diff)
    values = [int(point.get(str(g.as_expr()), 0)) for g in ring.gens]
    assert diff(*values) != 0, (poly, point)
    assert all(Fraction(v).denominator == 1 and abs(v) <= 2 for v in values)
