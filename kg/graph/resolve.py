"""Resolve mentions into corpus-wide entities and paper links."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache
from typing import Iterable

from kg.text.markup import normalise_whitespace
from kg.types import ENTITY_TYPES, Entity, Link, Mention, MentionRelation, Relation

DASHES = re.compile(r"[\u2010-\u2015\u2212_/-]+")
NON_WORD = re.compile(r"[^\w\s+#.@]+")
KEEP_S = frozenset(
    "analysis basis bias class gas lens loss mass news series species status process physics dynamics "
    "economics robotics linguistics mathematics graphics analytics genomics semantics kinetics mechanics "
    "optics ethics logistics diagnostics statistics less focus consensus corpus radius virus bus "
    "calculus stimulus apparatus nexus chaos ethos pathos cos axis thesis synthesis hypothesis "
    "diagnosis emphasis paralysis this its is was has does yes plus minus previous various numerous "
    "gaussian ms ss".split()
)
SLUG = re.compile(r"[^a-z0-9]+")
TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}


def singular(word: str) -> str:
    """The singular of an English noun (a light rule set, acronym-aware: LLMs -> LLM)."""
    lower = word.lower()
    if len(word) > 2 and word[-1] == "s" and word[:-1].isupper():
        return word[:-1]
    if len(lower) <= 3 or lower in KEEP_S or not lower.endswith("s") or lower.endswith(("ss", "us", "is")):
        return word
    if lower.endswith(("yses", "theses", "gnoses")):
        return word[:-2] + "is"
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + ("Y" if word[-1].isupper() else "y")
    if lower.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    return word[:-1]


@lru_cache(maxsize=1 << 16)  # names repeat across papers; 50k papers call this ~400k times
def normal_form(name: str) -> str:
    """The matching key of a surface form: case, dashes, markup and last-word plural folded."""
    text = unicodedata.normalize("NFKC", name)
    text = NON_WORD.sub(" ", DASHES.sub(" ", text))
    words = normalise_whitespace(text).split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words).lower()


def singular_label(name: str) -> str:
    """A display form in the singular, whitespace normalised."""
    words = normalise_whitespace(name).split()
    if words:
        words[-1] = singular(words[-1])
    return " ".join(words)


def slug(text: str) -> str:
    """A lowercase ASCII slug for IRIs and ids."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return SLUG.sub("-", ascii_text.lower()).strip("-") or "x"


def alias_map(mentions: Iterable[Mention], pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Map each short-form key to the long-form key it most often abbreviates."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for short, long in pairs:
        short_key, long_key = normal_form(short), normal_form(long)
        if short_key and long_key and short_key != long_key:
            votes[short_key][long_key] += 1
    return {short: max(sorted(c), key=lambda k: c[k]) for short, c in votes.items()}


def canonical_key(mention: Mention, aliases: dict[str, str]) -> str:
    """The key of the concept a mention names, following short forms to long forms."""
    key = normal_form(mention.name or mention.text)
    seen = {key}
    while key in aliases and aliases[key] not in seen:
        key = aliases[key]
        seen.add(key)
    return key


def choose_label(forms: Counter) -> str:
    """The fullest form: longest, then most frequent, then alphabetical."""
    return max(sorted(forms), key=lambda f: (len(normal_form(f)), forms[f]))


def resolve(
    mentions: Iterable[Mention],
    abbreviation_pairs: Iterable[tuple[str, str]] = (),
    relations: Iterable[MentionRelation] = (),
) -> tuple[list[Entity], list[Link], list[Relation]]:
    """Group mentions into entities (one per concept) and paper links (one per paper-entity)."""
    mentions = list(mentions)
    aliases = alias_map(mentions, abbreviation_pairs)
    by_key: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        key = canonical_key(mention, aliases)
        if key:
            by_key[key].append(mention)
    by_key = merge_spacing_variants(by_key)
    entities: list[Entity] = []
    entity_of_key: dict[str, str] = {}
    for key in sorted(by_key):
        group = by_key[key]
        types = Counter(m.type for m in group)
        entity_type = max(sorted(types, key=TYPE_ORDER.get), key=lambda t: types[t])
        forms = Counter(singular_label(m.name or m.text) for m in group)
        label = choose_label(forms)
        entity_id = f"{entity_type}:{slug(key)}"
        entity_of_key[key] = entity_id
        others = set(forms) | {normalise_whitespace(m.name) for m in group if m.name}  # markup-free forms
        entities.append(Entity(entity_id, entity_type, label, tuple(sorted(others - {label}))))
    entities = merge_colliding_ids(entities)
    links = link_papers(by_key, entity_of_key)
    return entities, links, relate(relations, aliases, entity_of_key)


def merge_spacing_variants(by_key: dict[str, list[Mention]]) -> dict[str, list[Mention]]:
    """Merge keys that differ only in spacing (`back propagation`, `backpropagation`) under the most used one."""
    groups: dict[str, list[str]] = defaultdict(list)
    for key in by_key:
        groups[key.replace(" ", "")].append(key)
    merged: dict[str, list[Mention]] = {}
    for keys in groups.values():
        main = max(sorted(keys), key=lambda k: len(by_key[k]))
        merged[main] = [m for k in keys for m in by_key[k]]
    return merged


def merge_colliding_ids(entities: list[Entity]) -> list[Entity]:
    """Keep ids unique: keys that slug alike (e.g. `c++` and `c`) get a numeric suffix."""
    seen: Counter = Counter()
    unique = []
    for entity in entities:
        seen[entity.id] += 1
        if seen[entity.id] > 1:
            entity = Entity(f"{entity.id}-{seen[entity.id]}", entity.type, entity.label, entity.aliases)
        unique.append(entity)
    return unique


def link_papers(by_key: dict[str, list[Mention]], entity_of_key: dict[str, str]) -> list[Link]:
    """One link per (paper, entity); proposed if any mention in that paper is proposed."""
    grouped: dict[tuple[str, str], list[Mention]] = defaultdict(list)
    for key, group in by_key.items():
        for mention in group:
            grouped[mention.paper_id, entity_of_key[key]].append(mention)
    links = []
    for (paper_id, entity_id), group in sorted(grouped.items()):
        role = "proposed" if any(m.role == "proposed" for m in group) else "used"
        links.append(Link(paper_id, entity_id, role, tuple(sorted(group))))
    return links


def relate(relations: Iterable[MentionRelation], aliases: dict[str, str],
           entity_of_key: dict[str, str]) -> list[Relation]:
    """Entity-entity relations aggregated over the papers that state them."""
    grouped: dict[tuple[str, str, str], list[MentionRelation]] = defaultdict(list)
    for relation in relations:
        source = entity_of_key.get(canonical_key(relation.source, aliases))
        target = entity_of_key.get(canonical_key(relation.target, aliases))
        if source and target and source != target:
            grouped[source, relation.relation, target].append(relation)
    return [Relation(s, r, t, tuple(sorted(ev))) for (s, r, t), ev in sorted(grouped.items())]
