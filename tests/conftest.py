"""Shared fixtures: the spaCy pipeline (loaded once), a tiny invented corpus and a small graph."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

import networkx as nx
import pytest

from kg.graph.build import to_networkx
from kg.types import Entity, Link, Mention, MentionRelation, Paper, Relation, Source

ROOT = Path(__file__).resolve().parents[1]
# (paper id, title, abstract, [(surface, type, role)]): invented text, not the seed abstracts.
PaperSpec = tuple[str, Optional[str], str, list[tuple[str, str, str]]]
PAPERS: list[PaperSpec] = [
    ("p1", "Zorbnet for glimmer parsing",
     "We propose Zorbnet, a parser. Zorbnet is evaluated on the Quux corpus with F-score.",
     [("Zorbnet", "model", "proposed"), ("Quux corpus", "dataset", "used"), ("F-score", "metric", "used")]),
    ("p2", None,
     "Glimmer parsing is hard. We fine-tune Zorbnet on the Quux corpus.",
     [("Glimmer parsing", "task", "used"), ("Zorbnet", "model", "used"), ("Quux corpus", "dataset", "used")]),
    ("p3", "A lone study", "We introduce the Blorp method for glimmer parsing.",
     [("Blorp method", "method", "proposed"), ("glimmer parsing", "task", "used")]),
]


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
    from kg.nlp.load import load_nlp  # imported here: subprocesses import this module for build_graph

    pipeline, warning = load_nlp()
    assert warning is None, warning
    return pipeline


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


def slug(text: str) -> str:
    """A lower-case id slug."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def mention(paper: str, abstract: str, surface: str, kind: str, role: str) -> Mention:
    """The first occurrence of `surface` in `abstract` as a mention spanning its sentence."""
    start = abstract.index(surface)
    sentence_start = abstract.rfind(". ", 0, start) + 2 if ". " in abstract[:start] else 0
    end_dot = abstract.find(".", start + len(surface))
    return Mention(paper, start, start + len(surface), surface, kind, role, sentence_start,
                   end_dot + 1 if end_dot >= 0 else len(abstract), "test", surface)


def build_graph(extra: Sequence[PaperSpec] = (), relations: bool = True, **paper_fields) -> nx.DiGraph:
    """A graph of PAPERS plus `extra` via `kg.graph.build.to_networkx` (with one stated relation)."""
    records, entities, links, by_entity = [], {}, [], {}
    for pid, title, abstract, spans in [*PAPERS, *extra]:
        records.append(Paper(pid, abstract, (Source(f"{pid}.txt", 1),), title=title,
                             year=2024 if title else None, **paper_fields.get(pid, {})))
        for surface, kind, role in spans:
            entity_id = f"{kind}:{slug(surface)}"
            entities.setdefault(entity_id, Entity(entity_id, kind, surface, (surface.upper(),)))
            found = mention(pid, abstract, surface, kind, role)
            links.append(Link(pid, entity_id, role, (found,)))
            by_entity.setdefault((pid, entity_id), found)
    stated = []
    if relations:
        source, target = by_entity[("p1", "model:zorbnet")], by_entity[("p1", "dataset:quux-corpus")]
        stated.append(Relation("model:zorbnet", "evaluated_on", "dataset:quux-corpus",
                               (MentionRelation("p1", "evaluated_on", source, target),)))
    return to_networkx(records, entities.values(), links, stated)


def assert_stable_output(writer: str, directory: Path, suffix: str) -> None:
    """`kg.exporters.<module>.write_<fmt>(build_graph(), path)` gives the same bytes twice and
    under another PYTHONHASHSEED (a fresh interpreter)."""
    module, function = writer.rsplit(".", 1)
    script = (f"import sys; from conftest import build_graph; from {module} import {function}; "
              f"{function}(build_graph(), sys.argv[1])")
    tests = Path(__file__).parent
    for name, seed in (("a", "0"), ("b", "0"), ("c", "12345")):
        env = {**os.environ, "PYTHONHASHSEED": seed,
               "PYTHONPATH": os.pathsep.join([str(tests), str(tests.parent), os.environ.get("PYTHONPATH", "")])}
        subprocess.run([sys.executable, "-c", script, str(directory / f"{name}{suffix}")], check=True, env=env)
    outputs = {(directory / f"{name}{suffix}").read_bytes() for name in "abc"}
    assert len(outputs) == 1


@pytest.fixture
def make_graph() -> Callable[..., nx.DiGraph]:
    """`build_graph`: the small invented graph, optionally with extra papers."""
    return build_graph


@pytest.fixture
def stable_output(tmp_path: Path) -> Callable[[str, str], None]:
    """`assert_stable_output` writing into this test's tmp_path: (writer, suffix) -> None."""
    return lambda writer, suffix: assert_stable_output(writer, tmp_path, suffix)
