"""Whether a number written with a sign is a change (pure: text in, a yes or no out).

A sign written on a number (`+1.91`, `-1.26`, `−0.4`) says it is a difference when the words right after it
measure it against something (`+1.91 over the baseline`, `-1.26 FID w.r.t. a reference`, `+3.2 points than`) or
name it a difference (`+2.1% improvement`, `-0.5 dB penalty`), or when it is what something changed `by`
(`improves F1 by +3.2`). A signed value stated as a measure's reading (`r = -0.56`, `a return of -15.62%`) stays a
score. Unsigned, a number is a change when a comparative follows it (`68% lower latency`, `2.1 points higher`) or it is
what a named difference amounts to (`relative gains of 10.6%`, `a reduction of 40%`)."""
from __future__ import annotations

import re
from typing import Sequence

from kg.extractors.results.binding import CHAIN
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


COMPARATIVE = re.compile(r"\s*(?:lower|higher|more|less|fewer|faster|slower|better|worse|smaller|larger|greater|shorter|"
                         r"longer)\b", re.IGNORECASE)
DIFFERENCE_OF = re.compile(r"\b(?:gains?|improvements?|reductions?|increases?|decreases?|drops?|speed-?ups?)\s+of\s+"
                           r"(?:(?:up to|about|around|approximately|nearly|almost|over)\s+)?[~≈]?\s*$", re.IGNORECASE)


def worded_change(text: str, number: Number, numbers: Sequence[Number] = ()) -> bool:
    """Whether the words right around a number make it a difference: a comparative after it, `gains of` before it,
    or it is listed with such a number (`gains of 10.6% and 10.0%`, `12% and 15% lower`)."""
    def worded(n: Number) -> bool:
        return (COMPARATIVE.match(text, n.unit_end) is not None
                or DIFFERENCE_OF.search(text[max(0, n.start - 40):n.start]) is not None)

    if worded(number):
        return True
    i = next((k for k, n in enumerate(numbers) if n.start == number.start), None)
    if i is None:
        return False
    before, after = numbers[i - 1] if i > 0 else None, numbers[i + 1] if i + 1 < len(numbers) else None
    return ((before is not None and CHAIN.fullmatch(text[before.unit_end:number.start]) is not None and worded(before))
            or (after is not None and CHAIN.fullmatch(text[number.unit_end:after.start]) is not None and worded(after)))
