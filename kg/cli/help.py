"""Shared pieces of the `--help` pages."""
from __future__ import annotations

import inspect
from contextlib import contextmanager
from typing import Callable, Iterator

import typer


EXIT_CODES = "Exit codes: 0 success, 1 failure or bad input (one line on stderr), 2 usage error."

# The built-in extraction names (a test keeps this in step with kg.extractors.choices()).
EXTRACTION_NAMES = ("extractors: acronyms, chunks, gazetteer, proposals, shapes; combiners: encoder, rules, span_model; "
                    "presets: default, fast, rules")
EXTRACTORS_HELP = ("Extractors, presets and at most one combiner, comma-separated (default = the rules and the "
                   "fine-tuned encoder; fast = the rules and the linear span model, no transformer; rules = the rule "
                   f"extractors alone). {EXTRACTION_NAMES}.")


def described(command: Callable) -> str:
    """A command's docstring as help text: each paragraph one line, so the terminal, not the source, wraps it."""
    paragraphs = inspect.cleandoc(command.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def unwrap_help(app: typer.Typer) -> None:
    """Give every command of `app` and of its sub-apps without an explicit help its docstring `described`."""
    for command in app.registered_commands:
        if command.help is None and command.callback is not None:
            command.help = described(command.callback)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            unwrap_help(group.typer_instance)


def examples(*lines: str) -> str:
    """An epilog listing example command lines and the exit codes, kept verbatim by click (\\b)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines) + "\n\n" + EXIT_CODES


@contextmanager
def plain_help_types() -> Iterator[None]:
    """While `kg` runs, help pages show nothing in the type column for flags and named arguments (`--json`,
    `GOLD`) instead of typer's Python type names (`<bool>`, `<list[Path]>`); options keep their metavar (FILE, N)
    or choices. typer is restored after. A no-op on typer versions without rich type columns."""
    from typer import core

    option, argument = getattr(core, "TyperOption", None), getattr(core, "TyperArgument", None)
    if option is None or argument is None or not hasattr(option, "display_type_rich") \
            or getattr(option.display_type_rich, "plain", False):
        yield
        return
    typed, argument_typed = option.display_type_rich, argument.display_type_rich

    def option_type(self, ctx):
        return None if self.is_flag else typed(self, ctx)

    def argument_type(self, ctx):
        return None

    option_type.plain = argument_type.plain = True
    option.display_type_rich, argument.display_type_rich = option_type, argument_type
    try:
        yield
    finally:
        option.display_type_rich, argument.display_type_rich = typed, argument_typed
