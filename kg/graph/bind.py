"""Definitions an abstract writes between two of its own mentions: `long form (X)` or `X (long form)`, where X is a
short name whose letters the long form's words spell in order (`dual-energy X-ray absorptiometry (DXA)`,
`CADE (Contrastive Adaptive Debias Ensemble)`). Such a pair is one concept in that paper whatever the acronym
detector found, so the short name and its long form are one node with one type (`resolve` reads these pairs as
the paper's own definitions, before any the detector found)."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from kg.types import Mention

OPEN = re.compile(r"\s*[(\[]\s*$")
CLOSE = re.compile(r"\s*[)\]]")
WORDS = re.compile(r"[\s\-\u2010-\u2015/]+")
SHORT = re.compile(r"[A-Za-z0-9][\w\-+.]*")  # one token (CADE, DXA, Mamba-2, GPT-4o)


def spells(short: str, long: str) -> bool:
    """Whether the short name abbreviates the long form: one token with a capital, no longer than the long form's
    letters, its first letter the long form's, no more capitals than the long form has words plus one (a word in
    capitals counts its capitals: `Fast-Slow RNN (FS-RNN)`), its capitals
    found in order among the long form's letters, and
    each spaced word of the long form (one allowed apart) beginning with a letter the short name has."""
    words = [w for w in WORDS.split(long.lower()) if w]
    if len(words) < 2 or not SHORT.fullmatch(short) or not any(c.isupper() for c in short):
        return False
    letters = "".join(words)
    capitals = [c.lower() for c in short if c.isupper() or c.isdigit()]
    spelled = sum(max(1, sum(c.isupper() for c in w)) for w in WORDS.split(long) if w)  # RNN spells three capitals
    if short[0].lower() != letters[0] or len(short) >= len(letters) or len(capitals) > spelled + 1:
        return False  # SCSG is no `stochastic gradient`: more capitals than the long form has words (one spare)
    position = 0
    for capital in capitals:
        position = letters.find(capital, position)
        if position < 0:
            return False
        position += 1
    have = set(short.lower())
    spaced = long.lower().split()  # a hyphenated compound is one word here (dual-energy, X-ray)
    return sum(w[0] in have for w in spaced) >= len(spaced) - 1


def bound_pairs(mentions: Iterable[Mention], texts: dict[str, str]) -> list[tuple[str, str, str]]:
    """(paper, short, long) for each pair of a paper's mentions written `A (B)` where one spells out the other."""
    by_paper: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        if mention.paper_id in texts:
            by_paper[mention.paper_id].append(mention)
    found = []
    for paper, group in sorted(by_paper.items()):
        text = texts[paper]
        starts = defaultdict(list)
        for mention in group:
            starts[mention.start].append(mention)
        for first in group:
            gap = re.match(r"\s*[(\[]\s*", text[first.end:first.end + 4])
            if not gap:
                continue
            for second in starts.get(first.end + gap.end(), ()):
                if not CLOSE.match(text, second.end):
                    continue
                a, b = first.name, second.name
                if spells(a, b):
                    found.append((paper, a, b))
                elif spells(b, a):
                    found.append((paper, b, a))
    return sorted(set(found))
