"""Entity-entity relations on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors import build_extract


def relations(parse, text: str) -> set[tuple[str, str, str]]:
    doc, context = parse(text)
    _, found, _ = build_extract()(doc, context)
    return {(doc.text[r.source.start:r.source.end], r.relation, doc.text[r.target.start:r.target.end]) for r in found}


@pytest.mark.parametrize("text, expected", [
    ("We evaluate FlurbNet on CIFAR-10.", ("FlurbNet", "evaluated_on", "CIFAR-10")),
    ("We apply FlurbNet to image classification.", ("FlurbNet", "applied_to", "image classification")),
    ("Image classification is measured by top-1 accuracy.", ("Image classification", "measured_by", "top-1 accuracy")),
])
def test_relations(parse, text, expected):
    assert expected in relations(parse, text)


@pytest.mark.parametrize("text, expected", [  # a proposal, then the sentence relating it (RELATIONS.md's usual shape)
    ("We propose FlurbNet, a lightweight convolutional network. Experiments on CIFAR-10 show that FlurbNet "
     "outperforms ResNet-18.", ("FlurbNet", "evaluated_on", "CIFAR-10")),
    ("We propose FlurbNet, a lightweight convolutional network for image classification. It matches larger "
     "models at a fraction of their cost.", ("FlurbNet", "applied_to", "image classification")),
    ("We propose FlurbNet, a lightweight convolutional network. On ImageNet, FlurbNet improves top-1 accuracy "
     "by two points.", ("FlurbNet", "measured_by", "top-1 accuracy")),
])
def test_relations_of_a_short_abstract(parse, text, expected):
    assert expected in relations(parse, text)


def test_no_relation_across_sentences(parse):
    assert relations(parse, "We evaluate FlurbNet. CIFAR-10 is small.") == set()
