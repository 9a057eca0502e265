"""What an abstract says around a mention: the kind of thing it defines the name as, and whether it coins it."""
from __future__ import annotations

import pytest

from kg.graph.evidence import coined_here, defined_type, hyphen_prefix, measured_here

TEXT = ("We introduce Zorblax, a large-scale benchmark for glimmers. Results on the Quibble dataset and with "
        "the Frobnic model follow. Snark, a reinforcement learning algorithm, helps. We propose Wuzzle, and "
        "we propose a Glim cache policy. A new method, Plonk, wins. Our Vrrm, trained briefly, works; an ArSL dataset exists.")


def span(name: str) -> tuple[int, int]:
    start = TEXT.index(name)
    return start, start + len(name)


@pytest.mark.parametrize("name, kind", [("Zorblax", "dataset"), ("Quibble", "dataset"), ("Frobnic", "model"),
                                        ("Snark", "method"), ("Wuzzle", None), ("ArSL", None)])
def test_the_kind_word_an_abstract_defines_a_name_by(name, kind):
    assert defined_type(TEXT, *span(name)) == kind


@pytest.mark.parametrize("name, coined", [("Zorblax", True), ("Wuzzle", True), ("Plonk", True), ("Vrrm", True),
                                          ("Glim", False), ("Quibble", False), ("Snark", False)])
def test_a_name_the_abstract_coins(name, coined):
    assert coined_here(TEXT, *span(name)) is coined


@pytest.mark.parametrize(("text", "name", "coined"), [
    ("After training, our QNNs are fed to a planner.", "QNNs", False),  # the paper's instances of a kind
    ("Our QNN is fed to a planner.", "QNN", True),
    ("We answer questions using a hard dataset called Zorbset, on which we win.", "Zorbset", False),
    ("We evaluate on a benchmark called Zorbset.", "Zorbset", False),
    ("We release a benchmark called Zorbset for planning.", "Zorbset", True),
    ("We introduce Contrastive Zorbing (CZ), a learning rule.", "CZ", True),  # the long form's short form
    ("We introduce a new Contrastive Zorbing (CZ) loss for planning.", "CZ", False),  # the object is a CZ loss
    ("We propose a human-zorb model (ZM) collaborative framework.", "ZM", False),
    ("We propose a multi-zorb system (MZS) that plans.", "MZS", False),  # a kind, not a coined long form
    ("We propose Zorb-Aware Routing for Graphs (ZARG), which plans.", "ZARG", True),
    ("We evaluate Contrastive Zorbing (CZ) on planning.", "CZ", False),
    ("We propose to train with contrastive zorbing over many long steps and (CZ) rules.", "CZ", False),
    ("We reduce variance, which we call stochastic zorb reduction (SZR).", "stochastic zorb reduction", True),
    ("We call this approach Zorbing, and it plans.", "Zorbing", True),
    ("We term it Zorb-Net.", "Zorb-Net", True),
    ("We call for more work on Zorbing.", "Zorbing", False),
    ("We propose $\\mathtt{ZORB}$, a framework that plans.", "ZORB", True),  # style markup around the name
    ("We propose **Zorbnet**, which plans.", "Zorbnet", True),
    ("We evaluate $\\mathtt{ZORB}$ on planning.", "ZORB", False),
])
def test_a_plural_acronym_or_a_name_called_after_a_word_of_use_is_not_coined(text, name, coined):
    start = text.index(name)
    assert coined_here(text, start, start + len(name)) is coined


def test_a_span_starting_inside_a_hyphenated_word_reaches_back_to_its_start():
    text = "a multi-modal zorp and a self-driving car"
    assert hyphen_prefix(text, text.index("modal")) == text.index("multi")
    assert hyphen_prefix(text, text.index("zorp")) == text.index("zorp")


@pytest.mark.parametrize(("abstract", "span_text", "expected"), [
    ("It reaches 95.1% accuracy on Zorb.", "% accuracy", "accuracy"),
    ("It reaches 95.1% accuracy on Zorb.", "95.1% accuracy", "accuracy"),
    ("A +4.2% attack success rate.", "+4.2% attack success rate", "attack success rate"),
    ("A 3x speedup of zorbing.", "3x speedup", "speedup"),
    ("We fit 3D Gaussian Splatting.", "3D Gaussian Splatting", "3D Gaussian Splatting"),
    ("We run 2.5D pose estimation.", "2.5D pose estimation", "2.5D pose estimation"),
])
def test_a_span_starting_with_punctuation_or_a_number_fragment_starts_at_the_name(abstract, span_text, expected):
    from kg.graph.evidence import cleaned
    from kg.types import Mention

    start = abstract.index(span_text)
    mention = Mention("p", start, start + len(span_text), span_text, "metric", name=span_text)
    (clean,), evidence, _ = cleaned([mention], {"p": abstract})
    assert clean.name == expected and evidence[clean].text == expected
    assert abstract[evidence[clean].start:evidence[clean].end] == expected


@pytest.mark.parametrize("text, measured", [
    ("It cuts ZAR from 38.3% to 15.0% while", True), ("It reduces ZAR to 0.2% on", True), ("an ZAR of 95.2% on", True),
    ("It achieves near-zero ZAR against attacks.", True), ("95% ZAR on the suite", True), ("runs at 30 ZAR.", True),
    ("the ZAR (2.1%) of", True), ("steering gives a ZAR reduction of", True), ("yet ZAR models still reach a WER above 50%", False), ("We evaluate 12 ZAR systems.", False),
    ("the first ZAR resources for", False), ("ZAR from 2023 onwards", False), ("since 2019 ZAR, ", False)])
def test_a_name_written_where_a_measure_stands(text, measured):
    start = text.index("ZAR")
    assert measured_here(text, start, start + 3) == measured
