"""scripts/benchmark_spans.py: benchmark train/dev splits as gold-form JSONL for intermediate training."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import benchmark_spans  # noqa: E402


@pytest.mark.parametrize("tags, spans", [
    (["B-TASK", "I-TASK", "O", "B-METRIC"], [(0, 1, "TASK"), (3, 3, "METRIC")]),  # BIO
    (["B-METHOD", "E-METHOD", "S-METHOD", "O"], [(0, 1, "METHOD"), (2, 2, "METHOD")]),  # BIOES
    (["O", "I-TASK", "I-TASK"], [(1, 2, "TASK")]),  # a span opened by I-
    (["B-TASK", "I-METRIC"], [(0, 0, "TASK"), (1, 1, "METRIC")]),  # a label change ends a span
])
def test_tag_spans(tags, spans):
    assert benchmark_spans.tag_spans(tags) == spans


def test_names_are_mapped_to_types_once_per_text():
    words = "We rank Frob sets with wibble nets on Frob sets".split()
    found = benchmark_spans.record("x", words, [(2, 3, "Material"), (5, 6, "Method"), (8, 9, "Material"),
                                                (0, 0, "Generic")], benchmark_spans.SCIENCE, 2015)
    assert found["text"] == " ".join(words)
    assert found["entities"] == [{"type": "dataset", "name": "Frob sets", "aliases": [], "role": "used"},
                                 {"type": "method", "name": "wibble nets", "aliases": [], "role": "used"}]


def fake_benchmarks(root):
    """The train/dev files the script reads, one invented text each (no test split anywhere)."""
    (root / "scierc/processed_json").mkdir(parents=True)
    doc = {"doc_key": "d1", "sentences": [["Frob", "ranking", "works", "."]], "ner": [[[0, 1, "Task"]]]}
    for split in ("train", "dev"):
        (root / "scierc/processed_json" / f"{split}.json").write_text(json.dumps(doc) + "\n")
    (root / "scirex").mkdir()
    paper = {"doc_id": "p1", "words": ["Plonk", "score", "."], "sections": [[0, 3]], "sentences": [[0, 3]],
             "ner": [[0, 2, "Metric"]]}
    for split in ("train", "dev"):
        (root / "scirex" / f"{split}.jsonl").write_text(json.dumps(paper) + "\n")
    for path in ("cs-ner/pwc/dev-abs.data", "cs-ner/pwc/train.data", "cs-ner/ftd/train-abs.data",
                 "tdmsci/train_1500_v2.conll"):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("Wibble B-METHOD\nnets E-METHOD\nwork O\n\n")


def test_the_script_reads_only_train_and_dev_splits(tmp_path):
    fake_benchmarks(tmp_path / "benchmarks")
    done = subprocess.run([sys.executable, str(ROOT / "scripts/benchmark_spans.py"), str(tmp_path / "benchmarks"),
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = {p.stem: [json.loads(line) for line in p.read_text().splitlines()] for p in (tmp_path / "out").iterdir()}
    assert set(written) == set(benchmark_spans.SOURCES)
    assert [r["text"] for r in written["scierc"]] == ["Frob ranking works ."] * 2  # train and dev
    assert written["scirex"][0]["entities"][0]["type"] == "metric"
    assert written["tdmsci"][0]["entities"] == []  # METHOD is no TDMSci label


def test_a_missing_file_is_one_error_line(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts/benchmark_spans.py"), str(tmp_path / "none"),
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
