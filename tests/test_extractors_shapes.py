"""The coined-name extractor on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors.rules.shapes import is_coined, make_shapes


def names(parse, text: str) -> dict[str, str]:
    doc, context = parse(text)
    return {doc.text[c.start:c.end]: c.type for c in make_shapes()(doc, context)}


@pytest.mark.parametrize("word", ["FrobNet", "Qwibble3", "ZOOMER", "Kappa-Omega", "pass@5", "Blorp++"])
def test_coined_shapes(word):
    assert is_coined(word)


@pytest.mark.parametrize("word", ["model", "Model", "AI", "3D", "8B", "L2", "E-commerce"])
def test_not_coined(word):
    assert not is_coined(word)


@pytest.mark.parametrize("text, name, entity_type", [
    ("We evaluate on the ZibbleSet dataset.", "ZibbleSet", "dataset"),
    ("We release SnorkBench, a benchmark for planning.", "SnorkBench", "dataset"),
    ("We compare with Froggle-13B on math.", "Froggle-13B", "model"),
    ("We introduce GlimmerNet, a network for depth estimation.", "GlimmerNet", "model"),
    ("Training uses the QuuxLoss objective.", "QuuxLoss", "method"),
    ("Results improve with Blip 3 7B as the judge.", "Blip 3 7B", "model"),
])
def test_names_and_types(parse, text, name, entity_type):
    assert names(parse, text).get(name) == entity_type


def test_title_case_phrase(parse):
    found = names(parse, "We present Gated Sparrow Attention for long inputs.")
    assert "Gated Sparrow Attention" in found


def test_sentence_initial_word_is_not_a_name(parse):
    assert not any(n.startswith("Using") for n in names(parse, "Using FrobNet, we win."))


@pytest.mark.parametrize("word", ["", "-", "--"])
def test_empty_or_punctuation_is_not_a_name(word):
    assert not is_coined(word.strip("-"))


@pytest.mark.parametrize("text, word", [
    ("This matches a bound of [QRT07] for retrieval.", "QRT07"),
    ("Together with Theorem 2.3 we conclude the proof.", "Theorem 2.3"),
    ("We train a GAN-based generator for faces.", "GAN-based"),
    ("An RL-only schedule is unstable.", "RL-only"),
    ("Errors are non-Gaussian in practice.", "non-Gaussian"),
    ("We map speech-to-LLM tokens directly.", "speech-to-LLM"),
    ("The ZorbNet+QuillGAN pipeline wins.", "ZorbNet+QuillGAN"),
])
def test_not_names(parse, text, word):
    assert word not in names(parse, text)


def test_citation_filter_keeps_names_outside_brackets(parse):
    assert "ZibbleNet" in names(parse, "ZibbleNet improves on [AB19, Lee et al. 2020] for retrieval.")


@pytest.mark.parametrize("text, name, entity_type", [
    ("Experiments on the Pondwater dataset, QuuxBank and ZorbCorp show gains.", "ZorbCorp", "dataset"),
    ("We compare GlimmerNet models, FrobNet and KappaOmega on speed.", "KappaOmega", "model"),
])
def test_a_later_list_item_takes_the_first_items_type(parse, text, name, entity_type):
    assert names(parse, text).get(name) == entity_type


def test_a_lone_untyped_name_keeps_the_default(parse):
    assert names(parse, "Results with ZorbCorp are mixed.").get("ZorbCorp") == "method"
