"""Named SPARQL queries: exact answers on an invented corpus in both engines; errors and output formats."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kg.cli.errors import ErrorHandlingGroup
from kg.cli.query import query_command
from kg.query.checks import refuse_unsafe
from kg.query.sparql import (QueryError, QueryUsageError, bind_params, format_rows, named_queries, parameters, parse_params,
                      resolve_query, run_query)
from tests.query_corpus import CASES, ENGINES, E, P
from tests.support import BASE


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, params, expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_named_query_answers(graph_files, engine: str, name: str, params: dict, expected: list) -> None:
    _, rows = run_query(graph_files["ttl"], resolve_query(name), engine, params)
    assert rows == expected


def test_every_named_query_is_tested_and_documented() -> None:
    queries = named_queries()
    assert len(queries) >= 10 and {case[0] for case in CASES} == set(queries)
    for query in queries.values():
        assert query.text.startswith("# ") and query.description and "PREFIX mlkg:" in query.text
        header = "".join(line for line in query.text.splitlines() if line.startswith("# Parameter"))
        assert all(f"{name}:" in header for name in query.params), (query.name, header)


@pytest.mark.parametrize("suffix", ["nt", "jsonld"])
@pytest.mark.parametrize("engine", ENGINES)
def test_every_graph_format_gives_the_same_answers(graph_files, suffix: str, engine: str) -> None:
    for name in ("top-datasets", "task-metrics", "relation-evidence"):
        text = resolve_query(name)
        assert run_query(graph_files[suffix], text, engine) == run_query(graph_files["ttl"], text, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("query, message", [("SELEC ?x WHERE { ?x ?y ?z }", "bad SPARQL query"),
                                            ("SELECT ?x WHERE { ?x ?y ?z ", "bad SPARQL query"),
                                            ("SELECT ?x WHERE { ?x undeclared:p ?z }", "bad SPARQL query")])
def test_a_bad_query_raises_query_error(graph_files, engine: str, query: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        run_query(graph_files["ttl"], query, engine)


@pytest.mark.parametrize("call, message", [
    (lambda files: run_query(files["ttl"], resolve_query("top-datasets"), params={"nope": ["x"]}), "unknown parameter 'nope'"),
    (lambda files: run_query(files["ttl"].with_name("missing.ttl"), "ASK {}"), "no such graph file"),
    (lambda files: run_query(files["ttl"], "ASK {}", engine="sparqlish"), "unknown engine"),
    (lambda files: resolve_query("no-such-query"), "no query file or named query"),
    (lambda files: resolve_query("dir/missing.rq"), "dir/missing.rq: no such query file"),
    (lambda files: parse_params(["novalue"]), "name=value"),
])
def test_usage_errors_raise_query_error(graph_files, call, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        call(graph_files)


@pytest.mark.parametrize("engine", ENGINES)
def test_ask_and_construct(graph_files, engine: str) -> None:
    prefix = "PREFIX mlkg: <https://w3id.org/paperkg/vocab#> "
    assert run_query(graph_files["ttl"], prefix + "ASK { ?p mlkg:proposes ?e }", engine) == (["ask"], [(True,)])
    columns, rows = run_query(graph_files["ttl"], prefix + "CONSTRUCT { ?p mlkg:proposes ?e } WHERE { ?p mlkg:proposes ?e }", engine)
    assert columns == ["subject", "predicate", "object"]
    assert sorted(rows) == [(P + "q1", BASE + "vocab#proposes", E + "method/alphanet"),
                            (P + "q2", BASE + "vocab#proposes", E + "model/betamodel"),
                            (P + "q3", BASE + "vocab#proposes", E + "dataset/new_set")]


@pytest.mark.parametrize("value, literal", [('a "quoted" \\ value', '"a \\"quoted\\" \\\\ value"'),
                                            ("<https://x.org/a>", "<https://x.org/a>"),
                                            ("mlkg:Task", "mlkg:Task"),
                                            ("dataset:imagenet", '"dataset:imagenet"'),
                                            ("line\nbreak", '"line\\nbreak"')])
def test_parameter_values_are_iris_or_escaped_strings(value: str, literal: str) -> None:
    text = "PREFIX mlkg: <https://w3id.org/paperkg/vocab#>\nSELECT * WHERE { VALUES ?v { \"d\" } }"
    assert parameters(bind_params(text, {"v": [value]})) == {"v": literal}


def test_repeated_parameters_give_several_values() -> None:
    text = bind_params(resolve_query("dataset-tasks"), parse_params(["dataset=A", "dataset=B"]))
    assert parameters(text)["dataset"] == '"a" "b"'


@pytest.mark.parametrize("block, value, literal", [
    ('VALUES ?v { "d" }  # case-insensitive', "Image  Net\t1K", '"image net 1k"'),
    ('VALUES ?v { "d" }', "Image Net", '"Image Net"'),
    ("VALUES ?v { 2020 }", "2021", "2021"),
    ("VALUES ?v { UNDEF }", "2021", "2021"),
    ("VALUES ?v { UNDEF }", "latest", '"latest"'),
    ('VALUES ?v { "d" }  # case-insensitive', "<https://x.org/A>", "<https://x.org/A>"),
])
def test_lookup_values_are_normalised_and_integers_follow_the_default(block: str, value: str, literal: str) -> None:
    assert parameters(bind_params(f"SELECT * WHERE {{ {block}\n}}", {"v": [value]})) == {"v": literal}


def test_an_integer_parameter_refuses_text() -> None:
    with pytest.raises(QueryUsageError, match="'year' takes an integer"):
        bind_params(resolve_query("rising-entities"), {"year": ["last"]})


ROWS = (["name", "count", "missing"], [("Foo, \"bar\"", 3, None), ("é", 10, "x")])


def test_csv_and_json_round_trip() -> None:
    columns, rows = ROWS
    parsed = list(csv.reader(io.StringIO(format_rows(columns, rows, "csv"))))
    assert parsed == [columns, ['Foo, "bar"', "3", ""], ["é", "10", "x"]]
    assert json.loads(format_rows(columns, rows, "json")) == [dict(zip(columns, row)) for row in rows]


def test_table_is_aligned_with_a_row_count() -> None:
    lines = format_rows(*ROWS, "table").splitlines()
    assert lines[0].split() == ["name", "count", "missing"] and set(lines[1]) <= {"-", " "}
    assert lines[0].index("count") == lines[2].index("3") and lines[-1] == "(2 rows)"


@pytest.fixture
def cli() -> typer.Typer:
    """A two-command app holding `query`, as kg/cli/main.py registers it (with its one error path)."""
    app = typer.Typer(cls=ErrorHandlingGroup, add_completion=False)
    app.command("query")(query_command)
    app.command("noop")(lambda: None)
    return app


def test_cli_lists_every_named_query(cli) -> None:
    result = CliRunner().invoke(cli, ["query", "--list"])
    assert result.exit_code == 0 and all(name in result.output for name in named_queries())


def test_cli_runs_a_named_query_with_params_as_json(cli, graph_files) -> None:
    args = ["query", str(graph_files["nt"]), "dataset-models", "--param", "dataset=ShapesSet", "--format", "json"]
    result = CliRunner().invoke(cli, args + ["--engine", "rdflib"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"model": E + "model/betamodel", "label": "BetaModel", "papers": 2}]


def test_cli_runs_a_query_file(cli, graph_files, tmp_path: Path) -> None:
    (tmp_path / "q.rq").write_text("SELECT (COUNT(*) AS ?n) WHERE { ?s a <https://w3id.org/paperkg/vocab#Paper> }")
    result = CliRunner().invoke(cli, ["query", str(graph_files["ttl"]), str(tmp_path / "q.rq"), "-f", "csv"])
    assert result.exit_code == 0 and result.output == "n\n4\n"


@pytest.mark.parametrize("args, code", [(["no-such-query"], 2), (["gone/missing.rq"], 1),
                                        (["top-datasets", "-p", "x=1"], 2), ([], 2)])
def test_cli_errors_are_one_line_without_traceback(cli, graph_files, args: list, code: int) -> None:
    result = CliRunner().invoke(cli, ["query", str(graph_files["ttl"]), *args])
    assert result.exit_code == code and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cli_syntax_error_is_one_error_line_then_the_query_line_and_a_caret(cli, graph_files) -> None:
    result = CliRunner().invoke(cli, ["query", str(graph_files["ttl"]), "PREFIX x: <https://x.org/>\nSELEC ?x {}"])
    reason, line, caret = result.output.splitlines()
    assert result.exit_code == 1 and reason.startswith("error: bad SPARQL query at line 2, column 1: a query starts")
    assert line == "  SELEC ?x {}" and caret == "  ^"


def test_an_unknown_named_query_suggests_the_closest_names(cli, graph_files) -> None:
    result = CliRunner().invoke(cli, ["query", str(graph_files["ttl"]), "top-entitis"])
    assert result.exit_code == 2 and "did you mean top-entities" in result.output


@pytest.mark.parametrize("query", ["INSERT DATA { <https://x.org/a> <https://x.org/b> <https://x.org/c> }",
                                   "PREFIX x: <https://x.org/>\nDELETE WHERE { ?s ?p ?o }", "LOAD <https://x.org/g.ttl>",
                                   "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",
                                   "SELECT * WHERE { \\u0053ERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"])
def test_updates_and_service_are_refused_and_change_nothing(cli, graph_files, query: str) -> None:
    before = {path: path.read_bytes() for path in graph_files.values()}
    result = CliRunner().invoke(cli, ["query", str(graph_files["ttl"]), query])
    assert result.exit_code == 1 and ("update" in result.output or "SERVICE" in result.output)
    assert len(result.output.strip().splitlines()) == 1
    assert {path: path.read_bytes() for path in graph_files.values()} == before


@pytest.mark.parametrize("query, kept", [('SELECT * WHERE { ?s ?p "INSERT SERVICE" }', True),
                                         ("SELECT ?service WHERE { ?service ?p ?o } # SERVICE <x:y>", True),
                                         ("PREFIX service: <x:> SELECT * WHERE { ?s service:p ?o }", True),
                                         ("SELECT * WHERE { service <x:y> { ?s ?p ?o } }", False),
                                         ("WITH <x:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", False)])
def test_the_read_only_check_reads_keywords_not_strings_comments_or_names(query: str, kept: bool) -> None:
    try:
        refuse_unsafe(query)
    except QueryError:
        assert not kept
    else:
        assert kept


@pytest.mark.parametrize("query, where, what", [
    ("SELECT ?x WHERE {\n  ?x ?y ?z . FILTER(?x > ) }", "line 2, column 14", "unexpected 'FILTER'"),
    ("SELECT ?x WHERE { ?x undeclared:p ?z }", "line 1, column 22", "undeclared prefix undeclared:"),
    ("SELECT ?x WHERE { ?x ?y ?z } LIMT 3", "line 1, column 30", "unexpected 'LIMT'"),
    ("SELECT ?x WHERE { ?x rdfs:label ?z", "line 1, column 35", "the query ends too early"),
])
def test_a_syntax_error_says_what_in_words_where_and_points_at_it(graph_files, query: str, where: str, what: str) -> None:
    with pytest.raises(QueryError) as info:
        run_query(graph_files["ttl"], query)
    reason, line, caret = str(info.value).split("\n")
    assert reason.startswith(f"bad SPARQL query at {where}: {what}")
    column = int(where.rsplit(" ", 1)[1])
    assert line == "  " + query.split("\n")[int(where.split()[1].rstrip(",")) - 1] and caret == "  " + " " * (column - 1) + "^"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_common_prefixes_are_predeclared_and_a_query_own_prefix_wins(graph_files, engine: str) -> None:
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?p a mlkg:Paper ; dcterms:identifier ?id }"
    assert run_query(graph_files["ttl"], count, engine)[1] == [(4,)]
    assert run_query(graph_files["ttl"], "PREFIX mlkg: <https://x.org/> " + count, engine)[1] == [(0,)]


def test_a_parameter_value_with_a_predeclared_prefix_is_an_iri() -> None:
    assert bind_params("SELECT * WHERE { VALUES ?kind { <x:y> } }", {"kind": ["mlkg:Model"]}) \
        == "SELECT * WHERE { VALUES ?kind { mlkg:Model } }"


def test_kg_cli_has_the_query_command(graph_files) -> None:
    from kg.cli.main import app

    result = CliRunner().invoke(app, ["query", str(graph_files["jsonld"]), "papers-per-year", "-f", "csv"])
    assert result.exit_code == 0 and result.output == "year,papers,proposing\n2020,1,1\n2021,3,2\n"


def test_a_query_from_the_shell_imports_neither_spacy_nor_rdflib(graph_files) -> None:
    script = ("import sys; from kg.cli.main import app\n"
              "try:\n    app(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'spacy', 'networkx', 'rdflib', 'thinc'})\n"
              "print('HEAVY', heavy)")
    done = subprocess.run([sys.executable, "-c", script, "query", str(graph_files["ttl"]), "papers-per-year", "-f", "csv"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("year,papers,proposing\n2020,1,1\n") and "HEAVY []" in done.stdout, done.stdout
