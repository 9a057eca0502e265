"""Tell text from binary by content, and decode text files (UTF-8, or UTF-16/32 by BOM or byte pattern).

A file is binary when it starts with a known magic number (PDF, images, archives, executables,
office documents, databases), holds NUL bytes that are not UTF-16/32, or when more than
BINARY_SHARE of its first SAMPLE characters are neither text nor whitespace (control
characters, or bytes that are not UTF-8). Decoding never fails: undecodable bytes become
U+FFFD with a warning.
"""
from __future__ import annotations

import codecs
import unicodedata

SAMPLE = 65_536
BINARY_SHARE = 0.10
NUL_SHARE = 0.01  # a few stray NUL bytes in a text file are removed with a warning
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "a PDF document"), (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"), (b"PK\x03\x04", "a ZIP archive (or .docx/.xlsx/.odt)"),
    (b"\x1f\x8b\x08", "gzip-compressed data"), (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data"), (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"), (b"\x7fELF", "an executable (ELF)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Microsoft Office (OLE) document"),
    (b"SQLite format 3\x00", "an SQLite database"), (b"%!PS-Adobe", "a PostScript document"),
    (b"{\\rtf", "an RTF document"), (b"\x00\x00\x01\x00", "an icon"), (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"), (b"OggS\x00", "an Ogg media file"), (b"ID3\x03", "an MP3 audio file"),
    (b"ID3\x04", "an MP3 audio file"), (b"\x1aE\xdf\xa3", "a Matroska/WebM video"), (b"\x93NUMPY", "a NumPy array"),
    (b"\x80\x04\x95", "a Python pickle"), (b"\x80\x05\x95", "a Python pickle"), (b"BZh91AY&SY", "bzip2-compressed data"),
)
BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
RIFF_KINDS = {b"WAVE": "a WAV audio file", b"AVI ": "an AVI video", b"WEBP": "a WebP image"}


class NotText(Exception):
    """The bytes are not a text file; the message says what they look like."""


def magic_kind(data: bytes) -> str | None:
    """What a known binary signature at the start of `data` says the file is."""
    if data.startswith(b"RIFF") and data[8:12] in RIFF_KINDS:
        return RIFF_KINDS[data[8:12]]
    if data[4:8] == b"ftyp":
        return "an MP4/QuickTime media file"
    return next((kind for magic, kind in MAGIC if data.startswith(magic)), None)


def wide_encoding(data: bytes) -> str | None:
    """UTF-16/32 without a BOM, recognised by where the NUL bytes of mostly-ASCII text fall."""
    sample = data[:4096]
    if len(sample) < 8:
        return None
    for width, names in ((4, ("utf-32-le", "utf-32-be")), (2, ("utf-16-le", "utf-16-be"))):
        lanes = [sample[i::width] for i in range(width)]
        zero = [lane.count(0) / max(len(lane), 1) for lane in lanes]
        if width == 4 and min(zero[1:3]) > 0.95 and zero[3] > 0.95 and zero[0] < 0.5:
            return names[0]
        if width == 4 and min(zero[:3]) > 0.95 and zero[3] < 0.5:
            return names[1]
        if width == 2 and zero[1] > 0.7 and zero[0] < 0.2:
            return names[0]
        if width == 2 and zero[0] > 0.7 and zero[1] < 0.2:
            return names[1]
    return None


def non_text_share(text: str) -> float:
    """The share of the first SAMPLE characters that are control characters or U+FFFD (0 if only one is)."""
    sample = text[:SAMPLE]
    bad = sum(1 for ch in sample if ch == "\ufffd" or (unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\f\v"))
    return bad / max(len(sample), 1) if bad > 1 else 0.0


def decode(data: bytes, warnings: list[str], where: str) -> str:
    """The text of a file's bytes; raises NotText for binary content."""
    encoding, offset = next(((name, len(bom)) for bom, name in BOMS if data.startswith(bom)), (None, 0))
    if encoding is None:
        kind = magic_kind(data)
        if kind:
            raise NotText(f"binary file ({kind}), not text")
        nul = data[:SAMPLE].count(0)
        if nul:
            encoding = wide_encoding(data)
            if encoding is None and nul > max(2, NUL_SHARE * min(len(data), SAMPLE)):
                raise NotText("binary file (NUL bytes), not text")
            if encoding is None:
                warnings.append(f"{where}:{data[:data.index(0)].count(10) + 1}: NUL bytes removed")
            else:
                warnings.append(f"{where}:1: no byte order mark; read as {encoding.upper()} by its byte pattern")
    encoding = encoding or "utf-8"
    body = data[offset:]
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as error:
        line = body[: error.start].count(b"\n" if encoding == "utf-8" else "\n".encode(encoding)) + 1
        text = body.decode(encoding, errors="replace")
        share = non_text_share(text)
        if share > BINARY_SHARE:
            raise NotText(f"binary file ({share:.0%} of the first characters are not text), not text") from None
        warnings.append(f"{where}:{line}: invalid {encoding.upper()}, undecodable bytes replaced with U+FFFD")
        return text
    share = non_text_share(text)
    if share > BINARY_SHARE:
        raise NotText(f"binary file ({share:.0%} of the first characters are control characters), not text")
    return text
