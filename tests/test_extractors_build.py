"""Wiring the extraction step: choosing extractors and a combiner by name, and the candidate contract the combiner
reads (kind, strength, score), on invented text."""
from __future__ import annotations

import inspect
from dataclasses import replace

import pytest

from kg.extraction.interface import Candidate, cue
from kg.extractors import RULES, build_extract, expand
from kg.extractors.rules.combine import combine
from kg.registry import UnknownNameError, combiners


@pytest.mark.parametrize(("names", "message"), [
    (("gazetteer", "nonsense"), "unknown extractor 'nonsense'"),
    ((), "no extractor chosen"),
    (("rules", "test_first_only", "test_retyped"), "more than one combiner"),
])
def test_bad_choice_names_the_valid_ones(names, message):
    with pytest.raises(UnknownNameError) as error:
        build_extract(names)
    assert message in str(error.value)
    assert all(name in str(error.value) for name in (*RULES, "rules"))


def test_preset_expands_once_and_keeps_order():
    assert expand(("shapes", "rules")) == (("shapes", *[n for n in RULES if n != "shapes"]), "rules")
    assert expand(("test_retyped", "gazetteer")) == (("gazetteer",), "test_retyped")


def test_the_default_is_the_encoder_and_fast_the_linear_span_model():
    from kg.extractors import DEFAULT_EXTRACTORS

    assert expand(("default",)) == (RULES, "encoder") == expand(DEFAULT_EXTRACTORS)
    assert expand(("fast",)) == (RULES, "span_model")
    assert expand(("rules",)) == (RULES, "rules")


def test_every_combiner_factory_takes_a_weights_path_or_none():
    for name, factory in combiners.get_all().items():
        parameters = list(inspect.signature(factory).parameters.values())
        assert [p.name for p in parameters] == ["weights"] and parameters[0].default is None, name


def test_extract_spec_is_one_setup_for_every_command(tmp_path):
    from kg.extractors import DEFAULT_EXTRACTORS, VERSION, extract_spec
    from kg.extractors.model.weights import ModelError, default_path

    default = extract_spec()
    assert default.args == (DEFAULT_EXTRACTORS,) and default.kwargs == () and default.version.startswith(VERSION + "+")
    rules = extract_spec(("rules",)).version  # the encoder's weights and libraries key only its setups
    assert rules.startswith(VERSION + "+results-") and rules.count("+") == 1  # the results weights key every one
    copy = tmp_path / "w.npz"
    copy.write_bytes(default_path().read_bytes())
    chosen = extract_spec(("fast",), copy)
    assert chosen.kwargs == (("weights", str(copy)),) and chosen.version.startswith(VERSION + "+")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not weights")
    with pytest.raises(ModelError, match="bad.npz"):  # a bad file fails when the setup is made, before any work
        extract_spec(("fast",), bad)
    assert extract_spec(("rules",), bad).args == (("rules",),)  # the rules read no weights
    with pytest.raises(UnknownNameError, match="presets: default, fast, rules"):
        extract_spec(("nonsense",))


@pytest.mark.parametrize("names", [("rules",), ("fast",)])
def test_retrained_results_weights_key_the_extraction_anew(tmp_path, monkeypatch, names):
    import kg.extractors.results.model as results_model
    from kg.extractors import extract_spec

    shipped = extract_spec(names).version
    other = tmp_path / "results_model.json"
    other.write_bytes(results_model.default_path().read_bytes() + b" ")
    monkeypatch.setattr(results_model, "default_path", lambda: other)
    assert extract_spec(names).version != shipped


def run(parse, extract, raw: str) -> set[tuple[str, str, str]]:
    doc, context = parse(raw)
    mentions, *_ = extract(doc, context)
    return {(doc.text[m.start:m.end], m.type, m.role) for m in mentions}


@combiners.register("test_retyped")
def make_retyped(weights=None):
    """The rules combiner, then every mention typed `dataset`."""
    rules = combiners.get("rules")(weights)

    def combine_paper(doc, context, candidates):
        return [replace(c, type="dataset") for c in rules(doc, context, candidates)]
    return combine_paper


@combiners.register("test_first_only")
def make_first_only(weights=None):
    def combine_paper(doc, context, candidates):
        return sorted(c for c in candidates if c.kind == "entity")[:1]
    return combine_paper


def test_the_named_combiner_replaces_the_rules_one(parse):
    text = "We train ZorbNet with Adam on the Quux corpus."
    rules = run(parse, build_extract(("rules",)), text)
    retyped = run(parse, build_extract(("rules", "test_retyped")), text)
    assert {(s, r) for s, _, r in rules} == {(s, r) for s, _, r in retyped} and "ZorbNet" in {s for s, _, _ in rules}
    assert {t for _, t, _ in retyped} == {"dataset"} != {t for _, t, _ in rules}
    assert len(run(parse, build_extract(("rules", "test_first_only")), text)) == 1 < len(rules)


TEXT = "We propose Blorp for glimmer parsing; Blorp beats Quux. Flarn helps. ImageNet helps."


def span(word: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(word, start + 1)
    return start, start + len(word)


@pytest.mark.parametrize(("candidates", "expected"), [
    # a cue is no mention; an entity under it is proposed
    ([cue(*span("Blorp for glimmer parsing"), "c"), Candidate(*span("Blorp"), "method")],
     {("Blorp", "method", "proposed")}),
    # a known entity under a cue stays used
    ([cue(0, len(TEXT), "c"), Candidate(*span("ImageNet"), "dataset", strength="known")],
     {("ImageNet", "dataset", "used")}),
    # a weak non-task said once is dropped; repeated, it is kept; a weak task stands alone
    ([Candidate(*span("Quux"), "method", strength="weak"), Candidate(*span("Flarn"), "model", strength="weak"),
      Candidate(*span("Blorp", 1), "model", strength="weak"), Candidate(*span("Blorp"), "model", strength="weak"),
      Candidate(*span("glimmer parsing"), "task", strength="weak")],
     {("Blorp", "model", "used"), ("glimmer parsing", "task", "used")}),
    # the most confident candidate types the concept in every mention
    ([Candidate(*span("Blorp"), "method", score=0.4), Candidate(*span("Blorp", 1), "model", score=0.8)],
     {("Blorp", "model", "used")}),
])
def test_combiner_reads_kind_strength_and_score(candidates, expected):
    found = {(TEXT[c.start:c.end], c.type, c.role) for c in combine(candidates, TEXT)}
    assert found == expected
    assert all(c.kind == "entity" for c in combine(candidates, TEXT))


def test_candidates_with_and_without_type_sort():
    assert sorted([Candidate(0, 3, "task"), cue(0, 3, "c")])[0].kind == "cue"
