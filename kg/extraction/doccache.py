"""Per-Doc values several extractors need, computed once and kept in `doc.user_data`."""
from __future__ import annotations

from bisect import bisect_right
from typing import Callable, NamedTuple, TypeVar

from spacy.attrs import DEP, IDX, IS_ALPHA, IS_PUNCT, IS_TITLE, LEMMA, LOWER, ORTH, POS, SENT_START, SPACY
from spacy.tokens import Doc, Token

T = TypeVar("T")
ATTRS = [ORTH, LOWER, POS, IDX, SPACY, SENT_START, IS_TITLE, IS_ALPHA, IS_PUNCT, LEMMA, DEP]


class Attrs(NamedTuple):
    """Token attributes as plain lists (reading them from Token objects, or `doc[i]`, is far slower)."""

    text: list[str]
    lower: list[str]
    pos: list[str]
    idx: list[int]
    space: list[bool]  # followed by whitespace
    sent_start: list[bool]  # `token.is_sent_start` is truthy
    title: list[bool]
    alpha: list[bool]
    punct: list[bool]
    lemma: list[str]  # lower-cased, as `token.lemma_.lower()`
    dep: list[str]


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


# String ids (hashes of the strings, the same in every Vocab) -> strings, shared by all Docs: a dict is faster
# than the StringStore. Bounded, in case one process sees a whole field.
_NAMES: dict[int, str] = {}
_LOWERED: dict[int, str] = {}
_MAX_NAMES = 1 << 21


def _names(ids: list[int], strings, table: dict[int, str], lowered: bool = False) -> list[str]:
    """The strings of `ids`, read through `table`."""
    try:
        return list(map(table.__getitem__, ids))
    except KeyError:
        if len(table) > _MAX_NAMES:
            table.clear()
        for i in set(ids).difference(table):
            table[i] = strings[i].lower() if lowered else strings[i]
        return list(map(table.__getitem__, ids))


def _attrs(doc: Doc) -> Attrs:
    if not len(doc):
        return Attrs([], [], [], [], [], [], [], [], [], [], [])
    rows, strings = doc.to_array(ATTRS).T, doc.vocab.strings
    orth, lower, pos, idx, lemma, dep = (rows[k].tolist() for k in (0, 1, 2, 3, 9, 10))
    flags = (rows[4:9] != 0).tolist()
    return Attrs(_names(orth, strings, _NAMES), _names(lower, strings, _NAMES), _names(pos, strings, _NAMES), idx,
                 flags[0], (rows[5] == 1).tolist(), flags[2], flags[3], flags[4],
                 _names(lemma, strings, _LOWERED, lowered=True), _names(dep, strings, _NAMES))


def attrs(doc: Doc) -> Attrs:
    """The Doc's token attributes as lists (see `Attrs`)."""
    return cached(doc, "attrs", _attrs)


def _text(doc: Doc) -> str:
    a = attrs(doc)
    return "".join([t + " " if s else t for t, s in zip(a.text, a.space)])


def text(doc: Doc) -> str:
    """The Doc's text (spaCy rebuilds it on every `doc.text`)."""
    return cached(doc, "text", _text)


def span_text(doc: Doc, start: int, end: int) -> str:
    """`doc[start:end].text` for 0 <= start <= end <= len(doc), without building the Span."""
    if start >= end:
        return ""
    a = attrs(doc)
    return text(doc)[a.idx[start]:a.idx[end - 1] + len(a.text[end - 1])]


def _sentences(doc: Doc) -> tuple[list[int], list[tuple[int, int]]]:
    """Token start offsets and, per token, its sentence's (start, end) token range."""
    bounds: list[tuple[int, int]] = [(0, 0)] * len(doc)
    for sent in doc.sents:
        bounds[sent.start:sent.end] = [(sent.start, sent.end)] * (sent.end - sent.start)
    return attrs(doc).idx, bounds


def sentence_at(doc: Doc, char: int) -> tuple[int, int]:
    """The (start, end) token range of the sentence holding the token at character offset `char`."""
    starts, bounds = cached(doc, "sentences", _sentences)
    if not starts:
        return 0, 0
    return bounds[max(0, bisect_right(starts, char) - 1)]


def sentence_of(doc: Doc, token: int) -> tuple[int, int]:
    """The (start, end) token range of token `token`'s sentence."""
    return cached(doc, "sentences", _sentences)[1][token]
