"""The build command's work: read, extract with progress, assemble, export, summarise."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import networkx as nx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kg.extract import ExtractFn
from kg.nlp import load_nlp
from kg.pipeline import BuildStats, build
from kg.readers import Corpus, read_corpus
from kg.registry import exporters, lookup

OUTPUT_STEM = "graph"


@dataclass
class BuildReport:
    """What a build did, for the summary."""

    corpus: Corpus
    stats: BuildStats
    outputs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def choose_writers(formats: list[str]) -> list[tuple[str, Callable]]:
    """The exporters named in `formats`, failing on an unknown name before any work is done."""
    import kg.exporters  # noqa: F401  (registers the built-in exporters)

    return [(name, lookup(exporters, name)) for name in formats]


def write_exports(graph: nx.DiGraph, out_dir: Path, writers: list[tuple[str, Callable]]) -> list[Path]:
    """Write `graph.<format>` for each exporter."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, write in writers:
        path = out_dir / f"{OUTPUT_STEM}.{name}"
        write(graph, path)
        paths.append(path)
    return paths


def run_build(paths: list[Path], out_dir: Path, formats: list[str], model: str, base_iri: str,
              quiet: bool, out: Console, err: Console, make_extract: Callable[[], ExtractFn]) -> BuildReport:
    """Build the graph of `paths` into `out_dir` and print the summary."""
    started = time.perf_counter()
    writers = choose_writers(formats)
    corpus = read_corpus(paths)
    for warning in corpus.warnings:
        err.print(f"warning: {warning}", soft_wrap=True)
    nlp, nlp_warning = load_nlp(model)
    if nlp_warning:
        err.print(f"warning: {nlp_warning}", soft_wrap=True)
    extract = make_extract()
    with progress_bar(err, quiet or not err.is_terminal) as bar:
        task = bar.add_task("extracting", total=len(corpus.papers))
        graph, stats = build(corpus.papers, nlp, extract, base_iri, len(corpus.skipped),
                             progress=lambda n: bar.advance(task, n))
    report = BuildReport(corpus, stats, write_exports(graph, out_dir, writers),
                         corpus.warnings + ([nlp_warning] if nlp_warning else []))
    report.seconds = time.perf_counter() - started
    print_summary(report, out)
    return report


def progress_bar(console: Console, disable: bool) -> Progress:
    """A progress bar on stderr, off when not a terminal or when quiet."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, disable=disable, transient=True)


def print_summary(report: BuildReport, out: Console) -> None:
    """Papers read and skipped (with reasons), entities per type, edges, outputs."""
    stats = report.stats
    out.print(f"papers: {stats.papers} built from {report.corpus.records} records, "
              f"{len(report.corpus.skipped)} skipped")
    for skipped in report.corpus.skipped:
        out.print(f"  skipped {skipped}", soft_wrap=True, markup=False)
    table = Table("entity type", "entities", title=None, box=None)
    for entity_type, count in sorted(stats.entities.items()):
        table.add_row(entity_type, str(count))
    table.add_row("total", str(sum(stats.entities.values())))
    out.print(table)
    out.print(f"edges: {stats.links} paper→entity, {stats.relations} entity→entity")
    for path in report.outputs:
        out.print(f"wrote {path}", markup=False)
    out.print(f"done in {report.seconds:.1f}s")
