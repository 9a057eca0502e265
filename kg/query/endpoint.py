"""`kg serve`: a read-only SPARQL 1.1 Protocol endpoint on 127.0.0.1 over an export's query store.

`GET /sparql?query=…`, `POST /sparql` with a form (`query=…`) or an `application/sparql-query`
body. Results by content negotiation (`Accept`): SELECT/ASK as SPARQL JSON (default), XML, CSV or
TSV; CONSTRUCT/DESCRIBE as Turtle (default), N-Triples, RDF/XML or JSON-LD. Updates get 403 and
SERVICE clauses 400 (`kg.query.checks`); the store itself is opened read-only. `kg serve` answers
from a `LiveStore`: when the export file changes, the next request loads the new version.

It is the standard library's threading HTTP server over the same pyoxigraph store `kg query` reads,
rather than the `oxigraph` server binary: that server evaluates SERVICE clauses by sending HTTP
requests to any endpoint a query names, which paperkg refuses (no network at run time), and it
cannot be told not to.
"""
from __future__ import annotations

import signal
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, urlsplit

import pyoxigraph as ox

from kg.query.checks import QueryError, refuse_unsafe, syntax_message, update_form
from kg.query.store import StoreError

PATHS = ("/sparql", "/query")
MAX_BODY = 10 * 1024 * 1024
R, G = ox.QueryResultsFormat, ox.RdfFormat
RESULT_TYPES = {"application/sparql-results+json": R.JSON, "application/json": R.JSON,
                "application/sparql-results+xml": R.XML, "application/xml": R.XML, "text/xml": R.XML,
                "text/csv": R.CSV, "text/tab-separated-values": R.TSV}
GRAPH_TYPES = {"text/turtle": G.TURTLE, "application/n-triples": G.N_TRIPLES, "text/plain": G.N_TRIPLES,
               "application/rdf+xml": G.RDF_XML, "application/ld+json": G.JSON_LD}
HELP = ("paperkg SPARQL endpoint (read-only).\n"
        "GET /sparql?query=... or POST /sparql (form field query, or an application/sparql-query body).\n"
        "Accept: application/sparql-results+json (default), application/sparql-results+xml, text/csv,\n"
        "text/tab-separated-values; for CONSTRUCT: text/turtle (default), application/n-triples,\n"
        "application/rdf+xml, application/ld+json. Updates and SERVICE are refused.\n")


class Endpoint(ThreadingHTTPServer):
    """An HTTP server answering from a read-only store (a fixed one, or a `LiveStore` that follows its export)."""

    daemon_threads = True

    def __init__(self, store: ox.Store | Callable[[], ox.Store], port: int = 7878,
                 log: Callable[[str], None] | None = None) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.source = (lambda: store) if isinstance(store, ox.Store) else store
        self.log = log

    @property
    def url(self) -> str:
        """The query URL."""
        return f"http://127.0.0.1:{self.server_address[1]}/sparql"


class Handler(BaseHTTPRequestHandler):
    """The SPARQL 1.1 Protocol's query operation; everything else is refused with a reason."""

    server: Endpoint
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        """A query in the URL, or the help text at /."""
        url = urlsplit(self.path)
        if url.path in ("", "/"):
            return self.reply(HTTPStatus.OK, HELP.encode(), "text/plain; charset=utf-8")
        if url.path not in PATHS:
            return self.error(HTTPStatus.NOT_FOUND, f"no such path {url.path}: the endpoint is /sparql")
        self.answer(parse_qs(url.query, keep_blank_values=True))

    def do_POST(self) -> None:  # noqa: N802
        """A query as a form field or as the body."""
        url = urlsplit(self.path)
        if url.path not in PATHS:
            return self.error(HTTPStatus.NOT_FOUND, f"no such path {url.path}: the endpoint is /sparql")
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self.error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body is at most {MAX_BODY} bytes")
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        params = parse_qs(url.query, keep_blank_values=True)
        if kind == "application/x-www-form-urlencoded":
            params.update(parse_qs(body, keep_blank_values=True))
        elif kind == "application/sparql-query":
            params["query"] = [body]
        elif kind == "application/sparql-update":
            params["update"] = [body]
        else:
            return self.error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "POST a form (application/x-www-form-urlencoded) "
                              "or an application/sparql-query body")
        self.answer(params)

    def answer(self, params: dict[str, list[str]]) -> None:
        """Check, run and serialise one query."""
        if "update" in params:
            return self.error(HTTPStatus.FORBIDDEN, "this endpoint is read-only: updates are refused")
        if len(params.get("query", [])) != 1:
            return self.error(HTTPStatus.BAD_REQUEST, "give exactly one query parameter")
        if params.keys() & {"default-graph-uri", "named-graph-uri"}:
            return self.error(HTTPStatus.BAD_REQUEST, "this endpoint has one default graph: "
                              "default-graph-uri and named-graph-uri are not supported")
        text, form = params["query"][0], update_form(params["query"][0])
        if form:
            return self.error(HTTPStatus.FORBIDDEN, f"this endpoint is read-only: {form} is refused")
        try:
            refuse_unsafe(text)
        except QueryError as error:
            return self.error(HTTPStatus.BAD_REQUEST, str(error))
        try:
            result = self.server.source().query(text)
        except StoreError as error:
            return self.error(HTTPStatus.SERVICE_UNAVAILABLE, str(error))
        except SyntaxError as error:
            return self.error(HTTPStatus.BAD_REQUEST, syntax_message(error, text))
        except (ValueError, OSError, RuntimeError) as error:
            return self.error(HTTPStatus.INTERNAL_SERVER_ERROR, " ".join(str(error).split()))
        offers, default = (GRAPH_TYPES, "text/turtle") if isinstance(result, ox.QueryTriples) else (RESULT_TYPES, "application/sparql-results+json")
        chosen = negotiate(self.headers.get("Accept") or "", offers, default)
        if chosen is None:
            return self.error(HTTPStatus.NOT_ACCEPTABLE, f"acceptable types: {', '.join(offers)}")
        payload = result.serialize(format=offers[chosen])
        self.reply(HTTPStatus.OK, payload, offers[chosen].media_type if chosen != "text/plain" else "text/plain; charset=utf-8")

    def reply(self, status: HTTPStatus, payload: bytes, media_type: str) -> None:
        """Send a complete response."""
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Vary", "Accept")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(payload)

    def error(self, status: HTTPStatus, message: str) -> None:
        """A plain-text one-line error."""
        self.reply(status, (message + "\n").encode("utf-8"), "text/plain; charset=utf-8")

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        """One line per request, to the server's log if it has one."""
        if self.server.log:
            self.server.log(f"{self.address_string()} {format % args}")


def negotiate(accept: str, offers: dict, default: str) -> str | None:
    """The offered media type the Accept header prefers (q-values, wildcards); `default` for none or */*."""
    best, best_q = None, 0.0
    for position, item in enumerate(accept.split(",")):
        media, *options = [part.strip().lower() for part in item.split(";")]
        q = next((float(o[2:]) for o in options if o.startswith("q=") and is_number(o[2:])), 1.0)
        if not media or q <= best_q:
            continue
        if media in ("*/*", "*") or (media.endswith("/*") and default.startswith(media[:-1])):
            match = default
        elif media.endswith("/*"):
            match = next((o for o in offers if o.startswith(media[:-1])), None)
        else:
            match = media if media in offers else None
        if match:
            best, best_q = match, q
    return best if accept.strip() else default


def is_number(text: str) -> bool:
    """Whether `text` parses as a float."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops the server as Ctrl-C does."""
    raise KeyboardInterrupt


def serve(store: ox.Store | Callable[[], ox.Store], port: int, on_ready: Callable[[str], None],
          log: Callable[[str], None] | None = None) -> None:
    """Serve until interrupted (Ctrl-C) or terminated (SIGTERM)."""
    with Endpoint(store, port, log or (lambda line: print(line, file=sys.stderr))) as endpoint:
        signal.signal(signal.SIGTERM, interrupt)
        on_ready(endpoint.url)
        try:
            endpoint.serve_forever()
        except KeyboardInterrupt:
            pass
