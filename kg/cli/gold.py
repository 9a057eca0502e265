"""Gold files for the CLI: their abstracts as papers, and the predicted items of a build over them."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from rich.console import Console

if TYPE_CHECKING:
    from kg.types import Paper


def gold_papers(records: list[dict], file: str) -> list[Paper]:
    """The gold abstracts as papers whose ids equal the gold ids."""
    from kg.io.readers import Skipped, record_to_paper

    papers = []
    for line, record in enumerate(records, start=1):
        paper = record_to_paper({"id": record["id"], "year": record.get("year"),
                                 "abstract": record.get("text", record.get("abstract"))}, file, line)
        if not isinstance(paper, Skipped):
            papers.append(paper)
    return papers


def read_files(golds: list[Path]) -> dict[Path, list[dict]]:
    """The records of each gold file, every file read (and checked) before any work starts."""
    from kg.quality.evaluate import read_gold

    return {gold: read_gold(gold) for gold in golds}


def gold_items_of(files: dict[Path, list[dict]]) -> list[tuple[str, dict, Paper]]:
    """(file name, record, paper) of every usable gold record, file by file."""
    found = []
    for gold, records in files.items():
        by_id = {r["id"]: r for r in records}
        found += [(gold.name, by_id[p.id], p) for p in gold_papers(records, gold.name)]
    return found


def build_items(papers: list[Paper], model: str, names: tuple[str, ...], spec_kwargs: tuple[tuple, str],
                use_cache: bool = True, factory: Callable | None = None) -> list:
    """The predicted items of a graph built from `papers` through the one build entry point (`factory`: how to
    make the extract step from `names` and the keyword arguments; default `build_extract`)."""
    from kg.extractors import build_extract
    from kg.io.corpus import Corpus
    from kg.quality.evaluate import graph_items
    from kg.run.build import BuildConfig, BuildHooks, build
    from kg.run.engines import ExtractSpec

    kwargs, version = spec_kwargs
    spec = ExtractSpec(factory or build_extract, args=(names,), kwargs=kwargs, version=version)
    warn = Console(stderr=True, highlight=False)
    report = build(Corpus(papers), BuildConfig(spec, model=model, use_cache=use_cache),
                   hooks=BuildHooks(warn=lambda w: warn.print(f"warning: {w}", markup=False)))
    return graph_items(report.graph)
