"""Queries under limits: each runs in a worker process that is killed when it overruns (`kg.query.worker`).

`WorkerPool` keeps `workers` processes. A query waits for a free one as long as the running
queries keep finishing (at most its time limit), but `Busy` when none finished for `queue_wait` seconds;
it runs at most `timeout` seconds (else its worker is killed: `TimedOut`), is abandoned
as soon as `cancelled()` says its client went away, and its worker's memory is capped (`memory_mb`;
a worker that exceeds it dies: `OutOfMemory`). A killed worker is replaced by a fresh one, so the
memory a runaway query took goes back to the system; so is a worker that still holds more than
`recycle_mb` MiB after a query. Answers above `max_rows` rows or `max_bytes` bytes are refused by the
worker (`kg.query.results`).

Quick lane: besides those `workers`, `reserved` processes run only queries that arrive while every other
worker is busy, for at most `quick_seconds` each; a query still running then is stopped there and waits for
a general worker as any other. So a light query is answered at once even while long or runaway queries
hold every general worker, and a long query loses at most `quick_seconds`. A warm spare stands in for a
quick-lane worker that had to be stopped, so the lane is free again at once; every replacement opens the
current store (`prepare`, then the last store asked) before it takes a query.
"""
from __future__ import annotations

import queue
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from kg.query.checks import QueryError, QuerySyntaxError
from kg.query.process import ROLES, Worker, how_it_ended, ran_out_of_memory

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
    recycle_mb: int = 256  # a worker holding more resident memory (MiB) after a query is replaced
    reserved: int = 1  # quick-lane workers (`kg query` runs without)
    quick_seconds: float = 0.5  # how long a query may run in the quick lane


class LimitError(QueryError):
    """A query stopped by a limit (time, memory, queue, size): the server answers 503."""


class TimedOut(LimitError):
    """The query ran longer than the time limit."""


class Busy(LimitError):
    """Every worker stayed busy for the whole queue wait."""

    retry_after = 5


class OutOfMemory(LimitError):
    """The worker needed more memory than its limit."""


class WorkerDied(LimitError):
    """The worker ended for another reason (a crash, a signal from outside)."""


class TooLargeAnswer(LimitError):
    """More rows or bytes than the caps allow."""


class NotAcceptableAnswer(QueryError):
    """The Accept header names no format this kind of result has."""


class Cancelled(Exception):
    """The client went away; nobody hears the answer."""


ERRORS = {"syntax": QuerySyntaxError, "QueryError": QueryError, "TooLarge": TooLargeAnswer,
          "NotAcceptable": NotAcceptableAnswer}


def resident_ok(resident: int, limits: QueryLimits) -> bool:
    """Whether a worker holding `resident` bytes after a query may serve the next one."""
    return resident <= limits.recycle_mb * 1024 * 1024


class WorkerPool:
    """A bounded set of worker processes shared by concurrent callers (threads), plus the quick lane."""

    def __init__(self, limits: QueryLimits = QueryLimits()) -> None:
        self.limits = limits
        self._ready = threading.Condition()
        self._closed = False
        self._finished = 0  # queries done so far: a waiting query keeps waiting while this grows
        self._store: str | None = None  # the store replacements are warmed with (the last one asked)
        self._missing: list[str] = []  # roles of workers that could not be restarted yet
        roles = ["general"] * max(1, limits.workers)
        roles += ["quick"] * max(0, limits.reserved) + ["spare"] * (limits.reserved > 0)
        self._workers = [self._start(role) for role in roles]
        self._idle = [w for w in self._workers if w.role != "spare"]
        self._spares = [w for w in self._workers if w.role == "spare"]
        # Replacements are started by one thread that lives as long as the pool: a worker dies with the thread
        # that started it (PR_SET_PDEATHSIG), and request threads end with their connection.
        self._to_start: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        threading.Thread(target=self._starter, daemon=True).start()

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, role: str) -> Worker:
        return Worker(self.limits.memory_mb, self.limits.timeout, role)

    def prepare(self, store: str) -> None:
        """Warm the idle workers with `store` (all at once; returns when they are ready) and use it for the
        replacements to come."""
        with self._ready:
            self._store = store
            waiting, self._idle, spares, self._spares = self._idle, [], self._spares, []
        for thread in [self._warm_then_place(worker) for worker in waiting + spares]:
            thread.join()

    def run(self, request: dict[str, Any], cancelled: Callable[[], bool] = lambda: False) -> Any:
        """The worker's answer to `request`, or the LimitError/QueryError that stopped it."""
        request = {**request, "max_rows": self.limits.max_rows, "max_bytes": self.limits.max_bytes}
        self._store = request["store"]
        worker = self._take(quick_ok=True)
        if worker.quick:
            try:
                return self._run_on(worker, request, cancelled, self.limits.quick_seconds)
            except TimedOut:  # too long for the quick lane: wait for a general worker as any query does
                worker = self._take(quick_ok=False)
        return self._run_on(worker, request, cancelled, self.limits.timeout)

    def _run_on(self, worker: Worker, request: dict[str, Any], cancelled: Callable[[], bool], seconds: float) -> Any:
        """Run `request` on `worker` (taken), give the worker back, and return the answer or raise its error."""
        healthy = False
        try:
            *reply, resident = self._ask(worker, request, cancelled, seconds)
            healthy = resident_ok(resident, self.limits)  # else its memory goes back to the system
        finally:
            self._give_back(worker, healthy)
        if reply[0] == "ok":
            return reply[1]
        if reply[1] == "memory":
            raise self._memory_error()
        raise ERRORS.get(reply[1], QueryError)(reply[2])

    def _take(self, quick_ok: bool) -> Worker:
        """A free worker; waits while the running queries keep finishing (at most the time limit), else Busy."""
        started = time.monotonic()
        window, seen = started + self.limits.queue_wait, self._finished
        with self._ready:
            while True:
                if self._closed:
                    raise Busy("the endpoint is shutting down")
                self._restart_missing()
                free = [w for w in self._idle if not w.quick] or [w for w in self._idle if quick_ok and w.quick]
                if free:
                    self._idle.remove(free[0])
                    return free[0]
                now = time.monotonic()
                if now >= window:
                    if self._finished == seen or now - started > max(self.limits.timeout, 1.0):
                        raise Busy(f"{self.limits.workers} queries are running and none finished within "
                                   f"{self.limits.queue_wait:g} s; try again later (kg serve --workers runs more "
                                   "at once)")
                    window, seen = now + self.limits.queue_wait, self._finished
                self._ready.wait(min(window - now, 1.0))

    def _ask(self, worker: Worker, request: dict[str, Any], cancelled: Callable[[], bool], seconds: float) -> tuple:
        """Send the request and wait for the reply, the deadline, the client's departure or the worker's death."""
        deadline = time.monotonic() + seconds if seconds > 0 else float("inf")
        try:
            worker.connection.send(request)
            while not worker.connection.poll(POLL_SECONDS):
                if time.monotonic() > deadline:
                    raise TimedOut(f"the query ran longer than {seconds:g} s (the time limit) and was "
                                   "stopped; add LIMIT, narrow it, or raise --timeout")
                if cancelled():
                    raise Cancelled()
            return worker.connection.recv()
        except (EOFError, OSError):
            worker.process.wait()
            raise self._died(worker.process.returncode, worker.last_words()) from None

    def _died(self, code: int | None, last_words: str) -> LimitError:
        """The error for a worker that ended while running a query: memory only when the process said so."""
        if ran_out_of_memory(last_words):
            return self._memory_error()
        if code == -signal.SIGALRM:
            return TimedOut(f"the query ran longer than {self.limits.timeout:g} s (the time limit) and was stopped")
        return WorkerDied(f"the query worker ended unexpectedly ({how_it_ended(code)}); the query was not answered, "
                          "and a new worker takes its place")

    def _memory_error(self) -> OutOfMemory:
        return OutOfMemory(f"the query needed more than {self.limits.memory_mb} MB of memory (the limit) and was "
                           "stopped; add LIMIT, narrow it, or raise --max-memory")

    def _give_back(self, worker: Worker, healthy: bool) -> None:
        """Return the worker, or replace a killed or broken one: a quick-lane worker by its warm spare at once
        (a new spare warms meanwhile), others by a fresh process (never raises)."""
        if not healthy:
            worker.stop()
        with self._ready:
            self._finished += 1
            if self._closed:
                worker.stop()
                return
            if healthy:
                self._idle.append(worker)
            else:
                self._workers.remove(worker)
                if worker.role == "quick" and self._spares:
                    spare = self._spares.pop()
                    spare.role = "quick"
                    self._idle.append(spare)
                    self._missing.append("spare")
                else:
                    self._missing.append(worker.role)
                self._restart_missing()
            self._ready.notify_all()

    def _restart_missing(self) -> None:
        """Have the workers that had to be replaced started (holding the lock); they serve once warm."""
        while self._missing and not self._closed:
            self._to_start.put(self._missing.pop())

    def _starter(self) -> None:
        """Start each requested worker, then warm it; one that cannot start is retried by the next query."""
        while (role := self._to_start.get()) is not None:
            try:
                fresh = self._start(role)
            except OSError:
                with self._ready:
                    self._missing.append(role)
                continue
            with self._ready:
                if self._closed:
                    fresh.stop()
                    return
                self._workers.append(fresh)
            self._warm_then_place(fresh)

    def _warm_then_place(self, worker: Worker) -> threading.Thread:
        """Warm `worker` with the current store in a thread, then make it available in its role."""
        store = self._store

        def warm() -> None:
            ready = store is None or worker.warm(store, max(self.limits.timeout, 10.0))
            with self._ready:
                if self._closed or not ready:
                    worker.stop()
                    if not self._closed and worker in self._workers:
                        self._workers.remove(worker)
                        self._missing.append(worker.role)  # started again by the next query
                    return
                (self._spares if worker.role == "spare" else self._idle).append(worker)
                self._ready.notify_all()

        thread = threading.Thread(target=warm, daemon=True)
        thread.start()
        return thread

    def pids(self) -> list[int]:
        """The process ids of the workers (busy, idle, warming or spare), general workers first."""
        with self._ready:
            return [w.process.pid for w in sorted(self._workers, key=lambda w: ROLES.index(w.role))]

    def idle(self) -> int:
        """How many workers are free now (spares not counted)."""
        with self._ready:
            return len(self._idle)

    def close(self) -> None:
        """Stop every idle worker and spare (busy and warming ones are stopped as they come back)."""
        with self._ready:
            self._closed = True
            for worker in self._idle + self._spares:
                worker.stop()
            self._idle.clear()
            self._spares.clear()
            self._ready.notify_all()
        self._to_start.put(None)
