"""Queries under limits: a runaway query is stopped (time, rows, memory) with a one-line reason, its worker process
is replaced, a query whose client leaves is stopped, and queries beyond the workers wait briefly, then get 503."""
from __future__ import annotations

import os
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from kg.query.endpoint import Endpoint
from tests.support import fetch

SEEDS = Path(__file__).resolve().parents[1] / "exports" / "graph.ttl"  # 92 papers, ~21k triples
PRODUCT = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }"  # ~440 million rows
FOREVER = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
SORTED_PRODUCT = PRODUCT + " ORDER BY ?a ?f"  # must hold every row in memory
LIGHT = "SELECT (COUNT(*) AS ?n) WHERE { ?p a mlkg:Paper }"




def alive(pid: int) -> bool:
    """Whether a process (reaped when it ended) still exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def light_answer(server: Endpoint) -> bytes:
    """The light query's answer (asserting it succeeds)."""
    status, _, body = fetch(server.url, LIGHT, accept="text/csv")
    assert status == 200, body
    return body


@pytest.mark.parametrize("query, limits, says", [
    (FOREVER, {"timeout": 5}, b"the query ran longer than 5 s (the time limit)"),  # the next query pays a worker start
    (PRODUCT, {"max_rows": 1000}, b"the answer has more than 1,000 rows (the limit)"),
    (SORTED_PRODUCT, {"memory_mb": 300, "timeout": 120}, b"the query needed more than 300 MB of memory"),
])
def test_a_runaway_query_gets_503_with_one_line_and_the_worker_is_replaced(serve, query, limits, says) -> None:
    server = serve(workers=1, **limits)
    before = server.pool.pids()
    status, media, body = fetch(server.url, query)
    assert status == 503 and media.startswith("text/plain") and says in body and body.count(b"\n") == 1
    assert light_answer(server) == b"n\r\n92\r\n"
    if b"rows" not in says:  # a killed worker is gone and replaced; a refused answer leaves its worker running
        assert not alive(before[0]) and server.pool.pids() != before


def test_a_query_whose_client_leaves_is_stopped(serve) -> None:
    server = serve(workers=1, timeout=300)
    busy = server.pool.pids()[0]
    client = socket.create_connection(server.server_address)
    client.sendall(f"GET /sparql?{urllib.parse.urlencode({'query': FOREVER})} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    deadline = time.monotonic() + 30
    while server.pool.idle() > 1 and time.monotonic() < deadline:  # wait until the worker has the query
        time.sleep(0.05)
    client.close()
    while alive(busy) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(busy)
    assert light_answer(server) == b"n\r\n92\r\n"


def test_queries_beyond_the_workers_wait_then_get_503_with_retry_after(serve) -> None:
    server = serve(workers=1, reserved=0, timeout=3, queue_wait=0.5)
    runaway = threading.Thread(target=fetch, args=(server.url, FOREVER))
    runaway.start()
    deadline = time.monotonic() + 30
    while server.pool.idle() and time.monotonic() < deadline:
        time.sleep(0.05)
    status, _, body = fetch(server.url, LIGHT)
    assert status == 503 and b"1 queries are running and none finished within 0.5 s" in body and b"--workers" in body
    runaway.join()
    assert light_answer(server) == b"n\r\n92\r\n"


def test_the_common_prefixes_are_predeclared_in_the_endpoint(serve) -> None:
    server = serve()
    assert light_answer(server) == b"n\r\n92\r\n"
    status, _, body = fetch(server.url, "PREFIX mlkg: <https://x.org/> " + LIGHT, accept="text/csv")
    assert status == 200 and body == b"n\r\n0\r\n"


def test_kg_query_stops_a_runaway_query_with_one_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PAPERKG_STORE_DIR", str(tmp_path / "stores"))
    runner = CliRunner()
    assert runner.invoke(app, ["query", str(SEEDS), "ASK {}"]).exit_code == 0  # the store is built first
    result = runner.invoke(app, ["query", str(SEEDS), FOREVER, "--timeout", "1"])
    assert result.exit_code == 1 and result.output.startswith("error: the query ran longer than 1 s")
    assert len(result.output.strip().splitlines()) == 1 and "raise --timeout" in result.output
    result = runner.invoke(app, ["query", str(SEEDS), PRODUCT, "--max-rows", "10"])
    assert result.exit_code == 1 and "more than 10 rows" in result.output and "raise --max-rows" in result.output


def test_every_refusal_names_the_option_that_lifts_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PAPERKG_STORE_DIR", str(tmp_path / "stores"))
    result = CliRunner().invoke(app, ["query", str(SEEDS), SORTED_PRODUCT, "--max-rows", "0", "--max-memory", "300",
                                      "--timeout", "120"])
    last = result.output.strip().splitlines()[-1]
    assert result.exit_code == 1 and "more than 300 MB" in last and "raise --max-memory" in last


@pytest.mark.parametrize("param, says", [("entity=imagenett", "no entity named 'imagenett'; did you mean"),
                                         ("entity=zzzz qqqq", "no entity named 'zzzz qqqq'")])
def test_a_name_that_matches_nothing_says_so_with_the_closest_names(tmp_path: Path, monkeypatch, param, says) -> None:
    monkeypatch.setenv("PAPERKG_STORE_DIR", str(tmp_path / "stores"))
    result = CliRunner().invoke(app, ["query", str(SEEDS), "entity-neighbourhood", "-p", param])
    last = result.output.strip().splitlines()[-1]  # after the store's loading line
    assert result.exit_code == 1 and last.startswith(f"error: {says}")
    if "imagenett" in param:
        assert "ImageNet" in last.split("did you mean", 1)[1]
    else:
        assert "did you mean" not in last
    found = CliRunner().invoke(app, ["query", str(SEEDS), "entity-neighbourhood", "-p", "entity=ImageNet"])
    assert found.exit_code == 0 and "(0 rows)" not in found.output


def test_a_worker_that_keeps_too_much_memory_after_a_query_is_replaced(serve) -> None:
    server = serve(workers=1, recycle_mb=1)  # every worker holds more than 1 MB: each query retires its worker
    before = server.pool.pids()
    light_answer(server)
    assert server.pool.pids() != before and not alive(before[0])
    kept = serve(workers=1)
    before = kept.pool.pids()
    light_answer(kept)
    assert kept.pool.pids() == before
