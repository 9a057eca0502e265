"""The query store: built once per export content, reused, rebuilt when stale, safe under concurrent use."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.exporters.rdf import write_turtle
from kg.quality.check import shacl_violations
from kg.query.sparql import QueryError, run_query
from kg.query.store import StoreError, ensure_store, export_digest, open_store
from tests.support import ROOT
from tests.support import rdf_resolution as make_resolution

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture
def export(tmp_path: Path) -> Path:
    """The invented graph as Turtle, last written a minute ago."""
    path = tmp_path / "graph.ttl"
    write_turtle(make_resolution(), path)
    age(path)
    return path


def age(path: Path, seconds: float = 60) -> None:
    """Set the file's times into the past (as any file not just written)."""
    past = time.time() - seconds
    os.utime(path, (past, past))


def builds(export: Path, store_dir: Path) -> list[Path]:
    """Open the export's store; the exports it had to build on the way."""
    built: list[Path] = []
    open_store(export, store_dir, built.append)
    return built


def test_the_store_is_built_once_and_then_reused(export: Path, tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    assert builds(export, stores) == [export] and builds(export, stores) == []
    assert [p.name for p in stores.iterdir() if p.is_dir() and p.name != "exports"] == [ensure_store(export, stores).name]
    assert export_digest(export, stores)[2], "the digest of an unchanged export comes from the memo"


def test_an_edited_export_gets_a_new_store_and_the_old_one_goes(export: Path, tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    old = ensure_store(export, stores)
    before = run_query(export, COUNT, store_dir=stores)[1][0][0]
    with export.open("a") as handle:
        handle.write("\n<https://x.org/a> <https://x.org/b> <https://x.org/c> .\n")
    assert run_query(export, COUNT, store_dir=stores)[1][0][0] == before + 1
    assert not old.exists() and ensure_store(export, stores) != old


def test_a_store_never_answers_for_a_rewrite_with_the_same_size_and_time(export: Path, tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    ensure_store(export, stores)
    stat = export.stat()
    text = export.read_text(encoding="utf-8")
    export.write_text(text.replace("Foo-Net", "Foo-Nyt"), encoding="utf-8")
    os.utime(export, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size and mtime: only ctime differs
    ask = 'ASK { ?e <http://www.w3.org/2004/02/skos/core#altLabel> "Foo-Nyt" }'
    assert run_query(export, ask, store_dir=stores)[1] == [(True,)]


def test_a_just_written_export_is_hashed_again_next_time(export: Path, tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    os.utime(export)  # written now: its digest is not remembered
    ensure_store(export, stores)
    assert not export_digest(export, stores)[2]


@pytest.mark.slow
def test_concurrent_queries_build_one_store(export: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PAPERKG_STORE_DIR": str(tmp_path / "stores")}
    command = [sys.executable, "-m", "kg", "query", str(export), COUNT, "--format", "csv"]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for _ in range(3)]
    results = [(run.wait(timeout=300), run.stdout.read(), run.stderr.read()) for run in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    assert {code for code, _, _ in results} == {0} and len({out for _, out, _ in results}) == 1
    assert sum("query store" in err for _, _, err in results) == 1
    assert not [p for p in (tmp_path / "stores").iterdir() if p.name.startswith(".tmp-")]


@pytest.mark.parametrize("name, content, message", [
    ("graph.graphml", "<graphml/>", "reads .ttl/.nt/.jsonld (got .graphml)"),
    ("graph.ttl", "<https://x.org/a> <https://x.org/b> .\n", "not valid Turtle: Parser error at line 1"),
    ("missing.nt", None, "no such graph file"),
])
def test_unusable_exports_are_one_line_errors(tmp_path: Path, name: str, content: str | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    with pytest.raises(QueryError, match=re.escape(message)) as info:
        run_query(path, COUNT, store_dir=tmp_path / "stores")
    assert "\n" not in str(info.value) and not list(tmp_path.glob("stores/.tmp-*"))


def test_a_folder_or_an_unwritable_store_folder_is_a_one_line_error(export: Path, tmp_path: Path) -> None:
    with pytest.raises(QueryError, match="is a folder; kg query reads one .ttl/.nt/.jsonld file"):
        run_query(tmp_path, COUNT, store_dir=tmp_path / "stores")
    (tmp_path / "plain-file").write_text("not a folder")
    with pytest.raises(QueryError, match="cannot write the query store in .*--store-dir"):
        run_query(export, COUNT, store_dir=tmp_path / "plain-file" / "stores")


def test_a_syntax_error_in_the_export_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "graph.nt"
    path.write_text("<https://x.org/a> <https://x.org/b> <https://x.org/c> .\n<https://x.org/a> oops .\n")
    with pytest.raises(StoreError, match=r"line 2|2:"):
        open_store(path, tmp_path / "stores")


def test_a_store_round_trip_still_conforms_to_the_shapes(export: Path, tmp_path: Path) -> None:
    dumped = open_store(export, tmp_path / "stores").dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    data = rdflib.Graph().parse(data=dumped.decode("utf-8"), format="nt")
    shapes = rdflib.Graph().parse(ROOT / "ontology" / "shapes.ttl")
    conforms, violations = shacl_violations(data, shapes)
    assert conforms and not violations
    assert len(data) == len(rdflib.Graph().parse(export))
