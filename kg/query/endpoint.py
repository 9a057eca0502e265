"""`kg serve`: a read-only SPARQL 1.1 Protocol endpoint on 127.0.0.1 over an export's query store.

`GET /sparql?query=…`, `POST /sparql` with a form (`query=…`) or an `application/sparql-query`
body. Results by content negotiation (`Accept`): SELECT/ASK as SPARQL JSON (default), XML, CSV or
TSV; CONSTRUCT/DESCRIBE as Turtle (default), N-Triples, RDF/XML or JSON-LD. Updates get 403 and
SERVICE clauses 400 (`kg.query.checks`); the store itself is opened read-only. `kg serve` answers
from a `LiveStore`: when the export file changes, the new version is loaded in the background and requests
get 503 with Retry-After until it is ready.

Each query runs in a worker process (`kg.query.pool`) under limits: time (`--timeout`), rows and
bytes of the answer, memory, and how many run at once (the others wait briefly, then get 503; a quick-lane
worker answers short queries meanwhile); a query whose client disconnects is stopped. Limit errors are 503
with a one-line reason. A body length that is not a number, or over MAX_BODY, is refused before it is read.

It is the standard library's threading HTTP server over the same pyoxigraph store `kg query` reads,
rather than the `oxigraph` server binary: that server evaluates SERVICE clauses by sending HTTP
requests to any endpoint a query names, which paperkg refuses (no network at run time), and it
cannot be told not to.
"""
from __future__ import annotations

import errno
import select
import signal
import socket
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from kg.errors import UserError
from kg.query.checks import QueryError, QuerySyntaxError, refuse_unsafe, update_form
from kg.query.pool import Cancelled, LimitError, NotAcceptableAnswer, QueryLimits, WorkerPool
from kg.query.results import negotiate  # noqa: F401  (part of this module's interface)
from kg.query.store import StoreError

PATHS = ("/sparql", "/query")
MAX_BODY = 10 * 1024 * 1024
IDLE_SECONDS = 60
HELP = ("paperkg SPARQL endpoint (read-only).\n"
        "GET /sparql?query=... or POST /sparql (form field query, or an application/sparql-query body).\n"
        "Accept: application/sparql-results+json (default), application/sparql-results+xml, text/csv,\n"
        "text/tab-separated-values; for CONSTRUCT: text/turtle (default), application/n-triples,\n"
        "application/rdf+xml, application/ld+json. Updates and SERVICE are refused.\n")


class Endpoint(ThreadingHTTPServer):
    """An HTTP server answering from a read-only store, each query in a worker process under `limits`.

    `store` gives the directory of the store to answer from (a `LiveStore` follows its export).
    """

    daemon_threads = True
    request_queue_size = 128  # the listen backlog: bursts of clients connect instead of being reset
    pool: WorkerPool | None = None  # started once the port is bound

    def __init__(self, store: Callable[[], Path], port: int = 7878, log: Callable[[str], None] | None = None,
                 limits: QueryLimits = QueryLimits()) -> None:
        try:
            super().__init__(("127.0.0.1", port), Handler)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise PortTaken(f"cannot serve on 127.0.0.1:{port}: the port is in use by another program; "
                                "choose another with --port (--port 0 takes any free port)") from None
            raise
        self.source = store
        self.log = log
        self.pool = WorkerPool(limits)
        try:
            self.pool.prepare(str(store()))  # every worker opens the store before the first request
        except StoreError:
            pass  # the requests will say why

    @property
    def url(self) -> str:
        """The query URL."""
        return f"http://127.0.0.1:{self.server_address[1]}/sparql"

    def server_close(self) -> None:
        """Close the socket and stop the workers (if they were started)."""
        super().server_close()
        if self.pool is not None:
            self.pool.close()


class PortTaken(UserError):
    """The port is already bound by another program."""


class Handler(BaseHTTPRequestHandler):
    """The SPARQL 1.1 Protocol's query operation; everything else is refused with a reason."""

    server: Endpoint
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS  # a client that sends nothing (or stops mid-body) for this long is disconnected

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
        length = self.body_length()
        if length is None:
            return None
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

    def body_length(self) -> int | None:
        """The request body's length in bytes, or None once a refusal was sent (the connection is then closed)."""
        given = (self.headers.get("Content-Length") or "").strip()
        if not given and (self.headers.get("Transfer-Encoding") or "").strip():
            self.close_connection = True
            self.error(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length (chunked bodies are not read)")
            return None
        if given and not (given.isascii() and given.isdigit()):
            self.close_connection = True
            self.error(HTTPStatus.BAD_REQUEST, f"Content-Length must be a number of bytes (got {given[:40]!r})")
            return None
        if len(given) > 9 or int(given or 0) > MAX_BODY:
            self.close_connection = True
            self.error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body is at most {MAX_BODY} bytes")
            return None
        return int(given or 0)

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
            store = self.server.source()  # Rebuilding (503, Retry-After) while a changed export loads
            media, payload = self.server.pool.run({"store": str(store), "query": text, "mode": "http",
                                                    "accept": self.headers.get("Accept") or ""}, self.client_gone)
        except Cancelled:
            self.close_connection = True
            return None
        except (StoreError, LimitError) as error:
            return self.error(HTTPStatus.SERVICE_UNAVAILABLE, str(error), retry=getattr(error, "retry_after", 0))
        except QuerySyntaxError as error:
            return self.error(HTTPStatus.BAD_REQUEST, str(error), one_line=False)
        except NotAcceptableAnswer as error:
            return self.error(HTTPStatus.NOT_ACCEPTABLE, str(error))
        except QueryError as error:
            return self.error(HTTPStatus.INTERNAL_SERVER_ERROR, str(error))
        self.reply(HTTPStatus.OK, payload, media)

    def client_gone(self) -> bool:
        """Whether the client closed its connection (checked while its query runs)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    def reply(self, status: HTTPStatus, payload: bytes, media_type: str, retry: int = 0) -> None:
        """Send a complete response (with Retry-After when `retry` seconds are given)."""
        self.send_response(status)
        if retry:
            self.send_header("Retry-After", str(retry))
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Vary", "Accept")
        self.send_header("Cache-Control", "no-store")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    def error(self, status: HTTPStatus, message: str, retry: int = 0, one_line: bool = True) -> None:
        """A plain-text error: one line (a syntax error adds the query's line and a caret)."""
        text = " ".join(message.split()) if one_line else message
        self.reply(status, (text + "\n").encode("utf-8"), "text/plain; charset=utf-8", retry)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        """One line per request, to the server's log if it has one."""
        if self.server.log:
            self.server.log(f"{self.address_string()} {format % args}")


def interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops the server as Ctrl-C does."""
    raise KeyboardInterrupt


def serve(store: Callable[[], Path], port: int, on_ready: Callable[[str], None],
          log: Callable[[str], None] | None = None, limits: QueryLimits = QueryLimits()) -> None:
    """Serve until interrupted (Ctrl-C) or terminated (SIGTERM)."""
    with Endpoint(store, port, log or (lambda line: print(line, file=sys.stderr)), limits) as endpoint:
        signal.signal(signal.SIGTERM, interrupt)
        on_ready(endpoint.url)
        try:
            endpoint.serve_forever()
        except KeyboardInterrupt:
            pass
