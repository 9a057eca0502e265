"""Schwartz-Hearst abbreviation detection on plain text (no spaCy)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

PAREN = re.compile(r"\(([^()]{1,24})\)")
COMMA_OR = re.compile(r",\s+or\s+([A-Za-z][\w-]*[A-Za-z0-9])(?=[\s.,;:)]|$)")
WORD = re.compile(r"[^\s()]+")
MAX_LONG_WORDS = 12
FUNCTION_WORDS = frozenset("a an and for in of on the to via with".split())
LISTED = re.compile(r"\s*(?:[,;]|\band\b)\s*")  # what separates the short forms a parenthesis lists
COORDINATED = re.compile(r",|\b(?:and|or)\b")  # a long form joining several things


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


DIGIT_WORDS = {"2": "to", "4": "for"}  # I2I: image-to-image, L2L: learning-to-learn, P4P: pay-for-performance


def matches_at(span: str, i: int, c: str, first: bool) -> bool:
    """Whether short-form character `c` matches span[i] (the first one only at a word start).

    A digit the span does not contain matches the word it sounds like (`2` the word "to").
    """
    if first and i > 0 and span[i - 1].isalnum():
        return False
    word = DIGIT_WORDS.get(c) if c not in span else None
    if word is None:
        return span[i] == c
    after = i + len(word)
    return (span.startswith(word, i) and (i == 0 or not span[i - 1].isalnum())
            and (after == len(span) or not span[after].isalnum()))


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
        while i >= 0 and not matches_at(span, i, c, s == 0):
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


def defined_before(text: str, short: str, stop: int) -> tuple[int, str] | None:
    """The long form that `short` abbreviates, ending at `stop` in its sentence: its start and text."""
    dot = text.rfind(". ", 0, stop)
    words = last_words(text, dot + 2 if dot >= 0 else 0, stop)
    span = match_long_form(short, words, text)
    if span is None:
        return None
    long = text[span[0]:span[1]].strip(" ,;:-")
    if len(long) <= len(short) or short.lower() in long.lower().split() or not segments_fit(short, long):
        return None
    if "," in long and any(digit in short and digit not in long for digit in DIGIT_WORDS):
        return None  # a digit read as a word across a list is no definition
    return span[0], long


REPEATED = re.compile(r"([A-Za-z])([2-9])(?![\d.])")  # A3C: three words beginning with A, then one with C
INITIALS = re.compile(r"[^\W_]+")  # the words of a long form whose initials spell a short form


def repeated_initials(text: str, short: str, stop: int) -> tuple[int, str] | None:
    """`Asynchronous Advantage Actor-Critic (A3C)`, `Micro-Macro Retrieval (M2R)`: a letter and a digit stand for
    that many words beginning with the letter; the long form is the words right before `stop` whose initials spell
    the short form so written out, hyphenated parts as words, function words taking part or left out."""
    if not REPEATED.search(short):
        return None
    letters = REPEATED.sub(lambda m: m.group(1) * int(m.group(2)), short)
    if not letters.isalpha():
        return None
    dot = text.rfind(". ", 0, stop)
    words = [(m.start(), m.group()) for m in INITIALS.finditer(text, dot + 2 if dot >= 0 else 0, stop)]
    for skip in (False, True):
        kept = [(start, w) for start, w in words if not (skip and w.lower() in FUNCTION_WORDS)]
        tail = kept[-len(letters):]
        if len(tail) == len(letters) and all(w[0].lower() == c.lower() for (_, w), c in zip(tail, letters)):
            long = text[tail[0][0]:stop].strip(" ,;:-")
            return (tail[0][0], long) if len(long) > len(short) else None
    return None


def comma_or_definitions(text: str) -> Iterator[Abbreviation]:
    """`Compressive Phase Retrieval with Alternating Minimization, or CoPRAM`: a long form, `, or`, its acronym."""
    for match in COMMA_OR.finditer(text):
        short = match.group(1)
        if not is_short_form(short) or sum(c.isupper() for c in short) < 2:
            continue
        defined = defined_before(text, short, match.start())
        if defined is not None and "," not in defined[1]:
            yield Abbreviation(short, match.start(1), defined[1], defined[0])


def listed_shorts(inner: str) -> int:
    """How many short forms a parenthesis lists before anything else (`ViT, DiT`: 2; `CNN; e.g. AlexNet`: 1)."""
    count = 0
    for part in LISTED.split(inner.strip()):
        if not is_short_form(part):
            break
        count += 1
    return count


def one_definition(inner: str, long: str) -> bool:
    """Whether a parenthesis defines its first short form by the whole long form: not where it lists three or more
    short forms (examples), nor two after a long form joining several things (`Vision and Document Image
    Transformers (ViT, DiT)`, `character and word error rates (CER and WER)`)."""
    listed = listed_shorts(inner)
    return listed < 2 or (listed == 2 and not COORDINATED.search(long))


def find_abbreviations(text: str) -> list[Abbreviation]:
    """All `long form (SHORT)` and `long form, or SHORT` definitions in `text`, in order of appearance."""
    found: list[Abbreviation] = []
    for paren in PAREN.finditer(text):
        inner = paren.group(1).split(";")[0].split(",")[0].strip()
        if not is_short_form(inner):
            continue
        defined = defined_before(text, inner, paren.start()) or repeated_initials(text, inner, paren.start())
        if defined is not None and one_definition(paren.group(1), defined[1]):
            found.append(Abbreviation(inner, paren.start(1) + paren.group(1).index(inner), defined[1], defined[0]))
    found.extend(comma_or_definitions(text))
    return sorted(found, key=lambda a: a.long_start)
