"""Coined names by their shape (CamelCase, digits, hyphenated capitals, versions) and Title-Case phrases."""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress
from typing import Callable, Iterator

from spacy.tokens import Doc

from kg.extractors.rules.cues import range_type
from kg.extraction.doccache import Attrs, attrs, cached, span_text, text as doc_text
from kg.extractors.rules.filters import citation_ranges, skipped_text
from kg.extractors.rules.lexicon import COINED, MODEL_SIZE, VAGUE_MODIFIERS
from kg.extraction.interface import Candidate, DocContext
from kg.registry import extractors

NOT_NAMES = frozenset(
    "AI US UK EU II III IV VI I SOTA NLP CV ML DL RL GPU GPUs CPU CPUs TPU API APIs URL PDF ID IDs OK "
    "AND OR NOT IID OOD i.i.d".split()
)
VERSION = re.compile(r"^(?:v?\d+(?:\.\d+)*[a-z]?|\d+(?:\.\d+)?[BMK]|[A-Z]\d+)$")
SUFFIX_WORDS = frozenset(
    "Pro Mini Flash Turbo Instruct Chat Base Large Small XL Ultra Sonnet Opus Haiku Thinking Distill "
    "Verified Lite Hard Plus Max Nano Coder Math Vision VL".split()
)
CONNECTORS = frozenset("of for with via".split())
LETTER_INDEX = re.compile(r"\d+[Dd]|\d+x|[A-Z]\.?|[A-Z]\d|[A-Z]_?\d")
FUNCTION_POS = frozenset("ADP VERB ADV DET PRON SCONJ CCONJ AUX PART".split())
TRIM = "()[]{},;:.!?\"'“”‘’"
SCORE = 0.75
DEFAULT_SCORE = 0.55  # typed by the default, not by a cue
BARE_ACRONYM = re.compile(r"^[A-Z]{2,3}s?$")  # untyped, it needs the paper to repeat it (HR, IP)


@lru_cache(maxsize=1 << 16)
def is_coined(word: str) -> bool:
    """A word whose shape marks it as a name: LLM, DeepSeek-R1, Qwen3, UNet++, Llama-Guard, pass@k."""
    if not word or word in NOT_NAMES or word.rstrip("s") in NOT_NAMES or MODEL_SIZE.match(word) or LETTER_INDEX.fullmatch(word):
        return False
    parts = [p for p in re.split(r"[-/]", word) if p]
    if len(parts) > 1 and sum(p[:1].isupper() for p in parts) >= 2 and all(len(p) > 1 for p in parts):
        return True
    if COINED.match(word) or ("@" in word and word[0].isalpha()):
        return True
    joined = word.replace("-", "")
    return word[0].isalpha() and joined != word and any(c.isupper() for c in word) and bool(COINED.match(joined))


def word_spans(doc: Doc) -> list[tuple[int, int]]:
    """Whitespace-delimited words as token ranges, surrounding punctuation left out."""
    texts, space = attrs(doc).text, attrs(doc).space
    ends = list(compress(range(1, len(texts) + 1), space))  # a word ends after a token followed by whitespace
    if texts and not space[-1]:
        ends.append(len(texts))
    spans, start = [], 0
    for end in ends:
        if end - start == 1:  # most words are one token
            if texts[start] not in TRIM:
                spans.append((start, end))
        else:
            first, last = start, end
            while first < last and texts[first] in TRIM:
                first += 1
            while last > first and texts[last - 1] in TRIM:
                last -= 1
            if first < last:
                spans.append((first, last))
        start = end
    return spans


def extend_versions(doc: Doc, words: list[tuple[int, int]], index: int) -> int:
    """How many following words are versions or edition names (Gemma 3 12B, SWE-bench Verified)."""
    return versions_after(attrs(doc).text, words, [span_text(doc, *w) for w in words], index)


def versions_after(texts: list[str], words: list[tuple[int, int]], surfaces: list[str], index: int) -> int:
    """`extend_versions` on the token texts and the words' surfaces."""
    extra = 0
    while index + extra + 1 < len(words):
        word = surfaces[index + extra + 1]
        if texts[words[index + extra + 1][0] - 1] in TRIM or not (VERSION.match(word) or word in SUFFIX_WORDS):
            break
        extra += 1
    return extra


def coined_ranges(doc: Doc) -> Iterator[tuple[int, int]]:
    """Token ranges of coined words and of capitalised names followed by versions, with their version words."""
    a, full = attrs(doc), doc_text(doc)
    texts, idx, sent_start = a.text, a.idx, a.sent_start
    words = word_spans(doc)
    surfaces = [full[idx[start]:idx[end - 1] + len(texts[end - 1])] for start, end in words]
    for index, (start, end) in enumerate(words):
        text = surfaces[index].strip("-")
        extra = versions_after(texts, words, surfaces, index) if text[:1].isupper() else 0
        if extra or is_coined(text):
            if extra and not is_coined(text) and sent_start[start]:
                continue
            yield start, words[index + extra][1]


def title_ranges(doc: Doc) -> list[tuple[int, int]]:
    """Token ranges of runs of two or more Title-Case or coined tokens, with inner connectors (of, for, with, -);
    cached per Doc as "title_spans"."""
    a = attrs(doc)
    n, texts, lower, space = len(a.text), a.text, a.lower, a.space
    cap, found, i = capitals(doc), [], 0
    while i < n:
        if not cap[i] and space[i - 1]:  # no run starts here (what the loops below conclude, sooner)
            i += 1
            continue
        j = i
        while j < n and (cap[j] or (j > i and connects(a, j, cap))):
            j += 1
        first = i
        while first < j and (lower[first] in VAGUE_MODIFIERS or initial_alone(a, first, cap)):
            first += 1
        while j < n and not space[j - 1] and texts[j] not in TRIM:
            j += 1
        if sum(cap[first:j]) >= 2:
            found.append((first, j))
        i = j if j > i else i + 1
    return found


def capitals(doc: Doc) -> list[bool]:
    """`capital` of every token."""
    a = attrs(doc)
    return [capital(t, title and alpha) for t, title, alpha in zip(a.text, a.title, a.alpha)]


@lru_cache(maxsize=1 << 16)
def capital(text: str, title_word: bool) -> bool:
    """A capitalised or coined word, from a token's text and whether it is a Title-Case alphabetic word."""
    if text in NOT_NAMES:
        return False
    return is_coined(text) or title_word


def initial_alone(a: Attrs, i: int, cap: list[bool]) -> bool:
    """A sentence-initial capital not followed by another capital (`Experiments on ImageNet`)."""
    if not a.sent_start[i] or is_coined(a.text[i]):
        return False
    return a.pos[i] in FUNCTION_POS or i + 1 >= len(a.text) or not cap[i + 1]


def connects(a: Attrs, i: int, cap: list[bool]) -> bool:
    """A hyphen or a lower-case function word between capitalised words."""
    texts, lower, n = a.text, a.lower, len(a.text)
    words = lower[i] in CONNECTORS
    previous = i - 1
    while i < n and (texts[i] == "-" or lower[i] in CONNECTORS):
        i += 1
    if i >= n or not cap[i]:
        return False
    return not words or (a.title[previous] and a.title[i])  # `of`/`for` only between Title words


def conjunct_type(doc: Doc, last: int) -> str | None:
    """The typing cue of the first item of the list a name is coordinated in (`on ImageNet, CIFAR-10 and Foo`: a
    list shares one type), or None when the name is not a later item."""
    if not doc.has_annotation("DEP"):
        return None
    token = doc[last]
    first = token
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    if first.i == token.i:
        return None
    return range_type(doc, first.i, first.i + 1, first.text)


@extractors.register("shapes")
def make_shapes() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: the coined-name extractor, typed by shape and context (default: method)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        full, a = doc_text(doc), attrs(doc)
        citations = citation_ranges(full)
        for start, end in (*coined_ranges(doc), *cached(doc, "title_spans", title_ranges)):
            start_char, end_char = a.idx[start], a.idx[end - 1] + len(a.text[end - 1])
            text = full[start_char:end_char]
            if skipped_text(text, a.text[start], start_char, end_char, citations):
                continue
            entity_type = range_type(doc, start, end, text) or conjunct_type(doc, end - 1)
            weak = entity_type is None and BARE_ACRONYM.match(text) is not None
            yield Candidate(start_char, end_char, entity_type or "method", "used",
                            SCORE if entity_type else DEFAULT_SCORE, "shapes", strength="weak" if weak else "strong")

    return extract
