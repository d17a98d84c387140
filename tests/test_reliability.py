"""Reliability of the command line (issue 8): no lost results, interrupts that always stop a run,
output paths and every parameter checked before any work, honest hints, nothing cut mid-word."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_helpers import interrupt_verify, one_error_line, run_cli, run_main, w_claims_quick_first
from rich.console import Console

from recmem.checks import fuzz, store
from recmem.checks.cli import _verdict_table, build_parser, main
from recmem.checks.hints import resolution_hint, shorten
from recmem.checks.outputs import OutputPathError, check_output_path, write_atomic
from recmem.checks.registry import all_claims
from recmem.checks.report import ClaimResult, Report
from recmem.checks.runner import UsageError, verify
from recmem.checks.verdict import Evidence, Outcome, Verdict

UNWRITABLE_FOLDER = Path("/proc")  # not even root can create files there


def result(claim_id: str, verdict: Verdict = Verdict.VERIFIED,
           evidence: list[Evidence] | None = None) -> ClaimResult:
    return ClaimResult(claim_id, "t", "s", verdict, {"location": "§1"}, evidence or [], {}, None,
                       0.0)


# ---- 4. the store: concurrent writers never lose a result -----------------------------------


def _writer(home: str, tag: int, n: int) -> None:
    os.environ["RECMEM_HOME"] = home
    for i in range(n):
        store.save(result(f"X.{tag}.{i}"), {"seed": tag, "run_id": f"run{tag}"})


def test_concurrent_writers_keep_every_row(tmp_path: Path) -> None:
    procs = [multiprocessing.get_context("fork").Process(target=_writer,
                                                        args=(str(tmp_path), tag, 40))
             for tag in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    os.environ["RECMEM_HOME"] = str(tmp_path)
    latest = store.load()
    assert len(latest) == 160
    assert latest["X.3.39"]["run"]["seed"] == 3


def test_history_keeps_every_run_newest_first(tmp_path: Path) -> None:
    for seed in range(3):
        store.save(result("O.det", Verdict.VERIFIED if seed else Verdict.REFUTED),
                   {"seed": seed})
    runs = store.history("O.det")
    assert [r.run["seed"] for r in runs] == [2, 1, 0]
    assert runs[-1].verdict == "REFUTED"
    latest = store.latest("O.det")
    assert latest is not None and latest.run["seed"] == 2


def test_two_concurrent_verify_runs_keep_both(tmp_path: Path) -> None:
    env = {"RECMEM_HOME": str(tmp_path / "home")}
    o = ["O.unroll", "O.vandermonde-form", "O.causal-fill", "O.relaxation"]
    w = ["W.memory-linear", "W.memory-impulse", "W.lyapunov"]
    common = ["--backend", "numpy", "--no-controls", "--quiet", "--examples", "5"]
    procs = [subprocess.Popen([sys.executable, "-m", "recmem.checks", "verify", *ids, *common],
                              env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for ids in (o, w)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode in (0, 1), err
    os.environ["RECMEM_HOME"] = env["RECMEM_HOME"]
    assert set(store.load()) == set(o) | set(w)
    shown = run_cli("show", "W.memory-linear", "--history", env=env)
    assert shown.returncode == 0 and "1 stored run" in shown.stdout


def test_an_unwritable_home_is_reported_once_and_the_run_goes_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(UNWRITABLE_FOLDER / "rh"))
    out = run_main(capsys, "verify", "O.unroll", "O.vandermonde-form", "--backend", "numpy",
                   "--no-controls", "--quiet")
    assert out.returncode == 0, out.stderr
    warnings = [ln for ln in out.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and "RECMEM_HOME" in warnings[0], out.stderr
    assert "Traceback" not in out.stderr


# ---- 5. interrupts --------------------------------------------------------------------------

SWALLOWED = textwrap.dedent("""
    import gc, os, signal, sys, time
    from recmem.checks import interrupt

    def swallow(phase, info):  # like Hypothesis's GC timer: exceptions here are only printed
        if phase == "start" and not swallow.sent:
            swallow.sent = True
            os.kill(os.getpid(), signal.SIGINT)  # delivered inside this callback
            x = sum(range(1000))  # bytecode for the handler to run on
    swallow.sent = False
    gc.callbacks.append(swallow)
    try:
        with interrupt.stops_promptly():
            t0 = time.monotonic()
            while time.monotonic() - t0 < 20:
                gc.collect()
                time.sleep(0.001)
        print("finished: the interrupt was lost")
        sys.exit(3)
    except KeyboardInterrupt:
        print("stopped after", round(time.monotonic() - t0, 3))
        sys.exit(130)
""")


def test_an_interrupt_swallowed_by_a_gc_callback_still_stops_the_run() -> None:
    out = subprocess.run([sys.executable, "-c", SWALLOWED], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 130, out
    assert "stopped after" in out.stdout
    assert float(out.stdout.split()[-1]) < 5


@pytest.mark.parametrize("claims_before_interrupt", [1, 3])
def test_ctrl_c_stops_verify_with_130_and_a_valid_partial_report(
        tmp_path: Path, claims_before_interrupt: int) -> None:
    rep, md = tmp_path / "r.json", tmp_path / "r.md"
    proc, err, seconds = interrupt_verify([*w_claims_quick_first(), "--markdown", str(md),
                                           "--quiet"], rep, tmp_path / "home",
                                          claims_before_interrupt)
    assert proc.returncode == 130, err
    assert seconds < 30, "the interrupt did not stop the run promptly"
    assert "Traceback" not in err and "Exception ignored" not in err
    data = json.loads(rep.read_text())
    assert data["complete"] is False and data["interrupted"]["at"]
    assert len(data["claims"]) >= claims_before_interrupt
    assert "Incomplete run" in md.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "r.json", "r.md"]


# ---- 6. output paths ------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--json", "--markdown"])
def test_an_unwritable_output_path_is_refused_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        option: str) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("RECMEM_HOME", str(home))
    for target in (tmp_path, UNWRITABLE_FOLDER / "report.out"):
        line = one_error_line(run_main(capsys, "verify", "--paper", "W", option, str(target)))
        assert option in line and str(target) in line
        assert not home.exists(), "work started before the output path was checked"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write read-only files")
def test_a_read_only_output_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text("{}")
    target.chmod(0o444)
    with pytest.raises(OutputPathError, match="read-only"):
        check_output_path(target, "--json")


def test_other_commands_check_their_output_paths_too(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    one_error_line(run_main(capsys, "list", "--json", str(tmp_path)))
    one_error_line(run_main(capsys, "fuzz", "O.det", "--json", str(tmp_path)))


def test_write_atomic_leaves_no_temp_file_and_uses_the_umask(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o640

    def fail(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(tmp_path / "b.txt", "y")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


# ---- 7–10. every input checked up front -----------------------------------------------------


@pytest.mark.parametrize("args", [
    ["verify", "O.det", "--precision", "99999999999"],
    ["verify", "O.det", "--backend", "flint@99999999999"],
    ["verify", "O.det", "--backend", "mpmath@70000"],
    ["verify", "O.det", "--seed", "-1"],
    ["fuzz", "O.det", "--seed", "-1"],
    ["verify", "O.det", "--examples", "0"],
    ["verify", "O.sparse", "--param", "N=3"],
    ["verify", "O.relaxation.corrected", "--param", "N=3"],
    ["verify", "O.sparse", "--param", "ks=0"],
    ["verify", "O.block", "--param", "R=1"],
])
def test_bad_input_exits_2_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          args: list[str]) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("RECMEM_HOME", str(home))
    one_error_line(run_main(capsys, *args))
    assert not home.exists()


def test_the_python_api_refuses_the_same_input() -> None:
    with pytest.raises(UsageError, match="seed"):
        verify(["O.det"], seed=-1)
    with pytest.raises(UsageError, match="65536"):
        verify(["O.det"], precision=10**11)
    with pytest.raises(UsageError, match="seed"):
        fuzz("O.det", seed=-1)


def test_help_states_the_precision_limit() -> None:
    assert "65536" in build_parser()._subparsers._group_actions[0].choices["verify"].format_help()


# A claim whose every run trains models (O.universality's search trains on torch:cpu whatever
# the arithmetic) runs its other parameters at a small experiment's sizes, one epoch long: its
# defaults made that claim's case 27 s of this test's 88 s, and each parameter is still checked
# at its smallest accepted value.
SHORT_TRAINING = {"O.universality": {"epochs": "1", "L": "32", "trajectories": "16", "N": "8",
                                     "hidden": "8"}}


@pytest.mark.parametrize("claim_id", [cid for cid, c in all_claims().items()
                                      if any(p.parse is int for p in c.params)])
def test_every_parameter_at_its_smallest_accepted_value_is_checked_up_front(claim_id: str) -> None:
    """Each integer parameter of every claim at the smallest value its checks accept: either a
    usage error before any work, or a run without ERROR evidence (a parameter the claim cannot
    check must never surface from inside the run). One case per claim, so that pytest-xdist
    spreads them over its workers."""
    errors = []
    for claim in [all_claims()[claim_id]]:
        for p in claim.params:
            if p.parse is not int:
                continue
            for value in range(5):
                # the other parameters at their defaults (a training claim's: small, see above)
                others = {k: v for k, v in SHORT_TRAINING.get(claim.id, {}).items() if k != p.name}
                try:
                    report = verify([claim.id], backends=["numpy"],
                                    params={**others, p.name: str(value)},
                                    controls=False, search_examples=2)
                except UsageError:
                    continue
                errors += [(claim.id, p.name, value, e.message) for e in report.claims[0].evidence
                           if e.outcome is Outcome.ERROR]
                break
    assert errors == []


def test_a_claim_named_twice_runs_once_and_version_prints(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    rep = tmp_path / "r.json"
    main(["verify", "O.unroll", "O.unroll", "--backend", "numpy", "--no-controls", "--quiet",
          "--json", str(rep)])
    assert [c["id"] for c in json.loads(rep.read_text())["claims"]] == ["O.unroll"]
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.startswith("recmem ")


def test_every_option_of_every_command_is_described() -> None:
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name, sub in commands.items():
        for action in sub._actions:
            assert action.help, f"recmem {name}: {action.option_strings or action.dest} has no help"


def test_verify_leaves_no_hypothesis_folder_in_the_working_directory(tmp_path: Path) -> None:
    out = run_cli("verify", "O.unroll", "--backend", "numpy", "--no-controls", "--quiet",
                  cwd=tmp_path, env={"RECMEM_HOME": str(tmp_path / "home")})
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / ".hypothesis").exists()


# ---- 11–12. honest hints, nothing cut mid-word ----------------------------------------------


def _ev(backend: str, outcome: Outcome, kind: str = "numeric", bits: int | None = 53,
        needed: int | None = None, message: str = "") -> Evidence:
    return Evidence(check="c", kind=kind, backend=backend, outcome=outcome, precision_bits=bits,
                    needed_bits=needed, message=message)


def test_the_bits_hint_is_given_only_when_bits_would_resolve_it() -> None:
    short = _ev("numpy", Outcome.INCONCLUSIVE, needed=90)
    ran = result("X", Verdict.INCONCLUSIVE, [short, _ev("mpmath@256", Outcome.PASS, bits=256)])
    assert "--backend" not in resolution_hint(ran) and "90 bits" not in resolution_hint(ran)
    low = result("X", Verdict.INCONCLUSIVE, [short, _ev("mpmath@64", Outcome.PASS, bits=64)])
    assert "--backend mpmath@90" in resolution_hint(low)
    no_mp = result("X", Verdict.INCONCLUSIVE, [short, _ev("mpmath@64", Outcome.SKIPPED, bits=64)])
    assert "--backend" not in resolution_hint(no_mp) and "90 bits" in resolution_hint(no_mp)


def test_a_statistical_verdict_asks_for_data_not_bits() -> None:
    res = result("X", Verdict.INCONCLUSIVE, [
        _ev("flint@256", Outcome.INCONCLUSIVE, kind="statistical", bits=None,
            message="trend shown in 5 of 9 strata at α = 0.01"),
        _ev("numpy", Outcome.INCONCLUSIVE, needed=90)])
    hint = resolution_hint(res, ("statistical",), ["draws"])
    assert "--param draws" in hint and "more bits will not" in hint
    assert "--backend" not in hint


def test_shorten_cuts_at_a_word_with_a_visible_ellipsis() -> None:
    text = "for a target that provably decays " * 20
    cut = shorten(text, 60)
    assert cut.endswith(" …") and len(cut) <= 60
    assert all(word in text.split() for word in cut[:-2].split())


def test_the_table_at_80_columns_cuts_no_id_or_verdict() -> None:
    ids = ["O.unroll.zero-based", "O.unroll.zero-based.corrected", "O.sparse-conditioning"]
    report = Report(meta={}, complete=True)
    report.claims = [result(i, Verdict.INCONCLUSIVE) for i in ids]
    report.claims.append(result("O.skipped", Verdict.SKIPPED, [
        _ev("torch:cuda", Outcome.SKIPPED, message="CUDA is not available")]))
    con = Console(width=80, record=True, color_system=None)
    con.print(_verdict_table(report, con.width))
    text = con.export_text()
    assert max(len(ln) for ln in text.splitlines()) <= 80
    for claim_id in ids:
        assert f" {claim_id} " in text
    assert text.count("INCONCLUSIVE") == 3 and "…" not in text
    words = text.split()
    assert all(w in words for w in ("SKIPPED", "CUDA", "not", "available")), text
