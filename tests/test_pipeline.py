"""The build pipeline: cached and computed extractions in input order; identical outputs everywhere."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.extractors import build_extract
from kg.cache.entries import PaperCache
from kg.cli.main import app
from kg.run.engines import EngineOptions, ExtractSpec, WorkerSpec
from kg.io.corpus import Corpus
from kg.run.build import BuildConfig, build
from kg.graph.resolution import graph_of
from kg.run.pipeline import assemble, extract_all
from kg.types import Paper

runner = CliRunner()
SPEC = WorkerSpec("blank", ExtractSpec(build_extract, args=(("acronyms",),)), batch_size=2)
ABSTRACTS = [
    "We propose a graph neural network (GNN) for molecule property prediction on QM9.",
    "Large language models (LLMs) are evaluated with the BLEU score on WMT14 translation.",
    "A variational autoencoder (VAE) with \\textbf{normalizing flows} improves the evidence lower bound (ELBO).",
    "We study reinforcement learning (RL) with proximal policy optimization (PPO) on Atari games.",
    "Word error rate (WER) drops for automatic speech recognition (ASR) on LibriSpeech.",
]
PAPERS = [Paper(f"p{i}", text) for i, text in enumerate(ABSTRACTS)]


def test_extract_all_loads_cached_computes_the_rest_in_order(tmp_path: Path) -> None:
    cache = PaperCache(tmp_path, "salt")
    cold = extract_all(PAPERS[::2], SPEC, EngineOptions(), cache)
    assert (cache.hits, cache.misses) == (0, 3)
    ticks: list[int] = []
    mixed = extract_all(PAPERS, SPEC, EngineOptions(), cache, progress=ticks.append)
    assert (cache.hits, cache.misses) == (3, 5) and sum(ticks) == len(PAPERS)
    assert mixed[::2] == cold
    assert mixed == extract_all(PAPERS, SPEC, EngineOptions())
    assert [{m.paper_id for m in e.mentions} for e in mixed] == [{p.id} for p in PAPERS]


def test_corrupt_entry_is_recomputed_and_rewritten(tmp_path: Path) -> None:
    cache = PaperCache(tmp_path, "salt")
    expected = extract_all(PAPERS, SPEC, EngineOptions(), cache)
    path = cache.path(cache.key(PAPERS[1]))
    path.write_bytes(path.read_bytes()[:-10])
    assert extract_all(PAPERS, SPEC, EngineOptions(), cache) == expected
    assert cache.corrupt == 1
    assert PaperCache(tmp_path, "salt").load(PAPERS[1]) == expected[1]


def test_build_equals_extract_all_then_assemble(tmp_path: Path) -> None:
    spec = ExtractSpec(build_extract, args=(("acronyms",),))
    report = build(Corpus(PAPERS), BuildConfig(spec, model="blank", use_cache=False))
    resolution, stats = assemble(PAPERS, extract_all(PAPERS, WorkerSpec("blank", spec), EngineOptions()))
    assert report.stats == stats and report.resolution == resolution
    assert list(report.graph.edges(data=True)) == list(graph_of(resolution).edges(data=True))
    assert report.outputs == [] and not any(tmp_path.iterdir())
    written = build(Corpus(PAPERS), BuildConfig(spec, model="blank", formats=("nt",), use_cache=False), tmp_path)
    assert written.outputs == [tmp_path / "graph.nt"] and written.stats == stats


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "papers.jsonl"
    lines = [json.dumps({"id": f"x{i}", "abstract": f"{text} Variant {i}."})
             for i, text in enumerate(ABSTRACTS * 3)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def build_files(corpus: Path, out: Path, *options: str) -> dict[str, bytes]:
    result = runner.invoke(app, ["build", str(corpus), "-o", str(out), "-q", "-f", "ttl,graphml", *options])
    assert result.exit_code == 0, result.output
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


@pytest.mark.slow
def test_outputs_are_byte_identical_across_jobs_engines_and_cache(corpus: Path, tmp_path: Path) -> None:
    reference = build_files(corpus, tmp_path / "ref", "--no-cache")
    cache = str(tmp_path / "cache")
    assert build_files(corpus, tmp_path / "j2", "--jobs", "2", "--cache-dir", cache) == reference
    assert build_files(corpus, tmp_path / "warm", "--cache-dir", cache) == reference
    assert build_files(corpus, tmp_path / "dask", "--engine", "dask", "-j", "2", "--no-cache") == reference


def test_cache_options(corpus: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PAPERKG_CACHE_DIR", str(tmp_path / "default"))
    build_files(corpus, tmp_path / "a", "--no-cache")
    assert not (tmp_path / "default").exists()
    result = runner.invoke(app, ["build", str(corpus), "-o", str(tmp_path / "b"), "-q", "-f", "ttl"])
    assert "cache: 0 reused, 15 extracted" in result.output
    assert len(list((tmp_path / "default").rglob("*.json"))) == 15
    result = runner.invoke(app, ["build", str(corpus), "-o", str(tmp_path / "c"), "-f", "ttl", "--engine", "spark"])
    assert result.exit_code == 2 and "unknown engine" in result.output


@pytest.mark.parametrize("extractors", ["rules", pytest.param("default", marks=pytest.mark.slow)])
def test_a_rebuild_with_papers_added_writes_the_bytes_of_a_cold_build(extractors: str, tmp_path: Path) -> None:
    """The incremental case of `kg bench` (+1%): old papers' extractions from the cache, new ones extracted, then
    resolution, graph and every export over all of them: byte for byte what a cold build of all of them writes."""
    seeds = sorted((Path(__file__).parent.parent / "seeds").glob("*.txt"))
    options = ("-f", "ttl,graphml,html", "--extractors", extractors)
    cache = ("--cache-dir", str(tmp_path / "cache"))

    def files(out: str, inputs: list[Path], *more: str) -> dict[str, bytes]:
        result = runner.invoke(app, ["build", *map(str, inputs), "-o", str(tmp_path / out), "-q", *options, *more])
        assert result.exit_code == 0, result.output
        return {p.name: p.read_bytes() for p in sorted((tmp_path / out).iterdir())}

    first = files("first", seeds[:-1], *cache)
    cold = files("cold", seeds, "--no-cache")
    assert first.keys() == cold.keys() and all(first[name] != cold[name] for name in cold)  # every export changes
    assert files("added", seeds, *cache) == cold
    assert files("warm", seeds, *cache) == cold
