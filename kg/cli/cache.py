"""`kg cache info|clear`: look at and prune the per-paper extraction cache."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from kg.cli.errors import fail
from kg.cli.help import examples
from kg.cache.admin import cache_info, clear_cache, human_size

cache_app = typer.Typer(no_args_is_help=True, help="Inspect or clear the per-paper extraction cache.",
                        epilog=examples("kg cache info", "kg cache clear --older-than 30"))
CACHE_DIR_HELP = "Cache directory (default: $PAPERKG_CACHE_DIR, else the user cache dir)."


def resolve_dir(cache_dir: Optional[Path]) -> Path:
    """The given directory, else the one builds use by default."""
    if cache_dir is not None:
        return cache_dir
    from kg.cache.entries import default_cache_dir  # loads spaCy: only when no directory is given

    return default_cache_dir()


def fail_on(error: OSError, directory: Path) -> typer.Exit:
    """Print a one-line filesystem error and return the exit to raise."""
    return fail(f"{error.filename or directory}: {error.strerror or error}")


@cache_app.command("info", epilog=examples("kg cache info", "kg cache info --cache-dir /tmp/kg-cache"))
def info_command(
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", metavar="DIR", help=CACHE_DIR_HELP),
) -> None:
    """Print the cache directory, its number of entries and their total size."""
    directory = resolve_dir(cache_dir)
    try:
        tally = cache_info(directory)
    except OSError as error:
        raise fail_on(error, directory) from None
    typer.echo(f"directory: {directory}")
    typer.echo(f"entries: {tally.files}")
    typer.echo(f"size: {human_size(tally.bytes)}")


@cache_app.command("clear", epilog=examples("kg cache clear", "kg cache clear --older-than 30 --cache-dir /tmp/kg-cache"))
def clear_command(
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", metavar="DIR", help=CACHE_DIR_HELP),
    older_than: Optional[float] = typer.Option(None, "--older-than", min=0, metavar="DAYS",
                                               help="Only remove entries last written more than DAYS ago."),
) -> None:
    """Remove cache entries (and leftover temporary files); nothing else in the directory."""
    directory = resolve_dir(cache_dir)
    try:
        tally = clear_cache(directory, older_than)
    except OSError as error:
        raise fail_on(error, directory) from None
    typer.echo(f"removed {tally.files} files, freed {human_size(tally.bytes)} from {directory}")
