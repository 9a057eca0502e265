"""The `kg` command line: the only module that wires readers, extractors and exporters.

Start-up stays light (no spaCy, rdflib or networkx): each command imports what it needs when it runs.
Errors end as one line on stderr with the exit codes of `kg.cli.errors` (0 ok, 1 failure, 2 usage).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from kg import __version__
from kg.cli.bench import bench_command
from kg.cli.cache import cache_app
from kg.cli.check import check_command
from kg.cli.errors import EXIT_USAGE, ErrorHandlingGroup, fail
from kg.cli.eval import eval_command
from kg.cli.help import EXTRACTORS_HELP, examples, unwrap_help
from kg.cli.lint import lint_command
from kg.cli.query import query_command
from kg.cli.train import train_command
from kg.cli.serve import serve_command
from kg.nlp import DEFAULT_MODEL
from kg.run.threads import limit_threads
from kg.text.iri import base_iri_problem
from kg.types import DEFAULT_BASE_IRI, DEFAULT_FORMATS

app = typer.Typer(cls=ErrorHandlingGroup, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Build a knowledge graph from paper abstracts.",
                  epilog=examples("kg build seeds/ --out exports/", "kg check exports/",
                                  "kg query exports/graph.ttl --list", "kg eval gold.jsonl --diff"))
err = Console(stderr=True, highlight=False)
out = Console(highlight=False)
FORMATS = "ttl, nt, jsonld, graphml, html"  # the built-in exporters (a test keeps this in step with the registry)
ENGINE_NAMES = "local, dask"  # the built-in engines (a test keeps this in step with the registry)


def split(names: str) -> tuple[str, ...]:
    """The non-empty names of a comma-separated option."""
    return tuple(name.strip() for name in names.split(",") if name.strip())


def show_version(value: bool) -> None:
    """Print the version and stop (the --version flag)."""
    if value:
        typer.echo(f"paperkg {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log progress details."),
    version: bool = typer.Option(False, "--version", callback=show_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """paperkg: methods, models, datasets, tasks and metrics from abstracts, as a graph."""
    limit_threads(1)  # one thread per library pool in this process and every process it starts (--jobs scales)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s")


@app.command(epilog=examples("kg build seeds/ --out exports/",
                             "kg build papers.jsonl --out out/ --format ttl,graphml --jobs 2",
                             "kg build seeds/ --out out/ --format graphml --view full,papers,entities",
                             "kg build seeds/ --out rules-only/ --extractors rules"))
def build(
    paths: List[Path] = typer.Argument(..., metavar="PATH",
                                       help="Input files or directories (.txt listings, .jsonl, .csv)."),
    out_dir: Path = typer.Option(Path("exports"), "--out", "-o", metavar="DIR", help="Output directory."),
    formats: str = typer.Option(",".join(DEFAULT_FORMATS), "--format", "-f", metavar="FORMAT,...",
                                help=f"Comma-separated exporters, from: {FORMATS}."),
    views: str = typer.Option("full", "--view", metavar="VIEW,...",
                              help="GraphML views, comma-separated: full (graph.graphml), "
                              "papers (graph-papers.graphml: papers linked by shared entities), "
                              "entities (graph-entities.graphml: entities linked by co-occurrence)."),
    model: str = typer.Option(DEFAULT_MODEL, metavar="NAME",
                              help="spaCy pipeline package or path; 'blank' for none."),
    base_iri: str = typer.Option(DEFAULT_BASE_IRI, metavar="IRI", help="Base IRI of the RDF export."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N", help="Extraction processes (Dask: local workers)."),
    engine: str = typer.Option("local", metavar="ENGINE", help=f"Where extraction runs: {ENGINE_NAMES}."),
    scheduler: Optional[str] = typer.Option(None, metavar="ADDRESS",
                                            help="Dask scheduler address (default: a local cluster)."),
    cache_dir: Optional[Path] = typer.Option(None, metavar="DIR",
                                             help="Per-paper extraction cache (default: user cache dir)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the extraction cache."),
    extractor_names: str = typer.Option("", "--extractors", metavar="NAME,...", help=EXTRACTORS_HELP),
    weights: Optional[Path] = typer.Option(None, "--weights", metavar="PATH",
                                           help="Weights that kg train wrote: an encoder folder (default extractors) "
                                                "or a span model .npz (--extractors fast); default: the shipped ones."),
) -> None:
    """Read abstracts, extract entities, link them and write the graph exports."""
    problem = base_iri_problem(base_iri)
    if problem:
        raise fail(f"--base-iri {base_iri!r}: {problem}", EXIT_USAGE)
    from kg.extractors import extract_spec
    from kg.registry import engines, lookup
    from kg.run.build import BuildConfig, run_build

    lookup(engines, engine)  # an unknown engine fails before any work, naming the valid ones
    config = BuildConfig(extract_spec(split(extractor_names), weights), model=model,
                         formats=split(formats), views=split(views), base_iri=base_iri, engine=engine, jobs=jobs,
                         scheduler=scheduler, cache_dir=cache_dir, use_cache=not no_cache)
    try:
        run_build(paths, out_dir, config, out, err, quiet)
    except OSError as error:
        if error.filename:
            raise
        raise fail(f"{out_dir}: {error.strerror or error}") from None


app.command("eval", epilog=examples("kg eval gold.jsonl", "kg eval gold.jsonl --diff",
                                    "kg eval gold.jsonl --json --extractors rules",
                                    "kg eval a.jsonl b.jsonl --cv 5"))(eval_command)
app.command("train", epilog=examples("kg train gold/*.jsonl",
                                     "kg train gold/*.jsonl --out weights.npz",
                                     "kg build seeds/ --out out/ --weights weights.npz",
                                     "kg train gold/*.jsonl --out extractors/model/weights/span_model.npz"))(train_command)
app.command("bench", epilog=examples("kg bench", "kg bench corpus.jsonl --runs 3 --jobs 2",
                                     "kg bench corpus.jsonl --synthetic 50000 --no-parse --no-incremental"))(bench_command)
app.command("query", epilog=examples("kg query exports/graph.ttl --list",
                                     "kg query exports/graph.ttl task-datasets --param text=detection",
                                     "kg query exports/graph.ttl entity-neighbourhood -p entity=imagenet",
                                     "kg query exports/graph.ttl my-query.rq --format csv"))(query_command)
app.command("serve", epilog=examples("kg serve exports/graph.ttl", "kg serve exports/graph.ttl --port 8000 --quiet",
                                     "curl -H 'Accept: text/csv' --data-urlencode 'query=ASK {}' "
                                     "http://127.0.0.1:7878/sparql"))(serve_command)
app.command("check", epilog=examples("kg check exports/", "kg check exports/ --browser --no-shacl"))(check_command)
app.command("lint", epilog=examples("kg lint exports/", "kg lint out/graph.graphml --top 50 --json"))(lint_command)
app.add_typer(cache_app, name="cache")
unwrap_help(app)
