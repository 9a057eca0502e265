"""Resolve mentions into corpus-wide entities and paper links.

One entity per concept: a mention's written form is repaired or dropped (`labels.repair`), keyed
(`kg.text.keys.surface_key`: acronyms keep their case), read through the paper's own acronym definitions,
the gazetteer's aliases and the corpus's agreed definitions (`acronyms`), then keys naming one concept
are merged (`variants`). Generic names (`ontology/generic-terms.jsonl`) are not entities. The label is
the form most papers write (`labels.choose_label`) and the id is `<type>:<slug of the label>`.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Iterable, Sequence

from kg.graph.acronyms import Definitions, read_definitions, same_meaning
from kg.graph.broader import with_broader
from kg.text.keys import acronym_key, display_form, match_key, slug, surface_key
from kg.graph.knowledge import Knowledge, default_knowledge
from kg.graph.labels import choose_label, repair
from kg.graph.variants import Union, case_pairs, inverted_pairs, kind_pairs
from kg.types import ENTITY_TYPES, Entity, Link, Mention, MentionRelation, Relation

__all__ = ["resolve", "Resolver"]
TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}
NOT_MEASURES = frozenset("unit network model machine layer algorithm method coefficient architecture "
                         "dataset corpus benchmark".split())  # head nouns of things, not of measures
Pair = Sequence[str]  # (paper, short, long) or, without a paper, (short, long)


class Resolver:
    """The key of the concept a written form names, in a given paper."""

    def __init__(self, definitions: Definitions, knowledge: Knowledge) -> None:
        self.definitions, self.knowledge = definitions, knowledge

    def known(self, key: str) -> str:
        """The gazetteer's canonical key for a key, else the key."""
        return self.knowledge.canonical.get(key, key)

    def expand(self, paper: str, key: str) -> str:
        """A key read as its concept: the paper's own acronym definition, else the corpus's agreed one,
        a coined name for its spelled-out form, then the gazetteer's canonical name."""
        key = self.definitions.local.get((paper, key)) or self.definitions.dominant.get(key, key)
        return self.known(self.definitions.names.get(key, key))

    def __call__(self, paper: str, name: str) -> str:
        return self.expand(paper, surface_key(name))

    def spelled_out(self, paper: str, name: str) -> str | None:
        """The key of a name with its acronym words expanded (`KL divergence`), None if none expands."""
        words = re.split(r"[\s\-\u2010-\u2015]+", name)
        keys = [acronym_key(w) if len(words) > 1 else None for w in words]
        expanded = [self.expand(paper, k) if k else w for k, w in zip(keys, words)]
        if expanded == [k or w for k, w in zip(keys, words)]:
            return None
        return self.expand(paper, match_key(" ".join(expanded)))


def spelled_label(long: str) -> str:
    """A defined long form as a label candidate ("" when it is not publishable)."""
    repaired = repair(long)
    return display_form(repaired) if repaired else ""


def paired(pairs: Iterable[Pair]) -> list[tuple[str, str, str]]:
    """Definitions as (paper, short, long), both forms repaired like mention names (`Lov&#39;asz`
    reads Lovász on both sides); a pair without a paper counts for the corpus only."""
    triples = [tuple(p) if len(p) == 3 else ("", *p) for p in pairs]
    repaired = ((paper, repair(short), repair(long)) for paper, short, long in triples)  # type: ignore[misc]
    return [(paper, short, long) for paper, short, long in repaired if short and long]


def resolve(
    mentions: Iterable[Mention],
    abbreviation_pairs: Iterable[Pair] = (),
    relations: Iterable[MentionRelation] = (),
    knowledge: Knowledge | None = None,
) -> tuple[list[Entity], list[Link], list[Relation]]:
    """Group mentions into entities (one per concept) and paper links (one per paper-entity)."""
    knowledge = knowledge or default_knowledge(surface_key)
    definitions = read_definitions(paired(abbreviation_pairs), surface_key, spelled_label)
    resolver = Resolver(definitions, knowledge)
    by_key: dict[str, list[Mention]] = defaultdict(list)
    original: dict[Mention, Mention] = {}
    for mention in mentions:
        name = repair(mention.name or mention.text)
        if name:
            clean = replace(mention, name=name)
            original[clean] = mention
            by_key[resolver(mention.paper_id, name)].append(clean)
    groups, members = merge_variants(by_key, resolver)
    groups = {k: g for k, g in groups.items() if k and not set(members[k]) & knowledge.generic}
    entities, entity_of = make_entities(groups, members, definitions.spelled)
    generic = {e.id for e in entities if surface_key(e.label) in knowledge.generic}
    entities = [e for e in entities if e.id not in generic]
    groups = {k: g for k, g in groups.items() if entity_of[k] not in generic}
    mention_entity = {original[m]: entity_of[k] for k, group in groups.items() for m in group}
    links = link_papers(groups, entity_of, original)
    entities = with_broader(entities, Counter(link.entity_id for link in links))
    return entities, links, relate(relations, mention_entity)


def merge_variants(by_key: dict[str, list[Mention]],
                   resolver: Resolver) -> tuple[dict[str, list[Mention]], dict[str, list[str]]]:
    """Join keys that name one concept (acronym case, `X score`, `rate of convergence`, expansions alike,
    acronym words spelled out) under the most used key; also the member keys of each."""
    union = Union({k: len(g) for k, g in by_key.items()})
    keys = set(by_key)
    acronyms = {a for g in by_key.values() for m in g if (a := acronym_key(m.name))}
    forms = sorted({(k, m.paper_id, m.name) for k, g in by_key.items() for m in g})
    defined = {a for a, _ in resolver.definitions.same} | set(resolver.definitions.dominant.values())
    spelled = ((k, resolver.spelled_out(paper, name)) for k, paper, name in forms)
    pairs = [*case_pairs(keys, acronyms, lambda a: resolver("", a)),
             *kind_pairs(forms, keys, resolver, lambda k: majority_type(by_key[k])), *inverted_pairs(forms, keys, resolver),
             *((k, t) for k, t in spelled if t in keys and t != k),
             *((a, b) for a, b in resolver.definitions.same if a in keys and b in keys),
             *known_alike(resolver, keys)]
    types = {k: majority_type(g) for k, g in by_key.items()}
    pairs = [(a, b) for a, b in pairs if a not in defined or types[a] == types[b]]  # LM: model, modeling
    for a, b in pairs:
        union.join(a, b)
    merged: dict[str, list[Mention]] = defaultdict(list)
    members: dict[str, list[str]] = defaultdict(list)
    for key in sorted(by_key):
        merged[union.find(key)].extend(by_key[key])
        members[union.find(key)].append(key)
    return merged, members


def majority_type(group: list[Mention]) -> str:
    """The type most mentions of a group have (ties: the order of ENTITY_TYPES); a metric whose head
    noun names a thing that is not a measure (`linear unit`, `network`) takes the next type, else method."""
    types = Counter(m.type for m in group)
    ranked = sorted(sorted(types, key=TYPE_ORDER.get), key=lambda t: -types[t])
    head = (group[0].name or group[0].text).split()[-1].lower() if group else ""
    if ranked and ranked[0] == "metric" and head.rstrip("s") in NOT_MEASURES:
        return ranked[1] if len(ranked) > 1 else "method"
    return ranked[0] if ranked else "method"


def known_alike(resolver: Resolver, keys: set[str]) -> Iterable[tuple[str, str]]:
    """The corpus's reading of an acronym and the gazetteer's, when they spell alike (AUC: area under
    ROC / area under the ROC curve); not when they differ (EM: expectation maximization / exact match)."""
    definitions, knowledge = resolver.definitions, resolver.knowledge
    for short, long in sorted(definitions.dominant.items()):
        known = knowledge.canonical.get(short)
        spelled = definitions.spelled.get(long)
        if known and known != long and {known, long} <= keys and spelled and known in knowledge.names:
            if same_meaning(max(sorted(spelled), key=spelled.get), knowledge.names[known]):
                yield long, known


def make_entities(groups: dict[str, list[Mention]], members: dict[str, list[str]],
                  spelled: dict[str, Counter]) -> tuple[list[Entity], dict[str, str]]:
    """One entity per group: majority type, canonical label, id from the label (unique: -2, -3...).
    The label candidates are the written forms and the long forms papers define the group's acronyms by."""
    order = sorted(groups, key=lambda k: (-len({m.paper_id for m in groups[k]}), k))
    taken: set[str] = set()
    entities, entity_of = [], {}
    for key in order:
        group = groups[key]
        entity_type = majority_type(group)
        forms = Counter(display_form(m.name) for m in group)
        papers = Counter(form for form, _ in {(display_form(m.name), m.paper_id) for m in group})
        if not any(" " in form for form in forms):  # only acronyms written: the defined long form
            for member in members[key]:
                papers.update(spelled.get(member, {}))
        label = choose_label(forms, papers, proper=entity_type == "dataset")
        entity_of[key] = unique_id(f"{entity_type}:{slug(label)}", taken)
        others = set(forms) | {m.name for m in group}
        entities.append(Entity(entity_of[key], entity_type, label, tuple(sorted(others - {label}))))
    return sorted(entities, key=lambda e: e.id), entity_of


def unique_id(entity_id: str, taken: set[str]) -> str:
    """`entity_id`, or with the first free suffix (-2, -3...) when another entity has it already
    (a suffix never takes an id that a later label slugs to: all ids are checked)."""
    unique, number = entity_id, 1
    while unique in taken:
        number += 1
        unique = f"{entity_id}-{number}"
    taken.add(unique)
    return unique


def link_papers(groups: dict[str, list[Mention]], entity_of: dict[str, str],
                original: dict[Mention, Mention]) -> list[Link]:
    """One link per (paper, entity); proposed if any mention in that paper is proposed."""
    grouped: dict[tuple[str, str], list[Mention]] = defaultdict(list)
    for key, group in groups.items():
        for mention in group:
            grouped[mention.paper_id, entity_of[key]].append(original[mention])
    links = []
    for (paper_id, entity_id), group in sorted(grouped.items()):
        role = "proposed" if any(m.role == "proposed" for m in group) else "used"
        links.append(Link(paper_id, entity_id, role, tuple(sorted(group))))
    return links


def relate(relations: Iterable[MentionRelation], mention_entity: dict[Mention, str]) -> list[Relation]:
    """Entity-entity relations aggregated over the papers that state them."""
    grouped: dict[tuple[str, str, str], list[MentionRelation]] = defaultdict(list)
    for relation in relations:
        source, target = mention_entity.get(relation.source), mention_entity.get(relation.target)
        if source and target and source != target:
            grouped[source, relation.relation, target].append(relation)
    return [Relation(s, r, t, tuple(sorted(ev))) for (s, r, t), ev in sorted(grouped.items())]
