"""Evidence excerpts keep the mention in view: `kg.text.shorten.excerpt` and GraphML's `mention_excerpt`."""
import pytest

from kg.exporters.graphml import mention_excerpt
from kg.text.shorten import ELLIPSIS, excerpt, shorten

SENTENCE = ("Experiments on three benchmarks " + "with many long qualifying clauses " * 8
            + "show that Zorbnet lowers the decoding latency of the system " + "by a wide margin " * 4 + "overall.")


@pytest.mark.parametrize("word", ["Experiments", "benchmarks"])
def test_a_mention_inside_the_head_gets_the_head_as_shorten_cuts_it(word):
    start = SENTENCE.index(word)
    assert excerpt(SENTENCE, start, start + len(word), 60) == shorten(SENTENCE, 60)


@pytest.mark.parametrize("word, limit", [("Zorbnet", 80), ("latency", 60), ("overall", 50), ("Zorbnet", 20)])
def test_a_mention_beyond_the_head_is_in_the_window(word, limit):
    start = SENTENCE.index(word)
    out = excerpt(SENTENCE, start, start + len(word), limit)
    assert len(out) <= limit and out.startswith(ELLIPSIS)
    assert word[: limit - 2] in out
    assert out.endswith(ELLIPSIS) != SENTENCE.endswith(out.lstrip(ELLIPSIS))


def test_a_short_sentence_is_whole():
    assert excerpt("We propose Zorbnet.", 11, 18, 60) == "We propose Zorbnet."


def test_the_graphml_excerpt_collapses_whitespace_and_keeps_the_mention():
    sentence = "We  study\n" + "long  context " * 20 + "and   measure latency   here."
    start = sentence.index("latency")
    out = mention_excerpt(sentence, start, start + len("latency"), limit=80)
    assert "latency" in out and "  " not in out and len(out) <= 80
    assert mention_excerpt(sentence, 0, 2, limit=80) == shorten(" ".join(sentence.split()), 80)
