"""The relation head at run time (numpy): pair features -> standardised -> one hidden layer (ReLU) -> one logit per
relation; a pair keeps the logit of the relation its types allow, and is stated when its probability reaches
that relation's threshold (chosen by cross-validation for precision)."""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kg.errors import UserError
from kg.extractors.encoder.pairs import RELATIONS

FIELDS = ("mean", "scale", "hidden_w", "hidden_b", "out_w", "out_b", "threshold")


@dataclass(frozen=True)
class RelationHead:
    """Standardisation, the hidden layer (may be 0 wide: a linear head), outputs and per-relation thresholds."""

    mean: np.ndarray
    scale: np.ndarray
    hidden_w: np.ndarray
    hidden_b: np.ndarray
    out_w: np.ndarray  # (hidden or features, relations)
    out_b: np.ndarray
    threshold: np.ndarray  # (relations,)

    def probabilities(self, x: np.ndarray, relations: list[str]) -> np.ndarray:
        """(n,) probability that each pair holds its relation."""
        if not len(x):
            return np.zeros(0)
        z = logits(self, (x - self.mean) / self.scale)
        column = np.array([RELATIONS.index(r) for r in relations])
        return 1.0 / (1.0 + np.exp(-z[np.arange(len(x)), column].astype(np.float64)))

    def stated(self, x: np.ndarray, relations: list[str]) -> np.ndarray:
        """(n,) bool: the pairs whose probability reaches their relation's threshold, and the probabilities."""
        p = self.probabilities(x, relations)
        cut = np.array([self.threshold[RELATIONS.index(r)] for r in relations]) if relations else np.zeros(0)
        return p >= cut


def logits(head: RelationHead, x: np.ndarray) -> np.ndarray:
    """(n, relations) logits of standardised features."""
    if head.hidden_w.shape[1]:
        x = np.maximum(x @ head.hidden_w + head.hidden_b, 0)
    return x @ head.out_w + head.out_b


def save_head(head: RelationHead, path: Path) -> None:
    """Write a head as .npz (float32), byte for byte the same for the same head."""
    from kg.extractors.model.weights import write_arrays

    write_arrays({name: np.asarray(getattr(head, name), dtype=np.float32) for name in FIELDS}, path)


def read_head(path: Path) -> RelationHead:
    """The relation head of a relations.npz (UserError naming the file when it is not one)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: np.asarray(data[name], dtype=np.float32) for name in FIELDS}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise UserError(f"{path}: not a relation head ({type(error).__name__}: {error})") from None
    if arrays["threshold"].shape != (len(RELATIONS),) or arrays["out_w"].shape[1:] != (len(RELATIONS),):
        raise UserError(f"{path}: not a relation head (expected {len(RELATIONS)} relations)")
    return RelationHead(**arrays)
