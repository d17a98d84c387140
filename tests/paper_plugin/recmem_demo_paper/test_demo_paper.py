"""The demo paper's own test: its claim holds and both controls are refuted."""

import recmem.checks as rc


def test_impulse_is_verified_and_its_controls_refuted() -> None:
    report = rc.verify(["D.impulse"], backends=["sympy", "numpy", "mpmath@128"], seed=0)
    (result,) = report.claims
    assert result.verdict == rc.Verdict.VERIFIED
    assert [c.verdict for c in result.controls] == [rc.Verdict.REFUTED] * 2
