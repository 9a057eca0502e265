"""The Dask engine: chunks of papers as tasks on a distributed cluster (local by default)."""
from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, Sequence

from kg.extraction.interface import Extraction
from kg.run.threads import ignoring_interrupts, limit_threads
from kg.run.worker import chunks, extract_chunk, ordered
from kg.types import Paper

if TYPE_CHECKING:
    from kg.run.engines import EngineOptions, WorkerSpec

log = logging.getLogger(__name__)


@contextmanager
def dask_client(options: EngineOptions) -> Iterator["distributed.Client"]:  # noqa: F821
    """A client of the scheduler at `options.scheduler`, or of a new LocalCluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise RuntimeError("the dask engine needs `pip install 'paperkg[dask]'`") from error
    if options.scheduler:
        log.info("connecting to the Dask scheduler at %s", options.scheduler)
        try:
            client = Client(options.scheduler)
        except OSError as error:
            raise OSError(None, f"cannot reach the Dask scheduler ({error})", options.scheduler) from error
        with client:
            yield client
        return
    limit_threads(1)  # inherited by the local workers (a remote cluster's are limited when they first extract)
    with ignoring_interrupts():  # the cluster's threads and worker processes never hear Ctrl-C: the build does
        cluster = LocalCluster(n_workers=max(options.jobs, 1), threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
    with cluster, Client(cluster) as client:
        log.info("started a local Dask cluster with %d workers", max(options.jobs, 1))
        yield client


def run_dask(spec: WorkerSpec, papers: Sequence[Paper], options: EngineOptions) -> Iterator[Extraction]:
    """Extractions of `papers` in input order, computed on Dask workers."""
    with dask_client(options) as client:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()) or 1
        window = options.in_flight or 2 * threads + 2
        submit = lambda chunk: client.submit(extract_chunk, spec, chunk, pure=False)  # noqa: E731
        yield from ordered(map(submit, chunks(papers, options.chunk)), window, lambda future: future.result())
