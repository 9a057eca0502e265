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


def test_graphml_and_the_page_share_one_community_detection(make_graph):
    import io

    from kg.exporters.graphml import write_graphml
    from kg.exporters.html_map import build_map

    G = make_graph()
    page = build_map(G).community
    handle = io.StringIO()
    write_graphml(G, handle)
    handle.seek(0)
    written = nx.read_graphml(handle)
    assert page and {node: int(data["community"]) for node, data in written.nodes(data=True)} == \
        {str(node): page.get(node, layout.NO_COMMUNITY) for node in G}
    for view in ("papers", "entities"):  # a view keeps each node's community of the full graph
        handle = io.StringIO()
        write_graphml(G, handle, view=view)
        handle.seek(0)
        assert all(int(data["community"]) == page.get(node, layout.NO_COMMUNITY)
                   for node, data in nx.read_graphml(handle).nodes(data=True))


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
