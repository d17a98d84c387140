"""Ctrl-C that always stops a run.

Python delivers SIGINT as a :class:`KeyboardInterrupt` raised wherever the main thread happens to
be. When that is inside a callback whose exceptions the interpreter swallows (a ``gc.callbacks``
entry such as Hypothesis's GC timer, a ``__del__``, a weakref callback), the interrupt is printed
as "Exception ignored in …" and lost, and the run goes on. :func:`stops_promptly` closes that
hole twice over: an interrupt swallowed that way is delivered again a moment later (through
``sys.unraisablehook``), and :func:`checkpoint`, which the runner calls between checks, raises
once an interrupt has been requested.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, ClassVar

# delay before re-sending a swallowed interrupt: long enough to leave the callback
REDELIVERY_DELAY_S = 0.02


class _State:
    requested = False
    active = False
    settled = False  # the interrupt was caught: nothing more is re-delivered
    timers: ClassVar[list[threading.Timer]] = []


def requested() -> bool:
    """Whether Ctrl-C was pressed inside the current :func:`stops_promptly` block."""
    return _State.requested


def checkpoint() -> None:
    """Raise :class:`KeyboardInterrupt` when an interrupt was requested (and maybe swallowed)."""
    if _State.requested:
        raise KeyboardInterrupt


def settle() -> None:
    """After an interrupt was caught: stop re-delivering it and let further Ctrl-C presses only
    be recorded, so the partial report can be written in peace (a few milliseconds)."""
    if threading.current_thread() is threading.main_thread() and _State.active:
        signal.signal(signal.SIGINT, _record_only)
        _State.settled = True
        _drain_timers()


def _drain_timers() -> None:
    """Stop the re-delivery timers; one that already fired has sent its signal, which the
    handler now in place (``_record_only``) consumes while the main thread sleeps briefly."""
    fired = False
    for timer in _State.timers:
        timer.cancel()
        timer.join()
        fired = fired or timer.finished.is_set()
    _State.timers.clear()
    if fired:
        time.sleep(2 * REDELIVERY_DELAY_S)  # PEP 475: a pending handler runs during the sleep


def _record_only(signum: int, frame: FrameType | None) -> None:
    _State.requested = True


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _State.requested = True
    raise KeyboardInterrupt


def _redeliver() -> None:
    if _State.active and not _State.settled:  # a timer that outlived its block sends nothing
        os.kill(os.getpid(), signal.SIGINT)


@contextlib.contextmanager
def stops_promptly() -> Iterator[None]:
    """Within the block, Ctrl-C raises :class:`KeyboardInterrupt` and is never lost.

    Only in the main thread (where signal handlers can be set); elsewhere, and inside another
    such block (the command line wraps the whole command, the runner its loop), a no-op."""
    if threading.current_thread() is not threading.main_thread() or _State.active:
        yield
        return
    previous_handler = signal.signal(signal.SIGINT, _on_sigint)
    previous_hook = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type,
                                                          KeyboardInterrupt):
            if _State.settled:
                return  # an interrupt already handled, surfacing late (a finaliser): drop it
            if not _State.requested:
                previous_hook(unraisable)
                return
            timer = threading.Timer(REDELIVERY_DELAY_S, _redeliver)
            timer.daemon = True
            _State.timers.append(timer)
            timer.start()
            return
        previous_hook(unraisable)

    sys.unraisablehook = hook
    _State.requested, _State.active, _State.settled = False, True, False
    try:
        yield
    finally:
        if _State.timers:
            signal.signal(signal.SIGINT, _record_only)
            _drain_timers()
        sys.unraisablehook = previous_hook
        signal.signal(signal.SIGINT, previous_handler)
        _State.requested, _State.active, _State.settled = False, False, False
