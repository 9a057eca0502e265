"""Corpus-wide decisions about a concept once its mentions are grouped: its one type (every paper's reading,
the kind words abstracts define it by, the gazetteer's type, which rarely loses), the reading of a bare acronym
that names different concepts (GQA the dataset, GQA grouped-query attention), and whether a paper can have
proposed it (not a well-known entity introduced years before the paper, not a concept many papers name unless
the paper's own text coins it)."""
from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Mapping

from kg.graph.evidence import coined_here, defined_type
from kg.graph.knowledge import Knowledge
from kg.types import ENTITY_TYPES, Mention

TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}
DEFINED_WEIGHT = 3  # a paper defining the name by a kind word counts as this many papers' readings
KNOWN_WEIGHT = 2  # the gazetteer's type counts as twice all readings: only definitions in a third of papers beat it
NOT_MEASURES = frozenset("unit network model machine layer algorithm method coefficient architecture "
                         "dataset corpus benchmark".split())  # head nouns of things, not of measures
PROCESS_HEADS = frozenset("learning answering detection classification recognition segmentation generation reasoning "
                          "retrieval translation prediction estimation tracking summarization captioning parsing "
                          "planning forecasting".split())  # head nouns of tasks: a lower-case phrase ending so is no dataset
MANY_PAPERS = 8  # a concept named by this many papers is proposed by one only if its text coins it
YEAR_SLACK = 1  # a venue's year may trail the preprint that introduced a name by a year


def readings(group: Iterable[Mention]) -> Counter:
    """The model's reading of the concept: its mentions' confidence summed per type."""
    found: Counter = Counter()
    for mention in group:
        found[mention.type] += mention.score
    return found


def defined_votes(group: Iterable[Mention], texts: Mapping[str, str]) -> Counter:
    """Papers per type whose abstract defines the name by a kind word (`X, a benchmark ...`)."""
    found = {(m.paper_id, t) for m in group if m.paper_id in texts
             and (t := defined_type(texts[m.paper_id], m.start, m.end))}
    return Counter(t for _, t in found)


def concept_type(group: list[Mention], known: str | None = None, defined: Counter | None = None) -> str:
    """The concept's type: its mentions' summed confidence per type, plus DEFINED_WEIGHT papers' worth for each
    paper defining it by a kind word, and the gazetteer's type weighing KNOWN_WEIGHT times all mentions (ties
    go to it); a metric whose head noun names a thing that is not a measure (`linear unit`, `network`) takes
    the next type, else method; a dataset written in lower case whose head noun names a process (`k-shot learning`,
    `question answering`) takes the next type, else task."""
    votes = readings(group)
    total = sum(votes.values())
    per_paper = total / max(1, len({m.paper_id for m in group}))
    for entity_type, papers in (defined or Counter()).items():
        votes[entity_type] += DEFINED_WEIGHT * per_paper * papers
    if known:
        votes[known] += max(1.0, KNOWN_WEIGHT * total)
    ranked = sorted(votes, key=lambda t: (-votes[t], t != known, TYPE_ORDER[t]))
    written = (group[0].name or group[0].text) if group else ""
    head = written.split()[-1].lower() if written else ""
    if ranked and ranked[0] == "metric" and known != "metric" and head.rstrip("s") in NOT_MEASURES:
        return ranked[1] if len(ranked) > 1 else "method"
    if ranked and ranked[0] == "dataset" and known != "dataset" and written.islower() and head in PROCESS_HEADS:
        return ranked[1] if len(ranked) > 1 else "task"
    return ranked[0] if ranked else "method"


def typed_reading(readings: Mapping[str, int], default: str, mention_type: str,
                  type_of: Callable[[str], str | None]) -> str:
    """The concept a bare acronym names in a paper that does not define it: the default reading, unless its type
    differs from the mention's and another reading (the corpus's definitions, the gazetteer's) has that type."""
    if type_of(default) in (None, mention_type):
        return default
    fitting = [k for k in readings if k != default and type_of(k) == mention_type]
    return max(sorted(fitting), key=readings.get) if fitting else default


def may_propose(mentions: list[Mention], text: str | None, year: int | None, known: bool, introduced: int | None,
                papers: int) -> bool:
    """Whether a paper's proposed mentions of a concept can stand: never for a well-known name introduced more
    than YEAR_SLACK years before the paper; for a name the gazetteer knows or MANY_PAPERS papers name, only when
    the paper's text coins it (`we propose X`, `termed X`, `X, a novel ...`)."""
    if introduced is not None and year is not None and year > introduced + YEAR_SLACK:
        return False
    if not known and papers < MANY_PAPERS:
        return True
    return text is not None and any(coined_here(text, m.start, m.end) for m in mentions)


def known_entry(members: list[str], knowledge: Knowledge) -> str | None:
    """The gazetteer's canonical key for a group, when its member keys name exactly one entry."""
    found = {key for key in map(knowledge.key_of, members) if key in knowledge.names}
    return next(iter(found)) if len(found) == 1 else None
