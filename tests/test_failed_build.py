"""A build in which every paper's extraction fails is a failure: exit 1, one error line, the previous exports kept."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

# A real `kg build` process with one more extractor registered: it raises on every paper (as a broken plug-in would).
FAILING = """
import sys
from kg.registry import extractors

@extractors.register("always_fails")
def always_fails():
    def extract(doc, context):
        raise RuntimeError("this extractor is broken")
    return extract

from kg.cli.main import app
sys.argv = ["kg", *sys.argv[1:]]
app()
"""


def build(corpus: Path, out: Path, *extractors: str) -> subprocess.CompletedProcess:
    """`kg build corpus --out out` in its own process (blank pipeline, no cache)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
    return subprocess.run([sys.executable, "-c", FAILING, "build", str(corpus), "--out", str(out), "--model", "blank",
                           "--no-cache", "--quiet", "--format", "ttl,graphml", "--extractors", ",".join(extractors)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)


def test_a_build_where_every_paper_fails_exits_1_and_keeps_the_previous_exports(tmp_path: Path) -> None:
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text("".join(f'{{"id": "p{i}", "abstract": "We propose Net{i}, a model evaluated on ImageNet."}}\n'
                              for i in range(3)), encoding="utf-8")
    out = tmp_path / "out"
    good = build(corpus, out, "rules")
    assert good.returncode == 0, good.stderr
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    failed = build(corpus, out, "rules", "always_fails")
    errors = [line for line in failed.stderr.splitlines() if line.startswith("error:")]
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert len(errors) == 1 and "extraction failed for every paper (3)" in errors[0]
    assert "this extractor is broken" in errors[0] and str(out) in errors[0]
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
