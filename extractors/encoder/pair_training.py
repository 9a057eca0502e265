"""The relation objective of the encoder's fine-tuning (torch; the `[train]` extra): the gold concept pairs of an
abstract as tensors over its word pieces, and a pair head reading the same features as the run-time relation head
(concept states, their product, the states between the closest mentions, the sparse pair features), so the tuned
layers learn to state relations as well as spans."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from kg.extractors.encoder.pairs import (RELATIONS, SPARSE, Concept, Pair, Span, between_pieces, pair_features,
                                        sentence_indices)
from kg.extractors.encoder.pieces import Pieces, span_pieces
from kg.extractors.encoder.relation_head import RelationHead

PAIR_WEIGHT = 1.0  # of the pair loss against the span loss
HIDDEN = 64


@dataclass
class PairBatch:
    """One abstract's candidate concept pairs: piece weights of each concept and of each pair's gap, which ends
    and relation each pair has, its sparse features and its gold label."""

    concepts: torch.Tensor  # (concepts, pieces): a concept's state is the mean of its mentions' mean states
    between: torch.Tensor  # (pairs, pieces): the mean of the pieces between the closest mentions of one sentence
    head: torch.Tensor  # (pairs,) concept indices
    tail: torch.Tensor
    relation: torch.Tensor  # (pairs,) index into RELATIONS
    sparse: torch.Tensor  # (pairs, SPARSE)
    labels: torch.Tensor  # (pairs,) 1.0 when the gold states the pair's relation


def concept_weights(pieces: Pieces, spans: list[Span], concepts: list[Concept]) -> np.ndarray:
    """(concepts, pieces) weights giving each concept the mean of its mentions' mean piece states (a mention no
    piece covers counts as zeros), as `pairs.pair_features` computes it."""
    out = np.zeros((len(concepts), len(pieces.ids)), dtype=np.float32)
    ranges = span_pieces(pieces, np.array([(s.start, s.end) for s in spans]).reshape(-1, 2))
    for c, concept in enumerate(concepts):
        for i in concept.members:
            first, last = ranges[i]
            if first >= 0:
                out[c, first:last + 1] += 1.0 / (last - first + 1) / len(concept.members)
    return out


def between_weights(pieces: Pieces, spans: list[Span], pairs: list[Pair], sentences: list[tuple[int, int]]) -> np.ndarray:
    """(pairs, pieces) weights of the mean state between each pair's closest mentions when they share a sentence
    (`pairs.between_vector`)."""
    out = np.zeros((len(pairs), len(pieces.ids)), dtype=np.float32)
    sent = sentence_indices(sentences, spans)
    for p, pair in enumerate(pairs):
        if sent[pair.head_span] != sent[pair.tail_span]:
            continue
        inside = between_pieces(pieces, spans[pair.head_span], spans[pair.tail_span])
        if inside.any():
            out[p, inside] = 1.0 / inside.sum()
    return out


def pair_batch(text: str, pieces: Pieces, spans: list[Span], concepts: list[Concept], pairs: list[Pair],
               sentences: list[tuple[int, int]], labels: list[bool]) -> PairBatch | None:
    """The tensors of one abstract's pairs (None when it has none)."""
    if not pairs or not len(pieces.ids):
        return None
    sparse = pair_features(text, spans, concepts, pairs, sentences, pieces, np.zeros((len(pieces.ids), 0), np.float32))
    t = torch.as_tensor
    return PairBatch(t(concept_weights(pieces, spans, concepts)), t(between_weights(pieces, spans, pairs, sentences)),
                     t(np.array([p.head for p in pairs])), t(np.array([p.tail for p in pairs])),
                     t(np.array([RELATIONS.index(p.relation) for p in pairs])), t(sparse),
                     t(np.array(labels, dtype=np.float32)))


class PairHead(nn.Module):
    """[head, tail, head x tail, between, sparse] -> hidden (ReLU) -> one logit per relation."""

    def __init__(self, width: int, hidden: int = HIDDEN, dropout: float = 0.1):
        super().__init__()
        self.hidden = nn.Linear(4 * width + SPARSE, hidden)
        self.out = nn.Linear(hidden, len(RELATIONS))
        self.drop = nn.Dropout(dropout)

    def forward(self, states: torch.Tensor, b: PairBatch) -> torch.Tensor:
        """(pairs,) logits of each pair's own relation."""
        concept = b.concepts @ states
        h, t = concept[b.head], concept[b.tail]
        x = torch.cat([h, t, h * t, b.between @ states, b.sparse], dim=1)
        z = self.out(self.drop(torch.relu(self.hidden(self.drop(x)))))
        return z[torch.arange(len(z)), b.relation]


def pair_loss(head: PairHead, states: torch.Tensor, b: PairBatch) -> torch.Tensor:
    """Binary cross-entropy of each pair's relation logit against its gold label."""
    return nn.functional.binary_cross_entropy_with_logits(head(states, b), b.labels)


def as_relation_head(head: PairHead) -> RelationHead:
    """The trained pair head as a run-time relation head (no standardisation; thresholds 0.5 until chosen)."""
    d = head.hidden.in_features
    w = {k: v.detach().numpy().astype(np.float32) for k, v in
         {"hidden_w": head.hidden.weight.T, "hidden_b": head.hidden.bias, "out_w": head.out.weight.T,
          "out_b": head.out.bias}.items()}
    return RelationHead(np.zeros(d, np.float32), np.ones(d, np.float32), w["hidden_w"], w["hidden_b"], w["out_w"],
                        w["out_b"], np.full(len(RELATIONS), 0.5, dtype=np.float32))


@dataclass(frozen=True)
class GoldPairs:
    """One abstract's gold entities found in its text, their concepts and candidate pairs, and each pair's label."""

    spans: tuple[Span, ...]
    concepts: tuple[Concept, ...]
    pairs: tuple[Pair, ...]
    sentences: tuple[tuple[int, int], ...]
    labels: tuple[bool, ...]


def gold_pairs(text: str, record: dict, triples: list, sentences: list[tuple[int, int]],
               abbreviations: tuple[tuple[str, str], ...]) -> GoldPairs:
    """The labelled concept pairs of the gold entities found in one abstract (as `kg train --relations` builds
    its gold-entity pairs)."""
    from kg.extractors.encoder.pairs import concepts_of, pairs_of
    from kg.extractors.encoder.relation_data import concept_keys, label, locate_gold

    spans = locate_gold(text, record)
    concepts = concepts_of(spans, abbreviations)
    pairs = pairs_of(spans, concepts, sentences)
    found = set(triples)
    labels = tuple(label(concept_keys(spans, concepts[p.head]), p.relation, concept_keys(spans, concepts[p.tail]),
                         found) for p in pairs)
    return GoldPairs(tuple(spans), tuple(concepts), tuple(pairs), tuple(sentences), labels)
