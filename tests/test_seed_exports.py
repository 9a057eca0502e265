"""The committed exports/ (built from seeds/) as their consumers read them: SHACL, XSD, networkx,
igraph and headless Chromium offline with search and click. Checks the files as committed."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
import rdflib

from kg.browser import CANVAS_PIXELS, js, open_page, problems
from kg.check import check_graphml, check_html, check_ttl, external_references, shacl_violations, xsd_errors
from tests.consumers import browser, click_node, search  # noqa: F401  (browser is a fixture)

EXPORTS = Path(__file__).resolve().parents[1] / "exports"
SEED_PAPERS = 92


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    """The committed GraphML, read by networkx."""
    return nx.read_graphml(EXPORTS / "graph.graphml")


def papers_of(kinds: list[str]) -> int:
    """How many of the node kinds are papers."""
    return sum(kind == "paper" for kind in kinds)


def searchable_entity(graph: nx.DiGraph) -> tuple[str, str]:
    """(id, label) of the most-linked entity whose label is no other node's label or alias prefix."""
    names = [(node, name.lower()) for node, data in graph.nodes(data=True)
             for name in [data["label"], *filter(None, data.get("aliases", "").split("; "))]]
    entities = sorted((node for node, data in graph.nodes(data=True) if data["kind"] == "entity"),
                      key=lambda node: (-graph.nodes[node]["papers"], node))
    for node in entities:
        label = graph.nodes[node]["label"]
        if all(other == node or not name.startswith(label.lower()) for other, name in names):
            return node, label
    raise AssertionError("no entity label is unique as a search prefix")


@pytest.mark.parametrize("checks", [lambda: check_ttl(EXPORTS / "graph.ttl", shacl=False),
                                    lambda: check_graphml(EXPORTS / "graph.graphml"),
                                    lambda: check_html(EXPORTS / "graph.html")], ids=["ttl", "graphml", "html"])
def test_kg_check_passes_every_file(checks) -> None:
    failed = [result.line() for result in checks() if result.status == "FAIL"]
    assert failed == []


def test_rdf_conforms_to_the_shacl_shapes() -> None:
    data = rdflib.Graph().parse(EXPORTS / "graph.ttl")
    papers = set(data.subjects(rdflib.RDF.type, rdflib.URIRef("https://w3id.org/paperkg/vocab#Paper")))
    assert len(papers) == SEED_PAPERS
    conforms, violations = shacl_violations(data)
    assert conforms and not violations, sorted(violations)


def test_graphml_is_valid_against_our_xsd() -> None:
    assert xsd_errors(EXPORTS / "graph.graphml") == []


def test_networkx_reads_the_seed_papers(graph: nx.DiGraph) -> None:
    assert papers_of([data["kind"] for _, data in graph.nodes(data=True)]) == SEED_PAPERS
    assert graph.number_of_edges() > graph.number_of_nodes() / 2


def test_igraph_reads_the_same_graph(graph: nx.DiGraph) -> None:
    igraph = pytest.importorskip("igraph")
    loaded = igraph.Graph.Read_GraphML(str(EXPORTS / "graph.graphml"))
    assert (loaded.vcount(), loaded.ecount()) == (graph.number_of_nodes(), graph.number_of_edges())
    assert papers_of(loaded.vs["kind"]) == SEED_PAPERS
    assert sorted(loaded.vs["id"]) == sorted(graph)


def test_html_has_no_external_reference() -> None:
    assert external_references((EXPORTS / "graph.html").read_text(encoding="utf-8")) == []


def test_html_offline_in_headless_chromium_with_search_and_click(browser, graph: nx.DiGraph) -> None:
    path = EXPORTS / "graph.html"
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    node, label = searchable_entity(graph)
    assert search(browser, session, label) == node
    assert js(browser, session, "document.querySelector('#details h2').textContent") == label
    paper = max((n for n, d in graph.nodes(data=True) if d["kind"] == "paper"), key=graph.degree)
    click_node(browser, session, paper)
    assert js(browser, session, "document.getElementById('panel').hidden") is False
    assert js(browser, session, "document.getElementById('panel').dataset.node") == paper
    assert graph.nodes[paper]["label"] == js(browser, session, "document.querySelector('#details h2').textContent")
    assert js(browser, session, "document.querySelectorAll('#details .mention').length") > 0
    assert problems(browser.events[start:], session, path.as_uri()) == []
