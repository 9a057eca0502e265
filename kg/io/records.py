"""JSONL and CSV inputs: one record (object or row) per paper, validated into Papers."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Iterator

from kg.io.corpus import Record, Skipped, paper_id
from kg.text.markup import normalise_whitespace, remove_control_characters
from kg.types import Paper, Source

OPTIONAL_FIELDS = ("id", "title", "year", "venue", "authors", "url")
csv.field_size_limit(1 << 27)


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
