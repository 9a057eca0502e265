"""One self-contained interactive HTML page (pyvis Network + own template; no network requests).

vis-network 9.1.2 is inlined from the pyvis package; pyvis's own template is not used because it
links Bootstrap from a CDN. All data sits in one `<script type="application/json">` block written
with Jinja's `tojson` (`<`, `>`, `&`, `'` escaped as \\u003c …), and the page script builds every
text with DOM text nodes, never innerHTML. Positions come from `kg.graph.layout` (fixed seed); physics
is off. Large graphs open on the top `limit` nodes by degree; the page says what is hidden.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx

from kg.graph.layout import OTHER_COLOR, TYPE_COLORS, degrees, positions
from kg.registry import exporters
from kg.types import ENTITY_TYPES

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
VIS_VERSION = "9.1.2"
LIMIT = 1500  # nodes drawn at first; the rest stay searchable and can be revealed
SHORT_LABEL = 40
NODE_TYPES = ("paper", *ENTITY_TYPES)


def vis_assets() -> tuple[str, str]:
    """The vis-network JavaScript and CSS shipped inside the pyvis package."""
    import pyvis

    lib = Path(pyvis.__file__).parent / "templates" / "lib" / f"vis-{VIS_VERSION}"
    return ((lib / "vis-network.min.js").read_text(encoding="utf-8"),
            (lib / "vis-network.css").read_text(encoding="utf-8"))


def short(label: str, limit: int = SHORT_LABEL) -> str:
    """A label cut to `limit` characters for drawing on the canvas."""
    return label if len(label) <= limit else label[: limit - 1].rstrip() + "…"


def segments(abstract: str, spans: list[tuple[int, int, int]]) -> list[list[Any]]:
    """The abstract split into `[text]` and `[text, entity index]` pieces (code-point offsets)."""
    pieces: list[list[Any]] = []
    position = 0
    for start, end, target in sorted(spans, key=lambda s: (s[0], -s[1], s[2])):
        if start < position or end <= start or end > len(abstract):
            continue  # overlapping or out-of-range mention: keep the first, longest one
        if start > position:
            pieces.append([abstract[position:start]])
        pieces.append([abstract[start:end], target])
        position = end
    if position < len(abstract):
        pieces.append([abstract[position:]])
    return pieces


def paper_fields(G: nx.DiGraph, node: Any, data: dict, index: dict[Any, int]) -> dict[str, Any]:
    """The paper-only fields: metadata, sources and the highlighted abstract."""
    spans = [(ev.start, ev.end, index[target]) for target, edge in G.succ[node].items()
             if edge.get("kind") == "mention" for ev in edge.get("evidence", ())]
    authors = data.get("authors") or ()
    return {"year": data.get("year"), "venue": data.get("venue") or None, "url": data.get("url") or None,
            "authors": "; ".join(authors) or None, "sources": list(data.get("sources") or ()),
            "segments": segments(data.get("abstract") or "", spans)}


def node_records(G: nx.DiGraph, seed: int, index: dict[Any, int]) -> list[dict[str, Any]]:
    """One JSON record per node, in graph order, with position, size and degree rank."""
    degree = degrees(G)
    pos = positions(G, seed)
    ranked = sorted(index, key=lambda node: (-degree[node], index[node]))
    rank = {node: r for r, node in enumerate(ranked)}
    records = []
    for node, data in G.nodes(data=True):
        paper = data.get("kind") == "paper"
        label = str(data.get("label") or node)
        record = {"id": str(node), "label": label, "short": short(label), "kind": data.get("kind", "entity"),
                  "type": "paper" if paper else data.get("type", "other"), "papers": int(data.get("papers") or 0),
                  "degree": degree[node], "rank": rank[node], "x": pos[node][0], "y": pos[node][1],
                  "size": round(5 + 2.5 * degree[node] ** 0.5, 1), "aliases": list(data.get("aliases") or ())}
        if paper:
            record.update(paper_fields(G, node, data, index))
        records.append(record)
    return records


def edge_records(G: nx.DiGraph, index: dict[Any, int]) -> list[list[Any]]:
    """`[from, to, kind, role or relation, weight]` per edge, in graph order."""
    return [[index[u], index[v], data.get("kind", ""), data.get("role") or data.get("relation") or "",
             int(data.get("weight") or 1)] for u, v, data in G.edges(data=True)]


def vis_options(G: nx.DiGraph, seed: int) -> dict[str, Any]:
    """vis-network options: fixed positions, no physics, plain-text tooltips."""
    return {
        "edges": {"arrows": {"to": {"enabled": G.is_directed(), "scaleFactor": 0.4}},
                  "color": {"color": "#c4c4c4", "highlight": "#444444", "hover": "#888888", "inherit": False},
                  "smooth": False},
        "interaction": {"hover": True, "hideEdgesOnDrag": True, "tooltipDelay": 120},
        "layout": {"improvedLayout": False, "randomSeed": seed},
        "nodes": {"borderWidth": 1, "font": {"face": "sans-serif", "size": 12}, "shape": "dot"},
        "physics": {"enabled": False},
    }


def page_meta(G: nx.DiGraph, records: list[dict[str, Any]], limit: int, title: str) -> dict[str, Any]:
    """Legend, colours, counts and the default filter for the page script."""
    types = [*NODE_TYPES, *sorted({r["type"] for r in records} - set(NODE_TYPES))]
    counts = {t: 0 for t in types}
    for record in records:
        counts[record["type"]] += 1
    return {"title": title, "types": types, "counts": counts,
            "colors": {**TYPE_COLORS, "other": OTHER_COLOR}, "limit": limit, "min_papers": 1,
            "directed": G.is_directed()}


def render_html(G: nx.DiGraph, seed: int = 42, limit: int = LIMIT, title: str = "paperkg") -> str:
    """The whole page as a string (byte-identical for the same graph and arguments)."""
    from pyvis.network import Network  # imports IPython: keep it off the CLI start-up path

    index = {node: i for i, node in enumerate(G)}
    net = Network(height="100%", width="100%", directed=G.is_directed(), cdn_resources="in_line")
    net.set_template_dir(str(TEMPLATES) + "/", "graph.html")
    net.nodes = node_records(G, seed, index)
    net.edges = edge_records(G, index)
    net.options = vis_options(G, seed)
    vis_js, vis_css = vis_assets()
    net.templateEnv.globals["kg"] = {
        "title": title, "meta": page_meta(G, net.nodes, limit, title), "vis_js": vis_js, "vis_css": vis_css,
        "app_js": (STATIC / "app.js").read_text(encoding="utf-8"),
        "app_css": (STATIC / "app.css").read_text(encoding="utf-8"),
    }
    return net.generate_html(name="graph.html")


def write_html(G: nx.DiGraph, path: str | Path, seed: int = 42, limit: int = LIMIT) -> None:
    """Write the interactive page for the graph as one UTF-8 file."""
    Path(path).write_text(render_html(G, seed, limit), encoding="utf-8", newline="\n")


exporters.register("html", func=write_html)
