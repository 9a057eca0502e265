"""Candidate spans for the span model: noun-chunk sub-spans plus every rule candidate, as token ranges."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable

from spacy.tokens import Doc

from kg.extractors.rules.chunks import noun_chunk_ranges
from kg.extraction.doccache import Attrs, attrs
from kg.extraction.interface import Candidate

MAX_TOKENS = 8  # longer sub-spans are almost never one entity name
BAD_START = frozenset("DET PRON PUNCT CCONJ ADP PART SCONJ AUX SYM".split())
BAD_END = frozenset("DET PRON PUNCT CCONJ ADP PART SCONJ AUX".split())
JOINERS = frozenset({"of"})  # `mixture of experts`, `bag of words`
MODIFIER_DEPS = frozenset({"compound", "amod", "nmod"})
MODIFIER_POS = frozenset({"NOUN", "PROPN", "ADJ", "VERB"})
Range = tuple[int, int]


def token_range(a: Attrs, start: int, end: int) -> Range | None:
    """The token range whose characters are exactly [start, end), or None when it cuts a token."""
    first = bisect_left(a.idx, start)
    last = bisect_right(a.idx, end - 1)
    if first >= len(a.idx) or a.idx[first] != start or last <= first:
        return None
    return (first, last) if a.idx[last - 1] + len(a.text[last - 1]) == end else None


def sub_spans(a: Attrs, start: int, end: int) -> Iterable[Range]:
    """Every contiguous sub-range of at most MAX_TOKENS that neither starts nor ends on a function word."""
    pos = a.pos
    for i in range(start, end):
        if pos[i] in BAD_START or a.text[i] in "-–/":
            continue
        for j in range(i + 1, min(end, i + MAX_TOKENS) + 1):
            if pos[j - 1] not in BAD_END or a.text[j - 1] in ")]":
                yield i, j


def chunk_ranges(doc: Doc, a: Attrs) -> list[Range]:
    """Noun chunks, plus `A of B` joins of two adjacent chunks."""
    chunks = noun_chunk_ranges(doc) if doc.has_annotation("DEP") else []
    joined = [(s1, e2) for (s1, e1), (s2, e2) in zip(chunks, chunks[1:])
              if s2 == e1 + 1 and a.lower[e1] in JOINERS and e2 - s1 <= MAX_TOKENS + 2]
    return chunks + joined


def gerund_phrases(a: Attrs) -> list[Range]:
    """`quux parsing`, `policy learning`: a verb-tagged -ing word with its compound and adjective modifiers,
    which spaCy's noun chunks leave out."""
    found = []
    for i, pos in enumerate(a.pos):
        if pos == "VERB" and a.lower[i].endswith("ing") and i and a.dep[i - 1] in MODIFIER_DEPS:
            start = i
            while start and a.dep[start - 1] in MODIFIER_DEPS and a.pos[start - 1] in MODIFIER_POS:
                start -= 1
            found.append((start, i + 1))
    return found


def candidate_ranges(doc: Doc, rule_candidates: Iterable[Candidate]) -> list[Range]:
    """Sorted distinct token ranges: chunk sub-spans, rule candidates, and lone nouns and names."""
    a = attrs(doc)
    found: set[Range] = set()
    for start, end in chunk_ranges(doc, a) + gerund_phrases(a):
        found.update(sub_spans(a, start, end))
    for i, pos in enumerate(a.pos):
        if pos in ("PROPN", "NOUN", "X") or (pos == "VERB" and a.lower[i].endswith("ing")):
            found.add((i, i + 1))
    for candidate in rule_candidates:
        if candidate.kind == "cue":  # role cues cover whole phrases; the names inside are candidates anyway
            continue
        span = token_range(a, candidate.start, candidate.end)
        if span is not None and span[1] - span[0] <= 2 * MAX_TOKENS:
            found.add(span)
    return sorted(found)
