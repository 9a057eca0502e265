"""The encoder as the default combiner: exact offsets, long abstracts read whole, one-line errors for bad weights."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kg.extractors import build_extract
from kg.types import Paper
from kg.extraction.interface import extract_paper


@pytest.fixture(scope="module")
def extract():
    """The default extraction step (the rules propose, the shipped encoder decides)."""
    return build_extract()


def mentions_of(parse, extract, abstract: str):
    doc, context = parse(abstract)
    return extract_paper(Paper("p", abstract), doc, context, extract).mentions


def test_mentions_point_at_their_words_in_the_original_abstract(parse, extract):
    abstract = ("We fine-tune **BERT** on the $\\mathrm{SQuAD}$ benchmark and evaluate ResNet-50 on ImageNet, "
                "reporting top-1 accuracy.")
    mentions = mentions_of(parse, extract, abstract)
    assert mentions and all(abstract[m.start:m.end] == m.text for m in mentions)
    assert {"ImageNet", "ResNet-50"} <= {m.text for m in mentions}


def test_a_long_abstract_is_read_to_its_end(parse, extract):
    filler = "The method is simple and the analysis of its behaviour is careful and thorough. " * 40
    abstract = filler + "Finally, we evaluate ResNet-50 on ImageNet."
    mentions = mentions_of(parse, extract, abstract)
    assert any(m.text == "ImageNet" and m.start > len(filler) for m in mentions)


def run_build(tmp_path, *options):
    listing = tmp_path / "in.txt"
    listing.write_text("Header\n\nWe evaluate ResNet-50 on ImageNet.\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "kg", "build", str(listing), "--out", str(tmp_path / "out"),
                           "--no-cache", *options], capture_output=True, text=True)


def test_missing_encoder_weights_are_one_line_and_the_fast_mode_still_builds(tmp_path):
    missing = tmp_path / "no-such-weights"
    result = run_build(tmp_path, "--weights", str(missing))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and str(missing) in result.stderr
    assert run_build(tmp_path, "--extractors", "fast").returncode == 0


@pytest.mark.parametrize("fold", ["5/5", "a/5", "1-5"])
def test_hold_out_must_name_a_fold(tmp_path, fold):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "g", "text": "We use ImageNet.", "entities": []}\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "kg", "train", str(gold), "--hold-out", fold, "--out",
                             str(tmp_path / "w.npz")], capture_output=True, text=True)
    assert result.returncode == 2 and "--hold-out" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.parametrize("scale", [1e-3, 1.0, 30.0])
def test_the_span_heads_cube_is_the_exactly_rounded_one(scale):
    """gelu's x³ is the float32 nearest the exact cube (the same on every CPU), not a SIMD power's approximation."""
    from fractions import Fraction

    import numpy as np

    from kg.extractors.encoder.model import cube

    x = (np.random.default_rng(7).standard_normal(2000) * scale).astype(np.float32)
    for value, result in zip(x, cube(x)):
        exact = Fraction(float(value)) ** 3
        error = abs(Fraction(float(result)) - exact)
        neighbours = (np.nextafter(result, np.float32(np.inf)), np.nextafter(result, np.float32(-np.inf)))
        assert all(error <= abs(Fraction(float(n)) - exact) for n in neighbours), value
