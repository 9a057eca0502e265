"""The acronym-definition extractor on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors.rules.acronyms import make_acronyms, type_of


def pairs(parse, text: str) -> list[tuple[str, str]]:
    doc, context = parse(text)
    return [(doc.text[c.start:c.end], c.type) for c in make_acronyms()(doc, context)]


@pytest.mark.parametrize("text, long_form, short, entity_type", [
    ("We tackle lunar crater detection (LCD) from orbit.", "lunar crater detection", "LCD", "task"),
    ("A tiny recurrent network (TRN) reads the tape.", "tiny recurrent network", "TRN", "model"),
    ("We release the Moss Image Corpus (MIC) of 2k scans.", "Moss Image Corpus", "MIC", "dataset"),
    ("Errors are reported as mean pixel error (MPE).", "mean pixel error", "MPE", "metric"),
    ("We propose Orbit Mixing Regularization (OMR) for stability.", "Orbit Mixing Regularization", "OMR", "method"),
])
def test_long_and_short_form_share_a_type(parse, text, long_form, short, entity_type):
    assert pairs(parse, text) == [(long_form, entity_type), (short, entity_type)]


def test_type_of_reads_the_head():
    assert type_of("graph neural networks") == "model" and type_of("zebra stripes") is None
