"""The import graph (no cycle) and the extraction cache's code digest (follows what extraction imports)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kg.cache.sources import find_cycle, import_closure, import_graph, module_files

ROOT = Path(__file__).resolve().parents[1]
EDITS = {  # file (as installed) -> whether an edit to it must change the extraction code digest
    "kg/text/keys.py": True,  # the extractors import singular/normal_form from here
    "kg/graph/resolve.py": False,  # resolution runs after extraction: editing it keeps cached entries
    "kg/nlp/fast_components.py": True,  # imported inside a function of kg.nlp.load
    "kg/extractors/rules/lexicon.py": True,
    "kg/ontology/gazetteer/datasets.jsonl": True,
    "kg/ontology/generic-terms.jsonl": True,
    "kg/ontology/shapes.ttl": False,  # the exports' shapes and named queries: no extractor reads them
    "kg/ontology/queries/leaderboard.rq": False,
    "kg/exporters/html.py": False,  # extraction never imports it: cached entries stay valid
    "kg/quality/check.py": False,
}
# Run inside the copy: the digest before and after appending a newline to each file (restored after).
DIGEST_AFTER_EDITS = """
import json, sys
from pathlib import Path
from kg.cache.entries import code_digest
before, changed = code_digest("kg.extractors"), {}
for name in sys.argv[1:]:
    path = Path(name)
    original = path.read_bytes()
    path.write_bytes(original + b"\\n")
    changed[name] = code_digest("kg.extractors") != before
    path.write_bytes(original)
print(json.dumps(changed))
"""


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    assert {"kg.run.engines", "kg.run.dask_engine", "kg.cli.main", "kg.extractors.rules.combine"} <= set(graph)
    assert find_cycle(graph) == []


def test_no_import_cycle_between_packages() -> None:
    """Collapsed to packages (kg.graph, kg.extractors.model, ...; kg's own modules such as kg.types stand
    alone), the import graph has no cycle either: a subpackage never imports its parent's __init__."""
    files = module_files()

    def node(module: str) -> str:
        parent = module.rpartition(".")[0]
        return module if files[module].name == "__init__.py" or parent == "kg" else parent

    packages: dict[str, set[str]] = {}
    for module, imports in import_graph().items():
        packages.setdefault(node(module), set()).update(node(i) for i in imports if i in files and node(i) != node(module))
    assert {"kg.extractors", "kg.extractors.rules", "kg.extractors.model", "kg.cache", "kg.text"} <= set(packages)
    assert find_cycle(packages) == []


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_extraction_closure_follows_function_level_imports_and_parents() -> None:
    closure = import_closure("kg.extractors", "kg.nlp.load")
    assert {"kg.text.keys", "kg.ontology.data", "kg.nlp.fast_components", "kg.text", "kg"} <= set(closure)
    assert "kg.exporters.html" not in closure and not [m for m in closure if m.startswith("kg.graph")]  # resolution




@pytest.mark.slow
def test_an_edit_changes_the_code_digest_iff_extraction_reads_the_file(installed_copy: Path) -> None:
    done = subprocess.run([sys.executable, "-c", DIGEST_AFTER_EDITS, *EDITS], cwd=installed_copy,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == EDITS


def test_one_build_entry_point() -> None:
    """kg build, kg eval, kg bench and scripts go through kg.run.build.build; only it composes the stages."""
    graph = import_graph()
    assert {m for m, imports in graph.items() if "kg.run.pipeline" in imports} == {"kg.run.build"}
    assert {"kg.cli.main", "kg.quality.gold", "kg.quality.bench", "kg.cli.bench"} <= {  # gold: kg eval, kg train
        m for m, imports in graph.items() if "kg.run.build" in imports}
    script = (ROOT / "scripts" / "bench_quality.py").read_text(encoding="utf-8")
    assert "from kg.run.build import BuildConfig, build" in script
