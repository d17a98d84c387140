"""O.invertible: V_N is invertible with probability one when λ_i ~ 𝕋(r_min, r_max) (O §3.1, Lemma 6).

One statement, ``recmem.theory.ring.Invertible`` (Lemma 6's sampler and the hypothesis on the
radii), read by every side. As printed, Lemma 6's domain 0 ≤ r_min ≤ r_max ≤ 1 includes the
corner r_min = r_max = 0, where u₁(r_max² − r_min²) + r_min² = 0, ν = +∞ and every node is
exp(−∞) = 0: for N ≥ 2 the rows of V_N coincide and det V_N = 0 with probability one.
``O.invertible.corrected`` (r_max > 0) excludes the only atom of the law; its negative controls
widen the hypothesis back to r_max ≥ 0, drop θ from the sampler (atoms on every circle) or drop
u₁ from ν (an atom at 0 whenever r_min = 0).

- Symbolic: theory.ring.invertible_proof solves, with SymPy, where the statement's law has an
  atom and intersects that with the statement's hypothesis.
- Search: (N, r_min, r_max) over the statement's hypothesis, corners included; a point mass is
  decided exactly (N copies of the atom, exact det), elsewhere one exact draw is checked.
- Numeric, per arithmetic: nodes drawn by the statement's sampler (rounded once to exact
  dyadics) at the parameters' ring and, with N = 2, at every corner of Lemma 6's domain that the
  hypothesis admits (unit circle, unit disk, r_min = r_max = 0). Where the law is a point mass
  the backend's V_N must have exactly identical rows (certified det V_N = 0); elsewhere ball
  arithmetic certifies det ≠ 0 when its enclosure excludes 0, point arithmetics resolve det ≠ 0
  when their error bound c·N²·κ₂(V_N)·u (O.det's policy) is below 1/2 and their det agrees with
  the exact Π(λ_i − λ_j) within it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least, grows, grows_factorial
from recmem.checks.claims.paper_o._common import p_n, p_rmax, p_rmin, vandermonde_kappa
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics import nodes as nd
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi, all_distinct, to_mpc
from recmem.theory.ring import Invertible, singular_draw

# c of the c·N²·κ·u bound on the relative error of a computed determinant (as O.det uses it).
C_DET = 4.0
# Ball checks may double their precision up to this factor of the requested precision.
ESCALATION = 4
# N at the corners of the domain: the smallest N at which coinciding nodes make V_N singular.
N_CORNER = 2

QUOTE_31 = ("Indeed, note that at the boundary setting N = k (number of equations = number of "
            "unknowns), the matrix V_N is invertible since det(V_N) = ∏_{1≤i<j≤N}(λ_i − λ_j) ≠ 0 "
            "with probability one under e.g. uniform on the complex unit disk initialization "
            "(proposed in [30], see Lemma 6 in the appendix).")
QUOTE_L6 = ("Lemma 6 Let u_1, u_2 be independent uniform random variables on the interval [0, 1]. "
            "Let 0 ≤ r_min ≤ r_max ≤ 1. Compute ν = −1/2 log(u_1(r_max^2 − r_min^2) + r_min^2) "
            "and θ = 2πu_2. Then exp(−ν + iθ) is uniformly distributed on the ring in C between "
            "circles of radii r_min and r_max. We denote this distribution as T(r_min, r_max).")

PRINTED = Invertible()
CORRECTED = Invertible(rmax_positive=True)


# ---- counterexample search ---------------------------------------------------------------------

def strategy(ctx: Context) -> Any:
    """(N, r_min, r_max) with 1 ≤ N ≤ n_search and (r_min, r_max) in the statement's hypothesis:
    r_max from [0, 1], r_min from [0, r_max], each end drawn on its own as often as the interior
    (circles r_min = r_max, disks r_min = 0 and the corner r_max = 0 are where atoms sit), kept
    when the statement admits them."""
    from hypothesis import strategies as st

    law = ctx.law(Invertible)
    n_max = int(ctx["n_search"])

    @st.composite
    def draw(d: Any) -> tuple[int, Fraction, Fraction]:
        n = d(st.integers(1, n_max))
        r_max = d(st.one_of(st.sampled_from([Fraction(1), Fraction(0)]), fractions_in(0, 1)))
        r_min = d(st.one_of(st.sampled_from([r_max, Fraction(0)]), fractions_in(0, r_max)))
        return n, r_min, r_max

    return draw().filter(lambda v: law.admits(v[1], v[2]))


def holds(instance: tuple[int, Fraction, Fraction], ctx: Context) -> Instance:
    """Decide "V_N invertible with probability one" for one (N, r_min, r_max) (O §3.1, Lemma 6).

    Where the statement's law is a point mass (theory.ring.RingSampling.atom, exact) every node
    is the atom and the exact det of N copies decides (0 for N ≥ 2: a certified counterexample).
    Elsewhere the law is atomless, so the nodes are distinct with probability one; one exact
    dyadic draw by the statement's sampler is checked for distinctness and det V_N ≠ 0 exactly.
    """
    from recmem.theory import exact_linalg as ex

    law = ctx.law(Invertible)
    n, r_min, r_max = instance
    values: dict[str, Any] = {"N": n, "r_min": str(r_min), "r_max": str(r_max)}
    point = singular_draw(law.law, n, r_min, r_max)
    if point is not None:
        if point["det"] == "0":
            return Instance(False, "exact SymPy arithmetic: the statement's law is the point mass "
                                   f"at {point['atom']} for these radii, so every node is that "
                                   "number and V_N has identical rows", point,
                            "det V_N = 0 with probability one")
        return Instance(True, "exact SymPy arithmetic", point, "N = 1: V_1 = [1]")
    draw = nd.ring(n, r_min, r_max, seed=ctx.seed, law=law.law)
    values["nodes"] = [str(q) for q in draw.values or ()]
    if not all_distinct(draw.values or ()):
        return Instance(None, "", values, "coincident nodes in one rounded draw (a null event "
                                          "for the atomless law): undecided")
    det = ex.vandermonde(list(draw.values or ()), n).det()
    if det == ex.element(QQi(Fraction(0))):
        # one singular draw does not refute "invertible with probability one"
        return Instance(None, "", values, "det V_N = 0 for one draw of distinct nodes: undecided")
    return Instance(True, "atomless law (theory.ring.invertible_proof); exact det V_N of one "
                    "dyadic draw over ℚ(i)", values, "det V_N ≠ 0 exactly for the draw")


# ---- symbolic and numeric sides ----------------------------------------------------------------

def symbolic(ctx: Context) -> list[Evidence]:
    """Where the statement's law has atoms, against its hypothesis (theory.ring.invertible_proof)."""
    from recmem.theory.ring import invertible_proof

    t0 = time.perf_counter()
    proof = invertible_proof(ctx.law(Invertible), int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


@dataclass
class _Case:
    """The outcome of one (N, r_min, r_max) in one arithmetic."""

    where: str
    outcome: Outcome
    message: str
    ratio: mpmath.mpf | None = None  # |det̂ − det|/|det| over its tolerance (points only)
    counterexample: dict[str, Any] | None = None
    certified_by: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _point_mass(backend: AbstractBackend, nodes: nd.Nodes, n: int, where: str,
                cx: dict[str, Any]) -> _Case:
    """The law is a point mass here: the backend's V_N must have exactly identical rows.

    The backend's V_N is read back exactly (midpoints and radii); identical exact rows certify
    det V_N = 0. The backend's own det is reported where it can compute one (mpmath 1.3's LU raises
    on a zero first column instead of returning 0).
    """
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 16
    with backend.activate():
        v = backend.vandermonde(nodes.to(backend), n)
        m = backend.to_mp(v, mp)
        exact_entries = backend.radius(v) == 0
        try:
            det_txt = mpmath.nstr(backend.scalar_to_mp(backend.det(v), mp), 3)
        except (TypeError, ZeroDivisionError, ValueError) as exc:
            det_txt = f"not computed by the backend ({type(exc).__name__})"
    rows = [[m[i, j] for j in range(n)] for i in range(n)]
    identical = exact_entries and all(r == rows[0] for r in rows)
    if not identical:
        return _Case(where, Outcome.FAIL, "the law is a point mass here, but the backend's V_N "
                     "rows are not exactly identical")
    return _Case(where, Outcome.REFUTE, f"{where}: every node is {cx['atom']}; det (backend): "
                 f"{det_txt}",
                 counterexample={**cx, "where": where, "V_N row (backend)":
                                 [mpmath.nstr(x, 3) for x in rows[0]], "det (backend)": det_txt},
                 certified_by=(f"exact: the statement's law is the point mass at {cx['atom']} "
                               "for these radii (theory.ring.RingSampling.atom), so every draw is "
                               "that node; the backend's V_N has exactly identical rows, so "
                               "det V_N = 0"))


def _case(backend: AbstractBackend, ctx: Context, where: str, n: int, r_min: Fraction,
          r_max: Fraction) -> _Case:
    """det V_N ≠ 0 for N nodes drawn by the statement's law at (r_min, r_max), in ``backend``."""
    law = ctx.law(Invertible)
    key = ("invertible nodes", n, r_min, r_max)
    if key not in ctx.cache:
        ctx.cache[key] = nd.ring(n, r_min, r_max, seed=ctx.seed, law=law.law)
    nodes: nd.Nodes = ctx.cache[key]
    vals = nodes.values or ()
    point = singular_draw(law.law, n, r_min, r_max) if n >= 2 else None
    if point is not None:
        return _point_mass(backend, nodes, n, where, point)
    if not all_distinct(vals):
        return _Case(where, Outcome.INCONCLUSIVE, f"{where}: two rounded draws coincide (a null "
                     "event for the atomless law); redraw with --seed")
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 32  # room to measure errors of the backend's det
    from recmem.theory import exact_linalg as ex

    exact = to_mpc(ex.to_qqi(ex.product_of_differences(vals)), mp)
    kappa = vandermonde_kappa(ctx, nodes, n)
    data = {"N": n, "r_min": str(r_min), "r_max": str(r_max), "κ₂(V_N)": str(kappa),
            "log10|det|": float(mpmath.log10(abs(exact)))}

    def det_in(b: AbstractBackend) -> Any:
        with b.activate():
            return b.det(b.vandermonde(nodes.to(b), n))

    if backend.encloses:
        import flint

        b = backend
        while True:
            det = det_in(b)
            excludes = not flint.acb(det).contains(0)
            if excludes or 2 * b.precision_bits > ESCALATION * backend.precision_bits:
                break
            b = make_backend(BackendSpec("flint", bits=2 * b.precision_bits))
        rad, mid = b.radius(det), abs(b.scalar_to_mp(det, mp))
        data["enclosure"] = (f"det V_N ball ∌ 0: {excludes}, radius {tol.fmt(rad)}, |mid| "
                             f"{tol.fmt(mid)} at {b.precision_bits} bits")
        return _Case(where, Outcome.PASS if excludes else Outcome.INCONCLUSIVE,
                     f"{where}: det V_N certified nonzero" if excludes else
                     f"{where}: the ball of det V_N contains 0 at {b.precision_bits} bits",
                     data=data)
    got = backend.scalar_to_mp(det_in(backend), mp)
    res = abs(got - exact) / abs(exact) if mpmath.isfinite(abs(got)) else mpmath.inf
    # LU's backward error moves det by at most about N·κ·(N·u) relative (as in O.det): c·N²·κ·u.
    j = tol.condition_scaled(res, c=C_DET, n=n * n, kappa=kappa.value,
                             unit_roundoff=backend.unit_roundoff, kappa_text=str(kappa))
    data |= {"|det̂ − det|/|det|": tol.fmt(res), "tolerance": j.tolerance,
             "needed bits": j.needed_bits}
    ratio = res / mpmath.mpf(j.tolerance) if j.tolerance else None
    if j.outcome is Outcome.PASS:
        return _Case(where, Outcome.PASS, f"{where}: |det̂ − det|/|det| = {tol.fmt(res)} ≤ "
                     f"{j.tolerance} < 1/2, so det̂ ≠ 0 resolves det V_N ≠ 0", ratio, data=data)
    if j.outcome is Outcome.INCONCLUSIVE:
        return _Case(where, Outcome.INCONCLUSIVE, f"{where}: c·N²·κ·u = {j.tolerance} ≥ 1/2: "
                     f"this precision cannot resolve det V_N ≠ 0 (needs {j.needed_bits} bits)",
                     data=data)
    return _Case(where, Outcome.FAIL, f"{where}: the backend's det disagrees with the exact "
                 "Π(λ_i − λ_j) beyond its error bound", ratio, data=data)


ORDER = (Outcome.REFUTE, Outcome.FAIL, Outcome.INCONCLUSIVE, Outcome.PASS)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """det V_N ≠ 0 for nodes drawn by the statement's law, at the parameters' ring and at the
    corners of Lemma 6's domain that the hypothesis admits (N = 2 there), in ``backend``.

    One check: it passes when every case resolves det V_N ≠ 0; its residual is the largest
    |det̂ − det|/|det| over its tolerance c·N²·κ·u (points), tolerance 1.
    """
    t0 = time.perf_counter()
    law = ctx.law(Invertible)
    n, r_min, r_max = int(ctx["N"]), ctx["r_min"], ctx["r_max"]
    if not law.admits(r_min, r_max):
        raise ValueError(f"the statement does not admit r_min = {r_min}, r_max = {r_max}")
    cases = [_case(backend, ctx, f"N = {n} at T({r_min}, {r_max})", n, r_min, r_max)]
    cases += [_case(backend, ctx, f"N = {N_CORNER} on the {label}", N_CORNER, lo, hi)
              for label, lo, hi in law.corners()]
    outcome = next(o for o in ORDER if any(c.outcome is o for c in cases))
    decisive = next(c for c in cases if c.outcome is outcome)
    ratios = [c.ratio for c in cases if c.ratio is not None]
    residual = (tol.fmt(max(ratios)) if outcome is Outcome.PASS and not backend.encloses
                and len(ratios) == len(cases) else None)
    summary = "; ".join(c.message for c in cases)
    return [Evidence(
        check=f"det V_N ≠ 0: N = {n} nodes ~ T({r_min}, {r_max}) and N = {N_CORNER} at the "
              f"corners of Lemma 6's domain the hypothesis admits (seed {ctx.seed})",
        kind="numeric", backend=backend.name, outcome=outcome,
        precision_bits=backend.precision_bits, instances=len(cases),
        residual=residual, tolerance="1" if residual is not None else None,
        tolerance_source=("enclosure of det V_N excluding 0 (ball arithmetic)" if backend.encloses
                          else f"per case |det̂ − det|/|det| ≤ c·N²·κ₂(V_N)·u with c = {C_DET}, "
                               f"u = 2^-{backend.precision_bits}; residual = the largest ratio"),
        counterexample=decisive.counterexample, certified_by=decisive.certified_by,
        message=decisive.message if outcome is not Outcome.PASS else summary,
        data={c.where: {"outcome": str(c.outcome), **c.data} for c in cases},
        seconds=time.perf_counter() - t0)]


def _validate(statement: Invertible) -> Any:
    def validate(values: Any) -> str | None:
        """Joint parameter check: the statement's hypothesis on (r_min, r_max)."""
        if not statement.admits(values["r_min"], values["r_max"]):
            return (f"the statement's hypothesis does not admit r_min = {values['r_min']}, "
                    f"r_max = {values['r_max']} (statement: {statement.text})")
        return None
    return validate


def _params() -> tuple[Param, ...]:
    return (p_n(16), p_rmin(Fraction(0)), p_rmax(),
            Param("n_search", 6, "largest N in the counterexample search", int, check=at_least(1),
                  max=64, cost=grows(8, 3)),
            Param("n_max_symbolic", 6, "largest N of the symbolic det identity (O.det)", int,
                  check=at_least(1), max=9, cost=grows_factorial(1000)))  # Leibniz: N! terms


TOLERANCE = ("exact (SymPy, ℚ(i)); enclosure of det V_N excluding 0 (flint); "
             "c·N²·κ₂(V_N)·u < 1/2 and agreement with the exact Π(λ_i − λ_j) (points)")

CLAIMS = [
    Claim(
        id="O.invertible",
        summary="Lemma 6 allows r_min = r_max = 0, where every node is 0 and V₂ is singular",
        title="V_N invertible with probability one under Lemma 6",
        statement=PRINTED,
        provenance=Provenance("O", "§3.1 below eq. (5), with App. B Lemma 6",
                              QUOTE_31 + " … " + QUOTE_L6),
        tolerance=TOLERANCE,
        uses=("O.det", "O.ring"),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        validate=_validate(PRINTED),
        notes="Defaults draw from the unit disk T(0, 1) as §3.1 suggests; the failure is the "
              "corner r_min = r_max = 0 of Lemma 6's domain, which every check reaches (try "
              "--param r_min=0 --param r_max=0 --param N=2).",
    ),
    Claim(
        id="O.invertible.corrected",
        summary="with r_max > 0",
        title="V_N invertible with probability one under Lemma 6 with r_max > 0",
        statement=CORRECTED,
        provenance=Provenance("O", "§3.1 below eq. (5), with App. B Lemma 6",
                              QUOTE_31 + " … " + QUOTE_L6),
        tolerance=TOLERANCE,
        uses=("O.det", "O.ring"),
        params=_params(),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        validate=_validate(CORRECTED),
        corrects="O.invertible",
        notes="r_max > 0 excludes the only atom of Lemma 6's law (λ = 0 at r_min = r_max = 0).",
    ),
]
