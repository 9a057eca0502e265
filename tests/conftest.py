"""Shared fixtures: the spaCy pipeline (loaded once) and a tiny invented corpus."""
from __future__ import annotations

from pathlib import Path

import os

import pytest

from kg.nlp import load_nlp

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory) -> Path:
    """Builds made by tests cache extractions in a temporary directory, not the user's cache."""
    directory = tmp_path_factory.mktemp("paperkg-cache")
    previous = os.environ.get("PAPERKG_CACHE_DIR")
    os.environ["PAPERKG_CACHE_DIR"] = str(directory)
    yield directory
    if previous is None:
        os.environ.pop("PAPERKG_CACHE_DIR", None)
    else:
        os.environ["PAPERKG_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def nlp():
    """The default pipeline, loaded once per test session."""
    pipeline, warning = load_nlp()
    assert warning is None, warning
    return pipeline


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    """A seed-style listing: a header line, then three invented abstracts."""
    path = tmp_path / "listing.txt"
    path.write_text(
        "Invented Conference Papers\n\n"
        "We propose \\textbf{FooNet}, a model for image classification evaluated on ImageNet.\n\n"
        "Large language models (LLMs) hallucinate; we study **uncertainty quantification** for LLMs.\n\n"
        "We fine-tune BERT with LoRA and report accuracy on GLUE.\n",
        encoding="utf-8",
    )
    return path
