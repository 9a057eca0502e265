"""The extraction interface: candidates on the clean text, mapped back to the abstract."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from spacy.tokens import Doc

from kg.text.abbreviations import Abbreviation, find_abbreviations
from kg.text.markup import CleanText, strip_markup, truncate
from kg.types import EntityType, Mention, MentionRelation, Paper, RelationType, Role


@dataclass(frozen=True)
class DocContext:
    """What every extractor may read besides the Doc: the paper and its markup-free text."""

    paper_id: str
    clean: CleanText
    abbreviations: tuple[Abbreviation, ...] = ()


@dataclass(frozen=True, order=True)
class Candidate:
    """A typed span of the clean text (Doc character offsets, end exclusive)."""

    start: int
    end: int
    type: EntityType
    role: Role = "used"
    score: float = 0.5
    extractor: str = ""


@dataclass(frozen=True, order=True)
class CandidateRelation:
    """An entity-entity relation between two candidates of one sentence."""

    relation: RelationType
    source: Candidate
    target: Candidate


@dataclass(frozen=True)
class Extraction:
    """What extraction found in one paper."""

    mentions: tuple[Mention, ...] = ()
    relations: tuple[MentionRelation, ...] = field(default_factory=tuple)
    abbreviations: tuple[tuple[str, str], ...] = ()  # (short, long) defined in the abstract


class Extractor(Protocol):
    """Anything that turns a parsed abstract into candidates."""

    def __call__(self, doc: Doc, context: DocContext) -> Iterable[Candidate]: ...


# The whole per-paper extraction step: all extractors plus combining their candidates.
ExtractFn = Callable[[Doc, DocContext], tuple[list[Candidate], list[CandidateRelation]]]


MAX_PARSE_CHARS = 100_000  # about 30 pages; real abstracts are under 5,000 characters


def too_long(paper: Paper) -> str | None:
    """A warning when only the start of a paper's text will be analysed, else None."""
    if len(paper.abstract) <= MAX_PARSE_CHARS or len(strip_markup(paper.abstract).text) <= MAX_PARSE_CHARS:
        return None
    where = ", ".join(str(s) for s in paper.sources) or paper.id
    return (f"{where}: abstract of {len(paper.abstract):,} characters; entities are extracted from its "
            f"first {MAX_PARSE_CHARS:,} only (the whole text is kept in the outputs)")


def prepare(paper: Paper) -> tuple[str, DocContext]:
    """The text to parse and the context extractors read, for one paper (at most MAX_PARSE_CHARS)."""
    clean = truncate(strip_markup(paper.abstract), MAX_PARSE_CHARS)
    return clean.text, DocContext(paper.id, clean, tuple(find_abbreviations(clean.text)))


def sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    """(start_char, end_char) of each sentence, in order."""
    return [(sent.start_char, sent.end_char) for sent in doc.sents]


def to_mention(paper: Paper, context: DocContext, sentences: list[tuple[int, int]],
               candidate: Candidate) -> Mention:
    """Map a candidate to a Mention with offsets and sentence in the original abstract."""
    clean = context.clean
    start, end = clean.original_span(candidate.start, candidate.end)
    index = bisect_right(sentences, (candidate.start, len(clean.text) + 1)) - 1
    if index >= 0 and sentences[index][0] < sentences[index][1]:
        sent_start, sent_end = clean.original_span(*sentences[index])
    else:
        sent_start, sent_end = 0, len(paper.abstract)
    return Mention(
        paper_id=paper.id, start=start, end=end, text=paper.abstract[start:end], type=candidate.type,
        role=candidate.role, sentence_start=sent_start, sentence_end=sent_end,
        extractor=candidate.extractor, name=clean.text[candidate.start:candidate.end], score=candidate.score,
    )


def extract_paper(paper: Paper, doc: Doc, context: DocContext, extract: ExtractFn) -> Extraction:
    """Run the extraction step on one parsed paper and map everything to the abstract."""
    candidates, relations = extract(doc, context)
    sentences = sentence_bounds(doc)
    mentions = {c: to_mention(paper, context, sentences, c) for c in candidates}
    found = tuple(
        MentionRelation(paper.id, r.relation, mentions[r.source], mentions[r.target])
        for r in relations if r.source in mentions and r.target in mentions
    )
    pairs = tuple((a.short, a.long) for a in context.abbreviations)
    return Extraction(tuple(sorted(mentions.values())), tuple(sorted(found)), pairs)
