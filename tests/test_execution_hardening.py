"""Hardening of the execution layer (issue 20): a dask cluster over TLS and a warning for plain
TCP to another machine, workers that die with their parent, SIGTERM handled like Ctrl-C, a time
limit per claim (``--timeout``) and the longest claims started first."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import psutil
import pytest
from cli_helpers import one_error_line, run_cli, run_main, w_claims_quick_first

from recmem.checks import execution, interrupt, runner
from recmem.checks.execution import (
    CLUSTER_TRUST,
    DaskExecutor,
    ProcessExecutor,
    SerialExecutor,
    make_executor,
)
from recmem.checks.verdict import Verdict

# ---- work items (top level: they travel to the workers by reference) ------------------------


def nap(seconds: float) -> float:
    """Sleep (in C, GIL released) for ``seconds``; a negative value spins in Python forever."""
    if seconds < 0:
        while True:
            pass
    time.sleep(seconds)
    return seconds


# ---- 1. the cluster's security ---------------------------------------------------------------


class _FakeClient:
    """Stands in for :class:`distributed.Client`: records how it was made, has one worker."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, address: str, **kwargs: Any) -> None:
        _FakeClient.made.append({"address": address, **kwargs})

    def wait_for_workers(self, n: int, timeout: float) -> None:
        return None

    def nthreads(self) -> dict[str, int]:
        return {"w": 1}

    def close(self, timeout: float | None = None) -> None:
        return None


@pytest.fixture
def fake_client(monkeypatch: pytest.MonkeyPatch) -> type[_FakeClient]:
    import distributed

    _FakeClient.made = []
    monkeypatch.setattr(distributed, "Client", _FakeClient)
    return _FakeClient


def test_a_tls_address_connects_with_dasks_own_security_configuration(
        fake_client: type[_FakeClient], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import dask
    from distributed.security import Security

    ca = tmp_path / "ca.pem"
    ca.write_text("not read by this test\n")
    with dask.config.set({"distributed.comm.tls.ca-file": str(ca)}):
        ex = make_executor(cluster="tls://10.1.2.3:8786")
        assert isinstance(ex, DaskExecutor) and ex.address == "tls://10.1.2.3:8786"
        ex.start()
    security = fake_client.made[0]["security"]
    assert isinstance(security, Security) and security.tls_ca_file == str(ca)
    assert capsys.readouterr().err == ""  # TLS to another machine: no warning
    ex.close()


def test_a_tls_address_without_dasks_tls_configuration_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=r"distributed\.comm\.tls\.ca-file"):
        make_executor(cluster="tls://10.1.2.3:8786")
    line = one_error_line(run_main(capsys, "verify", "O.det", "--cluster", "tls://127.0.0.1:1"))
    assert "tls" in line and "ca-file" in line


@pytest.mark.parametrize(("address", "warns"), [
    ("tcp://10.1.2.3:8786", True), ("10.1.2.3:8786", True), ("tcp://scheduler.lab:8786", True),
    ("tcp://127.0.0.1:8786", False), ("tcp://localhost:8786", False), ("tcp://[::1]:8786", False),
])
def test_plain_tcp_to_another_machine_warns_once_on_stderr(
        fake_client: type[_FakeClient], capsys: pytest.CaptureFixture[str], address: str,
        warns: bool) -> None:
    ex = make_executor(cluster=address)
    ex.start()
    ex.close()
    err = capsys.readouterr().err
    assert fake_client.made[0]["security"] is None
    if warns:
        assert err.count("\n") == 1 and err.startswith("recmem: warning:")
        assert "plain TCP" in err and "tls://" in err
    else:
        assert err == ""


@pytest.mark.parametrize("command", ["verify", "fuzz", "condition"])
def test_help_of_every_command_with_cluster_says_what_a_scheduler_can_do(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    from recmem.checks.cli import main

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert " ".join(CLUSTER_TRUST.split()) in text
    assert "tls://" in text


# ---- 2. workers die with their parent ---------------------------------------------------------


def _descendants_once_workers_run(proc: subprocess.Popen[str], workers: int
                                  ) -> list[psutil.Process]:
    """The processes below ``proc`` once ``workers`` spawn workers of it run."""
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        kids = parent.children(recursive=True)
        spawned = []
        for kid in kids:
            try:
                if "spawn_main" in " ".join(kid.cmdline()):
                    spawned.append(kid)
            except psutil.Error:  # gone meanwhile
                pass
        if len(spawned) >= workers:
            time.sleep(1.0)  # the workers are importing and starting their items
            return parent.children(recursive=True)
        time.sleep(0.1)
    raise AssertionError("the workers never started")


@pytest.mark.parametrize("argv", [
    ["verify", "O.universality", "O.sparse-conditioning", "O.ring-conditioning", "--jobs", "2",
     "--quiet"],
    ["condition", "--nodes", "ring:0.5:0.9", "--rows", "300,400,500", "--seeds", "2", "--jobs",
     "2", "--quiet", "--out", "{tmp}/c"],
])
def test_kill_9_of_the_parent_takes_its_workers_and_resource_tracker_with_it(
        tmp_path: Path, argv: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks",
                             *[a.format(tmp=tmp_path) for a in argv]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "RECMEM_HOME": str(tmp_path / "home")})
    try:
        below = _descendants_once_workers_run(proc, workers=2)
        assert len(below) >= 3, below  # two workers and multiprocessing's resource tracker
        proc.kill()
        proc.wait(timeout=30)
        _, alive = psutil.wait_procs(below, timeout=10)
        assert alive == [], f"orphans left behind: {alive}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_worker_whose_parent_is_gone_before_it_arms_exits() -> None:
    # the worker's start-up checks the parent it was given: a different one means it died
    code = ("import os, sys; from recmem.checks import execution; "
            "execution._die_with_parent(os.getppid() + 1000000, True); sys.exit(0)")
    out = subprocess.run([sys.executable, "-c", code], timeout=120)
    assert out.returncode == 1


# ---- 3. SIGTERM is an interrupt ----------------------------------------------------------------


def test_sigterm_raises_keyboard_interrupt_within_stops_promptly() -> None:
    with pytest.raises(KeyboardInterrupt), interrupt.stops_promptly():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert interrupt.received() == "SIGTERM"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def _terminate_after(argv: list[str], report: Path, home: Path, claims: int,
                     group: bool = False) -> tuple[int, str]:
    """Start ``recmem ARGV``, send SIGTERM (to its process group with ``group``) once ``claims``
    entries are in the JSON report, and return (exit status, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RECMEM_HOME": str(home)},
                            start_new_session=group)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(json.loads(report.read_text())["claims"]) >= claims:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.terminate()
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_stops_verify_like_ctrl_c_with_its_exports(tmp_path: Path, jobs: str) -> None:
    rep, md = tmp_path / "r.json", tmp_path / "r.md"
    # paper W but its slowest claims (which a parallel run would start first); with --jobs 2
    # the whole process group gets SIGTERM (as from `timeout` or a scheduler): the workers die
    # of it too, which is no claim's fault
    ids = w_claims_quick_first()
    code, err = _terminate_after(["verify", *ids, "--jobs", jobs, "--quiet", "--json",
                                  str(rep), "--markdown", str(md)], rep, tmp_path / "home", 1,
                                 group=jobs != "1")
    assert code == 130, err
    assert "Traceback" not in err and "interrupted by SIGTERM" in err
    data = json.loads(rep.read_text())
    assert data["complete"] is False and data["interrupted"]["at"]
    assert data["claims"] and all(c["verdict"] != "ERROR" for c in data["claims"])
    assert "interrupted" in md.read_text()


def test_sigterm_stops_fuzz_like_ctrl_c(tmp_path: Path) -> None:
    rep = tmp_path / "f.json"
    code, err = _terminate_after(["fuzz", "--paper", "O", "--max-examples", "50", "--quiet",
                                  "--json", str(rep)], rep, tmp_path / "home", 1)
    assert code == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert json.loads(rep.read_text())["complete"] is False


# ---- 4. a time limit per claim -------------------------------------------------------------------


def test_an_item_past_the_time_limit_is_timed_out_and_the_others_finish() -> None:
    items = [0.1, -1.0, 0.2, 60.0, 0.1, 0.3]  # two never finish: a Python loop and a C sleep
    with make_executor(jobs=2, timeout=2.0) as ex:
        t0 = time.monotonic()
        results = dict(ex.map_unordered(nap, items))
    assert time.monotonic() - t0 < 40
    late = {i for i, r in results.items() if not r.ok}
    assert late == {1, 3}
    assert all(results[i].error.kind == "TimedOut" for i in late)  # type: ignore[union-attr]
    assert "time limit of 2 s" in str(results[1].error)
    assert {i: r.value for i, r in results.items() if r.ok} == {0: 0.1, 2: 0.2, 4: 0.1, 5: 0.3}


def test_one_job_with_a_time_limit_runs_in_a_worker_process() -> None:
    ex = make_executor(timeout=1.0)
    assert isinstance(ex, ProcessExecutor) and ex.jobs == 1
    with ex:
        results = dict(ex.map_unordered(nap, [-1.0, 0.0]))
    assert results[0].error is not None and results[0].error.kind == "TimedOut"
    assert results[1].value == 0.0
    assert isinstance(make_executor(), SerialExecutor)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), True, "3"])
def test_a_time_limit_is_a_positive_number(bad: Any) -> None:
    with pytest.raises(ValueError, match="time limit"):
        make_executor(timeout=bad)


def test_a_time_limit_is_refused_on_a_cluster() -> None:
    with pytest.raises(ValueError, match="local processes"):
        make_executor(cluster="tcp://127.0.0.1:8786", timeout=5.0)


@pytest.mark.parametrize("command", ["verify", "fuzz"])
@pytest.mark.parametrize("value", ["0", "-3", "nan", "inf", "soon"])
def test_bad_timeout_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], command: str,
                                           value: str) -> None:
    line = one_error_line(run_main(capsys, command, "O.det", "--timeout", value))
    assert "--timeout" in line


@pytest.mark.parametrize("command", ["verify", "fuzz"])
def test_timeout_with_a_cluster_exits_2(capsys: pytest.CaptureFixture[str],
                                        command: str) -> None:
    line = one_error_line(run_main(capsys, command, "O.det", "--timeout", "5", "--cluster",
                                   "tcp://127.0.0.1:1"))
    assert "time limit" in line


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_claim_past_timeout_is_inconclusive_timed_out_and_the_run_goes_on(
        tmp_path: Path, jobs: str) -> None:
    rep = tmp_path / "r.json"
    out = run_cli("verify", "O.universality", "O.relaxation", "--backend", "numpy", "--timeout",
                  "8", "--jobs", jobs, "--quiet", "--json", str(rep),
                  env={"RECMEM_HOME": str(tmp_path / "home")})
    assert out.returncode == 1, out.stderr  # O.relaxation is REFUTED, O.universality open
    data = {c["id"]: c for c in json.loads(rep.read_text())["claims"]}
    slow = data["O.universality"]  # about 26 s of work: stopped after 8
    assert slow["verdict"] == "INCONCLUSIVE" and "timed out" in slow["reason"]
    assert [e["outcome"] for e in slow["evidence"]] == ["inconclusive"]
    assert "timed out" in slow["evidence"][0]["message"]
    assert data["O.relaxation"]["verdict"] == "REFUTED"  # the run went on
    assert "timed out" in out.stdout


def test_fuzz_timeout_leaves_the_claim_undecided_and_goes_on(tmp_path: Path) -> None:
    rep = tmp_path / "f.json"
    out = run_cli("fuzz", "O.universality", "O.relaxation", "--max-examples", "100000",
                  "--timeout", "3", "--quiet", "--json", str(rep),
                  env={"RECMEM_HOME": str(tmp_path / "home")})
    assert out.returncode == 1, out.stderr
    camps = {c["id"]: c for c in json.loads(rep.read_text())["claims"]}
    assert camps["O.universality"]["status"] == "undecided"
    assert "timed out" in camps["O.universality"]["note"]
    assert camps["O.relaxation"]["status"] == "refuted", camps["O.relaxation"]


# ---- 5. the longest claims first -----------------------------------------------------------------


def test_parallel_runs_start_the_longest_stored_claims_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks import store

    ids = ["O.relaxation", "O.causal-fill", "O.roots-of-unity"]
    stored = {"O.relaxation": 0.2, "O.causal-fill": 3.5, "O.roots-of-unity": 1.1}
    monkeypatch.setattr(store, "load", lambda: {
        cid: {"run": {}, "result": {"seconds": s}, "stored_at": ""} for cid, s in stored.items()})
    assert runner.expected_seconds(ids) == stored
    assert runner.longest_first(ids) == [1, 2, 0]

    handed: list[str] = []

    class Records(SerialExecutor):
        def map_unordered(self, fn, items, on_start=None):  # type: ignore[no-untyped-def]
            items = list(items)
            handed.extend(job.claim_id for job in items)
            return super().map_unordered(fn, items, on_start)

    monkeypatch.setattr(execution, "make_executor", lambda *a, **k: Records())
    report = runner.verify(ids, backends=["numpy"], controls=False, search_examples=5, jobs=2)
    assert handed == ["O.causal-fill", "O.roots-of-unity", "O.relaxation"]
    assert [c.id for c in report.claims] == ids  # the report keeps the registry's order
    assert report.claims[0].verdict is Verdict.REFUTED


def test_without_stored_durations_the_static_hint_orders_the_claims(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from recmem.checks import store

    monkeypatch.setattr(store, "load", lambda: {})
    ids = ["O.det", "W.theorem", "O.universality"]
    assert runner.longest_first(ids) == [2, 1, 0]


def test_sigterm_stops_condition_like_ctrl_c_and_keeps_the_sweep(tmp_path: Path) -> None:
    out, rep = tmp_path / "c", tmp_path / "c.json"
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks", "condition", "--nodes",
                             "ring:0.5:0.9", "--rows", "100..600:50", "--quiet", "--out",
                             str(out), "--json", str(rep)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RECMEM_HOME": str(tmp_path / "home")})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out / "condition.sqlite").exists():
        time.sleep(0.05)
    time.sleep(3.0)  # some points are computed
    proc.terminate()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert rep.exists()  # the export of the points stored so far
