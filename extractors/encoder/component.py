"""The fine-tuned encoder as the combining stage: the span model's candidates and sparse features, scored by the
encoder's span head, decoded like the linear model's (one type and role per concept)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate, CombineFn, DocContext
from kg.extraction.doccache import attrs, cached, text as doc_text
from kg.extractors.encoder.model import Encoded, Encoder, load_encoder
from kg.extractors.model.decoding import decode
from kg.extractors.model.features import span_features
from kg.extractors.model.linear import era_threshold
from kg.extractors.model.spans import candidate_ranges
from kg.extractors.rules.combine import combine
from kg.registry import combiners

NAME = ENCODER = "encoder"


def char_spans(doc: Doc, ranges: list[tuple[int, int]]) -> np.ndarray:
    """(n, 2) character offsets into the Doc's text of token ranges."""
    a = attrs(doc)
    return np.array([(a.idx[s], a.idx[e - 1] + len(a.text[e - 1])) for s, e in ranges], dtype=np.int64).reshape(-1, 2)


def encoded(encoder: Encoder, doc: Doc) -> Encoded:
    """The Doc text's pieces and encoder states, computed once per Doc (the relation head reads the same pass)."""
    return cached(doc, f"encoder:{encoder.digest}", lambda d: encoder.encode(doc_text(d)))


def predict(encoder: Encoder, doc: Doc, context: DocContext, candidates: list[Candidate]) -> list[Candidate]:
    """The encoder's mentions for one Doc, given the rule extractors' candidates."""
    ranges = candidate_ranges(doc, candidates)
    if not ranges:
        return []
    combined = combine(candidates, doc_text(doc), context.abbreviations)
    features = span_features(doc, ranges, candidates, context.abbreviations, combined, context.recent)
    probs, proposed = encoder.predict(doc_text(doc), char_spans(doc, ranges), features, encoded(encoder, doc))
    threshold = era_threshold(float(encoder.head.threshold[0]), float(encoder.head.threshold[-1]), context)
    return decode(doc, context, ranges, probs, proposed, threshold, NAME)


@combiners.register(ENCODER)
def make_encoder_combiner(weights: Path | None = None) -> CombineFn:
    """Factory: the encoder in the weights folder (default: shipped), verified and loaded once per process."""
    encoder = load_encoder(weights)

    def combine_paper(doc: Doc, context: DocContext, candidates: list[Candidate]) -> list[Candidate]:
        return sorted(predict(encoder, doc, context, candidates))

    combine_paper.fingerprint = cache_key(encoder)  # type: ignore[attr-defined]  (read by extract_spec)
    return combine_paper


def cache_key(encoder: Encoder) -> str:
    """What the encoder's scores depend on besides the code: its weights (the manifest) and the libraries running them."""
    import onnxruntime
    import tokenizers

    return (f"{encoder.digest[:16]}/onnxruntime-{onnxruntime.__version__}/tokenizers-{tokenizers.__version__}"
            f"/numpy-{np.__version__}")
