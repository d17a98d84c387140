"""Paper L §2 and §4: the ZOH discretisation, the S4D-Lin spectrum, and "discretization performs
normalization" (theory.lru_discretisation, theory.lru_s4; claim modules discretisation,
s4d_init, disc_normalisation)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import suite_checks as sc
from claim_helpers import run
from hypothesis import given, settings

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory import lru_discretisation as td
from recmem.theory import lru_s4 as t4

VERDICTS = {
    "L.zoh": Verdict.REFUTED, "L.zoh.corrected": Verdict.VERIFIED,
    "L.s4d-lin.spectrum": Verdict.VERIFIED, "L.s4.first-order": Verdict.VERIFIED,
    "L.s4.euler-recurrence": Verdict.REFUTED, "L.s4.euler-recurrence.corrected": Verdict.VERIFIED,
    "L.s4.unroll-bound": Verdict.REFUTED, "L.s4.unroll-bound.one-based": Verdict.REFUTED,
    "L.s4.unroll-bound.corrected": Verdict.VERIFIED, "L.s4.delta-order": Verdict.VERIFIED,
}
SEARCH = "exact (Hypothesis search)"


@sc.on_paper("L")
@pytest.mark.parametrize("claim_id", sorted(VERDICTS))
def test_verdict_and_every_control_refuted(claim_id: str, default_result) -> None:
    r = default_result("L", claim_id)
    assert r.verdict is VERDICTS[claim_id], [(e.backend, e.outcome, e.message) for e in r.evidence]
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_zoh_printed_refuted_at_k0_and_certified_by_balls() -> None:
    r = run("L.zoh", examples=15)
    sym = next(e for e in r.evidence if e.backend == "sympy")
    assert sym.outcome is Outcome.REFUTE and sym.counterexample["k"] == 0
    assert sym.counterexample["exact (dsolve)"] == "0"
    mp = next(e for e in r.evidence if e.backend.startswith("mpmath"))
    assert mp.outcome is Outcome.REFUTE and "ball" in (mp.certified_by or "")


def test_zoh_printed_state_is_the_ode_one_step_later() -> None:
    """The printed recurrence computes x_ct(Δ(k+1)): its x_k is the corrected x_(k+1)."""
    import sympy as sp

    us = sp.symbols("u0:4", real=True)
    printed = td.sequences(td.ZOH_PRINTED, us, 3)["x"]
    truth = td.sequences(td.ZOH_CORRECTED, us, 4)["X"]
    assert all(sp.cancel(printed[k] - truth[k + 1]) == 0 for k in range(3))


def test_planted_slip_in_the_flow_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong multiplier in the statement's formula makes the corrected claim fail."""
    monkeypatch.setattr(td.ZohSampling, "multiplier",
                        lambda self, a, e, delta: (e - 1) / a * (1 + delta**3))
    td._cached_sequences.cache_clear()
    try:
        assert run("L.zoh.corrected", examples=5).verdict is not Verdict.VERIFIED
    finally:
        td._cached_sequences.cache_clear()


def test_planted_slip_in_first_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(t4.FirstOrder, "leading", lambda self, d: d * (1 + d))
    assert run("L.s4.first-order", examples=5).verdict is not Verdict.VERIFIED


def test_unroll_bound_counterexamples_are_minimal() -> None:
    cx = run("L.s4.unroll-bound", examples=10).counterexample
    assert cx is not None and cx["k"] == 0 and cx["|x_k|"] == "1" and cx["bound"] == "0"
    cx1 = run("L.s4.unroll-bound.one-based", examples=10).counterexample
    assert cx1 is not None and cx1["u"] == [-1] and cx1["bound"] == "-1"


def test_spectrum_numbers() -> None:
    facts = t4.spectrum_facts(t4.S4DLinSpectrum(), __import__("sympy").Integer(128))
    assert facts["|λ| (20 digits)"].startswith("0.99950012")
    assert facts["π/(πΔN)"] == "125/16"  # 7.8125: π/8 to one significant digit


@settings(deadline=None)
@given(get("L.s4.unroll-bound.corrected").strategy(get("L.s4.unroll-bound.corrected").context()))
def test_corrected_bound_holds_exactly(inst: object) -> None:
    claim = get("L.s4.unroll-bound.corrected")
    assert claim.holds(inst, claim.context()).holds is True


@settings(deadline=None)
@given(get("L.zoh.corrected").strategy(get("L.zoh.corrected").context()))
def test_corrected_zoh_holds_exactly(inst: object) -> None:
    claim = get("L.zoh.corrected")
    assert claim.holds(inst, claim.context()).holds is True


def test_delta_order_limit() -> None:
    law = t4.DeltaOrder()
    assert t4.delta_order_proof(law).holds is True
    assert t4.delta_order_proof(t4.DeltaOrder(re=Fraction(-1))).holds is False  # limit 1, not 2





def test_planted_slip_in_the_matrix_exponential_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flow 2⁻²⁰ too long in numerics.lru_discretisation (below the statement) is detected."""
    from recmem.numerics import lru_discretisation as nl
    from recmem.numerics.exact import QQi

    orig = nl.expm
    scale = Fraction(2**20 + 1, 2**20)
    monkeypatch.setattr(nl, "expm", lambda bk, rows: orig(
        bk, [[QQi(q.re * scale, q.im * scale) for q in row] for row in rows]))
    r = run("L.zoh.corrected", backends=("mpmath@128", "numpy"), examples=5)
    assert r.verdict is not Verdict.VERIFIED
    assert {e.outcome for e in r.evidence if e.backend == "numpy"} == {Outcome.FAIL}
