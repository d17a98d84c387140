"""The execution layer (checks/execution.py): serial, local processes and a dask cluster give the
same results, an item's failure stays that item's, Ctrl-C stops the workers, and `recmem verify
--jobs/--cluster` reports exactly what a serial run reports (apart from timings)."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import interrupt_verify, one_error_line, run_cli, w_claims_quick_first

from recmem.checks import execution, runner
from recmem.checks.execution import (
    DaskExecutor,
    ItemError,
    ItemResult,
    ProcessExecutor,
    SerialExecutor,
    WorkItemFailed,
    make_executor,
    parse_jobs,
)
from recmem.checks.verdict import Verdict

# cheap claims (about 0.3 s each) whose checks cover the symbolic side, the search, ball
# arithmetic, numpy and torch; one of them is REFUTED, so a counterexample travels too
CLAIMS = ["O.relaxation", "O.causal-fill", "O.roots-of-unity"]
BACKENDS = ["--backend", "sympy", "--backend", "flint@64", "--backend", "numpy",
            "--backend", "torch:cpu"]


# ---- work items (top level: they travel to the workers by reference) ------------------------


def square(x: int) -> int:
    if x == 3:
        raise ValueError("three is refused")
    return x * x


def die_on_five(x: int) -> int:
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return x * x


def sleepy(x: int) -> int:
    if x:
        time.sleep(60)
    return x


def _values(results: dict[int, ItemResult[int]]) -> dict[int, Any]:
    return {i: r.value if r.ok else (r.error.kind if r.error else None)
            for i, r in sorted(results.items())}


EXPECTED = {0: 0, 1: 1, 2: 4, 3: "ValueError", 4: 16, 5: 25, 6: 36}


# ---- the executors ---------------------------------------------------------------------------


def test_serial_and_two_processes_give_the_same_results_and_errors_stay_per_item() -> None:
    with make_executor() as serial:
        s = dict(serial.map_unordered(square, range(7)))
    started: list[int] = []
    with make_executor(jobs=2) as procs:
        p = dict(procs.map_unordered(square, range(7), on_start=started.append))
    assert serial.describe() == "serial" and procs.describe() == "2 local processes"
    assert _values(s) == _values(p) == EXPECTED
    assert sorted(started) == list(range(7))
    # in this process the live exception comes back; from a worker, its type, message, traceback
    with pytest.raises(ValueError, match="three is refused"):
        s[3].get()
    with pytest.raises(WorkItemFailed, match="ValueError: three is refused"):
        p[3].get()
    assert p[3].error is not None and "in square" in p[3].error.traceback
    assert p[4].get() == 16


def test_every_item_is_started_here_before_its_result_comes() -> None:
    started: list[int] = []
    main = threading.get_ident()

    def start(i: int) -> None:
        assert threading.get_ident() == main
        started.append(i)

    with make_executor(jobs=2) as ex:
        for i, _ in ex.map_unordered(square, range(8), on_start=start):
            assert i in started
    assert sorted(started) == list(range(8))


def test_a_killed_worker_is_that_items_error_and_the_others_finish() -> None:
    with make_executor(jobs=2) as ex:
        results = dict(ex.map_unordered(die_on_five, range(8)))
    died = {i: r.error for i, r in results.items() if not r.ok}
    assert list(died) == [5], died
    assert died[5] is not None and died[5].kind == "WorkerDied" and "SIGKILL" in died[5].message
    assert {i: r.value for i, r in results.items() if r.ok} == {i: i * i for i in range(8)
                                                               if i != 5}


def test_an_interrupt_in_the_parent_stops_the_workers_at_once() -> None:
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt), make_executor(jobs=2) as ex:
        for _ in ex.map_unordered(sleepy, range(4)):
            raise KeyboardInterrupt  # what Ctrl-C raises while the caller handles a result
    assert time.monotonic() - t0 < 20  # the other items sleep 60 s
    assert multiprocessing.active_children() == []


class _ReapedElsewhere:
    """A dead worker whose exit code another thread records late: what a worker looks like when
    the pool's manager thread wins the race to reap it (``join`` returns, ``exitcode`` is None)."""

    def __init__(self, delay: float) -> None:
        self.code: int | None = None
        self.timer = threading.Timer(delay, self._record)
        self.timer.daemon = True
        self.timer.start()

    def _record(self) -> None:
        self.code = -signal.SIGTERM

    def join(self, timeout: float | None = None) -> None:
        return None

    @property
    def exitcode(self) -> int | None:
        return self.code


def test_stopping_waits_for_an_exit_code_that_another_thread_records() -> None:
    # CI once saw a stopped worker still among the active children, and a killed worker's
    # SIGKILL reported as SIGTERM: both were exit codes not yet recorded by the manager thread
    late = _ReapedElsewhere(0.2)
    assert execution._await_exit([late], grace=5.0) is False
    assert late.exitcode == -signal.SIGTERM
    never = _ReapedElsewhere(60.0)
    t0 = time.monotonic()
    assert execution._await_exit([never], grace=0.2) is True  # still unknown: the caller kills
    assert time.monotonic() - t0 < 2
    never.timer.cancel()


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5, "2"])
def test_jobs_must_be_a_positive_integer(jobs: Any) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        make_executor(jobs)


def test_jobs_as_typed() -> None:
    assert parse_jobs("auto") == execution.available_cpus() >= 1
    assert parse_jobs(" 3 ") == 3
    for bad in ("0", "-2", "x", "1.5", ""):
        with pytest.raises(ValueError):
            parse_jobs(bad)


def test_cluster_addresses_are_checked_before_connecting() -> None:
    ex = make_executor(cluster="127.0.0.1:8786")
    assert isinstance(ex, DaskExecutor) and ex.address == "tcp://127.0.0.1:8786"
    assert ex.describe() == "dask tcp://127.0.0.1:8786 (not connected)"
    for bad in ("", "nonsense", "http://host:1", "tcp://host:99999"):
        with pytest.raises(ValueError, match="cluster address"):
            make_executor(cluster=bad)
    with pytest.raises(ValueError, match="exclude each other"):
        make_executor(jobs=2, cluster="tcp://127.0.0.1:8786")
    assert isinstance(make_executor(1), SerialExecutor)
    assert isinstance(make_executor(3), ProcessExecutor)


def test_an_unreachable_cluster_is_a_value_error_within_seconds() -> None:
    t0 = time.monotonic()
    with pytest.raises(execution.ClusterUnavailable, match="no dask scheduler answered"):
        make_executor(cluster="tcp://127.0.0.1:1", connect_timeout=1).start()
    assert time.monotonic() - t0 < 10


# ---- a dask cluster started here -------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as lc:
        yield lc.scheduler_address


def test_a_local_dask_cluster_gives_the_same_results(cluster: str) -> None:
    with make_executor(cluster=cluster) as ex:
        assert ex.describe() == f"dask {cluster}, 2 workers"
        results = dict(ex.map_unordered(square, range(7)))
    assert _values(results) == EXPECTED
    assert results[3].error is not None and "three is refused" in results[3].error.message


# ---- recmem verify ---------------------------------------------------------------------------

_SECONDS = re.compile(r"\d+(\.\d+)?(e[-+]?\d+)? s\b")  # times quoted inside messages


def _timeless(value: Any) -> Any:
    """A report without what differs between any two runs: times, run ID, start and end."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items()
                if k not in ("seconds", "started", "finished", "run_id")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    if isinstance(value, str):
        return _SECONDS.sub("… s", value)
    return value


def _verify(tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    rep = tmp_path / f"{name}.json"
    out = run_cli("verify", *CLAIMS, *BACKENDS, "--examples", "10", "--json", str(rep), *extra,
                  cwd=tmp_path, env={"RECMEM_HOME": str(tmp_path / "home")})
    assert out.returncode == 1, out.stderr  # O.relaxation is REFUTED
    assert "Traceback" not in out.stderr
    return json.loads(rep.read_text())


@pytest.fixture(scope="module")
def serial_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _verify(tmp_path_factory.mktemp("serial"), "serial")


def test_verify_on_two_processes_reports_what_a_serial_run_does(
        tmp_path: Path, serial_report: dict[str, Any]) -> None:
    parallel = _verify(tmp_path, "jobs", "--jobs", "2")
    assert [c["id"] for c in parallel["claims"]] == CLAIMS
    assert parallel["complete"] is True
    assert _timeless(parallel) == _timeless(serial_report)
    # every claim was stored as it finished, and Hypothesis left nothing in the working folder
    shown = run_cli("show", "O.relaxation", env={"RECMEM_HOME": str(tmp_path / "home")})
    assert "REFUTED" in shown.stdout
    assert not (tmp_path / ".hypothesis").exists()


def test_verify_on_a_dask_cluster_reports_what_a_serial_run_does(
        tmp_path: Path, serial_report: dict[str, Any], cluster: str) -> None:
    on_cluster = _verify(tmp_path, "cluster", "--cluster", cluster)
    assert _timeless(on_cluster) == _timeless(serial_report)


def test_a_claim_whose_worker_gave_no_result_is_an_error_and_the_rest_stand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class LosesTheSecond(SerialExecutor):
        def map_unordered(self, fn, items, on_start=None):
            for i, result in super().map_unordered(fn, items, on_start):
                yield i, (ItemResult(error=ItemError("WorkerDied", "killed by SIGKILL"))
                          if i == 1 else result)

    monkeypatch.setattr(execution, "make_executor", lambda jobs, cluster: LosesTheSecond())
    report = runner.verify(CLAIMS[:2], backends=["numpy"], controls=False, search_examples=5,
                           jobs=2)
    assert [c.id for c in report.claims] == CLAIMS[:2]
    assert report.claims[0].verdict is Verdict.REFUTED
    lost = report.claims[1]
    assert lost.verdict is Verdict.ERROR and "WorkerDied: killed by SIGKILL" in lost.evidence[0].message


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_without_the_search_leaves_out_only_the_search(jobs: int) -> None:
    """``search_domain=False`` (precision sweeps): no search or stored-counterexample evidence for
    the statement or any control, every numeric check still runs, and the report says so; a
    worker process gets the setting with its job."""
    kept = runner.verify(CLAIMS[:1], backends=["numpy"], search_examples=5, jobs=jobs)
    report = runner.verify(CLAIMS[:1], backends=["numpy"], search_examples=5, jobs=jobs,
                           search_domain=False)
    assert report.meta["search"] is False and kept.meta["search"] is True
    (without,), (with_search,) = report.claims, kept.claims
    searched = {e.kind for e in with_search.evidence} | {
        e.kind for r in with_search.controls or [] for e in r.evidence}
    assert "search" in searched
    assert all(e.kind != "search" for e in without.evidence)
    assert without.controls and all(e.kind != "search" for r in without.controls
                                    for e in r.evidence)
    numeric = [e.check for e in with_search.evidence if e.kind != "search"]
    assert [e.check for e in without.evidence] == numeric


def test_a_serial_run_raises_what_it_always_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug outside every check")

    monkeypatch.setattr(runner, "run_claim", broken)
    with pytest.raises(RuntimeError, match="a bug outside every check"):
        runner.verify(CLAIMS[:1], backends=["numpy"])


@pytest.mark.parametrize("args", [["--jobs", "0"], ["--jobs", "-2"], ["--jobs", "many"],
                                  ["--jobs", "2", "--cluster", "tcp://127.0.0.1:1"],
                                  ["--cluster", "nonsense"], ["--cluster", "tcp://127.0.0.1:1"]])
def test_bad_jobs_or_an_unreachable_cluster_exit_2_before_any_work(tmp_path: Path,
                                                                   args: list[str]) -> None:
    home = tmp_path / "home"
    t0 = time.monotonic()
    line = one_error_line(run_cli("verify", "O.det", *args, env={"RECMEM_HOME": str(home)}))
    assert time.monotonic() - t0 < 30
    assert any(word in line for word in ("jobs", "cluster", "scheduler")), line
    assert not home.exists()


def test_ctrl_c_stops_a_parallel_verify_with_130_and_the_finished_claims(tmp_path: Path) -> None:
    rep = tmp_path / "r.json"
    # paper W but its slowest claims, which a parallel run starts first (longest first)
    order = w_claims_quick_first()
    proc, err, seconds = interrupt_verify([*order, "--jobs", "2", "--quiet"], rep,
                                          tmp_path / "home", after_claims=2)
    assert proc.returncode == 130, err
    assert seconds < 15, "the interrupt did not stop the run promptly"
    assert "Traceback" not in err and "Exception ignored" not in err
    data = json.loads(rep.read_text())
    assert data["complete"] is False and data["interrupted"]["at"]
    ids = [c["id"] for c in data["claims"]]
    assert len(ids) >= 2 and ids == [i for i in order if i in ids]  # the order requested
