"""Input detection: binary by content, UTF-16/32 decoded, stray bytes repaired with a warning."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from kg.io.detect import NotText, decode
from kg.io.readers import InputError, read_corpus

RECORD = {"id": "a", "abstract": "We propose FooNet for image classification on ImageNet."}
LISTING = "Invented Papers\n\nWe propose FooNet for image classification on ImageNet.\n"


@pytest.mark.parametrize(("data", "kind"), [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n", "PDF"),
    (b"\x89PNG\r\n\x1a\n" + b"\x10" * 64, "PNG"),
    (gzip.compress(b'{"abstract": "x"}\n'), "gzip"),
    (b"PK\x03\x04" + b"\x14\x00" * 30, "ZIP"),
    (b"\x7fELF\x02\x01\x01" + b"\x01" * 64, "ELF"),
    (bytes((i * 7919 + 13) % 255 + 1 for i in range(4000)), "not text"),  # random bytes, no NUL
    (bytes([1, 2, 3, 4, 5, 6, 0x0E, 0x0F]) * 100, "control characters"),
    (b"\x00\x01\x02binary", "binary"),
])
def test_binary_content_is_fatal_and_says_what_it_looks_like(tmp_path: Path, data: bytes, kind: str) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    with pytest.raises(InputError, match="binary file") as error:
        read_corpus([path])
    assert kind in str(error.value) and "in.txt:1" in str(error.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be", "utf-8-sig"])
@pytest.mark.parametrize(("suffix", "text"), [(".jsonl", json.dumps(RECORD) + "\n"), (".txt", LISTING),
                                               (".csv", f"id,abstract\na,\"{RECORD['abstract']}\"\n")])
def test_text_with_a_byte_order_mark_is_decoded(tmp_path: Path, encoding: str, suffix: str, text: str) -> None:
    data = text.encode(encoding)
    if encoding.endswith("-be"):
        data = ("\ufeff" + text).encode(encoding)
    path = tmp_path / f"in{suffix}"
    path.write_bytes(data)
    assert [p.abstract for p in read_corpus([path]).papers] == [RECORD["abstract"]]


def test_utf16_without_a_bom_is_recognised_with_a_warning() -> None:
    warnings: list[str] = []
    assert decode(LISTING.encode("utf-16-le"), warnings, "x.txt") == LISTING
    assert warnings == ["x.txt:1: no byte order mark; read as UTF-16-LE by its byte pattern"]


def test_latin1_text_is_read_with_a_warning_not_called_binary() -> None:
    warnings: list[str] = []
    text = decode(("Header\n\nA café and a naïve model.\n").encode("latin-1"), warnings, "x.txt")
    assert "caf\ufffd" in text and warnings == ["x.txt:3: invalid UTF-8, undecodable bytes replaced with U+FFFD"]


def test_a_stray_nul_byte_is_removed_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(json.dumps(RECORD).encode()[:-2] + b'\x00"}\n' + json.dumps({**RECORD, "id": "b"}).encode() * 0)
    corpus = read_corpus([path])
    assert corpus.papers[0].abstract == RECORD["abstract"]
    assert any("NUL bytes removed" in w for w in corpus.warnings)


def test_decode_never_fails_on_text() -> None:
    with pytest.raises(NotText):
        decode(b"%PDF-1.4", [], "x")
    assert decode(b"", [], "x") == ""
