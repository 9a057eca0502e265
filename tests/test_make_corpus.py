"""scripts/make_corpus.py: a big corpus from small ones, deterministic, new work in every copy."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from kg.io.readers import read_corpus

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "make_corpus.py"
RECORDS = [{"id": f"a{i}", "title": f"T{i}", "abstract": f"We train model {i} on 12{i} images. It wins by 3.{i} points. "
            f"Code is public."} for i in range(3)]


def masked(text: str) -> list[str]:
    """The words of a text, sorted, digits masked."""
    return sorted(re.sub(r"\d", "#", word) for word in text.split())


def make(tmp_path: Path, count: int, name: str = "big.jsonl") -> list[dict]:
    """Run the script on the small corpus (with one reserved id) and read what it wrote."""
    source = tmp_path / "in" / "abstracts.jsonl"
    source.parent.mkdir(exist_ok=True)
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS) + json.dumps({"id": "held", "abstract": "X."}) + "\n")
    (source.parent / "reserved-ids.txt").write_text("held\n")
    out = tmp_path / name
    done = subprocess.run([sys.executable, str(SCRIPT), str(count), str(source), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_copies_get_new_ids_and_lightly_changed_abstracts(tmp_path: Path) -> None:
    records = make(tmp_path, 8)
    assert [r["id"] for r in records] == ["a0", "a1", "a2", "a0~r1", "a1~r1", "a2~r1", "a0~r2", "a1~r2"]
    assert records[:3] == RECORDS  # the first copy as it is; the reserved id is never used
    for record in records[3:]:
        original = RECORDS[int(record["id"][1])]
        assert record["title"] == original["title"] and record["abstract"] != original["abstract"]
        assert masked(record["abstract"]) == masked(original["abstract"])  # the same words, sentences moved
    papers = read_corpus([tmp_path / "big.jsonl"]).papers  # a corpus kg reads as it is
    assert len({p.id for p in papers}) == 8


def test_same_arguments_same_bytes_and_a_smaller_count_is_a_prefix(tmp_path: Path) -> None:
    assert make(tmp_path, 7, "one.jsonl") == make(tmp_path, 7, "two.jsonl")
    assert make(tmp_path, 5, "short.jsonl") == make(tmp_path, 9, "long.jsonl")[:5]
