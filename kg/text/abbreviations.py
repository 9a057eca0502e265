"""Schwartz-Hearst abbreviation detection on plain text (no spaCy)."""
from __future__ import annotations

import re
from dataclasses import dataclass

PAREN = re.compile(r"\(([^()]{1,24})\)")
WORD = re.compile(r"[^\s()]+")
MAX_LONG_WORDS = 12


@dataclass(frozen=True)
class Abbreviation:
    """A short form and its long form, as character spans of the text."""

    short: str
    short_start: int
    long: str
    long_start: int

    @property
    def short_end(self) -> int:
        return self.short_start + len(self.short)

    @property
    def long_end(self) -> int:
        return self.long_start + len(self.long)


MAX_SHORT = 10
MAX_COINED_SHORT = 20  # one CamelCase word made of word beginnings (GloRaMixBench) may be longer
CAMEL = re.compile(r"^(?:[A-Z][a-z]*\d*){3,}$")


def is_short_form(candidate: str) -> bool:
    """A plausible abbreviation: 2-10 chars (one CamelCase word: up to 20), one word or two, with a capital."""
    limit = MAX_COINED_SHORT if CAMEL.match(candidate) else MAX_SHORT
    if not 2 <= len(candidate) <= limit or len(candidate.split()) > 2:
        return False
    return candidate[0].isalnum() and any(c.isalpha() for c in candidate) and any(c.isupper() for c in candidate)


def segments_fit(short: str, long: str) -> bool:
    """A long CamelCase short form: each capitalised piece begins a word of the long form, in order."""
    if len(short) <= MAX_SHORT or not CAMEL.match(short):
        return True
    words = iter(re.split(r"[\s-]+", long.lower()))
    pieces = re.findall(r"[A-Z][a-z]*", short)
    return all(any(w.startswith(p.lower()) for w in words) for p in pieces)


def match_long_form(short: str, words: list[tuple[int, str]], text: str) -> tuple[int, int] | None:
    """The Schwartz-Hearst backward match of `short` against the preceding words."""
    chars = [c.lower() for c in short if c.isalnum()]
    window = words[-min(len(words), MAX_LONG_WORDS, len(short) + 5):]
    if not window:
        return None
    begin, end = window[0][0], window[-1][0] + len(window[-1][1])
    span = text[begin:end].lower()
    s, i = len(chars) - 1, len(span) - 1
    while s >= 0:
        c = chars[s]
        while i >= 0 and (span[i] != c or (s == 0 and i > 0 and span[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = begin + i + 1
    while start > begin and (text[start - 1].isalnum() or (text[start - 1] == "-" and start - 1 > begin
                                                           and text[start - 2].isalnum())):
        start -= 1  # the whole word, hyphenated prefixes too: "semi-supervised learning (SSL)"
    return start, end


def last_words(text: str, start: int, stop: int, count: int = MAX_LONG_WORDS) -> list[tuple[int, str]]:
    """The last `count` words of text[start:stop] with their offsets (reads only as far back as it must)."""
    size = 256
    while True:
        begin = max(start, stop - size)
        words = [(m.start(), m.group()) for m in WORD.finditer(text, begin, stop)]
        if len(words) > count or begin == start:  # more than `count`: the first may be cut, the rest are whole
            return words[-count:]
        size *= 4


def find_abbreviations(text: str) -> list[Abbreviation]:
    """All `long form (SHORT)` definitions in `text`, in order of appearance."""
    found: list[Abbreviation] = []
    for paren in PAREN.finditer(text):
        inner = paren.group(1).split(";")[0].split(",")[0].strip()
        if not is_short_form(inner):
            continue
        stop = text.rfind(". ", 0, paren.start())
        sentence_start = stop + 2 if stop >= 0 else 0
        words = last_words(text, sentence_start, paren.start())
        span = match_long_form(inner, words, text)
        if span is None:
            continue
        start, end = span
        long = text[start:end].strip(" ,;:-")
        if len(long) <= len(inner) or inner.lower() in long.lower().split() or not segments_fit(inner, long):
            continue
        found.append(Abbreviation(inner, paren.start(1) + paren.group(1).index(inner), long, start))
    return found
