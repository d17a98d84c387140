"""Every claim run that ``recmem verify`` finishes, kept so that ``recmem show`` can print it.

The store is an SQLite database, ``$RECMEM_HOME/results.sqlite`` (default home
``~/.cache/recmem``), in WAL mode: one row per finished claim run, written in its own
transaction as soon as the claim finishes. Concurrent ``recmem verify`` processes (one per paper,
say) each append their rows; none reads, changes and rewrites another's, so no run can lose
another's results, and an interrupted run keeps every claim it finished. ``recmem show`` reads a
claim's latest row and ``recmem show --history`` lists the earlier ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recmem.checks.report import ClaimResult
from recmem.checks.sqlite_db import connect, transaction

# what of a run's metadata each row keeps (the rest is in the JSON report)
RUN_FIELDS = ("run_id", "started", "seed", "backends", "precision", "recmem", "controls")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_runs (
    row INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id TEXT NOT NULL,
    verdict TEXT NOT NULL,
    stored_at TEXT NOT NULL,
    run TEXT NOT NULL,
    result TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS claim_runs_by_claim ON claim_runs (claim_id, row);
"""


class StoreUnavailable(OSError):
    """The results store cannot be opened or written (read-only or missing home, full disk)."""


@dataclass(frozen=True)
class StoredRun:
    """One stored claim run: the run's metadata and the claim's result as JSON dicts."""

    row: int
    claim_id: str
    verdict: str
    stored_at: str
    run: dict[str, Any]
    result: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "result": self.result, "stored_at": self.stored_at}


def home() -> Path:
    """Where recmem keeps its state: ``$RECMEM_HOME``, default ``~/.cache/recmem``."""
    return Path(os.environ.get("RECMEM_HOME", Path.home() / ".cache" / "recmem"))


def path() -> Path:
    """The results database."""
    return home() / "results.sqlite"


@contextlib.contextmanager
def _connect(create: bool) -> Iterator[sqlite3.Connection]:
    db = path()
    if not create and not db.exists():
        raise StoreUnavailable(f"no results stored yet in {home()}")
    try:
        if create:
            db.parent.mkdir(parents=True, exist_ok=True)
        # autocommit, WAL, synchronous=FULL, the busy timeout and the file's mode: one set-up for
        # both of recmem's stores (checks.sqlite_db); reading sets nothing up and creates nothing
        conn = connect(db, read_only=not create)
    except (OSError, sqlite3.Error) as exc:
        raise StoreUnavailable(f"cannot open the results store {db}: {exc}") from None
    try:
        if create:
            conn.executescript(_SCHEMA)
        yield conn
    except sqlite3.Error as exc:
        raise StoreUnavailable(f"results store {db}: {exc}") from None
    finally:
        conn.close()


def save(result: ClaimResult, meta: dict[str, Any]) -> None:
    """Append one finished claim run (its own transaction). Raises :class:`StoreUnavailable`
    when the store cannot be written; the caller decides whether that stops a run."""
    run = {k: meta.get(k) for k in RUN_FIELDS}
    row = (result.id, str(result.verdict), time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           json.dumps(run, ensure_ascii=False),
           json.dumps(result.to_dict(), ensure_ascii=False))
    with _connect(create=True) as conn, transaction(conn):
        conn.execute("INSERT INTO claim_runs (claim_id, verdict, stored_at, run, result) "
                     "VALUES (?, ?, ?, ?, ?)", row)


def _runs(sql: str, args: tuple[Any, ...]) -> list[StoredRun]:
    try:
        with _connect(create=False) as conn:
            rows = conn.execute(sql, args).fetchall()
    except StoreUnavailable:
        return []
    return [StoredRun(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5])) for r in rows]


_COLUMNS = "row, claim_id, verdict, stored_at, run, result"


def history(claim_id: str, limit: int | None = None) -> list[StoredRun]:
    """``claim_id``'s stored runs, newest first (at most ``limit``)."""
    sql = f"SELECT {_COLUMNS} FROM claim_runs WHERE claim_id = ? ORDER BY row DESC"
    if limit is not None:
        return _runs(sql + " LIMIT ?", (claim_id, limit))
    return _runs(sql, (claim_id,))


def latest(claim_id: str) -> StoredRun | None:
    """``claim_id``'s most recent stored run, or None."""
    runs = history(claim_id, limit=1)
    return runs[0] if runs else None


def latest_run_id(prefix: str = "") -> str | None:
    """The run ID of the newest stored claim run whose claim ID starts with ``prefix`` (``"O."``:
    the latest run of paper O; ``""``: the latest run), or None when there is none."""
    runs = _runs(f"SELECT {_COLUMNS} FROM claim_runs WHERE substr(claim_id, 1, ?) = ? "
                 "ORDER BY row DESC LIMIT 1", (len(prefix), prefix))
    return str(runs[0].run.get("run_id")) if runs else None


def run(run_id: str) -> list[StoredRun]:
    """Every claim of the stored run ``run_id``, in the order they finished (a claim stored twice
    under one run ID: its last row)."""
    runs = _runs(f"SELECT {_COLUMNS} FROM claim_runs WHERE json_extract(run, '$.run_id') = ? "
                 "ORDER BY row", (run_id,))
    return list({r.claim_id: r for r in runs}.values())


def load() -> dict[str, dict[str, Any]]:
    """Claim ID → its latest stored run as ``{"run": …, "result": …, "stored_at": …}``."""
    runs = _runs(f"SELECT {_COLUMNS} FROM claim_runs WHERE row IN "
                 "(SELECT MAX(row) FROM claim_runs GROUP BY claim_id)", ())
    return {r.claim_id: r.to_dict() for r in runs}
