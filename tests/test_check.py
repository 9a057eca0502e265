"""`kg check`: passes on good export folders, fails (exit 1, naming the file and check) on broken ones."""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from kg.exporters.graphml import write_graphml
from kg.exporters.html import write_html
from kg.exporters.rdf import write_turtle
from tests.consumers import CHROMIUM
from tests.support import rdf_resolution as make_resolution

EXPORTS = Path(__file__).resolve().parents[1] / "exports"
FILES = ("graph.ttl", "graph.graphml", "graph.html")


def kg_check(folder: Path, *options: str) -> tuple[int, list[str]]:
    """Exit code and printed lines of `kg check FOLDER OPTIONS`."""
    result = CliRunner().invoke(app, ["check", str(folder), *options])
    return result.exit_code, result.output.splitlines()


@pytest.fixture
def seeds(tmp_path: Path) -> Path:
    """A copy of the committed seed exports."""
    for name in FILES:
        shutil.copy(EXPORTS / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def invented(tmp_path: Path) -> Path:
    """The three exports of a tiny invented graph (SHACL on it is fast)."""
    resolution = make_resolution()
    write_turtle(resolution, tmp_path / "graph.ttl")
    write_graphml(resolution, tmp_path / "graph.graphml")
    write_html(resolution, tmp_path / "graph.html")
    return tmp_path


def failures(lines: list[str]) -> list[str]:
    """The FAIL lines."""
    return [line for line in lines if line.startswith("FAIL")]


def test_the_seed_exports_pass_without_shacl(seeds: Path) -> None:
    code, lines = kg_check(seeds, "--no-shacl")
    assert code == 0 and failures(lines) == [], lines
    assert len([line for line in lines if line.startswith("ok")]) == 8
    assert any("graph.graphml: XSD" in line for line in lines)


def test_an_invented_export_passes_with_shacl(invented: Path) -> None:
    code, lines = kg_check(invented)
    assert code == 0, lines
    assert any(line.startswith("ok   graph.ttl: SHACL") and "conforms" in line for line in lines)


def edit(path: Path, change: Callable[[str], str]) -> None:
    """Rewrite a text file."""
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def duplicate_first_edge_id(text: str) -> str:
    """The second edge takes the first edge's id."""
    first, second = re.findall(r'<edge id="([^"]+)"', text)[:2]
    return text.replace(f'<edge id="{second}"', f'<edge id="{first}"', 1)


BREAKAGES: dict[str, tuple[str, Callable[[str], str], str]] = {
    "truncated ttl": ("graph.ttl", lambda t: t[: len(t) // 2], "graph.ttl: rdflib parses"),
    "blank node in ttl": ("graph.ttl", lambda t: t + "\n[] a <https://example.org/X> .\n", "graph.ttl: no blank nodes"),
    "duplicate edge ids": ("graph.graphml", duplicate_first_edge_id, "graph.graphml: unique edge ids"),
    "duplicate attr.name": ("graph.graphml", lambda t: t.replace('attr.name="role"', 'attr.name="kind"', 1),
                            "graph.graphml: unique edge ids and attr.names"),
    "edge to a missing node": ("graph.graphml", lambda t: re.sub(r'target="[^"]+"', 'target="nowhere"', t, count=1),
                               "graph.graphml: XSD"),
    "external script": ("graph.html",
                        lambda t: t.replace("</body>", '<script src="https://cdn.example.org/x.js"></script></body>'),
                        "graph.html: no external references"),
}


@pytest.mark.parametrize("name", BREAKAGES)
def test_a_broken_export_fails_naming_the_file(seeds: Path, name: str) -> None:
    file, breakage, expected = BREAKAGES[name]
    edit(seeds / file, breakage)
    code, lines = kg_check(seeds, "--no-shacl")
    assert code == 1
    assert any(line.startswith(f"FAIL {expected}") for line in failures(lines)), lines
    assert all(file in line for line in failures(lines)), lines


def test_truncated_ttl_fails_in_pyoxigraph_too(seeds: Path) -> None:
    edit(seeds / "graph.ttl", lambda t: t[: len(t) // 2])
    assert any(line.startswith("FAIL graph.ttl: pyoxigraph parses") for line in kg_check(seeds, "--no-shacl")[1])


def test_a_duplicate_edge_id_also_breaks_the_xsd(seeds: Path) -> None:
    edit(seeds / "graph.graphml", duplicate_first_edge_id)
    line = next(line for line in kg_check(seeds, "--no-shacl")[1] if "graph.graphml: XSD" in line)
    assert line.startswith("FAIL") and "edgeId" in line


def test_an_external_reference_inside_a_comment_is_fine(seeds: Path) -> None:
    comment = '<!-- <script src="https://x.org/a.js"></script> --></body>'
    edit(seeds / "graph.html", lambda t: t.replace("</body>", comment))
    assert kg_check(seeds, "--no-shacl")[0] == 0


def test_a_shacl_violation_fails(invented: Path) -> None:
    edit(invented / "graph.ttl", lambda t: re.sub(r"dcterms:abstract\s", "dcterms:description ", t))
    code, lines = kg_check(invented)
    assert code == 1
    assert any(line.startswith("FAIL graph.ttl: SHACL") and "MinCountConstraintComponent" in line for line in lines)


def test_missing_pyshacl_is_said_clearly_and_skipped(invented: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyshacl", None)
    code, lines = kg_check(invented)
    assert code == 0
    assert any(line.startswith("skip graph.ttl: SHACL") and "pyshacl is not installed" in line for line in lines)


def test_a_folder_without_exports_fails(tmp_path: Path) -> None:
    code, lines = kg_check(tmp_path)
    assert code == 1 and "FAIL" in lines[0] and "graph.ttl" in lines[0]
    assert kg_check(tmp_path / "absent")[0] == 1


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM, reason="chromium is not installed (apt-get install -y chromium)")
def test_browser_passes_the_seed_page_and_fails_a_broken_one(seeds: Path) -> None:
    code, lines = kg_check(seeds, "--no-shacl", "--browser")
    assert code == 0 and any(line.startswith("ok   graph.html: headless Chromium") for line in lines), lines
    edit(seeds / "graph.html", lambda t: t.replace('id="kg-data">', 'id="kg-data">{broken', 1))
    code, lines = kg_check(seeds, "--no-shacl", "--browser")
    assert code == 1 and any(line.startswith("FAIL graph.html: headless Chromium") for line in lines), lines


def test_verdicts_hold_under_python_optimise(tmp_path: Path) -> None:
    """`python -O` strips asserts; a broken export must still fail the check (exit 1)."""
    import subprocess

    (tmp_path / "graph.html").write_text('<html><script src="https://cdn.example.org/x.js"></script></html>')
    done = subprocess.run([sys.executable, "-O", "-m", "kg", "check", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL graph.html: no external references (external references:" in done.stdout
