"""The ``property`` marker (tests/conftest.py) reaches every Hypothesis test and nothing else, so
``HYPOTHESIS_PROFILE=fuzz python3 -m pytest -m property`` runs every property-based test."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _given_tests() -> set[tuple[str, str]]:
    """(file, test name) of every test function decorated with Hypothesis's ``@given``, by scanning
    the sources (independent of the marker's own detection)."""

    def is_given(d: ast.expr) -> bool:
        f = d.func if isinstance(d, ast.Call) else d
        return (isinstance(f, ast.Name) and f.id == "given") or (isinstance(f, ast.Attribute)
                                                                and f.attr == "given")

    found = set()
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
                    and any(is_given(d) for d in node.decorator_list)):
                found.add((f"tests/{path.name}", node.name))
    return found


def _collected(*args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                          *args], cwd=TESTS.parent, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return [line for line in out.stdout.splitlines() if "::" in line]


def _property_items(session: pytest.Session) -> list[str]:
    """The node IDs ``-m property`` selects: read off this session's own items when it collected
    the whole suite unfiltered (the README's command), else from a collection of its own."""
    opt = session.config.option
    files = {item.path.name for item in session.items}
    if not opt.keyword and not opt.markexpr and files >= {p.name for p in TESTS.glob("test_*.py")}:
        return [item.nodeid for item in session.items if item.get_closest_marker("property")]
    return _collected("-m", "property")


def test_property_marker_selects_exactly_the_given_tests(request: pytest.FixtureRequest) -> None:
    given = _given_tests()
    assert len(given) >= 60  # the scan finds the suite's property tests (64 when this was written)
    items = _property_items(request.session)
    marked = {tuple(i.split("[", 1)[0].split("::")[:2]) for i in items}
    assert marked == given, {"unmarked @given": sorted(given - marked),
                             "marked without @given": sorted(marked - given)}
    assert len(items) >= len(given)  # parametrized property tests give one item per case


def test_coverage_is_measured_on_the_core_tests_only(request: pytest.FixtureRequest) -> None:
    """Every test outside conftest's TRACED_FILES is marked ``untraced``; the listed files
    exist, so a renamed file cannot silently drop out of the coverage figure."""
    from conftest import TRACED_FILES

    assert sorted(n for n in TRACED_FILES if not (TESTS / n).is_file()) == []
    assert request.node.get_closest_marker("untraced") is not None  # this file is not listed
    traced = [i for i in request.session.items if i.path.name in TRACED_FILES]
    others = [i for i in request.session.items if i.path.name not in TRACED_FILES]
    assert all(i.get_closest_marker("untraced") is None for i in traced)
    assert all(i.get_closest_marker("untraced") is not None for i in others)


def test_pausing_coverage_stops_every_tracer_and_resumes_them(tmp_path: Path) -> None:
    """``untraced`` tests run with every coverage measurement stopped (tests/conftest.py; an xdist
    worker under --cov runs two), and each resumes afterwards."""
    from conftest import _pause_coverage
    from coverage import Coverage

    outer = _pause_coverage()  # this run's own measurement (under --cov), restarted below
    try:
        first = Coverage(data_file=str(tmp_path / "a"))
        second = Coverage(data_file=str(tmp_path / "b"))
        first.start()
        second.start()
        assert sys.gettrace() is not None
        paused = _pause_coverage()
        assert paused == [second, first] and sys.gettrace() is None
        assert Coverage.current() is None
        for cov in reversed(paused):
            cov.start()
        assert Coverage.current() is second and sys.gettrace() is not None
        second.stop()
        first.stop()
    finally:
        for cov in reversed(outer):
            cov.start()


@pytest.mark.untraced
def test_an_untraced_test_runs_with_no_coverage_measurement() -> None:
    from coverage import Coverage

    assert Coverage.current() is None
    assert sys.gettrace() is None or "coverage" not in type(sys.gettrace()).__module__


@pytest.fixture(scope="module")
def made_once() -> object:
    """A module-scoped fixture: what a file's reproduction or claim run is (tests/conftest.py,
    module_fixture_group)."""
    return object()


def test_the_tests_of_a_module_fixture_share_a_worker(made_once: object,
                                                      request: pytest.FixtureRequest) -> None:
    """A test that uses a module-scoped fixture carries its file's xdist group, so under
    ``--dist loadgroup`` one worker runs the file's such tests and makes the fixture once."""
    marks = [m.args for m in request.node.iter_markers("xdist_group")]
    assert marks == [("module-test_markers.py",)]
    if hasattr(request.config, "workerinput"):
        assert request.node.nodeid.endswith("@module-test_markers.py"), request.node.nodeid
