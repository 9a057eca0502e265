"""SPARQL over an exported graph file (pyoxigraph or rdflib) and the named queries shipped with paperkg.

A query is SPARQL text, a `.rq` file, or the name of a file in the package's `ontology/queries`
(its first line is `# description`). Parameters: a query declares each one as a one-variable
`VALUES ?name { default }` block; `params={"name": ["value", ...]}` (CLI: `--param name=value`,
repeatable) replaces that block's values. A value written `<...>`, or `prefix:name` with a prefix
the query declares (`mlkg:Dataset`), is an IRI; anything else is a string literal, so queries
compare parameters with `STR()`/`LCASE()`. The shipped queries keep each parameter's VALUES in a
small group with the lookup it selects, first in the WHERE clause: rdflib has no join optimiser and
applies FILTERs at the end of a group, so this keeps both engines fast.
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

import pyoxigraph as ox
import rdflib

from kg.errors import UserError

Row = tuple[Any, ...]
ENGINES = ("oxigraph", "rdflib")
FORMATS = ("table", "csv", "json")
XSD = "http://www.w3.org/2001/XMLSchema#"
INTEGERS = {XSD + t for t in ("integer", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
                              "negativeInteger", "long", "int", "short", "byte", "unsignedLong",
                              "unsignedInt", "unsignedShort", "unsignedByte")}
DECIMALS = {XSD + t for t in ("decimal", "double", "float")}
RDFLIB_FORMATS = {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld", ".json": "json-ld", ".nq": "nquads",
                  ".trig": "trig", ".rdf": "xml", ".xml": "xml", ".owl": "xml", ".n3": "n3"}
VALUES_BLOCK = r"VALUES\s+\?{name}\s*\{{([^{{}}]*)\}}"
CELL_WIDTH = 80


class QueryError(UserError):
    """A query that cannot run: bad SPARQL, unknown name or parameter, unreadable graph file."""


@dataclass(frozen=True)
class NamedQuery:
    """A query shipped in ontology/queries."""

    name: str
    description: str
    text: str

    @property
    def params(self) -> dict[str, str]:
        """Parameter name -> its default values, as written."""
        return parameters(self.text)


def named_queries() -> dict[str, NamedQuery]:
    """The shipped queries by name (file stem), sorted."""
    folder = files("kg.ontology").joinpath("queries")
    queries = {}
    for item in sorted(folder.iterdir(), key=lambda f: f.name):
        if item.name.endswith(".rq"):
            text = item.read_text(encoding="utf-8")
            first = text.splitlines()[0] if text else ""
            queries[item.name[:-3]] = NamedQuery(item.name[:-3], first.lstrip("# ").strip(), text)
    return queries


def parameters(text: str) -> dict[str, str]:
    """The one-variable VALUES blocks of a query: name -> default values."""
    found = re.finditer(r"VALUES\s+\?(\w+)\s*\{([^{}]*)\}", text, flags=re.IGNORECASE)
    return {match[1]: " ".join(match[2].split()) for match in found}


def resolve_query(spec: str) -> str:
    """The SPARQL text of a file path, a named query, or the spec itself when it is a query."""
    try:
        if "\n" not in spec and Path(spec).is_file():
            return Path(spec).read_text(encoding="utf-8")
    except OSError:  # not a usable path (too long, bad characters): it is query text
        pass
    named = named_queries()
    if spec.removesuffix(".rq") in named:
        return named[spec.removesuffix(".rq")].text
    if spec.endswith(".rq") or re.fullmatch(r"[\w.-]+", spec):
        raise QueryError(f"no query file or named query {spec!r} (named queries: {', '.join(named)})")
    return spec


def bind_params(text: str, params: Mapping[str, Sequence[str]]) -> str:
    """Replace the values of each `VALUES ?name { ... }` block named in `params`."""
    known = parameters(text)
    prefixes = set(re.findall(r"PREFIX\s+([A-Za-z][\w.-]*)?:", text, flags=re.IGNORECASE))
    for name, values in params.items():
        if name not in known:
            raise QueryError(f"unknown parameter {name!r} (this query takes: {', '.join(known) or 'none'})")
        body = " ".join(sparql_value(v, prefixes) for v in values)
        text = re.sub(VALUES_BLOCK.format(name=re.escape(name)), lambda _: f"VALUES ?{name} {{ {body} }}",
                      text, flags=re.IGNORECASE)
    return text


def sparql_value(value: str, prefixes: Collection[str] = ()) -> str:
    """`<iri>` and `prefix:name` (a prefix the query declares) stay IRIs; the rest become strings."""
    prefixed = re.fullmatch(r"([A-Za-z][\w.-]*):[A-Za-z_]\w*", value)
    if re.fullmatch(r"<[^<>\"{}|^`\\\s]*>", value) or (prefixed and prefixed[1] in prefixes):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def parse_params(pairs: Sequence[str]) -> dict[str, list[str]]:
    """`name=value` strings (repeatable) to name -> values."""
    params: dict[str, list[str]] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise QueryError(f"a parameter is written name=value, got {pair!r}")
        params.setdefault(name.strip().lstrip("?$"), []).append(value)
    return params


def run_query(graph_path: str | Path, query_text: str, engine: str = "oxigraph",
              params: Mapping[str, Sequence[str]] | None = None) -> tuple[list[str], list[Row]]:
    """Run SPARQL on an RDF file (format by suffix); SELECT/ASK/CONSTRUCT -> (columns, rows)."""
    if engine not in ENGINES:
        raise QueryError(f"unknown engine {engine!r} (choose from: {', '.join(ENGINES)})")
    text = bind_params(query_text, params or {})
    path = Path(graph_path)
    if not path.is_file():
        raise QueryError(f"{path}: no such graph file")
    return run_oxigraph(path, text) if engine == "oxigraph" else run_rdflib(path, text)


def run_oxigraph(path: Path, text: str) -> tuple[list[str], list[Row]]:
    """Load `path` into an in-memory pyoxigraph store and query it."""
    rdf_format = ox.RdfFormat.from_extension(path.suffix.lstrip(".")) or ox.RdfFormat.TURTLE
    store = ox.Store()
    try:
        store.bulk_load(path=str(path), format=rdf_format)
    except (SyntaxError, ValueError, OSError) as error:
        raise QueryError(f"{path}: cannot load as {rdf_format.name}: {error}") from None
    try:
        result = store.query(text)
    except (SyntaxError, ValueError, OSError) as error:
        raise QueryError(f"bad SPARQL query: {error}") from None
    if isinstance(result, ox.QueryBoolean):
        return ["ask"], [(bool(result),)]
    if isinstance(result, ox.QueryTriples):
        return ["subject", "predicate", "object"], [tuple(map(ox_value, t)) for t in result]
    columns = [v.value for v in result.variables]
    return columns, [tuple(ox_value(solution[c]) for c in columns) for solution in result]


def ox_value(term: Any) -> Any:
    """A pyoxigraph term as a plain Python value (IRI and string -> str, numbers -> int/float)."""
    if term is None:
        return None
    if hasattr(term, "datatype"):
        return literal_value(term.value, term.datatype.value)
    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value


def run_rdflib(path: Path, text: str) -> tuple[list[str], list[Row]]:
    """Parse `path` with rdflib and query it."""
    graph = rdflib.Graph()
    try:
        graph.parse(str(path), format=RDFLIB_FORMATS.get(path.suffix, "turtle"))
    except Exception as error:  # rdflib parsers raise many unrelated types
        raise QueryError(f"{path}: cannot parse: {error}") from None
    try:
        result = graph.query(text)
        rows = list(result)
    except Exception as error:  # pyparsing ParseException and evaluation errors
        raise QueryError(f"bad SPARQL query: {error}") from None
    if result.type == "ASK":
        return ["ask"], [(bool(result.askAnswer),)]
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return ["subject", "predicate", "object"], [tuple(map(rdflib_value, t)) for t in rows]
    columns = [str(v) for v in result.vars]
    return columns, [tuple(rdflib_value(value) for value in row) for row in rows]


def rdflib_value(term: Any) -> Any:
    """An rdflib term as a plain Python value, like `ox_value`."""
    if term is None:
        return None
    if isinstance(term, rdflib.Literal):
        return literal_value(str(term), str(term.datatype) if term.datatype else XSD + "string")
    return f"_:{term}" if isinstance(term, rdflib.BNode) else str(term)


def literal_value(lexical: str, datatype: str) -> Any:
    """Integers and decimals as numbers, booleans as bool, everything else as its lexical form."""
    try:
        if datatype in INTEGERS:
            return int(lexical)
        if datatype in DECIMALS:
            return float(lexical)
    except ValueError:
        return lexical
    return lexical in ("true", "1") if datatype == XSD + "boolean" else lexical


def format_rows(columns: Sequence[str], rows: Sequence[Row], fmt: str = "table") -> str:
    """Rows as an aligned text table, CSV or a JSON list of objects."""
    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([["" if v is None else v for v in row] for row in rows])
        return buffer.getvalue()
    if fmt != "table":
        raise QueryError(f"unknown format {fmt!r} (choose from: {', '.join(FORMATS)})")
    cells = [list(columns)] + [[cell(v) for v in row] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})\n"


def cell(value: Any) -> str:
    """One table cell: on one line, shortened to CELL_WIDTH."""
    text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"
