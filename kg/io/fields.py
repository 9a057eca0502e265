"""Read one record's fields defensively: each bad value is repaired or dropped with a reason.

Every reader returns `(value, problem)`: the usable value (or None) and, when the input had to be
changed or dropped, a short phrase for the warning (`"is a list; dropped"`). Strings lose lone
surrogates (replaced with U+FFFD: they cannot be written as UTF-8) and control characters;
metadata is capped so one record's memory stays bounded.
"""
from __future__ import annotations

import math
import re
import unicodedata

from kg.io.jsonline import BigInteger
from kg.text.markup import normalise_whitespace, remove_control_characters
from kg.text.shorten import shorten

MAX_ID_LENGTH = 256
MAX_FIELD_LENGTH = 10_000  # title, venue, url and each author name
MAX_AUTHORS = 1_000
YEARS = range(1000, 10_000)
SURROGATE = re.compile("[\ud800-\udfff]")
INVISIBLE = {"Cc", "Cf", "Cs", "Zs", "Zl", "Zp", "Co", "Cn"}

Read = tuple[object, "str | None"]


def shown(value: object, limit: int = 40) -> str:
    """A short printable rendering of a value for a warning."""
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return shorten(text, limit + 1, strip="")  # at most `limit` characters and the "…"


def kind_of(value: object) -> str:
    """The JSON type name of a value."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, BigInteger):
        return f"a {len(value.lstrip('-')):,}-digit number"
    return {dict: "an object", list: "a list", float: "a number", int: "a number"}.get(type(value), type(value).__name__)


def repair(text: str) -> tuple[str, str | None]:
    """Text with lone surrogates replaced by U+FFFD and control characters removed."""
    repaired = SURROGATE.sub("\ufffd", text)
    problem = "had invalid characters (lone surrogates) replaced with U+FFFD" if repaired != text else None
    return remove_control_characters(repaired), problem


def read_text(value: object, limit: int = MAX_FIELD_LENGTH) -> tuple[str | None, str | None]:
    """A metadata value as one line of text: strings and finite numbers; others are dropped."""
    if value is None:
        return None, None
    if isinstance(value, float) and math.isfinite(value):
        value = repr(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None, f"is {kind_of(value)}; dropped"
    text, problem = repair(value)
    text = normalise_whitespace(text)
    if len(text) > limit:
        return text[:limit], f"is longer than {limit:,} characters; cut"
    return text or None, problem


def read_abstract(value: object) -> tuple[str | None, str | None]:
    """The abstract (a string with some letter or digit), or None and why it is unusable."""
    if value is None:
        return None, "missing abstract"
    if not isinstance(value, str) or isinstance(value, BigInteger):
        return None, f"abstract is not a string ({kind_of(value)})"
    text, problem = repair(value)
    text = text.strip()
    if not text:
        return None, "empty abstract"
    if not any(ch.isalnum() for ch in text):
        return None, "abstract has no letters or digits"
    return text, problem


def read_id(value: object) -> tuple[str | None, str | None]:
    """An explicit paper id: text without control characters or surrounding space, not blank or huge."""
    if value is None or value == "":
        return None, None
    if isinstance(value, bool) or isinstance(value, (float, dict, list)):
        return None, f"is {kind_of(value)}"
    text, problem = repair(str(value))
    text = " ".join(text.split())
    if not any(unicodedata.category(ch) not in INVISIBLE for ch in text):
        return None, "is blank"
    if len(text) > MAX_ID_LENGTH:
        return None, f"is longer than {MAX_ID_LENGTH} characters"
    return text, problem


def read_year(value: object) -> tuple[int | None, str | None]:
    """A year 1000–9999 from an int, an integral float or a four-digit string (any script's digits)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    year = None
    if isinstance(value, BigInteger) or isinstance(value, bool):
        year = None
    elif isinstance(value, int):
        year = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        year = int(value)
    elif isinstance(value, str):
        digits = [unicodedata.digit(ch, None) for ch in value.strip()]
        if len(digits) == 4 and None not in digits:
            year = int("".join(map(str, digits)))
            if not value.strip().isascii() and year in YEARS:
                return year, f"{shown(value)} read as {year}"
    if year is not None and year in YEARS:
        return year, None
    if isinstance(value, (str, int, float)) and not isinstance(value, (bool, BigInteger)):
        return None, f"{shown(value)} is not a year; dropped"
    return None, f"is {kind_of(value)}; dropped"


def read_authors(value: object) -> tuple[tuple[str, ...], list[str]]:
    """Author names from a list or a `;`/`,`-separated string; the problems of dropped entries."""
    if value is None:
        return (), []
    if isinstance(value, str) and not isinstance(value, BigInteger):
        value = value.replace(";", ",").split(",")
    if not isinstance(value, list):
        return (), [f"is {kind_of(value)}; dropped"]
    names, problems = [], []
    for index, item in enumerate(value[:MAX_AUTHORS]):
        name, problem = read_text(item, MAX_FIELD_LENGTH)
        if problem:
            problems.append(f"[{index}] {problem}")
        if name:
            names.append(name)
    if len(value) > MAX_AUTHORS:
        problems.append(f"has more than {MAX_AUTHORS:,} names; the rest dropped")
    return tuple(names), problems
