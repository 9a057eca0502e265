"""What the readers produce: papers or skipped records, collected into a deduplicated Corpus."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Union

from kg.errors import UserError
from kg.text.markup import normalise_whitespace
from kg.types import Paper


class InputError(UserError):
    """A fatal problem with the input; the message names the file (and line)."""


@dataclass(frozen=True)
class Skipped:
    """A record that could not be used, with where it was and why."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class Corpus:
    """Distinct papers in input order, plus what was skipped and warned about."""

    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    records: int = 0


Record = Union[Paper, Skipped]


def paper_id(abstract: str) -> str:
    """Content-derived id: the first 12 hex digits of the SHA-1 of the stripped abstract."""
    return hashlib.sha1(abstract.strip().encode("utf-8")).hexdigest()[:12]


def add_record(corpus: Corpus, record: Record, by_text: dict[str, int], by_id: dict[str, int]) -> None:
    """Add a record, merging sources of a repeated abstract; skip an id reused for another text."""
    if isinstance(record, Skipped):
        corpus.skipped.append(record)
        return
    key = normalise_whitespace(record.abstract)
    if key in by_text:
        index = by_text[key]
        merged = corpus.papers[index]
        corpus.papers[index] = replace(merged, sources=merged.sources + record.sources)
        return
    if record.id in by_id:
        first = corpus.papers[by_id[record.id]].sources[0]
        source = record.sources[0]
        corpus.skipped.append(Skipped(source.file, source.position,
                                      f"id {record.id!r} already used for a different abstract at {first}"))
        return
    by_text[key] = by_id[record.id] = len(corpus.papers)
    corpus.papers.append(record)
