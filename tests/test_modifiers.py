"""Keys of names around a definition and of versions: a defined long form that modifies the noun after its acronym is
read with that noun (`extend_modifiers`), the acronym inside a phrase is no part of its key, a version ending in .0 is the
whole version."""
import pytest

from kg.extractors.model.modifiers import extend_modifiers
from kg.text.keys import display_form, match_key

PHRASES = [  # (abstract, the chosen span's text, the phrase it becomes)
    ("Quux-Zorb (QZ) cache remains a major bottleneck for serving language models.", "Quux-Zorb", "Quux-Zorb (QZ) cache"),
    ("We study quux-of-zorb (QOZ) generalization in vision models.", "QOZ", "quux-of-zorb (QOZ) generalization"),
    ("Flarn-Gribble (FG) tagging is a classic task in language processing.", "Flarn-Gribble", "Flarn-Gribble (FG) tagging"),
]
KEPT = [  # the long form is the subject or an apposition, not a modifier: nothing changes
    ("Quux Zorb Models (QZMs) promise interpretability by predicting concepts first.", "Quux Zorb Models"),
    ("We use a Quux Zorb Network (QZN) and report accuracy.", "Quux Zorb Network"),
]


def chosen_for(doc, text: str, words: list[str]) -> list[tuple[int, tuple[int, int]]]:
    """(row, character span) of each word's first occurrence, rows numbered in order."""
    return [(row, (text.index(w), text.index(w) + len(w))) for row, w in enumerate(words)]


@pytest.mark.parametrize("abstract, mention, expected", PHRASES)
def test_a_long_form_modifying_the_noun_after_its_acronym_is_read_with_the_noun(parse, abstract, mention, expected):
    doc, context = parse(abstract)
    text = doc.text
    out = extend_modifiers(doc, chosen_for(doc, text, [mention]), context.abbreviations)
    assert [text[s:e] for _, (s, e) in out] == [expected]


@pytest.mark.parametrize("abstract, mention", KEPT)
def test_a_long_form_that_does_not_modify_the_next_word_is_left_alone(parse, abstract, mention):
    doc, context = parse(abstract)
    chosen = chosen_for(doc, doc.text, [mention])
    assert extend_modifiers(doc, chosen, context.abbreviations) == chosen


def test_the_acronym_and_the_nouns_own_span_are_absorbed_and_the_noun_span_speaks_for_the_phrase(parse):
    doc, context = parse("Quux-Zorb (QZ) cache compression remains hard for serving language models.")
    text = doc.text
    chosen = chosen_for(doc, text, ["Quux-Zorb", "QZ", "cache compression", "language models"])
    out = extend_modifiers(doc, chosen, context.abbreviations)
    assert [(row, text[s:e]) for row, (s, e) in out] == [(2, "Quux-Zorb (QZ) cache compression"),
                                                         (3, "language models")]


def test_a_phrase_that_would_cut_a_chosen_span_is_not_made(parse):
    doc, context = parse("We improve Quux-Zorb (QZ) cache for serving language models.")
    chosen = chosen_for(doc, doc.text, ["improve Quux-Zorb", "QZ"])
    assert extend_modifiers(doc, chosen, context.abbreviations) == chosen


@pytest.mark.parametrize("written, same_as", [
    ("Quux-Zorb (QZ) cache", "Quux-Zorb cache"),
    ("quux-of-zorb (QOZ) generalization", "quux-of-zorb generalization"),
])
def test_the_acronym_inside_a_phrase_is_not_part_of_its_key_or_label(written, same_as):
    assert match_key(written) == match_key(same_as)
    assert display_form(written) == display_form(same_as)


def test_a_trailing_parenthesis_stays_in_the_key():
    assert match_key("F1 (macro)") != match_key("F1")



@pytest.mark.parametrize("written, same_as, same", [
    ("Zorbench 2.0", "Zorbench-2", True),  # a version ending in .0 is the whole version
    ("Zorbench v3.00", "Zorbench v3", True),
    ("Zorbench 2.5", "Zorbench 2", False),
    ("Zorbench 2.05", "Zorbench 2", False),
])
def test_a_version_ending_in_point_zero_is_the_whole_version(written, same_as, same):
    assert (match_key(written) == match_key(same_as)) is same
