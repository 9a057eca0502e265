"""RDF export (Turtle, N-Triples, JSON-LD): deterministic IRIs, no blank nodes, streamed output.

The triples come from one generator of subject blocks (`kg.exporters.rdf_blocks.iter_blocks`) over the build's
`Resolution` (`kg.graph.resolution`; no networkx graph is built for RDF), one paper or entity at a time. Blocks are plain strings (`kg.exporters.rdf_terms`)
written as they come: memory stays one paper deep (no global triple set, no rdflib Graph) and the
output is byte-stable (independent of PYTHONHASHSEED). `to_rdflib` loads the same triples into an
rdflib Graph for in-process use.
Vocabulary: ontology/paperkg.ttl (`mlkg:` is fixed at DEFAULT_BASE_IRI + "vocab#", whatever the
instance base), provenance with NIF 2.0 spans and reified `rdf:Statement`s (CS-KG pattern).
"""
from __future__ import annotations

from typing import Callable

from rdflib import Graph, URIRef

from kg.exporters.rdf_blocks import Iris, iter_blocks  # noqa: F401  (Iris: part of the API)
from kg.exporters.rdf_terms import (PREFIXES, Block, Iri, jsonld_header, jsonld_node, ntriples_block, rdflib_object,
                                    turtle_block, turtle_header)
from kg.exporters.target import Target, text_output
from kg.graph.resolution import Resolution
from kg.registry import exporters


class Terms:
    """A namespace of rdflib `URIRef`s for in-process use (`MLKG.Paper`), each built once."""

    def __init__(self, namespace: str) -> None:
        self._namespace = namespace

    def __str__(self) -> str:
        return self._namespace

    def __getattr__(self, name: str) -> URIRef:
        if name.startswith("_"):
            raise AttributeError(name)
        term = self.__dict__[name] = URIRef(self._namespace + name)
        return term


MLKG, SCHEMA, NIF, ITSRDF, DCTERMS, PROV, RDF, RDFS, SKOS, XSD = (Terms(PREFIXES[p]) for p in (
    "mlkg", "schema", "nif", "itsrdf", "dcterms", "prov", "rdf", "rdfs", "skos", "xsd"))


def stream(resolution: Resolution, path: Target, header: str, write_block: Callable[[Iri, Block], str],
           separator: str = "", footer: str = "") -> None:
    """Write `header`, each block as it is generated (joined by `separator`), then `footer`."""
    with text_output(path) as out:
        out.write(header)
        for n, (subject, block) in enumerate(iter_blocks(resolution)):
            out.write(separator + write_block(subject, block) if n else write_block(subject, block))
        out.write(footer)


def write_ntriples(resolution: Resolution, path: Target) -> None:
    """Write N-Triples (UTF-8), subject by subject (papers, then entities), each line once."""
    stream(resolution, path, "", ntriples_block)


def write_turtle(resolution: Resolution, path: Target) -> None:
    """Write Turtle, one statement per subject (papers, then entities)."""
    stream(resolution, path, turtle_header(), turtle_block)


def write_jsonld(resolution: Resolution, path: Target) -> None:
    """Write flattened JSON-LD with an inline context, one node object per line (no blank nodes)."""
    stream(resolution, path, jsonld_header(), jsonld_node, separator=",\n", footer="\n ]\n}\n")


def to_rdflib(resolution: Resolution) -> Graph:
    """The export as an rdflib Graph with the prefixes bound."""
    graph = Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace)
    for subject, block in iter_blocks(resolution):
        for predicate, objects in block.items():
            for obj in objects:
                graph.add((URIRef(subject), URIRef(predicate), rdflib_object(obj)))
    return graph


for _writer in (write_turtle, write_ntriples, write_jsonld):
    _writer.uses_layout = False  # type: ignore[attr-defined]  (kg.run.outputs forks these before the layout)
exporters.register("ttl", func=write_turtle)
exporters.register("nt", func=write_ntriples)
exporters.register("jsonld", func=write_jsonld)
