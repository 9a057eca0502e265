"""Where extraction runs: in this process, in a pool of processes, or on a Dask cluster.

Every engine takes the papers still to extract and yields their extractions in input
order, so outputs do not depend on the engine. Workers get a picklable `WorkerSpec` and
build the spaCy pipeline and the extract function once per process.
"""
from __future__ import annotations

import importlib
import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from kg.extraction.interface import ExtractFn, Extraction
from kg.types import Paper

log = logging.getLogger(__name__)

CHUNK = 64  # papers per task, and spaCy's batch size: the same batches in every engine
ENGINES = ("local", "dask")


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
        from kg.run.cache import code_digest

        package = "kg.extractors" if module.startswith("kg.extractors") else module.split(".")[0]
        packages = [package] if module else []
        return {"factory": f"{module}.{getattr(self.factory, '__qualname__', repr(self.factory))}",
                "args": repr(self.args), "kwargs": repr(self.kwargs), "version": version,
                "code": code_digest(*packages, "kg.ontology")}


def as_spec(make_extract: Callable[[], ExtractFn] | ExtractSpec) -> ExtractSpec:
    """Wrap a bare factory (called without arguments) as a spec."""
    return make_extract if isinstance(make_extract, ExtractSpec) else ExtractSpec(make_extract)


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


_STATE: dict[WorkerSpec, tuple[Any, ExtractFn]] = {}
_STATE_LOCK = threading.Lock()  # Dask workers may run several task threads


def worker_state(spec: WorkerSpec, worker: bool = False) -> tuple[Any, ExtractFn]:
    """This process's pipeline and extract function for `spec`, built on first use.

    In a worker process (pool or Dask) that only extracts, freed memory is first kept for
    reuse (`kg.run.allocator`); the build process keeps glibc's defaults.
    """
    with _STATE_LOCK:
        if spec not in _STATE:
            from kg.nlp.load import load_nlp

            if worker:
                from kg.run.allocator import keep_freed_memory

                keep_freed_memory()
            nlp, _ = load_nlp(spec.model)
            _STATE[spec] = (nlp, spec.extract())
        return _STATE[spec]


def extract_chunk(spec: WorkerSpec, papers: list[Paper]) -> list[Extraction]:
    """Parse and extract one chunk of papers (runs in a pool or Dask worker)."""
    from kg.run.pipeline import extract_papers

    nlp, extract = worker_state(spec, worker=True)
    return [extraction for _, extraction in extract_papers(papers, nlp, extract, spec.batch_size)]


def chunks(papers: Iterable[Paper], size: int) -> Iterator[list[Paper]]:
    """Consecutive lists of `size` papers."""
    iterator = iter(papers)
    while chunk := list(islice(iterator, size)):
        yield chunk


def run_extraction(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """The extractions of `papers`, in order, on the chosen engine."""
    if options.engine not in ENGINES:
        raise ValueError(f"unknown engine {options.engine!r} (choose from: {', '.join(ENGINES)})")
    if not papers:
        return
    if options.engine == "dask":
        from kg.run.dask_engine import run_dask

        yield from run_dask(spec, papers, options)
    elif options.jobs <= 1:
        yield from run_serial(spec, papers)
    else:
        yield from run_processes(spec, papers, options)


def run_serial(spec: WorkerSpec, papers: Iterable[Paper]) -> Iterator[Extraction]:
    """In this process, streaming through nlp.pipe."""
    from kg.run.pipeline import extract_papers

    nlp, extract = worker_state(spec)
    for _, extraction in extract_papers(papers, nlp, extract, spec.batch_size):
        yield extraction


def run_processes(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """On `jobs` spawned processes, a bounded number of chunks in flight."""
    import multiprocessing

    jobs = min(options.jobs, -(-len(papers) // options.chunk))
    context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
    with context.Pool(jobs, initializer=worker_state, initargs=(spec, True)) as pool:
        submit = lambda chunk: pool.apply_async(extract_chunk, (spec, chunk))  # noqa: E731
        yield from ordered(map(submit, chunks(papers, options.chunk)), options.in_flight or 2 * jobs + 2,
                           lambda pending: pending.get())


def ordered(tasks: Iterator[Any], window: int, result: Callable[[Any], list[Extraction]]) -> Iterator[Extraction]:
    """Results of lazily submitted tasks in submission order, at most `window` pending."""
    pending: deque = deque(islice(tasks, window))
    while pending:
        done = result(pending.popleft())
        pending.extend(islice(tasks, 1))
        yield from done


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
