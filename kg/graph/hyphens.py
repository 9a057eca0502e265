"""Capital names hyphenated in different places name different things: AB-CD is not A-BCD.

Keys drop hyphens (`kg.text.keys.match_key`: CIFAR-10 is CIFAR10, AB-CD is ABCD), so two all-capital forms that
hyphenate the same letters differently (`kg.text.keys.hyphenation`) would share a key. Of the hyphenations written
under one key, those the gazetteer writes keep it (its names and aliases under the key), else, where it writes none,
the one most papers write; any other stands apart, its own key the form itself (as `Knowledge.others` keeps LoRa from
LoRA). A form without such a hyphen (ABCD, ab-cd) keeps the shared key, so it reads as the hyphenation that keeps it.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable

from kg.graph.knowledge import Knowledge
from kg.text.keys import hyphenation, surface_key


def known_hyphenations(knowledge: Knowledge) -> dict[str, set[str]]:
    """Keys -> the hyphenations of the gazetteer's names and aliases written under them."""
    known: dict[str, set[str]] = defaultdict(set)
    for forms in knowledge.forms.values():
        for form in forms:
            if found := hyphenation(form):
                known[surface_key(form)].add(found)
    return known


def standing_apart(knowledge: Knowledge, written: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The hyphenations among the corpus's (paper, written form)s that do not keep the key they share with others."""
    papers: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for paper, name in written:
        if found := hyphenation(name):
            papers[surface_key(name)][found].add(paper)
    known = known_hyphenations(knowledge)
    apart: set[str] = set()
    for key, forms in papers.items():
        kept = known.get(key) or {min(forms, key=lambda form: (-len(forms[form]), form))}
        apart.update(set(forms) - kept)
    return frozenset(apart)


def hyphen_key(apart: frozenset[str]) -> Callable[[str], str]:
    """`surface_key`, except that a form whose hyphenation stands apart is its own key."""
    def key(name: str) -> str:
        found = hyphenation(name)
        return found if found in apart else surface_key(name)
    return key
