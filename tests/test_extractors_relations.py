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


def test_no_relation_across_sentences(parse):
    assert relations(parse, "We evaluate FlurbNet. CIFAR-10 is small.") == set()
