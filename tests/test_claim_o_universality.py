"""O.universality (paper O §4, Thm. 1, App. E.3): the verdict at the defaults with every control
told apart, the statement and its controls, the replicate test, the search grid, and a planted
error (a factor no trained readout reaches) that the same check fails."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from recmem.checks.claim import Context
from recmem.checks.claims.paper_o import universality as uni
from recmem.checks.registry import get
from recmem.checks.report import ClaimResult
from recmem.checks.runner import resolve_params, run_claim
from recmem.checks.verdict import Outcome, Verdict
from recmem.numerics.backend import make_backend, parse_spec
from recmem.theory.universality import BASELINE, Universality

CLAIM = get("O.universality")


@pytest.fixture(scope="module")
def result() -> ClaimResult:
    """The default run: the exact search and the numeric side in numpy (skipped) and torch:cpu."""
    return run_claim(CLAIM, CLAIM.context(seed=0), [parse_spec(s) for s in ("numpy", "torch:cpu")])


def test_default_verdict_with_every_control_told_apart(result: ClaimResult) -> None:
    assert result.verdict is Verdict.CORROBORATED  # statistical, no symbolic proof: never VERIFIED
    assert result.controls is not None and len(result.controls) == 2
    for run in result.controls:
        assert run.verdict is Verdict.FAILED, run.change  # statistical: FAILED, never REFUTED
        deciding = [e for e in run.evidence if e.backend == "torch:cpu"]
        assert [e.outcome for e in deciding] == [Outcome.FAIL]


def test_the_deciding_evidence(result: ClaimResult) -> None:
    by_backend = {e.backend: e for e in result.evidence}
    assert by_backend["numpy"].outcome is Outcome.SKIPPED and "torch" in by_backend["numpy"].message
    ev = by_backend["torch:cpu"]
    assert ev.kind == "statistical" and ev.outcome is Outcome.PASS and ev.instances == 5
    ratios = ev.data["ratios"]
    assert len(ratios) == 5 and all(r > 0 for r in ratios)
    # the residual is the upper confidence bound of the geometric-mean ratio, at most 1/factor
    assert float(ev.tolerance or "nan") == 0.1 and float(ev.residual or "nan") <= 0.1
    assert np.exp(np.mean(np.log(ratios))) < float(ev.residual or "nan")
    assert ev.data["readout_errors"][0] / ev.data["baseline_errors"][0] == pytest.approx(
        ratios[0], rel=1e-4)
    search = by_backend["exact (Hypothesis search)"]
    designs = uni.SEARCH_DRAWS * len(uni.SEARCH_AMPLITUDE_FACTORS)
    assert search.kind == "search" and search.outcome is Outcome.PASS
    assert search.instances == designs


def test_controls_fail_with_statistical_counterexamples(result: ClaimResult) -> None:
    assert result.controls is not None
    no_memory, affine = result.controls
    assert "no memory" in no_memory.change and "no MLP" in affine.change
    for run in result.controls:
        search = next(e for e in run.evidence if e.kind == "search" and e.outcome is Outcome.FAIL)
        assert search.certified_by and search.certified_by.startswith("statistical")
        assert search.counterexample and float(search.counterexample["error ratio"]) > 0.1
    # the no-memory readout is the baseline's model: its ratio is about 1
    ev = next(e for e in no_memory.evidence if e.backend == "torch:cpu")
    assert all(0.5 < r < 2 for r in ev.data["ratios"])


def test_statement_and_controls() -> None:
    law = Universality()
    assert law == CLAIM.statement and BASELINE == ("input", "mlp")
    assert "1/10" in law.text and "state x_k" in law.text
    changes = {c.change: c.statement for c in law.controls()}
    assert len(changes) == 2
    assert {(s.features, s.readout) for s in changes.values()} == {("input", "mlp"),
                                                                  ("state", "linear")}
    for s in changes.values():
        assert s.text != law.text and s.factor == law.factor
    assert law.holds_for(0.1) and not law.holds_for(0.1001)
    assert law.log_threshold == pytest.approx(-np.log(10))
    for bad in ({"features": "past"}, {"readout": "tree"}, {"factor": Fraction(1)},
                {"r_min": Fraction(2)}):
        with pytest.raises(ValueError):
            replace(law, **bad)


def test_t_bounds_match_scipy() -> None:
    from scipy import stats

    x = np.array([-4.1, -3.2, -5.0, -4.4, -3.9])
    mean, lower, upper = uni.t_bounds(x, 0.01)
    lo, hi = stats.t.interval(0.98, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean == pytest.approx(x.mean()) and lower == pytest.approx(lo) and upper == pytest.approx(hi)
    assert uni.t_bounds(np.array([1.0]), 0.01)[1:] == (-np.inf, np.inf)


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError):
        resolve_params([CLAIM], {"replicates": "1"})
    with pytest.raises(ValueError):
        resolve_params([CLAIM], {"amplitude": "0"})
    with pytest.raises(ValueError, match="positive quadrant"):  # z₂ < 0: the map is not defined
        resolve_params([CLAIM], {"amplitude": "1/2"})
    with pytest.raises(ValueError, match="positive quadrant"):
        resolve_params([CLAIM], {"L": "2048", "amplitude": "1/10"})
    assert resolve_params([CLAIM], {"amplitude": "1/5"})[CLAIM.id]["amplitude"] == Fraction(1, 5)


def test_search_grid_is_the_first_replicates() -> None:
    """The strategy's domain: replicate draws 0, 1 at the claim's A and N (Hypothesis exhausts
    it; their trainings are the numeric side's)."""
    seen: set[uni.Design] = set()

    @settings(max_examples=40, derandomize=True, database=None)
    @given(uni.strategy(CLAIM.context()))
    def collect(design: uni.Design) -> None:
        seen.add(design)

    collect()
    assert {(d.draw, d.nodes, d.amplitude) for d in seen} == {
        (i, 64, Fraction(3, 10)) for i in (0, 1)}


SMALL = {"L": 128, "trajectories": 32, "N": 32, "hidden": 32, "epochs": 15, "replicates": 3,
         "amplitude": Fraction(1, 2)}


def _small(statement: Universality, backend: str = "torch:cpu") -> list[Any]:
    ctx = Context({**CLAIM.defaults(), **SMALL}, seed=1, statement=statement)
    b = make_backend(parse_spec(backend))
    with b.activate():
        assert CLAIM.numeric is not None
        return CLAIM.numeric(b, ctx)


def test_a_planted_error_fails() -> None:
    """A factor of 10⁶ (no trained readout is a million times better than the baseline): the
    same replicate test rejects it."""
    [ev] = _small(replace(Universality(), factor=Fraction(10**6)))
    assert ev.outcome is Outcome.FAIL and float(ev.residual or "nan") > 1e-6


@pytest.mark.gpu
def test_cuda_float32_runs_the_same_check() -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    [ev] = _small(Universality(), "torch:cuda:float32")
    assert ev.backend == "torch:cuda:float32" and ev.outcome in (Outcome.PASS, Outcome.INCONCLUSIVE)
    assert len(ev.data["ratios"]) == 3
