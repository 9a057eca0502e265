"""Parse one JSON record without letting one bad value sink it.

`json.loads` fails a whole line on a value nested deeper than Python's recursion limit and on
an integer longer than `sys.get_int_max_str_digits()`; a lone surrogate escape (`"\\ud800"`)
parses but cannot be written as UTF-8 later. Here integers too long to convert stay their digit
string (`BigInteger`), and when an object nests too deeply its top-level fields are parsed one
by one, so only the fields that are too deep are lost (`Parsed.dropped` names them). Surrogates
are repaired by the field readers (kg.io.fields).
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

INT_DIGITS = 4300 if not hasattr(sys, "get_int_max_str_digits") else (sys.get_int_max_str_digits() or 4300)
# a JSON string, or one structural character
TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]', re.DOTALL)


class BigInteger(str):
    """An integer literal too long to convert to int (its digits, as written)."""

    __slots__ = ()


@dataclass
class Parsed:
    """A JSON value, and the top-level keys dropped because their values nest too deeply."""

    value: object
    dropped: list[str] = field(default_factory=list)


def parse_int(digits: str) -> int | BigInteger:
    """An int, or the digits themselves when Python would refuse to convert that many."""
    return BigInteger(digits) if len(digits.lstrip("-")) > INT_DIGITS else int(digits)


def loads(text: str) -> object:
    """`json.loads` with long integers kept as BigInteger."""
    return json.loads(text, parse_int=parse_int)


def parse_line(line: str) -> Parsed:
    """Parse one JSON Lines record; raises json.JSONDecodeError (or ValueError) when it is not JSON."""
    try:
        return Parsed(loads(line))
    except RecursionError:
        pass
    members = top_level_members(line)
    if members is None:
        raise json.JSONDecodeError("nested too deeply", line, 0)
    parsed = Parsed({})
    for key_text, value_text in members:
        key = loads(key_text)
        try:
            parsed.value[key] = loads(value_text)  # type: ignore[index]
        except RecursionError:
            parsed.dropped.append(key)
    return parsed


def top_level_members(text: str) -> list[tuple[str, str]] | None:
    """The (key, value) source texts of a JSON object's members, or None if `text` is not one object."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    depth, members, key, start = 0, [], None, None
    for match in TOKEN.finditer(stripped):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth == 1:
                start = match.end()
        elif token in "]}":
            depth -= 1
            if depth == 0:
                if key is not None:
                    members.append((key, stripped[start:match.start()]))
                return members if not stripped[match.end():].strip() else None
        elif depth == 1 and token == ":":
            key, start = stripped[start:match.start()].strip(), match.end()
        elif depth == 1 and token == ",":
            if key is None:
                return None
            members.append((key, stripped[start:match.start()]))
            key, start = None, match.end()
    return None
