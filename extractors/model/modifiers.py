"""A defined long form that modifies the noun after its acronym, `Key-Value (KV) cache`, `out-of-distribution (OOD)
generalization`: the mention is the whole phrase (the paper names the KV cache and OOD generalization, not
`key-value` and `out-of-distribution`), read on the shared parse."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable

from spacy.tokens import Doc

from kg.extraction.doccache import Attrs, attrs
from kg.text.abbreviations import Abbreviation

MODIFIER_DEPS = frozenset({"nmod", "compound", "amod"})
NOUNS = frozenset({"NOUN", "PROPN"})
Span = tuple[int, int]  # character offsets, end exclusive


def tokens_of(a: Attrs, start: int, end: int) -> tuple[int, int] | None:
    """The first and last token of the characters [start, end) when they are whole tokens, else None."""
    first, last = bisect_left(a.idx, start), bisect_right(a.idx, end - 1) - 1
    if first > last or first >= len(a.idx) or a.idx[first] != start or a.idx[last] + len(a.text[last]) != end:
        return None
    return first, last


def modified_noun(doc: Doc, long: tuple[int, int], short: tuple[int, int]) -> int | None:
    """The token right after `LONG (SHORT)` when the acronym or the long form modifies it (the parser attaches one or
    the other), else None."""
    a = attrs(doc)
    after = short[1] + 2
    if after >= len(a.text) or a.text[short[1] + 1] != ")" or a.text[short[0] - 1] != "(":
        return None
    if a.pos[after] not in NOUNS and not (a.pos[after] == "VERB" and a.lower[after].endswith("ing")):
        return None
    nouns = {after}  # the noun and the compound it begins (`(KV) cache compression`: either may be the head)
    while doc[max(nouns)].dep_ == "compound" and doc[max(nouns)].head.i == max(nouns) + 1:
        nouns.add(max(nouns) + 1)
    acronym = doc[short[1]]
    if acronym.head.i in nouns and acronym.dep_ in MODIFIER_DEPS:
        return after
    root = doc[max(i for i in range(long[0], long[1] + 1) if not long[0] <= doc[i].head.i <= long[1])]
    return after if root.head.i in nouns and root.dep_ in MODIFIER_DEPS else None


def phrase(doc: Doc, definition: Abbreviation) -> tuple[Span, int] | None:
    """The character span of `LONG (SHORT) NOUN` and the noun's token, when the long form modifies the noun."""
    a = attrs(doc)
    long = tokens_of(a, definition.long_start, definition.long_end)
    short = tokens_of(a, definition.short_start, definition.short_end)
    if long is None or short is None or short[0] != long[1] + 2:
        return None
    noun = modified_noun(doc, long, short)
    if noun is None:
        return None
    return (definition.long_start, a.idx[noun] + len(a.text[noun])), noun


def extend_modifiers(doc: Doc, chosen: list[tuple[int, Span]], abbreviations: Iterable[Abbreviation]
                     ) -> list[tuple[int, Span]]:
    """Chosen (score row, span)s where a definition `LONG (SHORT)` that modifies the noun after it holds a chosen span
    (the long form, the acronym): those spans become one, the phrase up to that noun, or up to the end of a chosen span
    that starts at the noun (`(KV) cache compression`), whose row then speaks for the phrase (else the first held
    span's); a phrase that would cut another chosen span is not made."""
    a = attrs(doc)
    spans = [span for _, span in chosen]
    made: dict[int, tuple[int, Span]] = {}  # position in `chosen` of the first span held -> (row, phrase)
    absorbed: set[int] = set()
    for definition in abbreviations:
        held = [k for k, (s, e) in enumerate(spans) if definition.long_start <= s and e <= definition.short_end + 1]
        found = phrase(doc, definition) if held else None
        if found is None:
            continue
        (start, end), noun = found
        at_noun = next((k for k, (s, _) in enumerate(spans) if s == a.idx[noun]), None)
        row, end = (chosen[at_noun][0], spans[at_noun][1]) if at_noun is not None else (chosen[held[0]][0], end)
        inside = {k for k, (s, e) in enumerate(spans) if start <= s and e <= end}
        if any(s < end and e > start for k, (s, e) in enumerate(spans) if k not in inside):
            continue  # the phrase would cut a chosen span
        made[held[0]] = (row, (start, end))
        absorbed |= inside - {held[0]}
    return [made.get(k, item) for k, item in enumerate(chosen) if k not in absorbed]
