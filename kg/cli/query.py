"""`kg query`: run SPARQL (text, a .rq file or a named query) on an exported graph, from its query store."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from kg.cli.limits import max_memory_option, max_rows_option, timeout_option


class OutputFormat(str, Enum):
    """How rows are printed."""

    table = "table"
    csv = "csv"
    json = "json"


class Engine(str, Enum):
    """The SPARQL engine."""

    oxigraph = "oxigraph"
    rdflib = "rdflib"


def query_command(
    graph: Optional[Path] = typer.Argument(None, metavar="GRAPH", help="Exported graph file: .ttl, .nt or .jsonld (format by suffix)."),
    query: Optional[str] = typer.Argument(None, metavar="QUERY", help="SPARQL text, a .rq file, or a named query (see --list)."),
    fmt: OutputFormat = typer.Option(OutputFormat.table, "--format", "-f", help="Output format."),
    param: List[str] = typer.Option([], "--param", "-p", metavar="NAME=VALUE",
                                    help="Set a parameter: replaces the query's `VALUES ?NAME { ... }` block. "
                                         "Repeat for several values. <IRI> or prefix:name is an IRI, else a string "
                                         "(a paper or entity: any of its names or its identifier, any case)."),
    list_queries: bool = typer.Option(False, "--list", help="List the named queries and their parameters."),
    engine: Engine = typer.Option(Engine.oxigraph, "--engine", metavar="ENGINE",
                                  help="oxigraph answers from the export's query store (built once, then reused); "
                                       "rdflib parses the file every time (slow; for comparison)."),
    store_dir: Optional[Path] = typer.Option(None, "--store-dir", metavar="DIR",
                                             help="Where query stores live (default: $PAPERKG_STORE_DIR, else the user cache dir)."),
    timeout: float = timeout_option(),
    max_rows: int = max_rows_option(),
    max_memory: int = max_memory_option(),
) -> None:
    """Run a read-only SPARQL query on an exported graph and print the rows.

    The prefixes mlkg, rdfs, rdf, skos, dcterms, prov, schema, xsd, nif and itsrdf are predeclared
    (a query's own PREFIX wins). With oxigraph the query runs in a separate process under the limits.
    """
    from kg.query.pool import QueryLimits
    from kg.query.sparql import format_rows, parse_params, resolve_query, run_query

    if list_queries:
        typer.echo(describe_named_queries(), nl=False)
        return
    if graph is None or query is None:
        raise typer.BadParameter("give a GRAPH file and a QUERY (SPARQL text, a .rq file or a name from --list)")
    limits = QueryLimits(timeout=timeout, max_rows=max_rows, memory_mb=max_memory, workers=1)
    # a QueryError ends as one line with exit 1 in kg.cli.errors, a QueryUsageError with exit 2
    text, params = resolve_query(query), parse_params(param)
    columns, rows = run_query(graph, text, engine.value, params, store_dir, announce_build, limits)
    if not rows and params:
        explain_empty(graph, text, params, engine.value, store_dir, limits)
    typer.echo(format_rows(columns, rows, fmt.value), nl=False)


def explain_empty(graph: Path, text: str, params: dict, engine: str, store_dir: Optional[Path], limits) -> None:
    """Fail with `no entity named 'x'; did you mean X?` when a name parameter names nothing."""
    from dataclasses import replace

    from kg.cli.errors import fail
    from kg.query.lookup import unmatched
    from kg.query.sparql import run_query

    run = lambda names: run_query(graph, names, engine, {}, store_dir, None, replace(limits, max_rows=0))  # noqa: E731
    problem = unmatched(text, params, run)
    if problem:
        raise fail(problem)


def announce_build(export: Path) -> None:
    """Say on stderr why this first query takes seconds."""
    typer.echo(f"loading {export} into its query store (once per version of the file)…", err=True)


def describe_named_queries() -> str:
    """One block per named query: name, description and parameters with their defaults."""
    from kg.query.sparql import named_queries

    lines = []
    for name, named in named_queries().items():
        lines.append(f"{name}\n    {named.description}")
        lines.extend(f"    --param {key}=…   (default: {default})" for key, default in named.params.items())
    return "\n".join(lines) + "\n"
