"""Issue 30, item 2: an acronym and the long form its own abstract defines for it are one node with one type, in every
paper. Invented sentences and names (Zorb, Quux, Glim): what the extractor's spans look like around `long form (X)`
and `X (long form)`, and what the resolver makes of them."""
from __future__ import annotations

import networkx as nx
import pytest

from kg.graph.bind import begun, bound_pairs, completed
from kg.graph.knowledge import build_knowledge
from kg.graph.resolve import resolve
from kg.quality.patterns import case_collisions, split_definitions
from kg.text.keys import surface_key
from kg.types import Mention, Paper


def at(abstract: str, text: str, entity_type: str = "method", occurrence: int = 0, paper: str = "p1") -> Mention:
    """The mention of `text` in `abstract` (its n-th occurrence)."""
    start = -1
    for _ in range(occurrence + 1):
        start = abstract.index(text, start + 1)
    return Mention(paper, start, start + len(text), text, entity_type, name=text.rstrip(")"))


def nodes_of(entities, links, paper: str = "p1") -> dict[str, str]:
    """The label of each entity the paper links to, by id."""
    labels = {e.id: e.label for e in entities}
    return {link.entity_id: labels[link.entity_id] for link in links if link.paper_id == paper}


@pytest.mark.parametrize(("abstract", "long", "short", "whole"), [
    # a lower-case piece before the capitals: the word it begins was left out
    ("The glim stochastic quux descent (glimSQD) uses signs.", "stochastic quux descent", "glimSQD",
     "glim stochastic quux descent"),
    # pieces of a mixed-case name: Flo, Q, Net
    ("We present the Florid Quux Network (FloQNet), a variant.", "Quux Network", "FloQNet", "Florid Quux Network"),
    # one capital per word, the first word missed
    ("We train with proximal zorb optimization (PZO) on games.", "zorb optimization", "PZO",
     "proximal zorb optimization"),
    # a digit piece begins a word too
    ("We fit 3D Zorbian Splatting (3DZS) to scenes.", "Zorbian Splatting", "3DZS", "3D Zorbian Splatting"),
    # a function word between the words it needs
    ("We tune Zorbic Learning from Quux Feedback (ZLQF) here.", "Quux Feedback", "ZLQF",
     "Zorbic Learning from Quux Feedback"),
    # the long form inside the bracket, cut short after the bracket opens: extended up to the bracket only
    ("We propose ZQN (Zippy Quux Network) for scans.", "Quux Network", "ZQN", "Zippy Quux Network"),
])
def test_a_long_form_cut_short_of_the_words_its_acronym_spells_is_extended_to_them(abstract, long, short, whole):
    mentions = [at(abstract, long), at(abstract, short)]
    extended = completed(mentions, {"p1": abstract})
    assert [m.name for m in extended.values()] == [whole]
    found = next(iter(extended.values()))
    assert abstract[found.start:found.end] == whole == found.text
    entities, links, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert len(nodes_of(entities, links)) == 1


@pytest.mark.parametrize(("abstract", "long", "short"), [
    ("We train a robust zorb quux network (ZQN) here.", "zorb quux network", "ZQN"),  # `robust` begins no piece
    ("A Regularized Recurrent Zorb Network (RZN) is used.", "Recurrent Zorb Network", "RZN"),  # R already begins one
    ("Using the zorb optimization (PZO) we win.", "zorb optimization", "PZO"),  # `the` is no missed word
    ("We propose ZQN (Quux Network) for scans.", "Quux Network", "ZQN"),  # nothing to add inside the bracket
    ("We train of the zorb quux network (OZQN) here.", "zorb quux network", "OZQN"),  # a function word begins none
    # a word of another case than the name's: a verb before it, not a word of it
    ("GP fitting based on Blackbox Quux-Quux multiplication (BBQQ) is fast.", "Blackbox Quux-Quux multiplication",
     "BBQQ"),
])
def test_a_long_form_is_not_extended_over_words_the_acronym_does_not_need(abstract, long, short):
    assert completed([at(abstract, long), at(abstract, short)], {"p1": abstract}) == {}


@pytest.mark.parametrize(("short", "long", "count"), [
    ("RevNet", "Residual Network", 1), ("RevNet", "Reversible Residual Network", 2),
    ("glimSQD", "stochastic quux descent", 3), ("glimSQD", "glim stochastic quux descent", 4),
    ("VAE", "variational autoencoder", 2), ("VAE", "a variational autoencoder", 2),
    ("ZQEAs", "zorb quux enhancement algorithms", 4),  # the plural's s is no piece
])
def test_words_begun_by_pieces_of_the_short_name_are_counted_in_order(short, long, count):
    assert begun(short, long) == count


@pytest.mark.parametrize(("abstract", "first", "second", "pair"), [
    # a span that runs on over the closing bracket
    ("Most zorbic quux understanding (ZQU) systems fail.", "zorbic quux understanding", "ZQU)",
     ("ZQU", "zorbic quux understanding")),
    # a kind word between the long form and the bracket
    ("The glim quux debias method (GQD) is fast.", "glim quux debias", "GQD", ("GQD", "glim quux debias")),
    ("The Zippy Quux network (ZQN) is fast.", "Zippy Quux", "ZQN", ("ZQN", "Zippy Quux network")),
    ("Zorb quux enhancement algorithms (ZQEAs) help.", "Zorb quux enhancement", "ZQEAs",
     ("ZQEAs", "Zorb quux enhancement algorithms")),
    ("ZQDE framework (Zippy Quux Debias Ensemble) wins.", "ZQDE", "Zippy Quux Debias Ensemble",
     ("ZQDE", "Zippy Quux Debias Ensemble")),
    # the bracketed name is no mention there, but the paper names it later
    ("An algorithm called Zippy Quux Debias Ensemble (ZQDE) is proposed. ZQDE wins.", "Zippy Quux Debias Ensemble",
     None, ("ZQDE", "Zippy Quux Debias Ensemble")),
])
def test_a_definition_binds_across_a_kind_word_a_run_on_span_or_a_bracket_named_elsewhere(abstract, first, second,
                                                                                          pair):
    mentions = [at(abstract, first)] + ([at(abstract, second)] if second else [at(abstract, "ZQDE", occurrence=1)])
    longer = completed(mentions, {"p1": abstract})  # `Zippy Quux network`: the acronym spells the kind word too
    mentions = [longer.get(m, m) for m in mentions]
    assert bound_pairs(mentions, {"p1": abstract}) == [("p1", *pair)]
    entities, links, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert len(nodes_of(entities, links)) == 1


@pytest.mark.parametrize(("abstract", "first", "second"), [
    ("We use Zorbnet (a quux network) here.", "Zorbnet", "a quux network"),  # no capitals to spell
    ("We use ZQN, (Zippy Quux Network) here.", "ZQN", "Zippy Quux Network"),  # a comma: no definition
    ("An algorithm called Zippy Quux Debias Ensemble (ZQDE) is proposed.", "Zippy Quux Debias Ensemble", None),
])
def test_what_is_not_written_as_a_definition_does_not_bind(abstract, first, second):
    mentions = [at(abstract, first)] + ([at(abstract, second)] if second else [])
    assert bound_pairs(mentions, {"p1": abstract}) == []


@pytest.mark.parametrize(("detected", "meaning"), [
    ("zorbic quux encoder model", "zorbicquuxencoder"),  # the written long form with its kind word: the written one
    ("zorbic quux estimator", "zorbicquuxestimator"),  # another long form as long: the detector's stays
])
def test_the_detected_long_form_with_its_kind_word_is_the_written_definition(detected, meaning):
    from kg.graph.acronyms import read_definitions

    definitions = read_definitions([("p1", "ZQE", detected)], surface_key, bound=[("p1", "ZQE", "zorbic quux encoder")])
    assert definitions.local["p1", "ZQE"] == meaning


@pytest.mark.parametrize(("abstract", "detected", "written", "reading"), [
    # the detector's long form lacks a leading word the paper writes (and the acronym spells)
    ("We use Quiet Quux Clustering (QQC) on scans.", "quux clustering", "Quiet Quux Clustering",
     "Quiet Quux Clustering"),
    # the detector's long form is another cut: more words begin with the acronym's pieces in the written one
    ("We use Zorb Time Quux Learning (ZTQL) on scans.", "Zorb Quux Learning algorithm", "Zorb Time Quux Learning",
     "Zorb Time Quux Learning"),
])
def test_a_papers_own_longer_definition_replaces_the_detected_one(abstract, detected, written, reading):
    short = abstract[abstract.index("(") + 1:abstract.index(")")]
    others = [Mention(p, 0, len(detected), detected, "method", name=detected) for p in ("p2", "p3")]
    mentions = [at(abstract, written), at(abstract, short), *others]
    papers = [Paper("p1", abstract), Paper("p2", detected), Paper("p3", detected)]
    entities, links, _ = resolve(mentions, [("p1", short, detected), ("p2", short, detected)], papers=papers)
    assert list(nodes_of(entities, links).values()) == [reading]
    assert reading not in nodes_of(entities, links, "p2").values()


GAZETTEER = [{"name": "ZeQU", "type": "method", "aliases": ["zorbic quux unit"]},
             {"name": "person zorb-identification", "type": "task", "aliases": ["ZeID"]},
             {"name": "proximal policy zorbing", "type": "method", "aliases": ["PPZ"]}]


@pytest.mark.parametrize(("abstract", "long", "short", "known", "joins"), [
    # a mixed-case acronym written in another case than the gazetteer's: the paper's own definition decides
    ("We use the zorbic quux unit (ZeQu) as activation.", "zorbic quux unit", "ZeQu", "ZeQU", True),
    # cut short of a gazetteer name that starts with the acronym's first letter: that name, for both forms
    ("We train with policy zorbing (PPZ) on games.", "policy zorbing", "PPZ", "proximal policy zorbing", True),
    # a gazetteer name starting with another letter is no longer form of this definition: it means what it says
    ("We study zorb-identification (ZeID) of walkers.", "zorb-identification", "ZeID", "person zorb-identification",
     False),
    # unless the paper writes that name (the detector's long form lost its first word)
    ("We study Person Zorb-Identification (ZeID) of walkers.", "Person Zorb-Identification|Zorb-Identification",
     "ZeID", "person zorb-identification", True),
])
def test_a_defined_acronym_means_what_its_paper_defines(abstract, long, short, known, joins):
    knowledge = build_knowledge(GAZETTEER, [], surface_key)
    long, detected = (*long.split("|"), long)[:2]  # written|the detector's long form
    other = Mention("p2", 0, len(known), known, "method", name=known)  # a paper writing the gazetteer's name
    entities, links, _ = resolve([at(abstract, long), at(abstract, short), other], [("p1", short, detected)],
                                 knowledge=knowledge, papers=[Paper("p1", abstract), Paper("p2", known)])
    mine = nodes_of(entities, links)
    assert len(mine) == 1 and (set(mine) == set(nodes_of(entities, links, "p2"))) is joins


@pytest.mark.parametrize(("other", "nodes"), [((), 1), (("ZeQu",), 2)])
def test_an_undefined_spelling_in_another_case_is_the_name_unless_known_as_another(other, nodes):
    gazetteer = [{**GAZETTEER[0], "other": list(other)}, *GAZETTEER[1:]]
    knowledge = build_knowledge(gazetteer, [], surface_key)
    text = "We transmit over ZeQu links."
    entities, _, _ = resolve([at(text, "ZeQu", paper="p2"), Mention("p3", 0, 4, "ZeQU", "method", name="ZeQU")],
                             knowledge=knowledge, papers=[Paper("p2", text), Paper("p3", "ZeQU")])
    assert len(entities) == nodes


def lint_graph(abstract: str, entities: dict[str, tuple[str, tuple[str, ...]]]) -> nx.DiGraph:
    """One paper with `abstract` linking to each entity id -> (label, aliases)."""
    graph = nx.DiGraph()
    graph.add_node("paper:p", kind="paper", abstract=abstract)
    for node, (label, aliases) in entities.items():
        graph.add_node(node, kind="entity", type=node.split(":")[0], label=label, aliases=aliases, papers=1)
        graph.add_edge("paper:p", node, kind="mention")
    return graph


@pytest.mark.parametrize(("abstract", "entities", "split"), [
    ("We propose ZADE (Zonal Adaptive Debias Ensemble).",
     {"method:zade": ("ZADE", ()), "method:zonal": ("Zonal Adaptive Debias Ensemble", ())}, True),
    ("The zonal adaptive debias method (ZAD) wins.",  # a kind word before the bracket
     {"method:zad": ("ZAD", ()), "method:zonal": ("zonal adaptive debias", ())}, True),
    # the name before the bracket ends with another entity's name: the longest one is written there
    ("We propose Adversary Robust Z3C (AR-Z3C) here.",
     {"method:z3c": ("Z3C", ()), "method:ar-z3c": ("AR-Z3C", ("Adversary Robust Z3C",))}, False),
    ("We present semi-supervised zorb learning (SSZL) here.",
     {"method:szl": ("supervised zorb learning", ()),
      "model:sszl": ("SSZL", ("semi-supervised zorb learning",))}, False),
    # the bracketed name is also an alias of the entity before it: not split
    ("On the Zorb Learning Environment (ZLE) we test.",
     {"dataset:zle": ("Zorb Learning Environment", ("ZLE",)), "dataset:glim": ("Glim", ("ZLE",))}, False),
])
def test_lint_counts_a_definition_on_two_nodes_not_a_look_alike(abstract, entities, split):
    graph = lint_graph(abstract, entities)
    listed = [(n, d) for n, d in graph.nodes(data=True) if d.get("kind") == "entity"]
    assert bool(split_definitions(graph, listed)) is split


@pytest.mark.parametrize(("label", "alias", "collision"), [
    ("ZORB", "zorb", True), ("ZORB", "zorbs", True), ("ZoRB", "zorb", True),  # CLIP and clips, LoRA and lora: a word
    ("ZoVe", "zove", True),  # GloVe and glove: two capitalised parts, still a word
    ("ZorNet", "zornet", False), ("ZorNet", "zornets", False),  # ResNet written resnet: the name's spelling
])
def test_lint_counts_an_ordinary_word_under_a_short_name_but_not_a_compound_names_spelling(label, alias, collision):
    graph = lint_graph("We use it here.", {"model:z": (label, (alias,))})
    listed = [(n, d) for n, d in graph.nodes(data=True) if d.get("kind") == "entity"]
    assert bool(case_collisions(listed, graph)) is collision


@pytest.mark.parametrize(("abstract", "others", "collision"), [
    ("We use the zorbic quux unit (ZeQu) here.", {"ZeQu"}, False),  # the paper defines that spelling as the name
    ("We send ZeQu packets here.", {"ZeQu"}, True),  # LoRa under LoRA: known as another name
    ("We send ZeQu packets here.", set(), False),  # ReLu under ReLU: a spelling of the name
])
def test_lint_counts_a_case_alias_known_as_another_name_as_a_collision_unless_its_paper_defines_it(
        abstract, others, collision):
    graph = lint_graph(abstract, {"method:zequ": ("ZeQU", ("zorbic quux unit", "ZeQu"))})
    listed = [(n, d) for n, d in graph.nodes(data=True) if d.get("kind") == "entity"]
    assert bool(case_collisions(listed, graph, others)) is collision
