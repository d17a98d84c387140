"""Terminal output shared by the commands: the standard-error console and the progress bar."""

from __future__ import annotations

from typing import Any


def stderr_console() -> Any:
    """A rich Console on standard error, no highlighting or emoji codes (messages carry claim ids
    and formulas that rich would otherwise restyle)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, emoji=False)


def progress_bar(live: bool, console: Any = None) -> Any:
    """The progress bar of long work (description, bar, done/total, elapsed, time left) on
    ``console`` (standard error by default); transient, and drawing nothing unless ``live``."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                    console=console if console is not None else stderr_console(), transient=True,
                    disable=not live)
