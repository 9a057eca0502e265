"""Score a built graph against gold entities: paper-level P/R/F1, roles, cross-paper linking."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Iterable

import networkx as nx

from kg.text.keys import match_key
from kg.text.markup import strip_markup

CARD_TYPES = ("method", "model", "dataset", "task")
ALL_TYPES = CARD_TYPES + ("metric",)


@dataclass(frozen=True)
class Item:
    """One entity of one paper (predicted or gold) with all its surface forms."""

    paper_id: str
    type: str
    role: str
    forms: tuple[str, ...]
    node: str = ""  # the graph node (predicted) or "" (gold)

    @property
    def name(self) -> str:
        """The first (display) form."""
        return self.forms[0] if self.forms else ""

    @cached_property
    def keys(self) -> frozenset[str]:
        """The normalised forms used for matching."""
        return frozenset(k for k in (key(f) for f in self.forms) if k)


@dataclass
class PRF:
    """Counts and micro precision / recall / F1."""

    tp: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.tp / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: PRF) -> None:
        """Accumulate another count."""
        self.tp, self.predicted, self.gold = self.tp + other.tp, self.predicted + other.predicted, self.gold + other.gold

    def to_dict(self) -> dict:
        """Counts and rounded figures."""
        return {**asdict(self), "precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "f1": round(self.f1, 4)}


@dataclass
class PaperDiff:
    """What one paper got wrong: gold not found, predictions not in gold, type confusions."""

    paper_id: str
    missed: list[Item] = field(default_factory=list)
    spurious: list[Item] = field(default_factory=list)
    wrong_type: list[tuple[Item, Item]] = field(default_factory=list)  # (predicted, gold)
    wrong_role: list[tuple[Item, Item]] = field(default_factory=list)  # (predicted, gold)


@dataclass
class Scores:
    """All figures of one evaluation."""

    typed: PRF
    untyped: PRF
    per_type: dict[str, PRF]
    metric: PRF
    proposed: PRF
    linking: PRF
    papers: int
    diffs: list[PaperDiff] = field(default_factory=list)

    def to_dict(self) -> dict:
        """A JSON-ready summary (no diffs)."""
        return {"papers": self.papers, "typed": self.typed.to_dict(), "untyped": self.untyped.to_dict(),
                "per_type": {t: s.to_dict() for t, s in self.per_type.items()},
                "metric": self.metric.to_dict(), "proposed": self.proposed.to_dict(),
                "linking": self.linking.to_dict()}


def key(form: str) -> str:
    """The matching key of a surface form: markup stripped, then `match_key` (spacing ignored)."""
    return match_key(strip_markup(form).text)


def gold_items(records: Iterable[dict]) -> list[Item]:
    """Gold entities as items: name first, then aliases."""
    return [Item(r["id"], e["type"], e.get("role", "used"), (e["name"], *e.get("aliases", ())))
            for r in records for e in r.get("entities", ())]


def graph_items(graph: nx.DiGraph) -> list[Item]:
    """Predicted entities per paper: label + aliases + that paper's mention texts."""
    items = []
    for source, target, data in graph.edges(data=True):
        if data.get("kind") != "mention":
            continue
        node = graph.nodes[target]
        texts = tuple(e.text for e in data.get("evidence", ()))
        forms = (node["label"], *node.get("aliases", ()), *texts)
        items.append(Item(graph.nodes[source]["paper_id"], node["type"], data["role"], forms, target))
    return sorted(items, key=lambda i: (i.paper_id, i.node))


def maximum_matching(edges: list[list[int]]) -> dict[int, int]:
    """A maximum one-to-one matching (augmenting paths): gold index -> predicted index, from each predicted
    item's list of the gold items it may match."""
    owner: dict[int, int] = {}

    def augment(p: int, seen: set[int]) -> bool:
        for g in edges[p]:
            if g not in seen:
                seen.add(g)
                if g not in owner or augment(owner[g], seen):
                    owner[g] = p
                    return True
        return False

    for p in range(len(edges)):
        augment(p, set())
    return owner


def match(predicted: list[Item], gold: list[Item], typed: bool) -> list[tuple[Item, Item]]:
    """A maximum one-to-one matching of predicted to gold items sharing a normalised form."""
    edges = [[g for g, gi in enumerate(gold) if p.keys & gi.keys and (not typed or p.type == gi.type)]
             for p in predicted]
    return [(predicted[p], gold[g]) for g, p in sorted(maximum_matching(edges).items())]


def count(predicted: list[Item], gold: list[Item], typed: bool) -> PRF:
    """Matches, predicted and gold counts of one paper."""
    return PRF(len(match(predicted, gold, typed)), len(predicted), len(gold))


def by_paper(items: Iterable[Item]) -> dict[str, list[Item]]:
    """Items grouped by paper id."""
    grouped: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        grouped[item.paper_id].append(item)
    return grouped


def score(predicted: Iterable[Item], gold: Iterable[Item]) -> Scores:
    """Score predictions against gold on the gold's papers (predictions elsewhere are ignored)."""
    gold_of, pred_of = by_paper(gold), by_paper(predicted)
    typed, untyped, metric, proposed = PRF(), PRF(), PRF(), PRF()
    per_type = {t: PRF() for t in ALL_TYPES}
    diffs, matched = [], []
    for paper in sorted(gold_of):
        golds, preds = gold_of[paper], pred_of.get(paper, [])
        card_g, card_p = [g for g in golds if g.type in CARD_TYPES], [p for p in preds if p.type in CARD_TYPES]
        typed.add(count(card_p, card_g, True))
        untyped.add(count(card_p, card_g, False))
        for t in ALL_TYPES:
            per_type[t].add(count([p for p in preds if p.type == t], [g for g in golds if g.type == t], True))
        proposed.add(count([p for p in preds if p.role == "proposed"], [g for g in golds if g.role == "proposed"],
                           False))
        pairs = match(preds, golds, False)
        matched.extend(pairs)
        diffs.append(paper_diff(paper, preds, golds, pairs))
    metric = per_type["metric"]
    return Scores(typed, untyped, per_type, metric, proposed, linking(matched, [g for items in gold_of.values() for g in items]), len(gold_of), diffs)


def paper_diff(paper: str, preds: list[Item], golds: list[Item], pairs: list[tuple[Item, Item]]) -> PaperDiff:
    """Missed, spurious and wrongly typed entities of one paper."""
    hit_p, hit_g = {id(p) for p, _ in pairs}, {id(g) for _, g in pairs}
    return PaperDiff(paper, [g for g in golds if id(g) not in hit_g], [p for p in preds if id(p) not in hit_p],
                     [(p, g) for p, g in pairs if p.type != g.type], [(p, g) for p, g in pairs if p.role != g.role])


def concepts(golds: Iterable[Item]) -> dict[str, str]:
    """Gold forms joined into concepts: two forms are one concept when some gold entity lists both."""
    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for item in golds:
        keys = sorted(item.keys)
        for other in keys[:1] + keys[1:]:
            parent[find(other)] = find(keys[0])
    return {k: find(k) for k in list(parent)}


def linking(matched: list[tuple[Item, Item]], golds: Iterable[Item]) -> PRF:
    """Pairs of matched gold entities in different papers: same concept (shared form) vs same node."""
    result = PRF()
    concept = concepts(golds)
    for (p1, g1), (p2, g2) in combinations(matched, 2):
        if g1.paper_id == g2.paper_id:
            continue
        same_gold = bool({concept[k] for k in g1.keys} & {concept[k] for k in g2.keys})
        same_node = p1.node == p2.node
        result.tp += same_gold and same_node
        result.gold += same_gold
        result.predicted += same_node
    return result
