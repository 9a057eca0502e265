"""`kg bench` smoke test on a tiny corpus (speed is measured by the benchmark, not by tests)."""
from __future__ import annotations

import pytest

import json
from pathlib import Path

from typer.testing import CliRunner

from kg.quality.bench import synthesize
from kg.cli.main import app
from kg.types import Paper

runner = CliRunner()


def test_synthetic_corpus_is_deterministic_recombination() -> None:
    papers = [Paper(f"p{i}", f"First {i} sentence. Second {i} sentence! Third {i}?") for i in range(5)]
    records = synthesize(papers, 20)
    assert records == synthesize(papers, 20)
    assert records != synthesize(papers, 20, seed=1)
    sentences = {s for p in papers for s in p.abstract.replace("! ", "!|").replace(". ", ".|").split("|")}
    for record in records:
        assert set(record["abstract"].replace("! ", "!|").replace(". ", ".|").replace("? ", "?|").split("|")) <= sentences


@pytest.mark.slow
def test_bench_runs_every_measurement_on_a_tiny_corpus(listing: Path, tmp_path: Path) -> None:
    report = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", str(listing), "--jobs", "2", "--json", str(report)])
    assert result.exit_code == 0, result.output
    labels = [m["label"] for m in json.loads(report.read_text())]
    assert labels == ["bare parse", "parse, paperkg components", "build cold, 1 job", "build warm",
                      "build +1% new", "build cold, 2 jobs"]
    assert "full build / bare parse" in result.output and "+1% new / cold" in result.output
    assert "the same parse with paperkg's components" in result.output
