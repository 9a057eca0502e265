"""The Overview tab: corpus figures and inline-SVG charts (no library), every text escaped.

Top entities per type (bars), the relations stated by the most papers, the share of each year's papers naming the top and the fastest-rising
entities (lines, when at least two years are known), links proposed vs used per type, and the
communities of the map with their names and sizes. Bars carry `data-node` / `data-community` so the
page script can open them on the map.
"""
from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any, Sequence

import networkx as nx

from kg.exporters.html_map import Map
from kg.exporters.layout import TYPE_COLORS
from kg.text.shorten import shorten
from kg.types import ENTITY_TYPES

TOP = 10
SERIES = 6
RISING_MIN_PAPERS = 10
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f")
WIDTH, ROW, LABEL_WIDTH = 440, 20, 190
STACK_LABEL, STACK_TEXT = 80, 170  # a stacked chart's row names (types) are short; its values read "N proposed, M used"


def cut(text: str, limit: int = 30) -> str:
    """Text shortened to `limit` characters for a chart label."""
    return shorten(text, limit)


def bar_chart(title: str, rows: Sequence[tuple[str, int, str, dict[str, Any]]], unit: str = "papers",
              label_width: int = LABEL_WIDTH, width: int = WIDTH) -> str:
    """Horizontal bars: (label, value, colour, data attributes) per row."""
    top = max((value for _, value, _, _ in rows), default=1) or 1
    height = ROW * len(rows) + 8
    parts = [f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
             f'<svg class="bars" role="img" aria-label="{escape(title)}" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    for k, (label, value, color, attrs) in enumerate(rows):
        y = 4 + k * ROW
        length = max(1.0, (width - label_width - 50) * value / top)
        data = "".join(f' data-{escape(key)}="{escape(str(val))}"' for key, val in attrs.items())
        parts.append(f'<g class="bar"{data}><title>{escape(label)}: {value:,} {escape(unit)}</title>'
                     f'<text x="{label_width - 6}" y="{y + 13}" text-anchor="end">'
                     f'{escape(cut(label, label_width // 7))}</text>'
                     f'<rect x="{label_width}" y="{y + 2}" width="{length:.1f}" height="{ROW - 6}" fill="{color}"/>'
                     f'<text x="{label_width + length + 4:.1f}" y="{y + 13}">{value:,}</text></g>')
    parts.append("</svg></figure>")
    return "".join(parts)


def stacked_chart(title: str, rows: Sequence[tuple[str, list[int], list[str]]], names: list[str], unit: str) -> str:
    """Horizontal stacked bars: (label, values, colours) per row, a legend naming the parts."""
    top = max((sum(values) for _, values, _ in rows), default=1) or 1
    height = ROW * len(rows) + 30
    parts = [f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
             f'<svg class="stacked" role="img" aria-label="{escape(title)}" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">']
    for k, (label, values, colors) in enumerate(rows):
        y, x = 4 + k * ROW, float(STACK_LABEL)
        parts.append(f'<g><title>{escape(label)}: ' + ", ".join(f"{v:,} {escape(n)}" for v, n in zip(values, names)) +
                     f' {escape(unit)}</title><text x="{STACK_LABEL - 6}" y="{y + 13}" text-anchor="end">'
                     f'{escape(cut(label))}</text>')
        for value, color in zip(values, colors):
            length = (WIDTH - STACK_LABEL - STACK_TEXT) * value / top
            parts.append(f'<rect x="{x:.1f}" y="{y + 2}" width="{length:.1f}" height="{ROW - 6}" fill="{color}"/>')
            x += length
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 13}">'
                     f'{escape(", ".join(f"{v:,} {n}" for v, n in zip(values, names)))}</text></g>')
    y = 4 + len(rows) * ROW + 6
    for k, (name, shade) in enumerate(zip(names, ("#333333", "#aaaaaa"))):
        parts.append(f'<rect x="{STACK_LABEL + k * 110}" y="{y}" width="10" height="10" fill="{shade}"/>'
                     f'<text x="{STACK_LABEL + k * 110 + 14}" y="{y + 9}">{escape(name)}</text>')
    parts.append("</svg></figure>")
    return "".join(parts)


def line_chart(title: str, years: list[int], series: list[tuple[str, list[float]]], unit: str,
               suffix: str = "") -> str:
    """Lines over years with axes, a legend and the unit on the y axis."""
    w, h, left, right, top, bottom = WIDTH + 60, 230, 44, 200, 10, 28
    peak = max((v for _, values in series for v in values), default=1.0) or 1.0
    span = max(len(years) - 1, 1)

    def xy(k: int, value: float) -> tuple[float, float]:
        return left + (w - left - right) * k / span, top + (h - top - bottom) * (1 - value / peak)

    parts = [f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
             f'<svg class="lines" role="img" aria-label="{escape(title)}" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}"><g class="axis">'
             f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}"/>'
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}"/>'
             f'<text x="{left - 4}" y="{top + 8}" text-anchor="end">{peak:.0f}{escape(suffix)}</text>'
             f'<text x="{left - 4}" y="{h - bottom}" text-anchor="end">0</text>'
             f'<text x="12" y="{(h - bottom) / 2}" transform="rotate(-90 12 {(h - bottom) / 2})" '
             f'text-anchor="middle">{escape(unit)}</text>']
    for k, year in enumerate(years):
        x, _ = xy(k, 0)
        parts.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">{year}</text>')
    parts.append("</g>")
    for n, (label, values) in enumerate(series):
        color = PALETTE[n % len(PALETTE)]
        points = " ".join("{:.1f},{:.1f}".format(*xy(k, v)) for k, v in enumerate(values))
        parts.append(f'<g class="series"><title>{escape(label)}</title><polyline fill="none" stroke="{color}" '
                     f'stroke-width="2" points="{points}"/><rect x="{w - right + 8}" y="{top + n * 18}" '
                     f'width="10" height="10" fill="{color}"/><text x="{w - right + 22}" y="{top + n * 18 + 9}">'
                     f'{escape(cut(label, 26))}</text></g>')
    parts.append("</svg></figure>")
    return "".join(parts)


def entity_years(G: nx.DiGraph) -> tuple[list[int], Counter, dict[str, Counter]]:
    """Known years (sorted), papers per year, and per entity the papers naming it per year."""
    per_year: Counter = Counter()
    named: dict[str, Counter] = {}
    for paper, data in G.nodes(data=True):
        year = data.get("year") if data.get("kind") == "paper" else None
        if not isinstance(year, int):
            continue
        per_year[year] += 1
        for entity, edge in G.succ[paper].items():
            if edge.get("kind") == "mention":
                named.setdefault(entity, Counter())[year] += 1
    return sorted(per_year), per_year, named


def trend_charts(G: nx.DiGraph) -> str:
    """Share of each year's papers naming the top entities and the fastest-rising ones."""
    years, per_year, named = entity_years(G)
    if len(years) < 2:
        return '<p class="muted">No trends: the papers carry fewer than two distinct years.</p>'

    def share(entity: str) -> list[float]:
        return [100.0 * named[entity][y] / per_year[y] for y in years]

    def label(entity: str) -> str:
        return str(G.nodes[entity].get("label") or entity)

    top = sorted(named, key=lambda e: (-sum(named[e].values()), label(e)))[:SERIES]
    rising = sorted((e for e in named if sum(named[e].values()) >= RISING_MIN_PAPERS),
                    key=lambda e: (-slope(share(e)), label(e)))[:SERIES]
    unit = "% of the year's papers"
    return (line_chart("Most named entities, per year", years, [(label(e), share(e)) for e in top], unit, "%") +
            line_chart(f"Fastest-rising entities (≥ {RISING_MIN_PAPERS} papers)", years,
                       [(label(e), share(e)) for e in rising], unit, "%"))


def slope(values: list[float]) -> float:
    """Least-squares slope of `values` over 0, 1, 2, …"""
    n = len(values)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    var = sum((k - mean_x) ** 2 for k in range(n)) or 1.0
    return sum((k - mean_x) * (v - mean_y) for k, v in enumerate(values)) / var


def type_charts(G: nx.DiGraph, index: dict[Any, int]) -> str:
    """Top entities per type, by papers naming them."""
    charts = []
    for kind in ENTITY_TYPES:
        found = sorted(((int(d.get("papers") or 0), str(d.get("label") or n), n) for n, d in G.nodes(data=True)
                        if d.get("kind") == "entity" and d.get("type") == kind), key=lambda t: (-t[0], t[1]))
        if found:
            charts.append(bar_chart(f"Top {kind}s", [(label, papers, TYPE_COLORS.get(kind, "#888"),
                                                      {"node": index[n]}) for papers, label, n in found[:TOP]]))
    return "".join(charts)


def role_chart(G: nx.DiGraph) -> str:
    """Paper→entity links per type, proposed and used."""
    roles: Counter = Counter()
    for _, entity, edge in G.edges(data=True):
        if edge.get("kind") == "mention":
            roles[(G.nodes[entity].get("type"), edge.get("role"))] += 1
    rows = [(f"{kind}s", [roles[(kind, "proposed")], roles[(kind, "used")]], ["#333333", "#aaaaaa"])
            for kind in ENTITY_TYPES]
    return stacked_chart("Paper→entity links: proposed vs used", rows, ["proposed", "used"], "links")


RELATION_WORDS = {"evaluated_on": "evaluated on", "applied_to": "used for", "measured_by": "measured by",
                  "based_on": "built on"}


def relation_chart(G: nx.DiGraph, index: dict[Any, int]) -> str:
    """The relations stated by the most papers (ties by their text), each bar opening its head entity."""
    found = []
    for source, target, edge in G.edges(data=True):
        if edge.get("kind") == "relation":
            for name, evidence in edge.get("relations", {}).items():
                text = f"{G.nodes[source].get('label')} {RELATION_WORDS.get(name, name)} {G.nodes[target].get('label')}"
                found.append((len({e.paper_id for e in evidence}), text, source))
    found.sort(key=lambda t: (-t[0], t[1]))
    if not found:
        return ""
    rows = [(text, papers, "#8c6ebe", {"node": index[source]}) for papers, text, source in found[:TOP * 2]]
    return bar_chart("Most supported relations (papers stating each)", rows, label_width=380, width=640)


def community_chart(layout: Map) -> str:
    """The named communities of the map and their sizes (entities on the first view)."""
    named = [c for c in layout.communities if c.name]
    rows = [(c.name, c.size, "#6a6aa8", {"community": c.number}) for c in named[:20]]
    return bar_chart(f"Communities on the map ({len(named)} named; entities on the first view)", rows,
                     unit="entities", label_width=380, width=640)


def figures(G: nx.DiGraph, layout: Map) -> str:
    """Corpus figures as a definition list."""
    papers = [d for _, d in G.nodes(data=True) if d.get("kind") == "paper"]
    kinds = Counter(d.get("type") for _, d in G.nodes(data=True) if d.get("kind") == "entity")
    edges = Counter(d.get("kind") for _, _, d in G.edges(data=True))
    years = sorted({d["year"] for d in papers if isinstance(d.get("year"), int)})
    venues = Counter(d.get("venue") for d in papers if d.get("venue"))
    rows = [("papers", f"{len(papers):,}"), ("with a title", f"{sum(1 for d in papers if d.get('title')):,}"),
            ("years", f"{years[0]}–{years[-1]}" if years else "unknown"),
            ("venues", ", ".join(f"{v} ({n:,})" for v, n in sorted(venues.items())) or "unknown"),
            ("entities", ", ".join(f"{kinds[k]:,} {k}s" for k in ENTITY_TYPES if kinds[k])),
            ("paper→entity links", f"{edges['mention']:,}"), ("entity→entity relations", f"{edges['relation']:,}"),
            ("communities", f"{sum(1 for c in layout.communities if c.name)} named, among the "
                            f"{sum(c.size for c in layout.communities):,} entities named in ≥ {layout.min_papers} "
                            f"paper{'s' if layout.min_papers > 1 else ''} (the map's first view)")]
    return '<dl class="figures">' + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in rows) + "</dl>"


def render_overview(G: nx.DiGraph, layout: Map) -> str:
    """The whole Overview tab as escaped HTML with inline SVG."""
    index = {node: i for i, node in enumerate(G)}
    return ('<section class="block"><h2>Corpus</h2>' + figures(G, layout) + '</section>'
            '<section class="block"><h2>Communities</h2><div class="charts">' + community_chart(layout) +
            role_chart(G) + '</div></section>'
            '<section class="block"><h2>Trends</h2><div class="charts">' + trend_charts(G) + '</div></section>'
            '<section class="block"><h2>Top entities per type</h2><div class="charts">' + type_charts(G, index) +
            '</div></section>'
            '<section class="block"><h2>Relations</h2><div class="charts">' + (relation_chart(G, index) or
            '<p>No relation is stated in these abstracts.</p>') + '</div></section>')
