"""Paper W's Lyapunov claims (ICLR camera-ready App. A.8–A.10): W.lyapunov (eqs. 48–49) and its
reading .any-q; Lemma A.8 (W.lyapunov-bound, refuted) with .corrected, .weak and the sequence
reading .uniform; Lemma A.9 (W.lyapunov-local, refuted as printed: one Υ for every m) with .weak,
.explicit, .explicit.corrected and the proof's (92)–(98) finding .eq92 (+ .corrected); the proof
step (36)–(38) (W.semigroup-bound, refuted) with its correction.

Each family has one statement in theory.lyapunov, read by every side; the tests assert the one
expected verdict, that every control is told apart, that the symbolic side refutes every control,
exact property tests, and one expected outcome per low-precision cell.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from claim_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from recmem.checks.claims.paper_w import _lyapunov as lc
from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics import lyapunov as ly
from recmem.theory import lyapunov as th

F = Fraction
SEARCH = "exact (Hypothesis search)"

EXPECTED = {
    "W.lyapunov": Verdict.VERIFIED,
    "W.lyapunov.any-q": Verdict.REFUTED,
    "W.lyapunov-bound": Verdict.REFUTED,
    "W.lyapunov-bound.corrected": Verdict.VERIFIED,
    "W.lyapunov-bound.weak": Verdict.VERIFIED,
    "W.lyapunov-bound.uniform": Verdict.REFUTED,
    "W.lyapunov-local": Verdict.REFUTED,
    "W.lyapunov-local.weak": Verdict.VERIFIED,
    "W.lyapunov-local.explicit": Verdict.REFUTED,
    "W.lyapunov-local.explicit.corrected": Verdict.VERIFIED,
    "W.lyapunov-local.eq92": Verdict.REFUTED,
    "W.lyapunov-local.eq92.corrected": Verdict.VERIFIED,
    "W.semigroup-bound": Verdict.REFUTED,
    "W.semigroup-bound.corrected": Verdict.VERIFIED,
}
PROOFS = {th.LyapunovIntegral: th.integral_proof, th.NormBound: th.norm_bound_proof,
          th.LocalQuartic: th.local_proof, th.DiagCubeBound: th.cube_proof,
          th.SemigroupBound: th.semigroup_proof}


def _proof(statement):
    return PROOFS[type(statement)](statement)


# ---- verdicts in the default run ------------------------------------------------------------------

@pytest.mark.parametrize("claim_id", list(EXPECTED))
def test_verdict_and_every_control_told_apart(claim_id) -> None:
    r = run(claim_id)
    assert r.verdict is EXPECTED[claim_id], [(e.backend, e.check, e.outcome, e.message)
                                             for e in r.evidence]
    assert r.controls is not None and len(r.controls) >= 2
    assert all(c.verdict is Verdict.REFUTED for c in r.controls), [
        (c.change, c.verdict) for c in r.controls]
    if EXPECTED[claim_id] is Verdict.REFUTED:
        assert r.counterexample is not None and r.counterexample["certified_by"]


def test_the_integral_is_computed_and_passes_in_every_arithmetic() -> None:
    r = run("W.lyapunov", backends=("mpmath@128", "flint@128", "numpy"))
    assert r.verdict is Verdict.CORROBORATED
    numeric = [e for e in r.evidence if e.kind == "numeric"]
    assert {e.backend for e in numeric} == {"mpmath@128", "flint@128", "numpy"}
    assert all(e.outcome is Outcome.PASS for e in numeric)
    assert all("Gauss–Legendre" in e.message for e in numeric)  # the integral, not a solver
    flint_ev = next(e for e in numeric if e.backend == "flint@128")
    assert "∋ 0: True" in flint_ev.enclosure


def test_integral_reading_any_q_refuted_in_every_arithmetic() -> None:
    r = run("W.lyapunov.any-q", backends=("sympy", "mpmath@128", "flint@128", "numpy"))
    out = {e.backend: e.outcome for e in r.evidence}
    assert out["sympy"] is Outcome.REFUTE and out[SEARCH] is Outcome.REFUTE
    assert out["mpmath@128"] is Outcome.REFUTE and out["flint@128"] is Outcome.REFUTE
    assert out["numpy"] is Outcome.FAIL  # floats cannot certify


def test_lemma_a8_refuted_with_the_jordan_block() -> None:
    r = run("W.lyapunov-bound")
    sym = next(e for e in r.evidence if e.kind == "symbolic")
    assert sym.outcome is Outcome.REFUTE
    assert sym.counterexample["W"] == "[[-1, 1], [0, -1]]"
    assert sym.counterexample["lambda_max(P)"] == "sqrt(5)/8 + 5/8"  # > 1/(2β₀) = 1/2
    search = next(e for e in r.evidence if e.backend == SEARCH)
    assert search.outcome is Outcome.REFUTE and search.counterexample["W"].count("[") == 3


def test_semigroup_bound_refuted_by_the_audit_example_exactly() -> None:
    """A.8 eq. (38): W = [[−2, 10], [0, −2]], β₀ = 1, t = 1/10 gives ‖e^{Wt}‖₂ = e^{−1/5}(1+√5)/2."""
    import sympy as sp

    proof = th.semigroup_proof(th.SemigroupBound())
    assert proof.holds is False
    cx = proof.counterexample
    assert cx["W"] == "[[-2, 10], [0, -2]]" and cx["t"] == "1/10"
    w = sp.Matrix([[-2, 10], [0, -2]])
    e = (w / 10).exp()
    assert sp.simplify(e - sp.exp(sp.Rational(-1, 5)) * sp.Matrix([[1, 1], [0, 1]])) == sp.zeros(2, 2)
    norm = sp.exp(sp.Rational(-1, 5)) * (1 + sp.sqrt(5)) / 2
    assert sp.simplify(sp.expand(max((e.T * e).eigenvals(), key=sp.N) - norm ** 2)) == 0
    # certified in ball arithmetic: the enclosures of ‖e^{Wt}‖₂ and e^{−t} are disjoint
    import flint

    with flint.ctx.workprec(64):
        lo = flint.arb(-1) / 5
        gap = lo.exp() * (1 + flint.arb(5).sqrt()) / 2 - (flint.arb(-1) / 10).exp()
        assert gap > 0


def test_superdiagonal_sequence_breaks_uniform_boundedness_exactly() -> None:
    """W_m = −I_m + 2N_m: every eigenvalue −1, entries ≤ 2, yet (P_m)_mm = ½Σ_{k<m} C(2k, k)."""
    for m in range(2, 8):
        p = ly.fractions(ly.exact(th.superdiagonal(m)).P)
        assert p[m - 1][m - 1] == th.superdiagonal_corner(m)
        assert p[m - 1][m - 1] >= F(m, 2)
    assert [th.superdiagonal_corner(m) for m in range(2, 7)] == [F(3, 2), F(9, 2), F(29, 2),
                                                                   F(99, 2), F(351, 2)]
    proof = th.superdiagonal_disproof("local")
    assert proof.holds is False and "every m" in proof.scope
    assert proof.counterexample["Υ = 1"].startswith("m = 2, v = Υe_2: q(v) = -3")


def test_eq92_counterexample_shows_the_printed_expansion() -> None:
    proof = th.cube_proof(th.DiagCubeBound())
    cx = proof.counterexample
    assert proof.holds is False
    assert cx["|Diag(v)^2 W v|^2"] == "145/64" and cx["bound^2"] == "125/64"
    assert cx["its squared norm"] == "109/64"  # (92)'s right side: another vector


def test_claims_registered_with_their_edges_and_readings() -> None:
    assert get("W.lyapunov-bound.corrected").corrects == "W.lyapunov-bound"
    assert get("W.lyapunov-bound.weak").corrects == "W.lyapunov-bound"
    assert get("W.lyapunov-local.weak").corrects == "W.lyapunov-local"
    assert get("W.lyapunov-local.explicit.corrected").corrects == "W.lyapunov-local.explicit"
    assert get("W.lyapunov-local.eq92.corrected").corrects == "W.lyapunov-local.eq92"
    assert get("W.semigroup-bound.corrected").corrects == "W.semigroup-bound"
    # a reading names what its statement says (the corrected radius is not the printed one)
    corrected = get("W.lyapunov-local.explicit.corrected")
    assert "m M₀ κ₂(V_m)²" in corrected.reading and "n M₀ κ₂(V)²" in corrected.text
    assert "for any m" in get("W.lyapunov-local").text and "Hurwitz" in get("W.lyapunov-local").text
    for cid in EXPECTED:
        claim = get(cid)
        assert claim.provenance.paper == "W" and "(" in claim.provenance.location
        assert "\\tag" in claim.provenance.quote  # quoted with its formulas


# ---- the symbolic side reads the statement ----------------------------------------------------

@pytest.mark.parametrize("claim_id", list(EXPECTED))
def test_symbolic_side_decides_the_statement_and_refutes_every_control(claim_id) -> None:
    claim = get(claim_id)
    expected = EXPECTED[claim_id] is Verdict.VERIFIED
    assert _proof(claim.statement).holds is expected
    for control in claim.controls:
        p = _proof(control.statement)
        assert p.holds is False, control.change
        assert p.counterexample, control.change


def test_controls_are_built_from_the_statement() -> None:
    law = th.LyapunovIntegral()
    changes = {c.change: c.statement for c in law.controls()}
    assert changes["Wᵀ and W swapped in the integrand"] == replace(law, transpose_left=False)
    assert changes["P ≻ 0 replaced by P ≺ 0"] == replace(law, definite=-1)
    corrected = th.NormBound(family="normal")
    assert th.NormBound(family="diagonalizable") in [c.statement for c in corrected.controls()]
    assert th.SemigroupBound(strict=False) in [c.statement for c in
                                               th.SemigroupBound(abscissa="numerical",
                                                                 strict=False).controls()]
    for law_ in (law, corrected, th.LocalQuartic(radius="beta0/M0"), th.DiagCubeBound(),
                 th.SemigroupBound()):
        assert all(c.statement.text != law_.text for c in law_.controls())


# ---- exact property tests ---------------------------------------------------------------------

def _holds(claim_id, inst):
    claim = get(claim_id)
    return claim.holds(inst, claim.context())


@settings(max_examples=15)
@given(get("W.lyapunov").strategy(get("W.lyapunov").context()))
def test_the_integral_solves_the_equation_and_is_positive_exactly(inst) -> None:
    r = _holds("W.lyapunov", inst)
    assert r.holds is True
    if inst.alpha < 0:  # the exact integral equals the exact solution of the equation
        p = ly.exact(inst.W, inst.extra["Q"]).P
        assert r.values["P (integral)"] == lc._fmt(ly.fractions(p))


@settings(max_examples=15)
@given(get("W.lyapunov").strategy(get("W.lyapunov").context()))
def test_the_integral_diverges_exactly_outside_the_hurwitz_matrices(inst) -> None:
    law = replace(get("W.lyapunov").statement, abscissa_below=F(5))
    claim = get("W.lyapunov")
    r = claim.holds(inst, replace(claim.context(), statement=law))
    assert r.holds is (inst.alpha < 0)


def _spectrum_of_quasi_triangular(t):
    """(Π of the diagonal blocks' characteristic polynomials, exact max Re λ) of a real
    quasi-upper-triangular T: a nonzero subdiagonal entry opens a 2×2 block, which must hold a
    complex pair (discriminant < 0), so its eigenvalues' real part is half its trace, exactly."""
    import flint

    def q(x):
        return flint.fmpq(x.numerator, x.denominator)

    z = flint.fmpq_poly([0, 1])
    poly, reals, i, n = flint.fmpq_poly([1]), [], 0, len(t)
    while i < n:
        if i + 1 < n and t[i + 1][i] != 0:
            p, q_, r, s = t[i][i], t[i][i + 1], t[i + 1][i], t[i + 1][i + 1]
            assert (p - s) ** 2 + 4 * q_ * r < 0  # a complex pair, not two real eigenvalues
            poly *= z * z - q(p + s) * z + q(p * s - q_ * r)
            reals.append((p + s) / 2)
            i += 2
        else:
            assert all(t[k][i] == 0 for k in range(i + 1, n))  # quasi-triangular
            poly *= z - q(t[i][i])
            reals.append(t[i][i])
            i += 1
    return poly, max(reals)


@settings(max_examples=20)
@pytest.mark.parametrize("family", ["all", "normal", "diagonalizable"])
@given(data=st.data())
def test_strategy_draws_hurwitz_matrices_with_exact_abscissa(family, data) -> None:
    """The α(W) drawn with W is its spectral abscissa, decided exactly: det(zI − W) equals the product
    of T's diagonal blocks' characteristic polynomials (over ℚ[z]) and α is the largest real part
    among those blocks; 0 < β₀ ≤ −α on Hurwitz draws and P ≻ 0 exactly.

    Exact on purpose: a float eigensolver cannot check α to a fixed tolerance. A defective
    eigenvalue of multiplicity m moves like (‖W‖·u)^(1/m) (W = [[−74/25, 18/25], [−32/25, −26/25]]
    has the double eigenvalue −2; float64 gives −1.99999997893, outside 1e-9)."""
    inst = data.draw(lc.hurwitz_instances(1, 4, family, shift_up_to=F(2)))
    w = ly.fmpq_matrix(inst.W)
    poly, alpha = _spectrum_of_quasi_triangular(inst.quasi)
    assert w.charpoly() == poly
    assert alpha == inst.alpha
    s = ly.fmpq_matrix(inst.similarity)
    assert s * ly.fmpq_matrix(inst.quasi) * s.inv() == w  # the similarity the strategy records
    if family != "diagonalizable":
        assert s * s.transpose() == ly.identity(inst.n)  # orthogonal (Cayley)
    if inst.alpha < 0:
        assert 0 < inst.beta0 <= -inst.alpha
        assert lc.charpoly_pd(ly.exact(inst.W).P)
    else:
        assert inst.beta0 == 0


def test_the_defective_draw_of_issue_8_has_its_abscissa_exactly() -> None:
    """The draw that made a float64 comparison at 1e-9 fail: its only eigenvalue −2 is double and
    defective (W + 2I ≠ 0 is nilpotent), decided over ℚ."""
    w = ly.fmpq_matrix([[F(-74, 25), F(18, 25)], [F(-32, 25), F(-26, 25)]])
    n = w + ly.identity(2) * 2
    assert n != ly.fmpq_matrix([[0, 0], [0, 0]]) and n * n == ly.fmpq_matrix([[0, 0], [0, 0]])
    poly, alpha = _spectrum_of_quasi_triangular([[F(-2), F(1)], [F(0), F(-2)]])
    assert w.charpoly() == poly and alpha == -2


@settings(max_examples=15)
@given(lc.hurwitz_instances(1, 3, "normal"))
def test_printed_lemma_a8_holds_for_every_normal_w(inst) -> None:
    assert _holds("W.lyapunov-bound", inst).holds is True
    assert _holds("W.lyapunov-bound.corrected", inst).holds is True


@settings(max_examples=10)
@given(get("W.lyapunov-bound.weak").strategy(get("W.lyapunov-bound.weak").context()))
def test_weak_bound_never_fails(inst) -> None:
    assert _holds("W.lyapunov-bound.weak", inst).holds is not False


@settings(max_examples=10)
@given(get("W.lyapunov-local.weak").strategy(get("W.lyapunov-local.weak").context()))
def test_local_witness_radius_never_fails(inst) -> None:
    assert _holds("W.lyapunov-local.weak", inst).holds is not False


@settings(max_examples=20)
@given(get("W.lyapunov-local.eq92.corrected").strategy(get("W.lyapunov-local.eq92.corrected")
                                                       .context()))
def test_cube_bound_with_sqrt_m_holds_and_printed_fails_only_above_it(inst) -> None:
    assert _holds("W.lyapunov-local.eq92.corrected", inst).holds is True
    r = _holds("W.lyapunov-local.eq92", inst)
    m = len(inst["v"])
    if r.holds is False:  # the printed bound fails only where the ratio exceeds 1, below √m
        assert m >= 2 and F(r.values["|Diag(v)^2 W v|^2"]) <= m * F(r.values["bound^2"])


@settings(max_examples=10)
@given(get("W.semigroup-bound.corrected").strategy(get("W.semigroup-bound.corrected").context()))
def test_semigroup_bound_holds_with_the_numerical_abscissa(inst) -> None:
    assert _holds("W.semigroup-bound.corrected", inst).holds is not False


def test_exact_integral_matches_the_exact_solution_for_defective_and_complex_w() -> None:
    law = th.LyapunovIntegral()
    eye3 = [[F(int(i == j)) for j in range(3)] for i in range(3)]
    q = [[F(2), F(1), F(0)], [F(1), F(2), F(0)], [F(0), F(0), F(1)]]
    for quasi in ([[F(-1), F(2), F(3)], [F(-1, 2), F(-1), F(1)], [F(0), F(0), F(-2)]],
                  [[F(-1), F(1), F(2)], [F(0), F(-1), F(1)], [F(0), F(0), F(-1)]]):
        p = th.exact_integral(law, eye3, quasi, q)
        assert p == ly.fractions(ly.exact(quasi, q).P)
    with pytest.raises(th.Divergent):
        th.exact_integral(law, eye3[:2], [[F(0), F(1)], [F(0), F(-1)]], eye3)


# ---- low precision: one expected outcome per cell -----------------------------------------------

LOW_PRECISION = {
    ("W.lyapunov", "mpmath@12"): ("CORROBORATED", ("inconclusive",)),
    ("W.lyapunov", "mpmath@24"): ("CORROBORATED", ("pass",)),
    ("W.lyapunov", "numpy:float32"): ("CORROBORATED", ("pass",)),
    ("W.lyapunov.any-q", "mpmath@12"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov.any-q", "mpmath@24"): ("REFUTED", ("refute",)),
    ("W.lyapunov.any-q", "numpy:float32"): ("REFUTED", ("fail",)),
    ("W.lyapunov-bound", "mpmath@12"): ("REFUTED", ("refute", "inconclusive", "refute")),
    ("W.lyapunov-bound", "mpmath@24"): ("REFUTED", ("refute", "pass", "refute")),
    ("W.lyapunov-bound", "numpy:float32"): ("REFUTED", ("fail", "pass", "fail")),
    ("W.lyapunov-bound.corrected", "mpmath@12"): ("CORROBORATED", ("inconclusive", "inconclusive")),
    ("W.lyapunov-bound.corrected", "mpmath@24"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-bound.corrected", "numpy:float32"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-bound.weak", "mpmath@12"): ("CORROBORATED", ("inconclusive", "inconclusive")),
    ("W.lyapunov-bound.weak", "mpmath@24"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-bound.weak", "numpy:float32"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-local.weak", "mpmath@12"): ("CORROBORATED", ("inconclusive", "pass")),
    ("W.lyapunov-local.weak", "mpmath@24"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-local.weak", "numpy:float32"): ("CORROBORATED", ("pass", "pass")),
    ("W.lyapunov-local.explicit", "mpmath@12"): ("REFUTED", ("inconclusive", "pass", "refute")),
    ("W.lyapunov-local.explicit", "mpmath@24"): ("REFUTED", ("pass", "pass", "refute")),
    ("W.lyapunov-local.explicit", "numpy:float32"): ("FAILED", ("pass", "pass", "fail")),
    ("W.lyapunov-local.explicit.corrected", "mpmath@12"): ("CORROBORATED", ("pass", "pass",
                                                                     "inconclusive")),
    ("W.lyapunov-local.explicit.corrected", "mpmath@24"): ("CORROBORATED", ("pass", "pass", "pass")),
    ("W.lyapunov-local.explicit.corrected", "numpy:float32"): ("CORROBORATED",
                                                               ("pass", "pass", "pass")),
    ("W.lyapunov-local.eq92", "mpmath@12"): ("REFUTED", ("pass", "refute", "pass")),
    ("W.lyapunov-local.eq92", "mpmath@24"): ("REFUTED", ("pass", "refute", "pass")),
    ("W.lyapunov-local.eq92", "numpy:float32"): ("FAILED", ("pass", "fail", "pass")),
    ("W.lyapunov-local.eq92.corrected", "mpmath@12"): ("CORROBORATED", ("pass", "pass", "pass")),
    ("W.lyapunov-local.eq92.corrected", "mpmath@24"): ("CORROBORATED", ("pass", "pass", "pass")),
    ("W.lyapunov-local.eq92.corrected", "numpy:float32"): ("CORROBORATED", ("pass", "pass", "pass")),
    ("W.semigroup-bound", "mpmath@12"): ("REFUTED", ("refute", "pass", "refute")),
    ("W.semigroup-bound", "mpmath@24"): ("REFUTED", ("refute", "pass", "refute")),
    ("W.semigroup-bound", "numpy:float32"): ("REFUTED", ("fail", "pass", "fail")),
    ("W.semigroup-bound.corrected", "mpmath@12"): ("CORROBORATED", ("inconclusive", "pass")),
    ("W.semigroup-bound.corrected", "mpmath@24"): ("CORROBORATED", ("pass", "pass")),
    ("W.semigroup-bound.corrected", "numpy:float32"): ("CORROBORATED", ("pass", "pass")),
    # the sequence claims: only the symbolic side can refute them; a numeric side confirms the
    # witness (inconclusive), or cannot resolve it (mpmath@12); the control "(87) dropped" is told
    # apart by the symbolic side only, so without it the verdict is INCONCLUSIVE
    ("W.lyapunov-bound.uniform", "mpmath@12"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov-bound.uniform", "mpmath@24"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov-bound.uniform", "numpy:float32"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov-local", "mpmath@12"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov-local", "mpmath@24"): ("REFUTED", ("inconclusive",)),
    ("W.lyapunov-local", "numpy:float32"): ("REFUTED", ("inconclusive",)),
}


@pytest.mark.parametrize(("claim_id", "backend"), list(LOW_PRECISION))
def test_low_precision_never_passes_a_false_claim_nor_fails_a_true_one(claim_id, backend) -> None:
    r = run(claim_id, backends=(backend,), examples=10)
    verdict, outcomes = LOW_PRECISION[(claim_id, backend)]
    assert str(r.verdict) == verdict
    assert tuple(str(e.outcome) for e in r.evidence if e.backend == backend) == outcomes
    if EXPECTED[claim_id] is Verdict.VERIFIED:
        assert r.verdict not in (Verdict.FAILED, Verdict.REFUTED)
    else:
        assert not r.verdict.ok
    # every float32 evidence ran in float32: its tolerance uses u = 2^-24
    for e in r.evidence:
        if e.backend == "numpy:float32" and e.tolerance_source and "u=" in e.tolerance_source:
            assert "2^-24" in e.tolerance_source


# ---- the sequence claims: the witness W_m = −I_m + 2N_m in every arithmetic ---------------------

SEQUENCE_CLAIMS = ["W.lyapunov-bound.uniform", "W.lyapunov-local"]


@pytest.mark.parametrize("claim_id", SEQUENCE_CLAIMS)
def test_sequence_claims_confirm_the_witness_in_every_arithmetic(claim_id) -> None:
    """A finite computation cannot refute a statement about every m: each arithmetic confirms the
    symbolic side's witness (from the integral, not a solver) and stays inconclusive; the exact
    search over finitely described sequences (Toeplitz tails, theory/lyapunov_sequences.py)
    refutes without the symbolic side."""
    backends = ("mpmath@128", "flint@128", "numpy", "numpy:float32", "torch:cpu")
    r = run(claim_id, backends=backends, examples=10)
    assert r.verdict is Verdict.REFUTED
    assert any(e.kind == "search" and e.outcome is Outcome.REFUTE for e in r.evidence)
    numeric = [e for e in r.evidence if e.kind == "numeric"]
    assert {e.backend for e in numeric} == set(backends)
    for e in numeric:
        assert e.outcome is Outcome.INCONCLUSIVE, (e.backend, e.message)
        assert "confirmed to m = 6" in e.message, (e.backend, e.message)
        assert "Gauss–Legendre" in e.data["integral (m = 6)"]  # the integral (78), not a solver
        assert float(e.residual) <= float(e.tolerance)
    flint_ev = next(e for e in numeric if e.backend == "flint@128")
    assert flint_ev.tolerance_source.startswith("ball arithmetic") and flint_ev.enclosure
    f32 = next(e for e in numeric if e.backend == "numpy:float32")
    assert f32.precision_bits == 24 and "u=2^-24" in f32.tolerance_source


@pytest.mark.parametrize("claim_id", SEQUENCE_CLAIMS)
def test_sequence_numeric_side_fails_when_the_derived_witness_is_wrong(claim_id, monkeypatch) -> None:
    """A wrong closed form (planted: (P_m)_mm one larger) is contradicted by every arithmetic."""
    right = th.superdiagonal_corner
    monkeypatch.setattr(th, "superdiagonal_corner", lambda m: right(m) + 1)
    r = run(claim_id, backends=("flint@128", "numpy", "numpy:float32"), examples=10)
    numeric = [e for e in r.evidence if e.kind == "numeric"]
    assert [e.outcome for e in numeric] == [Outcome.FAIL] * 3, [e.message for e in numeric]
    assert all("contradicts the derived witness" in e.message for e in numeric)


@pytest.mark.parametrize("claim_id", SEQUENCE_CLAIMS)
def test_sequence_numeric_side_refutes_the_explicit_control(claim_id) -> None:
    """The near controls with a bound or radius (the printed 1/(2β₀), the explicit √(β₀L/M₀)) are
    false at one m: the witness refutes them in ball arithmetic and in mpmath."""
    claim = get(claim_id)
    control = claim.controls[0].statement
    for spec in ("flint@128", "mpmath@128"):
        r = _numeric_on(claim_id, control, spec)
        assert [str(e.outcome) for e in r] == ["inconclusive", "refute"], [e.message for e in r]
        assert r[1].counterexample and r[1].certified_by


def _numeric_on(claim_id, statement, spec):
    """The claim's numeric side on ``statement`` (a control) in one arithmetic."""
    from recmem.numerics.backend import make_backend, parse_spec

    claim = get(claim_id)
    ctx = replace(claim.context(), statement=statement)
    backend = make_backend(parse_spec(spec))
    with backend.activate():
        return claim.numeric(backend, ctx)


def test_superdiagonal_points_are_the_symbolic_sides() -> None:
    """The witness points of Lemma A.9's disproof, from one function (theory.lyapunov)."""
    pts = [th.superdiagonal_point(u) for u in th.SUPERDIAGONAL_UPSILONS]
    assert None not in pts
    assert [(m, q) for m, _, q in pts] == [(2, F(-3)), (3, F(-9, 16)), (4, F(-29, 256))]
    for u, (m, v, q) in zip(th.SUPERDIAGONAL_UPSILONS, pts, strict=True):
        assert v[-1] == u and not any(v[:-1])
        assert q == -2 * u ** 4 * th.superdiagonal_corner(m)  # q_m(Υe_m) = 2Υ⁴(P_m)_mm(W_m)_mm
        assert th.LocalQuartic.excess(q, u * u, 1) > 0  # L = 1  # (89) fails at v = Υe_m
        if m > 2:  # … and m is the first size where it fails
            assert th.LocalQuartic.excess(-2 * u ** 4 * th.superdiagonal_corner(m - 1), u * u, 1) <= 0


def test_superdiagonal_corner_closed_form_is_the_central_binomial_sum() -> None:
    assert th.superdiagonal_corner(10) == F(sum(math.comb(2 * k, k) for k in range(10)), 2)
