"""The rows of a CSV file, where a broken row costs only itself: reading resumes on the next line.

Python's csv reader, given a quote that is never closed, reads the rest of the file as one field,
and given a quote that closes on a later line, swallows the records in between. Rows are read
with `strict=True` (a closing quote must be followed by a delimiter or the end of the line), so such
a quote is an error at the row where it opened; that row is reported and reading starts again on
the line after it. A line with stray quotes that still splits into the header's number of fields
on its own is read, with a note. Line numbers are the file's (1 = the header).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class Row:
    """A row that was read (`fields`), or one that could not be (`problem`), at its first line."""

    line: int
    fields: list[str]
    problem: str = ""
    note: str = ""


def csv_rows(text: str, delimiter: str, width: int) -> Iterator[Row]:
    """Every row after the header of `text` (newlines already `\\n`); `width`: the header's field count."""
    lines = text.split("\n")
    base = 0  # index of the first line the current reader sees
    while base < len(lines):
        reader = csv.reader(io.StringIO("\n".join(lines[base:])), delimiter=delimiter, strict=True)
        consumed = 0
        try:
            for fields in reader:
                first, consumed = base + consumed + 1, reader.line_num
                if first == 1:
                    continue  # the header
                if base + consumed - first > 0 and len(fields) != width:
                    yield broken(first, lines[first - 1], delimiter, width,
                                 f"a quoted field runs over {base + consumed - first + 1} lines and the row has "
                                 f"{len(fields)} fields (the header has {width})")
                    base = first
                    break
                yield Row(first, fields)
            else:
                return
        except csv.Error as error:
            first = base + consumed + 1
            yield broken(first, lines[first - 1], delimiter, width, str(error))
            base = first


def broken(line: int, text: str, delimiter: str, width: int, error: str) -> Row:
    """The row starting on a line whose quotes broke the reader: that line alone if it reads as a whole row."""
    if text.count('"') % 2 == 0:
        alone = next(csv.reader([text], delimiter=delimiter), [])
        if len(alone) == width:
            return Row(line, alone, note="stray quotes inside a field; read as one row")
    if text.count('"') % 2:
        reason = "unterminated quote: a quote opened on this line is never closed on it"
    else:
        reason = f"malformed CSV row ({error})"
    return Row(line, [], problem=f"{reason}; the record is skipped and the next line is read as a new record")
