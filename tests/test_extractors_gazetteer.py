"""The gazetteer extractor on invented sentences."""
from __future__ import annotations

import pytest
import spacy

from kg.extractors.rules.gazetteer import case_sensitive, make_gazetteer, variants
from kg.ontology.data import gazetteer_entries
from kg.extraction.interface import DocContext
from kg.text.markup import strip_markup


@pytest.fixture(scope="module")
def gazetteer():
    return make_gazetteer()


def found(parse, gazetteer, text: str) -> set[tuple[str, str]]:
    doc, context = parse(text)
    return {(doc.text[c.start:c.end], c.type) for c in gazetteer(doc, context)}


@pytest.mark.parametrize("text, expected", [
    ("We fine-tune the models on CIFAR-100 with LoRA.", {("CIFAR-100", "dataset"), ("LoRA", "method")}),
    ("Our agents outperform GPT-4o on every split.", {("GPT-4o", "model")}),
    ("Detectors are compared by AUROC and FPR95.", {("AUROC", "metric"), ("FPR95", "metric")}),
    ("Large Language Models struggle with program synthesis.", {("Large Language Models", "model"),
                                                                ("program synthesis", "task")}),
    ("We train the policy with proximal policy optimization.", {("proximal policy optimization", "method")}),
])
def test_finds_known_entities_with_their_type(parse, gazetteer, text, expected):
    assert expected <= found(parse, gazetteer, text)


@pytest.mark.parametrize("text, absent", [
    ("This is a simple idea.", "is"),          # IS (Inception Score) only matches in capitals
    ("The map of the city is old.", "map"),    # mAP needs its exact case
])
def test_short_forms_match_case(parse, gazetteer, text, absent):
    assert absent not in {t for t, _ in found(parse, gazetteer, text)}


def test_variants_add_plural_and_spacing():
    assert {"fine-tuning", "fine tuning", "fine-tunings"} <= variants("fine-tuning")
    assert case_sensitive("WER") and not case_sensitive("word error rate")


def test_entries_have_a_known_type():
    assert {e["type"] for e in gazetteer_entries()} <= {"method", "model", "dataset", "task", "metric"}


def test_the_gazetteer_is_read_once_for_the_extractor_and_the_graph(monkeypatch):
    from kg.graph import knowledge
    from kg.ontology import data

    reads = []
    monkeypatch.setattr(data, "read_jsonl", lambda folder, name: reads.append(name) or [])
    data.gazetteer_entries.cache_clear()
    try:
        make_gazetteer()
        knowledge.build_knowledge(data.gazetteer_entries(), (), str)
        gazetteer_files = [name for name in reads if name != data.GENERIC_FILE]
        assert gazetteer_files and len(gazetteer_files) == len(set(gazetteer_files))  # each file once
    finally:
        data.gazetteer_entries.cache_clear()


@pytest.mark.parametrize(("row", "message"), [
    ({"name": "Zorbset", "type": "dataset", "aliases": [], "year": 1850}, "year must be"),
    ({"name": "Zorbset", "type": "dataset", "aliases": [], "sense": {"written": ["Zorb"]}}, "sense must be"),
])
def test_a_malformed_gazetteer_row_is_an_error_naming_file_and_line(monkeypatch, row, message):
    from kg.ontology import data

    monkeypatch.setattr(data, "read_jsonl", lambda folder, name: [row])
    data.gazetteer_entries.cache_clear()
    try:
        with pytest.raises(ValueError, match=rf"gazetteer/\w+\.jsonl:1: {message}"):
            data.gazetteer_entries()
    finally:
        data.gazetteer_entries.cache_clear()


def test_custom_entries(parse):
    extract = make_gazetteer([{"name": "Zorblax Corpus", "type": "dataset", "aliases": ["ZC"]}])
    assert found(parse, extract, "We release ZC, also called the Zorblax Corpus.") == {
        ("ZC", "dataset"), ("Zorblax Corpus", "dataset")}


def test_works_on_a_blank_pipeline(gazetteer):
    """The match ids live in the matchers' own vocab, not in the Doc's (`--model blank` used to raise E018)."""
    nlp = spacy.blank("en")
    doc = nlp("We fine-tune models on CIFAR-100 with LoRA, scored by AUROC.")
    found = {(doc.text[c.start:c.end], c.type) for c in gazetteer(doc, DocContext("p", strip_markup(doc.text)))}
    assert {("CIFAR-100", "dataset"), ("LoRA", "method"), ("AUROC", "metric")} <= found
