"""The one build entry point: read (or take) papers, extract (engine, cache), resolve, graph, export.

`kg build`, `kg eval`, `kg bench` and scripts all call `build(inputs, config)`; `run_build` adds the
command line's progress bar and summary. One frozen `BuildConfig` says how.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, Union

import networkx as nx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kg.errors import UserError
from kg.graph.resolution import Resolution, graph_of
from kg.extraction.interface import too_long
from kg.io.readers import Corpus, read_corpus
from kg.nlp import BLANK, DEFAULT_MODEL
from kg.run.collector import build_scope, paused, settle
from kg.run.engines import EngineOptions, ExtractSpec, WorkerSpec, model_fingerprint
from kg.run.manifest import output_folder
from kg.run.outputs import choose_writers, uses_layout, write_exports
from kg.run.pipeline import BuildStats, assemble, extract_all
from kg.run.timing import stage
from kg.types import DEFAULT_BASE_IRI, DEFAULT_FORMATS


@dataclass(frozen=True)
class BuildConfig:
    """Everything a build needs besides its inputs; frozen, so one value describes one build."""

    extract: ExtractSpec  # how each worker makes the extract function (the CLI wires kg.extractors in)
    model: str = DEFAULT_MODEL
    formats: tuple[str, ...] = DEFAULT_FORMATS
    views: tuple[str, ...] = ("full",)
    base_iri: str = DEFAULT_BASE_IRI
    engine: str = "local"
    jobs: int = 1
    scheduler: str | None = None
    cache_dir: Path | None = None
    use_cache: bool = True


@dataclass(frozen=True)
class BuildHooks:
    """What a caller hears during a build (all optional): papers read, papers extracted, warnings."""

    on_read: Callable[[int], None] | None = None
    progress: Callable[[int], None] | None = None
    warn: Callable[[str], None] | None = None


@dataclass
class BuildReport:
    """What a build did: the corpus, its resolution and figures, files written, warnings, timing."""

    corpus: Corpus
    stats: BuildStats
    resolution: Resolution | None = None
    outputs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)
    cache: str | None = None

    @property
    def graph(self) -> nx.DiGraph | None:
        """The networkx graph of the resolution (built on first use), None before resolution."""
        return graph_of(self.resolution) if self.resolution is not None else None


Inputs = Union[Sequence[Path], Corpus]


def build(inputs: Inputs, config: BuildConfig, out_dir: Path | None = None,
          hooks: BuildHooks = BuildHooks()) -> BuildReport:
    """Build the graph of `inputs` (files/folders to read, or a corpus already read) and, unless
    `out_dir` is None, write the chosen exports there, holding its lock (one build at a time per
    output folder: kg.run.atomic); time each stage."""
    if out_dir is None:
        return build_unlocked(inputs, config, None, hooks)
    with output_folder(out_dir):
        return build_unlocked(inputs, config, out_dir, hooks)


def build_unlocked(inputs: Inputs, config: BuildConfig, out_dir: Path | None = None,
                   hooks: BuildHooks = BuildHooks()) -> BuildReport:
    """`build` without the output folder's lock."""
    with build_scope():  # each stage's results are frozen out of the garbage collector's scans (kg.run.collector)
        return build_stages(inputs, config, out_dir, hooks)


def build_stages(inputs: Inputs, config: BuildConfig, out_dir: Path | None, hooks: BuildHooks) -> BuildReport:
    """Read, extract, resolve and graph, export: each stage timed, what it hands on settled (`collector.settle`)."""
    writers = choose_writers(list(config.formats), config.views) if out_dir is not None else []
    started = time.perf_counter()
    stages: dict[str, float] = {}
    with stage(stages, "read"):
        corpus = inputs if isinstance(inputs, Corpus) else read_corpus(list(inputs))
    warnings = corpus.warnings + list(filter(None, map(too_long, corpus.papers)))
    nlp_warning = model_warning(config.model)
    warnings += [nlp_warning] if nlp_warning else []
    for warning in warnings:
        if hooks.warn:
            hooks.warn(warning)
    if hooks.on_read:
        hooks.on_read(len(corpus.papers))
    cache = open_cache(config)
    engine = EngineOptions(engine=config.engine, jobs=config.jobs, scheduler=config.scheduler)
    with stage(stages, "extract"):
        extractions = extract_all(corpus.papers, WorkerSpec(config.model, config.extract), engine, cache,
                                  hooks.progress, loaded=settle)
    settle()
    failed = [f"{', '.join(map(str, paper.sources)) or paper.id}: extraction failed ({extraction.failed}); "
              "the paper is kept without entities" for paper, extraction in zip(corpus.papers, extractions)
              if extraction.failed]
    for warning in failed:
        if hooks.warn:
            hooks.warn(warning)
    warnings += failed
    if corpus.papers and len(failed) == len(corpus.papers):
        kept = f"; {out_dir} was left as it was" if out_dir is not None else ""
        raise UserError(f"extraction failed for every paper ({len(failed)}){kept}; first: "
                        f"{failed[0].split('; the paper is kept')[0]}")
    with stage(stages, "resolve+graph"), paused():  # long-lived objects, no cyclic garbage (kg.run.collector)
        resolution, stats = assemble(corpus.papers, extractions, config.base_iri, len(corpus.skipped))
        if any(uses_layout(write) for _, write in writers):
            graph_of(resolution)  # built once, here, for the writers that need a graph (they share it)
    del extractions
    settle()
    outputs = write_exports(resolution, out_dir, writers, stages, processes=config.jobs) if out_dir is not None else []
    report = BuildReport(corpus, stats, resolution, outputs, warnings, stages=stages)
    if cache:
        report.cache = f"{cache.hits} reused, {cache.misses} extracted ({cache.corrupt} corrupt) in {cache.directory}"
    report.seconds = time.perf_counter() - started
    return report


def run_build(paths: Sequence[Path], out_dir: Path, config: BuildConfig, out: Console, err: Console,
              quiet: bool = False) -> BuildReport:
    """`kg build`: build with a progress bar on stderr, then print the summary."""
    choose_writers(list(config.formats), config.views)  # unknown formats or views fail before any work
    with progress_bar(err, quiet or not err.is_terminal) as bar:
        task = bar.add_task("extracting", total=None)
        hooks = BuildHooks(on_read=lambda total: bar.update(task, total=total),
                           progress=lambda n: bar.advance(task, n),
                           warn=lambda w: err.print(f"warning: {w}", soft_wrap=True))
        report = build(paths, config, out_dir, hooks)
    print_summary(report, out)
    return report


def model_warning(model: str) -> str | None:
    """The warning load_nlp would give for `model`, without loading an installed model."""
    from spacy import util

    from kg.errors import UserError
    from kg.nlp.load import load_nlp, model_path_problem

    problem = model != BLANK and model_path_problem(model)
    if problem:
        raise UserError(problem)
    if model == BLANK or util.is_package(model) or Path(model).exists():
        return None
    return load_nlp(model)[1]


def open_cache(config: BuildConfig):
    """The per-paper cache for this extraction setup, or None with --no-cache."""
    if not config.use_cache:
        return None
    from kg import __version__
    from kg.cache.entries import PaperCache, default_cache_dir, setup_salt

    salt = setup_salt(extract=config.extract.fingerprint(), model=model_fingerprint(config.model), paperkg=__version__)
    return PaperCache(config.cache_dir or default_cache_dir(), salt)


def progress_bar(console: Console, disable: bool) -> Progress:
    """A progress bar on stderr, off when not a terminal or when quiet."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, disable=disable, transient=True)


def print_summary(report: BuildReport, out: Console) -> None:
    """Papers read and skipped (with reasons), entities per type, edges, outputs."""
    stats = report.stats
    records, skipped = report.corpus.records, len(report.corpus.skipped)
    merged = records - skipped - stats.papers  # records whose abstract an earlier record already had
    out.print(f"papers: {stats.papers} built from {records} record{'s' * (records != 1)}, {skipped} skipped"
              + (f", {merged} merged (the same abstract as an earlier record: its paper lists every source)"
                 if merged > 0 else ""), soft_wrap=True)
    for skipped in report.corpus.skipped:
        out.print(f"  skipped {skipped}", soft_wrap=True, markup=False)
    for header in report.corpus.headers:
        out.print(f"  header  {header.file}:{header.line}: {header.text!r} (the listing's title, not an abstract)",
                  soft_wrap=True, markup=False)
    table = Table("entity type", "entities", title=None, box=None)
    for entity_type, count in sorted(stats.entities.items()):
        table.add_row(entity_type, str(count))
    table.add_row("total", str(sum(stats.entities.values())))
    out.print(table)
    out.print(f"edges: {stats.links} paper→entity, {stats.relations} entity→entity; results reported: {stats.results}")
    for path in report.outputs:
        out.print(f"wrote {path}", markup=False)
    if report.cache:
        out.print(f"cache: {report.cache}", markup=False, soft_wrap=True)
    out.print(f"done in {report.seconds:.1f}s")
