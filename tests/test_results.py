"""Reported results (issue 35): numbers and units, the trained reading, scoring, RDF and SHACL, leaderboards, lint."""
from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
import rdflib
from rdflib import Literal, URIRef

from kg.cache.entries import decode, encode
from kg.extraction.interface import Extraction
from kg.exporters.leaderboards import leaderboards, render_leaderboards
from kg.exporters.rdf import MLKG, to_rdflib
from kg.extractors.results.model import ResultsModel, load, to_json
from kg.extractors.results.numbers import find_numbers, worded_bound
from kg.extractors.results.model import LABELS
from kg.extractors.results.training import Example, gold_of, train
from kg.graph.resolution import Resolution, graph_of
from kg.graph.results import Result, direction, result_direction
from kg.quality.check import shacl_violations
from kg.quality.result_checks import Reading, problem
from kg.quality.result_scores import BASELINE, PROPOSED, Reported, read_result_gold, score_results
from kg.types import Mention, ResultMention
from tests.query_corpus import corpus_resolution
from tests.support import BASE, ROOT

XSD = rdflib.Namespace("http://www.w3.org/2001/XMLSchema#")
SHAPES = rdflib.Graph().parse(ROOT / "ontology" / "shapes.ttl")


@pytest.mark.parametrize("text, expected", [
    ("reaches 95.12% accuracy", [("95.12", "%", None)]),
    ("improves F1 by 3.2 percentage points", [("3.2", "points", None)]),
    ("is 2.3× faster and 1.5x smaller", [("2.3", "x", None), ("1.5", "x", None)]),
    ("23.56-26.36 dB PSNR", [("23.56", "dB", "at least"), ("26.36", "dB", "up to")]),
    ("scores ranging from 0.73 to 0.92", [("0.73", "", "at least"), ("0.92", "", "up to")]),
    ("retain 69% to 109% relative accuracy", [("69", "%", "at least"), ("109", "%", "up to")]),
    ("accuracies between 85% and 96%", [("85", "%", "at least"), ("96", "%", "up to")]),
    ("raises the pass rate from 59% to 78%", [("59", "%", None), ("78", "%", None)]),  # a before and an after
    ("precision falls (20.2% to 12.4%)", [("20.2", "%", None), ("12.4", "%", None)]),
    ("from the baseline's 0.553 to 0.730", [("0.553", "", None), ("0.730", "", None)]),
    ("scores of 0.968 and 0.910", [("0.968", "", None), ("0.910", "", None)]),
    ("gains of 3.9, 6.1, and 7.3 points", [("3.9", "points", None), ("6.1", "points", None), ("7.3", "points", None)]),
    ("accuracy of 90.85 ± 2.22%", [("90.85", "%", None)]),
    ("Dice 0.716+/-0.006 (best 0.726)", [("0.716", "", None), ("0.726", "", None)]),  # the minus is the spread's
    ("F1 = 0.991 (+-0.008) and", [("0.991", "", None)]),
    ("78.7% at 224×224, and 79.2% at 288 x 288 pixels", [("78.7", "%", None), ("79.2", "%", None)]),  # sizes
    ("2.3× faster than 1.5×", [("2.3", "x", None), ("1.5", "x", None)]),
    ("a drop of −1.5 dB and +1.91 on MATH", [("−1.5", "dB", None), ("+1.91", "", None)]),
    ("1,000 steps", [("1,000", "", None)]),
])
def test_numbers_carry_units_signs_and_range_bounds(text: str, expected: list) -> None:
    assert [(n.value, n.unit, n.bound) for n in find_numbers(text)] == expected


@pytest.mark.parametrize("text, bound", [
    ("gains of up to 12%", "up to"), ("over 90% of the cases", "over"), ("approximately 3 ms", "about"),
    ("at least 0.8", "at least"), ("≥ 0.8", "at least"), ("up to ~66%", "up to"), ("~4x faster", "about"),
    ("no more than 2 errors", "no more than"), ("reaches 95.1%", None), ("turnover 5", None),
])
def test_words_right_before_a_number_bound_it(text: str, bound: str | None) -> None:
    number = find_numbers(text)[-1]
    assert worded_bound(text, number.start) == bound


@pytest.mark.parametrize("text", ["ResNet-18 and GPT-5.4", "a 3D scene", "F1 on 6G networks", "see [12]",
                                  "version 1.5.2", "a 7B model", "P@10 and Recall@5", "mAP@0.5", "pass@1"])
def test_digits_of_names_citations_and_versions_are_not_numbers(text: str) -> None:
    assert find_numbers(text) == []


def test_numbers_are_labelled_by_the_gold_result_with_their_value_and_unit() -> None:
    numbers = find_numbers("reaches 95.1% and 95.1 dB, with 7 layers, +2 points over X")
    gold = [{"kind": "score", "value": "95.1", "unit": "dB"}, {"kind": "change", "value": "2", "unit": "points"}]
    labels = [LABELS.index(g["kind"]) if (g := gold_of(n, gold)) else 0 for n in numbers]
    assert labels == [1, 1, 0, 2]


def example(paper: str, seed: int) -> Example:
    """An invented training example: the feature 'good' marks results, 'gain' changes."""
    rng = np.random.default_rng(seed)
    labels = tuple(int(v) for v in rng.integers(0, 3, size=12))
    features = tuple((("good",) if y else ("bad",)) + (("gain",) if y == 2 else ()) + (f"noise:{i % 3}",)
                     for i, y in enumerate(labels))
    options = tuple((f"where:{'same' if k == 0 else 'far'}", f"noise:{k}") for k in range(3))
    choices = ((options, (1, 0, 0)), (options[::-1], (0, 0, 1)))  # one choice per gold result, the right one marked
    return Example(paper, features, labels, choices, choices)


def test_training_is_deterministic_and_learns_the_features() -> None:
    examples = [example(f"p{k}", k) for k in range(6)]
    first, second = train(examples), train(examples)
    assert to_json(first) == to_json(second)
    probs = first.numbers.probabilities([("bad",), ("good",), ("good", "gain")])
    assert probs.argmax(axis=1).tolist() == [0, 1, 2]
    assert first.subject.probabilities([("where:same",), ("where:far",)])[:, 1].argmax() == 0


def test_shipped_weights_load() -> None:
    model = load()
    assert isinstance(model, ResultsModel) and 0 < model.threshold < 1 and len(model.numbers.vocab) > 100


def test_shipped_model_reads_a_score_and_leaves_a_size(parse) -> None:
    from kg.extractors import build_extract

    doc, context = parse("We propose FooNet for image classification. On CIFAR-10, FooNet achieves 95.12% "
                         "accuracy with 7 layers and 1,000 training images.")
    mentions, _, results = build_extract()(doc, context)
    read = {doc.text[r.start:r.end]: r for r in results}
    assert set(read) == {"95.12"}
    assert read["95.12"].kind == "score" and read["95.12"].unit == "%"
    assert doc.text[read["95.12"].dataset.start:read["95.12"].dataset.end] == "CIFAR-10"


def test_a_dataset_named_with_the_metric_is_the_numbers(parse) -> None:
    from kg.extractors import build_extract

    doc, context = parse("We propose FooNet for image generation. It improves CIFAR-10 FID from 8.16 to 5.69 and "
                         "ImageNet FID from 17.37 to 11.83.")
    _, _, results = build_extract()(doc, context)
    read = {doc.text[r.start:r.end]: doc.text[r.dataset.start:r.dataset.end] for r in results if r.dataset}
    assert read == {"8.16": "CIFAR-10", "5.69": "CIFAR-10", "17.37": "ImageNet", "11.83": "ImageNet"}


@pytest.mark.parametrize("sentence, metrics", [
    ("FooNet improves accuracy from 0.362 to 0.502 and F1 from 0.532 to 0.668 on SQuAD.",
     {"0.362": "accuracy", "0.502": "accuracy", "0.532": "F1", "0.668": "F1"}),
    ("FooNet reaches F1 scores of 65% and 87% and corresponding accuracies of 63% and 85% on SQuAD.",
     {"65": "F1 scores", "87": "F1 scores", "63": "accuracy", "85": "accuracy"}),
    ("On SQuAD, sensitivity drops to 0.53, and ECE rises from 0.02 to 0.27.",
     {"0.53": "sensitivity", "0.02": "ECE", "0.27": "ECE"}),
    ("FooNet improves accuracy from 48.7% to 58.7% and reduces answer leakage from 34.0% to 9.9% on SQuAD.",
     {"48.7": "accuracy", "58.7": "accuracy", "34.0": "answer leakage", "9.9": "answer leakage"}),  # no list names it
])
def test_a_number_introduced_by_a_measure_word_is_measured_by_it(parse, sentence: str, metrics: dict) -> None:
    from kg.extractors import build_extract

    doc, context = parse("We propose FooNet for question answering. " + sentence)
    _, _, results = build_extract()(doc, context)
    assert {doc.text[r.start:r.end]: r.metric_name for r in results} == metrics


def test_the_value_before_an_improvement_is_not_the_improvers(parse) -> None:
    from kg.extractors import build_extract

    doc, context = parse("We propose FooNet for image classification. On CIFAR-10, FooNet improves the accuracy "
                         "from 71.2% to 78.9%.")
    _, _, results = build_extract()(doc, context)
    read = {doc.text[r.start:r.end]: r for r in results}
    assert {"71.2", "78.9"} <= set(read)
    after, before = read["78.9"], read["71.2"]
    assert doc.text[after.subject.start:after.subject.end] == "FooNet"
    assert (before.subject, before.proposal) == (None, False)  # the state before FooNet: an unnamed baseline


@pytest.mark.parametrize("sentence, value", [
    ("On SQuAD the probe reports a +4.12 F1 residual that flips to -3.33 F1 under other prompts.", "-3.33"),
    ("FooNet scores 0.52 F1, which falls to -0.31 F1 under noise.", "-0.31"),
])
def test_a_value_no_score_can_take_is_read_as_a_change(parse, sentence: str, value: str) -> None:
    from kg.extractors import build_extract

    doc, context = parse("We propose FooNet for image classification. " + sentence)
    _, _, results = build_extract()(doc, context)
    read = {doc.text[r.start:r.end]: r for r in results}
    assert read[value].kind == "change" and read[value].metric_name == "F1"  # no F1 is negative


def reported(kind: str, value: str, unit: str, subject=("FooNet",), dataset=("CIFAR-10",), paper="p") -> Reported:
    return Reported(paper, kind, value, unit, subject, dataset)


def test_scoring_matches_value_and_unit_one_to_one_and_counts_fields() -> None:
    gold = [reported("score", "95.1", "%"), reported("score", "95.1", "%", subject=(BASELINE,)),
            reported("change", "+3.2", "points", dataset=()), reported("score", "7", "ms")]
    predicted = [reported("score", "95.1", "%"), reported("change", "3.2", "points", subject=("foonet",)),
                 reported("score", "3.2", "%"), reported("change", "7", "ms", subject=(PROPOSED,))]
    scores = score_results(predicted, gold)
    assert (scores.untyped.tp, scores.untyped.predicted, scores.untyped.gold) == (3, 4, 4)
    assert (scores.per_kind["score"].tp, scores.per_kind["score"].predicted, scores.per_kind["score"].gold) == (1, 2, 3)
    assert (scores.per_kind["change"].tp, scores.per_kind["change"].predicted) == (1, 2)
    assert scores.right["kind"] == 2 and scores.right["subject"] == 2 and scores.right["dataset"] == 2


@pytest.mark.parametrize("line, message", [
    ('{"id": "a", "results": [{"kind": "gain", "value": "1"}]}', "'kind' must be one of score, change"),
    ('{"id": "a", "results": [{"kind": "score", "value": 1.5}]}', "'value' must be the number as written"),
    ('{"id": "a"}', "'results' is missing"),
    ('{"id": "a", "results": [', "malformed JSON"),
])
def test_bad_gold_results_name_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    from kg.errors import UserError

    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "ok", "results": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=rf"r\.jsonl:2: .*{message}"):
        read_result_gold(path)


@pytest.mark.parametrize(("written", "name"), [("% accuracy", "accuracy"), ("% selection accuracy", "selection accuracy"),
                                              ("top-1 accuracy", "top-1 accuracy")])
def test_a_result_metric_name_starts_at_the_name(written: str, name: str) -> None:
    from kg.graph.results import resolve_results

    result = ResultMention("p", 16, 20, "95.1", "score", "%", 0, 30, written)
    assert [r.metric_name for r in resolve_results([result], [])] == [name]


def test_extractions_with_results_round_trip_the_cache() -> None:
    foo = Mention("p", 0, 6, "FooNet", "model", "proposed", 0, 30, "test", "FooNet", 0.9)
    result = ResultMention("p", 16, 20, "95.1", "score", "%", 0, 30, "accuracy", None, "at 8 bits", False, foo,
                           dataset=foo, score=0.93)
    extraction = Extraction((foo,), (), (), results=(result,))
    assert decode(encode(extraction)) == extraction


def rdf() -> rdflib.Graph:
    return to_rdflib(corpus_resolution())


def test_results_are_typed_rdf_with_decimal_values_and_nif_offsets() -> None:
    data = rdf()
    result = URIRef(BASE + "result/q2/110-114")
    assert data.value(result, MLKG.value) == Literal("74", datatype=XSD.decimal)
    assert data.value(result, MLKG.valueText) == Literal("74.0")
    assert data.value(result, MLKG.reportedIn) == URIRef(BASE + "paper/q2")
    assert data.value(result, MLKG.subject) == URIRef(BASE + "entity/model/betamodel")
    assert data.value(result, MLKG.metricDirection) == Literal("higher")
    proposal = URIRef(BASE + "result/q3/105-106")
    assert data.value(proposal, MLKG.subjectIsProposal) == Literal(True)
    assert data.value(proposal, MLKG.subject) is None
    assert str(data.value(proposal, URIRef("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf"))) == "2"


def test_results_conform_to_the_shapes() -> None:
    conforms, violations = shacl_violations(rdf(), SHAPES)
    assert conforms and not violations


@pytest.mark.parametrize("change", [
    lambda d, r: d.add((r, MLKG.subjectIsProposal, Literal(True))),  # a subject and the proposal
    lambda d, r: d.set((r, MLKG.resultKind, Literal("gain"))),
    lambda d, r: d.set((r, MLKG.value, Literal("74"))),  # a string, not a decimal
    lambda d, r: d.add((r, MLKG.dataset, URIRef(BASE + "entity/model/betamodel"))),  # a model as dataset
], ids=["subject-and-proposal", "kind", "value-type", "dataset-class"])
def test_shapes_reject_broken_results(change) -> None:
    data = rdf()
    change(data, URIRef(BASE + "result/q2/110-114"))
    assert not shacl_violations(data, SHAPES)[0]


@pytest.mark.parametrize("metric, better", [("top-1 accuracy", "higher"), ("FID", "lower"), ("word error rate", "lower"),
                                            ("macro F1", "higher"), ("perplexity", "lower"), ("novelty", None),
                                            ("BLEU-4", "higher"), ("ROUGE-L", "higher"), ("pass@5", "higher"),
                                            ("Recall@20", "higher"), ("pass rate", "higher"),
                                            ("Area Under the ROC Curve", "higher"), ("FID-50k", "lower"),
                                            ("loss-aware accuracy", "higher"), ("errorless", None),
                                            ("macro-F1", "higher"), ("rFID", "lower"), ("sparsity", None),
                                            ("GMACs", None)])
def test_metric_direction_is_known_for_common_metrics(metric: str, better: str | None) -> None:
    assert direction(metric) == better


@pytest.mark.parametrize("names, better", [(("success rate", "task success rates"), "higher"),
                                           (("Flurb index", "pass rates"), "higher"),  # the first name known decides
                                           (("attack success rate",), None),  # an attack raises it, a defence lowers
                                           (("C-index",), "higher"), (("novelty", "Flurb index"), None)])
def test_a_results_direction_reads_its_names_in_turn(names: tuple[str, ...], better: str | None) -> None:
    assert result_direction(*names) == better


def with_results(*rows: tuple) -> Resolution:
    """The invented corpus with these results of q1 instead of its own."""
    return replace(corpus_resolution(), results=tuple(
        Result("q1", 0, 1, value, "score", unit, 0, 100, metric, subject=subject, dataset="dataset:shapes_set")
        for value, unit, metric, subject in rows))


def test_leaderboards_rank_by_the_metric_direction_and_need_two_scores() -> None:
    graph = graph_of(with_results(("3.1", "", "FID", "method:alphanet"), ("2.4", "", "FID", "model:betamodel"),
                         ("9", "", "novelty", "method:alphanet"), ("12", "", "novelty", "model:betamodel"),
                         ("50", "%", "recall", "model:betamodel")))
    boards = {b.metric: b for b in leaderboards(graph)}
    assert set(boards) == {"FID"}  # novelty: no direction known, listed as not ranked (tests/test_leaderboards.py)
    assert [r.text for r in boards["FID"].rows] == ["2.4", "3.1"] and boards["FID"].direction == "lower"


def test_a_leaderboard_never_ranks_scores_of_two_units_together() -> None:
    graph = graph_of(with_results(("97.2", "%", "top-1", "method:alphanet"), ("96.0", "%", "top-1", "model:betamodel"),
                                  ("5.7", "cm", "top-1", "method:alphanet"), ("4.2", "cm", "top-1", "model:betamodel"),
                                  ("0.9", "", "top-1", "model:betamodel")))
    boards = {(b.metric, b.unit): [r.text for r in b.rows] for b in leaderboards(graph)}
    assert boards == {("top-1", "%"): ["97.2", "96.0"], ("top-1", "cm"): ["5.7", "4.2"]}


def test_the_leaderboards_tab_escapes_the_abstract_text() -> None:
    graph = graph_of(with_results(("1", "", "FID", None), ("2", "", "FID", None)))
    graph.nodes["paper:q1"]["abstract"] = "<img src=x onerror=alert(1)> & more"
    page = render_leaderboards(graph, {node: i for i, node in enumerate(graph)})
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt; &amp; more" in page
    assert "lower is better" in page and "a baseline" in page


@pytest.mark.parametrize("kind, value, unit, metric, flagged", [
    ("score", "101.5", "%", "top-1 accuracy", True), ("score", "99.5", "%", "accuracy", False),
    ("score", "-0.4", "%", "error rate", True), ("change", "-0.4", "%", "error rate", False),
    ("score", "250", "", "FID", False), ("score", "-3", "", "FID", True),
    ("score", "109", "%", "relative accuracy", False), ("score", "104", "%", "accuracy retention", False),
])
def test_lint_flags_impossible_values(kind: str, value: str, unit: str, metric: str, flagged: bool) -> None:
    assert (problem(Reading("r", kind, Decimal(value), unit, metric)) is not None) == flagged


def test_lint_reports_impossible_values_from_the_turtle(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kg.cli.main import app
    from kg.exporters.graphml import write_graphml
    from kg.exporters.rdf import write_turtle

    graph = with_results(("104", "%", "accuracy", "method:alphanet"))
    write_turtle(graph, tmp_path / "graph.ttl")
    write_graphml(graph, tmp_path / "graph.graphml")
    result = CliRunner().invoke(app, ["lint", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["impossible_values"]
    assert found == [f"{BASE}result/q1/0-1: accuracy of 104% is above 100%"]


def test_a_dataset_named_by_words_is_a_literal_that_conforms() -> None:
    resolution = corpus_resolution()
    resolution = replace(resolution, results=tuple(replace(r, dataset=None, dataset_name="held-out test set")
                                                   if (r.paper_id, r.start) == ("q2", 110) else r
                                                   for r in resolution.results))
    data = to_rdflib(resolution)
    result = URIRef(BASE + "result/q2/110-114")
    assert data.value(result, MLKG.datasetName) == Literal("held-out test set")
    assert data.value(result, MLKG.dataset) is None
    assert shacl_violations(data, SHAPES)[0]
    data.add((result, MLKG.dataset, URIRef(BASE + "entity/dataset/x")))
    assert not shacl_violations(data, SHAPES)[0]  # an entity and words for the same data


def candidate(doc, text: str, kind: str, nth: int = 0):
    from kg.extraction.interface import Candidate

    start = -1
    for _ in range(nth + 1):
        start = doc.text.index(text, start + 1)
    return Candidate(start, start + len(text), kind)


def test_data_phrases_are_the_words_naming_data_outside_dataset_mentions(parse) -> None:
    from kg.extractors.results.phrases import data_phrases

    doc, _ = parse("It reaches 91.2% on the held-out test set, 88.0% on ImageNet and 80.1% on our ImageNet benchmark.")
    found = data_phrases(doc, [candidate(doc, "ImageNet", "dataset"), candidate(doc, "ImageNet", "dataset", 1)])
    assert [doc.text[c.start:c.end] for c in found] == ["held-out test set"]


def test_the_parse_ties_a_number_to_its_clause_subject(parse) -> None:
    from kg.extractors.results.features import token_at
    from kg.extractors.results.syntax import path_features, root

    doc, _ = parse("FooNet achieves 95.1% accuracy, while BarNet is slower.")
    number = doc[token_at(doc, doc.text.index("95.1"))]
    near = path_features(number, root(doc, 0, 6))
    far = path_features(number, root(doc, doc.text.index("BarNet"), doc.text.index("BarNet") + 6))
    assert "top:achieve:nsubj" in near and "top:achieve:nsubj" not in far


def test_respectively_pairs_the_nth_number_with_the_nth_name(parse) -> None:
    from kg.extractors.results.linking import order_in

    doc, _ = parse("AlphaNet and BetaNet reach 90.1% and 80.2% accuracy, respectively.")
    numbers = find_numbers(doc.text)
    names = [candidate(doc, "AlphaNet", "model"), candidate(doc, "BetaNet", "model")]
    bounds = (0, len(doc.text))
    assert order_in(doc, numbers[0], names, bounds, numbers)["alphanet"] == "respectively"
    assert order_in(doc, numbers[1], names, bounds, numbers)["betanet"] == "respectively"


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Zorbify improves QuuxNet from 19.06 to 20.05 mIoU.", "QuuxNet"),  # QuuxNet was at 19.06
    ("Zorbify raises the accuracy of QuuxNet from 61% to 71%.", None),  # no object right after the verb
    ("Zorbify improves accuracy from 61% to 71%.", None),
])
def test_the_object_of_a_verb_of_change_held_the_before_value(parse, sentence, expected) -> None:
    from kg.extractors.results.features import token_at
    from kg.extractors.results.fields import improved_of

    doc, _ = parse(sentence)
    number = next(n for n in find_numbers(doc.text) if doc.text[n.start:n.end] in ("19.06", "61"))
    names = [candidate(doc, name, "model") for name in ("Zorbify", "QuuxNet") if name in doc.text]
    found = improved_of(doc, number, doc[token_at(doc, number.start)].sent, names)
    assert (doc.text[found.start:found.end] if found else None) == expected
