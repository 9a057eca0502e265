"""Which entity another is a kind of, read from the names alone: `deep reinforcement learning` is a kind of
`reinforcement learning`, `Wasserstein GAN` of `GAN`, `image classification` of `classification`.

An entity's broader entity is the longest tail of its label (leading words dropped) that names another
entity of a compatible type; labels with a preposition (`rate of convergence`) have none. The two stay
separate nodes (a paper on deep reinforcement learning is not counted as naming reinforcement learning);
the exports state the link (`skos:broader`), so a query can follow it transitively.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Iterable

from kg.text.keys import PREPOSITIONS, match_key
from kg.types import Entity

COMPATIBLE = {"method": {"method", "model"}, "model": {"model", "method"}, "task": {"task"},
              "dataset": {"dataset"}, "metric": {"metric"}}
MIN_PAPERS = 2  # papers that must name an entity before others can be kinds of it
NOT_A_KIND = PREPOSITIONS | {"and", "or"}  # a label with one of these words is no kind of its last words


def capitals(form: str) -> bool:
    """True for a form with two or more capitals (GAN, ResNet, SEARCH): looked up by its exact spelling only."""
    return sum(c.isupper() for c in form) >= 2


def name_owners(entities: list[Entity]) -> tuple[dict[str, str], dict[str, str]]:
    """(matching key -> entity, exact spelling -> entity) of every label and alias; a key or spelling that two
    entities share is dropped unless it is one of their labels."""
    keys: dict[str, set[str]] = {}
    spellings: dict[str, set[str]] = {}
    for entity in entities:
        for form in (entity.label, *entity.aliases):
            if capitals(form):
                spellings.setdefault(form, set()).add(entity.id)
            else:
                keys.setdefault(match_key(form), set()).add(entity.id)
    by_key = {key: next(iter(ids)) for key, ids in keys.items() if len(ids) == 1}
    by_spelling = {form: next(iter(ids)) for form, ids in spellings.items() if len(ids) == 1}
    for entity in entities:  # a label belongs to its entity, whoever else lists it as an alias
        if capitals(entity.label):
            by_spelling[entity.label] = entity.id
        else:
            by_key[match_key(entity.label)] = entity.id
    return by_key, by_spelling


def broader_of(entity: Entity, owners: tuple[dict[str, str], dict[str, str]], types: dict[str, str],
               eligible: set[str]) -> str | None:
    """The id of the entity this one is a kind of, or None."""
    if {word.lower() for word in entity.label.split()} & NOT_A_KIND:
        return None
    by_key, by_spelling = owners
    words = entity.label.split()
    for start in range(1, len(words)):
        tail = " ".join(words[start:])
        target = by_spelling.get(tail) or by_key.get(match_key(tail))
        if target and target != entity.id and target in eligible and types[target] in COMPATIBLE[entity.type]:
            return target
    return None


def with_broader(entities: Iterable[Entity], papers: Counter) -> list[Entity]:
    """The entities, each with the entity it is a kind of (if any) in `broader`; only an entity named in two
    papers or more can be one (a one-paper `Learning` is no parent of every kind of learning)."""
    entities = list(entities)
    owners, types = name_owners(entities), {e.id: e.type for e in entities}
    eligible = {e.id for e in entities if papers[e.id] >= MIN_PAPERS}
    return [replace(e, broader=(target,)) if (target := broader_of(e, owners, types, eligible)) else e
            for e in entities]
