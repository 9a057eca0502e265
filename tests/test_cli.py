"""The command line: bad input gives one clear line and exit code 1, never a traceback."""
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from tests.support import command_paths

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
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
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
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "out").exists()  # failed before any work


def test_version_prints_the_package_version() -> None:
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"paperkg {version('paperkg')}"


@pytest.mark.parametrize("command", [(), *command_paths()], ids=lambda c: " ".join(c) or "kg")
def test_every_help_page_shows_examples_and_exit_codes(command: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    examples = result.output.split("Examples:")[1]
    assert f"kg {' '.join(command)}".strip() in examples and "Exit codes: 0 success, 1 failure" in examples


@pytest.mark.parametrize("command", [(), *command_paths()], ids=lambda c: " ".join(c) or "kg")
def test_help_pages_show_no_python_type_names(command: tuple[str, ...]) -> None:
    page = runner.invoke(app, [*command, "--help"], terminal_width=200).output
    assert not re.findall(r"<(?:bool|str|int|float|path|list\[\w+\]|int range)>", page), page


@pytest.mark.parametrize("command", [(), *command_paths()], ids=lambda c: " ".join(c) or "kg")
def test_help_descriptions_are_wrapped_by_the_terminal_not_the_source(command: tuple[str, ...]) -> None:
    page = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "400"}).output
    description = page.split("Usage:")[1].split("\u256d")[0].splitlines()[1:]  # up to the first box
    assert all(line.rstrip().endswith((".", ")", ":")) for line in description if line.strip()), page


def test_help_lists_the_registered_formats_and_engines() -> None:
    import kg.exporters  # noqa: F401  (registers the built-in exporters)
    from kg.registry import exporters
    from kg.registry import engines

    from kg.cli import main

    assert sorted(main.FORMATS.split(", ")) == sorted(exporters.get_all())
    assert sorted(main.ENGINE_NAMES.split(", ")) == sorted(engines.get_all())
    page = " ".join(re.sub(r"[│╭╮╰╯─]", " ", runner.invoke(app, ["build", "--help"]).output).split())
    assert f"from: {main.FORMATS}." in page and f"runs: {main.ENGINE_NAMES}." in page


def test_help_lists_the_registered_extraction_names() -> None:
    import subprocess
    import sys

    from kg.cli.help import EXTRACTION_NAMES

    built_in = subprocess.run([sys.executable, "-c", "from kg.extractors import choices; print(choices())"],
                              capture_output=True, text=True, check=True).stdout.strip()  # no test's plug-ins
    assert EXTRACTION_NAMES == built_in
    for command in ("build", "eval"):
        page = " ".join(re.sub(r"[│╭╮╰╯─]", " ", runner.invoke(app, [command, "--help"]).output).split())
        assert EXTRACTION_NAMES in page, command


@pytest.mark.parametrize("command", [(), *command_paths()], ids=lambda c: " ".join(c) or "kg")
def test_arguments_are_named_in_upper_case(command: tuple[str, ...]) -> None:
    import typer.main

    click_command = typer.main.get_command(app)
    for name in command:
        click_command = click_command.commands[name]
    for param in click_command.params:
        metavar = param.metavar or ""
        if param.param_type_name == "argument" or metavar:
            assert metavar and metavar == metavar.upper(), (command, param.name, metavar)


@pytest.mark.parametrize(("arguments", "message"), [
    (["eval", "missing.jsonl"], "missing.jsonl"),
    (["bench", "missing-corpus"], "missing-corpus"),
    (["check", "missing-dir"], "missing-dir is not a directory"),
    (["query", "missing.ttl", "top-datasets"], "missing.ttl"),
])
def test_bad_input_is_one_line_and_exit_1(tmp_path: Path, monkeypatch, arguments: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, arguments)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: ") and message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_bench_without_a_corpus_is_a_usage_error() -> None:
    result = runner.invoke(app, ["bench"])
    assert result.exit_code == 2 and "Missing argument 'CORPUS'" in result.output


def test_an_internal_error_is_one_line_unless_debugging(listing: Path, tmp_path: Path, monkeypatch) -> None:
    import kg.run.build

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(kg.run.build, "run_build", broken)
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == "error: internal error: RuntimeError: boom (set PAPERKG_DEBUG=1 for a traceback)"
    monkeypatch.setenv("PAPERKG_DEBUG", "1")
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path)])
    assert isinstance(result.exception, RuntimeError)


@pytest.mark.parametrize("arguments", [["--help"], ["query", "--help"], ["cache", "info", "--cache-dir", "."]])
def test_light_commands_do_not_import_spacy(arguments: list[str]) -> None:
    import subprocess
    import sys

    script = ("import sys; from kg.cli.main import app\n"
              "try:\n    app(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'spacy', 'networkx', 'rdflib', 'thinc'})\n"
              "print('HEAVY', heavy)")
    done = subprocess.run([sys.executable, "-c", script, *arguments], capture_output=True, text=True, check=True)
    assert "HEAVY []" in done.stdout, done.stdout[-500:]


def test_unknown_extractor_names_the_valid_choices(listing: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path / "out"), "--extractors", "rules,nlp"])
    assert result.exit_code == 2 and "unknown extractor 'nlp'" in result.output and "gazetteer" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
