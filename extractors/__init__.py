"""spaCy extractors, registered by name; `build_extract` wires the chosen ones, a combiner and the relators."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from spacy.tokens import Doc

from kg.extractors import acronyms, chunks, combine, gazetteer, proposals, relations, shapes  # noqa: F401  (registration)
from kg.extractors import span_model  # noqa: F401  (registers the `span_model` combiner)
from kg.extractors.combine import combine as combine_rules
from kg.extractors.doccache import clear, text as doc_text
from kg.extractors.span_model import SPAN_MODEL, SpanModel
from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
from kg.registry import UnknownNameError, combiners, extractors, lookup, relators

RULES = ("gazetteer", "acronyms", "shapes", "chunks", "proposals")
PRESETS = {"rules": RULES, "all": RULES + (SPAN_MODEL,)}  # a name that stands for several (`rules`: no model)
DEFAULT_EXTRACTORS = RULES + (SPAN_MODEL,)  # the rules propose, the trained span model decides
DEFAULT_COMBINER = "rules"  # when no combiner is named (`--extractors rules`, or a list of extractors)
DEFAULT_RELATORS = ("sentence_cues",)
VERSION = "0.8.0"  # bump when extraction output changes (part of cache keys)
Candidates = Callable[[Doc, DocContext], tuple[list[Candidate], list[Candidate]]]


def choices() -> str:
    """The valid names for `--extractors`, for error messages and help."""
    return (f"extractors: {', '.join(sorted(extractors.get_all()))}; combiners: "
            f"{', '.join(sorted(combiners.get_all()))}; presets: {', '.join(sorted(PRESETS))}")


def expand(names: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """(extractor names, combiner name) for a list of extractor, preset and at most one combiner name."""
    flat = [n for name in names for n in PRESETS.get(name, (name,))]
    combiner = [n for n in flat if n in combiners and n not in extractors and n not in PRESETS]
    unknown = [n for n in flat if n not in extractors and n not in combiner]
    chosen = tuple(dict.fromkeys(n for n in flat if n in extractors))
    if unknown or not chosen or len(set(combiner)) > 1:
        what = (f"unknown extractor {unknown[0]!r}" if unknown else "no extractor chosen" if not chosen
                else f"more than one combiner ({', '.join(dict.fromkeys(combiner))})")
        raise UnknownNameError(f"{what} (choose from {choices()})")
    return chosen, combiner[0] if combiner else DEFAULT_COMBINER


def uses_model(names: tuple[str, ...]) -> bool:
    """Whether the span model is the combiner."""
    return expand(names)[1] == SPAN_MODEL


def build_candidates(names: tuple[str, ...] = RULES) -> Candidates:
    """Per Doc: every candidate of the named extractors, and the rules' combined choice (what the span model
    reads, and learns from)."""
    chosen = [lookup(extractors, name)() for name in expand(names)[0]]

    def candidates(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[Candidate]]:
        found = [c for extractor in chosen for c in extractor(doc, context)]
        return found, combine_rules(found, doc_text(doc), context.abbreviations)

    return candidates


def build_extract(names: tuple[str, ...] = DEFAULT_EXTRACTORS, relator_names: tuple[str, ...] = DEFAULT_RELATORS,
                  model: SpanModel | None = None, weights: str | None = None) -> ExtractFn:
    """The per-paper extraction step: the named extractors, one combiner over all their candidates (`rules`
    unless one is named; `span_model` reads `model`, else the weights file, else the shipped weights), then the
    relators over the combined mentions."""
    extractor_names, combiner_name = expand(names)
    chosen = [lookup(extractors, name)() for name in extractor_names]
    factory = lookup(combiners, combiner_name)
    combiner = factory(model, Path(weights) if weights else None) if combiner_name == SPAN_MODEL else factory()
    relating = [lookup(relators, name)() for name in relator_names]

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        try:
            candidates = [c for extractor in chosen for c in extractor(doc, context)]
            mentions = combiner(doc, context, candidates)
            return mentions, sorted({r for relate in relating for r in relate(doc, mentions)})
        finally:
            clear(doc)

    return extract
