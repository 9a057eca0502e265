"""The span model on gold files: training examples from parsed abstracts, a model trained on every gold
paper (`kg train`), and the fold models of cross-validation (`kg eval --cv`; kg.extractors.validate
builds each paper with the fold model that never saw it)."""
from __future__ import annotations

import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kg.extraction.doccache import clear, text as doc_text
from kg.extractors.model.training import RECENT_WEIGHT, Example, make_example, train
from kg.extractors.model.weights import save_model
from kg.extractors.rules import RULES
from kg.extractors.rules.combine import combine
from kg.registry import extractors, lookup

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from kg.extraction.interface import Candidate, DocContext
    from kg.extractors.model.linear import SpanModel
    from kg.types import Paper

Say = Callable[[str], None]  # where progress lines and warnings go
Candidates = Callable[["Doc", "DocContext"], tuple[list["Candidate"], list["Candidate"]]]


def build_candidates(names: tuple[str, ...] = RULES) -> Candidates:
    """Per Doc: every candidate of the named rule extractors, and the rules' combined choice (what the span
    model reads, and learns from)."""
    chosen = [lookup(extractors, name)() for name in names]

    def candidates(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[Candidate]]:
        found = [c for extractor in chosen for c in extractor(doc, context)]
        return found, combine(found, doc_text(doc), context.abbreviations)

    return candidates


def make_examples(items: list[tuple[str, dict, Paper]], model: str, recent_weight: float | None,
                  say: Say) -> list[Example]:
    """Parse every abstract once and turn its candidate spans into a training example (`recent_weight` None:
    the shipped one)."""
    from kg.nlp.load import load_nlp
    from kg.run.worker import parse_papers

    nlp, warning = load_nlp(model)
    if warning:
        say(f"warning: {warning}")
    candidates = build_candidates(RULES)
    recent_weight = RECENT_WEIGHT if recent_weight is None else recent_weight
    examples = []
    for (_, record, _), (_, doc, context) in zip(items, parse_papers([p for _, _, p in items], nlp)):
        found, combined = candidates(doc, context)
        weight = recent_weight if context.recent else 1.0  # the era the model sees (DocContext.recent)
        examples.append(make_example(doc, context, found, combined, record.get("entities", ()), weight))
        clear(doc)
    return examples


def train_on(files: dict[Path, list[dict]], model: str, recent_weight: float | None, say: Say) -> SpanModel:
    """The span model trained on every record of the gold files (read with kg.quality.gold.read_files)."""
    from kg.quality.gold import gold_items_of

    return train(make_examples(gold_items_of(files), model, recent_weight, say))


def fold_of(paper_id: str, folds: int) -> int:
    """The cross-validation fold of a paper: a stable hash of its id (all of a paper's spans stay together)."""
    return zlib.crc32(paper_id.encode("utf-8")) % folds


def train_folds(items: list[tuple[str, dict, Paper]], examples: list[Example], folds: int, folder: Path,
                say: Say) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(weights file, held-out paper ids) per fold: a model trained on the other folds' papers, in `folder`."""
    held_out = []
    for fold in range(folds):
        inside = [fold_of(p.id, folds) == fold for _, _, p in items]
        started = time.perf_counter()
        weights = folder / f"fold-{fold}.npz"
        save_model(train([e for e, held in zip(examples, inside) if not held]), weights)
        held_out.append((str(weights), tuple(p.id for (_, _, p), held in zip(items, inside) if held)))
        say(f"fold {fold + 1}/{folds}: trained without its {len(held_out[-1][1])} papers in "
            f"{time.perf_counter() - started:.0f} s")
    return tuple(held_out)
