"""The extraction interface: candidates on the clean text mapped back to the abstract, with their sentence."""
from __future__ import annotations

import pytest

from kg.extraction.interface import Candidate, prepare, to_mention
from kg.types import Mention, Paper

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


def test_a_mention_keeps_every_candidate_field_and_a_sentence_starting_at_its_first_character() -> None:
    text, context = prepare(PAPER)
    start = text.index("It")
    candidate = Candidate(start, start + 2, "method", "proposed", 0.25, "shapes")
    found = to_mention(PAPER, context, [(0, 14), (15, len(text))], candidate)
    assert found == Mention("p1", 19, 21, "It", "method", "proposed", 19, len(PAPER.abstract), "shapes", "It", 0.25)


def test_prepare_gives_the_clean_text_and_the_paper_s_context() -> None:
    text, context = prepare(Paper("x9", "A **long short-term memory** (LSTM) net."))
    assert text == "A long short-term memory (LSTM) net." and context.paper_id == "x9"
    assert context.clean.text == text
    assert [(a.short, a.long) for a in context.abbreviations] == [("LSTM", "long short-term memory")]
