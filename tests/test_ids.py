"""Entity ids derive from the concept alone: unique, unchanged when papers are added, non-ASCII letters kept."""
from __future__ import annotations

from pathlib import Path

import pytest

from kg.extractors import build_extract
from kg.graph.ids import Concept, entity_ids, slug
from kg.graph.resolve import resolve
from kg.io.readers import read_corpus
from kg.run.engines import EngineOptions, ExtractSpec, WorkerSpec
from kg.run.pipeline import assemble, extract_all
from kg.types import Mention, Paper

ROOT = Path(__file__).resolve().parents[1]


def mention(paper: str, text: str, entity_type: str = "model") -> Mention:
    return Mention(paper, 0, len(text), text, entity_type, name=text)


def ids_by_label(mentions: list[Mention]) -> dict[str, str]:
    entities, _, _ = resolve(mentions)
    return {e.label: e.id for e in entities}


@pytest.mark.parametrize(("label", "expected"), [
    ("Ω-Mixer", "ω-mixer"), ("Fréchet Inception Distance", "frechet-inception-distance"), ("PointNet++", "pointnet-plus-plus"),
    ("C#", "c-sharp"), ("R²-Net", "r2-net"), ("中文 BERT", "中文-bert"), ("ＧＰＴ-4", "gpt-4"), ("!!!", "x"),
])
def test_slugs_keep_letters_of_any_script_and_drop_accents(label: str, expected: str) -> None:
    assert slug(label) == expected and "--" not in slug(label)


def test_a_mixer_keeps_its_id_when_more_papers_name_another_mixer() -> None:
    small = ids_by_label([mention("p1", "Ω-Mixer"), mention("p2", "Ω-Mixer"), mention("p3", "Mixer")])
    grown = ids_by_label([mention("p1", "Ω-Mixer"), mention("p2", "Ω-Mixer"), mention("p3", "Mixer"),
                          mention("p4", "Mixer"), mention("p5", "Mixer")])
    assert small == grown and len(set(small.values())) == 2
    assert small["Mixer"] == "model:mixer" and small["Ω-Mixer"] == "model:ω-mixer"


@pytest.mark.parametrize("names", [("zAP", "ZAP"), ("ZAP", "zAP", "zap-2"), ("zap-2", "zAP", "ZAP")])
def test_ids_that_slug_alike_are_unique_whatever_the_order_and_links_follow_them(names: tuple[str, ...]) -> None:
    entities, links, _ = resolve([mention(f"p{i}", name, "method") for i, name in enumerate(names)])
    by_label = {e.label: e.id for e in entities}
    assert len(set(by_label.values())) == len(entities) == len(names)
    assert by_label["ZAP"] == "method:zap" and by_label["zAP"].startswith("method:zap--")
    assert {link.paper_id: link.entity_id for link in links} == {f"p{i}": by_label[n] for i, n in enumerate(names)}
    again = resolve([mention(f"q{i}", name, "method") for i, name in enumerate(reversed(names)) for _ in range(i + 1)])
    assert {e.label: e.id for e in again[0]} == by_label  # other paper counts, same ids


BERTS = [Concept("model", "BERT", "BERT", True), Concept("model", "BERT", "bidirectionalzorptransformer", False),
         Concept("model", "BERT 2", "BERT2", True)]


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2)])
def test_labels_bert_bert_bert_2_get_three_ids_each_a_function_of_its_concept(order: tuple[int, ...]) -> None:
    concepts = [BERTS[i] for i in order]
    ids = dict(zip(order, entity_ids(concepts)))
    assert len(set(ids.values())) == 3 and ids[0] == "model:bert" and ids[2] == "model:bert-2"
    assert ids[1].startswith("model:bert--") and entity_ids([BERTS[0]]) == [ids[0]] and entity_ids([BERTS[2]]) == [ids[2]]
    assert entity_ids([BERTS[1]]) == ["model:bert"]  # no owner: the borrowed label's slug is free


def test_two_concepts_with_one_key_are_refused() -> None:
    with pytest.raises(ValueError):
        entity_ids([Concept("model", "X", "k", False)] * 3)


def entities_of(papers):
    """Entity id -> (type, label, sorted aliases) of the papers' resolution (rule extractors)."""
    spec = WorkerSpec("blank", ExtractSpec(build_extract, args=(("acronyms", "gazetteer", "shapes", "proposals"),)))
    resolution, _ = assemble(papers, extract_all(papers, spec, EngineOptions()))
    return {e.id: (e.type, e.label, tuple(sorted(e.aliases))) for e in resolution.entities}


COLLIDING = [Paper("a1", "We propose Ω-ZorbNet, a network for image zorbing."), Paper("a2", "Ω-ZorbNet zorbs."),
             Paper("b1", "We train ZorbNet on CIFAR-10."), Paper("b2", "ZorbNet is fast."), Paper("b3", "ZorbNet scales.")]


def test_entities_of_a_corpus_keep_their_ids_when_it_grows() -> None:
    papers = read_corpus([ROOT / "seeds"]).papers
    small, grown = entities_of(papers[: len(papers) // 3] + COLLIDING[:3]), entities_of(papers + COLLIDING)
    unchanged = {node: data for node, data in small.items() if data in grown.values()}
    assert len(unchanged) >= len(small) // 2 and len(small) >= 20
    assert {node: grown.get(node) for node in unchanged} == unchanged
    assert {small["model:zorbnet"][1], small["model:ω-zorbnet"][1]} == {"ZorbNet", "Ω-ZorbNet"}


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_of_owners_that_slug_alike_the_gazetteer_known_key_takes_the_bare_slug(order):
    concepts = [Concept("metric", "MZoU", "MZOU", True, standing=2), Concept("metric", "mZoU", "mZOU", True, standing=0)]
    ids = dict(zip(order, entity_ids([concepts[i] for i in order])))
    assert ids[1] == "metric:mzou" and ids[0].startswith("metric:mzou--")
