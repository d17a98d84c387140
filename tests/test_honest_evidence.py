"""Issue 19, part 3 ("honest evidence"): a failed internal sanity check of recmem is ERROR, never a
refutation of the paper; descriptive tables and checks true by construction do not decide a
verdict; near controls show how finely a check separates.

Every test plants the slip that the audit found and fails on the old behaviour: a sampler that puts
points outside their β-ball made W.perturbation REFUTED (its membership check, and the certified
judge evaluating the stray points) and went unseen in W.stable-exp and W.theorem; a non-monotone
estimate made W.perturbation FAILED; the descriptive tables of W.stable-exp and W.theorem were a
fixed PASS.
"""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from claim_helpers import run

from recmem.checks import verdict
from recmem.checks.claims.paper_o import _studies
from recmem.checks.claims.paper_w import _stability
from recmem.checks.claims.paper_w import perturbation as wp
from recmem.checks.registry import get
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics import perturbation as pt
from recmem.numerics.backend import make_backend, parse_spec
from recmem.numerics.certified_oracles import InternalInconsistency

INTERNAL = "internal inconsistency"


def _ctx(claim_id: str, **params: str) -> Any:
    """The context of ``claim_id``'s own statement with parameters given as on the command line."""
    from recmem.checks.runner import resolve_params

    claim = get(claim_id)
    return claim.context(resolve_params([claim], params)[claim.id])


@pytest.fixture
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose statement-independent study data are computed afresh (not shared with another
    test's run of the same parameters)."""
    monkeypatch.setattr(_studies, "_SHARED", OrderedDict())


@pytest.fixture
def stray_sampler(monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """The planted slip: the sampler's unit ball has radius 3/2, so most points leave their
    β-ball (the other routines are untouched)."""
    real = pt.unit_ball

    def stray(rng: np.random.Generator, n: int, dim: int, ball: str = "2") -> np.ndarray:
        return 1.5 * real(rng, n, dim, ball)

    monkeypatch.setattr(pt, "unit_ball", stray)


def _not_about_the_paper(result: Any) -> None:
    """The verdict is ERROR and no check refuted or failed the statement; the ERROR evidence says
    what went wrong inside recmem."""
    assert result.verdict is Verdict.ERROR, [(e.check, e.outcome, e.message[:100])
                                             for e in result.evidence]
    assert not [e for e in result.evidence if e.outcome in (Outcome.REFUTE, Outcome.FAIL)]
    errors = [e for e in result.evidence if e.outcome is Outcome.ERROR]
    assert errors and all(INTERNAL in e.message for e in errors), [e.message for e in errors]


# ---- (a) internal sanity checks are ERROR -----------------------------------------------------------
def test_the_estimator_refuses_points_outside_their_ball(stray_sampler: None) -> None:
    case = _stability.ScalarCase(pt.ExponentialKernel(Fraction(9, 10)), Fraction(-1, 8), Fraction(1),
                                 Fraction(3, 4), 8, "memory")
    ev = pt.linear_evaluator(case.theta, case.target, case.grid, "memory")
    with pytest.raises(InternalInconsistency, match=INTERNAL):
        pt.estimate(ev, 1, (Fraction(0), Fraction(1, 8)), 4, 0, blocks=("W", "U", "c"))
    # without certification (float studies that do their own check) the points come back
    est = pt.estimate(ev, 1, (Fraction(0), Fraction(1, 8)), 4, 0, blocks=("W", "U", "c"),
                      certify=False)
    assert not pt.certify_in_ball(est.points).all()


def test_perturbation_sampler_slip_is_error_not_refuted(stray_sampler: None) -> None:
    """Before: the membership check said REFUTE ("certified") and the flint judge certified the
    stray points' errors above the closed form: W.perturbation REFUTED by a bug of recmem."""
    r = run("W.perturbation", ("sympy", "flint@128", "numpy"), examples=3, T=8, samples=4)
    _not_about_the_paper(r)
    assert {e.backend for e in r.evidence if e.outcome is Outcome.ERROR} >= {
        "flint@128", "numpy", "exact (Hypothesis search)"}


def test_perturbation_membership_evidence_is_error_when_a_point_is_outside(
        monkeypatch: pytest.MonkeyPatch, fresh_memo: None) -> None:
    """The flint side's own membership evidence (a second guard behind the estimator's): a planted
    exact check that finds a point outside gives ERROR with the internal inconsistency, not the
    certified REFUTE it gave before."""
    def one_outside(pert: pt.Perturbations, ball: str = "2") -> np.ndarray:
        ok = np.ones(pert.n, dtype=bool)
        ok[-1] = False
        return ok

    monkeypatch.setattr(wp, "certify_in_ball", one_outside)
    ctx = _ctx("W.perturbation", T="8", samples="4")
    ev = wp._flint(make_backend(parse_spec("flint@128")), ctx)
    (ball,) = [e for e in ev if "β-ball" in e.check]
    assert ball.outcome is Outcome.ERROR and ball.message.startswith(INTERNAL)
    assert ball.certified_by is None


def test_perturbation_nested_max_slip_is_error_not_failed(monkeypatch: pytest.MonkeyPatch,
                                                          fresh_memo: None) -> None:
    """The old check "non-decreasing in β" read the running max that the estimator builds, true by
    construction; now the running max is recomputed from the estimator's own points, and a planted
    estimator whose values are not that max is ERROR (before: FAIL, the claim FAILED)."""
    real = wp.estimate

    def slipped(*args: Any, **kw: Any) -> pt.Estimate:
        est = real(*args, **kw)
        if args[1] == 1:  # the 1-unit case: its largest-β value drops below the smaller balls'
            est.values[-1] = est.values[0] / 2
        return est

    monkeypatch.setattr(wp, "estimate", slipped)
    ctx = _ctx("W.perturbation", T="8", samples="4")
    ev = wp._numpy(make_backend(parse_spec("numpy")), ctx)
    (nested,) = [e for e in ev if "running max" in e.check]
    assert nested.outcome is Outcome.ERROR and INTERNAL in nested.message
    assert "decreases in β" in nested.message and "differs from the running max" in nested.message
    assert not [e for e in ev if e.outcome in (Outcome.FAIL, Outcome.REFUTE)]


def test_nested_max_check_passes_on_the_estimator_and_can_fail() -> None:
    case = _stability.ScalarCase(pt.ExponentialKernel(Fraction(9, 10)), Fraction(-1, 8), Fraction(1),
                                 Fraction(3, 4), 8, "memory")
    ev = pt.linear_evaluator(case.theta, case.target, case.grid, "memory")
    est = pt.estimate(ev, 1, (Fraction(0), Fraction(1, 16), Fraction(1, 8)), 4, 0,
                      blocks=("W", "U", "c"))
    assert wp._nested_max_consistent(est)[0]
    est.values[1] = est.values[1] * (1 + 2.0**-40)  # not the max of any point: a wrong estimate
    assert not wp._nested_max_consistent(est)[0]


def test_stable_exp_sampler_slip_is_error_not_refuted(stray_sampler: None) -> None:
    """Before: the stray points were judged silently (at these parameters the reference study's
    chosen points happened to pass its membership test, the exact sequence's were never tested):
    INCONCLUSIVE, as if nothing had happened; with a stray chosen point, REFUTED."""
    r = run("W.stable-exp", ("flint@128", "numpy"), examples=2, ms="1,2,3", hp_betas=1,
            beta_exponents="0-2", samples=2, T=20)
    _not_about_the_paper(r)


def test_theorem_sampler_slip_is_error(stray_sampler: None) -> None:
    """The RK4 study's points are certified in their balls before any RK4 step runs."""
    from recmem.checks.claims.paper_w import theorem

    ctx = _ctx("W.theorem", ms="1,2,3", beta_exponents="0,30", samples="2")

    with pytest.raises(InternalInconsistency, match=INTERNAL):
        theorem._torch(make_backend(parse_spec("torch:cpu")), ctx)


def test_consistency_helper() -> None:
    assert verdict.consistency(True, "m") == (Outcome.PASS, "m")
    assert verdict.consistency(False, "m") == (Outcome.ERROR, "internal inconsistency: m")


# ---- (b) descriptive tables decide nothing ------------------------------------------------------------
def test_descriptive_evidence_cannot_lift_a_verdict() -> None:
    from recmem.checks.verdict import combine

    table = verdict.descriptive("a table", "numpy", "E per m")
    assert table.outcome is Outcome.SKIPPED and "decides nothing" in table.message
    # alone it earns no pass; beside an inconclusive check it leaves the claim INCONCLUSIVE
    assert combine([table]) is Verdict.SKIPPED
    from recmem.checks.verdict import Evidence

    open_check = Evidence(check="c", kind="numeric", backend="numpy", outcome=Outcome.INCONCLUSIVE)
    assert combine([table, open_check]) is Verdict.INCONCLUSIVE


def test_stable_exp_float_table_is_descriptive(fresh_memo: None) -> None:
    """Before: "numpy E_m(β) over the full β list (own fits)" was Outcome.PASS whatever it showed."""
    from recmem.checks.claims.paper_w import stable_exp

    ctx = _ctx("W.stable-exp", ms="1,2,3", hp_betas="1", beta_exponents="0-2", samples="2",
               T="20")
    ev = stable_exp._float(make_backend(parse_spec("numpy")), ctx)
    (table,) = [e for e in ev if "full β list" in e.check]
    assert table.outcome is Outcome.SKIPPED and table.message.startswith(verdict.DESCRIPTIVE)
    assert table.data["tables"]


def test_theorem_table_is_descriptive(fresh_memo: None) -> None:
    """Before: "E_m(β) by batched RK4" was Outcome.PASS whatever it showed."""
    from recmem.checks.claims.paper_w import theorem

    ctx = _ctx("W.theorem", ms="1,2,3", beta_exponents="0,30", samples="2")
    study, secs = theorem._study(ctx, "cpu")
    (table,) = theorem._tables_evidence(make_backend(parse_spec("torch:cpu")), ctx, study, secs)
    assert table.outcome is Outcome.SKIPPED and table.message.startswith(verdict.DESCRIPTIVE)
    assert set(table.data["tables"]) == {"exp", "poly"}


def test_a_backend_tanh_that_misses_zero_is_error_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    """tanh(0) = 0 reads none of Def. 3.8's constants: a backend that misses it is a bug of the
    arithmetic (ERROR). Before: a judged point of the statement's evidence, FAIL (W.activations
    FAILED)."""
    from recmem.checks.claims.paper_w import activations as wa

    real = wa.tanh_pairs

    def off_at_zero(backend: Any, zs: list[Fraction]) -> list[tuple[Any, Any, Any]]:
        out = real(backend, zs)
        if zs == [Fraction(0)]:
            return [(np.float64(2.0**-60), *out[0][1:])]
        return out

    monkeypatch.setattr(wa, "tanh_pairs", off_at_zero)
    ctx = _ctx("W.activations")
    ev = wa.numeric(make_backend(parse_spec("numpy")), ctx)
    assert [e.outcome for e in ev] == [Outcome.PASS, Outcome.ERROR]
    assert ev[1].message.startswith(INTERNAL)


def test_stable_exp_proven_bound_exceeded_is_error(monkeypatch: pytest.MonkeyPatch,
                                                   fresh_memo: None) -> None:
    """B(β) is recmem's own derivation (exp_half_proof): samples above it contradict recmem, not
    the paper. Planted: a bound 1000 times too small. Before: FAIL in numpy and flint."""
    from recmem.checks.claims.paper_w import stable_exp

    real = stable_exp._bound
    monkeypatch.setattr(stable_exp, "_bound", lambda *a: real(*a) / 1000)
    ctx = _ctx("W.stable-exp", exp_target="expsum:1;1", ms="2,3", hp_betas="1",
               beta_exponents="0-2", samples="2", T="20")
    for side, spec in ((stable_exp._exact_sequence_numpy, "numpy"),
                       (stable_exp._exact_sequence_flint, "flint@128")):
        ev = side(make_backend(parse_spec(spec)), ctx)
        assert ev.outcome is Outcome.ERROR and ev.message.startswith(INTERNAL), (spec, ev.message)


def test_theorem_arithmetics_disagreeing_on_e0_is_error(monkeypatch: pytest.MonkeyPatch,
                                                        fresh_memo: None) -> None:
    """E_m(0) in mpmath against float64 is the same statement-independent value in two
    arithmetics: a planted gap is a harness ERROR (before: FAIL)."""
    from recmem.checks.claims.paper_w import theorem
    from recmem.checks.verdict import HARNESS

    monkeypatch.setattr(theorem, "_mp_e0", lambda backend, ctx: (5.0, ["planted"]))
    (ev,) = theorem._mpmath(make_backend(parse_spec("mpmath@128")), _ctx("W.theorem"))
    assert ev.outcome is Outcome.ERROR and ev.kind == HARNESS and ev.message.startswith(INTERNAL)


def test_theorem_weights_beyond_their_construction_bound_is_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """eq. (14)'s |θ_m|₂ ≤ max(R, 1) holds by construction of the approximants: a planted
    approximant (readout ×100) that breaks it is an internal inconsistency (before: FAIL)."""
    from dataclasses import replace as dc_replace

    from recmem.checks.claims.paper_w import theorem

    real = theorem._theta
    monkeypatch.setattr(theorem, "_theta",
                        lambda ctx, tg, m: dc_replace(real(ctx, tg, m), c=100 * real(ctx, tg, m).c))
    (ev,) = theorem._numpy(make_backend(parse_spec("numpy")), _ctx("W.theorem"))
    assert ev.outcome is Outcome.ERROR and ev.message.startswith(INTERNAL) and "violated" in ev.message
