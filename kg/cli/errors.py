"""One error path for every `kg` command: one line on stderr and a documented exit code.

Exit codes: 0 success; 1 failure or bad input (`kg.errors.UserError` and its subclasses, a file
that cannot be read or written, a failed check, an internal error); 2 usage: a bad value of an
option or argument (`kg.errors.UsageError`, and click's own errors: unknown option, missing
argument, a value out of range), also one `error:` line (no usage box). An input path that exists
but cannot be read is bad input (exit 1), though click finds it while parsing.
`PAPERKG_DEBUG=1` shows the traceback of internal errors.
"""
from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from typing import Iterator

import typer
from typer.core import TyperGroup

from kg.errors import UsageError, UserError

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
DEBUG_ENV = "PAPERKG_DEBUG"
# click's own exceptions (usage errors exit 2, Exit/Abort) pass through; recent typer vendors click
CLICK_EXCEPTION = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
CLICK_USAGE = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
PASS_THROUGH = (typer.Exit, typer.Abort, CLICK_EXCEPTION)


def fail(message: str, code: int = EXIT_FAILURE, pointed: bool = False) -> typer.Exit:
    """Print `error: message` as one line on stderr and return the exit (code 1, or 2 for usage) to raise.

    `pointed`: the message's first line is followed by a quoted line of input and a caret under the
    place (a SPARQL syntax error); those lines are kept as they are.
    """
    first, *rest = str(message).split("\n") if pointed else [str(message)]
    typer.echo("\n".join([f"error: {' '.join(first.split())}", *rest]), err=True)
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


def usage_exit(error: Exception) -> typer.Exit:
    """Click's usage error as one line: exit 2, or exit 1 for an input path that exists but cannot be read."""
    message = " ".join(error.format_message().split())  # type: ignore[attr-defined]
    unreadable = re.search(r"(?:path|file|directory) '(.*)' is not readable", message, re.IGNORECASE)
    if unreadable:
        return fail(f"{unreadable[1]}: cannot read (permission denied)")
    ctx = getattr(error, "ctx", None)
    return fail(f"{message} (see {ctx.command_path} --help)" if ctx else message, EXIT_USAGE)


class ErrorHandlingGroup(TyperGroup):
    """A command group whose errors end as one line, never a traceback or a usage box: exit 2 for usage, else 1;
    stdout's encoding errors and typer's help types are adjusted only while it runs (importing kg changes nothing)."""

    def main(self, *args, **kwargs):
        from kg.cli.help import plain_help_types

        with survive_any_encoding(), plain_help_types():
            return super().main(*args, **kwargs)

    def make_context(self, info_name, args, parent=None, **extra):  # noqa: ANN001, ANN201 (click's signature)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except CLICK_USAGE as error:
            raise usage_exit(error) from None

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except CLICK_USAGE as error:
            raise usage_exit(error) from None
        except PASS_THROUGH:
            raise
        except KeyboardInterrupt:  # Ctrl-C: one line (worker processes ignore it: kg.run.engines)
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except Exception as error:
            if os.environ.get(DEBUG_ENV) and not isinstance(error, UserError):
                raise
            code = EXIT_USAGE if isinstance(error, UsageError) else EXIT_FAILURE
            raise fail(describe(error), code, pointed=getattr(error, "pointed", False)) from None
