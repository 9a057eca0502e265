"""SPARQL over an exported graph (its on-disk Oxigraph store, or rdflib) and the named queries shipped with paperkg.

A query is SPARQL text, a `.rq` file, or the name of a file in the package's `ontology/queries`
(its first line is `# description`). Parameters: a query declares each one as a one-variable
`VALUES ?name { default }` block; `params={"name": ["value", ...]}` (CLI: `--param name=value`,
repeatable) replaces that block's values. A value written `<...>`, or `prefix:name` with a prefix
the query declares (`mlkg:Dataset`), is an IRI; where the default is an integer (or UNDEF) an
integer value is an integer; anything else is a string literal. A block followed on its line by
the comment `# case-insensitive` is a lookup key: its string values are lower-cased with their
whitespace runs made single spaces, the form the export keeps as `skos:hiddenLabel`, so the shipped
queries find a paper or entity by any of its names with one index lookup instead of a scan.
Updates and SERVICE clauses are refused before anything runs (`kg.query.checks`).
"""
from __future__ import annotations

import csv
import difflib
import io
import json
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Sequence

import pyoxigraph as ox

from kg.query.checks import PREFIXES, QueryError, QuerySyntaxError, QueryUsageError, refuse_unsafe, syntax_message
from kg.text.shorten import shorten

if TYPE_CHECKING:
    from kg.query.pool import QueryLimits

Row = tuple[Any, ...]
ENGINES = ("oxigraph", "rdflib")
FORMATS = ("table", "csv", "json")
XSD = "http://www.w3.org/2001/XMLSchema#"
INTEGERS = {XSD + t for t in ("integer", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
                              "negativeInteger", "long", "int", "short", "byte", "unsignedLong",
                              "unsignedInt", "unsignedShort", "unsignedByte")}
DECIMALS = {XSD + t for t in ("decimal", "double", "float")}
RDFLIB_FORMATS = {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld"}
VALUES_BLOCK = r"VALUES\s+\?{name}\s*\{{([^{{}}]*)\}}"
LOOKUP_MARK = r"[ \t]*#[^\n]*\bcase-insensitive\b"
CELL_WIDTH = 80


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
    """The SPARQL text of a file path, a named query, or the spec itself when it is a query.

    A missing or unreadable `.rq` file is bad input (QueryError); an unknown name is a usage error
    that names the closest named queries.
    """
    try:
        if "\n" not in spec and Path(spec).is_file():
            return Path(spec).read_text(encoding="utf-8")
    except PermissionError as error:
        raise QueryError(f"{spec}: cannot read ({error.strerror})") from None
    except OSError:  # not a usable path (too long, bad characters): it is query text
        pass
    except UnicodeDecodeError as error:
        raise QueryError(f"{spec}: not a UTF-8 text file ({error.reason} at byte {error.start})") from None
    named = named_queries()
    if spec.removesuffix(".rq") in named:
        return named[spec.removesuffix(".rq")].text
    if spec.endswith(".rq") and "/" in spec:
        raise QueryError(f"{spec}: no such query file")
    if spec.endswith(".rq") or re.fullmatch(r"[\w.-]+", spec):
        close = difflib.get_close_matches(spec.removesuffix(".rq"), list(named), n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise QueryUsageError(f"no query file or named query {spec!r} ({hint}named queries: {', '.join(named)})")
    return spec


def bind_params(text: str, params: Mapping[str, Sequence[str]]) -> str:
    """Replace the values of each `VALUES ?name { ... }` block named in `params`."""
    known = parameters(text)
    prefixes = set(re.findall(r"PREFIX\s+([A-Za-z][\w.-]*)?:", text, flags=re.IGNORECASE)) | set(PREFIXES)
    for name, values in params.items():
        if name not in known:
            raise QueryUsageError(f"unknown parameter {name!r} (this query takes: {', '.join(known) or 'none'})")
        block = VALUES_BLOCK.format(name=re.escape(name))
        lookup = re.search(block + LOOKUP_MARK, text, flags=re.IGNORECASE) is not None
        defaults = known[name].upper().split()
        numeric = "integer" if any(re.fullmatch(r"[+-]?\d+", d) for d in defaults) else "undef"
        numeric = numeric if all(re.fullmatch(r"[+-]?\d+|UNDEF", d) for d in defaults) else ""
        body = " ".join(sparql_value(v, prefixes, lookup, numeric, name) for v in values)
        text = re.sub(block, lambda _: f"VALUES ?{name} {{ {body} }}", text, flags=re.IGNORECASE)
    return text


def sparql_value(value: str, prefixes: Collection[str] = (), lookup: bool = False, numeric: str = "",
                 name: str = "value") -> str:
    """`<iri>` and `prefix:name` (a prefix the query declares, or a predeclared one) stay IRIs; integers where the
    default is one
    (`numeric="integer"`) or UNDEF (`"undef"`: if the value is one); the rest strings (lower-cased if `lookup`)."""
    prefixed = re.fullmatch(r"([A-Za-z][\w.-]*):[A-Za-z_]\w*", value)
    if re.fullmatch(r"<[^<>\"{}|^`\\\s]*>", value) or (prefixed and prefixed[1] in prefixes):
        return value
    if numeric and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return str(int(value))
    if numeric == "integer":
        raise QueryUsageError(f"parameter {name!r} takes an integer, got {value!r}")
    if lookup:
        value = " ".join(value.split()).lower()
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def parse_params(pairs: Sequence[str]) -> dict[str, list[str]]:
    """`name=value` strings (repeatable) to name -> values."""
    params: dict[str, list[str]] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise QueryUsageError(f"a parameter is written name=value, got {pair!r}")
        params.setdefault(name.strip().lstrip("?$"), []).append(value)
    return params


def run_query(graph_path: str | Path, query_text: str, engine: str = "oxigraph",
              params: Mapping[str, Sequence[str]] | None = None, store_dir: Path | None = None,
              on_build: Callable[[Path], None] | None = None,
              limits: "QueryLimits | None" = None) -> tuple[list[str], list[Row]]:
    """Run SPARQL on an RDF export (format by suffix); SELECT/ASK/CONSTRUCT -> (columns, rows).

    oxigraph answers from the export's on-disk store (`kg.query.store`, built on first use, then
    opened read-only): in this process, or with `limits` in a worker process that is killed when it
    overruns them (`kg.query.pool`). rdflib parses the file each time, in this process.
    The common prefixes (`PREFIXES`) are predeclared; a query's own PREFIX wins.
    """
    if engine not in ENGINES:
        raise QueryUsageError(f"unknown engine {engine!r} (choose from: {', '.join(ENGINES)})")
    text = bind_params(query_text, params or {})
    refuse_unsafe(text)

    from kg.query.store import StoreError, rdf_format

    path = Path(graph_path)
    try:
        if engine == "rdflib":
            rdf_format(path)
            if not path.is_file():
                raise StoreError(f"{path}: no such graph file")
            return run_rdflib(path, text)
        return run_oxigraph(path, text, store_dir, on_build, limits)
    except StoreError as error:
        raise QueryError(str(error)) from None
    except OSError as error:
        raise QueryError(f"{getattr(error, 'filename', None) or path}: {error.strerror or error}") from None


def run_oxigraph(path: Path, text: str, store_dir: Path | None, on_build: Callable[[Path], None] | None,
                 limits: "QueryLimits | None") -> tuple[list[str], list[Row]]:
    """The export's store answers: in this process, or in a worker process under `limits`."""
    from dataclasses import replace

    from kg.query.pool import WorkerPool
    from kg.query.store import default_store_dir, ensure_store

    pool = WorkerPool(replace(limits, workers=1, reserved=0)) if limits else None  # its process starts while we check
    try:
        execute(ox.Store(), text)  # a syntax error is reported before the store is built
        store = ensure_store(path, store_dir or default_store_dir(), on_build)
        if pool is None:
            return rows_of(execute(ox.Store.read_only(str(store)), text))
        return pool.run({"store": str(store), "query": text, "mode": "rows"})
    finally:
        if pool:
            pool.close()


def execute(store: ox.Store, text: str) -> Any:
    """Run read-only query text (already checked) with the common prefixes predeclared."""
    try:
        return store.query(text, prefixes=PREFIXES)
    except SyntaxError as error:
        raise QuerySyntaxError(syntax_message(error, text)) from None
    except (ValueError, OSError, RuntimeError) as error:
        raise QueryError(f"the query failed: {' '.join(str(error).split())}") from None


def run_store(store: ox.Store, text: str) -> tuple[list[str], list[Row]]:
    """Query a pyoxigraph store (read-only text already checked)."""
    return rows_of(execute(store, text))


def rows_of(result: Any, max_rows: int = 0) -> tuple[list[str], list[Row]]:
    """A pyoxigraph result as (columns, rows of plain values); TooLarge past `max_rows` (0: no cap)."""
    from kg.query.results import capped

    try:
        if isinstance(result, ox.QueryBoolean):
            return ["ask"], [(bool(result),)]
        if isinstance(result, ox.QueryTriples):
            return ["subject", "predicate", "object"], [tuple(map(ox_value, t)) for t in capped(result, max_rows, "triples")]
        columns = [v.value for v in result.variables]
        return columns, [tuple(ox_value(s[c]) for c in columns) for s in capped(result, max_rows, "rows")]
    except (ValueError, OSError, RuntimeError) as error:
        raise QueryError(f"the query failed: {' '.join(str(error).split())}") from None


def ox_value(term: Any) -> Any:
    """A pyoxigraph term as a plain Python value (IRI and string -> str, numbers -> int/float)."""
    if term is None:
        return None
    if hasattr(term, "datatype"):
        return literal_value(term.value, term.datatype.value)
    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value


def run_rdflib(path: Path, text: str) -> tuple[list[str], list[Row]]:
    """Parse `path` with rdflib and query it."""
    import rdflib

    graph = rdflib.Graph()
    try:
        graph.parse(str(path), format=RDFLIB_FORMATS.get(path.suffix, "turtle"))
    except Exception as error:  # rdflib parsers raise many unrelated types
        raise QueryError(f"{path}: cannot parse: {' '.join(str(error).split())}") from None
    try:
        result = graph.query(text, initNs=PREFIXES)
        rows = list(result)
    except Exception as error:  # pyparsing ParseException and evaluation errors
        raise QueryError(f"bad SPARQL query: {' '.join(str(error).split())}") from None
    if result.type == "ASK":
        return ["ask"], [(bool(result.askAnswer),)]
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return ["subject", "predicate", "object"], [tuple(map(rdflib_value, t)) for t in rows]
    columns = [str(v) for v in result.vars]
    return columns, [tuple(rdflib_value(value) for value in row) for row in rows]


def rdflib_value(term: Any) -> Any:
    """An rdflib term as a plain Python value, like `ox_value`."""
    import rdflib

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
        raise QueryUsageError(f"unknown format {fmt!r} (choose from: {', '.join(FORMATS)})")
    cells = [list(columns)] + [[cell(v) for v in row] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})\n"


def cell(value: Any) -> str:
    """One table cell: on one line, shortened to CELL_WIDTH."""
    text = "" if value is None else " ".join(str(value).split())
    return shorten(text, CELL_WIDTH, strip="")
