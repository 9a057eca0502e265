"""Every command keeps the README's exit-code convention: a bad option value or an unknown option is a usage
error (exit 2, one `error:` line, no usage box); a missing or unreadable input is bad input (exit 1, one line)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from tests.support import command_paths

runner = CliRunner()
# per command: (arguments with one bad option value, what the error names); INPUT is a readable input
BAD_VALUES = {
    ("build",): [(["INPUT", "--format", "ttl,docx"], "unknown exporter 'docx'"), (["INPUT", "--jobs", "0"], "--jobs"),
                 (["INPUT", "--view", "authors", "--format", "graphml"], "unknown view 'authors'"),
                 (["INPUT", "--extractors", "rules,nlp"], "unknown extractor 'nlp'"),
                 (["INPUT", "--engine", "spark"], "unknown engine 'spark'"), (["INPUT", "--base-iri", "x"], "--base-iri")],
    ("bench",): [(["INPUT", "--runs", "0"], "--runs")],
    ("cache",): [(["empty"], "No such command 'empty'")],
    ("cache", "clear"): [(["--older-than", "-1"], "--older-than")],
    ("cache", "info"): [(["--cache-dir"], "--cache-dir")],
    ("check",): [(["INPUT", "--browser=yes"], "--browser")],
    ("eval",): [(["INPUT", "--cv", "1"], "--cv needs at least 2 folds"), (["INPUT", "--extractors", "nlp"], "unknown extractor")],
    ("lint",): [(["INPUT", "--top", "0"], "--top")],
    ("query",): [(["INPUT", "ASK {}", "--format", "xml"], "--format"), (["INPUT", "ASK {}", "--engine", "jena"], "--engine"),
                 (["INPUT", "ASK {}", "--timeout", "0"], "--timeout"), (["INPUT", "top-entitis"], "did you mean top-entities"),
                 (["INPUT", "top-datasets", "-p", "novalue"], "name=value")],
    ("serve",): [(["INPUT", "--port", "70000"], "--port"), (["INPUT", "--workers", "0"], "--workers")],
    ("train",): [(["INPUT", "--recent-weight", "heavy"], "--recent-weight")],
}
INPUT_KIND = {("check",): "folder", ("lint",): "graphml", ("query",): "ttl", ("serve",): "ttl"}
INPUTLESS = {("cache",), ("cache", "clear"), ("cache", "info")}


def one_line(output: str) -> str:
    """The single non-blank line of `output` (asserting there is one, starting `error:`)."""
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in output, output
    return lines[0]


def make_input(command: tuple[str, ...], folder: Path) -> Path:
    """A readable input of the kind the command takes."""
    kind = INPUT_KIND.get(command, "jsonl")
    if kind == "folder":
        (folder / "exports").mkdir()
        return folder / "exports"
    path = folder / f"input.{kind}"
    path.write_text({"jsonl": '{"id": "a", "text": "We use ImageNet.", "abstract": "We use ImageNet.", "entities": []}\n',
                     "ttl": "<https://x.org/a> <https://x.org/b> <https://x.org/c> .\n",
                     "graphml": "<graphml/>"}[kind], encoding="utf-8")
    return path


def test_the_table_covers_every_command() -> None:
    assert set(BAD_VALUES) == set(command_paths())


@pytest.mark.parametrize("command", command_paths(), ids=" ".join)
def test_an_unknown_option_is_a_one_line_usage_error(command: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*command, "--no-such-option"])
    assert result.exit_code == 2 and "--no-such-option" in one_line(result.output)


@pytest.mark.parametrize("command, arguments, says", [(c, a, s) for c, cases in BAD_VALUES.items() for a, s in cases],
                         ids=lambda v: " ".join(v) if isinstance(v, (tuple, list)) else "")
def test_a_bad_option_value_is_a_one_line_usage_error(tmp_path: Path, command, arguments, says: str) -> None:
    given = make_input(command, tmp_path)
    result = runner.invoke(app, [*command, *[str(given) if a == "INPUT" else a for a in arguments]])
    assert result.exit_code == 2 and says in one_line(result.output)


@pytest.mark.parametrize("command", [c for c in command_paths() if c not in INPUTLESS], ids=" ".join)
def test_a_missing_input_is_one_line_and_exit_1(tmp_path: Path, command: tuple[str, ...]) -> None:
    missing = tmp_path / ("missing" if INPUT_KIND.get(command) == "folder" else f"missing.{INPUT_KIND.get(command, 'jsonl')}")
    result = runner.invoke(app, [*command, str(missing), *(["ASK {}"] if command == ("query",) else [])])
    assert result.exit_code == 1 and "missing" in one_line(result.output)


def obey_file_modes() -> None:
    """Root reads a chmod 000 file: drop the capabilities that let it (from the bounding set, so exec drops them)."""
    if os.geteuid() == 0:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "cannot drop a capability")


@pytest.mark.parametrize("command", [c for c in command_paths() if c not in INPUTLESS], ids=" ".join)
def test_an_unreadable_input_is_one_error_line_and_exit_1(command: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        given = make_input(command, Path(folder))
        os.chmod(given, 0)
        env = {**os.environ, "PAPERKG_CACHE_DIR": f"{folder}/cache", "PAPERKG_STORE_DIR": f"{folder}/stores",
               "HOME": folder}
        result = subprocess.run([sys.executable, "-m", "kg", *command, str(given), *(["ASK {}"] if command == ("query",) else []),
                                 *(["--model", "blank"] if command in (("build",), ("eval",), ("train",), ("bench",)) else [])],
                                capture_output=True, text=True, timeout=300, env=env, preexec_fn=obey_file_modes)
        assert result.returncode == 1 and str(given) in one_line(result.stderr), result.stderr
