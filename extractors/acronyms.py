"""Acronym definitions: `long form (SHORT)` gives two mentions of one entity."""
from __future__ import annotations

from typing import Iterator

from spacy.tokens import Doc

from kg.extract import Candidate, DocContext
from kg.registry import extractors

HEAD_TYPES = {
    "dataset": "dataset", "benchmark": "dataset", "corpus": "dataset",
    "model": "model", "network": "model", "transformer": "model",
    "detection": "task", "recognition": "task", "classification": "task", "estimation": "task",
    "rate": "metric", "score": "metric", "error": "metric",
}


def type_of(long_form: str) -> str:
    """A type from the long form's last word, defaulting to method."""
    last = long_form.lower().split()[-1].rstrip("s")
    return HEAD_TYPES.get(last, "method")


@extractors.register("acronyms")
def make_acronyms() -> callable:
    """Factory: the acronym-definition extractor."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        for abbreviation in context.abbreviations:
            entity_type = type_of(abbreviation.long)
            yield Candidate(abbreviation.long_start, abbreviation.long_end, entity_type, "used", 0.9, "acronyms")
            yield Candidate(abbreviation.short_start, abbreviation.short_end, entity_type, "used", 0.9, "acronyms")

    return extract
