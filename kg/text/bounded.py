"""Keep the cost of one abstract bounded: strip only what will be parsed, and drop degenerate runs.

`strip_prefix` strips markup from just enough of a huge text (the offset map costs about 100
bytes per character). `drop_long_runs` shortens runs that make spaCy's tokenizer quadratic (it
splits prefixes and suffixes one character at a time: 20,000 braces took a minute) or that are
nothing but punctuation tokens to parse: a run of 200+ characters without a space, 16+
punctuation characters, or 12+ punctuation-only words in a row keeps only its first
RUN_KEPT characters. `token_limit` is where a text passes MAX_PARSE_TOKENS tokens. None of
these changes a real abstract (none of 13,446 corpus abstracts has such a run), and the map to
original offsets stays exact.
"""
from __future__ import annotations

import re
from itertools import islice

from kg.text.markup import CleanText, strip_markup

# The leading lookahead (implied by each alternative) lets the search skip plain word characters fast: 2.3x.
DEGENERATE_RUN = re.compile(r"(?=[^\w\s]|_|(?<!\S)\S{200})"
                            r"(?:(?<!\S)\S{200,}|(?:[^\w\s]|_){16,}|(?:(?:[^\w\s]|_)+\s+){12,})")
RUN_KEPT = 16
MAX_PARSE_TOKENS = 25_000  # a 100,000-character text of ordinary words has about 20,000
TOKEN = re.compile(r"\w+|[^\w\s]")


def strip_prefix(raw: str, limit: int) -> CleanText:
    """`strip_markup` of just enough of `raw` to give more than `limit` clean characters (or all of it)."""
    size = 2 * limit
    while True:
        clean = strip_markup(raw[:size])
        if len(clean.text) > limit or size >= len(raw):
            return clean
        size *= 4


def drop_long_runs(clean: CleanText) -> CleanText:
    """The text without all but the first RUN_KEPT characters of each degenerate run (unchanged if none)."""
    drops = [(match.start() + RUN_KEPT, match.end()) for match in DEGENERATE_RUN.finditer(clean.text)
             if match.end() - match.start() > RUN_KEPT]
    if not drops:
        return clean
    keep = [(0, drops[0][0])] + [(end, start) for (_, end), (start, _) in zip(drops, drops[1:])]
    keep.append((drops[-1][1], len(clean.text)))
    text = "".join(clean.text[start:end] for start, end in keep)
    spans = tuple(span for start, end in keep for span in clean.spans[start:end])
    emphasis = ((moved(drops, start), moved(drops, end)) for start, end in clean.emphasis)
    return CleanText(text, spans, tuple(e for e in emphasis if e[0] < e[1]))


def moved(drops: list[tuple[int, int]], index: int) -> int:
    """Where clean index `index` lands once the `drops` stretches are removed."""
    return index - sum(min(index, end) - start for start, end in drops if index > start)


def token_limit(text: str, limit: int = MAX_PARSE_TOKENS) -> int | None:
    """The character index where the text's token `limit` + 1 starts, or None if it has no more tokens."""
    if len(text) <= limit:
        return None
    beyond = next(islice(TOKEN.finditer(text), limit, None), None)
    return beyond.start() if beyond else None
