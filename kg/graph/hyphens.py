"""Capital names hyphenated in different places name different things: AB-CD is not A-BCD.

Keys drop hyphens (`kg.text.keys.match_key`: CIFAR-10 is CIFAR10, AB-CD is ABCD), so two all-capital forms that
hyphenate the same letters differently (`hyphenation`) would share a key. Of the hyphenations written
under one key, those the gazetteer writes keep it (its names and aliases under the key), else, where it writes none,
the one most papers write; any other stands apart, its own key the form itself (as `Knowledge.others` keeps LoRa from
LoRA). A form without such a hyphen (ABCD, ab-cd) keeps the shared key, so it reads as the hyphenation that keeps it.
"""
from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from typing import Callable, Iterable

from kg.graph.knowledge import Knowledge
from kg.text.keys import surface_key

CAPITAL_HYPHENS = re.compile(r"[A-Z0-9]*[A-Z](?:-[A-Z](?:[A-Z0-9]*[A-Z])?)*-[A-Z][A-Z0-9]*")  # AB-CD, A-B-C
SPACED_DASH = re.compile(r"\s*[\u2010-\u2015\u2212-]\s*")


@lru_cache(maxsize=1 << 16)
def hyphenation(name: str) -> str | None:
    """An all-capital form whose every hyphen stands between capitals, as written but for dashes, spacing and a
    plural `s` (`AB–CDs`: AB-CD), else None: where its hyphens stand tells it from another (A-BCD)."""
    form = SPACED_DASH.sub("-", name.strip())
    if len(form) > 3 and form.endswith("s") and form[-2].isupper():
        form = form[:-1]
    return form if CAPITAL_HYPHENS.fullmatch(form) else None


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
