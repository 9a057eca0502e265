"""Compose the stages: read -> parse -> extract -> resolve (the `Resolution` the exporters read)."""
from __future__ import annotations

from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

from kg.extraction.interface import Extraction
from kg.graph.resolution import Resolution, resolve_corpus
from kg.run.engines import EngineOptions, WorkerSpec, run_extraction
from kg.types import DEFAULT_BASE_IRI, Paper

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
                cache: PaperCache | None = None, progress: Progress | None = None,
                loaded: Callable[[], None] | None = None) -> list[Extraction]:
    """Every paper's extraction in input order: cached ones loaded (then `loaded()` is called, when given and
    some were), the rest computed (and stored)."""
    results: list[Extraction | None] = [cache.load(p) if cache else None for p in papers]
    todo = [i for i, extraction in enumerate(results) if extraction is None]
    if loaded and todo and len(todo) < len(papers):
        loaded()
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
             skipped: int = 0) -> tuple[Resolution, BuildStats]:
    """Resolve all extractions (in paper order) into one `Resolution`, the hand-off every exporter reads."""
    resolution = resolve_corpus(papers, extractions, base_iri, skipped)
    tables = resolution.tables
    stats = BuildStats(papers=len(papers), skipped=skipped, mentions=resolution.mentions,
                       entities=Counter(e.type for e in resolution.entities), links=len(resolution.links),
                       relations=sum(map(len, tables.relations.values())), results=len(tables.results))
    return resolution, stats
