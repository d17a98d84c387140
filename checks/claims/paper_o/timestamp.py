"""O.timestamp: x_{k,0} = Σ λ₀^i = (λ₀^k − 1)/(λ₀ − 1) and k = log_{λ₀}(x_{k,0}(λ₀ − 1) + 1).

O §3.1 and App. B (eq. 27), for λ₀ ∈ ℂ with |λ₀| ≤ 1; log_{λ₀} z read as Log z / Log λ₀ with the
principal logarithm. As printed it fails (λ₀ = 0, λ₀ = 1, and whenever k·Arg λ₀ leaves (−π, π]);
the counterexample search finds and certifies a failure. ``O.timestamp.corrected``
(0 < |λ₀| < 1, k = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀|) is proved in recmem.theory.timestamp and
measured per backend: each precision recovers k only up to a horizon, where x(λ₀ − 1) + 1 = λ₀^k
cancels (|λ₀|^k ≈ u); the check demands exact recovery up to the horizon predicted by a
rounding-error analysis (theory.timestamp.horizon_bound) and reports the measured one.

In every backend x_{k,0} comes from the recurrence x_k = λ₀ x_{k−1} + 1, x_0 = 0 (the RNN itself).
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, parse_fraction
from recmem.checks.search import Instance
from recmem.checks.strategies import disk
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi, abs2
from recmem.theory import timestamp as th

# Ball checks may double their precision up to this factor of the requested precision.
ESCALATION = 4

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

def strategy_printed(ctx: Context) -> Any:
    """(λ₀, k): exact λ₀ in the closed unit disk and 1 ≤ k ≤ k_search (the printed domain)."""
    from hypothesis import strategies as st

    return st.tuples(disk(), st.integers(1, int(ctx["k_search"])))


def strategy_corrected(ctx: Context) -> Any:
    """(λ₀, k): exact λ₀ with 0 < |λ₀| < 1 and 1 ≤ k ≤ k_search."""
    from hypothesis import strategies as st

    return st.tuples(disk().filter(lambda z: 0 < abs2(z) < 1), st.integers(1, int(ctx["k_search"])))


def holds_printed(instance: tuple[QQi, int], ctx: Context) -> Instance:
    """Eq. 27 as printed for one (λ₀, k), decided exactly or by flint (theory.timestamp)."""
    ok, how, values = th.decide_printed(*instance)
    return Instance(ok, how, values)


def holds_corrected(instance: tuple[QQi, int], ctx: Context) -> Instance:
    """The corrected formula for one (λ₀, k), decided exactly in ℚ (theory.timestamp)."""
    ok, how, values = th.decide_corrected(*instance)
    return Instance(ok, how, values)


# ---- symbolic sides ----------------------------------------------------------------------------

def _horizon_table(lam0: QQi) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for bits in (24, 53, 256):
        u = mpmath.mpf(2) ** -bits
        out[f"predicted horizon at {bits} bits"] = th.horizon_bound(lam0, u)
        out[f"log(u)/log|λ0| at {bits} bits"] = round(th.horizon_estimate(lam0, u), 1)
    return out


def symbolic_printed(ctx: Context) -> list[Evidence]:
    """SymPy derivation and exact/ball evaluation of the failure classes (theory.timestamp)."""
    t0 = time.perf_counter()
    return [from_proof(th.printed_inversion(), time.perf_counter() - t0)]


def symbolic_corrected(ctx: Context) -> list[Evidence]:
    """SymPy proof of the corrected formula, with the predicted horizons of three precisions."""
    t0 = time.perf_counter()
    ev = from_proof(th.corrected_inversion(), time.perf_counter() - t0)
    lam0 = lam0_of(ctx)
    if 0 < abs2(lam0) < 1:
        ev.data.update({k: str(v) for k, v in _horizon_table(lam0).items()})
    return [ev]


# ---- numeric sides -----------------------------------------------------------------------------

def evaluate(backend: AbstractBackend, lam0: QQi, steps: int,
             corrected: bool) -> tuple[list[Any], list[Any]]:
    """(z_k, the formula's value) for k = 1…steps as native scalars of ``backend`` (O §3.1, eq. 27).

    x_{k,0} from the backend's recurrence; z = x(λ₀ − 1) + 1; printed: Log z / Log λ₀;
    corrected: ln|z| / ln|λ₀|. Everything runs in the backend's arithmetic (IEEE special values
    included: log 0 = −∞ and 0/0 = nan in numpy are results here, not errors).
    """
    import numpy as np

    with backend.activate(), np.errstate(divide="ignore", invalid="ignore"):
        lam_v = backend.vector([lam0])
        xs = backend.recurrence(lam_v, backend.matrix([[QQi(Fraction(1))] * steps]))
        lam = backend.entries(lam_v)[0]
        m = lam - 1
        den = backend.log(abs(lam)) if corrected else backend.log(lam)
        zs, out = [], []
        for j in range(steps):
            x = backend.entries(backend.columns(xs, j, j + 1))[0]
            z = x * m + 1
            zs.append(z)
            out.append((backend.log(abs(z)) if corrected else backend.log(z)) / den)
        return zs, out


def _mp(backend: AbstractBackend, v: Any, mp: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
    """A native scalar as an mpmath number; nan for a ball that is not finite."""
    if backend.encloses:
        import flint

        if not flint.acb(v).is_finite():
            return mp.mpc(mp.nan, mp.nan)
    return backend.scalar_to_mp(v, mp)


def _recovers(backend: AbstractBackend, v: Any, k: int, mp: mpmath.ctx_mp.MPContext) -> bool:
    """Whether the value v recovers k: rounds to k (points) or lies within (k − ½, k + ½) (balls)."""
    t = _mp(backend, v, mp)
    if not (mpmath.isfinite(t.real) and mpmath.isfinite(t.imag)):
        return False
    rad = backend.radius(v) if backend.encloses else 0
    return bool(abs(t.real - k) + rad < mpmath.mpf(1) / 2 and abs(t.imag) + rad < mpmath.mpf(1) / 2)


def _horizon(flags: list[bool]) -> int:
    """Largest H with flags[k−1] true for every k ≤ H."""
    for i, ok in enumerate(flags):
        if not ok:
            return i
    return len(flags)


def _check_domain(lam0: QQi, corrected: bool) -> None:
    if corrected and not 0 < abs2(lam0) < 1:
        raise ValueError(f"O.timestamp.corrected needs 0 < |λ₀| < 1, got λ₀ = {lam0}")
    if not corrected and abs2(lam0) > 1:
        raise ValueError(f"eq. 27 is stated for |λ₀| ≤ 1, got λ₀ = {lam0}")


def numeric_corrected(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Recovery of k = 1…L by ln|z| / ln|λ₀| in ``backend``; horizon measured and predicted."""
    t0 = time.perf_counter()
    lam0, steps = lam0_of(ctx), int(ctx["L"])
    _check_domain(lam0, corrected=True)
    predicted = th.horizon_bound(lam0, backend.unit_roundoff)
    demanded = min(predicted, steps)
    b, first_measured = backend, None
    while True:
        mp = mpmath.MPContext()
        mp.prec = b.precision_bits + 16
        _, vals = evaluate(b, lam0, steps, corrected=True)
        flags = [_recovers(b, v, k, mp) for k, v in enumerate(vals, start=1)]
        measured = _horizon(flags)
        first_measured = measured if first_measured is None else first_measured
        # Rectangular balls inflate by about (|Re λ₀| + |Im λ₀|)/|λ₀| per step of the recurrence
        # (the wrapping effect), so a ball needs more bits than a point to certify the same k:
        # double the precision, as flint's own good() does, up to ESCALATION×.
        if (not b.encloses or all(flags[:demanded])
                or 2 * b.precision_bits > ESCALATION * backend.precision_bits):
            break
        b = make_backend(BackendSpec("flint", bits=2 * b.precision_bits))
    est = th.horizon_estimate(lam0, backend.unit_roundoff)
    data = {"L": steps, "measured horizon": measured if measured < steps else f"≥ {steps}",
            "predicted horizon (conservative)": predicted, "log(u)/log|λ0|": round(est, 1),
            "κ_z": mpmath.nstr(th.z_error_constant(lam0), 4), "c": th.C_HORIZON}
    if b is not backend:
        data |= {"escalated to bits": b.precision_bits,
                 f"certified horizon at {backend.precision_bits} bits": first_measured}
    if measured < steps:
        data["first failure"] = {"k": measured + 1,
                                 "value": mpmath.nstr(_mp(b, vals[measured], mp), 6)}
    if demanded < 1:
        outcome, msg = Outcome.INCONCLUSIVE, "this precision cannot guarantee even k = 1"
    elif all(flags[:demanded]):
        outcome = Outcome.PASS
        msg = (f"recovers every k ≤ {demanded} as predicted (c·κ_z·u analysis); measured horizon "
               f"{data['measured horizon']} (ρ^k ≈ u near k ≈ {est:.0f})"
               + (f"; balls certified at {b.precision_bits} bits (at {backend.precision_bits} "
                  f"bits only k ≤ {first_measured}: wrapping effect)" if b is not backend else ""))
    elif backend.encloses:
        outcome = Outcome.INCONCLUSIVE
        msg = (f"balls too wide to certify k ≤ {demanded} at {b.precision_bits} bits (first at "
               f"k = {measured + 1}); raise the precision")
    else:
        outcome = Outcome.FAIL
        msg = (f"fails at k = {measured + 1} ≤ predicted horizon {demanded}: error beyond the "
               "rounding-error bound")
    return [Evidence(check=f"k = ln|x_k0(λ0−1)+1| / ln|λ0| recovers k = 1…{steps}, λ0 = {lam0}",
                     kind="numeric", backend=backend.name, outcome=outcome,
                     precision_bits=b.precision_bits, instances=steps,
                     residual=str(measured), tolerance=f"horizon ≥ {demanded}",
                     tolerance_source=f"predicted horizon: |ẑ − z| ≤ c·κ_z·u, c = {th.C_HORIZON}, "
                                      f"κ_z = {data['κ_z']}, u = 2^-{backend.precision_bits} "
                                      "(theory.timestamp.horizon_bound)",
                     condition_number=data["κ_z"], message=msg, data=data,
                     seconds=time.perf_counter() - t0)]


def printed_tolerance(lam0: QQi, k: int, unit_roundoff: mpmath.mpf) -> mpmath.mpf:
    """Bound on |t̂_k − t_k| for t = Log z / Log λ₀ evaluated as in :func:`evaluate` (eq. 27).

    |ẑ − z| ≤ c·κ_z(k)·u (theory.timestamp.z_error_constant) and |z| = ρ^k, so with ε = that over
    ρ^k (≤ 1/2 demanded), |δ Log z| ≤ 2ε + c·u·|Log z| (rounding of the log) and
    |Log z| ≤ k|ln ρ| + π; the division by Log λ₀ and its own rounding add c·u·(k + 1). Returns
    +inf when ε > 1/2 (the cancellation in x(λ₀ − 1) + 1 has eaten every bit).
    """
    mp = mpmath.MPContext()
    mp.prec = 64
    c, u = th.C_HORIZON, mp.mpf(unit_roundoff)
    lam = mp.mpc(mp.mpf(lam0.re.numerator) / lam0.re.denominator,
                 mp.mpf(lam0.im.numerator) / lam0.im.denominator)
    rho = abs(lam)
    eps = c * th.z_error_constant(lam0, k) * u / rho**k
    if eps > mp.mpf(1) / 2:
        return mp.inf
    log_lam = abs(mp.log(lam))
    return (2 * eps + c * u * (k * abs(mp.log(rho)) + mp.pi + 1)) / log_lam + c * u * (k + 1)


def numeric_printed(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Eq. 27 as printed (principal Log) in ``backend`` for k = 1…L.

    The first k at which the value differs from k beyond its error bound is a resolved failure:
    certified by a ball excluding k (flint) or by a residual that stays put at doubled precision
    (mpmath); uncertified in floats (FAIL).
    """
    t0 = time.perf_counter()
    lam0, steps = lam0_of(ctx), int(ctx["L"])
    _check_domain(lam0, corrected=False)
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 16
    check = f"Log(x_k0(λ0−1)+1) / Log λ0 = k for k = 1…{steps}, λ0 = {lam0}"
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=backend.precision_bits, instances=steps)
    if lam0 in (th.ZERO, th.ONE):
        _, how, vals = th.decide_printed(lam0, 1)
        try:
            got = mpmath.nstr(_mp(backend, evaluate(backend, lam0, 1, corrected=False)[1][0], mp),
                              6)
        except ZeroDivisionError:
            got = "ZeroDivisionError (raised)"
        return [replace(base, outcome=Outcome.REFUTE,
                        counterexample={**vals, "backend value": got}, certified_by=how,
                        message=f"undefined at λ₀ = {lam0}: the backend returns {got} at k = 1",
                        seconds=time.perf_counter() - t0)]
    zs, with_values = evaluate(backend, lam0, steps, corrected=False)
    horizon = _horizon([_recovers(backend, v, k, mp) for k, v in enumerate(with_values, 1)])
    unresolved = 0
    for k, v in enumerate(with_values, start=1):
        t = _mp(backend, v, mp)
        tol = printed_tolerance(lam0, k, backend.unit_roundoff)
        if backend.encloses:
            import flint

            if not flint.acb(v).contains(k):
                return [_printed_failure(backend, base, lam0, k, t, None, True, horizon, t0)]
            if backend.radius(v) >= mpmath.mpf(1) / 2:
                unresolved += 1
            continue
        z = _mp(backend, zs[k - 1], mp)
        d = th.C_HORIZON * th.z_error_constant(lam0, k) * backend.unit_roundoff
        # Log is discontinuous across (−∞, 0]: a ẑ within its error bound of the cut does not
        # resolve the branch, whatever the size of the bound elsewhere.
        near_cut = z.real < 0 and abs(z.imag) <= d
        if near_cut or not tol < mpmath.mpf(1) / 2:
            unresolved += 1
            continue
        res = abs(t - k) if mpmath.isfinite(abs(t)) else mpmath.inf
        if res > tol:
            return [_printed_failure(backend, base, lam0, k, t, tol, False, horizon, t0)]
    data = {"L": steps, "horizon": horizon, "unresolved k": unresolved}
    if unresolved:
        return [replace(base, outcome=Outcome.INCONCLUSIVE, data=data,
                        message=f"{unresolved} of {steps} steps beyond this precision (ρ^k near "
                                "u, or ẑ within its error bound of the branch cut); no resolved "
                                "disagreement",
                        seconds=time.perf_counter() - t0)]
    return [replace(base, data=data, message=f"returns k for every k ≤ {steps}",
                    seconds=time.perf_counter() - t0)]


def _printed_failure(backend: AbstractBackend, base: Evidence, lam0: QQi, k: int,
                     t: mpmath.mpc, tol: mpmath.mpf | None, ball: bool, horizon: int,
                     t0: float) -> Evidence:
    """Evidence for the first resolved failure of eq. 27 at step k."""
    res = abs(t - k)
    ce = {"lambda0": str(lam0), "k": k, "value": mpmath.nstr(t, 8), "horizon": horizon}
    certified = None
    outcome = Outcome.FAIL
    if ball:
        outcome = Outcome.REFUTE
        certified = (f"ball arithmetic at {backend.precision_bits} bits: the enclosure of "
                     f"Log z / Log λ₀ excludes k = {k}")
    elif backend.spec.kind == "mpmath":
        hi = make_backend(BackendSpec("mpmath", bits=2 * backend.precision_bits))
        mp2 = mpmath.MPContext()
        mp2.prec = hi.precision_bits + 16
        t2 = hi.scalar_to_mp(evaluate(hi, lam0, k, corrected=False)[1][-1], mp2)
        res2 = abs(t2 - k)
        assert tol is not None
        # An exact identity's residual would fall like 2^-p; this one stays put.
        if abs(res2 - res) <= tol and res2 > tol:
            outcome = Outcome.REFUTE
            certified = (f"residual stays put as precision rises: {mpmath.nstr(res, 6)} at "
                         f"{backend.precision_bits} bits, {mpmath.nstr(res2, 6)} at "
                         f"{hi.precision_bits} bits")
    return replace(base, outcome=outcome, residual=mpmath.nstr(res, 6),
                   tolerance=None if tol is None else mpmath.nstr(tol, 3),
                   tolerance_source="enclosure" if ball else
                   "|t̂ − t| bound from c·κ_z(k)·u (printed_tolerance)",
                   counterexample=ce, certified_by=certified,
                   message=f"value {mpmath.nstr(t, 8)} ≠ k = {k} (recovers k up to k = {horizon});"
                           " the principal Log wraps once k·Arg λ₀ leaves (−π, π]",
                   data={"horizon": horizon}, seconds=time.perf_counter() - t0)


def validate_printed(values: Any) -> str | None:
    """Joint parameter check: eq. 27 is stated for |λ₀| ≤ 1."""
    lam0 = QQi(values["lambda0_re"], values["lambda0_im"])
    return None if abs2(lam0) <= 1 else f"eq. 27 is stated for |λ₀| ≤ 1, got λ₀ = {lam0}"


def validate_corrected(values: Any) -> str | None:
    """Joint parameter check: the corrected formula needs 0 < |λ₀| < 1."""
    lam0 = QQi(values["lambda0_re"], values["lambda0_im"])
    return None if 0 < abs2(lam0) < 1 else f"the corrected formula needs 0 < |λ₀| < 1, got {lam0}"


def _params(steps: int) -> tuple[Param, ...]:
    return (Param("lambda0_re", DEFAULT_RE, "real part of λ₀ (exact rational)", parse_fraction),
            Param("lambda0_im", DEFAULT_IM, "imaginary part of λ₀ (exact rational)",
                  parse_fraction),
            Param("L", steps, "largest step k checked numerically", int, check=at_least(1)),
            Param("k_search", 64, "largest k in the counterexample search", int,
                  check=at_least(1)))


CLAIMS = [
    Claim(
        id="O.timestamp",
        title="Timestamp recovery from the constant feature",
        statement="x_{k,0} = Σ_{i=0}^{k-1} λ₀^i = (λ₀^k − 1)/(λ₀ − 1) and "
                  "k = log_{λ₀}(x_{k,0}(λ₀ − 1) + 1), for λ₀ ∈ ℂ, |λ₀| ≤ 1",
        provenance=Provenance("O", "§3.1 (Reconstruction of the timestamp) and App. B, eq. (27)",
                              QUOTE_31 + " … " + QUOTE_B),
        tolerance="exact (ℚ(i)) or enclosure (flint ball of Log z / Log λ₀); points: "
                  "|t̂ − t| ≤ bound from c·κ_z(k)·u",
        params=_params(64),
        symbolic=symbolic_printed,
        numeric=numeric_printed,
        strategy=strategy_printed,
        holds=holds_printed,
        validate=validate_printed,
        reading="log_{λ₀} z = Log z / Log λ₀ with the principal logarithm (Arg ∈ (−π, π])",
        notes="Holds iff λ₀ ∉ {0, 1} and k·Arg λ₀ ∈ (−π, π]. λ₀ = 0 and λ₀ = 1 fail under every "
              "reading of the logarithm; with the default λ₀ ≈ 0.9e^{iπ/7} the principal branch "
              "wraps at k = 7 in every precision.",
    ),
    Claim(
        id="O.timestamp.corrected",
        title="Timestamp recovery by moduli",
        statement="For 0 < |λ₀| < 1: x_{k,0} = (λ₀^k − 1)/(λ₀ − 1) and "
                  "k = ln|x_{k,0}(λ₀ − 1) + 1| / ln|λ₀| for every integer k ≥ 0",
        provenance=Provenance("O", "§3.1 (Reconstruction of the timestamp) and App. B, eq. (27)",
                              QUOTE_31 + " … " + QUOTE_B),
        tolerance="exact (SymPy, ℚ); numerics: exact recovery of k up to the horizon predicted "
                  "by |ẑ − z| ≤ c·κ_z·u (theory.timestamp.horizon_bound); measured horizon "
                  "reported",
        params=_params(2000),
        symbolic=symbolic_corrected,
        numeric=numeric_corrected,
        strategy=strategy_corrected,
        holds=holds_corrected,
        validate=validate_corrected,
        corrects="O.timestamp",
        notes="|λ₀^k| = |λ₀|^k is strictly decreasing in k, so moduli need no branch of the "
              "logarithm. In precision u, x(λ₀ − 1) + 1 = λ₀^k cancels once |λ₀|^k ≲ u: k is "
              "recovered up to about log(u)/log|λ₀| (reported per backend).",
    ),
]
