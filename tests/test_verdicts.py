"""The verdict rules of checks/verdict.py (R1–R7, C1, C2), symbolic outcomes, and tolerances.

Every rule has a test here; the README's "What a verdict means" states the same rules.
"""

from __future__ import annotations

import mpmath
import pytest

from recmem.checks import tolerance as tol
from recmem.checks.verdict import (
    ControlRun,
    Evidence,
    Outcome,
    Verdict,
    apply_controls,
    combine,
    counterexample_of,
    decide,
    from_proof,
)
from recmem.theory.proof import Proof, decide_zero, proof_from_steps


def ev(outcome: Outcome, kind: str = "numeric", backend: str = "b", check: str = "c",
       **kw) -> Evidence:
    return Evidence(check=check, kind=kind, backend=backend, outcome=outcome, **kw)


def control(*evidence: Evidence, change: str = "sign flipped") -> ControlRun:
    return ControlRun(change, "a false statement", combine(evidence), list(evidence))


# ---- R1–R5, R7: what the evidence alone earns ----------------------------------------------------

@pytest.mark.parametrize(("outcomes", "verdict"), [
    # R1: a certified counterexample refutes, whatever else passed
    ([("symbolic", Outcome.PASS), ("search", Outcome.REFUTE)], Verdict.REFUTED),
    ([("numeric", Outcome.FAIL), ("search", Outcome.REFUTE)], Verdict.REFUTED),
    # R2: an uncertified disagreement fails
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.FAIL)], Verdict.FAILED),
    # R3: an exception
    ([("numeric", Outcome.ERROR), ("numeric", Outcome.PASS)], Verdict.ERROR),
    # R5: nothing passed
    ([("numeric", Outcome.INCONCLUSIVE)], Verdict.INCONCLUSIVE),
    ([("numeric", Outcome.SKIPPED)], Verdict.SKIPPED),
    ([], Verdict.SKIPPED),
    # R7: a general symbolic proof makes it VERIFIED, numeric passes only CORROBORATED
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.PASS)], Verdict.VERIFIED),
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.INCONCLUSIVE)], Verdict.VERIFIED),
    ([("numeric", Outcome.PASS), ("search", Outcome.PASS)], Verdict.CORROBORATED),
    ([("exact", Outcome.PASS), ("numeric", Outcome.PASS)], Verdict.CORROBORATED),
    # an undecided symbolic side cannot make the claim VERIFIED
    ([("symbolic", Outcome.INCONCLUSIVE), ("numeric", Outcome.PASS)], Verdict.CORROBORATED),
])
def test_combine(outcomes, verdict) -> None:
    assert combine([ev(o, k) for k, o in outcomes]) is verdict


def test_r4_study_claims_are_decided_by_their_trend_tests() -> None:
    support = [ev(Outcome.PASS), ev(Outcome.PASS, "numeric")]
    trends = [ev(Outcome.PASS, "statistical"), ev(Outcome.INCONCLUSIVE, "statistical")]
    assert combine(support + trends, ("statistical",)) is Verdict.INCONCLUSIVE
    assert combine(support + trends) is Verdict.CORROBORATED  # what a non-study claim gets
    assert combine(support + trends[:1], ("statistical",)) is Verdict.CORROBORATED
    assert combine(support, ("statistical",)) is Verdict.SKIPPED
    assert combine([*support, ev(Outcome.FAIL, "statistical")], ("statistical",)) is Verdict.FAILED


# ---- R6: negative controls ---------------------------------------------------------------------

def test_r6_every_control_must_be_told_apart() -> None:
    passing = [ev(Outcome.PASS, "symbolic", "sympy"), ev(Outcome.PASS, backend="mpmath@256")]
    refuted = control(ev(Outcome.REFUTE, "search", "exact"))
    failed = control(ev(Outcome.FAIL, "statistical"), change="trend reversed")
    missed = control(ev(Outcome.PASS, "search", "exact"), change="power shifted")
    assert decide(passing, controls=[refuted, failed]).verdict is Verdict.VERIFIED
    d = decide(passing, controls=[refuted, missed])
    assert d.verdict is Verdict.INCONCLUSIVE
    assert "checks cannot tell the statement from “power shifted”" in d.reason
    # no control at all: no check has shown that it can fail
    assert decide(passing, controls=[]).verdict is Verdict.INCONCLUSIVE
    # controls not run (--no-controls): the evidence alone decides
    assert decide(passing, controls=None).verdict is Verdict.VERIFIED


def test_r6_leaves_refutations_standing() -> None:
    refuted = [ev(Outcome.REFUTE, "search", "exact")]
    missed = control(ev(Outcome.PASS, "search", "exact"))
    assert decide(refuted, controls=[missed]).verdict is Verdict.REFUTED


def test_an_errored_control_is_not_told_apart() -> None:
    assert not control(ev(Outcome.ERROR)).told_apart
    assert not control(ev(Outcome.INCONCLUSIVE)).told_apart
    assert control(ev(Outcome.FAIL)).told_apart and control(ev(Outcome.REFUTE)).told_apart


# ---- C1, C2: passing checks that cannot tell the statement from a control -----------------------

def test_c1_an_arithmetic_that_cannot_tell_a_control_apart_decides_nothing() -> None:
    main = [ev(Outcome.PASS, backend="numpy"), ev(Outcome.PASS, backend="mpmath@256"),
            ev(Outcome.PASS, "search", "exact")]
    # the control is refuted by mpmath and the search, but passes every numpy check
    c = control(ev(Outcome.PASS, backend="numpy"), ev(Outcome.REFUTE, backend="mpmath@256"),
                ev(Outcome.REFUTE, "search", "exact"))
    out = apply_controls(main, [c])
    assert [e.outcome for e in out] == [Outcome.INCONCLUSIVE, Outcome.PASS, Outcome.PASS]
    assert "numpy cannot tell the statement from control “sign flipped”" in out[0].message
    assert main[0].outcome is Outcome.PASS  # the input is left alone
    # one check of an arithmetic refuting the control is enough for that arithmetic (a
    # statement with several parts is checked by several checks)
    two = [ev(Outcome.PASS, backend="numpy", check="identity"),
           ev(Outcome.PASS, backend="numpy", check="definiteness")]
    c2 = control(ev(Outcome.FAIL, backend="numpy", check="identity"),
                 ev(Outcome.PASS, backend="numpy", check="definiteness"))
    assert [e.outcome for e in apply_controls(two, [c2])] == [Outcome.PASS, Outcome.PASS]


def test_c2_a_tolerance_must_resolve_the_distance_to_each_control() -> None:
    # 12 bits: the false statement is 6 % off and passes a 9.5 % tolerance; its nearest control
    # (14.5 % off) fails, but 14.5 % − 6 % is within the tolerance: the check resolves neither
    main = [ev(Outcome.PASS, backend="mpmath@12", residual="0.0639", tolerance="0.0948")]
    near = control(ev(Outcome.REFUTE, backend="mpmath@12", residual="0.145",
                      tolerance="0.0948"))
    (out,) = apply_controls(main, [near])
    assert out.outcome is Outcome.INCONCLUSIVE and "cannot separate" in out.message
    # 24 bits: the tolerance is tiny against the same distance
    main24 = [ev(Outcome.PASS, backend="mpmath@24", residual="1.1e-7", tolerance="2.4e-5")]
    far = control(ev(Outcome.REFUTE, backend="mpmath@24", residual="0.05", tolerance="2.4e-5"))
    assert apply_controls(main24, [far])[0].outcome is Outcome.PASS
    # counterparts are matched by arithmetic and check name; unparseable residuals fall back to C1
    other = control(ev(Outcome.REFUTE, backend="mpmath@24", check="other", residual="1e-7"))
    assert apply_controls(main24, [other])[0].outcome is Outcome.PASS
    # a control that leaves the check's residual unchanged concerns another part of the
    # statement (another check of the arithmetic refuted it): C2 does not apply
    part = [ev(Outcome.PASS, backend="numpy", check="bound", residual="1e-9", tolerance="1e-6"),
            ev(Outcome.PASS, backend="numpy", check="trend", residual="0.01", tolerance="0.05")]
    trend_reversed = control(ev(Outcome.PASS, backend="numpy", check="bound", residual="1e-9",
                                tolerance="1e-6"),
                             ev(Outcome.FAIL, backend="numpy", check="trend", residual="0.9",
                                tolerance="0.05"))
    assert [e.outcome for e in apply_controls(part, [trend_reversed])] == [Outcome.PASS] * 2


# ---- symbolic outcomes --------------------------------------------------------------------------

def test_a_disproof_is_a_refutation_with_its_counterexample() -> None:
    with pytest.raises(ValueError, match="counterexample"):
        Proof(False, "k = 1", "expansion")
    e = from_proof(Proof(False, "k = 1", "expansion", counterexample={"k": 1}), 0.0)
    assert e.outcome is Outcome.REFUTE and e.counterexample == {"k": 1}
    assert combine([e, ev(Outcome.PASS)]) is Verdict.REFUTED
    assert from_proof(Proof(None, "k ≤ 6", "undecided"), 0.0).outcome is Outcome.INCONCLUSIVE


def test_exact_instances_corroborate_but_never_verify() -> None:
    points = from_proof(Proof(True, "ρ = 1/2", "substitution", general=False), 0.0)
    assert points.kind == "exact"
    assert combine([points, ev(Outcome.PASS)]) is Verdict.CORROBORATED
    general = from_proof(Proof(True, "all k", "induction", general=True), 0.0)
    assert general.kind == "symbolic" and combine([general]) is Verdict.VERIFIED


def test_a_proof_that_does_not_say_it_is_general_cannot_verify() -> None:
    """Issue 19: ``general`` defaults to the safe side, so a new proof must say it is general."""
    unsaid = from_proof(Proof(True, "all k", "induction"), 0.0)
    assert unsaid.kind == "exact" and unsaid.outcome is Outcome.PASS
    assert combine([unsaid, ev(Outcome.PASS)]) is Verdict.CORROBORATED
    assert proof_from_steps({"step": True}, "all k", "induction").general is False
    assert proof_from_steps({"step": True}, "all k", "induction", general=True).general


def test_a_step_decided_false_is_a_failed_derivation_not_undecided() -> None:
    """Issue 19: a derivation step SymPy decides false is a FAILED symbolic check showing the
    step and its value; a step SymPy cannot confirm stays undecided (INCONCLUSIVE); neither is a
    refutation of the statement."""
    import sympy as sp

    x = sp.Symbol("x", positive=True)
    broken = proof_from_steps({"square": decide_zero((x + 1) ** 2 - x**2 - 2 * x, simplify=sp.expand),
                               "ok": decide_zero(x - x)}, "all x", "expansion", general=True)
    assert broken.holds is None and broken.failed_step is not None
    assert broken.failed_step["step"] == "square" and "1" in broken.failed_step["value"]
    e = from_proof(broken, 0.0)
    assert e.outcome is Outcome.FAIL and e.kind == "symbolic" and e.counterexample is None
    assert "square" in e.message and "difference (reduced) = 1" in e.message
    assert combine([e, ev(Outcome.PASS)]) is Verdict.FAILED
    # an exact point that decides the step false counts too
    f = sp.Function("f")
    at_point = decide_zero(f(x) * 0 + x - 1, points=[{x: 3}], simplify=lambda d: d)
    assert at_point[0] is False
    assert proof_from_steps({"p": at_point}, "s", "m").failed_step is not None
    # undecided: INCONCLUSIVE, with no failed step
    y = sp.Symbol("y")
    undecided = proof_from_steps({"f": decide_zero(f(x) - f(y))}, "all x", "m", general=True)
    assert undecided.failed_step is None
    assert from_proof(undecided, 0.0).outcome is Outcome.INCONCLUSIVE
    # a bare False cannot say which it is, and a decided-false step must show its value
    with pytest.raises(TypeError, match="decide_zero"):
        proof_from_steps({"s": False}, "s", "m")
    with pytest.raises(ValueError, match="value"):
        proof_from_steps({"s": (False, {})}, "s", "m")
    with pytest.raises(ValueError, match="undecided"):
        Proof(True, "s", "m", failed_step={"step": "s", "value": "1"})


def test_decide_zero_proves_disproves_or_says_undecided() -> None:
    import sympy as sp

    x, y = sp.symbols("x y", positive=True)
    assert decide_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1) == (True, {})
    holds, witness = decide_zero((x + 1) ** 2 - x**2 - 1, points=[{x: 0}, {x: 1}])
    assert holds is False and witness["point"] == {"x": "1"}
    holds, witness = decide_zero(sp.Integer(2) - 1)
    assert holds is False and witness["difference (reduced)"] == "1"
    # no point given and no simplification: undecided, never False
    f = sp.Function("f")
    assert decide_zero(f(x) - f(y))[0] is None


# ---- counterexamples and tolerances -------------------------------------------------------------

def test_counterexample_carries_its_certificate() -> None:
    e = ev(Outcome.REFUTE, "search", counterexample={"t": "1"}, certified_by="exact arithmetic")
    cx = counterexample_of([ev(Outcome.PASS), e])
    assert cx == {"t": "1", "certified_by": "exact arithmetic", "check": "c", "backend": "b"}


def test_only_ok_verdicts_pass_the_exit_status() -> None:
    assert {v for v in Verdict if v.ok} == {Verdict.VERIFIED, Verdict.CORROBORATED}
    assert all(v.meaning for v in Verdict)


def test_condition_scaled_passes_fails_and_gives_up() -> None:
    u = mpmath.mpf(2) ** -53
    ok = tol.condition_scaled(mpmath.mpf("1e-14"), c=4, n=10, kappa=mpmath.mpf(100),
                              unit_roundoff=u, kappa_text="100")
    assert ok.outcome is Outcome.PASS
    bad = tol.condition_scaled(mpmath.mpf("1e-9"), c=4, n=10, kappa=mpmath.mpf(100),
                               unit_roundoff=u, kappa_text="100")
    assert bad.outcome is Outcome.FAIL
    # κ·u beyond 1/2: float64 cannot resolve the answer, whatever the residual says
    lost = tol.condition_scaled(mpmath.mpf("1e-20"), c=4, n=40, kappa=mpmath.mpf("1e21"),
                                unit_roundoff=u, kappa_text="1e21")
    assert lost.outcome is Outcome.INCONCLUSIVE
    assert lost.needed_bits is not None and lost.needed_bits > 53 + 20


def test_enclosure_policy() -> None:
    assert tol.enclosure(False, mpmath.mpf(0), mpmath.mpf("1e-20"), 256).outcome is Outcome.REFUTE
    assert tol.enclosure(True, mpmath.mpf("1e-30"), mpmath.mpf("1e-20"), 256).outcome is Outcome.PASS
    wide = tol.enclosure(True, mpmath.mpf("1e-5"), mpmath.mpf("1e-20"), 256)
    assert wide.outcome is Outcome.INCONCLUSIVE and wide.needed_bits == 512


def test_a_search_that_decides_no_instance_cannot_pass() -> None:
    """The counterexample search passes only on instances it decided: a search whose every
    instance was undecided confirms nothing and is INCONCLUSIVE."""
    from dataclasses import replace

    from recmem.checks.registry import get
    from recmem.checks.search import Instance, search

    claim = get("O.unroll")
    undecided = replace(claim, holds=lambda inst, ctx: Instance(None, "no certificate", {}))
    ev = search(undecided, undecided.context(), max_examples=5, shrink=False)
    assert str(ev.outcome) == "inconclusive" and ev.instances == 0
    assert "5 undecided" in ev.message
    decided = search(claim, claim.context(), max_examples=5, shrink=False)
    assert str(decided.outcome) == "pass" and decided.instances == 5


def test_a_harness_check_is_no_evidence_and_its_failure_is_an_error() -> None:
    """Issue 19: a check of recmem's own machinery (kind harness) never counts for the statement
    — not as a proof (R7), not as a pass (R5), not under the controls (rule C) — and a failed one
    is ERROR (a bug of recmem), never a refutation."""
    from recmem.checks.verdict import HARNESS, from_harness_proof

    ok = from_harness_proof(Proof(True, "the realisations", "SymPy", general=True), 0.0, "h")
    assert ok.kind == HARNESS and ok.outcome is Outcome.PASS
    assert combine([ok]) is Verdict.SKIPPED
    assert combine([ok, ev(Outcome.INCONCLUSIVE)]) is Verdict.INCONCLUSIVE
    assert combine([ok, ev(Outcome.PASS)]) is Verdict.CORROBORATED
    bad = from_harness_proof(Proof(False, "the realisation", "SymPy",
                                   counterexample={"difference": "1"}), 0.0, "h")
    assert bad.outcome is Outcome.ERROR and "bug of recmem" in bad.message
    assert bad.counterexample is None and bad.certified_by is None
    assert combine([bad, ev(Outcome.PASS)]) is Verdict.ERROR
    untold = control(ev(Outcome.PASS, backend="sympy"))
    assert ok.backend == "sympy" and apply_controls([ok], [untold])[0].outcome is Outcome.PASS
