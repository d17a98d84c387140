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


# ---- paths the claims' tests reached before they left TRACED_FILES, forced on exact cases ------------
def test_a_ball_that_excludes_zero_refutes_with_the_instance_and_its_enclosure() -> None:
    """flint at 64 bits: lhs = 1, rhs = 1 + 2⁻¹⁰, both exact. The ball of lhs − rhs excludes 0
    at once: a certified refutation whose counterexample is the instance with the enclosure."""
    def off_by_2_to_minus_10(b: object) -> tuple[object, object]:
        one = flint.acb(1)
        return flint.acb_mat([[one]]), flint.acb_mat([[one + flint.acb(2) ** -10]])

    backend = make_backend(BackendSpec("flint", bits=64))
    ev = numeric.identity_check("1 = 1 + 2⁻¹⁰", backend, off_by_2_to_minus_10,
                                instance={"x": "1"}, kappa=mpmath.mpf(1), n=1)
    assert ev.outcome is Outcome.REFUTE and ev.precision_bits == 64
    assert ev.certified_by == "ball arithmetic: the enclosure of lhs − rhs excludes 0"
    assert ev.enclosure is not None and ev.enclosure.startswith("lhs − rhs ∋ 0: False")
    assert ev.counterexample == {"x": "1", "enclosure": ev.enclosure}


@pytest.mark.parametrize(("rhs", "outcome"), [(0.5, Outcome.PASS), (0.625, Outcome.FAIL)])
def test_a_float_check_judges_the_residual_and_never_escalates(rhs: float,
                                                               outcome: Outcome) -> None:
    """numpy (float64): 1/2 = 1/2 passes with residual 0.0; 1/2 = 5/8 (residual 1/5, exactly
    representable inputs) fails, and only mpmath failures are recomputed in balls, so this one
    stays an uncertified FAIL with no counterexample."""
    import numpy as np

    backend = make_backend(BackendSpec("numpy"))
    ev = numeric.identity_check("1/2 = rhs", backend,
                                lambda b: (np.array([[0.5]]), np.array([[rhs]])),
                                instance={"rhs": str(rhs)}, kappa=mpmath.mpf(1), n=1)
    assert ev.outcome is outcome and ev.certified_by is None and ev.counterexample is None
    assert ev.residual == ("0.0" if outcome is Outcome.PASS else "0.2")


def test_a_wide_matrix_has_a_certified_infinite_kappa_and_no_finite_fro_over_smin() -> None:
    """[[1, 1]] (1 × 2): σ_min of its 2 columns is 0 exactly, so κ₂ = ∞ is certified and
    ‖A‖_F/σ_min is ∞; the roots of unity N = 4 (AᴴA = 4I: σ = 2, ‖A‖_F = 4) give exactly 2."""
    from recmem.numerics.certified import exact_matrix_builder, sigma_bracket, vandermonde_builder
    from recmem.numerics.exact import QQi
    from recmem.numerics.nodes import roots

    wide = sigma_bracket(exact_matrix_builder([[QQi(Fraction(1)), QQi(Fraction(1))]]),
                         start_bits=64)
    assert wide.certified and wide.fro_over_smin() == mpmath.inf
    assert wide.kappa.infinite and str(wide.kappa) == "∞ (certified: rank ≤ rows < columns)"
    square = sigma_bracket(vandermonde_builder(roots(4), 4), start_bits=64)
    ratio = square.fro_over_smin()
    assert square.certified and 2 <= ratio <= 2 * (1 + mpmath.mpf(2) ** -50)


def test_an_enclosure_at_a_new_precision_makes_its_context_and_brackets_the_exact_value() -> None:
    """enclose() at a precision not seen before (its interval context made afresh): the ends of
    (1/3)² bracket 1/9 exactly, at about the requested 80 bits + 64."""
    from recmem.numerics import certified

    certified._interval_context.cache_clear()
    lo, hi = certified.enclose(lambda x: x * x, Fraction(1, 3), bits=80)
    assert certified.mpf_to_fraction(lo) <= Fraction(1, 9) <= certified.mpf_to_fraction(hi)
    assert hi - lo <= mpmath.mpf(2) ** -140
    assert certified._interval_context.cache_info().misses == 1


def test_a_residual_that_is_not_a_number_is_left_out_of_rule_c2() -> None:
    """Rule C2 compares residuals as numbers; a residual text that is not one (here "n/a") cannot
    be compared, so the passing check stands and only rule C1 could have changed it."""
    from recmem.checks.verdict import apply_controls

    def ev(outcome: Outcome, residual: str) -> Evidence:
        return Evidence(check="c", kind="numeric", backend="numpy", outcome=outcome,
                        residual=residual, tolerance="0.1")

    control = ControlRun("near", "s'", Verdict.REFUTED, [ev(Outcome.FAIL, "n/a")], None)
    (kept,) = apply_controls([ev(Outcome.PASS, "0.01")], [control])
    assert kept.outcome is Outcome.PASS
    # the same control with a numeric residual within the tolerance: C2 makes it INCONCLUSIVE
    close = ControlRun("near", "s'", Verdict.REFUTED, [ev(Outcome.FAIL, "0.05")], None)
    (judged,) = apply_controls([ev(Outcome.PASS, "0.01")], [close])
    assert judged.outcome is Outcome.INCONCLUSIVE and "cannot separate" in judged.message
