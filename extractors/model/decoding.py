"""From span scores to mentions: non-overlapping spans above a threshold, one type and one role per concept.
Shared by every span-scoring model (the linear span model here, the encoder next to it)."""
from __future__ import annotations

from collections import defaultdict

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate, DocContext
from kg.extraction.doccache import attrs, text as doc_text
from kg.extractors.model.linear import LABELS
from kg.extractors.rules.combine import group_keys


def choose(ranges: list[tuple[int, int]], entity: np.ndarray, threshold: float) -> list[int]:
    """Indices of non-overlapping ranges scoring at least `threshold`, best first (ties: leftmost)."""
    taken: set[int] = set()
    chosen = []
    starts, ends = (np.array(x) for x in zip(*ranges)) if ranges else (np.zeros(0), np.zeros(0))
    keep = np.flatnonzero(entity >= threshold)
    for i in keep[np.lexsort((ends[keep], starts[keep], -entity[keep]))].tolist():
        start, end = ranges[i]
        if taken.isdisjoint(range(start, end)):
            taken.update(range(start, end))
            chosen.append(i)
    return sorted(chosen, key=ranges.__getitem__)


def decode(doc: Doc, context: DocContext, ranges: list[tuple[int, int]], probs: np.ndarray, proposed: np.ndarray,
           threshold: float, source: str = "span_model") -> list[Candidate]:
    """Entity mentions (token `ranges`; `probs` over LABELS, column 0 = none): chosen spans, one type per concept
    (summed type probabilities over its mentions) and one role per concept (proposed when its most confident
    mention says so); `source` names the model in each mention."""
    a = attrs(doc)
    chosen = choose(ranges, 1.0 - probs[:, 0], threshold)
    spans = [(a.idx[ranges[i][0]], a.idx[ranges[i][1] - 1] + len(a.text[ranges[i][1] - 1])) for i in chosen]
    text = doc_text(doc)
    keys = group_keys(text, [Candidate(s, e, "method") for s, e in spans], context.abbreviations)
    type_sum: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(LABELS) - 1))
    role_max: dict[str, float] = defaultdict(float)
    for i, key in zip(chosen, keys):
        type_sum[key] += probs[i, 1:]
        role_max[key] = max(role_max[key], float(proposed[i]))
    return [Candidate(s, e, LABELS[1 + int(np.argmax(type_sum[k]))], "proposed" if role_max[k] >= 0.5 else "used",
                      round(float(1.0 - probs[i, 0]), 4), source)
            for (s, e), k, i in zip(spans, keys, chosen)]
