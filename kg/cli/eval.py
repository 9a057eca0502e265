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
from kg.quality.gold import build_graph, gold_items_of, gold_papers, read_files
from kg.nlp import DEFAULT_MODEL

if TYPE_CHECKING:  # spaCy and networkx load when the command runs, not when `kg` starts
    from kg.quality.evaluate import PRF, PaperDiff, Scores

out = Console(highlight=False)


def evaluate_file(gold: Path, records: list[dict], model: str = DEFAULT_MODEL,
                  extractor_names: Optional[tuple[str, ...]] = None, weights: Optional[Path] = None) -> Scores:
    """Build the abstracts of a gold file's `records` with the extractors and score the graph."""
    return evaluate_graph(gold, records, model, extractor_names, weights)[0]


def evaluate_graph(gold: Path, records: list[dict], model: str = DEFAULT_MODEL,
                   extractor_names: Optional[tuple[str, ...]] = None, weights: Optional[Path] = None, jobs: int = 1):
    """(entity scores, graph) of a gold file's abstracts built with the extractors."""
    from kg.extractors import extract_spec
    from kg.quality.evaluate import graph_items, gold_items, score

    spec = extract_spec(extractor_names or (), weights)
    graph = build_graph(gold_papers(records, gold.name), model, spec, lambda w: say(f"warning: {w}"), jobs=jobs)
    return score(graph_items(graph), gold_items(records)), graph


def score_relation_file(gold: Path, records: list[dict], graph, relations: Path, model: str,
                        weights: Optional[Path]) -> dict[str, dict]:
    """Relation scores of one gold file: end to end (the built graph) and with the gold entities given."""
    from kg.extractors.encoder.relation_fitting import gold_entity_triples
    from kg.quality.relation_scores import graph_triples, score_relations

    given, gold_triples = gold_entity_triples({gold: records}, relations, model, weights, say)
    return {"end to end": score_relations(graph_triples(graph), gold_triples),
            "gold entities given": score_relations(given, gold_triples)}


def print_relations(title: str, scores: dict) -> None:
    """Relation P/R/F1 per relation type and overall."""
    out.print(f"relations, {title}")
    for name, prf in scores.items():
        out.print(row(f"  {name}", prf, 15))


def row(name: str, prf: PRF, width: int = 10) -> str:
    """One line of the figures table."""
    return (f"{name:<{width}} P {prf.precision:.3f}  R {prf.recall:.3f}  F1 {prf.f1:.3f}   "
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
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N",
                             help="Processes: extraction of the builds, and with --cv the encoder folds fine-tuned "
                                  "N at a time (one thread each; the figures are the same for any N)."),
    relations: Optional[Path] = typer.Option(None, "--relations", metavar="FILE",
                                             help="Gold relations of the same abstracts (JSONL, RELATIONS.md): also "
                                                  "score relations per type, end to end and with the gold entities "
                                                  "given (the default extractors' relation head)."),
    weights: Optional[Path] = typer.Option(None, "--weights", metavar="PATH",
                                           help="Weights that kg train wrote: an encoder folder (default extractors) "
                                                "or a span model .npz (--extractors fast); default: the shipped ones."),
    intermediate: Optional[List[Path]] = typer.Option(None, "--intermediate", metavar="FILE",
                                                      help="With --cv and the encoder: tune it first on these "
                                                           "files' entity spans, as kg train --intermediate does "
                                                           "(once, shared by the folds). Repeatable."),
    results: Optional[Path] = typer.Option(None, "--results", metavar="GOLD_RESULTS",
                                           help="Score reported results (RESULTS.md) against this gold results file "
                                                "instead of entities: per kind precision/recall matching paper, value "
                                                "and unit, and per field how often the matched ones are right. With "
                                                "--cv K: the results model cross-validated by paper."),
) -> None:
    """Build the graph of gold files' abstracts and score entities, roles and linking (per file)."""
    from kg.quality.evaluate import gold_items, score

    names = tuple(n.strip() for n in extractors.split(",") if n.strip()) or None
    if cv == 1:
        raise UsageError("--cv needs at least 2 folds")
    if intermediate and not cv:
        raise UsageError("--intermediate needs --cv (it is a training option; see kg train --intermediate)")
    if cv and relations is not None:
        raise UsageError("--relations cannot be combined with --cv (kg train --relations prints the "
                         "cross-validated relation figures)")
    files = read_files(golds)
    if results is not None:
        from kg.cli.eval_results import eval_results

        eval_results(files, results, model, names, cv, as_json)
        return
    predicted = None
    if cv:
        from kg.extractors.validate import cross_validate

        sources = gold_items_of(read_files(intermediate)) if intermediate else None
        predicted = cross_validate(files, cv, model, names, say, jobs=jobs, intermediate=sources)
    results, relation_results = {}, {}
    for gold, records in files.items():
        graph = None
        if predicted is not None:
            scores = score(predicted, gold_items(records))
        else:
            scores, graph = evaluate_graph(gold, records, model, names, weights, jobs)
        results[gold.name] = scores
        if relations is not None and graph is not None:
            relation_results[gold.name] = score_relation_file(gold, records, graph, relations, model, weights)
        if diff:
            for paper_diff in scores.diffs:
                print_diff(paper_diff)
        if not as_json:
            if len(golds) > 1 or cv:
                out.print(f"[bold]{gold.name}[/]" + (f" ({cv}-fold cross-validation)" if cv else ""))
            print_scores(scores)
            for title, found in relation_results.get(gold.name, {}).items():
                print_relations(title, found)
    if as_json:
        figures = {name: {**s.to_dict(), **({"relations": {title: {k: v.to_dict() for k, v in found.items()}
                                                           for title, found in relation_results[name].items()}}
                                            if name in relation_results else {})}
                   for name, s in results.items()}
        print(json.dumps(figures if len(golds) > 1 or cv else figures[golds[0].name], indent=2))
