"""The query limit options shared by `kg query` and `kg serve` (see kg.query.pool)."""
from __future__ import annotations

import typer

from kg.query.pool import QueryLimits

DEFAULTS = QueryLimits()


def timeout_option() -> float:
    """--timeout SECONDS."""
    return typer.Option(DEFAULTS.timeout, "--timeout", min=0.1, max=86_400, metavar="SECONDS",
                        help="Stop a query that runs longer (it gets an error naming the limit).")


def max_rows_option() -> int:
    """--max-rows N."""
    return typer.Option(DEFAULTS.max_rows, "--max-rows", min=0, metavar="N",
                        help="Refuse answers with more rows (or triples); 0: no cap. Answers are also capped at "
                             f"{DEFAULTS.max_bytes // 1_000_000} MB.")


def max_memory_option() -> int:
    """--max-memory MB."""
    return typer.Option(DEFAULTS.memory_mb, "--max-memory", min=200, metavar="MB",
                        help="Address space of the process running a query; a query needing more is stopped.")
