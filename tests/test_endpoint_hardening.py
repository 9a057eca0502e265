"""The endpoint under hostile or unlucky conditions, over real HTTP: bad body lengths, a store rebuilt while clients
ask, light queries while runaway queries hold the workers, workers that die or cannot be restarted."""
from __future__ import annotations

import http.client
import signal
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from kg.query import pool as pool_module
from kg.query.endpoint import MAX_BODY, Endpoint
from kg.query.pool import QueryLimits, TimedOut, WorkerPool, resident_ok
from kg.query.store import ensure_store

SEEDS = Path(__file__).resolve().parents[1] / "exports" / "graph.ttl"
FOREVER = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
LIGHT = "SELECT (COUNT(*) AS ?n) WHERE { ?p a mlkg:Paper }"
ASK_NEW = "ASK { <https://x.org/new> ?p ?o }"
CLIENT_SECONDS = 20  # far above any answer here: a request that blocks fails the test instead of hanging it


def request(server: Endpoint, method: str = "GET", query: str | None = None, headers: dict | None = None,
            body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with http.client (headers exactly as given): status, headers, body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=CLIENT_SECONDS)
    try:
        path = "/sparql" + ("?" + urllib.parse.urlencode({"query": query}) if query else "")
        connection.putrequest(method, path)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()




def hold(server: Endpoint, query: str = FOREVER) -> socket.socket:
    """Send a query from a raw socket and leave it running (closing the socket stops it)."""
    client = socket.create_connection(server.server_address)
    client.sendall(f"GET /sparql?{urllib.parse.urlencode({'query': query})} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return client


def wait_until(condition, seconds: float = 30) -> None:
    """Poll until `condition()` holds (a generous bound: this waits for the machine, it measures nothing)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


@pytest.mark.parametrize("length, status, says", [
    ("-1", 400, b"Content-Length must be a number"), ("abc", 400, b"Content-Length must be a number"),
    ("\u00b2", 400, b"Content-Length must be a number"), (" 12x", 400, b"must be a number"),
    (str(MAX_BODY + 1), 413, b"at most"), ("9" * 5000, 413, b"at most"),
])
def test_a_bad_content_length_gets_an_answer_at_once(serve, length: str, status: int, says: bytes) -> None:
    server = serve()
    code, headers, body = request(server, "POST", headers={"Content-Type": "application/sparql-query",
                                                           "Content-Length": length}, body=b"ASK {}")
    assert code == status and says in body and headers["Connection"] == "close"


def test_a_chunked_body_is_refused_with_411(serve) -> None:
    server = serve()
    code, _, body = request(server, "POST", headers={"Content-Type": "application/sparql-query",
                                                     "Transfer-Encoding": "chunked"}, body=b"6\r\nASK {}\r\n0\r\n\r\n")
    assert code == 411 and b"Content-Length" in body
    assert request(server, query=LIGHT, headers={"Accept": "text/csv"})[2] == b"n\r\n92\r\n"


def test_a_rebuild_runs_in_the_background_and_requests_get_503_with_retry_after(serve, tmp_path: Path) -> None:
    export = tmp_path / "graph.nt"
    export.write_bytes(b"<https://x.org/a> <https://x.org/p> <https://x.org/o> .\n")
    release, building = threading.Event(), threading.Event()

    def slow_build(path: Path) -> None:  # the first build passes; the rebuild waits until the test releases it
        if building.is_set():
            assert release.wait(60)
        building.set()

    server = serve(export, slow_build)
    accept = {"Accept": "application/sparql-results+json"}
    assert request(server, query=ASK_NEW, headers=accept)[2] == b'{"head":{},"boolean":false}'
    with export.open("a", encoding="utf-8") as handle:
        handle.write("<https://x.org/new> <https://x.org/p> <https://x.org/o> .\n")
    for _ in range(3):  # the rebuild is held: every request is answered (not queued behind it)
        status, headers, body = request(server, query=ASK_NEW, headers=accept)
        assert status == 503 and int(headers["Retry-After"]) > 0 and b"being rebuilt" in body
    release.set()
    wait_until(lambda: request(server, query=ASK_NEW, headers=accept)[0] == 200)
    assert request(server, query=ASK_NEW, headers=accept)[2] == b'{"head":{},"boolean":true}'


def test_a_broken_export_is_reported_after_the_background_rebuild(serve, tmp_path: Path) -> None:
    export = tmp_path / "graph.nt"
    export.write_bytes(b"<https://x.org/a> <https://x.org/p> <https://x.org/o> .\n")
    server = serve(export)
    export.write_bytes(b"<https://x.org/a> <https://x.org/p> .\n")
    wait_until(lambda: request(server, query=ASK_NEW)[0] == 503 and b"not valid" in request(server, query=ASK_NEW)[2])
    status, headers, _ = request(server, query=ASK_NEW)
    assert status == 503 and "Retry-After" not in headers  # retrying does not help until the file is fixed


def test_a_light_query_is_answered_while_runaway_queries_hold_every_general_worker(serve) -> None:
    server = serve(workers=2, timeout=120)
    runaways = [hold(server), hold(server)]
    try:
        wait_until(lambda: server.pool.idle() == 1)  # only the quick lane is free
        status, _, body = request(server, query=LIGHT, headers={"Accept": "text/csv"})
        assert status == 200 and body == b"n\r\n92\r\n"
        assert server.pool.idle() == 1  # the runaways still run: the light query did not wait for them
    finally:
        for client in runaways:
            client.close()


def test_a_long_query_in_the_quick_lane_moves_to_a_general_worker_with_its_full_time_limit(serve) -> None:
    server = serve(workers=1, timeout=3, quick_seconds=0.5, queue_wait=60)
    runaway = hold(server)
    wait_until(lambda: server.pool.idle() == 1)
    moved: list = []
    second = threading.Thread(target=lambda: moved.append(request(server, query=FOREVER)))
    second.start()
    status, _, body = request(server, query=LIGHT, headers={"Accept": "text/csv"})
    assert status == 200 and body == b"n\r\n92\r\n"
    runaway.close()
    second.join(timeout=60)
    assert moved and moved[0][0] == 503 and b"longer than 3 s" in moved[0][2]


@pytest.mark.parametrize("sent, says", [(signal.SIGSEGV, b"signal SIGSEGV"), (signal.SIGKILL, b"signal SIGKILL"),
                                        (signal.SIGTERM, b"signal SIGTERM")])
def test_a_worker_killed_from_outside_is_not_reported_as_out_of_memory(serve, sent, says) -> None:
    server = serve(workers=1, timeout=120)
    victim = server.pool.pids()[0]
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(request(server, query=FOREVER)))
    asking.start()
    wait_until(lambda: server.pool.idle() == 1)
    import os

    os.kill(victim, sent)
    asking.join(timeout=60)
    status, _, body = answers[0]
    assert status == 503 and says in body and b"memory" not in body
    assert request(server, query=LIGHT, headers={"Accept": "text/csv"})[2] == b"n\r\n92\r\n"


def test_a_replacement_that_cannot_start_is_retried_and_the_pool_keeps_its_size(tmp_path: Path, monkeypatch) -> None:
    store = str(ensure_store(SEEDS, tmp_path / "stores"))
    real, failures = pool_module.Worker, []

    def flaky(*args, **kwargs):
        if failures:  # the first replacement fails, as when the system cannot start a process
            failures.pop()
            raise OSError(11, "Resource temporarily unavailable")
        return real(*args, **kwargs)

    with WorkerPool(QueryLimits(workers=1, reserved=0, timeout=1)) as pool:
        monkeypatch.setattr(pool_module, "Worker", flaky)
        failures.append(True)
        with pytest.raises(TimedOut):  # the killed worker's replacement fails: the caller still gets its answer
            pool.run({"store": store, "query": FOREVER, "mode": "rows"})
        assert pool.run({"store": store, "query": LIGHT, "mode": "rows"})[1] == [(92,)]
        assert len(pool.pids()) == 1


def test_the_recycling_threshold_is_in_mebibytes() -> None:
    limits = QueryLimits(recycle_mb=256)
    assert resident_ok(256 * 1024 * 1024, limits) and not resident_ok(256 * 1024 * 1024 + 1, limits)


def test_a_replacement_worker_outlives_the_request_that_started_it(serve) -> None:
    server = serve(workers=1, reserved=0, timeout=1)
    keep_alive = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=CLIENT_SECONDS)
    keep_alive.request("GET", "/sparql?" + urllib.parse.urlencode({"query": FOREVER}))
    response = keep_alive.getresponse()  # its worker was killed and replaced by this request's thread
    assert response.status == 503 and b"longer than 1 s" in response.read()
    wait_until(lambda: server.pool.idle() == 1)
    time.sleep(0.5)  # the replacement has long started (and asked to die with its parent)
    keep_alive.close()  # the request thread ends with its connection
    time.sleep(0.5)
    replacement = server.pool.pids()
    for _ in range(2):  # each on a new connection, after the request thread that started the replacement ended
        assert request(server, query=LIGHT, headers={"Accept": "text/csv"})[2] == b"n\r\n92\r\n"
    assert server.pool.pids() == replacement
