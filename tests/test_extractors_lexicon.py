"""The word lists that type phrases: one type per head word, wherever it is read."""
from __future__ import annotations

from itertools import combinations

from kg.extractors.rules import lexicon
from kg.extractors.rules.cues import KIND_HEADS

HEADS = {"task": lexicon.TASK_HEADS, "method": lexicon.METHOD_HEADS, "model": lexicon.MODEL_HEADS,
         "dataset": lexicon.DATASET_HEADS, "metric": lexicon.METRIC_HEADS}


def test_every_head_word_is_in_one_list_only():
    """Bug: `editing` and `matching` were both task and method heads."""
    shared = {(a, b): sorted(x & y) for (a, x), (b, y) in combinations(HEADS.items(), 2) if x & y}
    assert shared == {}


def test_a_head_after_a_name_and_at_the_end_of_a_phrase_gives_the_same_type():
    """Bug: HEAD_TYPES (phrase heads) and cues.KIND_HEADS (`Foo editing`) disagreed on `editing` and `matching`."""
    assert {w: (t, lexicon.HEAD_TYPES.get(w)) for w, t in KIND_HEADS.items() if lexicon.HEAD_TYPES.get(w) != t} == {}
    assert set(KIND_HEADS) == {w for w, t in lexicon.HEAD_TYPES.items() if t != "task"}
