"""Leaderboards (issue 35): impossible values left out alike by the page and the `leaderboard` query, measures of
unknown direction listed but not ranked, evidence sentences shown without markup."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from kg.exporters.leaderboards import leaderboards, render_leaderboards, unranked
from kg.exporters.rdf import write_turtle
from kg.graph.resolution import Resolution, graph_of
from kg.graph.results import Result, contains
from kg.text.measures import NON_NEGATIVE, PERCENT_BOUNDED, RELATIVE, impossible, metric_pattern
from kg.query.sparql import resolve_query, run_query
from tests.query_corpus import ENGINES, corpus_resolution
from tests.support import ROOT

SANE = "50"  # a companion score every measure below can take, so that each board has two rows


def resolution_with(*rows: tuple[str, str, str]) -> Resolution:
    """The invented corpus with these (value, unit, metric) scores of q1 on ShapesSet, each at its own offsets."""
    return replace(corpus_resolution(), results=tuple(
        Result("q1", 2 * i, 2 * i + 1, value, "score", unit, 0, 38, metric, subject="method:alphanet",
               dataset="dataset:shapes_set") for i, (value, unit, metric) in enumerate(rows)))


CASES = [("101.5", "%", "top-1 accuracy"), ("99.5", "%", "accuracy"), ("-0.4", "%", "error rate"),
         ("250", "", "FID"), ("-3", "", "FID"), ("-1.26", "", "FID-50k"), ("109", "%", "relative accuracy"),
         ("104", "%", "accuracy retention"), ("130", "", "macro F1"), ("130", "ms", "accuracy"),
         ("-2", "", "reward"), ("-0.2", "", "errorless score")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("value, unit, metric", CASES)
def test_the_page_and_the_query_leave_out_what_lint_flags(tmp_path: Path, engine: str, value: str, unit: str,
                                                          metric: str) -> None:
    resolution = resolution_with((SANE, unit, metric), (value, unit, metric))
    flagged = impossible("score", Decimal(value), unit, metric) is not None
    boards = leaderboards(graph_of(resolution)) + unranked(graph_of(resolution))
    on_page = [r.text for b in boards for r in b.rows]
    write_turtle(resolution, tmp_path / "graph.ttl")
    _, rows = run_query(tmp_path / "graph.ttl", resolve_query("leaderboard"), engine,
                        {"dataset": ["shapesset"], "metric": [metric.lower()]}, store_dir=tmp_path / "store")
    queried = [str(row[2]) for row in rows]
    assert (value in on_page, Decimal(value) in map(Decimal, queried)) == (not flagged, not flagged)


@pytest.mark.parametrize("names", [PERCENT_BOUNDED, NON_NEGATIVE, RELATIVE])
def test_the_query_embeds_the_patterns_lint_uses(names: tuple[str, ...]) -> None:
    text = (ROOT / "ontology" / "queries" / "leaderboard.rq").read_text()
    assert '"' + metric_pattern(names).replace("\\", "\\\\") + '"' in text


@pytest.mark.parametrize("metric", ["top-1 accuracy", "bleu-4", "pass@5", "fid-50k", "rouge-l", "errorless",
                                    "f1-score", "mean iou", "accuracy gap"])
def test_the_lookaround_free_pattern_reads_names_as_contains_does(metric: str) -> None:
    import re

    pattern = re.compile(metric_pattern(NON_NEGATIVE))
    assert bool(pattern.search(metric)) == any(contains(metric, name) for name in NON_NEGATIVE)


def test_a_measure_of_unknown_direction_is_listed_not_ranked() -> None:
    graph = graph_of(resolution_with(("72.9", "%", "sparsity"), ("50.0", "%", "sparsity"), ("3.1", "", "FID"),
                                     ("2.4", "", "FID")))
    assert [(b.metric, [r.text for r in b.rows]) for b in leaderboards(graph)] == [("FID", ["2.4", "3.1"])]
    assert [(b.metric, b.direction, len(b.rows)) for b in unranked(graph)] == [("sparsity", None, 2)]
    page = render_leaderboards(graph, {node: i for i, node in enumerate(graph)})
    ranked, listed = page.split("Not ranked", 1)
    assert "sparsity" not in ranked and "sparsity" in listed and "FID" in ranked and "72.9" not in page


@pytest.mark.parametrize("written, shown", [
    (r"Our \FlurbNet{} reaches 2.4 FID.", "Our FlurbNet reaches 2.4 FID."),
    (r"\textbf{FlurbNet} reaches $2.4$~FID.", "FlurbNet reaches 2.4 FID."),
])
def test_a_row_shows_its_sentence_without_markup(written: str, shown: str) -> None:
    graph = graph_of(resolution_with(("2.4", "", "FID"), ("3.1", "", "FID")))
    abstract = "An opening sentence. " + written + " A closing one."
    graph.nodes["paper:q1"]["abstract"] = abstract
    start = abstract.index(written)
    graph.graph["results"] = tuple(replace(r, sentence_start=start, sentence_end=start + len(written))
                                   for r in graph.graph["results"])
    page = render_leaderboards(graph, {node: i for i, node in enumerate(graph)})
    assert f'<td class="sentence">{shown}</td>' in page and "\\" not in page


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("metric, better", [("task success rates", "higher"), ("AUC-ROC", "higher"),
                                            ("MPJPE", "lower"), ("attack success rate", None),
                                            ("intersection over union", "higher"), ("sparsity", None)])
def test_the_page_and_the_query_agree_on_the_direction(tmp_path: Path, engine: str, metric: str,
                                                       better: str | None) -> None:
    resolution = resolution_with(("50", "", metric), ("60", "", metric))
    graph = graph_of(resolution)
    assert [b.direction for b in leaderboards(graph) + unranked(graph)] == [better]
    write_turtle(resolution, tmp_path / "graph.ttl")
    _, rows = run_query(tmp_path / "graph.ttl", resolve_query("leaderboard"), engine,
                        {"dataset": ["shapesset"], "metric": [metric.lower()]}, store_dir=tmp_path / "store")
    assert {str(row[5]) for row in rows} == {better or "unknown"}


def test_boards_reported_by_more_papers_come_first() -> None:
    one_paper = [Result("q1", 2 * i, 2 * i + 1, value, "score", "", 0, 38, "FID", subject="method:alphanet",
                        dataset="dataset:shapes_set") for i, value in enumerate(("3.1", "2.4", "2.9"))]
    two_papers = [Result(paper, 40, 41, value, "score", "%", 0, 38, "accuracy", subject="method:alphanet",
                         dataset="dataset:shapes_set") for paper, value in (("q1", "71.0"), ("q2", "75.5"))]
    graph = graph_of(replace(corpus_resolution(), results=tuple(one_paper + two_papers)))
    assert [(b.metric, b.papers, len(b.rows)) for b in leaderboards(graph)] == [("accuracy", 2, 2), ("FID", 1, 3)]


def test_a_range_is_one_row_and_a_repeated_value_counts_once() -> None:
    def score(paper: str, start: int, value: str, bound: str | None, subject: str) -> Result:
        return Result(paper, start, start + len(value), value, "score", "%", 0, 38, "WER", bound=bound,
                      subject=subject, dataset="dataset:shapes_set")

    rows = (score("q1", 0, "17.1", "at least", "method:alphanet"), score("q1", 5, "17.5", "up to", "method:alphanet"),
            score("q2", 0, "16.0", None, "model:betamodel"), score("q2", 30, "16.0", None, "model:betamodel"))
    graph = graph_of(replace(corpus_resolution(), results=rows))
    [board] = leaderboards(graph)
    assert [(r.text, other.text if other else None) for r, other in zip(board.rows, board.other_ends)] == [
        ("16.0", None), ("17.1", "17.5")]  # lower is better: the range stands at its better end
    index = {node: i for i, node in enumerate(graph.nodes)}
    assert "17.1–17.5%" in render_leaderboards(graph, index)
