"""Tests of O.sparse, O.block (+ readings), O.relaxation (+ corrected), O.causal-fill."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given

from recmem.checks.claim import Claim, Context
from recmem.checks.claims.paper_o import block, causal_fill, relaxation, sparse
from recmem.checks.report import ClaimResult
from recmem.checks.runner import resolve_params, run_claim
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import parse_spec
from recmem.numerics.exact import QQi
from recmem.theory import relaxation as rx
from recmem.theory import sparse as th

FAST = ("sympy", "mpmath@128", "flint@128", "numpy")
CLAIMS: dict[str, Claim] = {c.id: c for m in (sparse, block, relaxation, causal_fill)
                            for c in m.CLAIMS}


def run(claim_id: str, backends: tuple[str, ...] = FAST, examples: int = 20, seed: int = 0,
        **params: Any) -> ClaimResult:
    """Run one of this file's claims directly (independent of other modules in the registry)."""
    claim = CLAIMS[claim_id]
    values = resolve_params([claim], {k: str(v) for k, v in params.items()})[claim.id]
    ctx = Context(values, seed=seed, precision_bits=128, search_examples=examples)
    return run_claim(claim, ctx, [parse_spec(b) for b in backends])


def ctx_of(claim_id: str) -> Context:
    return Context(CLAIMS[claim_id].defaults())


def numeric_outcomes(result: ClaimResult) -> dict[str, set[Outcome]]:
    out: dict[str, set[Outcome]] = {}
    for e in result.evidence:
        if e.kind == "numeric":
            out.setdefault(e.backend, set()).add(e.outcome)
    return out


# ---- O.sparse -------------------------------------------------------------------------------


def test_sparse_verified_with_symbolic_and_numeric_evidence() -> None:
    r = run("O.sparse")
    assert r.verdict is Verdict.VERIFIED
    kinds = {e.kind for e in r.evidence if e.outcome is Outcome.PASS}
    assert {"symbolic", "search", "numeric"} <= kinds
    assert numeric_outcomes(r) == {b: {Outcome.PASS} for b in FAST[1:]}


def test_sparse_outside_hypothesis_is_inconclusive() -> None:
    # k = 8: the first 8 rows of the Haar basis have rank 1 < P = 4, so rank Ω_k < P
    r = run("O.sparse", backends=("sympy", "numpy"), examples=5, ks="8")
    exact = [e for e in r.evidence if e.check.startswith("eq. 22")]
    assert exact[0].outcome is Outcome.INCONCLUSIVE and "outside the hypothesis" in exact[0].message
    assert numeric_outcomes(r) == {"numpy": {Outcome.INCONCLUSIVE}}  # κ₂(Ω_8) = ∞


def test_sparse_float32_inconclusive_when_ill_conditioned() -> None:
    r = run("O.sparse", backends=("numpy", "numpy:float32"), N=30, P=16, nodes="real")
    out = numeric_outcomes(r)
    assert out["numpy:float32"] == {Outcome.INCONCLUSIVE}
    assert out["numpy"] == {Outcome.PASS}
    ev = [e for e in r.evidence if e.backend == "numpy:float32"]
    assert all(e.needed_bits and e.needed_bits > 24 for e in ev)


def test_sparse_rejects_n_not_above_p_plus_one() -> None:
    r = run("O.sparse", backends=("sympy",), examples=1, N=5, P=4)
    assert r.verdict is Verdict.ERROR


@given(sparse.instances())
def test_sparse_exact_predicate(inst: dict[str, Any]) -> None:
    res = sparse.holds(inst, ctx_of("O.sparse"))
    assert res.holds is True
    if inst["P"] <= res.values["rank_Omega"]:
        # in the hypothesis: the exact α̂ really is α (and not vacuous)
        assert res.detail == ""


def test_sparse_recovery_detects_a_wrong_alpha() -> None:
    # the exact machinery distinguishes α from a perturbed α (the check can fail)
    nodes = [QQi(Fraction(1, 2)), QQi(Fraction(-1, 2)), QQi(Fraction(0), Fraction(1, 2))]
    basis = [[[Fraction(1)] * 3], [[Fraction(1), Fraction(2), Fraction(3)]]]
    good = th.recovery_instance(QQi(Fraction(1, 3)), [nodes], basis, [Fraction(1), Fraction(2)], 3)
    assert good["recovered"] is True
    other = th.recovery_instance(QQi(Fraction(1, 3)), [nodes], basis, [Fraction(1), Fraction(3)],
                                 3)
    assert good["alpha_hat"] != other["alpha_hat"]


# ---- O.block --------------------------------------------------------------------------------


def test_block_printed_refuted_by_exact_counterexample() -> None:
    from sympy import Matrix

    r = run("O.block", backends=("sympy", "mpmath@128", "numpy"), examples=60)
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["certified_by"]
    assert cx["RM"] > cx["P"] and cx["rank Psi_k"] == cx["P"]
    assert cx["rank Omega_k upper bound for all nodes"] < cx["P"]
    # recompute the counterexample independently with SymPy matrices
    m, k, p = cx["M"], cx["k"], cx["P"]
    blocks = [[QQi(Fraction(v)) for v in b] for b in cx["blocks"]]
    basis = [[[Fraction(v) for v in row] for row in bi] for bi in cx["basis (psi^i[j][t])"]]
    alpha = [Fraction(v) for v in cx["alpha"]]
    psi = Matrix([[basis[i][j][t] for i in range(p)] for j in range(m) for t in range(k)])
    vk = Matrix(th.block_vandermonde(blocks, k).to_Matrix())
    omega = vk * psi
    x = omega * Matrix(alpha)
    assert omega.rank() < p
    assert omega.pinv() * x != Matrix(alpha)
    # the printed part that is true passes numerically
    assert numeric_outcomes(r) == {"mpmath@128": {Outcome.PASS}, "numpy": {Outcome.PASS}}
    # the search finds a certified counterexample of its own
    search = [e for e in r.evidence if e.kind == "search"]
    assert search[0].outcome is Outcome.REFUTE and "all nodes" in (search[0].certified_by or "")


def test_block_search_instances_are_judged_exactly() -> None:
    ctx = ctx_of("O.block")
    # a basis concentrated in dimension 1 with P = 3 > R = 2: certified failure
    e = [[Fraction(int(t == i)) for t in range(3)] for i in range(3)]
    inst = {"M": 2, "R": 2, "P": 3, "k": 3,
            "basis": [[e[i], [Fraction(0)] * 3] for i in range(3)],
            "lambda0": QQi(Fraction(0)), "blocks": [[QQi(Fraction(1)), QQi(Fraction(-1))],
                                                    [QQi(Fraction(0), Fraction(1)),
                                                     QQi(Fraction(0), Fraction(-1))]],
            "alpha": [Fraction(0), Fraction(0), Fraction(1)]}
    assert block.holds_printed(inst, ctx).holds is False
    # the same basis spread over both dimensions (2 + 1 functions ≤ R each): recoverable
    inst2 = dict(inst, basis=[[e[0], [Fraction(0)] * 3], [e[1], [Fraction(0)] * 3],
                              [[Fraction(0)] * 3, e[2]]])
    assert block.holds_printed(inst2, ctx).holds is True
    assert block.holds_corrected(inst, ctx).holds is True  # rank Ω_k < P: outside the hypothesis


def test_block_literal_vtilde_refuted() -> None:
    r = run("O.block.literal-vtilde", backends=("sympy", "mpmath@128", "flint@128", "numpy"))
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["k"] == 2 and cx["x_k0 (recurrence)"] == "3/2"
    out = numeric_outcomes(r)
    assert out["flint@128"] == {Outcome.REFUTE} and out["mpmath@128"] == {Outcome.REFUTE}
    assert out["numpy"] == {Outcome.FAIL}


def test_block_corrected_verified() -> None:
    r = run("O.block.corrected")
    assert r.verdict is Verdict.VERIFIED
    assert CLAIMS["O.block.corrected"].corrects == "O.block"
    assert all(o == {Outcome.PASS} for o in numeric_outcomes(r).values())


@given(block.instances())
def test_block_corrected_exact_predicate(inst: dict[str, Any]) -> None:
    assert block.holds_corrected(inst, ctx_of("O.block.corrected")).holds is True


def test_block_state_identity_and_rank_bound() -> None:
    assert th.state_identity(k_max=3, m_max=2, r_max=2, p=2).holds is True
    proof = th.block_recoverability()
    assert proof.holds is False and proof.counterexample is not None
    assert proof.counterexample["Omega_k^+ x_k"] == ["1/1297", "0", "36/1297"]
    assert th.literal_vtilde().counterexample == {
        "k": 2, "lambda0": "1/2", "x_k0 (recurrence)": "3/2", "x_k0 (diag(1, V_k) reading)": "1"}


# ---- O.relaxation ---------------------------------------------------------------------------


def test_relaxation_printed_refuted() -> None:
    r = run("O.relaxation", backends=("sympy", "mpmath@128", "flint@128", "numpy"))
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["t"] == "1" and cx["T~(1)"] == "0" and cx["T_bar(1)"] == "1"
    jumps = {e.backend: e for e in r.evidence if e.check.startswith("continuity")}
    assert jumps["mpmath@128"].outcome is Outcome.REFUTE and jumps["mpmath@128"].certified_by
    assert jumps["flint@128"].outcome is Outcome.REFUTE
    assert jumps["numpy"].outcome is Outcome.FAIL
    sym = [e for e in r.evidence if e.kind == "symbolic"]
    assert [e.outcome for e in sym] == [Outcome.REFUTE, Outcome.REFUTE]  # eq. 26 and eq. 31
    search = next(e for e in r.evidence if e.kind == "search")
    assert search.outcome is Outcome.REFUTE


def test_relaxation_corrected_verified() -> None:
    r = run("O.relaxation.corrected")
    assert r.verdict is Verdict.VERIFIED
    sym = [e for e in r.evidence if e.kind == "symbolic"]
    assert sym[0].data["weight-swapped eq. 26 at t = k"] == "0"


@given(relaxation.instances())
def test_relaxation_corrected_exact_predicate(inst: dict[str, Any]) -> None:
    assert relaxation._holds(rx.corrected_weights)(inst, ctx_of("O.relaxation")).holds is True
    # the interpolant lies between its neighbouring values
    t, v = inst["t"], inst["T_bar"]
    val = rx.evaluate(rx.corrected_weights, v, t)
    f = int(t)
    lo, hi = v[f - 1], v[min(f, len(v) - 1)] if t != f else v[f - 1]
    assert min(lo, hi) <= val <= max(lo, hi)


def test_relaxation_formulas_exact_values() -> None:
    vals = [Fraction(1), Fraction(2), Fraction(3)]
    assert rx.evaluate(rx.printed_weights, vals, Fraction(2)) == 0
    assert rx.evaluate(rx.swapped_weights, vals, Fraction(2)) == 0
    assert rx.evaluate(rx.corrected_weights, vals, Fraction(2)) == 2
    assert rx.evaluate(rx.corrected_weights, vals, Fraction(5, 2)) == Fraction(5, 2)
    assert rx.one_sided_limits(rx.printed_weights, vals, 2) == (1, 3)
    assert rx.one_sided_limits(rx.corrected_weights, vals, 2) == (2, 2)


# ---- O.causal-fill --------------------------------------------------------------------------


def test_causal_fill_verified() -> None:
    r = run("O.causal-fill")
    assert r.verdict is Verdict.VERIFIED
    sym = next(e for e in r.evidence if e.kind == "symbolic")
    # the input after step k is arbitrary: later columns need not (and here do not) agree
    assert "False" in sym.data["columns after k also agree (not claimed)"]


@given(causal_fill.instances())
def test_causal_fill_exact_predicate(inst: dict[str, Any]) -> None:
    assert causal_fill.holds(inst, ctx_of("O.causal-fill")).holds is True


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_every_claim_has_two_arithmetics_and_provenance(claim_id: str) -> None:
    c = CLAIMS[claim_id]
    assert c.symbolic is not None and c.numeric is not None
    assert c.strategy is not None and c.holds is not None
    assert c.provenance.quote and c.provenance.paper == "O"
