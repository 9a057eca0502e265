"""Write a fine-tuned span scorer as run-time weights: int8 ONNX encoder, numpy head, tokenizer, manifest."""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch import nn

from kg.extractors.encoder.model import FILES, HEAD, LINEAR, RELATIONS, write_manifest  # noqa: F401  (re-exported)
from kg.extractors.encoder.training import SpanScorer
from kg.extractors.model.linear import SpanModel
from kg.extractors.model.weights import save_model, write_arrays

OPSET = 17


class States(nn.Module):
    """The encoder as ONNX sees it: word-piece ids of unpadded windows -> last-layer states."""

    def __init__(self, bert: nn.Module):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        h = self.bert.embeddings(input_ids=input_ids, token_type_ids=torch.zeros_like(input_ids))
        for layer in self.bert.encoder.layer:
            h = layer(h)
        return h


def export_onnx(bert: nn.Module, path: Path) -> None:
    """The encoder as an int8 dynamically quantised ONNX model, weights per output channel (the states keep a
    cosine of 0.99 to the fp32 model's, against 0.94 per tensor; the eager attention exports exactly)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    bert.set_attn_implementation("eager")  # sdpa's traced mask logic exports wrongly; eager is exact
    example = torch.ones((1, 16), dtype=torch.int64)
    with tempfile.TemporaryDirectory(prefix="paperkg-onnx-") as folder:
        fp32 = Path(folder) / "fp32.onnx"
        torch.onnx.export(States(bert).eval(), (example,), str(fp32), input_names=["input_ids"],
                          output_names=["states"], opset_version=OPSET, dynamo=False,
                          dynamic_axes={"input_ids": {0: "windows", 1: "pieces"},
                                        "states": {0: "windows", 1: "pieces"}})
        quantize_dynamic(str(fp32), str(path), weight_type=QuantType.QInt8, per_channel=True)


def head_arrays(model: SpanScorer, offsets: np.ndarray, thresholds: tuple[float, float],
                blend: float = 1.0) -> dict[str, np.ndarray]:
    """The span head's weights as numpy arrays (the sparse rows as float16: half the size, same decisions)."""
    arrays = {"width": model.width.weight, "hidden_w": model.hidden.weight.T, "hidden_b": model.hidden.bias,
              "out_w": model.out.weight.T, "out_b": model.out.bias}
    found = {k: v.detach().numpy().astype(np.float32) for k, v in arrays.items()}
    if model.sparse is not None:
        found["sparse"] = model.sparse.weight.detach().numpy().astype(np.float16)
    found["offsets"] = np.asarray(offsets, dtype=np.float32)
    found["threshold"] = np.asarray(thresholds, dtype=np.float32)
    found["blend"] = np.asarray([blend], dtype=np.float32)
    return found


def write_npz(arrays: dict[str, np.ndarray], path: Path) -> None:
    """The head's arrays in HEAD order, byte-deterministically."""
    write_arrays({name: arrays[name] for name in HEAD if name in arrays}, path)


def write_weights(model: SpanScorer, folder: Path, tokenizer: Path, offsets: np.ndarray,
                  thresholds: tuple[float, float], base_digest: str, linear: SpanModel | None = None,
                  blend: float = 1.0) -> Path:
    """Write the run-time weights into `folder` (and the linear model blended in, if any) and the manifest that
    pins each file's sha256."""
    folder.mkdir(parents=True, exist_ok=True)
    export_onnx(model.encoder, folder / "encoder.onnx")
    write_npz(head_arrays(model, offsets, thresholds, blend), folder / "head.npz")
    if tokenizer.resolve() != (folder / "tokenizer.json").resolve():
        shutil.copyfile(tokenizer, folder / "tokenizer.json")
    if linear is not None:
        save_model(half(linear), folder / LINEAR)
    elif (folder / LINEAR).exists():
        (folder / LINEAR).unlink()
    if (folder / RELATIONS).exists():  # trained on the old states: kg train --relations fits it again
        (folder / RELATIONS).unlink()
    return write_manifest(folder, base_digest)


def half(model: SpanModel) -> SpanModel:
    """The linear model with its sparse rows in float16 (half the bytes; its scores move by about 1e-3)."""
    types, roles = model.types, model.roles
    return replace(model, types=replace(types, sparse=types.sparse.astype(np.float16)),
                   roles=replace(roles, sparse=roles.sparse.astype(np.float16)))
