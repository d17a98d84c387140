"""O.relaxation: Lemma 8's extension T̃ (App. C eq. 26) and the relaxed Ω_t⁺ (eq. 31).

As printed, T̃[u, t] := (⌈t⌉ − t)T̄[u, ⌈t⌉] + (t − ⌊t⌋)T̄[u, ⌊t⌋] is claimed continuous on [1, L]
and equal to T̄[u, k] at integers (and "when considering t = k", Ω_t⁺ of eq. 31 "reduce[s]" to
Ω_k⁺). At t = k both weights vanish, and the weights sit on the wrong ends (jumps at integers):
REFUTED. ``O.relaxation.corrected``: piecewise-linear interpolation
(⌊t⌋ + 1 − t)T̄[u, ⌊t⌋] + (t − ⌊t⌋)T̄[u, ⌊t⌋ + 1] (same weights for Ω_t⁺): VERIFIED.

Eq. 31 is the second check of the same claim (not a separate reading): it is the same formula
applied to the matrices Ω_k⁺, and the paper's argument needs both.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import mpmath
from hypothesis import strategies as st

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o import _sparse as sp
from recmem.checks.claims.paper_o._common import p_rmax, p_rmin
from recmem.checks.numeric import identity_check
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi
from recmem.numerics.nodes import uniform_draws
from recmem.theory import relaxation as rx

QUOTE_26 = ("To talk about continuity, one needs to provide an extension of this map to "
            "(ℝ^{(M×L)} × [1, L]) … It is fortunately trivial to do this, by defining "
            "T̃[(u_i)_{i=1}^L, t] := (⌈t⌉ − t) T̄[(u_i)_{i=1}^L, ⌈t⌉] + (t − ⌊t⌋) "
            "T̄[(u_i)_{i=1}^L, ⌊t⌋]. (26)")
QUOTE_31 = ("Ω_t^+ := (⌈t⌉ − t)Ω^+_{⌈t⌉} + (t − ⌊t⌋)Ω^+_{⌊t⌋}. (31) It is clear that when "
            "considering t = k the quantities above reduce to the ones from the previous step.")
QUOTE_L8 = ("Lemma 8 (Domain Relaxation) Under Assumption B, there exist a continuous map T̃ on the "
            "compact (U × [1, L]) … which for any (u_i) ∈ U and any desired k ∈ {1, …, L} … "
            "produces the desired output y_k")

AffineForm = Callable[[Fraction], rx.Affine]
C_ROUND = 4  # c of the rounding allowance c·n·u·max|T̄| (a handful of flops per value)


def t_bar(ctx: Context) -> list[Fraction]:
    """T̄[u, 1…L] for one fixed u: exact dyadics in [−1, 1) with 12 fractional bits (pinned)."""
    n = int(ctx["L"])
    return [Fraction(round((2 * d - 1) * 4096), 4096) for d in uniform_draws(ctx.seed + 4099, n)]


def _weight_matrix(b: AbstractBackend, form: AffineForm, ts: list[Fraction], length: int) -> Any:
    """W with T̃(t_i) = (W T̄)_i, formed in the backend: W = C + S∘t (C, S exact integers), so the
    weights c + s·t are computed in the backend's arithmetic from the exact t."""
    c_rows = [[QQi(Fraction(0))] * length for _ in ts]
    t_rows = [[QQi(Fraction(0))] * length for _ in ts]
    for i, t in enumerate(ts):
        for j, c, s in form(t):
            if c + s * t == 0 and not 1 <= j <= length:
                continue  # T̄[L + 1] with weight 0 (t = L): the term is absent
            c_rows[i][j - 1] = QQi(c_rows[i][j - 1].re + c)
            t_rows[i][j - 1] = QQi(t_rows[i][j - 1].re + s * t)
    return b.matrix(c_rows) + b.matrix(t_rows)


def _values(b: AbstractBackend, form: AffineForm, ts: list[Fraction], tb: list[Fraction]) -> Any:
    return b.matmul(_weight_matrix(b, form, ts, len(tb)), b.matrix(sp.column_of(tb)))


def _integers_check(backend: AbstractBackend, ctx: Context, form: AffineForm) -> Evidence:
    tb = t_bar(ctx)
    ks = [Fraction(k) for k in range(1, len(tb) + 1)]

    def compute(b: AbstractBackend) -> tuple[Any, Any]:
        return _values(b, form, ks, tb), b.matrix(sp.column_of(tb))

    # Two weights (exact at integers) and one two-term sum per value: κ = 1, n = 2.
    return identity_check(f"T̃(k) = T̄(k) at k = 1…{len(tb)}", backend, compute,
                          kappa=mpmath.mpf(1), n=2)


def _jump(b: AbstractBackend, form: AffineForm, tb: list[Fraction], delta: Fraction) -> Any:
    ks = range(2, len(tb))
    plus = [Fraction(k) + delta for k in ks]
    minus = [Fraction(k) - delta for k in ks]
    w = _weight_matrix(b, form, plus, len(tb)) - _weight_matrix(b, form, minus, len(tb))
    return b.matmul(w, b.matrix(sp.column_of(tb)))


def _jump_check(backend: AbstractBackend, ctx: Context, form: AffineForm) -> Evidence:
    """Continuity at the interior integers: |T̃(k + δ) − T̃(k − δ)| ≤ 2δ·Lip, δ = 2^-⌈p/2⌉.

    Between integers each formula is affine with slope ±(T̄(j+1) − T̄(j)), so a continuous T̃ obeys
    |T̃(k+δ) − T̃(k−δ)| ≤ 2δ·Lip exactly, Lip = max_j |T̄(j+1) − T̄(j)|. Point arithmetic adds
    c·n·u·max|T̄| for rounding; a ball whose lower bound exceeds 2δ·Lip certifies a jump, and so
    does (mpmath) an excess that stays put when the precision is doubled at the same δ.
    """
    t0 = time.perf_counter()
    tb = t_bar(ctx)
    p = backend.precision_bits
    delta = Fraction(1, 2 ** ((p + 1) // 2))  # exactly representable next to k at this precision
    lip = max(abs(tb[j + 1] - tb[j]) for j in range(len(tb) - 1))
    scale = max(abs(v) for v in tb)
    check = f"continuity: |T̃(k+δ) − T̃(k−δ)| ≤ 2δ·Lip at k = 2…{len(tb) - 1}, δ = 2^-{(p + 1) // 2}"
    bound_exact = 2 * delta * lip
    rc = mpmath.MPContext()
    rc.prec = max(p + 16, 64)
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=p, instances=len(tb) - 2, condition_number="1")
    with backend.activate():
        jumps = _jump(backend, form, tb, delta)
    mids = backend.to_mp(jumps, rc)
    r = max((abs(mids[i, 0]) for i in range(mids.rows)), default=rc.mpf(0))
    bound = rc.mpf(bound_exact.numerator) / bound_exact.denominator
    if backend.encloses:
        rad = backend.radius(jumps)
        lower, upper = r - rad, r + rad
        if lower > bound:
            outcome, cert = Outcome.REFUTE, ("ball arithmetic: |T̃(k+δ) − T̃(k−δ)| > 2δ·Lip "
                                             "for the whole enclosure")
        elif upper <= bound + C_ROUND * 4 * scale * rc.mpf(2) ** (-p):
            outcome, cert = Outcome.PASS, None
        else:
            outcome, cert = Outcome.INCONCLUSIVE, None
        return replace(base, outcome=outcome, residual=tol.fmt(r), tolerance=tol.fmt(bound),
                       certified_by=cert,
                       tolerance_source="continuity bound 2δ·Lip (exact), ball enclosure",
                       enclosure=f"max |jump| ∈ [{tol.fmt(lower)}, {tol.fmt(upper)}]",
                       seconds=time.perf_counter() - t0)
    allowed = bound + C_ROUND * 4 * scale * backend.unit_roundoff
    outcome, cert = (Outcome.PASS, None) if r <= allowed else (Outcome.FAIL, None)
    if outcome is Outcome.FAIL and backend.spec.kind == "mpmath":
        hi = make_backend(BackendSpec("mpmath", bits=2 * p))
        with hi.activate():
            j2 = hi.to_mp(_jump(hi, form, tb, delta), rc)
        r2 = max(abs(j2[i, 0]) for i in range(j2.rows))
        if r2 > bound + C_ROUND * 4 * scale * hi.unit_roundoff:
            outcome, cert = Outcome.REFUTE, (
                f"the excess stays put as precision rises (same δ): |jump| = {tol.fmt(r)} at {p} "
                f"bits, {tol.fmt(r2)} at {2 * p} bits, bound 2δ·Lip = {tol.fmt(bound)}")
    return replace(base, outcome=outcome, residual=tol.fmt(r), tolerance=tol.fmt(allowed),
                   certified_by=cert,
                   tolerance_source=f"2δ·Lip + c·n·u·max|T̄| with c={C_ROUND}, n=4",
                   seconds=time.perf_counter() - t0)


def _omega_check(backend: AbstractBackend, ctx: Context, form: AffineForm) -> list[Evidence]:
    """Eq. 31 at t = k applied to the state: Ω_t⁺x̃_k against α (= Ω_k⁺x̃_k, O.sparse)."""
    prob = sp.problem(ctx, 1, int(ctx["N"]) - 1)
    out = []
    for k in sp.steps(ctx, prob):
        t = Fraction(k)

        def compute(b: AbstractBackend, k: int = k, t: Fraction = t) -> tuple[Any, Any]:
            x = b.columns(sp.tilde_states(b, prob), k - 1, k)
            tt = b.entries(b.vector([QQi(t)]))[0]
            acc = None
            for j, c, s in form(t):
                if not 1 <= j <= prob.length:
                    continue  # Ω⁺_{L+1}: only ever with weight 0 (t = L)
                w = b.entries(b.vector([QQi(Fraction(c))]))[0] + s * tt  # weight in the backend
                term = w * b.pinv_apply(sp.omega_native(b, prob, j), x)
                acc = term if acc is None else acc + term
            return acc, b.matrix(sp.column_of(prob.alpha))

        out.append(identity_check(f"Ω_t⁺x̃_k = Ω_k⁺x̃_k = α at t = k = {k}, {prob.description}",
                                  backend, compute, kappa=sp.omega_kappa(ctx, prob, k),
                                  n=k + prob.rows))
    return out


def _numeric(form: AffineForm) -> Callable[[AbstractBackend, Context], list[Evidence]]:
    def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
        """T̃ at the integers, the jumps next to them, and eq. 31 at t = k, in the backend."""
        return [_integers_check(backend, ctx, form), _jump_check(backend, ctx, form),
                *_omega_check(backend, ctx, form)]

    return numeric


def symbolic_printed(ctx: Context) -> list[Evidence]:
    """Eq. 26 and eq. 31 as printed (SymPy; exact ℚ(i) instance for eq. 31)."""
    t0 = time.perf_counter()
    ev = [from_proof(rx.printed_relaxation(), time.perf_counter() - t0, "eq. 26 (SymPy)")]
    t0 = time.perf_counter()
    ev.append(from_proof(rx.omega_relaxation(corrected=False), time.perf_counter() - t0,
                             "eq. 31 at t = k (exact)"))
    return ev


def symbolic_corrected(ctx: Context) -> list[Evidence]:
    """The piecewise-linear interpolation (SymPy; exact ℚ(i) instance for the Ω_t⁺ form)."""
    t0 = time.perf_counter()
    ev = [from_proof(rx.corrected_relaxation(), time.perf_counter() - t0,
                         "interpolated T̃ (SymPy)")]
    t0 = time.perf_counter()
    ev.append(from_proof(rx.omega_relaxation(corrected=True), time.perf_counter() - t0,
                             "interpolated Ω_t⁺ at t = k (exact)"))
    return ev


_VALUE = sp.small_fractions(2)
_FRAC = st.sampled_from((Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3),
                         Fraction(1, 4), Fraction(3, 4), Fraction(1, 8)))


@st.composite
def instances(draw: Any) -> dict[str, Any]:
    """L ≤ 6, arbitrary exact T̄(1…L), exact t ∈ [1, L] (integers included)."""
    length = draw(st.integers(2, 6))
    values = [draw(_VALUE) for _ in range(length)]
    t = min(Fraction(draw(st.integers(1, length))) + draw(_FRAC), Fraction(length))
    return {"L": length, "T_bar": values, "t": t}


def _holds(weights: Callable[[Fraction], rx.Weights]) -> Callable[[dict[str, Any], Context],
                                                                  Instance]:
    def holds(inst: dict[str, Any], ctx: Context) -> Instance:
        """Exact: at an integer t, T̃(t) = T̄(t) and both one-sided limits equal T̃(t); at a
        non-integer t, T̃ is affine nearby (continuous), nothing else is claimed."""
        t, values = inst["t"], inst["T_bar"]
        rec = {"L": inst["L"], "T_bar": [str(v) for v in values], "t": str(t)}
        if t.denominator != 1:
            return Instance(True, "exact rational arithmetic", rec, "affine near a non-integer t")
        k = int(t)
        value = rx.evaluate(weights, values, t)
        left, right = rx.one_sided_limits(weights, values, k)
        rec.update({"T~(t)": str(value), "T_bar(t)": str(values[k - 1]),
                    "lim t→k−": str(left), "lim t→k+": str(right)})
        ok = value == values[k - 1] and all(v is None or v == value for v in (left, right))
        return Instance(ok, "exact rational arithmetic (limits from the affine pieces)", rec,
                        "" if ok else "T̃(k) ≠ T̄(k) or a one-sided limit differs from T̃(k)")

    return holds


def _params() -> tuple[Param, ...]:
    return (Param("N", 8, "state size N of the eq. 31 check (N − 1 Vandermonde rows)", int,
                  check=at_least(2)),
            sp.p_length(16), sp.p_count(4), sp.p_ks(), sp.p_exact_nodes(), p_rmin(), p_rmax())


CLAIMS = [
    Claim(
        id="O.relaxation",
        title="Lemma 8's relaxation T̃ and Ω_t⁺ (as printed)",
        statement="T̃[u, t] := (⌈t⌉ − t)T̄[u, ⌈t⌉] + (t − ⌊t⌋)T̄[u, ⌊t⌋] is continuous in t on "
                  "[1, L] and equals T̄[u, k] at every integer k; the same form for Ω_t⁺ (eq. 31) "
                  "reduces to Ω_k⁺ at t = k",
        provenance=Provenance("O", "App. C, Lemma 8, eq. (26) and eq. (31)",
                              QUOTE_L8 + " … " + QUOTE_26 + " … " + QUOTE_31),
        tolerance="exact (SymPy, ℚ); enclosure (flint); values: c·n·u with κ = 1; jumps: "
                  "2δ·Lip + c·n·u·max|T̄|; eq. 31: c·n·κ₂(Ω_k)·u (floats)",
        uses=("O.sparse",),
        params=_params(),
        symbolic=symbolic_printed,
        numeric=_numeric(rx.printed_affine),
        strategy=lambda ctx: instances(),
        holds=_holds(rx.printed_weights),
        notes="T̄ on the integers is arbitrary (one fixed u; exact dyadic values, pinned seed). "
              "Eq. 31 is checked as the same claim: its weights are eq. 26's.",
    ),
    Claim(
        id="O.relaxation.corrected",
        title="Lemma 8's relaxation as piecewise-linear interpolation",
        statement="T̃[u, t] := (⌊t⌋ + 1 − t)T̄[u, ⌊t⌋] + (t − ⌊t⌋)T̄[u, ⌊t⌋ + 1] (second term "
                  "absent at t = L) is continuous on [1, L] and equals T̄[u, k] at integers; "
                  "likewise Ω_t⁺ := (⌊t⌋ + 1 − t)Ω⁺_{⌊t⌋} + (t − ⌊t⌋)Ω⁺_{⌊t⌋+1}",
        provenance=Provenance("O", "App. C, eq. (26) and eq. (31), corrected",
                              QUOTE_26 + " … " + QUOTE_31),
        tolerance="exact (SymPy, ℚ); enclosure (flint); values: c·n·u with κ = 1; jumps: "
                  "2δ·Lip + c·n·u·max|T̄|; eq. 31: c·n·κ₂(Ω_k)·u (floats)",
        uses=("O.sparse",),
        params=_params(),
        symbolic=symbolic_corrected,
        numeric=_numeric(rx.corrected_affine),
        strategy=lambda ctx: instances(),
        holds=_holds(rx.corrected_weights),
        corrects="O.relaxation",
        notes="Merely swapping eq. 26's weights, (t − ⌊t⌋)T̄(⌈t⌉) + (⌈t⌉ − t)T̄(⌊t⌋), is "
              "continuous between integers but still 0 at every integer (recorded in the "
              "symbolic evidence).",
    ),
]
