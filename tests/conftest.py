"""Shared test configuration: Hypothesis profiles, precision hygiene, GPU marker handling.

Profiles (select with HYPOTHESIS_PROFILE, default ``ci`` when CI is set, else ``dev``):
- ``ci``: deterministic (derandomized, no example database), small budgets;
- ``dev``: random, moderate budgets, database on;
- ``fuzz``: long searches for counterexamples (run on demand).

Every Hypothesis-based test (one decorated with ``@given``) is marked ``property`` at collection,
so the long search over all of them is::

    HYPOTHESIS_PROFILE=fuzz python3 -m pytest -m property

(tests/test_markers.py checks that the marker reaches every ``@given`` test).

Tests marked ``untraced`` run with coverage paused (setup, call and teardown; see
:func:`pytest_runtest_protocol`).
"""

from __future__ import annotations

import os

import mpmath
import pytest
from hypothesis import HealthCheck, is_hypothesis_test, settings

if os.environ.get("PYTEST_XDIST_WORKER"):
    # pytest-xdist runs one worker per core: each worker's BLAS, OpenMP and torch (and the CLI
    # subprocesses it starts) get one thread, since nested threads oversubscribe the cores (two
    # workers × two spinning BLAS threads on a 2-core machine). Set before numpy or torch load.
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")

settings.register_profile("ci", max_examples=30, derandomize=True, database=None, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


# tests/paper_plugin/ is an outside package (a paper plugin with its own test), run by
# tests/test_paper_plugins.py with the package installed beside recmem, never collected here
collect_ignore = ["paper_plugin"]


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the tests marked `long` (campaigns at their full budgets and "
                          "sweeps whose cases the default run covers otherwise: minutes each)")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.property)
    if not config.getoption("--long"):
        skip_long = pytest.mark.skip(reason="a long test: run with --long")
        for item in items:
            if "long" in item.keywords:
                item.add_marker(skip_long)
    if _cuda_available():
        return
    skip = pytest.mark.skip(reason="needs CUDA (torch.cuda.is_available() is False)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def _pause_coverage() -> list:
    """Stop every running coverage measurement (a pytest-xdist worker under ``--cov`` runs two
    Coverage objects: stopping the current one leaves the other's tracer); returns them, last
    started first."""
    from coverage import Coverage

    stopped = []
    while (cov := Coverage.current()) is not None and cov not in stopped:
        cov.stop()
        stopped.append(cov)
    return stopped


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """A test marked ``untraced`` runs with coverage (``--cov``) paused, its fixtures' setup and
    teardown included: the whole-paper runs, the low-precision sweeps and the experiments at ci
    scale repeat work that the claims' own tests run traced, and Python 3.11's trace hook costs
    them two to three times their time. The coverage figure is then what the other tests reach,
    and the gate (``fail_under``) applies to it."""
    paused = _pause_coverage() if item.get_closest_marker("untraced") is not None else []
    try:
        yield
    finally:
        for cov in reversed(paused):
            cov.start()


@pytest.fixture(autouse=True)
def _reset_global_precision():
    """Every test starts and ends at the libraries' default precision (53 bits)."""
    mpmath.mp.prec = 53
    try:
        import flint
    except ImportError:  # pragma: no cover
        flint = None
    if flint is not None:
        flint.ctx.prec = 53
    yield
    leaked_mp = mpmath.mp.prec
    leaked_flint = flint.ctx.prec if flint is not None else 53
    mpmath.mp.prec = 53
    if flint is not None:
        flint.ctx.prec = 53
    assert leaked_mp == 53, f"test leaked mpmath precision {leaked_mp}"
    assert leaked_flint == 53, f"test leaked flint precision {leaked_flint}"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """recmem's result store goes to a temporary directory, never the user's cache."""
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path_factory.mktemp("recmem-home")))
