"""`kg eval --results`: reported results scored against gold results, end to end from a build (or by CV)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from rich.console import Console

from kg.cli.train import say
from kg.quality.gold import gold_items_of
from kg.quality.result_scores import FIELDS, KINDS, ResultScores, gold_reported, read_result_gold, score_results

out = Console(highlight=False)


def eval_results(files: dict, results: Path, model: str, names: Optional[tuple[str, ...]], cv: int,
                 as_json: bool) -> ResultScores:
    """Score the results of the gold abstracts that have gold results; print the figures."""
    records = read_result_gold(results)
    gold_ids = {str(r["id"]) for r in records}
    items = [(n, r, p) for n, r, p in gold_items_of(files) if p.id in gold_ids]
    entities = {paper.id: record.get("entities", []) for _, record, paper in items}
    missing = sorted(gold_ids - set(entities))
    if missing:
        say(f"warning: {len(missing)} results records have no abstract in the GOLD files (first: {missing[0]})")
    papers = [paper for _, _, paper in items]
    if cv:
        from kg.extractors.results.crossval import cross_validate_results, parse_gold

        gold_of = {str(r["id"]): r["results"] for r in records}
        from kg.extractors import build_extract

        parsed = parse_gold(papers, gold_of, entities, model, say, build_extract(results=False))
        predicted = cross_validate_results(parsed, cv)
    else:
        predicted = built(papers, model, names)
    scores = score_results(predicted, gold_reported([r for r in records if str(r["id"]) in entities], entities))
    if as_json:
        print(json.dumps({"papers": len(papers), **scores.to_dict()}, indent=2))
    else:
        print_results(scores, len(papers), cv)
    return scores


def built(papers: list, model: str, names: Optional[tuple[str, ...]]) -> list:
    """The results of a graph built from the papers through the one build entry point."""
    from kg.extractors import extract_spec
    from kg.io.corpus import Corpus
    from kg.quality.result_scores import graph_reported
    from kg.run.build import BuildConfig, BuildHooks, build

    spec = extract_spec(names or ())
    report = build(Corpus(papers), BuildConfig(spec, model=model), hooks=BuildHooks(warn=lambda w: say(f"warning: {w}")))
    return graph_reported(report.graph)


def print_results(scores: ResultScores, papers: int, cv: int) -> None:
    """The figures as a small table."""
    how = f" ({cv}-fold cross-validation by paper)" if cv else " (built end to end)"
    out.print(f"papers: {papers}{how}; a match: same paper, value and unit (and kind, per kind)", markup=False)
    for name, prf in [("results", scores.untyped)] + [(k, scores.per_kind[k]) for k in KINDS]:
        out.print(f"{name:<10} P {prf.precision:.3f}  R {prf.recall:.3f}  F1 {prf.f1:.3f}   "
                  f"(tp {prf.tp}, predicted {prf.predicted}, gold {prf.gold})", markup=False)
    out.print(f"fields right among the {scores.matched} matched: "
              + ", ".join(f"{f} {scores.accuracy(f):.3f}" for f in FIELDS), markup=False)
    for kind in KINDS:
        counts = scores.matched_kind[kind]
        n = counts["n"]
        out.print(f"  {kind:<8} ({n} matched): "
                  + ", ".join(f"{f} {counts[f] / n if n else 0:.3f}" for f in FIELDS if f != "kind"), markup=False)
