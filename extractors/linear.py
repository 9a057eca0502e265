"""Linear scoring over span features in plain numpy: softmax over (none + types), sigmoid for the role."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kg.extractors.features import SpanFeatures

LABELS = ("none", "method", "model", "dataset", "task", "metric")


@dataclass(frozen=True)
class Linear:
    """A linear layer over hashed ids (`sparse`, rows of weights) and dense features."""

    sparse: np.ndarray  # (2**BITS, k)
    dense: np.ndarray  # (d, k)
    bias: np.ndarray  # (k,)

    def scores(self, f: SpanFeatures) -> np.ndarray:
        """(n, k) raw scores of the spans."""
        n = len(f.fixed)
        out = self.sparse[f.fixed].sum(axis=1, dtype=np.float64) + f.dense @ self.dense + self.bias
        if len(f.rows):
            extra = self.sparse[f.ids].astype(np.float64)
            for k in range(out.shape[1]):
                out[:, k] += np.bincount(f.rows, weights=extra[:, k], minlength=n)
        return out


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def sigmoid(z: np.ndarray) -> np.ndarray:
    """Element-wise logistic function."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
