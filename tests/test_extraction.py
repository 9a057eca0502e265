"""The extraction interface: candidates on the clean text mapped back to the abstract, with their sentence."""
from __future__ import annotations

import pytest

from kg.extraction.interface import Candidate, prepare, to_mention
from kg.types import Paper

PAPER = Paper("p1", "We use **ResNet**. It runs on \\textbf{ImageNet} fast.")


@pytest.mark.parametrize(("sentences", "expected"), [
    ([(0, 14), (15, 40)], (0, 18)),  # inside the first sentence: its bounds in the abstract
    ([], (0, len(PAPER.abstract))),  # no sentence (blank pipeline, empty doc): the whole abstract
    ([(0, 0), (15, 40)], (0, len(PAPER.abstract))),  # an empty sentence: the whole abstract
])
def test_a_mention_carries_its_sentence_or_the_whole_abstract(sentences, expected) -> None:
    text, context = prepare(PAPER)
    start = text.index("ResNet")
    found = to_mention(PAPER, context, sentences, Candidate(start, start + 6, "model"))
    assert found.text == "ResNet" and PAPER.abstract[found.start:found.end] == "ResNet"
    assert (found.sentence_start, found.sentence_end) == expected


def test_a_mention_in_a_later_sentence_maps_to_that_sentence() -> None:
    text, context = prepare(PAPER)
    start = text.index("ImageNet")
    sentences = [(0, text.index("It") - 1), (text.index("It"), len(text))]
    found = to_mention(PAPER, context, sentences, Candidate(start, start + 8, "dataset"))
    assert PAPER.abstract[found.sentence_start:found.sentence_end] == "It runs on \\textbf{ImageNet} fast."
