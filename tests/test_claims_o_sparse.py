"""O.sparse, O.block (+ reading and correction), O.relaxation (+ correction), O.causal-fill: one
statement each (theory.sparse, theory.relaxation) read by every side, negative controls that the
checks tell apart, and honest verdicts at low precision."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given

from recmem.checks.claim import Claim, Context
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o import block, causal_fill, relaxation, sparse
from recmem.checks.report import ClaimResult
from recmem.checks.runner import UsageError, resolve_params, run_claim
from recmem.checks.search import SEARCH_BACKEND
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import make_backend, parse_spec
from recmem.numerics.exact import QQi
from recmem.theory import relaxation as rx
from recmem.theory import sparse as th

FAST = ("sympy", "mpmath@128", "flint@128", "numpy")
CLAIMS: dict[str, Claim] = {c.id: c for m in (sparse, block, relaxation, causal_fill)
                            for c in m.CLAIMS}
TRUE = ("O.sparse", "O.block.corrected", "O.relaxation.corrected", "O.causal-fill")
FALSE = ("O.block", "O.block.literal-vtilde", "O.relaxation")
PROOF = {th.SparseRecovery: th.sparse_proof, th.BlockConstruction: th.block_proof,
         th.CausalFill: th.causal_fill_proof, rx.Relaxation: rx.relaxation_proof}


def run(claim_id: str, backends: tuple[str, ...] = FAST, examples: int = 20, seed: int = 0,
        **params: Any) -> ClaimResult:
    """Run one of this file's claims directly (independent of other modules in the registry)."""
    claim = CLAIMS[claim_id]
    values = resolve_params([claim], {k: str(v) for k, v in params.items()})[claim.id]
    ctx = Context(values, seed=seed, precision_bits=128, search_examples=examples)
    return run_claim(claim, ctx, [parse_spec(b) for b in backends])


def numeric_outcomes(result: ClaimResult) -> dict[str, set[Outcome]]:
    out: dict[str, set[Outcome]] = {}
    for e in result.evidence:
        if e.kind == "numeric":
            out.setdefault(e.backend, set()).add(e.outcome)
    return out


def by_backend(result: ClaimResult, backend: str) -> list[Any]:
    return [e for e in result.evidence if e.backend == backend]


# ---- the default runs: one verdict each, every control told apart ---------------------------

EXPECTED = {"O.sparse": Verdict.VERIFIED, "O.block": Verdict.REFUTED,
            "O.block.literal-vtilde": Verdict.REFUTED, "O.block.corrected": Verdict.VERIFIED,
            "O.relaxation": Verdict.REFUTED, "O.relaxation.corrected": Verdict.VERIFIED,
            "O.causal-fill": Verdict.VERIFIED}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_every_control_refuted(claim_id: str) -> None:
    r = run(claim_id)
    assert r.verdict is EXPECTED[claim_id]
    assert r.controls is not None and len(r.controls) >= 2
    for c in r.controls:
        assert c.verdict is Verdict.REFUTED, c.change
        # the symbolic side and the search both refute every control, with an exact instance
        sym = [e for e in c.evidence if e.kind in ("symbolic", "exact")]
        assert any(e.outcome is Outcome.REFUTE and e.counterexample for e in sym), c.change
        search = by_backend(c, SEARCH_BACKEND)[0]
        assert search.outcome is Outcome.REFUTE and search.certified_by, c.change
    if claim_id in TRUE:
        # every arithmetic tells every control apart (rule C1), and the passes stand (rule C2)
        assert all(o == {Outcome.PASS} for o in numeric_outcomes(r).values())
        for c in r.controls:
            told = {e.backend for e in c.evidence if e.outcome in (Outcome.REFUTE, Outcome.FAIL)}
            assert {"mpmath@128", "flint@128", "numpy"} <= told, c.change


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_symbolic_side_decides_the_statement_and_refutes_every_control(claim_id: str) -> None:
    claim = CLAIMS[claim_id]
    law = claim.statement
    proof = PROOF[type(law)](law)
    assert proof.holds is (claim_id in TRUE)
    for control in claim.controls:
        p = PROOF[type(control.statement)](control.statement)
        assert p.holds is False, control.change
        assert p.counterexample and p.counterexample["detail"], control.change


def test_controls_are_built_from_the_statement() -> None:
    law = th.SparseRecovery()
    changes = {c.change: c.statement for c in law.controls()}
    assert changes["Ω_kᵀ instead of Ω_k⁺"] == replace(law, recovery=th.Recovery(
        inverse=th.TRANSPOSE))
    assert changes["hypothesis widened: rank Ω_k one below P allowed"] == replace(
        law, recovery=th.Recovery(slack=1))
    assert all(s.text != law.text for s in changes.values())
    # the corrected relaxation's swapped-weights control is the printed form's swap of roles
    swapped = next(c.statement for c in rx.CORRECTED.controls() if c.change == "weights swapped")
    assert swapped.formula == "(t − ⌊t⌋)T̄[u, ⌊t⌋] + (⌊t⌋ + 1 − t)T̄[u, ⌊t⌋ + 1]"
    assert rx.PRINTED.formula == "(⌈t⌉ − t)T̄[u, ⌈t⌉] + (t − ⌊t⌋)T̄[u, ⌊t⌋]"


# ---- O.sparse -------------------------------------------------------------------------------


def test_sparse_widened_hypothesis_is_checked_where_it_first_differs() -> None:
    r = run("O.sparse", backends=("numpy",), examples=5)
    assert [e.check for e in by_backend(r, "numpy")] == ["α̂ vs α at k = 25"]
    widened = next(c for c in r.controls or () if c.change.startswith("hypothesis widened"))
    ev = by_backend(widened, "numpy")[0]
    assert ev.check == "α̂ vs α at k = 17" and ev.outcome is Outcome.FAIL  # rank Ω_17 = 3
    assert widened.counterexample is not None and widened.counterexample["rank Omega_k"] < \
        widened.counterexample["P"]


def test_sparse_outside_hypothesis_is_inconclusive() -> None:
    # k = 8: the first 8 rows of the Haar basis have rank 1 < P = 4, so rank Ω_k < P
    r = run("O.sparse", backends=("numpy",), examples=5, ks="8")
    ev = by_backend(r, "numpy")[0]
    assert ev.outcome is Outcome.INCONCLUSIVE and "outside the hypothesis" in ev.message


def test_sparse_tolerance_that_cannot_resolve_the_near_control_is_inconclusive() -> None:
    # 29 real nodes: κ₂(Ω_31) makes float64's tolerance (≈ 2 %) wider than the near control's
    # 0.4 % deviation (rule C2); float32 cannot resolve the problem at all
    r = run("O.sparse", backends=("numpy", "numpy:float32"), N=30, P=16, nodes="real")
    out = numeric_outcomes(r)
    assert out == {"numpy": {Outcome.INCONCLUSIVE}, "numpy:float32": {Outcome.INCONCLUSIVE}}
    assert "2⁻⁸" in by_backend(r, "numpy")[0].message
    assert by_backend(r, "numpy:float32")[0].needed_bits > 24
    assert r.verdict is Verdict.CORROBORATED  # the exact search still passes


def test_sparse_rejects_n_not_above_p_plus_one() -> None:
    """Outside the statement's size hypothesis the parameters are refused before any work."""
    with pytest.raises(UsageError, match=r"needs N > P \+ 1, got N=5, P=4"):
        run("O.sparse", backends=("numpy",), examples=1, N=5, P=4)


@given(sparse.CLAIMS[0].strategy(sparse.CLAIMS[0].context()))
def test_sparse_exact_predicate(inst: dict[str, Any]) -> None:
    claim = sparse.CLAIMS[0]
    res = claim.holds(inst, claim.context())
    assert res.holds is True
    rank_p = res.values.get("rank Omega_k") == inst["P"] and inst["N"] > inst["P"] + 1
    assert (res.detail == "") is rank_p  # inside the hypothesis the exact α̂ really is α


def test_full_rank_factorization_inverse_is_the_moore_penrose_inverse() -> None:
    from sympy import Matrix

    # rank 1 < P = 2: the Penrose conditions hold (moore_penrose checks them) and SymPy agrees
    a = th.dm([[1, 2], [2, 4], [QQi(Fraction(0), Fraction(1)), QQi(Fraction(0), Fraction(2))]])
    g = th.moore_penrose(a)
    assert Matrix(g.to_Matrix()).equals(Matrix(a.to_Matrix()).pinv())
    # and in floats through the exact factorization (BackendOps)
    b = make_backend("numpy")
    x = th.column([1, 1, 1])
    ops = sp.BackendOps(b, 2, th.full_rank_factors(a))
    got = b.to_mp(ops.pinv_apply(b.matrix(th.to_rows(a)), b.matrix(th.to_rows(x))), ex_ctx())
    want = th.to_rows(th.mp_apply(a, x))
    assert all(abs(complex(got[i, 0]) - complex(float(w[0].re), float(w[0].im))) < 1e-14
               for i, w in enumerate(want))


def ex_ctx() -> Any:
    import mpmath

    ctx = mpmath.MPContext()
    ctx.prec = 64
    return ctx


# ---- O.block --------------------------------------------------------------------------------


def test_block_printed_refuted_by_a_counterexample_for_every_node_choice() -> None:
    from sympy import Matrix

    r = run("O.block", backends=("sympy", "numpy"), examples=60)
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["certified_by"] == "exact symbolic computation"
    assert cx["R"] * cx["M"] > cx["P"]
    assert cx["rank Omega_k upper bound for all nodes"] < cx["P"]
    assert cx["estimate Ω_k⁺x̃_k"] == ["1/1297", "0", "36/1297"]
    # recompute the counterexample independently with SymPy matrices
    m, k, p = cx["M"], cx["k"], cx["P"]
    blocks = [[QQi(Fraction(v)) for v in b] for b in cx["blocks"]]
    basis = [[[Fraction(v) for v in row] for row in bi] for bi in cx["basis (psi^i[j][t])"]]
    psi = Matrix([[basis[i][j][t] for i in range(p)] for j in range(m) for t in range(k)])
    assert psi.rank() == p  # α is uniquely determined by u_{1:k}
    omega = Matrix(th.block_vandermonde(blocks, k).to_Matrix()) * psi
    alpha = Matrix([Fraction(v) for v in cx["alpha"]])
    assert omega.rank() < p and omega.pinv() * (omega * alpha) != alpha
    # the search finds a certified counterexample of its own
    search = by_backend(r, SEARCH_BACKEND)[0]
    assert search.outcome is Outcome.REFUTE and "all nodes" in (search.certified_by or "")
    # the printed statement holds on the default instance (2 ≤ R Haar functions per dimension)
    assert numeric_outcomes(r) == {"numpy": {Outcome.PASS}}


def test_block_search_instances_are_judged_exactly() -> None:
    law = CLAIMS["O.block"].statement
    # a basis concentrated in dimension 1 with P = 3 > R = 2: certified failure for all nodes
    e = [[Fraction(int(t == i)) for t in range(3)] for i in range(3)]
    inst = {"M": 2, "R": 2, "k": 3,
            "basis": [[e[i], [Fraction(0)] * 3] for i in range(3)],
            "lambda0": QQi(Fraction(0)), "blocks": [[QQi(Fraction(1)), QQi(Fraction(-1))],
                                                    [QQi(Fraction(0), Fraction(1)),
                                                     QQi(Fraction(0), Fraction(-1))]],
            "alpha": [Fraction(0), Fraction(0), Fraction(1)]}
    assert th.judge_block(law, inst).holds is False
    # the same basis spread over both dimensions (2 + 1 functions ≤ R each): recoverable
    inst2 = dict(inst, basis=[[e[0], [Fraction(0)] * 3], [e[1], [Fraction(0)] * 3],
                              [[Fraction(0)] * 3, e[2]]])
    assert th.judge_block(law, inst2).holds is True
    corrected = CLAIMS["O.block.corrected"].statement
    assert "outside" in th.judge_block(corrected, inst).detail  # rank Ω_k < P


def test_block_literal_vtilde_refuted_in_every_arithmetic() -> None:
    r = run("O.block.literal-vtilde", backends=("sympy", "mpmath@128", "flint@128", "numpy"))
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["channel"] == 0 and cx["x_k (statement)"] == "1"
    assert numeric_outcomes(r) == {"mpmath@128": {Outcome.REFUTE}, "flint@128": {Outcome.REFUTE},
                                   "numpy": {Outcome.FAIL}}


@given(block.instances(CLAIMS["O.block.corrected"].statement))
def test_block_corrected_exact_predicate(inst: dict[str, Any]) -> None:
    claim = CLAIMS["O.block.corrected"]
    assert claim.holds(inst, claim.context()).holds is True


@given(block.instances(CLAIMS["O.block.literal-vtilde"].statement))
def test_literal_vtilde_fails_exactly_when_the_geometric_sum_is_not_one(inst: dict[str, Any]
                                                                        ) -> None:
    claim = CLAIMS["O.block.literal-vtilde"]
    lam0, k = inst["lambda0"], inst["k"]
    total, power = QQi(Fraction(0)), QQi(Fraction(1))
    for _ in range(k):  # Σ_{i<k} λ₀^i with exact Gaussian-rational arithmetic
        total = QQi(total.re + power.re, total.im + power.im)
        power = QQi(power.re * lam0.re - power.im * lam0.im, power.re * lam0.im + power.im * lam0.re)
    assert claim.holds(inst, claim.context()).holds is (total == QQi(Fraction(1)))


def test_block_state_lemma_and_the_concentrated_construction() -> None:
    assert th.block_proof(CLAIMS["O.block.corrected"].statement).holds is True
    j = th.judge_block(CLAIMS["O.block"].statement, th.concentrated_instance())
    assert j.holds is False and j.values["rank Omega_k upper bound for all nodes"] == 2


# ---- O.relaxation ---------------------------------------------------------------------------


def test_relaxation_printed_refuted_with_its_counterexample() -> None:
    r = run("O.relaxation", backends=("sympy", "mpmath@128", "flint@128", "numpy"))
    assert r.verdict is Verdict.REFUTED
    cx = r.counterexample
    assert cx is not None and cx["t"] == "1" and cx["T~(t)"] == "0" and cx["T_bar"][0] == "1"
    sym = [e for e in r.evidence if e.backend == "sympy"]
    assert [e.outcome for e in sym] == [Outcome.REFUTE, Outcome.REFUTE]  # eq. 26 and eq. 31
    assert numeric_outcomes(r) == {"mpmath@128": {Outcome.REFUTE}, "flint@128": {Outcome.REFUTE},
                                   "numpy": {Outcome.FAIL}}
    parts = by_backend(r, "mpmath@128")[0].data["parts"]
    # values refuted (ball-certified); the jumps' mpmath excess that stays put as the precision
    # doubles is a labelled heuristic, FAIL (issue 19: flint certifies the jumps)
    assert len(parts) == 4 and "refute" in parts[0]
    assert ": fail" in parts[1] and "heuristic, not certified" in parts[1]


def test_relaxation_corrected_verified_for_every_t_bar() -> None:
    r = run("O.relaxation.corrected")
    assert r.verdict is Verdict.VERIFIED
    sym = next(e for e in r.evidence if e.kind == "symbolic")
    assert "every T̄" in (sym.scope or "")
    assert sym.data["T~(k)"] == "T(k)"


@given(relaxation.instances())
def test_relaxation_corrected_exact_predicate(inst: dict[str, Any]) -> None:
    claim = CLAIMS["O.relaxation.corrected"]
    assert claim.holds(inst, claim.context()).holds is True
    # the interpolant lies between its neighbouring values
    t, v = inst["t"], inst["T_bar"]
    val = rx.CORRECTED.evaluate(v, t)
    f = int(t)
    lo, hi = v[f - 1], v[min(f, len(v) - 1)] if t != f else v[f - 1]
    assert min(lo, hi) <= val <= max(lo, hi)


@given(relaxation.instances())
def test_relaxation_printed_fails_exactly_at_integers_with_a_nonzero_neighbourhood(
        inst: dict[str, Any]) -> None:
    """As printed, T̃(k) = 0 and the one-sided limits at k are T̄(k − 1) and T̄(k + 1): the
    statement fails at t = k iff one of T̄(k − 1), T̄(k), T̄(k + 1) (those inside 1…L) is not 0."""
    claim = CLAIMS["O.relaxation"]
    t, v = inst["t"], inst["T_bar"]
    if t.denominator != 1:
        expected = True
    else:
        k = int(t)
        near = [v[j - 1] for j in (k - 1, k, k + 1) if 1 <= j <= len(v)]
        expected = all(x == 0 for x in near)
    assert claim.holds(inst, claim.context()).holds is expected


def test_relaxation_formulas_exact_values() -> None:
    vals = [Fraction(1), Fraction(2), Fraction(3)]
    swapped = next(c.statement for c in rx.PRINTED.controls() if c.change == "weights swapped")
    assert rx.PRINTED.evaluate(vals, Fraction(2)) == 0
    assert swapped.evaluate(vals, Fraction(2)) == 0
    assert rx.CORRECTED.evaluate(vals, Fraction(2)) == 2
    assert rx.CORRECTED.evaluate(vals, Fraction(5, 2)) == Fraction(5, 2)
    assert rx.CORRECTED.evaluate(vals, Fraction(3)) == 3  # T̄[L + 1] is never needed
    assert rx.PRINTED.one_sided_limits(vals, 2) == (1, 3)
    assert rx.CORRECTED.one_sided_limits(vals, 2) == (2, 2)
    near = next(c.statement for c in rx.CORRECTED.controls() if "near" in c.change)
    assert near.evaluate(vals, Fraction(2)) == 2 * (1 + rx.NEAR)


# ---- O.causal-fill --------------------------------------------------------------------------


def test_causal_fill_checks_steps_with_a_tail() -> None:
    r = run("O.causal-fill", backends=("numpy",), examples=5)
    assert [e.check.split(" at ")[-1] for e in by_backend(r, "numpy")] == ["k = 9", "k = 15"]
    layout = next(c for c in r.controls or () if "time-major" in c.change)
    assert all(e.outcome is Outcome.FAIL for e in by_backend(layout, "numpy"))


@given(causal_fill.instances())
def test_causal_fill_exact_predicate(inst: dict[str, Any]) -> None:
    claim = CLAIMS["O.causal-fill"]
    assert claim.holds(inst, claim.context()).holds is True


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_every_claim_has_both_sides_controls_and_provenance(claim_id: str) -> None:
    c = CLAIMS[claim_id]
    assert c.symbolic is not None and c.numeric is not None
    assert c.strategy is not None and c.holds is not None
    assert c.provenance.quote and c.provenance.paper == "O"
    assert len(c.controls) >= 2 and any("near" in x.change or "longer" in x.change
                                        for x in c.controls)


# ---- low precision: one expected outcome per cell --------------------------------------------
# What each low-precision arithmetic concludes on the default instances. At 12 bits the
# condition-scaled tolerance of the recovery (≈ 0.2 for O.sparse) is wider than the near control's
# 0.4 % deviation, so those checks are INCONCLUSIVE, never a pass; the relaxation's values are
# computed almost exactly, so 12 bits still resolve it. The false claims are refuted by the exact
# search whatever the arithmetic.
LOW_PRECISION = {
    ("O.sparse", "mpmath@12"): "inconclusive",
    ("O.sparse", "mpmath@24"): "pass",
    ("O.sparse", "numpy:float32"): "pass",
    ("O.block", "mpmath@12"): "inconclusive",
    ("O.block", "mpmath@24"): "pass",
    ("O.block", "numpy:float32"): "pass",
    ("O.block.literal-vtilde", "mpmath@12"): "refute",
    ("O.block.literal-vtilde", "mpmath@24"): "refute",
    ("O.block.literal-vtilde", "numpy:float32"): "fail",
    ("O.block.corrected", "mpmath@12"): "inconclusive",
    ("O.block.corrected", "mpmath@24"): "pass",
    ("O.block.corrected", "numpy:float32"): "pass",
    ("O.relaxation", "mpmath@12"): "refute",
    ("O.relaxation", "mpmath@24"): "refute",
    ("O.relaxation", "numpy:float32"): "fail",
    ("O.relaxation.corrected", "mpmath@12"): "pass",
    ("O.relaxation.corrected", "mpmath@24"): "pass",
    ("O.relaxation.corrected", "numpy:float32"): "pass",
    ("O.causal-fill", "mpmath@12"): "inconclusive",
    ("O.causal-fill", "mpmath@24"): "pass",
    ("O.causal-fill", "numpy:float32"): "pass",
}


@pytest.mark.parametrize("backend", ["mpmath@12", "mpmath@24", "numpy:float32"])
@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_low_precision_never_passes_a_false_claim_nor_fails_a_true_one(claim_id: str,
                                                                       backend: str) -> None:
    r = run(claim_id, backends=(backend,), examples=10)
    assert r.verdict is (Verdict.REFUTED if claim_id in FALSE else Verdict.CORROBORATED)
    assert {str(e.outcome) for e in by_backend(r, backend)} == {LOW_PRECISION[(claim_id,
                                                                               backend)]}
