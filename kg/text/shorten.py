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
