"""How a number and a candidate of its sentence are tied in the sentence's dependency parse (the shared Doc's
parse, never a new one): the path of dependency labels between them through their lowest common head, and the
words that govern the number (feature strings for the linking layers)."""
from __future__ import annotations

from spacy.tokens import Doc, Span, Token

LIMIT = 4  # labels on each side of a path before it is read as long


def root(doc: Doc, start: int, end: int) -> Token:
    """The token of the characters [start, end) whose head lies outside them (the first when several)."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or not len(span):
        from kg.extractors.results.features import token_at
        return doc[token_at(doc, start)]
    return span.root


def chain(token: Token) -> list[Token]:
    """A token and its heads up to the sentence's root."""
    out = [token]
    while out[-1].head.i != out[-1].i and len(out) < 40:
        out.append(out[-1].head)
    return out


def path(number: Token, other: Token) -> tuple[list[str], Token | None, list[str]]:
    """(labels up from the number, the lowest common head, labels down to the other token); (…, None, …) when they
    share no head (different sentences)."""
    up, down = chain(number), chain(other)
    where = {t.i: k for k, t in enumerate(down)}
    for k, t in enumerate(up):
        if t.i in where:
            return [x.dep_ for x in up[:k]], t, [x.dep_ for x in down[:where[t.i]]]
    return [x.dep_ for x in up], None, [x.dep_ for x in down]


def head_word(token: Token) -> str:
    """A governing token as a feature word: a verb's or noun's lower-cased lemma, else its part of speech."""
    return token.lemma_.lower() if token.pos_ in ("VERB", "AUX", "NOUN", "ADJ", "ADP") else token.pos_


def path_features(number: Token, other: Token) -> list[str]:
    """The dependency path between a number and a candidate of its sentence, whole and in parts."""
    up, top, down = path(number, other)
    if top is None:
        return ["path:none"]
    ups = ">".join(up) if len(up) <= LIMIT else "long"
    downs = "<".join(reversed(down)) if len(down) <= LIMIT else "long"
    last = down[-1] if down else "self"  # the label right under the common head
    feats = [f"up:{ups}", f"down:{downs}", f"path:{ups}|{downs}", f"top:{head_word(top)}:{last}",
             f"toppos:{top.pos_}:{last}", f"plen:{min(len(up) + len(down), 8)}"]
    if top.i == other.i:
        feats.append("governs_number")
    if number.i == top.i:
        feats.append("number_governs")
    return feats


def governors(number: Token, sentence: Span) -> list[str]:
    """The words governing a number in its clause: its head and the first noun and verb above it."""
    feats = [f"numdep:{number.dep_}", f"numhead:{head_word(number.head)}"]
    noun = verb = None
    for t in chain(number)[1:]:
        if not (sentence.start <= t.i < sentence.end):
            break
        if noun is None and t.pos_ in ("NOUN", "PROPN"):
            noun = t
        if verb is None and t.pos_ in ("VERB", "AUX"):
            verb = t
    if noun is not None:
        feats.append(f"numnoun:{noun.lemma_.lower() if noun.pos_ == 'NOUN' else 'PROPN'}")
    if verb is not None:
        feats.append(f"numverb:{verb.lemma_.lower()}")
    return feats
