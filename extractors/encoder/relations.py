"""The `encoder_relations` relator: the relation head over the encoder states the span head already computed for
this Doc (kg.extractors.encoder.component.encoded: no second encoder run), stating a relation between two of the
paper's concepts when its probability reaches the relation's threshold."""
from __future__ import annotations

from pathlib import Path

from spacy.tokens import Doc

from kg.extraction.doccache import text as doc_text
from kg.extraction.interface import Candidate, CandidateRelation, DocContext, RelateFn, sentence_bounds
from kg.extractors.encoder.component import encoded
from kg.extractors.encoder.model import EncoderError, load_encoder
from kg.extractors.encoder.pairs import Span, concepts_of, pair_features, pairs_of
from kg.registry import relators

NAME = "encoder_relations"


class NoRelationHead(EncoderError):
    """An encoder folder without a relation head (e.g. one `kg train --encoder` wrote)."""


@relators.register(NAME)
def make_encoder_relations(weights: Path | None = None) -> RelateFn:
    """Factory: the relation head of the encoder weights folder (default: shipped)."""
    encoder = load_encoder(weights)
    head = encoder.relations
    if head is None:
        raise NoRelationHead(f"{weights or 'the shipped encoder weights'}: no relation head (relations.npz); "
                           f"fit one with kg train --relations, or choose the sentence_cues relator")

    def relate(doc: Doc, context: DocContext, mentions: list[Candidate]) -> list[CandidateRelation]:
        entities = [m for m in mentions if m.kind == "entity" and m.type]
        if len(entities) < 2:
            return []
        text = doc_text(doc)
        spans = [Span(m.start, m.end, m.type, m.role, text[m.start:m.end]) for m in entities]
        concepts = concepts_of(spans, tuple((a.short, a.long) for a in context.abbreviations))
        sentences = sentence_bounds(doc)
        pairs = pairs_of(spans, concepts, sentences)
        if not pairs:
            return []
        state = encoded(encoder, doc)
        x = pair_features(text, spans, concepts, pairs, sentences, state.pieces, state.states)
        stated = head.stated(x, [p.relation for p in pairs])
        return sorted(CandidateRelation(p.relation, entities[p.head_span], entities[p.tail_span])
                      for p, keep in zip(pairs, stated) if keep)

    return relate
