"""What a query may do, checked before it runs: read-only, local, and its syntax errors said in one line.

`refuse_unsafe` rejects SPARQL updates (kg query and kg serve only read) and federated `SERVICE`
clauses (the engine would send a request to that endpoint: paperkg makes no network request). The
check reads the query's keywords with its comments, strings and IRIs blanked out, after undoing
`\\u` escapes (which SPARQL applies before parsing), so neither a keyword inside a string nor an
escaped keyword changes the verdict.
"""
from __future__ import annotations

import re

from kg.errors import UserError
from kg.text.shorten import shorten

UPDATE_FORMS = ("INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH")
LEXEMES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
                     r'|"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\\\n]|\\.)*'"
                     r'|<[^<>"{}|^`\\\x00-\x20]*>' r"|#[^\n]*", re.DOTALL)
ESCAPES = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
PROLOGUE = re.compile(r"\s*(?:(?:PREFIX\s+[^\s:]*:|BASE)\s*<>\s*)*", re.IGNORECASE)
SERVICE = re.compile(r"(?<![\w:?$.-])SERVICE(?![\w:.-])", re.IGNORECASE)


class QueryError(UserError):
    """A query that cannot run: bad SPARQL, an update or SERVICE, unreadable graph (CLI exit 1)."""


class QueryUsageError(QueryError):
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
    """One line: where the parser stopped, what it expected, and the text there."""
    message = " ".join(str(error).split())
    found = re.match(r"error at (\d+):(\d+): (.*)", message)
    if not found:
        return f"bad SPARQL query: {message}"
    line, column, detail = int(found[1]), int(found[2]), found[3]
    if "Prefix not found" in detail:
        detail = "undeclared prefix (add a PREFIX line)"
    else:
        detail = shorten(detail, 160, strip="")
    lines = text.splitlines() or [""]
    near = lines[line - 1][max(column - 1, 0):][:30].strip() if 0 < line <= len(lines) else ""
    return f"bad SPARQL query at line {line}, column {column}: {detail}" + (f' (at "{near}")' if near else "")
