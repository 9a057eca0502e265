"""Background knowledge for resolution, from `kg.ontology` data (read by kg.ontology.data): the gazetteer's
canonical names and aliases, and the generic-term policy (`generic-terms.jsonl`: names that are not entities)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable

from kg.graph.context import squashed
from kg.ontology.data import gazetteer_entries, generic_entries


Senses = dict[str, tuple[tuple[str, tuple[str, ...]], ...]]  # form -> (entry key, the names beside it) per sense


@dataclass(frozen=True)
class Knowledge:
    """Keys of well-known names -> the key of their canonical name; keys that are not entities."""

    canonical: dict[str, str]
    generic: frozenset[str]
    names: dict[str, str] = field(default_factory=dict)  # canonical key -> the gazetteer's name
    types: dict[str, str] = field(default_factory=dict)  # canonical key -> the gazetteer's type
    years: dict[str, int] = field(default_factory=dict)  # canonical key -> the year it was introduced
    others: frozenset[str] = frozenset()  # written forms the gazetteer knows name something else (LoRa is not LoRA)
    folded: dict[str, str] = field(default_factory=dict)  # upper-cased acronym key -> the one gazetteer key it folds to
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # canonical key -> its name and the aliases read so
    senses: Senses = field(default_factory=dict)  # see `read_senses`

    def key_of(self, key: str) -> str:
        """The gazetteer's canonical key for a key, else the key."""
        return self.canonical.get(key, key)


def synonym(name: str, alias: str, key: Callable[[str], str]) -> bool:
    """An alias that names the same thing, not a variant of it: ResNet-50, Qwen3, ROUGE-L and macro-F1
    extend their entry's name (the gazetteer lists them to find them in text); they stay entities."""
    name_key, alias_key = key(name).lower(), key(alias).lower()
    words = set(re.split(r"[\s-]+", name.lower()))
    spoken = {"2"} if "to" in words else set()  # T2I, seq2seq: the 2 reads "to" (text-to-image)
    return name_key not in alias_key and not (set(filter(str.isdigit, alias)) - set(name) - spoken)


def build_knowledge(gazetteer: Iterable[dict], generic: Iterable[dict], key: Callable[[str], str]) -> Knowledge:
    """Index both lists by `key`; an alias two gazetteer entries claim maps to neither."""
    gazetteer = tuple(gazetteer)  # read several times below: an iterator would leave `names` (and known_alike) empty
    claims: dict[str, set[str]] = {}
    for entry in gazetteer:
        target = key(entry["name"])
        same = set(entry.get("same", ()))  # aliases the gazetteer says are the concept itself (ImageNet-1K, Atari 2600)
        for form in (entry["name"], *(a for a in entry.get("aliases", ()) if a in same or synonym(entry["name"], a, key))):
            claims.setdefault(key(form), set()).add(target)
    canonical = {k: next(iter(v)) for k, v in claims.items() if len(v) == 1 and k and next(iter(v)) != k}
    generic_keys = {key(form) for row in generic for form in (row["name"], *row.get("aliases", ()))}
    names = {key(entry["name"]): entry["name"] for entry in gazetteer}
    types = {key(entry["name"]): entry["type"] for entry in gazetteer if entry.get("type")}
    years = {key(entry["name"]): entry["year"] for entry in gazetteer if entry.get("year")}
    others = frozenset(form for entry in gazetteer for form in entry.get("other", ()))
    forms: dict[str, list[str]] = {}
    for entry in gazetteer:
        target = key(entry["name"])
        forms.setdefault(target, []).extend(a for a in (entry["name"], *entry.get("aliases", ()))
                                            if canonical.get(key(a), key(a)) == target)
    return Knowledge(canonical, frozenset(k for k in generic_keys if k), names, types, years, others,
                     case_folded({*canonical, *names}), {k: tuple(v) for k, v in forms.items()},
                     read_senses(gazetteer, key))


def read_senses(gazetteer: Iterable[dict], key: Callable[[str], str]) -> Senses:
    """Squashed written forms -> (the key of the entry they name, the squashed names beside which they name it), from
    entries with a `sense` ({"written": [...], "beside": [...]}): `Pubmed` beside Cora or CiteSeer is the citation
    network, elsewhere the literature database; a form with several senses takes the first that fits, in file order."""
    senses: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for entry in gazetteer:
        sense = entry.get("sense")
        if sense:
            beside = tuple(sorted({squashed(name) for name in sense["beside"]}))
            for form in sense["written"]:
                senses.setdefault(squashed(form), []).append((key(entry["name"]), beside))  # an entry's own key
    return {form: tuple(found) for form, found in senses.items()}


def case_folded(keys: Iterable[str]) -> dict[str, str]:
    """Upper-cased acronym keys (a capital after the first character: mIOU, bABI) -> the key, for the forms only
    one key folds to (`MIoU` is mIoU, `BaBi` bAbI; MAP and mAP both known fold to neither)."""
    by_upper: dict[str, set[str]] = {}
    for key in keys:
        if any(c.isupper() for c in key[1:]) and " " not in key:
            by_upper.setdefault(key.upper(), set()).add(key)
    return {upper: next(iter(found)) for upper, found in by_upper.items() if len(found) == 1}


@lru_cache(maxsize=4)
def default_knowledge(key: Callable[[str], str]) -> Knowledge:
    """The knowledge shipped in `kg.ontology`, indexed by `key`."""
    return build_knowledge(gazetteer_entries(), generic_entries(), key)
