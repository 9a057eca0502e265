"""What the processes paperkg starts inherit: one thread per numeric library pool, and no Ctrl-C of their own.

Parallelism comes from `--jobs` processes, not from library pools.

numpy's OpenBLAS (or MKL), OpenMP, onnxruntime and the tokenizers' rayon pool each start a thread per core by
default; with two extraction workers on two cores that is four busy threads for two cores, and a one-job build
silently uses the second core (issue 33: one job 29.8 s of CPU in 19.8 s of wall time on 400 abstracts).
`limit_threads` sets the variables the libraries read when they load (inherited by every process started
afterwards: pool and Dask workers, query workers) and, through threadpoolctl, limits the pools of libraries
already loaded in this process. onnxruntime's sessions set their own thread counts (kg.extractors.encoder).
Workers are started with SIGINT blocked (`ignoring_interrupts`): Ctrl-C stops the build, which stops them.
"""
from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "RAYON_NUM_THREADS", "RAYON_RS_NUM_CPUS")


def thread_environment(count: int = 1) -> dict[str, str]:
    """The environment variables that give a process started with them `count` threads per library pool."""
    return {**{name: str(count) for name in THREAD_VARIABLES},
            "TOKENIZERS_PARALLELISM": "true" if count > 1 else "false"}


def limit_threads(count: int = 1) -> None:
    """Give this process (and the processes it starts from now on) `count` threads per numeric library pool."""
    os.environ.update(thread_environment(count))
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover  (a dependency; without it only libraries loaded later are limited)
        return
    threadpool_limits(limits=count)


def thread_report() -> dict[str, int]:
    """The thread count of each library pool loaded in this process, and its OS threads (for tests and bench)."""
    from threadpoolctl import threadpool_info

    found = {f"{info['user_api']}:{info['internal_api']}": int(info["num_threads"]) for info in threadpool_info()}
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            found["os_threads"] = next(int(line.split()[1]) for line in handle if line.startswith("Threads:"))
    except (OSError, StopIteration, ValueError):
        pass
    return found


@contextmanager
def ignoring_interrupts() -> Iterator[None]:
    """SIGINT ignored meanwhile (set in the main thread): processes started now inherit that, and Python keeps a
    signal that is ignored at its start, so Ctrl-C reaches the build process only and no worker prints a
    traceback. (A blocked mask would not do: subprocess unblocks every signal in the child.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
