"""`kg train --encoder`: fine-tunes the pinned base on gold files into a verified, loadable, reproducible folder
(needs the `[train]` extra: torch, transformers, the base model package)."""
from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

import pytest

from tests.support import INVENTED_GOLD

pytest.importorskip("torch", reason="the [train] extra (torch) is not installed")
pytest.importorskip("all_minilm_l6_v2", reason="the [train] extra (the base encoder package) is not installed")



def train(tmp_path, name: str, *options: str) -> subprocess.CompletedProcess:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": f"g{i}", "text": text, "entities": entities}) + "\n"
                            for i, (text, entities) in enumerate(INVENTED_GOLD)), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "kg", "train", str(gold), "--encoder", "--epochs", "1",
                           "--out", str(tmp_path / name), *options], capture_output=True, text=True)


RELATIONS = [{"id": "g0", "relations": [{"head": "Quuxformer", "relation": "evaluated_on", "tail": "Blip corpus"}]},
             {"id": "g1", "relations": [{"head": "Zorb tagger", "relation": "applied_to", "tail": "glimmer parsing"}]}]


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["spans", "spans and relations"])
def test_fine_tuning_writes_the_same_verified_weights_twice(tmp_path, objective):
    from kg.extractors.encoder.model import load_encoder, verify

    options: tuple[str, ...] = ()
    if objective == "spans and relations":
        gold = tmp_path / "relations.jsonl"
        gold.write_text("".join(json.dumps(r) + "\n" for r in RELATIONS), encoding="utf-8")
        options = ("--relations", str(gold))
    first, second = train(tmp_path, "a", *options), train(tmp_path, "b", *options)
    assert first.returncode == 0 and second.returncode == 0, first.stderr[-2000:]
    assert ("relation objective on 2 abstracts" in first.stderr) == bool(options)
    assert verify(tmp_path / "a") == verify(tmp_path / "b")  # same manifest: every file byte-identical
    assert (tmp_path / "a" / "relations.npz").exists() == bool(options)  # the pair head trained with the encoder
    probs, _ = load_encoder(tmp_path / "a").predict("We test the Zorb tagger.", [[9, 19]], None)
    assert probs.shape == (1, 6)


@pytest.mark.slow
def test_a_base_model_with_another_digest_is_refused(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    (base / "model.safetensors").write_bytes(b"not the pinned weights")
    result = train(tmp_path, "c", "--base", str(base))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "is not the pinned all-MiniLM-L6-v2 release" in result.stderr and str(base) in result.stderr


@pytest.mark.slow
def test_folds_fine_tuned_in_parallel_match_one_at_a_time(tmp_path):
    from kg.extractors.encoder.fine_tune import fine_tune_folds
    from kg.extractors.encoder.model import verify
    from kg.nlp import DEFAULT_MODEL
    from kg.quality.gold import gold_items_of

    records = [{"id": f"g{i}", "text": INVENTED_GOLD[i % 3][0], "entities": INVENTED_GOLD[i % 3][1]} for i in range(8)]
    items = gold_items_of({tmp_path / "gold.jsonl": records})
    quiet = lambda line: None  # noqa: E731
    serial = fine_tune_folds(items, 2, tmp_path / "serial", DEFAULT_MODEL, None, quiet, epochs=1, jobs=1)
    parallel = fine_tune_folds(items, 2, tmp_path / "parallel", DEFAULT_MODEL, None, quiet, epochs=1, jobs=2)
    assert [ids for _, ids in serial] == [ids for _, ids in parallel] and all(ids for _, ids in serial)
    assert [verify(Path(f)) for f, _ in serial] == [verify(Path(f)) for f, _ in parallel]  # byte-identical folds


@pytest.mark.slow
def test_intermediate_training_tunes_the_encoder_reproducibly(tmp_path):
    from kg.extractors.encoder.model import verify

    source = tmp_path / "source.jsonl"  # another annotation's texts: one head of its own, types only
    source.write_text("".join(json.dumps({"id": f"s{i}", "text": text, "entities": entities}) + "\n" for i, (text, entities)
                              in enumerate([("Wibble ranking is measured by plonk score on the Frob set.",
                                             [{"name": "Wibble ranking", "type": "task"},
                                              {"name": "plonk score", "type": "metric"},
                                              {"name": "Frob set", "type": "dataset"}])])), encoding="utf-8")
    plain = train(tmp_path, "plain")
    first, second = (train(tmp_path, name, "--intermediate", str(source)) for name in ("a", "b"))
    assert plain.returncode == first.returncode == second.returncode == 0, first.stderr[-2000:]
    assert "intermediate training on 1 texts" in first.stderr
    assert verify(tmp_path / "a") == verify(tmp_path / "b")  # the same bytes twice
    tuned, untuned = (json.loads((tmp_path / name / "manifest.json").read_text())["sha256"] for name in ("a", "plain"))
    assert tuned["encoder.onnx"] != untuned["encoder.onnx"]  # the intermediate step changed the encoder


@pytest.mark.slow
def test_cross_validation_folds_start_from_the_intermediate_encoder(tmp_path):
    from kg.extractors.encoder.fine_tune import fine_tune_folds
    from kg.nlp import DEFAULT_MODEL
    from kg.quality.gold import gold_items_of

    records = [{"id": f"g{i}", "text": INVENTED_GOLD[i % 3][0], "entities": INVENTED_GOLD[i % 3][1]} for i in range(6)]
    items = gold_items_of({tmp_path / "gold.jsonl": records})
    source = gold_items_of({tmp_path / "source.jsonl": [
        {"id": "s0", "text": "Wibble ranking is measured by plonk score.",
         "entities": [{"name": "Wibble ranking", "type": "task"}, {"name": "plonk score", "type": "metric"}]}]})
    quiet = lambda line: None  # noqa: E731
    plain = fine_tune_folds(items, 2, tmp_path / "plain", DEFAULT_MODEL, None, quiet, epochs=1)
    tuned = fine_tune_folds(items, 2, tmp_path / "tuned", DEFAULT_MODEL, None, quiet, epochs=1, intermediate=source)
    assert [ids for _, ids in plain] == [ids for _, ids in tuned]  # the same folds
    digests = [[json.loads((Path(f) / "manifest.json").read_text())["sha256"]["encoder.onnx"] for f, _ in run]
               for run in (plain, tuned)]
    assert all(a != b for a, b in zip(*digests))  # every fold starts from the tuned encoder
