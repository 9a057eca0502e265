"""The command line: bad input gives one clear line and exit code 1, never a traceback."""
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [("missing", None, "no such file"), ("bin.txt", b"\x00\x01binary", "binary file"),
     ("empty.jsonl", b"{oops\n", "no papers found")],
)
def test_fatal_input_exits_1_with_one_line(tmp_path: Path, name: str, content, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(app, ["build", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert message in result.output and name in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_unknown_format_names_the_valid_choices(listing: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path), "--format", "ttl,docx"])
    assert result.exit_code == 1
    assert "unknown exporter 'docx'" in result.output and "graphml" in result.output


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 2 and "build" in result.output


def test_a_missing_model_still_builds_and_says_what_is_lost(listing: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path), "--format", "graphml",
                                 "--model", "no_such_spacy_model", "--quiet", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "'no_such_spacy_model' is not installed" in result.output and "no tagger or parser" in result.output
    assert "papers: 3 built" in result.output and (tmp_path / "graph.graphml").exists()


def test_build_writes_each_requested_graphml_view(listing: Path, tmp_path: Path) -> None:
    import networkx as nx

    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path), "--format", "graphml",
                                 "--view", "full,papers,entities", "--quiet", "--no-cache"])
    assert result.exit_code == 0, result.output
    kinds = {name: {data["kind"] for _, data in nx.read_graphml(tmp_path / name).nodes(data=True)}
             for name in ("graph.graphml", "graph-papers.graphml", "graph-entities.graphml")}
    assert kinds == {"graph.graphml": {"paper", "entity"}, "graph-papers.graphml": {"paper"},
                     "graph-entities.graphml": {"entity"}}
    checked = runner.invoke(app, ["check", str(tmp_path), "--no-shacl"])
    assert checked.exit_code == 0 and "graph-entities.graphml" in checked.output, checked.output


@pytest.mark.parametrize(("arguments", "message"), [
    (["--view", "papers,authors"], "unknown view 'authors' (choose from: full, papers, entities)"),
    (["--view", "papers", "--format", "ttl"], "applies to GraphML"),
])
def test_bad_view_names_the_valid_choices(listing: Path, tmp_path: Path, arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path / "out"), *arguments])
    assert result.exit_code == 1 and message in result.output, result.output
    assert not (tmp_path / "out").exists()  # failed before any work
