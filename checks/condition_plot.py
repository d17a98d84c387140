"""The plot of ``recmem condition --plot``: log₁₀ of the quantity against N, drawn from stored
points only (so it can be redrawn at any time from a sweep's store).

One colour per series (a family at one requested precision, and one L when the sweep pairs every
N with several L): the certified bracket as error bars around each point (one point per seed),
a solid line through the median over seeds, numpy's float64 value as a dashed line, and each
overlay bound that applies as a dotted line, marked ▼ for an upper bound and ▲ for a lower one
(a violated bound is marked with a red ×). Values
that are infinite (κ = ∞ of a rank-deficient V) or missing are left out and counted in the
title. matplotlib is imported here only.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# the y axis (log₁₀) spans at least this much
MIN_DECADES = 1.0


def _finite(x: Any) -> float | None:
    if x is None or isinstance(x, bool):
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def on_value(overlay: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether an overlay bounds the row's ``value`` (drawn on the κ axis), not another
    quantity of the row that has its own bracket (``quantity`` ``sigma_min`` with
    ``sigma_min_lower`` in the row)."""
    q = overlay.get("quantity")
    return not (q and f"{q}_lower" in row)


def _series_label(family: str, precision: int | None, cols: int | None) -> str:
    bits = "auto" if precision is None else f"{precision} bits"
    return f"{family} ({bits}" + ("" if cols is None else f", L = {cols}") + ")"


def _medians(points: Iterable[tuple[int, float]]) -> tuple[list[int], list[float]]:
    by_n: dict[int, list[float]] = defaultdict(list)
    for n, y in points:
        by_n[n].append(y)
    xs = sorted(by_n)
    return xs, [statistics.median(by_n[n]) for n in xs]


def write_plot(records: list[dict[str, Any]], path: Path, symbol: str,
               incomplete: tuple[int, int] | None = None) -> None:
    """Draw ``records`` (exported points: ``rows``, ``cols``, ``family``, ``precision_requested``,
    ``log10_value``/``_lower``/``_upper``, ``float64_log10``, ``overlays``) to ``path``, in the
    format of its suffix (PNG by default), written atomically. ``incomplete`` = (done, total)
    marks the title of an interrupted sweep."""
    from matplotlib.figure import Figure

    square = all(r.get("rows") == r.get("cols") for r in records)
    groups: dict[tuple[str, int | None, int | None], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[(r["family"], r.get("precision_requested"),
                None if square else r.get("cols"))].append(r)
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.subplots()
    colours = [f"C{i % 10}" for i in range(len(groups))]
    left_out = 0
    for colour, (group, rows) in zip(colours, sorted(groups.items(), key=lambda kv: (
            kv[0][0], -1 if kv[0][1] is None else kv[0][1], kv[0][2] or 0)), strict=True):
        label = _series_label(*group)
        xs, ys, lo, hi = [], [], [], []
        for r in rows:
            y = _finite(r.get("log10_value"))
            if y is None:
                left_out += 1
                continue
            xs.append(r["rows"])
            ys.append(y)
            low, up = _finite(r.get("log10_lower")), _finite(r.get("log10_upper"))
            lo.append(max(0.0, y - low) if low is not None else 0.0)
            hi.append(max(0.0, up - y) if up is not None else 0.0)
        if xs:
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, color=colour, capsize=2,
                        elinewidth=1)
            mx, my = _medians(zip(xs, ys, strict=True))
            ax.plot(mx, my, "-", color=colour, lw=1.5, label=f"{label}: certified {symbol}")
        f64 = [(r["rows"], y) for r in rows if (y := _finite(r.get("float64_log10"))) is not None]
        if f64:
            fx, fy = _medians(f64)
            ax.plot(fx, fy, "--", color=colour, lw=1, label=f"{label}: float64 (numpy)")
        bounds: dict[tuple[str, str], list[tuple[int, float]]] = defaultdict(list)
        broken: list[tuple[int, float]] = []
        for r in rows:
            for o in r.get("overlays") or []:
                y = _finite(o.get("log10_bound"))
                if y is None or not on_value(o, r):
                    continue
                bounds[(str(o.get("name")), str(o.get("side")))].append((r["rows"], y))
                if o.get("holds") is False:
                    broken.append((r["rows"], y))
        for (name, side), pts in sorted(bounds.items()):
            bx, by = _medians(pts)
            # ▼ an upper bound (the value lies below it), ▲ a lower bound
            ax.plot(bx, by, ":", color=colour, lw=1.2, marker="v" if side == "upper" else "^",
                    ms=3, label=f"{label}: {name} ({side} bound)")
        if broken:
            ax.plot([p[0] for p in broken], [p[1] for p in broken], "x", color="red", ms=9,
                    mew=2, label="VIOLATED bound")
    low, high = ax.get_ylim()
    if high - low < MIN_DECADES:  # κ ≈ 1 everywhere: show a decade, not the brackets' 1e-5
        mid = (low + high) / 2
        ax.set_ylim(mid - MIN_DECADES / 2, mid + MIN_DECADES / 2)
    ax.set_xlabel("N (rows of V)" + (" = L" if square else ""))
    ax.set_ylabel(f"log₁₀ {symbol}")
    ax.grid(True, alpha=0.3)
    if groups:
        ax.legend(fontsize=7)
    title = f"recmem condition: {symbol} of the Vandermonde matrix V"
    if left_out:
        title += f" ({left_out} infinite or missing value(s) not drawn)"
    if incomplete is not None:
        title += f" — {incomplete[0]} of {incomplete[1]} points"
    ax.set_title(title, fontsize=9)
    _save(fig, path)


def _save(fig: Any, path: Path) -> None:
    """Save through a temporary file and a rename (a reader never sees half a picture)."""
    from recmem.checks.outputs import write_figure

    write_figure(fig, path)


__all__ = ["on_value", "write_plot"]
