"""Paper L §3.4 and App. F.2: Proposition 3 (both inputs, at fixed Λ), its ρ-limit, the 1-D
white-noise derivation, the γ normalisation (Eq. 7) and the proof of App. F.2 — verdicts, controls,
exact judges, planted slips and the quotes."""

from __future__ import annotations

from fractions import Fraction

import pytest
import suite_checks as sc
from claim_helpers import outcomes, run
from hypothesis import given

import recmem.numerics.lru_ring as lru_ring
from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory import lru_blowup as lb

VERIFIED = ("L.prop3.constant", "L.prop3.white-noise", "L.prop3.rho-limit",
            "L.white-noise-1d.corrected", "L.eq7.gamma", "L.proof-f2.corrected")
REFUTED = ("L.white-noise-1d", "L.proof-f2")
STUDIES = ("L.prop3.finite-n.constant", "L.prop3.finite-n.white-noise")
ALL = VERIFIED + REFUTED + STUDIES
SEARCH = "exact (Hypothesis search)"


def _ev(result, backend: str):
    return [e for e in result.evidence if e.backend == backend]


@sc.on_paper("L")
@pytest.mark.parametrize("claim_id", VERIFIED)
def test_verified_and_every_control_refuted(claim_id, default_result) -> None:
    r = default_result("L", claim_id)
    assert r.verdict is Verdict.VERIFIED, r.reason
    assert set(outcomes(r).values()) == {"pass"}
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


@pytest.mark.parametrize("claim_id", REFUTED)
def test_printed_slips_refuted_with_exact_counterexample(claim_id) -> None:
    r = run(claim_id, examples=20)
    assert r.verdict is Verdict.REFUTED
    sym = _ev(r, "sympy")[0]
    assert sym.outcome is Outcome.REFUTE and sym.counterexample
    assert _ev(r, SEARCH)[0].outcome is Outcome.REFUTE
    assert all(e.outcome is Outcome.REFUTE for e in _ev(r, "flint@128"))  # certified in balls
    assert all(c.verdict is Verdict.REFUTED for c in r.controls or ())


def test_white_noise_1d_counterexample_is_k1_zero_mean() -> None:
    p = lb.white_noise_1d_proof(lb.WhiteNoise1D())
    assert p.holds is False and p.counterexample["k"] == 1
    assert p.counterexample["line"].startswith("(Σλ^i E u)")
    assert p.counterexample["difference (reduced)"] == "-1"  # 0 − E|x_1|² with E u² = 1


def test_proof_f2_both_lines_refuted_and_they_cancel() -> None:
    p = lb.f2_proof(lb.F2Series())
    assert p.holds is False and set(p.counterexample) == {"line 1", "line 2"}
    # the two slips cancel: Σ_{n≥1} E_r[r^n] with the printed closed form gives Prop. 3's value
    assert lb.blowup_proof(lb.BlowUp(input="constant")).holds is True


@pytest.mark.parametrize("claim_id", STUDIES)
def test_finite_n_study_passes_and_controls_refuted(claim_id) -> None:
    r = run(claim_id, backends=("sympy", "numpy"), Ns="16,64", draws=1500)
    assert r.verdict is Verdict.VERIFIED
    assert _ev(r, "numpy")[0].kind == "statistical"
    assert all(c.verdict is Verdict.REFUTED for c in r.controls or ())


@pytest.mark.parametrize("claim_id", VERIFIED + REFUTED)
def test_exact_judge_over_the_strategy(claim_id) -> None:
    claim = get(claim_id)
    ctx = claim.context()
    expected = claim_id in VERIFIED

    @given(claim.strategy(ctx))
    def check(inst) -> None:
        assert claim.holds(inst, ctx).holds in ((True, None) if expected else (True, False, None))

    if claim.strategy is not None:
        check()


def test_low_precision_never_passes_a_false_statement() -> None:
    for claim_id in REFUTED:
        r = run(claim_id, backends=("mpmath@12", "numpy:float32"), examples=4)
        assert "pass" not in outcomes(r).values() or r.verdict is not Verdict.VERIFIED
    for claim_id in ("L.prop3.white-noise", "L.eq7.gamma"):
        r = run(claim_id, backends=("mpmath@24", "numpy:float32"), examples=4)
        assert "fail" not in outcomes(r).values() and "refute" not in outcomes(r).values()


def test_planted_slip_in_the_ring_quadrature_is_caught(monkeypatch) -> None:
    real = lru_ring.ring_gain

    def slipped(backend, input_, r_min, r_max):
        value, plan = real(backend, input_, r_min, r_max)
        return value * 1.001, plan  # a 0.1 % error in the definition side

    monkeypatch.setattr("recmem.checks.claims.paper_l.blowup.ring_gain", slipped)
    r = run("L.prop3.white-noise", backends=("numpy",), examples=2)
    assert r.verdict is not Verdict.VERIFIED


def test_planted_slip_in_the_statement_is_caught(monkeypatch) -> None:
    monkeypatch.setattr(lb.BlowUp, "gain", lambda self, a, b, log, const=None:
                        log((1 - a**2) / (1 - b**2)) / (b**2 - a**2) * 1.0001)
    r = run("L.prop3.white-noise", backends=("sympy", "numpy"), examples=2)
    assert r.verdict is not Verdict.VERIFIED


def test_gamma_normalises_white_noise_not_constant_input_at_fixed_phase() -> None:
    import sympy as sp

    s = Fraction(1, 4)
    gamma = lb.GammaNorm()
    factor2 = sp.exp(2 * gamma.gamma_log(sp.Rational(s), sp.log, sp.Rational))
    assert sp.simplify(factor2 / (1 - sp.Rational(s))) == 1  # white noise
    lam = sp.Rational(1, 2)  # constant input, λ = 1/2: (1 − |λ|²)/|1 − λ|² = 3
    assert sp.simplify(sp.exp(2 * gamma.gamma_log(lam**2, sp.log, sp.Rational)) / (1 - lam) ** 2) == 3


def test_controls_are_built_from_the_statements() -> None:
    for law in (lb.BlowUp(), lb.RhoLimit(), lb.WhiteNoise1D(), lb.GammaNorm(), lb.F2Series()):
        texts = {c.statement.text for c in law.controls()}
        assert law.text not in texts and len(texts) == len(law.controls())
