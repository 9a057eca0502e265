"""Cross-validation of the span model (`kg eval --cv`): fold models trained by kg.extractors.model.crossval,
every gold paper built in one graph through the normal pipeline with the fold model that never saw it.
Kept out of kg.extractors' __init__, so the extraction cache's code digest does not follow the build."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kg.extractors import DEFAULT_EXTRACTORS, expand, extract_spec
from kg.extractors.encoder.component import ENCODER
from kg.extractors.model.crossval import make_examples, train_folds
from kg.quality.gold import build_items, gold_items_of

if TYPE_CHECKING:
    from kg.quality.evaluate import Item


def cross_validate(files: dict[Path, list[dict]], folds: int, model: str, names: tuple[str, ...] = (),
                   say: Callable[[str], None] = print, recent_weight: float | None = None, jobs: int = 1,
                   intermediate: list | None = None) -> list[Item]:
    """Predicted items of every gold paper, each from a span model trained on the other folds only, resolved
    together in one graph (as `kg build` resolves a corpus), so cross-paper linking is scored as users see it;
    `jobs` encoder folds fine-tuned at a time, and extraction processes of the build; the encoder tuned first on
    the `intermediate` items if given."""
    items = gold_items_of(files)
    names = names or DEFAULT_EXTRACTORS
    with tempfile.TemporaryDirectory(prefix="paperkg-cv-") as folder:
        if expand(names)[1] == ENCODER:  # fine-tune one encoder per fold (about 25 minutes each on 2 cores)
            from kg.extractors.encoder.fine_tune import fine_tune_folds

            held_out = fine_tune_folds(items, folds, Path(folder), model, None, say, jobs=jobs,
                                       intermediate=intermediate)
        else:
            held_out = train_folds(items, make_examples(items, model, recent_weight, say), folds, Path(folder), say)
        started = time.perf_counter()
        spec = extract_spec(names, folds=held_out)
        predicted = build_items([p for _, _, p in items], model, spec, lambda w: say(f"warning: {w}"), use_cache=False,
                                jobs=jobs)
        say(f"{len(items)} papers scored by their held-out folds' models in {time.perf_counter() - started:.0f} s")
    return predicted
