"""The span model on gold files: training examples from parsed abstracts, a model trained on every gold
paper (`kg train`), and the fold models of cross-validation (`kg eval --cv`; kg.extractors.validate
builds each paper with the fold model that never saw it)."""
from __future__ import annotations

import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

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


def each_example(items: list[tuple[str, dict, Paper]], model: str, recent_weight: float | None,
                 say: Say) -> Iterator[tuple[Doc, DocContext, list[Candidate], Example]]:
    """Parse every abstract once; per paper its Doc, context, rule candidates and training example
    (`recent_weight` None: the shipped one). The Doc's cached values are cleared once the caller has moved on."""
    from kg.nlp.load import load_nlp
    from kg.run.worker import parse_papers

    nlp, warning = load_nlp(model)
    if warning:
        say(f"warning: {warning}")
    candidates = build_candidates(RULES)
    recent_weight = RECENT_WEIGHT if recent_weight is None else recent_weight
    for (_, record, _), (_, doc, context) in zip(items, parse_papers([p for _, _, p in items], nlp)):
        found, combined = candidates(doc, context)
        weight = recent_weight if context.recent else 1.0  # the era the model sees (DocContext.recent)
        yield doc, context, found, make_example(doc, context, found, combined, record.get("entities", ()), weight)
        clear(doc)


def make_examples(items: list[tuple[str, dict, Paper]], model: str, recent_weight: float | None,
                  say: Say) -> list[Example]:
    """Every gold paper's training example (see each_example)."""
    return [example for _, _, _, example in each_example(items, model, recent_weight, say)]


def train_on(files: dict[Path, list[dict]], model: str, recent_weight: float | None, say: Say) -> SpanModel:
    """The span model trained on every record of the gold files (read with kg.quality.gold.read_files)."""
    from kg.quality.gold import gold_items_of

    return train(make_examples(gold_items_of(files), model, recent_weight, say))


def held_in(files: dict[Path, list[dict]], hold_out: tuple[int, int] | None) -> dict[Path, list[dict]]:
    """The gold records outside fold K of N (`hold_out` (K, N); None: all of them)."""
    if hold_out is None:
        return files
    k, n = hold_out
    return {path: [r for r in records if fold_of(str(r["id"]), n) != k] for path, records in files.items()}


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
