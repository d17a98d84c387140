"""Stored fuzz counterexamples (checks/fuzz_store.py, issue 20): nothing read from
``$RECMEM_HOME/fuzz-examples`` runs code, an entry that is not in the data-only format is skipped
with one warning (never an ERROR verdict), every kind of instance a claim can store comes back
exactly, an unwritable ``RECMEM_HOME`` is said, and replays leave a seed's search report as it is.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pathlib
import pickle
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli, run_main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recmem.checks import fuzz_store
from recmem.checks.campaign import FOUND_BY_REPLAY, FuzzJob, fuzz_claim
from recmem.checks.fuzz_store import (
    StoredFormatError,
    decode,
    encode,
    read,
    store_instance,
    stored_instances,
)
from recmem.checks.registry import all_claims, get
from recmem.numerics.exact import QQi

CI = bool(os.environ.get("CI"))


class Touch:
    """A pickle that, when loaded, creates ``marker`` (what a hostile entry would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (pathlib.Path.touch, (pathlib.Path(self.marker),))


def plant_pickle(home: Path, claim_id: str, marker: Path, salt: int = 0) -> None:
    """Put a hostile pickle exactly where recmem ≤ issue 19 read a claim's counterexamples:
    Hypothesis's DirectoryBasedExampleDatabase under $RECMEM_HOME/fuzz-examples, keyed by
    ``recmem-fuzz:<ID>:<sha256 of the statement's text, 16 hex digits>``."""
    from hypothesis.database import DirectoryBasedExampleDatabase

    blob = pickle.dumps([Touch(marker), salt])
    # the plant is live: loading it the old way creates the marker
    pickle.loads(blob)
    assert marker.exists()
    marker.unlink()
    text = get(claim_id).statement.text
    key = f"recmem-fuzz:{claim_id}:{hashlib.sha256(text.encode()).hexdigest()[:16]}".encode()
    DirectoryBasedExampleDatabase(str(home / "fuzz-examples")).save(key, blob)


def warnings_in(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if "skipped" in ln and "stored counterexample" in ln]


@pytest.fixture
def fresh_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process has not warned yet (the warning is given once per process)."""
    monkeypatch.setattr(fuzz_store, "_WARNED", set())


# ---- a planted pickle runs nothing -----------------------------------------------------------

def test_verify_never_loads_a_planted_pickle_and_gives_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        fresh_warning: None) -> None:
    home, marker, rep = tmp_path / "home", tmp_path / "pwned", tmp_path / "r.json"
    for claim_id in ("O.roots-of-unity", "O.relaxation"):
        for salt in range(2):  # two entries each: still one warning
            plant_pickle(home, claim_id, marker, salt)
    monkeypatch.setenv("RECMEM_HOME", str(home))
    out = run_main(capsys, "verify", "O.roots-of-unity", "O.relaxation", "--backend", "sympy",
                   "--no-controls", "--examples", "20", "--quiet", "--json", str(rep))
    assert not marker.exists()
    verdicts = {c["id"]: c["verdict"] for c in json.loads(rep.read_text())["claims"]}
    assert verdicts == {"O.roots-of-unity": "VERIFIED", "O.relaxation": "REFUTED"}, out.stderr
    assert "Traceback" not in out.stderr
    assert len(warnings_in(out.stderr)) == 1, out.stderr  # one line per run, not per entry


@pytest.mark.parametrize("replay", [True, False], ids=["replay", "search"])
def test_fuzz_never_loads_a_planted_pickle_and_says_so_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        fresh_warning: None, replay: bool) -> None:
    home, marker, rep = tmp_path / "home", tmp_path / "pwned", tmp_path / "r.json"
    for claim_id in ("O.det", "O.timestamp"):
        for salt in range(2):
            plant_pickle(home, claim_id, marker, salt)
    monkeypatch.setenv("RECMEM_HOME", str(home))
    out = run_main(capsys, "fuzz", "O.det", "O.timestamp", "--max-examples", "30", "--quiet",
                   "--json", str(rep), *(["--replay"] if replay else []))
    assert not marker.exists()
    claims = {c["id"]: c for c in json.loads(rep.read_text())["claims"]}
    assert all(c["status"] != "error" and c["replayed"] == 0 for c in claims.values())
    assert claims["O.det"]["stored_skipped"] == 2 and claims["O.timestamp"]["stored_skipped"] == 2
    lines = warnings_in(out.stderr)
    assert len(lines) == 1 and "skipped 4 stored counterexample(s) of 2 claim(s)" in lines[0]
    if not replay:  # the search stored its counterexample beside the pickles, and it is read
        assert claims["O.timestamp"]["status"] == "refuted"
        stored = read(get("O.timestamp"))
        assert len(stored.instances) == 1 and stored.skipped == 2


def test_stored_instances_skip_what_is_not_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                fresh_warning: None) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    claim = get("O.det")
    marker = tmp_path / "pwned"
    plant_pickle(tmp_path / "home", "O.det", marker)
    assert store_instance(claim, [QQi(Fraction(1, 2))]) is None
    folder = fuzz_store.key_folder(claim)
    (folder / "big").write_bytes(b" " * (fuzz_store.MAX_ENTRY_BYTES + 1))
    (folder / "odd").write_text('{"format": "recmem-fuzz-example/1", "instance": 1.5}')
    (folder / ".tmp.recmem-tmp").write_text("half")  # a write in progress: not an entry
    assert stored_instances(claim) == [[QQi(Fraction(1, 2))]]
    assert stored_instances(claim) == [[QQi(Fraction(1, 2))]]
    assert not marker.exists()
    err = capsys.readouterr().err
    assert len(warnings_in(err)) == 1 and "skipped 3 stored counterexample(s) of O.det" in err


# ---- the format refuses what is not data ------------------------------------------------------

def entry(instance: Any) -> bytes:
    return json.dumps({"format": fuzz_store.FORMAT, "instance": instance}).encode()


@pytest.mark.parametrize("blob", [
    pickle.dumps([Fraction(1, 2)]),
    b"",
    b"\xff\xfe",
    b"[1, 2]",
    json.dumps({"format": "recmem-fuzz-example/0", "instance": 1}).encode(),
    json.dumps({"format": fuzz_store.FORMAT, "instance": 1, "more": 2}).encode(),
    entry(1.5),
    entry({"Fraction": "1/0"}),
    entry({"Fraction": "1.5"}),
    entry({"Fraction": "1/2", "x": 1}),
    entry({"Fraction": "1" * 5000 + "/1"}),
    entry({"float": 3}),
    entry({"tuple": {"a": 1}}),
    entry({"dict": [[1]]}),
    entry({"dict": [[[1], 2]]}),
    entry({"record": "builtins.eval", "fields": {}}),
    entry({"record": "pathlib.Path", "fields": {}}),
    entry({"record": "os.system", "fields": {"command": "touch pwned"}}),
    entry({"record": "recmem.numerics.exact.QQi", "fields": {"re": {"Fraction": "1/2"}}}),
    entry({"record": "recmem.numerics.exact.QQi", "fields": {"re": 1, "im": 0, "x": 1}}),
    entry({"record": "recmem.numerics.designs.Design",  # refused by its constructor
           "fields": {"factor": "N", "levels": {"tuple": [3, 2]}, "fixed": {"tuple": []},
                      "size": 2, "draws": 1, "seed": 0}}),
    b"[" * 100000 + b"]" * 100000,
], ids=lambda b: repr(b[:40]))
def test_anything_but_an_entry_of_the_format_is_refused(blob: bytes) -> None:
    with pytest.raises(StoredFormatError):
        decode(blob)


def test_values_the_format_cannot_hold_are_not_stored(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    reason = store_instance(get("O.det"), [pathlib.Path("x")])
    assert reason is not None and "cannot be stored" in reason
    assert read(get("O.det")).instances == []


# ---- every instance a claim can store comes back exactly --------------------------------------

def typed(x: Any) -> Any:
    """``x`` with every type spelt out (``==`` alone takes 1 for Fraction(1), a QQi for a tuple,
    and ignores the dataclass fields with ``compare=False``)."""
    if isinstance(x, list | tuple) and not hasattr(x, "_fields"):
        return (type(x).__name__, [typed(v) for v in x])
    if isinstance(x, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in x.items()])
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__qualname__, type(x).__module__,
                [(f.name, typed(getattr(x, f.name))) for f in dataclasses.fields(x)
                 if f.init and not f.name.startswith("_")])
    if hasattr(x, "_fields"):
        return (type(x).__qualname__, [(n, typed(getattr(x, n))) for n in x._fields])
    return (type(x).__name__, x)


SEARCHABLE = sorted(c.id for c in all_claims().values() if c.strategy is not None
                    and c.holds is not None)


@pytest.mark.parametrize("claim_id", SEARCHABLE)
def test_every_instance_of_every_claim_round_trips(claim_id: str) -> None:
    """Every claim with a searchable domain stores its shrunk counterexample when its campaign
    finds one (campaign.fuzz_claim): whatever its strategy draws comes back with the same types
    and values (the record types in fuzz_store.record_types() cover them)."""
    claim = get(claim_id)
    assert claim.strategy is not None
    strategy = claim.strategy(claim.context())

    @settings(max_examples=5 if CI else 10, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def round_trip(data: st.DataObject) -> None:
        instance = data.draw(strategy)
        back = decode(encode(instance))
        assert typed(back) == typed(instance)
        assert repr(back) == repr(instance)

    round_trip()


def test_stored_instances_come_back_through_the_folder(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    claim = get("O.relaxation")
    fuzz_claim(FuzzJob(claim.id, dict(claim.context().params), 0, 50, None, False, False))
    stored = read(claim)
    assert stored.skipped == 0 and len(stored.instances) == 1
    instance = stored.instances[0]
    assert isinstance(instance, dict) and isinstance(instance["t"], Fraction)
    files = list(fuzz_store.key_folder(claim).iterdir())
    assert len(files) == 1 and files[0].read_bytes().startswith(b'{"format":')


# ---- an unwritable RECMEM_HOME is said --------------------------------------------------------

def test_fuzz_with_a_home_that_is_a_file_says_counterexamples_are_not_kept(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("not a folder")  # fails for root too (permissions would not)
    rep = tmp_path / "r.json"
    out = run_cli("fuzz", "O.relaxation", "--max-examples", "50", "--quiet", "--json", str(rep),
                  env={"RECMEM_HOME": str(home)})
    assert out.returncode == 1 and "Traceback" not in out.stderr
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("recmem: warning:"), out.stderr
    assert "cannot be stored" in lines[0] and str(home) in lines[0]
    assert json.loads(rep.read_text())["claims"][0]["status"] == "refuted"  # the run went on


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes in a 0500 folder")
def test_fuzz_with_a_read_only_home_says_so(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    try:
        out = run_cli("fuzz", "O.relaxation", "--max-examples", "50", "--quiet",
                      env={"RECMEM_HOME": str(home)})
    finally:
        home.chmod(0o700)
    assert out.returncode == 1 and "cannot be stored" in out.stderr


def test_a_counterexample_that_cannot_be_stored_is_said_after_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store that fails after the check up front (a full disk, a folder made read-only
    meanwhile) is in the report and in one line of the command."""
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "fuzz-examples").write_text("not a folder")
    claim = get("O.relaxation")
    camp = fuzz_claim(FuzzJob(claim.id, dict(claim.context().params), 0, 50, None, False, False))
    assert camp.status == "refuted" and "Not a directory" in camp.not_stored


# ---- replays are reported apart from the seeded search ---------------------------------------

def seeded(report: dict) -> list[dict]:
    """The search's part of a report: without times and without what replay added."""
    out = []
    for c in report["claims"]:
        c = {k: v for k, v in c.items() if k not in ("seconds", "replayed", "stored_skipped")}
        for key in ("counterexamples", "not_reproduced"):
            c[key] = [x for x in c[key] if x["found_by"] != FOUND_BY_REPLAY]
        c["controls"] = [{**x, "seconds": None} for x in c["controls"]]
        out.append(c)
    return out


@pytest.mark.parametrize("shards", ["1", "3"])
def test_stored_counterexamples_leave_the_seeded_search_report_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        shards: str) -> None:
    monkeypatch.setenv("RECMEM_HOME", str(tmp_path / "h"))
    args = ("O.det", "O.relaxation", "O.timestamp", "--max-examples", "40", "--seed", "7",
            "--shards", shards, "--quiet")
    reports = []
    for run in range(2):
        rep = tmp_path / f"r{run}.json"
        out = run_main(capsys, "fuzz", *args, "--json", str(rep))
        assert out.returncode == 1, out.stderr
        reports.append(json.loads(rep.read_text()))
    first, second = reports
    replayed = {c["id"]: c["replayed"] for c in second["claims"]}
    assert replayed == {"O.det": 0, "O.relaxation": 1, "O.timestamp": 1}
    assert seeded(first) == seeded(second)
    for c in second["claims"]:  # replays are listed apart, first
        kinds = [x["found_by"] == FOUND_BY_REPLAY for x in c["counterexamples"]]
        assert kinds == sorted(kinds, reverse=True) and kinds.count(True) == c["replayed"]
