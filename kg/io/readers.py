"""Read papers from seed listings, JSONL and CSV files, merging duplicate abstracts.

The public entry point: the record types, the listing reader and the JSONL/CSV readers live in
kg.io.corpus, kg.io.listing and kg.io.records and are re-exported here.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from kg.io.corpus import Corpus, InputError, Record, Skipped, add_record, paper_id
from kg.io.listing import MAX_HEADER_LENGTH, read_listing
from kg.io.records import (OPTIONAL_FIELDS, clean_optional, parse_authors, parse_year, read_csv, read_jsonl,
                        record_to_paper)
from kg.text.markup import remove_control_characters

__all__ = [
    "CSV_SUFFIXES", "JSONL_SUFFIXES", "LISTING_SUFFIXES", "MAX_HEADER_LENGTH", "OPTIONAL_FIELDS", "READERS",
    "SUPPORTED_SUFFIXES", "Corpus", "InputError", "Record", "Skipped", "add_record", "clean_optional",
    "input_files", "paper_id", "parse_authors", "parse_year", "read_corpus", "read_csv", "read_file",
    "read_jsonl", "read_listing", "read_text", "record_to_paper",
]

LISTING_SUFFIXES = (".txt",)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
CSV_SUFFIXES = (".csv",)
SUPPORTED_SUFFIXES = LISTING_SUFFIXES + JSONL_SUFFIXES + CSV_SUFFIXES


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
