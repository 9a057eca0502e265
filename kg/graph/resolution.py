"""Resolution's one hand-off: everything it decides about a corpus, frozen and typed (`Resolution`). Every exporter
reads it: RDF from its tables (`Resolution.tables`, `kg.graph.tables`), GraphML and HTML from the networkx graph
built from those tables once per resolution (`graph_of`, the contract in `kg.graph.build`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import networkx as nx

from kg.extraction.interface import Extraction
from kg.graph.resolve import resolve
from kg.graph.results import Result, resolve_results
from kg.graph.tables import Tables, tables_of
from kg.types import DEFAULT_BASE_IRI, Entity, Link, Paper, Relation


@dataclass(frozen=True)
class Resolution:
    """The papers, their entities (one per concept), paper links, entity relations and reported results (entities as
    resolved; the tables keep those of the field's types); `mentions` counts the mentions resolved, `base_iri` is the
    export's and `skipped` counts the input records no paper was read from."""

    papers: tuple[Paper, ...]
    entities: tuple[Entity, ...]
    links: tuple[Link, ...]
    relations: tuple[Relation, ...] = ()
    results: tuple[Result, ...] = ()
    mentions: int = 0
    base_iri: str = DEFAULT_BASE_IRI
    skipped: int = 0

    @cached_property
    def tables(self) -> Tables:
        """What every writer reads, derived once (`kg.graph.tables`)."""
        return tables_of(self.papers, self.entities, self.links, self.relations, self.results)

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The networkx graph, built once; writers that need a graph share it."""
        from kg.graph.build import graph_from

        return graph_from(self.papers, self.tables, self.base_iri, self.skipped)


def resolve_corpus(papers: Iterable[Paper], extractions: Iterable[Extraction], base_iri: str = DEFAULT_BASE_IRI,
                   skipped: int = 0) -> Resolution:
    """Resolve every paper's extraction (in paper order) into one `Resolution`."""
    papers = tuple(papers)
    mentions, relations, pairs, results = [], [], [], []
    for paper, extraction in zip(papers, extractions, strict=True):
        mentions.extend(extraction.mentions)
        results.extend(extraction.results)
        relations.extend(extraction.relations)
        pairs.extend((paper.id, short, long) for short, long in extraction.abbreviations)
    entities, links, entity_relations = resolve(mentions, pairs, relations, papers=papers)
    return Resolution(papers, tuple(entities), tuple(links), tuple(entity_relations),
                      tuple(resolve_results(results, links)), len(mentions), base_iri, skipped)


def graph_of(source: Resolution | nx.DiGraph) -> nx.DiGraph:
    """The networkx graph of a resolution (built once per resolution); a graph is itself."""
    return source if isinstance(source, nx.Graph) else source.graph
