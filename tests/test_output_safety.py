"""No lost files, no stray files (issue 20): an output path that is recmem's own state, the
command's store or input, or another output of the same command is refused up front (exit 2, one
line, nothing touched); every file recmem writes gets the umask's mode; temporary files never
outlive a write, and those of a killed writer are removed by the next write of the same path."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import one_error_line, run_main

from recmem.checks.outputs import (
    TEMP_SUFFIX,
    Kept,
    OutputPathError,
    atomic_path,
    file_mode,
    refuse_clashes,
    remove_stale_temps,
    write_atomic,
)

KEEP = b"precious: must survive"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A recmem home holding a result store (stand-in bytes), and the test's folder as cwd."""
    h = tmp_path / "home"
    h.mkdir()
    (h / "results.sqlite").write_bytes(KEEP)
    monkeypatch.setenv("RECMEM_HOME", str(h))
    monkeypatch.chdir(tmp_path)
    yield h


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    return one_error_line(run_main(capsys, *args))


# ---- 1. outputs that are a store, an input or another output ------------------------------------

@pytest.mark.parametrize("command", [["verify", "O.unroll"], ["list"], ["fuzz", "O.unroll"]])
def test_recmems_result_store_is_never_an_output(home: Path, capsys: pytest.CaptureFixture[str],
                                                 command: list[str]) -> None:
    line = _refused(capsys, *command, "--json", str(home / "results.sqlite"))
    assert "recmem's result store" in line
    assert (home / "results.sqlite").read_bytes() == KEEP
    # another spelling of the same file: relative, through ./ and through a symbolic link
    os.symlink(home, "h")
    for alias in ("home/results.sqlite", "./home/results.sqlite", "h/results.sqlite"):
        assert "result store" in _refused(capsys, *command, "--json", alias)
    assert "result store" in _refused(capsys, *command, "--json", "home/results.sqlite-wal")
    assert (home / "results.sqlite").read_bytes() == KEEP


def test_stored_counterexamples_are_never_an_output(home: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (home / "fuzz-examples").mkdir()
    line = _refused(capsys, "fuzz", "O.unroll", "--json", str(home / "fuzz-examples" / "x"))
    assert "stored counterexamples" in line


def test_verify_json_and_markdown_may_not_be_one_file(home: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert "same file" in _refused(capsys, "verify", "O.unroll", "--json", "X", "--markdown", "X")
    assert "same file" in _refused(capsys, "verify", "O.unroll", "--json", "X", "--markdown", "./X")
    Path("X").write_bytes(KEEP)
    os.symlink("X", "L")
    assert "same file" in _refused(capsys, "verify", "O.unroll", "--json", "X", "--markdown", "L")
    assert Path("X").read_bytes() == KEEP


def test_condition_outputs_may_not_be_its_store_its_input_or_each_other(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sweep = ["condition", "--nodes", "roots-of-unity", "--rows", "4", "--out", "cc"]
    line = _refused(capsys, *sweep, "--csv", "cc/condition.sqlite")
    assert "the sweep's store" in line
    assert "the sweep's store" in _refused(capsys, *sweep, "--json", "./cc/condition.sqlite-wal")
    assert not Path("cc").exists()  # refused before the store was made
    assert "same file" in _refused(capsys, *sweep, "--csv", "X", "--json", "X")
    assert "same file" in _refused(capsys, *sweep, "--json", "X.png", "--plot", "X.png")
    nodes = Path("n.txt")
    nodes.write_text("0.5\n0.25\n")
    for alias in ("n.txt", "./n.txt", str(tmp_path / "n.txt")):
        line = _refused(capsys, "condition", "--nodes", "file:n.txt", "--rows", "2", "--out", "cc",
                        "--csv", alias)
        assert "the input of --nodes file:n.txt" in line
    assert nodes.read_text() == "0.5\n0.25\n"
    assert not Path("cc").exists()


def test_memory_outputs_may_not_be_its_input_or_each_other(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    np.savez("x.npz", W=np.array([[-1.0]]), U=np.array([[1.0]]), c=np.array([1.0]))
    before = Path("x.npz").read_bytes()
    assert "the input x.npz" in _refused(capsys, "memory", "x.npz", "--json", "x.npz")
    assert "the input" in _refused(capsys, "memory", "./x.npz", "--json", "x.npz")
    assert "same file" in _refused(capsys, "memory", "exp:0.5", "--json", "m.png", "--plot",
                                   "m.png")
    Path("mytarget.py").write_text("def f(t, x):\n    return x\n")
    assert "the source of mytarget:f" in _refused(capsys, "memory", "mytarget:f", "--json",
                                                  "mytarget.py")
    assert Path("x.npz").read_bytes() == before


def test_refuse_clashes_compares_resolved_paths_and_hard_links(tmp_path: Path) -> None:
    a = tmp_path / "a"
    a.write_text("x")
    os.link(a, tmp_path / "b")
    with pytest.raises(OutputPathError, match="same file"):
        refuse_clashes([("--json", a), ("--csv", tmp_path / "b")])
    with pytest.raises(OutputPathError, match="is the input"):
        refuse_clashes([("--csv", tmp_path / "sub" / ".." / "a")], [Kept("the input", a)])
    refuse_clashes([("--json", a), ("--csv", None), ("--plot", tmp_path / "c")])  # fine


# ---- 2. one writer, one mode ---------------------------------------------------------------------

@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def test_every_output_of_a_command_has_the_umasks_mode(home: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       umask_027: None) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    assert file_mode() == 0o640
    runs = [
        ["verify", "O.unroll", "--backend", "numpy", "--no-controls", "--quiet",
         "--json", "v.json", "--markdown", "v.md"],
        ["condition", "--nodes", "roots-of-unity", "--rows", "4", "--out", "cc", "--quiet",
         "--csv", "c.csv", "--json", "c.json", "--plot", "c.png"],
        ["memory", "exp:0.5", "--quiet", "--json", "m.json", "--plot", "m.png"],
    ]
    for args in runs:
        r = run_main(capsys, *args)
        assert r.returncode == 0, r.stderr
    written = ["v.json", "v.md", "c.csv", "c.json", "c.png", "m.json", "m.png"]
    modes = {name: oct(Path(name).stat().st_mode & 0o777) for name in written}
    assert modes == dict.fromkeys(written, oct(0o640))
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left


def test_write_atomic_takes_text_and_bytes(tmp_path: Path, umask_027: None) -> None:
    write_atomic(tmp_path / "t", "é\n")
    write_atomic(tmp_path / "sub" / "b", b"\x00\xff")
    assert (tmp_path / "t").read_bytes() == "é\n".encode()
    assert (tmp_path / "sub" / "b").read_bytes() == b"\x00\xff"
    assert {oct(p.stat().st_mode & 0o777) for p in (tmp_path / "t", tmp_path / "sub" / "b")} \
        == {oct(0o640)}


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "fig.png"
    target.write_bytes(KEEP)
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("savefig failed")
    assert target.read_bytes() == KEEP
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.png"]


def test_temps_of_killed_writers_go_and_those_of_live_ones_stay(tmp_path: Path) -> None:
    """A writer killed mid-write leaves its hidden temp; the next write of the same path removes
    it, but never the temp of a process that is still writing."""
    target = tmp_path / "loss.png"
    code = ("import os, sys\nfrom recmem.checks.outputs import atomic_path\n"
            f"with atomic_path({str(target)!r}) as tmp:\n"
            "    tmp.write_bytes(b'')\n"
            "    os.kill(os.getpid(), 9)\n")
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == -9
    [stale] = tmp_path.glob(f".loss.png.*{TEMP_SUFFIX}")
    live = Path(str(stale).removesuffix(TEMP_SUFFIX).rsplit("-", 1)[0]
                + f"-{os.getpid()}{TEMP_SUFFIX}")
    live.write_bytes(b"")  # named after this (live) process
    assert remove_stale_temps(target) == [stale]
    write_atomic(target, b"png")
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name, "loss.png"]
