"""Choosing a result's subject and dataset among the paper's mentions: each candidate (a distinct name of the
right type, at its occurrence nearest the number, or a stand-in: the unnamed proposal, an unnamed baseline, no
dataset) gets pair features; the trained layer scores them and the likeliest wins."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from spacy.tokens import Doc

from kg.extraction.doccache import text as doc_text
from kg.extraction.interface import Candidate, CandidateRelation
from kg.extractors.results.features import token_at
from kg.extractors.results.numbers import Number
from kg.extractors.results.syntax import governors, path_features, root

SUBJECT_TYPES, DATASET_TYPES = ("method", "model"), ("dataset",)
PROPOSAL, BASELINE, NONE = "(proposed)", "(baseline)", "(none)"
OURS = {"we", "our", "ours", "us"}
COMPARE = {"over", "than", "against", "versus", "vs", "vs.", "compared", "relative", "outperform", "outperforms",
           "outperforming", "surpass", "surpasses", "surpassing", "beat", "beats", "baseline", "baselines"}


@dataclass(frozen=True)
class Option:
    """A candidate answer: a mention (its nearest occurrence) or a stand-in name (PROPOSAL, BASELINE, NONE)."""

    name: str
    mention: Candidate | None = None


@dataclass(frozen=True)
class Place:
    """Where a number is: its first and last token, its sentence's index and token bounds, its clause subject."""

    first: int
    last: int
    sentence: int
    bounds: tuple[int, int]
    subject: tuple[int, int] | None  # character span of the clause's grammatical subject
    related: dict[str, frozenset[str]] = field(default_factory=dict)  # name -> 'source:evaluated_on', ... (sentence)
    order: dict[str, str] = field(default_factory=dict)  # name -> 'firstafter' / 'lastbefore' among its type
    paper: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> its standing in the paper


def bucket(n: int, edges: Sequence[int] = (0, 2, 5, 10, 20)) -> str:
    """A distance as a coarse class."""
    return next((f"<={e}" for e in edges if n <= e), f">{edges[-1]}")


def options(doc: Doc, number: Number, mentions: Sequence[Candidate], types: Sequence[str],
            stand_ins: Sequence[str]) -> list[Option]:
    """One option per distinct name of `types` (its occurrence nearest the number), then the stand-ins."""
    best: dict[str, Candidate] = {}
    for m in mentions:
        if m.kind != "entity" or m.type not in types or m.start <= number.start < m.end:
            continue
        name = doc_text(doc)[m.start:m.end].casefold()
        if name not in best or distance(m, number) < distance(best[name], number):
            best[name] = m
    return [Option(n, best[n]) for n in sorted(best, key=lambda n: best[n].start)] + [Option(s) for s in stand_ins]


def related_in(doc: Doc, relations: Sequence[CandidateRelation], bounds: tuple[int, int]) -> dict[str, frozenset[str]]:
    """Each name's part in the relations the relation head found in a sentence (character bounds):
    'source:evaluated_on', 'target:evaluated_on', ..."""
    found: dict[str, set[str]] = {}
    for r in relations:
        if bounds[0] <= r.source.start < bounds[1] and bounds[0] <= r.target.start < bounds[1]:
            for part, m in (("source", r.source), ("target", r.target)):
                found.setdefault(doc_text(doc)[m.start:m.end].casefold(), set()).add(f"{part}:{r.relation}")
    return {name: frozenset(parts) for name, parts in found.items()}


def order_in(doc: Doc, number: Number, mentions: Sequence[Candidate], bounds: tuple[int, int],
             numbers: Sequence[Number] = ()) -> dict[str, str]:
    """Per type, the name of the sentence's first mention after the number and of its last mention before it; in a
    sentence saying 'respectively', the name whose place among its type's names is the number's among the
    sentence's numbers of its unit (a range counts once)."""
    order: dict[str, str] = {}
    listed = [n for n in numbers if bounds[0] <= n.start < bounds[1] and n.unit == number.unit and n.bound != "up to"]
    place = next((k for k, n in enumerate(listed) if n.start >= number.start or n.end >= number.start), -1) \
        if "respectively" in doc_text(doc)[bounds[0]:bounds[1]].lower() else -1
    if number.bound == "up to":
        place = max(0, place - 1) if place >= 0 else place
    for types in (SUBJECT_TYPES, DATASET_TYPES):
        inside = [m for m in mentions if m.type in types and bounds[0] <= m.start < bounds[1]]
        after = [m for m in inside if m.start >= number.unit_end]
        before = [m for m in inside if m.end <= number.start]
        names = list(dict.fromkeys(doc_text(doc)[m.start:m.end].casefold() for m in inside))
        if 0 <= place < len(names) and len(listed) > 1:
            order[names[place]] = "respectively"
        if before:
            order.setdefault(doc_text(doc)[before[-1].start:before[-1].end].casefold(), "lastbefore")
        if after:
            order.setdefault(doc_text(doc)[after[0].start:after[0].end].casefold(), "firstafter")
    return order


def standing(doc: Doc, mentions: Sequence[Candidate]) -> dict[str, tuple[str, ...]]:
    """Each name's standing in the paper among the names of its type group: the first named, the most named, the
    first proposed, in the first sentence, and its shape (an acronym-like name or words)."""
    first_end = next(iter(doc.sents)).end_char if len(doc) else 0
    found: dict[str, list[str]] = {}
    for types in (SUBJECT_TYPES, DATASET_TYPES):
        group = [m for m in mentions if m.type in types]
        names = [doc_text(doc)[m.start:m.end].casefold() for m in group]
        counts = {n: names.count(n) for n in names}
        proposed = [n for n, m in zip(names, group) if m.role == "proposed"]
        for n, m in zip(names, group):
            if n in found:
                continue
            text = doc_text(doc)[m.start:m.end]
            found[n] = [f"shape:{'upper' if any(c.isupper() for c in text[1:]) else 'digit' if any(c.isdigit() for c in text) else 'words'}"]
            found[n] += ["first"] if n == names[0] else []
            found[n] += ["most"] if counts[n] == max(counts.values()) else []
            found[n] += ["first_proposed"] if proposed and n == proposed[0] else []
            found[n] += ["opening"] if m.start < first_end else []
    return {n: tuple(f) for n, f in found.items()}


def distance(m: Candidate, number: Number) -> int:
    """Characters between a mention and a number."""
    return number.start - m.end if m.end <= number.start else m.start - number.end


def sentence_of(starts: Sequence[int], char: int) -> int:
    """The index of the sentence (by start offsets) holding a character."""
    return max(0, bisect_right(starts, char) - 1)


def word_before(doc: Doc, char: int) -> str:
    """The lower-cased word right before a character offset."""
    i = token_at(doc, char)
    return doc[i - 1].lower_ if i > 0 and doc[i].idx >= char else doc[i].lower_ if doc[i].idx < char else "<s>"


def context_features(doc: Doc, place: Place, kind: str, has_proposed: bool, actors: int) -> list[str]:
    """What every option of a number shares: the kind, the clause subject's words and head, comparison words, the
    words governing the number, how many actor mentions its sentence has."""
    start, end = place.bounds
    words = {t.lower_ for t in doc[start:end]}
    clause = doc.char_span(*place.subject, alignment_mode="expand") if place.subject else None
    subject_words = {t.lower_ for t in clause} if clause is not None else set()
    head = clause.root.lemma_.lower() if clause is not None and clause.root.pos_ in ("NOUN", "PRON") else \
        clause.root.pos_ if clause is not None else "<none>"
    return [f"kind:{kind}", f"ours:{bool(subject_words & OURS)}", f"cmp:{bool(words & COMPARE)}",
            f"subjbase:{'baseline' in subject_words or 'baselines' in subject_words}", f"hasprop:{has_proposed}",
            f"subjhead:{head}", f"actors:{min(actors, 2)}", *governors(doc[place.first], doc[start:end])]


def option_features(doc: Doc, number: Number, option: Option, place: Place, starts: Sequence[int],
                    context: list[str], counts: dict[str, int], nearest_rank: int) -> list[str]:
    """The pair features of one option for one number (stand-ins: their name crossed with the context)."""
    if option.mention is None:
        return [f"stand:{option.name}"] + [f"stand:{option.name}:{c}" for c in context]
    m = option.mention
    gap = sentence_of(starts, number.start) - sentence_of(starts, m.start)
    where = "same" if gap == 0 else f"prev{min(gap, 3)}" if gap > 0 else "next"
    side = "before" if m.end <= number.start else "after"
    tokens = abs(token_at(doc, m.start) - place.first)
    feats = [f"where:{where}", f"where:{where}:{side}", f"dist:{where}:{bucket(tokens)}", f"role:{m.role}",
             f"type:{m.type}", f"prev:{word_before(doc, m.start)}", f"count:{min(counts.get(option.name, 1), 3)}",
             f"rank:{where}:{min(nearest_rank, 2)}", f"role:{m.role}:{where}"]
    if place.subject and place.subject[0] <= m.start < place.subject[1]:
        feats.append("in_subject")
    feats += [f"rel:{r}" for r in sorted(place.related.get(option.name, ()))]
    feats += [f"paper:{f}" for f in place.paper.get(option.name, ())]
    if m.extractor == "results-phrase":  # words naming data (kg.extractors.results.phrases), not an entity
        feats += [f"phrase:{where}", f"phrasehead:{doc_text(doc)[m.start:m.end].split()[-1].lower()}"]
    if option.name in place.order:
        feats.append(f"order:{place.order[option.name]}")
    if where == "same":
        between = doc_text(doc)[m.end:number.start] if side == "before" else doc_text(doc)[number.unit_end:m.start]
        words = between.split()
        feats.append(f"nums_between:{min(sum(any(c.isdigit() for c in w) for w in words), 2)}")
        feats += [f"btw:{side}:{w.lower().strip('.,;:()')}" for w in words[:4] + words[-2:]]
        if len(words) <= 3:
            feats.append(f"tight:{side}:{' '.join(w.lower() for w in words)}")
        feats += path_features(doc[place.first], root(doc, m.start, m.end))
    return feats + [f"{context[0]}:{f}" for f in feats[:3]]


def choose(layer, doc: Doc, number: Number, opts: list[Option], place: Place, starts: Sequence[int],
           context: list[str], counts: dict[str, int], exclude: frozenset[str] = frozenset()
           ) -> tuple[Option, list[list[str]]]:
    """The likeliest option under `layer` (None: the features only, for training), never one named in `exclude`
    while another is left, and every option's features."""
    ranks = {o.name: r for r, o in enumerate(sorted((o for o in opts if o.mention is not None),
                                                    key=lambda o: distance(o.mention, number)))}
    feats = [option_features(doc, number, o, place, starts, context, counts, ranks.get(o.name, 0)) for o in opts]
    if layer is None or not opts:
        return (opts[0] if opts else Option(NONE)), feats
    probs = layer.probabilities(feats)[:, 1]
    if exclude and any(o.name not in exclude for o in opts):
        probs = np.where([o.name in exclude for o in opts], -np.inf, probs)
    return opts[int(probs.argmax())], feats
