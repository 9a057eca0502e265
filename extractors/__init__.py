"""spaCy extractors, registered by name; `build_extract` wires the chosen ones together."""
from __future__ import annotations

from spacy.tokens import Doc

from kg.extractors import acronyms, chunks, gazetteer, proposals, shapes  # noqa: F401  (registration on import)
from kg.extractors.doccache import clear, text as doc_text
from kg.extractors.relations import relate
from kg.extractors.combine import combine
from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
from kg.registry import extractors, lookup

DEFAULT_EXTRACTORS = ("gazetteer", "acronyms", "shapes", "chunks", "proposals")
VERSION = "0.6.1"  # bump when extraction output changes (part of cache keys)


def build_extract(names: tuple[str, ...] = DEFAULT_EXTRACTORS) -> ExtractFn:
    """The per-paper extraction step: every named extractor, then one combining pass."""
    chosen = [(name, lookup(extractors, name)()) for name in names]

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        try:
            candidates = [c for _, extractor in chosen for c in extractor(doc, context)]
            mentions = combine(candidates, doc_text(doc), context.abbreviations)
            return mentions, relate(doc, mentions)
        finally:
            clear(doc)

    return extract
