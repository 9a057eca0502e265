"""Noun-chunk sub-spans typed by their head noun: tasks, methods, models, metrics, named datasets."""
from __future__ import annotations

from typing import Callable, Iterator

from spacy.tokens import Doc, Span

from extractors.lexicon import GENERIC_HEADS, HEAD_TYPES, VAGUE_HEADS, VAGUE_MODIFIERS
from extractors.shapes import is_coined
from kg.extract import Candidate, DocContext
from kg.registry import extractors
from kg.resolve import singular

SCORE = 0.5
REST_SCORE = 0.45  # the phrase after a leading name, used when the name is a known dataset/metric
DROPPED_HEADS = frozenset("approach method technique strategy scheme paradigm".split())
STRIP_POS = frozenset("DET PRON PART ADV NUM PUNCT CCONJ SCONJ ADP AUX".split())
TAIL_WORDS = GENERIC_HEADS | VAGUE_HEADS | frozenset(HEAD_TYPES) | frozenset("system setting task benchmark".split())
NAMED_TYPES = frozenset({"dataset"})  # types that need a name (capital or coined word) among the modifiers


def trim(span: Span) -> Span:
    """Drop determiners, vague modifiers, numbers and coordinated left parts; cut at a parenthesis."""
    doc, start, end = span.doc, span.start, span.end
    for token in span:
        if token.text in ("(", "[", ",", ";", ":"):
            end = token.i
            break
    for token in doc[start:end]:
        joined = not token.whitespace_ and token.i + 1 < end and doc[token.i + 1].text in "-–/"
        if (token.pos_ in ("NUM", "CCONJ") and not joined) or (token.is_punct and token.text not in "-–/"):
            start = token.i + 1
    while start < end and (doc[start].pos_ in STRIP_POS or doc[start].lower_ in VAGUE_MODIFIERS
                           or doc[start].text in "-–—/"):
        start = compound_end(doc, start, end)
    while end > start and (doc[end - 1].is_punct or doc[end - 1].pos_ in ("DET", "ADP", "CCONJ")):
        end -= 1
    return doc[start:end]


def compound_end(doc: Doc, i: int, end: int) -> int:
    """The token after the hyphenated compound starting at word `i` (`high-dimensional`, `fine-grained`): a
    stripped modifier takes its whole compound with it, never leaving half a word (`dimensional`)."""
    if not doc[i].is_alpha:  # a number keeps its word: `3-approximation ratio` -> `approximation ratio`
        return i + 1
    i += 1
    while i + 1 < end and not doc[i - 1].whitespace_ and doc[i].text in "-–" and not doc[i].whitespace_:
        i += 2
    return i


def named(span: Span) -> bool:
    """Whether some word of the span is capitalised mid-sentence or coined."""
    return any(is_coined(t.text) or (t.is_title and not t.is_sent_start) for t in span)


def title_name(span: Span) -> bool:
    """Every word capitalised or coined (`Quill Folding`, `Rim-Aware Pooling`): a name, whose generic method head
    (`mechanism`, `module`) only says what kind of thing it names."""
    return all(t.text in "-–" or is_coined(t.text) or t.is_title for t in span)


def head_type(span: Span) -> str | None:
    """The type its last word gives a span, if any."""
    return HEAD_TYPES.get(singular(span[-1].lower_)) or HEAD_TYPES.get(span[-1].lemma_.lower())


def typed_span(span: Span) -> tuple[Span, str] | None:
    """The longest left-anchored sub-span ending in a typing head, with its type, or None."""
    for end in range(len(span), 0, -1):
        sub = span[:end]
        entity_type = head_type(sub)
        if entity_type is None or not all(singular(t.lower_) in TAIL_WORDS for t in span[end:]):
            continue
        head = singular(sub[-1].lower_)
        if head in DROPPED_HEADS or (head in GENERIC_HEADS and named(sub[:1]) and (
                len(sub) == 2 or (entity_type == "method" and title_name(sub[:-1])))):
            sub = sub[:-1]
        if acceptable(sub, head, entity_type):
            return sub, entity_type
    return None


def acceptable(sub: Span, head: str, entity_type: str) -> bool:
    """Specific enough to be an entity: a modifier that is not vague, a name where the type needs one."""
    if not len(sub) or head in VAGUE_HEADS or (entity_type in NAMED_TYPES and not named(sub)):
        return False
    if len(sub) == 1:
        return named(sub)
    return not (len(sub) == 2 and singular(sub[-1].lower_) in GENERIC_HEADS and not named(sub))


def after_name(sub: Span) -> Span | None:
    """The part after a leading name (`ImageNet classification` -> `classification`), if it is a phrase."""
    if len(sub) >= 3 and is_coined(sub[0].text) and not any(is_coined(t.text) for t in sub[1:]):
        rest = sub[1:]
        while len(rest) and (rest[0].text in "-–/" or rest[0].pos_ == "PART" or rest[0].lower_ in ("style", "based", "like")):
            rest = rest[1:]
        return rest if len(rest) >= 2 else None
    return None


def describes_name(chunk: Span) -> bool:
    """`Foo, a novel video model`: an indefinite apposition describing a name, not an entity itself."""
    return chunk.root.dep_ == "appos" and chunk[0].lower_ in ("a", "an") and (
        chunk.root.head.pos_ == "PROPN" or is_coined(chunk.root.head.text))


@extractors.register("chunks")
def make_chunks() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: the noun-chunk extractor (needs a parser; yields nothing on a blank pipeline)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        if not doc.has_annotation("DEP"):
            return
        for chunk in doc.noun_chunks:
            if describes_name(chunk):
                continue
            span = trim(chunk)
            found = typed_span(span) if len(span) else None
            if found:
                sub, entity_type = found
                yield Candidate(sub.start_char, sub.end_char, entity_type, "used", SCORE, "chunks")
                rest = after_name(sub)
                if rest is not None:
                    yield Candidate(rest.start_char, rest.end_char, entity_type, "used", REST_SCORE, "chunks")

    return extract
