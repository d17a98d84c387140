"""Paper L §3.1–§3.2 and App. F.1: the eigendecomposition (L.eigen, C̄ = CP⁻¹ refuted), Eq. (4)'s
readings (L.unroll*), stability (L.stability) and the printed O(|λ|^k) growth
(L.stability.growth), Theorem 1 (L.theorem1, statistical), Lemma 2 (shared with O's Lemma 6) and
its proof line by line (L.lemma2.proof)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import suite_checks as sc
from claim_helpers import run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory import lru_spectrum
from recmem.theory.lru_spectrum import Diagonalised, RingProofF1, Stability

EXPECTED = {
    "L.eigen": Verdict.REFUTED, "L.eigen.corrected": Verdict.VERIFIED,
    "L.unroll": Verdict.VERIFIED, "L.unroll.zero-based": Verdict.REFUTED,
    "L.unroll.zero-based.corrected": Verdict.VERIFIED, "L.stability": Verdict.VERIFIED,
    "L.lemma2": Verdict.VERIFIED, "L.lemma2.proof": Verdict.VERIFIED,
    "L.stability.growth": Verdict.REFUTED, "L.stability.growth.corrected": Verdict.VERIFIED,
}
TOLD_APART = {Verdict.REFUTED, Verdict.FAILED}


@sc.on_paper("L")
@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_every_control_told_apart(claim_id: str, default_result) -> None:
    r = default_result("L", claim_id)
    assert r.verdict is EXPECTED[claim_id]
    assert r.controls and all(c.verdict in TOLD_APART for c in r.controls)


def test_printed_c_bar_refuted_with_the_minimal_instance() -> None:
    r = run("L.eigen", examples=10, N=4, K=6)
    sym = next(e for e in r.evidence if e.backend == "sympy")
    assert sym.outcome is Outcome.REFUTE
    cx = sym.counterexample
    assert cx is not None and cx["P"] == "[[2]]" and cx["k"] == "1"
    assert (cx["y_k (recurrence)"], cx["y_k (statement)"]) == ("1", "1/4")
    flint = next(e for e in r.evidence if e.backend.startswith("flint"))
    assert flint.outcome is Outcome.REFUTE  # the ball of y − y_stmt excludes 0
    assert get("L.eigen.corrected").corrects == "L.eigen"


def test_theorem1_statistical_and_controls_fail() -> None:
    r = run("L.theorem1", backends=("sympy", "numpy"), draws=12)
    assert r.verdict is Verdict.CORROBORATED
    assert r.controls and all(c.verdict is Verdict.FAILED for c in r.controls)


def test_printed_growth_rate_refuted_at_one_half() -> None:
    r = run("L.stability.growth", examples=10)
    sym = next(e for e in r.evidence if e.backend == "sympy")
    assert sym.outcome is Outcome.REFUTE and sym.counterexample is not None
    assert sym.counterexample["λ"] == "1/2 + 0i"
    assert get("L.stability.growth.corrected").corrects == "L.stability.growth"


def test_lemma2_shares_o_statement() -> None:
    from recmem.theory.ring import LEMMA6

    assert get("L.lemma2").statement is LEMMA6 and get("L.lemma2").uses == ("O.ring",)
    assert get("L.lemma2").statement is get("O.ring").statement


def test_planted_slip_in_the_eigenbasis_output_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # C̄ = CP⁻¹ planted in the corrected statement's formula: the check must stop passing
    monkeypatch.setattr(Diagonalised, "c_bar", lambda self, c, p, p_inv, mul: mul(c, p_inv))
    r = run("L.eigen.corrected", examples=10, N=4, K=6)
    assert r.verdict is not Verdict.VERIFIED


def test_planted_slip_in_the_proof_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = RingProofF1.f_of_nu
    monkeypatch.setattr(RingProofF1, "f_of_nu",
                        lambda self, nu, lo, hi, exp: orig(self, nu, lo, hi, exp) * 2)
    r = run("L.lemma2.proof", examples=10)
    assert r.verdict is not Verdict.VERIFIED


def test_planted_slip_in_the_stability_hypothesis_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Stability, "admits", lambda self, a2: a2 <= self.radius**2)
    r = run("L.stability", examples=20)
    assert r.verdict is not Verdict.VERIFIED


_EIG = get("L.eigen.corrected")


@given(_EIG.strategy(_EIG.context()))
def test_corrected_eigenbasis_holds_on_every_exact_instance(inst) -> None:
    assert _EIG.holds(inst, _EIG.context()).holds is True


# a real 2×2 P drawn singular (quarters p₁…p₄) is repaired to P + sI: s = 1, and s = 2 where
# tr P = −1 (the dev profile drew P = diag(−1, 0), which the repair once left singular)
@pytest.mark.parametrize(("p", "s"), [((0, 0, 0, 0), 1), ((4, 8, 2, 4), 1), ((-4, 0, 0, 0), 2),
                                      ((-2, 2, 2, -2), 2)])
def test_a_singular_drawn_eigenbasis_is_made_invertible(p: tuple[int, ...], s: int) -> None:
    from recmem.checks.claims.paper_l.eigen import _instance

    inst = _instance((1, 2, False, *p, *([1] * 10)))
    (a, b), (c, d) = inst["P"]
    q = [Fraction(v, 4) for v in p]
    assert q[0] * q[3] - q[1] * q[2] == 0  # drawn singular
    assert [[a, b], [c, d]] == [[q[0] + s, q[1]], [q[2], q[3] + s]]
    assert a * d - b * c != 0
    assert _EIG.holds(inst, _EIG.context()).holds is True


def test_exact_probes_agree_with_the_recurrence() -> None:
    for inst in lru_spectrum.PROBES:
        y, y_stmt = lru_spectrum.exact_outputs(lru_spectrum.DIAGONALISED_CORRECTED, inst)
        assert y == y_stmt
    y, y_stmt = lru_spectrum.exact_outputs(lru_spectrum.DIAGONALISED, lru_spectrum.PROBES[0])
    assert (y, y_stmt) == (1, Fraction(1, 4))
