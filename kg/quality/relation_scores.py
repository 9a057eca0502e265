"""Score relations against gold: per abstract, (head, relation, tail) triples matched one to one when the
relation is the same and head and tail share a normalised form with the gold's (any name or alias)."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

import networkx as nx

from kg.quality.evaluate import PRF, key, maximum_matching
from kg.types import RELATION_TYPES

Keys = frozenset[str]
Triple = tuple[Keys, str, Keys]


def gold_keys(record: dict) -> dict[str, Keys]:
    """Each gold name and alias key of a record -> every key of its entity."""
    found: dict[str, Keys] = {}
    for entity in record.get("entities", ()):
        keys = frozenset(k for k in (key(f) for f in (entity["name"], *entity.get("aliases", ()))) if k)
        for k in keys:
            found[k] = found.get(k, frozenset()) | keys
    return found


def gold_triples(record: dict, relations: Iterable[dict]) -> list[Triple]:
    """The gold relations of one abstract as (head keys, relation, tail keys), duplicates dropped."""
    keys = gold_keys(record)
    found = []
    for r in relations:
        h, t = key(r["head"]), key(r["tail"])
        triple = (keys.get(h, frozenset({h})), r["relation"], keys.get(t, frozenset({t})))
        if triple not in found:
            found.append(triple)
    return found


def graph_triples(graph: nx.DiGraph) -> dict[str, list[Triple]]:
    """Per paper, the relations the graph states with evidence from that paper, each end as its forms there."""
    forms: dict[tuple[str, str], set[str]] = defaultdict(set)
    for source, target, data in graph.edges(data=True):
        if data.get("kind") == "mention":
            paper = graph.nodes[source]["paper_id"]
            node = graph.nodes[target]
            forms[paper, target] |= {node["label"], *node.get("aliases", ()), *(e.text for e in data["evidence"])}
    found: dict[str, list[Triple]] = defaultdict(list)
    for source, target, data in graph.edges(data=True):
        if data.get("kind") != "relation":
            continue
        for relation, evidence in data["relations"].items():
            for paper in sorted({e.paper_id for e in evidence}):
                head = frozenset(k for k in map(key, forms[paper, source]) if k)
                tail = frozenset(k for k in map(key, forms[paper, target]) if k)
                found[paper].append((head, relation, tail))
    return found


def same_triple(predicted: Triple, gold: Triple) -> bool:
    """Whether a predicted triple states a gold one: the same relation, and each end shares a key with the gold's."""
    return predicted[1] == gold[1] and bool(predicted[0] & gold[0]) and bool(predicted[2] & gold[2])


def matched(predicted: list[Triple], gold: list[Triple]) -> int:
    """The size of a maximum one-to-one matching of predicted to gold triples."""
    return len(maximum_matching([[g for g, triple in enumerate(gold) if same_triple(p, triple)] for p in predicted]))


def score_relations(predicted: dict[str, list[Triple]], gold: dict[str, list[Triple]]) -> dict[str, PRF]:
    """P/R/F1 per relation type and overall (`all`), on the gold's papers."""
    scores = {name: PRF() for name in (*RELATION_TYPES, "all")}
    for paper, golds in gold.items():
        preds = predicted.get(paper, [])
        for name in RELATION_TYPES:
            p = [t for t in preds if t[1] == name]
            g = [t for t in golds if t[1] == name]
            scores[name].add(PRF(matched(p, g), len(p), len(g)))
    for name in RELATION_TYPES:
        scores["all"].add(scores[name])
    return scores
