"""Seed listings: a header line, then one abstract per blank-line-separated paragraph."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from kg.io.corpus import Record, paper_id
from kg.types import Paper, Source

MAX_HEADER_LENGTH = 200


def read_listing(path: Path, text: str) -> Iterator[Record]:
    """A header line, then one abstract per blank-line-separated paragraph."""
    lines = text.split("\n")
    paragraph: list[str] = []
    start = 0
    index = 0
    header_done = False
    for number, line in enumerate(lines + [""], start=1):
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line.rstrip())
            continue
        if not paragraph:
            continue
        body = "\n".join(paragraph).strip()
        paragraph = []
        if not header_done:
            header_done = True
            if start == 1 and "\n" not in body and len(body) <= MAX_HEADER_LENGTH:
                continue  # the listing's header line
        index += 1
        yield Paper(paper_id(body), body, (Source(path.name, index),))
