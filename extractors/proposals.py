"""Role cues: spans a paper presents as its own (`we propose X`, `X, a novel ...`, `termed X`, bold text)."""
from __future__ import annotations

from typing import Callable, Iterator

from spacy.tokens import Doc, Token

from extractors.lexicon import PROPOSAL_VERBS
from kg.extract import Candidate, DocContext
from kg.registry import extractors

AUTHORS = frozenset("we paper work study".split())
NAMING_VERBS = frozenset("call term dub name coin denote".split())
NOVELTY = frozenset("novel new first our proposed".split())
OBJECT_DEPS = frozenset("dobj nsubjpass attr oprd appos conj pobj".split())
STOP_DEPS = frozenset("prep relcl acl advcl punct cc".split())
EXTRACTOR = "proposals"


def authored(verb: Token) -> bool:
    """A proposal verb whose subject is the authors (`we`, `this paper`) or passive (`X is proposed`)."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if any(c.dep_ == "nsubjpass" for c in subjects) or any(c.dep_ == "auxpass" for c in verb.children):
        return True
    return any(c.lower_ in AUTHORS or c.lemma_.lower() in AUTHORS for c in subjects) or verb.dep_ in ("conj", "xcomp")


def phrase_end(token: Token) -> int:
    """The end of a noun phrase without its prepositional or clausal attachments."""
    end = token.i + 1
    for child in token.rights:
        if child.dep_ in STOP_DEPS:
            break
        end = max(end, child.right_edge.i + 1)
    return end


def object_spans(verb: Token) -> Iterator[tuple[int, int]]:
    """Token ranges of the verb's objects, their appositions and conjuncts, and a named-as complement."""
    stack = [c for c in verb.children if c.dep_ in ("dobj", "nsubjpass", "oprd", "attr")]
    seen = set()
    while stack:
        token = stack.pop()
        if token.i in seen:
            continue
        seen.add(token.i)
        yield token.left_edge.i, phrase_end(token)
        stack.extend(c for c in token.children if c.dep_ in ("appos", "conj", "oprd"))
        stack.extend(c for c in token.subtree if c.dep_ == "appos" and c.head.lemma_.lower() in NAMING_VERBS)


def novelty_appositions(doc: Doc) -> Iterator[tuple[int, int]]:
    """`X, a novel method ...` and `our X`: the name X."""
    for token in doc:
        if token.dep_ == "appos" and any(c.lower_ in NOVELTY for c in token.children):
            head = token.head
            yield head.left_edge.i, head.i + 1
        if token.lower_ == "our" and token.head.pos_ == "PROPN":
            yield token.i + 1, token.head.i + 1


def naming(doc: Doc) -> Iterator[tuple[int, int]]:
    """`termed X`, `called X`, `dubbed X`: the X after the naming verb."""
    for token in doc:
        if token.lemma_.lower() in NAMING_VERBS and token.tag_ == "VBN" and token.i + 1 < len(doc):
            nxt = doc[token.i + 1]
            yield nxt.i, phrase_end(nxt) if nxt.head.i != token.head.i else nxt.right_edge.i + 1


@extractors.register("proposals")
def make_proposals() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: proposal cues as `proposed` candidates for the combiner (not entities themselves)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        for start, end in context.clean.emphasis:
            yield Candidate(start, end, "method", "proposed", 0.0, EXTRACTOR)
        if not doc.has_annotation("DEP"):
            return
        spans = [s for v in doc if v.lemma_.lower() in PROPOSAL_VERBS and v.pos_ == "VERB" and authored(v)
                 for s in object_spans(v)]
        for start, end in (*spans, *novelty_appositions(doc), *naming(doc)):
            if start < end:
                yield Candidate(doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), "method", "proposed", 0.0,
                                EXTRACTOR)

    return extract
