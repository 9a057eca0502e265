"""spaCy extractors, registered by name; `build_extract` wires the chosen ones, the scorers and the stages after."""
from __future__ import annotations

from spacy.tokens import Doc

from kg.extractors import acronyms, chunks, gazetteer, proposals, relations, shapes  # noqa: F401  (registration)
from kg.extractors.doccache import clear, text as doc_text
from kg.extractors.combine import combine
from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
from kg.registry import UnknownNameError, extractors, lookup, relators, scorers

RULES = ("gazetteer", "acronyms", "shapes", "chunks", "proposals")
PRESETS = {"rules": RULES}  # a name that stands for several
DEFAULT_EXTRACTORS = RULES
DEFAULT_RELATORS = ("sentence_cues",)
VERSION = "0.7.1"  # bump when extraction output changes (part of cache keys)


def choices() -> str:
    """The valid names for `--extractors`, for error messages and help."""
    return (f"extractors: {', '.join(sorted(extractors.get_all()))}; scorers: "
            f"{', '.join(sorted(scorers.get_all())) or 'none'}; presets: {', '.join(sorted(PRESETS))}")


def expand(names: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(extractor names, scorer names) for a list of extractor, scorer and preset names, each once, in order."""
    flat = [n for name in names for n in PRESETS.get(name, (name,))]
    unknown = [n for n in flat if n not in extractors and n not in scorers]
    if unknown or not flat:
        what = f"unknown extractor {unknown[0]!r}" if unknown else "no extractor chosen"
        raise UnknownNameError(f"{what} (choose from {choices()})")
    chosen = tuple(dict.fromkeys(flat))
    return tuple(n for n in chosen if n in extractors), tuple(n for n in chosen if n in scorers)


def build_extract(names: tuple[str, ...] = DEFAULT_EXTRACTORS, relator_names: tuple[str, ...] = DEFAULT_RELATORS
                  ) -> ExtractFn:
    """The per-paper extraction step: the named extractors, then the named scorers over their candidates, one
    combining pass, then the relators over the combined mentions."""
    extractor_names, scorer_names = expand(names)
    chosen = [lookup(extractors, name)() for name in extractor_names]
    scoring = [lookup(scorers, name)() for name in scorer_names]
    relating = [lookup(relators, name)() for name in relator_names]

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        try:
            candidates = [c for extractor in chosen for c in extractor(doc, context)]
            for scorer in scoring:
                candidates = scorer(doc, context, candidates)
            mentions = combine(candidates, doc_text(doc), context.abbreviations)
            return mentions, sorted({r for relate in relating for r in relate(doc, mentions)})
        finally:
            clear(doc)

    return extract
