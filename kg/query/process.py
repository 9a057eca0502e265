"""One query worker process as the pool sees it: started, asked, warmed, killed, and how it ended.

The process itself is `kg.query.worker`; `kg.query.pool` decides which worker runs which query.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
from multiprocessing.connection import Connection

from kg.run.threads import thread_environment

ROLES = ("general", "quick", "spare")  # a general worker, a quick-lane one, a warm stand-in for the quick lane
MEMORY_WORDS = ("memory allocation of", "bad_alloc", "MemoryError", "Cannot allocate memory", "out of memory")
WARM_UP = "ASK {}"


class Worker:
    """One worker process, our end of its socket, its role, and the file its stderr goes to (read when it dies)."""

    def __init__(self, memory_mb: int, timeout: float, role: str = "general") -> None:
        ours, theirs = socket.socketpair()
        env = {**os.environ, **thread_environment(1), "MALLOC_ARENA_MAX": "2",
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.role = role
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kg.query.worker", str(theirs.fileno()), str(memory_mb), str(timeout)],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stderr=self.stderr, env=env)
        except BaseException:
            ours.close()
            self.stderr.close()
            raise
        finally:
            theirs.close()
        self.connection = Connection(ours.detach())

    @property
    def quick(self) -> bool:
        """Whether it serves the quick lane (or stands in for it)."""
        return self.role != "general"

    def warm(self, store: str, seconds: float) -> bool:
        """Open `store` with a trivial query, so the next query pays no start-up; False if the process died."""
        try:
            self.connection.send({"store": store, "query": WARM_UP, "mode": "rows", "max_rows": 1, "max_bytes": 0})
            if not self.connection.poll(seconds):
                return False
            self.connection.recv()
            return True
        except (EOFError, OSError):
            return False

    def last_words(self) -> str:
        """The end of what the process wrote to stderr (after it died)."""
        try:
            self.stderr.seek(max(0, os.fstat(self.stderr.fileno()).st_size - 4096))
            return self.stderr.read().decode("utf-8", errors="replace")
        except (OSError, ValueError):
            return ""

    def stop(self) -> None:
        """Kill the process and wait for it (its memory is returned at once)."""
        self.process.kill()
        self.process.wait()
        self.connection.close()
        self.stderr.close()


def how_it_ended(code: int | None) -> str:
    """`signal SIGSEGV` or `exit status 1`."""
    if code is not None and code < 0 and -code in signal.valid_signals():
        return f"signal {signal.Signals(-code).name}"
    return f"exit status {code}"


def ran_out_of_memory(last_words: str) -> bool:
    """Whether a dead worker's last words say an allocation failed."""
    return any(words in last_words for words in MEMORY_WORDS)
