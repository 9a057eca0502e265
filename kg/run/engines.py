"""Where extraction runs: engines registered by name (`kg.registry.engines`): local, dask.

Every engine takes the papers still to extract and yields their extractions in input
order, so outputs do not depend on the engine. Workers get a picklable `WorkerSpec` and
build the spaCy pipeline and the extract function once per process (`kg.run.worker`).
An engine is `run(spec, papers, options) -> Iterator[Extraction]`; plug-ins register through
the `paperkg_engines` entry-point group.
"""
from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from kg.extraction.interface import ExtractFn, Extraction
from kg.registry import engines, lookup
from kg.run.threads import ignoring_interrupts, limit_threads
from kg.run.worker import BATCH_SIZE as CHUNK, chunks, extract_chunk, extract_papers, ordered, worker_state
from kg.types import Paper

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExtractSpec:
    """How to make the extract function: a module-level factory and its arguments."""

    factory: Callable[..., ExtractFn]
    args: tuple = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    version: str | None = None

    def __call__(self) -> ExtractFn:
        return self.factory(*self.args, **dict(self.kwargs))

    def fingerprint(self) -> dict[str, Any]:
        """What identifies the extraction for cache keys: factory, options and version."""
        module = getattr(self.factory, "__module__", "") or ""
        version = self.version
        if version is None and module:
            version = getattr(importlib.import_module(module), "VERSION", None)
        from kg.cache.entries import code_digest

        return {"factory": f"{module}.{getattr(self.factory, '__qualname__', repr(self.factory))}",
                "args": repr(self.args), "kwargs": repr(self.kwargs), "version": version,
                "code": code_digest(*([module] if module else []))}


@dataclass(frozen=True)
class WorkerSpec:
    """Everything a worker needs to extract: the model and the extraction spec."""

    model: str
    extract: ExtractSpec
    batch_size: int = CHUNK


@dataclass
class EngineOptions:
    """Which engine and how much parallelism."""

    engine: str = "local"
    jobs: int = 1
    scheduler: str | None = None
    chunk: int = CHUNK
    in_flight: int = field(default=0)  # chunks submitted ahead; 0 = 2 per worker + 2


def run_extraction(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """The extractions of `papers`, in order, on the engine registered as `options.engine`."""
    run = lookup(engines, options.engine)  # unknown names fail first, naming the valid ones
    if papers:
        yield from run(spec, papers, options)


@engines.register("local")
def run_local(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """In this process (one job) or a pool of `jobs` spawned processes."""
    if options.jobs <= 1:
        return run_serial(spec, papers)
    return run_processes(spec, papers, options)


@engines.register("dask")
def run_on_dask(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """On a Dask cluster (`options.scheduler`, else a local one); distributed loads only here."""
    from kg.run.dask_engine import run_dask

    return run_dask(spec, papers, options)


def run_serial(spec: WorkerSpec, papers: Iterable[Paper]) -> Iterator[Extraction]:
    """In this process, streaming through nlp.pipe."""
    nlp, extract = worker_state(spec)
    for _, extraction in extract_papers(papers, nlp, extract, spec.batch_size):
        yield extraction


def run_processes(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """On `jobs` spawned processes, a bounded number of chunks in flight."""
    jobs = min(options.jobs, -(-len(papers) // options.chunk))
    with start_pool(spec, jobs) as pool:
        submit = lambda chunk: pool.apply_async(extract_chunk, (spec, chunk))  # noqa: E731
        yield from ordered(map(submit, chunks(papers, options.chunk)), options.in_flight or 2 * jobs + 2,
                           lambda pending: pending.get())


def start_pool(spec: WorkerSpec, jobs: int) -> Any:
    """`jobs` spawned extraction processes (a multiprocessing Pool), each with one thread per library pool
    and Ctrl-C ignored."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
    limit_threads(1)  # inherited by the workers: their numpy loads with one BLAS thread
    with ignoring_interrupts():  # the build process alone hears Ctrl-C, and stops the pool
        return context.Pool(jobs, initializer=worker_state, initargs=(spec, True))


def model_fingerprint(model: str) -> str:
    """The model's name and version (package or path) plus spaCy's version, for cache keys."""
    import spacy
    from spacy import util

    label = f"missing:{model}"
    if model == "blank":
        label = "blank"
    elif util.is_package(model):
        label = f"{model}-{util.get_package_version(model)}"
    elif Path(model).exists():
        meta = util.get_model_meta(Path(model)) if (Path(model) / "meta.json").exists() else {}
        label = f"{meta.get('lang', '')}_{meta.get('name', model)}-{meta.get('version', '0')}"
    return f"{label}/spacy-{spacy.__version__}"
