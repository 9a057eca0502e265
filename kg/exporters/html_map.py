"""The HTML view's map: entity communities, their names, and positions for every node (fixed seed).

The map is drawn from the entities first. The core is the entities the page opens on (named by
at least `min_papers` papers, chosen so that at most `CORE_LIMIT` are shown); they are linked by
co-occurrence (papers naming both), split into weighted Louvain communities, and each community is
laid out on its own (Fruchterman-Reingold) inside a disk; the disks are placed by a layout of the
community graph and pushed apart until none overlap. Papers sit near the centroid of the core
entities they name, other entities near the centroid of their papers; papers naming no core
entity ring the map. A community is named by its entities named in the most papers.
"""
from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Hashable

import igraph
import networkx as nx
import numpy as np

from kg.exporters.layout import memo, seeded

Node = Hashable
CORE_LIMIT = 1500  # entities on the first view
SPACING = 30.0  # layout units per core entity, as the square root of its share of area
NAME_ENTITIES = 3  # entities in a community's name
RESOLUTION = 2.0  # Louvain resolution: above 1 splits a 5k-paper field into ~25 topics instead of ~9
NAMED_SIZE = 3  # smaller communities get no name
PARTNERS = 3  # strongest co-occurrence partners kept per entity for drawing
GRAVITY = np.array([0.985, 0.96])  # per-round pull of community disks towards the centre (x, y)
ASPECT = 1.5  # width / height of the ring of small communities


@dataclass(frozen=True)
class Community:
    """A group of core entities: number (0 = largest), name, members, centre and radius."""

    number: int
    name: str
    top: tuple[Node, ...]
    size: int
    papers: int
    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Map:
    """Positions and community of every node, the communities, and the co-occurrence edges to draw."""

    min_papers: int
    positions: dict[Node, tuple[float, float]]
    community: dict[Node, int]
    communities: list[Community]
    cooccurrence: list[tuple[Node, Node, int]]


def default_min_papers(G: nx.DiGraph, limit: int = CORE_LIMIT) -> int:
    """The smallest paper count k such that at most `limit` entities are named by ≥ k papers (≥ 1 entity)."""
    counts = sorted((int(d.get("papers") or 0) for _, d in G.nodes(data=True) if d.get("kind") == "entity"),
                    reverse=True)
    if len(counts) <= limit:
        return 1
    return max(1, min(counts[limit] + 1, counts[0]))  # never an empty first view, even when the top ties


def cooccurrence(G: nx.DiGraph) -> Counter:
    """Number of papers naming each pair of entities (pairs in graph order)."""
    order = {node: i for i, node in enumerate(G)}
    pairs: Counter = Counter()
    for paper, kind in G.nodes(data="kind"):
        if kind == "paper":
            named = sorted((e for e, d in G.succ[paper].items() if d.get("kind") == "mention"), key=order.get)
            pairs.update(combinations(named, 2))
    return pairs


def strongest(pairs: Counter, G: nx.DiGraph, keep: int = PARTNERS) -> list[tuple[Node, Node, int]]:
    """Each entity's `keep` strongest co-occurrence pairs (ties: better-known partner), in pair order."""
    partners: dict[Node, list[tuple[int, int, Node, Node]]] = {}
    order = {node: i for i, node in enumerate(G)}
    known = {node: int(data.get("papers") or 0) for node, data in G.nodes(data=True)}
    for (a, b), weight in pairs.items():
        partners.setdefault(a, []).append((-weight, -known[b], order[b], b))
        partners.setdefault(b, []).append((-weight, -known[a], order[a], a))
    kept = {(node, other) if order[node] < order[other] else (other, node) for node, found in partners.items()
            for *_, other in heapq.nsmallest(keep, found)}
    return [(a, b, pairs[(a, b)]) for a, b in sorted(kept, key=lambda p: (order[p[0]], order[p[1]]))]


@dataclass(frozen=True)
class Topics:
    """The graph's one community detection (the page's map and GraphML's `community` both read it)."""

    min_papers: int
    pairs: Counter  # papers naming each pair of entities
    core_pairs: dict  # the pairs among core entities
    groups: list[list[Node]]  # core entities by community, largest first
    community: dict[Node, int]  # core entities; papers naming one; other entities through their papers


def topic_communities(G: nx.DiGraph, seed: int = 42, limit: int = CORE_LIMIT) -> Topics:
    """Weighted Louvain communities of the core entities' co-occurrence, extended to papers and other entities
    by majority (computed once per graph: exporters of one build share it)."""
    return memo(G, ("topics", seed, limit), lambda: _topics(G, seed, limit))


def _topics(G: nx.DiGraph, seed: int, limit: int) -> Topics:
    min_papers = default_min_papers(G, limit)
    core = [n for n, d in G.nodes(data=True) if d.get("kind") == "entity" and int(d.get("papers") or 0) >= min_papers]
    pairs = cooccurrence(G)
    core_set = set(core)
    core_pairs = {p: w for p, w in pairs.items() if p[0] in core_set and p[1] in core_set}
    groups = numbered_groups(core, louvain(core, core_pairs, seed), G)
    community = {node: k for k, group in enumerate(groups) for node in group}
    for node, data in G.nodes(data=True):  # a paper joins the community most of its core entities are in
        named = [e for e, d in G.succ[node].items() if d.get("kind") == "mention" and e in core_set]
        if data.get("kind") == "paper" and named:
            community[node] = Counter(community[e] for e in named).most_common(1)[0][0]
    for node, data in G.nodes(data=True):  # another entity: the community most of its papers are in
        if data.get("kind") == "paper" or node in core_set:
            continue
        papers = [p for p, d in G.pred[node].items() if d.get("kind") == "mention"]
        if papers and papers[0] in community:
            community[node] = Counter(community[p] for p in papers if p in community).most_common(1)[0][0]
    return Topics(min_papers, pairs, core_pairs, groups, community)


def build_map(G: nx.DiGraph, seed: int = 42, limit: int = CORE_LIMIT) -> Map:
    """The whole map of `G`: deterministic for the same graph and seed."""
    topics = topic_communities(G, seed, limit)
    pos, communities = place_core(G, topics.groups, topics.core_pairs, topics.community, seed)
    place_rest(G, pos, seed)
    return Map(topics.min_papers, {n: (round(pos[n][0], 1) + 0.0, round(pos[n][1], 1) + 0.0) for n in G},
               dict(topics.community), communities, strongest(topics.pairs, G))


def louvain(nodes: list[Node], pairs: dict, seed: int) -> list[int]:
    """Weighted Louvain membership of `nodes` (igraph multilevel, seeded)."""
    index = {node: i for i, node in enumerate(nodes)}
    edges = [(index[a], index[b]) for a, b in pairs]
    graph = igraph.Graph(n=len(nodes), edges=edges)
    if not nodes:
        return []
    with seeded(seed):
        return graph.community_multilevel(weights=list(pairs.values()) or None, resolution=RESOLUTION).membership


def numbered_groups(nodes: list[Node], membership: list[int], G: nx.DiGraph) -> list[list[Node]]:
    """Members of each community, largest first (ties: the most papers, then first node)."""
    groups: dict[int, list[Node]] = {}
    for node, group in zip(nodes, membership):
        groups.setdefault(group, []).append(node)
    order = {node: i for i, node in enumerate(G)}
    return sorted(groups.values(), key=lambda g: (-len(g), -papers_of(G, g), order[g[0]]))


def papers_of(G: nx.DiGraph, nodes: list[Node]) -> int:
    """Distinct papers naming any of `nodes`."""
    return len({p for n in nodes for p, d in G.pred[n].items() if d.get("kind") == "mention"})


def top_entities(G: nx.DiGraph, members: list[Node], count: int = NAME_ENTITIES) -> tuple[Node, ...]:
    """The members named in the most papers (ties: label)."""
    ranked = sorted(members, key=lambda n: (-int(G.nodes[n].get("papers") or 0), str(G.nodes[n].get("label"))))
    return tuple(ranked[:count])


def place_core(G: nx.DiGraph, groups: list[list[Node]], pairs: dict, number: dict, seed: int):
    """Positions of core entities and the Community records."""
    radii = np.array([SPACING * math.sqrt(len(g)) * 0.75 + SPACING for g in groups])
    centres = community_centres(groups, number, pairs, radii, seed)
    pos: dict[Node, tuple[float, float]] = {}
    communities = []
    for k, group in enumerate(groups):
        local = local_layout(group, pairs, number, seed) * (radii[k] - SPACING * 0.5)
        for node, (x, y) in zip(group, local):
            pos[node] = (centres[k][0] + x, centres[k][1] + y)
        top = top_entities(G, group)
        name = " · ".join(str(G.nodes[n].get("label")) for n in top) if len(group) >= NAMED_SIZE else ""
        communities.append(Community(k, name, top, len(group),
                                     papers_of(G, group), round(float(centres[k][0]), 1) + 0.0,
                                     round(float(centres[k][1]), 1) + 0.0, round(float(radii[k]), 1)))
    return pos, communities


def community_centres(groups, number, pairs, radii: np.ndarray, seed: int) -> np.ndarray:
    """Centres of the community disks: a layout of the community graph, packed tight without overlaps.

    Communities too small to be named ring the packed ones."""
    n = len(groups)
    if n == 0:  # a graph without entities (every paper's extraction found none)
        return np.zeros((0, 2))
    named = [k for k in range(n) if len(groups[k]) >= NAMED_SIZE] or list(range(n))
    between: Counter = Counter()
    for (a, b), weight in pairs.items():
        if number[a] != number[b] and number[a] in named and number[b] in named:
            between[tuple(sorted((named.index(number[a]), named.index(number[b]))))] += weight
    graph = igraph.Graph(n=len(named), edges=list(between))
    with seeded(seed):
        coords = np.array(graph.layout_fruchterman_reingold(weights=list(between.values()) or None,
                                                           niter=500, grid="nogrid").coords, dtype=float)
    centres = np.zeros((n, 2))
    centres[named] = pack(coords, radii[named])
    rest = [k for k in range(n) if k not in set(named)]
    if rest:
        height = float(max(np.abs(centres[named][:, 1]) + radii[named])) + SPACING * 2
        width = max(float(max(np.abs(centres[named][:, 0]) + radii[named])) + SPACING * 2, height * ASPECT)
        for j, k in enumerate(rest):
            angle = 2 * math.pi * j / len(rest)
            centres[k] = (width + radii[k]) * math.cos(angle), (height + radii[k]) * math.sin(angle)
    return centres


def pack(coords: np.ndarray, radii: np.ndarray, gap: float = SPACING, rounds: int = 400) -> np.ndarray:
    """Disks at `coords` (any scale) pulled together and pushed apart until tight and without overlap."""
    if len(coords) == 0:
        return coords
    centres = coords - coords.mean(axis=0)
    spread = np.sqrt((centres ** 2).sum(axis=1)).max() or 1.0
    centres = centres * (radii.sum() / spread)
    for step in range(rounds):
        if step < rounds - 100:
            centres *= GRAVITY  # pulls harder vertically: a wide map for a wide screen; the last rounds only separate
        delta = centres[:, None, :] - centres[None, :, :]
        dist = np.sqrt((delta ** 2).sum(axis=2)) + np.eye(len(centres))
        overlap = np.maximum(radii[:, None] + radii[None, :] + gap - dist, 0)
        np.fill_diagonal(overlap, 0)
        if step >= rounds - 100 and not overlap.any():
            break
        centres += (delta / dist[:, :, None] * overlap[:, :, None] * 0.5).sum(axis=1)
    return centres - centres.mean(axis=0)


def local_layout(group: list[Node], pairs: dict, number: dict, seed: int) -> np.ndarray:
    """Positions of one community's members within the unit disk (weighted Fruchterman-Reingold)."""
    if len(group) == 1:
        return np.zeros((1, 2))
    index = {node: i for i, node in enumerate(group)}
    inside = {(index[a], index[b]): w for (a, b), w in pairs.items() if a in index and b in index}
    graph = igraph.Graph(n=len(group), edges=list(inside))
    with seeded(seed):
        coords = np.array(graph.layout_fruchterman_reingold(weights=list(inside.values()) or None,
                                                           niter=300, grid="nogrid").coords, dtype=float)
    return fill_disk(coords)


def fill_disk(coords: np.ndarray) -> np.ndarray:
    """Points moved along their rays so that they fill the unit disk evenly (area by distance rank)."""
    coords = coords - np.median(coords, axis=0)
    distance = np.sqrt((coords ** 2).sum(axis=1))
    rank = np.empty(len(coords))
    rank[np.argsort(distance, kind="stable")] = np.arange(len(coords))
    target = np.sqrt((rank + 0.5) / len(coords))
    return coords * (target / np.maximum(distance, 1e-9))[:, None]


def place_rest(G: nx.DiGraph, pos: dict, seed: int) -> None:
    """Papers near their core entities' centroid, other entities near their papers' centroid."""
    rng = np.random.default_rng(seed)
    stray: list[Node] = []
    for node, data in G.nodes(data=True):
        if data.get("kind") != "paper":
            continue
        core = [e for e, d in G.succ[node].items() if d.get("kind") == "mention" and e in pos]
        if not core:
            stray.append(node)
            continue
        pos[node] = jitter(np.mean([pos[e] for e in core], axis=0), rng, SPACING * 0.9)
    ring(pos, stray, rng)
    for node, data in G.nodes(data=True):
        if node in pos:
            continue
        papers = [p for p, d in G.pred[node].items() if d.get("kind") == "mention" and p in pos]
        centre = np.mean([pos[p] for p in papers], axis=0) if papers else np.zeros(2)
        pos[node] = jitter(centre, rng, SPACING * 0.8)


def jitter(centre: np.ndarray, rng: np.random.Generator, radius: float) -> tuple[float, float]:
    """A point at a random angle and distance (≤ radius) from `centre`."""
    angle, distance = rng.uniform(0, 2 * math.pi), radius * math.sqrt(rng.uniform(0.2, 1.0))
    return float(centre[0] + distance * math.cos(angle)), float(centre[1] + distance * math.sin(angle))


def ring(pos: dict, nodes: list[Node], rng: np.random.Generator) -> None:
    """Place `nodes` evenly on a wide ellipse just outside everything placed so far."""
    if not nodes:
        return
    placed = np.array(list(pos.values())) if pos else np.zeros((1, 2))
    radius = float(np.sqrt((placed ** 2).sum(axis=1)).max()) + SPACING * 3
    radius = max(radius, SPACING * len(nodes) / (2 * math.pi * ASPECT))
    for k, node in enumerate(nodes):
        angle = 2 * math.pi * k / len(nodes)
        pos[node] = (radius * ASPECT * math.cos(angle), radius * math.sin(angle))
