"""Which numbers of a sentence a metric written in it measures (pure: text and numbers in, a yes or no out).

A metric binds the numbers of its own clause only (a `;` outside brackets ends it) and stops where the measured quantity changes:
- written after a number (`97.2% top-1`), it measures that number and those chained to it in one unit by a list,
  a range or a pairing (`95.1% and 93.2% accuracy`, `1.5-2.6% gains in F1`, `from 19.06 to 20.05 mIoU`,
  `57.6% against 0% exact match`), not a number before another one outside that chain (`gender at 96.0% and
  re-identification at 97.2% top-1`: 96.0% is no top-1);
- written before a number (`accuracy of 95.1% on A and 80.2% on B`), it carries to later numbers of the clause in
  a unit compatible with that of its own number (the one it is written after, else the first after it; the same
  unit, or a percent and percentage points): `97.2% top-1 and a height within 5.7 cm` gives the centimetres no
  top-1, nor `FID of 2.1 at 30 ms per image` the milliseconds an FID; a number with a capitalised measure written
  right after it takes none from before (`-1.26 FID and +10.19 IS`: the IS is no FID).
A metric written after a number that introduces the next one (`r = 0.769, MAE = 0.070`; `ROUGE-1 from 41.45 to 62.18 and
BLEU-4 from 26.97`) measures that one, not the number before it.
A metric carried from an earlier result of the sentence (`95.1% accuracy, against 90.5% for X`) follows the same
rule, from that result's number."""
from __future__ import annotations

import re
from typing import Sequence

from kg.extractors.results.numbers import Number

CLAUSE_BREAK = re.compile(r";")
# What joins numbers of one measure: a list, a range, a before and after, a pairing ('2.4 GB vs. 20 GB').
CHAIN = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|/|[-–—]|to|vs\.?|versus|against)\s*", re.IGNORECASE)
ADJACENT = re.compile(r"\s*$")  # a metric written right after a number, nothing between
PERCENTAGES = frozenset({"%", "points"})
OWN_MEASURE = re.compile(r"\s*(?P<word>[A-Z][A-Za-z0-9@-]{1,11})\b(?!\s*[(\[]?\s*(?:et al|\d))")  # `+10.19 IS`


def clause_break(text: str, start: int, end: int) -> bool:
    """Whether a `;` outside brackets ends a clause within [start, end) ('(LES; 3.08)' keeps one)."""
    for match in CLAUSE_BREAK.finditer(text, start, end):
        before = text[max(0, match.start() - 200):match.start()]
        if before.count("(") <= before.count(")"):
            return True
    return False


def compatible(unit: str, other: str) -> bool:
    """Whether two numbers' units can measure one quantity (the same unit, or a percent and percentage points)."""
    return unit == other or {unit, other} <= PERCENTAGES


def between(numbers: Sequence[Number], start: int, end: int) -> list[Number]:
    """The numbers inside [start, end), in order."""
    return [n for n in numbers if start <= n.start and n.unit_end <= end]


def chained_up_to(text: str, numbers: Sequence[Number], number: Number, end: int) -> bool:
    """Whether every number from `number` up to `end` is chained to it in one unit ('95.1%, 93.2% and 90.0%')."""
    previous = number
    for other in between(numbers, number.unit_end, end):
        if not CHAIN.fullmatch(text[previous.unit_end:other.start]) or not compatible(other.unit, number.unit):
            return False
        previous = other
    return True


def carries(text: str, numbers: Sequence[Number], start: int, number: Number) -> bool:
    """Whether a measure named before `number`, from offset `start` (a metric's start, or the number it was written
    after), carries to it: no clause break, and its own number (the first from `start`) in a compatible unit."""
    if clause_break(text, start, number.start):
        return False
    inside = between(numbers, start, number.start)
    return not inside or compatible(inside[0].unit, number.unit)


def own_measure(text: str, number: Number, named: Sequence[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """Where the capitalised word written right after the number is, as the number's own measure (`+10.19 IS`,
    `30.5 BLEU`), unless one of the `named` spans (names of other kinds: `2.4x RBC`) covers it."""
    match = OWN_MEASURE.match(text, number.unit_end)
    if match is None or any(start < match.end("word") and end > match.start("word") for start, end in named):
        return None
    return match.span("word")


# What joins a measure to the number it introduces: `MAE = 0.07`, `BLEU-4 of 26.97`, `F1 from 0.53`, `AUC 0.98`.
INTRODUCER = re.compile(r"\s*(?:(?!(?i:and|or|vs|versus|against|with|while|than|but|compared|respectively)\b)"
                        r"\(?(?:[A-Za-z]?[A-Z0-9][\w@-]{0,10}|[a-z])\)?\s*)?"  # its acronym or symbol: `MAE`, `r`
                        r"(?:(?i:=|:|of|is|was|were|reaches|reached|from|to|rises|rose|falls|fell|drops|dropped|"
                        r"improves|improved)\s*){0,2}(?i:only|about|around|nearly|~)?\s*$")


def introduces(text: str, numbers: Sequence[Number], end: int) -> bool:
    """Whether the measure ending at `end` introduces the number written right after it (`r = 0.77, MAE = 0.07`: the
    MAE measures 0.07, not 0.77 before it)."""
    after = next((n for n in numbers if n.start >= end), None)
    return after is not None and after.start - end <= 24 and INTRODUCER.fullmatch(text[end:after.start]) is not None


def binds(text: str, numbers: Sequence[Number], number: Number, start: int, end: int,
          measured: bool | None = None) -> bool:
    """Whether the metric written at [start, end) of the number's sentence measures the number (module docstring);
    a metric may start inside the number's unit ('% precision' of '75.0% precision'). `measured`: whether the number
    has a measure of its own written right after it (default: `own_measure` with no names known)."""
    if start >= number.end:
        return (not clause_break(text, number.unit_end, start) and chained_up_to(text, numbers, number, start)
                and not introduces(text, numbers, end))
    if end > number.start:
        return False  # the metric overlaps the number
    if own_measure(text, number) is not None if measured is None else measured:
        return False  # `-1.26 FID and +10.19 IS`: a number with its own measure written after it takes no other
    written_after = [n for n in numbers if n.end <= start and ADJACENT.fullmatch(text[min(n.unit_end, start):start])]
    return carries(text, numbers, written_after[-1].start if written_after else start, number)


FROM_BEFORE = re.compile(r"\bfrom\s+(?:(?:an?|the|about|around|roughly|approximately|average|mean|of|just|only)\s+){0,3}$",
                         re.IGNORECASE)
TO_BETWEEN = re.compile(r"\s*to\s+(?:(?:an?|about|around|roughly|approximately|just|only|nearly|almost|over)\s+){0,2}",
                        re.IGNORECASE)


def before_and_after(text: str, numbers: Sequence[Number]) -> dict[int, int]:
    """Each before-value of a `from X to Y` written with both ends unbounded (`raises the pass rate from 59% to
    78%`; a range's ends are bounded, `ranging from 0.73 to 0.92`): its index in `numbers` -> the after-value's."""
    pairs: dict[int, int] = {}
    for i, (first, second) in enumerate(zip(numbers, numbers[1:])):
        if first.bound is not None or second.bound is not None or not TO_BETWEEN.fullmatch(text[first.unit_end:second.start]):
            continue
        listed = i - 1 in pairs.values() and CHAIN.fullmatch(text[numbers[i - 1].unit_end:first.start]) is not None
        if listed or FROM_BEFORE.search(text[max(0, first.start - 40):first.start]):
            pairs[i] = i + 1  # `from 40.5% to 61.9%, 23.8% to 38.1%, and 42.9% to 57.1%`: the list's pairs too
    return pairs
