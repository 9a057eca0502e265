"""The fine-tuned encoder at run time: ONNX word-piece states (onnxruntime, no torch) and the span head in numpy."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from kg.errors import UserError
from kg.extractors.encoder.relation_head import RelationHead, read_head as read_relation_head
from kg.extractors.encoder.pieces import Pieces, load_tokenizer, pieces_of, span_pieces
from kg.extractors.model.features import SpanFeatures
from kg.extractors.model.linear import Linear, SpanModel, sigmoid, softmax
from kg.extractors.model.weights import load_model

FILES = ("encoder.onnx", "head.npz", "tokenizer.json")  # with manifest.json: every file's sha256
LINEAR = "linear.npz"  # optional: a linear span model whose probabilities are blended in (weight 1 - blend)
RELATIONS = "relations.npz"  # optional: the relation head over the same states (kg.extractors.encoder.relations)
OPTIONAL = (LINEAR, RELATIONS)  # read only when the manifest lists them
HEAD = ("width", "hidden_w", "hidden_b", "out_w", "out_b", "sparse", "offsets", "threshold", "blend")
THREADS = 1  # onnxruntime intra-op threads: one per process keeps scores identical across --jobs and Dask
# onnxruntime's u8 x s8 int8 kernels on x86-64 without AVX-512 VNNI (AVX2, AVX-512 alone) add pairs of products
# in 16 bits, which saturate (255 * 127 * 2 > 32767): this entry makes them convert the weights to u8 and use
# exact u8 x u8 kernels there; CPUs with VNNI (exact already) are left as they are. scripts/cross_cpu.py checks it.
PRECISION = {"session.x64quantprecision": "1"}


class EncoderError(UserError):
    """Missing, unreadable or altered encoder weights."""


@dataclass(frozen=True)
class Head:
    """The span head: width embedding, one hidden layer, type + role outputs, a sparse linear term."""

    width: np.ndarray
    hidden_w: np.ndarray
    hidden_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    sparse: Linear | None
    offsets: np.ndarray  # log-odds added to the six type scores (calibration for the rarer types)
    threshold: np.ndarray  # entity probability to keep a span: recent, older abstracts
    blend: float = 1.0  # weight of the encoder's probabilities against the linear model's

    def scores(self, states: np.ndarray, spans: np.ndarray, features: SpanFeatures | None) -> np.ndarray:
        """(n, 7) logits of spans given as (first, last) piece indices (all valid)."""
        first, last = spans[:, 0], spans[:, 1]
        total = np.concatenate([np.zeros((1, states.shape[1]), states.dtype), np.cumsum(states, axis=0)])  # float32
        mean = (total[last + 1] - total[first]) / (last - first + 1).astype(states.dtype)[:, None]
        width = self.width[np.minimum(last - first, len(self.width) - 1)]
        x = np.concatenate([states[first], states[last], mean, width], axis=1)
        z = gelu(x @ self.hidden_w + self.hidden_b) @ self.out_w + self.out_b
        if self.sparse is not None and features is not None:
            z = z + self.sparse.scores(features)
        return z


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU, tanh approximation (as trained)."""
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * cube(x))))


def cube(x: np.ndarray) -> np.ndarray:
    """x³ of a float32 array, rounded once to float32: products in float64 (x² is exact there) instead of numpy's
    float32 `power`, whose AVX-512 loop (chosen by the CPU) differs from the rounded cube in about 1 of 10 values
    and cost 3.8 of the span head's 5 ms per abstract (issue 33)."""
    y = x.astype(np.float64)
    return (y * y * y).astype(x.dtype)


@dataclass(frozen=True)
class Encoder:
    """An onnxruntime session over the fine-tuned encoder, its tokenizer and the span head."""

    session: object
    tokenizer: object
    head: Head
    digest: str  # of the manifest: names these weights in cache keys
    linear: SpanModel | None = None
    relations: RelationHead | None = None  # the relation head trained on these states, if the folder has one

    def pieces(self, text: str) -> Pieces:
        """The word pieces of a text, in windows."""
        return pieces_of(self.tokenizer, text)

    def states(self, pieces: Pieces) -> np.ndarray:
        """(pieces, d) contextual states, each from the window where the piece is most central. Each window is
        its own run, so a window's states never depend on the other windows (dynamic int8 quantisation scales
        activations per run) and memory stays bounded by one window however long the abstract."""
        if not len(pieces.ids):
            return np.zeros((0, (self.head.hidden_w.shape[0] - self.head.width.shape[1]) // 3), dtype=np.float32)
        ids, _ = pieces.batch()  # windows are never padded: one window, or several of the same length
        out = np.concatenate([self.session.run(None, {"input_ids": ids[row:row + 1]})[0] for row in range(len(ids))])
        row, pos = pieces.owners()
        return out[row, pos]

    def encode(self, text: str) -> "Encoded":
        """The word pieces of a text and their states (one encoder pass per window)."""
        pieces = self.pieces(text)
        return Encoded(pieces, self.states(pieces))

    def predict(self, text: str, chars: np.ndarray, features: SpanFeatures | None,
                encoded: "Encoded | None" = None) -> tuple[np.ndarray, np.ndarray]:
        """(type probabilities (n, 6), proposed probabilities (n,)) of character spans of `text` (`encoded`: its
        pieces and states when already computed)."""
        encoded = encoded or self.encode(text)
        spans = span_pieces(encoded.pieces, chars)
        probs = np.tile(np.eye(6)[0], (len(spans), 1))
        proposed = np.zeros(len(spans))
        valid = spans[:, 0] >= 0
        if valid.any():
            z = self.head.scores(encoded.states, spans, features)
            probs[valid] = softmax(z[valid, :6] + self.head.offsets)
            proposed[valid] = sigmoid(z[valid, 6])
        if self.linear is not None and features is not None:
            w = self.head.blend
            probs = w * probs + (1 - w) * softmax(self.linear.types.scores(features))
            proposed = w * proposed + (1 - w) * sigmoid(self.linear.roles.scores(features))[:, 0]
        return probs, proposed


@dataclass(frozen=True)
class Encoded:
    """One text's word pieces and their contextual states: what the span and relation heads read."""

    pieces: Pieces
    states: np.ndarray  # (pieces, d) float32


def default_folder() -> Path:
    """The weights shipped in the package."""
    return Path(str(resources.files("kg.extractors.encoder").joinpath("weights")))


def verify(folder: Path) -> str:
    """The manifest's digest, after checking every file against the sha256 it records (EncoderError if not)."""
    manifest = folder / "manifest.json"
    try:
        recorded = json.loads(manifest.read_text(encoding="utf-8"))["sha256"]
    except FileNotFoundError:
        raise EncoderError(f"{manifest}: encoder weights not found (run `kg train --encoder`, or use "
                           f"--extractors fast for the linear model)") from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise EncoderError(f"{manifest}: not an encoder manifest ({type(error).__name__}: {error})") from None
    for name in FILES + tuple(name for name in OPTIONAL if name in recorded):
        path = folder / name
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as error:
            raise EncoderError(f"{path}: cannot read encoder weights ({error.strerror or error})") from None
        if digest != recorded.get(name):
            raise EncoderError(f"{path}: sha256 {digest[:16]}… does not match the manifest "
                               f"({str(recorded.get(name))[:16]}…): a corrupt or replaced file")
    return hashlib.sha256(manifest.read_bytes()).hexdigest()


def read_head(path: Path) -> Head:
    """The span head of a head.npz."""
    try:
        with np.load(path, allow_pickle=False) as data:
            a = {name: np.asarray(data[name], dtype=np.float32) for name in HEAD if name in data}
    except (OSError, ValueError, KeyError, EOFError) as error:
        raise EncoderError(f"{path}: not an encoder head ({type(error).__name__}: {error})") from None
    missing = [n for n in HEAD if n not in a and n not in ("sparse", "blend")]
    if missing:
        raise EncoderError(f"{path}: not an encoder head (missing {', '.join(missing)})")
    sparse = Linear(a["sparse"], np.zeros(a["sparse"].shape[1])) if "sparse" in a else None
    return Head(a["width"], a["hidden_w"], a["hidden_b"], a["out_w"], a["out_b"], sparse, a["offsets"],
                a["threshold"], float(a["blend"].reshape(-1)[0]) if "blend" in a else 1.0)


def optional_files(folder: Path) -> tuple[str, ...]:
    """The optional weights files of a verified folder: those its manifest lists (an unlisted one is an error,
    never read silently: its content would not be pinned nor part of the cache key)."""
    recorded = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["sha256"]
    for name in OPTIONAL:
        if (folder / name).exists() and name not in recorded:
            raise EncoderError(f"{folder / name}: not listed in {folder / 'manifest.json'} (remove it, or rewrite "
                               f"the manifest with kg train)")
    return tuple(name for name in OPTIONAL if name in recorded)


def session_options() -> "onnxruntime.SessionOptions":
    """The encoder's onnxruntime session options: one thread, sequential, exact int8 sums on every CPU."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = THREADS
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    for key, value in PRECISION.items():
        options.add_session_config_entry(key, value)
    return options


@lru_cache(maxsize=4)
def _load(folder: Path, digest: str) -> Encoder:
    try:
        import onnxruntime
    except ImportError as error:
        raise EncoderError(f"onnxruntime cannot be imported ({error}); reinstall paperkg, or use --extractors "
                           f"fast for the linear model") from None

    try:
        session = onnxruntime.InferenceSession(str(folder / "encoder.onnx"), session_options(),
                                               providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types for a bad model file
        raise EncoderError(f"{folder / 'encoder.onnx'}: not a loadable ONNX model ({error})") from None
    try:
        tokenizer = load_tokenizer(str(folder / "tokenizer.json"))
    except Exception as error:  # tokenizers raises a bare Exception for a bad file
        raise EncoderError(f"{folder / 'tokenizer.json'}: not a tokenizer ({error})") from None
    listed = optional_files(folder)
    linear = load_model(folder / LINEAR) if LINEAR in listed else None
    relations = read_relation_head(folder / RELATIONS) if RELATIONS in listed else None
    return Encoder(session, tokenizer, read_head(folder / "head.npz"), digest, linear, relations)


def load_encoder(folder: Path | None = None) -> Encoder:
    """The encoder in `folder` (default: shipped), verified against its manifest, loaded once per process and
    per content (a rewritten folder is read again)."""
    folder = (folder or default_folder()).resolve()
    return _load(folder, verify(folder))


def write_manifest(folder: Path, base_digest: str) -> Path:
    """The manifest pinning the sha256 of every weights file in `folder`."""
    names = FILES + tuple(name for name in OPTIONAL if (folder / name).exists())
    digests = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in names}
    manifest = {"base": "sentence-transformers/all-MiniLM-L6-v2", "base_sha256": base_digest, "sha256": digests}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return folder
