"""The HTML map's layout: entities first, communities in disjoint disks, every node placed; the overview's trends."""
from __future__ import annotations

import math
from itertools import combinations

import networkx as nx
import pytest

from kg.exporters.html_map import build_map, default_min_papers, strongest, cooccurrence
from kg.exporters.overview import trend_charts


def topic_graph(groups: int = 4, size: int = 6, papers: int = 30) -> nx.DiGraph:
    """Papers each naming three entities of one topic (plus a shared hub now and then)."""
    G = nx.DiGraph()
    for p in range(papers * groups):
        topic = p % groups
        paper = f"paper:{p}"
        G.add_node(paper, kind="paper", label=f"P{p}", papers=1, year=2015 + p % 3)
        named = [f"method:t{topic}e{(p // groups + k) % size}" for k in range(3)] + (["task:hub"] if p % 10 == 0 else [])
        for entity in named:
            G.add_node(entity, kind="entity", type=entity.split(":")[0], label=entity.split(":")[1])
            G.add_edge(paper, entity, kind="mention", role="used", evidence=(), weight=1)
    for node, kind in G.nodes(data="kind"):
        if kind == "entity":
            G.nodes[node]["papers"] = G.in_degree(node)
    return G


def test_every_node_is_placed_and_topics_become_disjoint_named_disks():
    G = topic_graph()
    found = build_map(G, seed=3)
    assert set(found.positions) == set(G)
    named = [c for c in found.communities if c.name]
    assert len(named) == 4
    for a, b in combinations(named, 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) >= a.radius + b.radius
    for c in named:
        members = [n for n, k in found.community.items() if k == c.number and G.nodes[n]["kind"] == "entity"]
        topics = {n.split(":")[1][:2] for n in members if n != "task:hub"}
        assert len(topics) == 1  # one topic per community
        assert all(math.dist(found.positions[n], (c.x, c.y)) <= c.radius + 0.2 for n in members)


def test_map_is_the_same_for_the_same_seed():
    assert build_map(topic_graph(), seed=5) == build_map(topic_graph(), seed=5)


@pytest.mark.parametrize(("limit", "expected", "shown"), [(100, 1, 25), (25, 1, 25), (24, 13, 24), (23, 15, 24)])
def test_first_view_keeps_at_most_limit_entities(limit, expected, shown):
    G = topic_graph()  # 24 topic entities (named by 15 papers each) and a hub named by 12
    assert default_min_papers(G, limit) == expected
    assert sum(1 for _, d in G.nodes(data=True) if d["kind"] == "entity" and d["papers"] >= expected) == shown


def test_strongest_pairs_keep_each_entity_best_partners():
    G = topic_graph(groups=1, size=6, papers=12)
    pairs = cooccurrence(G)
    kept = strongest(pairs, G, keep=1)
    partners = {a for a, b, _ in kept} | {b for a, b, _ in kept}
    assert partners == {n for n, k in G.nodes(data="kind") if k == "entity"}
    assert all(w == pairs[(a, b)] for a, b, w in kept)


def test_trends_need_two_years_and_chart_shares_per_year():
    G = topic_graph()
    charts = trend_charts(G)
    assert charts.count("<polyline") == 12 and "Most named entities, per year" in charts and ">2017<" in charts
    for node in G:
        G.nodes[node]["year"] = 2020
    assert "No trends" in trend_charts(G)
