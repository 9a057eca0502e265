"""The networkx graph follows its contract."""
import pytest

from kg.graph.build import Evidence, to_networkx
from kg.types import Entity, Link, Mention, MentionRelation, Paper, Relation

ABSTRACT = "We propose FooNet. FooNet is evaluated on ImageNet."
PAPERS = [Paper("p1", ABSTRACT), Paper("p2", "ImageNet again.", title="A Title")]


def mention(paper: str, start: int, end: int, kind: str, text: str, role: str = "used") -> Mention:
    return Mention(paper, start, end, text, kind, role, 0, len(text), "test", text)


FOO = Mention("p1", 11, 17, "FooNet", "model", "proposed", 0, 18, "t", "FooNet")
FOO2 = Mention("p1", 19, 25, "FooNet", "model", "used", 19, 51, "t", "FooNet")
IMNET = Mention("p1", 42, 50, "ImageNet", "dataset", "used", 19, 51, "t", "ImageNet")


def graph():
    entities = [Entity("model:foonet", "model", "FooNet"), Entity("dataset:imagenet", "dataset", "ImageNet", ("imagenet",))]
    links = [Link("p1", "model:foonet", "proposed", (FOO2, FOO)), Link("p1", "dataset:imagenet", "used", (IMNET,)),
             Link("p2", "dataset:imagenet", "used", (Mention("p2", 0, 8, "ImageNet", "dataset"),))]
    relations = [Relation("model:foonet", "evaluated_on", "dataset:imagenet",
                          (MentionRelation("p1", "evaluated_on", FOO2, IMNET),))]
    return to_networkx(PAPERS, entities, links, relations)


def test_nodes_carry_kind_type_label_and_counts() -> None:
    g = graph()
    assert g.nodes["paper:p1"]["kind"] == "paper" and g.nodes["paper:p1"]["abstract"] == ABSTRACT
    assert g.nodes["paper:p2"]["label"] == "A Title"
    imagenet = g.nodes["dataset:imagenet"]
    assert (imagenet["kind"], imagenet["type"], imagenet["papers"], imagenet["aliases"]) == ("entity", "dataset", 2, ("imagenet",))
    assert g.nodes["model:foonet"]["proposed_by"] == 1


def test_mention_edges_have_role_sorted_evidence_matching_the_abstract() -> None:
    edge = graph().edges["paper:p1", "model:foonet"]
    assert edge["role"] == "proposed" and edge["weight"] == 2
    assert [e.start for e in edge["evidence"]] == [11, 19]
    assert all(ABSTRACT[e.start:e.end] == e.text for e in edge["evidence"])


def test_relation_edges_carry_the_sentence_as_evidence() -> None:
    edge = graph().edges["model:foonet", "dataset:imagenet"]
    assert edge["kind"] == "relation" and edge["relation"] == "evaluated_on" and edge["papers"] == 1
    (evidence,) = edge["relations"]["evaluated_on"]
    assert evidence == Evidence("p1", 19, 51, ABSTRACT[19:51], 19, 51)


@pytest.mark.parametrize(("opening", "repeats"), [
    ("", 10), ("", 50_000),  # a paragraph, and a million characters
    ("\\cite{" + "key," * 400 + "} ", 10),  # a 1,600-character citation first: the label reads further
])
def test_paper_label_is_short_and_markup_free(opening: str, repeats: int) -> None:
    paper = Paper("x", opening + r"We introduce \textbf{Widget}, " + "a very long sentence " * repeats)
    label = to_networkx([paper], [], []).nodes["paper:x"]["label"]
    quoted = label.removeprefix("Paper: \u201c").removesuffix("\u201d")  # a title-less paper reads as a paper
    assert quoted.startswith("Widget, a very long") and quoted.endswith("…") and len(quoted) <= 61  # opening verb dropped


def test_a_title_less_label_is_made_once(monkeypatch) -> None:
    """Bug: the graph computed a label from the abstract that kg.graph.paper_labels always replaced."""
    from kg.text import markup

    calls = []
    strip = markup.strip_markup
    monkeypatch.setattr(markup, "strip_markup", lambda text, *args: calls.append(text) or strip(text, *args))
    graph = to_networkx([Paper("x", "We introduce Widget, a parser."), Paper("y", "Body.", title="T")], [], [])
    assert graph.nodes["paper:x"]["label"] == "Paper: \u201cWidget, a parser\u201d" and graph.nodes["paper:y"]["label"] == "T"
    assert len(calls) == 1


def relation_graph(stated: dict[str, list[str]]):
    """FooNet -> ImageNet with each relation type stated in the given papers (one sentence each)."""
    papers = [Paper(f"p{i}", "FooNet is evaluated on ImageNet.") for i in range(1, 5)]
    foo = {p.id: Mention(p.id, 0, 6, "FooNet", "model", "used", 0, 31, "t", "FooNet") for p in papers}
    imnet = {p.id: Mention(p.id, 23, 31, "ImageNet", "dataset", "used", 0, 31, "t", "ImageNet") for p in papers}
    entities = [Entity("model:foonet", "model", "FooNet"), Entity("dataset:imagenet", "dataset", "ImageNet")]
    links = [Link(p.id, e, "used", (m[p.id],)) for p in papers for e, m in (("model:foonet", foo),
                                                                            ("dataset:imagenet", imnet))]
    relations = [Relation("model:foonet", kind, "dataset:imagenet",
                          tuple(MentionRelation(p, kind, foo[p], imnet[p]) for p in in_papers))
                 for kind, in_papers in stated.items()]
    return to_networkx(papers, entities, links, relations).edges["model:foonet", "dataset:imagenet"]


@pytest.mark.parametrize(("stated", "dominant", "papers"), [
    ({"applied_to": ["p1"], "evaluated_on": ["p2", "p3"]}, "evaluated_on", 3),
    ({"evaluated_on": ["p1"], "applied_to": ["p2", "p3", "p4"]}, "applied_to", 4),
    ({"based_on": ["p1", "p2"], "applied_to": ["p3", "p4"]}, "applied_to", 4),  # a tie: by name
    ({"measured_by": ["p1", "p2"], "based_on": ["p2"]}, "measured_by", 2),
])
def test_an_edge_names_the_relation_stated_in_most_papers(stated, dominant, papers) -> None:
    edge = relation_graph(stated)
    assert edge["relation"] == dominant and edge["papers"] == papers == edge["weight"]
    assert list(edge["relations"]) == sorted(stated)
