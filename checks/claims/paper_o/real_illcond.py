"""O.real-illcond: for real Λ the condition number of V_k grows exponentially with N (O §3.1, [9]).

Symbolic: the Chebyshev divided-difference identity behind the bound κ₂(V_N) ≥ 2^{N−2}/N for every
set of N distinct real nodes in [−1, 1] (recmem.theory.real_nodes). Numeric: a conditioning study
over N for real node families with certified κ₂, exact Gautschi bounds and exact κ₁ as sanity
inequalities, a trend test and a log-linear fit of log₂κ against N; float backends show where
float64 stops resolving κ.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from recmem.checks.claim import Claim, Context, Param, Provenance, at_least
from recmem.checks.claims.paper_o._studies import (
    Listed,
    cached_study,
    distance_to_bracket,
    fmt_list,
    ints_param,
    judged_points,
    kappa_of,
    study_evidence,
    to_fraction,
    trend_evidence,
)
from recmem.checks.search import Instance
from recmem.checks.verdict import Evidence, Outcome, from_proof
from recmem.numerics.backend import AbstractBackend
from recmem.numerics.studies import REAL_FAMILIES, Row, Study, loglinear_fit, real_study


def _parse_families(text: str) -> tuple[str, ...]:
    vals = Listed(t for t in str(text).replace(" ", "").split(",") if t)
    bad = [v for v in vals if v not in REAL_FAMILIES]
    if bad or not vals:
        raise ValueError(f"families must be among {', '.join(REAL_FAMILIES)}, got {text!r}")
    return vals


def _study(ctx: Context) -> Study:
    return cached_study(ctx, lambda: real_study(ctx["Ns"], ctx["families"], seed=ctx.seed,
                                                draws=int(ctx["draws"])))


def symbolic(ctx: Context) -> list[Evidence]:
    """The divided-difference identity for symbolic nodes, n ≤ n_max_symbolic (O §3.1, [9])."""
    from recmem.theory.real_nodes import chebyshev_divided_difference

    t0 = time.perf_counter()
    proof = chebyshev_divided_difference(int(ctx["n_max_symbolic"]))
    return [from_proof(proof, time.perf_counter() - t0)]


def _label(r: Row) -> str:
    return f"{r['family']} N={r['N']}" + (f" draw {r['draw']}" if r["draw"] else "")


def _sanity(backend: AbstractBackend, study: Study) -> Evidence:
    """Certified inequalities at every point; a violation is a certified counterexample."""
    t0 = time.perf_counter()
    bad: list[dict[str, Any]] = []
    for r in study.rows:
        n, k, k1 = r["N"], r["kappa"], r["kappa1"]
        # exact comparisons: the bracket ends are binary numbers, κ₁ and the bound are rationals
        lo, hi = to_fraction(k.lo), (to_fraction(k.hi) if k.certified else None)
        problems = []
        if not r["gautschi_ok"]:
            problems.append("Gautschi: lower ≤ ‖V⁻¹‖₁ ≤ upper fails (exact)")
        if not r["bound_ok"]:
            problems.append("κ₁ < 2^(N−2) (exact)")
        if hi is not None and hi < r["lower_bound"]:
            problems.append("certified κ₂ < 2^(N−2)/N")
        if hi is not None and (hi < k1 / n or lo > n * k1):
            problems.append("certified κ₂ outside [κ₁/N, N·κ₁]")
        if problems:
            bad.append({"point": _label(r), "problems": problems,
                        "nodes": [str(v) for v in r["nodes"].values],
                        "kappa2": str(k), "kappa1": str(k1),
                        "inverse_norm1": str(r["inverse_norm1"]),
                        "gautschi": [str(r["gautschi_lower"]), str(r["gautschi_upper"])]})
    margin = min(float(to_fraction(r["kappa"].lo) / r["lower_bound"]) for r in study.rows)
    return Evidence(
        check="certified sanity inequalities: κ₂ ≥ 2^(N−2)/N, Gautschi's bounds on ‖V⁻¹‖₁, "
              "κ₁/N ≤ κ₂ ≤ N·κ₁",
        kind="numeric", backend=backend.name,
        outcome=Outcome.REFUTE if bad else Outcome.PASS, instances=len(study.rows),
        precision_bits=max(r["kappa"].bits for r in study.rows),
        counterexample=bad[0] if bad else None,
        certified_by="exact rationals (fmpq) and ball arithmetic (flint)",
        message=(f"{len(bad)} violations" if bad else
                 f"all {len(study.rows)} points satisfy them; smallest κ₂/(2^(N−2)/N) = "
                 f"{margin:.3g}"),
        seconds=time.perf_counter() - t0)


def _growth(backend: AbstractBackend, study: Study) -> Evidence:
    """Trend test of log₂κ₂ against N per family, with the log-linear fit in data."""
    ev = trend_evidence(backend, study.rows, "log₂κ₂(V_N) increases with N (per family)", "N",
                        "log2_kappa", "increasing", ["family"], ["family", "N"])
    fits = {}
    for fam in dict.fromkeys(r["family"] for r in study.rows):
        rs = [r for r in study.rows if r["family"] == fam]
        f = loglinear_fit([r["N"] for r in rs], [r["log2_kappa"] for r in rs])
        fits[fam] = {"slope_bits_per_node": round(f.slope, 3), "intercept": round(f.intercept, 3),
                     "r2": round(f.r2, 4), "points": f.n}
    ev.data["fits"] = fits
    ev.data["lower_bound_rate"] = "log₂(2^(N−2)/N): slope → 1 bit per node"
    ev.message += "; log₂κ ≈ slope·N + c: " + ", ".join(
        f"{k} {v['slope_bits_per_node']} bits/node (R² {v['r2']})" for k, v in fits.items())
    return ev


def numeric(backend: AbstractBackend, ctx: Context) -> list[Evidence]:
    """Certified study (flint), κ₂ recomputed in each point arithmetic (O §3.1, [9])."""
    study = _study(ctx)
    if backend.encloses:
        return [study_evidence(backend, ctx, study, "certified κ₂(V_N) for real nodes",
                               ["family", "N"]),
                _sanity(backend, study), _growth(backend, study)]
    rows = study.rows
    if backend.precision_bits > 64:
        # point high precision (mpmath): its SVD is ~100× slower than flint's certified route;
        # recompute κ₂ at the points with N = hp_N only.
        rows = [r for r in rows if r["N"] == int(ctx["hp_N"])] or rows[:1]

    def measure(r: Row) -> tuple[Any, Any, int]:
        v = backend.vandermonde(r["nodes"].to(backend), r["N"])
        k_hat = kappa_of(backend.svdvals(v))
        # computed V: each entry a product of ≤ N−1 roundings (‖δV‖ ≤ γ_N‖V‖_F), the SVD adds a
        # backward error ~ N·u‖V‖₂; σ_max and σ_min each move by ≤ that, so the relative error of
        # κ is ≲ 3N·u·2‖V‖_F/σ_min: κ_eff = 2‖V‖_F/σ_min, n = 3N.
        return distance_to_bracket(k_hat, r["kappa"]), 2 * r["sigma"].fro_over_smin(), 3 * r["N"]

    return judged_points(backend, rows, f"κ₂(V_N) in {backend.name} vs certified κ₂", measure,
                         _label, "κ₂(V_N)")


_DENS = (1, 2, 3, 4, 5, 7, 8, 16)


def strategy(ctx: Context) -> Any:
    """Distinct real rational nodes in [−1, 1], 2 ≤ N ≤ 6: the scope of the proven bound.

    Numerator/denominator pairs from fixed strategies (cheaper than ``st.fractions``, which
    builds a strategy per draw); they shrink towards 0 and small denominators.
    """
    nums = {d: st.integers(-d, d) for d in _DENS}

    @st.composite
    def node(draw: Any) -> Fraction:
        d = draw(st.sampled_from(_DENS))
        return Fraction(draw(nums[d]), d)

    return st.lists(node(), min_size=2, max_size=6, unique=True)


def holds(instance: list[Any], ctx: Context) -> Instance:
    """Exact: Gautschi's sandwich on ‖V⁻¹‖₁ and κ₁(V_N) ≥ 2^{N−2} (hence κ₂ ≥ 2^{N−2}/N)."""
    from recmem.theory.real_nodes import certify_point

    c = certify_point(instance)
    return Instance(bool(c["gautschi_ok"] and c["bound_ok"]), "exact rational arithmetic (fmpq)",
                    {"N": c["N"], "nodes": [str(q) for q in instance],
                     "kappa1": str(c["kappa1"]), "bound 2^(N-2)": 2 ** (c["N"] - 2),
                     "inverse_norm1": str(c["inverse_norm1"]),
                     "gautschi": [str(c["gautschi_lower"]), str(c["gautschi_upper"])]})


CLAIMS = [
    Claim(
        id="O.real-illcond",
        title="Real nodes: κ(V_k) grows exponentially with N",
        statement="if Λ is real the condition number of V_k grows exponentially with N (k = N: the "
                  "square V_N of eq. 5)",
        provenance=Provenance(
            "O", "§3.1, 'Taming ill-conditioning with complex numbers' (ref. [9], Gautschi–"
                 "Inglese 1988)",
            "However, while if Λ is real the condition number of V_k grows exponentially with N "
            "[9], in the complex case it is possible to make the condition number of V_k exactly "
            "1 by e.g. choosing the N th-roots of unity as eigenvalues of Λ [5, 8]."),
        tolerance="exact (SymPy identity; fmpq Gautschi bounds and κ₁); enclosure (flint κ₂); "
                  "c·n·κ_eff·u with κ_eff = 2‖V‖_F/σ_min, n = 3N (floats)",
        uses=("O.vandermonde-form", "O.det"),
        params=(
            ints_param("Ns", (4, 8, 12, 16, 20, 24, 28, 32), "sizes N of the study (k = N)", lo=2),
            Param("families", Listed(REAL_FAMILIES), "real node families in [−1, 1]: "
                  + ", ".join(REAL_FAMILIES), _parse_families),
            Param("draws", 1, "draws per (family, N) (only the random family varies)", int,
                  check=at_least(1)),
            Param("n_max_symbolic", 8, "largest n of the symbolic identity", int,
                  check=at_least(2)),
            Param("hp_N", 16, "N at which mpmath recomputes κ₂ (its SVD is slow)", int,
                  check=at_least(2)),
        ),
        symbolic=symbolic,
        numeric=numeric,
        strategy=strategy,
        holds=holds,
        notes="Scope of the proof: distinct real nodes in [−1, 1] (every stable real recurrence), "
              "k = N. Outside [−1, 1] the statement rests on Gautschi–Inglese [9] and the study. "
              f"Default study: N = {fmt_list((4, 8, 12, 16, 20, 24, 28, 32))}, families "
              f"{fmt_list(REAL_FAMILIES)}.",
    ),
]
