"""The `kg train` command and `kg eval --cv`: fit the span model on gold files, or cross-validate it."""
from __future__ import annotations

import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer
from rich.console import Console

from kg.nlp import DEFAULT_MODEL

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
    from kg.extractors.span_model import SpanModel
    from kg.extractors.training import Example
    from kg.quality.evaluate import Item
    from kg.types import Paper

err = Console(stderr=True, highlight=False)


def make_examples(items: list[tuple[str, dict, Paper]], model: str, recent_weight: float | None) -> list[Example]:
    """Parse every abstract once and turn its candidate spans into a training example (`recent_weight` None:
    the shipped one)."""
    from kg.extractors import RULES, build_candidates
    from kg.extractors.doccache import clear
    from kg.extractors.training import RECENT_WEIGHT, make_example
    from kg.nlp.load import load_nlp
    from kg.run.worker import parse_papers

    nlp, warning = load_nlp(model)
    if warning:
        err.print(f"warning: {warning}", markup=False)
    candidates = build_candidates(RULES)
    recent_weight = RECENT_WEIGHT if recent_weight is None else recent_weight
    examples = []
    for (_, record, _), (_, doc, context) in zip(items, parse_papers([p for _, _, p in items], nlp)):
        found, combined = candidates(doc, context)
        weight = recent_weight if context.recent else 1.0  # the era the model sees (DocContext.recent)
        examples.append(make_example(doc, context, found, combined, record.get("entities", ()), weight))
        clear(doc)
    return examples


def fold_of(paper_id: str, folds: int) -> int:
    """The cross-validation fold of a paper: a stable hash of its id (all of a paper's spans stay together)."""
    return zlib.crc32(paper_id.encode("utf-8")) % folds


def cross_validate(files: dict[Path, list[dict]], folds: int, model: str = DEFAULT_MODEL,
                   names: tuple[str, ...] | None = None, recent_weight: float | None = None) -> list[Item]:
    """Predicted items of every gold paper, each from a model trained on the other folds only, resolved
    together in one graph (as `kg build` resolves a corpus), so cross-paper linking is scored as users see it."""
    import tempfile

    from kg.cli.gold import build_items, gold_items_of
    from kg.extractors import DEFAULT_EXTRACTORS, VERSION
    from kg.extractors.span_model import save_model
    from kg.extractors.training import train

    items = gold_items_of(files)
    examples = make_examples(items, model, recent_weight)
    with tempfile.TemporaryDirectory(prefix="paperkg-cv-") as folder:
        held_out = []
        for fold in range(folds):
            inside = [fold_of(p.id, folds) == fold for _, _, p in items]
            started = time.perf_counter()
            weights = Path(folder) / f"fold-{fold}.npz"
            save_model(train([e for e, held in zip(examples, inside) if not held]), weights)
            held_out.append((str(weights), tuple(p.id for (_, _, p), held in zip(items, inside) if held)))
            err.print(f"fold {fold + 1}/{folds}: trained without its {len(held_out[-1][1])} papers in "
                      f"{time.perf_counter() - started:.0f} s", markup=False)
        started = time.perf_counter()
        names = names or DEFAULT_EXTRACTORS
        spec = (("folds", tuple(held_out)),), f"{VERSION}+cv{folds}"
        predicted = build_items([p for _, _, p in items], model, names, spec, use_cache=False, factory=fold_extract)
        err.print(f"{len(items)} papers scored by their held-out folds' models in "
                  f"{time.perf_counter() - started:.0f} s", markup=False)
    return predicted


def fold_extract(names: tuple[str, ...], folds: tuple[tuple[str, tuple[str, ...]], ...]) -> ExtractFn:
    """The extract step of cross-validation: each paper goes through the weights of the fold that held it out."""
    from kg.extractors import build_extract

    steps = [build_extract(names, weights=weights) for weights, _ in folds]
    step_of = {paper_id: steps[fold] for fold, (_, ids) in enumerate(folds) for paper_id in ids}

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        return step_of[context.paper_id](doc, context)

    return extract


def train_model(golds: list[Path], model: str = DEFAULT_MODEL, recent_weight: float | None = None) -> SpanModel:
    """The span model trained on every record of the gold files."""
    from kg.cli.gold import gold_items_of, read_files
    from kg.extractors.training import train

    examples = make_examples(gold_items_of(read_files(golds)), model, recent_weight)
    return train(examples)


def train_command(
    golds: List[Path] = typer.Argument(..., metavar="GOLD", help="Gold JSONL files (id, text, entities)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                       help="Where to write the weights (default: the ones shipped in the package)."),
    model: str = typer.Option(DEFAULT_MODEL, "--model", metavar="NAME", help="spaCy pipeline package or path."),
    recent_weight: Optional[float] = typer.Option(None, "--recent-weight", metavar="W",
                                                  help="Weight of abstracts from 2020 on (default: the shipped one)."),
) -> None:
    """Train the span model on gold files (deterministic: the same files give the same weights)."""
    from kg.extractors.span_model import default_path, save_model

    started = time.perf_counter()
    fitted = train_model(golds, model, recent_weight)
    target = out or default_path()
    save_model(fitted, target)
    err.print(f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s",
              markup=False)
