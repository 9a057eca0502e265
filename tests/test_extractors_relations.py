"""Entity-entity relations on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors import build_extract
from kg.text.abbreviations import find_abbreviations
from kg.extraction.interface import DocContext
from kg.text.markup import strip_markup


def relations(nlp, text: str) -> set[tuple[str, str, str]]:
    clean = strip_markup(text)
    doc = nlp(clean.text)
    _, found = build_extract()(doc, DocContext("p", clean, tuple(find_abbreviations(clean.text))))
    return {(doc.text[r.source.start:r.source.end], r.relation, doc.text[r.target.start:r.target.end]) for r in found}


@pytest.mark.parametrize("text, expected", [
    ("We evaluate FlurbNet on CIFAR-10.", ("FlurbNet", "evaluated_on", "CIFAR-10")),
    ("We apply FlurbNet to image classification.", ("FlurbNet", "applied_to", "image classification")),
    ("Image classification is measured by top-1 accuracy.", ("Image classification", "measured_by", "top-1 accuracy")),
])
def test_relations(nlp, text, expected):
    assert expected in relations(nlp, text)


def test_no_relation_across_sentences(nlp):
    assert relations(nlp, "We evaluate FlurbNet. CIFAR-10 is small.") == set()
