"""Shared numeric checks: an identity's residual in one backend, judged by the tolerance policy.

Point arithmetics are judged by the condition-scaled policy; an mpmath residual that exceeds it
is recomputed in ball arithmetic (python-flint), and only an enclosure of lhs − rhs that excludes 0
makes it a certified refutation (ground rule 2); a residual that merely stays put when the
precision doubles is a heuristic, reported as such with the outcome FAIL. Ball arithmetic is
judged by enclosure: the ball of lhs − rhs must contain 0 and be narrow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.verdict import Evidence, Outcome
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.certified import KappaBracket

# Ball checks may double their precision up to this factor of the requested precision.
ESCALATION = 4

REF_CTX = mpmath.MPContext()
REF_CTX.prec = 64  # residual arithmetic: the residuals themselves need few correct bits


def fro(m: mpmath.matrix) -> mpmath.mpf:
    """Frobenius norm of an mpmath matrix."""
    return REF_CTX.sqrt(REF_CTX.fsum(abs(m[i, j]) ** 2 for i in range(m.rows)
                                     for j in range(m.cols)))


def relative_residual(backend: AbstractBackend, lhs: Any, rhs: Any) -> mpmath.mpf:
    """‖lhs − rhs‖_F / max(‖rhs‖_F, tiny), evaluated from the backend's values."""
    ctx = mpmath.MPContext()
    ctx.prec = max(backend.precision_bits + 16, 64)
    a, b = backend.to_mp(lhs, ctx), backend.to_mp(rhs, ctx)
    diff = ctx.matrix(a.rows, a.cols)
    for i in range(a.rows):
        for j in range(a.cols):
            diff[i, j] = a[i, j] - b[i, j]
    den = fro(b)
    return fro(diff) / (den if den > 0 else mpmath.mpf(1))


def _ball_residual(backend: AbstractBackend, lhs: Any,
                   rhs: Any) -> tuple[bool, mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """(ball of lhs − rhs contains 0, max radius, scale ‖rhs‖, ‖midpoint of lhs − rhs‖) for a
    flint backend."""
    import flint

    with flint.ctx.workprec(backend.precision_bits):
        d = lhs - rhs
        contains = d.contains(flint.acb_mat(d.nrows(), d.ncols()))
    scale = fro(backend.to_mp(rhs, REF_CTX))
    return bool(contains), backend.radius(d), scale, fro(backend.to_mp(d, REF_CTX))


def identity_check(check: str, backend: AbstractBackend,
                   compute: Callable[[AbstractBackend], tuple[Any, Any]], *,
                   instance: Mapping[str, Any], kappa: KappaBracket | mpmath.mpf, n: int,
                   c: float = 4.0, escalate: bool = True, instances: int = 1) -> Evidence:
    """Evaluate lhs and rhs of an identity in ``backend`` and judge the relative residual.

    ``instance`` describes the exact inputs (strings); a certified refutation carries it as its
    counterexample, with the enclosure that certifies it. An mpmath failure is recomputed in
    ball arithmetic (:func:`ball_exclusion`): REFUTE only when the ball of lhs − rhs excludes 0;
    otherwise FAIL, whose message says whether the residual stays put at doubled precision (a
    heuristic, never a certificate).
    """
    t0 = time.perf_counter()
    k_val = kappa.value if isinstance(kappa, KappaBracket) else mpmath.mpf(kappa)
    k_txt = str(kappa) if isinstance(kappa, KappaBracket) else tol.fmt(kappa) or "?"
    with backend.activate():
        lhs, rhs = compute(backend)
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=backend.precision_bits, instances=instances,
                    condition_number=k_txt)
    if backend.encloses:
        # Narrowness is demanded relative to the *requested* precision; when a ball is too wide,
        # recompute at doubled precision up to ESCALATION× the request (flint's good() idiom).
        max_width = tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(backend.precision_bits // 4))
        b = backend
        while True:
            contains, radius, scale, mid = _ball_residual(b, lhs, rhs)
            rel_rad = radius / (scale if scale > 0 else 1)
            rel_mid = mid / (scale if scale > 0 else 1)
            j = tol.enclosure(contains, rel_rad, max_width, b.precision_bits)
            if (j.outcome is not Outcome.INCONCLUSIVE
                    or 2 * b.precision_bits > ESCALATION * backend.precision_bits):
                break
            b = make_backend(BackendSpec("flint", bits=2 * b.precision_bits))
            with b.activate():
                lhs, rhs = compute(b)
        enc = (f"lhs − rhs ∋ 0: {contains}, relative radius {tol.fmt(rel_rad)} at "
               f"{b.precision_bits} bits")
        # the residual is the distance of the midpoint from the claimed value (what separates the
        # statement from its controls); the radius is in the enclosure text
        return replace(base, outcome=j.outcome, residual=tol.fmt(rel_mid), tolerance=j.tolerance,
                       precision_bits=b.precision_bits, tolerance_source=j.source,
                       enclosure=enc, needed_bits=j.needed_bits,
                       counterexample=({**instance, "enclosure": enc} if not contains else None),
                       certified_by=("ball arithmetic: the enclosure of lhs − rhs excludes 0"
                                     if not contains else None),
                       seconds=time.perf_counter() - t0)
    res = relative_residual(backend, lhs, rhs)
    j = tol.condition_scaled(res, c=c, n=n, kappa=k_val, unit_roundoff=backend.unit_roundoff,
                             kappa_text=k_txt)
    ev = replace(base, outcome=j.outcome, residual=tol.fmt(res), tolerance=j.tolerance,
                 tolerance_source=j.source, needed_bits=j.needed_bits,
                 seconds=time.perf_counter() - t0)
    if j.outcome is Outcome.FAIL and escalate and backend.spec.kind == "mpmath":
        hi = make_backend(BackendSpec("mpmath", bits=2 * backend.precision_bits))
        with hi.activate():
            res2 = relative_residual(hi, *compute(hi))
        # An exact identity's residual falls like 2^-p; one that stays put suggests a real
        # discrepancy, but only an enclosure certifies it
        stays = res2 > res * mpmath.mpf(2) ** (-backend.precision_bits // 2)
        trend = (f"the residual {'stays put' if stays else 'falls'} as precision rises: "
                 f"{tol.fmt(res)} at {backend.precision_bits} bits, {tol.fmt(res2)} at "
                 f"{hi.precision_bits} bits")
        ball = ball_exclusion(compute, backend.precision_bits)
        if ball is not None:
            ev = replace(ev, outcome=Outcome.REFUTE, enclosure=ball,
                         certified_by=f"ball arithmetic (python-flint): {ball}; {trend}",
                         counterexample={**instance, "relative residual": tol.fmt(res),
                                         "enclosure": ball})
        else:
            ev = replace(ev, message=f"not certified (no ball enclosure of lhs − rhs excludes 0)"
                         f"; heuristic: {trend}")
        ev.seconds = time.perf_counter() - t0
    return ev


def ball_exclusion(compute: Callable[[AbstractBackend], tuple[Any, Any]], bits: int) -> str | None:
    """Recompute lhs and rhs in python-flint balls at ``bits`` bits, doubling up to ESCALATION×
    while the ball of lhs − rhs is too wide to exclude 0: the enclosure text when it excludes 0 (a
    certified disagreement), None when it contains 0 or python-flint cannot run."""
    from recmem.numerics.backend import BackendUnavailable

    b_bits = max(bits, 64)
    while b_bits <= ESCALATION * max(bits, 64):
        try:
            b = make_backend(BackendSpec("flint", bits=b_bits))
        except BackendUnavailable:
            return None
        try:
            with b.activate():
                lhs, rhs = compute(b)
        except BackendUnavailable:  # the check has no ball route: nothing certifies
            return None
        contains, radius, scale, _ = _ball_residual(b, lhs, rhs)
        if not contains:
            return (f"lhs − rhs ∌ 0 at {b_bits} bits (relative radius "
                    f"{tol.fmt(radius / (scale if scale > 0 else 1))})")
        if radius / (scale if scale > 0 else 1) <= tol.RESOLVE_LIMIT * mpmath.mpf(2) ** (-(b_bits // 4)):
            return None  # a narrow ball that contains 0: no disagreement to certify
        b_bits *= 2
    return None


def skipped(check: str, backend: str, reason: str) -> Evidence:
    """A check that could not run here."""
    return Evidence(check=check, kind="numeric", backend=backend, outcome=Outcome.SKIPPED,
                    message=reason)
