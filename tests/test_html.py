"""HTML export: offline, escaped, deterministic; and a headless Chromium run over DevTools (pipe)."""
from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from kg.quality.browser import CANVAS_PIXELS, js, open_page, problems
from kg.quality.check import external_references
from kg.exporters.html import render_html, write_html
from kg.registry import exporters
from tests.consumers import browser, click_node, search  # noqa: F401  (browser is a fixture)

XSS = "<script>alert(1)</script> and <img src=x onerror=alert(1)>"
EVIL = [("p7", "Evil </script> title", f"🚀 We test Snarknet on {XSS}. Snarknet wins.",
         [("Snarknet", "model", "proposed")])]


def embedded(html: str) -> dict:
    """The JSON data block of a page."""
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


@pytest.fixture
def graph(make_graph) -> nx.DiGraph:
    """The test graph with the hostile paper."""
    return make_graph(EVIL)


@pytest.fixture
def html(graph: nx.DiGraph) -> str:
    """The page for the test graph with the hostile paper."""
    return render_html(graph)


def test_no_external_references(html):
    assert external_references(html) == []
    assert "default-src 'none'" in html  # CSP: the browser itself refuses any fetch


def test_vis_network_is_inlined(html):
    assert "vis-network" in html and "new vis.Network(" in html and "9.1.2" in html
    assert len(html) > 400_000


def test_embedded_data_matches_graph_and_has_positions(graph, html):
    data = embedded(html)
    assert [n["id"] for n in data["nodes"]] == list(graph)
    assert [n["label"] for n in data["nodes"]] == [graph.nodes[n]["label"] for n in graph]
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert sorted(n["rank"] for n in data["nodes"]) == list(range(len(graph)))
    assert len(data["edges"]) == graph.number_of_edges()
    assert data["options"]["physics"]["enabled"] is False
    assert all("href" not in str(n.get("title", "")) for n in data["nodes"])
    assert data["meta"]["limit"] == 1500 and data["meta"]["counts"]["paper"] == 4


def test_abstract_segments_use_code_points_and_highlight_mentions(graph, html):
    nodes = embedded(html)["nodes"]
    evil = next(n for n in nodes if n["id"] == "paper:p7")
    assert "".join(s[0] for s in evil["segments"]) == graph.nodes["paper:p7"]["abstract"]
    highlighted = [(s[0], nodes[s[1]]["id"]) for s in evil["segments"] if len(s) == 2]
    assert highlighted == [("Snarknet", "model:snarknet")]


def test_hostile_text_appears_only_escaped(html):
    for needle in ("<script>alert(1)", "<img src=x", "</script> title", "onerror=alert(1)>"):
        assert needle not in html
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in html
    assert "innerHTML" not in re.sub(r"<script>/\*\*.*?</script>", "", html, count=1, flags=re.S)


def test_large_graph_opens_on_top_nodes_by_degree():
    G = nx.DiGraph()
    for i in range(1700):
        G.add_node(f"paper:{i}", kind="paper", label=f"P{i}", papers=1, abstract="x")
        G.add_node(f"task:t{i % 40}", kind="entity", type="task", label=f"T{i % 40}", aliases=(), papers=1)
        G.add_edge(f"paper:{i}", f"task:t{i % 40}", kind="mention", role="used", evidence=(), weight=1)
    data = embedded(render_html(G, limit=100))
    assert data["meta"]["limit"] == 100
    top = sorted(data["nodes"], key=lambda n: n["rank"])[:40]
    assert {n["type"] for n in top} == {"task"}


def test_output_is_byte_identical_across_runs_and_hash_seeds(stable_output):
    stable_output("kg.exporters.html.write_html", ".html")


def test_registered_as_html():
    assert exporters.get("html") is write_html


def test_page_in_headless_chromium(browser, graph, tmp_path):
    path = tmp_path / "graph.html"
    write_html(graph, path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    # Search: type a query and press Enter; the panel opens on the match.
    assert search(browser, session, "quux") == "dataset:quux-corpus"
    assert "Proposed by" not in js(browser, session, "document.getElementById('details').textContent")
    # Click: a real mouse click on the hostile paper's node opens its panel, text shown literally.
    click_node(browser, session, "paper:p7")
    assert js(browser, session, "document.getElementById('panel').hidden") is False
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "paper:p7"
    details = js(browser, session, "document.getElementById('details').textContent")
    assert XSS in details and "🚀" in details
    assert js(browser, session, "document.querySelectorAll('#details img, #details script').length") == 0
    assert js(browser, session, "document.querySelector('#details .mention').textContent") == "Snarknet"
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_polling_the_canvas_leaves_the_page_without_problems(browser, graph, tmp_path):
    path = tmp_path / "graph.html"
    write_html(graph, path)
    session, start = open_page(browser, path)
    counts = [js(browser, session, CANVAS_PIXELS) for _ in range(3)]  # as kg check polls a slow page
    assert counts[0] > 500 and len(set(counts)) == 1
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_large_page_in_headless_chromium(browser, tmp_path):
    G = nx.DiGraph()
    for i in range(2500):
        G.add_node(f"paper:{i}", kind="paper", label=f"Paper {i}", papers=1, abstract="An abstract.")
    for i in range(2500):
        for j in (i % 97, (i * 7) % 211):
            G.add_node(f"task:t{j}", kind="entity", type="task", label=f"Task {j}", aliases=(f"T{j}",), papers=1)
            G.add_edge(f"paper:{i}", f"task:t{j}", kind="mention", role="used", evidence=(), weight=1)
    path = tmp_path / "large.html"
    write_html(G, path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    note = js(browser, session, "document.getElementById('note').textContent")
    assert note.startswith(f"Showing 1500 of {G.number_of_nodes()} nodes") and "hidden" in note
    assert problems(browser.events[start:], session, path.as_uri()) == []
