"""The build command's work: read, extract with progress, assemble, export, summarise."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kg.run.engines import EngineOptions, ExtractSpec, WorkerSpec, as_spec, model_fingerprint
from kg.extraction.interface import ExtractFn, too_long
from kg.nlp.load import BLANK, load_nlp
from kg.run.outputs import choose_writers, write_exports
from kg.run.pipeline import BuildStats, Progress as ProgressFn, assemble, extract_all
from kg.io.readers import Corpus, read_corpus
from kg.run.timing import stage


@dataclass
class BuildOptions:
    """How extraction runs: engine, processes, and the per-paper cache."""

    jobs: int = 1
    engine: str = "local"
    scheduler: str | None = None
    cache_dir: Path | None = None
    use_cache: bool = True


@dataclass
class BuildReport:
    """What a build did, for the summary."""

    corpus: Corpus
    stats: BuildStats
    outputs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)
    cache: str | None = None


def run_build(paths: list[Path], out_dir: Path, formats: list[str], model: str, base_iri: str,
              quiet: bool, out: Console, err: Console, make_extract: Callable[[], ExtractFn] | ExtractSpec,
              options: BuildOptions | None = None, views: Sequence[str] = ("full",)) -> BuildReport:
    """Build the graph of `paths` into `out_dir` and print the summary."""
    writers = choose_writers(formats, views)
    with progress_bar(err, quiet or not err.is_terminal) as bar:
        task = bar.add_task("extracting", total=None)

        def on_read(total: int) -> None:
            bar.update(task, total=total)

        report = execute_build(paths, out_dir, writers, model, base_iri, as_spec(make_extract),
                               options or BuildOptions(), lambda n: bar.advance(task, n), on_read,
                               lambda w: err.print(f"warning: {w}", soft_wrap=True))
    print_summary(report, out)
    return report


def execute_build(paths: list[Path], out_dir: Path, writers: list[tuple[str, Callable]], model: str,
                  base_iri: str, spec: ExtractSpec, options: BuildOptions,
                  progress: ProgressFn | None = None, on_read: Callable[[int], None] | None = None,
                  warn: Callable[[str], None] | None = None) -> BuildReport:
    """Read, extract (engine, cache), resolve, build the graph and export; time each stage."""
    started = time.perf_counter()
    stages: dict[str, float] = {}
    with stage(stages, "read"):
        corpus = read_corpus(paths)
    nlp_warning = model_warning(model)
    corpus.warnings.extend(filter(None, map(too_long, corpus.papers)))
    for warning in corpus.warnings + ([nlp_warning] if nlp_warning else []):
        if warn:
            warn(warning)
    if on_read:
        on_read(len(corpus.papers))
    cache = open_cache(options, spec, model)
    engine = EngineOptions(engine=options.engine, jobs=options.jobs, scheduler=options.scheduler)
    with stage(stages, "extract"):
        extractions = extract_all(corpus.papers, WorkerSpec(model, spec), engine, cache, progress)
    with stage(stages, "resolve+graph"):
        graph, stats = assemble(corpus.papers, extractions, base_iri, len(corpus.skipped))
    del extractions
    outputs = write_exports(graph, out_dir, writers, stages, processes=options.jobs)
    report = BuildReport(corpus, stats, outputs, corpus.warnings + ([nlp_warning] if nlp_warning else []),
                         stages=stages)
    if cache:
        report.cache = f"{cache.hits} reused, {cache.misses} extracted ({cache.corrupt} corrupt) in {cache.directory}"
    report.seconds = time.perf_counter() - started
    return report


def model_warning(model: str) -> str | None:
    """The warning load_nlp would give for `model`, without loading an installed model."""
    from spacy import util

    if model == BLANK or util.is_package(model) or Path(model).exists():
        return None
    return load_nlp(model)[1]


def open_cache(options: BuildOptions, spec: ExtractSpec, model: str):
    """The per-paper cache for this extraction setup, or None with --no-cache."""
    if not options.use_cache:
        return None
    from kg import __version__
    from kg.run.cache import PaperCache, default_cache_dir, setup_salt

    salt = setup_salt(extract=spec.fingerprint(), model=model_fingerprint(model), paperkg=__version__)
    return PaperCache(options.cache_dir or default_cache_dir(), salt)


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
    if report.cache:
        out.print(f"cache: {report.cache}", markup=False, soft_wrap=True)
    out.print(f"done in {report.seconds:.1f}s")
