"""Resolution's one hand-off: everything it decides about a corpus, frozen and typed (`Resolution`), and the networkx
graph built from it for the writers that need a graph (`graph_of`, the contract in `kg.graph.build`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import networkx as nx

from kg.extraction.interface import Extraction
from kg.graph.build import DEFAULT_BASE_IRI, to_networkx
from kg.graph.resolve import resolve
from kg.graph.results import Result, attach, resolve_results
from kg.types import Entity, Link, Paper, Relation


@dataclass(frozen=True)
class Resolution:
    """The papers, their entities (one per concept), paper links, entity relations and reported results; `mentions`
    counts the mentions resolved. Results name entities as resolved; `graph_of` keeps those of the field's types."""

    papers: tuple[Paper, ...]
    entities: tuple[Entity, ...]
    links: tuple[Link, ...]
    relations: tuple[Relation, ...]
    results: tuple[Result, ...]
    mentions: int = 0


def resolve_corpus(papers: Iterable[Paper], extractions: Iterable[Extraction]) -> Resolution:
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
                      tuple(resolve_results(results, links)), len(mentions))


def graph_of(resolution: Resolution, base_iri: str = DEFAULT_BASE_IRI, skipped: int = 0) -> nx.DiGraph:
    """The networkx graph of a resolution, with its results attached."""
    graph = to_networkx(resolution.papers, resolution.entities, resolution.links, resolution.relations,
                        base_iri=base_iri, papers_skipped=skipped)
    attach(graph, resolution.results)
    return graph
