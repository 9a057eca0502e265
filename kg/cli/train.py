"""The `kg train` command: fit the span model on gold files (the work is in kg.extractors.model.crossval)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from kg.nlp import DEFAULT_MODEL

err = Console(stderr=True, highlight=False)


def say(line: str) -> None:
    """A progress line or warning on stderr."""
    err.print(line, markup=False, soft_wrap=True)


def train_command(
    golds: List[Path] = typer.Argument(..., metavar="GOLD", help="Gold JSONL files (id, text, entities)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                       help="Where to write the weights (default: span_model.npz in the user's data "
                                            "folder; never the installed package). Use them with kg build --weights."),
    model: str = typer.Option(DEFAULT_MODEL, "--model", metavar="NAME", help="spaCy pipeline package or path."),
    recent_weight: Optional[float] = typer.Option(None, "--recent-weight", metavar="W",
                                                  help="Weight of abstracts from 2020 on (default: the shipped one)."),
) -> None:
    """Train the span model on gold files (deterministic: the same files give the same weights)."""
    from kg.extractors.model.crossval import train_on
    from kg.extractors.model.weights import save_model, trained_path
    from kg.quality.gold import read_files

    started = time.perf_counter()
    fitted = train_on(read_files(golds), model, recent_weight, say)
    target = out or trained_path()
    save_model(fitted, target)
    say(f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s; "
        f"build with it: kg build PATH --weights {target}")
