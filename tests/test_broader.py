"""Which entity another is a kind of, read from the names (kg.graph.broader)."""
from __future__ import annotations

from collections import Counter

import pytest

from kg.graph.broader import with_broader
from kg.types import Entity

ENTITIES = [
    Entity("method:zorp-learning", "method", "zorp learning", ("ZL",)),
    Entity("method:deep-zorp-learning", "method", "deep zorp learning"),
    Entity("model:glorb-adversarial-network", "model", "glorb adversarial network", ("GLAN", "GLANs")),
    Entity("model:wiggle-glan", "model", "Wiggle GLAN"),
    Entity("task:quux-detection", "task", "quux detection"),
    Entity("task:fast-quux-detection", "task", "fast quux detection"),
    Entity("dataset:quux-detection-set", "dataset", "Quux Detection"),
    Entity("method:blip", "method", "BLIP"),
    Entity("method:beam-blip", "method", "beam blip"),
    Entity("metric:rate-of-zorp-learning", "metric", "rate of zorp learning"),
    Entity("method:lonely", "method", "lonely"),
    Entity("method:very-lonely", "method", "very lonely"),
]


@pytest.fixture(scope="module")
def broader() -> dict[str, tuple[str, ...]]:
    papers = Counter({e.id: 1 if e.id == "method:lonely" else 3 for e in ENTITIES})
    return {e.id: e.broader for e in with_broader(ENTITIES, papers)}


@pytest.mark.parametrize("entity, expected", [
    ("method:deep-zorp-learning", ("method:zorp-learning",)),  # a leading modifier dropped
    ("model:wiggle-glan", ("model:glorb-adversarial-network",)),  # the tail is an alias (acronym)
    ("task:fast-quux-detection", ("task:quux-detection",)),  # the longest tail of a compatible type
    ("method:zorp-learning", ()),  # nothing shorter is an entity
    ("method:beam-blip", ()),  # BLIP is an acronym: only its exact spelling names it
    ("metric:rate-of-zorp-learning", ()),  # an `of` phrase is not a kind of its last words
    ("method:very-lonely", ()),  # a parent must be named by two papers or more
])
def test_an_entity_is_a_kind_of_the_longest_tail_of_its_name_that_is_an_entity(broader, entity, expected):
    assert broader[entity] == expected


def test_the_graph_and_exports_carry_the_broader_entity(tmp_path):
    import networkx as nx
    from rdflib import Graph, URIRef
    from rdflib.namespace import SKOS

    from kg.exporters.graphml import write_graphml
    from kg.exporters.rdf import write_turtle
    from kg.graph.resolve import resolve
    from kg.graph.resolution import Resolution, graph_of
    from kg.types import Paper
    from tests.support import mention_in

    papers = [Paper(f"p{i}", text) for i, text in enumerate(
        ["We use zorp learning.", "Zorp learning again: zorp learning.", "We propose deep zorp learning."])]
    mentions = [mention_in(p, name, "method", "used") for p, name in
                zip(papers, ["zorp learning", "zorp learning", "deep zorp learning"])]
    entities, links, _ = resolve(mentions)
    resolution = Resolution(tuple(papers), tuple(entities), tuple(links))
    graph = graph_of(resolution)
    child = next(n for n, d in graph.nodes(data=True) if d["kind"] == "entity" and d["label"] == "deep zorp learning")
    parent = next(n for n, d in graph.nodes(data=True) if d["kind"] == "entity" and d["label"] == "zorp learning")
    assert graph.nodes[child]["broader"] == (parent,)
    write_graphml(resolution, tmp_path / "g.graphml")
    assert nx.read_graphml(tmp_path / "g.graphml").nodes[child]["broader"] == parent
    write_turtle(resolution, tmp_path / "g.ttl")
    rdf = Graph().parse(tmp_path / "g.ttl")
    pairs = [(str(s), str(o)) for s, o in rdf.subject_objects(SKOS.broader)]
    assert len(pairs) == 1 and pairs[0][0].endswith("deep-zorp-learning") and pairs[0][1].endswith("/zorp-learning")
