"""Sparse features of a number in its parsed sentence: its form and unit, the words around it, the sentence's
verbs and comparatives, and the entity mentions near it (feature strings; the trained model weighs them)."""
from __future__ import annotations

from bisect import bisect_left
from typing import Sequence

from spacy.tokens import Doc, Span, Token

from kg.extraction.doccache import attrs, text as doc_text
from kg.extraction.interface import Candidate
from kg.extractors.results.numbers import Number

WINDOW = 3  # words on each side read one by one
BAG = 8  # words on each side read as a bag


def magnitude(number: Number) -> str:
    """A coarse form of the value: year-like, integer size class, fraction, decimal."""
    value = number.decimal
    text = number.value.lstrip("+-−±").replace(",", "")
    if "." not in text:
        if 1900 <= value <= 2100 and len(text) == 4:
            return "year"
        return f"int{min(len(text), 5)}"
    if abs(value) < 1:
        return "fraction"
    return f"dec{min(len(text.split('.')[0]), 3)}.{min(len(text.split('.')[1]), 3)}"


def word(token: Token) -> str:
    """A token as a feature word: its lower-cased lemma, digits folded."""
    if token.like_num or any(ch.isdigit() for ch in token.text):
        return "<num>"
    return token.lemma_.lower()


def token_at(doc: Doc, char: int) -> int:
    """The index of the token holding a character offset (the next token if it falls in whitespace)."""
    return max(0, min(len(doc) - 1, bisect_left(attrs(doc).idx, char + 1) - 1))


def mention_features(number: Number, sentence: Span, mentions: Sequence[Candidate]) -> list[str]:
    """The types of the entity mentions around the number in its sentence, by side and distance."""
    feats = []
    for m in mentions:
        if m.kind != "entity" or m.end <= sentence.start_char or m.start >= sentence.end_char:
            continue
        if m.start <= number.start < m.end:
            feats.append(f"inside:{m.type}")
            continue
        gap = number.start - m.end if m.end <= number.start else m.start - number.unit_end
        side = "before" if m.end <= number.start else "after"
        near = "near" if gap <= 3 else "mid" if gap <= 30 else "far"
        feats.append(f"ment:{side}:{near}:{m.type}")
        feats.append(f"ment:sent:{m.type}")
    return feats


def number_features(doc: Doc, number: Number, numbers: Sequence[Number], mentions: Sequence[Candidate],
                    sentence_index: int, sentences: int) -> list[str]:
    """The feature strings of one number of a Doc (its sentence, its neighbours, the mentions around it)."""
    first, last = token_at(doc, number.start), token_at(doc, max(number.unit_end - 1, number.start))
    sentence = doc[first].sent
    feats = [f"unit:{number.unit}", f"mag:{magnitude(number)}", f"mag_unit:{magnitude(number)}:{number.unit}",
             f"sign:{number.value[:1] in '+-−'}", f"bound:{number.bound}",
             f"pos:{'last' if sentence_index == sentences - 1 else 'first' if sentence_index == 0 else 'mid'}"]
    before = [word(t) for t in doc[max(sentence.start, first - BAG):first]]
    after = [word(t) for t in doc[last + 1:min(sentence.end, last + 1 + BAG)]]
    for i in range(1, WINDOW + 1):
        feats.append(f"p{i}:{before[-i] if len(before) >= i else '<s>'}")
        feats.append(f"n{i}:{after[i - 1] if len(after) >= i else '</s>'}")
    feats.append(f"p12:{' '.join(before[-2:])}")
    feats.append(f"n12:{' '.join(after[:2])}")
    feats += [f"bb:{w}" for w in set(before)] + [f"ba:{w}" for w in set(after)]
    for t in sentence:
        if t.pos_ == "VERB":
            feats.append(f"verb:{t.lemma_.lower()}")
        if t.tag_ in ("JJR", "RBR"):
            feats.append(f"cmp:{t.lemma_.lower()}")
    head = doc[first].head
    feats += [f"dep:{doc[first].dep_}", f"head:{word(head)}", f"headdep:{head.dep_}:{word(head)}"]
    in_sentence = [n for n in numbers if sentence.start_char <= n.start < sentence.end_char]
    feats.append(f"nums:{min(len(in_sentence), 6)}")
    feats.append(f"paren:{doc_text(doc)[max(0, number.start - 1):number.start] == '('}")
    feats += mention_features(number, sentence, mentions)
    return feats
