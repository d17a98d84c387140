"""How check outcomes combine into verdicts (CLAIMS.md ground rule 2) and the tolerance policies."""

from __future__ import annotations

import mpmath
import pytest

from recmem.checks import tolerance as tol
from recmem.checks.verdict import Evidence, Outcome, Verdict, combine, counterexample_of


def ev(outcome: Outcome, kind: str = "numeric", **kw) -> Evidence:
    return Evidence(check="c", kind=kind, backend="b", outcome=outcome, **kw)


@pytest.mark.parametrize(("outcomes", "verdict"), [
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.PASS)], Verdict.VERIFIED),
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.INCONCLUSIVE)], Verdict.VERIFIED),
    ([("numeric", Outcome.PASS), ("numeric", Outcome.PASS)], Verdict.CORROBORATED),
    ([("numeric", Outcome.INCONCLUSIVE)], Verdict.INCONCLUSIVE),
    ([("numeric", Outcome.SKIPPED)], Verdict.SKIPPED),
    ([("symbolic", Outcome.PASS), ("numeric", Outcome.FAIL)], Verdict.FAILED),
    ([("numeric", Outcome.ERROR), ("numeric", Outcome.PASS)], Verdict.ERROR),
    ([("numeric", Outcome.FAIL), ("search", Outcome.REFUTE)], Verdict.REFUTED),
    ([("symbolic", Outcome.PASS), ("search", Outcome.REFUTE)], Verdict.REFUTED),
    ([], Verdict.SKIPPED),
])
def test_combine(outcomes, verdict) -> None:
    assert combine([ev(o, k) for k, o in outcomes]) is verdict


def test_study_claims_are_decided_by_their_trend_tests() -> None:
    support = [ev(Outcome.PASS), ev(Outcome.PASS, "numeric")]
    trends = [ev(Outcome.PASS, "statistical"), ev(Outcome.INCONCLUSIVE, "statistical")]
    assert combine(support + trends, ("statistical",)) is Verdict.INCONCLUSIVE
    assert combine(support + trends) is Verdict.CORROBORATED  # what a non-study claim gets
    assert combine(support + trends[:1], ("statistical",)) is Verdict.CORROBORATED
    assert combine(support, ("statistical",)) is Verdict.SKIPPED
    assert combine([*support, ev(Outcome.FAIL, "statistical")], ("statistical",)) is Verdict.FAILED


def test_only_ok_verdicts_pass_the_exit_status() -> None:
    assert {v for v in Verdict if v.ok} == {Verdict.VERIFIED, Verdict.CORROBORATED}
    assert all(v.meaning for v in Verdict)


def test_counterexample_carries_its_certificate() -> None:
    e = ev(Outcome.REFUTE, "search", counterexample={"t": "1"}, certified_by="exact arithmetic")
    cx = counterexample_of([ev(Outcome.PASS), e])
    assert cx == {"t": "1", "certified_by": "exact arithmetic", "check": "c", "backend": "b"}


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
