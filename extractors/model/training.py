"""Fit the span model's linear layers (L-BFGS on a softmax / logistic loss); needs scipy (`[train]` extra)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from spacy.tokens import Doc

from kg.extraction.interface import Candidate, DocContext
from kg.extraction.doccache import span_text
from kg.extractors.model.features import BITS, SpanFeatures, span_features
from kg.extractors.model.linear import LABELS, Linear, SpanModel, sigmoid
from kg.extractors.model.spans import candidate_ranges
from kg.text.keys import match_key
from kg.text.markup import strip_markup

L2 = 1.0
ITERATIONS = 150
THRESHOLD = 0.4  # entity probability to keep a span (best typed F1 in cross-validation folds)
# Older abstracts (before 2020) are annotated more densely than the model's shared threshold keeps: in 5-fold
# cross-validation on the 2013-18 gold, 0.3 gives typed F1 0.634 against 0.625 at 0.4 (0.25: 0.633,
# 0.35: 0.632), while 2026 abstracts do best at 0.4 (0.598; 0.3: 0.595, 0.45: 0.597; with the era feature
# 0.3 and 0.4 give 0.601 and 0.600).
OLDER_THRESHOLD = 0.3
RECENT_WEIGHT = 1.0  # weight of recent (2020 on) abstracts against older ones
# Log-odds added to the fitted type scores: the classifier under-predicts the rarer types (in cross-validation
# metric precision/recall 0.67/0.33 on 2026 abstracts and 0.65/0.41 on older ones, dataset 0.84/0.62 and
# 0.86/0.67, task 0.53/0.45 and 0.69/0.48); these offsets trade a little precision for recall on them.
TYPE_OFFSETS = {"dataset": 0.5, "task": 0.3, "metric": 1.0}


@dataclass(frozen=True)
class Example:
    """One paper's candidate spans: features, gold type index (0 = none), gold proposed flag, weight."""

    features: SpanFeatures
    labels: np.ndarray
    proposed: np.ndarray
    weight: float = 1.0


def gold_keys(entities: Iterable[dict]) -> dict[str, tuple[str, str]]:
    """Matching key of every gold name and alias -> (type, role); the first entity wins a shared key."""
    keys: dict[str, tuple[str, str]] = {}
    for entity in entities:
        for form in (entity["name"], *entity.get("aliases", ())):
            key = match_key(strip_markup(form).text)
            if key and key not in keys:
                keys[key] = (entity["type"], entity.get("role", "used"))
    return keys


def make_example(doc: Doc, context: DocContext, candidates: list[Candidate], combined: list[Candidate],
                 entities: Iterable[dict], weight: float = 1.0) -> Example:
    """A span is positive when its matching key is a gold name or alias of the paper (as `kg eval` matches)."""
    ranges = candidate_ranges(doc, candidates)
    gold = gold_keys(entities)
    found = [gold.get(match_key(span_text(doc, s, e))) for s, e in ranges]
    labels = np.array([LABELS.index(g[0]) if g else 0 for g in found], dtype=np.int64)
    proposed = np.array([bool(g) and g[1] == "proposed" for g in found])
    features = span_features(doc, ranges, candidates, context.abbreviations, combined, context.recent)
    return Example(features, labels, proposed, weight)


def train(examples: list[Example], l2: float = L2, iterations: int = ITERATIONS,
          threshold: float = THRESHOLD, older_threshold: float = OLDER_THRESHOLD) -> SpanModel:
    """Fit the type classifier on every span and the role classifier on the gold-entity spans."""
    x = design([e.features for e in examples])
    labels = np.concatenate([e.labels for e in examples])
    proposed = np.concatenate([e.proposed for e in examples]).astype(np.int64)
    weight = np.concatenate([np.full(len(e.labels), e.weight) for e in examples])
    types = with_offsets(fit(x, labels, len(LABELS), weight, l2, iterations), TYPE_OFFSETS)
    entity = labels > 0
    roles = fit(x[entity], proposed[entity], 1, weight[entity], l2, iterations)
    return SpanModel(types, roles, threshold, older_threshold)


def with_offsets(layer: Linear, offsets: dict[str, float]) -> Linear:
    """The layer with `offsets` added to the bias of the named types (a prior shift: P(type) * e**offset)."""
    bias = layer.bias + np.array([offsets.get(label, 0.0) for label in LABELS])
    return Linear(layer.sparse, bias)


def design(features: list[SpanFeatures]):
    """One sparse matrix (spans x hashed ids, counts) for many Docs' spans."""
    from scipy import sparse

    rows, cols, offset = [], [], 0
    for f in features:
        n, k = f.fixed.shape
        rows += [np.repeat(np.arange(n) + offset, k), f.rows + offset]
        cols += [f.fixed.ravel(), f.ids]
        offset += n
    rows_all, cols_all = np.concatenate(rows), np.concatenate(cols)
    matrix = sparse.csr_matrix((np.ones(len(rows_all)), (rows_all, cols_all)), shape=(offset, 1 << BITS))
    matrix.sum_duplicates()
    return matrix


def fit(x, y: np.ndarray, classes: int, weight: np.ndarray, l2: float = 1.0, iterations: int = 300) -> Linear:
    """Multinomial logistic regression (classes > 1) or binary (classes == 1, y in {0, 1})."""
    from scipy.optimize import minimize

    n = max(x.shape[0], 1)
    k = max(classes, 1)
    size = x.shape[1] * k
    target = np.eye(classes)[y] if classes > 1 else y.astype(np.float64)[:, None]
    xt = x.T.tocsr()

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:size].reshape(-1, k), theta[size:]
        z = x @ w + b
        if classes > 1:
            z = z - z.max(axis=1, keepdims=True)
            log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
            value = -(weight[:, None] * target * log_p).sum()
            delta = (np.exp(log_p) - target) * weight[:, None]
        else:
            p = sigmoid(z)
            value = -(weight[:, None] * (target * np.log(p + 1e-12) + (1 - target) * np.log(1 - p + 1e-12))).sum()
            delta = (p - target) * weight[:, None]
        value += 0.5 * l2 * (w * w).sum()
        grad = np.concatenate([(xt @ delta + l2 * w).ravel(), delta.sum(axis=0)])
        return value / n, grad / n

    theta = np.zeros(size + k)
    result = minimize(loss, theta, jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    theta = result.x
    return Linear(theta[:size].reshape(-1, k).astype(np.float32), theta[size:])
