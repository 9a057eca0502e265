"""Run independent calls (the exporters) in forked processes that share the parent's graph."""
from __future__ import annotations

import logging
import multiprocessing
import time
from multiprocessing.connection import Connection, wait
from typing import Callable

log = logging.getLogger(__name__)


class ForkedError(RuntimeError):
    """A call failed in a forked process; the message names its exception."""


def can_fork() -> bool:
    """Whether this platform offers the fork start method."""
    return "fork" in multiprocessing.get_all_start_methods()


def _run(call: Callable[[], object], conn: Connection) -> None:
    """In the child: make the call, send back (seconds, error or None)."""
    started = time.perf_counter()
    try:
        call()
        conn.send((time.perf_counter() - started, None))
    except BaseException as error:  # noqa: BLE001  (reported to the parent)
        conn.send((time.perf_counter() - started, f"{type(error).__name__}: {error}"))
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
    errors: list[str] = []
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
                errors.append(f"warm-up: {type(error).__name__}: {error}")
            continue
        ready = wait([receive for _, _, receive in running])
        index = next(i for i, (_, _, receive) in enumerate(running) if receive in ready)
        name, process, receive = running.pop(index)
        try:
            seconds[name], error = receive.recv()
        except EOFError:
            seconds[name], error = 0.0, f"process exited with code {process.exitcode}"
        process.join()
        if error:
            errors.append(f"{name}: {error}")
    if errors:
        raise ForkedError("; ".join(errors))
    return seconds
