"""The scorer on hand-made gold/prediction pairs."""
from __future__ import annotations

import pytest

from kg.quality.evaluate import Item, gold_items, key, score


def gold(paper: str, entity_type: str, *forms: str, role: str = "used") -> Item:
    return Item(paper, entity_type, role, forms)


def pred(paper: str, entity_type: str, node: str, *forms: str, role: str = "used") -> Item:
    return Item(paper, entity_type, role, forms, node)


@pytest.mark.parametrize("a, b", [
    ("Large Language Models", "large language model"),
    ("\\textbf{Zorp-Bench}", "Zorp Bench"),
    ("state–space model", "state-space models"),
    ("**FooNet**", "foonet"),
])
def test_key_folds_case_markup_dashes_plural(a, b):
    assert key(a) == key(b)


def test_perfect_prediction():
    golds = [gold("p1", "task", "image captioning"), gold("p1", "dataset", "FlickrZ")]
    preds = [pred("p1", "task", "task:a", "Image Captioning"), pred("p1", "dataset", "dataset:b", "FlickrZ")]
    scores = score(preds, golds)
    assert (scores.typed.f1, scores.untyped.f1) == (1.0, 1.0)


def test_wrong_type_counts_untyped_only():
    scores = score([pred("p1", "method", "method:x", "FrobNet")], [gold("p1", "model", "FrobNet")])
    assert scores.untyped.tp == 1 and scores.typed.tp == 0
    assert scores.diffs[0].wrong_type and not scores.diffs[0].missed


def test_alias_matches_and_one_to_one():
    golds = [gold("p1", "task", "automatic speech recognition", "ASR")]
    preds = [pred("p1", "task", "task:asr", "ASR"), pred("p1", "task", "task:s", "speech recognition")]
    scores = score(preds, golds)
    assert (scores.typed.tp, scores.typed.predicted, scores.typed.gold) == (1, 2, 1)
    assert [p.name for p in scores.diffs[0].spurious] == ["speech recognition"]


def test_metric_is_scored_apart_from_card_types():
    scores = score([pred("p1", "metric", "metric:w", "WER")], [gold("p1", "metric", "WER")])
    assert scores.metric.f1 == 1.0 and scores.typed.gold == 0


def test_proposed_role():
    golds = [gold("p1", "method", "Zap", role="proposed"), gold("p1", "method", "Zip")]
    preds = [pred("p1", "method", "m:zap", "Zap", role="proposed"), pred("p1", "method", "m:zip", "Zip", role="proposed")]
    proposed = score(preds, golds).proposed
    assert (proposed.tp, proposed.predicted, proposed.gold) == (1, 2, 1)


def test_linking_same_node_across_papers():
    golds = [gold("p1", "model", "large language model", "LLM"), gold("p2", "model", "LLM"),
             gold("p3", "model", "FooNet")]
    split = [pred("p1", "model", "model:llm", "large language model"), pred("p2", "model", "model:llm-2", "LLM"),
             pred("p3", "model", "model:llm", "FooNet")]
    linking = score(split, golds).linking
    assert (linking.tp, linking.predicted, linking.gold) == (0, 1, 1)


def test_predictions_outside_gold_papers_are_ignored():
    assert score([pred("other", "task", "t", "x")], [gold("p1", "task", "y")]).untyped.predicted == 0


def test_gold_items_from_records():
    items = gold_items([{"id": "p", "entities": [{"type": "task", "name": "a", "aliases": ["b"], "role": "used"}]}])
    assert items == [Item("p", "task", "used", ("a", "b"))]


def test_linking_concepts_join_through_aliases():
    golds = [gold("p1", "model", "large language model", "LLM"), gold("p2", "model", "large language model"),
             gold("p3", "model", "LLM")]
    preds = [pred("p1", "model", "model:llm", "LLM"), pred("p2", "model", "model:llm", "large language model"),
             pred("p3", "model", "model:llm", "LLM")]
    linking = score(preds, golds).linking
    assert (linking.tp, linking.predicted, linking.gold) == (3, 3, 3)
