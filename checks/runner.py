"""Run claims over the selected arithmetics and collect a report.

The runner knows nothing about individual claims: it runs each claim's symbolic side (backend
``sympy``), the exact counterexample search over the statement's domain, and the numeric side once
per selected arithmetic; then it runs the statement's negative controls through the same checks
and applies the verdict rules of :mod:`recmem.checks.verdict`. An unavailable backend yields
SKIPPED evidence; an exception yields ERROR evidence with the message, never a crash of the run.
Claims run one after the other in this process, or at once on local processes or a dask cluster
(:mod:`recmem.checks.execution`), each with the same context, so with the same result.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import pickle
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from recmem.checks import execution, interrupt, plugins, registry
from recmem.checks.campaign import replay_evidence
from recmem.checks.claim import Claim, Context
from recmem.checks.report import ClaimResult, Report
from recmem.checks.search import SEARCH_BACKEND, search
from recmem.checks.verdict import (
    ControlRun,
    Decision,
    Evidence,
    Outcome,
    Verdict,
    apply_controls,
    counterexample_of,
    decide,
)
from recmem.numerics.backend import (
    DEFAULT_BITS,
    MAX_BITS,
    MIN_BITS,
    BackendSpec,
    BackendUnavailable,
    make_backend,
    parse_spec,
)


class UsageError(ValueError):
    """Bad input from the user (exit status 2)."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; ``report`` holds the claims that finished (``complete`` false)."""

    def __init__(self, report: Report) -> None:
        super().__init__("interrupted")
        self.report = report


def check_seed(seed: int) -> None:
    """Seeds are non-negative integers (what ``random.Random`` and numpy's generators share)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UsageError(f"seed must be a non-negative integer, got {seed!r}")


def check_precision(bits: int) -> None:
    """A working precision in bits, within ``MIN_BITS`` … ``MAX_BITS``."""
    if not MIN_BITS <= bits <= MAX_BITS:
        raise UsageError(f"precision must be between {MIN_BITS} and {MAX_BITS} bits, got {bits}")


def default_backends(bits: int = DEFAULT_BITS) -> list[BackendSpec]:
    """Every arithmetic: the symbolic side, two high-precision ones, and the float ones."""
    return [parse_spec(s, bits) for s in
            ("sympy", f"mpmath@{bits}", f"flint@{bits}", "numpy", "torch:cpu", "torch:cuda")]


def resolve_params(claims: Sequence[Claim], overrides: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Each claim's parameters: defaults, then ``--param`` overrides the claim takes.

    An override that no selected claim takes is a usage error.
    """
    out: dict[str, dict[str, Any]] = {}
    used: set[str] = set()
    for claim in claims:
        values = claim.defaults()
        for name, text in overrides.items():
            p = claim.param(name)
            if p is None:
                continue
            try:
                values[name] = p.convert(text)
            except ValueError as exc:
                raise UsageError(f"{claim.id}: {exc}") from None
            used.add(name)
        if claim.validate is not None and (msg := claim.validate(values)):
            raise UsageError(f"{claim.id}: {msg}")
        out[claim.id] = values
    unknown = sorted(set(overrides) - used)
    if unknown:
        raise UsageError(f"no selected claim takes parameter(s) {', '.join(unknown)}; "
                         "`recmem show CLAIM_ID` lists a claim's parameters")
    return out


def _guard(check: str, backend: str, fn: Callable[[], list[Evidence]],
           kind: str = "numeric") -> list[Evidence]:
    interrupt.checkpoint()  # an interrupt swallowed inside the previous check stops here
    t0 = time.perf_counter()
    try:
        return fn()
    except BackendUnavailable as exc:
        return [Evidence(check=check, kind=kind, backend=backend, outcome=Outcome.SKIPPED,
                         message=str(exc))]
    except Exception as exc:  # one failing check must not stop the run
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        return [Evidence(check=check, kind=kind, backend=backend, outcome=Outcome.ERROR,
                         message=f"{type(exc).__name__}: {exc} (at {tb.filename}:{tb.lineno})",
                         seconds=time.perf_counter() - t0)]


def _checks(claim: Claim, ctx: Context, backends: Sequence[BackendSpec],
            arithmetics: set[str] | None = None, shrink: bool = True,
            search_domain: bool = True) -> list[Evidence]:
    """Every check of ``claim`` on ``ctx.statement``: the symbolic side (when ``sympy`` is
    selected), the exact counterexample search (whatever arithmetics are selected: it is exact,
    so no precision choice changes it; left out only when ``search_domain`` is False) and the
    counterexamples earlier fuzzing campaigns stored for the claim's own statement (judged
    again), and the numeric side once per selected arithmetic (only those in ``arithmetics``
    when given)."""
    evidence: list[Evidence] = []
    if any(spec.is_symbolic for spec in backends) and claim.symbolic is not None:
        sym = claim.symbolic
        evidence += _guard("symbolic", "sympy", lambda: sym(ctx), "symbolic")
    if search_domain and claim.strategy is not None and claim.holds is not None:
        evidence += _guard("counterexample search", SEARCH_BACKEND,
                           lambda: [search(claim, ctx, shrink=shrink)], "search")
        evidence += _guard("stored counterexamples", SEARCH_BACKEND,
                           lambda: replay_evidence(claim, ctx), "search")
    if claim.numeric is None:
        return evidence
    for spec in backends:
        if spec.is_symbolic or (arithmetics is not None and str(spec) not in arithmetics):
            continue
        num = claim.numeric

        def numeric(spec: BackendSpec = spec, num: Any = num) -> list[Evidence]:
            backend = make_backend(spec)
            with backend.activate():
                return num(backend, ctx)

        evidence += _guard("numeric", str(spec), numeric)
    return evidence


def run_controls(claim: Claim, ctx: Context, backends: Sequence[BackendSpec],
                 evidence: Sequence[Evidence], search_domain: bool = True) -> list[ControlRun]:
    """Each negative control of ``claim`` through the same checks as the statement.

    A control runs the symbolic side and the search (its first counterexample is enough: no
    shrinking), and the numeric side in every arithmetic in which the statement passed a check
    (rule C needs a counterpart there), or in the first selected arithmetic when none passed.
    Every control gets a fresh ``cache``; ``shared`` (statement-independent data) is shared.
    ``search_domain``: as for the statement (:func:`_checks`).
    """
    passed = {e.backend for e in evidence if e.outcome is Outcome.PASS}
    arithmetic = [str(s) for s in backends if not s.is_symbolic]
    chosen = {a for a in arithmetic if a in passed} or set(arithmetic[:1])
    runs = []
    for control in claim.controls:
        cctx = replace(ctx, statement=control.statement, cache={})
        ev = _checks(claim, cctx, backends, chosen, shrink=False, search_domain=search_domain)
        runs.append(ControlRun(control.change, control.statement.text,
                               decide(ev, claim.decided_by).verdict, ev, counterexample_of(ev)))
    return runs


def run_claim(claim: Claim, ctx: Context, backends: Sequence[BackendSpec], *,
              controls: bool = True, search_domain: bool = True) -> ClaimResult:
    """Every selected check of one claim, its negative controls (unless ``controls`` is False),
    and the verdict they earn (rules of :mod:`recmem.checks.verdict`). ``search_domain=False``
    leaves out the exact counterexample search (and the stored counterexamples), for runs that
    judge only the selected arithmetics' own checks (a precision sweep: the search is exact, so
    it is the same at every precision)."""
    t0 = time.perf_counter()
    if ctx.statement is None:
        ctx = replace(ctx, statement=claim.statement)
    evidence = _checks(claim, ctx, backends, search_domain=search_domain)
    runs: list[ControlRun] | None = None
    if controls:
        runs = run_controls(claim, ctx, backends, evidence, search_domain)
        evidence = apply_controls(evidence, runs)
    decision = decide(evidence, claim.decided_by, runs)
    return ClaimResult.from_claim(claim, decision, evidence, ctx.params,
                                  counterexample_of(evidence), time.perf_counter() - t0,
                                  controls=runs)


@dataclass(frozen=True)
class ClaimJob:
    """One claim's run as a work item of :mod:`recmem.checks.execution`: what :func:`run_claim`
    needs, by value (the claim by its ID, looked up again where the job runs), so that it
    pickles. ``portable``: the result crosses a process boundary (see :func:`run_claim_job`)."""

    claim_id: str
    params: dict[str, Any]
    seed: int
    precision: int
    search_examples: int
    backends: tuple[BackendSpec, ...]
    controls: bool = True
    portable: bool = False
    search_domain: bool = True


def run_claim_job(job: ClaimJob) -> ClaimResult:
    """Run one :class:`ClaimJob` wherever an executor puts it, with the context a serial run
    gives the claim (the same seed, precision, budgets and parameters), so that its result is
    the same in every process. A ``portable`` job keeps Hypothesis's files in recmem's home (as
    the command line does in its own process) and returns a result that pickles."""
    claim = registry.get(job.claim_id)
    ctx = Context(job.params, seed=job.seed, precision_bits=job.precision,
                  search_examples=job.search_examples, statement=claim.statement,
                  arithmetics=tuple(str(b) for b in job.backends))
    if not job.portable:
        with _search_constants_pinned():
            return run_claim(claim, ctx, job.backends, controls=job.controls,
                             search_domain=job.search_domain)
    with hypothesis_files_in_home(), _search_constants_pinned():
        result = run_claim(claim, ctx, job.backends, controls=job.controls,
                           search_domain=job.search_domain)
    return _picklable(result)


def _no_local_constants() -> Any:
    """The pool of "local constants" Hypothesis mixes into a claim's search: empty.

    Hypothesis would collect the literals of every local source file loaded so far (about 5 s of
    parsing per process for recmem's sources); recmem's literals say nothing about a claim's
    domain, and a pool built from them would make the draws change with every edit to any
    source file. Hypothesis's own edge values (zero, infinities, boundaries) still come."""
    from hypothesis.internal.constants_ast import Constants

    return Constants()


@contextlib.contextmanager
def _search_constants_pinned() -> Iterator[None]:
    """While a claim runs, Hypothesis's pool of "local constants" is empty, whatever the process
    has imported.

    Hypothesis mixes into its draws literals from the source of every *local* (not installed)
    module loaded so far, so with an editable install a search's instances depend on which
    modules the process happened to import before it: on the claims run earlier in the same
    process, on the command line's own modules, on pytest's. A claim run in a worker process
    would then draw other instances than in a serial run. With the pool fixed (and empty) the
    draws depend on the claim and its seed only.
    Relies on Hypothesis internals; where they are missing, the pool is left as it is."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants  # noqa: F401

        original = providers._get_local_constants
        cache = providers.CONSTANTS_CACHE.cache
    except (ImportError, AttributeError):
        yield
        return
    providers._get_local_constants = _no_local_constants  # read when a search first needs it
    cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.clear()


@contextlib.contextmanager
def hypothesis_files_in_home() -> Iterator[None]:
    """Hypothesis keeps files (its constants cache, example database) under ``./.hypothesis`` by
    default; while this block runs they go to ``$RECMEM_HOME/hypothesis`` instead
    (``HYPOTHESIS_STORAGE_DIRECTORY`` wins)."""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    from hypothesis.configuration import set_hypothesis_home_dir

    from recmem.checks.store import home

    set_hypothesis_home_dir(home() / "hypothesis")
    try:
        yield
    finally:
        set_hypothesis_home_dir(None)


def _picklable(value: Any) -> Any:
    """``value`` itself when it pickles; otherwise a copy in which each part that does not (a
    flint ball kept in a counterexample, say) is its ``str``, which is all the reports show of
    such a value anyway."""
    try:
        pickle.dumps(value)
        return value
    except Exception:
        pass
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: _picklable(getattr(value, f.name))
                                 for f in fields(value) if f.init})
    if isinstance(value, dict):
        return {k: _picklable(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_picklable(v) for v in value)
    return str(value)


def _failed_result(claim: Claim, job: ClaimJob, error: execution.ItemError,
                   where: str) -> ClaimResult:
    """A claim whose run gave no result (its worker process died, or the run raised outside
    every check): ERROR, with what happened as its evidence."""
    ev = Evidence(check="claim run", kind="numeric", backend=where, outcome=Outcome.ERROR,
                  message=f"{error} (the run of this claim on {where} gave no result)")
    return ClaimResult.from_claim(claim, decide([ev], claim.decided_by), [ev], job.params,
                                  None, 0.0)


def warm_worker() -> None:
    """What a worker process with a time limit loads before its first claim (every claim's
    module, Hypothesis, the arithmetics' modules), so that no claim's limit pays for it."""
    import recmem.numerics.backend  # noqa: F401

    registry.all_claims()


def _timed_out_result(claim: Claim, job: ClaimJob, error: execution.ItemError,
                      timeout: float) -> ClaimResult:
    """A claim stopped at its time limit (``--timeout``): INCONCLUSIVE, for none of its checks
    finished, with "timed out" as its evidence and its reason."""
    why = f"timed out: {error.message} (--timeout {timeout:g})"
    ev = Evidence(check="claim run", kind="numeric", backend="time limit",
                  outcome=Outcome.INCONCLUSIVE, message=why, seconds=timeout)
    return ClaimResult.from_claim(
        claim, Decision(Verdict.INCONCLUSIVE, f"{why}; no check finished within the limit, a "
                        "larger --timeout may resolve it"), [ev], job.params, None, timeout)


#: seconds a claim took in a full serial run (2 cores, as measured for issue 20), for the claims
#: that take much longer than the others: the order in which parallel runs start claims when
#: the results store has no duration yet (every other claim counts as 1 s)
COST_HINT_S = {"O.universality": 26.0, "W.stable-exp": 6.5, "O.sparse-conditioning": 6.3,
               "O.ring-conditioning": 5.3, "W.theorem": 4.8}
DEFAULT_COST_S = 1.0


def expected_seconds(claim_ids: Sequence[str]) -> dict[str, float]:
    """How long each claim is expected to take: its latest stored run's ``seconds`` when the
    results store has one, else :data:`COST_HINT_S` (or :data:`DEFAULT_COST_S`)."""
    from recmem.checks import store

    try:
        stored = store.load()
    except Exception:  # an unreadable store only costs the order, never the run
        stored = {}
    out = {}
    for cid in claim_ids:
        seconds = (stored.get(cid) or {}).get("result", {}).get("seconds")
        valid = isinstance(seconds, int | float) and seconds >= 0
        out[cid] = float(seconds) if valid else COST_HINT_S.get(cid, DEFAULT_COST_S)
    return out


def longest_first(claim_ids: Sequence[str]) -> list[int]:
    """The positions of ``claim_ids`` in the order a parallel run starts them: longest expected
    first (:func:`expected_seconds`), so that the longest claim does not start last and leave
    the other workers idle at the end; ties keep the given order."""
    cost = expected_seconds(claim_ids)
    return sorted(range(len(claim_ids)), key=lambda n: -cost[claim_ids[n]])


def verify(claim_ids: Sequence[str] | None = None, *, paper: str | None = None,
           backends: Sequence[str] | None = None, precision: int = DEFAULT_BITS, seed: int = 0,
           params: Mapping[str, str] | None = None, search_examples: int = 60,
           controls: bool = True, search_domain: bool = True, jobs: int = 1,
           cluster: str | None = None, timeout: float | None = None,
           on_claim_start: Callable[[Claim], None] | None = None,
           on_claim_done: Callable[[ClaimResult, Report], None] | None = None) -> Report:
    """Run the verification suite and return the :class:`Report` (what ``recmem verify`` runs).

    ``backends`` are spec strings (``None``: every arithmetic, see :func:`default_backends`);
    ``params`` are ``--param`` overrides as strings; ``controls=False`` skips the negative
    controls (``--no-controls``); ``search_domain=False`` leaves out every claim's exact
    counterexample search (:func:`run_claim`: Python only, for precision sweeps). ``jobs`` > 1
    runs that many claims at once on local processes, ``cluster`` (a dask scheduler's address,
    ``tcp://HOST:PORT``) on a dask cluster's workers (:mod:`recmem.checks.execution`); the report
    is a serial run's apart from timings (claims in the same order, each with the seed and context
    a serial run gives it); in parallel the longest claims start first (:func:`longest_first`).
    ``timeout``: seconds each claim may run (``--timeout``); a claim past it is INCONCLUSIVE
    "timed out" and the run goes on (each claim then runs in a worker process, which can be
    stopped, ``jobs=1`` included).
    ``on_claim_start`` is called when a claim is handed to a worker, ``on_claim_done`` (in
    this process) as each claim finishes, with the report so far (its finished claims, in
    order). Raises :class:`UsageError` on bad input (an unreachable cluster included), and
    :class:`Interrupted` (a ``KeyboardInterrupt`` carrying the partial report) on Ctrl-C.
    """
    check_precision(precision)
    check_seed(seed)
    if search_examples < 1:
        raise UsageError(f"search examples must be at least 1, got {search_examples}")
    if paper is not None and paper not in plugins.papers():
        raise UsageError(f"unknown paper {paper!r}: expected one of {', '.join(plugins.paper_keys())}")
    try:
        claims = registry.select(list(claim_ids) if claim_ids else None, paper)
    except registry.UnknownClaim as exc:
        raise UsageError(exc.args[0]) from None
    if not claims:
        raise UsageError(f"no registered claim matches (paper {paper}); `recmem list` shows them")
    from recmem.numerics.backend import SpecError

    try:
        specs = ([parse_spec(s, precision) for s in backends] if backends
                 else default_backends(precision))
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    values = resolve_params(claims, params or {})
    try:
        executor = (execution.make_executor(jobs, cluster) if timeout is None
                    else execution.make_executor(jobs, cluster, timeout=timeout,
                                                 warmup=warm_worker))
        executor.start()  # connects to a cluster: unreachable is bad usage, before any work
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    portable = not isinstance(executor, execution.SerialExecutor)
    work = [ClaimJob(claim.id, values[claim.id], seed, precision, search_examples, tuple(specs),
                     controls, portable, search_domain) for claim in claims]
    position = {claim.id: n for n, claim in enumerate(claims)}
    # in parallel, the longest claims first; one at a time, the registry's order
    order = (longest_first([c.id for c in claims]) if jobs > 1 or cluster is not None
             else list(range(len(claims))))
    report = Report.start(backends=[str(s) for s in specs], precision=precision, seed=seed,
                          params=dict(params or {}), controls=controls, search=search_domain)
    running: dict[int, str] = {}  # handed to a worker, not finished: index → claim ID

    def started(k: int) -> None:
        n = order[k]
        running[n] = claims[n].id
        if on_claim_start:
            on_claim_start(claims[n])

    with interrupt.stops_promptly(), executor:
        try:
            for k, outcome in executor.map_unordered(run_claim_job, [work[n] for n in order],
                                                     on_start=started):
                n = order[k]
                running.pop(n, None)
                if outcome.error is None:
                    result: ClaimResult = outcome.get()
                elif outcome.exception is not None:  # raised in this process: as it always did
                    raise outcome.exception
                elif outcome.error.kind == "TimedOut" and timeout is not None:
                    result = _timed_out_result(claims[n], work[n], outcome.error, timeout)
                else:
                    result = _failed_result(claims[n], work[n], outcome.error,
                                            executor.describe())
                bisect.insort(report.claims, result, key=lambda r: position[r.id])
                if on_claim_done:
                    on_claim_done(result, report)
                interrupt.checkpoint()
        except KeyboardInterrupt:
            interrupt.settle()  # later presses are only recorded while the caller saves
            report.interrupt(", ".join(running[n] for n in sorted(running)) or None)
            raise Interrupted(report) from None
    report.finish()
    return report
