"""The trained span model as the combining stage: scores every candidate span, keeps non-overlapping entities,
types them per concept and decides whether the paper proposes them. Plain numpy at run time."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate, CombineFn, DocContext
from kg.extraction.doccache import text as doc_text
from kg.extractors.model.decoding import decode
from kg.extractors.model.features import span_features
from kg.extractors.model.linear import SpanModel, sigmoid, softmax
from kg.extractors.model.spans import candidate_ranges
from kg.extractors.model.weights import default_path, digest, load_model
from kg.extractors.rules.combine import combine
from kg.registry import combiners

NAME = SPAN_MODEL = "span_model"


def predict(model: SpanModel, doc: Doc, context: DocContext, candidates: list[Candidate],
            combined: list[Candidate]) -> list[Candidate]:
    """The model's mentions for one Doc, given the rule extractors' candidates and the rules' own choice."""
    ranges = candidate_ranges(doc, candidates)
    if not ranges:
        return []
    features = span_features(doc, ranges, candidates, context.abbreviations, combined, context.recent)
    probs = softmax(model.types.scores(features))
    proposed = sigmoid(model.roles.scores(features))[:, 0]
    return decode(doc, context, ranges, probs, proposed, model.threshold_of(context), NAME)


@combiners.register(SPAN_MODEL)
def make_span_model_combiner(weights: Path | None = None) -> CombineFn:
    """Factory: the span model as the combining stage (the weights file, else the shipped weights); it reads
    the rules' own combined choice as one of its features."""
    chosen = load_model(weights)

    def combine_paper(doc: Doc, context: DocContext, candidates: list[Candidate]) -> list[Candidate]:
        combined = combine(candidates, doc_text(doc), context.abbreviations)
        return sorted(predict(chosen, doc, context, candidates, combined))

    combine_paper.fingerprint = f"{digest(weights or default_path())}/numpy-{np.__version__}"  # type: ignore[attr-defined]
    return combine_paper
