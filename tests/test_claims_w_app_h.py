"""W.memory-equivalence (App. H): the printed equivalence refuted by the scalar hardtanh RNN, its
linear-functional correction, and the identity functional of "why special inputs"."""

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
from recmem.theory.memory_equivalence import (
    IdentityInputs,
    MemoryEquivalence,
    identity_proof,
    impulse_memory,
    memory_equivalence_proof,
)

SEARCH = "exact (Hypothesis search)"


def _ev(result, backend: str):
    return next(e for e in result.evidence if e.backend == backend)


def test_printed_equivalence_refuted_by_the_hardtanh_rnn() -> None:
    r = run("W.memory-equivalence", backends=("sympy", "numpy", "mpmath@256"), examples=10)
    assert r.verdict is Verdict.REFUTED
    sym = _ev(r, "sympy")
    assert sym.outcome is Outcome.REFUTE
    assert sym.counterexample["γ(M_heav)"] == "0" and sym.counterexample["γ(M_imp)"] == "1"
    assert _ev(r, "numpy").outcome is Outcome.FAIL  # finite-time slopes: uncertified
    assert _ev(r, "mpmath@256").outcome is Outcome.FAIL  # the exact pieces: a second arithmetic
    assert _ev(r, SEARCH).outcome is Outcome.REFUTE
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_linear_correction_verified_and_controls_told_apart() -> None:
    r = run("W.memory-equivalence.linear", backends=("sympy", "numpy", "mpmath@128"), examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}
    assert get("W.memory-equivalence.linear").corrects == "W.memory-equivalence"
    assert r.controls and len(r.controls) == 2
    for c in r.controls:
        assert c.verdict is Verdict.REFUTED
        numpy_ev = next(e for e in c.evidence if e.backend == "numpy")
        assert numpy_ev.outcome is Outcome.FAIL  # the 65/64 slope is resolved by the float check


def test_identity_functional_verified_in_every_arithmetic() -> None:
    r = run("W.memory-equivalence.identity",
            backends=("sympy", "numpy", "mpmath@128", "flint@128", "torch:cpu"), examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_pulse_memory_closed_form_and_rates() -> None:
    import math

    import sympy as sp

    # (e^{|w|δ} − 1)/(|w|δ)·e^{−|w|t} → e^{−|w|t} as δ → 0 (the linearisation's memory)
    t = sp.Symbol("t", positive=True)
    d = sp.Symbol("delta", positive=True)
    m = impulse_memory(Fraction(-1), Fraction(1), Fraction(1), Fraction(1, 2), t, sp.exp)
    assert sp.simplify(m - 2 * (sp.exp(sp.Rational(1, 2)) - 1) * sp.exp(-t)) == 0
    lim = sp.limit((sp.exp(d) - 1) / d, d, 0)
    assert lim == 1
    assert impulse_memory(Fraction(-1), Fraction(1), Fraction(1), Fraction(1), 2.0, math.exp) == \
        pytest.approx((math.e - 1) * math.exp(-2))
    with pytest.raises(ValueError):
        impulse_memory(Fraction(-2), Fraction(1), Fraction(1), Fraction(1), 1.0, math.exp)  # δ > 1/|w|


@pytest.mark.parametrize("law", [MemoryEquivalence(), MemoryEquivalence(width=Fraction(0)),
                                 MemoryEquivalence(scope="linear", width=Fraction(0), factor=Fraction(2))])
def test_planted_or_printed_errors_are_refuted_symbolically(law) -> None:
    p = memory_equivalence_proof(law)
    assert p.holds is False and p.counterexample


def test_planted_error_stops_verify_passing() -> None:
    claim = get("W.memory-equivalence.linear")
    planted = replace(claim, statement=replace(claim.statement, factor=Fraction(129, 128)))
    r = run_claim(planted, planted.context(search_examples=10), [parse_spec("sympy"), parse_spec("numpy")])
    assert r.verdict is Verdict.REFUTED


def test_identity_controls_refuted_symbolically() -> None:
    law = IdentityInputs()
    assert identity_proof(law).holds is True
    for c in law.controls():
        p = identity_proof(c.statement)
        assert p.holds is False and p.counterexample, c.change


@given(get("W.memory-equivalence.linear").strategy(get("W.memory-equivalence.linear").context()))
def test_linear_equivalence_holds_exactly(inst) -> None:
    claim = get("W.memory-equivalence.linear")
    assert claim.holds(inst, claim.context()).holds is True


@given(get("W.memory-equivalence").strategy(get("W.memory-equivalence").context()))
def test_every_hardtanh_witness_refutes_the_printed_equivalence(inst) -> None:
    claim = get("W.memory-equivalence")
    assert claim.holds(inst, claim.context()).holds is False


@given(get("W.memory-equivalence.identity").strategy(get("W.memory-equivalence.identity").context()))
def test_identity_holds_exactly(inst) -> None:
    claim = get("W.memory-equivalence.identity")
    assert claim.holds(inst, claim.context()).holds is True


@pytest.mark.parametrize("backend", ["mpmath@12", "mpmath@24", "flint@12", "numpy:float32"])
def test_identity_low_precision_never_fails_the_true_statement(backend) -> None:
    r = run("W.memory-equivalence.identity", backends=(backend,), examples=5)
    assert r.verdict in (Verdict.CORROBORATED, Verdict.INCONCLUSIVE, Verdict.SKIPPED)
    assert all(c.verdict is not Verdict.VERIFIED for c in r.controls or ())


def test_piecewise_hardtanh_flow_matches_the_closed_forms() -> None:
    """The mpmath side's exact pieces reproduce the witness's memories 1/(t + 1) (Heaviside, sup at
    x = t + 1) and (e − 1)e^(−t) (unit pulse) to the working precision, and the saturated branches."""
    import mpmath

    from recmem.checks.claims.paper_w import _memory as mm
    from recmem.checks.claims.paper_w.memory_equivalence import (
        TIMES,
        _curves_piecewise,
        hardtanh_scalar_flow,
    )

    mp = mm.mp_context(256)
    heav, eh, imp, ei = _curves_piecewise(MemoryEquivalence(), 256)
    for t, m_h, m_i, e1, e2 in zip(TIMES, heav, imp, eh, ei, strict=True):
        assert abs(m_h - 1 / mp.mpf(t + 1)) < mp.mpf(2) ** -240 and e1 < mp.mpf(2) ** -240
        assert abs(m_i - (mp.e - 1) * mp.exp(-mp.mpf(t))) < mp.mpf(2) ** -240 and e2 < mp.mpf(2) ** -240
    p = (mp.mpf(-1), mp.mpf(1), mp.zero)
    # x = −5: h' = −1 until t = 4, then h = −5 + e^(−(t − 4)); x = 1/2: h = (1 − e^(−t))/2
    h, dh = hardtanh_scalar_flow(p, [(0, None, mp.mpf(-5))], mp.mpf(3), mp)
    assert h == -3 and dh == -1
    h, dh = hardtanh_scalar_flow(p, [(0, None, mp.mpf(-5))], mp.mpf(6), mp)
    assert abs(h - (-5 + mp.exp(-2))) < mp.mpf(2) ** -250 and abs(dh + mp.exp(-2)) < mp.mpf(2) ** -250
    h, dh = hardtanh_scalar_flow(p, [(0, None, mp.mpf(0.5))], mp.mpf(2), mp)
    assert abs(h - (1 - mp.exp(-2)) / 2) < mp.mpf(2) ** -250
    # the same ODE by mpmath's own solver on a smooth stretch (h' = x − h, |x − h| ≤ 1)
    ref = mpmath.odefun(lambda s, y: mpmath.mpf(0.5) - y, 0, 0)(2)
    assert abs(float(h) - float(ref)) < 1e-12
