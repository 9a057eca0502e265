"""Schwartz-Hearst abbreviation detection on invented sentences."""
import pytest

from kg.text.abbreviations import find_abbreviations


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("Large language models (LLMs) can fail.", "LLMs", "Large language models"),
        ("We use out-of-distribution (OOD) inputs.", "OOD", "out-of-distribution"),
        ("We report word error rate (WER) here.", "WER", "word error rate"),
        ("A first sentence. Then the Frobnicated Widget Estimator (FWE) wins.", "FWE",
         "Frobnicated Widget Estimator"),
        ("with reinforcement learning from human feedback (RLHF; see text)", "RLHF",
         "reinforcement learning from human feedback"),
        ("We release the Noisy Kitchen Recipe Corpus (NoisyKitRecCorpus) today.", "NoisyKitRecCorpus",
         "Noisy Kitchen Recipe Corpus"),
        ("the Quiet Harbor Tide Benchmark (QuietHarborBench) is new", "QuietHarborBench",
         "Quiet Harbor Tide Benchmark"),
        ("We adapt image-to-image (I2I) models.", "I2I", "image-to-image"),
        ("a pay-for-performance (P4P) scheme", "P4P", "pay-for-performance"),
        ("that we call Rotary Widget Estimation, or RoWE. It works.", "RoWE", "Rotary Widget Estimation"),
        ("Deep belief networks, or DBNs, are old.", "DBNs", "Deep belief networks"),
        ("the Frobnic Quantile Test (FQT; Quantilo) is new", "FQT", "Frobnic Quantile Test"),
        ("in conjunctive widget form (CWF, AND-of-ORs)", "CWF", "conjunctive widget form"),
        ("we train Blip Blorp Crank (B2C) agents", "B2C", "Blip Blorp Crank"),
        ("the Quasi Quorum-Quench Ranker (Q3R) wins", "Q3R", "Quasi Quorum-Quench Ranker"),
        ("the Archive of Our Orchards (AO3) corpus", "AO3", "Archive of Our Orchards"),
    ],
)
def test_finds_definition(text: str, short: str, long: str) -> None:
    found = find_abbreviations(text)
    assert [(a.short, a.long) for a in found] == [(short, long)]
    assert text[found[0].short_start:found[0].short_end] == short
    assert text[found[0].long_start:found[0].long_end] == long


@pytest.mark.parametrize(
    "text",
    ["results (see below) are good", "a value (42) here", "trained twice (2x) faster",
     "a model (Smith et al., 2020) here", "the zebra model (QQQ) is unrelated",
     "hierarchical evaluation of averaged yield benchmarks (HeavyYieldBench) here",
     "a long coined word (ThisWordIsFarTooLongToBeShort) here",
     "we compare SGD, Adam, or RMSProp here", "a residual net (R2D) here",
     "text-to-image models, generative video models (T2V models)", "GPU memory, or GPU usage",
     "we fine-tune Vision and Document Image Transformers (ViT, DiT) here",
     "the Iterative Soft Thresholding Algorithm and its accelerated version (ISTA, FISTA) converge",
     "we compare with strong sequence transformers (SeqT, SoT, SpT) here",
     "knowledge recall (L1), routine reasoning (L2) and more", "a Blip Crank (B2C) agent"],
)
def test_rejects_non_definitions(text: str) -> None:
    assert find_abbreviations(text) == []
