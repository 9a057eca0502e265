"""Combine candidates from several extractors into non-overlapping mentions."""
from __future__ import annotations

from kg.extract import Candidate


def combine(candidates: list[Candidate]) -> list[Candidate]:
    """Keep the best candidate of each overlapping group: higher score, then longer span."""
    chosen: list[Candidate] = []
    for candidate in sorted(set(candidates), key=lambda c: (-c.score, c.start - c.end, c.start)):
        if all(candidate.end <= c.start or candidate.start >= c.end for c in chosen):
            chosen.append(candidate)
    return sorted(chosen)
