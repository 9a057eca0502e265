"""A query worker: a child process that runs one query at a time on read-only stores, under a memory limit.

pyoxigraph cannot interrupt a running query, so a query that overruns is stopped by killing its
process (`kg.query.pool`). Started as `python -m kg.query.worker FD MEGABYTES SECONDS`: FD is its
end of a socket pair; its address space is capped at MEGABYTES (`RLIMIT_AS`: an allocation beyond
it fails and the process ends); a query running past SECONDS ends it by SIGALRM even if its parent
is gone. Requests are dicts (`store`, `query`, `mode` rows|http, `accept`, `max_rows`, `max_bytes`);
replies are `("ok", value, rss)` or `("error", kind, message, rss)`, rss being the worker's resident
memory after the query (the pool replaces a worker that kept too much).
"""
from __future__ import annotations

import math
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

MEMORY_ENV = {"MALLOC_ARENA_MAX": "2"}  # glibc reserves 64 MB of address space per thread arena otherwise


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space (Linux/macOS); 0 leaves it uncapped."""
    import resource

    if megabytes > 0:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (elsewhere the SIGALRM watchdog ends it)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def handle(request: dict, stores: dict[str, Any]) -> tuple:
    """Run one request and say how it went."""
    import pyoxigraph as ox

    from kg.query.checks import QueryError, QuerySyntaxError
    from kg.query.results import NotAcceptable, TooLarge, answer
    from kg.query.sparql import execute, rows_of

    try:
        if request["store"] not in stores:
            stores.clear()
            stores[request["store"]] = ox.Store.read_only(request["store"])
        result = execute(stores[request["store"]], request["query"])
        if request["mode"] == "rows":
            return "ok", rows_of(result, request["max_rows"])
        return "ok", answer(result, request["accept"], request["max_rows"], request["max_bytes"])
    except QuerySyntaxError as error:
        return "error", "syntax", str(error)
    except (QueryError, NotAcceptable, TooLarge) as error:
        return "error", type(error).__name__, str(error)
    except MemoryError:
        return "error", "memory", ""
    except OSError as error:
        return "error", "QueryError", f"the query failed: {error.strerror or error}"
    except (ValueError, RuntimeError) as error:
        return "error", "QueryError", f"the query failed: {' '.join(str(error).split())}"


def resident_bytes() -> int:
    """This process's resident memory now (Linux; 0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def main(argv: list[str]) -> None:
    """Serve requests on the socket until the parent closes it."""
    fd, megabytes, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    die_with_parent()
    limit_memory(megabytes)
    import kg.query.results  # noqa: F401  (imported before the first query, not during it)
    import kg.query.sparql  # noqa: F401
    connection = Connection(fd)
    stores: dict[str, Any] = {}
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if seconds > 0:
            signal.alarm(math.ceil(seconds) + 5)  # the parent kills us at `seconds`; this is the backstop
        reply = (*handle(request, stores), resident_bytes())
        signal.alarm(0)
        try:
            connection.send(reply)
        except MemoryError:
            connection.send(("error", "memory", "", 0))
        except OSError:
            return


if __name__ == "__main__":
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (nothing may write to the parent's terminal)
    main(sys.argv[1:])
