"""The combiner's filters on invented sentences: bare acronyms, modifier acronyms, joined known names."""
from __future__ import annotations

import pytest

from kg.extractors import build_extract
from kg.extraction.doccache import sentence_at, text


@pytest.fixture(scope="module")
def extract():
    return build_extract(("rules",))  # the rules alone: these tests check their behaviour


def names(parse, extract, raw: str) -> set[str]:
    doc, context = parse(raw)
    mentions, *_ = extract(doc, context)
    return {doc.text[m.start:m.end] for m in mentions}


def test_bare_undefined_acronym_said_once_is_dropped(parse, extract):
    found = names(parse, extract, "Many QX users like ZorbNet a lot.")
    assert "QX" not in found and "ZorbNet" in found


def test_repeated_acronym_is_kept(parse, extract):
    found = names(parse, extract, "QX files are hard. Even so, QX files help ZorbNet.")
    assert "QX" in found


def test_modifier_definition_is_not_an_entity(parse, extract):
    found = names(parse, extract, "We flag out-of-sample (OOS) inputs with ZorbNet.")
    assert not found & {"OOS", "out-of-sample"}


def test_known_dataset_and_metric_are_split(parse, extract):
    found = names(parse, extract, "ZorbNet lowers the ImageNet FID of every baseline.")
    assert {"ImageNet", "FID"} <= found and "ImageNet FID" not in found


def test_evaluative_adjective_is_trimmed_from_tasks(parse, extract):
    found = names(parse, extract, "ZorbNet enables realistic crater detection in orbit.")
    assert "crater detection" in found and "realistic crater detection" not in found


def test_doc_cache_is_cleared_after_extraction(parse, extract):
    doc, context = parse("ZorbNet is fast. It helps.")
    extract(doc, context)
    assert not [k for k in doc.user_data if isinstance(k, tuple) and k[:1] == ("paperkg",)]
    assert text(doc) == doc.text and sentence_at(doc, doc.text.index("It"))[0] == 4


@pytest.mark.parametrize("raw, specific, bare", [
    ("We study audio watermarking and show that watermarking harms pitch tracking.", "audio watermarking",
     "watermarking"),
    ("We compare supervised fine-tuning with plain fine-tuning on speech recognition.", "supervised fine-tuning",
     "fine-tuning"),
])
def test_bare_head_of_a_specific_concept_is_dropped(parse, extract, raw, specific, bare):
    found = names(parse, extract, raw)
    assert specific in found and bare not in found


def test_bare_head_without_specific_form_is_kept(parse, extract):
    assert "fine-tuning" in names(parse, extract, "We apply fine-tuning to ZorbNet on speech recognition.")
