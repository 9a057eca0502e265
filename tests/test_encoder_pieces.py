"""Word pieces, windows and the mapping of character spans onto pieces (kg.extractors.encoder.pieces)."""
from __future__ import annotations

import numpy as np
import pytest

from kg.extractors.encoder.model import default_folder
from kg.extractors.encoder.pieces import CLS, SEP, Pieces, load_tokenizer, pieces_of, span_pieces, windows_of


@pytest.fixture(scope="module")
def tokenizer():
    """The shipped tokenizer (no truncation: the base model's file truncates at 128 pieces)."""
    return load_tokenizer(str(default_folder() / "tokenizer.json"))


@pytest.mark.parametrize("n, size", [(0, 8), (5, 8), (8, 8), (9, 8), (30, 8), (1000, 384)])
def test_windows_cover_every_piece_and_never_exceed_the_size(n, size):
    windows = windows_of(n, size)
    covered = {i for start, end in windows for i in range(start, end)}
    assert covered == set(range(n))
    assert all(end - start <= size for start, end in windows)
    assert len({end - start for start, end in windows}) == 1  # one length: a batch is never padded


def test_each_piece_is_read_from_the_window_where_it_is_most_central():
    pieces = Pieces(np.arange(20), np.zeros((20, 2), dtype=np.int64), windows_of(20, 8))
    row, pos = pieces.owners()
    ids, mask = pieces.batch()
    assert mask.all() and (ids[:, 0] == CLS).all() and (ids[:, -1] == SEP).all()
    assert (ids[row, pos] == pieces.ids).all()  # the state at (row, pos) is the piece's own
    for i in range(20):
        start, end = pieces.windows[row[i]]
        margin = min(i - start, end - 1 - i)
        assert all(margin >= min(i - s, e - 1 - i) for s, e in pieces.windows if s <= i < e)


def test_long_abstracts_are_read_whole_in_overlapping_windows(tokenizer):
    text = " ".join(f"word{i} alpha beta" for i in range(400))
    pieces = pieces_of(tokenizer, text)
    assert len(pieces.ids) > 1000 and len(pieces.windows) > 2
    assert pieces.offsets[-1, 1] == len(text)  # nothing truncated


@pytest.mark.parametrize("text, name", [
    ("We train ResNet-50 on ImageNet.", "ResNet-50"),
    ("Évaluation on the Café-Net corpus.", "Café-Net"),
    ("Results on $\\alpha$-Mix and CIFAR-10.", "CIFAR-10"),
    ("A 😀 emoji before BERT-large here.", "BERT-large"),
])
def test_character_spans_map_to_the_pieces_that_spell_them(tokenizer, text, name):
    start = text.index(name)
    pieces = pieces_of(tokenizer, text)
    (first, last), = span_pieces(pieces, np.array([[start, start + len(name)]]))
    assert pieces.offsets[first, 0] == start and pieces.offsets[last, 1] == start + len(name)


def test_a_span_over_no_piece_is_marked(tokenizer):
    pieces = pieces_of(tokenizer, "alpha    beta")
    assert span_pieces(pieces, np.array([[6, 8]])).tolist() == [[-1, -1]]
    assert span_pieces(pieces_of(tokenizer, ""), np.array([[0, 1]])).tolist() == [[-1, -1]]
