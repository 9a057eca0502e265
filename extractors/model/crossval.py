"""The span model on gold files: training examples from parsed abstracts, a model trained on every gold
paper (`kg train`), and cross-validation that scores each paper with a model that never saw it (`kg eval --cv`)."""
from __future__ import annotations

import tempfile
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kg.extractors.model.training import RECENT_WEIGHT, Example, make_example, train
from kg.extractors.model.weights import save_model

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
    from kg.extractors.model.linear import SpanModel
    from kg.quality.evaluate import Item
    from kg.types import Paper

Say = Callable[[str], None]  # where progress lines and warnings go


def make_examples(items: list[tuple[str, dict, Paper]], model: str, recent_weight: float | None,
                  say: Say) -> list[Example]:
    """Parse every abstract once and turn its candidate spans into a training example (`recent_weight` None:
    the shipped one)."""
    from kg.extractors import RULES, build_candidates
    from kg.extractors.doccache import clear
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


def cross_validate(files: dict[Path, list[dict]], folds: int, model: str, names: tuple[str, ...] | None,
                   say: Say, recent_weight: float | None = None) -> list[Item]:
    """Predicted items of every gold paper, each from a model trained on the other folds only, resolved
    together in one graph (as `kg build` resolves a corpus), so cross-paper linking is scored as users see it."""
    from kg.extractors import DEFAULT_EXTRACTORS, VERSION
    from kg.quality.gold import build_items, gold_items_of
    from kg.run.engines import ExtractSpec

    items = gold_items_of(files)
    examples = make_examples(items, model, recent_weight, say)
    with tempfile.TemporaryDirectory(prefix="paperkg-cv-") as folder:
        held_out = []
        for fold in range(folds):
            inside = [fold_of(p.id, folds) == fold for _, _, p in items]
            started = time.perf_counter()
            weights = Path(folder) / f"fold-{fold}.npz"
            save_model(train([e for e, held in zip(examples, inside) if not held]), weights)
            held_out.append((str(weights), tuple(p.id for (_, _, p), held in zip(items, inside) if held)))
            say(f"fold {fold + 1}/{folds}: trained without its {len(held_out[-1][1])} papers in "
                f"{time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        spec = ExtractSpec(fold_extract, args=(names or DEFAULT_EXTRACTORS,), kwargs=(("folds", tuple(held_out)),),
                           version=f"{VERSION}+cv{folds}")
        predicted = build_items([p for _, _, p in items], model, spec, lambda w: say(f"warning: {w}"), use_cache=False)
        say(f"{len(items)} papers scored by their held-out folds' models in {time.perf_counter() - started:.0f} s")
    return predicted


def fold_extract(names: tuple[str, ...], folds: tuple[tuple[str, tuple[str, ...]], ...]) -> ExtractFn:
    """The extract step of cross-validation: each paper goes through the weights of the fold that held it out."""
    from kg.extractors import build_extract

    steps = [build_extract(names, weights=weights) for weights, _ in folds]
    step_of = {paper_id: steps[fold] for fold, (_, ids) in enumerate(folds) for paper_id in ids}

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        return step_of[context.paper_id](doc, context)

    return extract
