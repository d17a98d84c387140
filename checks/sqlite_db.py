"""The one way recmem opens its SQLite databases: the results store of ``recmem verify``
(:mod:`recmem.checks.store`) and the sweep store of ``recmem condition``
(:mod:`recmem.checks.sweep_store`).

Every connection made here:

- waits up to :data:`BUSY_TIMEOUT_S` for another process's transaction (SQLite's busy handler;
  each write of both stores is one short INSERT or UPDATE, so a wait is short unless a process
  hangs);
- is in autocommit mode (``isolation_level=None``): a write is one explicit
  :func:`transaction` (``BEGIN IMMEDIATE``: the write lock is taken at the start, so two writers
  never deadlock on a lock upgrade);
- for writing, puts the database in WAL mode (readers never block the writer and a writer never
  blocks readers; the mode is stored in the file) with ``synchronous=FULL`` (a committed row
  survives a power cut too);
- gives a database it creates the mode of every file recmem writes
  (``checks.outputs.file_mode``: 0666 less the umask; SQLite's own default is 0644, and its
  ``-wal`` and ``-shm`` files copy the database's mode).

Errors are SQLite's and the OS's (``sqlite3.Error``, ``OSError``): each store turns them into its
own error with its own words.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

# a writer waits this long for another process's transaction before giving up
BUSY_TIMEOUT_S = 60.0


def connect(path: str | os.PathLike[str], *, read_only: bool = False,
            leave_no_files: bool = False) -> sqlite3.Connection:
    """A connection to the database ``path`` (created when missing, unless ``read_only``) set up
    as the module docstring says; ``read_only`` opens an existing file without changing it (no
    journal mode set, no file created), and with ``leave_no_files`` (for a folder recmem only
    reads: ``recmem report --include``) without creating SQLite's -wal and -shm files either."""
    db = Path(path)
    if read_only:
        # Through a URI with the path percent-encoded (a "?" or "#" in a folder name would
        # otherwise end the path). A reader of a WAL database creates its -wal and -shm files
        # when they are missing (and may leave them behind), so with ``leave_no_files`` a
        # database without them (every write checkpointed: its last writer closed) is opened
        # immutable, which creates nothing; with them (a writer running, or killed) the committed
        # rows must be read through them.
        sidecars = [db.with_name(db.name + s) for s in ("-wal", "-shm")]
        idle = leave_no_files and not any(p.exists() for p in sidecars)
        mode = "mode=ro&immutable=1" if idle else "mode=ro"
        return sqlite3.connect(f"{db.resolve().as_uri()}?{mode}", uri=True,
                               timeout=BUSY_TIMEOUT_S, isolation_level=None)
    new = not db.exists()
    conn = sqlite3.connect(db, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        if new and db.exists():  # created by this connection: before its -wal and -shm exist
            from recmem.checks.outputs import apply_mode

            apply_mode(db)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
    except BaseException:
        conn.close()
        raise
    return conn


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction on ``conn`` (from :func:`connect`): committed when the block ends,
    rolled back when it raises (anything, Ctrl-C included)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


__all__ = ["BUSY_TIMEOUT_S", "connect", "transaction"]
