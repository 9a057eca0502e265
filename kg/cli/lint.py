"""`kg lint`: audit a built graph's content (orphans, suspicious labels, duplicates, hubs)."""
from __future__ import annotations

import json
from pathlib import Path

import typer

from kg.cli.errors import fail


def lint_command(
    graph: Path = typer.Argument(..., metavar="GRAPH",
                                 help="An export folder holding graph.graphml, or a GraphML file."),
    top: int = typer.Option(20, "--top", min=1, metavar="N", help="Hubs listed per entity type."),
    limit: int = typer.Option(20, "--limit", min=0, metavar="N", help="Findings printed per kind (all are counted)."),
    check_top: int = typer.Option(50, "--check-top", min=1, metavar="N",
                                  help="Say how many of the N most named entities per type have findings."),
    as_json: bool = typer.Option(False, "--json", help="Print every finding as JSON."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on orphans or suspicious labels."),
) -> None:
    """Audit a built graph: what a researcher checks first, counted among the top entities per type.

    Types the gazetteer contradicts, fragment or adjective labels, acronyms spelled out differently, case
    collisions, names proposed by several papers, split definitions, generic aliases of named entities,
    well-known entities that papers "propose"; orphans, duplicates, shared acronyms, generic names, hubs.

    Orphans: entities no paper names. Odd labels: labels that are not names. Impossible values: reported
    results no measurement can take (an accuracy above 100%, a negative error rate), read from graph.ttl beside
    the GraphML. Exit 0 unless --strict.
    """
    path = graph / "graph.graphml" if graph.is_dir() else graph
    if not path.is_file():
        raise fail(f"{path}: no such GraphML file (build with --format graphml)")
    import networkx as nx

    from kg.quality.audit import audit, report

    try:
        loaded = nx.read_graphml(path)
    except Exception as error:  # a damaged file is bad input: one line
        raise fail(f"{path}: not readable GraphML ({type(error).__name__}: {error})") from None
    result = audit(loaded, top, check_top)
    impossible = impossible_results(path)
    if as_json:
        typer.echo(json.dumps({"counts": result.counts(), "orphans": result.orphans,
                               "suspicious": result.suspicious, "duplicates": result.duplicates,
                               "shared_acronyms": result.shared_acronyms, "generic": result.generic,
                               "type_conflicts": result.type_conflicts, "odd_labels": result.odd_labels,
                               "split_acronyms": result.split_acronyms,
                               "doubtful_proposals": result.doubtful_proposals,
                               "patterns": {name.replace(" ", "_"): lines for name, lines in result.patterns().items()},
                               "patterns_top": result.pattern_top, "hubs": result.hubs,
                               "top_flagged": {"top": check_top, **result.top_flagged},
                               "impossible_values": impossible},
                              indent=1, ensure_ascii=False))
    else:
        for line in report(result, limit):
            typer.echo(line)
        if impossible:
            typer.echo(f"impossible values ({len(impossible)}):")
            for line in impossible[:limit]:
                typer.echo(f"  {line}")
    if strict and (result.orphans or result.suspicious or impossible):
        raise typer.Exit(1)


def impossible_results(path: Path) -> list[str]:
    """Results with impossible values (kg.quality.result_checks), read from graph.ttl beside the GraphML."""
    turtle = path.with_name("graph.ttl")
    if not turtle.is_file():
        return []
    from kg.quality.result_checks import impossible_values, read_turtle

    try:
        return impossible_values(read_turtle(turtle))
    except (OSError, SyntaxError, ValueError) as error:
        raise fail(f"{turtle}: not readable Turtle ({type(error).__name__}: {error})") from None
