"""O.invertible: V_N is invertible with probability one when λ_i ~ 𝕋(r_min, r_max) (O §3.1, Lemma 6).

As printed, Lemma 6's domain 0 ≤ r_min ≤ r_max ≤ 1 includes the corner r_min = r_max = 0, where
u₁(r_max² − r_min²) + r_min² = 0, ν = +∞ and every node is exp(−∞) = 0: for N ≥ 2 the rows of V_N
coincide and det V_N = 0 with probability one. The counterexample search finds and certifies this
in exact arithmetic; ``O.invertible.corrected`` (r_max > 0) is proved in recmem.theory.ring.

Numeric side (both claims): for N nodes drawn by Lemma 6 (rounded once to exact dyadics), each
backend computes det V_N; ball arithmetic certifies det ≠ 0 when its enclosure excludes 0, point
arithmetics resolve det ≠ 0 when their error bound c·N²·κ₂(V_N)·u (O.det's policy) is below 1/2
and their det agrees with the exact Π(λ_i − λ_j) within it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Any

import mpmath

from recmem.checks import tolerance as tol
from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._common import (
    draw_nodes,
    p_n,
    p_rmax,
    p_rmin,
    vandermonde_kappa,
)
from recmem.checks.search import Instance
from recmem.checks.strategies import fractions_in
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend, BackendSpec, make_backend
from recmem.numerics.exact import QQi, all_distinct, to_mpc
from recmem.theory.ring import lemma6_argument

# c of the c·N²·κ·u bound on the relative error of a computed determinant (as O.det uses it).
C_DET = 4.0
# Ball checks may double their precision up to this factor of the requested precision.
ESCALATION = 4

QUOTE_31 = ("Indeed, note that at the boundary setting N = k (number of equations = number of "
            "unknowns), the matrix V_N is invertible since det(V_N) = ∏_{1≤i<j≤N}(λ_i − λ_j) ≠ 0 "
            "with probability one under e.g. uniform on the complex unit disk initialization "
            "(proposed in [30], see Lemma 6 in the appendix).")
QUOTE_L6 = ("Lemma 6 Let u_1, u_2 be independent uniform random variables on the interval [0, 1]. "
            "Let 0 ≤ r_min ≤ r_max ≤ 1. Compute ν = −1/2 log(u_1(r_max^2 − r_min^2) + r_min^2) "
            "and θ = 2πu_2. Then exp(−ν + iθ) is uniformly distributed on the ring in C between "
            "circles of radii r_min and r_max. We denote this distribution as T(r_min, r_max).")


def _positive_unit(v: Fraction) -> str | None:
    return None if 0 < v <= 1 else f"the corrected claim needs 0 < r_max ≤ 1, got {v}"


def degenerate(r_min: Fraction, r_max: Fraction) -> bool:
    """Whether Lemma 6's argument u₁(r_max² − r_min²) + r_min² vanishes for every u₁ (O App. B).

    Decided exactly: the affine function of u₁ is identically 0 iff both coefficients are 0.
    """
    return lemma6_argument(Fraction(0), r_min, r_max) == 0 and \
        lemma6_argument(Fraction(1), r_min, r_max) == 0


# ---- counterexample search ---------------------------------------------------------------------

def _domain(ctx: Context, positive_rmax: bool) -> Any:
    """(N, r_min, r_max) with 1 ≤ N ≤ n_search and 0 ≤ r_min ≤ r_max ≤ 1 (Lemma 6's domain)."""
    from hypothesis import strategies as st

    n_max = int(ctx["n_search"])

    @st.composite
    def draw(d: Any) -> tuple[int, Fraction, Fraction]:
        n = d(st.integers(1, n_max))
        r_max = d(fractions_in(0, 1).filter(lambda v: v > 0) if positive_rmax else fractions_in(0, 1))
        r_min = d(fractions_in(0, r_max))
        return n, r_min, r_max

    return draw()


def holds(instance: tuple[int, Fraction, Fraction], ctx: Context) -> Instance:
    """Decide "V_N invertible with probability one" for one (N, r_min, r_max) (O §3.1, Lemma 6).

    At the degenerate corner every node is exactly 0 (exact ℚ: Lemma 6's argument ≡ 0, ν = +∞),
    so det V_N is computed exactly over ℚ(i): 0 for N ≥ 2 is a certified counterexample. Elsewhere
    the law of λ is atomless (recmem.theory.ring.atom_condition), so the nodes are distinct with
    probability one; one exact dyadic draw is checked for distinctness and det V_N ≠ 0 exactly.
    """
    from recmem.numerics import nodes as nd
    from recmem.theory import exact_linalg as ex

    n, r_min, r_max = instance
    values: dict[str, Any] = {"N": n, "r_min": str(r_min), "r_max": str(r_max)}
    if degenerate(r_min, r_max):
        nodes = [QQi(Fraction(0))] * n  # λ = exp(−∞) = 0 for every draw (u₁, u₂)
        v = ex.vandermonde(nodes, n)
        det = ex.to_qqi(v.det())
        values |= {"nodes": ["0"] * n, "V_N": [[str(ex.to_qqi(x)) for x in row]
                                                for row in v.to_list()], "det": str(det)}
        if det == QQi(Fraction(0)):
            return Instance(False, "exact arithmetic over ℚ(i): u₁(r_max² − r_min²) + r_min² = 0 "
                                   "for every u₁, so ν = +∞ and every node is exp(−∞) = 0; "
                                   "V_N has identical rows and det V_N = 0",
                            values, "det V_N = 0 with probability one")
        return Instance(True, "exact arithmetic over ℚ(i)", values, "N = 1: V_1 = [1]")
    draw = nd.ring(n, r_min, r_max, seed=ctx.seed)
    values["nodes"] = [str(q) for q in draw.values or ()]
    if not all_distinct(draw.values or ()):
        return Instance(None, "", values, "coincident nodes in one rounded draw (a null event "
                                          "for the atomless law): undecided")
    det = ex.vandermonde(list(draw.values or ()), n).det()
    ok = det != ex.element(QQi(Fraction(0)))
    return Instance(True if ok else None, "atomless law (theory.ring.atom_condition); exact "
                    "det V_N of one dyadic draw over ℚ(i)", values,
                    "det V_N ≠ 0 exactly for the draw" if ok else "det = 0 for distinct nodes?")


# ---- symbolic and numeric sides ----------------------------------------------------------------

def symbolic_printed(ctx: Context) -> list[Evidence]:
    """Atoms of Lemma 6's law and the exact det at the corner (theory.ring.invertible_as_printed)."""
    from recmem.theory.ring import invertible_as_printed

    t0 = time.perf_counter()
    return [from_proof(invertible_as_printed(int(ctx["n_max_symbolic"])),
                           time.perf_counter() - t0)]


def symbolic_corrected(ctx: Context) -> list[Evidence]:
    """The a.s. argument for r_max > 0 (theory.ring.invertible_corrected)."""
    from recmem.theory.ring import invertible_corrected

    t0 = time.perf_counter()
    return [from_proof(invertible_corrected(int(ctx["n_max_symbolic"])),
                           time.perf_counter() - t0)]


def _exact_det(nodes: tuple[QQi, ...], mp: mpmath.ctx_mp.MPContext) -> mpmath.mpc:
    """Π_{i<j}(λ_i − λ_j) over ℚ(i) exactly (O.det), rounded once into the context ``mp``."""
    from recmem.theory import exact_linalg as ex

    return to_mpc(ex.to_qqi(ex.product_of_differences(nodes)), mp)


def _corner(backend: AbstractBackend, nodes: Any, n: int, r_min: Fraction, r_max: Fraction,
            base: Evidence, t0: float) -> Evidence:
    """The corner r_min = r_max = 0: every node is exactly 0, so V_N must have identical rows.

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
    identical = exact_entries and all(r == rows[0] for r in rows) and n >= 2
    return replace(base, outcome=Outcome.REFUTE if identical else Outcome.FAIL,
                   counterexample={"N": n, "r_min": str(r_min), "r_max": str(r_max),
                                   "nodes": ["0"] * n,
                                   "V_N row": [mpmath.nstr(x, 3) for x in rows[0]],
                                   "det (backend)": det_txt},
                   certified_by=("exact: Lemma 6's argument is 0 for every u₁, so every node is "
                                 "exp(−∞) = 0; the backend's V_N has exactly identical rows, "
                                 "so det V_N = 0") if identical else None,
                   message=f"all nodes exactly 0 at r_min = r_max = 0; det (backend): {det_txt}"
                   if identical else "the backend's V_N rows are not exactly identical",
                   seconds=time.perf_counter() - t0)


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """det V_N ≠ 0 for N nodes drawn by Lemma 6, resolved in ``backend`` (O §3.1)."""
    t0 = time.perf_counter()
    n, r_min, r_max = int(ctx["N"]), ctx["r_min"], ctx["r_max"]
    if r_min > r_max:
        raise ValueError(f"Lemma 6 needs r_min ≤ r_max, got {r_min} > {r_max}")
    nodes = draw_nodes(ctx)
    vals = nodes.values or ()
    check = f"det V_N ≠ 0, {nodes.description}"
    base = Evidence(check=check, kind="numeric", backend=backend.name, outcome=Outcome.PASS,
                    precision_bits=backend.precision_bits)

    def det_in(b: AbstractBackend) -> Any:
        with b.activate():
            return b.det(b.vandermonde(nodes.to(b), n))

    if not all_distinct(vals):
        if degenerate(r_min, r_max):
            return [_corner(backend, nodes, n, r_min, r_max, base, t0)]
        return [replace(base, outcome=Outcome.INCONCLUSIVE,
                        message="two rounded draws coincide (a null event for the atomless "
                                "law); redraw with --param draw=1",
                        seconds=time.perf_counter() - t0)]
    mp = mpmath.MPContext()
    mp.prec = backend.precision_bits + 32  # room to measure errors of the backend's det
    exact = _exact_det(vals, mp)
    kappa = vandermonde_kappa(ctx, nodes, n)
    data = {"log10|det|": float(mpmath.log10(abs(exact))), "nodes distinct (exact)": True}
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
        return [replace(base, outcome=Outcome.PASS if excludes else Outcome.INCONCLUSIVE,
                        precision_bits=b.precision_bits, condition_number=str(kappa),
                        enclosure=f"det V_N ball ∌ 0: {excludes}, radius {tol.fmt(rad)}, "
                                  f"|mid| {tol.fmt(mid)} at {b.precision_bits} bits",
                        tolerance_source="ball arithmetic: the enclosure of det V_N excludes 0 "
                                         "(certified nonzero)",
                        needed_bits=None if excludes else 2 * b.precision_bits,
                        message="det V_N certified nonzero" if excludes else
                        "ball of det V_N contains 0 at the precision reached",
                        data=data, seconds=time.perf_counter() - t0)]
    det = det_in(backend)
    got = backend.scalar_to_mp(det, mp)
    res = abs(got - exact) / abs(exact) if mpmath.isfinite(abs(got)) else mpmath.inf
    # LU's backward error moves det by at most about N·κ·(N·u) relative (as in O.det): c·N²·κ·u.
    j = tol.condition_scaled(res, c=C_DET, n=n * n, kappa=kappa.value,
                             unit_roundoff=backend.unit_roundoff, kappa_text=str(kappa))
    msg = {Outcome.PASS: f"|det̂ − det|/|det| = {tol.fmt(res)} ≤ {j.tolerance} < 1/2, so "
                         "det̂ ≠ 0 resolves det V_N ≠ 0",
           Outcome.INCONCLUSIVE: "c·N²·κ·u ≥ 1/2: this precision cannot resolve det V_N ≠ 0"
           }.get(j.outcome, "the backend's det disagrees with the exact Π(λ_i − λ_j) beyond "
                            "its error bound")
    return [replace(base, outcome=j.outcome, residual=tol.fmt(res), tolerance=j.tolerance,
                    tolerance_source=j.source, condition_number=str(kappa),
                    needed_bits=j.needed_bits, message=msg, data=data,
                    seconds=time.perf_counter() - t0)]


def validate(values: Any) -> str | None:
    """Joint parameter check: Lemma 6 needs r_min ≤ r_max."""
    if values["r_min"] > values["r_max"]:
        return f"Lemma 6 needs r_min ≤ r_max, got r_min = {values['r_min']} > {values['r_max']}"
    return None


def _params(corrected: bool) -> tuple[Param, ...]:
    r_max = (Param("r_max", Fraction(1), "outer radius of the ring (0 < r_max ≤ 1)",
                   p_rmax().parse, check=_positive_unit) if corrected else p_rmax())
    return (p_n(16), p_rmin(Fraction(0)), r_max,
            Param("n_search", 6, "largest N in the counterexample search", int, check=at_least(1)),
            Param("n_max_symbolic", 6, "largest N of the symbolic det identity (O.det)", int,
                  check=at_least(1)))


TOLERANCE = ("exact (SymPy, ℚ(i)); enclosure of det V_N excluding 0 (flint); "
             "c·N²·κ₂(V_N)·u < 1/2 and agreement with the exact Π(λ_i − λ_j) (points)")

CLAIMS = [
    Claim(
        id="O.invertible",
        title="V_N invertible with probability one under Lemma 6",
        statement="V_N is invertible with probability one when λ_1, …, λ_N ~ T(r_min, r_max) "
                  "(Lemma 6: 0 ≤ r_min ≤ r_max ≤ 1)",
        provenance=Provenance("O", "§3.1 below eq. (5), with App. B Lemma 6",
                              QUOTE_31 + " … " + QUOTE_L6),
        tolerance=TOLERANCE,
        uses=("O.det", "O.ring"),
        params=_params(False),
        symbolic=symbolic_printed,
        numeric=numeric,
        strategy=lambda ctx: _domain(ctx, positive_rmax=False),
        holds=holds,
        validate=validate,
        notes="Defaults draw from the unit disk T(0, 1) as §3.1 suggests; the failure is the "
              "corner r_min = r_max = 0 of Lemma 6's domain (try --param r_min=0 --param r_max=0 "
              "--param N=2).",
    ),
    Claim(
        id="O.invertible.corrected",
        title="V_N invertible with probability one under Lemma 6 with r_max > 0",
        statement="For 0 ≤ r_min ≤ r_max ≤ 1 with r_max > 0 and λ_1, …, λ_N ~ T(r_min, r_max) "
                  "independent, V_N is invertible with probability one",
        provenance=Provenance("O", "§3.1 below eq. (5), with App. B Lemma 6",
                              QUOTE_31 + " … " + QUOTE_L6),
        tolerance=TOLERANCE,
        uses=("O.det", "O.ring"),
        params=_params(True),
        symbolic=symbolic_corrected,
        numeric=numeric,
        strategy=lambda ctx: _domain(ctx, positive_rmax=True),
        holds=holds,
        validate=validate,
        corrects="O.invertible",
        notes="r_max > 0 excludes the only atom of Lemma 6's law (λ = 0 at r_min = r_max = 0).",
    ),
]
