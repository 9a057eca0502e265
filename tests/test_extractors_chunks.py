"""The noun-chunk extractor on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors.rules.chunks import make_chunks


def spans(parse, text: str) -> dict[str, str]:
    doc, context = parse(text)
    return {doc.text[c.start:c.end]: c.type for c in make_chunks()(doc, context)}


@pytest.mark.parametrize("text, name, entity_type", [
    ("We study underwater gesture recognition in murky water.", "underwater gesture recognition", "task"),
    ("The robots rely on hierarchical curiosity learning.", "hierarchical curiosity learning", "method"),
    ("A recurrent memory network encodes the stream.", "recurrent memory network", "model"),
    ("We report the mean squared error of each run.", "mean squared error", "metric"),
    ("Scores on the Pondwater dataset improve.", "Pondwater", "dataset"),
])
def test_typed_by_head(parse, text, name, entity_type):
    assert spans(parse, text).get(name) == entity_type


@pytest.mark.parametrize("text", [
    "Our method beats existing approaches in extensive experiments.",
    "We collect a synthetic dataset of images.",
    "The results show strong performance.",
])
def test_vague_phrases_are_not_entities(parse, text):
    assert spans(parse, text) == {}


def test_trailing_generic_head_is_cut(parse):
    found = spans(parse, "Many speech recognition systems fail on accents.")
    assert found.get("speech recognition") == "task"


@pytest.mark.parametrize("text, kept, never", [
    ("Classical tests degrade with high-dimensional kernel estimation of densities.", "kernel estimation",
     "dimensional kernel estimation"),
    ("The tool offers fine-grained pulse control for operators.", "pulse control", "grained pulse control"),
])
def test_stripped_modifier_takes_its_whole_compound(parse, text, kept, never):
    found = spans(parse, text)
    assert never not in found and kept in found


def test_stripped_number_keeps_its_hyphenated_word(parse):
    assert spans(parse, "The sampler keeps a 3-approximation ratio on graphs.").get("approximation ratio") == "metric"


@pytest.mark.parametrize("text, name", [
    ("We apply glimmer pruning to every layer.", None),  # `pruning` is a listed head: typed, not open
    ("We apply sparse glimmer selection to every layer.", "sparse glimmer selection"),
    ("Our agents rely on adaptive feature recalibration in every episode.", "adaptive feature recalibration"),
])
def test_process_noun_heads_outside_the_lists_are_weak_methods(parse, text, name):
    doc, context = parse(text)
    found = {doc.text[c.start:c.end]: c for c in make_chunks()(doc, context)}
    if name is None:
        assert all(c.strength == "weak" and c.score > 0.4 for c in found.values()) and found
    else:
        assert found[name].type == "method" and found[name].strength == "weak" and found[name].score == 0.4


@pytest.mark.parametrize("text", [
    "We thank the reviewers for the discussion.",  # a lone process noun: no modifier
    "The model reaches a good place.",  # not a process noun, no head
])
def test_no_open_span_without_a_specific_process_phrase(parse, text):
    doc, context = parse(text)
    assert all(c.score != 0.4 for c in make_chunks()(doc, context))
