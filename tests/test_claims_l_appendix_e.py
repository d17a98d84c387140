"""Paper L App. E.1–E.2 claims: Prop. 4 (printed: 2π too large), the linear RNN's same frequency,
the Koopman expansion (printed λ_k for λ_j),
the learning-powers statements (printed "Re λ^k = e^{−kν}" and "fully aligned" refuted);
verdicts and controls, exact judges, planted slips (the quotes: tests/test_quotes_verbatim.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import suite_checks as sc
from claim_helpers import run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.verdict import Verdict
from recmem.theory import lru_spectral as spec
from recmem.theory import lru_toy_opt as toy

EXPECTED = {
    "L.prop4": Verdict.REFUTED, "L.prop4.corrected": Verdict.CORROBORATED,
    "L.e11.same-frequency": Verdict.VERIFIED,
    "L.e2.real-part": Verdict.REFUTED, "L.e2.real-part.corrected": Verdict.VERIFIED,
    "L.e2.standard-coupling": Verdict.VERIFIED,
    "L.e2.phase-gradient": Verdict.REFUTED, "L.e2.phase-gradient.corrected": Verdict.VERIFIED,
    "L.e12.koopman-expansion": Verdict.REFUTED, "L.e12.koopman-expansion.corrected": Verdict.VERIFIED,
}


@sc.on_paper("L")
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_every_control_told_apart(claim_id: str, default_result) -> None:
    r = default_result("L", claim_id)
    assert r.verdict is EXPECTED[claim_id], r.verdict
    for c in r.controls or ():
        assert c.verdict in (Verdict.REFUTED, Verdict.FAILED), (c.change, c.verdict)


def test_the_printed_counterexamples_are_exact() -> None:
    ok, values = toy.power_real_instance(toy.PowerReal(), Fraction(0), Fraction(1))
    assert ok is False and values["Re[λ^k]"] == "-1"
    ok, values = spec.relu_spectrum_instance(spec.ReluSpectrum(), Fraction(0), Fraction(0), 0)
    assert ok is False and values["left 2πc_j"] == "2" and values["right"] == "4*pi"
    ok, _ = toy.phase_gradient_instance(toy.PhaseGradient(), Fraction(0), Fraction(1, 2))
    assert ok is False
    assert toy.power_real_instance(toy.PowerReal(), Fraction(1, 10), Fraction(0))[0] is True  # θ = 0


@pytest.mark.parametrize("claim_id", ["L.e2.real-part.corrected", "L.e2.phase-gradient.corrected",
                                      "L.prop4.corrected", "L.e11.same-frequency",
                                      "L.e12.koopman-expansion.corrected"])
def test_the_exact_judge_holds_over_the_strategy(claim_id: str) -> None:
    claim = get(claim_id)
    ctx = claim.context()

    @given(claim.strategy(ctx))
    def check(inst: object) -> None:
        assert claim.holds(inst, ctx).holds is True, inst

    check()


def test_a_planted_slip_in_the_power_numerics_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks.claims.paper_l import toy_opt

    real = toy_opt.power_with_derivatives

    def slipped(nu, theta, k, exp, cos, sin):
        return real(nu, theta, k + 1, exp, cos, sin)  # one multiplication too many

    monkeypatch.setattr(toy_opt, "power_with_derivatives", slipped)
    r = run("L.e2.real-part.corrected", backends=("numpy",), examples=5)
    assert r.verdict not in (Verdict.VERIFIED, Verdict.CORROBORATED)


def test_a_planted_slip_in_the_kernel_refutes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spec.ReluSpectrum, "factor", lambda self, two_pi: 1 / (2 * two_pi))
    r = run("L.prop4.corrected", backends=("sympy",), examples=5)
    assert r.verdict is Verdict.REFUTED


def test_a_planted_slip_in_the_koopman_map_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks.claims.paper_l import koopman

    real = koopman.step
    monkeypatch.setattr(koopman, "step", lambda x, num=None: real((x[0], x[1] * 1.001), num))
    r = run("L.e12.koopman-expansion.corrected", backends=("numpy",), examples=5)
    assert r.verdict not in (Verdict.VERIFIED, Verdict.CORROBORATED)


def test_the_rnn_from_rest_is_not_a_sinusoid() -> None:
    ok, values = spec.same_frequency_instance(spec.SameFrequency(steady=False), spec.EXAMPLE)
    assert ok is False and values["n"] == "1"
