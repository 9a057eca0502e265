"""Deterministic positions, communities, degree, PageRank and per-type colours for exporters.

Everything here is a pure function of the graph and a seed, computed on the simple undirected
graph (igraph, in C: Fruchterman-Reingold takes well under a second at ~15k nodes), and rounded
so that exports are byte-stable. Graphs of up to `SPRING_LIMIT` nodes get one force-directed
layout; larger ones place each community on a Vogel spiral (largest at the centre) and lay out
each community on its own. Communities are not found here: callers pass the graph's one
detection (`kg.exporters.html_map.topic_communities`, which the page's map shows too).
"""
from __future__ import annotations

import math
import random
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Hashable, Iterator, Mapping, TypeVar

import igraph
import networkx as nx
import numpy as np

Node = Hashable
T = TypeVar("T")
_MEMO: "weakref.WeakKeyDictionary[nx.Graph, dict]" = weakref.WeakKeyDictionary()
SPRING_LIMIT = 400
SPRING_ITERATIONS = 150
SPACING = 40.0  # layout units (≈ pixels in the HTML view) per node, as sqrt of area
GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
TYPE_COLORS: dict[str, str] = {
    "paper": "#8c8c8c", "method": "#1f77b4", "model": "#ff7f0e",
    "dataset": "#2ca02c", "task": "#d62728", "metric": "#9467bd",
}
OTHER_COLOR = "#17becf"
NO_COMMUNITY = -1  # a node in none of the graph's topic communities


def memo(G: nx.Graph, key: tuple, compute: Callable[[], T]) -> T:
    """`compute()` once per graph object, size and key (exporters of one run share the work)."""
    cache = _MEMO.setdefault(G, {})
    full_key = (*key, G.number_of_nodes(), G.number_of_edges())
    if full_key not in cache:
        cache[full_key] = compute()
    return cache[full_key]


@dataclass(frozen=True)
class Indexed:
    """The graph's nodes in graph order and the simple undirected igraph over their positions."""

    nodes: list[Node]
    graph: igraph.Graph


def indexed(G: nx.Graph) -> Indexed:
    """`G` as a simple undirected igraph (no loops, no parallel edges), vertex i = i-th node."""
    def build() -> Indexed:
        nodes = list(G)
        index = {node: i for i, node in enumerate(nodes)}
        pairs = sorted({(min(index[u], index[v]), max(index[u], index[v])) for u, v in G.edges() if u != v})
        return Indexed(nodes, igraph.Graph(n=len(nodes), edges=pairs))
    return memo(G, ("igraph",), build)


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Run igraph's randomised algorithms from a private generator seeded with `seed`."""
    igraph.set_random_number_generator(random.Random(seed))
    try:
        yield
    finally:
        igraph.set_random_number_generator(random)


def degrees(G: nx.Graph) -> dict[Node, int]:
    """Number of distinct neighbours of each node (other than itself), ignoring edge direction."""
    found = indexed(G)
    return dict(zip(found.nodes, found.graph.degree()))


def pagerank(G: nx.Graph, alpha: float = 0.85, tol: float = 1e-10, max_iter: int = 200,
             digits: int = 6) -> dict[Node, float]:
    """PageRank on the simple undirected, unweighted graph (numpy power iteration)."""
    found = indexed(G)
    n = len(found.nodes)
    if n == 0:
        return {}
    pairs = np.array(found.graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    src, dst = np.concatenate((pairs[:, 0], pairs[:, 1])), np.concatenate((pairs[:, 1], pairs[:, 0]))
    out = np.bincount(src, minlength=n).astype(float)
    rank = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        share = np.divide(rank, out, out=np.zeros(n), where=out > 0)
        dangling = rank[out == 0].sum()
        new = (1 - alpha) / n + alpha * (np.bincount(dst, weights=share[src], minlength=n) + dangling / n)
        done = np.abs(new - rank).sum() < n * tol
        rank = new
        if done:
            break
    return {node: round(float(rank[i]), digits) for i, node in enumerate(found.nodes)}


def positions(G: nx.Graph, seed: int = 42, digits: int = 1,
              community: Mapping[Node, int] | None = None) -> dict[Node, tuple[float, float]]:
    """Deterministic (x, y) for every node, rounded to `digits` decimals (computed once per graph). A large
    graph is laid out by `community` (the graph's topics: kg.exporters.html_map; nodes without one together)."""
    key = ("positions", seed, digits, len(community or ()))
    return dict(memo(G, key, lambda: _positions(G, seed, digits, community or {})))


def _positions(G: nx.Graph, seed: int, digits: int, community: Mapping[Node, int]) -> dict[Node, tuple[float, float]]:
    """One force-directed layout when small, else communities packed on a spiral."""
    found = indexed(G)
    if len(found.nodes) <= SPRING_LIMIT:
        raw = dict(zip(found.nodes, spring(found.graph, seed)))
    else:
        raw = clustered(G, seed, {node: community.get(node, NO_COMMUNITY) for node in found.nodes})
    return {node: (round(float(x), digits) + 0.0, round(float(y), digits) + 0.0)
            for node, (x, y) in ((node, raw[node]) for node in G)}


def spring(graph: igraph.Graph, seed: int, iterations: int = SPRING_ITERATIONS) -> np.ndarray:
    """Fruchterman-Reingold (x, y) rows centred on 0 and spread by the number of vertices."""
    n = graph.vcount()
    if n <= 1:
        return np.zeros((n, 2))
    with seeded(seed):
        raw = np.array(graph.layout_fruchterman_reingold(niter=iterations, grid="nogrid").coords, dtype=float)
    raw -= raw.mean(axis=0)
    extent = np.abs(raw).max()
    radius = SPACING * math.sqrt(n) / 2
    return raw * (radius / extent) if extent > 0 else raw


def spiral(count: int, start: int = 0) -> np.ndarray:
    """Points `start`..`start+count-1` of a unit-density Vogel spiral, as a (count, 2) array."""
    k = np.arange(start, start + count, dtype=float)
    radius = np.sqrt(k + 0.5) / math.sqrt(math.pi)
    return np.column_stack((radius * np.cos(k * GOLDEN_ANGLE), radius * np.sin(k * GOLDEN_ANGLE)))


def clustered(G: nx.Graph, seed: int, community: Mapping[Node, int]) -> dict[Node, tuple[float, float]]:
    """Communities packed on a spiral, each laid out alone (spring if small, else a spiral)."""
    found = indexed(G)
    members: dict[int, list[int]] = {}
    for vertex, node in enumerate(found.nodes):
        members.setdefault(community[node], []).append(vertex)
    pos: dict[Node, tuple[float, float]] = {}
    filled = 0.0  # area used so far, in units of SPACING²
    for number in sorted(members, key=lambda n: (n == NO_COMMUNITY, n)):  # nodes in no community last
        vertices = members[number]
        size = len(vertices)
        radius = math.sqrt(filled + size / 2) / math.sqrt(math.pi) * SPACING * 1.15
        angle = number * GOLDEN_ANGLE
        centre = (radius * math.cos(angle), radius * math.sin(angle)) if filled else (0.0, 0.0)
        filled += size * 1.3
        for vertex, (x, y) in zip(vertices, local_layout(found.graph, vertices, seed)):
            pos[found.nodes[vertex]] = (centre[0] + x, centre[1] + y)
    return pos


def local_layout(graph: igraph.Graph, vertices: list[int], seed: int) -> np.ndarray:
    """Rows of positions of one community around (0, 0): spring when small, hubs-first spiral when large."""
    if len(vertices) <= SPRING_LIMIT:
        return spring(graph.induced_subgraph(vertices, implementation="create_from_scratch"), seed)
    degree = graph.degree(vertices)
    order = sorted(range(len(vertices)), key=lambda i: (-degree[i], vertices[i]))
    points = np.empty((len(vertices), 2))
    points[order] = spiral(len(vertices)) * SPACING
    return points


def node_metrics(G: nx.Graph, seed: int = 42,
                 community: Mapping[Node, int] | None = None) -> dict[Node, dict[str, float | int]]:
    """Per node: community (from `community`, the graph's topics; NO_COMMUNITY for none), degree, pagerank, x, y
    and display size, all deterministic."""
    community = community or {}
    degree = degrees(G)
    rank = pagerank(G)
    pos = positions(G, seed, community=community)
    return {node: {"community": community.get(node, NO_COMMUNITY), "degree": degree[node], "pagerank": rank[node],
                   "x": pos[node][0], "y": pos[node][1], "size": node_size(degree[node])}
            for node in G}


def node_size(degree: int) -> float:
    """A display size growing with the square root of the degree."""
    return round(6.0 + 3.0 * math.sqrt(degree), 2)


def type_color(node_type: str | None) -> str:
    """The hex colour of a node type ("paper" or an entity type)."""
    return TYPE_COLORS.get(node_type or "", OTHER_COLOR)


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """Integer red, green and blue of a `#rrggbb` colour."""
    value = color.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
