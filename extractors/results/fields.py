"""Who reached a number, on what, by which measure: the fields of a result from its sentence's parse and the
paper's entity mentions (subject, dataset, task, metric, against, setting)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from spacy.tokens import Doc, Span, Token

from kg.extraction.interface import Candidate, CandidateRelation
from kg.extraction.doccache import cached, text as doc_text
from kg.extractors.results.binding import binds, own_measure
from kg.extractors.results.features import token_at
from kg.extractors.results.phrases import PHRASE, data_phrases
from kg.extractors.results.linking import (BASELINE, DATASET_TYPES, NONE, PROPOSAL, SUBJECT_TYPES, Option, Place,
                                          choose, context_features, options, order_in,
                                          related_in, sentence_of, standing)
from kg.extractors.results.model import ResultsModel
from kg.extractors.results.numbers import Number, find_numbers
from kg.text.directions import HIGHER, LOWER, contains
from kg.text.keys import singular

ACTORS = ("method", "model")
COMPARE = {"over", "than", "against", "versus", "vs", "vs.", "relative", "compared", "outperform", "outperforms",
           "outperforming", "surpass", "surpasses", "surpassing", "beat", "beats"}
SETTING = {"at", "under", "with"}


@dataclass(frozen=True)
class Fields:
    """What a result's number is about; mentions are the paper's combined candidates (None: not known).
    `subject` None with `proposal` False is an unnamed baseline."""

    subject: Candidate | None = None
    proposal: bool = False
    metric: Candidate | None = None
    metric_name: str = ""
    dataset: Candidate | None = None
    task: Candidate | None = None
    against: Candidate | None = None
    setting: str | None = None
    dataset_name: str | None = None  # the words naming the data when no dataset entity does ('held-out test set')
    subject_name: str = ""  # the chosen subject option's name (a mention's casefolded text, or a stand-in)


def in_span(mentions: Sequence[Candidate], start: int, end: int, types: Sequence[str]) -> list[Candidate]:
    """The entity mentions of `types` inside [start, end), in order."""
    return [m for m in mentions if m.kind == "entity" and m.type in types and start <= m.start and m.end <= end]


def nearest(mentions: Sequence[Candidate], number: Number) -> Candidate | None:
    """The mention closest to the number (ties: the one before it)."""
    def distance(m: Candidate) -> tuple[int, int]:
        return (number.start - m.end, 0) if m.end <= number.start else (m.start - number.unit_end, 1)
    return min(mentions, key=distance, default=None)


def governing_subject(doc: Doc, index: int, sentence: Span) -> Span | None:
    """The grammatical subject of the clause the number sits in (nsubj/nsubjpass of its first verb up)."""
    token: Token = doc[index]
    for _ in range(12):
        if token.pos_ in ("VERB", "AUX"):
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            if subjects:
                s = subjects[0]
                return doc[s.left_edge.i:s.right_edge.i + 1]
        if token.head.i == token.i or not (sentence.start <= token.head.i < sentence.end):
            return None
        token = token.head
    return None


INTRODUCING = {"of", "from", "to", "=", ":", "by", "reaches", "reached", "is", "was", "were"}
DIRECT = {"of", "from", "to", "=", ":"}  # `leakage from 34.0%`: what the number is, whatever its name
DIFFERENCES = {"improvement", "improvements", "gain", "gains", "reduction", "reductions", "increase", "increases",
               "decrease", "decreases", "drop", "drops", "boost", "boosts", "margin", "speedup", "speed-up"}
QUALIFIERS = {"about", "around", "approximately", "nearly", "almost", "only", "just", "over", "under", "roughly",
              "up", "~", "≈"}


def measure_before(doc: Doc, index: int, sentence: Span, mentions: Sequence[Candidate]) -> str | None:
    """The measure a number is introduced by, when no entity mention names it (`accuracy from 0.362`, `sensitivity to
    0.53`, `accuracies of 63%`: RESULTS.md counts bare accuracy): the noun right before `of`/`from`/`to`/`=`/`by`
    (or a verb such as `drops to`) and the number, in the singular, with its compound modifiers. Through a verb or
    `by` it must end in a known measure's name (not `the model improves to 80%`); right before `of`/`from`/`to`/`=`/`:`
    any noun but a difference word is what the number reports (`answer leakage from 34.0%`; not `an improvement of
    3%`). None when a mention covers or adjoins it (the mention then measures the number, as binding reads it) or
    the words before the number are no such phrase."""
    i = index - 1
    while i >= sentence.start and doc[i].lower_ in QUALIFIERS:
        i -= 1
    if i < sentence.start or doc[i].lower_ not in INTRODUCING:
        return None
    direct = doc[i].lower_ in DIRECT
    i -= 1
    if i > sentence.start and doc[i].pos_ in ("VERB", "AUX"):
        i -= 1  # `sensitivity drops to 0.53`, `accuracy improves from 0.36`
        direct = False
    noun = doc[i] if i >= sentence.start else None
    if noun is None or noun.pos_ != "NOUN" or not noun.is_alpha:
        return None
    first = noun
    while first.i - 1 >= sentence.start and doc[first.i - 1].dep_ == "compound" and doc[first.i - 1].head == noun:
        first = doc[first.i - 1]
    start, end = first.idx, noun.idx + len(noun)
    text = doc_text(doc)
    if any(m.kind == "entity" and m.start < end and (start < m.end or not text[m.end:start].strip())
           for m in mentions if m.end <= end):
        return None  # a mention in or right before it measures the number (`a micro-F1 score of 0.44`)
    words = text[start:end].split()
    phrase = " ".join(words[:-1] + [singular(words[-1])])
    if names_measure(phrase) or (direct and words[-1].casefold() not in DIFFERENCES):
        return phrase  # a known measure; or what `leakage from 34.0%` reports, though no list names it
    return None  # not `the model improves to 80%`, `an improvement of 3%`


def names_measure(phrase: str) -> bool:
    """Whether a phrase ends in the name of a measure whose better side is known (`top-1 accuracy`, `sensitivity`,
    `score`; not `runtime workflow`)."""
    words = phrase.casefold()
    return any(words.endswith(n) and contains(words, n) for n in HIGHER + LOWER)


def metric_of(doc: Doc, number: Number, sentence: Span, mentions: Sequence[Candidate], index: int,
              last: int) -> tuple[Candidate | None, str]:
    """The metric mention nearest the number among those of its sentence that measure it (binding.binds), and the
    metric as worded (that mention, else the noun phrase right after the number, else the noun the number is 'of')."""
    numbers = cached(doc, "results_numbers", lambda d: find_numbers(d.text))
    worded = measure_before(doc, index, sentence, mentions)
    if worded is not None:
        return None, worded  # `accuracy from 0.362`, `corresponding accuracies of 63%`: the number's own measure
    own = own_measure(doc_text(doc), number, [(m.start, m.end) for m in mentions if m.type != "metric"])
    metrics = [m for m in in_span(mentions, sentence.start_char, sentence.end_char, ("metric",))
               if binds(doc_text(doc), numbers, number, m.start, m.end, own is not None)]
    chosen = nearest(metrics, number)
    if chosen is not None:
        return chosen, doc_text(doc)[chosen.start:chosen.end]
    if own is not None:
        return None, doc_text(doc)[own[0]:own[1]]  # `+10.19 IS`: the measure as written, though no metric mention
    for chunk in sentence.noun_chunks:
        if chunk.start <= last + 1 < chunk.end or chunk.start == last + 1:
            words = [t for t in chunk if t.i > last and not t.like_num and any(c.isalpha() for c in t.text)]
            while words and (words[0].is_stop or words[0].pos_ in ("ADP", "CCONJ", "DET", "PART", "PRON")):
                words = words[1:]  # `to 100%`, `and`: no measure's name begins so
            if words:
                return None, doc_text(doc)[words[0].idx:words[-1].idx + len(words[-1])]
    head = doc[index].head
    if head.lower_ == "of" and head.head.pos_ in ("NOUN", "PROPN"):
        noun = head.head
        left = noun.left_edge if noun.left_edge.i >= sentence.start else noun
        return None, doc_text(doc)[left.idx:noun.idx + len(noun)]
    return None, ""


def named_with(doc: Doc, metric: Candidate | None, mentions: Sequence[Candidate]) -> Candidate | None:
    """The dataset named right before the metric that measures the number, as one phrase (`ImageNet FID from 17.37
    to 11.83`, `POPE accuracy`): the number's dataset, whatever else the sentence names."""
    if metric is None:
        return None
    text = doc_text(doc)
    before = [m for m in mentions if m.kind == "entity" and m.type == "dataset" and m.end <= metric.start
              and metric.start - m.end <= 2 and not text[m.end:metric.start].strip(" -")]
    return max(before, key=lambda m: m.end, default=None)


def against_of(doc: Doc, number: Number, sentence: Span, mentions: Sequence[Candidate]) -> Candidate | None:
    """What a change is measured against: the first mention after a comparison word ('over', 'than', 'vs')."""
    for t in sentence:
        if t.lower_ in COMPARE:
            named = [m for m in in_span(mentions, t.idx + len(t), sentence.end_char, ACTORS)
                     if m.start - (t.idx + len(t)) <= 30]
            if named:
                return named[0]
    return None


IMPROVING = frozenset("improve raise boost lift increase enhance push bring reduce lower cut decrease".split())


def improved_of(doc: Doc, number: Number, sentence: Span, mentions: Sequence[Candidate]) -> Candidate | None:
    """The method or model a verb of change takes as its object before the number (`VISA improves OccWorld from
    19.06 to 20.05`: OccWorld was at 19.06), the nearest such verb before the number."""
    verbs = [t for t in sentence if t.idx < number.start and t.pos_ == "VERB" and t.lemma_.lower() in IMPROVING]
    if not verbs:
        return None
    after = verbs[-1].idx + len(verbs[-1])
    named = in_span(mentions, after, number.start, ACTORS)
    if named and doc_text(doc)[after:named[0].start].strip().lower() in ("", "the", "its", "their"):
        return named[0]
    return None


def setting_of(doc: Doc, sentence: Span, last: int) -> str | None:
    """A condition written right after the number ('at 72.9% sparsity', 'under 4-bit quantization')."""
    follow = doc[last + 1:min(sentence.end, last + 3)]
    for t in follow:
        if t.lower_ in SETTING:
            words = []
            for w in doc[t.i:min(sentence.end, t.i + 7)]:
                if w.is_punct and w.text not in "%-" or (words and w.lower_ in ("and", "while", "which")):
                    break
                words.append(w)
            if len(words) > 1:
                return doc_text(doc)[words[0].idx:words[-1].idx + len(words[-1])]
    return None


@dataclass(frozen=True)
class Links:
    """A number's subject and dataset options with their features (what the linking layers score)."""

    subjects: list[Option]
    subject_features: list[list[str]]
    datasets: list[Option]
    dataset_features: list[list[str]]
    subject: Option
    dataset: Option


def link(doc: Doc, number: Number, mentions: Sequence[Candidate], kind: str, model: ResultsModel | None,
         relations: Sequence[CandidateRelation] = (), other_subject: frozenset[str] = frozenset()) -> Links:
    """The subject and dataset options of a number and the model's choice among them (None: the first);
    `relations`: what the relation head found between the paper's mentions; `other_subject`: subjects the
    number cannot have (that of the after-value of its before-and-after, by its names)."""
    index, last = token_at(doc, number.start), token_at(doc, max(number.unit_end - 1, number.start))
    sentence = doc[index].sent
    starts = [s.start_char for s in doc.sents]
    clause = governing_subject(doc, index, sentence)
    bounds = (sentence.start_char, sentence.end_char)
    place = Place(index, last, sentence_of(starts, number.start), (sentence.start, sentence.end),
                  (clause.start_char, clause.end_char) if clause is not None else None,
                  related_in(doc, relations, bounds), order_in(doc, number, mentions, bounds, cached(doc, "results_numbers", lambda d: find_numbers(d.text))),
                  standing(doc, mentions))
    counts: dict[str, int] = {}
    for m in mentions:
        name = doc_text(doc)[m.start:m.end].casefold()
        counts[name] = counts.get(name, 0) + 1
    has_proposed = any(m.role == "proposed" and m.type in ACTORS for m in mentions)
    actors = len(in_span(mentions, bounds[0], bounds[1], ACTORS))
    context = context_features(doc, place, kind, has_proposed, actors)
    subjects = options(doc, number, mentions, SUBJECT_TYPES, (PROPOSAL, BASELINE))
    phrases = [p for p in cached(doc, "results_phrases", lambda d: data_phrases(d, mentions))
               if bounds[0] <= p.start < bounds[1]]  # words name data only in the number's own sentence
    datasets = options(doc, number, [*mentions, *phrases], DATASET_TYPES, (NONE,))
    subject, subject_features = choose(model and model.subject, doc, number, subjects, place, starts, context, counts,
                                       other_subject)
    dataset, dataset_features = choose(model and model.dataset, doc, number, datasets, place, starts, context, counts)
    return Links(subjects, subject_features, datasets, dataset_features, subject, dataset)


def read_fields(doc: Doc, number: Number, mentions: Sequence[Candidate], kind: str, model: ResultsModel,
                relations: Sequence[CandidateRelation] = (), other_subject: frozenset[str] = frozenset()) -> Fields:
    """The fields of a number read as a result of `kind` (score/change); `other_subject`: as in `link`."""
    index, last = token_at(doc, number.start), token_at(doc, max(number.unit_end - 1, number.start))
    sentence = doc[index].sent
    links = link(doc, number, mentions, kind, model, relations, other_subject)
    metric, metric_name = metric_of(doc, number, sentence, mentions, index, last)
    tasks = in_span(mentions, sentence.start_char, sentence.end_char, ("task",))
    against = against_of(doc, number, sentence, mentions) if kind == "change" else None
    if against is not None and against == links.subject.mention:
        against = None
    dataset = named_with(doc, metric, mentions) or links.dataset.mention
    words = doc_text(doc)[dataset.start:dataset.end] if dataset is not None and dataset.extractor == PHRASE else None
    return Fields(links.subject.mention, links.subject.name == PROPOSAL, metric, metric_name,
                  None if words else dataset, nearest(tasks, number), against, setting_of(doc, sentence, last), words,
                  links.subject.name)
