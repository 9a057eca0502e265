"""The results model: a softmax over (not a result, score, change) of a number's sparse features, in plain
numpy; weights are a small JSON file (the feature strings and their weights) written by `kg train --results`."""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Sequence

import numpy as np

from kg.errors import UserError

LABELS = ("none", "score", "change")
WEIGHTS = "results_model.json"


class ResultsModelError(UserError):
    """A missing or unreadable results weights file."""


@dataclass(frozen=True)
class Linear:
    """A linear softmax layer over feature strings: `vocab` -> rows of `weights` (n_features, k), a bias per class."""

    vocab: dict[str, int]
    weights: np.ndarray
    bias: np.ndarray

    def probabilities(self, features: Sequence[Sequence[str]]) -> np.ndarray:
        """(n, k) class probabilities, one row per item's feature strings."""
        out = np.tile(self.bias, (len(features), 1)).astype(np.float64)
        for row, feats in enumerate(features):
            ids = sorted({self.vocab[f] for f in feats if f in self.vocab})
            if ids:
                out[row] += self.weights[ids].sum(axis=0)
        if len(out):
            out -= out.max(axis=1, keepdims=True)
        exp = np.exp(out)
        return exp / exp.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class ResultsModel:
    """`numbers`: none/score/change of a number; `subject` and `dataset`: whether a candidate is the result's
    subject / dataset (the likeliest candidate wins); `threshold`: the result probability a number must reach."""

    numbers: Linear
    subject: Linear
    dataset: Linear
    threshold: float = 0.5


LAYERS = ("numbers", "subject", "dataset")


def default_path() -> Path:
    """The weights shipped in the package."""
    return Path(str(resources.files("kg.extractors.results").joinpath("weights", WEIGHTS)))


def layer_json(layer: Linear) -> dict:
    """One layer as JSON data (sorted features, rounded values)."""
    names = sorted(layer.vocab)
    return {"bias": [round(float(v), 6) for v in layer.bias],
            "features": {n: [round(float(v), 6) for v in layer.weights[layer.vocab[n]]] for n in names}}


def to_json(model: ResultsModel) -> str:
    """The weights as JSON whose text depends only on the weights."""
    data = {"labels": list(LABELS), "threshold": model.threshold,
            **{name: layer_json(getattr(model, name)) for name in LAYERS}}
    return json.dumps(data, indent=0, sort_keys=True, ensure_ascii=False) + "\n"


def save(model: ResultsModel, path: Path) -> None:
    """Write the weights to `path` (its folder made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_json(model), encoding="utf-8")


def layer_of(data: dict) -> Linear:
    """A layer from its JSON data."""
    names = sorted(data["features"])
    bias = np.array(data["bias"], dtype=np.float64)
    weights = np.array([data["features"][n] for n in names], dtype=np.float64).reshape(-1, len(bias))
    return Linear({n: i for i, n in enumerate(names)}, weights, bias)


def load(path: Path | None = None) -> ResultsModel:
    """The weights at `path` (default: shipped); ResultsModelError names a missing or malformed file."""
    path = path or default_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return ResultsModel(*(layer_of(data[name]) for name in LAYERS), float(data["threshold"]))
    except OSError as error:
        raise ResultsModelError(f"{path}: cannot read the results weights ({error.strerror or error})") from None
    except (ValueError, KeyError, TypeError) as error:
        raise ResultsModelError(f"{path}: not a results weights file ({error})") from None


def design(features: Sequence[Sequence[str]], min_count: int):
    """The vocabulary of the features seen at least `min_count` times and the (rows, vocabulary) 0/1 matrix."""
    from scipy import sparse

    counts: dict[str, int] = {}
    for feats in features:
        for f in set(feats):
            counts[f] = counts.get(f, 0) + 1
    names = sorted(f for f, c in counts.items() if c >= min_count)
    vocab = {n: i for i, n in enumerate(names)}
    rows, cols = [], []
    for row, feats in enumerate(features):
        ids = sorted({vocab[f] for f in feats if f in vocab})
        rows += [row] * len(ids)
        cols += ids
    return vocab, sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(features), len(names)))


def fit(features: Sequence[Sequence[str]], labels: np.ndarray, classes: int, min_count: int = 2, l2: float = 1.0,
        iterations: int = 300) -> Linear:
    """Softmax regression (L-BFGS, L2) over the features seen at least `min_count` times; needs scipy."""
    from scipy.optimize import minimize

    vocab, x = design(features, min_count)
    k, n = classes, max(len(features), 1)
    target = np.eye(k)[labels]

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:-k].reshape(-1, k), theta[-k:]
        z = x @ w + b
        z = z - z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        delta = np.exp(log_p) - target
        value = -(target * log_p).sum() + 0.5 * l2 * (w * w).sum()
        grad = np.concatenate([(x.T @ delta + l2 * w).ravel(), delta.sum(axis=0)])
        return value / n, grad / n

    result = minimize(loss, np.zeros(len(vocab) * k + k), jac=True, method="L-BFGS-B",
                      options={"maxiter": iterations})
    theta = result.x
    return Linear(vocab, theta[:-k].reshape(-1, k), theta[-k:])


Group = tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]  # one choice: each option's features, 1 for a right one


def fit_ranker(groups: Sequence[Group], min_count: int = 2, l2: float = 1.0, iterations: int = 300) -> Linear:
    """A linear scorer of options trained listwise: per choice, a softmax over its options, the right ones' mass
    maximised (L-BFGS, L2). Stored as a two-class layer whose second class carries the score, so the likeliest
    option under `Linear.probabilities` is the best-scored one."""
    from scipy import sparse
    from scipy.optimize import minimize

    vocab, x = design([f for options, _ in groups for f in options], min_count)
    sizes = [len(options) for options, _ in groups]
    member = sparse.csr_matrix((np.ones(sum(sizes)), (np.repeat(np.arange(len(groups)), sizes), np.arange(sum(sizes)))),
                               shape=(len(groups), sum(sizes)))
    right = np.array([y for _, ys in groups for y in ys], dtype=np.float64)
    n = max(len(groups), 1)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        z = z - z.max()
        e = np.exp(z)
        total, good = member @ e, member @ (e * right)
        value = -(np.log(good) - np.log(total)).sum() + 0.5 * l2 * (w * w).sum()
        grad_z = e * (member.T @ (1.0 / total)) - e * right * (member.T @ (1.0 / good))
        return value / n, (x.T @ grad_z + l2 * w) / n

    w = minimize(loss, np.zeros(len(vocab)), jac=True, method="L-BFGS-B", options={"maxiter": iterations}).x
    return Linear(vocab, np.stack([np.zeros_like(w), w], axis=1), np.zeros(2))
