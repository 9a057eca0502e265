"""What runs in an extraction worker (any engine): the per-process pipeline and the streaming extraction."""
from __future__ import annotations

import os
import threading
from collections import deque
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from kg.extraction.interface import DocContext, ExtractFn, Extraction, extract_paper, prepare
from kg.run.collector import settle
from kg.run.threads import limit_threads
from kg.types import Paper

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from kg.run.engines import WorkerSpec

BATCH_SIZE = 64  # spaCy's batch size, and the papers per engine task: the same batches everywhere


def parse_papers(papers: Iterable[Paper], nlp: Language,
                 batch_size: int = BATCH_SIZE) -> Iterator[tuple[Paper, Doc, DocContext]]:
    """Each paper with its Doc (the prepared text parsed once, `nlp.pipe`) and context; streams."""
    prepared = ((paper, *prepare(paper)) for paper in papers)
    pairs = ((text, (paper, context)) for paper, text, context in prepared)
    for doc, (paper, context) in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        yield paper, doc, context


def extract_papers(papers: Iterable[Paper], nlp: Language, extract: ExtractFn,
                   batch_size: int = BATCH_SIZE) -> Iterator[tuple[Paper, Extraction]]:
    """Parse each abstract once (nlp.pipe) and extract from the shared Doc; streams."""
    for paper, doc, context in parse_papers(papers, nlp, batch_size):
        yield paper, isolated(paper, doc, context, extract)


def isolated(paper: Paper, doc: Any, context: Any, extract: ExtractFn) -> Extraction:
    """`extract_paper`, or an empty Extraction saying why if it fails: one paper never sinks a build
    (PAPERKG_DEBUG=1 lets the error through)."""
    try:
        return extract_paper(paper, doc, context, extract)
    except Exception as error:  # noqa: BLE001  (reported as a warning by the build)
        if os.environ.get("PAPERKG_DEBUG"):
            raise
        return Extraction(failed=f"{type(error).__name__}: {' '.join(str(error).split())[:200]}")


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

            limit_threads(1)  # before the first matrix product: parallelism is the workers, not library pools
            if worker:
                from kg.run.allocator import keep_freed_memory

                keep_freed_memory()
            nlp, _ = load_nlp(spec.model)
            _STATE[spec] = (nlp, spec.extract())
            settle(worker)  # the model and extractors live as long as the process: no collection walks them again
        return _STATE[spec]


def extract_chunk(spec: WorkerSpec, papers: list[Paper]) -> list[Extraction]:
    """Parse and extract one chunk of papers (runs in a pool or Dask worker)."""
    nlp, extract = worker_state(spec, worker=True)
    return [extraction for _, extraction in extract_papers(papers, nlp, extract, spec.batch_size)]


def chunks(papers: Iterable[Paper], size: int) -> Iterator[list[Paper]]:
    """Consecutive lists of `size` papers."""
    iterator = iter(papers)
    while chunk := list(islice(iterator, size)):
        yield chunk


def ordered(tasks: Iterator[Any], window: int, result: Callable[[Any], list[Extraction]]) -> Iterator[Extraction]:
    """Results of lazily submitted tasks in submission order, at most `window` pending."""
    pending: deque = deque(islice(tasks, window))
    while pending:
        done = result(pending.popleft())
        pending.extend(islice(tasks, 1))
        yield from done
