"""Word pieces of an abstract in overlapping windows, and candidate character spans mapped onto them (pure)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from tokenizers import Tokenizer

WINDOW = 384  # word pieces per window, [CLS] and [SEP] excluded
CLS, SEP, PAD = 101, 102, 0


@dataclass(frozen=True)
class Pieces:
    """The word pieces of one text: ids, character offsets, and windows over them."""

    ids: np.ndarray  # (n,) int64 word-piece ids, no special tokens
    offsets: np.ndarray  # (n, 2) character offsets into the text, end exclusive
    windows: tuple[tuple[int, int], ...]  # [start, end) piece ranges, each at most WINDOW long

    def batch(self) -> tuple[np.ndarray, np.ndarray]:
        """(input_ids, attention_mask) of the windows, each framed by [CLS] ... [SEP], padded to one length."""
        width = max((end - start for start, end in self.windows), default=0) + 2
        ids = np.full((len(self.windows), width), PAD, dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, (start, end) in enumerate(self.windows):
            ids[row, : end - start + 2] = [CLS, *self.ids[start:end].tolist(), SEP]
            mask[row, : end - start + 2] = 1
        return ids, mask

    def owners(self) -> tuple[np.ndarray, np.ndarray]:
        """For every piece, (window row, position in that row): the window where it lies farthest from an edge."""
        row = np.zeros(len(self.ids), dtype=np.int64)
        best = np.full(len(self.ids), -1, dtype=np.int64)
        for w, (start, end) in enumerate(self.windows):
            index = np.arange(start, end)
            margin = np.minimum(index - start, end - 1 - index)
            better = margin > best[start:end]
            row[start:end][better], best[start:end][better] = w, margin[better]
        starts = np.array([s for s, _ in self.windows], dtype=np.int64)
        return row, np.arange(len(self.ids)) - starts[row] + 1 if len(self.ids) else row


def windows_of(n: int, size: int = WINDOW) -> tuple[tuple[int, int], ...]:
    """Windows of `size` pieces overlapping by half, covering all n pieces (one empty window when n is 0)."""
    if n <= size:
        return ((0, n),)
    step = size // 2
    starts = list(range(0, n - size, step)) + [n - size]
    return tuple((s, s + size) for s in starts)


def load_tokenizer(path: str) -> Tokenizer:
    """The word-piece tokenizer of a tokenizer.json, without truncation or padding."""
    tokenizer = Tokenizer.from_file(path)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def pieces_of(tokenizer: Tokenizer, text: str, size: int = WINDOW) -> Pieces:
    """The word pieces of `text` with offsets, in windows."""
    encoding = tokenizer.encode(text, add_special_tokens=False)
    ids = np.array(encoding.ids, dtype=np.int64)
    offsets = np.array(encoding.offsets, dtype=np.int64).reshape(-1, 2)
    return Pieces(ids, offsets, windows_of(len(ids), size))


def span_pieces(pieces: Pieces, chars: np.ndarray) -> np.ndarray:
    """(n, 2) first and last piece index of each character span [start, end) (-1, -1 when none overlaps)."""
    chars = np.asarray(chars, dtype=np.int64).reshape(-1, 2)
    if not len(pieces.ids):
        return np.full((len(chars), 2), -1, dtype=np.int64)
    first = np.searchsorted(pieces.offsets[:, 1], chars[:, 0], side="right")  # first piece ending after start
    last = np.searchsorted(pieces.offsets[:, 0], chars[:, 1], side="left") - 1  # last piece starting before end
    bad = (first > last) | (first >= len(pieces.ids)) | (last < 0)
    return np.where(bad[:, None], -1, np.stack([first, last], axis=1))
