"""`kg train --encoder`: fine-tunes the pinned base on gold files into a verified, loadable, reproducible folder
(needs the `[train]` extra: torch, transformers, the base model package)."""
from __future__ import annotations

import json
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


@pytest.mark.slow
def test_fine_tuning_writes_the_same_verified_weights_twice(tmp_path):
    from kg.extractors.encoder.model import load_encoder, verify

    first, second = train(tmp_path, "a"), train(tmp_path, "b")
    assert first.returncode == 0 and second.returncode == 0, first.stderr[-2000:]
    assert verify(tmp_path / "a") == verify(tmp_path / "b")  # same manifest: every file byte-identical
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
