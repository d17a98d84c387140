"""Run-time oracles of issue 19 for recurrence routes and trained models: the two-route comparison
of the diagonal recurrence (recmem.numerics.linear_recurrence.cross_check) and the training-loss
oracle (recmem.numerics.training.LossCheck) as the claims use them, each with a slip planted in
the routine under it that must make the check stop passing.

O.universality's own planted slips (a route of the recurrence, an untrained baseline, a diverged
training) are in test_claim_o_universality.py."""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import torch

from recmem.checks.claims.paper_o import _studies
from recmem.checks.oracle_evidence import not_judged, routes_evidence, training_evidence
from recmem.checks.registry import get
from recmem.checks.runner import resolve_params
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics import linear_recurrence as lr
from recmem.numerics import training
from recmem.numerics.backend import make_backend
from recmem.numerics.lotka_volterra import TaskSize, make_task
from recmem.numerics.training import LossCheck


# ---- the recurrence: two routes compared -------------------------------------------------------
def _problem(dtype: torch.dtype, factored: bool, with_x0: bool, seed: int = 0) -> dict[str, Any]:
    g = torch.Generator().manual_seed(seed)
    real = torch.float64 if dtype == torch.complex128 else torch.float32
    n, length, batch = 6, 300, 3
    lam = torch.polar(0.9 + 0.0999 * torch.rand(n, generator=g, dtype=real),
                      6.3 * torch.rand(n, generator=g, dtype=real))
    b = torch.randn(n, 2, generator=g, dtype=dtype) if factored else None
    u = torch.randn(batch, length, 2 if factored else n, generator=g,
                    dtype=real if factored else dtype)
    x0 = torch.randn(batch, n, generator=g, dtype=dtype) if with_x0 else None
    return {"lam": lam, "u": u, "b": b, "x0": x0}


@pytest.mark.parametrize("dtype", [torch.complex128, torch.complex64], ids=["c128", "c64"])
@pytest.mark.parametrize("factored", [False, True], ids=["dense", "factored"])
@pytest.mark.parametrize("with_x0", [False, True], ids=["rest", "x0"])
@pytest.mark.parametrize("route", ["loop", "scan"])
def test_every_state_route_agrees_with_the_independent_routes(dtype: torch.dtype, factored: bool,
                                                              with_x0: bool, route: str) -> None:
    p = _problem(dtype, factored, with_x0)
    x = lr.states(p["lam"], p["u"], route=route, x0=p["x0"], b=p["b"])
    checks = lr.cross_check(p["lam"], p["u"], x, route, x0=p["x0"], b=p["b"], rows=2)
    assert [c.routes for c in checks] == [(route, "fft"), (route, "sum")]
    for c in checks:
        assert c.agree, c.describe()
        assert c.unit_roundoff == (2.0**-53 if dtype == torch.complex128 else 2.0**-24)
        # the bound 2·c·(L + 16)·u·scale with scale ≤ Σ_n |u|/(1 − |λ|) ≈ 10²: it resolves the
        # states (of order 1 to 10) and the slips below exceed it by far
        assert 0 < c.difference <= c.bound < (1e-9 if dtype == torch.complex128 else 1e-1)


@pytest.mark.parametrize("slip", ["lambda^(k+1)", "conjugate", "one step late"])
def test_a_slip_in_a_route_disagrees_and_names_both_values(slip: str) -> None:
    """Slips a route could make: one λ too many, the conjugate λ̄, the input entering a step late."""
    p = _problem(torch.complex128, True, False)
    lam, u, b = p["lam"], p["u"], p["b"]
    x = lr.states(lam, u, route="scan", b=b)
    if slip == "lambda^(k+1)":
        x = x * lam
    elif slip == "conjugate":
        x = lr.states(lam.conj(), u, route="scan", b=b)
    else:
        x = torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)
    checks = lr.cross_check(lam, u, x, "scan", b=b)
    assert not any(c.agree for c in checks)
    for c in checks:
        assert c.difference > 1e6 * c.bound
        a, b_ = c.values
        assert f"{a.real:.12g}" in c.describe() and f"{b_.real:.12g}" in c.describe()
    with pytest.raises(lr.RouteDisagreement, match="differ by"):
        raise lr.RouteDisagreement(checks)


def test_a_nan_in_a_route_disagrees() -> None:
    p = _problem(torch.complex128, False, False)
    x = lr.states(p["lam"], p["u"], route="loop")
    x[0, 7, 2] = complex("nan")
    checks = lr.cross_check(p["lam"], p["u"], x, "loop")
    assert not checks[0].agree and "k 8" in checks[0].at


def test_make_task_raises_on_a_route_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The O-lotka-volterra experiment's task (strict by default) refuses states whose route
    disagrees with the independent ones; strict=False keeps the comparison for the caller."""
    size = TaskSize(length=64, trajectories=8, nodes=8, hidden=4, amplitude=0.3, epochs=1,
                    batch=64, lr=0.005)
    rng = lambda: np.random.default_rng(0)  # noqa: E731
    ok = make_task(size, rng(), 5, Fraction(99, 100), Fraction(1))
    assert len(ok.route_checks) == 2 and all(c.agree for c in ok.route_checks)

    original = lr._STATE_RUNS["scan"]

    def slipped(lam: Any, u: Any, x: Any, out: Any) -> None:
        original(lam, u, x, out)
        out[:, 1:] *= lam

    for name in ("loop", "scan"):
        monkeypatch.setitem(lr._STATE_RUNS, name, slipped)
    with pytest.raises(lr.RouteDisagreement, match="vs"):
        make_task(size, rng(), 5, Fraction(99, 100), Fraction(1))
    lax = make_task(size, rng(), 5, Fraction(99, 100), Fraction(1), strict=False)
    ev = routes_evidence("routes", "torch:cpu", lax.route_checks, 53)
    assert ev.outcome is Outcome.ERROR and "internal inconsistency" in ev.message


# ---- trained models: the loss oracle ------------------------------------------------------------
def test_loss_check_statuses() -> None:
    hist = training.History(train=[1.0, 0.1], val=[1.0, 0.1], stopped="epochs exhausted")
    assert training.loss_check("m", 0.1, 1.0, "start", hist).status == "trained"
    assert training.loss_check("m", 0.6, 1.0, "start", hist).status == "untrained"
    assert training.loss_check("m", 0.1, 1.0, "start", training.History()).status == "untrained"
    assert training.loss_check("m", float("nan"), 1.0, "start", hist).status == "diverged"
    diverged = training.History(train=[float("inf")], val=[float("inf")], stopped="diverged")
    assert training.loss_check("m", 0.1, 1.0, "start", diverged).status == "diverged"
    assert training.loss_check("m", 0.1, 1.0, "start", None).stopped == "closed form"
    checks = [LossCheck("a", 0.1, 1.0, "start", 3, "x"), LossCheck("b", 0.9, 1.0, "start", 3, "x")]
    ev = training_evidence("trained", "torch:cpu", checks, "half the start")
    assert ev.outcome is Outcome.FAIL and "b: final training loss 0.9" in ev.message
    assert training_evidence("trained", "torch:cpu", [], "-").outcome is Outcome.ERROR


def test_not_judged_turns_decided_checks_inconclusive() -> None:
    oracle = Evidence("oracle", "numeric", "torch:cpu", Outcome.FAIL)
    tests = [Evidence("t", "numeric", "torch:cpu", o, counterexample={"x": 1} if o is Outcome.REFUTE
                      else None) for o in (Outcome.PASS, Outcome.FAIL, Outcome.REFUTE,
                                           Outcome.SKIPPED)]
    not_judged(tests, [oracle])
    assert [e.outcome for e in tests] == [Outcome.INCONCLUSIVE] * 3 + [Outcome.SKIPPED]
    assert tests[2].counterexample is None and tests[0].message.startswith("not judged (pass)")
    fine = [Evidence("t", "numeric", "torch:cpu", Outcome.PASS)]
    not_judged(fine, [Evidence("oracle", "numeric", "torch:cpu", Outcome.PASS)])
    assert fine[0].outcome is Outcome.PASS


@pytest.fixture
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trained studies are memoised per process: start from an empty memo."""
    monkeypatch.setattr(_studies, "_SHARED", OrderedDict())


def _no_steps(*args: Any, **kw: Any) -> training.History:
    """A planted slip: a training that takes no step (the model stays at its random start)."""
    return training.History(stopped="epochs exhausted")


def _linear_ctx() -> Any:
    claim = get("W.stable-exp")
    return claim.context({"ms": (1, 2, 3), "T": 30}, seed=0, precision_bits=128)


def _linear_settings() -> Any:
    from recmem.numerics.linear_rnn_training import TrainSettings

    return TrainSettings(epochs=300, batch_size=128, train_size=128, every=10**9)


@pytest.mark.usefixtures("fresh_memo")
def test_trained_linear_rnns_carry_their_losses_and_an_untrained_one_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """W.stable-exp's trained evidence: every width's final loss and its start's are recorded and
    pass; with the training planted to take no step, the oracle FAILS with the losses shown and
    the trend tests that read the trained sequence are not judged."""
    from recmem.checks.claims.paper_w import _trained_linear as tl
    from recmem.numerics import linear_rnn_training as lrt

    backend = make_backend("torch:cpu")
    out = tl.trained_evidence(backend, _linear_ctx(), _linear_settings())
    oracle = next(e for e in out if e.check == tl.TRAINED_CHECK)
    assert oracle.outcome is Outcome.PASS and oracle.instances == 6
    assert all(float(c["loss"]) <= float(c["threshold"]) for c in oracle.data["losses"])

    monkeypatch.setattr(_studies, "_SHARED", OrderedDict())
    monkeypatch.setattr(lrt, "fit", _no_steps)
    out = tl.trained_evidence(backend, _linear_ctx(), _linear_settings())
    oracle = next(e for e in out if e.check == tl.TRAINED_CHECK)
    assert oracle.outcome is Outcome.FAIL and "untrained" in oracle.message
    assert "after 0 epochs" in oracle.message
    tests = [e for e in out if "test" in e.data]
    assert tests and all(e.outcome in (Outcome.INCONCLUSIVE, Outcome.SKIPPED) for e in tests)


def _rnn_contexts() -> Any:
    from recmem.checks.claim import Context

    claim = get("W.theorem")
    values = resolve_params([claim], {"ms": "2,3", "beta_exponents": "0,20,35"})[claim.id]
    return Context(values, seed=0, statement=claim.statement)


@pytest.mark.usefixtures("fresh_memo")
def test_trained_sigma_rnns_that_did_not_train_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """W.theorem's trained evidence with the training planted to take no step: the oracle FAILS
    (the losses shown); with a NaN loss reported by the training it is an ERROR."""
    from recmem.checks.claims.paper_w import _trained_rnn as tr
    from recmem.numerics import rnn_training as rt

    backend = make_backend("torch:cpu")
    out = tr.trained_evidence(backend, _rnn_contexts())  # verify's budget: 60 Adam steps
    oracle = next(e for e in out if e.check == tr.TRAINED_CHECK)
    assert oracle.outcome is Outcome.PASS and oracle.instances == 4, oracle.message

    monkeypatch.setattr(_studies, "_SHARED", OrderedDict())
    small = tr.TrainSettings(train_size=64, test_size=64, epochs=3)
    monkeypatch.setattr(rt, "fit", _no_steps)
    out = tr.trained_evidence(backend, _rnn_contexts(), small)
    oracle = next(e for e in out if e.check == tr.TRAINED_CHECK)
    assert oracle.outcome is Outcome.FAIL and oracle.instances == 4
    assert all(c["status"] == "untrained" and c["epochs"] == 0 for c in oracle.data["losses"])
    assert not any(e.outcome in (Outcome.PASS, Outcome.FAIL, Outcome.REFUTE)
                   for e in out if e is not oracle and "approximation, weights" not in e.check)

    def nan_loss(*args: Any, **kw: Any) -> training.History:
        return training.History(train=[float("nan")], val=[float("nan")], stopped="diverged")

    monkeypatch.setattr(_studies, "_SHARED", OrderedDict())
    monkeypatch.setattr(rt, "fit", nan_loss)
    out = tr.trained_evidence(backend, _rnn_contexts(), small)
    oracle = next(e for e in out if e.check == tr.TRAINED_CHECK)
    assert oracle.outcome is Outcome.ERROR and "diverged" in oracle.message


# ---- integrals: the quadrature's error estimate under the verdict -------------------------------
def _numeric(claim_id: str, backend: str) -> list[Evidence]:
    claim = get(claim_id)
    b = make_backend(backend)
    with b.activate():
        assert claim.numeric is not None
        return claim.numeric(b, claim.context(seed=0))


@pytest.fixture
def fresh_quadratures(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The memoised quadratures start empty (and end so: a planted slip must not leak)."""
    from recmem.checks.claims.paper_w import _linear_memory as lm
    from recmem.checks.claims.paper_w import _memory as mm

    monkeypatch.setattr(mm, "_MEMO", {})
    lm._mp_profile_query.cache_clear()
    yield
    lm._mp_profile_query.cache_clear()


def _scipy_quad_slip(factor: float, estimate: float) -> Any:
    """scipy.integrate.quad returning factor × its value with the error estimate ``estimate``×|value|
    (a quadrature that did not converge says so through a large estimate)."""
    from scipy.integrate._quadpack_py import quad as original  # the unpatched routine

    def quad(*args: Any, **kw: Any) -> Any:
        val, err = original(*args, **kw)[:2]
        return factor * val, max(err, estimate * abs(val))

    return quad


def _mp_quad_slip(factor: float, estimate: float) -> Any:
    from mpmath.calculus.quadrature import QuadratureMethods

    original = QuadratureMethods.quad  # the unpatched routine (MPContext inherits it)

    def quad(self: Any, *args: Any, **kw: Any) -> Any:
        val, err = original(self, *args, **{**kw, "error": True})
        return factor * val, max(err, estimate * abs(val))

    return quad


@pytest.mark.usefixtures("fresh_quadratures")
@pytest.mark.parametrize("backend", ["numpy", "mpmath"])
def test_memory_linear_records_quadrature_estimates_and_a_bad_quadrature_stops_passing(
        monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """W.memory-linear in float64 (QUADPACK) and mpmath: every point records its quadrature's own
    error estimate; a quadrature planted to return a wrong value with a large error estimate
    leaves the check INCONCLUSIVE (unresolved), and one that hides its error FAILS it."""
    import mpmath
    import scipy.integrate

    from recmem.checks.claims.paper_w import _linear_memory as lm

    [ev] = _numeric("W.memory-linear", backend)
    assert ev.outcome is Outcome.PASS
    assert all(float(p[lm.QUAD_KEY]) < 1e-9 for p in ev.data["points"])
    for factor, estimate, outcome in ((1.01, 1.0, Outcome.INCONCLUSIVE), (1.01, 0.0, None)):
        lm._mp_profile_query.cache_clear()
        if backend == "numpy":
            monkeypatch.setattr(scipy.integrate, "quad", _scipy_quad_slip(factor, estimate))
        else:
            monkeypatch.setattr(mpmath.MPContext, "quad", _mp_quad_slip(factor, estimate))
        [ev] = _numeric("W.memory-linear", backend)
        if outcome is Outcome.INCONCLUSIVE:
            assert ev.outcome is Outcome.INCONCLUSIVE and "unresolved" in ev.message
            assert max(float(p[lm.QUAD_KEY]) for p in ev.data["points"]) > 1e-3
        else:  # the error is hidden: the values disagree beyond the tolerance
            assert ev.outcome in (Outcome.FAIL, Outcome.REFUTE)


@pytest.mark.usefixtures("fresh_quadratures")
@pytest.mark.parametrize("backend", ["numpy", "mpmath"])
def test_sketch_bound_needs_a_resolved_quadrature(monkeypatch: pytest.MonkeyPatch,
                                                  backend: str) -> None:
    """W.memory-impulse.sketch.corrected (the bound C/β, attained by the extremal y) passes on
    resolved quadratures; a quadrature planted to return 0 with an error estimate of the size of
    the integral used to pass the one-sided check (0 ≤ C/β): now INCONCLUSIVE, unresolved."""
    import mpmath
    import scipy.integrate

    [ev] = _numeric("W.memory-impulse.sketch.corrected", backend)
    assert ev.outcome is Outcome.PASS
    assert all(float(p["quadrature error estimate"]) < 1e-9 for p in ev.data["points"])
    from recmem.checks.claims.paper_w import _memory as mm

    monkeypatch.setattr(mm, "_MEMO", {})  # the quadratures are memoised
    if backend == "numpy":
        monkeypatch.setattr(scipy.integrate, "quad", _scipy_quad_slip(0.0, 1.0))
    else:
        monkeypatch.setattr(mpmath.MPContext, "quad", _mp_quad_slip(0.0, 1.0))
    [ev] = _numeric("W.memory-impulse.sketch.corrected", backend)
    assert ev.outcome is Outcome.INCONCLUSIVE and "unresolved" in ev.message


def test_judged_is_inconclusive_where_the_integration_does_not_resolve() -> None:
    """The W memory claims' judge: a pass whose integration error bound exceeds half the
    right-hand side at some point is INCONCLUSIVE (a wrong integral with a large error estimate
    passes nothing); failures stay failures."""
    import time

    from recmem.checks.claims.paper_w import _memory as mm

    backend = make_backend("numpy")
    assert mm.unresolved_points([1e-12, 0.6, float("nan")], [1.0, 1.0, 1.0]) == 2
    ok = mm.judged("c", backend, 0.5, 1.0, "src", time.perf_counter())
    assert ok.outcome is Outcome.PASS
    unresolved = mm.judged("c", backend, 0.5, 1.0, "src", time.perf_counter(), unresolved=1)
    assert unresolved.outcome is Outcome.INCONCLUSIVE and "unresolved" in unresolved.message
    failed = mm.judged("c", backend, 2.0, 1.0, "src", time.perf_counter(), unresolved=1)
    assert failed.outcome is Outcome.FAIL
