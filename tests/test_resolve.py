"""Resolution: one entity per concept, fullest form as label, links per paper."""
from __future__ import annotations

import pytest

from kg.graph.resolve import normal_form, resolve
from kg.types import Mention


def mention(paper: str, text: str, entity_type: str = "model", role: str = "used") -> Mention:
    return Mention(paper, 0, len(text), text, entity_type, role, name=text)


def test_acronym_and_long_form_are_one_node():
    mentions = [mention("p1", "tiny recurrent network"), mention("p1", "TRN"), mention("p2", "TRN")]
    entities, links, _ = resolve(mentions, [("TRN", "tiny recurrent network")])
    assert len(entities) == 1 and entities[0].label == "tiny recurrent network"
    assert {link.paper_id for link in links} == {"p1", "p2"}


@pytest.mark.parametrize("forms", [
    ("Graph Neural Networks", "graph neural network", "graph-neural network"),
    ("FrobNets", "FrobNet", "frobnet"),
    ("state–space model", "state-space model", "state space models"),
])
def test_variants_are_one_node(forms):
    entities, _, _ = resolve([mention(f"p{i}", f) for i, f in enumerate(forms)])
    assert len(entities) == 1


def test_fullest_form_is_the_label():
    entities, _, _ = resolve([mention("p1", "TRN"), mention("p2", "tiny recurrent networks")],
                             [("TRN", "tiny recurrent networks")])
    assert entities[0].label == "tiny recurrent network"
    assert "TRN" in entities[0].aliases


def test_proposed_in_one_paper_only():
    _, links, _ = resolve([mention("p1", "FrobNet", role="proposed"), mention("p2", "FrobNet")])
    assert {(link.paper_id, link.role) for link in links} == {("p1", "proposed"), ("p2", "used")}


def test_different_concepts_stay_apart():
    entities, _, _ = resolve([mention("p1", "CIFAR-10", "dataset"), mention("p2", "CIFAR-100", "dataset")])
    assert len(entities) == 2


@pytest.mark.parametrize("a, b", [("LLMs", "LLM"), ("analyses", "analysis"), ("Transformers", "transformer")])
def test_normal_form_plural(a, b):
    assert normal_form(a) == normal_form(b)


def test_spacing_variants_are_one_node():
    entities, _, _ = resolve([mention("p1", "back-propagation", "method"), mention("p2", "backpropagation", "method"),
                              mention("p3", "backpropagation", "method")])
    assert len(entities) == 1 and entities[0].id == "method:backpropagation"
