"""Layout, community, centrality helpers and graph views, on tiny invented graphs."""
from __future__ import annotations

import math

import networkx as nx
import pytest

from kg.exporters import layout
from kg.graph.views import VIEWS, project
from tests.support import build_large_graph, under_hash_seeds


def test_positions_are_deterministic_rounded_and_complete(make_graph):
    G = make_graph()
    first, second = layout.positions(G, seed=7), layout.positions(G, seed=7)
    assert first == second and set(first) == set(G)
    for x, y in first.values():
        assert math.isfinite(x) and math.isfinite(y)
        assert round(x, 1) == x and round(y, 1) == y
    assert len(set(first.values())) == len(first)


def test_large_graph_uses_community_layout_and_stays_deterministic():
    G = nx.relaxed_caveman_graph(30, 25, 0.1, seed=3)
    assert G.number_of_nodes() > layout.SPRING_LIMIT
    first = layout.positions(G, seed=1)
    assert first == layout.positions(G, seed=1)
    assert len(set(first.values())) == G.number_of_nodes()


def test_communities_are_numbered_by_size_then_smallest_node(make_graph):
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("x", "y")])
    G.add_node("lonely")
    found = layout.communities(G, seed=1)
    assert found == {"a": 0, "b": 0, "c": 0, "x": 1, "y": 1, "lonely": 2}
    assert layout.communities(make_graph()) == layout.communities(make_graph())


def test_degree_and_pagerank_on_the_undirected_view(make_graph):
    G = make_graph()
    degree = layout.degrees(G)
    assert degree["model:zorbnet"] == 3  # two papers and the relation to the dataset
    assert degree["paper:p3"] == 2
    rank = layout.pagerank(G)
    assert set(rank) == set(G) and abs(sum(rank.values()) - 1) < 1e-3
    assert rank["model:zorbnet"] > rank["metric:f-score"]
    expected = nx.pagerank(nx.Graph(G.to_undirected()), weight=None) if _has_scipy() else None
    if expected:
        assert all(abs(rank[n] - expected[n]) < 1e-4 for n in G)


def _has_scipy() -> bool:
    """Whether scipy (needed by networkx's own pagerank) is importable."""
    try:
        import scipy  # noqa: F401
    except ImportError:
        return False
    return True


def test_colors_and_sizes():
    assert layout.hex_to_rgb(layout.type_color("dataset")) == (44, 160, 44)
    assert layout.type_color("unknown") == layout.OTHER_COLOR
    assert layout.node_size(4) > layout.node_size(1)


def test_full_view_is_the_graph_itself(make_graph):
    G = make_graph()
    assert project(G, "full") is G


def test_paper_view_counts_shared_entities(make_graph):
    G = make_graph()
    H = project(G, "papers")
    assert not H.is_directed() and set(H) == {"paper:p1", "paper:p2", "paper:p3"}
    edge = H.edges["paper:p1", "paper:p2"]
    assert edge["weight"] == 2 and edge["shared"] == "Quux corpus; Zorbnet"
    assert H.nodes["paper:p1"]["label"] == G.nodes["paper:p1"]["label"]
    assert not H.has_edge("paper:p1", "paper:p3")


def test_entity_view_counts_papers_naming_both(make_graph):
    G = make_graph()
    H = project(G, "entities")
    assert all(H.nodes[n]["kind"] == "entity" for n in H)
    assert H.edges["model:zorbnet", "dataset:quux-corpus"]["weight"] == 2
    assert H.edges["model:zorbnet", "metric:f-score"]["weight"] == 1
    assert not H.has_edge("model:zorbnet", "method:blorp-method")


def test_projection_leaves_the_graph_untouched(make_graph):
    G = make_graph()
    before = (nx.to_dict_of_dicts(G), dict(G.nodes(data=True)))
    project(G, "papers")["paper:p1"]
    H = project(G, "entities")
    H.nodes["model:zorbnet"]["label"] = "changed"
    assert (nx.to_dict_of_dicts(G), dict(G.nodes(data=True))) == before


def test_unknown_view_names_the_choices(make_graph):
    with pytest.raises(ValueError, match="full, papers, entities"):
        project(make_graph(), "bogus")
    assert VIEWS == ("full", "papers", "entities")


@pytest.mark.slow
def test_large_graph_layout_is_identical_under_any_hash_seed():
    """Communities and positions beyond SPRING_LIMIT don't depend on set or hash order."""
    assert build_large_graph().number_of_nodes() > layout.SPRING_LIMIT
    script = ("import hashlib; from tests.support import build_large_graph; from kg.exporters.layout import node_metrics; "
              "print(hashlib.sha256(repr(sorted(node_metrics(build_large_graph()).items())).encode()).hexdigest())")
    runs = under_hash_seeds(script)
    assert len(set(runs)) == 1 and runs[0].strip()
