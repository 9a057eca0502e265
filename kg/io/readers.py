"""Read papers from seed listings, JSONL and CSV files, merging duplicate abstracts.

The public entry point: the record types, the listing reader and the JSONL/CSV readers live in
kg.io.corpus, kg.io.listing and kg.io.records and are re-exported here.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import Iterator

from kg.io.corpus import Corpus, Header, InputError, Record, Skipped, add_record, paper_id
from kg.io.detect import NotText, decode
from kg.io.listing import MAX_HEADER_LENGTH, read_listing
from kg.io.records import OPTIONAL_FIELDS, read_csv, read_jsonl, record_to_paper
from kg.text.markup import remove_control_characters

__all__ = [
    "CSV_SUFFIXES", "JSONL_SUFFIXES", "LISTING_SUFFIXES", "MAX_HEADER_LENGTH", "OPTIONAL_FIELDS", "READERS",
    "SUPPORTED_SUFFIXES", "Corpus", "Header", "InputError", "Record", "Skipped", "add_record",
    "input_files", "paper_id", "read_corpus", "read_csv", "read_file",
    "read_jsonl", "read_listing", "read_text", "record_to_paper",
]

LISTING_SUFFIXES = (".txt",)
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
CSV_SUFFIXES = (".csv",)
SUPPORTED_SUFFIXES = LISTING_SUFFIXES + JSONL_SUFFIXES + CSV_SUFFIXES


def input_files(path: Path) -> list[Path]:
    """The supported files at `path`: the file itself, or a directory's files in sorted order."""
    try:
        if not path.exists():
            raise InputError(f"{path}: no such file or directory")
        if not path.is_dir():
            return [path]
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES and p.is_file())
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
    if not files:
        raise InputError(f"{path}: no supported files (expected {', '.join(SUPPORTED_SUFFIXES)})")
    return files


def read_text(path: Path, warnings: list[str]) -> str:
    """Decode a text file (UTF-8, or UTF-16/32 by BOM; bad bytes replaced with a warning); binary is fatal."""
    if not path.is_file():
        raise InputError(f"{path}: not a regular file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
    try:
        text = decode(data, warnings, path.name)
    except NotText as error:
        raise InputError(f"{path}:1: {error} (expected {', '.join(SUPPORTED_SUFFIXES)} text)") from None
    return remove_control_characters(text.replace("\r\n", "\n").replace("\r", "\n"))


SURROGATE = re.compile("[\ud800-\udfff]")
READERS = {**{s: read_listing for s in LISTING_SUFFIXES}, **{s: read_jsonl for s in JSONL_SUFFIXES},
           **{s: read_csv for s in CSV_SUFFIXES}}


def read_file(path: Path, warnings: list[str]) -> Iterator[Record]:
    """Records of one file, by its suffix."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise InputError(f"{path}: unsupported file type {path.suffix!r} (expected {', '.join(SUPPORTED_SUFFIXES)})")
    text = read_text(path, warnings)
    yield from reader(path.with_name(printable_name(path.name)), text, warnings)


def printable_name(name: str) -> str:
    """A file name that can be written as UTF-8 (undecodable bytes of the name shown as U+FFFD)."""
    return os.fsencode(name).decode("utf-8", "replace") if SURROGATE.search(name) else name


def read_corpus(paths: list[Path]) -> Corpus:
    """Read every input, one Paper per distinct abstract; raise InputError (saying why) if nothing is usable."""
    corpus = Corpus()
    by_text: dict[str, int] = {}
    by_id: dict[str, int] = {}
    for path in paths:
        for file in input_files(path):
            for record in read_file(file, corpus.warnings):
                add_record(corpus, record, by_text, by_id)
    if not corpus.papers:
        where = ", ".join(str(p) for p in paths)
        raise InputError(f"{where}: no papers found ({why_no_papers(corpus)})")
    return corpus


def why_no_papers(corpus: Corpus) -> str:
    """Why a corpus has no papers: the skip reasons counted, the first one located."""
    if len(corpus.skipped) == 1:
        return str(corpus.skipped[0])  # its reason once, not counted and then repeated
    if corpus.skipped:
        reasons = Counter(skipped.reason.split(" (")[0] for skipped in corpus.skipped)
        counted = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common(3))
        more = f", {len(reasons) - 3} other reasons" if len(reasons) > 3 else ""
        return f"{len(corpus.skipped)} records skipped: {counted}{more}; first: {corpus.skipped[0]}"
    if corpus.headers:
        header = corpus.headers[0]
        return (f"the only paragraph, {header.file}:{header.line} {header.text[:60]!r}, reads as the listing's "
                "header line, not an abstract (end it with a full stop to read it as one)")
    return "the input holds no records: empty or blank"
