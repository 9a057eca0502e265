"""Shared fixtures: the spaCy pipeline (loaded once), a tiny invented corpus and a small graph."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import networkx as nx
import pytest

from kg.extraction.interface import prepare
from kg.graph.resolution import Resolution
from kg.types import Paper
from tests.support import build_graph, build_resolution, under_hash_seeds

SLOW_FIXTURES = frozenset({"browser", "seed_build"})  # headless Chromium; a build of the whole seeds folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that use a slow fixture are `slow` (left out by `-m "not slow"`), besides those marked by hand."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory) -> Path:
    """Tests cache extractions and query stores in a temporary directory, not the user's cache."""
    directory = tmp_path_factory.mktemp("paperkg-cache")
    settings = {"PAPERKG_CACHE_DIR": directory, "PAPERKG_STORE_DIR": directory / "stores"}
    previous = {name: os.environ.get(name) for name in settings}
    os.environ.update({name: str(value) for name, value in settings.items()})
    yield directory
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def nlp():
    """The default pipeline, loaded once per test session."""
    from kg.nlp.load import load_nlp  # imported here: only tests that parse load spaCy

    pipeline, warning = load_nlp()
    assert warning is None, warning
    return pipeline


@pytest.fixture(scope="session")
def parse(nlp) -> Callable[[str], tuple]:
    """Parse an abstract as a build does: markup stripped and abbreviations found (`prepare`), then
    `nlp.pipe`; returns (doc, context) for extractors to read."""
    def parse(abstract: str) -> tuple:
        text, context = prepare(Paper("p", abstract))
        return next(iter(nlp.pipe([text]))), context

    return parse


@pytest.fixture(scope="module")
def graph_files(tmp_path_factory) -> dict[str, Path]:
    """The invented query corpus (tests/query_corpus.py) exported as Turtle, N-Triples and JSON-LD."""
    from tests.query_corpus import write_graph_files

    return write_graph_files(tmp_path_factory.mktemp("query"))


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    """A seed-style listing: a header line, then three invented abstracts."""
    path = tmp_path / "listing.txt"
    path.write_text(
        "Invented Conference Papers\n\n"
        "We propose \\textbf{FooNet}, a model for image classification evaluated on ImageNet.\n\n"
        "Large language models (LLMs) hallucinate; we study **uncertainty quantification** for LLMs.\n\n"
        "We fine-tune BERT with LoRA and report accuracy on GLUE.\n",
        encoding="utf-8",
    )
    return path


def assert_stable_output(writer: str, directory: Path, suffix: str) -> None:
    """`kg.exporters.<module>.write_<fmt>(build_resolution(), path)` gives the same bytes twice and
    under other PYTHONHASHSEEDs (fresh interpreters)."""
    module, function = writer.rsplit(".", 1)
    script = ("import hashlib, sys; from pathlib import Path; from tests.support import build_resolution; "
              f"from {module} import {function}; path = Path(sys.argv[1]) / 'out{suffix}'; "
              f"{function}(build_resolution(), path); print(hashlib.sha256(path.read_bytes()).hexdigest())")
    runs = under_hash_seeds(script, str(directory), seeds=("0", "0", "12345"))
    assert len(set(runs)) == 1 and runs[0].strip()


@pytest.fixture
def make_graph() -> Callable[..., nx.DiGraph]:
    """`build_graph`: the small invented graph, optionally with extra papers."""
    return build_graph


@pytest.fixture
def make_resolution() -> Callable[..., Resolution]:
    """`build_resolution`: the small invented resolution (what the exporters read), optionally with extra papers."""
    return build_resolution


@pytest.fixture
def stable_output(tmp_path: Path) -> Callable[[str, str], None]:
    """`assert_stable_output` writing into this test's tmp_path: (writer, suffix) -> None."""
    return lambda writer, suffix: assert_stable_output(writer, tmp_path, suffix)


SEED_EXPORT = Path(__file__).resolve().parents[1] / "exports" / "graph.ttl"  # 92 papers, ~21k triples


@pytest.fixture
def serve(tmp_path: Path):
    """Start endpoints in this process (a LiveStore over `export`, default the seed export; the given
    QueryLimits); each is stopped after the test."""
    import threading

    from kg.query.endpoint import Endpoint
    from kg.query.pool import QueryLimits
    from kg.query.store import LiveStore

    servers = []

    def start(export: Path = SEED_EXPORT, on_build=None, **limits) -> Endpoint:
        server = Endpoint(LiveStore(export, tmp_path / "stores", on_build), port=0, limits=QueryLimits(**limits))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def installed_copy(tmp_path_factory) -> Path:
    """A copy of the package laid out as installed: kg/ with extractors/ and ontology/ inside."""
    import shutil

    root, top = Path(__file__).resolve().parents[1], tmp_path_factory.mktemp("copy")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(root / "kg", top / "kg", ignore=ignore)
    shutil.copytree(root / "extractors", top / "kg" / "extractors", ignore=ignore)
    shutil.copytree(root / "ontology", top / "kg" / "ontology", ignore=ignore)
    return top

