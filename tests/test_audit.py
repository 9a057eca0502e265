"""The graph audit (`kg lint`): orphans, suspicious labels, duplicates, shared acronyms, hubs."""
from __future__ import annotations

from dataclasses import replace

import networkx as nx

from kg.graph.knowledge import default_knowledge
from kg.quality.audit import audit, report
from kg.text.keys import surface_key


def graph_with(entities: dict[str, tuple[str, tuple[str, ...], int]]) -> nx.DiGraph:
    """Entities id -> (label, aliases, papers linking to it); each linking paper is its own node."""
    graph = nx.DiGraph()
    for node, (label, aliases, papers) in entities.items():
        graph.add_node(node, kind="entity", type=node.split(":")[0], label=label, aliases=aliases, papers=papers)
        for i in range(papers):
            graph.add_node(f"paper:{node}{i}", kind="paper")
            graph.add_edge(f"paper:{node}{i}", node, kind="mention")
    return graph


def test_audit_finds_each_kind_of_problem():
    result = audit(graph_with({
        "method:zorp": ("zorp", ("ZRP",), 3), "method:zorp-2": ("Zorp", (), 0),
        "metric:blarg-score": ("Blarg score", (), 2), "metric:blarg": ("Blarg", (), 1),
        "dataset:glim": ("Glim (GL), and Frob", (), 1), "task:wub": ("wub- bing", (), 1),
        "model:zrp": ("ZRP", (), 1), "method:machine-learning": ("machine learning", (), 9)}))
    assert [line.split()[0] for line in result.orphans] == ["method:zorp-2"]
    assert {line.split(":")[0] + ":" + line.split(":")[1] for line in result.suspicious} == {"dataset:glim", "task:wub"}
    assert any("metric:blarg" in d and "metric:blarg-score" in d for d in result.duplicates)
    assert any("method:zorp" in d and "method:zorp-2" in d for d in result.duplicates)
    assert result.shared_acronyms == ["ZRP: method:zorp, model:zrp"]
    assert result.generic == ["method:machine-learning ('machine learning')"]
    assert result.hubs["method"][0] == ("method:machine-learning", "machine learning", 9)


def test_clean_graph_reports_no_findings():
    result = audit(graph_with({"method:zorp": ("zorp", ("ZRP",), 2), "dataset:glim": ("Glim", (), 1)}))
    assert result.counts() == {"entities": 2, "orphans": 0, "suspicious labels": 0, "probable duplicates": 0,
                               "shared acronyms": 0, "generic names": 0, "type conflicts": 0,
                               "fragments and adjectives": 0, "split acronyms": 0, "doubtful proposals": 0,
                               "case collisions": 0, "multi-coinage names": 0, "generic aliases": 0,
                               "split definitions": 0, "debris labels": 0, "proposed kinds": 0, "variants apart": 0}
    assert next(iter(report(result))).startswith("entities: 2  orphans: 0")


def test_audit_reads_a_graphml_export(tmp_path):
    graph = graph_with({"method:zorp": ("zorp", ("ZRP", "Zorps"), 1)})
    graph.nodes["method:zorp"]["aliases"] = "ZRP; Zorps"  # as GraphML stores lists
    nx.write_graphml(graph, tmp_path / "g.graphml")
    result = audit(nx.read_graphml(tmp_path / "g.graphml"))
    assert result.entities == 1 and not result.duplicates and not result.orphans


def test_audit_finds_what_a_researcher_checks_first_and_counts_it_among_the_top_entities():
    graph = graph_with({  # the gazetteer's well-known names (general knowledge); the rest invented
        "method:imagenet": ("ImageNet", (), 9), "metric:modal-zorp-accuracy": ("modal zorp accuracy", (), 8),
        "method:glimmative": ("glimmative", (), 7), "model:qzm": ("QZM", ("quasi zonal model", "quick zap machine"), 6),
        "model:clip": ("CLIP", (), 5), "method:zorp-tuning": ("zorp tuning", (), 12),
        "dataset:glim": ("Glim", (), 4)})
    graph.nodes["model:clip"]["proposed_by"] = 1
    graph.edges["paper:metric:modal-zorp-accuracy0", "metric:modal-zorp-accuracy"]["evidence"] = "A multi-modal zorp accuracy."
    graph.nodes["method:zorp-tuning"]["proposed_by"] = 1
    result = audit(graph, check_top=50)
    assert [line.split()[0] for line in result.type_conflicts] == ["method:imagenet"]
    assert [line.split()[0] for line in result.odd_labels] == ["method:glimmative", "metric:modal-zorp-accuracy"]
    assert [line.split()[0] for line in result.split_acronyms] == ["model:qzm"]
    assert [line.split()[0] for line in result.doubtful_proposals] == ["method:zorp-tuning", "model:clip"]
    assert "introduced 2021" in result.doubtful_proposals[1]
    assert result.top_flagged == {"dataset": 0, "method": 3, "metric": 1, "model": 2}
    assert audit(graph, check_top=1).top_flagged == {"dataset": 0, "method": 1, "metric": 1, "model": 1}
    assert any(line.startswith("flagged among the top 50 per type: dataset 0, method 3") for line in report(result))


def test_lint_finds_each_resolution_pattern_and_counts_it_among_the_top_entities():
    graph = graph_with({
        "model:zorp": ("ZORP", ("zorps", "ZORPs", "Zorp"), 5), "method:zora": ("ZoRA", ("ZoRa", "ZORA"), 4),
        "dataset:medzorbqa": ("MedZorbQA", ("medical zorb answering",), 3), "metric:mzou": ("mZoU", ("ZoU",), 3),
        "metric:pass-1": ("zass@1", ("zass@k",), 3), "method:trace": ("TRAZE", (), 3),
        "metric:accuracy": ("% accuracy", (), 2), "method:zade": ("ZADE", (), 1),
        "method:zonal-adaptive-debias-ensemble": ("Zonal Adaptive Debias Ensemble", (), 1),
        "model:deep-zorb-network": ("deep zorb network", (), 4), "model:zorbic-network": ("zorbic network", (), 2),
        "model:zorbic-neural-network": ("zorbic neural network", ("ZNN",), 3),
        "metric:zorb-rate": ("zorb rate", (), 2), "metric:zorb-ratio": ("zorb ratio", (), 2)})
    graph.nodes["method:trace"]["proposed_by"] = 3
    graph.nodes["model:deep-zorb-network"]["proposed_by"] = 2
    graph.add_node("paper:p", kind="paper", abstract="We propose ZADE (Zonal Adaptive Debias Ensemble) here.")
    graph.add_edge("paper:p", "method:zade", kind="mention")
    graph.add_edge("paper:p", "method:zonal-adaptive-debias-ensemble", kind="mention")
    knowledge = replace(default_knowledge(surface_key), others=frozenset({"ZoRa"}))  # ZoRa names something else
    result = audit(graph, knowledge=knowledge)
    ids = {name: [line.split()[0].rstrip(":") for line in lines] for name, lines in result.patterns().items()}
    assert ids == {"case collisions": ["method:zora", "model:zorp"], "multi-coinage names": ["method:trace"],
                   "generic aliases": ["dataset:medzorbqa", "metric:mzou", "metric:pass-1"],
                   "split definitions": ["paper:p"], "debris labels": ["metric:accuracy"],
                   "proposed kinds": ["model:deep-zorb-network"],
                   "variants apart": ["metric:zorb-rate", "model:zorbic-network"]}
    assert result.pattern_top["split definitions"]["method"] == 2 and result.pattern_top["case collisions"]["model"] == 1
    clean = audit(graph_with({"model:zorp": ("ZORP", ("ZORPs", "Zorp"), 5), "metric:zou": ("ZoU", ("ZOU",), 2),
                              "dataset:zorbqa": ("ZorbQA", ("Zorb QA",), 2)}))
    assert not any(clean.patterns().values())
