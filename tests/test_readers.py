"""Reading listings, JSONL and CSV: formats, duplicates and bad input."""
import json
from pathlib import Path

import pytest

from kg.io.readers import InputError, paper_id, read_corpus

ABSTRACT_A = "We propose FooNet for image classification."
ABSTRACT_B = "We study uncertainty quantification in LLMs."


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_listing_skips_header_and_keeps_text_exactly(listing: Path) -> None:
    corpus = read_corpus([listing])
    assert len(corpus.papers) == 3
    first = corpus.papers[0]
    assert first.abstract.startswith("We propose \\textbf{FooNet}")
    assert first.id == paper_id(first.abstract)
    assert [str(s) for s in first.sources] == ["listing.txt#1"]


def test_listing_tolerates_crlf_bom_trailing_spaces_and_stray_blank_lines(tmp_path: Path) -> None:
    text = f"\ufeffHeader\r\n\r\n\r\n{ABSTRACT_A}   \r\n  \r\n\r\n\r\n{ABSTRACT_B}\r\n\r\n"
    corpus = read_corpus([write(tmp_path / "x.txt", text)])
    assert [p.abstract for p in corpus.papers] == [ABSTRACT_A, ABSTRACT_B]
    assert corpus.papers[0].id == paper_id(ABSTRACT_A)


def test_duplicate_abstract_across_files_is_one_paper_with_every_source(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", f"H\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    write(tmp_path / "b.txt", f"H\n\n{ABSTRACT_B.replace(' ', '  ')}\n")
    corpus = read_corpus([tmp_path])
    assert len(corpus.papers) == 2
    assert [str(s) for s in corpus.papers[1].sources] == ["a.txt#2", "b.txt#1"]


def test_jsonl_bad_records_are_skipped_with_reasons_and_good_ones_kept(tmp_path: Path) -> None:
    lines = [
        json.dumps({"id": "p1", "title": "T", "abstract": ABSTRACT_A, "year": 2024, "authors": ["X", "Y"]}),
        "{not json",
        json.dumps({"id": "p2"}),
        json.dumps({"id": "p3", "abstract": 42}),
        json.dumps({"id": "p1", "abstract": ABSTRACT_B}),
        json.dumps(["a", "list"]),
        json.dumps({"abstract": ABSTRACT_B}),
    ]
    corpus = read_corpus([write(tmp_path / "c.jsonl", "\n".join(lines))])
    assert [p.id for p in corpus.papers] == ["p1", "p1-2"]  # a reused id gets a suffix; the same text merges
    assert corpus.papers[0].title == "T" and corpus.papers[0].year == 2024
    assert corpus.papers[0].authors == ("X", "Y")
    reasons = {s.line: s.reason for s in corpus.skipped}
    assert set(reasons) == {2, 3, 4, 6}
    assert "malformed JSON" in reasons[2]
    assert reasons[3] == "missing abstract"
    assert "not a string" in reasons[4]
    assert [str(s) for s in corpus.papers[1].sources] == ["c.jsonl#5", "c.jsonl#7"]
    assert any("c.jsonl#5: id 'p1' is already used for a different abstract at c.jsonl#1; this paper's id is 'p1-2'"
               in w for w in corpus.warnings)


def test_csv_with_case_insensitive_columns_and_quoted_newlines(tmp_path: Path) -> None:
    text = f'ID,Title,Abstract\nq1,First,"{ABSTRACT_A}\nsecond line"\nq2,Second,\n'
    corpus = read_corpus([write(tmp_path / "d.csv", text)])
    assert [p.id for p in corpus.papers] == ["q1"]
    assert corpus.papers[0].abstract == f"{ABSTRACT_A}\nsecond line"
    assert [(s.line, s.reason) for s in corpus.skipped] == [(4, "empty abstract")]


def test_invalid_utf8_is_replaced_with_a_warning_and_control_characters_removed(tmp_path: Path) -> None:
    path = write(tmp_path / "e.txt", b"H\n\nBad \xff byte and a \x0bbell.\n")
    corpus = read_corpus([path])
    assert corpus.papers[0].abstract == "Bad \ufffd byte and a bell."
    assert any("e.txt:3: invalid UTF-8" in w for w in corpus.warnings)


def test_very_long_paragraph_is_read(tmp_path: Path) -> None:
    long_text = " ".join(["word"] * 200_000)
    corpus = read_corpus([write(tmp_path / "f.txt", f"H\n\n{long_text}\n")])
    assert len(corpus.papers[0].abstract) == len(long_text)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.txt", None, "no such file"),
        ("bin.txt", b"\x00\x01\x02binary", "binary file"),
        ("empty.jsonl", "", "no papers found"),
        ("nohead.csv", "a,b\n1,2\n", "no papers found"),
        ("data.xlsx", "x", "unsupported file type"),
    ],
)
def test_fatal_input_errors_name_the_file(tmp_path: Path, name: str, content, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        write(path, content)
    with pytest.raises(InputError, match=message) as error:
        read_corpus([path])
    assert name in str(error.value) and "\n" not in str(error.value)
