"""Issue 19, honest symbolic evidence for paper W's Lyapunov lemmas (theory.lyapunov): a step of a
general derivation that SymPy decides false is a failed derivation — the claim's symbolic evidence
is FAIL, naming the step — where it used to read as "did not reduce" (undecided, INCONCLUSIVE)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from claim_helpers import run

from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict, from_proof
from recmem.theory import lyapunov as ly
from recmem.theory import proof as proof_module

# (claim, its proof function in theory.lyapunov, the derivation whose step the slip hits, a
# predicate on the names a step's exact points assign, choosing the steps the slip shifts)
SITES: list[tuple[str, Callable[[Any], Any], str, Callable[[set[str]], bool]]] = [
    ("W.lyapunov-bound.corrected", ly.norm_bound_proof, "_normal_bound_general",
     lambda names: True),
    ("W.lyapunov-bound.weak", ly.norm_bound_proof, "_diagonalizable_bound_general",
     lambda names: True),
    ("W.lyapunov-local.weak", ly.local_proof, "_quartic_general", lambda names: True),
    ("W.lyapunov-local.explicit.corrected", ly.local_proof, "_quartic_general",
     lambda names: True),
    ("W.lyapunov-local.eq92.corrected", ly.cube_proof, "cube_proof", lambda names: True),
    ("W.semigroup-bound.corrected", ly.semigroup_proof, "semigroup_proof", lambda names: True),
    # integral_proof: the positivity identities of the 2×2 step, then the Cauchy (Gram) step alone
    ("W.lyapunov", ly.integral_proof, "integral_proof (positivity)", lambda names: True),
    ("W.lyapunov", ly.integral_proof, "integral_proof (Gram)", lambda names: "w_i" in names),
]
IDS = [f"{claim}:{where}" for claim, _, where, _ in SITES]


def _slip(monkeypatch: Any, shift: Callable[[Any, list[Any]], Any],
          hit: Callable[[set[str]], bool]) -> None:
    """Plant a slip in every step theory.lyapunov decides: in each step chosen by ``hit`` (on the
    names of the variables its exact points assign), every difference is shifted by
    ``shift(difference, points)`` before SymPy decides it."""
    real = proof_module.decide_zeros

    def slipped(differences: Any, simplify: Any = None, points: Any = ()) -> Any:
        pts = list(points)
        if not hit({str(k) for point in pts for k in point}):
            return real(differences, simplify, pts)
        return real([d + shift(d, pts) for d in differences], simplify, pts)

    monkeypatch.setattr(ly, "decide_zeros", slipped)


@pytest.mark.parametrize(("claim_id", "function", "where", "hit"), SITES, ids=IDS)
def test_a_step_shifted_by_one_is_a_failed_derivation(monkeypatch: Any, claim_id: str,
                                                      function: Callable[[Any], Any], where: str,
                                                      hit: Callable[[set[str]], bool]) -> None:
    """Each converted derivation: lhs − rhs of a step shifted by 1 is decided false (a nonzero
    constant), so the proof carries ``failed_step`` and its evidence is FAIL naming the step
    (before: holds=None, "… did not reduce", INCONCLUSIVE)."""
    statement = get(claim_id).statement
    assert function(statement).holds is True
    _slip(monkeypatch, lambda d, pts: 1, hit)
    broken = function(statement)
    assert broken.holds is None and broken.failed_step is not None, broken
    if where == "integral_proof (Gram)":
        assert broken.failed_step["step"] == "Cauchy matrix is a Gram matrix"
    ev = from_proof(broken, 0.0)
    assert ev.outcome is Outcome.FAIL and broken.failed_step["step"] in ev.message
    assert "failed derivation" in ev.message and ev.counterexample is None


@pytest.mark.parametrize(("claim_id", "function", "where", "hit"), SITES, ids=IDS)
def test_a_step_off_by_a_polynomial_is_decided_false_at_the_exact_point(
        monkeypatch: Any, claim_id: str, function: Callable[[Any], Any], where: str,
        hit: Callable[[set[str]], bool]) -> None:
    """A slip that is no constant (the step's difference plus one of the step's variables) does
    not reduce to a number: it is decided false only by the exact point each step is evaluated
    at, which the failed step shows (a wrong step is not left undecided)."""
    statement = get(claim_id).statement

    def by_a_variable(d: Any, pts: list[Any]) -> Any:
        return sorted(pts[0], key=str)[0]

    _slip(monkeypatch, by_a_variable, hit)
    broken = function(statement)
    assert broken.holds is None and broken.failed_step is not None, broken
    assert "point" in broken.failed_step, broken.failed_step


CLAIMS = sorted({claim for claim, _, where, _ in SITES if "Gram" not in where})


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_a_slipped_step_fails_the_claim(monkeypatch: Any, claim_id: str) -> None:
    """Through the claim runner: with every step of theory.lyapunov's derivations shifted by 1,
    the claim's symbolic evidence is FAIL ("failed derivation") and the claim is FAILED, not
    VERIFIED (before issue 19's conversion: INCONCLUSIVE symbolic evidence)."""
    _slip(monkeypatch, lambda d, pts: 1, lambda names: True)
    result = run(claim_id, backends=("sympy",))
    symbolic = [e for e in result.evidence if e.check == "symbolic"]
    assert symbolic and symbolic[0].outcome is Outcome.FAIL, symbolic
    assert "failed derivation" in symbolic[0].message
    assert result.verdict is Verdict.FAILED, result.verdict


def _plus_one(value: Any) -> Any:
    """``value`` + 1 (a SymPy matrix: + 1 in every entry)."""
    import sympy as sp

    return value + sp.ones(*value.shape) if isinstance(value, sp.MatrixBase) else value + 1


# (claim, its proof function, the theory.lyapunov helper a step's lhs is computed with, the step
# that helper's slip makes false)
HELPER_SLIPS: list[tuple[str, Callable[[Any], Any], str, str]] = [
    ("W.lyapunov-bound.corrected", ly.norm_bound_proof, "lyapunov_residual", "1×1 block"),
    ("W.lyapunov-bound.corrected", ly.norm_bound_proof, "closed_form_2x2", "2×2 normal block"),
    ("W.lyapunov-bound.weak", ly.norm_bound_proof, "laplace_at_zero", "∫ κ² e^{−2β₀t} = κ²/(2β₀)"),
    ("W.lyapunov-local.weak", ly.local_proof, "quartic", "n=2: q = quartic(Pv, Wv, v)"),
    ("W.lyapunov-local.explicit.corrected", ly.local_proof, "quartic",
     "n=2: q = quartic(Pv, Wv, v)"),
]


@pytest.mark.parametrize(("claim_id", "function", "helper", "step"), HELPER_SLIPS,
                         ids=[f"{c}:{h}" for c, _, h, _ in HELPER_SLIPS])
def test_a_slip_in_a_helper_fails_the_derivation(monkeypatch: Any, claim_id: str,
                                                 function: Callable[[Any], Any], helper: str,
                                                 step: str) -> None:
    """A slip in a helper a general derivation computes with (its value off by 1) is decided
    false: a failed derivation naming the step, FAIL evidence (before: "a step of the argument
    did not reduce" / "an identity did not reduce", INCONCLUSIVE)."""
    real = getattr(ly, helper)
    monkeypatch.setattr(ly, helper, lambda *args, **kwargs: _plus_one(real(*args, **kwargs)))
    broken = function(get(claim_id).statement)
    assert broken.holds is None and broken.failed_step is not None, broken
    assert broken.failed_step["step"] == step, broken.failed_step
    ev = from_proof(broken, 0.0)
    assert ev.outcome is Outcome.FAIL and step in ev.message


@pytest.mark.parametrize(("claim_id", "helper"), [("W.lyapunov-bound.corrected", "lyapunov_residual"),
                                                  ("W.lyapunov-bound.weak", "laplace_at_zero")])
def test_a_slip_in_a_helper_fails_the_claim(monkeypatch: Any, claim_id: str, helper: str) -> None:
    """Through the claim runner (helpers only the symbolic side uses): FAILED, not VERIFIED."""
    assert run(claim_id, backends=("sympy",)).verdict is Verdict.VERIFIED
    real = getattr(ly, helper)
    monkeypatch.setattr(ly, helper, lambda *args, **kwargs: _plus_one(real(*args, **kwargs)))
    result = run(claim_id, backends=("sympy",))
    symbolic = [e for e in result.evidence if e.check == "symbolic"]
    assert symbolic and symbolic[0].outcome is Outcome.FAIL, symbolic
    assert result.verdict is Verdict.FAILED, result.verdict


@pytest.mark.parametrize("claim_id", ["W.lyapunov-bound.uniform", "W.lyapunov-local"])
def test_a_wrong_closed_form_fails_the_disproof_instead_of_refuting(monkeypatch: Any,
                                                                    claim_id: str) -> None:
    """superdiagonal_disproof checks its closed form (P_m)_mm = ½Σ_(k<m) C(2k, k) against the
    exact solve of (88) for m ≤ 5: a slip in the closed form (off by 1 at m = 4) is a failed
    derivation (FAIL, the step named), never a refutation built on it (before: "did not reduce",
    INCONCLUSIVE)."""
    statement = get(claim_id).statement
    function = ly.norm_bound_proof if claim_id.startswith("W.lyapunov-bound") else ly.local_proof
    assert function(statement).holds is False
    real = ly.superdiagonal_corner
    monkeypatch.setattr(ly, "superdiagonal_corner", lambda m: real(m) + (m == 4))
    broken = function(statement)
    assert broken.holds is None and broken.failed_step is not None, broken
    assert broken.failed_step["step"].startswith("m=4:"), broken.failed_step
    ev = from_proof(broken, 0.0)
    assert ev.outcome is Outcome.FAIL and ev.counterexample is None
