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
- **dask** (``cluster="tcp://HOST:PORT"`` or ``"tls://HOST:PORT"``): a :class:`distributed.Client`
  of a running scheduler (``dask scheduler``; workers ``dask worker tcp://HOST:PORT --nthreads
  1``). A ``tls://`` address uses Dask's own TLS configuration (``distributed.comm.tls.*`` in the
  dask config or ``DASK_DISTRIBUTED__COMM__TLS__…`` variables, read by
  :class:`distributed.security.Security`); plain ``tcp://`` to another machine is neither
  encrypted nor authenticated and earns a warning (:data:`CLUSTER_TRUST`). A worker process
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

Time limit (``timeout``, local processes only): an item that runs longer than ``timeout`` seconds
(counted from when its worker starts it) is that item's :class:`ItemError` ``TimedOut``; its
worker is killed, which takes the pool down, and the items that were running beside it are
started again (they did nothing wrong). A process, not a signal in this one, so that a loop in
C code (flint, numpy) is stopped too. ``jobs=1`` with a time limit uses one worker process.

Parent death: a local worker dies with the process that started it (``kill -9`` of the parent,
an out-of-memory kill): on Linux the kernel sends it SIGKILL (``PR_SET_PDEATHSIG``), elsewhere a
thread of the worker notices that its parent changed. multiprocessing's resource tracker then
sees its last writer gone and exits too.

Interrupts: ``KeyboardInterrupt`` in the parent (Ctrl-C, or SIGTERM within
:func:`recmem.checks.interrupt.stops_promptly`) propagates out of ``map_unordered`` at once;
leaving the ``with`` block on an exception cancels the pending items and terminates the local
workers (running dask tasks are cancelled; a task already running on a worker finishes there
and its result is dropped).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import signal
import sys
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
#: how often a worker without ``PR_SET_PDEATHSIG`` looks whether its parent is still there
PARENT_POLL_S = 0.5
#: how often the parent looks for start notices while some item's start is not yet known
START_POLL_S = 0.05

#: what a dask scheduler and its workers can do to the client, for ``--help`` and the docs
CLUSTER_TRUST = ("Connect only to a cluster you trust: its scheduler and workers send back "
                 "results that are unpickled here, which can run any code as you. Plain tcp:// "
                 "is neither encrypted nor authenticated (a warning unless the scheduler is on "
                 "this machine); tls://HOST:PORT uses Dask's TLS configuration "
                 "(distributed.comm.tls.* in the dask config).")


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


#: set in a local worker when its pool has a time limit: where it says which item it starts
_start_notices: list[Any] = []
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _die_with_parent(parent: int, main_thread: bool) -> None:
    """Make this worker die when ``parent`` does: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux
    (only for a worker started by the parent's main thread: the kernel sends the signal when the
    *thread* that started the child ends), else a daemon thread that polls ``os.getppid()``
    (an orphan is adopted by another process). Either way the worker is gone within a second."""
    armed = False
    if sys.platform.startswith("linux") and main_thread:
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    if os.getppid() != parent:  # it died before the signal was armed
        os._exit(1)
    if armed:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="recmem-parent-watch", daemon=True).start()


def _start_worker(parent: int, main_thread: bool, notices: Any = None,
                  warmup: Callable[[], object] | None = None) -> None:
    """Initializer of a local worker: Ctrl-C is the parent's to handle; the worker dies with its
    parent (:func:`_die_with_parent`); with a time limit, ``notices`` is the queue on which
    it says when it starts each item. ``warmup`` (imports, say) runs before any item, so that
    its time counts against no item's limit; its failure is left to the items to meet."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent, main_thread)
    if notices is not None:
        _start_notices.append(notices)
    if warmup is not None:
        with contextlib.suppress(Exception):
            warmup()


def _run_noted_item(fn: Callable[[T], R], item: T, token: int) -> ItemResult[R]:
    """:func:`_run_item` in a local worker with a time limit, after telling the parent (on the
    pool's notice queue) that item ``token`` starts now in this process."""
    if _start_notices:
        _start_notices[0].put((token, os.getpid(), time.monotonic()))
    return _run_item(fn, item)


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
    """A dask scheduler address such as ``tcp://HOST:8786`` or ``tls://HOST:8786`` (``HOST:PORT``
    means tcp), checked for form only; returns it stripped. ``ValueError`` on a malformed one."""
    text = address.strip()
    if not text:
        raise ValueError("empty cluster address: expected tcp://HOST:PORT or tls://HOST:PORT")
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
        raise ValueError(f"bad cluster address {address!r} ({exc}): expected tcp://HOST:PORT "
                         "or tls://HOST:PORT") from None
    if not 0 < port < 65536:
        raise ValueError(f"bad cluster address {address!r}: port {port} is not in 1…65535")
    return text


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an IP address, IPv6 possibly in brackets) is this machine's
    loopback interface; names other than ``localhost`` are not resolved (and count as remote)."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def plain_remote_warning(address: str) -> str | None:
    """The warning for ``address`` when the connection to it is plain TCP to another machine
    (readable and forgeable on the way: results are unpickled here), else None."""
    from distributed.comm import get_address_host_port, parse_address

    try:
        scheme, _ = parse_address(address, strict=True)
        host, _ = get_address_host_port(address)
    except ValueError:
        return None
    if scheme != "tcp" or is_loopback(str(host)):
        return None
    return (f"recmem: warning: the connection to the dask cluster at {address} is plain TCP, "
            "neither encrypted nor authenticated: whoever can reach it or the network between "
            "can read the work and send back results that run code here; use tls:// with "
            "Dask's TLS configuration\n")


def cluster_security(address: str) -> Any:
    """The :class:`distributed.security.Security` to connect to ``address`` with: Dask's own,
    from its configuration (``distributed.comm.tls.*``), for a ``tls://`` address, and None
    (the client's default) otherwise. ``ValueError`` for ``tls://`` when that configuration
    names no certificate authority, without which the scheduler's certificate cannot be
    checked."""
    from distributed.comm import parse_address

    if parse_address(address, strict=True)[0] != "tls":
        return None
    from distributed.security import Security

    security = Security()
    if not getattr(security, "tls_ca_file", None):  # set from the config in __init__
        raise ValueError(f"{address}: a tls:// cluster needs Dask's TLS configuration: set "
                         "distributed.comm.tls.ca-file (and distributed.comm.tls.client.cert/"
                         ".key) in the dask config, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE etc.")
    return security


def check_timeout(timeout: float | None) -> None:
    """A time limit per item is None or a finite number of seconds > 0 (``ValueError``)."""
    if timeout is None:
        return
    if (isinstance(timeout, bool) or not isinstance(timeout, int | float)
            or not 0 < timeout < float("inf")):
        raise ValueError(f"the time limit must be a positive number of seconds, got {timeout!r}")


def make_executor(jobs: int = 1, cluster: str | None = None, *,
                  connect_timeout: float = CONNECT_TIMEOUT_S,
                  timeout: float | None = None,
                  warmup: Callable[[], object] | None = None) -> Executor:
    """The executor for ``jobs`` parallel jobs or a dask ``cluster`` (its scheduler's address).

    ``jobs=1`` and no cluster: :class:`SerialExecutor`; ``jobs > 1``: :class:`ProcessExecutor`;
    a cluster: :class:`DaskExecutor` (``jobs`` must then be 1: the cluster's workers set the
    parallelism). ``timeout``: seconds each item may run (local processes only: a dask task
    cannot be stopped on its worker), so ``jobs=1`` then means one worker process; ``warmup``:
    a top-level function each local worker runs once before its first item. Raises
    ``ValueError`` for a bad ``jobs``, ``timeout`` or address; nothing starts until the
    executor is entered (``with``) or :meth:`Executor.start` is called, which raises
    :class:`ClusterUnavailable` (a ``ValueError``) when no scheduler answers within
    ``connect_timeout`` seconds."""
    check_jobs(jobs)
    check_timeout(timeout)
    if cluster is not None:
        if jobs != 1:
            raise ValueError("jobs and a cluster exclude each other: the cluster's workers set "
                             "the parallelism")
        if timeout is not None:
            raise ValueError("a time limit per item needs local processes: a task running on a "
                             "dask worker cannot be stopped")
        address = check_cluster_address(cluster)
        cluster_security(address)  # a tls:// address without Dask's TLS configuration
        return DaskExecutor(address, connect_timeout)
    if jobs == 1 and timeout is None:
        return SerialExecutor()
    return ProcessExecutor(jobs, timeout, warmup)


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
    """Items on up to ``jobs`` local worker processes (``spawn``; see the module docstring),
    each within ``timeout`` seconds when given; each worker runs ``warmup`` first."""

    def __init__(self, jobs: int, timeout: float | None = None,
                 warmup: Callable[[], object] | None = None) -> None:
        check_jobs(jobs)
        check_timeout(timeout)
        self.jobs = jobs
        self.timeout = timeout
        self.warmup = warmup
        self._pool: Any = None
        self._notices: Any = None  # the current pool's queue of start notices (with a timeout)
        self._known: dict[int, Any] = {}  # pid → multiprocessing Process of the current pool
        self._inflight: set[Any] = set()

    def _new_pool(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._known = {}
        context = multiprocessing.get_context(START_METHOD)
        self._notices = context.SimpleQueue() if self.timeout is not None else None
        main = threading.current_thread() is threading.main_thread()
        return ProcessPoolExecutor(max_workers=self.jobs, mp_context=context,
                                   initializer=_start_worker,
                                   initargs=(os.getpid(), main, self._notices, self.warmup))

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

    def _read_notices(self, tokens: dict[int, Any], began: dict[Any, tuple[int, float]]) -> None:
        """Record the start notices that workers have sent: future → (pid, start time)."""
        notices = self._notices
        if notices is None:
            return
        now = time.monotonic()
        while not notices.empty():
            token, pid, t = notices.get()
            fut = tokens.get(token)
            if fut is not None:
                began[fut] = (pid, min(t, now))

    def _overdue(self, running: dict[Any, int], began: dict[Any, tuple[int, float]]) -> list[Any]:
        """Kill the worker of every running item past its time limit; those items' futures."""
        if self.timeout is None:
            return []
        now = time.monotonic()
        late = [fut for fut in running if fut in began and not fut.done()
                and now - began[fut][1] > self.timeout]
        for fut in late:
            proc = self._known.get(began[fut][0])
            with contextlib.suppress(Exception):
                if proc is not None:
                    proc.kill()
                else:
                    os.kill(began[fut][0], signal.SIGKILL)
        return late

    def _wait_s(self, running: dict[Any, int], began: dict[Any, tuple[int, float]]
                ) -> float | None:
        """How long to wait for a result before looking at the time limits again."""
        if self.timeout is None:
            return None
        if any(fut not in began for fut in running):
            return START_POLL_S
        now = time.monotonic()
        return max(0.0, min(began[f][1] + self.timeout - now for f in running)) + 0.01

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T],
                      on_start: Callable[[int], None] | None = None
                      ) -> Iterator[tuple[int, ItemResult[R]]]:
        """Run the items on the pool (see :meth:`Executor.map_unordered`). When a worker dies,
        the items that were running are run again one at a time, and the one whose worker dies
        while it runs alone is reported as ``WorkerDied``. An item past the time limit is
        ``TimedOut``; its worker is killed and the items running beside it start again."""
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        if self._pool is None:
            raise RuntimeError("start the executor first: `with make_executor(...) as ex:`")
        work = list(items)
        queue: deque[int] = deque(range(len(work)))
        suspects: deque[int] = deque()  # running when a worker died: rerun one at a time
        running: dict[Any, int] = {}
        tokens: dict[int, Any] = {}  # submission number → future (start notices name it)
        began: dict[Any, tuple[int, float]] = {}  # future → (worker pid, when it started)
        timed_out: set[int] = set()  # items whose worker this executor killed
        self._spawn(min(self.jobs, len(work)))

        def submit(index: int) -> None:
            with _worker_environment():  # in case the pool starts a worker for it
                if self.timeout is None:
                    fut = self._pool.submit(_run_item, fn, work[index])
                else:
                    token = len(tokens)
                    fut = self._pool.submit(_run_noted_item, fn, work[index], token)
                    tokens[token] = fut
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
                done, _ = wait(list(running), timeout=self._wait_s(running, began),
                               return_when=FIRST_COMPLETED)
                self._read_notices(tokens, began)
                timed_out.update(running[fut] for fut in self._overdue(running, began))
                if not done:
                    continue
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
                    # workers killed by the signal that stops this process (SIGTERM to the
                    # process group) are no item's fault: stop here, not rerun them
                    from recmem.checks import interrupt

                    interrupt.checkpoint()
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
                    ours = [i for i in lost if i in timed_out]
                    others = [i for i in lost if i not in timed_out]
                    timed_out.difference_update(ours)
                    for i in ours:
                        ready.append((i, ItemResult(error=ItemError(
                            "TimedOut", f"ran longer than the time limit of {self.timeout:g} s; "
                            "its worker process was stopped"))))
                    if ours:  # killed by this executor: the others did nothing wrong
                        queue.extendleft(reversed(others))
                    elif len(others) == 1:
                        ready.append((others[0], ItemResult(error=ItemError(
                            "WorkerDied", f"the worker process running this item died ({why})"))))
                    else:
                        suspects.extend(sorted(others))
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

        security = cluster_security(self.address)  # tls://: Dask's TLS configuration
        if (warning := plain_remote_warning(self.address)) is not None:
            sys.stderr.write(warning)
        try:
            client = Client(self.address, timeout=self.connect_timeout, set_as_default=False,
                            security=security)
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
