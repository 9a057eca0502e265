"""The one way text is shortened for display: cut, and ended with "…"."""
from __future__ import annotations

ELLIPSIS = "…"


def shorten(text: str, limit: int, strip: str = " ", at_word: bool = False) -> str:
    """`text` if at most `limit` characters long, else cut and ended with "…": after `limit` - 1 characters, or
    (`at_word`) at the last space before `limit` when that keeps over a third (else after `limit`); the `strip`
    characters are dropped from the cut end before the "…"."""
    if len(text) <= limit:
        return text
    end = limit - 1
    if at_word:
        space = text.rfind(" ", 0, limit)
        end = space if space > limit // 3 else limit
    return text[:end].rstrip(strip) + ELLIPSIS


def excerpt(text: str, start: int, end: int, limit: int) -> str:
    """`text` cut to at most `limit` characters so that [start, end) (a mention in its sentence) stays in view: the
    head as `shorten` cuts it when the span ends inside it, else a window around the span, begun with "…" and ended
    with "…" unless it reaches the end of the text."""
    if len(text) <= limit or end <= limit - 1:
        return shorten(text, limit)
    if len(text) - start <= limit - 1:  # the window reaches the end: one ellipsis, in front
        return ELLIPSIS + text[len(text) - (limit - 1):].lstrip()
    keep = limit - 2  # an ellipsis at each end
    begin = max(1, start - max(keep - (end - start), 0) // 2)
    return ELLIPSIS + text[begin:begin + keep].strip() + ELLIPSIS
