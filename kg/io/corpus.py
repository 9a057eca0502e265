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


@dataclass(frozen=True)
class Header:
    """A listing's header line (its title), not an abstract and not a record."""

    file: str
    line: int
    text: str


@dataclass
class Corpus:
    """Distinct papers in input order, plus what was skipped and warned about."""

    papers: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    records: int = 0
    headers: list[Header] = field(default_factory=list)


Record = Union[Paper, Skipped, Header]


def paper_id(abstract: str) -> str:
    """Content-derived id: the first 12 hex digits of the SHA-1 of the stripped abstract."""
    return hashlib.sha1(abstract.strip().encode("utf-8")).hexdigest()[:12]


def add_record(corpus: Corpus, record: Record, by_text: dict[str, int], by_id: dict[str, int]) -> None:
    """Add a record, merging sources of a repeated abstract; an id reused for another text gets a suffix."""
    if isinstance(record, Header):
        corpus.headers.append(record)
        return
    corpus.records += 1
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
        unique = next(f"{record.id}-{n}" for n in range(2, len(by_id) + 3) if f"{record.id}-{n}" not in by_id)
        corpus.warnings.append(f"{record.sources[0]}: id {record.id!r} is already used for a different abstract "
                               f"at {first}; this paper's id is {unique!r}")
        record = replace(record, id=unique)
    by_text[key] = by_id[record.id] = len(corpus.papers)
    corpus.papers.append(record)
