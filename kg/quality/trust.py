"""Checks a researcher makes at a glance on the best-known entities of a graph: a type the gazetteer contradicts,
a label that is a fragment of a hyphenated word or a bare adjective, an acronym whose papers spell it out
differently, and a well-known or widely named entity that a paper "proposes". Each finding is a line naming
the entity id; `flagged_top` counts how many of the top entities per type have one."""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from typing import Iterable

import networkx as nx

from kg.graph.acronyms import acronym_key, plausible, same_meaning
from kg.graph.concepts import MANY_PAPERS
from kg.text.keys import surface_key
from kg.graph.knowledge import Knowledge
from kg.graph.labels import lone_adjective

HYPHENS = "-\u2010\u2011"
ENTITY_ID = re.compile(r"\b(?:method|model|dataset|task|metric):[^\s,()']+")
Node = tuple[str, dict]  # (id, data), data with label, type, aliases (list), papers, proposed_by


def known_of(data: dict, knowledge: Knowledge) -> str | None:
    """The gazetteer's canonical key for an entity's label, else for the one entry its aliases other than
    acronyms name (an acronym names different things: CoCa is also `chain of cognitive alignment`)."""
    label_key = knowledge.key_of(surface_key(data["label"]))
    if label_key in knowledge.names:
        return label_key
    found = {knowledge.key_of(surface_key(a)) for a in data["aliases"] if not acronym_key(a)} & set(knowledge.names)
    return next(iter(found)) if len(found) == 1 else None


def type_conflicts(nodes: Iterable[Node], knowledge: Knowledge) -> list[str]:
    """Entities of another type than the gazetteer gives their name."""
    found = []
    for node, data in nodes:
        known = known_of(data, knowledge)
        if known and knowledge.types.get(known, data["type"]) != data["type"]:
            found.append(f"{node} ({data['label']!r}): the gazetteer's {knowledge.names[known]!r} is a "
                         f"{knowledge.types[known]}")
    return found


def odd_labels(nodes: Iterable[Node], graph: nx.Graph) -> list[str]:
    """Labels that are a lone adjective, or a fragment cut from a hyphenated word: an evidence sentence writes
    the label right after a hyphen (`modal accuracy` in `multi-modal accuracy`)."""
    found = []
    for node, data in nodes:
        if lone_adjective(data["label"]):
            found.append(f"{node} ({data['label']!r}): an adjective, not a name")
        elif data["label"][:1].islower() and cut_from_word(graph, node, data["label"]):
            found.append(f"{node} ({data['label']!r}): a fragment of a hyphenated word")
    return found


def cut_from_word(graph: nx.Graph, node: str, label: str) -> bool:
    """Whether some mention of the entity starts right after a hyphen inside a word: read from the abstract and
    offsets in memory; in a GraphML export, from the evidence sentence, every occurrence of the label in it."""
    written = re.compile(r"(\w[-\u2010\u2011])?" + re.escape(label), re.I)
    for paper in graph.predecessors(node) if graph.is_directed() else graph.neighbors(node):
        evidence = graph.edges[paper, node].get("evidence") or ()
        if isinstance(evidence, str):  # the sentence only: a fragment if every occurrence follows a hyphen
            found = [m.group(1) for m in written.finditer(evidence)]
            if found and all(found):
                return True
            continue
        abstract = str(graph.nodes[paper].get("abstract") or "")
        if any(e.start >= 2 and abstract[e.start - 1] in HYPHENS and abstract[e.start - 2].isalnum() for e in evidence):
            return True
    return False


def split_expansions(nodes: Iterable[Node]) -> list[str]:
    """Acronym entities whose names spell the acronym out in ways that do not read alike (papers disagree)."""
    found = []
    for node, data in nodes:
        forms = [data["label"], *data["aliases"]]
        for acronym in sorted({f for f in forms if acronym_key(f)}):
            longs = sorted({plain(f) for f in forms if " " in f and plausible(acronym, f)
                        and not any(acronym_key(w) for w in re.split(r"[\s-]+", f))}, key=str.lower)
            apart = [b for b in longs[1:] if not same_meaning(longs[0], b)]
            if apart:
                found.append(f"{node} ({data['label']!r}): {acronym} = {longs[0]!r} / {apart[0]!r}")
                break
    return found


def plain(form: str) -> str:
    """A form without accents (Fréchet and Frechet spell one name)."""
    return "".join(c for c in unicodedata.normalize("NFKD", form) if not unicodedata.combining(c))


def doubtful_proposals(nodes: Iterable[Node], knowledge: Knowledge) -> list[str]:
    """Entities the gazetteer knows, or that many papers name, with papers proposing them."""
    found = []
    for node, data in nodes:
        proposers, papers = int(data.get("proposed_by") or 0), int(data.get("papers") or 0)
        known = known_of(data, knowledge)
        if proposers and known:
            year = knowledge.years.get(known)
            since = f", introduced {year}" if year else ""
            found.append(f"{node} ({data['label']!r}): well known{since}, proposed by {proposers}")
        elif proposers and papers >= MANY_PAPERS:
            found.append(f"{node} ({data['label']!r}): named by {papers} papers, proposed by {proposers}")
    return found


def flagged_top(top: dict[str, list[str]], findings: Iterable[str]) -> dict[str, int]:
    """How many of each type's top entities (ids) a finding names."""
    named = {found.rstrip(":") for line in findings for found in ENTITY_ID.findall(line)}
    return {entity_type: sum(node in named for node in nodes) for entity_type, nodes in top.items()}


def by_type(nodes: Iterable[Node], top: int) -> dict[str, list[str]]:
    """The ids of the `top` entities per type by papers (ties by label)."""
    grouped: dict[str, list[Node]] = defaultdict(list)
    for node, data in nodes:
        grouped[data.get("type", "")].append((node, data))
    return {t: [n for n, _ in sorted(rows, key=lambda r: (-int(r[1].get("papers") or 0), r[1]["label"]))[:top]]
            for t, rows in sorted(grouped.items())}
