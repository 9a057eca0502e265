"""The extraction interface: candidates on the clean text, mapped back to the abstract."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import total_ordering
from pathlib import Path
from typing import Callable, Iterable, Literal, Optional

from spacy.tokens import Doc

from kg.text.abbreviations import Abbreviation, find_abbreviations
from kg.text.bounded import MAX_PARSE_TOKENS, drop_long_runs, strip_prefix, token_limit
from kg.text.markup import CleanText, truncate
from kg.types import EntityType, Mention, MentionRelation, Paper, RelationType, ResultMention, Role


@dataclass(frozen=True)
class DocContext:
    """What every extractor may read besides the Doc: the paper and its markup-free text."""

    paper_id: str
    clean: CleanText
    abbreviations: tuple[Abbreviation, ...] = ()
    recent: bool = True  # published from RECENT_YEAR on, or undated (the span model keeps more of older ones)


RECENT_YEAR = 2020


def is_recent(year: int | None) -> bool:
    """Whether a paper counts as recent: from RECENT_YEAR on, or without a year (like the seed listings)."""
    return year is None or year >= RECENT_YEAR


Kind = Literal["entity", "cue"]
Strength = Literal["known", "strong", "weak"]


@total_ordering
@dataclass(frozen=True)
class Candidate:
    """What an extractor says about a span of the clean text (Doc character offsets, end exclusive).

    `kind` "entity": the span may name an entity of `type`; "cue": the span marks a role (`role`) for the
    entity candidates inside it and is no entity itself (`type` None). `strength` of an entity: "known" (a
    well-known entity from a curated list: never the paper's proposal; as a leading modifier it names a setting),
    "strong" (stands on its own) or "weak" (kept only if the paper repeats it or a cue covers it). `score` in 0..1:
    the confidence in the span and its type, which decides between overlapping spans and between types.
    `extractor`: the name of the extractor or scorer that made it (provenance only)."""

    start: int
    end: int
    type: EntityType | None
    role: Role = "used"
    score: float = 0.5
    extractor: str = ""
    kind: Kind = "entity"
    strength: Strength = "strong"

    def sort_key(self) -> tuple:
        """Offsets first; total over cues (type None) and entities."""
        return (self.start, self.end, self.kind, self.type or "", self.role, self.score, self.extractor,
                self.strength)

    def __lt__(self, other: "Candidate") -> bool:
        return self.sort_key() < other.sort_key()


def cue(start: int, end: int, extractor: str, role: Role = "proposed", score: float = 1.0) -> Candidate:
    """A role cue: entity candidates inside [start, end) take `role` (e.g. `we propose X`)."""
    return Candidate(start, end, None, role, score, extractor, "cue")


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
    failed: str = ""  # why extraction failed on this paper (it is kept without entities; never cached)
    results: tuple[ResultMention, ...] = ()  # the numbers it reports as results (kg.extraction.results)


# The stages of extraction, as registered factories make them (kg.registry): an extractor turns a parsed
# abstract into candidates; the one combiner turns all of a paper's candidates into its mentions
# (non-overlapping, with final type and role); relators find relations between those mentions.
ExtractorFn = Callable[[Doc, DocContext], Iterable[Candidate]]
CombineFn = Callable[[Doc, DocContext, list[Candidate]], list[Candidate]]
CombinerFactory = Callable[[Optional[Path]], CombineFn]  # every combiner: factory(weights file or None)
RelateFn = Callable[[Doc, DocContext, list[Candidate]], Iterable[CandidateRelation]]
RelatorFactory = Callable[[Optional[Path]], RelateFn]  # every relator: factory(weights file or folder, or None)
# The whole per-paper extraction step: extractors, one combiner, then the relators and the results step; an
# ExtractFn returns (mentions, relations) or (mentions, relations, results: kg.extraction.results.CandidateResult).
ExtractFn = Callable[[Doc, DocContext], tuple]


MAX_PARSE_CHARS = 100_000  # about 30 pages; real abstracts are under 5,000 characters


def parse_view(paper: Paper) -> tuple[CleanText, bool]:
    """The markup-free text to parse, bounded (MAX_PARSE_CHARS characters, MAX_PARSE_TOKENS tokens, no
    degenerate runs: kg.text.bounded), and whether it stops before the abstract's end."""
    whole = strip_prefix(paper.abstract, MAX_PARSE_CHARS)
    clean = drop_long_runs(truncate(whole, MAX_PARSE_CHARS))
    cut = token_limit(clean.text)
    if cut is not None:
        clean = truncate(clean, cut)
    return clean, cut is not None or len(whole.text) > MAX_PARSE_CHARS


def too_long(paper: Paper) -> str | None:
    """A warning when only the start of a paper's text will be analysed, else None."""
    if len(paper.abstract) <= MAX_PARSE_TOKENS:  # fewer characters than the token limit: nothing is cut
        return None
    clean, cut = parse_view(paper)
    if not cut:
        return None
    where = ", ".join(str(s) for s in paper.sources) or paper.id
    analysed = clean.spans[-1][1] if clean.spans else 0
    return (f"{where}: abstract of {len(paper.abstract):,} characters; entities are extracted from its "
            f"first {analysed:,} only (the whole text is kept in the outputs)")


def prepare(paper: Paper) -> tuple[str, DocContext]:
    """The text to parse and the context extractors read, for one paper (bounded: see parse_view)."""
    clean, _ = parse_view(paper)
    return clean.text, DocContext(paper.id, clean, tuple(find_abbreviations(clean.text)), is_recent(paper.year))


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
    from kg.extraction.results import to_result

    candidates, relations, *rest = extract(doc, context)
    sentences = sentence_bounds(doc)
    mentions = {c: to_mention(paper, context, sentences, c) for c in candidates}
    found = tuple(
        MentionRelation(paper.id, r.relation, mentions[r.source], mentions[r.target])
        for r in relations if r.source in mentions and r.target in mentions
    )
    pairs = tuple((a.short, a.long) for a in context.abbreviations)
    results = tuple(sorted((to_result(r, to_mention(paper, context, sentences, Candidate(r.start, r.end, None)),
                                      mentions.get) for r in (rest[0] if rest else ())), key=lambda r: (r.start, r.end)))
    return Extraction(tuple(sorted(mentions.values())), tuple(sorted(found)), pairs, results=results)
