"""Paper L §3.3–§3.4: the stable exponential parameterisation (L.exp-param) and the printed polar
form Λ = diag(exp(−exp(ν^log) + θ)) without the imaginary unit (L.phase, refuted) with its
correction (L.phase.corrected)."""

from __future__ import annotations

import pytest
import suite_checks as sc
from claim_helpers import run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory.lru_parameterisation import PolarForm, StableExp

EXPECTED = {"L.exp-param": Verdict.VERIFIED, "L.phase": Verdict.REFUTED,
            "L.phase.corrected": Verdict.VERIFIED}


@sc.on_paper("L")
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_every_control_refuted(claim_id: str, default_result) -> None:
    r = default_result("L", claim_id)
    assert r.verdict is EXPECTED[claim_id]
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_printed_phase_refuted_at_the_minimal_point() -> None:
    r = run("L.phase", examples=10)
    sym = next(e for e in r.evidence if e.backend == "sympy")
    assert sym.outcome is Outcome.REFUTE
    cx = sym.counterexample
    assert cx is not None and (cx["nu_log"], cx["theta"], cx["λ"]) == ("0", "1", "1")
    assert cx["arg λ − θ"] == "-1"
    assert get("L.phase.corrected").corrects == "L.phase"


def test_relu_control_refuted_where_abs_lambda_is_one() -> None:
    r = run("L.exp-param", examples=10)
    relu = [c for c in r.controls or () if c.change.startswith("ReLU")]
    assert len(relu) == 1 and relu[0].verdict is Verdict.REFUTED


def test_planted_slip_in_the_nonlinearity_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StableExp, "g", lambda self, x, exp, positive: x)
    assert run("L.exp-param", examples=10).verdict is not Verdict.VERIFIED


def test_planted_slip_in_the_modulus_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PolarForm, "modulus", staticmethod(lambda x, exp: exp(-x)))
    assert run("L.phase.corrected", examples=10).verdict is not Verdict.VERIFIED


_EXP = get("L.exp-param")
_PHASE = get("L.phase")


@given(_EXP.strategy(_EXP.context()))
def test_stable_exp_holds_on_every_exact_instance(inst) -> None:
    assert _EXP.holds(inst, _EXP.context()).holds is True


@given(_PHASE.strategy(_PHASE.context()))
def test_printed_phase_fails_wherever_theta_is_not_zero(inst) -> None:
    assert _PHASE.holds(inst, _PHASE.context()).holds is (inst[1] == 0)
