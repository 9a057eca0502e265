"""What a query may do, checked before it runs: read-only, local, and its syntax errors said in one line.

`refuse_unsafe` rejects SPARQL updates (kg query and kg serve only read) and federated `SERVICE`
clauses (the engine would send a request to that endpoint: paperkg makes no network request). The
check reads the query's keywords with its comments, strings and IRIs blanked out, after undoing
`\\u` escapes (which SPARQL applies before parsing), so neither a keyword inside a string nor an
escaped keyword changes the verdict.
"""
from __future__ import annotations

import re

from kg.errors import UsageError, UserError
from kg.text.shorten import shorten

PREFIXES = {"dcterms": "http://purl.org/dc/terms/", "itsrdf": "http://www.w3.org/2005/11/its/rdf#",
            "mlkg": "https://w3id.org/paperkg/vocab#",
            "nif": "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#",
            "prov": "http://www.w3.org/ns/prov#", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
            "rdfs": "http://www.w3.org/2000/01/rdf-schema#", "schema": "https://schema.org/",
            "skos": "http://www.w3.org/2004/02/skos/core#", "xsd": "http://www.w3.org/2001/XMLSchema#"}
"""Predeclared in every query (a query's own PREFIX wins): the export's prefixes (a test keeps them equal)."""
UPDATE_FORMS = ("INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH")
LEXEMES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
                     r'|"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\\\n]|\\.)*'"
                     r'|<[^<>"{}|^`\\\x00-\x20]*>' r"|#[^\n]*", re.DOTALL)
ESCAPES = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
PROLOGUE = re.compile(r"\s*(?:(?:PREFIX\s+[^\s:]*:|BASE)\s*<>\s*)*", re.IGNORECASE)
SERVICE = re.compile(r"(?<![\w:?$.-])SERVICE(?![\w:.-])", re.IGNORECASE)


class QueryError(UserError):
    """A query that cannot run: bad SPARQL, an update or SERVICE, unreadable graph (CLI exit 1)."""


class QuerySyntaxError(QueryError):
    """Query text the SPARQL parser rejects; the message points at the place (line, column, caret)."""

    pointed = True  # kg.cli.errors keeps the quoted line and the caret


class QueryUsageError(QueryError, UsageError):
    """A query asked for wrongly: unknown named query, parameter, engine or format (CLI exit 2)."""


def code_only(text: str) -> str:
    """The query with `\\u` escapes undone and its strings, IRIs and comments emptied (`""`, `<>`, ``)."""
    text = ESCAPES.sub(lambda m: chr(int(m[1] or m[2], 16)), text)
    return LEXEMES.sub(blank, text)


def blank(match: re.Match) -> str:
    """A string, IRI or comment emptied."""
    first = match[0][0]
    return " " if first == "#" else '""' if first in "\"'" else "<>"


def update_form(text: str) -> str:
    """The update keyword a SPARQL update starts with (INSERT, DELETE, LOAD, ...), or "" for a query."""
    code = code_only(text)
    first = re.match(r"\w+", code[PROLOGUE.match(code).end():])
    return first[0].upper() if first and first[0].upper() in UPDATE_FORMS else ""


def refuse_unsafe(text: str) -> None:
    """Raise QueryError for a SPARQL update or a query with a SERVICE clause."""
    form = update_form(text)
    if form:
        raise QueryError(f"{form} is a SPARQL update: paperkg only reads (SELECT, ASK, CONSTRUCT, DESCRIBE); "
                         "nothing was changed")
    if SERVICE.search(code_only(text)):
        raise QueryError("SERVICE (a federated query) is refused: paperkg queries only the local graph "
                         "and sends no request")


def syntax_message(error: Exception, text: str) -> str:
    """What is wrong in words, the line and column, and that line with a caret under the place.

    Oxigraph reports where its parser gave up, which is mostly the end of the text; the place is
    taken from an undeclared prefix, else from rdflib's parser (which stops at the offending token).
    """
    message = " ".join(str(error).split())
    if "Prefix not found" in message:
        return undeclared_prefix(text) or f"bad SPARQL query: {shorten(message, 160, strip='')}"
    found = re.match(r"error at (\d+):(\d+): (.*)", message)
    place = parser_place(text)
    if place is None:
        if not found:
            return f"bad SPARQL query: {shorten(message, 160, strip='')}"
        offset = sum(len(line) + 1 for line in text.split("\n")[:int(found[1]) - 1]) + int(found[2]) - 1
        place = (offset, f"expected {shorten(re.sub(r'^expected (one of )?', '', found[3]), 120, strip='')}")
    return pointed(text, *place)


def undeclared_prefix(text: str) -> str | None:
    """The message for the first prefixed name whose prefix is neither declared nor predeclared."""
    code = LEXEMES.sub(lambda m: " " * len(m[0]), text)  # strings, IRIs and comments blanked, offsets kept
    declared = set(re.findall(r"PREFIX\s+([A-Za-z][\w.-]*)?:", code, flags=re.IGNORECASE)) | set(PREFIXES)
    for match in re.finditer(r"(?<![\w:?$<>\"'.-])([A-Za-z][\w.-]*)?:[\w.-]*", code):
        if (match[1] or "") not in declared and not re.search(r"PREFIX\s*$", code[:match.start()], re.I):
            name = match[1] or ""
            return pointed(text, match.start(), f"undeclared prefix {name}: (declare it with PREFIX {name}: <...>; "
                                                 f"predeclared: {', '.join(sorted(PREFIXES))})")
    return None


def parser_place(text: str) -> tuple[int, str] | None:
    """(offset, what is wrong) by rdflib's SPARQL parser, or None when it accepts the text."""
    try:
        from pyparsing import ParseException
        from rdflib.plugins.sparql.parser import parseQuery
    except ImportError:  # pragma: no cover  (rdflib is a dependency)
        return None
    try:
        parseQuery(text)
    except ParseException as error:
        offset = error.loc
        rest = text[offset:].strip()
        word = (re.match(r"[\w?$:.-]+|\S", rest) or [""])[0][:30]
        if not rest:
            return offset, "the query ends too early (a closing } or ) or a quote may be missing)"
        if not text[:offset].strip() or re.fullmatch(r"(?is)\s*(?:(?:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*", text[:offset]):
            return offset, f"a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, not {word!r}"
        return offset, f"unexpected {word!r} here"
    except Exception:  # noqa: BLE001  (rdflib's parser raises assorted errors on odd input; fall back)
        return None
    return None


def pointed(text: str, offset: int, what: str) -> str:
    """`bad SPARQL query at line L, column C: what`, then the line and a caret under column C."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    source = text[start:end if end >= 0 else len(text)].replace("\t", " ")
    column = offset - start + 1
    return f"bad SPARQL query at line {line}, column {column}: {what}\n  {source}\n  {' ' * (column - 1)}^"
