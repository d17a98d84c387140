"""Bracket ends are combined with outward rounding only (issue 19): ``numerics.certified.enclose``
and every site that used round-to-nearest arithmetic on a certified end (κ₂(A)² of O's studies,
‖L⁻¹‖₂ of W's eq. (48), ‖W‖₂ and ‖e^{Wt}‖₂ from λ_max of a Gram matrix, the bounds of W Lemmas
A.8 and A.9 on a κ₂(V) or norm bracket). Each end is compared with the exact value: a rational
(Fractions) or a quadratic irrational decided exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest

from recmem.numerics.certified import KappaBracket, enclose, mpf_to_fraction

q = mpf_to_fraction
BITS = 10  # enclose works at BITS + 64 = 117 bits (less than the 300-bit inputs below)


def _wide_ctx(prec: int = 300) -> Any:
    ctx = mpmath.MPContext()
    ctx.prec = prec
    return ctx


def _nearest_square(x: Any, prec: int) -> Fraction:
    """x² rounded to nearest at ``prec`` bits: what the code did before."""
    ctx = _wide_ctx(prec)
    return q(ctx.mpf(x) * ctx.mpf(x)) if x.context.prec <= prec else q(ctx.mpf(x) ** 2)


def _inputs() -> list[Any]:
    """1 + 1/k at 300 bits: squares that 117 bits cannot hold, rounded to nearest both ways."""
    ctx = _wide_ctx()
    return [1 + ctx.mpf(1) / k for k in (3, 5, 7, 9, 11, 13, 17, 19, 23)]


def test_nearest_rounding_moves_ends_inwards_both_ways_on_these_inputs() -> None:
    """The premise of the tests below: round to nearest gives a square above x² for some of
    these inputs (an inward lower end) and below it for others (an inward upper end)."""
    diffs = [_nearest_square(x, BITS + 64) - q(x) ** 2 for x in _inputs()]
    assert any(d > 0 for d in diffs) and any(d < 0 for d in diffs)


def test_enclose_brackets_products_quotients_and_roots_exactly() -> None:
    for x in _inputs():
        e = q(x)
        lo, hi = enclose(lambda v: v * v, x, bits=BITS)
        assert q(lo) <= e * e <= q(hi) and q(lo) < q(hi)  # not representable: strictly wider
        lo, hi = enclose(lambda v: 1 / v, x, bits=BITS)
        assert q(lo) * e <= 1 <= q(hi) * e
        lo, hi = enclose(lambda v: v.ctx.sqrt(v), x, bits=BITS)
        assert q(lo) ** 2 <= e <= q(hi) ** 2
        lo, hi = enclose(lambda v: v / Fraction(3, 7) + Fraction(1, 3), x, bits=BITS)
        assert q(lo) <= e * Fraction(7, 3) + Fraction(1, 3) <= q(hi)
    lo, hi = enclose(lambda v: v, Fraction(1, 3), bits=BITS)  # a Fraction argument
    assert q(lo) < Fraction(1, 3) < q(hi)
    assert enclose(lambda v: v * 3, Fraction(1, 4), bits=BITS) == (0.75, 0.75)  # exact: a point
    assert enclose(lambda v: v * v, mpmath.inf, bits=BITS) == (mpmath.inf, mpmath.inf)
    assert enclose(lambda v: v, 1, bits=BITS)[0].context.prec == BITS + 64 + 43  # max(bits, 53)


def test_square_bracket_ends_are_outward() -> None:
    """O's κ₂(AᴴA) = κ₂(A)²: a bracket of 300-bit ends squared at 117 bits, and the certified κ₂
    of A = [[1, 1], [0, 1]] (κ₂ = φ², so κ₂² = φ⁴ = (7 + 3√5)/2, decided exactly)."""
    import flint

    from recmem.numerics.certified import kappa2
    from recmem.numerics.studies import square_bracket

    xs = _inputs()
    for a, b in zip(xs[1:], xs[:-1], strict=True):
        sq = square_bracket(KappaBracket(a, b, BITS, True))
        assert q(sq.lo) <= q(a) ** 2 and q(sq.hi) >= q(b) ** 2
    kb = square_bracket(kappa2(lambda bits: flint.acb_mat([[1, 1], [0, 1]])))
    lo, hi = 2 * q(kb.lo) - 7, 2 * q(kb.hi) - 7  # lo ≤ (7 + 3√5)/2 ≤ hi ⇔ these vs 3√5
    assert lo < 0 or lo * lo <= 45
    assert hi > 0 and hi * hi >= 45


def test_inverse_norm_of_the_lyapunov_operator_is_an_upper_bound() -> None:
    """‖L⁻¹‖₂ = ‖K⁻¹‖₂ of W's eq. (48) for a non-normal W: inv²·I − K⁻ᵀK⁻¹ is positive definite,
    decided exactly (leading principal minors over ℚ)."""
    import flint

    from recmem.numerics import lyapunov as ly

    w = [[Fraction(-1), Fraction(3)], [Fraction(0), Fraction(-2, 3)]]
    oc = ly.condition_certified(w)
    assert oc.certified and "ball eigenvalues" in oc.method
    kinv = ly.kronecker_exact(ly.fmpq_matrix(w)).inv()
    g = kinv.transpose() * kinv
    n = g.nrows()
    inv2 = q(oc.inverse_norm) ** 2
    m = flint.fmpq_mat(n, n, [(flint.fmpq(inv2.numerator, inv2.denominator) if i == j else 0)
                              - g[i, j] for i in range(n) for j in range(n)])
    for k in range(1, n + 1):
        minor = flint.fmpq_mat(k, k, [m[i, j] for i in range(k) for j in range(k)])
        assert minor.det() > 0


def _value(lo: Any, hi: Any) -> Any:
    from recmem.checks.claims.paper_w import _lyapunov as lc

    return lc.Value(lo, hi, True, BITS)


def test_certified_values_round_outwards() -> None:
    """Value.exact/scale/square/sqrt of W's Lyapunov checks against their exact values."""
    from recmem.checks.claims.paper_w import _lyapunov as lc

    xs = _inputs()
    for a, b in zip(xs[1:], xs[:-1], strict=True):
        v = _value(a, b)
        s = v.scale(Fraction(5, 3))
        assert q(s.lo) <= q(a) * Fraction(5, 3) and q(s.hi) >= q(b) * Fraction(5, 3)
        s = v.square()
        assert q(s.lo) <= q(a) ** 2 and q(s.hi) >= q(b) ** 2
        s = v.sqrt()
        assert q(s.lo) ** 2 <= q(a) and q(s.hi) ** 2 >= q(b)
        assert s.certified
    e = lc.Value.exact(Fraction(2, 7), BITS)
    assert q(e.lo) < Fraction(2, 7) < q(e.hi)
    assert _value(mpmath.mpf(-1), mpmath.mpf(4)).sqrt().lo == 0  # a ball reaching below 0


def _golden_in(lo: Any, hi: Any) -> bool:
    """lo ≤ φ = (1 + √5)/2 ≤ hi, decided exactly."""
    a, b = 2 * q(lo) - 1, 2 * q(hi) - 1
    return (a < 0 or a * a <= 5) and b > 0 and b * b >= 5


@pytest.mark.parametrize("bits", [53, 128])
def test_matrix_norms_from_gram_eigenvalues_bracket_the_golden_ratio(bits: int) -> None:
    """‖e^{Wt}‖₂ (W.semigroup-bound) and ‖W‖₂ (W.lyapunov-local) from λ_max of a Gram matrix,
    square roots rounded outwards: W = [[0, 1], [0, 0]], t = 1 (e^{W} = [[1, 1], [0, 1]]) and
    W = [[1, 1], [0, 1]], both with norm φ."""
    import flint

    from recmem.checks.claims.paper_w import lyapunov_local as ll
    from recmem.checks.claims.paper_w import semigroup_bound as sg
    from recmem.numerics.backend import BackendSpec, make_backend

    fb = make_backend(BackendSpec("flint", bits=bits))
    v = sg.norm_exp(fb, [[Fraction(0), Fraction(1)], [Fraction(0), Fraction(0)]], Fraction(1),
                    bits)
    assert v.certified and _golden_in(v.lo, v.hi)
    with flint.ctx.workprec(bits):
        p = flint.arb_mat([[1, 0], [0, 1]])
    _, norms, _, _ = ll._ratio_flint(flint.fmpq_mat([[1, 1], [0, 1]]), p,
                                     [[Fraction(1), Fraction(0)]], bits)
    assert norms["W"].certified and _golden_in(norms["W"].lo, norms["W"].hi)


def test_lemma_bounds_on_certified_brackets_are_outward() -> None:
    """L/Υ² of W Lemma A.9's explicit radii and ‖P‖₂'s bound of Lemma A.8 over κ₂(V) brackets:
    each end against the exact formula at the exact (300-bit) end."""
    from recmem.checks.claims.paper_w import lyapunov_bound as lb
    from recmem.checks.claims.paper_w import lyapunov_local as ll
    from recmem.theory.lyapunov import LocalQuartic, NormBound

    xs = _inputs()
    m0, beta0, n = Fraction(3, 2), Fraction(2, 3), 3
    for a, b in zip(xs[1:], xs[:-1], strict=True):
        v = _value(a, b)
        for radius, scale in (("1/(2|W||P|)", Fraction(1, 3)), ("beta0/(n M0 kappa^2)",
                                                                Fraction(5, 7))):
            law = LocalQuartic(radius=radius, scale=scale)
            lim = ll._limit(law, m0, beta0, n, v, {"W": v, "P": v})
            exact = {e: law.limit(m0=m0, beta0=beta0, n=n, kappa=q(x), wnorm=q(x), pnorm=q(x))
                     for e, x in (("lo", a), ("hi", b))}
            assert lim.certified and q(lim.lo) <= exact["lo"] and q(lim.hi) >= exact["hi"]
        nb = NormBound(kappa_power=2, scale=Fraction(5, 3))
        bd = lb._bound_interval(nb, beta0, v)
        assert bd.certified
        assert q(bd.lo) <= nb.bound_value(beta0, q(a)) and q(bd.hi) >= nb.bound_value(beta0, q(b))


def test_oracle_failure_is_an_internal_inconsistency_and_errors_the_claim(monkeypatch: Any
                                                                          ) -> None:
    """One mechanism: an exact P that fails its oracle raises InternalInconsistency (planted: the
    exact solver returns P + 1/1000 in one entry), and the claim that reads it reports ERROR."""

    from recmem.checks.claims.paper_w import _lyapunov as lc
    from recmem.numerics.certified_oracles import InternalInconsistency

    assert issubclass(lc.OracleFailure, InternalInconsistency)
    _plant_exact_slip(monkeypatch)
    with pytest.raises(InternalInconsistency, match="fails its oracle"):
        lc.exact_p([[Fraction(-1), Fraction(1)], [Fraction(0), Fraction(-2)]])


@pytest.mark.parametrize("claim_id", ["W.lyapunov-bound.corrected",
                                      "W.lyapunov-local.explicit.corrected"])
def test_a_slip_in_the_exact_lyapunov_solver_makes_the_claim_an_error(monkeypatch: Any,
                                                                      claim_id: str) -> None:
    """The catch site of OracleFailure (the runner): the same slip planted, the claims whose
    search reads exact_p are ERROR (VERIFIED without it), never a refutation of the paper."""
    from claim_helpers import run


    assert str(run(claim_id, backends=("sympy",), examples=3).verdict) == "VERIFIED"
    _plant_exact_slip(monkeypatch)
    result = run(claim_id, backends=("sympy",), examples=3)
    assert str(result.verdict) == "ERROR"
    search = [e for e in result.evidence if e.check.startswith("counterexample search")]
    assert search and all(str(e.outcome) == "error" and "OracleFailure" in (e.message or "")
                          for e in search)


def _plant_exact_slip(monkeypatch: Any) -> None:
    """The exact Lyapunov solver's P₀₀ off by 1/1000 (its oracle must refuse it)."""
    import flint

    from recmem.numerics import lyapunov as ly

    real = ly.exact

    def slipped(w: Any, qq: Any = None, **kw: Any) -> Any:
        sol = real(w, qq, **kw)
        sol.P[0, 0] += flint.fmpq(1, 1000)
        return sol

    monkeypatch.setattr(ly, "exact", slipped)
