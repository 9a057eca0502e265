"""The import graph (no cycle) and the extraction cache's code digest (follows what extraction imports)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kg.run.sources import find_cycle, import_closure, import_graph

ROOT = Path(__file__).resolve().parents[1]
DIGEST = "from kg.run.cache import code_digest; print(code_digest('kg.extractors'))"


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    assert {"kg.run.engines", "kg.run.dask_engine", "kg.cli.main", "kg.extractors.combine"} <= set(graph)
    assert find_cycle(graph) == []


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_extraction_closure_follows_function_level_imports_and_parents() -> None:
    closure = import_closure("kg.extractors", "kg.nlp.load")
    assert {"kg.graph.resolve", "kg.nlp.fast_components", "kg.graph", "kg"} <= set(closure)
    assert "kg.exporters.html" not in closure


@pytest.fixture(scope="module")
def installed_copy(tmp_path_factory) -> Path:
    """A copy of the package laid out as installed: kg/ with extractors/ and ontology/ inside."""
    top = tmp_path_factory.mktemp("copy")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "kg", top / "kg", ignore=ignore)
    shutil.copytree(ROOT / "extractors", top / "kg" / "extractors", ignore=ignore)
    shutil.copytree(ROOT / "ontology", top / "kg" / "ontology", ignore=ignore)
    return top


def digest(top: Path) -> str:
    """The extraction code digest computed by the copy at `top`."""
    done = subprocess.run([sys.executable, "-c", DIGEST], cwd=top, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize(("edited", "changes"), [
    ("kg/graph/resolve.py", True),  # extractors import singular/normal_form from here
    ("kg/nlp/fast_components.py", True),  # imported inside a function of kg.nlp.load
    ("kg/extractors/lexicon.py", True),
    ("kg/ontology/gazetteer/datasets.jsonl", True),
    ("kg/exporters/html.py", False),  # extraction never imports it: cached entries stay valid
    ("kg/quality/check.py", False),
])
def test_an_edit_changes_the_code_digest_iff_extraction_reads_the_file(installed_copy: Path, edited: str,
                                                                       changes: bool) -> None:
    before = digest(installed_copy)
    path = installed_copy / edited
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n")
        assert (digest(installed_copy) != before) is changes
    finally:
        path.write_bytes(original)
