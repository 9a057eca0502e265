"""The committed exports/ (built from seeds/) as their consumers read them: SHACL, XSD, networkx,
igraph and headless Chromium offline with search and click. Checks the files as committed.

Other export folders get the same tests with PAPERKG_EXPORTS=DIR[:DIR...] (e.g. a corpus build)."""
from __future__ import annotations

import os
from pathlib import Path

import networkx as nx
import pytest
import rdflib

from kg.quality.browser import CANVAS_PIXELS, LABEL_BOXES, js, open_page, overlapping, problems
from kg.quality.check import check_graphml, check_html, check_ttl, external_references, shacl_violations, xsd_errors
from tests.consumers import browser, click_node, search  # noqa: F401  (browser is a fixture)

SEEDS = Path(__file__).resolve().parents[1] / "exports"
SEED_PAPERS = 92
FOLDERS = [SEEDS, *(Path(p) for p in os.environ.get("PAPERKG_EXPORTS", "").split(os.pathsep) if p)]
RDF_PAPER = rdflib.URIRef("https://w3id.org/paperkg/vocab#Paper")


@pytest.fixture(scope="module", params=FOLDERS, ids=[p.name if p != SEEDS else "seeds" for p in FOLDERS])
def exports(request) -> Path:
    """An export folder: the committed seed exports, then any in PAPERKG_EXPORTS."""
    return request.param


@pytest.fixture(scope="module")
def graph(exports: Path) -> nx.DiGraph:
    """The folder's GraphML, read by networkx."""
    return nx.read_graphml(exports / "graph.graphml")


def expected_papers(exports: Path, graph: nx.DiGraph) -> int:
    """92 for the seeds; elsewhere the paper count of the RDF export, which both must agree on."""
    if exports == SEEDS:
        return SEED_PAPERS
    return sum(1 for _ in rdflib.Graph().parse(exports / "graph.ttl").subjects(rdflib.RDF.type, RDF_PAPER))


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


@pytest.mark.slow
@pytest.mark.parametrize("checks", [lambda d: check_ttl(d / "graph.ttl", shacl=False),
                                    lambda d: check_graphml(d / "graph.graphml"),
                                    lambda d: check_html(d / "graph.html")], ids=["ttl", "graphml", "html"])
def test_kg_check_passes_every_file(exports: Path, checks) -> None:
    failed = [result.line() for result in checks(exports) if result.status == "FAIL"]
    assert failed == []


@pytest.mark.slow
def test_rdf_conforms_to_the_shacl_shapes(exports: Path) -> None:
    data = rdflib.Graph().parse(exports / "graph.ttl")
    if exports == SEEDS:
        assert len(set(data.subjects(rdflib.RDF.type, RDF_PAPER))) == SEED_PAPERS
    conforms, violations = shacl_violations(data)
    assert conforms and not violations, sorted(violations)


def test_graphml_is_valid_against_our_xsd(exports: Path) -> None:
    assert xsd_errors(exports / "graph.graphml") == []


def test_networkx_reads_every_paper(exports: Path, graph: nx.DiGraph) -> None:
    assert papers_of([data["kind"] for _, data in graph.nodes(data=True)]) == expected_papers(exports, graph)
    assert graph.number_of_edges() > graph.number_of_nodes() / 2


def test_igraph_reads_the_same_graph(exports: Path, graph: nx.DiGraph) -> None:
    igraph = pytest.importorskip("igraph")
    loaded = igraph.Graph.Read_GraphML(str(exports / "graph.graphml"))
    assert (loaded.vcount(), loaded.ecount()) == (graph.number_of_nodes(), graph.number_of_edges())
    assert papers_of(loaded.vs["kind"]) == papers_of([data["kind"] for _, data in graph.nodes(data=True)])
    assert sorted(loaded.vs["id"]) == sorted(graph)


def test_html_has_no_external_reference(exports: Path) -> None:
    assert external_references((exports / "graph.html").read_text(encoding="utf-8")) == []


def test_html_offline_in_headless_chromium_with_search_and_click(browser, exports: Path, graph: nx.DiGraph) -> None:
    path = exports / "graph.html"
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    node, label = searchable_entity(graph)
    assert search(browser, session, label) == node
    assert js(browser, session, "document.querySelector('#details h2').textContent") == label
    js(browser, session, "(box => box.checked || box.click())(document.querySelector('#legend input[data-type=paper]'))")
    shown = set(js(browser, session, "kgApp.network.body.data.nodes.getIds().map(i => kgApp.nodes[i].id)"))
    paper = max((n for n, d in graph.nodes(data=True) if d["kind"] == "paper" and n in shown), key=graph.degree)
    click_node(browser, session, paper)
    assert js(browser, session, "document.getElementById('panel').hidden") is False
    assert js(browser, session, "document.getElementById('panel').dataset.node") == paper
    assert graph.nodes[paper]["label"] == js(browser, session, "document.querySelector('#details h2').textContent")
    assert js(browser, session, "document.querySelectorAll('#details .mention').length") > 0
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_html_opens_as_a_labelled_map_with_named_communities_and_an_overview(browser, exports: Path,
                                                                             graph: nx.DiGraph) -> None:
    path = exports / "graph.html"
    session, start = open_page(browser, path)
    js(browser, session, "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    boxes = js(browser, session, LABEL_BOXES)
    labels = [b for b in boxes if b["kind"] == "label"]
    width, height = js(browser, session, "[innerWidth, innerHeight]")
    assert len(labels) >= 30 and overlapping(boxes) == []
    assert all(0 <= b["x"] and b["x"] + b["w"] <= width and 0 <= b["y"] and b["y"] + b["h"] <= height for b in boxes)
    names = {data["label"] for _, data in graph.nodes(data=True)}
    assert all(b["text"] in names or (b["text"].endswith("…") and any(n.startswith(b["text"][:-1]) for n in names))
               for b in labels)  # node labels, or their beginnings
    legend = js(browser, session, "[...document.querySelectorAll('#community-list li')].map(li => li.textContent)")
    drawn = [b["text"] for b in boxes if b["kind"] == "community"]
    assert len(legend) >= 3 and drawn and all(any(legend_name.startswith(name) for legend_name in legend)
                                              for name in drawn)
    js(browser, session, "document.querySelector('#community-list li .link').click()")
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "community:0"
    members = js(browser, session, "[...document.querySelectorAll('#details li .link')].map(a => a.textContent)")
    assert legend[0].startswith(" · ".join(members[:3]))  # named by its top entities, listed first
    biggest = max((n for n, d in graph.nodes(data=True) if d["kind"] == "entity"), key=lambda n: graph.nodes[n]["papers"])
    assert any(graph.nodes[biggest]["label"].startswith(b["text"].rstrip("…")) for b in labels)
    js(browser, session, "document.getElementById('tab-overview').click()")
    charts = js(browser, session, "[...document.querySelectorAll('#overview figure')].map(f => "
                                  "[f.querySelector('figcaption').textContent, f.querySelectorAll('svg text').length])")
    captions = [caption for caption, texts in charts if texts > 0]
    assert {"Top methods", "Top datasets", "Paper→entity links: proposed vs used"} <= set(captions)
    assert any(caption.startswith("Communities on the map") for caption in captions)
    assert search(browser, session, graph.nodes[biggest]["label"]) == biggest
    assert js(browser, session, "document.getElementById('overview').hidden") is True
    assert problems(browser.events[start:], session, path.as_uri()) == []
