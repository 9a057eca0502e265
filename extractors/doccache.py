"""Per-Doc values several extractors need, computed once and kept in `doc.user_data`."""
from __future__ import annotations

from bisect import bisect_right
from typing import Callable, TypeVar

from spacy.tokens import Doc, Token

T = TypeVar("T")


def cached(doc: Doc, name: str, compute: Callable[[Doc], T]) -> T:
    """`compute(doc)`, evaluated once per Doc."""
    key = ("paperkg", name)
    if key not in doc.user_data:
        doc.user_data[key] = compute(doc)
    return doc.user_data[key]


def tokens(doc: Doc) -> list[Token]:
    """The Doc's tokens as one list (iterating a Doc builds new Token objects each time)."""
    return cached(doc, "tokens", list)


def clear(doc: Doc) -> None:
    """Drop this module's values from `doc.user_data` (they hold Tokens, which do not serialise)."""
    for key in [k for k in doc.user_data if isinstance(k, tuple) and k[:1] == ("paperkg",)]:
        del doc.user_data[key]


def text(doc: Doc) -> str:
    """The Doc's text (spaCy rebuilds it on every `doc.text`)."""
    return cached(doc, "text", lambda d: d.text)


def _sentences(doc: Doc) -> tuple[list[int], list[tuple[int, int]]]:
    """Token start offsets and, per token, its sentence's (start, end) token range."""
    bounds: list[tuple[int, int]] = [(0, 0)] * len(doc)
    for sent in doc.sents:
        for i in range(sent.start, sent.end):
            bounds[i] = (sent.start, sent.end)
    return [t.idx for t in doc], bounds


def sentence_at(doc: Doc, char: int) -> tuple[int, int]:
    """The (start, end) token range of the sentence holding the token at character offset `char`."""
    starts, bounds = cached(doc, "sentences", _sentences)
    if not starts:
        return 0, 0
    return bounds[max(0, bisect_right(starts, char) - 1)]


def sentence_of(doc: Doc, token: int) -> tuple[int, int]:
    """The (start, end) token range of token `token`'s sentence."""
    return cached(doc, "sentences", _sentences)[1][token]

