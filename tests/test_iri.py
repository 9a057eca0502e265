"""IRIs (RFC 3987): base IRIs checked up front, URLs repaired exactly or dropped, ids one safe segment each;
every export of hostile identifiers loads in pyoxigraph, rdflib and rapper."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.exporters.rdf import write_turtle
from kg.text.iri import base_iri_problem, id_segment, is_iri, web_url

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("base", ["http://x/ y", "not an iri", "> <http://evil/p> <http://evil/o> .", "", "http://x/{}",
                                  "relative/path/", "//x/", "http://x/a#b#", "http://x/%zz/", "http://x/\u202e/",
                                  "http://x/\n", 'http://x/"'])
def test_bad_base_iris_are_named(base: str) -> None:
    assert base_iri_problem(base)


@pytest.mark.parametrize("base", ["https://w3id.org/paperkg/", "http://例え.jp/kg/", "urn:example:kg:", "http://x",
                                  "https://x.org/kg#", "http://[::1]:8080/kg/", "tag:x.org,2026:"])
def test_good_base_iris_pass(base: str) -> None:
    assert base_iri_problem(base) is None


@pytest.mark.parametrize("base", ["http://x/ y", "> <http://evil/p> <http://evil/o> . <http://x/"])
def test_kg_build_refuses_a_bad_base_iri_with_one_usage_line(tmp_path: Path, listing: Path, base: str) -> None:
    result = subprocess.run([sys.executable, "-m", "kg", "build", str(listing), "--out", str(tmp_path / "o"),
                             "--base-iri", base], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and result.stderr.startswith("error: --base-iri")
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


@pytest.mark.parametrize(("url", "expected"), [
    ("https://example.org/a#b#c", "https://example.org/a#b%23c"),
    ("http://x.org/%zz", "http://x.org/%25zz"),
    ("http://x.org/a b", "http://x.org/a%20b"),
    ("http://x.org/<y>{z}|\\^`", "http://x.org/%3Cy%3E%7Bz%7D%7C%5C%5E%60"),
    ("https://例え.jp/パス?q=値#f", "https://例え.jp/パス?q=値#f"),
    ("https://x.org/\u202e", "https://x.org/%E2%80%AE"),
    ("http://[::1]:80/ok", "http://[::1]:80/ok"),
    ("javascript:alert(1)", None), ("http://exa mple.org/", None), ("http://[bad/", None), ("https://", None),
    ("ftp://x.org/f", None), ("https://x.org/" + "a" * 9000, None),
])
def test_web_urls_are_kept_exactly_repaired_or_dropped(url: str, expected: str | None) -> None:
    repaired, problem = web_url(url)
    assert repaired == expected
    assert (problem is None) == (repaired == url)
    assert repaired is None or is_iri(repaired)


@pytest.mark.parametrize(("text", "segment"), [(".", "%2E"), ("..", "%2E%2E"), ("...", "..."), ("a/b", "a%2Fb"),
                                                ("a b#c", "a%20b%23c"), ("%41", "%2541")])
def test_ids_become_one_segment_that_survives_dot_segment_removal(text: str, segment: str) -> None:
    assert id_segment(text) == segment


HOSTILE_IDS = [".", "..", "a/../b", "a b", "a>b <c>", "a#b?c", "%zz", "é", "e\u0301", "paper:x", "x" * 300]


def test_hostile_ids_and_urls_export_turtle_that_every_parser_loads(tmp_path: Path, make_resolution) -> None:
    extra = [(given, None, f"We study case {n}.", []) for n, given in enumerate(HOSTILE_IDS)]
    resolution = make_resolution(extra, p1={"url": "https://example.org/a#b#c"}, p2={"url": "http://x/%zz"})
    write_turtle(resolution, tmp_path / "g.ttl")
    store = ox.Store()
    store.load(path=str(tmp_path / "g.ttl"), format=ox.RdfFormat.TURTLE)
    papers = {str(row[0].value) for row in store.query(
        "SELECT ?id WHERE { ?p a <https://w3id.org/paperkg/vocab#Paper> ; <http://purl.org/dc/terms/identifier> ?id }")}
    assert set(HOSTILE_IDS) <= papers
    subjects = {s for s, _ in store.query("SELECT DISTINCT ?s ?x WHERE { ?s a <https://w3id.org/paperkg/vocab#Paper> BIND(1 AS ?x) }")}
    assert len(subjects) == len(papers)  # no two ids share an IRI
    assert len(rdflib.Graph().parse(tmp_path / "g.ttl", format="turtle")) > 0
    if shutil.which("rapper"):
        checked = subprocess.run(["rapper", "-q", "-i", "turtle", "-c", str(tmp_path / "g.ttl")], capture_output=True)
        assert checked.returncode == 0, checked.stderr
