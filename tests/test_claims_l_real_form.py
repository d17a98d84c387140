"""Paper L App. E.3 (the real canonical form): the displayed chains, eq. (26) and the real
eigenvector (theory.lru_real_form; checks/claims/paper_l/real_form.py)."""

from __future__ import annotations

import pytest
from claim_helpers import run
from hypothesis import given, settings

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory import lru_real_form as tr

VERDICTS = {
    "L.e3.action": Verdict.REFUTED, "L.e3.action.corrected": Verdict.VERIFIED,
    "L.e3.real-form": Verdict.REFUTED, "L.e3.real-form.corrected": Verdict.VERIFIED,
    "L.e3.real-eigenvector": Verdict.REFUTED, "L.e3.real-eigenvector.corrected": Verdict.VERIFIED,
}


@pytest.mark.parametrize("claim_id", sorted(VERDICTS))
def test_verdict_and_every_control_refuted(claim_id: str) -> None:
    r = run(claim_id, examples=15)
    assert r.verdict is VERDICTS[claim_id], [(e.backend, e.outcome, e.message) for e in r.evidence]
    assert r.controls and all(c.verdict is Verdict.REFUTED for c in r.controls)


def test_eq26_refuted_on_the_rotation_and_numerically_certified() -> None:
    r = run("L.e3.real-form", examples=15)
    sym = next(e for e in r.evidence if e.backend == "sympy")
    assert sym.outcome is Outcome.REFUTE and sym.counterexample["AṼ − ṼΛ̃"] == "[[0, 2], [2, 0]]"
    assert next(e for e in r.evidence if e.backend.startswith("flint")).outcome is Outcome.REFUTE


def test_printed_block_is_the_transpose_of_the_correct_one() -> None:
    import sympy as sp

    a, b = sp.symbols("a b", real=True)
    printed = sp.Matrix(tr.RealBlock().block(a, b, None))
    assert sp.Matrix(tr.RealBlock(upper_sign=1).block(a, b, None)) == printed.T


def test_im_chain_slip_is_the_factor_i() -> None:
    cx = tr.action_chain_proof(tr.ActionChain()).counterexample
    assert cx is not None and cx["step"].startswith("A·Im(v)") and cx["difference at the point"] == "1 - I"


def test_real_eigenvector_counterexample_is_v_equal_i() -> None:
    cx = tr.real_eigenvector_proof(tr.RealEigenvector()).counterexample
    assert cx is not None and cx["v"] == "(i)" and cx["nonzero"] is False


def test_planted_slip_in_the_block_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sign slip planted in the corrected block's diagonal must stop the claim from passing."""
    monkeypatch.setattr(tr.RealBlock, "block",
                        lambda self, re, im, ab: [[re, im], [-im, -re]])
    assert run("L.e3.real-form.corrected", examples=5).verdict is not Verdict.VERIFIED


def test_planted_slip_in_the_chain_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tr.ActionChain, "im_factor", lambda self, i: 1 / (2 * i) * (1 + 0 * i) * -1)
    assert run("L.e3.action.corrected", examples=5).verdict is not Verdict.VERIFIED


@settings(deadline=None)
@given(get("L.e3.real-form.corrected").strategy(get("L.e3.real-form.corrected").context()))
def test_corrected_block_holds_exactly(inst: object) -> None:
    claim = get("L.e3.real-form.corrected")
    assert claim.holds(inst, claim.context()).holds is True


@settings(deadline=None)
@given(get("L.e3.action.corrected").strategy(get("L.e3.action.corrected").context()))
def test_corrected_chains_hold_exactly(inst: object) -> None:
    claim = get("L.e3.action.corrected")
    assert claim.holds(inst, claim.context()).holds is True
