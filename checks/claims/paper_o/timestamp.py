"""O.timestamp: x_{k,0} = Σ λ₀^i = (λ₀^k − 1)/(λ₀ − 1) and k = log_{λ₀}(x_{k,0}(λ₀ − 1) + 1).

O §3.1 and App. B (eq. 27), for λ₀ ∈ ℂ with |λ₀| ≤ 1; log_{λ₀} z read as Log z / Log λ₀ with the
principal logarithm. One statement, ``recmem.theory.timestamp.Timestamp``, read by every side.
As printed it fails (λ₀ = 0, λ₀ = 1, and whenever k·Arg λ₀ leaves (−π, π]);
``O.timestamp.corrected`` (0 < |λ₀| < 1, k = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀|) is proved for all
such λ₀ and k. Negative controls: the power of λ₀ shifted by one, the sign of the inversion's
(λ₀ − 1) flipped, and for the correction each side of the hypothesis widened on its own (the unit
circle |λ₀| = 1 admitted; λ₀ = 0 admitted) and the moduli dropped.

Numeric side, per arithmetic: x_{k,0} comes from the backend's recurrence x_k = λ₀ x_{k−1} + 1,
x_0 = 0 (the RNN itself, the definition), then the statement's inversion is evaluated in the
backend for k = 1…L at the parameters' λ₀, and for k ≤ 4 at each edge point of |λ₀| ≤ 1 (0, 1,
−1, i) that the hypothesis admits. Each value is compared with the claimed k within the bound of
a rounding-error analysis (theory.timestamp.recovery_tolerance); beyond the horizon where
x(λ₀ − 1) + 1 = λ₀^k cancels (|λ₀|^k ≈ u) the bound exceeds 1/2 and k is not demanded: the check
reports, per precision, the horizon the analysis certifies and the one it measured. A
disagreement beyond the bound is certified by a ball that excludes the claimed value (flint) or
by deciding the instance exactly (theory.timestamp.decide).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows, parse_fraction
from recmem.checks.search import Instance
from recmem.checks.strategies import disk
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi, abs2
from recmem.theory import timestamp as th
from recmem.theory.timestamp import Timestamp

# Ball checks may double their precision up to this factor of the requested precision.
ESCALATION = 4
# Steps evaluated at the edge points of the hypothesis (every failure there shows by k = 3).
EDGE_STEPS = 4

# Default λ₀: 0.9·e^{2πi/15} rounded to 24 fractional bits, exactly representable in float32 too,
# so every backend (float32 included) sees the same λ₀. Arg λ₀ = 24° makes the principal Log wrap
# between k = 7 (168°) and k = 8 (192°), far from the cut; |λ₀| ≈ 0.9, so ρ^k reaches float64's u
# near k ≈ 350 and float32's near k ≈ 160.
DEFAULT_RE = Fraction(13794075, 2**24)
DEFAULT_IM = Fraction(6141518, 2**24)

QUOTE_31 = ("To reconstruct k from x̃_k note that x_{k,0} = Σ_{i=0}^{k−1} λ_0^i = "
            "(λ_0^k − 1)/(λ_0 − 1) so, k = log_{λ_0}(x_{k,0}(λ_0 − 1) + 1).")
QUOTE_B = ("The timestamp k can be recovered in a trivial way, under the assumption that λ_0 ∈ C "
           "is such that |λ_0| ≤ 1: x_{k,0} = Σ_{i=0}^{k−1} λ_0^i = (λ_0^k − 1)/(λ_0 − 1) ⟹ "
           "k = log_{λ_0}(x_{k,0}(λ_0 − 1) + 1). … k = log_{λ_0}(x_{k,0}(λ_0 − 1) + 1). (27)")


def lam0_of(ctx: Context) -> QQi:
    """The exact λ₀ from the parameters."""
    return QQi(ctx["lambda0_re"], ctx["lambda0_im"])


# ---- counterexample search ---------------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """(λ₀, k): exact λ₀ of the closed unit disk that the statement's hypothesis admits, its edge
    points (0, 1, −1, i, where admitted) drawn on their own as often as the interior, and
    1 ≤ k ≤ k_search."""
    from hypothesis import strategies as st

    law = ctx.law(Timestamp)
    inside = disk().filter(law.admits)
    edges = law.edge_points()
    lam0 = st.one_of(st.sampled_from(edges), inside) if edges else inside
    return st.tuples(lam0, st.integers(1, int(ctx["k_search"])))


def holds(instance: tuple[QQi, int], ctx: Context) -> Instance:
    """The statement at one (λ₀, k), decided exactly or by flint (theory.timestamp.decide)."""
    ok, how, values = th.decide(ctx.law(Timestamp), *instance)
    return Instance(ok, how, values)


# ---- symbolic side -----------------------------------------------------------------------------

def symbolic(ctx: Context) -> list[Evidence]:
    """SymPy decision of the statement (theory.timestamp.timestamp_proof), with the predicted
    horizons of three precisions for the parameters' λ₀ where the formula is the modulus one."""
    law = ctx.law(Timestamp)
    t0 = time.perf_counter()
    ev = from_proof(th.timestamp_proof(law), time.perf_counter() - t0)
    lam0 = lam0_of(ctx)
    if law.modulus and law.admits(lam0):
        ev.data.update({k: str(v) for k, v in th.horizon_table(law, lam0).items()})
    return [ev]


# ---- numeric side ------------------------------------------------------------------------------

def evaluate(backend: AbstractBackend, law: Timestamp, lam0: QQi,
             steps: int) -> Iterator[tuple[Any, Any]]:
    """(z_k, the statement's recovered value) for k = 1…steps as native scalars of ``backend``,
    lazily (a scan that stops early computes no more logarithms).

    x_{k,0} from the backend's recurrence; z and the inversion from the statement. Everything
    runs in the backend's arithmetic (IEEE special values included: log 0 = −∞ and 0/0 = nan in
    numpy are results here, not errors; mpmath's ZeroDivisionError gives None).
    """
    import numpy as np

    with backend.activate():
        lam_v = backend.vector([lam0])
        xs = backend.entries(backend.transpose(backend.recurrence(
            lam_v, backend.matrix([[QQi(Fraction(1))] * steps]))))
        lam = backend.entries(lam_v)[0]
    for x in xs:
        with backend.activate(), np.errstate(divide="ignore", invalid="ignore"):
            z = law.argument(lam, x, 1)
            try:
                t = law.recover(z, lam, backend.log)
            except (ZeroDivisionError, ValueError):  # mpmath: log(0), division by 0
                t = None
        yield z, t


def _mp(backend: AbstractBackend, v: Any, mp: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
    """A native scalar as an mpmath number; nan for None or a ball that is not finite."""
    if v is None:
        return mp.mpc(mp.nan, mp.nan)
    if backend.encloses:
        import flint

        if not flint.acb(v).is_finite():
            return mp.mpc(mp.nan, mp.nan)
    return backend.scalar_to_mp(v, mp)


def _finite(t: mpmath.mpc) -> bool:
    return bool(mpmath.isfinite(t.real) and mpmath.isfinite(t.imag))


@dataclass
class _Scan:
    """One λ₀ in one arithmetic."""

    outcome: Outcome
    message: str
    certified: int = 0  # every k ≤ this is resolved and agrees
    ratio: mpmath.mpf | None = None  # largest |t̂ − c|/τ over the certified k (points)
    counterexample: dict[str, Any] | None = None
    certified_by: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _failure(backend: AbstractBackend, law: Timestamp, lam0: QQi, k: int, t: mpmath.mpc,
             excluded: bool, measured: int, tau: mpmath.mpf | None) -> _Scan:
    """The first disagreement at step k, certified by the ball or by deciding it exactly."""
    value = mpmath.nstr(t, 8) if _finite(t) else "not finite (undefined)"
    cx = {"lambda0": str(lam0), "k": k, "claimed": law.claimed(k), "value": value,
          "measured horizon": measured}
    if tau is not None:
        cx["bound on |t̂ − claimed|"] = mpmath.nstr(tau, 3)
    if excluded:
        how: str | None = (f"ball arithmetic at {backend.precision_bits} bits: the enclosure of "
                           f"the recovered value excludes {law.claimed(k)}")
        ok: bool | None = False
    else:
        ok, exact_how, vals = th.decide(law, lam0, k)
        how = f"exact: {exact_how}" if ok is False else None
        cx |= {"exact": vals}
    return _Scan(Outcome.REFUTE if how else Outcome.FAIL,
                 f"λ₀ = {lam0}: value {value} ≠ {law.claimed(k)} at k = {k}"
                 + ("" if how else " beyond the rounding-error bound, not certified (the exact "
                                   f"instance: holds = {ok})"),
                 counterexample=cx, certified_by=how)


def _scan(backend: AbstractBackend, law: Timestamp, lam0: QQi, steps: int,
          demanded: int) -> _Scan:
    """The statement at λ₀ for k = 1…steps in ``backend``.

    Points: τ_k = recovery_tolerance (+inf beyond the horizon, and for the principal Log where
    ẑ lies within its error bound of the branch cut); |t̂ − c| > τ_k is a disagreement, and k is
    resolved when τ_k < 1/2. Balls: a ball excluding c is a disagreement, one of radius < 1/2
    containing c resolves k. PASS when the first ``demanded`` steps are resolved and agree.
    """
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 16
    half = mpmath.mpf(1) / 2
    ratio = mpmath.mpf(0)
    certified = measured = None  # first k not resolved / not rounding to k, minus one
    unresolved = scanned = 0

    def undefined_at(k: int) -> bool:
        """Whether a non-finite value at a small step sits where the exact statement fails
        (log 0, 0/0, division by ln|λ₀| = 0 show by k = EDGE_STEPS; beyond, a non-finite value
        is the cancellation past the horizon, and deciding exactly there would be costly)."""
        return k <= EDGE_STEPS and th.decide(law, lam0, k)[0] is False

    def fail(k: int, t: mpmath.mpc, ball: bool, tau: mpmath.mpf | None) -> _Scan:
        return _failure(backend, law, lam0, k, t, ball, k - 1 if measured is None else measured,
                        tau)

    for k, (z, v) in enumerate(evaluate(backend, law, lam0, steps), start=1):
        scanned = k
        c = law.claimed(k)
        t = _mp(backend, v, mp)
        if measured is None and not (_finite(t) and abs(t.real - k) < half
                                     and abs(t.imag) < half):
            measured = k - 1
        if backend.encloses:
            import flint

            ball = flint.acb(v) if v is not None else None
            if ball is None or not ball.is_finite():
                if undefined_at(k):
                    return fail(k, t, False, None)
                ok = False
            elif not ball.contains(c):
                return fail(k, t, True, None)
            else:
                ok = bool(backend.radius(v) < half)
            if not ok:
                unresolved += 1
                certified = k - 1 if certified is None else certified
                if measured is not None and (ball is None or not ball.is_finite()
                                             or backend.radius(v) > steps):
                    break  # the balls have blown up: nothing further can be resolved
            continue
        tau = th.recovery_tolerance(law, lam0, k, backend.unit_roundoff)
        if (not mpmath.isfinite(tau) and law.modulus and measured is not None
                and k > EDGE_STEPS):
            unresolved += 1
            certified = k - 1 if certified is None else certified
            break  # past the horizon for good (τ_k grows with k) and the measured one is found
        if not law.modulus and mpmath.isfinite(tau):
            zz = _mp(backend, z, mp)
            d = th.C_HORIZON * th.z_error_constant(lam0, k, law.gap_sign) * backend.unit_roundoff
            if not _finite(zz) or (zz.real < 0 and abs(zz.imag) <= d):
                tau = mpmath.inf  # Log is discontinuous across (−∞, 0]: the branch is unresolved
        if not _finite(t):
            if mpmath.isfinite(tau) or undefined_at(k):
                return fail(k, t, False, None)
        elif mpmath.isfinite(tau) and abs(t - c) > tau:
            return fail(k, t, False, tau)
        if _finite(t) and tau < half:
            if certified is None:
                ratio = max(ratio, abs(t - c) / tau)
        else:
            unresolved += 1
            certified = k - 1 if certified is None else certified
    certified = scanned if certified is None else certified
    shown = f"≥ {steps}" if measured is None and scanned == steps else measured
    data = {"L": steps, "certified horizon": certified, "measured horizon": shown,
            "steps scanned": scanned, "unresolved k": unresolved + steps - scanned}
    if demanded < 1 or certified < min(demanded, steps):
        return _Scan(Outcome.INCONCLUSIVE, f"λ₀ = {lam0}: this precision resolves k only up "
                     f"to {certified} (needed {min(demanded, steps)}); no disagreement",
                     certified, data=data)
    return _Scan(Outcome.PASS, f"λ₀ = {lam0}: recovers every k ≤ {certified} within the "
                 f"rounding-error bound (measured horizon {shown})"
                 + (f"; k in ({certified}, {steps}] beyond this precision"
                    if certified < steps else ""),
                 certified, None if backend.encloses else ratio, data=data)


def _case(backend: AbstractBackend, law: Timestamp, lam0: QQi, steps: int) -> _Scan:
    """One λ₀: the analysis' horizon is demanded (escalating ball precision, whose wrapping
    effect needs more bits than a point to certify the same k)."""
    predicted = (th.horizon_bound(law, lam0, backend.unit_roundoff, cap=steps)
                 if lam0 != th.ONE and abs2(lam0) > 0 else 0)
    b = backend
    scan = _scan(b, law, lam0, steps, predicted)
    first = scan.certified
    # Rectangular balls inflate by about (|Re λ₀| + |Im λ₀|)/|λ₀| per step of the recurrence (the
    # wrapping effect): double the precision, as flint's own good() does, up to ESCALATION×.
    while (backend.encloses and scan.outcome is Outcome.INCONCLUSIVE
           and 2 * b.precision_bits <= ESCALATION * backend.precision_bits):
        b = make_backend(BackendSpec("flint", bits=2 * b.precision_bits))
        scan = _scan(b, law, lam0, steps, predicted)
    scan.data |= {"predicted horizon": predicted,
                  "log(u)/log|λ0|": (round(th.horizon_estimate(lam0, backend.unit_roundoff), 1)
                                     if 0 < abs2(lam0) < 1 else None)}
    if b is not backend:
        scan.data |= {"escalated to bits": b.precision_bits,
                      f"certified at {backend.precision_bits} bits": first}
    return scan


ORDER = (Outcome.REFUTE, Outcome.FAIL, Outcome.INCONCLUSIVE, Outcome.PASS)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """The statement in ``backend`` at the parameters' λ₀ (k = 1…L) and at the hypothesis' edge
    points (k ≤ EDGE_STEPS); one check, residual = the largest |t̂ − k|/τ_k over the certified
    steps (points), tolerance 1."""
    t0 = time.perf_counter()
    law = ctx.law(Timestamp)
    lam0, steps = lam0_of(ctx), int(ctx["L"])
    if not law.admits(lam0):
        raise ValueError(f"the statement's hypothesis does not admit λ₀ = {lam0}")
    cases = [(lam0, _case(backend, law, lam0, steps))]
    for p in law.edge_points():
        if p != lam0:
            cases.append((p, _case(backend, law, p, min(EDGE_STEPS, steps))))
    outcome = next(o for o in ORDER if any(s.outcome is o for _, s in cases))
    decisive = next(s for _, s in cases if s.outcome is outcome)
    ratios = [s.ratio for _, s in cases if s.ratio is not None]
    residual = (mpmath.nstr(max(ratios), 3) if outcome is Outcome.PASS
                and len(ratios) == len(cases) else None)
    main = cases[0][1]
    return [Evidence(
        check=f"the inversion recovers k = 1…{steps} at λ₀ = {lam0} and k ≤ {EDGE_STEPS} at the "
              "edge points of |λ₀| ≤ 1 the hypothesis admits",
        kind="numeric", backend=backend.name, outcome=outcome,
        precision_bits=backend.precision_bits, instances=sum(s.data.get("L", 0) for _, s in cases),
        residual=residual, tolerance="1" if residual is not None else None,
        tolerance_source=("enclosure of the recovered value (ball arithmetic)" if backend.encloses
                          else f"|t̂_k − k| ≤ τ_k from |ẑ − z| ≤ c·κ_z·u, c = {th.C_HORIZON}, "
                               f"u = 2^-{backend.precision_bits} (theory.timestamp."
                               "recovery_tolerance); residual = the largest |t̂_k − k|/τ_k"),
        condition_number=mpmath.nstr(th.z_error_constant(lam0, None, law.gap_sign), 4)
        if 0 < abs2(lam0) < 1 else None,
        counterexample=decisive.counterexample, certified_by=decisive.certified_by,
        message=decisive.message if outcome is not Outcome.PASS else
        "; ".join(s.message for _, s in cases),
        data={"λ₀ = " + str(p): s.data for p, s in cases} | {
            "certified horizon": main.certified,
            "measured horizon": main.data.get("measured horizon")},
        seconds=time.perf_counter() - t0)]


def _validate(law: Timestamp) -> Any:
    def validate(values: Any) -> str | None:
        """Joint parameter check: the statement's hypothesis on λ₀."""
        lam0 = QQi(values["lambda0_re"], values["lambda0_im"])
        if law.admits(lam0):
            return None
        return f"the statement's hypothesis does not admit λ₀ = {lam0} (statement: {law.text})"
    return validate


def _params(steps: int) -> tuple[Param, ...]:
    return (Param("lambda0_re", DEFAULT_RE, "real part of λ₀ (exact rational)", parse_fraction),
            Param("lambda0_im", DEFAULT_IM, "imaginary part of λ₀ (exact rational)",
                  parse_fraction),
            Param("L", steps, "largest step k checked numerically", int, check=at_least(1),
                  max=10**6, cost=grows(1000)),  # one mpc power of λ₀ (~1 kB) a step
            Param("k_search", 64, "largest k in the counterexample search", int,
                  check=at_least(1), max=4096, cost=grows(8, 2)))  # exact λ^k of ~8k bytes, k of them


CLAIMS = [
    Claim(
        id="O.timestamp",
        summary="k = log_{λ₀}(…) fails for λ₀ = 0, 1, negative or complex λ₀ (principal branch)",
        title="Timestamp recovery from the constant feature",
        statement=th.PRINTED,
        provenance=Provenance("O", "§3.1 (Reconstruction of the timestamp), App. B, App. C eq. (27), (30)",
                              QUOTE_31 + " … " + QUOTE_B),
        tolerance="exact (ℚ(i)) or enclosure (flint ball of the recovered value); points: "
                  "|t̂ − k| ≤ τ_k from c·κ_z(k)·u",
        params=_params(64),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        validate=_validate(th.PRINTED),
        reading="log_{λ₀} z = Log z / Log λ₀ with the principal logarithm (Arg ∈ (−π, π])",
        notes="Holds iff λ₀ ∉ {0, 1} and k·Arg λ₀ ∈ (−π, π]. λ₀ = 0 and λ₀ = 1 fail under every "
              "reading of the logarithm; with the default λ₀ ≈ 0.9e^{iπ/7} the principal branch "
              "wraps at k = 8 in every precision.",
    ),
    Claim(
        id="O.timestamp.corrected",
        summary="k = ln|x(λ₀−1)+1| / ln|λ₀| for 0 < |λ₀| < 1, proved for all such λ₀ and k; recovery "
                "horizon per precision reported",
        title="Timestamp recovery by moduli",
        statement=th.CORRECTED,
        provenance=Provenance("O", "§3.1 (Reconstruction of the timestamp), App. B, App. C eq. (27), (30)",
                              QUOTE_31 + " … " + QUOTE_B),
        tolerance="exact (SymPy, ℚ); numerics: |t̂ − k| ≤ τ_k from |ẑ − z| ≤ c·κ_z·u up to the "
                  "horizon the analysis certifies (theory.timestamp.horizon_bound); measured "
                  "horizon reported",
        params=_params(2000),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        validate=_validate(th.CORRECTED),
        corrects="O.timestamp",
        notes="|λ₀^k| = |λ₀|^k is strictly decreasing in k, so moduli need no branch of the "
              "logarithm. In precision u, x(λ₀ − 1) + 1 = λ₀^k cancels once |λ₀|^k ≲ u: k is "
              "recovered up to about log(u)/log|λ₀| (reported per backend).",
    ),
]
