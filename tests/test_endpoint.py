"""`kg serve`: the SPARQL 1.1 Protocol endpoint answers as `kg query` does, negotiates formats, refuses writes."""
from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from SPARQLWrapper import CSV, JSON, POST, TSV, XML, SPARQLWrapper

from kg.query.endpoint import Endpoint, negotiate
from kg.query.sparql import bind_params, literal_value, resolve_query, run_query
from kg.query.store import LiveStore
from tests.query_corpus import CASES
from tests.support import fetch

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


@pytest.fixture(scope="module")
def endpoint(graph_files, tmp_path_factory):  # noqa: F811
    """The invented corpus served on a free port in this process."""
    server = Endpoint(LiveStore(graph_files["ttl"], tmp_path_factory.mktemp("stores")), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def wrapper_rows(url: str, text: str) -> tuple[list[str], list[tuple]]:
    """Ask with SPARQLWrapper (JSON results) and convert the bindings as `kg query` converts terms."""
    client = SPARQLWrapper(url)
    client.setQuery(text)
    client.setReturnFormat(JSON)
    client.setMethod(POST)
    answer = client.query().convert()
    if "boolean" in answer:
        return ["ask"], [(answer["boolean"],)]
    columns = answer["head"]["vars"]
    return columns, [tuple(term(binding.get(c)) for c in columns) for binding in answer["results"]["bindings"]]


def term(value: dict | None):
    """A SPARQL JSON term as a plain Python value."""
    if value is None:
        return None
    if value["type"] == "literal":
        return literal_value(value["value"], value.get("datatype", XSD_STRING))
    return value["value"]


@pytest.mark.parametrize("name, params, expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_endpoint_answers_every_named_query_as_kg_query_does(endpoint, graph_files, name, params, expected) -> None:  # noqa: F811
    text = bind_params(resolve_query(name), params)
    assert wrapper_rows(endpoint.url, text) == run_query(graph_files["ttl"], text, params={}) 
    assert wrapper_rows(endpoint.url, text)[1] == expected


@pytest.mark.parametrize("fmt, media", [(CSV, "text/csv"), (TSV, "text/tab-separated-values"),
                                        (XML, "application/sparql-results+xml")])
def test_results_by_content_negotiation(endpoint, fmt: str, media: str) -> None:
    client = SPARQLWrapper(endpoint.url)
    client.setQuery(resolve_query("papers-per-year"))
    client.setReturnFormat(fmt)
    result = client.query()
    body = result.response.read()
    assert result.response.headers["Content-Type"].startswith(media)
    if fmt == CSV:
        assert list(csv.reader(io.StringIO(body.decode()))) == [["year", "papers", "proposing"], ["2020", "1", "1"],
                                                               ["2021", "3", "2"]]
    elif fmt == TSV:
        assert body.decode().splitlines()[0] == "?year\t?papers\t?proposing" and len(body.decode().splitlines()) == 3
    else:
        assert body.count(b"<result>") == 2


def test_construct_gives_turtle_by_default_and_n_triples_on_request(endpoint) -> None:
    query = "CONSTRUCT { ?p a ?c } WHERE { ?p a ?c } LIMIT 1"
    assert fetch(endpoint.url, query)[1].startswith("text/turtle")
    status, media, body = fetch(endpoint.url, query, accept="application/n-triples")
    assert status == 200 and media.startswith("application/n-triples") and body.count(b" .\n") == 1


@pytest.mark.parametrize("accept, expected", [("", "d/e"), ("*/*", "d/e"), ("a/b;q=0.5, c/x", "a/b"),
                                              ("c/x, a/b;q=0.2, d/e;q=0.9", "d/e"), ("a/*", "a/b"), ("c/x", None)])
def test_negotiate_honours_q_values_and_wildcards(accept: str, expected: str | None) -> None:
    assert negotiate(accept, {"a/b": 1, "d/e": 2}, "d/e") == expected


def test_updates_are_refused_and_change_nothing(endpoint, graph_files) -> None:  # noqa: F811
    before = graph_files["ttl"].read_bytes()
    insert = "INSERT DATA { <https://x.org/a> <https://x.org/b> <https://x.org/c> }"
    for data, kind in ((insert.encode(), "application/sparql-update"),
                       (urllib.parse.urlencode({"update": insert}).encode(), "application/x-www-form-urlencoded"),
                       (urllib.parse.urlencode({"query": insert}).encode(), "application/x-www-form-urlencoded")):
        status, _, body = fetch(endpoint.url, data=data, content_type=kind, method="POST")
        assert status == 403 and b"read-only" in body
    assert fetch(endpoint.url, "ASK { <https://x.org/a> ?p ?o }", accept="application/sparql-results+json")[2] \
        == b'{"head":{},"boolean":false}'
    assert graph_files["ttl"].read_bytes() == before


def test_service_is_refused_before_any_request_is_sent(endpoint) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        status, _, body = fetch(endpoint.url, f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}")
        assert status == 400 and b"SERVICE" in body
        with pytest.raises(socket.timeout):
            listener.accept()


@pytest.mark.parametrize("path, query, status, says", [("/other", "ASK {}", 404, b"/sparql"),
                                                        ("/sparql", None, 400, b"one query")])
def test_bad_requests_get_a_one_line_reason(endpoint, path: str, query: str | None, status: int, says: bytes) -> None:
    code, media, body = fetch(endpoint.url.replace("/sparql", path), query)
    assert code == status and media.startswith("text/plain") and says in body and body.count(b"\n") == 1


def test_a_syntax_error_is_a_reason_then_the_line_with_a_caret(endpoint) -> None:
    code, media, body = fetch(endpoint.url, "SELECT ?x WHERE {\n  ?x ?y ?z . FILTER(?x > ) }")
    reason, line, caret = body.decode().splitlines()
    assert code == 400 and media.startswith("text/plain")
    assert reason.startswith("bad SPARQL query at line 2, column 14: unexpected 'FILTER'")
    assert line == "    ?x ?y ?z . FILTER(?x > ) }" and caret.index("^") == line.index("FILTER")


def test_kg_serve_runs_until_terminated(graph_files, tmp_path: Path) -> None:  # noqa: F811
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PAPERKG_STORE_DIR": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "-m", "kg", "serve", str(graph_files["nt"]), "--port", str(port), "-q"],
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        banner = server.stderr.readline() + server.stderr.readline()
        assert f"http://127.0.0.1:{port}/sparql" in banner
        status, _, body = fetch(f"http://127.0.0.1:{port}/sparql", resolve_query("papers-per-year"), accept="text/csv")
        assert status == 200 and body.decode().splitlines() == ["year,papers,proposing", "2020,1,1", "2021,3,2"]
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


def test_kg_serve_says_why_it_cannot_start(graph_files, tmp_path: Path) -> None:  # noqa: F811
    graphml = tmp_path / "graph.graphml"
    graphml.write_text("<graphml/>")
    result = subprocess.run([sys.executable, "-m", "kg", "serve", str(graphml)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1 and result.stderr.strip().endswith("reads .ttl/.nt/.jsonld (got .graphml)")
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_kg_serve_follows_its_export_when_the_file_changes(graph_files, tmp_path: Path) -> None:  # noqa: F811
    export = tmp_path / "graph.nt"
    export.write_bytes(graph_files["nt"].read_bytes())
    server = Endpoint(LiveStore(export, tmp_path / "stores"), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ask = "ASK { <https://x.org/new> ?p ?o }"
    try:
        assert fetch(server.url, ask, accept="application/sparql-results+json")[2] == b'{"head":{},"boolean":false}'
        with export.open("a", encoding="utf-8") as handle:
            handle.write("<https://x.org/new> <https://x.org/p> <https://x.org/o> .\n")
        status, _, body = fetch(server.url, ask)  # the first request after the change starts the rebuild
        assert status == 503 and b"being rebuilt" in body
        deadline = time.monotonic() + 60
        while fetch(server.url, ask)[0] == 503 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert fetch(server.url, ask, accept="application/sparql-results+json")[2] == b'{"head":{},"boolean":true}'
        export.unlink()
        status, _, body = fetch(server.url, ask)
        assert status == 503 and b"graph.nt" in body
    finally:
        server.shutdown()
        server.server_close()
