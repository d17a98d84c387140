"""Run independent work items at once: in this process, on local processes, or on a dask cluster.

One interface for every kind of work that splits into independent items (the claims of
``recmem verify``, the points of a sweep, the seeds of a fuzzing campaign)::

    with make_executor(jobs=4) as ex:                  # or cluster="tcp://HOST:8786"
        for index, result in ex.map_unordered(fn, items):
            ...                                        # result.value, or result.error

``fn`` is a top-level (picklable) function of one item and ``items`` are picklable; results come
back as they complete, each with the index of its item, so a caller that needs the items' order
puts them back in it. (A script that uses local processes needs the ``if __name__ ==
"__main__":`` guard: each worker imports the script's main module.) The kinds of executor:

- **serial** (``jobs=1``, no cluster): ``fn`` runs in this process, in order, with no pool and no
  pickling. ``KeyboardInterrupt`` (and any other ``BaseException``) raised by ``fn`` propagates
  as from a plain loop; an ``Exception`` comes back as the item's error, with the live exception
  kept (:meth:`ItemResult.get` re-raises it with its traceback).
- **local processes** (``jobs > 1``): a :class:`~concurrent.futures.ProcessPoolExecutor` of
  ``jobs`` workers started with the ``spawn`` method. ``fork`` is unsafe here: the parent has
  threads (the progress display, torch's and OpenBLAS's pools, Hypothesis's timers), and a child
  forked while one of them holds a lock inherits the lock held forever; CUDA refuses to run in a
  forked child at all. ``forkserver`` forks every worker from a server process that would itself
  have to import torch and flint to save their import time, which brings the same threads back
  (and runs it from a copy of the parent's ``sys.modules``). ``spawn`` starts each worker as a fresh
  interpreter: it pays the imports once per worker (about a second for torch), and nothing of
  the parent's state comes along: no threads, no locks, no signal handlers, no changed global
  precision of mpmath or flint, no Hypothesis state. Workers are started only as items need them
  (at most ``jobs``) and ignore SIGINT: a Ctrl-C in the terminal reaches the whole process group,
  and only the parent decides what it means (it stops the pool, see below). Their numeric
  libraries get one thread each (``OMP_NUM_THREADS`` etc., unless set), as dask's workers do.
- **dask** (``cluster="tcp://HOST:PORT"``): a :class:`distributed.Client` of a running scheduler
  (``dask scheduler``; workers ``dask worker tcp://HOST:PORT --nthreads 1``). A worker process
  runs one item at a time however many threads it has (a lock in this module): an item may use
  process-global state (flint's working precision, torch's thread count, Hypothesis), which
  threads of one process would share. So the parallelism is the number of worker *processes*;
  start them with ``--nworkers N --nthreads 1``.

Failures: an exception inside ``fn`` is that item's :class:`ItemError` (type, message and the
traceback text from wherever it ran); the other items go on. A local worker that dies (killed,
out of memory, a crash in C) breaks its pool: the pool is replaced and the items that were
running in it are run again, one at a time, so that the item that kills its worker again is
reported as an error (``WorkerDied``) and the others get their results. On dask, the scheduler
reruns the item of a dead worker elsewhere and gives up after its ``allowed-failures``
(``KilledWorker``, reported the same way).

Interrupts: ``KeyboardInterrupt`` in the parent (Ctrl-C) propagates out of ``map_unordered`` at
once; leaving the ``with`` block on an exception cancels the pending items and terminates the
local workers (running dask tasks are cancelled; a task already running on a worker finishes
there and its result is dropped).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
import traceback
import uuid
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Generic, Self, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

#: seconds to wait for a dask scheduler to answer (and for its first worker) before giving up
CONNECT_TIMEOUT_S = 5.0
#: how local worker processes are started (see the module's docstring for why not fork)
START_METHOD = "spawn"
#: seconds a terminated local worker gets to exit before it is killed
TERMINATE_GRACE_S = 2.0


class ClusterUnavailable(ValueError):
    """The dask scheduler could not be reached (or has no worker): a usage error, not a crash."""


@dataclass(frozen=True)
class ItemError:
    """Why one work item produced no value: the exception it raised (its type name, message and
    the formatted traceback from wherever it ran), or the death of the process that ran it
    (``kind`` ``WorkerDied``)."""

    kind: str
    message: str
    traceback: str = ""

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}" if self.message else self.kind

    @classmethod
    def from_exception(cls, exc: BaseException) -> ItemError:
        """The error of an item that raised ``exc``."""
        return cls(type(exc).__name__, str(exc), "".join(traceback.format_exception(exc)))


class WorkItemFailed(RuntimeError):
    """Raised by :meth:`ItemResult.get` for an item that failed in another process."""

    def __init__(self, error: ItemError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class ItemResult(Generic[R]):
    """What one work item gave: its ``value``, or its ``error``.

    ``exception`` is the live exception of an item that failed in this process (serial
    executor); items run elsewhere bring back only the :class:`ItemError`."""

    value: R | None = None
    error: ItemError | None = None
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the item produced a value."""
        return self.error is None

    def get(self) -> R:
        """The value; for a failed item, raise its exception (the original one when it ran in
        this process, :class:`WorkItemFailed` otherwise)."""
        if self.error is None:
            return cast(R, self.value)
        if self.exception is not None:
            raise self.exception
        raise WorkItemFailed(self.error)


def _run_item(fn: Callable[[T], R], item: T) -> ItemResult[R]:
    """Run one item where the executor put it; an exception becomes the item's error (the
    exception itself need not pickle)."""
    try:
        value = fn(item)
    except Exception as exc:
        return ItemResult(error=ItemError.from_exception(exc))
    return ItemResult(value)


_ONE_ITEM_AT_A_TIME = threading.Lock()
_worker_ready: list[bool] = []


def _in_dask_worker() -> None:
    """Once per dask worker process: the worker's own threads (its event loop) draw from the
    global ``random`` module while an item runs, and Hypothesis takes any change of that state
    during a search for a strategy that uses ``random`` (a HypothesisDeprecationWarning, which
    ``-W error`` turns into a failed search). Only that false alarm is silenced."""
    if _worker_ready:
        return
    import warnings

    warnings.filterwarnings("ignore", message=r"Do not use the `random` module inside strategies")
    _worker_ready.append(True)


def _run_item_alone(fn: Callable[[T], R], item: T) -> ItemResult[R]:
    """:func:`_run_item`, one item per process at a time (a dask worker's threads share the
    process-global state an item may set)."""
    with _ONE_ITEM_AT_A_TIME:
        _in_dask_worker()
        return _run_item(fn, item)


def _ignore_sigint() -> None:
    """Initializer of a local worker: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _noop() -> None:
    """A task that makes the pool start a worker."""


# ---- choosing an executor ------------------------------------------------------------------


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one, else
    ``os.cpu_count()``): what ``--jobs auto`` uses."""
    counter = getattr(os, "process_cpu_count", None)  # Python ≥ 3.13
    if counter is not None:
        return int(counter() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def check_jobs(jobs: int) -> None:
    """A number of parallel jobs is an integer ≥ 1 (``ValueError`` otherwise)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer of at least 1 (or 'auto'), got {jobs!r}")


def parse_jobs(text: str) -> int:
    """``--jobs`` as typed: a positive integer, or ``auto`` for one job per available CPU."""
    if text.strip().lower() == "auto":
        return available_cpus()
    try:
        jobs = int(text)
    except ValueError:
        raise ValueError(f"expected a number of jobs or 'auto', got {text!r}") from None
    check_jobs(jobs)
    return jobs


_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://")


def check_cluster_address(address: str) -> str:
    """A dask scheduler address such as ``tcp://HOST:8786`` (``HOST:PORT`` means tcp), checked
    for form only; returns it stripped. ``ValueError`` on a malformed one."""
    text = address.strip()
    if not text:
        raise ValueError("empty cluster address: expected tcp://HOST:PORT")
    if not _ADDRESS.match(text):
        text = "tcp://" + text
    try:
        from distributed.comm import get_address_host_port, parse_address
    except ImportError as exc:
        raise ValueError(f"a cluster needs dask.distributed ({exc}); pip install "
                         "'dask[distributed]'") from None

    try:
        scheme, _ = parse_address(text, strict=True)
        if scheme == "inproc":
            return text
        _, port = get_address_host_port(text)
    except ValueError as exc:
        raise ValueError(f"bad cluster address {address!r} ({exc}): expected tcp://HOST:PORT") \
            from None
    if not 0 < port < 65536:
        raise ValueError(f"bad cluster address {address!r}: port {port} is not in 1…65535")
    return text


def make_executor(jobs: int = 1, cluster: str | None = None, *,
                  connect_timeout: float = CONNECT_TIMEOUT_S) -> Executor:
    """The executor for ``jobs`` parallel jobs or a dask ``cluster`` (its scheduler's address).

    ``jobs=1`` and no cluster: :class:`SerialExecutor`; ``jobs > 1``: :class:`ProcessExecutor`;
    a cluster: :class:`DaskExecutor` (``jobs`` must then be 1: the cluster's workers set the
    parallelism). Raises ``ValueError`` for a bad ``jobs`` or a malformed address; nothing
    starts until the executor is entered (``with``) or :meth:`Executor.start` is called, which
    raises :class:`ClusterUnavailable` (a ``ValueError``) when no scheduler answers within
    ``connect_timeout`` seconds."""
    check_jobs(jobs)
    if cluster is not None:
        if jobs != 1:
            raise ValueError("jobs and a cluster exclude each other: the cluster's workers set "
                             "the parallelism")
        return DaskExecutor(check_cluster_address(cluster), connect_timeout)
    return SerialExecutor() if jobs == 1 else ProcessExecutor(jobs)


# ---- the executors -------------------------------------------------------------------------


class Executor(ABC):
    """Runs independent work items; use it as a context manager (``with make_executor(…) as
    ex``), which starts it and, on leaving, waits for it to finish or, when an exception (such as
    Ctrl-C) leaves the block, cancels what is pending and stops the workers at once."""

    def start(self) -> None:  # noqa: B027 (a no-op unless the executor has workers)
        """Start the workers or connect (idempotent); entering the ``with`` block calls it."""

    def close(self, cancel: bool = False) -> None:  # noqa: B027
        """Release the workers: wait for them (``cancel`` false) or stop them at once."""

    def __enter__(self) -> Self:
        """Start (:meth:`start`) and return the executor."""
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        """Close: wait for the workers, or stop them at once when an exception leaves."""
        self.close(cancel=exc_type is not None)

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T],
                      on_start: Callable[[int], None] | None = None
                      ) -> Iterator[tuple[int, ItemResult[R]]]:
        """``(index, ItemResult)`` for every item, as the items complete.

        ``on_start(index)`` is called in this process, in this thread, when an item is handed to
        a worker (again when a local item is rerun after its worker died). At most as many items
        as there are workers run at a time; the next one is handed out as soon as one finishes,
        before that one is yielded, so the workers go on while the caller handles a result."""

    @abstractmethod
    def describe(self) -> str:
        """Where the items run, in words ("serial", "4 local processes", "dask tcp://…, 3
        workers")."""


class SerialExecutor(Executor):
    """Every item in this process, in order: no pool, no pickling (``jobs=1``)."""

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T],
                      on_start: Callable[[int], None] | None = None
                      ) -> Iterator[tuple[int, ItemResult[R]]]:
        """Run the items one after the other (see :meth:`Executor.map_unordered`); a
        ``BaseException`` that is not an ``Exception`` (``KeyboardInterrupt``) propagates."""
        for index, item in enumerate(items):
            if on_start is not None:
                on_start(index)
            result: ItemResult[R]
            try:
                result = ItemResult(fn(item))
            except Exception as exc:
                result = ItemResult(error=ItemError.from_exception(exc), exception=exc)
            yield index, result

    def describe(self) -> str:
        """"serial"."""
        return "serial"


@contextlib.contextmanager
def _children_ignore_sigint() -> Iterator[None]:
    """While processes are spawned in the main thread, SIGINT is ignored, so that the new
    interpreters start with it ignored (an ignored signal stays ignored across ``exec``, and
    Python then installs no KeyboardInterrupt handler). A Ctrl-C within these milliseconds is
    lost; one during a worker's start-up would otherwise print its traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: thread pools of the numeric libraries, one thread per worker process unless the environment
#: says otherwise (as dask's nannies do): ``jobs`` workers each with a pool of every core's size
#: would oversubscribe the machine
WORKER_THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@contextlib.contextmanager
def _worker_environment() -> Iterator[None]:
    """While workers are started, the thread-pool variables not set by the user are 1 (a new
    worker inherits the environment as it is when it starts)."""
    added = [name for name in WORKER_THREAD_VARIABLES if name not in os.environ]
    for name in added:
        os.environ[name] = "1"
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def _describe_exit(codes: list[int]) -> str:
    if not codes:
        return "it exited"
    parts = []
    for code in codes:
        if code < 0:
            try:
                parts.append(f"killed by {signal.Signals(-code).name}")
            except ValueError:
                parts.append(f"killed by signal {-code}")
        else:
            parts.append(f"exit status {code}")
    return ", ".join(dict.fromkeys(parts))


def _await_exit(procs: list[Any], grace: float = TERMINATE_GRACE_S) -> bool:
    """Wait up to ``grace`` seconds for every process to exit *and* for its exit code to be
    known; whether some still have none. The pool's manager thread reaps its workers too: when
    it wins the race, this thread's ``waitpid`` fails and ``exitcode`` stays ``None`` until the
    manager thread (which needs the GIL) records it, so a plain ``join`` can return with a dead
    worker still counted among the active children."""
    deadline = time.monotonic() + grace
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(max(0.0, deadline - time.monotonic()))
        while p.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.005)  # lets the manager thread record the code it reaped
    return any(p.exitcode is None for p in procs)


class ProcessExecutor(Executor):
    """Items on up to ``jobs`` local worker processes (``spawn``; see the module docstring)."""

    def __init__(self, jobs: int) -> None:
        check_jobs(jobs)
        self.jobs = jobs
        self._pool: Any = None
        self._known: dict[int, Any] = {}  # pid → multiprocessing Process of the current pool
        self._inflight: set[Any] = set()

    def _new_pool(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._known = {}
        return ProcessPoolExecutor(max_workers=self.jobs,
                                   mp_context=multiprocessing.get_context(START_METHOD),
                                   initializer=_ignore_sigint)

    def start(self) -> None:
        """Create the pool; its workers start when items need them."""
        if self._pool is None:
            self._pool = self._new_pool()

    def _note_processes(self) -> None:
        self._known.update(getattr(self._pool, "_processes", None) or {})

    def _spawn(self, n: int) -> None:
        """Make sure ``n`` workers are started (each submitted task starts one while none is
        idle), under :func:`_children_ignore_sigint`."""
        need = n - len(getattr(self._pool, "_processes", None) or {})
        if need > 0:
            with _children_ignore_sigint(), _worker_environment():
                for _ in range(need):
                    self._pool.submit(_noop)
        self._note_processes()

    def _stop(self, pool: Any) -> None:
        """Cancel what is queued and terminate the workers without waiting for their items."""
        table = getattr(pool, "_processes", None) or {}  # shutdown() drops the pool's reference
        procs = list(table.values())
        procs += [p for p in self._known.values() if p not in procs]
        terminate = getattr(pool, "terminate_workers", None)  # Python ≥ 3.14
        if terminate is not None:
            terminate()
        else:
            pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                with contextlib.suppress(Exception):
                    p.terminate()
        if _await_exit(procs):
            for p in procs:
                if p.exitcode is None:
                    with contextlib.suppress(Exception):
                        p.kill()
            _await_exit(procs)
        # a worker the pool was still starting when we looked is in its table only now
        late = [p for p in list(table.values()) if p not in procs]
        for p in late:
            with contextlib.suppress(Exception):
                p.kill()
        _await_exit(late)

    def close(self, cancel: bool = False) -> None:
        """Shut the pool down: wait for its workers, or (``cancel``) terminate them now."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for fut in self._inflight:
            fut.cancel()
        self._inflight.clear()
        if cancel:
            self._stop(pool)
        else:
            pool.shutdown(wait=True)

    def _died(self) -> str:
        codes = [p.exitcode for p in self._known.values() if p.exitcode not in (None, 0)]
        # the pool terminates the surviving workers (SIGTERM) once one has died
        culprits = [c for c in codes if c != -signal.SIGTERM] or codes
        return _describe_exit(culprits)

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T],
                      on_start: Callable[[int], None] | None = None
                      ) -> Iterator[tuple[int, ItemResult[R]]]:
        """Run the items on the pool (see :meth:`Executor.map_unordered`). When a worker dies,
        the items that were running are run again one at a time, and the one whose worker dies
        while it runs alone is reported as ``WorkerDied``."""
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        if self._pool is None:
            raise RuntimeError("start the executor first: `with make_executor(...) as ex:`")
        work = list(items)
        queue: deque[int] = deque(range(len(work)))
        suspects: deque[int] = deque()  # running when a worker died: rerun one at a time
        running: dict[Any, int] = {}
        self._spawn(min(self.jobs, len(work)))

        def submit(index: int) -> None:
            with _worker_environment():  # in case the pool starts a worker for it
                fut = self._pool.submit(_run_item, fn, work[index])
            running[fut] = index
            self._inflight.add(fut)
            self._note_processes()
            if on_start is not None:
                on_start(index)

        def fill() -> None:
            if suspects:
                if not running:
                    submit(suspects.popleft())
                return
            while queue and len(running) < self.jobs:
                submit(queue.popleft())

        try:
            fill()
            while running:
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                ready: list[tuple[int, ItemResult[R]]] = []
                lost: list[int] = []
                for fut in done:
                    index = running.pop(fut)
                    self._inflight.discard(fut)
                    exc = fut.exception()
                    if isinstance(exc, BrokenProcessPool):
                        lost.append(index)
                    elif exc is not None:  # the result did not pickle, or fn left with SystemExit
                        ready.append((index, ItemResult(error=ItemError.from_exception(exc))))
                    else:
                        ready.append((index, fut.result()))
                if lost:
                    # the pool is broken: every item still running is lost with it
                    for fut, index in list(running.items()):
                        try:  # the pool fails them all at once
                            exc = fut.exception(timeout=5 * TERMINATE_GRACE_S)
                        except TimeoutError:
                            exc = BrokenProcessPool("no answer from the broken pool")
                        if exc is None:
                            ready.append((index, fut.result()))
                        else:
                            lost.append(index)
                        self._inflight.discard(fut)
                    running.clear()
                    self._stop(self._pool)  # joins every worker, so their exit codes are known
                    why = self._died()
                    self._pool = self._new_pool()
                    if len(lost) == 1:
                        ready.append((lost[0], ItemResult(error=ItemError(
                            "WorkerDied", f"the worker process running this item died ({why})"))))
                    else:
                        suspects.extend(sorted(lost))
                    self._spawn(1 if suspects else min(self.jobs, len(queue)))
                fill()  # before yielding: the workers go on while the caller handles results
                yield from ready
        finally:
            for fut in running:
                fut.cancel()
                self._inflight.discard(fut)

    def describe(self) -> str:
        """"N local processes"."""
        return f"{self.jobs} local processes"


class DaskExecutor(Executor):
    """Items on the workers of a running dask cluster, one item per worker process at a time."""

    def __init__(self, address: str, connect_timeout: float = CONNECT_TIMEOUT_S) -> None:
        self.address = address
        self.connect_timeout = connect_timeout
        self._client: Any = None
        self._inflight: set[Any] = set()

    def start(self) -> None:
        """Connect to the scheduler and wait for a worker, each within ``connect_timeout``;
        :class:`ClusterUnavailable` otherwise."""
        if self._client is not None:
            return
        from distributed import Client

        try:
            client = Client(self.address, timeout=self.connect_timeout, set_as_default=False)
        except (OSError, TimeoutError):
            raise ClusterUnavailable(
                f"no dask scheduler answered at {self.address} within "
                f"{self.connect_timeout:g} s; start one with "
                "`dask scheduler`") from None
        try:
            client.wait_for_workers(1, timeout=self.connect_timeout)
        except (OSError, TimeoutError):
            with contextlib.suppress(Exception):
                client.close()
            raise ClusterUnavailable(
                f"the dask scheduler at {self.address} has no worker (none joined within "
                f"{self.connect_timeout:g} s); start some with `dask worker {self.address} "
                "--nthreads 1`") from None
        self._client = client

    def workers(self) -> int:
        """How many worker processes the scheduler has now (0 when not connected)."""
        return 0 if self._client is None else len(self._client.nthreads())

    def close(self, cancel: bool = False) -> None:
        """Cancel this executor's pending tasks (``cancel``) and disconnect."""
        client, self._client = self._client, None
        if client is None:
            return
        if cancel and self._inflight:
            with contextlib.suppress(Exception):
                client.cancel(list(self._inflight), force=True)
        self._inflight.clear()
        with contextlib.suppress(Exception):
            client.close(timeout=self.connect_timeout)

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T],
                      on_start: Callable[[int], None] | None = None
                      ) -> Iterator[tuple[int, ItemResult[R]]]:
        """Run the items on the cluster (see :meth:`Executor.map_unordered`): as many at a time
        as it has worker processes (counted again as items complete, so workers that join
        later are used)."""
        from distributed import as_completed

        client = self._client
        if client is None:
            raise RuntimeError("start the executor first: `with make_executor(...) as ex:`")
        work = list(items)
        queue: deque[int] = deque(range(len(work)))
        running: dict[Any, int] = {}
        pending = as_completed(loop=client.loop)
        tag = uuid.uuid4().hex[:12]

        def fill() -> None:
            slots = max(1, len(client.nthreads()))
            while queue and len(running) < slots:
                index = queue.popleft()
                fut = client.submit(_run_item_alone, fn, work[index], pure=False,
                                    key=f"recmem-item-{tag}-{index}")
                running[fut] = index
                self._inflight.add(fut)
                pending.add(fut)
                if on_start is not None:
                    on_start(index)

        try:
            fill()
            while running:
                fut = next(pending)
                index = running.pop(fut)
                self._inflight.discard(fut)
                result: ItemResult[R]
                try:
                    result = fut.result()
                except Exception as exc:  # KilledWorker, a result that did not pickle, …
                    result = ItemResult(error=ItemError.from_exception(exc))
                fut.release()
                fill()
                yield index, result
        finally:
            if running:
                with contextlib.suppress(Exception):
                    client.cancel(list(running), force=True)
                self._inflight.difference_update(running)

    def describe(self) -> str:
        """"dask ADDRESS, N workers"."""
        if self._client is None:
            return f"dask {self.address} (not connected)"
        n = self.workers()
        return f"dask {self.address}, {n} worker{'s' if n != 1 else ''}"
