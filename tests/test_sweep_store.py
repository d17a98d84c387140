"""The store of ``recmem condition`` (checks/sweep_store.py): round trips, keys, refusals of files
that are not a store, and the exports' formats."""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
from pathlib import Path

import pytest

from recmem.checks.sweep_store import (
    KEY_COLUMNS,
    STORE_NAME,
    PointKey,
    StoreError,
    SweepStore,
    columns,
    count_points,
    csv_text,
    json_text,
    record,
)


def key(rows: int = 8, *, precision: int | None = None, seed: int = 0,
        family: str = "ring:9/10:1") -> PointKey:
    return PointKey(family=family, quantity="kappa", norm="2", digits=3, backend="auto",
                    precision=precision, rows=rows, cols=rows, seed=seed)


ROW = {"value": "1.2345e+3", "lower": "1.2344e+3", "upper": "1.2346e+3", "log10_value": 3.0915,
       "certified": True, "digits_certified": 4, "precision_used": 128, "float64": None,
       "float64_log10": math.inf, "overlays": [{"name": "b", "side": "upper", "bound": "1e9",
                                                "log10_bound": 9.0, "holds": True}],
       "versions": {"numpy": "2"}, "note": "", "seconds": 0.5}


def test_points_round_trip_and_persist(tmp_path: Path) -> None:
    keys = [key(8), key(8, precision=256), key(16, seed=3), key(8, family="roots-of-unity")]
    with SweepStore(tmp_path / "s") as store:
        assert len(store) == 0 and store.stored_keys() == set()
        for i, k in enumerate(keys):
            store.put(k, {**ROW, "i": i}, sweep=None)
        assert len(store) == 4
    assert (tmp_path / "s" / STORE_NAME).is_file()
    assert count_points(tmp_path / "s") == 4
    with SweepStore(tmp_path / "s") as store:  # reopened: everything is there
        assert store.stored_keys() == set(keys)
        got = store.get([*keys, key(99)])
        assert set(got) == set(keys)  # a key never stored is simply absent
        for i, k in enumerate(keys):
            assert got[k] == {**ROW, "i": i}  # inf survives the round trip
        # automatic precision (None) is a key of its own, distinct from every number of bits
        assert got[key(8)]["i"] == 0 and got[key(8, precision=256)]["i"] == 1


def test_put_replaces_a_point_with_the_same_key(tmp_path: Path) -> None:
    with SweepStore(tmp_path) as store:
        store.put(key(8), {"value": "1"})
        store.put(key(8), {"value": "2"})
        assert len(store) == 1 and store.get([key(8)])[key(8)] == {"value": "2"}


def test_a_committed_point_is_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    """What makes a sweep resumable after kill -9: each put is committed before it returns."""
    with SweepStore(tmp_path) as store:
        store.put(key(8), ROW)
        other = sqlite3.connect(tmp_path / STORE_NAME)
        try:
            assert other.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 1
            assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            other.close()


def test_sweeps_are_recorded_with_their_settings(tmp_path: Path) -> None:
    with SweepStore(tmp_path) as store:
        sid = store.begin_sweep({"families": ["roots-of-unity"], "digits": 3}, ["recmem", "x"])
        assert store.sweeps()[0]["status"] == "running"
        store.end_sweep(sid, "complete")
        (s,) = store.sweeps()
    assert s["status"] == "complete" and s["finished"] and s["settings"]["digits"] == 3
    assert s["argv"] == ["recmem", "x"]


def test_another_sqlite_file_is_refused_not_altered(tmp_path: Path) -> None:
    db = tmp_path / STORE_NAME
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE mine (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a recmem condition store"):
        SweepStore(tmp_path)
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert tables == {"mine"}


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    (tmp_path / STORE_NAME).write_text("not a database, just text\n" * 100)
    with pytest.raises(StoreError, match="not a recmem condition store"):
        SweepStore(tmp_path)


def test_a_store_of_another_version_is_refused(tmp_path: Path) -> None:
    with SweepStore(tmp_path) as store:
        store._conn.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
    with pytest.raises(StoreError, match="version 99"):
        SweepStore(tmp_path)


def test_a_folder_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError, match="not a directory"):
        SweepStore(tmp_path / "f")


def test_sort_key_orders_auto_precision_first_then_sizes_numerically() -> None:
    keys = [key(16), key(8, precision=64), key(8), key(128), key(8, seed=1)]
    ordered = sorted(keys, key=PointKey.sort_key)
    assert ordered == [key(8), key(8, seed=1), key(16), key(128), key(8, precision=64)]


def test_record_puts_the_key_first_and_keeps_the_engine_columns() -> None:
    k = key(8, precision=256)
    r = record(k, {"family": "ignored copy", "value": "1", "precision_requested": 256, "z": 1})
    assert list(r)[:len(KEY_COLUMNS)] == list(KEY_COLUMNS)
    assert r["family"] == "ring:9/10:1" and r["precision_requested"] == 256
    assert r["value"] == "1" and r["z"] == 1


def test_csv_columns_and_cells() -> None:
    recs = [record(key(8), ROW), record(key(16), {**ROW, "sigma_min_lower": "0.5"})]
    header = columns(recs)
    assert header[:len(KEY_COLUMNS)] == list(KEY_COLUMNS)
    assert header.index("value") < header.index("seconds") < header.index("overlays")
    assert "sigma_min_lower" in header  # extra keys of some rows become columns of all
    text = csv_text(recs)
    assert text == csv_text(recs)  # same records, same bytes
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["certified"] == "true" and rows[0]["float64"] == ""
    assert rows[0]["precision_requested"] == "" and rows[0]["float64_log10"] == "inf"
    assert rows[0]["sigma_min_lower"] == "" and rows[1]["sigma_min_lower"] == "0.5"
    assert float(rows[0]["log10_value"]) == ROW["log10_value"]  # floats round-trip
    assert json.loads(rows[0]["overlays"]) == ROW["overlays"]
    assert json.loads(rows[0]["versions"]) == {"numpy": "2"}


def test_json_text_is_strict_json() -> None:
    text = json_text({"points": [ROW], "x": float("nan")})
    doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON {c}"))
    assert doc["x"] is None and doc["points"][0]["float64_log10"] is None
    assert doc["points"][0]["overlays"] == ROW["overlays"]
