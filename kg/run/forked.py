"""Run independent calls (the exporters) in forked processes that share the parent's graph."""
from __future__ import annotations

import logging
import multiprocessing
import time
from multiprocessing.connection import Connection, wait
from typing import Callable

log = logging.getLogger(__name__)


class ForkedError(RuntimeError):
    """A call failed in a forked process; the message names its exception, `failures` holds each one."""

    def __init__(self, message: str, failures: list[tuple[str, BaseException]] | None = None) -> None:
        super().__init__(message)
        self.failures = failures or []


def transferable(error: BaseException) -> BaseException:
    """The exception itself if it survives pickling, else a RuntimeError naming it."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001  (any unpicklable exception)
        return RuntimeError(f"{type(error).__name__}: {error}")


def can_fork() -> bool:
    """Whether this platform offers the fork start method."""
    return "fork" in multiprocessing.get_all_start_methods()


def _run(call: Callable[[], object], conn: Connection) -> None:
    """In the child: make the call, send back (seconds, exception or None)."""
    started = time.perf_counter()
    try:
        call()
        conn.send((time.perf_counter() - started, None))
    except BaseException as error:  # noqa: BLE001  (reported to the parent)
        conn.send((time.perf_counter() - started, transferable(error)))
    finally:
        conn.close()


def run_forked(calls: dict[str, Callable[[], object]], processes: int,
               warm_up: Callable[[], object] | None = None) -> dict[str, float]:
    """Make every call in a forked child, at most `processes` at a time; the seconds of each.

    Children inherit the parent's memory (copy-on-write), so nothing is pickled but the
    timings. `warm_up` runs in the parent while the first call's child runs, and every
    later child inherits what it computed. The first failure is raised once every
    started child has finished.
    """
    context = multiprocessing.get_context("fork")
    waiting = list(calls.items())
    running: list[tuple[str, multiprocessing.Process, Connection]] = []
    seconds: dict[str, float] = {}
    errors: list[tuple[str, BaseException]] = []
    while waiting or running:
        while waiting and len(running) < (1 if warm_up else max(processes, 1)):
            name, call = waiting.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_run, args=(call, send), name=f"kg-{name}", daemon=True)
            process.start()
            send.close()
            running.append((name, process, receive))
        if warm_up:
            prepare, warm_up = warm_up, None
            try:
                prepare()
            except Exception as error:  # noqa: BLE001  (reported with the children's failures)
                errors.append(("warm-up", error))
            continue
        ready = wait([receive for _, _, receive in running])
        index = next(i for i, (_, _, receive) in enumerate(running) if receive in ready)
        name, process, receive = running.pop(index)
        try:
            seconds[name], error = receive.recv()
        except EOFError:
            seconds[name], error = 0.0, RuntimeError(f"process exited with code {process.exitcode}")
        process.join()
        if error is not None:
            errors.append((name, error))
    if errors:
        raise ForkedError("; ".join(f"{name}: {type(e).__name__}: {e}" for name, e in errors), errors)
    return seconds
