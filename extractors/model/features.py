"""Span features from the shared parse, vectorised: hashed ids of lexical, context, rule and document cues."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import numpy as np
from spacy.attrs import DEP, HEAD, SENT_START, LEMMA, LOWER, POS, PREFIX, SHAPE, SUFFIX
from spacy.tokens import Doc

from kg.text.abbreviations import Abbreviation
from kg.extraction.interface import Candidate

BITS = 18  # 2**18 hashed feature rows per class
PAD = 2  # sentinel tokens on each side, so t-2 .. t+2 never leave the arrays
MIX = np.uint64(0x9E3779B97F4A7C15)
START = np.array([0x51ED27], dtype=np.uint64)
SHIFT = np.uint64(64 - BITS)
ERA_RECENT, ERA_OLDER = 11, 12  # the abstract's era (kg.extraction.interface.is_recent) as one feature
ATTRS = [LOWER, LEMMA, POS, SHAPE, SUFFIX, PREFIX, DEP, HEAD, SENT_START]


@dataclass(frozen=True)
class SpanFeatures:
    """Per span: `fixed` (n, k) hashed ids and extra hashed ids `ids` of spans `rows`."""

    fixed: np.ndarray
    rows: np.ndarray
    ids: np.ndarray


def mix(*values) -> np.ndarray:
    """A deterministic 64-bit hash of equal-shaped uint64 arrays (or ints), combined in order."""
    h = START
    for v in values:  # arrays (never numpy scalars) of uint64 wrap around silently
        v = np.asarray(v, dtype=np.uint64)
        h = ((h ^ (v if v.ndim else v.reshape(1))) * MIX) ^ (h >> np.uint64(31))
    return h


def bucket(h: np.ndarray) -> np.ndarray:
    """Hashed ids in [0, 2**BITS)."""
    h = np.asarray(h, dtype=np.uint64).reshape(-1)
    return ((h * MIX) >> SHIFT).astype(np.int64)


def text_id(text: str) -> int:
    """A stable id of a feature string (FNV-1a), for the few features made in Python."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class TokenTable:
    """The Doc's token attributes as padded uint64 arrays, with head indices and sentence numbers."""

    def __init__(self, doc: Doc):
        n = len(doc)
        rows = doc.to_array(ATTRS).astype(np.int64) if n else np.zeros((0, len(ATTRS)), dtype=np.int64)
        self.n = n
        pad = np.full((PAD, len(ATTRS)), 0, dtype=np.int64)
        pad_ids = np.array([text_id("<pad>")] * PAD, dtype=np.uint64)
        table = np.vstack([pad, rows, pad]).astype(np.uint64)
        for column in range(6):  # strings: sentinels must differ from any real hash
            table[:PAD, column] = pad_ids
            table[PAD + n:, column] = pad_ids
        self.lower, self.lemma, self.pos, self.shape, self.suffix, self.prefix, self.dep = (
            table[:, c] for c in range(7))
        self.head = np.arange(n, dtype=np.int64) + rows[:, 7] if n else np.zeros(0, dtype=np.int64)
        self.sent = np.cumsum(rows[:, 8] == 1) - 1 if n else np.zeros(0, dtype=np.int64)


def fold(table: np.ndarray, starts: np.ndarray, ends: np.ndarray, limit: int = 8) -> np.ndarray:
    """A hash of each span's sequence of values (at most `limit` of them); `table` (m, tokens) folds m rows at once."""
    h = np.full(table.shape[:-1] + (len(starts),), np.uint64(7), dtype=np.uint64)
    for k in range(limit):
        inside = starts + k < ends
        idx = np.minimum(starts + k, table.shape[-1] - 1)
        h = np.where(inside, mix(h, table[..., idx]), h)
    return h


def governors(t: TokenTable, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per span: its last token's dependency, the lemma of its governor and, for `pobj`, the preposition."""
    last = ends - 1
    head = t.head[last] if t.n else last
    outside = (head < starts) | (head >= ends)
    head_lemma = np.where(outside, t.lemma[head + PAD], np.uint64(1))
    dep = t.dep[last + PAD]
    grand = t.head[head] if t.n else head
    prep = mix(t.lower[head + PAD], t.lemma[grand + PAD])
    return dep, head_lemma, prep


def span_features(doc: Doc, ranges: list[tuple[int, int]], candidates: Iterable[Candidate],
                  abbreviations: Iterable[Abbreviation], combined: Iterable[Candidate] = (),
                  recent: bool = True) -> SpanFeatures:
    """The features of each token range of `doc` (see the module docstring)."""
    t = TokenTable(doc)
    starts = np.array([s for s, _ in ranges], dtype=np.int64)
    ends = np.array([e for _, e in ranges], dtype=np.int64)
    s, e = starts + PAD, ends + PAD
    length = np.minimum(ends - starts, 6).astype(np.uint64)
    words, shapes, tags = fold(np.stack([t.lower, t.shape, t.pos]), s, e)
    counts = word_counts(words)
    dep, head_lemma, prep = governors(t, starts, ends)
    sent = t.sent[starts] if t.n else starts
    columns = [
        np.zeros(len(starts), dtype=np.uint64), t.lower[s], t.lower[e - 1], t.lemma[e - 1], t.suffix[e - 1],
        t.shape[s], t.shape[e - 1], shapes, tags, length, t.lower[s - 1],
        t.lower[s - 2], t.lower[e], t.lower[e + 1], mix(t.pos[s - 1], t.pos[e]), mix(dep, head_lemma),
        np.where(dep == np.uint64(doc.vocab.strings["pobj"]), prep, np.uint64(3)), words, mix(t.lemma[e - 1], t.lower[s - 1]),
        np.minimum(counts, 3).astype(np.uint64), np.minimum(sent, 2).astype(np.uint64), t.prefix[s],
        mix(t.lemma[e - 1], t.lower[e]), mix(t.pos[s], length),
        np.full(len(starts), np.uint64(ERA_RECENT if recent else ERA_OLDER), dtype=np.uint64),  # a prior per era
    ]
    templates = np.arange(1, len(columns) + 1, dtype=np.uint64)[:, None]
    fixed = bucket(mix(templates, np.stack(columns))).reshape(len(columns), -1).T if len(starts) else \
        np.zeros((0, len(columns)), dtype=np.int64)
    rows, ids = bag(t, s, e)
    extra_rows, extra_ids = rule_features(doc, ranges, candidates, abbreviations, combined)
    return SpanFeatures(fixed, np.concatenate([rows, extra_rows]), np.concatenate([ids, extra_ids]))


def word_counts(words: np.ndarray) -> np.ndarray:
    """How often each span's word sequence occurs among the candidates of the Doc."""
    _, inverse, counts = np.unique(words, return_inverse=True, return_counts=True)
    return counts[inverse]


def bag(t: TokenTable, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, id) of every word of every span (lower case and word shape)."""
    lengths = e - s
    rows = np.repeat(np.arange(len(s)), lengths)
    offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    tokens = np.repeat(s, lengths) + offsets
    ids = np.concatenate([bucket(mix(101, t.lower[tokens])), bucket(mix(102, t.shape[tokens]))])
    return np.concatenate([rows, rows]), ids


@lru_cache(maxsize=1 << 12)
def label_id(label: str) -> int:
    """The hashed id of a rule-vote label (few distinct labels: cached)."""
    return int(bucket(np.array([text_id(label)], dtype=np.uint64))[0])


def rule_features(doc: Doc, ranges: list[tuple[int, int]], candidates: Iterable[Candidate],
                  abbreviations: Iterable[Abbreviation], combined: Iterable[Candidate]) -> tuple[np.ndarray, np.ndarray]:
    """Votes of the rule extractors: exact, covering and covered candidates; acronym definitions; the
    rules' own combined choice."""
    from kg.extraction.doccache import attrs
    from kg.extractors.model.spans import token_range

    a = attrs(doc)
    index = {r: i for i, r in enumerate(ranges)}
    rows: list[int] = []
    ids: list[int] = []
    nested: list[tuple[int, int, str]] = []
    votes = [(c.start, c.end, f"{c.extractor}:{c.kind}:{c.type}:{c.strength}", True) for c in candidates]
    votes += [(c.start, c.end, f"final:{c.type}:{c.role}", False) for c in combined]
    for abbreviation in abbreviations:
        votes += [(abbreviation.long_start, abbreviation.long_end, "abbr:long", False),
                  (abbreviation.short_start, abbreviation.short_end, "abbr:short", False)]
    for start, end, label, inside in votes:
        span = token_range(a, start, end)
        if span is None:
            continue
        if span in index:
            rows.append(index[span])
            ids.append(label_id("=" + label))
        if inside:
            nested.append((*span, label))
    extra_rows, extra_ids = nesting(ranges, nested)
    return (np.concatenate([np.array(rows, dtype=np.int64), extra_rows]),
            np.concatenate([np.array(ids, dtype=np.int64), extra_ids]))


def nesting(ranges: list[tuple[int, int]], spans: list[tuple[int, int, str]]) -> tuple[np.ndarray, np.ndarray]:
    """(row, id) for each candidate range around (`>label`) or inside (`<label`) a voted span, not equal to it."""
    if not spans or not ranges:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts, ends = (np.array(x, dtype=np.int64)[:, None] for x in zip(*ranges))
    first, last = (np.array(x, dtype=np.int64)[None, :] for x in list(zip(*spans))[:2])
    other = (starts != first) | (ends != last)
    inside = other & (starts <= first) & (ends >= last)
    around = other & (starts >= first) & (ends <= last)
    inner = np.array([label_id(">" + label) for _, _, label in spans], dtype=np.int64)
    outer = np.array([label_id("<" + label) for _, _, label in spans], dtype=np.int64)
    r1, c1 = np.nonzero(inside)
    r2, c2 = np.nonzero(around)
    return np.concatenate([r1, r2]).astype(np.int64), np.concatenate([inner[c1], outer[c2]])
