"""The mutation benchmark's own logic (``benchmarks/mutation.py``): areas, site keys, judging and
the drift of the explained survivors. Fast: no mutant is run here."""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("recmem_mutation_benchmark",
                                                  ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


mutation = _load()

SOURCE = '''
MAX_BITS = 8192
name = 3
SCALES: tuple[int, ...] = (2, 4)


def twice(x: int, flag: "Literal[1]" = 1) -> int:
    return x + 1 + (x + 1)


class Check:
    def proof(self, x):
        return Proof(x > 0, "scope", "method")

    def plain(self, x):
        return x - 1
'''


def _keys(area: str, text: str = SOURCE) -> list[str]:
    return [m.key for m in mutation.file_mutants(area, "numerics/fake.py", text)]


@pytest.fixture(scope="module")
def every_mutant() -> list[Any]:
    return mutation.mutants()


def test_identical_changes_in_one_function_get_one_key_each() -> None:
    keys = _keys("numerics")
    # two `x + 1` in `twice`: each its own key, numbered in source order out of the total
    assert "numerics/fake.py:twice:x + 1 → x - 1 #1/2" in keys
    assert "numerics/fake.py:twice:x + 1 → x - 1 #2/2" in keys
    assert "numerics/fake.py:Check.plain:x - 1 → x + 1 #1/1" in keys
    assert len(keys) == len(set(keys))
    # the annotation Literal[1] and the default value's type are not values to mutate; the
    # default itself is
    assert not any("Literal" in k for k in keys)


def test_a_key_moves_off_when_an_identical_change_is_added() -> None:
    """An explanation of the only `x - 1` no longer matches once a second one appears in the same
    function (it turns stale and is flagged), so it cannot pass silently to the new site; an edit
    elsewhere in the file leaves it alone."""
    before = set(_keys("numerics"))
    grown = set(_keys("numerics", SOURCE.replace("return x - 1", "return x - 1 + (x - 1)")))
    assert "numerics/fake.py:Check.plain:x - 1 → x + 1 #1/1" in before
    assert "numerics/fake.py:Check.plain:x - 1 → x + 1 #1/1" not in grown
    assert {"numerics/fake.py:Check.plain:x - 1 → x + 1 #1/2",
            "numerics/fake.py:Check.plain:x - 1 → x + 1 #2/2"} <= grown
    moved = set(_keys("numerics", "\n\n# a comment\n" + SOURCE.replace("8192", "4096")))
    assert "numerics/fake.py:Check.plain:x - 1 → x + 1 #1/1" in moved


def test_areas_pick_their_targets() -> None:
    constants = _keys("constants")
    assert "numerics/fake.py:MAX_BITS:8192 → 8193 #1/1" in constants
    assert "numerics/fake.py:SCALES:2 → 3 #1/1" in constants
    assert not any(":name:" in k for k in constants)  # not an UPPER_CASE constant
    assert not any("twice" in k for k in constants)
    proofs = _keys("proofs", SOURCE)
    # proofs: only in theory/ in the real run, but the selection is by what a function builds
    assert {k.split(":")[1] for k in proofs} == {"Check.proof"}
    assert "numerics/fake.py:Check.proof:x > 0 → x >= 0 #1/1" in proofs


def test_the_mutant_source_carries_exactly_the_change() -> None:
    m = next(m for m in mutation.file_mutants("numerics", "numerics/fake.py", SOURCE)
             if m.key == "numerics/fake.py:twice:x + 1 → x - 1 #2/2")
    src = m.source()
    ast.parse(src)
    assert "x + 1 + (x - 1)" in src and "MAX_BITS = 8192" in src


def test_every_site_has_one_key_and_every_area_has_mutants(every_mutant: list[Any]) -> None:
    keys = Counter(m.key for m in every_mutant)
    assert [k for k, n in keys.items() if n > 1] == []
    areas = Counter(m.area for m in every_mutant)
    assert set(areas) == set(mutation.AREAS), areas
    assert all(areas[a] >= 20 for a in mutation.AREAS), areas


def test_every_explanation_names_one_existing_site(every_mutant: list[Any]) -> None:
    """The explained survivors cannot drift: an explanation whose site is gone (the function
    changed, or an identical change was added beside it) must be re-keyed and re-checked."""
    keys = {m.key for m in every_mutant}
    stale = sorted(k for k in mutation.EQUIVALENT if k not in keys)
    assert stale == [], stale[:5]
    # one reason per site: no boilerplate shared by several sites
    reasons = Counter(mutation.EQUIVALENT.values())
    assert [r[:80] for r, n in reasons.items() if n > 1] == []


def test_stale_explanations_are_flagged_and_fail_the_check(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    fake = mutation.file_mutants("numerics", "numerics/fake.py", SOURCE)
    monkeypatch.setattr(mutation, "mutants", lambda *a, **k: fake)
    good = {fake[0].key: "reason"}
    monkeypatch.setattr(mutation, "EQUIVALENT", good)
    assert mutation.main(["--check-explanations", "--stale-only"]) == 0
    gone = {**good, "numerics/fake.py:twice:x + 1 → x - 1 #1/1": "written for one x + 1"}
    monkeypatch.setattr(mutation, "EQUIVALENT", gone)
    assert mutation.stale_explanations() == ["numerics/fake.py:twice:x + 1 → x - 1 #1/1"]
    assert mutation.main(["--check-explanations", "--stale-only"]) == 1
    assert "STALE" in capsys.readouterr().out


def _claim(verdict: str, **checks: str) -> dict[str, Any]:
    return {"verdict": verdict, "counterexample": None, "controls": ["REFUTED"],
            "checks": dict(checks)}


def test_judging_claims_and_commands() -> None:
    base = {"C": _claim("VERIFIED", a="PASS", b="PASS")}
    assert mutation.judge_result(base, {"C": _claim("VERIFIED", a="PASS", b="PASS")})[0] \
        == "survived"
    assert mutation.judge_result(base, {"C": _claim("FAILED", a="PASS", b="PASS")})[0] \
        == "killed"
    assert mutation.judge_result(base, {"C": _claim("VERIFIED", a="PASS", b="FAIL")})[0] \
        == "detected"
    assert mutation.judge_result(base, {"error": "Traceback\nZeroDivisionError"})[0] == "killed"
    # a claim's check that did not run is not a change; a command's report field that is gone is
    assert mutation.judge_result(base, {"C": _claim("VERIFIED", a="PASS")})[0] == "survived"
    cmd = {"run 1": {**_claim("exit 0", **{"/points[0]/upper": "'8.01'"}), "strict": True}}
    assert mutation.judge_result(cmd, {"run 1": _claim("exit 0")})[0] == "detected"
    assert mutation.judge_result(cmd, {"run 1": _claim("exit 1 (traceback)")})[0] == "killed"


def test_command_reports_are_compared_without_times_or_folders() -> None:
    flat = mutation._flatten({"seconds": 1.5, "store": "/tmp/x",
                              "points": [{"upper": "8.01", "seconds": 0.2}], "ok": True})
    assert flat == {"/points[0]/upper": "'8.01'", "/ok": "True"}
    # printed lines are compared with the durations and the run's folder masked
    assert mutation._masked("N=4 (0.21 s) in /tmp/r7/store", Path("/tmp/r7")) \
        == "N=4 (# s) in {tmp}/store"
    first = {"run 1": _claim("exit 0", x="1", y="2")}
    again = {"run 1": _claim("exit 0", x="1", y="3")}
    assert mutation.steady(first, again)["run 1"]["checks"] == {"x": "1"}


def test_drift_flags_explained_mutants_that_are_caught() -> None:
    rows = [{"key": "a", "status": "killed", "equivalent": "why"},
            {"key": "b", "status": "detected", "equivalent": "why"},
            {"key": "c", "status": "survived", "equivalent": "why"},
            {"key": "d", "status": "killed", "equivalent": ""}]
    assert [r["key"] for r in mutation.drift(rows)] == ["a", "b"]


def test_samples_are_deterministic_and_spread() -> None:
    items = list(range(100))
    assert mutation.spread(items, 4) == [0, 25, 50, 75]
    assert mutation.spread(items, 0) == items and mutation.spread(items[:3], 5) == [0, 1, 2]


def test_summary_counts_each_area() -> None:
    rows = [{"area": "numerics", "status": s, "equivalent": e}
            for s, e in [("killed", ""), ("detected", ""), ("survived", "why"),
                         ("survived", "")]]
    table = mutation.summary(rows, Counter({"constants": 2}))
    line = next(x for x in table.splitlines() if x.startswith("numerics"))
    # run 4, killed 1, detected 1, survived 2 of which 1 explained: 2 of 3 unexplained caught
    assert line.split() == ["numerics", "4", "1", "1", "2", "1", "66.7%", "0"]
    assert next(x for x in table.splitlines() if x.startswith("constants")).split()[-1] == "2"
