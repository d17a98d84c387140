"""``recmem condition``: sweeps that are stored point by point, resume after Ctrl-C or kill -9,
export deterministically, refuse bad usage in one line, and (with the real engine) certify
κ₂ = 1 for the roots of unity.

Most tests run the sweep mechanics against a fake engine (:data:`FAKE_ENGINE`, selected with
``RECMEM_CONDITION_ENGINE``): fast, deterministic, and steered by environment variables (a
sleep per point, a refusal, a failure, a point short of its digits, a violated overlay bound).
The tests named ``*_real_engine`` use ``recmem.numerics.condition`` itself.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import one_error_line

from recmem.checks.cli import main
from recmem.checks.sweep_store import STORE_NAME, SweepStore, count_points

FAKE_MODULE = "recmem_fake_condition_engine"
FAKE_ENGINE = textwrap.dedent('''
    """A stand-in for recmem.numerics.condition (tests only): κ = 10·N + L + seed/10."""
    import math
    import os
    import time
    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Point:
        family: str
        rows: int
        cols: int
        seed: int
        precision: "int | None"
        norm: str
        quantity: str
        digits: int = 3
        backend: str = "auto"


    def _n(name):
        return int(os.environ.get(name, "0"))


    def validate(point):
        if point.norm == "1" and point.rows != point.cols:
            raise ValueError("κ in the 1-norm needs a square V (fake)")


    def compute(point):
        log = os.environ.get("FAKE_LOG")
        if log:
            with open(log, "a") as fh:
                fh.write(f"{point.family} {point.rows} {point.cols} {point.seed}\\n")
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        if point.rows == _n("FAKE_REFUSE_N"):
            raise ValueError("fake refusal of this size")
        if point.rows == _n("FAKE_FAIL_N"):
            raise RuntimeError("fake engine bug")
        value = 10 * point.rows + point.cols + point.seed / 10
        certified = point.rows != _n("FAKE_UNCERTIFIED_N")
        bound = value / 2 if point.rows == _n("FAKE_VIOLATE_N") else 10 * value
        return {"value": repr(value), "lower": repr(value - 0.01), "upper": repr(value + 0.01),
                "log10_value": math.log10(value), "log10_lower": math.log10(value - 0.01),
                "log10_upper": math.log10(value + 0.01), "certified": certified,
                "digits_certified": point.digits + 1 if certified else 1,
                "precision_requested": point.precision, "precision_used": point.precision or 128,
                "method": "fake", "float64": value, "float64_log10": math.log10(value),
                "seconds": 0.0, "versions": {"fake": "1"},
                "note": "" if certified else "fake: ran out of bits",
                "overlays": [{"name": "Fake's bound", "side": "upper", "bound": repr(bound),
                              "log10_bound": math.log10(bound), "holds": bound >= value}]}
''')


@pytest.fixture(scope="session")
def fake_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fake_engine")
    (folder / f"{FAKE_MODULE}.py").write_text(FAKE_ENGINE)
    return folder


@pytest.fixture
def fake(fake_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The fake engine for in-process runs (and for the workers they spawn)."""
    monkeypatch.syspath_prepend(str(fake_dir))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(fake_dir), os.environ.get("PYTHONPATH")) if p))
    monkeypatch.setenv("RECMEM_CONDITION_ENGINE", FAKE_MODULE)
    for var in ("FAKE_LOG", "FAKE_SLEEP", "FAKE_REFUSE_N", "FAKE_FAIL_N", "FAKE_UNCERTIFIED_N",
                "FAKE_VIOLATE_N"):
        monkeypatch.delenv(var, raising=False)
    yield fake_dir


def condition(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``recmem condition ARGS`` in this process: exit status, stdout, stderr."""
    try:
        code = main(["condition", *args])
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def error_line(code: int, err: str) -> str:
    """Bad usage: status 2 and exactly one line on stderr, no traceback (as ``one_error_line``)."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("recmem: error:")
    return lines[0]


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def logged(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


SWEEP = ["--nodes", "ring:0.9:1", "--nodes", "roots-of-unity", "--rows", "4..12:4", "--seeds", "2"]
# ring: 3 sizes × 2 seeds; roots of unity (deterministic): 3 sizes, seed 0 only
SWEEP_POINTS = 9


# -- sweeps, store, exports (fake engine) -----------------------------------------------------------

def test_sweep_stores_every_point_and_exports_from_the_store(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    out = tmp_path / "sweep"
    code, stdout, err = condition(capsys, *SWEEP, "--out", str(out), "--csv", str(tmp_path / "a.csv"),
                                  "--json", str(tmp_path / "a.json"))
    assert code == 0, err
    assert len(logged(log)) == SWEEP_POINTS
    assert "roots-of-unity: deterministic, so one point per size (seed 0)" in err
    assert count_points(out) == SWEEP_POINTS
    assert "9 of 9 points done, 9 certified to 3 digits" in stdout
    rows = read_csv(tmp_path / "a.csv")
    assert [(r["family"], r["rows"], r["seed"]) for r in rows] == [
        ("ring:9/10:1", "4", "0"), ("ring:9/10:1", "4", "1"), ("ring:9/10:1", "8", "0"),
        ("ring:9/10:1", "8", "1"), ("ring:9/10:1", "12", "0"), ("ring:9/10:1", "12", "1"),
        ("roots-of-unity", "4", "0"), ("roots-of-unity", "8", "0"), ("roots-of-unity", "12", "0")]
    assert rows[3]["value"] == "88.1" and rows[3]["cols"] == "8"  # 10·N + L + seed/10
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["complete"] is True and doc["points_done"] == doc["points_total"] == 9
    assert doc["settings"]["families"] == ["ring:9/10:1", "roots-of-unity"]
    assert [p["value"] for p in doc["points"]] == [r["value"] for r in rows]
    # one line per point on a non-terminal stderr
    assert err.count(" certified, ") == SWEEP_POINTS

    # the same command again computes nothing and writes byte-identical exports
    log.unlink()
    code, _, err = condition(capsys, *SWEEP, "--out", str(out), "--csv", str(tmp_path / "b.csv"),
                             "--json", str(tmp_path / "b.json"))
    assert code == 0
    assert "9 of 9 points already done, running 0" in err
    assert logged(log) == []
    assert (tmp_path / "b.csv").read_bytes() == (tmp_path / "a.csv").read_bytes()
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()
    # --redo recomputes every point
    code, _, err = condition(capsys, *SWEEP, "--out", str(out), "--redo", "--quiet")
    assert code == 0 and len(logged(log)) == SWEEP_POINTS and err == ""


def test_a_larger_sweep_runs_only_its_new_points(fake: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "log"
    out = str(tmp_path / "sweep")
    assert condition(capsys, "--nodes", "roots-of-unity", "--rows", "4,8", "--out", out)[0] == 0
    monkeypatch.setenv("FAKE_LOG", str(log))
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4..16:4", "--out", out)
    assert code == 0
    assert "2 of 4 points already done, running 2" in err
    assert logged(log) == ["roots-of-unity 12 12 0", "roots-of-unity 16 16 0"]


def test_cols_make_the_product_and_precisions_are_points_of_their_own(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4,8", "--cols", "2,4",
                             "--precision", "64,auto", "--out", str(tmp_path / "s"),
                             "--csv", str(tmp_path / "a.csv"))
    assert code == 0, err
    rows = read_csv(tmp_path / "a.csv")
    assert [(r["precision_requested"], r["rows"], r["cols"]) for r in rows] == [
        ("", "4", "2"), ("", "4", "4"), ("", "8", "2"), ("", "8", "4"),
        ("64", "4", "2"), ("64", "4", "4"), ("64", "8", "2"), ("64", "8", "4")]
    assert {r["precision_used"] for r in rows} == {"64", "128"}


def test_the_same_family_written_twice_is_one_family(fake: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = condition(capsys, "--nodes", "ring:0.9:1", "--nodes", "ring:9/10:1", "--rows", "4",
                           "--out", str(tmp_path / "s"), "--csv", str(tmp_path / "a.csv"))
    assert code == 0
    assert [r["family"] for r in read_csv(tmp_path / "a.csv")] == ["ring:9/10:1"]


def test_jobs_2_gives_the_serial_csv(fake: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    serial, parallel = tmp_path / "serial.csv", tmp_path / "jobs2.csv"
    assert condition(capsys, *SWEEP, "--out", str(tmp_path / "a"), "--csv", str(serial))[0] == 0
    code, _, err = condition(capsys, *SWEEP, "--out", str(tmp_path / "b"), "--csv", str(parallel),
                             "--jobs", "2")
    assert code == 0, err
    assert parallel.read_bytes() == serial.read_bytes()


def test_a_dask_cluster_gives_the_serial_csv(fake: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    serial, dask = tmp_path / "serial.csv", tmp_path / "dask.csv"
    assert condition(capsys, *SWEEP, "--out", str(tmp_path / "a"), "--csv", str(serial))[0] == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code, _, err = condition(capsys, *SWEEP, "--out", str(tmp_path / "b"), "--csv", str(dask),
                                 "--cluster", cluster.scheduler_address)
    assert code == 0, err
    assert dask.read_bytes() == serial.read_bytes()


@pytest.mark.slow
def test_a_cluster_that_does_not_answer_is_bad_usage_and_leaves_no_store(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "8",
                             "--cluster", "tcp://127.0.0.1:1", "--out", str(tmp_path / "s"))
    assert "no dask scheduler answered at tcp://127.0.0.1:1" in error_line(code, err)
    assert not (tmp_path / "s").exists()


def test_overlay_violation_is_loud_and_exit_1(fake: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_VIOLATE_N", "8")
    code, out, _ = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4,8",
                             "--out", str(tmp_path / "s"))
    assert code == 1
    line = next(ln for ln in out.splitlines() if ln.startswith("VIOLATED"))
    assert line == ("VIOLATED: roots-of-unity N=8 L=8: measured κ₂ ∈ [87.99, 88.01] but Fake's "
                    "bound says ≤ 44.0 — one of the two is wrong")
    assert "1 bound(s) VIOLATED" in out


def test_a_point_short_of_its_digits_is_named_and_exit_1(fake: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_UNCERTIFIED_N", "4")
    code, out, _ = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4,8", "--digits", "5",
                             "--out", str(tmp_path / "s"))
    assert code == 1
    text = " ".join(out.split())
    assert ("not certified to 5 digits: roots-of-unity N=4 L=4: 1 digit(s) at 128 bits "
            "(fake: ran out of bits) — a limit of the arithmetic at this precision, not an error "
            "in the tool") in text
    assert "2 of 2 points done, 1 certified to 5 digits" in text


def test_engine_failures_and_refusals_cost_only_their_points(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_FAIL_N", "8")
    monkeypatch.setenv("FAKE_REFUSE_N", "12")
    code, out, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4..16:4",
                               "--out", str(tmp_path / "s"), "--csv", str(tmp_path / "a.csv"))
    assert code == 1
    assert [r["rows"] for r in read_csv(tmp_path / "a.csv")] == ["4", "16"]
    text = " ".join(out.split())
    assert "failed: roots-of-unity N=8 L=8: RuntimeError: fake engine bug" in text
    assert "refused by the engine: roots-of-unity N=12 L=12: fake refusal of this size" in text
    assert "RuntimeError: fake engine bug" in err and "please report" in err
    # the points without a result are computed again by the next run
    monkeypatch.delenv("FAKE_FAIL_N")
    monkeypatch.delenv("FAKE_REFUSE_N")
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4..16:4",
                             "--out", str(tmp_path / "s"))
    assert code == 0 and "2 of 4 points already done, running 2" in err


def test_a_refusal_of_some_points_warns_and_runs_the_others(fake: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4", "--cols", "4,8",
                               "--norm", "1", "--out", str(tmp_path / "s"))
    assert code == 1
    assert ("recmem: warning: the engine refuses 1 of 2 points of the sweep: κ in the 1-norm needs "
            "a square V (fake); running the others") in err
    assert "1 of 2 points done" in out


def test_plot_is_drawn_from_the_store(fake: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "k.png"
    code, _, err = condition(capsys, *SWEEP, "--out", str(tmp_path / "s"), "--plot", str(plot))
    assert code == 0, err
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plot.unlink()
    code, _, err = condition(capsys, *SWEEP, "--out", str(tmp_path / "s"), "--plot", str(plot),
                             "--quiet")
    assert code == 0 and plot.stat().st_size > 1000 and err == ""


# -- interruptions (fake engine, in a subprocess) ---------------------------------------------------

ROWS_12 = ["--nodes", "roots-of-unity", "--rows", "1..12"]


def _start(fake_dir: Path, out: Path, csv_path: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "recmem.checks", "condition", *ROWS_12, "--out", str(out),
         "--csv", str(csv_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(fake_dir), os.environ.get("PYTHONPATH")) if p),
             "RECMEM_CONDITION_ENGINE": FAKE_MODULE, **env})


def _wait_for_points(proc: subprocess.Popen[str], out: Path, k: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while count_points(out) < k:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the sweep stored too few points in time"
        time.sleep(0.05)


def _reference_csv(fake_dir: Path, tmp_path: Path) -> bytes:
    ref = tmp_path / "ref.csv"
    proc = _start(fake_dir, tmp_path / "ref", ref)
    proc.communicate(timeout=120)
    assert proc.returncode == 0
    return ref.read_bytes()


def _resume(fake_dir: Path, out: Path, csv_path: Path, log: Path) -> tuple[int, str]:
    proc = _start(fake_dir, out, csv_path, FAKE_LOG=str(log))
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def test_a_killed_sweep_resumes_where_it_stopped(fake_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    proc = _start(fake_dir, out, tmp_path / "killed.csv", FAKE_SLEEP="0.3")
    _wait_for_points(proc, out, 3)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    with SweepStore(out) as store:
        kept = {k.rows for k in store.stored_keys()}
    assert 3 <= len(kept) < 12
    code, err = _resume(fake_dir, out, tmp_path / "resumed.csv", tmp_path / "log")
    assert code == 0, err
    assert f"{len(kept)} of 12 points already done, running {12 - len(kept)}" in err
    ran = {int(line.split()[1]) for line in logged(tmp_path / "log")}
    assert ran == set(range(1, 13)) - kept  # only the missing points, each once
    assert len(logged(tmp_path / "log")) == 12 - len(kept)
    assert (tmp_path / "resumed.csv").read_bytes() == _reference_csv(fake_dir, tmp_path)


def test_ctrl_c_exits_130_keeps_the_points_and_says_how_to_resume(fake_dir: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    proc = _start(fake_dir, out, tmp_path / "partial.csv", FAKE_SLEEP="0.3")
    _wait_for_points(proc, out, 2)
    proc.send_signal(signal.SIGINT)
    stdout, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "run the same command again" in err
    stored = count_points(out)
    assert f"recmem: interrupted: {stored} of 12 points of this sweep are stored" in err
    assert "(interrupted)" in stdout
    assert len(read_csv(tmp_path / "partial.csv")) == stored  # the exports hold what is done
    code, err = _resume(fake_dir, out, tmp_path / "resumed.csv", tmp_path / "log")
    assert code == 0, err
    assert f"{stored} of 12 points already done, running {12 - stored}" in err
    assert (tmp_path / "resumed.csv").read_bytes() == _reference_csv(fake_dir, tmp_path)


# -- bad usage: one line, exit 2, before any work ---------------------------------------------------

@pytest.mark.parametrize(("args", "expect"), [
    (["--nodes", "bogus:1", "--rows", "8"], "unknown node family"),
    (["--nodes", "ring:2:1", "--rows", "8"], "Lemma 6"),
    (["--nodes", "file:/nonexistent/nodes.txt", "--rows", "8"], "does not exist"),
    (["--nodes", "roots-of-unity", "--rows", "0"], "sizes must be positive"),
    (["--nodes", "roots-of-unity", "--rows", "64..8"], "runs backwards"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--cols", "x"], "--cols"),
    (["--nodes", "roots-of-unity"], "--rows"),
    (["--rows", "8"], "--nodes"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--norm", "3"], "--norm"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--digits", "0"], "between 1 and 30"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--digits", "31"], "between 1 and 30"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--precision", "1"], "between 2 and 65536"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--precision", "64,70000"],
     "between 2 and 65536"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--precision", "lots"], "or auto"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--seeds", "0"], "--seeds"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--quantity", "det"], "--quantity"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--backend", "gpu"], "--backend"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--jobs", "0"], "--jobs"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--jobs", "2", "--cluster", "tcp://h:8786"],
     "exclude each other"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--out", "/dev/null/x"], "--out"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--json", "/dev/null/x.json"], "--json"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--csv", "/dev/null/x.csv"], "--csv"),
    (["--nodes", "roots-of-unity", "--rows", "8", "--plot", "k.txt"], "unknown format"),
    (["--nodes", "ring:0.9:1", "--rows", "1..1000", "--seeds", "2000"], "more than 1000000"),
])
def test_bad_usage_is_one_line_and_exit_2_before_any_work(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        expect: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    code, _, err = condition(capsys, *args)
    assert expect in error_line(code, err)
    assert not (tmp_path / "recmem-condition").exists() and not log.exists()


def test_out_that_is_a_file_or_another_database_is_refused(
        fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "8",
                             "--out", str(tmp_path / "file"))
    assert "not a directory" in error_line(code, err)
    import sqlite3

    (tmp_path / "other").mkdir()
    sqlite3.connect(tmp_path / "other" / STORE_NAME).execute("CREATE TABLE t (x)").connection.close()
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "8",
                             "--out", str(tmp_path / "other"))
    assert "not a recmem condition store" in error_line(code, err)


def test_plot_without_matplotlib_is_bad_usage(fake: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "8",
                             "--out", str(tmp_path / "s"), "--plot", str(tmp_path / "k.png"))
    assert "--plot needs matplotlib" in error_line(code, err)
    assert not (tmp_path / "s").exists()


def test_a_sweep_the_engine_refuses_entirely_is_bad_usage(fake: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # refused up front by the engine's validate(): nothing is created
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4", "--cols", "8",
                             "--norm", "1", "--out", str(tmp_path / "s"))
    assert error_line(code, err) == ("recmem: error: the engine refuses every point of the sweep: "
                                     "κ in the 1-norm needs a square V (fake)")
    assert not (tmp_path / "s").exists()
    # refused by compute() itself (no cheaper check exists): the same one line
    monkeypatch.setenv("FAKE_REFUSE_N", "4")
    code, _, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "4",
                             "--out", str(tmp_path / "s"))
    assert error_line(code, err) == ("recmem: error: the engine refuses every point of the sweep: "
                                     "fake refusal of this size")


def test_bad_usage_from_the_console_script() -> None:
    from cli_helpers import run_cli

    line = one_error_line(run_cli("condition", "--nodes", "ring:0.9", "--rows", "8"))
    assert "ring:RMIN:RMAX" in line


# -- the real engine --------------------------------------------------------------------------------

def test_roots_of_unity_have_kappa_1_certified_real_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's acceptance case: ``--nodes roots-of-unity --rows 8..64:8``."""
    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    monkeypatch.chdir(tmp_path)
    code, out, err = condition(capsys, "--nodes", "roots-of-unity", "--rows", "8..64:8",
                               "--csv", "k.csv")
    assert code == 0, err
    rows = read_csv(tmp_path / "k.csv")
    assert [int(r["rows"]) for r in rows] == list(range(8, 65, 8))
    from fractions import Fraction

    for r in rows:
        assert r["certified"] == "true" and int(r["digits_certified"]) >= 3
        assert Fraction(r["lower"]) <= 1 <= Fraction(r["upper"])  # κ₂ = 1 inside the bracket
        assert r["quantity"] == "kappa" and r["norm"] == "2" and r["cols"] == r["rows"]
    assert (tmp_path / "recmem-condition" / STORE_NAME).is_file()  # the default --out
    assert "8 of 8 points done, 8 certified to 3 digits" in out


def test_jobs_2_gives_the_serial_csv_real_engine(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECMEM_CONDITION_ENGINE", raising=False)
    sweep = ["--nodes", "ring:0.9:1", "--nodes", "chebyshev:-1:1", "--rows", "6..18:6",
             "--seeds", "2"]
    serial, parallel = tmp_path / "serial.csv", tmp_path / "jobs2.csv"
    assert condition(capsys, *sweep, "--out", str(tmp_path / "a"), "--csv", str(serial))[0] == 0
    code, _, err = condition(capsys, *sweep, "--out", str(tmp_path / "b"), "--csv", str(parallel),
                             "--jobs", "2")
    assert code == 0, err

    def timeless(path: Path) -> list[dict[str, str]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in read_csv(path)]

    assert len(timeless(serial)) == 9
    assert timeless(parallel) == timeless(serial)


def test_the_certified_column_tells_each_state_apart() -> None:
    """The table's "certified" cell (terminal and site): yes, NO (the requested digits missed),
    float64 only, INCONSISTENT."""
    from recmem.checks.condition_cli import point_cells
    from recmem.checks.sweep_store import PointKey

    def cell(backend: str, **row: object) -> str:
        key = PointKey(family="ring:9/10:1", quantity="kappa", norm="2", digits=3,
                       backend=backend, precision=None, rows=4, cols=4, seed=0)
        return point_cells(key, {"value": "2", "lower": "2", "upper": "2", **row}, True, [])[7]

    assert cell("auto", certified=True) == "yes"
    assert cell("auto", certified=False) == "NO"
    assert cell("float64", certified=False) == "float64 only"
    assert cell("auto", certified=True, inconsistent=True) == "INCONSISTENT"
