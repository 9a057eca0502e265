"""Fitting the relation head (numpy + scipy's L-BFGS, no torch; deterministic), its cross-validation and the
per-relation thresholds chosen on out-of-fold predictions for precision."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kg.extractors.encoder.pairs import RELATIONS, SPARSE
from kg.extractors.encoder.relation_data import Examples
from kg.extractors.encoder.relation_head import RelationHead
from kg.quality.evaluate import PRF  # noqa: F401  (in Report's annotations)
from kg.extractors.model.crossval import fold_of

HIDDEN = 64  # width of the hidden layer (0: a linear head)
REDUCE = 16  # principal components kept of each dense block of the features
L2 = 3e-3  # weight decay per example
ITERATIONS = 300
TARGET_PRECISION = 0.8  # out-of-fold precision each relation's threshold must reach (the goal is 0.75 unseen)


@dataclass(frozen=True)
class Fit:
    """Out-of-fold probabilities of every example row, and the fold each row's paper is in."""

    probability: np.ndarray
    fold: np.ndarray


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and scale of each feature (scale 1 for constant ones)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    return mean, np.where(scale > 1e-6, scale, 1.0)


def projection(z: np.ndarray, reduce: int) -> np.ndarray:
    """(features, reduced) map keeping the sparse features and the first `reduce` principal components of each of
    the four dense blocks (head, tail, product, between) of standardised features; identity when reduce is 0."""
    d = (z.shape[1] - SPARSE) // 4
    if not reduce or d <= reduce:
        return np.eye(z.shape[1], dtype=np.float32)
    out = np.zeros((z.shape[1], 4 * reduce + SPARSE), dtype=np.float32)
    for block in range(4):
        part = z[:, block * d:(block + 1) * d].astype(np.float64)
        _, vectors = np.linalg.eigh(part.T @ part / len(part))
        vectors = vectors[:, ::-1][:, :reduce]
        vectors *= np.sign(vectors[np.abs(vectors).argmax(axis=0), np.arange(reduce)])  # a fixed sign per component
        out[block * d:(block + 1) * d, block * reduce:(block + 1) * reduce] = vectors
    out[4 * d:, 4 * reduce:] = np.eye(SPARSE, dtype=np.float32)
    return out


def fit(examples: Examples, rows: np.ndarray | None = None, hidden: int = HIDDEN, l2: float = L2,
        iterations: int = ITERATIONS, reduce: int = REDUCE) -> RelationHead:
    """The head fitted on the chosen rows (default all) by L-BFGS on the log-loss of each row's relation; the
    dense blocks enter through their principal components (folded into the first layer of the saved head)."""
    from scipy.optimize import minimize

    x, y = examples.x, examples.y
    column = np.array([RELATIONS.index(r) for r in examples.relation])
    if rows is not None:
        x, y, column = x[rows], y[rows], column[rows]
    mean, scale = standardise(x)
    full = ((x - mean) / scale).astype(np.float32)
    reducing = projection(full, reduce)
    z = full @ reducing
    n, d = z.shape
    k = len(RELATIONS)
    rng = np.random.default_rng(0)
    shapes = [(d, hidden), (hidden,), (hidden or d, k), (k,)]
    start = [rng.normal(0, 1 / np.sqrt(d), shapes[0]), np.zeros(hidden),
             rng.normal(0, 1 / np.sqrt(hidden or d), shapes[2]) * 0.1, np.zeros(k)]

    def unpack(theta: np.ndarray) -> list[np.ndarray]:
        parts, at = [], 0
        for shape in shapes:
            size = int(np.prod(shape))
            parts.append(theta[at:at + size].reshape(shape))
            at += size
        return parts

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w1, b1, w2, b2 = (part.astype(np.float32) for part in unpack(theta))
        if hidden:
            pre = z @ w1 + b1
            h = np.maximum(pre, 0)
        else:
            h = z
        out = h @ w2 + b2
        s = out[np.arange(n), column].astype(np.float64)
        p = 1 / (1 + np.exp(-s))
        value = np.sum(np.logaddexp(0, s) - y * s) / n + l2 / 2 * (np.sum(w1 ** 2) + np.sum(w2 ** 2))
        g_out = np.zeros(out.shape, dtype=np.float32)
        g_out[np.arange(n), column] = (p - y) / n
        g_w2, g_b2 = h.T @ g_out + l2 * w2, g_out.sum(axis=0)
        if hidden:
            g_h = g_out @ w2.T
            g_pre = g_h * (pre > 0)
            g_w1, g_b1 = z.T @ g_pre + l2 * w1, g_pre.sum(axis=0)
        else:
            g_w1, g_b1 = np.zeros(shapes[0]), np.zeros(shapes[1])
        return value, np.concatenate([g.ravel() for g in (g_w1, g_b1, g_w2, g_b2)]).astype(np.float64)

    theta = np.concatenate([s.ravel() for s in start])
    result = minimize(loss, theta, jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    w1, b1, w2, b2 = unpack(result.x)
    if hidden:
        w1 = reducing @ w1
    else:
        w2 = reducing @ w2
    return RelationHead(mean.astype(np.float32), scale.astype(np.float32), w1.astype(np.float32),
                        b1.astype(np.float32), w2.astype(np.float32), b2.astype(np.float32),
                        np.full(k, 0.5, dtype=np.float32))


def cross_fit(examples: Examples, folds: int = 5, **options) -> Fit:
    """Out-of-fold probabilities: each paper's rows scored by a head fitted on the other folds' papers."""
    fold = np.array([fold_of(p, folds) for p in examples.paper])
    probability = np.zeros(len(examples.y))
    for k in range(folds):
        head = fit(examples, np.flatnonzero(fold != k), **options)
        inside = np.flatnonzero(fold == k)
        probability[inside] = head.probabilities(examples.x[inside], [examples.relation[i] for i in inside])
    return Fit(probability, fold)


def choose_thresholds(examples: Examples, probability: np.ndarray, rows: np.ndarray,
                      target: float = TARGET_PRECISION) -> np.ndarray:
    """Per relation, the lowest threshold (0.300, 0.305, … 0.995) whose out-of-fold precision on `rows` reaches
    `target` with at least 5 pairs kept; where none does, the most precise one."""
    relation = np.array(examples.relation)
    chosen = []
    for name in RELATIONS:
        mine = rows[relation[rows] == name]
        best, best_precision = 0.995, -1.0
        for t in np.round(np.arange(0.300, 0.9951, 0.005), 3):
            kept = mine[probability[mine] >= t]
            if len(kept) < 5:
                break
            precision = float(examples.y[kept].mean())
            if precision >= target:
                best = float(t)
                break
            if precision > best_precision:
                best, best_precision = float(t), precision
        chosen.append(best)
    return np.array(chosen, dtype=np.float32)


def with_thresholds(head: RelationHead, threshold: np.ndarray) -> RelationHead:
    """The same head with other thresholds."""
    return RelationHead(head.mean, head.scale, head.hidden_w, head.hidden_b, head.out_w, head.out_b,
                        np.asarray(threshold, dtype=np.float32))





@dataclass(frozen=True)
class Report:
    """Cross-validated figures of a fitted head: out-of-fold P/R/F1 per relation, end to end (the extractor's
    mentions) and with the gold entities given, at the chosen thresholds."""

    thresholds: dict[str, float]
    end_to_end: dict[str, "PRF"]
    gold_entities: dict[str, "PRF"]
    pairs: int
    papers: int


def triples_above(examples: Examples, rows: np.ndarray, probability: np.ndarray,
                  threshold: np.ndarray) -> dict[str, list]:
    """Per paper, the (head keys, relation, tail keys) of the rows whose probability reaches their threshold."""
    found: dict[str, list] = {}
    for i in rows:
        if probability[i] >= threshold[RELATIONS.index(examples.relation[i])]:
            found.setdefault(examples.paper[i], []).append((examples.head[i], examples.relation[i], examples.tail[i]))
    return found


def cross_validated(examples: Examples, gold: dict[str, list], folds: int = 5,
                    calibrate: tuple[int, int] | None = None) -> tuple[np.ndarray, Report]:
    """Thresholds chosen on out-of-fold probabilities of the extractor's pairs (only those of the papers in fold
    K of N when `calibrate` is (K, N): the abstracts the encoder never saw), and the figures they give there."""
    from kg.quality.relation_scores import score_relations

    fit_ = cross_fit(examples, folds)
    source = np.array(examples.source)
    scored = np.array([calibrate is None or fold_of(p, calibrate[1]) == calibrate[0] for p in examples.paper])
    predicted, given = np.flatnonzero((source == "predicted") & scored), np.flatnonzero((source == "gold") & scored)
    threshold = choose_thresholds(examples, fit_.probability, predicted)
    gold = {p: g for p, g in gold.items() if calibrate is None or fold_of(p, calibrate[1]) == calibrate[0]}
    report = Report(dict(zip(RELATIONS, map(float, threshold))),
                    score_relations(triples_above(examples, predicted, fit_.probability, threshold), gold),
                    score_relations(triples_above(examples, given, fit_.probability, threshold), gold),
                    len(examples.y), len(gold))
    return threshold, report
