"""Coined names by their shape (CamelCase, digits, hyphenated capitals, versions) and Title-Case phrases."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Iterator

from spacy.tokens import Doc, Span

from extractors.cues import context_type
from extractors.doccache import cached, text as doc_text, tokens
from extractors.filters import citation_ranges, skipped
from extractors.lexicon import COINED, MODEL_SIZE, VAGUE_MODIFIERS
from kg.extract import Candidate, DocContext
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


@lru_cache(maxsize=1 << 16)
def is_coined(word: str) -> bool:
    """A word whose shape marks it as a name: LLM, DeepSeek-R1, Qwen3, IGEV++, Isharah-Selfie, pass@64."""
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
    spans, start = [], 0
    for token in tokens(doc):
        if token.whitespace_ or token.i == len(doc) - 1:
            first, last = start, token.i + 1
            while first < last and doc[first].text in TRIM:
                first += 1
            while last > first and doc[last - 1].text in TRIM:
                last -= 1
            if first < last:
                spans.append((first, last))
            start = token.i + 1
    return spans


def extend_versions(doc: Doc, words: list[tuple[int, int]], index: int) -> int:
    """How many following words are versions or edition names (Gemma 3 12B, SWE-bench Verified)."""
    extra = 0
    while index + extra + 1 < len(words):
        start, end = words[index + extra + 1]
        if doc[start - 1].text in TRIM or not (VERSION.match(doc[start:end].text) or doc[start:end].text in SUFFIX_WORDS):
            break
        extra += 1
    return extra


def coined_spans(doc: Doc) -> Iterator[Span]:
    """Coined words and capitalised names followed by versions, with their version words."""
    words = word_spans(doc)
    for index, (start, end) in enumerate(words):
        text = doc[start:end].text.strip("-")
        extra = extend_versions(doc, words, index) if text[:1].isupper() else 0
        if is_coined(text) or extra:
            if extra and not is_coined(text) and doc[start].is_sent_start:
                continue
            yield doc[start:words[index + extra][1]]


def title_spans(doc: Doc) -> list[Span]:
    """Runs of two or more Title-Case or coined tokens, with inner connectors (of, for, with, -); cached per Doc."""
    return [doc[a:b] for a, b in cached(doc, "title_spans", title_ranges)]


def title_ranges(doc: Doc) -> list[tuple[int, int]]:
    """Token ranges of the Title-Case runs (see `title_spans`)."""
    cap, found, i = [is_capital(t) for t in tokens(doc)], [], 0
    while i < len(doc):
        j = i
        while j < len(doc) and (cap[j] or (j > i and is_connector(doc, j, cap))):
            j += 1
        first = i
        while first < j and (doc[first].lower_ in VAGUE_MODIFIERS or lone_initial(doc, first, cap)):
            first += 1
        while j < len(doc) and not doc[j - 1].whitespace_ and doc[j].text not in TRIM:
            j += 1
        if sum(cap[first:j]) >= 2:
            found.append((first, j))
        i = max(j, i + 1)
    return found


def lone_initial(doc: Doc, i: int, cap: list[bool]) -> bool:
    """A sentence-initial capital not followed by another capital (`Experiments on ImageNet`)."""
    token = doc[i]
    if not token.is_sent_start or is_coined(token.text):
        return False
    return token.pos_ in FUNCTION_POS or i + 1 >= len(doc) or not cap[i + 1]


def is_capital(token) -> bool:
    """A capitalised or coined word token."""
    if token.text in NOT_NAMES:
        return False
    return is_coined(token.text) or (token.is_title and token.is_alpha)


def is_connector(doc: Doc, i: int, cap: list[bool]) -> bool:
    """A hyphen or a lower-case function word between capitalised words."""
    words = doc[i].lower_ in CONNECTORS
    previous = doc[i - 1]
    while i < len(doc) and (doc[i].text == "-" or doc[i].lower_ in CONNECTORS):
        i += 1
    if i >= len(doc) or not cap[i]:
        return False
    return not words or (previous.is_title and doc[i].is_title)  # `of`/`for` only between Title words


@extractors.register("shapes")
def make_shapes() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: the coined-name extractor, typed by shape and context (default: method)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        citations = citation_ranges(doc_text(doc))
        for span in (*coined_spans(doc), *title_spans(doc)):
            if skipped(doc, span, citations):
                continue
            entity_type = context_type(doc, span)
            yield Candidate(span.start_char, span.end_char, entity_type or "method", "used",
                            SCORE if entity_type else DEFAULT_SCORE, "shapes")

    return extract
