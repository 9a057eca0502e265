"""Entity-entity relations stated within one sentence, from the combined mentions and cue words."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from spacy.tokens import Doc

from kg.extraction.doccache import sentence_at, text as doc_text
from kg.extraction.interface import Candidate, CandidateRelation, RelateFn
from kg.registry import relators

# (source types, target types, relation, cue between or around the pair)
RULES = (
    (("method", "model"), ("dataset",), "evaluated_on",
     re.compile(r"\b(?:on|across|evaluat\w*|benchmark\w*|experiment\w*|test\w*)\b", re.I)),
    (("method", "model"), ("task",), "applied_to",
     re.compile(r"\b(?:for|to|in|on|address\w*|tackl\w*|solv\w*|improv\w*)\b", re.I)),
    (("task", "method", "model"), ("metric",), "measured_by",
     re.compile(r"\b(?:measur\w*|in terms of|evaluat\w*|achiev\w*|report\w*|metric\w*|scor\w*|by|with)\b", re.I)),
    (("model",), ("method",), "based_on",
     re.compile(r"\b(?:based on|built on|build\w* on|using|uses|with|via|trained|fine-tuned|relies on)\b", re.I)),
)
MAX_GAP = 120  # characters between the two mentions


def sentence_groups(doc: Doc, candidates: list[Candidate]) -> list[list[Candidate]]:
    """Candidates grouped by the sentence they start in."""
    groups: dict[int, list[Candidate]] = {}
    for candidate in candidates:
        if len(doc) and candidate.end > candidate.start:
            groups.setdefault(sentence_at(doc, candidate.start)[0], []).append(candidate)
    return [groups[k] for k in sorted(groups)]


def relation_of(text: str, source: Candidate, target: Candidate) -> str | None:
    """The first rule whose types fit and whose cue appears between the two mentions."""
    left, right = sorted((source, target))
    if right.start - left.end > MAX_GAP or right.start < left.end:
        return None
    between = text[left.end:right.start]
    for sources, targets, relation, cue in RULES:
        if source.type in sources and target.type in targets and cue.search(between):
            return relation
    return None


def near_pairs(ordered: list[Candidate]) -> Iterator[tuple[Candidate, Candidate]]:
    """Both orders of each pair of sorted candidates at most MAX_GAP apart (farther pairs cannot relate):
    linear in a sentence's mentions, where all pairs would be quadratic."""
    for index, left in enumerate(ordered):
        for right in ordered[index + 1:]:
            if right.start - left.end > MAX_GAP:
                break
            yield left, right
            yield right, left


def relate(doc: Doc, candidates: list[Candidate]) -> list[CandidateRelation]:
    """Relations between mentions of one sentence (each ordered pair at most once)."""
    found, text = [], doc_text(doc)
    for group in sentence_groups(doc, candidates):
        for source, target in near_pairs(sorted(group)):
            relation = relation_of(text, source, target)
            if relation and text[source.start:source.end] != text[target.start:target.end]:
                found.append(CandidateRelation(relation, source, target))
    return sorted(set(found))


@relators.register("sentence_cues")
def make_sentence_cues(weights: Path | None = None) -> RelateFn:
    """Factory: the relator above (typed pairs of one sentence with a cue word between them; no weights)."""
    return lambda doc, context, candidates: relate(doc, candidates)
