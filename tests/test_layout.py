"""The package layout: what pyproject installs and what the README's module map says match the tree."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"kg.extractors": "extractors", "kg.ontology": "ontology"}  # installed inside kg from top-level folders


def subpackages() -> set[str]:
    """Dotted names of every folder with an __init__.py under kg/ and under the mapped folders."""
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "kg").rglob("__init__.py")}
    for name, folder in MAPPED.items():
        found |= {".".join((name, *p.parent.relative_to(ROOT / folder).parts)) for p in (ROOT / folder).rglob("__init__.py")}
    return found


def test_pyproject_installs_every_subpackage_and_maps_the_top_level_folders() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == subpackages()
    assert config["package-dir"] == MAPPED


def layout_block() -> str:
    """The code block under the README's "## Layout" heading."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^## Layout\n```\n(.*?)^```", readme, re.S | re.M).group(1)


def listed_modules() -> dict[str, set[str]]:
    """Per package folder ("" for kg/ itself, "text" for kg/text, "extractors/model" ...) the modules the
    Layout block names on its lines."""
    listed: dict[str, set[str]] = {}
    top = folder = None
    for line in layout_block().splitlines():
        head = re.match(r"^(\s*)([a-z_]+/|[a-z_]+\.py)?", line)
        indent, name = len(head.group(1)), head.group(2)
        if indent == 0 and name:
            top = "" if name == "kg/" else name[:-1] if name[:-1] in MAPPED.values() else None
            folder = top
        elif name and name.endswith("/") and indent == 2 and top is not None:
            folder = "/".join(filter(None, (top, name[:-1])))
        elif name and indent == 2:
            folder = top
        if folder is not None:
            listed.setdefault(folder, set()).update(set(re.findall(r"\b([a-z_]+\.py)\b", line)) - {"__init__.py"})
    return listed


def modules_of(folder: Path) -> set[str]:
    """The modules of a package folder, without its __init__.py."""
    return {p.name for p in folder.glob("*.py")} - {"__init__.py", "__main__.py"}


def test_readme_module_map_matches_the_tree() -> None:
    kg = ROOT / "kg"
    actual = {"": modules_of(kg)}
    actual.update((init.parent.name, modules_of(init.parent)) for init in kg.glob("*/__init__.py"))
    for folder in MAPPED.values():
        actual.update(("/".join(init.parent.relative_to(ROOT).parts), modules_of(init.parent))
                      for init in (ROOT / folder).rglob("__init__.py"))
    assert listed_modules() == actual


def test_no_test_imports_another_test_module_or_the_conftest() -> None:
    """Shared data and helpers live in tests/support.py and tests/query_corpus.py, fixtures in the one conftest."""
    pattern = re.compile(r"\b(?:from|import)\s+(?:tests\.)?(test_\w+|conftest)\b")
    offenders = {path.name: pattern.findall(path.read_text(encoding="utf-8"))
                 for path in sorted((ROOT / "tests").glob("*.py"))}
    assert {name: found for name, found in offenders.items() if found} == {}


def quickstart() -> list[str]:
    """The command lines of the README's Quickstart block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^## Quickstart\n+```bash\n(.*?)^```", readme, re.S | re.M).group(1).strip().splitlines()


def test_the_quickstart_creates_a_venv_first_and_ci_runs_exactly_it() -> None:
    lines = quickstart()
    assert lines[0].startswith("python3 -m venv ") and ". .venv/bin/activate" in lines[0]
    assert any("pip install -e '.[test" in line and "python -m pytest" in line for line in lines)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "## Quickstart" in ci and "pip install" not in ci and "pytest" not in ci.replace("pytest collected", "")


def test_examples_use_no_files_outside_the_repository() -> None:
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "kg" / "cli").glob("*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path.name
