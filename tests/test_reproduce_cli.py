"""``recmem reproduce``: the command's contract, tested with a stand-in experiment
(``RECMEM_EXPERIMENTS``): outputs, summary.json, exit statuses, bad usage, and a training run
that is interrupted and continued from its checkpoint with the result of an uninterrupted run."""

from __future__ import annotations

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
import torch

from tests.cli_helpers import one_error_line, run_cli, run_main

FAKE_MODULE = "recmem_fake_experiment"
FAKE = textwrap.dedent('''
    """A stand-in experiment (tests only): fits y = 2x with Adam, checkpointed every epoch."""
    import os
    import signal
    import time

    import torch

    from recmem.checks.reproduce.experiment import Experiment, ReproduceUsageError
    from recmem.numerics.training import fit


    def load(ctx):
        if os.environ.get("FAKE_BAD_DATA"):
            raise ReproduceUsageError("--data x: bad magic number 0x1234")
        return None if ctx.data is None else ctx.data.name


    class KilledWhileSaving:
        """A figure whose saving is cut by kill -9 (the temporary file exists, empty)."""

        def savefig(self, path, **kw):
            open(path, "wb").close()
            os.kill(os.getpid(), signal.SIGKILL)


    def run(ctx):
        ctx.load_data()
        name = os.environ.get("FAKE_PREFIX", "loss")
        if os.environ.get("FAKE_KILL_FIGURE"):
            ctx.save_figure(KilledWhileSaving(), f"{name}.png")
        g = ctx.torch_generator("data")
        x = torch.randn(256, 1, generator=g, dtype=torch.float64)
        y = 2 * x
        torch.manual_seed(ctx.seed)
        model = torch.nn.Linear(1, 1).double()
        sleep = float(os.environ.get("FAKE_SLEEP", "0"))

        def loss(a, b):
            time.sleep(sleep / 8)
            return torch.nn.functional.mse_loss(a, b)

        with ctx.progress("training", ctx["epochs"]) as advance:
            hist = fit(model, x, y, x, y, epochs=ctx["epochs"], batch_size=32, lr=0.05,
                       seed=ctx.seed, loss=loss, saver=ctx.checkpoint("model"), advance=advance)
        ctx.measure("resumed_at", hist.resumed_at)
        slope = float(model.weight.detach())
        ctx.measure("slope", slope)
        ctx.write_csv(f"{name}.csv", [{"epoch": i + 1, "val": v} for i, v in enumerate(hist.val)])
        if os.environ.get("FAKE_LATE_BAD"):
            raise ReproduceUsageError("a fault found late, after files were written")
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.semilogy(hist.val)
        ctx.save_figure(fig, f"{name}.png")
        agree = abs(slope - 2) < float(os.environ.get("FAKE_TOL", "0.1"))
        ctx.finding("Fig. 0", "slope", round(slope, 4), 2, "agrees" if agree else "disagrees",
                    f"fitted slope {slope:.4f} against 2")


    EXPERIMENT = Experiment(
        name="T-fake", title="a stand-in", source="tests", run=run,
        settings={"ci": {"epochs": 12}, "paper": {"epochs": 40}},
        choices={"batch": "32, fixed"}, data_help="anything", load_data=load)
''')


@pytest.fixture
def fake(tmp_path_factory: pytest.TempPathFactory,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The stand-in registered for subprocesses (the returned environment) and in this process."""
    folder = tmp_path_factory.mktemp("fake_experiment")
    (folder / f"{FAKE_MODULE}.py").write_text(FAKE)
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH"))
                                         if p),
           "RECMEM_EXPERIMENTS": FAKE_MODULE, "MPLBACKEND": "Agg"}
    for var in ("FAKE_SLEEP", "FAKE_TOL", "FAKE_BAD_DATA", "FAKE_PREFIX", "FAKE_KILL_FIGURE",
                "FAKE_LATE_BAD"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.syspath_prepend(str(folder))
    for var in ("RECMEM_EXPERIMENTS", "MPLBACKEND"):
        monkeypatch.setenv(var, env[var])
    yield env


def _summary(out: Path) -> dict[str, object]:
    return json.loads((out / "summary.json").read_text())


def test_a_run_writes_its_figures_data_and_summary(fake: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = run_cli("reproduce", "T-fake", "--out", str(out), "--seed", "3", env=fake)
    assert r.returncode == 0, r.stderr
    s = _summary(out)
    assert s["complete"] is True and s["scale"] == "ci" and s["seed"] == 3
    assert s["settings"] == {"epochs": 12} and s["choices"] == {"batch": "32, fixed"}
    assert s["files"] == ["loss.csv", "loss.png"]
    [f] = s["findings"]  # type: ignore[misc]
    assert f["agreement"] == "agrees" and f["paper"] == 2 and f["statement"]
    assert (out / "loss.png").read_bytes()[:4] == b"\x89PNG"
    rows = (out / "loss.csv").read_text().splitlines()
    assert rows[0] == "epoch,val" and len(rows) == 13
    assert "T-fake" in r.stdout and "agrees" in r.stdout


def test_the_same_seed_gives_the_same_numbers(fake: dict[str, str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    first = run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--seed", "3", "--quiet")
    again = run_main(capsys, "reproduce", "T-fake", "--out", str(tmp_path / "again"), "--seed",
                     "3", "--quiet")
    other = run_main(capsys, "reproduce", "T-fake", "--out", str(tmp_path / "other"), "--seed",
                     "4", "--quiet")
    assert first.returncode == 0
    assert again.returncode == other.returncode == 0
    assert (tmp_path / "again" / "loss.csv").read_text() == (out / "loss.csv").read_text()
    assert (tmp_path / "other" / "loss.csv").read_text() != (out / "loss.csv").read_text()


def test_a_disagreement_is_exit_status_1(fake: dict[str, str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_TOL", "0")
    r = run_main(capsys, "reproduce", "T-fake", "--out", str(tmp_path / "o"), "--quiet")
    assert r.returncode == 1, r.stderr
    assert _summary(tmp_path / "o")["findings"][0]["agreement"] == "disagrees"  # type: ignore[index]


def test_bad_usage_is_one_line_and_exit_2(fake: dict[str, str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(*args: str) -> str:
        return one_error_line(run_main(capsys, "reproduce", *args))

    monkeypatch.chdir(tmp_path)
    bad()
    assert "unknown experiment" in bad("nope")
    bad("T-fake", "--list")
    bad("T-fake", "--scale", "huge")
    bad("T-fake", "--seed", "-1")
    assert "no such file" in bad("T-fake", "--data", str(tmp_path / "missing"))
    monkeypatch.setenv("FAKE_BAD_DATA", "1")
    assert "bad magic" in bad("T-fake", "--out", str(tmp_path / "b"), "--data", str(tmp_path))
    monkeypatch.delenv("FAKE_BAD_DATA")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert "is a file" in bad("T-fake", "--out", str(a_file))
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert "holds no recmem run" in bad("T-fake", "--out", str(busy))
    done = tmp_path / "done"
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(done), "--quiet").returncode == 0
    assert "other settings" in bad("T-fake", "--out", str(done), "--seed", "1")
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(done), "--seed", "1", "--fresh",
                    "--quiet").returncode == 0
    if not torch.cuda.is_available():
        assert "no CUDA device" in bad("T-fake", "--device", "cuda")


def test_the_list_names_every_experiment_with_its_settings(
        fake: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    r = run_main(capsys, "reproduce", "--list")
    assert r.returncode == 0, r.stderr
    for name in ("O-mnist", "O-sparse", "O-lotka-volterra", "W-linear-stability",
                 "W-nonlinear-stability", "W-reparam", "T-fake"):
        assert name in r.stdout
    assert "epochs=12" in r.stdout and "epochs=40" in r.stdout


def test_an_interrupted_run_continues_from_its_checkpoint(fake: dict[str, str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Kill it mid-training (Ctrl-C), run the same command again: it resumes from the last
    checkpoint and ends with the numbers of a run that was never interrupted. (Only the run
    that is interrupted needs a process of its own.)"""
    whole = tmp_path / "whole"
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(whole), "--quiet").returncode == 0
    out = tmp_path / "cut"
    proc = subprocess.Popen([sys.executable, "-m", "recmem.checks", "reproduce", "T-fake",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **fake, "FAKE_SLEEP": "0.5"})
    deadline = time.monotonic() + 120
    while not (out / "checkpoints" / "model.pt").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "run the same command again" in err
    assert _summary(out)["complete"] is False
    r = run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    s, w = _summary(out), _summary(whole)
    assert s["complete"] is True and s["measured"]["resumed_at"] > 0  # type: ignore[index]
    assert s["measured"]["slope"] == w["measured"]["slope"]  # type: ignore[index]
    assert (out / "loss.csv").read_text() == (whole / "loss.csv").read_text()


# ---- no stray files, no lost files (issue 20) ------------------------------------------------------

def test_bad_data_is_refused_before_anything_is_written(fake: dict[str, str], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad --data (the experiment's own reading of it) leaves no folder and no run.json, so the
    corrected command into the same folder simply runs."""
    out, data = tmp_path / "run", tmp_path / "data.bin"
    data.write_bytes(b"\x00\x01")
    monkeypatch.setenv("FAKE_BAD_DATA", "1")
    assert "bad magic" in one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out),
                                                  "--data", str(data)))
    assert not out.exists()
    monkeypatch.delenv("FAKE_BAD_DATA")
    r = run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--data", str(data), "--quiet")
    assert r.returncode == 0, r.stderr


def test_paper_scale_without_data_writes_nothing(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mnist"
    line = one_error_line(run_main(capsys, "reproduce", "O-mnist", "--scale", "paper", "--out",
                                   str(out), "--device", "cpu"))
    assert "--data" in line
    assert not out.exists()


def test_a_fault_found_late_leaves_nothing_in_a_new_folder(fake: dict[str, str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_LATE_BAD", "1")
    out = tmp_path / "run"
    assert "found late" in one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out),
                                                   "--quiet"))
    assert not out.exists()


def test_a_folder_of_other_settings_is_refused_naming_what_differs(
        fake: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--quiet").returncode == 0
    line = one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--seed", "1"))
    assert "seed: 0 there, 1 here" in line
    line = one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--scale",
                                   "paper"))
    assert "scale: ci there, paper here" in line and "setting epochs: 12 there, 40 here" in line
    monkeypatch.setattr("recmem.checks.cli._version", lambda: "0.0.0-other")
    line = one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out)))
    assert "recmem version:" in line and "0.0.0-other here" in line


def test_the_data_is_fingerprinted_by_content(fake: dict[str, str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The same bytes at another path continue the run; other bytes at the same path do not."""
    out, data, copy = tmp_path / "run", tmp_path / "a.bin", tmp_path / "copy.bin"
    data.write_bytes(b"first")
    copy.write_bytes(b"first")
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--data", str(data),
                    "--quiet").returncode == 0
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--data", str(copy),
                    "--quiet").returncode == 0
    data.write_bytes(b"other")
    line = one_error_line(run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--data",
                                   str(data)))
    assert "--data: data sha256" in line and "there" in line
    assert "other settings" in one_error_line(run_main(capsys, "reproduce", "T-fake", "--out",
                                                       str(out)))  # no data: embedded there


def test_fresh_removes_the_earlier_runs_files_and_only_those(
        fake: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--quiet").returncode == 0
    (out / "notes.txt").write_text("mine")
    (out / "checkpoints" / "mine.txt").write_text("mine too")
    monkeypatch.setenv("FAKE_PREFIX", "other")
    assert run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--seed", "1", "--fresh",
                    "--quiet").returncode == 0
    left = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert left == ["checkpoints/mine.txt", "checkpoints/model.pt", "notes.txt", "other.csv",
                    "other.png", "run.json", "summary.json"]
    assert _summary(out)["seed"] == 1 and _summary(out)["files"] == ["other.csv", "other.png"]


def test_a_kill_during_a_figure_write_leaves_no_temp_file_after_the_resumed_run(
        fake: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    killed = run_cli("reproduce", "T-fake", "--out", str(out), env={**fake, "FAKE_KILL_FIGURE": "1"})
    assert killed.returncode == -9
    assert [p.name for p in out.glob(".loss.png.*")], "the kill left no temporary file to clean"
    r = run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    assert [p for p in out.rglob(".*")] == []


def test_help_says_seconds_where_it_means_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    r = run_main(capsys, "reproduce", "--help")
    assert r.returncode == 0
    assert "minutes" not in r.stdout and "seconds to a minute" in " ".join(r.stdout.split())


def test_every_file_of_a_run_has_the_umasks_mode(fake: dict[str, str], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """CSV, PNG, summary.json, run.json and the checkpoint alike: 0666 less the umask (PNGs were
    written 0600)."""
    out = tmp_path / "run"
    old = os.umask(0o027)
    try:
        r = run_main(capsys, "reproduce", "T-fake", "--out", str(out), "--quiet")
    finally:
        os.umask(old)
    assert r.returncode == 0, r.stderr
    modes = {p.relative_to(out).as_posix(): oct(p.stat().st_mode & 0o777)
             for p in out.rglob("*") if p.is_file()}
    assert modes == dict.fromkeys(["checkpoints/model.pt", "loss.csv", "loss.png", "run.json",
                                   "summary.json"], oct(0o640))
