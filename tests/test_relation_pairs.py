"""The relation head's pairs, features, head file and scoring (pure parts: no parse, no encoder)."""
from __future__ import annotations

import numpy as np
import pytest

from kg.errors import UserError
from kg.extractors.encoder.pairs import SPARSE, Span, concepts_of, pair_features, pairs_of, relation_of
from kg.extractors.encoder.pieces import Pieces
from kg.extractors.encoder.relation_head import RelationHead, read_head, save_head
from kg.quality.relation_scores import gold_triples, score_relations

TEXT = "We propose Zorbnet for image tagging. Zorbnet (Zero Orbit Network) is tested on Qux-10 with top-1 accuracy."
SENTENCES = [(0, 37), (38, len(TEXT))]


def span(name: str, kind: str, role: str = "used", nth: int = 0) -> Span:
    """The nth occurrence of `name` in TEXT as a span."""
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(name, start + 1)
    return Span(start, start + len(name), kind, role, name)


SPANS = [span("Zorbnet", "model", "proposed"), span("image tagging", "task"), span("Zorbnet", "model", nth=1),
         span("Zero Orbit Network", "model"), span("Qux-10", "dataset"), span("top-1 accuracy", "metric")]


@pytest.mark.parametrize("head, tail, relation", [
    ("model", "dataset", "evaluated_on"), ("method", "task", "applied_to"), ("dataset", "metric", "measured_by"),
    ("model", "method", "based_on"), ("dataset", "model", None), ("task", "dataset", None), ("metric", "task", None),
])
def test_types_decide_which_relation_a_pair_may_hold(head, tail, relation):
    assert relation_of(head, tail) == relation


def test_mentions_of_one_concept_and_its_defined_long_form_are_one_concept():
    concepts = concepts_of(SPANS, (("Zorbnet", "Zero Orbit Network"),))
    assert [sorted(c.members) for c in concepts if c.type == "model"] == [[0, 2, 3]]
    assert next(c for c in concepts if c.type == "model").proposed
    assert len(concepts_of(SPANS)) == len(concepts) + 1  # without the definition the long form stands apart


def test_pairs_follow_the_signatures_and_take_the_closest_mentions():
    concepts = concepts_of(SPANS, (("Zorbnet", "Zero Orbit Network"),))
    pairs = pairs_of(SPANS, concepts, SENTENCES)
    named = {(concepts[p.head].key, p.relation, concepts[p.tail].key) for p in pairs}
    assert named == {("zorbnet", "applied_to", "imagetagging"), ("zorbnet", "evaluated_on", "qux10"),
                     ("zorbnet", "measured_by", "top1accuracy"), ("qux10", "measured_by", "top1accuracy"),
                     ("imagetagging", "measured_by", "top1accuracy")}
    on_qux = next(p for p in pairs if p.relation == "evaluated_on")
    assert SPANS[on_qux.head_span].start > SENTENCES[1][0]  # the mention in Qux-10's sentence, not the first one


def test_features_have_one_row_per_pair_and_see_the_states():
    concepts = concepts_of(SPANS)
    pairs = pairs_of(SPANS, concepts, SENTENCES)
    offsets = np.array([(m.start(), m.end()) for m in __import__("re").finditer(r"\w+|[^\w\s]", TEXT)])
    pieces = Pieces(np.arange(len(offsets)), offsets, ((0, len(offsets)),))
    states = np.random.default_rng(0).normal(size=(len(offsets), 8)).astype(np.float32)
    x = pair_features(TEXT, SPANS, concepts, pairs, SENTENCES, pieces, states)
    assert x.shape == (len(pairs), 4 * 8 + SPARSE) and np.isfinite(x).all()
    y = pair_features(TEXT, SPANS, concepts, pairs, SENTENCES, pieces, states * 2)
    assert not np.allclose(x[:, :32], y[:, :32]) and np.allclose(x[:, 32:], y[:, 32:])


def test_a_saved_head_reads_back_the_same_and_a_bad_file_is_one_error(tmp_path):
    rng = np.random.default_rng(1)
    head = RelationHead(np.zeros(6, np.float32), np.ones(6, np.float32), rng.normal(size=(6, 3)).astype(np.float32),
                        np.zeros(3, np.float32), rng.normal(size=(3, 4)).astype(np.float32), np.zeros(4, np.float32),
                        np.array([0.5, 0.6, 0.7, 0.8], np.float32))
    save_head(head, tmp_path / "a.npz")
    save_head(head, tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    x = rng.normal(size=(5, 6)).astype(np.float32)
    relations = ["evaluated_on", "applied_to", "measured_by", "based_on", "based_on"]
    again = read_head(tmp_path / "a.npz")
    assert np.array_equal(again.probabilities(x, relations), head.probabilities(x, relations))
    p = head.probabilities(x, relations)
    assert head.stated(x, relations).tolist() == [p[i] >= head.threshold[[0, 1, 2, 3, 3][i]] for i in range(5)]
    (tmp_path / "c.npz").write_bytes(b"PK\x03\x04 broken")
    with pytest.raises(UserError, match="c.npz: not a relation head"):
        read_head(tmp_path / "c.npz")


def test_relations_match_by_any_gold_name_and_in_their_direction():
    record = {"entities": [{"name": "Zorbnet", "type": "model", "aliases": ["ZN"]},
                           {"name": "Qux-10", "type": "dataset"}, {"name": "Blip", "type": "model"}]}
    gold = {"p": gold_triples(record, [{"head": "ZN", "relation": "evaluated_on", "tail": "Qux-10"},
                                       {"head": "Zorbnet", "relation": "based_on", "tail": "Blip"}])}
    zorb, qux, blip = frozenset({"zorbnet"}), frozenset({"qux10"}), frozenset({"blip"})
    right = score_relations({"p": [(zorb, "evaluated_on", qux), (zorb, "based_on", blip)]}, gold)
    assert right["all"].tp == 2 and right["all"].precision == 1.0
    reversed_ = score_relations({"p": [(blip, "based_on", zorb), (zorb, "applied_to", qux)]}, gold)
    assert reversed_["all"].tp == 0 and reversed_["all"].predicted == 2 and reversed_["all"].gold == 2


def test_an_abstract_with_very_many_concepts_pairs_a_bounded_number():
    from kg.extractors.encoder.pairs import MAX_CONCEPTS

    spans = [Span(i * 10, i * 10 + 5, "model" if i % 2 else "dataset", "used", f"Name{i}") for i in range(500)]
    concepts = concepts_of(spans)
    assert len(concepts) == 500
    pairs = pairs_of(spans, concepts, [(0, 5000)])
    assert 0 < len(pairs) <= MAX_CONCEPTS ** 2
    assert max(max(p.head, p.tail) for p in pairs) < MAX_CONCEPTS


def test_relation_scores_match_one_to_one_at_the_largest_matching():
    a, b, ab, x = frozenset({"a"}), frozenset({"b"}), frozenset({"a", "b"}), frozenset({"x"})
    gold = {"p": [(a, "evaluated_on", x), (b, "evaluated_on", x)]}
    both = score_relations({"p": [(ab, "evaluated_on", x), (a, "evaluated_on", x)]}, gold)
    assert both["all"].tp == 2  # a greedy matching gives the first triple a's gold and leaves the second none
    twice = score_relations({"p": [(a, "evaluated_on", x), (a, "evaluated_on", x)]}, gold)
    assert twice["all"].tp == 1 and twice["all"].predicted == 2


def test_gold_entities_are_found_in_the_plural_as_whole_words_under_their_gold_form():
    from kg.extractors.encoder.relation_data import locate_gold

    text = "Flurb networks (FNs) beat Glorp trajectories on Qux-10 and Qux-100. FlurbNetworks differ."
    record = {"entities": [{"name": "flurb network", "type": "model", "aliases": ["FN"]},
                           {"name": "Glorp trajectory", "type": "method"}, {"name": "Qux-10", "type": "dataset"}]}
    found = [(text[s.start:s.end], s.name, s.type) for s in locate_gold(text, record)]
    assert found == [("Flurb networks", "flurb network", "model"), ("FNs", "FN", "model"),
                     ("Glorp trajectories", "Glorp trajectory", "method"), ("Qux-10", "Qux-10", "dataset")]
