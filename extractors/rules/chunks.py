"""Noun-chunk sub-spans typed by their head noun: tasks, methods, models, metrics, named datasets."""
from __future__ import annotations

import re
from typing import Callable, Iterator

from spacy.lang.en.syntax_iterators import noun_chunks as english_noun_chunks
from spacy.tokens import Doc, Token

from kg.extractors.rules.cues import singular_lower
from kg.extraction.doccache import Attrs, attrs, cached
from kg.extractors.rules.lexicon import GENERIC_HEADS, HEAD_TYPES, VAGUE_HEADS, VAGUE_MODIFIERS
from kg.extractors.rules.shapes import is_coined
from kg.extraction.interface import Candidate, DocContext
from kg.registry import extractors

SCORE = 0.5
REST_SCORE = 0.45  # the phrase after a leading name, used when the name is a known dataset/metric
OPEN_SCORE = 0.4  # typed by no head list: any other candidate's type wins
DROPPED_HEADS = frozenset("approach method technique strategy scheme paradigm".split())
STRIP_POS = frozenset("DET PRON PART ADV NUM PUNCT CCONJ SCONJ ADP AUX".split())
TAIL_WORDS = GENERIC_HEADS | VAGUE_HEADS | frozenset(HEAD_TYPES) | frozenset("system setting task benchmark".split())
MAX_CHUNK_TOKENS = 64  # longer noun chunks are never one entity's name (and typing them is quadratic)
NAMED_TYPES = frozenset({"dataset"})  # types that need a name (capital or coined word) among the modifiers


# Token ranges (start, end) over the Doc's attribute lists (`doccache.attrs`): no Span or Token objects per word.
Range = tuple[int, int]


def trim(a: Attrs, start: int, end: int) -> Range:
    """Drop determiners, vague modifiers, numbers and coordinated left parts; cut at a parenthesis."""
    texts, pos, punct, space = a.text, a.pos, a.punct, a.space
    for i in range(start, end):
        if texts[i] in ("(", "[", ",", ";", ":"):
            end = i
            break
    for i in range(start, end):
        joined = not space[i] and i + 1 < end and texts[i + 1] in "-–/"
        if (pos[i] in ("NUM", "CCONJ") and not joined) or (punct[i] and texts[i] not in "-–/"):
            start = i + 1
    while start < end and (pos[start] in STRIP_POS or a.lower[start] in VAGUE_MODIFIERS or texts[start] in "-–—/"):
        start = compound_end(a, start, end)
    while end > start and (punct[end - 1] or pos[end - 1] in ("DET", "ADP", "CCONJ")):
        end -= 1
    return start, end


def compound_end(a: Attrs, i: int, end: int) -> int:
    """The token after the hyphenated compound starting at word `i` (`high-dimensional`, `fine-grained`): a
    stripped modifier takes its whole compound with it, never leaving half a word (`dimensional`)."""
    if not a.alpha[i]:  # a number keeps its word: `3-approximation ratio` -> `approximation ratio`
        return i + 1
    i += 1
    while i + 1 < end and not a.space[i - 1] and a.text[i] in "-–" and not a.space[i]:
        i += 2
    return i


def named(a: Attrs, start: int, end: int) -> bool:
    """Whether some word of the range is capitalised mid-sentence or coined."""
    return any(is_coined(a.text[i]) or (a.title[i] and not a.sent_start[i]) for i in range(start, end))


def title_name(a: Attrs, start: int, end: int) -> bool:
    """Every word capitalised or coined (`Quill Folding`, `Rim-Aware Pooling`): a name, whose generic method head
    (`mechanism`, `module`) only says what kind of thing it names."""
    return all(a.text[i] in "-–" or is_coined(a.text[i]) or a.title[i] for i in range(start, end))


def head_type(a: Attrs, last: int) -> str | None:
    """The type its last word (token `last`) gives a range, if any."""
    return HEAD_TYPES.get(singular_lower(a.lower[last])) or HEAD_TYPES.get(a.lemma[last])


def typed_span(a: Attrs, start: int, stop: int) -> tuple[Range, str] | None:
    """The longest left-anchored sub-range ending in a typing head, with its type, or None."""
    for end in range(stop, start, -1):
        entity_type = head_type(a, end - 1)
        if entity_type is None or not all(singular_lower(a.lower[i]) in TAIL_WORDS for i in range(end, stop)):
            continue
        head, sub_end = singular_lower(a.lower[end - 1]), end
        if head in DROPPED_HEADS or (head in GENERIC_HEADS and named(a, start, start + 1) and (
                end - start == 2 or (entity_type == "method" and title_name(a, start, end - 1)))):
            sub_end = end - 1
        if acceptable(a, start, sub_end, head, entity_type):
            return (start, sub_end), entity_type
    return None


# A deverbal noun (`selection`, `compression`, `merging`) names a process: with a specific modifier, a technique
# (`token selection`), whatever the word; the closed head lists cannot reach the long tail.
PROCESS_NOUN = re.compile(r"^[a-z]{3,}(?:tion|sion|ing)$")
OPEN_POS = frozenset("NOUN PROPN ADJ".split())


def open_span(a: Attrs, start: int, stop: int) -> Range | None:
    """A phrase of two or more nouns/adjectives ending in a process noun missing from the head lists, or None."""
    if stop - start < 2 or a.pos[stop - 1] != "NOUN":
        return None
    head = singular_lower(a.lower[stop - 1])
    if not PROCESS_NOUN.match(head) or head in VAGUE_HEADS or head in GENERIC_HEADS:
        return None
    if not all(a.pos[i] in OPEN_POS or a.text[i] in "-–" for i in range(start, stop)):
        return None
    return start, stop


def acceptable(a: Attrs, start: int, end: int, head: str, entity_type: str) -> bool:
    """Specific enough to be an entity: a modifier that is not vague, a name where the type needs one."""
    if end <= start or head in VAGUE_HEADS or (entity_type in NAMED_TYPES and not named(a, start, end)):
        return False
    if end - start == 1:
        return named(a, start, end)
    return not (end - start == 2 and singular_lower(a.lower[end - 1]) in GENERIC_HEADS and not named(a, start, end))


def after_name(a: Attrs, start: int, end: int) -> Range | None:
    """The part after a leading name (`ImageNet classification` -> `classification`), if it is a phrase."""
    if end - start >= 3 and is_coined(a.text[start]) and not any(is_coined(a.text[i]) for i in range(start + 1, end)):
        rest = start + 1
        while rest < end and (a.text[rest] in "-–/" or a.pos[rest] == "PART" or a.lower[rest] in ("style", "based", "like")):
            rest += 1
        return (rest, end) if end - rest >= 2 else None
    return None


def describes_name(doc: Doc, a: Attrs, start: int, end: int) -> bool:
    """`Foo, a novel video model`: an indefinite apposition describing a name, not an entity itself."""
    if a.lower[start] not in ("a", "an"):
        return False
    root = doc[start:end].root
    return root.dep_ == "appos" and (root.head.pos_ == "PROPN" or is_coined(root.head.text))


NP_DEPS = frozenset("oprd nsubj dobj nsubjpass pcomp pobj dative appos attr ROOT".split())
NOUN_POS = frozenset({"NOUN", "PROPN", "PRON"})


def noun_chunk_ranges(doc: Doc) -> list[Range]:
    """(start, end) of `doc.noun_chunks`, computed once per Doc (this extractor and the span model read them)."""
    return cached(doc, "noun_chunks", find_noun_chunks)


def find_noun_chunks(doc: Doc) -> list[Range]:
    """(start, end) of `doc.noun_chunks`. For English, spaCy's own algorithm (`spacy.lang.en.syntax_iterators`),
    building Tokens only for the nouns; for any other language, spaCy's iterator itself."""
    a = attrs(doc)
    if doc.noun_chunks_iterator is not english_noun_chunks:
        return [(chunk.start, chunk.end) for chunk in doc.noun_chunks]
    found, prev_end, dep = [], -1, a.dep
    chain_heads: dict[int, Token] = {}
    for i, pos in enumerate(a.pos):
        if pos not in NOUN_POS:
            continue
        word = doc[i]
        left = word.left_edge.i
        if left <= prev_end:
            continue
        if dep[i] in NP_DEPS:
            prev_end = i
            found.append((left, i + 1))
        elif dep[i] == "conj":
            head = conjunction_head(word.head, chain_heads)
            if head.dep_ in NP_DEPS:
                prev_end = i
                found.append((left, i + 1))
    return found


def conjunction_head(head: Token, memo: dict[int, Token]) -> Token:
    """Follow leftward `conj` links from `head` to the first token that is not such a conjunct (memoised:
    a list of n conjuncts is walked once, not n times)."""
    walked = []
    while head.dep_ == "conj" and head.head.i < head.i and head.i not in memo:
        walked.append(head.i)
        head = head.head
    head = memo.get(head.i, head) if head.dep_ == "conj" and head.head.i < head.i else head
    memo.update(dict.fromkeys(walked, head))
    return head


def char_range(a: Attrs, start: int, end: int) -> Range:
    """The character offsets of a non-empty token range."""
    return a.idx[start], a.idx[end - 1] + len(a.text[end - 1])


@extractors.register("chunks")
def make_chunks() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: the noun-chunk extractor (needs a parser; yields nothing on a blank pipeline)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        if not doc.has_annotation("DEP"):
            return
        a = attrs(doc)
        for chunk_start, chunk_end in noun_chunk_ranges(doc):
            if chunk_end - chunk_start > MAX_CHUNK_TOKENS or describes_name(doc, a, chunk_start, chunk_end):
                continue
            start, end = trim(a, chunk_start, chunk_end)
            found = typed_span(a, start, end) if end > start else None
            if found is None and end > start:
                opened = open_span(a, start, end)
                if opened:
                    yield Candidate(*char_range(a, *opened), "method", "used", OPEN_SCORE, "chunks", strength="weak")
            if found:
                (sub_start, sub_end), entity_type = found
                yield Candidate(*char_range(a, sub_start, sub_end), entity_type, "used", SCORE, "chunks", strength="weak")
                rest = after_name(a, sub_start, sub_end)
                if rest is not None:
                    yield Candidate(*char_range(a, *rest), entity_type, "used", REST_SCORE, "chunks", strength="weak")

    return extract
