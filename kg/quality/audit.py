"""Audit the content of a built graph, for a user judging a graph they built: entities no paper names,
labels that are not names, probable duplicates, acronyms shared by several entities, generic names,
and the biggest hubs per type. Works on the in-memory graph or a GraphML export."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

import networkx as nx

from kg.text.keys import acronym_key, match_key, surface_key
from kg.graph.knowledge import Knowledge, default_knowledge
from kg.graph.labels import label_problems
from kg.graph.variants import BLOCKED, KIND_SUFFIX, KINDS
from kg.quality import patterns, trust

TYPES = ("method", "model", "dataset", "task", "metric")
SEPARATED = "--"  # in an id: a concept labelled like another one (kg.graph.ids)


@dataclass
class Audit:
    """Findings; each list holds human-readable lines naming entity ids and labels."""

    entities: int = 0
    orphans: list[str] = field(default_factory=list)
    suspicious: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    shared_acronyms: list[str] = field(default_factory=list)
    generic: list[str] = field(default_factory=list)
    type_conflicts: list[str] = field(default_factory=list)
    odd_labels: list[str] = field(default_factory=list)
    split_acronyms: list[str] = field(default_factory=list)
    doubtful_proposals: list[str] = field(default_factory=list)
    case_collisions: list[str] = field(default_factory=list)
    coinages: list[str] = field(default_factory=list)
    generic_aliases: list[str] = field(default_factory=list)
    split_definitions: list[str] = field(default_factory=list)
    debris_labels: list[str] = field(default_factory=list)
    proposed_kinds: list[str] = field(default_factory=list)
    variants_apart: list[str] = field(default_factory=list)
    pattern_top: dict[str, dict[str, int]] = field(default_factory=dict)  # pattern -> type -> top entities named
    hubs: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    checked_top: int = 50
    top_flagged: dict[str, int] = field(default_factory=dict)  # of the `checked_top` entities per type

    def counts(self) -> dict[str, int]:
        """How many findings of each kind."""
        return {"entities": self.entities, "orphans": len(self.orphans), "suspicious labels": len(self.suspicious),
                "probable duplicates": len(self.duplicates), "shared acronyms": len(self.shared_acronyms),
                "generic names": len(self.generic), "type conflicts": len(self.type_conflicts),
                "fragments and adjectives": len(self.odd_labels), "split acronyms": len(self.split_acronyms),
                "doubtful proposals": len(self.doubtful_proposals), **{k: len(v) for k, v in self.patterns().items()}}

    def patterns(self) -> dict[str, list[str]]:
        """The findings of issue 30's resolution patterns, by name."""
        return {"case collisions": self.case_collisions, "multi-coinage names": self.coinages,
                "generic aliases": self.generic_aliases, "split definitions": self.split_definitions,
                "debris labels": self.debris_labels, "proposed kinds": self.proposed_kinds,
                "variants apart": self.variants_apart}

    def findings(self) -> dict[str, list[str]]:
        """Every list of findings by its title."""
        return {"orphans": self.orphans, "suspicious labels": self.suspicious, "probable duplicates": self.duplicates,
                "shared acronyms": self.shared_acronyms, "generic names": self.generic,
                "type conflicts with the gazetteer": self.type_conflicts,
                "fragments and adjectives": self.odd_labels, "acronyms spelled out differently": self.split_acronyms,
                "doubtful proposals": self.doubtful_proposals, **self.patterns()}


def aliases_of(data: dict) -> list[str]:
    """Aliases as a list, whether the graph is in memory (tuple) or read from GraphML (`; `-joined)."""
    value = data.get("aliases") or ()
    return [a for a in value.split("; ") if a] if isinstance(value, str) else list(value)


def entity_nodes(graph: nx.Graph) -> list[tuple[str, dict]]:
    """Entity nodes sorted by id."""
    return sorted((n, d) for n, d in graph.nodes(data=True) if d.get("kind") == "entity")


def mentioned(graph: nx.Graph, node: str) -> int:
    """Papers linked to an entity by a mention edge."""
    preds = graph.predecessors(node) if graph.is_directed() else graph.neighbors(node)
    return sum(1 for p in preds if graph.nodes[p].get("kind") == "paper")


def name_key(label: str) -> str:
    """A loose key for duplicate detection: an acronym as the resolver keys it (mAP is not MAP), else the
    match key without a trailing kind word (score, dataset...)."""
    match = KIND_SUFFIX.match(label)
    return acronym_key(label) or match_key(match.group("name") if match else label)


def distinct_kinds(a: dict, b: dict) -> bool:
    """`X algorithm` (method) and the task X, `Inception score` and the model Inception: not duplicates."""
    for one, other in ((a, b), (b, a)):
        match = KIND_SUFFIX.match(one["label"])
        if match and other.get("type") in BLOCKED[KINDS[match.group("kind").lower()]]:
            return True
    return False


def find_duplicates(nodes: list[tuple[str, dict]]) -> list[str]:
    """Pairs of entities whose labels (or one's label and another's alias) share a loose key."""
    owners: dict[str, set[str]] = defaultdict(set)
    for node, data in nodes:
        owners[name_key(data["label"])].add(node)
    found = set()
    for node, data in nodes:
        keys = {name_key(data["label"])} | {name_key(a) for a in aliases_of(data) if not acronym_key(a)}
        found |= {tuple(sorted((node, other))) for key in keys for other in owners.get(key, ()) if other != node}
    data_of = dict(nodes)
    pairs = [(a, b) for a, b in sorted(found) if not distinct_kinds(data_of[a], data_of[b])
             and SEPARATED not in a + b]  # `--` ids: readings and coinages the resolver keeps apart on purpose
    return [f"{a} ({data_of[a]['label']!r}) = {b} ({data_of[b]['label']!r})" for a, b in pairs]


def shared_acronyms(nodes: list[tuple[str, dict]]) -> list[str]:
    """Acronyms (case-exact) that are a label or alias of several entities: ambiguous or split."""
    owners: dict[str, set[str]] = defaultdict(set)
    for node, data in nodes:
        for form in (data["label"], *aliases_of(data)):
            if key := acronym_key(form):
                owners[key].add(node)
    return [f"{key}: {', '.join(sorted(ids))}" for key, ids in sorted(owners.items()) if len(ids) > 1]


def audit(graph: nx.Graph, top: int = 20, check_top: int = 50, knowledge: Knowledge | None = None) -> Audit:
    """All findings for one graph, and how many of the `check_top` entities per type they name (`knowledge`: the
    shipped gazetteer unless given)."""
    nodes = entity_nodes(graph)
    knowledge = knowledge or default_knowledge(surface_key)
    generic = knowledge.generic
    result = Audit(entities=len(nodes), checked_top=check_top)
    for node, data in nodes:
        label = data.get("label", "")
        if mentioned(graph, node) == 0:
            result.orphans.append(f"{node} ({label!r}): no paper names it")
        for form in (label, *aliases_of(data)):
            if problems := label_problems(form):
                result.suspicious.append(f"{node}: {form!r}: {', '.join(problems)}")
        if surface_key(label) in generic:
            result.generic.append(f"{node} ({label!r})")
    result.duplicates = find_duplicates(nodes)
    result.shared_acronyms = shared_acronyms(nodes)
    listed = [(node, {**data, "aliases": aliases_of(data)}) for node, data in nodes]
    result.type_conflicts = trust.type_conflicts(listed, knowledge)
    result.odd_labels = trust.odd_labels(listed, graph)
    result.split_acronyms = trust.split_expansions(listed)
    result.doubtful_proposals = trust.doubtful_proposals(listed, knowledge)
    result.case_collisions = patterns.case_collisions(listed, graph, knowledge.others)
    result.coinages = patterns.coinages(listed, knowledge)
    result.generic_aliases = patterns.generic_aliases(listed)
    result.split_definitions = patterns.split_definitions(graph, listed)
    result.debris_labels = patterns.debris_labels(listed)
    result.proposed_kinds = patterns.proposed_kinds(listed)
    result.variants_apart = patterns.variants_apart(listed, knowledge)
    result.hubs = hubs(nodes, top)
    top_ids = trust.by_type(listed, check_top)
    result.pattern_top = {name: patterns.in_top(top_ids, lines) for name, lines in result.patterns().items()}
    checked = (result.suspicious, result.generic, result.type_conflicts, result.odd_labels, result.split_acronyms,
               result.doubtful_proposals, result.case_collisions, result.coinages, result.generic_aliases,
               result.split_definitions, result.debris_labels, result.proposed_kinds, result.variants_apart)  # what is wrong, not what may be (duplicates, shared acronyms)
    result.top_flagged = trust.flagged_top(top_ids, (line for lines in checked for line in lines))
    return result


def hubs(nodes: Iterable[tuple[str, dict]], top: int) -> dict[str, list[tuple[str, str, int]]]:
    """The `top` entities per type by number of papers: (id, label, papers)."""
    by_type: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for node, data in nodes:
        by_type[data.get("type", "")].append((node, data["label"], int(data.get("papers", 0))))
    return {t: sorted(by_type[t], key=lambda x: (-x[2], x[1]))[:top] for t in TYPES if by_type[t]}


def report(result: Audit, limit: int = 20) -> Iterable[str]:
    """Printable lines: counts, then up to `limit` findings per kind, then the hubs."""
    yield "  ".join(f"{name}: {count}" for name, count in result.counts().items())
    for title, lines in result.findings().items():
        if lines:
            yield f"{title} ({len(lines)}):"
            yield from (f"  {line}" for line in lines[:limit])
            if len(lines) > limit:
                yield f"  ... {len(lines) - limit} more"
    for entity_type, rows in result.hubs.items():
        yield f"top {entity_type}: " + ", ".join(f"{label} ({papers})" for _, label, papers in rows)
    for name, counts in result.pattern_top.items():
        yield f"{name} among the top {result.checked_top} per type: " + ", ".join(f"{t} {n}" for t, n in counts.items())
    yield (f"flagged among the top {result.checked_top} per type: "
           + ", ".join(f"{t} {n}" for t, n in result.top_flagged.items()))
