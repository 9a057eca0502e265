"""Hostile records: one bad field is repaired or dropped with a warning naming file, line and field;
only a record without a usable abstract is skipped, and no record can fail the build."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.io.readers import InputError, paper_id, read_corpus

ABSTRACT = "We propose FooNet for image classification and evaluate it on ImageNet."
GOOD = json.dumps({"id": "good", "abstract": "We study graph neural networks for molecules."})


def read_line(tmp_path: Path, line: str | bytes):
    """The corpus of a JSONL file holding `line` and one good record."""
    data = line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
    path = tmp_path / "in.jsonl"
    path.write_bytes(data + b"\n" + GOOD.encode() + b"\n")
    return read_corpus([path])


def record(**fields: str) -> str:
    """A JSON object text with ABSTRACT and the given raw JSON values."""
    members = {"id": '"p1"', "abstract": json.dumps(ABSTRACT), **fields}
    return "{" + ", ".join(f'"{key}": {value}' for key, value in members.items()) + "}"


@pytest.mark.parametrize(("fields", "field", "expected"), [
    ({"title": '"A \\ud800 title"'}, "title", {"title": "A \ufffd title"}),
    ({"venue": '"\\udfff"'}, "venue", {"venue": "\ufffd"}),
    ({"authors": '["A \\ud800", "B"]'}, "authors", {"authors": ("A \ufffd", "B")}),
    ({"year": '"²⁰²⁶"'}, "year", {"year": 2026}),
    ({"year": '"٢٠٢٦"'}, "year", {"year": 2026}),
    ({"year": "9" * 5000}, "year", {"year": None}),
    ({"year": '"2026abc"'}, "year", {"year": None}),
    ({"year": "true"}, "year", {"year": None}),
    ({"year": "1e400"}, "year", {"year": None}),
    ({"year": "NaN"}, "year", {"year": None}),
    ({"year": "[2026]"}, "year", {"year": None}),
    ({"id": "7" * 5000}, "id", {"id": paper_id(ABSTRACT)}),
    ({"id": '"\\t \\u200b"'}, "id", {"id": paper_id(ABSTRACT)}),
    ({"id": "1.5"}, "id", {"id": paper_id(ABSTRACT)}),
    ({"id": '"a\\u0001b\\nc"'}, None, {"id": "ab c"}),
    ({"title": '{"t": 1}'}, "title", {"title": None}),
    ({"title": "1" * 5000}, None, {"title": "1" * 5000}),
    ({"authors": '{"a": "b"}'}, "authors", {"authors": ()}),
    ({"authors": '[["a"], 3, "B"]'}, "authors", {"authors": ("3", "B")}),
    ({"url": '"javascript:alert(1)"'}, "url", {"url": None}),
    ({"url": '"https://example.org/a#b#c"'}, "url", {"url": "https://example.org/a#b%23c"}),
    ({"url": '"http://x.org/%zz y"'}, "url", {"url": "http://x.org/%25zz%20y"}),
    ({"url": '"http://exa mple.org/"'}, "url", {"url": None}),
    ({"extra": "[" * 100_000 + "]" * 100_000}, "extra", {"year": None}),
    ({"title": '{"a":' * 100_000 + "1" + "}" * 100_000}, "title", {"title": None}),
])
def test_a_bad_field_is_repaired_or_dropped_with_a_warning(tmp_path: Path, fields: dict, field: str | None,
                                                           expected: dict) -> None:
    corpus = read_line(tmp_path, record(**fields))
    assert len(corpus.papers) == 2 and not corpus.skipped
    paper = corpus.papers[0]
    assert {name: getattr(paper, name) for name in expected} == expected
    if field:
        assert any(w.startswith(f"in.jsonl:1: {field}") for w in corpus.warnings), corpus.warnings
    for text in (paper.id, paper.abstract, paper.title or "", *paper.authors):
        text.encode("utf-8")  # nothing left that cannot be written


@pytest.mark.parametrize(("value", "reason"), [
    ('"\\ud800"', "no letters or digits"), ('["a", "b"]', "not a string (a list)"), ("9" * 5000, "5,000-digit"),
    ("null", "missing abstract"), ('" \\t\\n "', "empty abstract"), ('"\\u0001\\u0002"', "empty abstract"),
    ("[" * 100_000 + "]" * 100_000, "missing abstract"),
])
def test_only_a_record_without_a_usable_abstract_is_skipped(tmp_path: Path, value: str, reason: str) -> None:
    corpus = read_line(tmp_path, f'{{"id": "bad", "abstract": {value}}}')
    assert [p.id for p in corpus.papers] == ["good"]
    assert len(corpus.skipped) == 1 and reason in corpus.skipped[0].reason and corpus.skipped[0].line == 1


def test_a_lone_surrogate_in_the_abstract_is_replaced_and_the_paper_kept(tmp_path: Path) -> None:
    corpus = read_line(tmp_path, record(abstract=json.dumps(ABSTRACT)[:-1] + ' \\ud800"'))
    assert corpus.papers[0].abstract == ABSTRACT + " \ufffd"
    assert any(w.startswith("in.jsonl:1: abstract had invalid characters") for w in corpus.warnings)


@pytest.mark.parametrize("ids", [(".", "..", "..."), ("a", "a\u0001", "a\u0007"), ("p1", "p1", "p1-2")])
def test_ids_are_normalised_and_unique(tmp_path: Path, ids: tuple[str, ...]) -> None:
    lines = [json.dumps({"id": given, "abstract": f"{ABSTRACT} Variant {n}."}) for n, given in enumerate(ids)]
    (tmp_path / "in.jsonl").write_text("\n".join(lines), encoding="utf-8")
    corpus = read_corpus([tmp_path / "in.jsonl"])
    found = [p.id for p in corpus.papers]
    assert len(found) == len(set(found)) == len(ids)
    assert all(ch.isprintable() for paper_id_ in found for ch in paper_id_)


def test_json_arrays_and_multi_line_objects_are_read_with_their_lines(tmp_path: Path) -> None:
    records = [{"id": "a", "abstract": ABSTRACT}, {"id": "b", "abstract": "We study transformers."}]
    for name, text in (("one.jsonl", json.dumps(records)), ("pretty.jsonl", json.dumps(records, indent=2)),
                       ("array.json", json.dumps(records, indent=1)), ("object.jsonl", json.dumps(records[0], indent=2))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        corpus = read_corpus([tmp_path / name])
        assert [p.id for p in corpus.papers] == ["a", "b"][: 1 if name == "object.jsonl" else 2], name
    assert [str(s) for s in read_corpus([tmp_path / "pretty.jsonl"]).papers[1].sources] == ["pretty.jsonl#6"]


@pytest.mark.parametrize(("header", "separator"), [("id;title;abstract", ";"), ("id\ttitle\tabstract", "\t"),
                                                    ("id|title|abstract", "|")])
def test_csv_delimiter_is_found_from_the_header(tmp_path: Path, header: str, separator: str) -> None:
    (tmp_path / "in.csv").write_text(f"{header}\n1{separator}T{separator}{ABSTRACT}, with a comma\n", encoding="utf-8")
    corpus = read_corpus([tmp_path / "in.csv"])
    assert corpus.papers[0].abstract == f"{ABSTRACT}, with a comma" and corpus.papers[0].title == "T"


def test_unquoted_commas_in_a_last_abstract_column_are_joined_back(tmp_path: Path) -> None:
    (tmp_path / "in.csv").write_text(f"id,abstract\n1,{ABSTRACT} A, B, and C.\n", encoding="utf-8")
    corpus = read_corpus([tmp_path / "in.csv"])
    assert corpus.papers[0].abstract == f"{ABSTRACT} A, B, and C."
    assert any("in.csv:2: abstract (the last column) holds unquoted ','" in w for w in corpus.warnings)


@pytest.mark.parametrize(("text", "message"), [
    ("id,abstract,Abstract \n1,a,b\n", "duplicate column 'abstract' in columns 2, 3"),
    (f"1,T,{ABSTRACT}\n", "no header row: the first row looks like data"),
    ("id,title\n1,T\n", "no 'abstract' column in the header row (columns: 'id', 'title'"),
    ("", "empty file"),
    ("{bad\n", "no 'abstract' column"),
])
def test_unusable_csv_says_why(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "in.csv").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="no papers found") as error:
        read_corpus([tmp_path / "in.csv"])
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(("name", "data", "message"), [
    ("all-bad.jsonl", b"{bad\n[1]\n", "2 records skipped: 1 malformed JSON, 1 not a JSON object; first: all-bad.jsonl:1"),
    ("header.txt", b"NeurIPS 2026 Papers\n", "reads as the listing's header line"),
    ("blank.jsonl", b"\n \n", "the input holds no records"),
])
def test_no_papers_error_says_why(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises(InputError, match="no papers found") as error:
        read_corpus([tmp_path / name])
    assert message in str(error.value)


@pytest.mark.parametrize("first", ["We propose FooNet for image classification on ImageNet.",
                                   "A short abstract about graph neural networks!",
                                   "A first line\nthat goes on: a two-line paragraph is never a header"])
def test_a_short_first_abstract_of_a_listing_is_not_taken_for_its_header(tmp_path: Path, first: str) -> None:
    (tmp_path / "l.txt").write_text(f"{first}\n\n{ABSTRACT}\n", encoding="utf-8")
    corpus = read_corpus([tmp_path / "l.txt"])
    assert [p.abstract for p in corpus.papers] == [first, ABSTRACT] and not corpus.headers


def test_a_title_line_is_the_listing_header_and_is_reported(tmp_path: Path) -> None:
    (tmp_path / "l.txt").write_text(f"NeurIPS 2026 论文列表\n\n{ABSTRACT}\n", encoding="utf-8")
    corpus = read_corpus([tmp_path / "l.txt"])
    assert [p.abstract for p in corpus.papers] == [ABSTRACT]
    assert [(h.file, h.line, h.text) for h in corpus.headers] == [("l.txt", 1, "NeurIPS 2026 论文列表")]


def failing_extract():
    """An extract function that fails on one abstract (a stand-in for an extractor bug)."""
    def extract(doc, context):
        if "explode" in doc.text:
            raise ValueError("extractor bug")
        return [], []
    return extract


def test_a_paper_whose_extraction_fails_is_kept_with_a_warning(tmp_path: Path) -> None:
    from kg.run.build import BuildConfig, build
    from kg.run.engines import ExtractSpec

    lines = [json.dumps({"id": "a", "abstract": "This one will explode."}), json.dumps({"id": "b", "abstract": ABSTRACT})]
    (tmp_path / "in.jsonl").write_text("\n".join(lines), encoding="utf-8")
    report = build([tmp_path / "in.jsonl"], BuildConfig(ExtractSpec(failing_extract), model="blank", use_cache=False))
    assert sorted(report.graph.nodes) == ["paper:a", "paper:b"]
    assert report.warnings == ["in.jsonl#1: extraction failed (ValueError: extractor bug); the paper is kept without entities"]


def test_a_file_name_that_is_not_utf8_is_shown_with_a_replacement_character(tmp_path: Path) -> None:
    import os

    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.txt"))
    path.write_text(f"{ABSTRACT}\n", encoding="utf-8")
    corpus = read_corpus([path])
    assert [str(s) for s in corpus.papers[0].sources] == ["caf\ufffd.txt#1"]
