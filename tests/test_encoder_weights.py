"""The encoder's weights: pinned by a manifest, refused with one line when missing, corrupt or replaced."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from kg.extractors.encoder.model import EncoderError, default_folder, load_encoder, verify


@pytest.fixture
def weights(tmp_path):
    """A copy of the shipped weights folder, to damage."""
    return shutil.copytree(default_folder(), tmp_path / "weights")


def unlist(folder, name: str) -> None:
    """Drop a file from the folder's manifest (as an older export without it would have)."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    del manifest["sha256"][name]
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_the_shipped_weights_match_their_manifest_and_stay_small():
    verify(default_folder())
    assert sum(p.stat().st_size for p in default_folder().iterdir()) <= 30e6


@pytest.mark.parametrize("damage, message", [
    (lambda f: (f / "manifest.json").unlink(), "encoder weights not found"),
    (lambda f: (f / "manifest.json").write_text("{", encoding="utf-8"), "not an encoder manifest"),
    (lambda f: (f / "encoder.onnx").unlink(), "encoder.onnx: cannot read"),
    (lambda f: (f / "head.npz").write_bytes(b"PK\x03\x04 truncated"), "head.npz: sha256"),
    (lambda f: (f / "tokenizer.json").write_text("{}", encoding="utf-8"), "tokenizer.json: sha256"),
    (lambda f: shutil.copyfile(f / "head.npz", f / "linear.npz"), "linear.npz: sha256"),
    (lambda f: (unlist(f, "linear.npz"), shutil.copyfile(f / "head.npz", f / "linear.npz")),
     "linear.npz: not listed in"),
])
def test_damaged_weights_are_refused_naming_the_file(weights, damage, message):
    damage(weights)
    with pytest.raises(EncoderError, match=message) as caught:
        load_encoder(weights)
    assert "\n" not in str(caught.value) and str(weights) in str(caught.value)


def test_a_rewritten_folder_is_read_again(weights):
    first = load_encoder(weights)
    assert load_encoder(weights) is first  # loaded once per process and content
    (weights / "manifest.json").write_text((weights / "manifest.json").read_text().replace("\n}", ", \"x\": 1\n}"))
    assert load_encoder(weights) is not first


def test_scores_are_probabilities_and_spans_without_pieces_score_none():
    encoder = load_encoder()
    text = "We fine-tune BERT on SQuAD and report F1."
    chars = np.array([[13, 17], [21, 26], [38, 40], [3, 3]])
    probs, proposed = encoder.predict(text, chars, None)
    assert probs.shape == (4, 6) and np.allclose(probs.sum(axis=1), 1.0)
    assert ((0 <= proposed) & (proposed <= 1)).all()
    assert probs[3].tolist() == [1.0, 0, 0, 0, 0, 0] and proposed[3] == 0.0
    again, _ = encoder.predict(text, chars, None)
    assert (again == probs).all()  # one thread, same scores


def test_a_window_s_states_depend_only_on_its_own_pieces():
    encoder = load_encoder()
    sentence = "We train a small network on images and report its accuracy. "
    text = sentence * 60
    pieces = encoder.pieces(text)
    assert len(pieces.windows) >= 3
    changed = encoder.pieces(text[: -len(sentence)] + "Results on Qux-10 improve BLEU by a wide margin. ")
    first = np.flatnonzero(pieces.owners()[0] == 0)
    assert np.array_equal(pieces.ids[first], changed.ids[first]) and pieces.windows[0] == changed.windows[0]
    before, after = encoder.states(pieces), encoder.states(changed)
    assert np.array_equal(before[first], after[first])  # the first window never saw the changed last one
