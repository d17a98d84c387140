"""L-fig23-spectrum: the spectrum of a Glorot-initialised dense A beside Lemma 2's diagonal
initialisation (paper L §3.2.2 "Equivalent initialization", Theorem 1, Lemma 2, Fig. 2–3).

Protocol. For each N and draw: A ∈ ℝ^{N×N} with i.i.d. N(0, 1/N) entries (Fig. 2's caption) and
its eigenvalues (LAPACK, BLAS pinned to one thread so the numbers do not depend on the machine's
thread count); N eigenvalues sampled by Lemma 2 with (r_min, r_max) = (0, 1) (Fig. 3), and on the
rings of L's Tables 5–7 (recmem's one exact sampler of Lemma 2 = O's Lemma 6,
:func:`recmem.numerics.nodes.ring`, through :mod:`recmem.numerics.lru_spectra`). Measured:

- the distance of each spectrum to the uniform law on the disk (ring): the radial KS statistic
  sup_r |#{|λ| ≤ r}/N − r²| and the angular one, beside the critical value of N i.i.d. uniform
  points (Theorem 1: the Glorot spectrum converges to the uniform disk law);
- the largest modulus (→ 1: "approximately stable"), the fraction outside the unit disk, and the
  number of real eigenvalues beside Edelman–Kostlan–Shub's expectation ≈ √(2N/π);
- the two-sample KS distances between the Glorot spectrum and Lemma 2's (0, 1) draws (Fig. 3's
  caption: they coincide in the limit), which must fall with N.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.reproduce.experiment import Experiment, RunContext
from recmem.numerics import lru_spectra as ls
from recmem.numerics.certified_oracles import InternalInconsistency

# family-wise level of every KS criterion below (Bonferroni over the tests of one finding)
ALPHA = 0.01
# "approximately stable" (L §3.2.2): the mean largest modulus within this of 1 at the largest N
STABLE_TOLERANCE = 0.05
# the oracle Σλ = tr A of a backward-stable eigensolver: |Σλ − tr A| ≤ c·N·u·‖A‖_F with c = O(1)
TRACE_RESIDUAL_MAX = 100.0

SETTINGS: dict[str, dict[str, Any]] = {
    "ci": {"N": [64, 128, 256, 512], "draws": 5, "rings": [["1/2", "9/10"], ["9/10", "99/100"]]},
    "paper": {"N": [64, 256, 1024, 2048], "draws": 10,
              "rings": [["1/2", "9/10"], ["9/10", "99/100"], ["9/10", "999/1000"]]},
}
CHOICES = {
    "N": "Fig. 2 and 3 do not print N: a range of N shows the convergence Theorem 1 states",
    "rings": "Fig. 3 shows (r_min, r_max) = (0, 1); the rings are those of L Tables 5–7",
    "distance": "the uniform disk (ring) law via Kolmogorov–Smirnov statistics of |λ|² (P(|λ| ≤ r) "
                "= r² on the disk) and of arg λ; Glorot and Lemma 2 compared by two-sample KS",
    "criteria": f"KS tests at family-wise level {ALPHA} (Bonferroni within a finding); "
                f"'approximately stable' = mean largest modulus within {STABLE_TOLERANCE} of 1",
    "eigenvalues": "numpy.linalg.eigvals (LAPACK dgeev) in float64 with one BLAS thread; the device "
                   "setting is not used",
}


def _rings(ctx: RunContext) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(a), Fraction(b)) for a, b in ctx["rings"]]


def _stats(lam: np.ndarray, r_min: float, r_max: float) -> dict[str, Any]:
    rad, ang = ls.radial_ks(lam, r_min, r_max), ls.angular_ks(lam)
    mod = np.abs(lam)
    return {"radial_D": rad.statistic, "radial_p": rad.pvalue, "angular_D": ang.statistic,
            "angular_p": ang.pvalue, "max_modulus": float(mod.max()),
            "min_modulus": float(mod.min()), "outside_unit_disk": float(np.mean(mod > 1)),
            "real": int(np.count_nonzero(lam.imag == 0))}


def _points(lam: np.ndarray) -> list[list[float]]:
    return [[float(z.real), float(z.imag)] for z in lam]


def _seed(ctx: RunContext, *stream: Any) -> int:
    return int(ctx.generator(*(str(s) for s in stream)).integers(0, 2**62))


def disk_cell(ctx: RunContext, n: int, d: int) -> dict[str, Any]:
    """One (N, draw): the Glorot spectrum, Lemma 2's (0, 1) draws, their two-sample distances."""
    from recmem.numerics.condition import pinned_blas

    with pinned_blas():
        spec = ls.glorot_spectrum(n, ctx.generator("glorot", n, d))
    lemma = ls.lemma2_spectrum(n, Fraction(0), Fraction(1), _seed(ctx, "lemma2", 0, 1, n, d))
    rad, ang = ls.two_sample_ks(spec.eigenvalues, lemma)
    out = {"glorot": {**_stats(spec.eigenvalues, 0.0, 1.0), "trace_residual": spec.trace_residual},
           "lemma2": _stats(lemma, 0.0, 1.0),
           "two_sample": {"radial_D": rad.statistic, "radial_p": rad.pvalue,
                          "angular_D": ang.statistic, "angular_p": ang.pvalue}}
    if d == 0:
        out["points"] = {"glorot": _points(spec.eigenvalues), "lemma2": _points(lemma)}
    return out


def ring_cell(ctx: RunContext, r_min: Fraction, r_max: Fraction, n: int, d: int) -> dict[str, Any]:
    """One (ring, N, draw): Lemma 2's draws on 𝕋(r_min, r_max) against the area-uniform law."""
    lam = ls.lemma2_spectrum(n, r_min, r_max, _seed(ctx, "lemma2", r_min, r_max, n, d))
    out: dict[str, Any] = {"lemma2": _stats(lam, float(r_min), float(r_max))}
    if d == 0:
        out["points"] = _points(lam)
    return out


def _verdict(a: bool, b: bool) -> str:
    return "agrees" if a and b else ("partial" if a or b else "disagrees")


# ---- findings ----------------------------------------------------------------------------------
def _fig2(ctx: RunContext, disk: dict[tuple[int, int], Any], ns: list[int], draws: int) -> None:
    g = {k: v["glorot"] for k, v in disk.items()}
    level = ALPHA / (2 * len(g))
    crit = {n: ls.ks_critical(n, level) for n in ns}
    within = all(g[(n, d)][f"{w}_D"] <= crit[n] for n in ns for d in range(draws)
                 for w in ("radial", "angular"))
    mean = lambda n, key: float(np.mean([g[(n, d)][key] for d in range(draws)]))  # noqa: E731
    falls = mean(ns[-1], "radial_D") < mean(ns[0], "radial_D")
    agreement = _verdict(within, falls)
    reals = {n: f"{mean(n, 'real'):.1f} (expected {ls.expected_real_eigenvalues(n):.1f})" for n in ns}
    ctx.measure("glorot_real_eigenvalues", reals)
    ctx.finding(
        "Fig. 2 (Theorem 1)", "KS distance of the Glorot spectrum to the uniform disk law, radial "
        "(sup_r |F_N(r) − r²|) and angular, mean over draws",
        {f"N={n}": {"radial D": round(mean(n, "radial_D"), 4),
                    "angular D": round(mean(n, "angular_D"), 4),
                    "critical D (N i.i.d. points)": round(crit[n], 4),
                    "real eigenvalues": reals[n]} for n in ns},
        "the spectrum is uniform on the unit disk in the limit N → ∞", agreement,
        f"criterion: every draw's radial and angular D within the critical value of N i.i.d. "
        f"uniform points at level {ALPHA} (Bonferroni over {2 * len(g)} tests), and the mean "
        f"radial D at N = {ns[-1]} below that at N = {ns[0]} ({mean(ns[-1], 'radial_D'):.4f} vs "
        f"{mean(ns[0], 'radial_D'):.4f}); both → agrees, one → partial, none → disagrees. The "
        f"finite-N spectrum also holds ≈ √(2N/π) real eigenvalues (an atom Theorem 1's limit "
        f"does not see) → {agreement}.")
    rho = {n: mean(n, "max_modulus") for n in ns}
    out = {n: mean(n, "outside_unit_disk") for n in ns}
    unstable = sum(g[(n, d)]["max_modulus"] > 1 for n in ns for d in range(draws))
    fewer, near = out[ns[-1]] < out[ns[0]], abs(rho[ns[-1]] - 1) <= STABLE_TOLERANCE
    agreement = _verdict(fewer, near)
    ctx.finding(
        "Fig. 2 (approximately stable)", "mean largest |λ| of the Glorot spectrum and mean fraction "
        "of eigenvalues outside the unit disk",
        {f"N={n}": {"max |λ|": round(rho[n], 4), "outside |z| = 1": round(out[n], 4)} for n in ns},
        "Glorot initialization provides an approximately stable initialization (§3.2.1: |λ_j| < 1 "
        "suffices)", agreement,
        f"criterion: the fraction outside the unit disk smaller at N = {ns[-1]} than at N = {ns[0]} "
        f"({out[ns[-1]]:.4f} vs {out[ns[0]]:.4f}) and the largest modulus within {STABLE_TOLERANCE} "
        f"of 1 at N = {ns[-1]} ({rho[ns[-1]]:.4f}); both → agrees, one → partial, none → disagrees. "
        f"Strictly, {unstable} of {len(g)} draws have an eigenvalue with |λ| > 1 (the dense A is not "
        f"stable by §3.2.1's condition, only approximately) → {agreement}.")


def _lemma2(ctx: RunContext, figure: str, cells: list[dict[str, Any]], r_min: Fraction,
            r_max: Fraction, ns: list[int]) -> None:
    level = ALPHA / (2 * len(cells))
    pmin = min(min(c["radial_p"], c["angular_p"]) for c in cells)
    slack = 4 * np.finfo(np.float64).eps  # the moduli of complex128 nodes, rounded once
    support = all(float(r_min) - slack <= c["min_modulus"] and c["max_modulus"] <= float(r_max) + slack
                  for c in cells)
    agreement = "agrees" if pmin >= level and support else "disagrees"
    big = [c for c in cells if c["n"] == ns[-1]]
    ctx.finding(
        figure, "KS tests of Lemma 2's draws against the area-uniform ring law (|λ|² and arg λ)",
        {"smallest p-value": f"{pmin:.3g}", "level (Bonferroni)": f"{level:.3g}",
         f"radial D at N={ns[-1]}": [round(c["radial_D"], 4) for c in big],
         "every modulus in the ring": support},
        f"exp(−ν + iθ) is uniformly distributed on the ring {float(r_min):g} ≤ |λ| ≤ {float(r_max):g}",
        agreement, f"criterion: no radial or angular KS test rejects at family-wise level {ALPHA} "
        f"({2 * len(cells)} tests) and every modulus lies in the ring (within 4 ulp) → agrees, else "
        f"disagrees → {agreement}.")


def _fig3_limit(ctx: RunContext, disk: dict[tuple[int, int], Any], ns: list[int], draws: int) -> None:
    t = {k: v["two_sample"] for k, v in disk.items()}
    level = ALPHA / (2 * draws)
    mean = lambda n, key: float(np.mean([t[(n, d)][key] for d in range(draws)]))  # noqa: E731
    falls = mean(ns[-1], "radial_D") < mean(ns[0], "radial_D")
    pmin = min(min(t[(ns[-1], d)]["radial_p"], t[(ns[-1], d)]["angular_p"]) for d in range(draws))
    agreement = _verdict(falls, pmin >= level)
    ctx.finding(
        "Fig. 3 (Lemma 2 with (0, 1) vs Glorot)", "two-sample KS distance between the Glorot spectrum "
        "and N Lemma 2 draws, radial and angular, mean over draws",
        {f"N={n}": {"radial D": round(mean(n, "radial_D"), 4),
                    "angular D": round(mean(n, "angular_D"), 4)} for n in ns},
        "for r_min = 0, r_max = 1 the distribution coincides with Glorot init. in the limit", agreement,
        f"criterion: the mean radial D falls from N = {ns[0]} to N = {ns[-1]} "
        f"({mean(ns[0], 'radial_D'):.4f} → {mean(ns[-1], 'radial_D'):.4f}) and no two-sample test at "
        f"N = {ns[-1]} rejects at family-wise level {ALPHA} (smallest p {pmin:.3g}, level "
        f"{level:.3g}); both → agrees, one → partial, none → disagrees → {agreement}.")


# ---- files -------------------------------------------------------------------------------------
def _figures(ctx: RunContext, disk: dict[tuple[int, int], Any], rings: dict[Any, Any],
             ns: list[int]) -> None:
    from matplotlib.figure import Figure

    def scatter(ax: Any, pts: list[list[float]], title: str, ring: tuple[float, float] = (0, 1)) -> None:
        p = np.asarray(pts)
        ax.scatter(p[:, 0], p[:, 1], s=3, alpha=0.6)
        t = np.linspace(0, 2 * np.pi, 400)
        ax.plot(np.cos(t), np.sin(t), "k-", lw=1)
        for r in ring:
            if 0 < r < 1:
                ax.plot(r * np.cos(t), r * np.sin(t), "k:", lw=1)
        ax.set_aspect("equal")
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.25, 1.25)
        ax.set_title(title, fontsize=8)

    fig = Figure(figsize=(3 * len(ns), 3.2), layout="constrained")
    for ax, n in zip(fig.subplots(1, len(ns), squeeze=False)[0], ns, strict=True):
        scatter(ax, disk[(n, 0)]["points"]["glorot"], f"Glorot A, N = {n}")
    fig.suptitle("Eigenvalues of A with i.i.d. N(0, 1/N) entries (cf. L Fig. 2)", fontsize=9)
    ctx.save_figure(fig, "fig2_glorot.png")
    cols = [(f"Lemma 2, (0, 1), N = {n}", disk[(n, 0)]["points"]["lemma2"], (0.0, 1.0)) for n in ns]
    cols += [(f"Lemma 2, ({float(a):g}, {float(b):g}), N = {ns[-1]}", rings[(a, b, ns[-1], 0)]["points"],
              (float(a), float(b))) for a, b in dict.fromkeys((a, b) for a, b, _, _ in rings)]
    fig = Figure(figsize=(3 * len(cols), 3.2), layout="constrained")
    for ax, (title, pts, ring) in zip(fig.subplots(1, len(cols), squeeze=False)[0], cols, strict=True):
        scatter(ax, pts, title, ring)
    fig.suptitle("Diagonal A sampled with Lemma 2 (cf. L Fig. 3)", fontsize=9)
    ctx.save_figure(fig, "fig3_lemma2.png")
    fig = Figure(figsize=(5, 3.8), layout="constrained")
    ax = fig.subplots()
    r = np.linspace(0, 1.2, 400)
    ax.plot(r, np.minimum(r**2, 1), "k-", lw=2, label="uniform disk: r²")
    for i, n in enumerate(ns):
        for src, style in (("glorot", "-"), ("lemma2", ":")):
            mod = np.sort(np.hypot(*np.asarray(disk[(n, 0)]["points"][src]).T))
            ax.step(mod, np.arange(1, n + 1) / n, style, color=f"C{i}", where="post", lw=1,
                    label=f"{'Glorot' if src == 'glorot' else 'Lemma 2'}, N = {n}")
    ax.set_xlabel("r")
    ax.set_ylabel("fraction of eigenvalues with |λ| ≤ r")
    ax.legend(fontsize=6)
    ctx.save_figure(fig, "fig23_radial_cdf.png")


def _csvs(ctx: RunContext, disk: dict[tuple[int, int], Any], rings: dict[Any, Any]) -> None:
    rows = []
    for (n, d), v in disk.items():
        for src in ("glorot", "lemma2"):
            rows.append({"source": src, "r_min": 0, "r_max": 1, "N": n, "draw": d, **v[src]})
        rows.append({"source": "two_sample", "r_min": 0, "r_max": 1, "N": n, "draw": d,
                     **v["two_sample"]})
    for (a, b, n, d), v in rings.items():
        rows.append({"source": "lemma2", "r_min": str(a), "r_max": str(b), "N": n, "draw": d,
                     **v["lemma2"]})
    ctx.write_csv("statistics.csv", rows)
    pts = [{"source": src, "r_min": 0, "r_max": 1, "N": n, "re": x, "im": y}
           for (n, d), v in disk.items() if d == 0 for src in ("glorot", "lemma2")
           for x, y in v["points"][src]]
    pts += [{"source": "lemma2", "r_min": str(a), "r_max": str(b), "N": n, "re": x, "im": y}
            for (a, b, n, d), v in rings.items() if d == 0 for x, y in v["points"]]
    ctx.write_csv("spectra_draw0.csv", pts)


# ---- the run -----------------------------------------------------------------------------------
def run(ctx: RunContext) -> None:
    ns, draws, rings_ = [int(n) for n in ctx["N"]], int(ctx["draws"]), _rings(ctx)
    store = ctx.results("cells")
    disk: dict[tuple[int, int], Any] = {}
    rings: dict[tuple[Fraction, Fraction, int, int], Any] = {}
    with ctx.progress("spectra", len(ns) * draws * (1 + len(rings_))) as advance:
        for n in ns:
            for d in range(draws):
                key: list[Any] = ["disk", n, d]
                if key not in store:
                    store.put(key, disk_cell(ctx, n, d))
                disk[(n, d)] = store.get(key)
                advance()
                for a, b in rings_:
                    key = ["ring", str(a), str(b), n, d]
                    if key not in store:
                        store.put(key, ring_cell(ctx, a, b, n, d))
                    rings[(a, b, n, d)] = store.get(key)
                    advance()
    _csvs(ctx, disk, rings)
    _figures(ctx, disk, rings, ns)
    worst = max(v["glorot"]["trace_residual"] for v in disk.values())
    ctx.measure("trace_residual_max", worst)
    if not worst <= TRACE_RESIDUAL_MAX:  # the eigensolver's oracle (Σλ = tr A) failed
        raise InternalInconsistency(f"eigenvalues fail Σλ = tr A: residual {worst:.3g} N·u·‖A‖_F")
    _fig2(ctx, disk, ns, draws)
    _lemma2(ctx, "Fig. 3 (Lemma 2, (r_min, r_max) = (0, 1))",
            [{**v["lemma2"], "n": n} for (n, _), v in disk.items()], Fraction(0), Fraction(1), ns)
    for a, b in rings_:
        _lemma2(ctx, f"Lemma 2 ring ({a}, {b})",
                [{**v["lemma2"], "n": n} for (a2, b2, n, _), v in rings.items() if (a2, b2) == (a, b)],
                a, b, ns)
    _fig3_limit(ctx, disk, ns, draws)


EXPERIMENT = Experiment(
    name="L-fig23-spectrum",
    title="Spectrum of a Glorot-initialised dense A (Theorem 1, strong circular law) beside Lemma 2's "
          "diagonal initialisation on the disk and on rings",
    source="L §3.2.2, Theorem 1, Lemma 2, Fig. 2–3",
    settings=SETTINGS,
    run=run,
    choices=CHOICES,
)
