"""Terminal output shared by the commands: the standard-error console and the progress bar.

Every progress display of recmem is built here (:func:`progress_bar`), so that they all look
and behave alike (tests/test_cli.py checks that nothing else builds a ``rich.progress.Progress``).
"""

from __future__ import annotations

from typing import Any

# below this many columns the tables leave out what another command prints (the source: `recmem
# show`) or gather columns into one that wraps, so that claim IDs keep their whole width
NARROW_COLUMNS = 100


def stderr_console() -> Any:
    """A rich Console on standard error, no highlighting or emoji codes (messages carry claim ids
    and formulas that rich would otherwise restyle)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, emoji=False)


def progress_bar(live: bool, console: Any = None, *, count: str | None = None) -> Any:
    """The progress display of long work on ``console`` (standard error by default); transient,
    and drawing nothing unless ``live``.

    With a known total (the default): description, bar, done/total, elapsed, time left. With
    ``count`` (a unit, "simulations"), for work whose total is not known in advance: a spinner,
    the description, the number of units done so far and the elapsed time."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: tuple[Any, ...]
    if count is None:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    else:
        columns = (SpinnerColumn(), TextColumn("{task.description}:"),
                   TextColumn(f"{{task.completed}} {count}"), TimeElapsedColumn())
    return Progress(*columns, console=console if console is not None else stderr_console(),
                    transient=True, disable=not live)


def add_id_column(table: Any, header: str, ids: Any, **options: Any) -> None:
    """Add the claim-ID column to a rich ``table``: IDs are never cut or wrapped (two IDs that
    share a prefix must not print alike), so the column is as wide as the longest ID and the
    table's other columns wrap instead (give them ``overflow="fold"``). Only a terminal narrower
    than one ID folds it onto a second line, every character still shown."""
    table.add_column(header, min_width=max((len(i) for i in ids), default=len(header)),
                     no_wrap=True, overflow="fold", **options)
