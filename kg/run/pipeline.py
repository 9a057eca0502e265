"""Compose the stages: read -> parse -> extract -> resolve -> graph."""
from __future__ import annotations

from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

import networkx as nx

from kg.extraction.interface import Extraction
from kg.graph.build import DEFAULT_BASE_IRI, to_networkx
from kg.graph.resolve import resolve
from kg.graph.results import attach, resolve_results
from kg.run.engines import EngineOptions, WorkerSpec, run_extraction
from kg.types import Paper

if TYPE_CHECKING:
    from kg.cache.entries import PaperCache

Progress = Callable[[int], None]


@dataclass
class BuildStats:
    """Figures for the build summary."""

    papers: int = 0
    skipped: int = 0
    mentions: int = 0
    entities: Counter = field(default_factory=Counter)
    links: int = 0
    relations: int = 0
    results: int = 0


def extract_all(papers: list[Paper], spec: WorkerSpec, options: EngineOptions,
                cache: PaperCache | None = None, progress: Progress | None = None) -> list[Extraction]:
    """Every paper's extraction in input order: cached ones loaded, the rest computed (and stored)."""
    results: list[Extraction | None] = [cache.load(p) if cache else None for p in papers]
    todo = [i for i, extraction in enumerate(results) if extraction is None]
    if progress and len(todo) < len(papers):
        progress(len(papers) - len(todo))
    indices = iter(todo)
    try:
        with closing(run_extraction(spec, [papers[i] for i in todo], options)) as computed:
            for extraction in computed:  # run to the end, so pools and clusters shut down here
                index = next(indices)
                results[index] = extraction
                if cache and not extraction.failed:
                    cache.store(papers[index], extraction)
                if progress:
                    progress(1)
    finally:
        if cache:
            cache.flush()  # the entries written so far, even when the build stops
    return results  # type: ignore[return-value]


def assemble(papers: list[Paper], extractions: Iterable[Extraction], base_iri: str = DEFAULT_BASE_IRI,
             skipped: int = 0) -> tuple[nx.DiGraph, BuildStats]:
    """Resolve all extractions into entities and links, and build the graph."""
    mentions, relations, pairs, results = [], [], [], []
    for paper, extraction in zip(papers, extractions, strict=True):  # extractions come in paper order
        mentions.extend(extraction.mentions)
        results.extend(extraction.results)
        relations.extend(extraction.relations)
        pairs.extend((paper.id, short, long) for short, long in extraction.abbreviations)
    entities, links, entity_relations = resolve(mentions, pairs, relations, papers=papers)
    graph = to_networkx(papers, entities, links, entity_relations, base_iri=base_iri, papers_skipped=skipped)
    attach(graph, resolve_results(results, links))
    stats = BuildStats(papers=len(papers), skipped=skipped, mentions=len(mentions),
                       entities=Counter(e.type for e in entities), links=len(links),
                       relations=graph.number_of_edges() - len(links), results=len(graph.graph["results"]))
    return graph, stats
