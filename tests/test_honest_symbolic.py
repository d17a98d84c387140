"""Issue 19, honest symbolic evidence: a derivation step SymPy decides false fails the claim, and
a check of recmem's own machinery never counts as a proof of the statement."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from claim_helpers import run

from recmem.checks.verdict import HARNESS, Outcome, Verdict
from recmem.theory import proof as proof_module
from recmem.theory import stability


@pytest.fixture
def fresh_corner_proof() -> Iterator[None]:
    """corner_proof is memoised: a planted slip must neither see nor leave a cached result."""
    stability.corner_proof.cache_clear()
    yield
    stability.corner_proof.cache_clear()


def test_a_broken_derivation_step_fails_a_verified_claim(monkeypatch: Any,
                                                          fresh_corner_proof: None) -> None:
    """A slip in a derivation (the second derivative of φ in δc off by one) is decided false by
    SymPy: the claim is FAILED with the step and its value shown, not VERIFIED or CORROBORATED
    (before issue 19 the step was merely "not confirmed" and W.perturbation stayed VERIFIED)."""
    assert run("W.perturbation", backends=("sympy",)).verdict is Verdict.VERIFIED
    stability.corner_proof.cache_clear()
    real = proof_module.decide_zeros

    def slipped(differences: Any, *args: Any, **kwargs: Any) -> Any:
        diffs = list(differences)
        return real([diffs[0] + 1, *diffs[1:]], *args, **kwargs)

    monkeypatch.setattr(stability, "decide_zeros", slipped)
    result = run("W.perturbation", backends=("sympy",))
    assert result.verdict is Verdict.FAILED
    failed = [e for e in result.evidence if e.outcome is Outcome.FAIL]
    assert failed and failed[0].kind == "symbolic" and failed[0].counterexample is None
    assert "bilinear" in failed[0].message and "= 1" in failed[0].message


def test_the_simulators_realisation_is_a_harness_check_not_a_proof(monkeypatch: Any) -> None:
    """W.memory-def's check that the RNN simulators realise ρ is kind harness; a planted wrong
    realisation (P used for P⁻¹ in the similarity transform) is an ERROR of recmem, not a
    refutation of the paper (before issue 19: REFUTED)."""
    from recmem.checks.claims.paper_w import _memory as mm

    ok = run("W.memory-def", backends=("sympy",))
    harness = [e for e in ok.evidence if e.kind == HARNESS]
    assert len(harness) == 1 and harness[0].outcome is Outcome.PASS
    assert not any("realise" in e.check for e in ok.evidence if e.kind == "symbolic")
    real = mm.realisation

    def wrong(kernel: Any, similarity: bool) -> Any:
        W, U, c = real(kernel, similarity)
        return (W, U, [x + Fraction(1, 2) for x in c]) if similarity else (W, U, c)

    monkeypatch.setattr(mm, "realisation", wrong)
    monkeypatch.setattr(mm, "_MEMO", {})
    result = run("W.memory-def", backends=("sympy",))
    assert result.verdict is Verdict.ERROR
    bad = [e for e in result.evidence if e.kind == HARNESS]
    assert bad[0].outcome is Outcome.ERROR and "bug of recmem" in bad[0].message
    assert result.counterexample is None


PLANTED = [  # (theory module, proof function, claim whose general proof it is)
    ("limit_decay", "limit_decay_proof", "W.limit-decay"),
    ("reparam", "reparam_proof", "W.reparam.corrected"),
    ("memory", "decaying_rnn_proof", "W.rnn-decaying.corrected"),
    ("stability", "readout_proof", "W.perturbation"),
]


@pytest.mark.parametrize(("module", "function", "claim_id"), PLANTED)
def test_each_converted_derivation_reports_a_step_decided_false(monkeypatch: Any, module: str,
                                                                function: str,
                                                                claim_id: str) -> None:
    """Every derivation whose steps SymPy decides: a slip that shifts a step's lhs − rhs by 1 is a
    failed derivation (FAIL, the step named), where it used to be "could not confirm"."""
    import importlib

    from recmem.checks.registry import get
    from recmem.checks.verdict import from_proof

    mod = importlib.import_module(f"recmem.theory.{module}")
    statement = get(claim_id).statement
    proof = getattr(mod, function)
    assert proof(statement).holds is True
    real_one, real_all = proof_module.decide_zero, proof_module.decide_zeros

    def one(difference: Any, *args: Any, **kwargs: Any) -> Any:
        return real_one(difference + 1, *args, **kwargs)

    def every(differences: Any, *args: Any, **kwargs: Any) -> Any:
        return real_all([d + 1 for d in differences], *args, **kwargs)

    for name, slip in (("decide_zero", one), ("decide_zeros", every)):
        if hasattr(mod, name):
            monkeypatch.setattr(mod, name, slip)
    stability._maximisers.cache_clear()
    try:
        broken = proof(statement)
    finally:
        stability._maximisers.cache_clear()
    assert broken.holds is None and broken.failed_step is not None, broken
    ev = from_proof(broken, 0.0)
    assert ev.outcome is Outcome.FAIL and broken.failed_step["step"] in ev.message


# ---- every derivation step is three-valued: a slip planted in one step is a failed derivation --

def _slipped(real: Any, name: str, at: int | None) -> Any:
    """``real`` (decide_zero, decide_zeros or fact) with a slip in its ``at``-th call (1-based;
    None: every call): a difference shifted by 1, or a fact read false."""
    calls = [0]

    def slip(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if at is not None and calls[0] != at:
            return real(*args, **kwargs)
        if name == "fact":
            return real(False, *args[1:], **kwargs)
        if name == "decide_zeros":
            first, *rest = list(args[0])
            return real([first + 1, *rest], *args[1:], **kwargs)
        return real(args[0] + 1, *args[1:], **kwargs)

    return slip


def _law(claim_id: str, change: dict[str, Any] | None = None) -> Any:
    """The statement of ``claim_id``, with fields changed (a branch no registered claim reaches)."""
    from dataclasses import replace

    from recmem.checks.registry import get

    statement = get(claim_id).statement
    return replace(statement, **change) if change else statement


STEP_SITES = [  # (theory module, proof function, claim, fields changed, (module, helper, call no.),
    #            whether the statement holds before the slip)
    ("activations", "activation_proof", "W.activations", None,
     ("activations", "decide_zeros", 1), True),  # _tanh_facts
    ("memory", "decaying_rnn_proof", "W.rnn-decaying.app-i1", None,
     ("memory", "decide_zeros", 2), False),  # app_i1_witness: z' = Wσ(z)
    ("memory", "decaying_rnn_proof", "W.rnn-decaying.app-i1", None,
     ("memory", "fact", 1), False),  # app_i1_witness: W Hurwitz
    ("memory", "decaying_rnn_proof", "W.rnn-decaying.corrected", {"conclusion": "exponential"},
     ("memory_defs", "decide_zeros", 4), False),  # hardtanh_memory_proof's closed form
    ("memory", "step_proof", "W.theorem.rnn-step", None,
     ("memory_defs", "decide_zeros", 1), False),  # hardtanh_memory_proof: r'(z₀)
    ("memory", "step_proof", "W.theorem.rnn-step", None,
     ("memory", "fact", 1), False),  # e^(βt)M_o(t) → ∞
    ("memory", "step_proof", "W.theorem.rnn-step", None,
     ("memory", "decide_zeros", 1), False),  # (53): (1 + β₀)/(t + 1) → 0
    ("memory_defs", "normalisation_proof", "W.memory-def.normalisation", None,
     ("memory_defs", "decide_zeros", 3), False),  # hardtanh_memory_proof: unsaturated branch
    ("memory_defs", "decay_reading_proof", "W.memory-def.pointwise", None,
     ("memory_defs", "decide_zeros", 1), False),  # sin_witness: z solves z' = −sin z
    ("memory_defs", "decay_reading_proof", "W.memory-def.pointwise", None,
     ("memory_defs", "decide_zeros", 5), False),  # the pointwise limit e^(t/2)·rate → 0
    ("memory_linear", "linear_memory_proof", "W.memory-linear", None,
     ("memory_linear", "decide_zero", None), True),  # Q_t(x) = ε·xᵀρ(t)
    ("memory_rnn", "linear_rnn_decay_proof", "W.rnn-linear-memory.corrected", None,
     ("memory_rnn", "decide_zeros", 1), True),  # e^(Wt) solves E' = WE
    ("rescaling", "rescaling_proof", "W.rescaling.corrected", None,
     ("rescaling", "decide_zeros", 1), True),  # max_k w_k → 0
    ("rescaling", "rescaling_proof", "W.rescaling.corrected", None,
     ("rescaling", "decide_zeros", 5), True),  # ∫φ (ρ)
    ("rescaling", "rescaling_proof", "W.rescaling.corrected", None,
     ("rescaling", "fact", 2), True),  # ρ₂ not exponentially decaying
    ("vandermonde", "det_proof", "O.det", None,
     ("vandermonde", "decide_zeros", 2), True),  # the column-reversal premise
    ("ring", "invertible_proof", "O.invertible.corrected", None,
     ("vandermonde", "decide_zeros", 1), True),  # O.det's identity, cited by Lemma 6
    ("stability", "slope_rate_proof", "W.theorem.slope.corrected", None,
     ("stability", "decide_zeros", 1), True),  # 𝒜₀: the scalar solution
]

CACHED = [("activations", "_tanh_facts"), ("memory_defs", "hardtanh_memory_proof"),
          ("memory_defs", "sin_witness"), ("memory_rnn", "_expm_checks"),
          ("stability", "_a0_scalar_solution"), ("stability", "_a1_bernoulli_solution")]


@pytest.fixture
def fresh_derivations() -> Iterator[None]:
    """Memoised derivations: a planted slip must neither see nor leave a cached result."""
    import importlib

    def clear() -> None:
        for module, name in CACHED:
            getattr(importlib.import_module(f"recmem.theory.{module}"), name).cache_clear()

    clear()
    yield
    clear()


@pytest.mark.parametrize(("module", "function", "claim_id", "change", "slip", "before"),
                         STEP_SITES, ids=[f"{s[0]}.{s[1]}-{s[2]}-{s[4][0]}.{s[4][1]}#{s[4][2]}"
                                          for s in STEP_SITES])
def test_a_step_decided_false_is_a_failed_derivation(monkeypatch: Any, fresh_derivations: None,
                                                     module: str, function: str, claim_id: str,
                                                     change: dict[str, Any] | None,
                                                     slip: tuple[str, str, int | None],
                                                     before: bool) -> None:
    """Each converted derivation site: a slip that shifts one step's lhs − rhs by 1 (or reads a
    fact false) makes SymPy decide the step false, and the proof a failed derivation (FAIL, the
    step named) — where it used to be "could not confirm" (undecided), or went unnoticed."""
    import importlib

    from recmem.checks.verdict import from_proof

    proof = getattr(importlib.import_module(f"recmem.theory.{module}"), function)
    statement = _law(claim_id, change)
    assert proof(statement).holds is before
    where, name, at = slip
    target = importlib.import_module(f"recmem.theory.{where}")
    monkeypatch.setattr(target, name, _slipped(getattr(target, name), name, at))
    for m, fn in CACHED:
        getattr(importlib.import_module(f"recmem.theory.{m}"), fn).cache_clear()
    broken = proof(statement)
    assert broken.holds is None and broken.failed_step is not None, broken
    ev = from_proof(broken, 0.0)
    assert ev.outcome is Outcome.FAIL and broken.failed_step["step"] in ev.message


def test_real_illcond_sanity_inequalities_are_a_harness_check(monkeypatch: Any) -> None:
    """O.real-illcond's certified sanity inequalities (Gautschi's bounds, κ₁/N ≤ κ₂ ≤ N·κ₁) check
    recmem's machinery, not the statement: kind harness, and a planted slip (the κ₂ bracket read
    10⁹ times too large) is an ERROR of recmem, never a refutation (before issue 19: REFUTED)."""
    from recmem.checks.claims.paper_o import real_illcond

    ok = run("O.real-illcond", backends=("flint@128",), Ns="4,8", families="equispaced")
    sanity = [e for e in ok.evidence if "sanity" in e.check]
    assert len(sanity) == 1 and sanity[0].kind == HARNESS and sanity[0].outcome is Outcome.PASS
    real = real_illcond.to_fraction
    monkeypatch.setattr(real_illcond, "to_fraction", lambda v: real(v) * 10**9)
    result = run("O.real-illcond", backends=("flint@128",), Ns="4,8", families="equispaced")
    bad = [e for e in result.evidence if "sanity" in e.check]
    assert bad[0].kind == HARNESS and bad[0].outcome is Outcome.ERROR
    assert "outside [κ₁/N, N·κ₁]" in bad[0].message and bad[0].counterexample is None
    assert result.verdict is Verdict.ERROR and result.counterexample is None
