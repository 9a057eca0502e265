"""Shared pieces of the `--help` pages."""
from __future__ import annotations


EXIT_CODES = "Exit codes: 0 success, 1 failure or bad input (one line on stderr), 2 usage error."


def examples(*lines: str) -> str:
    """An epilog listing example command lines and the exit codes, kept verbatim by click (\\b)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines) + "\n\n" + EXIT_CODES
