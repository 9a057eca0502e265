"""The SHACL shapes accept every export and reject broken graphs, naming the broken constraint."""
from __future__ import annotations

from typing import Callable

import pyshacl
import pytest
import rdflib
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, SKOS

from kg.quality.check import shacl_violations
from kg.exporters.rdf import MLKG, NIF, to_rdflib, write_turtle
from kg.graph.resolution import Resolution
from kg.types import Entity, Link, Paper
from tests.support import BASE, ROOT, TRICKY
from tests.support import rdf_resolution as make_resolution

SHAPES = rdflib.Graph().parse(ROOT / "ontology" / "shapes.ttl")
SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")
PAPER = URIRef(BASE + "paper/p1")
FOO = URIRef(BASE + "entity/model/foonet")
IMAGENET = URIRef(BASE + "entity/dataset/imagenet")
FIRST_FOO = URIRef(BASE + f"mention/p1/{TRICKY.index('FooNet')}-{TRICKY.index('FooNet') + 6}")
XSD_NONNEG = URIRef("http://www.w3.org/2001/XMLSchema#nonNegativeInteger")


def validate(data: rdflib.Graph) -> tuple[bool, set[tuple[str, str]]]:
    """Conformance (warnings allowed) and the (component, path) of each violation."""
    return shacl_violations(data, SHAPES)


def statement_of(data: rdflib.Graph, predicate: URIRef, target: URIRef) -> URIRef:
    """The statement reifying `paper1 predicate target`."""
    return next(s for s in data.subjects(RDF.predicate, predicate) if data.value(s, RDF.object) == target)


def without_links_evidence(data: rdflib.Graph) -> rdflib.Graph:
    """The statement of FooNet's link loses its mentions: a warning only."""
    data.remove((statement_of(data, MLKG.proposes, FOO), PROV.wasDerivedFrom, None))
    return data


def untitled_graph() -> rdflib.Graph:
    """A paper with no title, year or evidence-backed sentence, linked to one entity."""
    return to_rdflib(Resolution((Paper("x", "Just text."),), (Entity("task:t", "task", "t"),), (Link("x", "task:t", "used"),)))


@pytest.mark.parametrize("data", [lambda: to_rdflib(make_resolution()), untitled_graph,
                                  lambda: without_links_evidence(to_rdflib(make_resolution()))],
                         ids=["invented", "untitled", "statement-without-evidence"])
def test_exports_conform(data: Callable[[], rdflib.Graph]) -> None:
    conforms, violations = validate(data())
    assert conforms and not violations


def test_the_written_turtle_conforms(tmp_path) -> None:
    write_turtle(make_resolution(), tmp_path / "g.ttl")
    assert validate(rdflib.Graph().parse(tmp_path / "g.ttl"))[0]


def test_a_missing_link_evidence_is_reported_as_a_warning() -> None:
    conforms, report, _ = pyshacl.validate(without_links_evidence(to_rdflib(make_resolution())), shacl_graph=SHAPES,
                                           advanced=True)
    assert not conforms and (None, SH.resultSeverity, SH.Warning) in report


BREAKAGES: dict[str, tuple[Callable[[rdflib.Graph], None], tuple[str, str]]] = {
    "anchor differs from abstract": (lambda g: g.set((FIRST_FOO, NIF.anchorOf, Literal("Foonet"))),
                                     ("NotConstraintComponent", "AnchorShape")),
    "two entity classes": (lambda g: g.add((IMAGENET, RDF.type, MLKG.Task)),
                           ("QualifiedMaxCountConstraintComponent", "type")),
    "no entity class": (lambda g: g.remove((IMAGENET, RDF.type, MLKG.Dataset)),
                        ("QualifiedMinCountConstraintComponent", "type")),
    "two prefLabels": (lambda g: g.add((IMAGENET, SKOS.prefLabel, Literal("IN"))),
                       ("MaxCountConstraintComponent", "prefLabel")),
    "language-tagged abstract": (lambda g: g.set((PAPER, DCTERMS.abstract, Literal("x", lang="en"))),
                                 ("DatatypeConstraintComponent", "abstract")),
    "no abstract": (lambda g: g.remove((PAPER, DCTERMS.abstract, None)), ("MinCountConstraintComponent", "abstract")),
    "mentions not materialised": (lambda g: g.remove((PAPER, MLKG.mentions, IMAGENET)),
                                  ("NotConstraintComponent", "MentionsMaterialisedShape")),
    "proposes a non-entity": (lambda g: g.add((PAPER, MLKG.proposes, PAPER)), ("ClassConstraintComponent", "proposes")),
    "negative offset": (lambda g: g.set((FIRST_FOO, NIF.beginIndex, Literal(-1))),
                        ("MinInclusiveConstraintComponent", "beginIndex")),
    "offset not an xsd:integer": (lambda g: g.set((FIRST_FOO, NIF.beginIndex, Literal(1, datatype=XSD_NONNEG))),
                                  ("DatatypeConstraintComponent", "beginIndex")),
    "begin after end": (lambda g: g.set((FIRST_FOO, NIF.beginIndex, Literal(40))),
                        ("LessThanConstraintComponent", "beginIndex")),
    "hidden label shown too": (lambda g: g.add((IMAGENET, SKOS.hiddenLabel, Literal("ImageNet"))),
                               ("DisjointConstraintComponent", "hiddenLabel")),
    "reified triple not asserted": (lambda g: g.remove((FOO, MLKG.evaluatedOn, IMAGENET)),
                                    ("NotConstraintComponent", "StatementAssertedShape")),
}


@pytest.mark.parametrize("name", BREAKAGES)
def test_a_broken_graph_does_not_conform(name: str) -> None:
    data = to_rdflib(make_resolution())
    breakage, expected = BREAKAGES[name]
    breakage(data)
    conforms, violations = validate(data)
    assert not conforms and expected in violations, violations
