"""Role cues: spans a paper presents as its own (`we propose X`, `X, a novel ...`, `termed X`, bold text)."""
from __future__ import annotations

from typing import Callable, Iterator

from spacy.tokens import Doc, Span, Token

from kg.extractors.rules.cues import context_type, shape_type
from kg.extraction.doccache import attrs, cached, sentence_of
from kg.extractors.rules.lexicon import PROPOSAL_VERBS
from kg.extractors.rules.shapes import capital, title_ranges
from kg.extraction.interface import Candidate, DocContext, cue
from kg.registry import extractors

AUTHORS = frozenset("we paper work study".split())
NAMING_VERBS = frozenset("call term dub name coin".split())
NOVELTY = frozenset("novel new first our proposed".split())
OBJECT_DEPS = frozenset("dobj nsubjpass attr oprd appos conj pobj".split())
STOP_DEPS = frozenset("prep relcl acl advcl punct cc".split())
PASSIVE_VERBS = frozenset("propose introduce present release".split())
SELF = frozenset("we our".split())
# Verbs that list the parts of a proposed thing: `X comprises A and B`, `a module featuring A`.
COMPOSITION_VERBS = frozenset("comprise consist include incorporate integrate contain compose feature equip".split())
COMPOSITION_PREPS = frozenset("of with".split())
OWN_MARKERS = frozenset("our proposed".split())
EXTRACTOR = "proposals"
NAME_EXTRACTOR = "proposals.name"  # its candidates are entities; EXTRACTOR's are cues
NAME_SCORE = 0.6
EMPHASIS_SCORE = 0.5  # an emphasised name without a typing cue
MAX_EMPHASIS = 8
NAME_POS = frozenset("ADJ NOUN PROPN NUM VERB".split())
CLAUSE_POS = frozenset("VERB AUX ADV DET PRON ADP SCONJ".split())  # an emphasised clause, not a name


def authored(verb: Token) -> bool:
    """A proposal verb whose subject is the authors (`we`, `this paper`) or passive (`X is proposed`)."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if any(c.dep_ == "auxpass" for c in verb.children):
        perfect = any(c.lower_ in ("been", "be") for c in verb.children)
        return verb.lemma_.lower() in PASSIVE_VERBS and not perfect
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
    """Token ranges of the verb's objects, their appositions and conjuncts, a named-as complement, and the
    parts listed by a composition clause on them (`we design X, featuring A and B`, `X, which comprises A`)."""
    stack = [c for c in verb.children if c.dep_ in ("dobj", "nsubjpass", "oprd", "attr")]
    stack.extend(p for c in verb.children if c.dep_ == "advcl" and composes(c) for p in parts(c))
    return phrase_spans(stack)


def phrase_spans(stack: list[Token]) -> Iterator[tuple[int, int]]:
    """Token ranges of the noun phrases headed by the stacked tokens, following appositions, conjuncts, named-as
    complements and composition clauses; a phrase followed by a colon runs to the end of its sentence."""
    seen = set()
    while stack:
        token = stack.pop()
        if token.i in seen:
            continue
        seen.add(token.i)
        end = phrase_end(token)
        yield token.left_edge.i, token.sent.end if end < len(token.doc) and token.doc[end].text == ":" else end
        stack.extend(c for c in token.children if c.dep_ in ("appos", "conj", "oprd"))
        stack.extend(c for c in token.subtree if c.dep_ == "appos" and c.head.lemma_.lower() in NAMING_VERBS)
        stack.extend(p for c in token.children if c.dep_ in ("acl", "relcl") and composes(c) for p in parts(c))


def composes(verb: Token) -> bool:
    """A composition verb (`comprises`, `consisting of`, `featuring`)."""
    return verb.lemma_.lower() in COMPOSITION_VERBS


def parts(verb: Token) -> list[Token]:
    """The listed parts of a composition verb: its object or the object of `of`/`with`, and their conjuncts
    (a clause on a verb conjoins the next part to the verb: `featuring A for ... and B`)."""
    found = [c for c in verb.children if c.dep_ == "dobj"]
    found += [g for c in verb.children if c.dep_ == "prep" and c.lower_ in COMPOSITION_PREPS
              for g in c.children if g.dep_ == "pobj"]
    found += [c for c in verb.children if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN")]
    return found


def own_subject(subject: Token, names: frozenset[str]) -> bool:
    """A subject that is the paper's own proposal: a proposed name, `our X`, `the proposed X`."""
    return subject.text in names or any(c.lower_ in OWN_MARKERS for c in subject.children)


def composition_spans(doc: Doc, names: frozenset[str]) -> Iterator[tuple[int, int]]:
    """`X comprises A and B`, `X consists of two modules: A and B`, `X is composed of A`, where X is the
    paper's own proposal: the parts."""
    a = attrs(doc)
    for i, (pos, lemma) in enumerate(zip(a.pos, a.lemma)):
        if pos not in ("VERB", "AUX") or lemma not in COMPOSITION_VERBS or a.dep[i] in ("acl", "relcl", "advcl"):
            continue
        verb = doc[i]
        if any(c.dep_ in ("nsubj", "nsubjpass") and own_subject(c, names) for c in verb.children):
            yield from phrase_spans(parts(verb))


def novelty_appositions(doc: Doc) -> Iterator[tuple[int, int]]:
    """`X, a novel method ...` and `our X`: the name X."""
    a = attrs(doc)
    for i, (dep, lower) in enumerate(zip(a.dep, a.lower)):
        if dep != "appos" and lower != "our":
            continue
        token = doc[i]
        if token.dep_ == "appos" and any(c.lower_ in NOVELTY for c in token.children):
            head = token.head
            yield head.left_edge.i, head.i + 1
        if token.lower_ == "our" and token.head.pos_ == "PROPN":
            yield token.i + 1, token.head.i + 1


def proposed_names(verbs: list[Token]) -> Iterator[Token]:
    """A single capitalised proper noun as the object of `we propose`: the new name (`we propose Foo`)."""
    for verb in verbs:
        for child in verb.children:
            if child.dep_ == "dobj" and child.pos_ == "PROPN" and child.is_title and child.left_edge.i == child.i:
                yield child


def presenting(doc: Doc, token: int) -> bool:
    """Whether the token's sentence is one where the authors present something (`we propose`, `our`)."""
    return cached(doc, "presenting", presenting_sentences)[sentence_of(doc, token)[0]]


def presenting_sentences(doc: Doc) -> dict[int, bool]:
    """`presenting` of every sentence, by its first token."""
    a, found = attrs(doc), {}
    for sent in doc.sents:
        lowers = a.lower[sent.start:sent.end]
        found[sent.start] = "our" in lowers or (
            "we" in lowers and any(lemma in PROPOSAL_VERBS for lemma in a.lemma[sent.start:sent.end]))
    return found


def own_titles(doc: Doc) -> Iterator[tuple[int, int]]:
    """Title-Case names in sentences where the authors present something (`we propose`, `our`)."""
    for start, end in cached(doc, "title_spans", title_ranges):
        if presenting(doc, start):
            yield start, end


def referred_as(doc: Doc) -> Iterator[tuple[int, int]]:
    """`we refer to X as Y`: the noun phrase Y after `as`."""
    for i, lemma in enumerate(attrs(doc).lemma):
        if lemma != "refer":
            continue
        token = doc[i]
        if not any(c.lower_ == "we" for c in token.children):
            continue
        after = next((t for t in doc[token.i + 1:token.sent.end] if t.lower_ == "as"), None)
        if after is None:
            continue
        end = after.i + 1
        while end < token.sent.end and (doc[end].pos_ in NAME_POS or doc[end].text in "-–"):
            end += 1
        yield after.i + 1, end


def naming(doc: Doc) -> Iterator[tuple[int, int]]:
    """`termed X`, `called X`, `dubbed X`: the X after the naming verb."""
    for i, lemma in enumerate(attrs(doc).lemma):
        if lemma not in NAMING_VERBS:
            continue
        token = doc[i]
        if token.tag_ == "VBN" and token.i + 1 < len(doc):
            nxt = doc[token.i + 1]
            yield nxt.i, phrase_end(nxt) if nxt.head.i != token.head.i else nxt.right_edge.i + 1



def emphasised_names(doc: Doc, emphasis: tuple[tuple[int, int], ...]) -> Iterator[Span]:
    """Bold or italic spans that are whole noun phrases of at most MAX_EMPHASIS words, capitalised, ending in a
    typing head or said where the authors present their work: a name the paper coins."""
    for start, end in emphasis:
        span = doc.char_span(start, end)
        if span is None or not 0 < len(span) <= MAX_EMPHASIS or span[-1].pos_ not in ("NOUN", "PROPN"):
            continue
        if any((t.is_punct and t.text not in "-–") or t.pos_ in CLAUSE_POS for t in span):
            continue
        if any(capital(t.text, t.is_title and t.is_alpha) for t in span) or (len(span) > 1 and shape_type(span.text)) or presenting(doc, span.start):
            yield span  # lower-case emphasis elsewhere is mere stress (`studies the \emph{hierarchy}`)


@extractors.register("proposals")
def make_proposals() -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: role cues (`we propose X`, emphasis) and the proposed names it can type (entities, role proposed)."""

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        for start, end in context.clean.emphasis:
            yield cue(start, end, EXTRACTOR)
        if not doc.has_annotation("DEP"):
            return
        for span in emphasised_names(doc, context.clean.emphasis):
            entity_type = context_type(doc, span)
            yield Candidate(span.start_char, span.end_char, entity_type or "method", "proposed",
                            NAME_SCORE if entity_type else EMPHASIS_SCORE, NAME_EXTRACTOR)
        a = attrs(doc)
        verbs = [doc[i] for i, lemma in enumerate(a.lemma)
                 if lemma in PROPOSAL_VERBS and a.pos[i] == "VERB" and authored(doc[i])]
        spans = [s for v in verbs for s in object_spans(v)]
        for name in proposed_names(verbs):
            yield Candidate(name.idx, name.idx + len(name), context_type(doc, doc[name.i:name.i + 1]) or "method",
                            "proposed", NAME_SCORE, NAME_EXTRACTOR)
        spans += [*novelty_appositions(doc), *naming(doc), *own_titles(doc), *referred_as(doc)]
        names = frozenset(a.text[i] for start, end in spans for i in range(start, end) if a.pos[i] == "PROPN")
        for start, end in (*spans, *composition_spans(doc, names)):
            if start < end:
                yield cue(a.idx[start], a.idx[end - 1] + len(a.text[end - 1]), EXTRACTOR)

    return extract
