"""One self-contained interactive HTML page: a map of the field and an overview (no network requests).

vis-network 9.1.2 is inlined from the pyvis package; pyvis's own template is not used because it
links Bootstrap from a CDN. All data sits in one `<script type="application/json">` block written
with Jinja's `tojson` (`<`, `>`, `&`, `'` escaped as \\u003c …), nodes, edges and abstracts deflated
beside it, seven bits per character (`kg.exporters.html_pack`), the page script builds every text
with DOM text nodes (never innerHTML), and the overview's SVG is built here with every text
escaped. Positions and communities come from `kg.exporters.html_map` (fixed seed); physics is off;
the page opens on the entities (papers folded into them) and says what it hides.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from importlib.util import find_spec
from operator import itemgetter
from pathlib import Path
from typing import Any

import networkx as nx

from kg.exporters.html_map import Map, build_map
from kg.exporters.html_pack import pack
from kg.exporters.leaderboards import render_leaderboards, subject_label
from kg.exporters.overview import render_overview
from kg.exporters.layout import OTHER_COLOR, TYPE_COLORS
from kg.exporters.target import Target, text_output
from kg.graph.resolution import Resolution, graph_of
from kg.registry import exporters
from kg.text.bounded import strip_prefix
from kg.text.markup import TOKEN as MARKUP, strip_markup, truncate  # no MARKUP match: nothing to strip
from kg.types import ENTITY_TYPES

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
VIS_VERSION = "9.1.2"
NODE_TYPES = ("paper", *ENTITY_TYPES)
PAPERS_DRAWN_UP_TO = 300  # nodes; a larger graph opens on its entities, papers folded into them


def vis_assets() -> tuple[str, str]:
    """The vis-network JavaScript and CSS shipped inside the pyvis package (found, not imported: that loads its
    notebook machinery)."""
    spec = find_spec("pyvis")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("No module named 'pyvis'", name="pyvis")
    lib = Path(spec.origin).parent / "templates" / "lib" / f"vis-{VIS_VERSION}"
    return ((lib / "vis-network.min.js").read_text(encoding="utf-8"),
            (lib / "vis-network.css").read_text(encoding="utf-8"))


def segments(text: str, spans: list[tuple[int, int, int]]) -> list[list[Any]]:
    """`text` split into `[text]` and `[text, entity index]` pieces (code-point offsets)."""
    pieces: list[list[Any]] = []
    position = 0
    for start, end, target in sorted(spans, key=lambda s: (s[0], -s[1], s[2])):
        if start < position or end <= start or end > len(text):
            continue  # overlapping or out-of-range mention: keep the first, longest one
        if start > position:
            pieces.append([text[position:start]])
        pieces.append([text[start:end], target])
        position = end
    if position < len(text):
        pieces.append([text[position:]])
    return pieces


DISPLAY_CHARS = 100_000  # of a huge abstract, as many clean characters as extraction reads


def clean_segments(abstract: str, spans: list[tuple[int, int, int]]) -> list[list[Any]]:
    """The abstract with markup stripped, mentions (original offsets) mapped onto the clean text.

    A huge abstract shows its first DISPLAY_CHARS characters (stripping all of it would take
    about 100 bytes of offset map per character: a GB for a 10 MB abstract).
    """
    if len(abstract) <= DISPLAY_CHARS and not MARKUP.search(abstract):  # most abstracts: the clean text is the text
        n = len(abstract)
        return segments(abstract, [(s, e, t) for s, e, t in ((min(max(s, 0), n), min(max(e, 0), n), t)
                                                              for s, e, t in spans) if s < e])
    clean = strip_prefix(abstract, DISPLAY_CHARS)
    cut = len(clean.text) > DISPLAY_CHARS
    clean = truncate(clean, DISPLAY_CHARS) if cut else clean
    mapped = [(bisect_left(clean.spans, start, key=itemgetter(0)), bisect_right(clean.spans, end, key=itemgetter(1)),
               target) for start, end, target in spans]
    pieces = segments(clean.text, [(s, e, t) for s, e, t in mapped if s < e])
    return pieces + [[f" … (shortened for display: the abstract has {len(abstract):,} characters)"]] if cut else pieces


def paper_fields(G: nx.DiGraph, node: Any, data: dict, index: dict[Any, int]) -> dict[str, Any]:
    """The paper-only fields: metadata, sources and the clean abstract with its mentions."""
    spans = [(ev.start, ev.end, index[target]) for target, edge in G.succ[node].items()
             if edge.get("kind") == "mention" for ev in edge.get("evidence", ())]
    authors = data.get("authors") or ()
    return {"pid": str(data.get("paper_id") or node), "title": data.get("title") or None,
            "year": data.get("year"), "venue": data.get("venue") or None, "url": data.get("url") or None,
            "authors": "; ".join(authors) or None, "sources": list(data.get("sources") or ()),
            "segments": clean_segments(data.get("abstract") or "", spans)}


def node_records(G: nx.DiGraph, layout: Map, index: dict[Any, int]) -> list[dict[str, Any]]:
    """One JSON record per node, in graph order, with position and community."""
    records = []
    for node, data in G.nodes(data=True):
        paper = data.get("kind") == "paper"
        x, y = layout.positions[node]
        record = {"id": str(node), "label": str(data.get("label") or node), "kind": data.get("kind", "entity"),
                  "type": "paper" if paper else data.get("type", "other"), "papers": int(data.get("papers") or 0),
                  "x": x, "y": y, "c": layout.community.get(node, -1)}
        if paper:
            record.update(paper_fields(G, node, data, index))
        else:
            record.update(aliases=list(data.get("aliases") or ()), proposed=int(data.get("proposed_by") or 0))
            parents = [index[b] for b in data.get("broader") or () if b in index]
            if parents:
                record["kindOf"] = parents[0]  # the entity this one is a kind of (kg.graph.broader)
        records.append(record)
    return records


def first_sentence(G: nx.DiGraph, data: dict, index: dict[Any, int]) -> list[Any]:
    """[clean sentence, paper index] of a relation's first evidence, or []."""
    for evidence in (e for found in (data.get("relations") or {}).values() for e in found):
        paper = f"paper:{evidence.paper_id}"
        return [strip_markup(evidence.text).text.strip(), index.get(paper, -1)]
    return []


def edge_records(G: nx.DiGraph, index: dict[Any, int]) -> list[list[Any]]:
    """`[from, to, kind, role or relation, weight(, sentence, paper)]` per edge, in graph order."""
    records = []
    for u, v, data in G.edges(data=True):
        record = [index[u], index[v], data.get("kind", ""), data.get("role") or data.get("relation") or "",
                  int(data.get("weight") or 1)]
        if data.get("kind") == "relation":
            record.extend(first_sentence(G, data, index))
        records.append(record)
    return records


def result_records(G: nx.DiGraph, index: dict[Any, int]) -> list[list[Any]]:
    """`[paper index, line, [indices of the entities it names]]` per result, for the panels."""
    from kg.graph.results import results_of

    records = []
    for r in results_of(G):
        paper = f"paper:{r.paper_id}"
        if paper not in index:
            continue
        metric = r.metric_name or (str(G.nodes[r.metric]["label"]) if r.metric in index else "")
        line = " ".join(p for p in (r.written, metric) if p) + f" ({r.kind} of {subject_label(G, r)}"
        if r.dataset in index:
            line += f", on {G.nodes[r.dataset]['label']}"
        elif r.dataset_name:
            line += f", on {r.dataset_name}"
        if r.against in index:
            line += f", against {G.nodes[r.against]['label']}"
        records.append([index[paper], line + ")", [index[e] for e in dict.fromkeys(r.entity_ids()) if e in index]])
    return records


def vis_options(G: nx.DiGraph, seed: int) -> dict[str, Any]:
    """vis-network options: fixed positions, no physics, plain-text tooltips, no vis labels."""
    return {
        "edges": {"arrows": {"to": {"enabled": False}}, "selectionWidth": 1.5,
                  "color": {"color": "#d0d0d0", "highlight": "#444444", "hover": "#888888", "inherit": False},
                  "smooth": False},
        "interaction": {"hover": True, "hideEdgesOnDrag": True, "hideEdgesOnZoom": True, "tooltipDelay": 150,
                        "zoomSpeed": 0.7},
        "layout": {"improvedLayout": False, "randomSeed": seed},
        "nodes": {"borderWidth": 0.5, "shape": "dot", "font": {"size": 0}},
        "physics": {"enabled": False},
    }


def page_meta(G: nx.DiGraph, records: list[dict[str, Any]], layout: Map, title: str,
              index: dict[Any, int]) -> dict[str, Any]:
    """Legend, colours, counts, communities and the default filter for the page script."""
    types = [*NODE_TYPES, *sorted({r["type"] for r in records} - set(NODE_TYPES))]
    counts = {t: 0 for t in types}
    for record in records:
        counts[record["type"]] += 1
    communities = [{"n": c.number, "name": c.name, "short": " · ".join(c.name.split(" · ")[:2]),
                    "top": [index[n] for n in c.top], "size": c.size,
                    "papers": c.papers, "x": c.x, "y": c.y, "r": c.radius} for c in layout.communities]
    return {"title": title, "types": types, "counts": counts, "colors": {**TYPE_COLORS, "other": OTHER_COLOR},
            "min_papers": layout.min_papers, "communities": communities,
            "show_papers": G.number_of_nodes() <= PAPERS_DRAWN_UP_TO,
            "links": [[index[a], index[b], w] for a, b, w in layout.cooccurrence]}


def render_html(G: nx.DiGraph, seed: int = 42, title: str = "paperkg") -> str:
    """The whole page as a string (byte-identical for the same graph and arguments)."""
    from jinja2 import Environment, FileSystemLoader

    index = {node: i for i, node in enumerate(G)}
    layout = build_map(G, seed)
    nodes = node_records(G, layout, index)
    data, packed = pack(nodes, edge_records(G, index), page_meta(G, nodes, layout, title, index),
                        vis_options(G, seed), result_records(G, index))
    del nodes
    vis_js, vis_css = vis_assets()
    template = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=False).get_template("graph.html")
    return template.render(kg={
        "title": title, "data": data, "packed": packed, "vis_js": vis_js, "vis_css": vis_css, "overview": render_overview(G, layout),
        "leaderboards": render_leaderboards(G, index),
        "pack_js": (STATIC / "pack.js").read_text(encoding="utf-8"),
        "app_js": (STATIC / "app.js").read_text(encoding="utf-8"),
        "app_css": (STATIC / "app.css").read_text(encoding="utf-8"),
    })


def write_html(source: Resolution | nx.DiGraph, path: Target, seed: int = 42) -> None:
    """Write the interactive page of a resolution's graph (or of a graph) as one UTF-8 file (a path or an open file)."""
    page = render_html(graph_of(source), seed)
    with text_output(path) as handle:
        handle.write(page)


exporters.register("html", func=write_html)
