"""JSONL, JSON and CSV inputs: one record (object or row) per paper, validated field by field into Papers.

A bad field never costs the record: it is repaired or dropped with a warning naming the file,
line and field (kg.io.fields); only a record without a usable abstract is skipped.
JSON: one object per line; a file that is one JSON array (or objects spread over several lines)
is read as a whole, each record located by the line it starts on. CSV: a header row naming the
columns (case-insensitive); the delimiter is the one of `,` `;` tab `|` whose header has an
`abstract` column; a column we read that appears twice is an error naming it. A row broken by its
quotes (never closed, or closed on a later line) is skipped with its line and reason, and the rows
after it are read (kg.io.csv_rows).
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Iterator

from kg.io.corpus import Record, Skipped, paper_id
from kg.io.csv_rows import csv_rows
from kg.io.fields import read_abstract, read_authors, read_id, read_text, read_year
from kg.io.jsonline import parse_int, parse_line
from kg.text.iri import web_url
from kg.types import Paper, Source

OPTIONAL_FIELDS = ("id", "title", "year", "venue", "authors", "url")
FIELDS = ("abstract", *OPTIONAL_FIELDS)
DELIMITERS = (",", ";", "\t", "|")
csv.field_size_limit(1 << 27)


def read_jsonl(path: Path, text: str, warnings: list[str] | None = None) -> Iterator[Record]:
    """One JSON object (or array of objects) per line; else the file read as one JSON document."""
    warnings = [] if warnings is None else warnings
    line_warnings: list[str] = []
    records = list(read_json_lines(path, text, line_warnings))
    if not any(isinstance(r, Paper) for r in records) and text.lstrip().startswith(("[", "{")):
        whole_warnings: list[str] = []
        whole = list(read_json_values(path, text, whole_warnings))
        if any(isinstance(r, Paper) for r in whole):
            warnings.append(f"{path.name}:1: not JSON Lines (a record spans several lines); read as one JSON document")
            records, line_warnings = whole, whole_warnings
    warnings.extend(line_warnings)
    yield from records


def read_json_lines(path: Path, text: str, warnings: list[str]) -> Iterator[Record]:
    """JSON Lines: each non-blank line one object (or one array of objects)."""
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.lstrip("\ufeff")  # a byte order mark where files were concatenated
        if not line.strip():
            continue
        try:
            parsed = parse_line(line)
        except ValueError as error:
            yield Skipped(path.name, number, f"malformed JSON ({getattr(error, 'msg', error)})")
            continue
        for key in parsed.dropped:
            warnings.append(f"{path.name}:{number}: {key} is nested too deeply; dropped")
        values = parsed.value
        if isinstance(values, list) and values and all(isinstance(v, dict) for v in values):
            for value in values:
                yield json_record(value, path.name, number, warnings)
        else:
            yield json_record(values, path.name, number, warnings)


def read_json_values(path: Path, text: str, warnings: list[str]) -> Iterator[Record]:
    """A JSON array of objects, or JSON values one after another (commas between them tolerated)."""
    decoder = json.JSONDecoder(parse_int=parse_int)
    position = skip_space(text, 0)
    if text.startswith("[", position):
        position = skip_space(text, position + 1)
    while position < len(text) and not text.startswith("]", position):
        line = text.count("\n", 0, position) + 1
        try:
            value, position = decoder.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            yield Skipped(path.name, line, f"malformed JSON ({getattr(error, 'msg', 'nested too deeply')}); "
                                            "the rest of the file is not read")
            return
        yield json_record(value, path.name, line, warnings)
        position = skip_space(text, position)
        if text.startswith(",", position):
            position = skip_space(text, position + 1)


def skip_space(text: str, position: int) -> int:
    """The index of the next non-whitespace character."""
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def json_record(value: object, file: str, line: int, warnings: list[str]) -> Record:
    """A parsed JSON value as a paper (it must be an object)."""
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else type(value).__name__
        return Skipped(file, line, f"not a JSON object ({kind})")
    return record_to_paper(value, file, line, warnings)


def read_csv(path: Path, text: str, warnings: list[str] | None = None) -> Iterator[Record]:
    """A CSV with a header row naming `abstract` and optional metadata columns."""
    warnings = [] if warnings is None else warnings
    layout = csv_layout(text)
    if isinstance(layout, str):
        yield Skipped(path.name, 1, layout)
        return
    delimiter, columns, header = layout
    if delimiter != ",":
        warnings.append(f"{path.name}:1: columns separated by {'tab' if delimiter == chr(9) else repr(delimiter)}")
    for row in csv_rows(text, delimiter, len(header)):
        line, fields = row.line, row.fields
        if row.problem:
            yield Skipped(path.name, line, row.problem)
            continue
        if row.note:
            warnings.append(f"{path.name}:{line}: {row.note}")
        if not fields:
            continue
        if len(fields) > len(header) and any(value.strip() for value in fields[len(header):]):
            if columns.get("abstract") != len(header) - 1:
                yield Skipped(path.name, line, f"malformed CSV row ({len(fields)} fields, the header has {len(header)})")
                continue
            warnings.append(f"{path.name}:{line}: abstract (the last column) holds unquoted {delimiter!r}; "
                            "the extra fields are joined back into it")
            fields = fields[:len(header) - 1] + [delimiter.join(fields[len(header) - 1:])]
        record = {name: fields[index] for name, index in columns.items() if index < len(fields)}
        yield record_to_paper(record, path.name, line, warnings)


def csv_layout(text: str) -> tuple[str, dict[str, int], list[str]] | str:
    """The delimiter, {field: column index} and the header row, or why the header is unusable."""
    if not text.strip():
        return "empty file"
    headers = {}
    for delimiter in DELIMITERS:
        try:
            headers[delimiter] = next(csv.reader(io.StringIO(text), delimiter=delimiter), [])
        except csv.Error:
            continue
    found = [d for d, names in headers.items() if "abstract" in (n.strip().lower() for n in names)]
    if not found:
        header = headers.get(",") or next(iter(headers.values()), [])
        if any(len(name) > 80 or len(name.split()) >= 8 for name in header):
            return "no header row: the first row looks like data (add a header naming the columns, e.g. id,title,abstract)"
        shown = ", ".join(repr(n) for n in header[:12]) or "none"
        return f"no 'abstract' column in the header row (columns: {shown}; delimiters tried: , ; tab |)"
    delimiter = max(found, key=lambda d: (len(headers[d]), d == ","))
    names = [n.strip().lower() for n in headers[delimiter]]
    repeated = [n for n in FIELDS if names.count(n) > 1]
    if repeated:
        where = "; ".join(f"{n!r} in columns {', '.join(str(i + 1) for i, m in enumerate(names) if m == n)}"
                          for n in repeated)
        return f"duplicate column {where}: keep one"
    return delimiter, {n: names.index(n) for n in FIELDS if n in names}, headers[delimiter]


def record_to_paper(record: dict, file: str, line: int, warnings: list[str] | None = None) -> Record:
    """Validate one JSON/CSV record and turn it into a Paper, or say why not (warnings: repaired fields)."""
    warnings = [] if warnings is None else warnings
    abstract, problem = read_abstract(record.get("abstract"))
    if abstract is None:
        return Skipped(file, line, problem or "empty abstract")
    notes = [f"abstract {problem}"] if problem else []
    given, problem = read_id(record.get("id"))
    if problem:
        notes.append(f"id {problem}; the content id {paper_id(abstract)!r} is used" if given is None else f"id {problem}")
    fields = {}
    for name in ("title", "venue", "url"):
        fields[name], problem = read_text(record.get(name))
        notes += [f"{name} {problem}"] if problem else []
    if fields["url"]:
        fields["url"], problem = web_url(fields["url"])
        notes += [f"url {problem}"] if problem else []
    year, problem = read_year(record.get("year"))
    notes += [f"year {problem}"] if problem else []
    authors, problems = read_authors(record.get("authors"))
    notes += [f"authors{'' if p.startswith('[') else ' '}{p}" for p in problems]
    warnings.extend(f"{file}:{line}: {note}" for note in notes)
    return Paper(id=given or paper_id(abstract), abstract=abstract, sources=(Source(file, line),),
                 title=fields["title"], year=year, venue=fields["venue"], authors=authors, url=fields["url"])
