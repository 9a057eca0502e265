"""A newcomer's paper cuts: a bracketed name or an IRI that names nothing is an error, a CSV without an abstract
column says why once, and the build summary says why fewer papers than records were built."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app

SEEDS = Path(__file__).resolve().parents[1] / "exports" / "graph.ttl"
runner = CliRunner()


@pytest.mark.parametrize("value, says", [
    ("<a title>", "no paper named '<a title>' (angle brackets are for IRIs"),
    ("<https://w3id.org/paperkg/paper/nothing-here>", "no paper has the IRI <https://w3id.org/paperkg/paper/nothing-here>"),
])
def test_a_bracketed_value_that_names_no_paper_is_an_error(tmp_path: Path, monkeypatch, value: str, says: str) -> None:
    monkeypatch.setenv("PAPERKG_STORE_DIR", str(tmp_path / "stores"))
    result = runner.invoke(app, ["query", str(SEEDS), "similar-papers", "-p", f"paper={value}"])
    assert result.exit_code == 1 and result.output.strip().splitlines()[-1].startswith(f"error: {says}")


def test_the_iri_of_a_paper_of_the_graph_is_accepted(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PAPERKG_STORE_DIR", str(tmp_path / "stores"))
    iri = re.search(r"<https://w3id\.org/paperkg/paper/[^>]+>", SEEDS.read_text(encoding="utf-8"))[0]
    result = runner.invoke(app, ["query", str(SEEDS), "similar-papers", "-p", f"paper={iri}"])
    assert result.exit_code == 0 and "error" not in result.output


def test_a_csv_without_an_abstract_column_says_why_once(tmp_path: Path) -> None:
    corpus = tmp_path / "papers.csv"
    corpus.write_text("title,summary\nA paper,We propose a method.\n", encoding="utf-8")
    result = runner.invoke(app, ["build", str(corpus), "--out", str(tmp_path / "out"), "--model", "blank",
                                 "--extractors", "rules", "--no-cache"])
    line = result.output.strip()
    assert result.exit_code == 1 and line.count("no 'abstract' column") == 1 and "1 records" not in line


def test_the_summary_says_how_many_records_were_merged(tmp_path: Path) -> None:
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text('{"abstract": "We propose Zorbnet for parsing."}\n{"abstract": "We propose Zorbnet for parsing."}\n'
                      '{"abstract": "We study glimmer parsing."}\n', encoding="utf-8")
    result = runner.invoke(app, ["build", str(corpus), "--out", str(tmp_path / "out"), "--model", "blank",
                                 "--extractors", "rules", "--no-cache", "--quiet"])
    assert result.exit_code == 0 and (tmp_path / "out" / "graph.html").is_file()  # no entity at all: still a page
    assert "papers: 2 built from 3 records, 0 skipped, 1 merged (the same abstract as an earlier record" in result.output
