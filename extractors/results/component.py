"""The results step of extraction: every number of a paper, read by the results model, with its fields."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from spacy.tokens import Doc

from kg.extraction.doccache import text as doc_text
from kg.extraction.interface import Candidate, CandidateRelation, DocContext
from kg.extraction.results import CandidateResult
from kg.extractors.results.binding import CHAIN, before_and_after, carries
from kg.extractors.results.features import number_features, token_at
from kg.extractors.results.fields import Fields, against_of, improved_of, read_fields
from kg.extractors.results.model import LABELS, ResultsModel, load
from kg.extractors.results.numbers import Number, find_numbers, worded_bound
from kg.extractors.results.signs import signed_change, worded_change
from kg.text.measures import impossible

ResultsFn = Callable[[Doc, DocContext, list[Candidate], Sequence[CandidateRelation]], list[CandidateResult]]


def sentence_index(doc: Doc) -> Callable[[int], int]:
    """The index of the sentence holding a character offset."""
    starts = [s.start_char for s in doc.sents]

    def index(char: int) -> int:
        from bisect import bisect_right
        return max(0, bisect_right(starts, char) - 1)

    return index


def featurise(doc: Doc, numbers: Sequence[Number], mentions: Sequence[Candidate]) -> list[list[str]]:
    """The feature strings of each number of a Doc."""
    index, count = sentence_index(doc), len(list(doc.sents))
    return [number_features(doc, n, numbers, mentions, index(n.start), count) for n in numbers]


def read_results(model: ResultsModel, doc: Doc, mentions: Sequence[Candidate],
                 relations: Sequence[CandidateRelation] = ()) -> list[CandidateResult]:
    """The numbers of a Doc the model reads as results (one per value and unit: the likeliest), with fields
    (`relations`: the relation head's, between the mentions)."""
    numbers = find_numbers(doc_text(doc))
    if not numbers:
        return []
    probs = model.numbers.probabilities(featurise(doc, numbers, mentions))
    best: dict[tuple[str, str], tuple[float, Number, str]] = {}
    for number, p in zip(numbers, probs):
        result = 1.0 - float(p[0])
        if result < model.threshold:
            continue
        changed = signed_change(doc_text(doc), number) or worded_change(doc_text(doc), number, numbers)
        kind = "change" if changed else LABELS[1 + int(p[2] > p[1])]
        key = (number.value.lstrip("+").replace(",", ""), number.unit)
        if key not in best or result > best[key][0]:
            best[key] = (result, number, kind)
    read: list[tuple[float, Number, str, Fields]] = []
    sentence_of = sentence_index(doc)
    for result, number, kind in sorted(best.values(), key=lambda b: b[1].start):
        f = read_fields(doc, number, mentions, kind, model, relations)
        before = read[-1][3] if read and sentence_of(read[-1][1].start) == sentence_of(number.start) else None
        if not f.metric_name and before is not None and carries(doc_text(doc), numbers, read[-1][1].start, number):
            f = replace(f, metric=before.metric, metric_name=before.metric_name)  # '95.1% accuracy, 90.5% for X'
        elif before is not None and listed_with(doc_text(doc), read[-1][1], number, before, f):
            f = replace(f, metric=None, metric_name=before.metric_name)  # 'F1 of 65% and accuracies of 63% and 85%'
        if kind == "score" and impossible(kind, number.decimal, number.unit, f.metric_name or ""):
            kind = "change"  # no accuracy reaches 224%, no F1 is negative: only a change can read so
            f = replace(read_fields(doc, number, mentions, kind, model, relations), metric=f.metric,
                        metric_name=f.metric_name)
        read.append((result, number, kind, f))
    read = apart(doc, numbers, read, mentions, model, relations)
    return [CandidateResult(number.start, number.end, kind, number.unit, f.metric_name,
                            number.bound or worded_bound(doc_text(doc), number.start), f.setting, f.proposal,
                            f.subject, f.metric, f.dataset, f.task, f.against, result, f.dataset_name)
            for result, number, kind, f in read]


def apart(doc: Doc, numbers: Sequence[Number], read: list[tuple[float, Number, str, Fields]],
          mentions: Sequence[Candidate], model: ResultsModel, relations: Sequence[CandidateRelation]):
    """The before-value of a `from X to Y` pair of scores is not the subject of an after-value the paper's proposal
    reached (`VISA improves OccWorld from 19.06 to 20.05`: OccWorld's, then VISA's): it takes the system its
    sentence compares against, else its next likeliest subject. A pair of another subject's values (a base model's,
    a baseline's under two conditions) stays as read."""
    at = {number.start: i for i, (_, number, _, _) in enumerate(read)}
    out = list(read)
    for first, second in before_and_after(doc_text(doc), numbers).items():
        i, j = at.get(numbers[first].start), at.get(numbers[second].start)
        if i is None or j is None or read[i][2] != "score" or read[j][2] != "score":
            continue
        after, proposed = read[j][3].subject_name, read[j][3].proposal or (
            read[j][3].subject is not None and read[j][3].subject.role == "proposed")
        if read[i][3].subject_name == after and proposed:  # the proposal's after-value: the before is another's
            result, number, kind, f = read[i]
            taken = {after}
            other = read_fields(doc, number, mentions, kind, model, relations, frozenset(taken))
            while other.subject_name not in taken and defined_as(doc_text(doc), other.subject_name, after):
                taken.add(other.subject_name)  # the same thing by another name (`RHO` for `Retrospective ... (RHO)`)
                other = read_fields(doc, number, mentions, kind, model, relations, frozenset(taken))
            compared = compared_with(doc, number, mentions, taken)
            if compared is not None:  # `reduces rFID from 2.39 to 2.10 compared with SimVQ`: SimVQ's 2.39
                other = replace(other, subject=compared, proposal=False,
                                subject_name=doc_text(doc)[compared.start:compared.end].casefold())
            out[i] = (result, number, kind, replace(f, subject=other.subject, proposal=other.proposal,
                                                    subject_name=other.subject_name))
    return out


def compared_with(doc: Doc, number: Number, mentions: Sequence[Candidate], taken: set[str]) -> Candidate | None:
    """The method or model the number's sentence compares against (`improves OccWorld from`, `compared with SimVQ`,
    `over OccWorld`), when it is not one of the `taken` subjects."""
    sentence = doc[token_at(doc, number.start)].sent
    found = improved_of(doc, number, sentence, mentions) or against_of(doc, number, sentence, mentions)
    if found is None or doc_text(doc)[found.start:found.end].casefold() in taken:
        return None
    return found


def make_results_step(weights: Path | None = None) -> ResultsFn:
    """Factory: the results step with the weights at `weights` (default: shipped), loaded once."""
    model = load(weights)

    def step(doc: Doc, context: DocContext, mentions: list[Candidate],
             relations: Sequence[CandidateRelation] = ()) -> list[CandidateResult]:
        return read_results(model, doc, [m for m in mentions if m.kind == "entity"], relations)

    return step


def defined_as(text: str, one: str, other: str) -> bool:
    """Whether two option names are one thing: the abstract writes one right before the other in brackets."""
    lower = text.casefold()
    return bool(one and other) and (f"{one} ({other}" in lower or f"{other} ({one}" in lower)


def listed_with(text: str, previous: Number, number: Number, before: Fields, f: Fields) -> bool:
    """Whether a number listed right after one measured by its own words (`accuracies of 63% and 85%`) shares that
    measure rather than a metric mention written before both (`F1 scores of 65% and 87% and ...`)."""
    return (before.metric is None and bool(before.metric_name) and CHAIN.fullmatch(text[previous.unit_end:number.start])
            is not None and (f.metric is None or f.metric.end <= previous.start))
