"""`kg serve`: a read-only SPARQL endpoint on 127.0.0.1 over an export's query store."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from kg.cli.limits import max_memory_option, max_rows_option, timeout_option


def serve_command(
    graph: Path = typer.Argument(..., metavar="GRAPH", help="Exported graph file: .ttl, .nt or .jsonld."),
    port: int = typer.Option(7878, "--port", min=0, max=65535, metavar="PORT", help="Port on 127.0.0.1 (0: any free port)."),
    store_dir: Optional[Path] = typer.Option(None, "--store-dir", metavar="DIR",
                                             help="Where query stores live (default: $PAPERKG_STORE_DIR, else the user cache dir)."),
    timeout: float = timeout_option(),
    max_rows: int = max_rows_option(),
    max_memory: int = max_memory_option(),
    workers: int = typer.Option(2, "--workers", min=1, max=64, metavar="N",
                                help="Queries run at once, each in its own process (plus a quick-lane worker for "
                                     "queries under 0.5 s); others wait while these keep finishing, "
                                     "and get 503 when none finished for 10 s."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not log each request."),
) -> None:
    """Serve GRAPH as a read-only SPARQL 1.1 endpoint (GET/POST /sparql; JSON, XML, CSV, TSV results)."""
    from kg.cli.errors import fail
    from kg.cli.query import announce_build
    from kg.query.endpoint import serve
    from kg.query.pool import QueryLimits
    from kg.query.store import LiveStore

    store = LiveStore(graph, store_dir, announce_build)  # StoreError (a UserError): one line, exit 1
    limits = QueryLimits(timeout=timeout, max_rows=max_rows, memory_mb=max_memory, workers=workers)
    try:
        serve(store, port, lambda url: typer.echo(f"SPARQL endpoint (read-only): {url}   Ctrl-C stops it", err=True),
              (lambda line: None) if quiet else None, limits)
    except OSError as error:
        raise fail(f"cannot serve on 127.0.0.1:{port}: {error.strerror or error}") from None
