"""Proposal cues and the combiner's roles on invented sentences."""
from __future__ import annotations

import pytest

from kg.extractors import build_extract


@pytest.fixture(scope="module")
def extract():
    return build_extract(("rules",))  # the rules alone: these tests check their behaviour


def roles(parse, extract, text: str) -> dict[str, str]:
    doc, context = parse(text)
    mentions, *_ = extract(doc, context)
    return {doc.text[m.start:m.end]: m.role for m in mentions}


@pytest.mark.parametrize("text, name", [
    ("We propose FlurbNet, a network for crater detection.", "FlurbNet"),
    ("In this paper we introduce the Wobble benchmark for robot planning.", "Wobble"),
    ("We call this procedure Quiet Gradient Folding.", "Quiet Gradient Folding"),
    ("This work presents \\textbf{Tandem Sketch Attention} for long videos.", "Tandem Sketch Attention"),
    ("We propose two metrics: Crater Overlap Score and Rim Distance Error.", "Rim Distance Error"),
    ("We release **Marsh-bench** with 300 tasks.", "Marsh-bench"),
    ("We refer to these directions as folded probe vectors.", "folded probe vectors"),
    ("We propose Zorbo, a crater mapper. Zorbo incorporates two components: (1) a Quill Folding mechanism "
     "that removes noise, and (2) a Lantern Routing strategy that spreads experts.", "Lantern Routing"),
    ("We present Zorbo. Zorbo consists of a Quill Folding module and a Lantern Routing head.", "Quill Folding"),
    ("Our model comprises a Quill Folding encoder and a rim decoder.", "Quill Folding encoder"),
])
def test_proposed(parse, extract, text, name):
    assert roles(parse, extract, text).get(name) == "proposed"


@pytest.mark.parametrize("text, name", [
    ("We fine-tune GPT-4o on ImageNet with LoRA.", "LoRA"),
    ("Many methods such as FlurbNet have been proposed for crater detection.", "FlurbNet"),
    ("We propose a new loss and compare it with BERT.", "BERT"),
    ("Across baselines, including Tangle Drift and Glim-Max, we find that errors grow.", "Glim-Max"),
    ("Results are reported for remote sensing models (denoted as RS Nets) below.", "RS Nets"),
    ("We propose Zorbo for crater mapping. The FlurbNet model comprises a Quill Folding module.", "Quill Folding"),
])
def test_used(parse, extract, text, name):
    assert roles(parse, extract, text).get(name) == "used"


def test_emphasised_clause_is_not_a_name(parse, extract):
    found = roles(parse, extract, "Steering **consistently flips the observed behavior** in every model.")
    assert "consistently flips the observed behavior" not in found


@pytest.mark.parametrize("text, word", [
    ("This paper further studies the representation \\emph{hierarchy} of melodies.", "hierarchy"),
    ("The error decreases with a \\emph{polynomial time} budget of queries.", "polynomial time"),
])
def test_lower_case_stress_is_not_a_name(parse, extract, text, word):
    assert word not in roles(parse, extract, text)


def test_lower_case_emphasis_where_authors_present_is_a_name(parse, extract):
    found = roles(parse, extract, "We call this effect *crater drift* and measure it on ZorbNet.")
    assert found.get("crater drift") == "proposed"
