"""Combine candidates from several extractors into non-overlapping, typed mentions with roles."""
from __future__ import annotations

from collections import defaultdict

from kg.extract import Candidate

CUE_EXTRACTORS = frozenset({"proposals"})  # their candidates mark roles, not entities
KNOWN_EXTRACTORS = frozenset({"gazetteer"})  # well-known entities: never the paper's proposal


def choose_spans(candidates: list[Candidate]) -> list[Candidate]:
    """Non-overlapping spans, longest first, then by score."""
    chosen: list[Candidate] = []
    for candidate in sorted(candidates, key=lambda c: (c.start - c.end, -c.score, c.start)):
        if all(candidate.end <= c.start or candidate.start >= c.end for c in chosen):
            chosen.append(candidate)
    return chosen


def best_types(candidates: list[Candidate]) -> dict[tuple[int, int], Candidate]:
    """For each span, the candidate of the highest score (it carries the type)."""
    best: dict[tuple[int, int], Candidate] = {}
    for candidate in candidates:
        span = (candidate.start, candidate.end)
        if span not in best or candidate.score > best[span].score:
            best[span] = candidate
    return best


def proposed(candidate: Candidate, cues: list[Candidate], known: bool) -> bool:
    """Whether a role cue covers the candidate (well-known entities are never proposed)."""
    return not known and any(c.start <= candidate.start and candidate.end <= c.end for c in cues)


def combine(candidates: list[Candidate]) -> list[Candidate]:
    """Mentions from candidates: span choice, type of the best candidate of the span, role from cues."""
    cues = [c for c in candidates if c.extractor in CUE_EXTRACTORS]
    entities = [c for c in candidates if c.extractor not in CUE_EXTRACTORS]
    best = best_types(entities)
    sources: dict[tuple[int, int], set[str]] = defaultdict(set)
    for candidate in entities:
        sources[candidate.start, candidate.end].add(candidate.extractor)
    result = []
    for span in choose_spans(list(best.values())):
        top = best[span.start, span.end]
        role = "proposed" if proposed(top, cues, bool(sources[span.start, span.end] & KNOWN_EXTRACTORS)) else "used"
        result.append(Candidate(top.start, top.end, top.type, role, top.score, top.extractor))
    return sorted(result)
