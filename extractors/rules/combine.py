"""Combine candidates from several extractors into non-overlapping, typed mentions with roles."""
from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from spacy.tokens import Doc

from kg.extraction.doccache import text as doc_text
from kg.text.abbreviations import Abbreviation
from kg.extraction.interface import Candidate, CombineFn, DocContext
from kg.registry import combiners
from kg.text.keys import normal_form

WEAK_TYPES_KEPT = frozenset({"task"})  # weak phrases are the main source of task names: kept on their own
PREFIX_TYPES = frozenset({"dataset", "metric", "model"})  # as a leading modifier they name the setting, not the thing
SETTING_TYPES = frozenset({"dataset", "metric"})  # ... also before another name (`ImageNet FID`, not `BERT-Large`)




def drop_prefixed(entities: list[Candidate], text: str = "") -> list[Candidate]:
    """Drop found spans that begin with a known dataset or metric (`ImageNet classification`, `ImageNet FID`)
    or join a known name to a known metric (`LibriSpeech WER`); a weak phrase also loses a known model prefix."""
    known = [c for c in entities if c.strength == "known"]
    prefixes = {c.start: c.end for c in known if c.type in PREFIX_TYPES}
    settings = {c.start: c.end for c in known if c.type in SETTING_TYPES}
    metrics = {c.end: c.start for c in known if c.type == "metric"}

    def joined(c: Candidate) -> bool:
        if c.strength == "known":
            return False
        weak = c.strength == "weak"
        prefix_end = (prefixes if weak else settings).get(c.start, c.end)
        if prefix_end < c.end and (weak or text[prefix_end:prefix_end + 1] == " "):
            return True
        return metrics.get(c.end, c.start) > c.start and text[metrics[c.end] - 1:metrics[c.end]] == " "

    return [c for c in entities if not joined(c)]


def choose_spans(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Non-overlapping spans, longest first, then by score (overlap found by bisection: linear-logarithmic)."""
    chosen: list[Candidate] = []
    starts: list[int] = []  # chosen non-empty spans, sorted; they never overlap, so their ends are sorted too
    ends: list[int] = []
    points: list[int] = []  # chosen empty spans
    for candidate in sorted(candidates, key=lambda c: (c.start - c.end, -c.score, c.start)):
        start, end = candidate.start, candidate.end
        before = bisect_left(starts, max(end, start))
        if before and ends[before - 1] > start:
            continue  # overlaps the chosen span that starts last before it ends
        if end > start and bisect_right(points, start) < bisect_left(points, end):
            continue  # contains a chosen empty span
        if end > start:
            starts.insert(before, start)
            ends.insert(before, end)
        else:
            insort(points, start)
        chosen.append(candidate)
    return chosen


def head_typed(span: Candidate, candidates: list[Candidate]) -> Candidate:
    """The best candidate ending where the span ends inside it: the head decides the type."""
    inside = [c for c in candidates if c.end == span.end and c.start >= span.start]
    return max(inside, key=lambda c: (c.score, c.end - c.start))


def by_end(candidates: list[Candidate]) -> dict[int, list[Candidate]]:
    """The candidates grouped by their end, in order (what `head_typed` looks at)."""
    groups: dict[int, list[Candidate]] = defaultdict(list)
    for c in candidates:
        groups[c.end].append(c)
    return groups


def group_keys(text: str, chosen: list[Candidate], abbreviations: Iterable[Abbreviation]) -> list[str]:
    """A key per chosen span: its normal form, with defined short forms mapped to their long forms."""
    longs = {normal_form(a.short): normal_form(a.long) for a in abbreviations}
    return [longs.get(k, k) for k in (normal_form(text[c.start:c.end]) for c in chosen)]


def unify_types(chosen: list[Candidate], typed: list[Candidate], keys: list[str]) -> list[str]:
    """One type per concept in the paper: the type of its most confident mention."""
    best: dict[str, Candidate] = {}
    for key, candidate in zip(keys, typed):
        if key not in best or candidate.score > best[key].score:
            best[key] = candidate
    return [best[key].type for key in keys]


def confirmed(chosen: list[Candidate], keys: list[str], cues: list[Candidate], text: str = "") -> tuple[list, list]:
    """Drop weak mentions (weak tasks excepted) unless the paper repeats them or a cue covers them."""
    counts: dict[str, int] = defaultdict(int)
    for key in keys:
        counts[key] += 1

    def weak(c: Candidate) -> bool:
        return c.strength == "weak" and c.type not in WEAK_TYPES_KEPT

    keep = [(c, k) for c, k in zip(chosen, keys) if not weak(c) or counts[k] > 1 or covered(c, cues)]
    return [c for c, _ in keep], [k for _, k in keep]


def covered(candidate: Candidate, cues: list[Candidate]) -> bool:
    """Whether a role cue covers the candidate."""
    return any(c.start <= candidate.start and candidate.end <= c.end for c in cues)


def combine(candidates: list[Candidate], text: str = "", abbreviations: Iterable[Abbreviation] = ()) -> list[Candidate]:
    """Mentions from candidates: span choice, head typing unified per concept, role from cues."""
    entities = [c for c in candidates if c.kind == "entity"]
    cues = [c for c in candidates if c.kind == "cue" or c.role == "proposed"]
    known = {(c.start, c.end) for c in entities if c.strength == "known"}
    chosen = choose_spans(drop_prefixed(entities, text))
    keys = group_keys(text, chosen, abbreviations)
    chosen, keys = confirmed(chosen, keys, cues, text)
    ends = by_end(entities)
    typed = [head_typed(c, ends[c.end]) for c in chosen]
    types = unify_types(chosen, typed, keys)
    proposed_keys = {k for k, c in zip(keys, chosen) if covered(c, cues) and (c.start, c.end) not in known}
    result = [replace(c, type=t, role="proposed" if k in proposed_keys else "used")
              for c, t, k in zip(chosen, types, keys) if not bare_head(text[c.start:c.end], k, t, keys, types)]
    return sorted(result)


def bare_head(surface: str, key: str, entity_type: str, keys: list[str], types: list[str]) -> bool:
    """A one-word, lower-case concept that the paper also names more specifically with the same type
    (`watermarking` next to `text watermarking`, `fine-tuning` next to `supervised fine-tuning`): the short form
    refers back to the specific one, so it is not a concept of its own."""
    if not surface.islower() or any(c.isspace() or c.isdigit() for c in surface):
        return False
    suffix = " " + key
    return any(k.endswith(suffix) and t == entity_type for k, t in zip(keys, types) if k != key)


@combiners.register("rules")
def make_rules_combiner(weights: Path | None = None) -> CombineFn:
    """Factory: `combine` as the combining stage (the default); it reads no weights (`weights` is ignored)."""

    def combine_paper(doc: Doc, context: DocContext, candidates: list[Candidate]) -> list[Candidate]:
        return combine(candidates, doc_text(doc), context.abbreviations)

    return combine_paper
