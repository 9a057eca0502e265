"""Concept pairs of one abstract and their features for the relation head (pure: text, spans, encoder states).

A paper's mentions are grouped into concepts (one matching key, an acronym joined to the long form the abstract
defines for it); every ordered pair of concepts whose types fit a relation's head and tail types is one example.
The types decide which relation a pair could have, so the head only says whether the abstract states it."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kg.extractors.encoder.pieces import Pieces, span_pieces
from kg.text.keys import match_key

# relation -> (head types, tail types), as the relation guidelines define them; no two relations share a pair
SIGNATURES = {
    "evaluated_on": (("method", "model"), ("dataset",)),
    "applied_to": (("method", "model"), ("task",)),
    "measured_by": (("method", "model", "task", "dataset"), ("metric",)),
    "based_on": (("method", "model"), ("method", "model")),
}
RELATIONS = tuple(SIGNATURES)
MAX_CONCEPTS = 80  # concepts of one abstract that pair (gold abstracts have about 15; 80 = 6,400 pairs at most)
MAX_MENTIONS = 20  # mentions of a concept read for its closest pair (the first ones)
TYPES = ("method", "model", "dataset", "task", "metric")
CUES = tuple(re.compile(p, re.I) for p in (
    r"\b(?:on|across|over)\b", r"\b(?:evaluat|benchmark|experiment|test)\w*", r"\b(?:for|to|towards)\b",
    r"\b(?:address|tackl|solv|handl)\w*", r"\bin terms of\b|\bmeasur\w*|\bmetric\w*|\bscor\w*",
    r"\b(?:achiev|report|attain|reach|obtain)\w*", r"\b(?:based on|built (?:up)?on|build\w* on|extend\w*|"
    r"fine-tun\w*|distill?\w*|backbone|relies on|leverag\w*)", r"\b(?:using|uses|use|with|via|by)\b",
    r"\b(?:outperform\w*|surpass\w*|beat\w*|compar\w*|than|baseline\w*|vs\.?|versus)\b", r"\b(?:improv\w*|boost\w*)",
    r"\b(?:train\w*|pretrain\w*|pre-train\w*)", r"\b(?:we|our)\b", r"[,;]|\band\b", r"\(|\)",
))
PROPOSAL = re.compile(r"\b(?:we|this paper|this work)\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design)\w*",
                      re.I)
SPARSE = 5 + 5 + 4 + 4 + 4 + 2 + 2 + 2 + 3 + 2 + 3 + len(CUES) + len(CUES) + 3 + 4 + 3 + 2 + 3 + 1 + 1  # see sparse_features
HOT_TYPE, HOT_RELATION = np.eye(len(TYPES)).tolist(), np.eye(len(RELATIONS)).tolist()  # one-hot rows


@dataclass(frozen=True)
class Span:
    """One mention of the paper: character offsets into the encoded text, its type, role and name."""

    start: int
    end: int
    type: str
    role: str
    name: str


@dataclass(frozen=True)
class Concept:
    """A paper's mentions of one concept: indices into the span list, its type and whether it is proposed."""

    key: str
    members: tuple[int, ...]
    type: str
    proposed: bool


@dataclass(frozen=True)
class Pair:
    """An ordered concept pair that may hold `relation`, and its closest mention pair (the evidence)."""

    head: int  # concept indices
    tail: int
    relation: str
    head_span: int  # span indices of the closest mentions
    tail_span: int


def concepts_of(spans: list[Span], abbreviations: tuple[tuple[str, str], ...] = ()) -> list[Concept]:
    """Spans grouped by matching key, an acronym with its defined long form; the type of the first mention."""
    alias = {}
    for short, long in abbreviations:
        alias[match_key(long)] = match_key(short)
    groups: dict[str, list[int]] = {}
    for index, span in enumerate(spans):
        key = match_key(span.name) or span.name.lower()
        groups.setdefault(alias.get(key, key), []).append(index)
    found = []
    for key, members in groups.items():
        types = [spans[i].type for i in members]
        found.append(Concept(key, tuple(members), max(TYPES, key=lambda t: (types.count(t), -types.index(t)
                                                                            if t in types else -99)),
                             any(spans[i].role == "proposed" for i in members)))
    return sorted(found, key=lambda c: (spans[c.members[0]].start, c.key))


def relation_of(head_type: str, tail_type: str) -> str | None:
    """The relation whose signature fits an ordered pair of types, if any."""
    for relation, (heads, tails) in SIGNATURES.items():
        if head_type in heads and tail_type in tails:
            return relation
    return None


def sentence_indices(sentences: list[tuple[int, int]], spans: list[Span]) -> list[int]:
    """The index of the sentence holding each span's start (the last sentence starting at or before it)."""
    starts = np.array([s for s, _ in sentences] or [0])
    found = np.searchsorted(starts, np.array([s.start for s in spans], dtype=np.int64), side="right") - 1
    return np.maximum(found, 0).tolist()


def pairs_of(spans: list[Span], concepts: list[Concept], sentences: list[tuple[int, int]]) -> list[Pair]:
    """Every ordered pair of distinct concepts whose types fit a relation, with its closest mentions; only the
    first MAX_CONCEPTS concepts (by first mention) pair, so an abnormally long text costs a bounded amount."""
    sent = sentence_indices(sentences, spans)
    found = []
    concepts = concepts[:MAX_CONCEPTS]
    for h, head in enumerate(concepts):
        for t, tail in enumerate(concepts):
            relation = relation_of(head.type, tail.type) if h != t else None
            if relation is None:
                continue
            a, b = min(((i, j) for i in head.members[:MAX_MENTIONS] for j in tail.members[:MAX_MENTIONS]),
                       key=lambda ij: (abs(sent[ij[0]] - sent[ij[1]]), gap(spans[ij[0]], spans[ij[1]]), ij))
            found.append(Pair(h, t, relation, a, b))
    return found


def gap(a: Span, b: Span) -> int:
    """Characters between two spans (0 when they touch or overlap)."""
    return max(b.start - a.end, a.start - b.end, 0)


def bucket(value: float, edges: tuple[float, ...]) -> list[float]:
    """One-hot of the interval of `edges` holding value (len(edges) + 1 slots; edges sorted, a value on an edge
    goes above it)."""
    out = [0.0] * (len(edges) + 1)
    out[bisect_right(edges, value)] = 1.0
    return out


@lru_cache(maxsize=256)
def sentence_cues(sentence: str) -> tuple[bool, ...]:
    """Which cue patterns a sentence holds (read once per sentence, however many pairs end in it)."""
    return tuple(bool(c.search(sentence)) for c in CUES)


@lru_cache(maxsize=4096)
def named(name: str) -> bool:
    """Whether a surface form looks like a name (a capital or digit after its first letter, or all capitals)."""
    return any(c.isupper() or c.isdigit() for c in name[1:]) or name.isupper()


@dataclass(frozen=True)
class PaperFacts:
    """What the sparse features read per concept, type or sentence of one abstract, computed once per abstract
    instead of once per pair."""

    ranks: list[int]  # per concept: rank_of
    same_type: dict[str, int]  # per type: how many concepts have it
    proposed: int  # how many concepts are proposed
    proposing: list[bool]  # per sentence: whether it says `we propose` (PROPOSAL)
    own_starts: list[list[int]]  # per concept: the sorted starts of its mentions


def paper_facts(text: str, spans: list[Span], concepts: list[Concept], sentences: list[tuple[int, int]]) -> PaperFacts:
    """The per-abstract values of `sparse_features`."""
    return PaperFacts([rank_of(concepts, i) for i in range(len(concepts))], Counter(c.type for c in concepts),
                      sum(c.proposed for c in concepts), [bool(PROPOSAL.search(text[s:e])) for s, e in sentences],
                      [sorted(spans[i].start for i in c.members) for c in concepts])


def sparse_features(text: str, spans: list[Span], concepts: list[Concept], pair: Pair,
                    sentences: list[tuple[int, int]], first_proposed: int, sent: list[int],
                    starts: dict[str, list[int]], facts: PaperFacts) -> np.ndarray:
    """Types, roles, distances, mention counts, cue words, names and positions of one pair (SPARSE values), as one
    float32 array made from one list (`facts`: what does not depend on the pair)."""
    head, tail = concepts[pair.head], concepts[pair.tail]
    a, b = spans[pair.head_span], spans[pair.tail_span]
    sa, sb = sent[pair.head_span], sent[pair.tail_span]
    lo, hi = (a, b) if a.start <= b.start else (b, a)
    between = text[lo.end:hi.start] if sa == sb else ""
    sentence_b = text[sentences[sb][0]:sentences[sb][1]] if sentences else ""  # cues read once per sentence
    tail_sentences = Counter(sent[j] for j in tail.members)
    shared = sum(tail_sentences[sent[i]] for i in head.members)  # mention pairs sharing a sentence
    values = [*HOT_TYPE[TYPES.index(head.type)], *HOT_TYPE[TYPES.index(tail.type)],
              *HOT_RELATION[RELATIONS.index(pair.relation)],
              *bucket(abs(sa - sb), (1, 2, 3)), *bucket(gap(a, b), (20, 60, 150)),
              head.proposed, tail.proposed, pair.head == first_proposed, a.start <= b.start,
              np.log1p(len(head.members)), np.log1p(len(tail.members)),
              *bucket(shared, (1, 2)), sa == 0, sb == 0, *bucket(facts.same_type[tail.type], (2, 4)),
              *(bool(c.search(between)) for c in CUES), *sentence_cues(sentence_b),
              *bucket(facts.ranks[pair.head], (1, 2)), *named_pair(a, b),
              *bucket(sb / max(len(sentences), 1), (0.34, 0.67)),
              facts.proposing[sa] if sentences else False,
              intervening(spans, pair, starts[head.type], facts.own_starts[pair.head]),
              *bucket(facts.proposed, (1, 2)), len(head.members) > len(tail.members), 1.0]
    return np.array(values, dtype=np.float32)


def rank_of(concepts: list[Concept], index: int) -> int:
    """0 for the most mentioned concept of its type group (method/model count as one), 1 for the next, …"""
    group = ("method", "model") if concepts[index].type in ("method", "model") else (concepts[index].type,)
    counts = sorted((-len(c.members), i) for i, c in enumerate(concepts) if c.type in group)
    return [i for _, i in counts].index(index)


def named_pair(a: Span, b: Span) -> list[float]:
    """Whether head and tail look like names, as four one-hot values (both, head only, tail only, neither)."""
    out = [0.0] * 4
    out[2 * (not named(a.name)) + (not named(b.name))] = 1.0
    return out


def intervening(spans: list[Span], pair: Pair, starts: list[int], own: list[int]) -> bool:
    """Whether a mention of another concept of the head's type (`starts`: sorted starts of that type's mentions;
    `own`: of the head's) stands between the closest mentions."""
    a, b = spans[pair.head_span], spans[pair.tail_span]
    lo, hi = min(a.end, b.end), max(a.start, b.start)
    inside = bisect_left(starts, hi) - bisect_left(starts, lo)
    return inside > bisect_left(own, hi) - bisect_left(own, lo)


def type_starts(spans: list[Span], concepts: list[Concept], kind: str) -> list[int]:
    """The sorted starts of every mention of the concepts of one type."""
    return sorted(spans[i].start for c in concepts if c.type == kind for i in c.members)


def span_vectors(pieces: Pieces, states: np.ndarray, spans: list[Span]) -> np.ndarray:
    """(spans, d) mean state of each span's pieces (zeros for a span no piece covers)."""
    vectors = np.zeros((len(spans), states.shape[1]), dtype=np.float32)
    if not spans or not len(states):
        return vectors
    ranges = span_pieces(pieces, np.array([(s.start, s.end) for s in spans]))
    total = np.concatenate([np.zeros((1, states.shape[1]), np.float32), np.cumsum(states, axis=0, dtype=np.float32)])
    for i, (first, last) in enumerate(ranges):
        if first >= 0:
            vectors[i] = (total[last + 1] - total[first]) / (last - first + 1)
    return vectors


def between_pieces(pieces: Pieces, a: Span, b: Span) -> np.ndarray:
    """(pieces,) bool: the pieces lying wholly between two spans."""
    lo, hi = (a, b) if a.start <= b.start else (b, a)
    return (pieces.offsets[:, 0] >= lo.end) & (pieces.offsets[:, 1] <= hi.start)


def between_vector(pieces: Pieces, states: np.ndarray, a: Span, b: Span, same_sentence: bool) -> np.ndarray:
    """The mean state of the pieces between two spans of one sentence (zeros otherwise or when none)."""
    if not same_sentence or not len(states):
        return np.zeros(states.shape[1], dtype=np.float32)
    inside = between_pieces(pieces, a, b)
    return states[inside].mean(axis=0) if inside.any() else np.zeros(states.shape[1], dtype=np.float32)


def pair_features(text: str, spans: list[Span], concepts: list[Concept], pairs: list[Pair],
                  sentences: list[tuple[int, int]], pieces: Pieces, states: np.ndarray) -> np.ndarray:
    """(pairs, 4d + SPARSE) features: head and tail concept states, their product, the words between the
    closest mentions, and the sparse pair features."""
    d = states.shape[1] if states.ndim == 2 else 0
    if not pairs:
        return np.zeros((0, 4 * d + SPARSE), dtype=np.float32)
    vectors = span_vectors(pieces, states, spans)
    concept_vectors = np.stack([vectors[list(c.members)].mean(axis=0) for c in concepts])
    sent = sentence_indices(sentences, spans)
    starts = {kind: type_starts(spans, concepts, kind) for kind in TYPES}
    proposed = [i for i, c in enumerate(concepts) if c.proposed]
    first_proposed = proposed[0] if proposed else -1
    facts = paper_facts(text, spans, concepts, sentences)
    rows = []
    for pair in pairs:
        a, b = spans[pair.head_span], spans[pair.tail_span]
        same = sent[pair.head_span] == sent[pair.tail_span]
        h, t = concept_vectors[pair.head], concept_vectors[pair.tail]
        rows.append(np.concatenate([h, t, h * t, between_vector(pieces, states, a, b, same),
                                    sparse_features(text, spans, concepts, pair, sentences, first_proposed, sent,
                                                    starts, facts)]))
    return np.stack(rows).astype(np.float32)
