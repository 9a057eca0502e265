"""The span model's weights file: written byte-deterministically, read with one-line errors naming the file."""
from __future__ import annotations

import hashlib
import io
import zipfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from kg.errors import UserError
from kg.extractors.model.features import BITS
from kg.extractors.model.linear import LABELS, Linear, SpanModel

WEIGHTS = "weights/span_model.npz"  # shipped inside this package; regenerated with `kg train GOLD... --out
# extractors/model/weights/span_model.npz` in a checkout (README "The span model")
TRAINED = "span_model.npz"  # what `kg train` writes in the user's data folder when no --out is given
ARRAYS = ("types_sparse", "types_bias", "roles_sparse", "roles_bias", "threshold")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # fixed, so the same weights give the same bytes


class ModelError(UserError):
    """A missing or unreadable weights file."""


def default_path() -> Path:
    """The weights shipped in the package."""
    return Path(str(resources.files("kg.extractors.model").joinpath(WEIGHTS)))


def trained_path() -> Path:
    """Where `kg train` writes by default: the user's data folder (platformdirs), never the installed package."""
    import platformdirs

    return Path(platformdirs.user_data_dir("paperkg")) / TRAINED


def save_model(model: SpanModel, path: Path) -> None:
    """Write the weights as an .npz whose bytes depend only on the weights."""
    thresholds = [model.threshold] + ([model.older_threshold] if model.older_threshold is not None else [])
    values = (model.types.sparse, model.types.bias, model.roles.sparse, model.roles.bias, np.array(thresholds))
    write_arrays(dict(zip(ARRAYS, values)), path)


def write_arrays(arrays: dict[str, np.ndarray], path: Path) -> None:
    """An .npz of the arrays, in the dict's order, whose bytes depend only on the arrays (fixed zip dates)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, value in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=ZIP_DATE)
            info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(info, buffer.getvalue())


def load_model(path: Path | None = None) -> SpanModel:
    """The weights at `path` (default: shipped); ModelError names a missing or bad file. The file is read each
    time (a file rewritten in the same process is read anew), its arrays parsed once per content."""
    path = path or default_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ModelError(f"{path}: span model weights not found (run `kg train` to make them, or "
                         f"--extractors rules for the rules alone)") from None
    except OSError as error:
        raise ModelError(f"{path}: cannot read the span model weights ({error.strerror or error})") from None
    return parse_model(data, str(path))


@lru_cache(maxsize=4)
def parse_model(data: bytes, name: str) -> SpanModel:
    """The span model in the bytes of a weights file called `name` (for errors)."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = [np.asarray(archive[key]) for key in ARRAYS]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{name}: not a span model weights file ({type(error).__name__}: {error})") from None
    types_sparse, types_bias, roles_sparse, roles_bias, threshold = arrays
    shapes = [(types_sparse.shape, (1 << BITS, len(LABELS))), (types_bias.shape, (len(LABELS),)),
              (roles_sparse.shape, (1 << BITS, 1)), (roles_bias.shape, (1,))]
    wrong = [f"{got} instead of {want}" for got, want in shapes if got != want]
    if wrong or threshold.shape not in ((1,), (2,)):
        raise ModelError(f"{name}: span model weights of the wrong shape ({', '.join(wrong) or 'threshold'})")
    return SpanModel(Linear(types_sparse, types_bias), Linear(roles_sparse, roles_bias),
                     float(threshold[0]), float(threshold[1]) if len(threshold) > 1 else None)


def digest(path: Path) -> str:
    """A short digest of a weights file's bytes, or of a weights folder's manifest (which pins every file's
    sha256); it joins the extraction version, so the cache tells weights apart."""
    return hashlib.sha256((path / "manifest.json" if path.is_dir() else path).read_bytes()).hexdigest()[:16]
