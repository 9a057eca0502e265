"""One error path for every `kg` command: one line on stderr and a documented exit code.

Exit codes: 0 success; 1 failure or bad input (`kg.errors.UserError` and its subclasses, a file
that cannot be read or written, a failed check, an internal error); 2 usage (unknown option,
missing argument: click's own errors). `PAPERKG_DEBUG=1` shows the traceback of internal errors.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

import typer
from typer.core import TyperGroup

from kg.errors import UserError

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
DEBUG_ENV = "PAPERKG_DEBUG"
# click's own exceptions (usage errors exit 2, Exit/Abort) pass through; recent typer vendors click
CLICK_EXCEPTION = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
PASS_THROUGH = (typer.Exit, typer.Abort, CLICK_EXCEPTION)


def fail(message: str, code: int = EXIT_FAILURE) -> typer.Exit:
    """Print `error: message` as one line on stderr and return the exit (code 1, or 2 for usage) to raise."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    return typer.Exit(code)


@contextmanager
def survive_any_encoding() -> Iterator[None]:
    """While a command runs, stdout and stderr print any text whatever the terminal's encoding (unencodable
    characters escaped); their error handlers are restored after, so embedding `kg` changes nothing."""
    previous = []
    for stream in (sys.stdout, sys.stderr):
        try:
            errors = stream.errors
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
            previous.append((stream, errors))
        except (AttributeError, ValueError, OSError):  # not a TextIOWrapper (a test runner's capture)
            pass
    try:
        yield
    finally:
        for stream, errors in previous:
            try:
                stream.reconfigure(errors=errors)  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                pass


def describe(error: BaseException) -> str:
    """The one-line message for an exception that reached the command line."""
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, OSError):
        where = error.filename or ""
        return f"{where}: {error.strerror or error}" if where else str(error.strerror or error)
    return f"internal error: {type(error).__name__}: {error} (set {DEBUG_ENV}=1 for a traceback)"


class ErrorHandlingGroup(TyperGroup):
    """A command group whose subcommands' errors end as one line and exit 1, never a traceback; stdout's
    encoding errors and typer's help types are adjusted only while it runs (importing kg changes nothing)."""

    def main(self, *args, **kwargs):
        from kg.cli.help import plain_help_types

        with survive_any_encoding(), plain_help_types():
            return super().main(*args, **kwargs)

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except PASS_THROUGH:
            raise
        except Exception as error:
            if os.environ.get(DEBUG_ENV) and not isinstance(error, UserError):
                raise
            raise fail(describe(error)) from None
