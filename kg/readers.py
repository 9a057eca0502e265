"""Read papers from seed listings, JSONL and CSV files, merging duplicate abstracts."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Union

from kg.text import normalise_whitespace, remove_control_characters
from kg.types import Paper, Source

log = logging.getLogger(__name__)

LISTING_SUFFIXES = (".txt",)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
CSV_SUFFIXES = (".csv",)
SUPPORTED_SUFFIXES = LISTING_SUFFIXES + JSONL_SUFFIXES + CSV_SUFFIXES
OPTIONAL_FIELDS = ("id", "title", "year", "venue", "authors", "url")
MAX_HEADER_LENGTH = 200
csv.field_size_limit(1 << 27)


class InputError(Exception):
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


def input_files(path: Path) -> list[Path]:
    """The supported files at `path`: the file itself, or a directory's files in sorted order."""
    if not path.exists():
        raise InputError(f"{path}: no such file or directory")
    if path.is_file():
        return [path]
    files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES)
    if not files:
        raise InputError(f"{path}: no supported files (expected {', '.join(SUPPORTED_SUFFIXES)})")
    return files


def read_text(path: Path, warnings: list[str]) -> str:
    """Decode a file as UTF-8 (BOM tolerated, invalid bytes replaced with a warning)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}:1: binary file, not text (expected UTF-8 {', '.join(SUPPORTED_SUFFIXES)})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        warnings.append(f"{path}:{line}: invalid UTF-8, undecodable bytes replaced with U+FFFD")
        text = data.decode("utf-8-sig", errors="replace")
    return remove_control_characters(text.replace("\r\n", "\n").replace("\r", "\n"))


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


def read_jsonl(path: Path, text: str) -> Iterator[Record]:
    """One JSON object per line with `abstract` and optional metadata."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            yield Skipped(path.name, number, f"malformed JSON ({error.msg})")
            continue
        if not isinstance(record, dict):
            yield Skipped(path.name, number, "not a JSON object")
            continue
        yield record_to_paper(record, path.name, number)


def read_csv(path: Path, text: str) -> Iterator[Record]:
    """A CSV with a header row naming `abstract` and optional metadata columns."""
    reader = csv.DictReader(io.StringIO(text))
    try:
        fields = reader.fieldnames or []
    except csv.Error as error:
        yield Skipped(path.name, 1, f"malformed CSV header ({error})")
        return
    columns = {name.strip().lower(): name for name in fields if name}
    if "abstract" not in columns:
        yield Skipped(path.name, 1, f"no 'abstract' column (columns: {', '.join(fields) or 'none'})")
        return
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield Skipped(path.name, reader.line_num, f"malformed CSV ({error})")
            return
        if None in row:
            yield Skipped(path.name, reader.line_num, "malformed CSV row (more fields than the header)")
            continue
        record = {key: row[name] for key, name in columns.items()}
        yield record_to_paper(record, path.name, reader.line_num)


def record_to_paper(record: dict, file: str, line: int) -> Record:
    """Validate one JSON/CSV record and turn it into a Paper, or say why not."""
    abstract = record.get("abstract")
    if not isinstance(abstract, str):
        reason = "missing abstract" if abstract is None else f"abstract is not a string ({type(abstract).__name__})"
        return Skipped(file, line, reason)
    abstract = remove_control_characters(abstract).strip()
    if not abstract:
        return Skipped(file, line, "empty abstract")
    given = record.get("id")
    if given is not None and not isinstance(given, (str, int)):
        return Skipped(file, line, f"id is not a string ({type(given).__name__})")
    return Paper(
        id=str(given).strip() if given not in (None, "") else paper_id(abstract),
        abstract=abstract,
        sources=(Source(file, line),),
        title=clean_optional(record.get("title")),
        year=parse_year(record.get("year")),
        venue=clean_optional(record.get("venue")),
        authors=parse_authors(record.get("authors")),
        url=clean_optional(record.get("url")),
    )


def clean_optional(value: object) -> str | None:
    """A metadata string with whitespace normalised, or None."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = normalise_whitespace(remove_control_characters(str(value)))
    return text or None


def parse_year(value: object) -> int | None:
    """A year given as an int or digit string, else None."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdigit() and len(text) == 4 else None


def parse_authors(value: object) -> tuple[str, ...]:
    """Authors from a list or a `;`/`,`-separated string."""
    if isinstance(value, list):
        names = [clean_optional(v) for v in value]
    elif isinstance(value, str):
        names = [clean_optional(v) for v in value.replace(";", ",").split(",")]
    else:
        names = []
    return tuple(n for n in names if n)


READERS = {**{s: read_listing for s in LISTING_SUFFIXES}, **{s: read_jsonl for s in JSONL_SUFFIXES},
           **{s: read_csv for s in CSV_SUFFIXES}}


def read_file(path: Path, warnings: list[str]) -> Iterator[Record]:
    """Records of one file, by its suffix."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise InputError(f"{path}: unsupported file type {path.suffix!r} (expected {', '.join(SUPPORTED_SUFFIXES)})")
    yield from reader(path, read_text(path, warnings))


def read_corpus(paths: list[Path]) -> Corpus:
    """Read every input, one Paper per distinct abstract; raise InputError if nothing is usable."""
    corpus = Corpus()
    by_text: dict[str, int] = {}
    by_id: dict[str, int] = {}
    for path in paths:
        for file in input_files(path):
            for record in read_file(file, corpus.warnings):
                corpus.records += 1
                add_record(corpus, record, by_text, by_id)
    if not corpus.papers:
        where = ", ".join(str(p) for p in paths)
        raise InputError(f"{where}: no papers found ({len(corpus.skipped)} records skipped)")
    return corpus


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
