"""The trained span model: scores every candidate span, keeps non-overlapping entities, types them per concept
and decides whether the paper proposes them. Plain numpy at run time; weights ship with the package."""
from __future__ import annotations

import hashlib
import io
import zipfile
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
from spacy.tokens import Doc

from kg.errors import UserError
from kg.registry import combiners
from kg.extraction.interface import Candidate, DocContext
from kg.extractors.combine import combine, group_keys
from kg.extractors.doccache import attrs, text as doc_text
from kg.extractors.features import BITS, span_features
from kg.extractors.linear import LABELS, Linear, sigmoid, softmax
from kg.extractors.spans import candidate_ranges

NAME = SPAN_MODEL = "span_model"
WEIGHTS = "weights/span_model.npz"
ARRAYS = ("types_sparse", "types_bias", "roles_sparse", "roles_bias", "threshold")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # fixed, so the same weights give the same bytes


class ModelError(UserError):
    """A missing or unreadable weights file."""


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
        older = self.older_threshold
        return self.threshold if context.recent or older is None else older


def default_path() -> Path:
    """The weights shipped in the package."""
    return Path(str(resources.files("kg.extractors").joinpath(WEIGHTS)))


def save_model(model: SpanModel, path: Path) -> None:
    """Write the weights as an .npz whose bytes depend only on the weights."""
    thresholds = [model.threshold] + ([model.older_threshold] if model.older_threshold is not None else [])
    values = (model.types.sparse, model.types.bias, model.roles.sparse, model.roles.bias, np.array(thresholds))
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, value in zip(ARRAYS, values):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=ZIP_DATE)
            info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(info, buffer.getvalue())


@lru_cache(maxsize=4)
def load_model(path: Path | None = None) -> SpanModel:
    """The weights at `path` (default: shipped), read once per process; ModelError names a bad file."""
    path = path or default_path()
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = [np.asarray(data[name]) for name in ARRAYS]
    except FileNotFoundError:
        raise ModelError(f"{path}: span model weights not found (run `kg train` to make them, or "
                         f"--extractors rules for the rules alone)") from None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{path}: not a span model weights file ({type(error).__name__}: {error})") from None
    types_sparse, types_bias, roles_sparse, roles_bias, threshold = arrays
    shapes = [(types_sparse.shape, (1 << BITS, len(LABELS))), (types_bias.shape, (len(LABELS),)),
              (roles_sparse.shape, (1 << BITS, 1)), (roles_bias.shape, (1,))]
    wrong = [f"{got} instead of {want}" for got, want in shapes if got != want]
    if wrong or threshold.shape not in ((1,), (2,)):
        raise ModelError(f"{path}: span model weights of the wrong shape ({', '.join(wrong) or 'threshold'})")
    return SpanModel(Linear(types_sparse, types_bias), Linear(roles_sparse, roles_bias),
                     float(threshold[0]), float(threshold[1]) if len(threshold) > 1 else None)


def weights_spec(weights: Path | None, version: str) -> tuple[tuple, str]:
    """(kwargs, version) of the extraction spec for a weights file: loaded now, so a bad file fails before
    the build starts; its digest joins the version, so the cache tells weights apart."""
    load_model(weights)
    if weights is None:
        return (), version
    return (("weights", str(weights)),), f"{version}+{hashlib.sha256(weights.read_bytes()).hexdigest()[:16]}"


def choose(ranges: list[tuple[int, int]], entity: np.ndarray, threshold: float) -> list[int]:
    """Indices of non-overlapping ranges scoring at least `threshold`, best first (ties: leftmost)."""
    taken: set[int] = set()
    chosen = []
    starts, ends = (np.array(x) for x in zip(*ranges)) if ranges else (np.zeros(0), np.zeros(0))
    keep = np.flatnonzero(entity >= threshold)
    for i in keep[np.lexsort((ends[keep], starts[keep], -entity[keep]))].tolist():
        start, end = ranges[i]
        if taken.isdisjoint(range(start, end)):
            taken.update(range(start, end))
            chosen.append(i)
    return sorted(chosen, key=ranges.__getitem__)


def decode(doc: Doc, context: DocContext, ranges: list[tuple[int, int]], probs: np.ndarray, proposed: np.ndarray,
           threshold: float) -> list[Candidate]:
    """Entity mentions: chosen spans, one type per concept (summed type probabilities over its mentions) and
    one role per concept (proposed when its most confident mention says so)."""
    a = attrs(doc)
    chosen = choose(ranges, 1.0 - probs[:, 0], threshold)
    spans = [(a.idx[ranges[i][0]], a.idx[ranges[i][1] - 1] + len(a.text[ranges[i][1] - 1])) for i in chosen]
    text = doc_text(doc)
    keys = group_keys(text, [Candidate(s, e, "method") for s, e in spans], context.abbreviations)
    type_sum: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(LABELS) - 1))
    role_max: dict[str, float] = defaultdict(float)
    for i, key in zip(chosen, keys):
        type_sum[key] += probs[i, 1:]
        role_max[key] = max(role_max[key], float(proposed[i]))
    return [Candidate(s, e, LABELS[1 + int(np.argmax(type_sum[k]))], "proposed" if role_max[k] >= 0.5 else "used",
                      round(float(1.0 - probs[i, 0]), 4), NAME)
            for (s, e), k, i in zip(spans, keys, chosen)]


def predict(model: SpanModel, doc: Doc, context: DocContext, candidates: list[Candidate],
            combined: list[Candidate]) -> list[Candidate]:
    """The model's mentions for one Doc, given the rule extractors' candidates and the rules' own choice."""
    ranges = candidate_ranges(doc, candidates)
    if not ranges:
        return []
    features = span_features(doc, ranges, candidates, context.abbreviations, combined, context.recent)
    probs = softmax(model.types.scores(features))
    proposed = sigmoid(model.roles.scores(features))[:, 0]
    return decode(doc, context, ranges, probs, proposed, model.threshold_of(context))


@combiners.register(SPAN_MODEL)
def make_span_model_combiner(model: SpanModel | None = None, weights: Path | None = None):
    """Factory: the span model as the combining stage (`model`, else the weights file, else the shipped weights);
    it reads the rules' own combined choice as one of its features."""
    chosen = model or load_model(weights)

    def combine_paper(doc: Doc, context: DocContext, candidates: list[Candidate]) -> list[Candidate]:
        combined = combine(candidates, doc_text(doc), context.abbreviations)
        return sorted(predict(chosen, doc, context, candidates, combined))

    return combine_paper
