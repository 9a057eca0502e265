"""`kg bench` smoke test on a tiny corpus (speed is measured by the benchmark, not by tests)."""
from __future__ import annotations

import pytest

import json
import resource
from pathlib import Path

from typer.testing import CliRunner

from kg.quality.bench import synthesize
from kg.cli.main import app
from kg.types import Paper
from tests.consumers import CHROMIUM

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
    result = runner.invoke(app, ["bench", str(listing), "--jobs", "2", "--dask", "1", "--json", str(report)])
    assert result.exit_code == 0, result.output
    measured = json.loads(report.read_text())
    assert [m["label"] for m in measured] == ["bare parse", "parse, paperkg components", "build cold, 1 job",
                                              "build warm", "build +1% new", "build cold, 2 jobs", "dask cold, 1 worker"]
    assert "full build / bare parse" in result.output and "+1% new / cold" in result.output
    assert "the same parse with paperkg's components" in result.output
    cold, dask = measured[2], measured[-1]
    assert set(cold["outputs"]) == {"graph.ttl", "graph.graphml", "graph.html"} and all(cold["outputs"].values())
    assert "HTML page (build cold, 1 job):" in result.output and "outputs (build cold, 1 job): graph.graphml" in result.output
    if CHROMIUM:
        assert cold["page"]["interactive_ms"] > 0 and cold["page"]["problems"] == []
    assert dask["docs"] == cold["docs"] and dask["peak_each_mb"]  # the worker was sampled
    assert "dask cold, 1 worker:" in result.output and "driver peak RSS" in result.output
    assert all(m["cpu_seconds"] > 0 for m in measured) and "s CPU" in result.output  # CPU beside wall time


def test_a_measurement_counts_the_cpu_of_the_workers_it_waited_for(listing: Path) -> None:
    from kg.extractors import extract_spec
    from kg.quality.bench import full_build
    from kg.run.build import BuildConfig

    def children() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    config = BuildConfig(extract_spec(("rules",)), model="blank", jobs=2, use_cache=False, formats=("ttl",))
    before = children()
    measured = full_build("two jobs", [listing], config)
    workers = children() - before  # the two spawned workers, ended and waited for within the measurement
    assert workers > 0 and measured.cpu_seconds >= workers and measured.docs == 3


def test_dask_worker_counts_must_be_positive_integers(listing: Path) -> None:
    for bad in ("0", "two", "2,-1"):
        result = runner.invoke(app, ["bench", str(listing), "--dask", bad])
        assert result.exit_code == 2 and "--dask takes worker counts" in result.output, result.output
