"""The results of the last run of each claim, kept so that ``recmem show`` can print them.

Stored as JSON under ``$RECMEM_HOME`` (default ``~/.cache/recmem``) and merged claim by claim
after each claim finishes, so an interrupted run keeps what it had done.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from recmem.checks.report import ClaimResult, write_atomic


def home() -> Path:
    """Where recmem keeps its state."""
    return Path(os.environ.get("RECMEM_HOME", Path.home() / ".cache" / "recmem"))


def _path() -> Path:
    return home() / "last-results.json"


def load() -> dict[str, Any]:
    """Claim ID → stored result (empty when nothing was run or the file is unreadable)."""
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(result: ClaimResult, meta: dict[str, Any]) -> None:
    """Merge one claim's result into the store."""
    data = load()
    data[result.id] = {"run": {k: meta.get(k) for k in ("started", "seed", "backends",
                                                         "precision", "recmem")},
                       "result": result.to_dict()}
    with contextlib.suppress(OSError):  # a read-only home must not break a run
        write_atomic(_path(), json.dumps(data, indent=1, ensure_ascii=False))
