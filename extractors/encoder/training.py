"""Fine-tune the encoder with a span head (torch; the `[train]` extra): the model, its batches and the loop."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import torch
from torch import nn

from kg.extractors.encoder.pair_training import PAIR_WEIGHT, PairBatch, PairHead, pair_loss
from kg.extractors.encoder.pieces import Pieces, span_pieces

WIDTHS = 12  # span widths in pieces, the last bucket holding every longer span
OUTPUTS = 7  # none + five types, then the proposed-role logit


@dataclass
class Batch:
    """One abstract as tensors: windows, piece owners, candidate spans, sparse bags, labels."""

    ids: torch.Tensor
    mask: torch.Tensor
    row: torch.Tensor
    pos: torch.Tensor
    spans: torch.Tensor
    bag: torch.Tensor
    offsets: torch.Tensor
    labels: torch.Tensor
    proposed: torch.Tensor
    keep: np.ndarray  # which candidate spans have pieces (the others never score)
    lower: torch.Tensor | None = None  # the frozen layers' output, computed once
    pairs: PairBatch | None = None  # the gold concept pairs, when the abstract has relation gold
    source: str = ""  # the file an intermediate-training text comes from (its output head)


def sparse_bags(fixed: np.ndarray, rows: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(flat ids, offsets) of each span's hashed features: its fixed columns, then its extra ids in order."""
    n = len(fixed)
    order = np.argsort(rows, kind="stable")
    counts = np.bincount(rows, minlength=n) if len(rows) else np.zeros(n, dtype=np.int64)
    sizes = fixed.shape[1] + counts
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    flat = np.empty(int(sizes.sum()), dtype=np.int64)
    extra_at = np.concatenate([[0], np.cumsum(counts)[:-1]])
    sorted_ids = ids[order]
    for i in range(n):
        o = offsets[i]
        flat[o:o + fixed.shape[1]] = fixed[i]
        flat[o + fixed.shape[1]:o + sizes[i]] = sorted_ids[extra_at[i]:extra_at[i] + counts[i]]
    return flat, offsets


def make_batch(pieces: Pieces, chars: np.ndarray, fixed: np.ndarray, rows: np.ndarray, ids: np.ndarray,
               labels: np.ndarray, proposed: np.ndarray) -> Batch:
    """The tensors of one abstract."""
    spans = span_pieces(pieces, chars)
    keep = spans[:, 0] >= 0
    window_ids, mask = pieces.batch()
    row, pos = pieces.owners()
    bag, offsets = sparse_bags(fixed, rows, ids)
    t = torch.as_tensor
    return Batch(t(window_ids), t(mask), t(row), t(pos), t(np.where(keep[:, None], spans, 0)), t(bag), t(offsets),
                 t(np.where(keep, labels, 0)), t(proposed.astype(np.float32)), keep)


class SpanScorer(nn.Module):
    """Encoder states -> span representation (first, last, mean piece and width) -> type and role logits, plus
    a linear layer over the span's hashed sparse features."""

    def __init__(self, encoder: nn.Module, sparse_rows: int, hidden: int = 256, dropout: float = 0.1,
                 frozen: int = 4, pairs: bool = False):
        super().__init__()
        self.encoder = encoder
        self.frozen = frozen  # the embeddings and this many lower layers stay as the base model has them
        d = encoder.config.hidden_size
        self.width = nn.Embedding(WIDTHS, 32)
        self.hidden = nn.Linear(3 * d + 32, hidden)
        self.out = nn.Linear(hidden, OUTPUTS)
        self.drop = nn.Dropout(dropout)
        self.sparse = nn.EmbeddingBag(sparse_rows, OUTPUTS, mode="sum") if sparse_rows else None
        if self.sparse is not None:
            nn.init.zeros_(self.sparse.weight)
        self.pair_head = PairHead(d) if pairs else None  # the relation objective (see pair_training)

    def lower(self, b: Batch) -> torch.Tensor:
        """The frozen part's output for the windows (no gradient; windows are never padded)."""
        with torch.no_grad():
            h = self.encoder.embeddings(input_ids=b.ids, token_type_ids=torch.zeros_like(b.ids))
            for layer in self.encoder.encoder.layer[: self.frozen]:
                h = layer(h)
        return h

    def piece_states(self, b: Batch) -> torch.Tensor:
        """(pieces, d) contextual states, each piece from the window where it is most central."""
        h = b.lower if b.lower is not None else self.lower(b)
        for layer in self.encoder.encoder.layer[self.frozen:]:
            h = layer(h)
        return h[b.row, b.pos]

    def forward(self, b: Batch) -> torch.Tensor:
        """(spans, OUTPUTS) logits."""
        return self.span_logits(self.piece_states(b), b)

    def span_vectors(self, states: torch.Tensor, b: Batch) -> torch.Tensor:
        """(spans, 3d + 32): each span's first, last and mean piece state and its width embedding."""
        first, last = b.spans[:, 0], b.spans[:, 1]
        total = torch.cat([states.new_zeros(1, states.shape[1]), states.cumsum(0)])
        mean = (total[last + 1] - total[first]) / (last - first + 1).unsqueeze(1).float()
        width = self.width((last - first).clamp(max=WIDTHS - 1))
        return torch.cat([states[first], states[last], mean, width], dim=1)

    def span_logits(self, states: torch.Tensor, b: Batch) -> torch.Tensor:
        """(spans, OUTPUTS) logits from the piece states."""
        x = self.span_vectors(states, b)
        z = self.out(self.drop(nn.functional.gelu(self.hidden(self.drop(x)), approximate="tanh")))
        if self.sparse is not None:
            z = z + self.sparse(b.bag, b.offsets)
        return z


def step_loss(model: SpanScorer, b: Batch) -> torch.Tensor:
    """The span loss of one abstract, plus the pair loss when the model has a pair head and the abstract pairs."""
    states = model.piece_states(b)
    loss = loss_of(model.span_logits(states, b), b)
    if model.pair_head is not None and b.pairs is not None:
        loss = loss + PAIR_WEIGHT * pair_loss(model.pair_head, states, b.pairs)
    return loss


def type_loss(z: torch.Tensor, b: Batch) -> torch.Tensor:
    """Cross-entropy over none + types (the first six logits) for every span with pieces."""
    keep = torch.as_tensor(b.keep)
    return nn.functional.cross_entropy(z[keep, :6], b.labels[keep])


def loss_of(z: torch.Tensor, b: Batch) -> torch.Tensor:
    """`type_loss`, plus the role loss on gold entity spans."""
    keep = torch.as_tensor(b.keep)
    loss = type_loss(z, b)
    entity = keep & (b.labels > 0)
    if entity.any():
        loss = loss + nn.functional.binary_cross_entropy_with_logits(z[entity, 6], b.proposed[entity])
    return loss


def fit(model: SpanScorer, batches: Sequence[Batch], epochs: int = 3, lr: float = 5e-5, head_lr: float = 1e-3,
        sparse_lr: float = 5e-3, seed: int = 0, log: Callable[[str], None] = print,
        loss: Callable[[SpanScorer, Batch], torch.Tensor] = step_loss) -> SpanScorer:
    """AdamW with linear warm-up and decay, one abstract per step, shuffled with a fixed seed; `loss` of one
    abstract (default: spans, roles and pairs)."""
    torch.manual_seed(seed)
    order = random.Random(seed)
    model.eval()  # the frozen layers' output, once per abstract
    for b in batches:
        b.lower = model.lower(b)
    tuned = [p for layer in model.encoder.encoder.layer[model.frozen:] for p in layer.parameters()]
    for p in model.encoder.parameters():
        p.requires_grad_(False)
    for p in tuned:
        p.requires_grad_(True)
    groups = [{"params": tuned, "lr": lr, "weight_decay": 0.01},
              {"params": [p for n, p in model.named_parameters() if not n.startswith(("encoder.", "sparse."))],
               "lr": head_lr, "weight_decay": 0.01}]
    if model.sparse is not None:
        groups.append({"params": list(model.sparse.parameters()), "lr": sparse_lr, "weight_decay": 0.0})
    optimizer = torch.optim.AdamW(groups)
    total = epochs * len(batches)
    warm = max(1, total // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min((step + 1) / warm, max(0.0, (total - step) / max(1, total - warm))))
    model.train()
    step = 0
    for epoch in range(epochs):
        index = list(range(len(batches)))
        order.shuffle(index)
        running = 0.0
        for k, i in enumerate(index):
            value = loss(model, batches[i])
            optimizer.zero_grad()
            value.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            running += float(value.detach())
            if (k + 1) % 200 == 0:
                log(f"epoch {epoch + 1} step {k + 1}/{len(batches)} loss {running / 200:.4f}")
                running = 0.0
    model.eval()
    for b in batches:
        b.lower = None
    return model
