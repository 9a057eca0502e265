"""Seed listings: an optional header line, then one abstract per blank-line-separated paragraph.

The header rule: the first paragraph is the listing's header (its title, not an abstract) only
when it is a single line of at most MAX_HEADER_LENGTH characters and MAX_HEADER_WORDS words that
does not end like a sentence (`.`, `!`, `?`, possibly followed by a closing quote or bracket), as
in "NeurIPS 2026 Papers". Anything else, including a one-line abstract, is read as an abstract.
Headers are reported in the build summary, so none is dropped silently.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from kg.io.corpus import Header, Record, paper_id
from kg.types import Paper, Source

MAX_HEADER_LENGTH = 200
MAX_HEADER_WORDS = 20
SENTENCE_END = re.compile(r"[.!?。！？][\"'”’)\]]*$")


def is_header(body: str) -> bool:
    """Whether a listing's first paragraph is its header line (see the module docstring)."""
    return ("\n" not in body and len(body) <= MAX_HEADER_LENGTH and len(body.split()) <= MAX_HEADER_WORDS
            and not SENTENCE_END.search(body))


def read_listing(path: Path, text: str, warnings: list[str] | None = None) -> Iterator[Record]:
    """An optional header line, then one abstract per blank-line-separated paragraph."""
    index = 0
    for number, body in paragraphs(text):
        if index == 0 and is_header(body):
            index = -1  # paragraphs are numbered from 1 after the header
            yield Header(path.name, number, body)
            continue
        index = max(index, 0) + 1
        yield Paper(paper_id(body), body, (Source(path.name, index),))


def paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each blank-line-separated paragraph, lines right-stripped."""
    paragraph: list[str] = []
    start = 0
    for number, line in enumerate(text.split("\n") + [""], start=1):
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line.rstrip())
        elif paragraph:
            yield start, "\n".join(paragraph).strip()
            paragraph = []
