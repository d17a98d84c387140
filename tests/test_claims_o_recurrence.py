"""Claims O.vandermonde-form, O.reconstruct and O.roots-of-unity: verdicts, counterexamples,
tolerance behaviour and exact properties."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from claim_helpers import outcomes, run
from hypothesis import given, settings

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o import roots_of_unity as roots_mod
from recmem.checks.registry import get
from recmem.checks.runner import UsageError, resolve_params
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics import nodes as nd
from recmem.numerics.backend import make_backend
from recmem.numerics.exact import QQi
from recmem.theory import recurrence as threc
from recmem.theory import roots_of_unity as throots
from recmem.theory.reconstruction import exact_reconstruction


def _ctx(claim_id: str) -> Context:
    return Context(get(claim_id).defaults(), seed=0)


def _by_backend(result, backend: str):
    return next(e for e in result.evidence if e.backend == backend)


# ---- O.vandermonde-form ----------------------------------------------------------------------

def test_vandermonde_form_verified() -> None:
    r = run("O.vandermonde-form", N=6, k=9, examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}


@given(get("O.vandermonde-form").strategy(_ctx("O.vandermonde-form")))
def test_vandermonde_form_holds_exactly(inst) -> None:
    assert get("O.vandermonde-form").holds(inst, _ctx("O.vandermonde-form")).holds is True


# ---- O.reconstruct ---------------------------------------------------------------------------

def test_reconstruct_verified_by_default() -> None:
    r = run("O.reconstruct", N=8, examples=10)
    assert r.verdict is Verdict.VERIFIED
    sym = _by_backend(r, "sympy")
    assert "own instance" in sym.scope


def test_reconstruct_float_inconclusive_on_real_nodes() -> None:
    """κ₂(V_40) ≈ 1e21 on real nodes: float64 cannot resolve it, so INCONCLUSIVE, not pass."""
    r = run("O.reconstruct", backends=("numpy",), nodes="real", N=40)
    assert r.verdict is Verdict.INCONCLUSIVE
    ev = r.evidence[0]
    assert ev.outcome is Outcome.INCONCLUSIVE and ev.needed_bits > 53
    assert mpmath.mpf(ev.condition_number.split()[0]) > 1e16


def test_reconstruct_k_is_validated() -> None:
    # k > N is a usage error before anything runs (CLI exit status 2)
    with pytest.raises(UsageError, match="1 ≤ k ≤ N"):
        resolve_params([get("O.reconstruct")], {"N": "5", "k": "6"})
    with pytest.raises(UsageError):
        resolve_params([get("O.reconstruct")], {"k": "-1"})
    # k = 0 is the sentinel for k = N
    r = run("O.reconstruct", backends=("numpy",), N=5, k=0)
    assert "k = 5" in r.evidence[0].check


def test_reconstruct_k_less_than_n() -> None:
    r = run("O.reconstruct", N=8, k=5, examples=5)
    assert r.verdict is Verdict.VERIFIED


@given(get("O.reconstruct").strategy(_ctx("O.reconstruct")))
@settings(max_examples=20)
def test_reconstruct_holds_exactly_on_distinct_nodes(inst) -> None:
    assert len(set(inst["nodes"])) == len(inst["nodes"]) >= len(inst["u"])
    assert get("O.reconstruct").holds(inst, _ctx("O.reconstruct")).holds is True


def test_reconstruct_needs_distinct_nodes() -> None:
    half = QQi(Fraction(1, 2))
    ok, info = exact_reconstruction([half, half], [QQi(Fraction(1)), QQi(Fraction(0))])
    assert not ok and info["full column rank"] is False


# ---- O.roots-of-unity ------------------------------------------------------------------------

def test_roots_of_unity_verified() -> None:
    r = run("O.roots-of-unity", backends=("sympy", "mpmath@128", "flint@128", "numpy",
                                          "numpy:float32"), examples=10)
    assert r.verdict is Verdict.VERIFIED
    assert set(outcomes(r).values()) == {"pass"}
    assert "k > N" in _by_backend(r, "sympy").scope
    assert "contains 1: True" in _by_backend(r, "flint@128").enclosure


def test_roots_gram_exact_and_k_beyond_n() -> None:
    assert throots.gram_is_scaled_identity(7, 7)[0]
    assert throots.gram_is_scaled_identity(12, 5)[0]
    # k > N: columns repeat and the Gram matrix is not N·I (κ = ∞ there)
    assert not throots.gram_is_scaled_identity(5, 6)[0]
    assert throots.columns_repeat(5, 6)


def test_roots_numeric_detects_nodes_that_are_not_roots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The κ check can fail: perturb one node off the unit-root grid."""
    def fake_roots(n: int) -> nd.Nodes:
        turns = tuple(Fraction(j, n) + (Fraction(1, 64 * n) if j == 1 else 0) for j in range(n))
        return nd.Nodes("roots", turns=turns, description="perturbed roots")

    monkeypatch.setattr(roots_mod.nd, "roots", fake_roots)
    ctx = Context({"N": 8, "k": 0, "n_max_symbolic": 4})
    for spec, expected in (("flint@128", Outcome.REFUTE), ("numpy", Outcome.FAIL),
                           ("mpmath@128", Outcome.REFUTE)):
        b = make_backend(spec)
        with b.activate():
            ev = roots_mod.numeric(b, ctx)[0]
        assert ev.outcome is expected, (spec, ev)


@given(get("O.roots-of-unity").strategy(_ctx("O.roots-of-unity")))
def test_roots_holds_exactly(inst) -> None:
    assert get("O.roots-of-unity").holds(inst, _ctx("O.roots-of-unity")).holds is True
