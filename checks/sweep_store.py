"""The results store of ``recmem condition``: every finished point of a sweep, kept at once.

A sweep's folder (``--out``, default ``./recmem-condition``) holds one SQLite database,
``condition.sqlite``, in WAL mode with ``synchronous=FULL``:

- ``points``: one row per computed point, keyed by the point's parameters (:class:`PointKey`:
  family, rows, cols, seed, requested precision, norm, quantity, digits, backend) with the
  engine's result as JSON. A point is written in its own transaction the moment its result
  reaches the command, so a sweep stopped in any way (Ctrl-C, ``kill -9``, a crash, a power cut
  after the commit) keeps every point it finished, and running the same command again computes
  only the others.
- ``sweeps``: one row per invocation of the command, with its settings, its command line, when it
  started and ended and how (``running`` stays for a process that was killed).
- ``meta``: what the file is (``format``, ``version``), so that another SQLite file given as
  ``--out`` is refused instead of altered.

Only the command's main process writes (results travel back from the workers), and SQLite's
locking lets two sweeps share a folder: a point both compute is stored twice with the same key,
the later row replacing the earlier. Nothing here imports numpy or the numeric engine.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recmem.checks.sqlite_db import connect, transaction

STORE_NAME = "condition.sqlite"
FORMAT = "recmem-condition-store"
VERSION = 1
# the requested precision "automatic escalation" (None) as stored in the key column: SQLite
# treats NULLs in a primary key as all distinct, so None cannot be a key value
AUTO_PRECISION = 0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,
    argv TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS points (
    family TEXT NOT NULL,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    precision_requested INTEGER NOT NULL,
    norm TEXT NOT NULL,
    quantity TEXT NOT NULL,
    digits INTEGER NOT NULL,
    backend TEXT NOT NULL,
    sweep INTEGER,
    stored_at TEXT NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (family, rows, cols, seed, precision_requested, norm, quantity, digits, backend)
);
"""


class StoreError(ValueError):
    """The store cannot be opened, created or written, or the file is not a condition store.
    When it happens before any work, the command reports it as bad usage (exit status 2)."""


@dataclass(frozen=True, order=True)
class PointKey:
    """What identifies a point of a sweep; equal keys mean the same computation.

    ``precision`` is the requested working precision in bits, None for automatic escalation.
    The order (by family, quantity, norm, digits, backend, precision with automatic first, rows,
    cols, seed) is the order of every export."""

    family: str
    quantity: str
    norm: str
    digits: int
    backend: str
    precision: int | None
    rows: int
    cols: int
    seed: int

    def sort_key(self) -> tuple[Any, ...]:
        """A total order on keys (None, automatic precision, before any number of bits)."""
        return (self.family, self.quantity, self.norm, self.digits, self.backend,
                -1 if self.precision is None else self.precision, self.rows, self.cols, self.seed)

    def columns(self) -> dict[str, Any]:
        """The key as the leading columns of an exported record."""
        return {"family": self.family, "rows": self.rows, "cols": self.cols, "seed": self.seed,
                "precision_requested": self.precision, "norm": self.norm,
                "quantity": self.quantity, "digits": self.digits, "backend": self.backend}

    def _sql(self) -> tuple[Any, ...]:
        return (self.family, self.rows, self.cols, self.seed,
                AUTO_PRECISION if self.precision is None else self.precision,
                self.norm, self.quantity, self.digits, self.backend)


# the key's columns, in the order of the table and of every export
KEY_COLUMNS = ("family", "rows", "cols", "seed", "precision_requested", "norm", "quantity", "digits",
               "backend")
_KEY_SQL = ", ".join(KEY_COLUMNS)


def _key(row: tuple[Any, ...]) -> PointKey:
    family, rows, cols, seed, precision, norm, quantity, digits, backend = row
    return PointKey(family=family, quantity=quantity, norm=norm, digits=digits, backend=backend,
                    precision=None if precision == AUTO_PRECISION else precision,
                    rows=rows, cols=cols, seed=seed)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def encode(row: dict[str, Any]) -> str:
    """A result as stored: canonical JSON (sorted keys; ±inf and nan kept, as Python reads them)."""
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


class SweepStore:
    """The store in ``folder`` (created with its folder when missing, unless ``create`` is false).

    Raises :class:`StoreError` when the folder or file cannot be used. Use as a context manager,
    or call :meth:`close`."""

    def __init__(self, folder: str | os.PathLike[str], *, create: bool = True) -> None:
        self.folder = Path(folder)
        self.path = self.folder / STORE_NAME
        if self.folder.exists() and not self.folder.is_dir():
            raise StoreError(f"--out {self.folder}: is not a directory")
        if not create and not self.path.exists():
            raise StoreError(f"no condition store in {self.folder}")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"--out {self.folder}: cannot create the folder "
                             f"({exc.strerror or exc})") from None
        if not os.access(self.folder, os.W_OK):
            raise StoreError(f"--out {self.folder}: the folder is not writable")
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(f"--out {self.folder}: {STORE_NAME} is read-only")
        try:
            # autocommit, WAL, synchronous=FULL, the busy timeout and the file's mode: one set-up
            # for both of recmem's stores (checks.sqlite_db)
            self._conn = connect(self.path)
        except (sqlite3.OperationalError, OSError) as exc:  # locked, unreadable, …
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # "file is not a database"
            raise StoreError(f"{self.path} is not a recmem condition store ({exc})") from None
        try:
            self._setup()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"{self.path} is not a recmem condition store ({exc})") from None
        except StoreError:
            self._conn.close()
            raise

    def _setup(self) -> None:
        c = self._conn
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            raise StoreError(f"{self.path} is an SQLite file but not a recmem condition store "
                             f"(tables: {', '.join(sorted(tables))}); give another --out")
        with transaction(self._conn):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    c.execute(statement)
            c.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
            c.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(VERSION),))
        meta = dict(c.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise StoreError(f"{self.path} is not a recmem condition store")
        if meta.get("version") != str(VERSION):
            raise StoreError(f"{self.path} is a condition store of version {meta.get('version')}, "
                             f"this recmem reads version {VERSION}; give another --out")

    # -- sweeps ---------------------------------------------------------------------------------

    def begin_sweep(self, settings: dict[str, Any], argv: list[str]) -> int:
        """Record that a sweep starts with these settings; its id."""
        try:
            with transaction(self._conn):
                cur = self._conn.execute(
                    "INSERT INTO sweeps (started, status, argv, settings) VALUES (?, 'running', ?, ?)",
                    (_now(), json.dumps(argv, ensure_ascii=False),
                     json.dumps(settings, sort_keys=True, ensure_ascii=False)))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None
        assert cur.lastrowid is not None
        return cur.lastrowid

    def end_sweep(self, sweep: int, status: str) -> None:
        """Record how sweep ``sweep`` ended (``complete``, ``interrupted``, ``failed``)."""
        try:
            with transaction(self._conn):
                self._conn.execute("UPDATE sweeps SET finished = ?, status = ? WHERE id = ?",
                                   (_now(), status, sweep))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def sweeps(self) -> list[dict[str, Any]]:
        """Every recorded invocation, oldest first."""
        rows = self._conn.execute(
            "SELECT id, started, finished, status, argv, settings FROM sweeps ORDER BY id").fetchall()
        return [{"id": r[0], "started": r[1], "finished": r[2], "status": r[3],
                 "argv": json.loads(r[4]), "settings": json.loads(r[5])} for r in rows]

    # -- points ---------------------------------------------------------------------------------

    def put(self, key: PointKey, row: dict[str, Any], sweep: int | None = None) -> None:
        """Store one point's result (replacing a stored one with the same key) in its own
        transaction: when this returns, the point is on disk."""
        try:
            with transaction(self._conn):
                self._conn.execute(
                    f"INSERT OR REPLACE INTO points ({_KEY_SQL}, sweep, stored_at, row) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*key._sql(), sweep, _now(), encode(row)))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {self.path}: {exc}") from None

    def stored_keys(self) -> set[PointKey]:
        """The keys of every stored point."""
        return {_key(r) for r in self._conn.execute(f"SELECT {_KEY_SQL} FROM points")}

    def get(self, keys: Iterable[PointKey]) -> dict[PointKey, dict[str, Any]]:
        """The stored results of those of ``keys`` that are stored."""
        wanted = set(keys)
        out: dict[PointKey, dict[str, Any]] = {}
        for r in self._conn.execute(f"SELECT {_KEY_SQL}, row FROM points"):
            key = _key(r[:-1])
            if key in wanted:
                out[key] = json.loads(r[-1])
        return out

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM points").fetchone()[0])

    def close(self) -> None:
        """Close the connection (every write is already committed)."""
        self._conn.close()

    def __enter__(self) -> SweepStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def count_points(folder: str | os.PathLike[str]) -> int:
    """How many points the store in ``folder`` holds (0 when there is none); read-only."""
    path = Path(folder) / STORE_NAME
    if not path.exists():
        return 0
    try:
        conn = connect(path, read_only=True)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM points").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


# -- exports --------------------------------------------------------------------------------------

# the engine's columns that follow the key in every export (when present); the others follow
# these, sorted by name
LEAD_COLUMNS = ("value", "lower", "upper", "log10_value", "log10_lower", "log10_upper", "certified",
                "digits_certified", "precision_used", "method", "float64", "float64_log10",
                "seconds", "note")


def record(key: PointKey, row: dict[str, Any]) -> dict[str, Any]:
    """A point as exported: the key's columns, then the engine's row (its own copies of key
    columns, which agree, are dropped)."""
    return {**key.columns(), **{k: v for k, v in row.items() if k not in KEY_COLUMNS}}


def columns(records: Iterable[dict[str, Any]]) -> list[str]:
    """The CSV header of ``records``: key columns, lead columns present, every other key sorted."""
    seen: set[str] = set()
    for r in records:
        seen.update(r)
    lead = [c for c in (*KEY_COLUMNS, *LEAD_COLUMNS) if c in seen]
    return lead + sorted(seen.difference(lead))


def _finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None (strict JSON has no inf or nan;
    the decimal strings ``value``, ``lower``, ``upper`` keep "inf")."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict | list | tuple):
        return json.dumps(_finite(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def csv_text(records: list[dict[str, Any]]) -> str:
    """``records`` as CSV: one header line (:func:`columns`), one line per record; scalars as
    text (floats round-trip, booleans ``true``/``false``, None empty), lists and dicts as compact
    JSON. The same records give the same bytes."""
    import csv
    import io

    header = columns(records)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in records:
        w.writerow([_cell(r.get(c)) for c in header])
    return buf.getvalue()


def json_text(document: dict[str, Any]) -> str:
    """``document`` as strict, deterministic JSON (non-finite floats as null)."""
    return json.dumps(_finite(document), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


__all__ = ["AUTO_PRECISION", "KEY_COLUMNS", "LEAD_COLUMNS", "STORE_NAME", "PointKey", "StoreError",
           "SweepStore", "columns", "count_points", "csv_text", "encode", "json_text", "record"]
