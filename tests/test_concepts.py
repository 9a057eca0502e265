"""Corpus-wide concept decisions in resolution: one type per concept, acronyms read by type, labels, fragments,
lone adjectives and plausible proposers (invented names; gazetteers built in the test)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from kg.graph.concepts import concept_type, may_propose
from kg.text.keys import surface_key
from kg.graph.knowledge import build_knowledge
from kg.graph.labels import lone_adjective
from kg.graph.resolve import resolve
from kg.types import Mention, Paper


def at(paper: str, text: str, name: str, entity_type: str, role: str = "used", nth: int = 0) -> Mention:
    """A mention of `name` (its nth occurrence) in the abstract `text`."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(name, start + 1)
    return Mention(paper, start, start + len(name), name, entity_type, role, name=name)


def knowledge(*entries: dict):
    return build_knowledge(list(entries), [], surface_key)


def test_the_gazetteer_type_wins_over_the_readings_of_all_mentions():
    texts = {f"p{i}": "We train Zorblax on images." for i in range(4)}
    mentions = [at(p, t, "Zorblax", "method") for p, t in texts.items()]
    gazetteer = knowledge({"name": "Zorblax", "type": "dataset", "aliases": []})
    entities, _, _ = resolve(mentions, knowledge=gazetteer, papers=[Paper(p, t) for p, t in texts.items()])
    assert [(e.label, e.type) for e in entities] == [("Zorblax", "dataset")]
    assert concept_type(mentions) == "method"  # without the gazetteer, the readings decide


def test_abstracts_defining_a_name_by_its_kind_outvote_the_model():
    texts = {"p1": "We release Quibblor, a large-scale benchmark for glorp.", "p2": "Results on the Quibblor dataset.",
             "p3": "Quibblor helps.", "p4": "Quibblor is hard."}
    mentions = [at(p, t, "Quibblor", "method") for p, t in texts.items()]
    entities, _, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert [e.type for e in entities] == ["dataset"]
    assert [e.type for e in resolve(mentions)[0]] == ["method"]  # no abstracts, no definitions


def test_a_bare_acronym_takes_the_reading_of_its_type_known_names_too():
    texts = {"p1": "We use zonal query attention (ZQA) in the decoder.", "p2": "Accuracy on ZQA improves.",
             "p3": "Replacing attention with ZQA saves memory.", "p4": "Zonal query attention is cheap."}
    mentions = [at("p1", texts["p1"], "zonal query attention", "method"), at("p1", texts["p1"], "ZQA", "method"),
                at("p2", texts["p2"], "ZQA", "dataset"), at("p3", texts["p3"], "ZQA", "method"),
                at("p4", texts["p4"], "Zonal query attention", "method")]
    gazetteer = knowledge({"name": "ZQA", "type": "dataset", "aliases": []},
                          {"name": "zonal query attention", "type": "method", "aliases": []})
    entities, links, _ = resolve(mentions, [("p1", "ZQA", "zonal query attention")], knowledge=gazetteer,
                                 papers=[Paper(p, t) for p, t in texts.items()])
    assert {(e.label, e.type) for e in entities} == {("ZQA", "dataset"), ("zonal query attention", "method")}
    assert {(link.paper_id, link.entity_id) for link in links} == {
        ("p1", "method:zonal-query-attention"), ("p2", "dataset:zqa"), ("p3", "method:zonal-query-attention"),
        ("p4", "method:zonal-query-attention")}


def test_a_concept_the_gazetteer_names_by_its_acronym_is_labelled_so():
    texts = {f"p{i}": "Zonal Language-Image Pretraining (ZLIP) embeds images." for i in range(3)}
    mentions = [m for p, t in texts.items() for m in (at(p, t, "Zonal Language-Image Pretraining", "model"),
                                                      at(p, t, "ZLIP", "model"))]
    pairs = [(p, "ZLIP", "Zonal Language-Image Pretraining") for p in texts]
    gazetteer = knowledge({"name": "ZLIP", "type": "model", "aliases": ["Zonal Language-Image Pretraining"]})
    entities, _, _ = resolve(mentions, pairs, knowledge=gazetteer)
    assert [(e.label, e.aliases) for e in entities] == [("ZLIP", ("Zonal Language-Image Pretraining",))]
    assert [e.label for e in resolve(mentions, pairs)[0]] == ["Zonal Language-Image Pretraining"]



@pytest.mark.parametrize("sentence, measured", [
    ("Our defence cuts ZAR from 38.3% to 15.0% on the benchmark.", True),
    ("Our defence reaches a near-zero ZAR against adaptive attacks.", True),
    ("Current ZAR systems still fail on accented speech.", False)])
def test_a_bare_acronym_written_as_a_measure_takes_its_metric_reading(sentence, measured):
    texts = {"p1": "We report the zorb attack rate (ZAR) of each model.", "p2": "We study zonal audio reading (ZAR).",
             "p3": sentence}
    mentions = [at("p1", texts["p1"], "zorb attack rate", "metric"), at("p1", texts["p1"], "ZAR", "metric"),
                at("p2", texts["p2"], "zonal audio reading", "task"), at("p2", texts["p2"], "ZAR", "task"),
                at("p3", texts["p3"], "ZAR", "task")]  # the model types the bare acronym as its usual reading
    gazetteer = knowledge({"name": "zonal audio reading", "type": "task", "aliases": ["ZAR"]},
                          {"name": "zorb attack rate", "type": "metric", "aliases": []})
    pairs = [("p1", "ZAR", "zorb attack rate"), ("p2", "ZAR", "zonal audio reading")]
    _, links, _ = resolve(mentions, pairs, knowledge=gazetteer, papers=[Paper(p, t) for p, t in texts.items()])
    expected = "metric:zorb-attack-rate" if measured else "task:zonal-audio-reading"
    assert {link.entity_id for link in links if link.paper_id == "p3"} == {expected}

def test_an_unknown_acronym_papers_write_alone_far_more_often_is_the_label():
    often = [Mention(f"p{i}", 0, 3, "QZP", "method", name="QZP") for i in range(6)]
    spelled = [Mention("p0", 10, 29, "quasi zonal pooling", "method", name="quasi zonal pooling")]
    pairs = [("p0", "QZP", "quasi zonal pooling")]
    assert [e.label for e in resolve(often + spelled, pairs)[0]] == ["QZP"]
    assert [e.label for e in resolve(often[:2] + spelled, pairs)[0]] == ["quasi zonal pooling"]


def test_a_span_cut_after_a_hyphen_is_extended_to_the_whole_word():
    text = "We evaluate a multi-modal zorp model on glims."
    cut = at("p1", text, "modal zorp model", "model")
    entities, links, _ = resolve([cut], papers=[Paper("p1", text)])
    assert [e.label for e in entities] == ["multi-modal zorp model"]
    evidence = links[0].mentions[0]
    assert (evidence.start, evidence.text) == (text.index("multi"), "multi-modal zorp model")


def test_lone_adjectives_are_not_entities_but_names_that_end_so_are():
    texts = {"p1": "A glimmative prior and a Self-Zorbive step.", "p2": "The glimmative zorp model wins."}
    mentions = [at("p1", texts["p1"], "glimmative", "method"), at("p1", texts["p1"], "Self-Zorbive", "method"),
                at("p2", texts["p2"], "glimmative zorp model", "model")]
    entities, _, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert [e.label for e in entities] == ["glimmative zorp model"]
    assert not lone_adjective("retrieval") and not lone_adjective("Zorbic") and lone_adjective("zorbic")


def test_a_well_known_name_introduced_years_before_cannot_be_proposed():
    texts = {"p1": "We propose Zorblax, a new zorp.", "p2": "We propose Zorblax, a new zorp."}
    mentions = [at(p, t, "Zorblax", "model", "proposed") for p, t in texts.items()]
    gazetteer = knowledge({"name": "Zorblax", "type": "model", "aliases": [], "year": 2021})
    papers = [Paper("p1", texts["p1"], year=2022), Paper("p2", texts["p2"], year=2026)]
    _, links, _ = resolve(mentions, knowledge=gazetteer, papers=papers)
    assert {(link.paper_id, link.role) for link in links} == {("p1", "proposed"), ("p2", "used")}


def test_a_concept_many_papers_name_is_proposed_only_by_a_paper_that_coins_it():
    texts = {f"p{i}": "Training with glorp tuning helps." for i in range(10)}
    texts["p0"] = "Here glorp tuning is used."
    texts["p1"] = "We propose glorp tuning, a simple recipe."
    mentions = [at(p, t, "glorp tuning", "method", "proposed" if p in ("p0", "p1") else "used")
                for p, t in texts.items()]
    _, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert {link.paper_id for link in links if link.role == "proposed"} == {"p1"}
    _, few, _ = resolve(mentions[:3], papers=[Paper(p, t) for p, t in texts.items()])
    assert {link.paper_id for link in few if link.role == "proposed"} == {"p1"}  # two claims: the coining one stands
    _, alone, _ = resolve(mentions[:1], papers=[Paper("p0", texts["p0"])])
    assert [link.role for link in alone] == ["proposed"]  # one claim: the extractor is trusted


def test_may_propose_is_lenient_without_abstracts_only_for_unknown_rare_names():
    mention = Mention("p1", 0, 3, "Zap", "method", "proposed", name="Zap")
    assert may_propose([mention], None, None, known=False, introduced=None, papers=2)
    assert not may_propose([mention], None, None, known=True, introduced=None, papers=2)


def test_the_shipped_gazetteer_says_when_well_known_names_were_introduced():
    from kg.graph.knowledge import default_knowledge

    shipped = default_knowledge(surface_key)
    assert len(shipped.years) > 300 and all(1900 <= year <= 2100 for year in shipped.years.values())
    assert {shipped.types[k] for k in shipped.years} <= {"method", "model", "dataset", "task", "metric"}


def test_a_definition_cut_short_of_the_gazetteer_reading_does_not_merge_the_generic_phrase():
    gazetteer = knowledge({"name": "proximal zorp optimization", "type": "method", "aliases": ["PZO"]})
    mentions = [Mention("p1", 0, 3, "PZO", "method", name="PZO"), Mention("p2", 0, 3, "PZO", "method", name="PZO"),
                Mention("p3", 0, 17, "zorp optimization", "task", name="zorp optimization"),
                Mention("p4", 0, 26, "proximal zorp optimization", "method", name="proximal zorp optimization")]
    pairs = [("p1", "PZO", "zorp optimization"), ("p2", "PZO", "zorp optimization")]  # the first word lost
    entities, links, _ = resolve(mentions, pairs, knowledge=gazetteer)
    assert {e.label for e in entities} == {"proximal zorp optimization", "zorp optimization"}
    assert {(link.paper_id, link.entity_id) for link in links} >= {
        ("p1", "method:proximal-zorp-optimization"), ("p3", "task:zorp-optimization")}


def test_two_gazetteer_entries_do_not_merge_by_a_kind_word():
    gazetteer = knowledge({"name": "glorp-entropy loss", "type": "method", "aliases": ["glorp-entropy"]},
                          {"name": "glorp-entropy method", "type": "method", "aliases": []})
    names = ["glorp-entropy", "glorp-entropy method"]
    mentions = [Mention(f"p{i}", 0, len(n), n, "method", name=n) for i, n in enumerate(names)]
    labels = {e.label for e in resolve(mentions, knowledge=gazetteer)[0]}
    assert labels == {"glorp-entropy loss", "glorp-entropy method"}  # two nodes, each labelled by its entry's name
    assert len(resolve(mentions)[0]) == 1  # unknown names: the kind word merges them


@pytest.mark.parametrize(("text", "name", "proposed"), [
    ("We propose a novel generative zorb model, FooZorb, for images.", "generative zorb model", False),
    ("We propose a novel generative zorb model, FooZorb, for images.", "FooZorb", True),
    ("We introduce a new deep zorb network for images.", "deep zorb network", False),
    ("Our zorb attention mechanism is fast.", "zorb attention mechanism", False),
    ("We propose glorp tuning, a simple recipe.", "glorp tuning", True),
])
def test_an_unnamed_contribution_is_not_credited_to_the_kind_it_is(text, name, proposed):
    other = f"Prior work used {name}."
    mentions = [at("p1", text, name, "model", "proposed"), at("p2", other, name, "model")]
    _, links, _ = resolve(mentions, papers=[Paper("p1", text), Paper("p2", other)])
    assert [link.role == "proposed" for link in links if link.paper_id == "p1"] == [proposed]
    alone = resolve(mentions[:1], papers=[Paper("p1", text)])[1]
    assert alone[0].role == "proposed"  # a phrase no other paper writes is the paper's own delimited contribution


def test_a_name_several_papers_coin_is_one_node_per_coinage_and_users_keep_the_name():
    texts = {"p1": "We propose ZORBA, a novel zorb planner.", "p2": "We introduce ZORBA, a new image zorber.",
             "p3": "ZORBA is a strong baseline here.", "p4": "We compare with ZORBA on Zorb-1K."}
    mentions = [at(p, t, "ZORBA", "method", "proposed" if p in ("p1", "p2") else "used") for p, t in texts.items()]
    entities, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    node = {link.paper_id: link.entity_id for link in links}
    assert len(entities) == 3 and len({node["p1"], node["p2"], node["p3"]}) == 3 and node["p3"] == node["p4"]
    assert {link.paper_id for link in links if link.role == "proposed"} == {"p1", "p2"}
    more = {"p5": "We propose ZORBA, a novel zorb parser.", "p6": "ZORBA helps."}
    grown = resolve(mentions + [at(p, t, "ZORBA", "method", "proposed" if p == "p5" else "used") for p, t in more.items()],
                    papers=[Paper(p, t) for p, t in {**texts, **more}.items()])[1]
    assert {link.paper_id: link.entity_id for link in grown if link.paper_id in node} == node  # ids stay
    users = {f"u{i}": "ZORBA is a baseline." for i in range(4)}
    established = resolve(mentions + [at(p, t, "ZORBA", "method") for p, t in users.items()],
                          papers=[Paper(p, t) for p, t in {**texts, **users}.items()])[0]
    assert len(established) == 1  # far more papers use the name than coin it: one thing


@pytest.mark.parametrize("copy", ["We propose ZORBA, a novel zorb planner.",
                                  "We  propose ZORBA, a novel  Zorb planner"])  # spacing, case, punctuation aside
def test_copies_of_one_coining_abstract_are_one_coinage(copy):
    texts = {"p1": "We propose ZORBA, a novel zorb planner.", "p1-copy": copy,
             "p2": "We introduce ZORBA, a new image zorber.", "p3": "ZORBA is a strong baseline here."}
    mentions = [at(p, t, "ZORBA", "method", "proposed" if p != "p3" else "used") for p, t in texts.items()]
    entities, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    node = {link.paper_id: link.entity_id for link in links}
    assert len(entities) == 3 and node["p1"] == node["p1-copy"] and len({node["p1"], node["p2"], node["p3"]}) == 3


def test_a_name_three_papers_coin_is_three_things_however_many_papers_use_it():
    texts = {f"p{i}": f"We propose ZORBA, a novel zorb {kind}." for i, kind in enumerate(("planner", "parser", "painter"))}
    texts |= {f"u{i}": "ZORBA is a baseline." for i in range(8)}
    mentions = [at(p, t, "ZORBA", "method", "proposed" if p[0] == "p" else "used") for p, t in texts.items()]
    entities, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    proposers: dict[str, set[str]] = {}
    for link in links:
        proposers.setdefault(link.entity_id, set()).update([link.paper_id] if link.role == "proposed" else [])
    assert len(entities) == 4 and sorted(map(len, proposers.values())) == [0, 1, 1, 1]


def test_a_name_three_papers_propose_keeps_only_the_proposals_whose_text_coins_it():
    texts = {"p1": "We propose ZorbFuse, a novel fuser.", "p2": "Results with ZorbFuse are good.",
             "p3": "Here ZorbFuse is used.", "q1": "We use multi-zorb fusion.", "q2": "With multi-zorb fusion.",
             "q3": "And multi-zorb fusion too."}
    mentions = [at(p, t, "ZorbFuse" if p[0] == "p" else "multi-zorb fusion", "method", "proposed")
                for p, t in texts.items()]
    _, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert {link.paper_id for link in links if link.role == "proposed"} == {"p1"}


@pytest.mark.parametrize("second", ["Results with ZorbFuse are good.", "We build on ZorbFuse for zorbing."])
def test_a_name_two_papers_propose_keeps_only_the_proposal_whose_text_coins_it(second):
    texts = {"p1": "We propose ZorbFuse, a novel fuser.", "p2": second}
    mentions = [at(p, t, "ZorbFuse", "method", "proposed") for p, t in texts.items()]
    _, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert {link.paper_id for link in links if link.role == "proposed"} == {"p1"}


@pytest.mark.parametrize("coined", ["We propose ZQG, a novel zorb planner.", "We introduce ZQG, which plans zorbs."])
def test_an_acronym_a_paper_coins_is_its_own_not_the_reading_another_paper_defines(coined):
    texts = {"p1": coined, "p2": "We train Zorbic Quux Graphs (ZQG) on scans.", "p3": "ZQG graphs help here."}
    mentions = [at("p1", texts["p1"], "ZQG", "method", "proposed"),
                at("p2", texts["p2"], "Zorbic Quux Graphs", "method"), at("p2", texts["p2"], "ZQG", "method"),
                at("p3", texts["p3"], "ZQG", "method")]
    _, links, _ = resolve(mentions, [("p2", "ZQG", "Zorbic Quux Graphs")],
                          papers=[Paper(p, t) for p, t in texts.items()])
    node = {link.paper_id: link.entity_id for link in links}
    assert node["p1"] != node["p2"] and node["p3"] == node["p2"]  # a user of the name takes the defined reading


@pytest.mark.parametrize(("user_type", "apart"), [("dataset", True), ("method", False)])
def test_a_name_one_paper_coins_and_others_use_as_another_type_is_two_things(user_type, apart):
    texts = {"p1": "We propose ZORBIX, a novel zorb framework.", "u1": "Dice of 0.8 on ZORBIX and more.",
             "u2": "We report results on ZORBIX here."}
    mentions = [at("p1", texts["p1"], "ZORBIX", "method", "proposed"),
                *(at(p, texts[p], "ZORBIX", user_type) for p in ("u1", "u2"))]
    entities, links, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    node = {link.paper_id: link.entity_id for link in links}
    assert (node["p1"] != node["u1"]) is apart and node["u1"] == node["u2"]
    assert {link.paper_id for link in links if link.role == "proposed"} == {"p1"}


def test_a_capital_that_only_opens_a_sentence_is_no_sign_of_a_name():
    texts = {"p1": "Vision encoders are slow. We add a vision model.", "p2": "A vision model helps.",
             "p3": "We train the Zorbix encoder. Then Zorbix wins."}
    mentions = [at("p1", texts["p1"], "Vision encoders", "model"), at("p1", texts["p1"], "vision model", "model"),
                at("p2", texts["p2"], "vision model", "model"), at("p3", texts["p3"], "Zorbix encoder", "model"),
                at("p3", texts["p3"], "Zorbix", "model", nth=1)]
    mentions = [replace(m, sentence_start=texts[m.paper_id].rfind(". ", 0, m.start) + 2 if ". " in
                        texts[m.paper_id][:m.start] else 0) for m in mentions]  # sentences as extractors give them
    entities, _, _ = resolve(mentions, papers=[Paper(p, t) for p, t in texts.items()])
    assert sorted(e.label for e in entities) == ["Zorbix", "vision encoder", "vision model"]  # no merge; no capital
