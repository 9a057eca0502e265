"""The relation objective of the encoder's fine-tuning reads the same pair features as the run-time relation head
(needs torch: the `[train]` extra)."""
from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("torch", reason="the [train] extra (torch) is not installed")

import torch  # noqa: E402

from kg.extractors.encoder.pair_training import (PairHead, as_relation_head, between_weights, concept_weights,  # noqa: E402
                                                 gold_pairs, pair_batch)
from kg.extractors.encoder.pairs import pair_features  # noqa: E402
from kg.extractors.encoder.pieces import Pieces  # noqa: E402
from kg.quality.relation_scores import gold_triples  # noqa: E402

TEXT = "We propose the Quuxformer model. Quuxformer is tested on the Blip corpus for glimmer parsing with F1."
RECORD = {"entities": [{"name": "Quuxformer", "type": "model", "role": "proposed"},
                       {"name": "Blip corpus", "type": "dataset"}, {"name": "glimmer parsing", "type": "task"},
                       {"name": "F1", "type": "metric"}]}
RELATIONS = [{"head": "Quuxformer", "relation": "evaluated_on", "tail": "Blip corpus"},
             {"head": "Quuxformer", "relation": "applied_to", "tail": "glimmer parsing"}]
SENTENCES = [(0, 32), (33, len(TEXT))]


def word_pieces(text: str) -> Pieces:
    """One piece per word or punctuation mark, in one window (the features do not depend on the vocabulary)."""
    hits = list(re.finditer(r"\w+|\S", text))
    return Pieces(np.arange(len(hits), dtype=np.int64), np.array([h.span() for h in hits]), ((0, len(hits)),))


@pytest.fixture
def abstract():
    """The pieces, random states and labelled gold pairs of the invented abstract."""
    pieces = word_pieces(TEXT)
    states = np.random.default_rng(0).normal(size=(len(pieces.ids), 8)).astype(np.float32)
    return pieces, states, gold_pairs(TEXT, RECORD, gold_triples(RECORD, RELATIONS), SENTENCES, ())


def test_pairs_are_labelled_by_the_gold_relations(abstract):
    _, _, g = abstract
    stated = {(g.concepts[p.head].key, p.relation, g.concepts[p.tail].key) for p, y in zip(g.pairs, g.labels) if y}
    assert stated == {("quuxformer", "evaluated_on", "blipcorpus"), ("quuxformer", "applied_to", "glimmerparsing")}
    assert len(g.pairs) > len(stated)  # the metric pairs are candidates the gold does not state


def test_piece_weights_give_the_run_time_dense_features(abstract):
    pieces, states, g = abstract
    spans, concepts, pairs = list(g.spans), list(g.concepts), list(g.pairs)
    x = pair_features(TEXT, spans, concepts, pairs, SENTENCES, pieces, states)
    d = states.shape[1]
    concept = concept_weights(pieces, spans, concepts) @ states
    head, tail = concept[[p.head for p in pairs]], concept[[p.tail for p in pairs]]
    between = between_weights(pieces, spans, pairs, SENTENCES) @ states
    np.testing.assert_allclose(x[:, :4 * d], np.hstack([head, tail, head * tail, between]), rtol=1e-5, atol=1e-6)
    assert np.abs(between).sum() > 0  # the words between mentions of one sentence are read


def test_the_trained_pair_head_runs_as_the_numpy_relation_head(abstract):
    pieces, states, g = abstract
    spans, concepts, pairs = list(g.spans), list(g.concepts), list(g.pairs)
    torch.manual_seed(0)
    head = PairHead(states.shape[1]).eval()
    batch = pair_batch(TEXT, pieces, spans, concepts, pairs, SENTENCES, list(g.labels))
    with torch.no_grad():
        expected = torch.sigmoid(head(torch.as_tensor(states), batch)).numpy()
    x = pair_features(TEXT, spans, concepts, pairs, SENTENCES, pieces, states)
    found = as_relation_head(head).probabilities(x, [p.relation for p in pairs])
    np.testing.assert_allclose(found, expected, rtol=1e-4, atol=1e-5)
