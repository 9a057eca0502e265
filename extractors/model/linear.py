"""The span model's layers in plain numpy: linear scores over span features, softmax over (none + types),
sigmoid for the role, and the thresholds that keep a span."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kg.extraction.interface import DocContext
from kg.extractors.model.features import SpanFeatures

LABELS = ("none", "method", "model", "dataset", "task", "metric")


@dataclass(frozen=True)
class Linear:
    """A linear layer over hashed ids: `sparse` holds one row of weights per id."""

    sparse: np.ndarray  # (2**BITS, k)
    bias: np.ndarray  # (k,)

    def scores(self, f: SpanFeatures) -> np.ndarray:
        """(n, k) raw scores of the spans."""
        (n, k), sparse = (len(f.fixed), self.sparse.shape[1]), self.sparse
        out = sparse.take(f.fixed, axis=0).sum(axis=1, dtype=np.float64) + self.bias
        if len(f.rows):  # one bincount over (row, class) cells adds each cell's weights in the same order
            cells = (f.rows[:, None] * k + np.arange(k)).ravel()
            weights = sparse.take(f.ids, axis=0).astype(np.float64).ravel()
            out += np.bincount(cells, weights=weights, minlength=n * k).reshape(n, k)
        return out


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def sigmoid(z: np.ndarray) -> np.ndarray:
    """Element-wise logistic function."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


@dataclass(frozen=True)
class SpanModel:
    """Type scores (none + five types), a proposed-role score, and the entity thresholds of recent and of
    older abstracts (see kg.extraction.interface.is_recent)."""

    types: Linear
    roles: Linear
    threshold: float = 0.5
    older_threshold: float | None = None  # None: the same as `threshold`

    def threshold_of(self, context: DocContext) -> float:
        """The entity threshold for one abstract."""
        return era_threshold(self.threshold, self.older_threshold, context)


def era_threshold(recent: float, older: float | None, context: DocContext) -> float:
    """The entity threshold of an abstract's era: `older` for abstracts from before 2020 when there is one."""
    return recent if context.recent or older is None else older
