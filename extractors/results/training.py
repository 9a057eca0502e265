"""Train the results model on gold results (RESULTS.md): each number of a gold abstract labelled by the gold
result with its value (and unit), features from the same extraction a build runs; cross-validated by paper."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate
from kg.quality.evaluate import key
from kg.extractors.results.component import featurise
from kg.extractors.results.fields import link
from kg.extractors.results.linking import BASELINE, NONE, PROPOSAL, Option
from kg.extractors.results.model import LABELS, ResultsModel, fit
from kg.extractors.results.numbers import Number, find_numbers

Say = Callable[[str], None]
THRESHOLD = 0.7  # the result probability a number must reach (5-fold CV on the 300: score precision 0.77 at 0.5, 0.80 at 0.7)


@dataclass(frozen=True)
class Example:
    """One paper's numbers (feature strings, labels: index into LABELS) and, for each number a gold result
    gives, its subject and dataset options (pair features, 1 for the gold one)."""

    paper_id: str
    features: tuple[tuple[str, ...], ...]
    labels: tuple[int, ...]
    subjects: tuple[tuple[tuple[str, ...], int], ...] = ()
    datasets: tuple[tuple[tuple[str, ...], int], ...] = ()


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
             ) -> tuple[tuple[tuple[str, ...], int], ...]:
    """The options' features with 1 for the gold one; () when no option is the gold answer."""
    right = [(o.name == stand_in) if o.mention is None else key(doc.text[o.mention.start:o.mention.end]) in gold
             for o in opts]
    return tuple((tuple(f), int(r)) for f, r in zip(feats, right)) if any(right) else ()


def example_of(paper_id: str, doc: Doc, mentions: Sequence[Candidate], gold: Sequence[dict],
               entities: Sequence[dict] = ()) -> Example:
    """The training example of one parsed gold abstract (`entities`: its gold entities, for the names)."""
    numbers = find_numbers(doc.text)
    found = [m for m in mentions if m.kind == "entity"]
    features = featurise(doc, numbers, found)
    answers = [gold_of(n, gold) for n in numbers]
    subjects, datasets = [], []
    for number, answer in zip(numbers, answers):
        if answer is None:
            continue
        links = link(doc, number, found, answer["kind"], None)
        subject = answer.get("subject")
        stand_in = subject if subject in (PROPOSAL, BASELINE) else ""
        subjects += labelled(doc, links.subjects, links.subject_features, names_of(subject, entities), stand_in)
        dataset = answer.get("dataset")
        datasets += labelled(doc, links.datasets, links.dataset_features, names_of(dataset, entities),
                             NONE if not dataset else "")
    labels = tuple(LABELS.index(a["kind"]) if a else 0 for a in answers)
    return Example(paper_id, tuple(tuple(f) for f in features), labels, tuple(subjects), tuple(datasets))


def train(examples: Sequence[Example], threshold: float = THRESHOLD) -> ResultsModel:
    """The results model fitted on the examples (deterministic: same examples, same weights)."""
    features = [f for e in examples for f in e.features]
    labels = np.array([label for e in examples for label in e.labels], dtype=np.int64)
    layers = [fit(features, labels, len(LABELS))]
    for pairs in ([p for e in examples for p in e.subjects], [p for e in examples for p in e.datasets]):
        layers.append(fit([f for f, _ in pairs], np.array([y for _, y in pairs], dtype=np.int64), 2))
    return ResultsModel(*layers, threshold)


def fold_of(paper_id: str, folds: int) -> int:
    """A paper's cross-validation fold: a stable hash of its id (all its numbers stay together)."""
    return zlib.crc32(paper_id.encode("utf-8")) % folds


def folds_of(examples: Sequence[Example], folds: int) -> Iterator[tuple[ResultsModel, list[Example]]]:
    """(model trained without fold k, the examples of fold k) for each fold."""
    for k in range(folds):
        held = [e for e in examples if fold_of(e.paper_id, folds) == k]
        yield train([e for e in examples if fold_of(e.paper_id, folds) != k]), held
