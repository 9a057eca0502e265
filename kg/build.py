"""The build command's work: read, extract with progress, assemble, export, summarise."""
from __future__ import annotations

import time
from contextlib import contextmanager
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

import networkx as nx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kg.engines import EngineOptions, ExtractSpec, WorkerSpec, as_spec, model_fingerprint
from kg.extract import ExtractFn, too_long
from kg.forked import can_fork, run_forked
from kg.layout import node_metrics
from kg.nlp import BLANK, load_nlp
from kg.pipeline import BuildStats, Progress as ProgressFn, assemble, extract_all
from kg.readers import Corpus, read_corpus
from kg.registry import UnknownNameError, exporters, lookup

OUTPUT_STEM = "graph"
# Above this many nodes exporters run one after another in the build process: forked exporters
# each end up copying the graph pages they read, which at this size costs more memory than time.
PARALLEL_EXPORT_NODES = 50_000


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


@contextmanager
def stage(stages: dict[str, float], name: str) -> Iterator[None]:
    """Add the wall time of the block to `stages[name]`."""
    started = time.perf_counter()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - started


def choose_writers(formats: list[str], views: Sequence[str] = ("full",)) -> list[tuple[str, Callable]]:
    """The exporters named in `formats`, GraphML once per view; unknown names fail before any work."""
    import kg.exporters  # noqa: F401  (registers the built-in exporters)
    from kg.views import VIEWS

    for view in views:
        if view not in VIEWS:
            raise UnknownNameError(f"unknown view {view!r} (choose from: {', '.join(VIEWS)})")
    if list(views) != ["full"] and "graphml" not in formats:
        raise UnknownNameError(f"--view {','.join(views)} applies to GraphML: add graphml to --format")
    writers: list[tuple[str, Callable]] = []
    for name in formats:
        write = lookup(exporters, name)
        if name != "graphml":
            writers.append((name, write))
            continue
        writers.extend((name, write) if view == "full" else (f"{name}:{view}", partial(write, view=view))
                       for view in views)
    return writers


def output_name(writer: str) -> str:
    """The file a writer makes: graph.<format>, or graph-<view>.<format> for `format:view`."""
    fmt, _, view = writer.partition(":")
    return f"{OUTPUT_STEM}-{view}.{fmt}" if view else f"{OUTPUT_STEM}.{fmt}"


def write_exports(graph: nx.DiGraph, out_dir: Path, writers: list[tuple[str, Callable]],
                  stages: dict[str, float] | None = None, processes: int = 1) -> list[Path]:
    """Write `graph.<format>` for each exporter, timing each into `stages`; forked in parallel if asked."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stages = {} if stages is None else stages
    paths = {name: out_dir / output_name(name) for name, _ in writers}
    if processes > 1 and len(writers) > 1 and can_fork() and graph.number_of_nodes() <= PARALLEL_EXPORT_NODES:
        writers = sorted(writers, key=lambda named: uses_layout(named[1]))  # stable: layout-free ones first
        warm_up = partial(timed, stages, "layout", partial(node_metrics, graph))
        with stage(stages, "exports (parallel wall)"):
            seconds = run_forked({name: partial(write, graph, paths[name]) for name, write in writers}, processes,
                                 warm_up if any(uses_layout(write) for _, write in writers) else None)
        stages.update((f"export {name}", value) for name, value in seconds.items())
        return list(paths.values())
    for name, write in writers:
        with stage(stages, f"export {name}"):
            write(graph, paths[name])
    return list(paths.values())


def uses_layout(write: Callable) -> bool:
    """Whether an exporter reads kg.layout's positions and metrics (plug-ins are assumed to)."""
    return getattr(write, "uses_layout", True)


def timed(stages: dict[str, float], name: str, call: Callable[[], object]) -> None:
    """Make the call, adding its wall time to `stages[name]`."""
    with stage(stages, name):
        call()


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
    from kg.cache import PaperCache, default_cache_dir, setup_salt

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
