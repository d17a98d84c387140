"""The per-paper dependency graph of the HTML site (``recmem.checks.html.graph``): its edges, its
SVG (well-formed, escaped, every node once, no overlapping boxes for any installed paper) and its
layout (networkx's, with a fallback for cycles)."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

import recmem.checks as rc
from recmem.checks.html.graph import GraphError, GraphNode, dependency_svg, edges
from recmem.checks.plugins import paper_keys

SVG = "{http://www.w3.org/2000/svg}"


def node(id: str, verdict: str | None = "VERIFIED", **kw: object) -> GraphNode:
    """A graph node with a link to its claim page unless told otherwise."""
    kw.setdefault("href", f"claims/{id}.html")
    return GraphNode(id=id, label=id, verdict=verdict, tooltip=f"summary of {id}", **kw)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def node_groups(root: ET.Element) -> dict[str, ET.Element]:
    groups = [g for g in root.iter(f"{SVG}g") if "node" in g.get("class", "").split()]
    ids = [g.get("data-claim") for g in groups]
    assert len(ids) == len(set(ids)), "a node is drawn twice"
    return {str(i): g for i, g in zip(ids, groups, strict=True)}


def boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """x, y, width, height of every node's box."""
    out = {}
    for claim, g in node_groups(root).items():
        rect = next(g.iter(f"{SVG}rect"))
        x, y, w, h = (float(rect.get(k, "nan")) for k in ("x", "y", "width", "height"))
        out[claim] = (x, y, w, h)
    return out


def assert_no_overlap(root: ET.Element) -> None:
    for (a, (xa, ya, wa, ha)), (b, (xb, yb, wb, hb)) in itertools.combinations(boxes(root).items(), 2):
        apart = xa + wa <= xb or xb + wb <= xa or ya + ha <= yb or yb + hb <= ya
        assert apart, f"boxes of {a} and {b} overlap"


def claim_nodes(paper: str) -> list[GraphNode]:
    return [GraphNode(id=c.id, label=c.id, verdict="VERIFIED", href=f"claims/{c.id}.html",
                      tooltip=c.id, uses=tuple(c.uses), corrects=c.corrects,
                      location=c.provenance.location, reading=c.reading is not None)
            for c in rc.list_claims(paper=paper)]


SMALL = [
    node("A", location="§1, eq. (1)"),
    node("B", uses=("A", "X.other-paper"), location="§2"),
    node("B.corrected", uses=("A",), corrects="B", location="§2"),
    node("B.read", reading=True, location="§2"),
    node("C", uses=("B.corrected", "B.corrected"), location="§1, eq. (1)"),
    node("D", corrects="X.elsewhere", location="§3"),
    node("E", location="§3"),  # same statement as D, but neither is a reading: no edge
]


def test_edges_of_a_small_set() -> None:
    assert edges(SMALL) == [
        ("A", "B", "uses"), ("A", "B.corrected", "uses"), ("B.corrected", "C", "uses"),
        ("B", "B.corrected", "corrects"),
        # B–B.corrected are joined already; A and C share a location but neither is a reading
        ("B", "B.read", "reading"), ("B.corrected", "B.read", "reading"),
    ]


def test_every_node_once_with_its_link_class_and_edges() -> None:
    nodes = [*SMALL, node("F", verdict=None, href=None), node("G", verdict="REFUTED")]
    root = parse(dependency_svg(nodes))
    groups = node_groups(root)
    assert list(groups) == [n.id for n in nodes]
    for n in nodes:
        g = groups[n.id]
        assert g.get("id") == f"node-{n.id}"
        links = list(g.iter(f"{SVG}a"))
        assert [a.get("href") for a in links] == ([n.href] if n.href else [])
        expected = "none" if n.verdict is None else n.verdict.lower()
        assert g.get("class") == f"node verdict-{expected}"
        assert next(g.iter(f"{SVG}text")).text == n.label
    drawn = {(p.get("data-source"), p.get("data-target"), p.get("class"))
             for p in root.iter(f"{SVG}path") if p.get("data-source")}
    # a reading edge may be drawn right to left, since it has no direction
    drawn_pairs = {(frozenset((s, t)), c) for s, t, c in drawn}
    assert drawn_pairs == {(frozenset((s, t)), f"edge edge-{k}") for s, t, k in edges(nodes)}
    assert not any("X." in str(s) for s, _, _ in drawn)


def test_markers_resolve_inside_their_svg_and_differ_between_graphs() -> None:
    first, second = str(dependency_svg(SMALL)), str(dependency_svg(SMALL[:3]))
    ids = []
    for svg in (first, second):
        root = parse(svg)
        markers = {m.get("id") for m in root.iter(f"{SVG}marker")}
        refs = set(re.findall(r'url\(#([^)]+)\)', svg))
        assert refs and refs <= markers
        ids.append(markers)
    assert not ids[0] & ids[1]
    assert dependency_svg(SMALL) == first  # reproducible: the site builds the same bytes twice


def test_everything_is_escaped() -> None:
    evil = '<script>alert("x")</script> & \'q\''
    nodes = [GraphNode(id='a&"<b>', label=evil, verdict="VERIFIED", href='x.html?a=1&b="2"',
                       tooltip=evil, location="§1"),
             GraphNode(id="c", label="c", verdict="<img>", href=None, tooltip="", uses=('a&"<b>',),
                       location="§1", reading=True)]
    svg = str(dependency_svg(nodes))
    assert "<script" not in svg and "<img" not in svg and "<b>" not in svg
    root = parse(svg)
    g = node_groups(root)['a&"<b>']
    assert g.get("id") == 'node-a&"<b>'
    assert next(g.iter(f"{SVG}a")).get("href") == 'x.html?a=1&b="2"'
    assert next(g.iter(f"{SVG}text")).text == evil
    assert evil in str(next(g.iter(f"{SVG}title")).text)


def test_svg_is_standalone_and_sized() -> None:
    root = parse(dependency_svg(SMALL))
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {width:.0f} {height:.0f}"
    for x, y, w, h in boxes(root).values():
        assert min(x, y) >= 0 and x + w <= width and y + h <= height
    legend = [t.text for t in root.iter(f"{SVG}text")]
    assert {"uses (used → user)", "corrects (printed → correction)", "VERIFIED"} <= set(legend)
    assert parse(dependency_svg([])).get("viewBox")  # no claims: still a valid picture


@pytest.mark.parametrize("paper", paper_keys())
def test_no_boxes_overlap_for_installed_papers(paper: str) -> None:
    nodes = claim_nodes(paper)
    root = parse(dependency_svg(nodes))
    assert list(node_groups(root)) == [n.id for n in nodes]
    assert_no_overlap(root)
    for n, (_, _, w, _) in zip(nodes, boxes(root).values(), strict=True):
        assert w >= 7 * len(n.label), f"the box of {n.id} is narrower than its label"


def test_uses_point_left_to_right() -> None:
    root = parse(dependency_svg(SMALL))
    x = {k: b[0] for k, b in boxes(root).items()}
    for source, target, kind in edges(SMALL):
        if kind != "reading":
            assert x[source] < x[target], (source, target)


def test_cycles_fall_back_to_the_condensation(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = nx.condensation

    def spy(g: nx.DiGraph, *a: object, **kw: object) -> nx.DiGraph:
        calls.append(sorted(g))
        return real(g, *a, **kw)

    monkeypatch.setattr(nx, "condensation", spy)
    dependency_svg(SMALL)
    assert calls == []  # a DAG is layered directly
    cyclic = [node("A", uses=("B",)), node("B", uses=("A",)), node("C", uses=("A",)),
              node("S", uses=("S",)), node("T", corrects="C", uses=("T",))]
    root = parse(dependency_svg(cyclic))
    assert calls == [["A", "B", "C", "S", "T"]]
    assert list(node_groups(root)) == ["A", "B", "C", "S", "T"]
    assert_no_overlap(root)
    x = {k: b[0] for k, b in boxes(root).items()}
    assert x["A"] == x["B"] < x["C"] < x["T"]  # a cycle shares a column, the rest follows it


def test_positions_come_from_networkx(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = nx.multipartite_layout

    def swapped(g: nx.DiGraph, **kw: object) -> dict[str, object]:
        calls.append(kw)
        pos: dict[str, object] = real(g, **kw)
        pos["A"], pos["E"] = pos["E"], pos["A"]  # two roots: one column
        return pos

    before = boxes(parse(dependency_svg(SMALL)))
    monkeypatch.setattr(nx, "multipartite_layout", swapped)
    after = boxes(parse(dependency_svg(SMALL)))
    assert len(calls) == 1 and calls[0]["align"] == "vertical"
    assert before["A"][1] < before["E"][1] and after["A"][1] > after["E"][1]
    assert after["C"] == before["C"]


def test_two_nodes_with_one_id_are_refused() -> None:
    with pytest.raises(GraphError, match="share the ID 'A'"):
        dependency_svg([node("A"), node("A")])
