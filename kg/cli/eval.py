"""The `kg eval` command: build the graph of a gold file's abstracts and score it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer
from rich.console import Console

from kg.errors import UsageError
from kg.cli.help import EXTRACTORS_HELP
from kg.cli.train import say
from kg.quality.gold import build_items, gold_papers, read_files
from kg.nlp import DEFAULT_MODEL

if TYPE_CHECKING:  # spaCy and networkx load when the command runs, not when `kg` starts
    from kg.quality.evaluate import PRF, PaperDiff, Scores

out = Console(highlight=False)


def evaluate_file(gold: Path, records: list[dict], model: str = DEFAULT_MODEL,
                  extractor_names: Optional[tuple[str, ...]] = None, weights: Optional[Path] = None) -> Scores:
    """Build the abstracts of a gold file's `records` with the extractors and score the graph."""
    from kg.extractors import extract_spec
    from kg.quality.evaluate import gold_items, score

    spec = extract_spec(extractor_names or (), weights)
    papers = gold_papers(records, gold.name)
    return score(build_items(papers, model, spec, lambda w: say(f"warning: {w}")), gold_items(records))


def row(name: str, prf: PRF) -> str:
    """One line of the figures table."""
    return (f"{name:<10} P {prf.precision:.3f}  R {prf.recall:.3f}  F1 {prf.f1:.3f}   "
            f"(tp {prf.tp}, predicted {prf.predicted}, gold {prf.gold})")


def print_scores(scores: Scores) -> None:
    """The figures as a small table."""
    from kg.quality.evaluate import ALL_TYPES

    out.print(f"papers: {scores.papers}   (method+model+dataset+task unless noted)")
    out.print(row("typed", scores.typed))
    out.print(row("untyped", scores.untyped))
    for entity_type in ALL_TYPES:
        out.print(row(f"  {entity_type}", scores.per_type[entity_type]))
    out.print(row("proposed", scores.proposed))
    out.print(row("linking", scores.linking))


def print_diff(diff: PaperDiff) -> None:
    """Missed, spurious and wrongly typed entities of one paper."""
    out.print(f"[bold]## {diff.paper_id}[/]")
    for item in diff.missed:
        out.print(f"  - missed    {item.type:<7} {item.role:<8} {' | '.join(item.forms)}", markup=False)
    for item in diff.spurious:
        out.print(f"  + spurious  {item.type:<7} {item.role:<8} {item.name}", markup=False)
    for predicted, gold in diff.wrong_type:
        out.print(f"  ~ type      {predicted.type} -> {gold.type:<7} {gold.name}", markup=False)
    for predicted, gold in diff.wrong_role:
        out.print(f"  ~ role      {predicted.role} -> {gold.role:<7} {gold.name}", markup=False)


def eval_command(
    golds: List[Path] = typer.Argument(..., metavar="GOLD", help="Gold JSONL files (id, text, entities)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    diff: bool = typer.Option(False, "--diff", help="Show a per-paper diff (missed / spurious / wrong type)."),
    model: str = typer.Option(DEFAULT_MODEL, "--model", metavar="NAME", help="spaCy pipeline package or path; 'blank' for none."),
    extractors: str = typer.Option("", "--extractors", metavar="NAME,...", help=EXTRACTORS_HELP),
    cv: int = typer.Option(0, "--cv", metavar="K", min=0,
                           help="Cross-validate the chosen model (the encoder: one fine-tune per fold, ~20 min "
                                "each on 2 cores; --extractors fast: the span model, seconds): train on K-1 folds of "
                                "all GOLD files (grouped by paper), build every paper in one graph with the model "
                                "that did not see it, report each file."),
    weights: Optional[Path] = typer.Option(None, "--weights", metavar="PATH",
                                           help="Weights that kg train wrote: an encoder folder (default extractors) "
                                                "or a span model .npz (--extractors fast); default: the shipped ones."),
) -> None:
    """Build the graph of gold files' abstracts and score entities, roles and linking (per file)."""
    from kg.quality.evaluate import gold_items, score

    names = tuple(n.strip() for n in extractors.split(",") if n.strip()) or None
    if cv == 1:
        raise UsageError("--cv needs at least 2 folds")
    files = read_files(golds)
    predicted = None
    if cv:
        from kg.extractors.validate import cross_validate

        predicted = cross_validate(files, cv, model, names, say)
    results = {}
    for gold, records in files.items():
        scores = (score(predicted, gold_items(records)) if predicted is not None
                  else evaluate_file(gold, records, model, names, weights))
        results[gold.name] = scores
        if diff:
            for paper_diff in scores.diffs:
                print_diff(paper_diff)
        if not as_json:
            if len(golds) > 1 or cv:
                out.print(f"[bold]{gold.name}[/]" + (f" ({cv}-fold cross-validation)" if cv else ""))
            print_scores(scores)
    if as_json:
        figures = {name: s.to_dict() for name, s in results.items()}
        print(json.dumps(figures if len(golds) > 1 or cv else figures[golds[0].name], indent=2))
