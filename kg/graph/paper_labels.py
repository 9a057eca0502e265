"""Short labels a person recognises for papers without a title, computed once per resolution (`kg.graph.tables`).

A title-less paper (the seed listings have none) is labelled so that it reads as a paper, never as an entity
or a community name ("A · B · C"): by the name it proposes when that looks coined ("Paper proposing
Blorp-Selfie"), else by the first few entities it names ("Paper on graph coloring, message passing"), else
by the abstract's opening words, quoted, with the boilerplate opening ("In this paper, we propose") dropped.
Labels are made unique by appending key words, then the paper id. GraphML and RDF read the same `label`.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, NamedTuple, Sequence

from kg.text.shorten import shorten
from kg.types import Paper

NAME_LENGTH = 48  # longer proposed "names" are descriptions, not names
KEY_WORDS = 3  # entities joined into a key-word label
KEY_LENGTH = 60
OPENING_SOURCE = 2000  # raw characters read for opening words (a million-character abstract stays cheap)
COMMON_SHARE, COMMON_MIN = 0.05, 3  # entities named by more papers are too common to tell papers apart
TYPE_ORDER = ("model", "method", "dataset", "metric", "task")
CODED = re.compile(r"\w[A-Z0-9]|[A-Z0-9]-|-[A-Z0-9]|^[A-Z]{2}")  # a capital or digit inside: coined
BOILERPLATE = re.compile(r"^(?:(?:in|with|here)\s+(?:this|our)\s+(?:paper|work|study)\s*,?\s*|here\s*,?\s*)?"
                         r"(?:we\s+(?:propose|present|introduce|study|consider|show|develop|describe)\s+)?"
                         r"(?:(?:a|an|the)\s+)?", re.I)


def looks_coined(label: str, at_sentence_start: bool) -> bool:
    """Whether an entity name looks like a coined name rather than a description."""
    if len(label) > NAME_LENGTH or len(label) < 2:
        return False
    if CODED.search(label):
        return True
    words = label.split()
    if len(words) > 1 and not at_sentence_start:
        return all(word[0].isupper() for word in words)  # "Quill Gate", "Glimmer Tuning"
    return label[0].isupper() and " " not in label and len(label) > 3 and not at_sentence_start


class Named(NamedTuple):
    """One entity a paper names, as its label reads it: the entity's label, type and papers, the link's role, and
    where its first mention and that mention's sentence start."""

    label: str
    type: str
    papers: int
    role: str
    start: int
    sentence_start: int


def proposed_name(named: Iterable[Named]) -> str | None:
    """The coined name the paper proposes, preferring models, methods, datasets, then earliest."""
    names = [(TYPE_ORDER.index(n.type) if n.type in TYPE_ORDER else len(TYPE_ORDER), n.start, n.label)
             for n in named if n.role == "proposed" and looks_coined(n.label, n.start == n.sentence_start)]
    return min(names)[2] if names else None


def key_words(named: Iterable[Named], common: int, skip: str | None = None) -> str | None:
    """A few entities the paper names, distinctive ones (≤ `common` papers) first, in reading order."""
    words: list[str] = []
    for _, _, label in sorted((n.papers > common, n.start, n.label) for n in named if n.label != skip):
        if label and label.lower() not in {w.lower() for w in words} and len(label) <= NAME_LENGTH:
            if len(", ".join([*words, label])) > KEY_LENGTH:
                break
            words.append(label)
        if len(words) == KEY_WORDS:
            break
    return ", ".join(words) or None


def opening_words(abstract: str, limit: int = KEY_LENGTH) -> str:
    """The abstract's opening words, markup and boilerplate opening dropped, cut at a word."""
    from kg.text.markup import normalise_whitespace, strip_markup

    text = normalise_whitespace(strip_markup(abstract[:OPENING_SOURCE]).text)
    text = BOILERPLATE.sub("", text, count=1) or text
    text = shorten(text, limit, strip=" ,;:.", at_word=True)
    return (text[:1].upper() + text[1:]).rstrip(" ,;:.")


FORMS = ("Paper proposing {}", "Paper on {}", "Paper: \u201c{}\u201d", "Paper {}")  # name, key words, opening, id


def candidates(paper: Paper, named: list[Named], common: int) -> list[tuple[int, str]]:
    """Label options for a title-less paper, best first (never empty): (form in FORMS, text)."""
    name = proposed_name(named)
    options = [name, key_words(named, common, skip=name), opening_words(str(paper.abstract or ""))]
    return [(k, o) for k, o in enumerate(options) if o] or [(3, paper.id)]


def paper_labels(papers: Sequence[Paper], named: dict[str, list[Named]]) -> dict[str, str]:
    """Every paper's label (paper id -> label): its title, else a short label; a short label two papers share gets the
    next option's text added."""
    common = max(COMMON_MIN, int(len(papers) * COMMON_SHARE))
    options = {paper.id: candidates(paper, named.get(paper.id, []), common) for paper in papers if not paper.title}
    counts = Counter(o[0][1].lower() for o in options.values())
    labels = {paper.id: paper.title or "" for paper in papers}
    for paper, ((form, text), *rest) in options.items():
        label = FORMS[form].format(text)
        if counts[text.lower()] > 1:
            extra = next((o for _, o in rest if o.lower() != text.lower()), paper)
            label = f"{label} ({extra})"
        labels[paper] = label
    return labels
