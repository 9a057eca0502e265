"""Short paper labels: the name a title-less paper proposes, else key words, else its opening words;
the same label in the graph, GraphML and RDF."""
from __future__ import annotations

import networkx as nx
import pytest
import rdflib

from kg.exporters.graphml import write_graphml
from kg.exporters.rdf import write_turtle
from kg.graph.paper_labels import looks_coined
from kg.graph.resolution import graph_of

RDFS_LABEL = rdflib.RDFS.label


def label(make_graph, abstract: str, spans, title=None) -> str:
    """The label `kg.graph.to_networkx` gives an extra paper p8."""
    return make_graph([("p8", title, abstract, spans)]).nodes["paper:p8"]["label"]


@pytest.mark.parametrize(("abstract", "spans", "expected"), [
    ("Parsing is hard. We propose FrobNet-2, a parser for trees.",
     [("Parsing", "task", "used"), ("FrobNet-2", "model", "proposed")], "Paper proposing FrobNet-2"),
    ("Sorting is slow. We introduce Quicksift Tables for sorting.",
     [("Sorting", "task", "used"), ("Quicksift Tables", "method", "proposed")], "Paper proposing Quicksift Tables"),
    ("We propose a new sampling scheme for fluid meshes with mesh coarsening.",
     [("sampling scheme", "method", "proposed"), ("mesh coarsening", "task", "used")],
     "Paper on sampling scheme, mesh coarsening"),
    ("In this paper, we propose a careful look at why things fall over in windy weather.", [],
     "Paper: \u201cCareful look at why things fall over in windy weather\u201d"),
])
def test_title_less_paper_gets_a_recognisable_short_label(make_graph, abstract, spans, expected):
    assert label(make_graph, abstract, spans) == expected


def test_a_title_is_always_the_label(make_graph):
    assert label(make_graph, "We propose FrobNet.", [("FrobNet", "model", "proposed")], title="A Title") == "A Title"


def test_two_papers_proposing_the_same_name_get_different_labels(make_graph):
    G = make_graph([("p8", None, "We propose FrobNet for parsing trees.", [("FrobNet", "model", "proposed"),
                                                                         ("parsing trees", "task", "used")]),
                    ("p9", None, "We propose FrobNet for sorting lists.", [("FrobNet", "model", "proposed"),
                                                                          ("sorting lists", "task", "used")])])
    labels = {G.nodes[p]["label"] for p in ("paper:p8", "paper:p9")}
    assert labels == {"Paper proposing FrobNet (parsing trees)", "Paper proposing FrobNet (sorting lists)"}


@pytest.mark.parametrize(("name", "at_start", "coined"), [
    ("ResNet", False, True), ("Q3X", False, True), ("Blorp-Selfie", False, True), ("Quill Gate", False, True),
    ("Zorbo", False, True), ("Zorbo", True, False), ("amplification", False, False),
    ("unified glimmer feedback framework", False, False), ("Raw", False, False),
])
def test_coined_names_are_told_from_descriptions(name, at_start, coined):
    assert looks_coined(name, at_start) is coined


def test_a_paper_label_never_reads_as_an_entity_or_a_community_name(make_graph):
    G = make_graph([("p8", None, "We propose FrobNet.", [("FrobNet", "model", "proposed")])])
    entity_labels = {d["label"] for _, d in G.nodes(data=True) if d.get("kind") == "entity"}
    paper_labels = [d["label"] for _, d in G.nodes(data=True) if d.get("kind") == "paper" and not d.get("title")]
    assert paper_labels and all(label.startswith("Paper") and "\u00b7" not in label for label in paper_labels)
    assert not entity_labels & set(paper_labels)


def test_graphml_and_rdf_carry_the_same_paper_label(make_resolution, tmp_path):
    resolution = make_resolution()
    G = graph_of(resolution)
    write_graphml(resolution, tmp_path / "g.graphml")
    write_turtle(resolution, tmp_path / "g.ttl")
    graphml = nx.read_graphml(tmp_path / "g.graphml")
    rdf = rdflib.Graph().parse(tmp_path / "g.ttl")
    paper = rdflib.URIRef(G.graph["base_iri"] + "paper/p2")
    assert G.nodes["paper:p2"]["label"] == graphml.nodes["paper:p2"]["label"] == str(rdf.value(paper, RDFS_LABEL))
    assert G.nodes["paper:p2"]["label"] == "Paper on Glimmer parsing, Zorbnet, Quux corpus"
