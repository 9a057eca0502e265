"""Well-known entities from `ontology/gazetteer/*.jsonl` (kg.ontology.data), found with two PhraseMatchers."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

import spacy
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from kg.extraction.doccache import attrs
from kg.extraction.interface import Candidate, DocContext
from kg.ontology.data import gazetteer_entries
from kg.registry import extractors

SCORE = 0.95
CASE_SENSITIVE_LENGTH = 6  # short forms with a capital (ASR, Adam, MATH) must match case


def variants(form: str) -> set[str]:
    """A form, its plural, and its hyphen/space spellings."""
    found = {form}
    if "-" in form:
        found.add(form.replace("-", " "))
    last = form.split()[-1] if form.split() else form
    if last[-1:].isalpha() and not last.endswith("s"):
        found |= {f + "s" for f in list(found)}
    return found


def case_sensitive(form: str) -> bool:
    """Short forms with a capital letter are matched exactly, others case-insensitively."""
    return len(form) <= CASE_SENSITIVE_LENGTH and any(c.isupper() for c in form)


def build_matchers(entries: Iterable[dict]) -> tuple[PhraseMatcher, PhraseMatcher]:
    """(exact, lower-case) matchers whose match ids are the entity types."""
    nlp = spacy.blank("en")
    exact, folded = PhraseMatcher(nlp.vocab, attr="ORTH"), PhraseMatcher(nlp.vocab, attr="LOWER")
    for entry in entries:
        for form in (entry["name"], *entry.get("aliases", ())):
            matcher = exact if case_sensitive(form) else folded
            matcher.add(entry["type"], list(nlp.tokenizer.pipe(sorted(variants(form)))))
    return exact, folded


@extractors.register("gazetteer")
def make_gazetteer(entries: list[dict] | None = None) -> Callable[[Doc, DocContext], Iterator[Candidate]]:
    """Factory: compile the gazetteer once; the extractor yields every match with its type."""
    exact, folded = build_matchers(gazetteer_entries() if entries is None else entries)

    def extract(doc: Doc, context: DocContext) -> Iterator[Candidate]:
        a = attrs(doc)
        for matcher in (exact, folded):
            types = matcher.vocab.strings  # the match ids were added to the matchers' own (blank) vocab
            for match_id, start, end in matcher(doc):
                yield Candidate(a.idx[start], a.idx[end - 1] + len(a.text[end - 1]), types[match_id], "used", SCORE,
                                "gazetteer", strength="known")

    return extract
