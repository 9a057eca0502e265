"""IRIs (RFC 3987): validate the absolute IRIs the exports mint or copy, and repair web URLs exactly.

`is_iri` checks the RFC 3987 `IRI` production (scheme, authority, path, query, fragment;
percent-escapes well formed; no space, `<>"{}|\\^\\``, control or non-character code points).
`web_url` keeps an http(s) URL, percent-encoding what can be encoded without changing its
meaning (spaces and other characters never allowed in an IRI, a `%` not followed by two hex
digits, a second `#`), and rejects anything else with the reason. `id_segment` makes one path
segment of any identifier: everything but unreserved characters percent-escaped, and `.` / `..`
escaped too, so no IRI collapses under dot-segment removal.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

UCS = ("\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef\U00010000-\U0001fffd\U00020000-\U0002fffd\U00030000-\U0003fffd"
       "\U00040000-\U0004fffd\U00050000-\U0005fffd\U00060000-\U0006fffd\U00070000-\U0007fffd\U00080000-\U0008fffd"
       "\U00090000-\U0009fffd\U000a0000-\U000afffd\U000b0000-\U000bfffd\U000c0000-\U000cfffd\U000d0000-\U000dfffd"
       "\U000e1000-\U000efffd")
PRIVATE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
BIDI = "\u200e\u200f\u202a-\u202e\u2066-\u2069"  # RFC 3987 §4.1: bidi formatting characters are not allowed
UNRESERVED = f"A-Za-z0-9\\-._~{UCS}"
SUB_DELIMS = "!$&'()*+,;="
PCT = "%[0-9A-Fa-f]{2}"
PCHAR = f"(?:[{UNRESERVED}{re.escape(SUB_DELIMS)}:@]|{PCT})"
AUTHORITY = (f"(?:(?:[{UNRESERVED}{re.escape(SUB_DELIMS)}:]|{PCT})*@)?"  # userinfo
             f"(?:\\[[0-9A-Fa-f:.]+\\]|\\[v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~{re.escape(SUB_DELIMS)}:]+\\]"
             f"|(?:[{UNRESERVED}{re.escape(SUB_DELIMS)}]|{PCT})*)"  # host
             "(?::[0-9]*)?")
IRI = re.compile(
    f"[A-Za-z][A-Za-z0-9+\\-.]*:"
    f"(?://{AUTHORITY}(?:/{PCHAR}*)*|/?(?:{PCHAR}+(?:/{PCHAR}*)*)?)"
    f"(?:\\?(?:{PCHAR}|[{PRIVATE}/?])*)?"
    f"(?:#(?:{PCHAR}|[/?])*)?"
)
NEVER_ALLOWED = re.compile(f"[^{UNRESERVED}{re.escape(SUB_DELIMS)}:/?#\\[\\]@%{PRIVATE}]|%(?![0-9A-Fa-f]{{2}})")
NOT_IN_PATH = re.compile(f"[^{UNRESERVED}{re.escape(SUB_DELIMS)}:/?#@%]|[{BIDI}]|%(?![0-9A-Fa-f]{{2}})")
WEB = re.compile(r"https?://[^/?#]+", re.IGNORECASE)
BIDI_CHARACTER = re.compile(f"[{BIDI}]")
MAX_URL_LENGTH = 8_000


def is_iri(text: str) -> bool:
    """Whether `text` is an absolute IRI (RFC 3987, with an optional fragment; no bidi formatting characters)."""
    return IRI.fullmatch(text) is not None and not BIDI_CHARACTER.search(text)


def base_iri_problem(text: str) -> str | None:
    """Why `text` cannot be the instance base IRI of an export, or None if it can."""
    if not text:
        return "it is empty"
    if not is_iri(text):
        bad = NEVER_ALLOWED.search(text) or BIDI_CHARACTER.search(text)
        if bad and bad.group() == "%":
            return f"its '%' at position {bad.start() + 1} does not start a percent-escape (%XX)"
        if bad:
            return f"it contains {bad.group()!r} at position {bad.start() + 1}, which an IRI cannot contain"
        return "it is not an absolute IRI (RFC 3987), e.g. https://example.org/kg/"
    return None


def web_url(text: str) -> tuple[str | None, str | None]:
    """An http(s) URL as a valid IRI (exact percent-encoding applied), or None and why not."""
    url = text.strip()
    if not WEB.match(url):
        return None, "is not an http(s) URL; dropped"
    if len(url) > MAX_URL_LENGTH:
        return None, f"is longer than {MAX_URL_LENGTH:,} characters; dropped"
    repaired = encode_invalid(url)
    if not is_iri(repaired):
        return None, "is not a valid IRI (RFC 3987); dropped"
    return repaired, (None if repaired == url else "had characters an IRI cannot contain; percent-encoded")


def encode_invalid(url: str) -> str:
    """Percent-encode, after the authority, what no IRI path, query or fragment may hold, and a second `#`."""
    authority = WEB.match(url)
    start = authority.end() if authority else 0
    head, hash_mark, fragment = url[start:].partition("#")
    encoded = url[:start] + NOT_IN_PATH.sub(percent, head)
    if hash_mark:
        encoded += "#" + NOT_IN_PATH.sub(percent, fragment).replace("#", "%23")
    return encoded


def percent(match: re.Match) -> str:
    """The UTF-8 percent-encoding of a matched character."""
    return quote(match.group(), safe="")


@lru_cache(maxsize=4096)
def id_segment(text: str) -> str:
    """One IRI path segment for an identifier: percent-escaped, dot segments escaped, never empty."""
    segment = quote(text, safe="-._~")
    return segment.replace(".", "%2E") if segment in (".", "..") else segment
