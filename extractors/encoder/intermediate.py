"""Intermediate training (`kg train --encoder --intermediate FILE...`, torch): before the gold, the encoder's tuned
layers learn the entity spans of other annotated scientific text, one output head per file, types only. Each
file keeps its own partial annotation (a file marking only tasks teaches nothing about methods, since only its
own head reads its labels); the heads are dropped and the gold fine-tuning starts from the encoder so tuned."""
from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Callable

import torch
from torch import nn

from kg.extractors.encoder.training import Batch, SpanScorer, fit, type_loss

TYPES = 6  # none + five types: the sources' labels, mapped to ours; no role output
INTERMEDIATE_EPOCHS = 1


class SourceScorer(SpanScorer):
    """The span scorer with one hidden layer and output per source file (`Batch.source` picks it)."""

    def __init__(self, encoder: nn.Module, sources: list[str], frozen: int, hidden: int = 256):
        super().__init__(encoder, 0, hidden=hidden, frozen=frozen)
        d = encoder.config.hidden_size
        self.keys = {s: f"source{i}" for i, s in enumerate(sources)}  # module names cannot hold the file's dots
        self.hidden = nn.ModuleDict({self.keys[s]: nn.Linear(3 * d + 32, hidden) for s in sources})
        self.out = nn.ModuleDict({self.keys[s]: nn.Linear(hidden, TYPES) for s in sources})

    def span_logits(self, states: torch.Tensor, b: Batch) -> torch.Tensor:
        """(spans, TYPES) logits of the batch's source head."""
        key = self.keys[b.source]
        hidden = nn.functional.gelu(self.hidden[key](self.drop(self.span_vectors(states, b))), approximate="tanh")
        return self.out[key](self.drop(hidden))


def types_loss(model: SourceScorer, b: Batch) -> torch.Tensor:
    """`type_loss` of the batch's source head (the sources mark no roles)."""
    return type_loss(model.span_logits(model.piece_states(b), b), b)


def intermediate_encoder(batches: list[Batch], base: Path, out: Path, frozen: int, lr: float,
                         say: Callable[[str], None], epochs: int = INTERMEDIATE_EPOCHS) -> Path:
    """The base model folder `base` with its upper layers tuned on the sources' batches (each with its `source`),
    written as a model folder `out` (the base's other files copied)."""
    from transformers import AutoModel

    started = time.perf_counter()
    torch.manual_seed(0)
    model = SourceScorer(AutoModel.from_pretrained(str(base)), sorted({b.source for b in batches}), frozen)
    fit(model, batches, epochs=epochs, lr=lr, log=say, loss=types_loss)
    say(f"intermediate training on {len(batches)} texts in {time.perf_counter() - started:.0f} s")
    out.mkdir(parents=True, exist_ok=True)
    model.encoder.save_pretrained(str(out))
    for f in sorted(base.iterdir()):
        if f.is_file() and not (out / f.name).exists():
            shutil.copy(f, out / f.name)
    return out
