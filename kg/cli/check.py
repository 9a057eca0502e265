"""`kg check`: validate an export directory the way SPARQL, Gephi and browser users consume it."""
from __future__ import annotations

import os
from pathlib import Path

import typer

from kg.cli.errors import EXIT_FAILURE, fail


def check_command(
    export_dir: Path = typer.Argument(..., metavar="EXPORT",
                                      help="Folder holding graph.ttl, graph.graphml and/or graph.html."),
    browser: bool = typer.Option(False, "--browser", help="Also open graph.html offline in headless Chromium."),
    shacl: bool = typer.Option(True, "--shacl/--no-shacl",
                               help="Validate graph.ttl against ontology/shapes.ttl (slow on large graphs)."),
) -> None:
    """Check each export with real consumers; one line per check, exit 1 if any fails."""
    from kg.quality.check import check_dir

    if not export_dir.is_dir():
        raise fail(f"{export_dir} is not a directory")
    if not os.access(export_dir, os.R_OK | os.X_OK):
        raise fail(f"{export_dir}: cannot read (permission denied)")
    failed = 0
    for result in check_dir(export_dir, browser=browser, shacl=shacl):
        typer.echo(result.line())
        failed += result.status == "FAIL"
    if failed:
        typer.echo(f"{failed} check(s) failed", err=True)
        raise typer.Exit(EXIT_FAILURE)
