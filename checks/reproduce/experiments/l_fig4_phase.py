"""L-fig4-phase: the impulse response of the diagonal recurrence under full and reduced eigenvalue
phase (paper L §3.4 "Reducing Eigenvalue Phase at Initialization", Fig. 4).

Protocol (Fig. 4's caption): λ_j = exp(−ν + iθ_j) with ν = 0.00005 and θ_j uniform on [0, 2π] or
on [0, π/50] (Lemma 2's sampler on the circle |λ| = e^{−ν} with the phase range of §3.4, through
:mod:`recmem.numerics.lru_spectra`); the state of x_k = Λx_{k−1} + Bu_k, x_0 = 0, under the impulse
u = (1, 0, …, 0) of length 16k = 16384 with Bu₁ = 1 in every component, so x_k = λ^{k−1}
(recmem.numerics.linear_recurrence, checked against the closed form). Fig. 4 plots three
components; recmem draws more (``components``) for the statistics, the same u-draws for every
phase range (θ on [0, π/50] is θ on [0, 2π] scaled by 1/100, component by component).

Measured: the number of oscillations of each component, periods = (sign changes of Re x_k over
k = 1 … L)/2, at L = 16384 and at the caption's L = 1024, beside its exact value
⌊(L−1)θ_eff/π + ½⌋ (θ_eff = |arg λ|) and its law under each range; also §3.4's PathX range
[0, π/10]. The caption's L = 1024 sentence lost its subject in the stored text (the formula
before "produces kernels…"); both readings are reported.
"""

from __future__ import annotations

import contextlib
import math
from fractions import Fraction
from typing import Any

import numpy as np

from recmem.checks.reproduce.experiment import Experiment, RunContext
from recmem.numerics import lru_spectra as ls
from recmem.numerics.certified_oracles import InternalInconsistency

# "a few" / "a large number of" oscillations (the paper gives no number): periods per component
FEW, MANY = 10, 100
ALPHA = 0.01  # family-wise level of the phase-law z-tests (Bonferroni over the ranges)
# the recurrence against the closed form λ^{k−1}: relative error ≲ c·L·u (both routes round θ)
RESIDUAL_PER_STEP = 64 * np.finfo(np.float64).eps

_COMMON: dict[str, Any] = {"length": 16384, "short_length": 1024, "nu": "0.00005", "plotted": 3,
                           "ranges": {"full": "1", "small": "1/100", "pathx": "1/20"}}
SETTINGS: dict[str, dict[str, Any]] = {
    "ci": {**_COMMON, "components": 128},
    "paper": {**_COMMON, "components": 4096},
}
CHOICES = {
    "ranges": "θ uniform on 0…2π·turns: full = 0…2π and small = 0…π/50 (Fig. 4), pathx = 0…π/10 "
              "(§3.4 and Table 8's PathX range)",
    "input projection": "Bu₁ = 1 in every component (Fig. 4 does not print B; a complex B_j shifts a "
                        "component's phase and changes its sign-change count by at most one)",
    "oscillations": "periods = sign changes of Re x_k over k = 1 … L, halved (Fig. 4 plots the real "
                    "trace; Re λ^k = |λ|^k cos(kθ) changes sign ⌊(L−1)θ_eff/π + ½⌋ times)",
    "few / many": f"'a few' = at most {FEW} periods, 'a large number' = at least {MANY} periods per "
                  "component (the paper gives no number)",
    "components": "Fig. 4 plots 3 components; the statistics use `components` draws with the same "
                  "u-draws in every range",
    "ν": "e^{−ν} rounded to float64 as Lemma 2's radius r_min = r_max (ν kept to ~1e-16 relative)",
    "caption reading": "the stored caption reads 'For small sequences, such as L = 1024 …, produces "
                       "kernels with acceptable overall number of oscillations: information about u_0 "
                       "is recalled only a few times … Instead, for high (L), the range of the "
                       "imaginary part at initialization has to be smaller': the subject (a phase "
                       "range) is lost; reading A: θ on 0…2π, reading B: θ on 0…π/50",
}
CHOICE_TEXT = {"full": "0…2π", "small": "0…π/50", "pathx": "0…π/10"}  # the ranges in words


def _turns(ctx: RunContext) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in ctx["ranges"].items()}


def range_cell(ctx: RunContext, turns: Fraction) -> dict[str, Any]:
    """One phase range: the eigenvalues, sign changes at both lengths, the oracle residuals."""
    length, short = int(ctx["length"]), int(ctx["short_length"])
    seed = int(ctx.generator("fig4-phases").integers(0, 2**62))  # one draw for every range
    lam = ls.phase_nodes(int(ctx["components"]), float(ctx["nu"]), turns, seed)
    res = ls.impulse_sign_changes(lam, [short, length], keep=0, device=ctx.device)
    return {"theta": ls.effective_phase(lam).tolist(),
            "counts": {str(n): c.tolist() for n, c in res.counts.items()},
            "predicted": {str(n): ls.predicted_sign_changes(lam, n).tolist() for n in (short, length)},
            "residual": res.max_residual}


def _periods(cell: dict[str, Any], n: int) -> np.ndarray:
    return np.asarray(cell["counts"][str(n)], dtype=float) / 2


def _z(cell: dict[str, Any], turns: Fraction, n: int) -> tuple[float, float, float]:
    """(mean sign changes, its expectation under θ uniform on [0, 2π·turns], z-score)."""
    c = np.asarray(cell["counts"][str(n)], dtype=float)
    expected = ls.expected_sign_changes(2 * math.pi * float(turns), n)
    se = float(c.std(ddof=1)) / math.sqrt(len(c))
    return float(c.mean()), expected, (float(c.mean()) - expected) / se if se > 0 else math.inf


# ---- findings ----------------------------------------------------------------------------------
def _findings(ctx: RunContext, cells: dict[str, dict[str, Any]], turns: dict[str, Fraction]) -> None:
    from scipy import stats

    length, short = int(ctx["length"]), int(ctx["short_length"])
    full, small = _periods(cells["full"], length), _periods(cells["small"], length)
    many = float(np.mean(full >= MANY))
    agreement = "agrees" if many > 0.5 else "disagrees"
    ctx.finding(
        "Fig. 4 (upper: θ on 0…2π)", f"periods of Re x_k per component over L = {length}",
        {"median": float(np.median(full)), "5%–95%": np.percentile(full, [5, 95]).round(1).tolist(),
         f"fraction with ≥ {MANY} periods": round(many, 3)},
        "initializing uniformly θ∼U(0, 2π) implies that most state entries will exhibit an overall "
        "large number of oscillations", agreement,
        f"criterion: more than half of the components complete at least {MANY} periods → agrees, "
        f"else disagrees ({many:.1%}) → {agreement}.")
    ratio = float(np.median(full) / max(float(np.median(small)), 0.5))
    agreement = "agrees" if np.median(small) < np.median(full) else "disagrees"
    ctx.finding(
        "Fig. 4 (lower: θ on 0…π/50)", f"periods of Re x_k per component over L = {length}",
        {"median": float(np.median(small)), "5%–95%": np.percentile(small, [5, 95]).round(1).tolist(),
         "median ratio full / small": round(ratio, 1)},
        "a small phase at initialization gives fewer oscillations (more global features)", agreement,
        f"criterion: the median number of periods is smaller than under θ on 0…2π "
        f"({np.median(small):g} vs {np.median(full):g}) → agrees, else disagrees → {agreement}.")
    zs = {k: _z(cells[k], t, length) for k, t in turns.items()}
    z_crit = float(stats.norm.isf(ALPHA / (2 * len(zs))))
    agreement = "agrees" if all(abs(z) <= z_crit for _, _, z in zs.values()) else "disagrees"
    ctx.finding(
        "Fig. 4 (phase ranges)", f"mean sign changes per component over L = {length} against their "
        "expectation under the captioned range",
        {k: {"mean": round(m, 2), "expected": round(e, 2), "z": round(z, 2)} for k, (m, e, z) in zs.items()},
        "θ_j sampled uniformly in 0…2π or 0…π/50 (and 0…π/10, §3.4)", agreement,
        f"criterion: every |z| ≤ {z_crit:.2f} (two-sided, family-wise level {ALPHA}) → agrees, else "
        f"disagrees → {agreement}.")
    for reading, key in (("A", "full"), ("B", "small")):
        p = _periods(cells[key], short)
        agreement = "agrees" if np.median(p) <= FEW else "disagrees"
        ctx.finding(
            f"Fig. 4 caption, L = {short} (reading {reading}: θ on {CHOICE_TEXT[key]})",
            f"periods of Re x_k per component over L = {short}",
            {"median": float(np.median(p)), "5%–95%": np.percentile(p, [5, 95]).round(1).tolist()},
            "produces kernels with acceptable overall number of oscillations: information about u_0 "
            "is recalled only a few times", agreement,
            f"criterion: the median component completes at most {FEW} periods → agrees, else "
            f"disagrees ({np.median(p):g}) → {agreement}.")
    growth = {k: float(_periods(c, length).mean() / max(_periods(c, short).mean(), 1e-300))
              for k, c in cells.items()}
    target = (length - 1) / (short - 1)
    agreement = "agrees" if all(abs(g / target - 1) <= 0.1 for g in growth.values()) else "disagrees"
    pathx = _periods(cells["pathx"], length)
    ctx.finding(
        f"Fig. 4 caption, high L (L = {length} vs {short})",
        "mean periods at L over mean periods at the short L, per range (the factor by which the phase "
        "range must shrink for the same count)",
        {**{k: round(g, 2) for k, g in growth.items()}, "(L−1)/(L_short−1)": round(target, 2),
         f"median periods, θ on 0…π/10 at L = {length}": float(np.median(pathx))},
        "for high L, the range of the imaginary part at initialization has to be smaller to obtain a "
        "similar effect", agreement,
        f"criterion: the count grows with L like (L−1)/(L_short−1) = {target:.2f} within 10 % in every "
        f"range → agrees, else disagrees; so the range must shrink by that factor: θ on 0…2π at "
        f"L = {short} corresponds to 0…π/{target / 2:.0f} at L = {length} (§3.4 uses π/10 for PathX) "
        f"→ {agreement}.")


# ---- files -------------------------------------------------------------------------------------
def _envelope(ax: Any, trace: np.ndarray, colour: str, label: str, pixels: int = 2000) -> None:
    """Plot a trace of up to 16k steps by min–max decimation: per bin of about one pixel, its
    smallest and largest value in time order, joined by one line. The same picture as every point
    joined, drawn in a fraction of the time (a full-phase trace alternates sign nearly every
    step)."""
    step = max(1, len(trace) // pixels)
    m = len(trace) // step * step
    bins = trace[:m].reshape(-1, step)
    i_lo, i_hi = bins.argmin(axis=1), bins.argmax(axis=1)
    first, last = np.minimum(i_lo, i_hi), np.maximum(i_lo, i_hi)
    start = np.arange(0, m, step)
    k = np.stack([start + first, start + last], axis=1).ravel()
    ax.plot(k + 1, trace[k], lw=0.6, color=colour, label=label)


def _figures(ctx: RunContext, cells: dict[str, dict[str, Any]], traces: dict[str, np.ndarray]) -> None:
    from matplotlib.figure import Figure

    length, short = int(ctx["length"]), int(ctx["short_length"])
    fig = Figure(figsize=(11, 6), layout="constrained")
    axes = fig.subplots(2, 2)
    for row, key in enumerate(("full", "small")):
        for col, n in enumerate((length, short)):
            ax = axes[row][col]
            for j in range(traces[key].shape[1]):
                _envelope(ax, traces[key][:n, j], f"C{j}", f"θ = {cells[key]['theta'][j]:.4g}")
            ax.set_title(f"θ on {CHOICE_TEXT[key]}, L = {n}", fontsize=9)
            ax.set_xlabel("k")
            ax.set_ylabel("Re x_k")
            ax.legend(fontsize=6, loc="upper right")
    fig.suptitle(f"Impulse response, ν = {ctx['nu']} (cf. L Fig. 4)", fontsize=10)
    ctx.save_figure(fig, "fig4_impulse.png")
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.subplots()
    bins = np.logspace(-1, math.log10(length / 2 + 1), 40).tolist()
    for i, key in enumerate(cells):
        for n, style in ((length, "-"), (short, ":")):
            ax.hist(np.maximum(_periods(cells[key], n), 0.1), bins=bins, histtype="step", ls=style,
                    color=f"C{i}", label=f"θ on {CHOICE_TEXT.get(key, key)}, L = {n}")
    for x in (FEW, MANY):
        ax.axvline(x, color="k", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("periods of Re x_k (0 shown at 0.1)")
    ax.set_ylabel("components")
    ax.legend(fontsize=6)
    ctx.save_figure(fig, "fig4_periods.png")


def _csvs(ctx: RunContext, cells: dict[str, dict[str, Any]], traces: dict[str, np.ndarray]) -> None:
    rows = [{"range": key, "component": j, "theta_eff": c["theta"][j], "L": int(n),
             "sign_changes": c["counts"][n][j], "predicted": c["predicted"][n][j]}
            for key, c in cells.items() for n in c["counts"] for j in range(len(c["theta"]))]
    ctx.write_csv("fig4_components.csv", rows)
    t = [{"k": k + 1, "range": key, **{f"re_x{j + 1}": float(tr[k, j]) for j in range(tr.shape[1])}}
         for key, tr in traces.items() for k in range(tr.shape[0])]
    ctx.write_csv("fig4_traces.csv", t)


# ---- the run -----------------------------------------------------------------------------------
def run(ctx: RunContext) -> None:
    from recmem.numerics.training import one_cpu_thread

    turns = _turns(ctx)
    length = int(ctx["length"])
    store = ctx.results("ranges")
    cells: dict[str, dict[str, Any]] = {}
    with one_cpu_thread() if ctx.device == "cpu" else contextlib.nullcontext(), \
            ctx.progress("impulse responses", len(turns)) as advance:
        for key, t in turns.items():
            if key not in store:
                store.put(key, range_cell(ctx, t))
            cells[key] = store.get(key)
            advance()
        plotted = int(ctx["plotted"])
        seed = int(ctx.generator("fig4-phases").integers(0, 2**62))
        traces = {key: ls.impulse_sign_changes(
            ls.phase_nodes(plotted, float(ctx["nu"]), turns[key], seed), [length], keep=plotted,
            device=ctx.device).traces for key in ("full", "small")}
    bound = RESIDUAL_PER_STEP * length
    for key, c in cells.items():
        if not c["residual"] <= bound:
            raise InternalInconsistency(f"impulse response ({key}) off its closed form by "
                                        f"{c['residual']:.3g} > {bound:.3g}")
        for n in c["counts"]:
            if c["counts"][n] != c["predicted"][n]:
                bad = sum(a != b for a, b in zip(c["counts"][n], c["predicted"][n], strict=True))
                raise InternalInconsistency(f"sign changes ({key}, L = {n}) differ from "
                                            f"⌊(L−1)θ_eff/π + ½⌋ in {bad} components")
    ctx.measure("closed_form_residual_max", max(c["residual"] for c in cells.values()))
    _csvs(ctx, cells, traces)
    _figures(ctx, cells, traces)
    _findings(ctx, cells, turns)


EXPERIMENT = Experiment(
    name="L-fig4-phase",
    title="Impulse response of the diagonal recurrence with full or reduced eigenvalue phase: "
          "oscillations over 16k steps",
    source="L §3.4, Fig. 4",
    settings=SETTINGS,
    run=run,
    choices=CHOICES,
)
