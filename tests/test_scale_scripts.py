"""scripts/replay_build.py: a copy of a paper's extraction names the copy in every part, nothing else changed."""
from __future__ import annotations

import importlib.util
from dataclasses import astuple
from pathlib import Path

import pytest

from kg.extraction.interface import Extraction
from kg.types import Mention, MentionRelation

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "replay_build.py"


@pytest.fixture(scope="module")
def replay():
    spec = importlib.util.spec_from_file_location("replay_build", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def paper_ids(value) -> set[str]:
    """Every paper_id inside a (nested) extraction."""
    if isinstance(value, (Mention, MentionRelation)):
        found = {value.paper_id}
        if isinstance(value, MentionRelation):
            found |= paper_ids(value.source) | paper_ids(value.target)
        return found
    if isinstance(value, Extraction):
        return set().union(*(paper_ids(m) for m in value.mentions + value.relations))
    return set()


@pytest.mark.parametrize("new_id", ["p1~r1", "p1~r12"])
def test_a_replayed_extraction_names_its_copy_everywhere(replay, new_id):
    a = Mention("p1", 0, 4, "BERT", "model", score=0.9)
    b = Mention("p1", 12, 20, "ImageNet", "dataset")
    original = Extraction(mentions=(a, b), relations=(MentionRelation("p1", "evaluated_on", a, b),),
                          abbreviations=(("BN", "batch norm"),))
    copy = replay.renamed(original, new_id)
    assert paper_ids(copy) == {new_id} and paper_ids(original) == {"p1"}
    assert [astuple(m)[1:] for m in copy.mentions] == [astuple(m)[1:] for m in original.mentions]
    assert copy.abbreviations == original.abbreviations
