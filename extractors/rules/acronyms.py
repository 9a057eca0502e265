"""Acronym definitions: `long form (SHORT)` gives two mentions of one entity, typed by the long form's head."""
from __future__ import annotations

from typing import Callable, Iterator

from spacy.tokens import Doc

from kg.extraction.doccache import text as doc_text
from kg.extractors.rules.cues import context_type, head_after, shape_type
from kg.extractors.rules.lexicon import HEAD_TYPES, VAGUE_MODIFIERS
from kg.extraction.interface import Candidate, DocContext
from kg.registry import extractors
from kg.text.keys import singular

SCORE = 0.9
DEFAULT_SCORE = 0.6  # typed by the default, not by a cue


def type_of(long_form: str) -> str | None:
    """A type from the long form's last word, or None."""
    words = long_form.split()
    return HEAD_TYPES.get(singular(words[-1]).lower().split("-")[-1]) if words else None


def trimmed_start(text: str, start: int, end: int) -> int:
    """Move the long form's start past vague modifiers (`a novel Foo Bar` -> `Foo Bar`)."""
    while start < end:
        word = text[start:end].split(" ", 1)[0]
        if word.lower() not in VAGUE_MODIFIERS or " " not in text[start:end]:
            break
        start += len(word) + 1
    return start


def is_modifier(long_form: str) -> bool:
    """`out-of-distribution (OOD)`, `positive-semidefinite (PSD)`: one lower-case hyphenated word, an adjective."""
    return " " not in long_form and "-" in long_form and long_form.islower()


@extractors.register("acronyms")
def make_acronyms() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: the acronym-definition extractor."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        text = doc_text(doc)
        for abbreviation in context.abbreviations:
            start = trimmed_start(text, abbreviation.long_start, abbreviation.long_end)
            span = doc.char_span(start, abbreviation.long_end, alignment_mode="expand")
            if span is None or not len(span):
                continue
            entity_type = (head_after(doc, span.end) or type_of(text[start:abbreviation.long_end])
                           or shape_type(abbreviation.short) or context_type(doc, span))
            if entity_type is None and is_modifier(text[start:abbreviation.long_end]):
                continue
            score = SCORE if entity_type else DEFAULT_SCORE
            for begin, end in ((start, abbreviation.long_end), (abbreviation.short_start, abbreviation.short_end)):
                yield Candidate(begin, end, entity_type or "method", "used", score, "acronyms")

    return extract
