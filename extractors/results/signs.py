"""Whether a number written with a sign is a change (pure: text in, a yes or no out).

A sign written on a number (`+1.91`, `-1.26`, `−0.4`) says it is a difference when the words right after it
measure it against something (`+1.91 over the baseline`, `-1.26 FID w.r.t. a reference`, `+3.2 points than`) or
name it a difference (`+2.1% improvement`, `-0.5 dB penalty`), or when it is what something changed `by`
(`improves F1 by +3.2`). A signed value stated as a measure's reading (`r = -0.56`, `a return of -15.62%`) stays a
score."""
from __future__ import annotations

import re

from kg.extractors.results.numbers import Number

SIGNS = "+-−"
# Words after a signed number that make it a difference: against a reference, or the name of a difference.
REFERENCE = re.compile(
    r"(?<![\w.])(?:w\.?r\.?t\.?|with respect to|relative|compared (?:to|with)|against|over|than|versus|vs\.?"
    r"|absolute|improvements?|gains?|reductions?|increases?|decreases?|drops?|degradations?|penalty|penalties)"
    r"(?!\w)",
    re.IGNORECASE)
# `by` right before the number, a bound allowed between ('improves F1 by up to +3.2').
BY = re.compile(r"\bby\s+(?:(?:up to|about|around|approximately|nearly|almost|over)\s+)?[~≈]?\s*$", re.IGNORECASE)
CLAUSE_END = re.compile(r"[;:!?()]|\.(?:\s|$)|\s[–—]\s")  # what ends the words about one number
AFTER = 40  # characters after the number's unit read for a reference


def is_signed(number: Number) -> bool:
    """Whether the number is written with a plus or minus sign."""
    return number.value[:1] in SIGNS


def signed_change(text: str, number: Number) -> bool:
    """Whether a signed number is a change: measured against something, named a difference, or changed `by`."""
    if not is_signed(number):
        return False
    if BY.search(text[max(0, number.start - 24):number.start]):
        return True
    after = text[number.unit_end:number.unit_end + AFTER]
    match = REFERENCE.search(after)
    return match is not None and not CLAUSE_END.search(after[:match.start()])
