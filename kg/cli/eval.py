"""The `kg eval` command: build the graph of a gold file's abstracts and score it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console

from kg.nlp import DEFAULT_MODEL

if TYPE_CHECKING:  # spaCy and networkx load when the command runs, not when `kg` starts
    from kg.quality.evaluate import PRF, PaperDiff, Scores
    from kg.types import Paper

out = Console(highlight=False)


def gold_papers(records: list[dict], file: str) -> list[Paper]:
    """The gold abstracts as papers whose ids equal the gold ids."""
    from kg.io.readers import Skipped, record_to_paper

    papers = []
    for line, record in enumerate(records, start=1):
        paper = record_to_paper({"id": record["id"], "abstract": record.get("text", record.get("abstract"))},
                                file, line)
        if not isinstance(paper, Skipped):
            papers.append(paper)
    return papers


def evaluate_file(gold: Path, model: str = DEFAULT_MODEL, extractor_names: Optional[tuple[str, ...]] = None) -> Scores:
    """Build the gold file's abstracts with the extractors and score the graph."""
    from kg.extractors import DEFAULT_EXTRACTORS, VERSION, build_extract
    from kg.io.corpus import Corpus
    from kg.quality.evaluate import gold_items, graph_items, read_gold, score
    from kg.run.build import BuildConfig, BuildHooks, build
    from kg.run.engines import ExtractSpec

    records = read_gold(gold)
    spec = ExtractSpec(build_extract, args=(extractor_names or DEFAULT_EXTRACTORS,), version=VERSION)
    warn = Console(stderr=True, highlight=False)
    report = build(Corpus(gold_papers(records, gold.name)), BuildConfig(spec, model=model),
                   hooks=BuildHooks(warn=lambda w: warn.print(f"warning: {w}", markup=False)))
    return score(graph_items(report.graph), gold_items(records))


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
    gold: Path = typer.Argument(..., metavar="GOLD", help="Gold JSONL (id, text, entities)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    diff: bool = typer.Option(False, "--diff", help="Show a per-paper diff (missed / spurious / wrong type)."),
    model: str = typer.Option(DEFAULT_MODEL, "--model", metavar="NAME", help="spaCy pipeline package or path; 'blank' for none."),
    extractors: str = typer.Option("", "--extractors", metavar="NAME,...",
                                  help="Extractors (and a combiner) to run, comma-separated; 'rules' = the rule extractors "
                                       "(default: all)."),
) -> None:
    """Build the graph of a gold file's abstracts and score entities, roles and linking."""
    names = tuple(n.strip() for n in extractors.split(",") if n.strip()) or None
    scores = evaluate_file(gold, model, names)
    if diff:
        for paper_diff in scores.diffs:
            print_diff(paper_diff)
    if as_json:
        print(json.dumps(scores.to_dict(), indent=2))
    else:
        print_scores(scores)
