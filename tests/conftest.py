"""Shared test configuration: Hypothesis profiles, precision hygiene, GPU marker handling.

Profiles (select with HYPOTHESIS_PROFILE, default ``ci`` when CI is set, else ``dev``):
- ``ci``: deterministic (derandomized, no example database), small budgets;
- ``dev``: random, moderate budgets, database on;
- ``fuzz``: long searches for counterexamples (run on demand).

Every Hypothesis-based test (one decorated with ``@given``) is marked ``property`` at collection,
so the long search over all of them is::

    HYPOTHESIS_PROFILE=fuzz python3 -m pytest -m property

(tests/test_markers.py checks that the marker reaches every ``@given`` test).

Coverage (``--cov``) is measured on the certified core's own tests, the files in
:data:`TRACED_FILES`; every other test is marked ``untraced`` at collection and runs with coverage
paused (setup, call and teardown; see :func:`pytest_runtest_protocol`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

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


# The tests whose coverage of the measured modules (pyproject.toml, [tool.coverage.run]) counts:
# the unit tests of the certified routines, solvers and verdict machinery, which force each of
# their branches on cases known exactly. Every other test (claims, commands, reproductions,
# whole-paper runs) runs untraced: they reach the same lines through the claims, never a line
# these miss (measured when this list was made: the same lines and branches, 93.7 %), and
# Python 3.11's trace hook made them take about half again as long (the traced files themselves
# took 2× as long traced). Claim files, slow and reaching the core only through whole claims,
# left the list when a per-test coverage context (`--cov-context=test`) showed that every line
# and branch they reach is reached by the unit tests (W Lyapunov, O sparse and conditioning
# claims, the honest-symbolic Lyapunov steps, the Vandermonde bounds, the O speed and runtime
# oracle tests); tests/test_core_paths.py forces the 15 arcs only they had reached. A new unit
# test of the core goes in one of these files, or its file is added here.
TRACED_FILES = frozenset({
    "test_backend_conformance.py", "test_certified_oracles.py", "test_certified_refutations.py",
    "test_condition_engine.py", "test_condition_hardening.py", "test_controls.py",
    "test_core_paths.py", "test_float_enclosure.py", "test_fuzz_rejudge.py",
    "test_fuzz_strategies_w_lyapunov_limit.py", "test_honest_evidence.py",
    "test_honest_symbolic.py", "test_lyapunov_oracles.py", "test_lyapunov_solvers.py",
    "test_numerics_domain.py", "test_outward_rounding.py", "test_paper_o_shared_work.py",
    "test_verdicts.py",
})


def module_fixture_group(item: pytest.Item) -> str | None:
    """The pytest-xdist group of a test that uses a module- or class-scoped fixture (each such
    fixture here is a run made once for its file's tests: a reproduction, a claim's default
    run): ``module-FILE``, so that one worker makes it once (``--dist loadgroup``; spread over
    two workers, each made it: O.universality's 33 s run twice). None for other tests."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for defs in info.name2fixturedefs.values():
        if any(d.scope in ("module", "class") for d in defs):
            return f"module-{item.path.name}"
    return None


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker, and before pytest-xdist reads
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.property)
        if item.path.name not in TRACED_FILES:
            item.add_marker(pytest.mark.untraced)
        # the xdist_group marks: a paper's run (suite_checks.on_paper) first, else a file's
        if item.get_closest_marker("xdist_group") is None and (group := module_fixture_group(item)):
            item.add_marker(pytest.mark.xdist_group(group))
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


@contextlib.contextmanager
def _coverage_paused(pause: bool = True) -> Iterator[None]:
    """The block runs with every coverage measurement stopped (:func:`_pause_coverage`), each
    restarted after it; ``pause=False`` leaves them running."""
    paused = _pause_coverage() if pause else []
    try:
        yield
    finally:
        for cov in reversed(paused):
            cov.start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """A test marked ``untraced`` (every test outside :data:`TRACED_FILES`) runs with coverage
    (``--cov``) paused, its fixtures' setup and teardown included. The coverage figure is what
    the traced tests reach, and the gate (``fail_under``) applies to it."""
    with _coverage_paused(item.get_closest_marker("untraced") is not None):
        yield


@pytest.fixture(scope="session")
def paper_report():
    """``paper_report(KEY)``: paper KEY's default run (:func:`suite_checks.run_paper`), made on
    first use and kept for the session; a test that reads it carries
    ``suite_checks.on_paper(KEY)``. The run is made with coverage paused whichever test asks
    first, so that the coverage figure does not depend on the order of the tests."""
    import suite_checks

    reports: dict = {}

    def get(paper: str):
        if paper not in reports:
            with _coverage_paused():
                reports[paper] = suite_checks.run_paper(paper)
        return reports[paper]

    return get


@pytest.fixture(scope="session")
def default_result(request: pytest.FixtureRequest, paper_report):
    """``default_result(KEY, CLAIM_ID)``: the claim's result in paper KEY's default run. When
    the session runs a test of the whole paper's run (one that uses ``paper_report`` itself), it
    is read from that run; otherwise (a claim's test file run alone) the claim runs by itself
    with the same settings, which gives the same result (every claim's run is independent of
    the others': that is what makes ``--jobs`` reports a serial run's)."""
    import suite_checks

    whole = {suite_checks.paper_of(item) for item in request.session.items
             if "paper_report" in (names := getattr(item, "fixturenames", ()))
             and "default_result" not in names}
    alone: dict = {}

    def get(paper: str, claim_id: str):
        if paper in whole:
            return suite_checks.result_of(paper_report(paper), claim_id)
        if claim_id not in alone:
            with _coverage_paused():
                alone[claim_id] = suite_checks.run_paper(paper, [claim_id])
        return suite_checks.result_of(alone[claim_id], claim_id)

    return get


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
