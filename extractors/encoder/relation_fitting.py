"""`kg train --relations`: the relation head fitted on gold relations over an encoder's states, its thresholds
chosen by 5-fold cross-validation (figures printed), written as relations.npz into an encoder folder."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Callable

from kg.errors import UserError
from kg.extractors.encoder.model import FILES, LINEAR, RELATIONS, default_folder, verify, write_manifest
from kg.extractors.encoder.pairs import RELATIONS as RELATION_NAMES
from kg.extractors.encoder.relation_data import build_examples, encode_gold
from kg.extractors.encoder.relation_head import save_head
from kg.extractors.encoder.relation_training import Report, cross_validated, fit, with_thresholds

Say = Callable[[str], None]
FOLDS = 5


def gold_relations(files: dict[Path, list[dict]], relations: Path) -> tuple[list, dict[str, list]]:
    """(record, paper) of every gold abstract that has relation gold, and its gold triples by paper id."""
    from kg.quality.gold import gold_items_of, read_relations
    from kg.quality.relation_scores import gold_triples

    by_id = read_relations(relations)
    items = [(record, paper) for _, record, paper in gold_items_of(files) if paper.id in by_id]
    if not items:
        raise UserError(f"{relations}: no paper id in common with the gold entity files")
    return items, {paper.id: gold_triples(record, by_id[paper.id]) for record, paper in items}


def say_report(report: Report, say: Say) -> None:
    """The cross-validated figures, one line per relation."""
    say(f"{FOLDS}-fold cross-validation ({report.pairs:,} candidate pairs); scored on {report.papers} abstracts:")
    for name in (*RELATION_NAMES, "all"):
        e, g = report.end_to_end[name], report.gold_entities[name]
        cut = f"threshold {report.thresholds[name]:.2f}" if name in report.thresholds else ""
        say(f"  {name:<13} end to end P {e.precision:.3f} R {e.recall:.3f} F1 {e.f1:.3f}   gold entities "
            f"P {g.precision:.3f} R {g.recall:.3f} F1 {g.f1:.3f}   {cut}")


def copy_encoder(source: Path, target: Path) -> None:
    """The encoder files of `source` in `target` (nothing to do when they are one folder)."""
    if source.resolve() == target.resolve():
        return
    target.mkdir(parents=True, exist_ok=True)
    for name in FILES + (LINEAR, "manifest.json"):
        if (source / name).exists():
            shutil.copyfile(source / name, target / name)


def train_relation_head(files: dict[Path, list[dict]], relations: Path, model: str, weights: Path | None,
                        out: Path | None, say: Say, calibrate: tuple[int, int] | None = None) -> Path:
    """Fit, cross-validate and write the relation head; the path of the relations.npz written."""
    source = weights or default_folder()
    verify(source)
    items, gold = gold_relations(files, relations)
    started = time.perf_counter()
    encoded = list(encode_gold(items, model, say, weights))
    say(f"parsed, extracted and encoded {len(encoded)} abstracts in {time.perf_counter() - started:.0f} s")
    examples = build_examples(encoded, gold)
    threshold, report = cross_validated(examples, gold, FOLDS, calibrate)
    say_report(report, say)
    head = with_thresholds(fit(examples), threshold)
    target = out or source
    copy_encoder(source, target)
    save_head(head, target / RELATIONS)
    base = json.loads((source / "manifest.json").read_text(encoding="utf-8")).get("base_sha256", "")
    write_manifest(target, base)
    return target / RELATIONS


def gold_entity_triples(files: dict[Path, list[dict]], relations: Path, model: str,
                        weights: Path | None, say: Say) -> tuple[dict[str, list], dict[str, list]]:
    """(predicted, gold) triples by paper when the relation head reads the gold entities found in each abstract
    (so relation errors are told apart from extraction errors)."""
    import numpy as np

    from kg.extractors.encoder.model import load_encoder
    from kg.extractors.encoder.relation_training import triples_above

    head = load_encoder(weights).relations
    if head is None:
        raise UserError(f"{weights or default_folder()}: no relation head (relations.npz); fit one with kg train "
                        f"--relations")
    items, gold = gold_relations(files, relations)
    examples = build_examples(list(encode_gold(items, model, say, weights)), gold, use="gold")
    probability = head.probabilities(examples.x, list(examples.relation))
    return triples_above(examples, np.arange(len(examples.y)), probability, head.threshold), gold
