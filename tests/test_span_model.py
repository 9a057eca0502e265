"""The span model on invented sentences: candidates, features, decoding, weights files, training."""
from __future__ import annotations

import numpy as np
import pytest

from kg.extraction.interface import DocContext
from kg.extractors import RULES
from kg.extractors.model.crossval import build_candidates
from kg.extraction.doccache import clear, span_text
from kg.extractors.model.features import BITS, text_id
from kg.extractors.model.component import predict
from kg.extractors.model.decoding import choose, decode
from kg.extractors.model.linear import LABELS, Linear, SpanModel
from kg.extractors.model.weights import ModelError, load_model, save_model
from kg.extractors.model.spans import candidate_ranges, token_range
from kg.text.abbreviations import find_abbreviations
from kg.text.markup import strip_markup
from tests.support import INVENTED_GOLD

ABSTRACT = ("We propose Glimmerformer, a sparse gating network for quux parsing. "
            "Glimmerformer is evaluated on the Zorblat corpus with the blip error rate (BER).")


def parse(nlp, raw: str):
    clean = strip_markup(raw)
    return nlp(clean.text), DocContext("p", clean, tuple(find_abbreviations(clean.text)))


@pytest.fixture(scope="module")
def parsed(nlp):
    doc, context = parse(nlp, ABSTRACT)
    found, combined = build_candidates(RULES)(doc, context)
    return doc, context, found, combined


def texts(doc, ranges) -> set[str]:
    return {span_text(doc, s, e) for s, e in ranges}


def test_candidates_are_noun_chunk_sub_spans_without_function_words(parsed):
    doc, _, found, _ = parsed
    spans = texts(doc, candidate_ranges(doc, found))
    assert {"Zorblat corpus", "Zorblat", "blip error rate", "error rate", "quux parsing", "BER"} <= spans
    assert not any(s.split()[0].lower() in ("a", "the", "with", "for") for s in spans)


def test_token_range_needs_exact_token_boundaries(parsed):
    doc, *_ = parsed
    start = doc.text.index("Zorblat")
    assert span_text(doc, *token_range(attrs_of(doc), start, start + len("Zorblat corpus"))) == "Zorblat corpus"
    assert token_range(attrs_of(doc), start + 1, start + len("Zorblat corpus")) is None


def attrs_of(doc):
    from kg.extraction.doccache import attrs

    return attrs(doc)


def test_fnv_hash_matches_the_published_test_vector():
    assert text_id("") == 0xCBF29CE484222325 and text_id("a") == 0xAF63DC4C8601EC8C


def test_same_span_in_another_context_shares_its_lexical_features(nlp):
    from kg.extractors.model.features import span_features

    rows = []
    for raw in ("We train the Zorblat corpus daily.", "Results on the Zorblat corpus improve."):
        doc, context = parse(nlp, raw)
        start = doc.text.index("Zorblat")
        span = token_range(attrs_of(doc), start, start + len("Zorblat corpus"))
        rows.append(span_features(doc, [span], [], context.abbreviations).fixed[0])
        clear(doc)
    same = rows[0] == rows[1]
    assert same[:5].all() and not same.all()  # the words agree, the neighbours differ
    assert ((rows[0] >= 0) & (rows[0] < 1 << BITS)).all()


def test_the_era_is_one_feature_of_every_span(parsed):
    from kg.extractors.model.features import span_features

    doc, context, found, combined = parsed
    ranges = candidate_ranges(doc, found)
    recent, older = (span_features(doc, ranges, found, context.abbreviations, combined, era).fixed
                     for era in (True, False))
    differs = recent != older
    assert differs.any(axis=0).sum() == 1 and differs.all(axis=0).sum() == 1  # one column, every span


@pytest.mark.parametrize("scores, expected", [
    ([0.9, 0.8, 0.7], [0, 2]),  # (0,3) wins; (1,2) overlaps it; (3,5) is free
    ([0.6, 0.95, 0.7], [1, 2]),  # the inner span wins, the outer one overlaps it
    ([0.9, 0.8, 0.2], [0]),  # below the threshold
])
def test_choose_keeps_the_best_non_overlapping_spans(scores, expected):
    assert choose([(0, 3), (1, 2), (3, 5)], np.array(scores), 0.5) == expected


def test_decode_gives_one_type_and_role_per_concept(parsed):
    doc, context, found, _ = parsed
    ranges = [r for r in candidate_ranges(doc, found) if span_text(doc, *r) == "Glimmerformer"]
    assert len(ranges) == 2
    probs = np.array([[0.1, 0.1, 0.7, 0.0, 0.1, 0.0], [0.2, 0.5, 0.2, 0.0, 0.1, 0.0]])
    mentions = decode(doc, context, ranges, probs, np.array([0.9, 0.1]), 0.5)
    assert [(m.type, m.role) for m in mentions] == [("model", "proposed")] * 2


def tiny_model(bias: list[float]) -> SpanModel:
    zeros = np.zeros((1 << BITS, len(LABELS)), dtype=np.float32)
    return SpanModel(Linear(zeros, np.array(bias)),
                     Linear(np.zeros((1 << BITS, 1), dtype=np.float32), np.array([-5.0])), 0.5)


def test_a_model_that_says_none_finds_nothing(parsed):
    doc, context, found, combined = parsed
    assert predict(tiny_model([5.0, 0, 0, 0, 0, 0]), doc, context, found, combined) == []
    chosen = predict(tiny_model([0.0, 0, 0, 0, 3.0, 0]), doc, context, found, combined)
    assert chosen and {m.type for m in chosen} == {"task"} and {m.role for m in chosen} == {"used"}


@pytest.mark.parametrize("recent, found", [(True, False), (False, True)])
def test_older_abstracts_have_their_own_entity_threshold(parsed, recent, found):
    from dataclasses import replace

    doc, context, candidates, combined = parsed
    model = replace(tiny_model([0.0, 0, 0, 0, 0.5, 0]), threshold=0.9, older_threshold=0.1)  # P(entity) ~0.85
    chosen = predict(model, doc, replace(context, recent=recent), candidates, combined)
    assert bool(chosen) == found


@pytest.mark.parametrize("year, recent", [(None, True), (2026, True), (2020, True), (2019, False), (2013, False)])
def test_a_paper_is_recent_from_2020_on_or_without_a_year(year, recent):
    from kg.extraction.interface import prepare
    from kg.types import Paper

    assert prepare(Paper(id="p", abstract="We study Zorblat.", year=year))[1].recent is recent


@pytest.mark.parametrize("older_threshold", [None, 0.25])
def test_weights_round_trip_byte_identically(tmp_path, older_threshold):
    from dataclasses import replace

    model = replace(tiny_model([1.0, 2.0, 0, 0, 0, -1.0]), older_threshold=older_threshold)
    save_model(model, tmp_path / "a.npz")
    save_model(model, tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    loaded = load_model(tmp_path / "a.npz")
    assert np.array_equal(loaded.types.bias, model.types.bias) and loaded.threshold == 0.5
    assert loaded.older_threshold == older_threshold


def test_a_weights_file_rewritten_in_the_same_process_is_read_anew(tmp_path):
    """Bug: load_model cached by path, so `kg train` then a build in one process read the old weights."""
    path = tmp_path / "w.npz"
    save_model(tiny_model([5.0, 0, 0, 0, 0, 0]), path)
    assert load_model(path).types.bias[0] == 5.0
    save_model(tiny_model([0.0, 0, 0, 0, 3.0, 0]), path)
    assert list(load_model(path).types.bias) == [0.0, 0, 0, 0, 3.0, 0]


@pytest.mark.parametrize("content, message", [
    (None, "not found"),
    (b"not a zip file at all", "not a span model weights file"),
    ("shape", "wrong shape"),
])
def test_bad_weights_files_are_one_line_errors_naming_them(tmp_path, content, message):
    path = tmp_path / "weights.npz"
    if content == "shape":
        np.savez(path, **{name: np.zeros(3) for name in
                          ("types_sparse", "types_bias", "roles_sparse", "roles_bias", "threshold")})
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(ModelError) as error:
        load_model(path)
    assert str(path) in str(error.value) and message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.slow
def test_cli_reports_a_corrupt_weights_file_in_one_line(tmp_path, run_kg=None):
    import subprocess
    import sys

    path = tmp_path / "broken.npz"
    path.write_bytes(b"PK\x03\x04 truncated")
    listing = tmp_path / "in.txt"
    listing.write_text("Header\n\nWe propose Zorbnet, a parser.\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "kg", "build", str(listing), "--out", str(tmp_path / "out"),
                             "--weights", str(path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("extractors, code", [("fast", 1), ("rules", 0)])
def test_eval_reads_the_weights_only_when_the_span_model_runs(tmp_path, extractors, code):
    import json
    import subprocess
    import sys

    path = tmp_path / "broken.npz"
    path.write_bytes(b"PK\x03\x04 truncated")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "p1", "text": "We propose Zorbnet, a parser.",
                                "entities": [{"name": "Zorbnet", "type": "model", "role": "proposed"}]}) + "\n",
                    encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "kg", "eval", str(gold), "--weights", str(path),
                             "--extractors", extractors, "--json"], capture_output=True, text=True)
    assert result.returncode == code and "Traceback" not in result.stderr
    if code:
        assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr
    else:
        assert json.loads(result.stdout)["typed"]["gold"] == 1




def training_examples(nlp):
    from kg.extractors.model.training import make_example

    candidates = build_candidates(RULES)
    examples = []
    for raw, entities in INVENTED_GOLD:
        doc, context = parse(nlp, raw)
        found, combined = candidates(doc, context)
        examples.append(make_example(doc, context, found, combined, entities))
        clear(doc)
    return examples


@pytest.mark.slow
def test_training_is_deterministic_and_learns_its_examples(nlp, tmp_path):
    pytest.importorskip("scipy")
    from kg.extractors.model.training import train

    examples = training_examples(nlp)
    assert sum(int((e.labels > 0).sum()) for e in examples) >= 6  # the gold names are among the candidates
    first, second = train(examples, iterations=50), train(training_examples(nlp), iterations=50)
    save_model(first, tmp_path / "1.npz")
    save_model(second, tmp_path / "2.npz")
    assert (tmp_path / "1.npz").read_bytes() == (tmp_path / "2.npz").read_bytes()
    doc, context = parse(nlp, INVENTED_GOLD[1][0])
    found, combined = build_candidates(RULES)(doc, context)
    got = {(doc.text[m.start:m.end], m.type) for m in predict(first, doc, context, found, combined)}
    assert {("Blip corpus", "dataset"), ("Zorb tagger", "model")} <= got


def test_type_offsets_shift_the_named_types_by_their_log_odds():
    from kg.extractors.model.linear import softmax
    from kg.extractors.model.training import with_offsets

    layer = tiny_model([0.5, 0.2, 0, 0, 0, -1.0]).types
    shifted = with_offsets(layer, {"metric": 1.0, "task": 0.3})
    before, after = softmax(layer.bias[None, :])[0], softmax(shifted.bias[None, :])[0]
    ratio = after / before
    assert ratio[LABELS.index("metric")] / ratio[LABELS.index("none")] == pytest.approx(np.e)
    assert ratio[LABELS.index("task")] / ratio[LABELS.index("method")] == pytest.approx(np.exp(0.3))
    assert np.array_equal(shifted.sparse, layer.sparse) and np.array_equal(layer.bias, tiny_model([0.5, 0.2, 0, 0, 0, -1.0]).types.bias)


def test_cross_validation_sends_each_paper_through_its_own_folds_weights(nlp, tmp_path):
    from kg.extractors import fold_extract

    save_model(tiny_model([5.0, 0, 0, 0, 0, 0]), tmp_path / "none.npz")
    save_model(tiny_model([0.0, 0, 0, 0, 3.0, 0]), tmp_path / "tasks.npz")
    extract = fold_extract(("fast",), ((str(tmp_path / "none.npz"), ("p",)), (str(tmp_path / "tasks.npz"), ("q",))))
    found = {}
    for paper_id in ("p", "q"):
        doc, context = parse(nlp, ABSTRACT)
        mentions, *_ = extract(doc, DocContext(paper_id, context.clean, context.abbreviations))
        found[paper_id] = {m.type for m in mentions}
    assert found == {"p": set(), "q": {"task"}}


@pytest.mark.slow
def test_kg_train_writes_to_the_user_data_folder_never_the_package(tmp_path):
    """Bug: `kg train` without --out overwrote the weights inside the installed package."""
    import json
    import os
    import subprocess
    import sys

    pytest.importorskip("scipy")
    from kg.extractors.model.weights import default_path

    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": f"p{i}", "text": text, "entities": entities}) + "\n"
                            for i, (text, entities) in enumerate(INVENTED_GOLD)), encoding="utf-8")
    shipped = default_path().read_bytes()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    try:
        done = subprocess.run([sys.executable, "-m", "kg", "train", str(gold)], capture_output=True, text=True, env=env)
        written = tmp_path / "data" / "paperkg" / "span_model.npz"
        assert done.returncode == 0, done.stderr
        assert written.is_file() and str(written) in done.stderr and "--weights" in done.stderr
        assert default_path().read_bytes() == shipped
        assert load_model(written).threshold == pytest.approx(0.4)  # what kg build --weights reads
    finally:
        if default_path().read_bytes() != shipped:  # without the fix: put the shipped weights back
            default_path().write_bytes(shipped)
