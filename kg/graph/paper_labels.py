"""Short labels a person recognises for papers without a title, computed once in the graph.

A title-less paper (the seed listings have none) is labelled so that it reads as a paper, never as an entity
or a community name ("A · B · C"): by the name it proposes when that looks coined ("Paper proposing
Blorp-Selfie"), else by the first few entities it names ("Paper on graph coloring, message passing"), else
by the abstract's opening words, quoted, with the boilerplate opening ("In this paper, we propose") dropped.
Labels are made unique by appending key words, then the paper id. GraphML and RDF read the same `label`.
"""
from __future__ import annotations

import re
from collections import Counter

import networkx as nx

from kg.text.shorten import shorten

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


def first_mention(edge: dict) -> tuple[int, int]:
    """(start, sentence start) of the first mention on a paper→entity edge."""
    evidence = edge.get("evidence") or ()
    return (evidence[0].start, evidence[0].sentence_start) if evidence else (1 << 30, -1)


def proposed_name(G: nx.DiGraph, paper: str) -> str | None:
    """The coined name the paper proposes, preferring models, methods, datasets, then earliest."""
    names = []
    for entity, edge in G.succ[paper].items():
        if edge.get("kind") != "mention" or edge.get("role") != "proposed":
            continue
        label, (start, sentence) = str(G.nodes[entity].get("label") or ""), first_mention(edge)
        if looks_coined(label, start == sentence):
            kind = G.nodes[entity].get("type")
            names.append((TYPE_ORDER.index(kind) if kind in TYPE_ORDER else len(TYPE_ORDER), start, label))
    return min(names)[2] if names else None


def key_words(G: nx.DiGraph, paper: str, common: int, skip: str | None = None) -> str | None:
    """A few entities the paper names, distinctive ones (≤ `common` papers) first, in reading order."""
    named = sorted((int(G.nodes[e].get("papers") or 0) > common, first_mention(edge)[0],
                    str(G.nodes[e].get("label") or "")) for e, edge in G.succ[paper].items()
                   if edge.get("kind") == "mention")
    words: list[str] = []
    for _, _, label in (entry for entry in named if entry[2] != skip):
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


def candidates(G: nx.DiGraph, paper: str, common: int) -> list[tuple[int, str]]:
    """Label options for a title-less paper, best first (never empty): (form in FORMS, text)."""
    data = G.nodes[paper]
    name = proposed_name(G, paper)
    options = [name, key_words(G, paper, common, skip=name), opening_words(str(data.get("abstract") or ""))]
    return [(k, o) for k, o in enumerate(options) if o] or [(3, str(data.get("paper_id") or paper))]


def label_papers(G: nx.DiGraph) -> None:
    """Relabel title-less papers in place; a label two papers share gets the next option's text added."""
    papers = sum(1 for _, kind in G.nodes(data="kind") if kind == "paper")
    common = max(COMMON_MIN, int(papers * COMMON_SHARE))
    options = {paper: candidates(G, paper, common) for paper in papers_without_title(G)}
    counts = Counter(o[0][1].lower() for o in options.values())
    for paper, ((form, text), *rest) in options.items():
        label = FORMS[form].format(text)
        if counts[text.lower()] > 1:
            extra = next((o for _, o in rest if o.lower() != text.lower()), G.nodes[paper].get("paper_id", paper))
            label = f"{label} ({extra})"
        G.nodes[paper]["label"] = label


def papers_without_title(G: nx.DiGraph) -> list[str]:
    """Paper nodes with no title, in graph order."""
    return [n for n, data in G.nodes(data=True) if data.get("kind") == "paper" and not data.get("title")]
