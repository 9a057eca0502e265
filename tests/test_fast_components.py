"""The cached attribute ruler and lemmatizer give exactly the stock components' annotations."""
from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.attrs import DEP, HEAD, LEMMA, MORPH, ORTH, POS, TAG

from kg.nlp.fast_components import CachedAttributeRuler, speed_up
from kg.nlp.load import load_nlp

ANNOTATIONS = [ORTH, TAG, POS, MORPH, LEMMA, DEP, HEAD]
# Invented sentences with the tokens the English rules single out: contractions, pronouns,
# auxiliaries, odd determiners, whitespace tokens, apostrophe forms and a one-token text.
TEXTS = [
    "We don't think I'd ever use it; they ain't gonna train GloomNet on 3 GPUs.",
    "It was n't nothin' like that, y' know, whereas she gave him the Flarp corpus.",
    "Which models  do we   compare?\n\nThe ones that have been pre-trained, ain't they?",
    "Is this what you're after, or are those baselines what we've been missing?",
    "Results.",
    "",
    "Models were evaluated with accuracy, BLEU and F1 on 12 tasks; each of them is hard.",
]


@pytest.fixture(scope="module")
def stock():
    """The model with its stock attribute ruler and lemmatizer."""
    return load_nlp(fast=False)[0]


def annotations(doc) -> tuple:
    """Every token attribute the two components read or write, plus lemma and morph strings."""
    return (doc.to_array(ANNOTATIONS).tolist(), [t.lemma_ for t in doc], [str(t.morph) for t in doc])


def test_default_pipeline_uses_the_stand_ins(nlp):
    assert nlp.pipe_names[-2:] == ["attribute_ruler", "lemmatizer"]
    assert type(nlp.get_pipe("attribute_ruler").inner).__name__ == "CachedAttributeRuler"
    assert type(nlp.get_pipe("lemmatizer").inner).__name__ == "CachedLemmatizer"
    assert speed_up(nlp) == []  # swapping again changes nothing


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_same_annotations_as_stock_in_batches(nlp, stock, batch_size):
    expected = [annotations(doc) for doc in stock.pipe(TEXTS)]
    assert [annotations(doc) for doc in nlp.pipe(TEXTS, batch_size=batch_size)] == expected


def test_same_annotations_one_text_at_a_time(nlp, stock):
    for text in TEXTS:
        assert annotations(nlp(text)) == annotations(stock(text))


def test_seen_windows_are_looked_up_not_recomputed(stock):
    fast = load_nlp()[0]
    ruler = fast.get_pipe("attribute_ruler").inner
    list(fast.pipe(TEXTS))
    computed = ruler.computed
    assert computed > 0
    docs = list(fast.pipe(TEXTS))
    assert ruler.computed == computed
    assert [annotations(d) for d in docs] == [annotations(d) for d in stock.pipe(TEXTS)]


def custom_ruler(patterns: list[tuple[list[dict], dict, int]]):
    """A blank English pipeline with only an attribute ruler holding `patterns`."""
    pipeline = spacy.blank("en")
    ruler = pipeline.add_pipe("attribute_ruler")
    for pattern, attrs, index in patterns:
        ruler.add([pattern], attrs, index=index)
    return pipeline


def test_multi_token_and_regex_patterns_match_stock():
    patterns = [([{"LOWER": "zorb"}, {"LOWER": {"IN": ["net", "nets"]}}], {"TAG": "NNP", "LEMMA": "zorbnet"}, 1),
                ([{"LOWER": {"REGEX": "^gl[aeiou]+m"}}], {"TAG": "JJ"}, 0),
                ([{"LOWER": {"NOT_IN": ["the", "a"]}}, {"IS_PUNCT": True}], {"TAG": "X"}, 0)]
    texts = ["The zorb net beats a zorb nets, gloomy glaam.", "zorb", "net zorb", "Glum. A glee!"]
    stock_pipeline, fast_pipeline = custom_ruler(patterns), custom_ruler(patterns)
    assert speed_up(fast_pipeline) == ["attribute_ruler"]
    for text in texts:
        assert fast_pipeline(text).to_array([TAG, LEMMA]).tolist() == stock_pipeline(text).to_array([TAG, LEMMA]).tolist()
    assert [d.to_array([TAG]).tolist() for d in fast_pipeline.pipe(texts)] == \
        [d.to_array([TAG]).tolist() for d in stock_pipeline.pipe(texts)]


def test_unsupported_patterns_keep_the_stock_component():
    pipeline = custom_ruler([([{"LENGTH": {">=": 3}}], {"TAG": "X"}, 0)])
    assert speed_up(pipeline) == []
    assert type(pipeline.get_pipe("attribute_ruler")).__name__ == "AttributeRuler"
    with pytest.raises(ValueError, match="unsupported"):
        CachedAttributeRuler(pipeline.get_pipe("attribute_ruler"))


def test_windows_see_the_neighbours_and_mark_the_edges(nlp):
    ruler = nlp.get_pipe("attribute_ruler").inner
    assert ruler.reach == 1  # the English rules span at most two tokens
    own, near = len(ruler.own.ids), len(ruler.near.ids)
    windows = ruler.windows(nlp.make_doc("a b c"))
    before, after = windows[:, own:own + near], windows[:, own + near:]
    outside = np.uint64(2**64 - 1)
    assert windows.shape == (3, own + 2 * near)
    assert (before[0] == outside).all() and (after[2] == outside).all()
    assert not (before[1:] == outside).any() and not (after[:2] == outside).any()
