"""W.lemma-a7 (paper W, Lemma A.7, eqs. (73)–(74)), its correction and the any-W reading: one statement
(theory.lemma_a7.StableHurwitz) read by every side, its negative controls, the exact judge over the
search's domain, and honest verdicts at low precision."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from claim_helpers import run
from hypothesis import given

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.theory import lemma_a7 as la
from recmem.theory.lemma_a7 import StableHurwitz, proof

F = Fraction
SEARCH = "exact (Hypothesis search)"
FAMILY = ("W.lemma-a7", "W.lemma-a7.corrected", "W.lemma-a7.any-w")


def _by(result, backend: str, check: str = ""):
    return next(e for e in result.evidence if e.backend == backend and e.check.startswith(check))


def test_printed_lemma_refuted_by_a_rank_one_input_matrix() -> None:
    r = run("W.lemma-a7", examples=20)
    assert r.verdict is Verdict.REFUTED
    sym = _by(r, "sympy")
    assert sym.outcome is Outcome.REFUTE
    assert sym.counterexample["W"] == "[[-1, 0], [0, 1]]" and sym.counterexample["U"] == "[[1], [0]]"
    # the search shrinks to the same instance, certified by a Lyapunov function on the input block
    search = _by(r, SEARCH)
    assert search.outcome is Outcome.REFUTE
    assert search.counterexample["W"] == "[[-1, 0], [0, 1]]"
    assert search.counterexample["U"] == "[[1], [0]]"
    # every arithmetic sees the input states flow to 0 while W has the eigenvalue 1 (uncertified)
    for b in ("mpmath@128", "flint@128", "numpy"):
        ev = _by(r, b, "(73)")
        assert ev.outcome is Outcome.FAIL and float(ev.residual) == pytest.approx(1.0)
    assert r.controls is not None and len(r.controls) == 3
    assert all(c.verdict is Verdict.REFUTED for c in r.controls)


@pytest.mark.parametrize("claim_id", ["W.lemma-a7.corrected", "W.lemma-a7.any-w"])
def test_with_74_assumed_verified_and_every_control_told_apart(claim_id) -> None:
    r = run(claim_id, examples=20)
    assert r.verdict is Verdict.VERIFIED
    assert {str(e.outcome) for e in r.evidence} == {"pass"}
    assert r.controls is not None and len(r.controls) == 4
    assert all(c.told_apart for c in r.controls)
    assert get("W.lemma-a7.corrected").corrects == "W.lemma-a7"


@pytest.mark.parametrize("claim_id", FAMILY)
def test_symbolic_side_decides_the_statement_and_refutes_every_control(claim_id) -> None:
    claim = get(claim_id)
    p = proof(claim.statement)
    assert p.holds is (claim_id != "W.lemma-a7")
    assert p.general is (claim_id != "W.lemma-a7")
    for control in claim.controls:
        q = proof(control.statement)
        assert q.holds is False, control.change
        assert q.counterexample, control.change


def test_provenance_quotes_the_lemma_with_its_formulas() -> None:
    quote = get("W.lemma-a7").provenance.quote
    assert quote.startswith("Lemma A.7.") and "\\tag {73}" in quote and "\\tag {74}" in quote
    assert "\\sigma'(z) = 1$ for $|z| \\leq 1$" in quote
    assert get("W.lemma-a7").provenance.location == "App. A.10, Lemma A.7, eqs. (73)–(74) (ICLR camera-ready)"


def test_controls_are_built_from_the_statement() -> None:
    law = StableHurwitz(contains_ball=True)
    changes = {c.change: c.statement for c in law.controls()}
    assert changes["conclusion for −W (sign flipped)"] == replace(law, sign=-1)
    assert changes["conclusion with margin 1/8: max Re λ(W) < −1/8"] == replace(law, margin=F(1, 8))
    assert changes["linear region |z| ≤ 9/8 (radius widened by 1/8)"] == replace(law, radius=F(9, 8))
    assert changes["inclusion (74) dropped (U of any rank)"] == StableHurwitz()  # the printed one
    assert all(s.text != law.text for s in changes.values())
    assert len(StableHurwitz().controls()) == 3  # the printed statement has no (74) to drop


@given(get("W.lemma-a7.corrected").strategy(get("W.lemma-a7.corrected").context()))
def test_corrected_holds_exactly(inst) -> None:
    claim = get("W.lemma-a7.corrected")
    assert claim.holds(inst, claim.context()).holds is not False


@given(get("W.lemma-a7.any-w").strategy(get("W.lemma-a7.any-w").context()))
def test_any_w_holds_exactly(inst) -> None:
    claim = get("W.lemma-a7.any-w")
    assert claim.holds(inst, claim.context()).holds is not False


@given(get("W.lemma-a7").strategy(get("W.lemma-a7").context()))
def test_printed_fails_only_where_74_fails(inst) -> None:
    """A counterexample to the printed lemma always has rank U < m: (74) is the gap."""
    claim = get("W.lemma-a7")
    r = claim.holds(inst, claim.context())
    if r.holds is False:
        assert la.rank(inst["U"]) < len(inst["W"])
        assert not la.hurwitz(inst["W"]) and not la.on_axis(inst["W"])


def test_exact_spectral_decisions_agree_with_eigenvalues() -> None:
    rng = random.Random(7)
    for _ in range(400):
        m = rng.randint(1, 4)
        w = tuple(tuple(F(rng.randint(-6, 6), rng.choice([1, 2, 4])) for _ in range(m)) for _ in range(m))
        re = np.linalg.eigvals(np.array(w, dtype=float)).real
        if min(abs(re)) > 1e-6:
            assert la.hurwitz(w) is bool(max(re) < 0)
            assert la.on_axis(w) is False
    assert la.on_axis(((F(0), F(1)), (F(-1), F(0))))  # ±i
    assert la.on_axis(((F(0), F(0)), (F(0), F(-1))))  # 0
    assert not la.hurwitz(((F(0), F(1)), (F(-1), F(0))))


def test_hardtanh_step_exactly() -> None:
    assert [la.slope(z) for z in (F(-1), F(-1, 2), F(0), F(1), F(17, 16), F(-9, 8))] == [1, 1, 1, 1, 0, 0]
    assert la.step_violation(StableHurwitz()) is None
    assert la.step_violation(StableHurwitz(radius=F(9, 8))) == (F(-9, 8), 0)


# What each low-precision arithmetic concludes (with the search, 10 examples): the printed lemma
# is refuted by the search's exact counterexample and every arithmetic fails it; for the
# correction, 12-bit mpmath's tolerance on Re λ (4√u‖W‖_F ≈ 0.27) cannot separate the control
# with margin 1/8 (1/16 away), so its checks are INCONCLUSIVE, never a failure.
LOW_PRECISION = {
    ("W.lemma-a7", "mpmath@12"): "fail",
    ("W.lemma-a7", "mpmath@24"): "fail",
    ("W.lemma-a7", "flint@12"): "fail",
    ("W.lemma-a7", "numpy:float32"): "fail",
    ("W.lemma-a7", "torch:cpu:float32"): "fail",
    ("W.lemma-a7.corrected", "mpmath@12"): "inconclusive",
    ("W.lemma-a7.corrected", "mpmath@24"): "pass",
    ("W.lemma-a7.corrected", "flint@12"): "pass",
    ("W.lemma-a7.corrected", "numpy:float32"): "pass",
    ("W.lemma-a7.corrected", "torch:cpu:float32"): "pass",
}


@pytest.mark.parametrize("backend", ["mpmath@12", "mpmath@24", "flint@12", "numpy:float32",
                                     "torch:cpu:float32"])
@pytest.mark.parametrize("claim_id", ["W.lemma-a7", "W.lemma-a7.corrected"])
def test_low_precision_never_passes_the_printed_nor_fails_the_correction(claim_id, backend) -> None:
    r = run(claim_id, backends=(backend,), examples=10)
    expected = Verdict.REFUTED if claim_id == "W.lemma-a7" else Verdict.CORROBORATED
    assert r.verdict is expected
    assert str(_by(r, backend, "(73)").outcome) == LOW_PRECISION[(claim_id, backend)]
