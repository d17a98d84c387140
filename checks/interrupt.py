"""Ctrl-C (and SIGTERM) that always stops a run.

SIGTERM, what ``kill``, ``timeout`` and batch schedulers send, is handled exactly like SIGINT
within :func:`stops_promptly`: it raises :class:`KeyboardInterrupt`, so every command keeps its
finished work, writes its partial exports and exits with the status of an interrupt (130).

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
#: the signals that interrupt a run: Ctrl-C, and the polite stop of ``kill`` and schedulers
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _State:
    requested = False
    signal_name: str | None = None
    active = False
    settled = False  # the interrupt was caught: nothing more is re-delivered
    timers: ClassVar[list[threading.Timer]] = []


def requested() -> bool:
    """Whether Ctrl-C was pressed (or SIGTERM came) inside the current :func:`stops_promptly`
    block."""
    return _State.requested


def received() -> str | None:
    """The name of the signal that interrupted the current block (``SIGINT`` or ``SIGTERM``),
    or None."""
    return _State.signal_name


def checkpoint() -> None:
    """Raise :class:`KeyboardInterrupt` when an interrupt was requested (and maybe swallowed)."""
    if _State.requested:
        raise KeyboardInterrupt


def settle() -> None:
    """After an interrupt was caught: stop re-delivering it and let further Ctrl-C presses only
    be recorded, so the partial report can be written in peace (a few milliseconds)."""
    if threading.current_thread() is threading.main_thread() and _State.active:
        for signum in STOP_SIGNALS:
            signal.signal(signum, _record_only)
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


def _note(signum: int) -> None:
    _State.requested = True
    if _State.signal_name is None:
        with contextlib.suppress(ValueError):
            _State.signal_name = signal.Signals(signum).name


def _record_only(signum: int, frame: FrameType | None) -> None:
    _note(signum)


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _note(signum)
    raise KeyboardInterrupt


def _redeliver() -> None:
    if _State.active and not _State.settled:  # a timer that outlived its block sends nothing
        os.kill(os.getpid(), signal.SIGINT)


@contextlib.contextmanager
def stops_promptly() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM raise :class:`KeyboardInterrupt` and are never lost.

    Only in the main thread (where signal handlers can be set); elsewhere, and inside another
    such block (the command line wraps the whole command, the runner its loop), a no-op."""
    if threading.current_thread() is not threading.main_thread() or _State.active:
        yield
        return
    previous_handlers = {signum: signal.signal(signum, _on_sigint) for signum in STOP_SIGNALS}
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
    _State.signal_name = None
    try:
        yield
    finally:
        if _State.timers:
            signal.signal(signal.SIGINT, _record_only)
            _drain_timers()
        sys.unraisablehook = previous_hook
        for signum, handler in previous_handlers.items():
            signal.signal(signum, handler)
        _State.requested, _State.active, _State.settled = False, False, False


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within the block (a store write, say) an interrupt (SIGINT or SIGTERM) is held, and raised
    as :class:`KeyboardInterrupt` when the block ends: work whose result arrived is never lost
    half-written. Only in the main thread; elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {signum: signal.signal(signum, lambda n, frame: held.append(n))
                for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if held:
        if _State.active:
            _note(held[0])
        raise KeyboardInterrupt
