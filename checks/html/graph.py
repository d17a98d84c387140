"""A paper's dependency graph as an inline SVG string: claims as boxes coloured by verdict, edges
for ``uses``, ``corrects`` and readings of one printed statement.

The layout is networkx's: the claims are layered by ``nx.topological_generations`` (by the
generations of ``nx.condensation`` when ``uses``/``corrects`` contain a cycle) and placed by
``nx.multipartite_layout``, one column per layer, left to right. This module only scales those
coordinates to pixels and draws boxes, text, curves and arrows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["EDGE_KINDS", "GraphError", "GraphNode", "dependency_svg", "edges"]


@dataclass(frozen=True)
class GraphNode:
    """One claim in the graph: its box's text, verdict colour, link, tooltip and its relations."""

    id: str
    label: str  # short text in the box
    verdict: str | None  # "VERIFIED", "REFUTED", ...; None: not in this run (grey)
    href: str | None  # link target of the box (relative URL); None: no link
    tooltip: str  # text of the box's <title>, after the ID and verdict
    uses: tuple[str, ...] = ()
    corrects: str | None = None
    location: str = ""  # the printed statement the claim checks (provenance location)
    reading: bool = False  # the claim is one reading of its printed statement


class GraphError(ValueError):
    """The nodes given cannot form one graph (two nodes share an ID)."""


EDGE_KINDS = ("uses", "corrects", "reading")

_SVG_NS = "http://www.w3.org/2000/svg"
# Labels are claim IDs, drawn in a monospace face: 12 px monospace advances 0.6 em = 7.2 px per
# character, so a box sized from the character count fits its text in any monospace font.
_FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
_FONT_PX = 12
_CHAR_PX = 7.2
_PAD_X = 8  # text padding inside a box, each side
_BOX_H = 22
_ROW_GAP = 10  # vertical space between boxes of one column
_COL_GAP = 70  # horizontal space between the widest box of a column and the next column
_MARGIN = 16
_BULGE = 28  # how far a curve between boxes of one column swings out to the right
_PAIR_OFFSET = 5  # vertical separation of two edges joining the same pair of claims

# Default colours, so the SVG reads alone (a notebook, a saved file); the site's CSS overrides
# them through the classes ``node verdict-<v>``. Tuple: box fill, box stroke.
_VERDICT_COLOURS = {
    "verified": ("#d4edd4", "#2e7d32"),
    "corroborated": ("#e3f1d4", "#558b2f"),
    "refuted": ("#f8d3d3", "#c62828"),
    "inconclusive": ("#fff0c2", "#b28704"),
    "failed": ("#fbdcc4", "#d84315"),
    "error": ("#ead6f0", "#6a1b9a"),
    "skipped": ("#eeeeee", "#757575"),
}
_UNKNOWN_COLOURS = ("#e3e8f0", "#455a64")  # a verdict this module does not know
_NONE_COLOURS = ("#f7f7f7", "#b0b0b0")  # not in this run
_EDGE_STYLE = {  # stroke colour, dash pattern ("" for solid), arrow at the end
    "uses": ("#555555", "", True),
    "corrects": ("#c62828", "6 4", True),
    "reading": ("#6a6a9a", "2 3", False),
}
_EDGE_LEGEND = {
    "uses": "uses (used → user)",
    "corrects": "corrects (printed → correction)",
    "reading": "readings of one printed statement",
}


def edges(nodes: Sequence[GraphNode]) -> list[tuple[str, str, str]]:
    """The edges among ``nodes`` as ``(source, target, kind)``: ``uses`` (used → user),
    ``corrects`` (printed claim → its correction) and ``reading`` (two claims with the same
    non-empty ``location``, at least one of the two a reading, not already joined by another edge;
    listed in the order of ``nodes``). Edges to IDs not among ``nodes`` (another paper) are
    dropped. Raises ``GraphError`` when two nodes share an ID."""
    known = _check_unique(nodes)
    found: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str, str]] = set()

    def add(source: str, target: str, kind: str) -> None:
        if source in known and (source, target, kind) not in seen:
            seen.add((source, target, kind))
            found.append((source, target, kind))

    for node in nodes:
        for used in node.uses:
            add(used, node.id, "uses")
    for node in nodes:
        if node.corrects is not None:
            add(node.corrects, node.id, "corrects")
    joined = {frozenset((s, t)) for s, t, _ in found}
    by_location: dict[str, list[GraphNode]] = {}
    for node in nodes:
        if node.location:
            by_location.setdefault(node.location, []).append(node)
    for group in by_location.values():
        for i, first in enumerate(group):
            for second in group[i + 1:]:
                pair = frozenset((first.id, second.id))
                if (first.reading or second.reading) and pair not in joined:
                    joined.add(pair)
                    add(first.id, second.id, "reading")
    return found


def dependency_svg(nodes: Sequence[GraphNode]) -> Markup:
    """The dependency graph of ``nodes`` as an inline ``<svg>`` element (safe ``Markup``): one
    ``<g class="node verdict-…" id="node-ID" data-claim="ID">`` per node (a link when it has an
    ``href``), the edges of ``edges(nodes)`` as curves, and a legend of edge kinds and verdicts.
    Raises ``GraphError`` when two nodes share an ID."""
    graph_edges = edges(nodes)
    prefix = _prefix(nodes, graph_edges)
    widths = {n.id: _box_width(n.label) for n in nodes}
    centres = _centres(nodes, graph_edges, widths)
    graph_w = max((centres[n.id][0] + widths[n.id] / 2 for n in nodes), default=0.0)
    graph_h = max((centres[n.id][1] + _BOX_H / 2 for n in nodes), default=0.0)
    if not nodes:
        graph_w, graph_h = _MARGIN, _MARGIN + 12  # room for the line "No claims."
    legend_top = graph_h + _MARGIN + 8
    legend, legend_w, last_row = _legend(nodes, prefix, legend_top)
    # Curves between boxes of one column swing right of the column: leave room for them.
    width = max(graph_w + _BULGE + 12, legend_w) + _MARGIN
    height = last_row + 8 + _MARGIN
    parts = [
        f'<svg xmlns="{_SVG_NS}" class="dependency-graph" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="{_FONT}" font-size="{_FONT_PX}" '
        f'aria-label="Dependency graph of {len(nodes)} claims">',
        _defs(prefix),
        '<g class="edges">',
        *_edge_paths(graph_edges, centres, widths, prefix),
        "</g>",
        '<g class="nodes">',
        *(_node(n, centres[n.id], widths[n.id]) for n in nodes),
        "</g>",
    ]
    if not nodes:
        parts.append(f'<text x="{_MARGIN}" y="{_MARGIN + 4}" fill="#555555">No claims.</text>')
    parts += [legend, "</svg>"]
    return Markup("\n".join(parts))


def _check_unique(nodes: Sequence[GraphNode]) -> set[str]:
    known: set[str] = set()
    for node in nodes:
        if node.id in known:
            raise GraphError(f"two graph nodes share the ID {node.id!r}")
        known.add(node.id)
    return known


def _prefix(nodes: Sequence[GraphNode], graph_edges: list[tuple[str, str, str]]) -> str:
    # Marker IDs must not clash between two graphs on one page; a digest of the content keeps the
    # output reproducible (two identical graphs share identical markers, which is harmless).
    digest = hashlib.sha256(repr(([n.id for n in nodes], graph_edges)).encode()).hexdigest()
    return f"dg{digest[:10]}"


def _box_width(label: str) -> float:
    return max(40.0, len(label) * _CHAR_PX + 2 * _PAD_X)


def _layers(graph: nx.DiGraph) -> dict[int, list[str]]:
    """Column of every node: its topological generation, or (with a cycle) the generation of its
    strongly connected component, so the members of a cycle share a column."""
    import networkx as nx

    try:
        layer_of = {n: k for k, gen in enumerate(nx.topological_generations(graph)) for n in gen}
    except nx.NetworkXUnfeasible:
        dag = nx.condensation(graph)
        layer_of = {n: k for k, gen in enumerate(nx.topological_generations(dag))
                    for component in gen for n in dag.nodes[component]["members"]}
    layers: dict[int, list[str]] = {}
    for node in graph:  # the order of the nodes given, top to bottom in each column
        layers.setdefault(layer_of[node], []).append(node)
    return dict(sorted(layers.items()))


def _centres(nodes: Sequence[GraphNode], graph_edges: list[tuple[str, str, str]],
             widths: dict[str, float]) -> dict[str, tuple[float, float]]:
    """Pixel centre of every box: networkx's positions scaled so that one layer step is the widest
    box plus a gap and one step within a layer is a box height plus a gap."""
    if not nodes:
        return {}
    # Imported here: networkx takes ~0.4 s to import, which every recmem command would pay if
    # the report module imported this one at start-up.
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(n.id for n in nodes)
    graph.add_edges_from((s, t) for s, t, kind in graph_edges if kind != "reading")
    layers = _layers(graph)
    # A dict of lists, not a node attribute: networkx groups an attribute into sets, whose
    # iteration order would change from run to run.
    pos = nx.multipartite_layout(graph, subset_key=layers, align="vertical")
    xs = {n: float(p[0]) for n, p in pos.items()}
    ys = {n: float(p[1]) for n, p in pos.items()}
    x_step = _smallest_step([sorted({xs[n] for n in graph})])
    y_step = _smallest_step([sorted(ys[n] for n in members) for members in layers.values()])
    col_pitch = max(widths.values()) + _COL_GAP
    row_pitch = _BOX_H + _ROW_GAP
    x0, y0 = min(xs.values()), min(ys.values())
    left = _MARGIN + max(widths.values()) / 2
    top = _MARGIN + _BOX_H / 2
    # networkx's y grows upwards; the first node of a layer (smallest y) goes to the top.
    return {n: (left + (xs[n] - x0) / x_step * col_pitch, top + (ys[n] - y0) / y_step * row_pitch)
            for n in graph}


def _smallest_step(runs: list[list[float]]) -> float:
    steps = [b - a for run in runs for a, b in pairwise(run) if b - a > 1e-12]
    return min(steps, default=1.0)


def _defs(prefix: str) -> str:
    markers = []
    for kind, (colour, _, arrow) in _EDGE_STYLE.items():
        if arrow:
            markers.append(
                f'<marker id="{prefix}-arrow-{kind}" viewBox="0 0 10 10" refX="10" refY="5" '
                f'markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto">'
                f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
    return "<defs>" + "".join(markers) + "</defs>"


def _edge_paths(graph_edges: list[tuple[str, str, str]], centres: dict[str, tuple[float, float]],
                widths: dict[str, float], prefix: str) -> list[str]:
    pairs: dict[frozenset[str], int] = {}
    for s, t, _ in graph_edges:
        pairs[frozenset((s, t))] = pairs.get(frozenset((s, t)), 0) + 1
    used: dict[frozenset[str], int] = {}
    paths = []
    for source, target, kind in graph_edges:
        pair = frozenset((source, target))
        k = used.get(pair, 0)
        used[pair] = k + 1
        shift = (k - (pairs[pair] - 1) / 2) * _PAIR_OFFSET
        if kind == "reading" and centres[source][0] > centres[target][0]:
            source, target = target, source  # undirected: draw it left to right
        d = _curve(centres[source], widths[source], centres[target], widths[target], shift,
                   loop=source == target)
        colour, dash, arrow = _EDGE_STYLE[kind]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        marker = f' marker-end="url(#{prefix}-arrow-{kind})"' if arrow else ""
        paths.append(
            f'<path class="edge edge-{kind}" data-source="{escape(source)}" '
            f'data-target="{escape(target)}" d="{d}" fill="none" stroke="{colour}" '
            f'stroke-width="1.3"{dash_attr}{marker}>'
            f"<title>{escape(source)} → {escape(target)} ({kind})</title></path>")
    return paths


def _curve(a: tuple[float, float], wa: float, b: tuple[float, float], wb: float, shift: float,
           loop: bool) -> str:
    """A cubic curve from box ``a`` to box ``b``: out of a's right side into b's left side when b
    lies right of a, the mirror image when left, and a bulge right of the column when both share
    it (a loop for a self-reference)."""
    (xa, ya), (xb, yb) = a, b
    ya, yb = ya + shift, yb + shift
    if abs(xa - xb) < 1e-6:
        x1, x2 = xa + wa / 2, xb + wb / 2
        if loop:
            ya, yb = ya - 5, yb + 5
        bulge = max(x1, x2) + _BULGE
        return f"M{x1:.1f},{ya:.1f} C{bulge:.1f},{ya:.1f} {bulge:.1f},{yb:.1f} {x2:.1f},{yb:.1f}"
    direction = 1 if xb > xa else -1
    x1, x2 = xa + direction * wa / 2, xb - direction * wb / 2
    dx = direction * max(30.0, abs(x2 - x1) / 2)
    return (f"M{x1:.1f},{ya:.1f} C{x1 + dx:.1f},{ya:.1f} {x2 - dx:.1f},{yb:.1f} "
            f"{x2:.1f},{yb:.1f}")


def _verdict_class(verdict: str | None) -> str:
    if verdict is None:
        return "none"
    return "".join(c if c.isascii() and (c.isalnum() or c == "-") else "-" for c in verdict.lower())


def _colours(verdict: str | None) -> tuple[str, str]:
    if verdict is None:
        return _NONE_COLOURS
    return _VERDICT_COLOURS.get(_verdict_class(verdict), _UNKNOWN_COLOURS)


def _node(node: GraphNode, centre: tuple[float, float], width: float) -> str:
    x, y = centre
    fill, stroke = _colours(node.verdict)
    status = node.verdict if node.verdict is not None else "not in this run"
    title = f"{node.id} — {status}" + (f"\n{node.tooltip}" if node.tooltip else "")
    dash = ' stroke-dasharray="3 2"' if node.verdict is None else ""
    text_fill = "#777777" if node.verdict is None else "#1b1b1b"
    box = (f'<rect x="{x - width / 2:.1f}" y="{y - _BOX_H / 2:.1f}" width="{width:.1f}" '
           f'height="{_BOX_H}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="1.2"{dash}/>'
           f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" fill="{text_fill}">'
           f"{escape(node.label)}</text>")
    if node.href is not None:
        box = f'<a href="{escape(node.href)}">{box}</a>'
    return (f'<g class="node verdict-{escape(_verdict_class(node.verdict))}" '
            f'id="node-{escape(node.id)}" data-claim="{escape(node.id)}">'
            f"<title>{escape(title)}</title>{box}</g>")


def _legend(nodes: Sequence[GraphNode], prefix: str, top: float) -> tuple[str, float, float]:
    """The legend below the graph: the edge kinds, then the verdicts present (swatches carry the
    classes ``legend-swatch verdict-<v>``). Returns the markup, its right end and the middle of its
    last row."""
    row_h = 20
    x = float(_MARGIN)
    items = ['<g class="legend">']
    for kind, label in _EDGE_LEGEND.items():
        colour, dash, arrow = _EDGE_STYLE[kind]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        marker = f' marker-end="url(#{prefix}-arrow-{kind})"' if arrow else ""
        items.append(f'<path class="edge edge-{kind}" d="M{x:.1f},{top:.1f} h30" fill="none" '
                     f'stroke="{colour}" stroke-width="1.3"{dash_attr}{marker}/>'
                     f'<text x="{x + 36:.1f}" y="{top + 4:.1f}" fill="#333333">{escape(label)}</text>')
        x += 36 + len(label) * _CHAR_PX + 20
    right = x
    x, y = float(_MARGIN), top + row_h
    verdicts: list[str | None] = []
    for n in nodes:
        if n.verdict not in verdicts:
            verdicts.append(n.verdict)
    order = list(_VERDICT_COLOURS)
    verdicts.sort(key=lambda v: (v is None, order.index(_verdict_class(v))
                                 if _verdict_class(v) in order else len(order), v or ""))
    for verdict in verdicts:
        fill, stroke = _colours(verdict)
        label = verdict if verdict is not None else "not in this run"
        items.append(f'<g class="legend-swatch verdict-{escape(_verdict_class(verdict))}">'
                     f'<rect x="{x:.1f}" y="{y - 7:.1f}" width="14" height="14" rx="3" '
                     f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"/></g>'
                     f'<text x="{x + 20:.1f}" y="{y + 4:.1f}" fill="#333333">{escape(label)}</text>')
        x += 20 + len(label) * _CHAR_PX + 20
    right = max(right, x)
    items.append("</g>")
    return "\n".join(items), right, y if verdicts else top
