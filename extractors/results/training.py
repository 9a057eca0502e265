"""Train the results model on gold results (RESULTS.md): each number of a gold abstract labelled by the gold
result with its value (and unit), features from the same extraction a build runs; cross-validated by paper."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate, CandidateRelation
from kg.quality.evaluate import key
from kg.extractors.results.component import featurise
from kg.extractors.results.fields import link
from kg.extractors.results.linking import BASELINE, NONE, PROPOSAL, Option
from kg.extractors.results.model import LABELS, Group, ResultsModel, fit, fit_ranker
from kg.extractors.results.numbers import Number, find_numbers

Say = Callable[[str], None]
PRECISION = 0.825  # the score precision the result threshold aims for, on the training data's own inner folds
THRESHOLDS = tuple(round(0.5 + 0.025 * k, 3) for k in range(19))  # 0.5 .. 0.95


@dataclass(frozen=True)
class Example:
    """One paper's numbers (feature strings, labels: index into LABELS) and, for each number a gold result
    gives, its subject and dataset options (pair features, 1 for the gold one)."""

    paper_id: str
    features: tuple[tuple[str, ...], ...]
    labels: tuple[int, ...]
    subjects: tuple[Group, ...] = ()
    datasets: tuple[Group, ...] = ()


def value_key(value: str) -> str:
    """A written value compared across gold and text: sign '+' and thousands separators dropped, minus read."""
    return value.strip().lstrip("+").replace(",", "").replace("−", "-")


def unit_key(unit: str) -> str:
    """A unit compared across gold and text (case-folded, trimmed)."""
    return unit.strip().casefold()


def gold_of(number: Number, gold: Sequence[dict]) -> dict | None:
    """The gold result with a number's value (the one with its unit first), or None."""
    same = [g for g in gold if value_key(str(g.get("value", ""))) == value_key(number.value)]
    same.sort(key=lambda g: unit_key(str(g.get("unit", ""))) != unit_key(number.unit))
    return same[0] if same and same[0].get("kind") in LABELS else None


def names_of(value: object, entities: Sequence[dict]) -> set[str]:
    """The keys of a gold field's names: the gold entity's name and aliases when it is one, else the words."""
    if not isinstance(value, str) or not value:
        return set()
    for e in entities:
        names = {key(n) for n in (e["name"], *e.get("aliases", ()))}
        if key(value) in names:
            return names
    return {key(value)}


def labelled(doc: Doc, opts: Sequence[Option], feats: Sequence[Sequence[str]], gold: set[str], stand_in: str
             ) -> tuple[Group, ...]:
    """The choice among the options (their features, 1 for the gold ones); () when no option is the gold answer."""
    right = [(o.name == stand_in) if o.mention is None else key(doc.text[o.mention.start:o.mention.end]) in gold
             for o in opts]
    return ((tuple(tuple(f) for f in feats), tuple(int(r) for r in right)),) if any(right) else ()


def example_of(paper_id: str, doc: Doc, mentions: Sequence[Candidate], gold: Sequence[dict],
               entities: Sequence[dict] = (), relations: Sequence[CandidateRelation] = ()) -> Example:
    """The training example of one parsed gold abstract (`entities`: its gold entities, for the names)."""
    numbers = find_numbers(doc.text)
    found = [m for m in mentions if m.kind == "entity"]
    features = featurise(doc, numbers, found)
    answers = [gold_of(n, gold) for n in numbers]
    subjects, datasets = [], []
    for number, answer in zip(numbers, answers):
        if answer is None:
            continue
        links = link(doc, number, found, answer["kind"], None, relations)
        subject = answer.get("subject")
        stand_in = subject if subject in (PROPOSAL, BASELINE) else ""
        subjects += labelled(doc, links.subjects, links.subject_features, names_of(subject, entities), stand_in)
        dataset = answer.get("dataset")
        datasets += labelled(doc, links.datasets, links.dataset_features, names_of(dataset, entities),
                             NONE if not dataset else "")
    labels = tuple(LABELS.index(a["kind"]) if a else 0 for a in answers)
    return Example(paper_id, tuple(tuple(f) for f in features), labels, tuple(subjects), tuple(datasets))


def train(examples: Sequence[Example], threshold: float | None = None) -> ResultsModel:
    """The results model fitted on the examples (deterministic: same examples, same weights); the result threshold
    is `threshold`, else the one `choose_threshold` picks from the examples alone."""
    features = [f for e in examples for f in e.features]
    labels = np.array([label for e in examples for label in e.labels], dtype=np.int64)
    layers = [fit(features, labels, len(LABELS))]
    for groups in ([g for e in examples for g in e.subjects], [g for e in examples for g in e.datasets]):
        layers.append(fit_ranker(groups))
    return ResultsModel(*layers, choose_threshold(examples) if threshold is None else threshold)


def choose_threshold(examples: Sequence[Example], folds: int = 5) -> float:
    """The lowest threshold at which the numbers read as scores are right for PRECISION of them, judged on inner
    folds of the examples (each scored by a numbers layer fitted on the others); the most precise one if none is."""
    scored: list[tuple[float, int, int]] = []  # (result probability, predicted kind, gold label) per number
    for k in range(folds):
        inner = [e for e in examples if fold_of(e.paper_id, folds) != k]
        held = [e for e in examples if fold_of(e.paper_id, folds) == k]
        if not inner or not held:
            continue
        layer = fit([f for e in inner for f in e.features],
                    np.array([y for e in inner for y in e.labels], dtype=np.int64), len(LABELS))
        probs = layer.probabilities([f for e in held for f in e.features])
        scored += [(1.0 - float(p[0]), 1 + int(p[2] > p[1]), y) for p, y in zip(probs, (y for e in held for y in e.labels))]

    def precision(t: float) -> float:
        picked = [(kind, y) for p, kind, y in scored if p >= t and kind == 1]
        return sum(y == 1 for _, y in picked) / len(picked) if picked else 0.0

    good = [t for t in THRESHOLDS if precision(t) >= PRECISION]
    return good[0] if good else max(THRESHOLDS, key=precision)


def fold_of(paper_id: str, folds: int) -> int:
    """A paper's cross-validation fold: a stable hash of its id (all its numbers stay together)."""
    return zlib.crc32(paper_id.encode("utf-8")) % folds


def folds_of(examples: Sequence[Example], folds: int) -> Iterator[tuple[ResultsModel, list[Example]]]:
    """(model trained without fold k, the examples of fold k) for each fold."""
    for k in range(folds):
        held = [e for e in examples if fold_of(e.paper_id, folds) == k]
        yield train([e for e in examples if fold_of(e.paper_id, folds) != k]), held
