"""One-line errors everywhere: bad gold, a folder that is not a model, unreadable inputs, any terminal encoding."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
GOOD = {"id": "g1", "text": "We propose FooNet.", "entities": [{"name": "FooNet", "type": "model", "role": "proposed"}]}


def one_error_line(result, code: int = 1) -> str:
    """The single error line of a failed command (asserting there is exactly one and the exit code)."""
    assert result.exit_code == code, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read the gold file"),
    (b"", "no gold records (the file is empty)"),
    (b"{not json\n", "gold.jsonl:1: malformed JSON"),
    (b"[1, 2]\n", "gold.jsonl:1: not a JSON object (list)"),
    (json.dumps({"text": "x", "entities": []}).encode(), "'id' is missing"),
    (json.dumps({**GOOD, "entities": "FooNet"}).encode(), "'entities' is not a list"),
    (json.dumps({**GOOD, "entities": [{"name": "FooNet", "type": "thing"}]}).encode(),
     "entities[0] has type 'thing' (choose from: method, model, dataset, task, metric)"),
    (b"%PDF-1.4\n" + b"x" * 50, "binary file (a PDF document)"),
    (json.dumps(GOOD).encode() + b"\n" + b'{"id": "x", "text": "y", "entities": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "gold.jsonl:2: entities is nested too deeply"),
    (b'{"id": "x", "text": "\\ud800", "entities": []}', "'text': abstract has no letters or digits"),
    (b'{"id": ' + b"1" * 5000 + b', "text": "abc", "entities": []}', "'id' is longer than 256 characters"),
])
def test_bad_gold_is_one_line_and_exit_1(tmp_path: Path, content: bytes | None, message: str) -> None:
    gold = tmp_path / "gold.jsonl"
    if content is not None:
        gold.write_bytes(content)
    line = one_error_line(runner.invoke(app, ["eval", str(gold), "--model", "blank"]))
    assert message in line


@pytest.mark.parametrize("make", [lambda d: d.mkdir(), lambda d: (d.mkdir(), (d / "readme.txt").write_text("x")),
                                  lambda d: d.write_bytes(b"\x00" * 8),
                                  lambda d: (d.mkdir(), (d / "config.cfg").write_text("[nlp]\n"), (d / "meta.json").write_text("{"))])
def test_a_model_path_that_is_not_a_pipeline_is_one_line(tmp_path: Path, listing: Path, make) -> None:
    model = tmp_path / "model"
    make(model)
    result = runner.invoke(app, ["build", str(listing), "--out", str(tmp_path / "o"), "--model", str(model)])
    assert f"--model {model}" in one_error_line(result)
    assert not (tmp_path / "o").exists()


def test_an_unreadable_input_is_exit_1_not_a_usage_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    path = tmp_path / "in.jsonl"
    path.write_text("{}")
    path.chmod(0)
    assert "cannot read" in one_error_line(runner.invoke(app, ["build", str(path), "--out", str(tmp_path / "o")]))


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                 {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_output_survives_any_terminal_encoding(tmp_path: Path, env: dict) -> None:
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "é→", "abstract": "We propose 论文Net — naïve → 😀."}) + "\n"
                                       + json.dumps({"id": "bad", "abstract": 5}) + "\n", encoding="utf-8")
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG", "PYTHONUTF8")}
    command = [sys.executable, "-m", "kg", "build", str(tmp_path / "in.jsonl"), "--out", str(tmp_path / "o"),
               "--model", "blank", "--format", "ttl", "--no-cache"]
    result = subprocess.run(command, capture_output=True, env={**clean_env, **env}, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert b"papers: 1 built from 2 records, 1 skipped" in result.stdout and b"Traceback" not in result.stderr
    missing = subprocess.run(command[:4] + ["n\u00f6pe\u2192.jsonl"], capture_output=True, env={**clean_env, **env}, cwd=ROOT)
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1


def test_kg_bench_with_nothing_to_measure_is_a_usage_line(tmp_path: Path, listing: Path) -> None:
    result = runner.invoke(app, ["bench", str(listing), "--no-parse", "--no-serial", "--no-incremental", "--jobs", "1"])
    assert "nothing to measure" in one_error_line(result, code=2)


def test_a_query_file_that_is_not_text_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "q.rq").write_bytes(b"\xff\xfe\x00")
    result = runner.invoke(app, ["query", str(ROOT / "exports" / "graph.ttl"), str(tmp_path / "q.rq")])
    assert "not a UTF-8 text file" in one_error_line(result)


def test_importing_or_running_the_cli_leaves_the_process_as_it_was() -> None:
    """Bug: importing kg.cli.main reconfigured stdout/stderr and patched typer for the whole process."""
    code = ("import sys, typer.core as core\n"
            "state = lambda: (sys.stdout.errors, sys.stderr.errors, core.TyperOption.display_type_rich,"
            " core.TyperArgument.display_type_rich)\n"
            "before = state()\n"
            "import kg.cli.main as cli\n"
            "assert state() == before, 'import'\n"
            "from typer.testing import CliRunner\n"
            "assert 'Usage' in CliRunner().invoke(cli.app, ['build', '--help']).output\n"
            "assert state() == before, 'run'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
