"""Queries under limits: each runs in a worker process that is killed when it overruns (`kg.query.worker`).

`WorkerPool` keeps `workers` processes. A query waits for a free one as long as the running
queries keep finishing (at most its time limit), but `Busy` when none finished for `queue_wait` seconds;
it runs at most `timeout` seconds (else its worker is killed: `TimedOut`), is abandoned
as soon as `cancelled()` says its client went away, and its worker's memory is capped (`memory_mb`;
a worker that exceeds it dies: `OutOfMemory`). A killed worker is replaced by a fresh one, so the
memory a runaway query took goes back to the system; so is a worker that still holds more than
`recycle_mb` after a query. Answers above `max_rows` rows or `max_bytes` bytes are refused by the
worker (`kg.query.results`).
"""
from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Callable

from kg.query.checks import QueryError, QuerySyntaxError

POLL_SECONDS = 0.1


@dataclass(frozen=True)
class QueryLimits:
    """How long, how large and how many queries may run."""

    timeout: float = 30.0
    max_rows: int = 100_000
    max_bytes: int = 100_000_000
    memory_mb: int = 768
    workers: int = 2
    queue_wait: float = 10.0
    recycle_mb: int = 256  # a worker holding more resident memory after a query is replaced


class LimitError(QueryError):
    """A query stopped by a limit (time, memory, queue, size): the server answers 503."""


class TimedOut(LimitError):
    """The query ran longer than the time limit."""


class Busy(LimitError):
    """Every worker stayed busy for the whole queue wait."""


class OutOfMemory(LimitError):
    """The worker needed more memory than its limit (or died otherwise)."""


class TooLargeAnswer(LimitError):
    """More rows or bytes than the caps allow."""


class NotAcceptableAnswer(QueryError):
    """The Accept header names no format this kind of result has."""


class Cancelled(Exception):
    """The client went away; nobody hears the answer."""


ERRORS = {"syntax": QuerySyntaxError, "QueryError": QueryError, "TooLarge": TooLargeAnswer,
          "NotAcceptable": NotAcceptableAnswer}


class Worker:
    """One worker process and our end of its socket."""

    def __init__(self, limits: QueryLimits) -> None:
        ours, theirs = socket.socketpair()
        env = {**os.environ, "MALLOC_ARENA_MAX": "2", "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kg.query.worker", str(theirs.fileno()), str(limits.memory_mb), str(limits.timeout)],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        theirs.close()
        self.connection = Connection(ours.detach())

    def stop(self) -> None:
        """Kill the process and wait for it (its memory is returned at once)."""
        self.process.kill()
        self.process.wait()
        self.connection.close()


class WorkerPool:
    """A bounded set of worker processes shared by concurrent callers (threads)."""

    def __init__(self, limits: QueryLimits = QueryLimits()) -> None:
        self.limits = limits
        self._idle: queue.Queue[Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False
        self._finished = 0  # queries done so far: a waiting query keeps waiting while this grows
        self._workers = [Worker(limits) for _ in range(max(1, limits.workers))]
        for worker in self._workers:
            self._idle.put(worker)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, request: dict[str, Any], cancelled: Callable[[], bool] = lambda: False) -> Any:
        """The worker's answer to `request`, or the LimitError/QueryError that stopped it."""
        worker = self._take()
        healthy = False
        try:
            *reply, resident = self._ask(worker, {**request, "max_rows": self.limits.max_rows,
                                                  "max_bytes": self.limits.max_bytes}, cancelled)
            healthy = resident <= self.limits.recycle_mb * 1_000_000  # else its memory goes back to the system
        finally:
            self._give_back(worker, healthy)
        if reply[0] == "ok":
            return reply[1]
        if reply[1] == "memory":
            raise self._memory_error()
        raise ERRORS.get(reply[1], QueryError)(reply[2])

    def _take(self) -> Worker:
        """A free worker; waits while the running queries keep finishing (at most the time limit), else Busy."""
        started, seen = time.monotonic(), self._finished
        while True:
            try:
                return self._idle.get(timeout=self.limits.queue_wait)
            except queue.Empty:
                if self._finished == seen or time.monotonic() - started > max(self.limits.timeout, 1.0):
                    raise Busy(f"{self.limits.workers} queries are running and none finished within "
                               f"{self.limits.queue_wait:g} s; try again later") from None
                seen = self._finished

    def _ask(self, worker: Worker, request: dict[str, Any], cancelled: Callable[[], bool]) -> tuple:
        """Send the request and wait for the reply, the deadline, the client's departure or the worker's death."""
        deadline = time.monotonic() + self.limits.timeout if self.limits.timeout > 0 else float("inf")
        try:
            worker.connection.send(request)
            while not worker.connection.poll(POLL_SECONDS):
                if time.monotonic() > deadline:
                    raise TimedOut(f"the query ran longer than {self.limits.timeout:g} s (the time limit) and was "
                                   "stopped; add LIMIT, narrow it, or raise --timeout")
                if cancelled():
                    raise Cancelled()
            return worker.connection.recv()
        except (EOFError, OSError):
            worker.process.wait()
            raise self._died(worker.process.returncode) from None

    def _died(self, code: int | None) -> LimitError:
        """The error for a worker that ended while running a query."""
        if code in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGKILL, 1, 120):
            return self._memory_error()
        if code == -signal.SIGALRM:
            return TimedOut(f"the query ran longer than {self.limits.timeout:g} s (the time limit) and was stopped")
        return OutOfMemory(f"the query worker ended unexpectedly (exit status {code}); the query was not answered")

    def _memory_error(self) -> OutOfMemory:
        return OutOfMemory(f"the query needed more than {self.limits.memory_mb} MB of memory (the limit) and was "
                           "stopped; add LIMIT or narrow it")

    def _give_back(self, worker: Worker, healthy: bool) -> None:
        """Return the worker, or a fresh one in place of a killed or broken one."""
        if not healthy:
            worker.stop()
        with self._lock:
            self._finished += 1
            if self._closed:
                worker.stop()
                return
            if not healthy:
                self._workers.remove(worker)
                worker = Worker(self.limits)
                self._workers.append(worker)
            self._idle.put(worker)

    def pids(self) -> list[int]:
        """The process ids of the workers (busy or idle)."""
        with self._lock:
            return [worker.process.pid for worker in self._workers]

    def close(self) -> None:
        """Stop every idle worker (busy ones are stopped as they come back)."""
        with self._lock:
            self._closed = True
            while not self._idle.empty():
                self._idle.get_nowait().stop()
